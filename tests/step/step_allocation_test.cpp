// A step makes no heap allocation after the first one (the first sizes the
// scratch and, through the ABI's reserve(), every solver's workspace,
// fallbacks included). Counted by replacing the global
// operator new of this test program. Also: two identical worlds stepped the
// same way stay bitwise identical (determinism).
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <new>

#include <gtest/gtest.h>

#include "first_party_plugins.hpp"

namespace {
std::atomic<long> allocations{0};
std::atomic<bool> counting{false};
}  // namespace

// AddressSanitizer supplies its own operator new/delete, and plugins built
// with it resolve to those: a replacement here would mismatch them. So the
// counting replacement is left out of sanitizer builds (the test is skipped
// there and runs in every normal build, CI's included).
#if defined(__SANITIZE_ADDRESS__)
#define PIVOT_COUNTS_ALLOCATIONS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PIVOT_COUNTS_ALLOCATIONS 0
#endif
#endif
#ifndef PIVOT_COUNTS_ALLOCATIONS
#define PIVOT_COUNTS_ALLOCATIONS 1
#endif

#if PIVOT_COUNTS_ALLOCATIONS
void* operator new(std::size_t size) {
    if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

#endif

namespace pivot {
namespace {

PluginRegistry& registry() { return test::first_party_plugins(); }

// A chain of `links` bodies hanging from the world by spherical joints,
// released from a horizontal pose so that it swings.
void build_chain(World& world, int links) {
    test::add_swinging_chain(world, links, 0.2, 0.5, {1e-3, 0, 0, 0, 2e-3, 0, 0, 0, 2e-3});
}

class StepBySolver : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        if (registry().find(GetParam()) == nullptr) GTEST_SKIP() << GetParam() << " is not built";
    }
};

TEST_P(StepBySolver, NoHeapAllocationAfterWarmUp) {
    if (!PIVOT_COUNTS_ALLOCATIONS) GTEST_SKIP() << "AddressSanitizer replaces operator new; counted in normal builds";
    WorldSettings settings;
    settings.solver = {GetParam(), nlohmann::json::object()};
    World world(registry(), settings);
    build_chain(world, 10);
    world.step();  // the first step sizes the scratch and the solvers' workspaces
    allocations = 0;
    counting = true;
    for (int i = 0; i < 200; ++i) world.step();
    counting = false;
    EXPECT_EQ(allocations.load(), 0) << "heap allocations in 200 steps with " << GetParam();
    EXPECT_EQ(world.statistics().solver_failures, 0u);
}

TEST_P(StepBySolver, IdenticalWorldsStayBitwiseIdentical) {
    WorldSettings settings;
    settings.solver = {GetParam(), nlohmann::json::object()};
    World a(registry(), settings);
    World b(registry(), settings);
    build_chain(a, 6);
    build_chain(b, 6);
    for (int i = 0; i < 300; ++i) {
        a.step();
        b.step();
    }
    EXPECT_EQ(a.state().q, b.state().q);
    EXPECT_EQ(a.state().v, b.state().v);
}

INSTANTIATE_TEST_SUITE_P(Solvers, StepBySolver,
                         ::testing::Values("pivot.solver.lemke", "pivot.solver.dantzig", "pivot.solver.pgs"),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                             return p.param.substr(p.param.rfind('.') + 1);
                         });

}  // namespace
}  // namespace pivot
