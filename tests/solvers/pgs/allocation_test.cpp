// solve() makes no heap allocation for a problem within what reserve() was
// given (plugin_solver.h: the step path must not allocate), subspace
// minimization included. Counted by replacing the global operator new of this
// test executable, which the plugin's (loaded) code also calls.
#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include <gtest/gtest.h>

#include "pgs_test_support.hpp"

namespace {
std::atomic<bool> g_counting{false};
std::atomic<size_t> g_allocations{0};

void* counted_allocation(std::size_t size) {
    if (g_counting.load()) ++g_allocations;
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}
}  // namespace

void* operator new(std::size_t size) { return counted_allocation(size); }
void* operator new[](std::size_t size) { return counted_allocation(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace pivot::test {
namespace {

// Allocations made by one raw call of the plugin's solve().
size_t allocations_in_solve(const PluginInstance& solver, const LcpProblem& p, double time_budget = 0.0) {
    std::vector<double> x(p.n, 0.0);
    std::vector<double> w(p.n, 0.0);
    pivot_solve_report report{};
    report.struct_size = sizeof(report);
    const pivot_lcp_problem view = p.view();
    const pivot_solve_options options{sizeof(pivot_solve_options), 0, time_budget};
    g_allocations = 0;
    g_counting = true;
    const pivot_status status = solver.plugin().solver.solve(solver.handle(), &view, &options, x.data(), w.data(), &report);
    g_counting = false;
    EXPECT_TRUE(status == PIVOT_OK || status == PIVOT_WARNING) << report.message;
    return g_allocations.load();
}

TEST(PgsAllocation, NoneAfterReserveEvenOnTheFirstSolve) {
    for (const char* file : {"lcp-bench/lcp_nc333_fric.txt", "lcp-bench/lcp_nc200_normal.txt"}) {
        const LcpProblem p = sparse_file_problem(file);
        const PluginInstance solver = make_solver(kPgs);
        ASSERT_EQ(solver.plugin().solver.reserve(solver.handle(), p.n, static_cast<uint32_t>(p.values.size())),
                  PIVOT_OK);
        EXPECT_EQ(allocations_in_solve(solver, p), 0u) << file;
        EXPECT_EQ(allocations_in_solve(solver, p, 1e-9), 0u) << file << " (time budget)";
    }
}

// The counter sees the plugin's allocations: without reserve() the first
// solve grows the workspace (the one allocation solve() may make), the
// second does not.
TEST(PgsAllocation, WithoutReserveOnlyTheFirstSolveAllocates) {
    const LcpProblem p = sparse_file_problem("lcp-bench/lcp_nc050_fric.txt");
    const PluginInstance solver = make_solver(kPgs);
    EXPECT_GT(allocations_in_solve(solver, p), 0u);
    EXPECT_EQ(allocations_in_solve(solver, p), 0u);
}

}  // namespace
}  // namespace pivot::test
