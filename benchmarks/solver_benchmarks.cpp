// Solver plugins on the contact-structured problems of tests/data/lcp-bench
// (the files on which ODE, Bullet and Siconos were timed; see its README).
// Each benchmark times the plugin's solve() alone, cold (x = 0) unless the
// name says warm; the counters give the host's natural-map residual of the
// last solve and the solver's iteration (pivot/sweep) count.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "contact_problem_generator.hpp"
#include "lcp/lcp_file.hpp"
#include "plugin_host/checked_calls.hpp"
#include "plugin_host/lcp_residual.hpp"
#include "plugin_host/parameters.hpp"
#include "plugin_host/plugin_registry.hpp"

namespace pivot {
namespace {

PluginRegistry& registry() {
    static PluginRegistry r;
    static const bool loaded = [] {
        LoadReport report = r.load(PIVOT_FIRST_PARTY_PLUGIN_DIR);
        for (const auto& p : report.problems) std::fprintf(stderr, "%s\n", p.c_str());
        return true;
    }();
    (void)loaded;
    return r;
}

struct Case {
    std::string solver;  // id
    std::string file;    // in lcp-bench
    nlohmann::json options;
    bool warm = false;   // warm start from the solution of the same problem
};

void run(benchmark::State& state, const Case& c) {
    const PluginRecord* plugin = registry().find(c.solver);
    if (plugin == nullptr) {
        state.SkipWithError(("solver not built: " + c.solver).c_str());
        return;
    }
    LcpProblem problem = read_lcp_file(std::string(PIVOT_BENCH_DATA_DIR) + "/" + c.file);
    if (!plugin->has(PIVOT_SOLVER_CAP_DENSE)) {
        problem.make_sparse();
        problem.dense.clear();
    }
    if (problem.has_findex() && !plugin->has(PIVOT_SOLVER_CAP_FRICTION_INDEX)) {
        state.SkipWithError("the solver has no friction index (the host iterates the bounds; see lcp solve)");
        return;
    }
    PluginInstance solver(*plugin, pack_params(*plugin, ParamScope::instance, c.options, c.solver));
    const pivot_lcp_problem view = problem.view();
    if (plugin->solver.reserve != nullptr) plugin->solver.reserve(solver.handle(), view.n, view.nnz);

    std::vector<double> x(problem.n, 0.0);
    std::vector<double> w(problem.n, 0.0);
    std::vector<double> start(problem.n, 0.0);
    pivot_solve_report report{};
    report.struct_size = sizeof(report);
    pivot_solve_options options{sizeof(options), 0, 0.0};
    if (c.warm) {
        plugin->solver.solve(solver.handle(), &view, &options, start.data(), w.data(), &report);
        options.flags = PIVOT_SOLVE_WARM_START;
    }
    pivot_status status = PIVOT_OK;
    for (auto _ : state) {
        x = start;
        status = plugin->solver.solve(solver.handle(), &view, &options, x.data(), w.data(), &report);
        benchmark::DoNotOptimize(x.data());
    }
    lcp_multiply(view, x.data(), w.data());
    state.counters["residual"] = lcp_natural_map_residual(view, x.data(), w.data());
    state.counters["iterations"] = report.iterations;
    state.counters["n"] = problem.n;
    if (status != PIVOT_OK && status != PIVOT_WARNING) state.SkipWithError(report.message);
}

const char* kNormal[] = {"lcp_nc010_normal.txt", "lcp_nc050_normal.txt", "lcp_nc200_normal.txt", "lcp_nc333_normal.txt"};
const char* kFriction[] = {"lcp_nc010_fric.txt", "lcp_nc050_fric.txt", "lcp_nc200_fric.txt", "lcp_nc333_fric.txt"};

// PGS on 30 000-row sparse problems (piles of boxes,
// tests/solvers/pgs/contact_problem_generator.hpp): 30 000 frictionless
// contacts to 1e-6, and 10 000 contacts with friction for a fixed 300
// sweeps (it does not reach 1e-6 there: docs/benchmarks.md).
void pgs_large(benchmark::State& state, bool friction) {
    const PluginRecord* plugin = registry().find("pivot.solver.pgs");
    if (plugin == nullptr) {
        state.SkipWithError("solver not built: pivot.solver.pgs");
        return;
    }
    test::ContactPileSpec spec;
    // 30 000 rows either way: 30 000 frictionless contacts, or 10 000 with
    // [normal, t1, t2] rows.
    spec.contacts = friction ? 10000 : 30000;
    spec.stack_columns = friction ? 50 : 87;
    spec.friction = friction;
    const LcpProblem problem = test::make_contact_pile(spec);
    const nlohmann::json options = friction ? nlohmann::json{{"tolerance", 1e-6}, {"max_iterations", 300}}
                                            : nlohmann::json{{"tolerance", 1e-6}};
    PluginInstance solver(*plugin, pack_params(*plugin, ParamScope::instance, options, "pgs"));
    const pivot_lcp_problem view = problem.view();
    plugin->solver.reserve(solver.handle(), view.n, view.nnz);
    std::vector<double> x(problem.n, 0.0);
    std::vector<double> w(problem.n, 0.0);
    pivot_solve_report report{};
    report.struct_size = sizeof(report);
    const pivot_solve_options solve_options{sizeof(solve_options), 0, 0.0};
    for (auto _ : state) {
        std::fill(x.begin(), x.end(), 0.0);
        plugin->solver.solve(solver.handle(), &view, &solve_options, x.data(), w.data(), &report);
        benchmark::DoNotOptimize(x.data());
    }
    lcp_multiply(view, x.data(), w.data());
    state.counters["residual"] = lcp_natural_map_residual(view, x.data(), w.data());
    state.counters["iterations"] = report.iterations;
    state.counters["n"] = problem.n;
    state.counters["nnz"] = view.nnz;
}

void register_all() {
    benchmark::RegisterBenchmark("pgs/pile30000_frictionless_contacts", [](benchmark::State& s) { pgs_large(s, false); })
        ->Unit(benchmark::kMillisecond)
        ->Iterations(3);
    benchmark::RegisterBenchmark("pgs/pile10000_contacts_with_friction_300_sweeps",
                                 [](benchmark::State& s) { pgs_large(s, true); })
        ->Unit(benchmark::kMillisecond)
        ->Iterations(3);
    std::vector<Case> cases;
    for (const char* f : kNormal) {
        cases.push_back({"pivot.solver.lemke", f, {{"tolerance", 1e-8}}});
        cases.push_back({"pivot.solver.dantzig", f, {{"tolerance", 1e-10}}});
        cases.push_back({"pivot.solver.pgs", f, {{"tolerance", 1e-6}}});
    }
    for (const char* f : kFriction) {
        cases.push_back({"pivot.solver.lemke", f, {{"tolerance", 1e-8}}});
        cases.push_back({"pivot.solver.lemke", f, {{"tolerance", 1e-8}}, true});
        cases.push_back({"pivot.solver.dantzig", f, {{"tolerance", 1e-10}}});
        cases.push_back({"pivot.solver.dantzig", f, {{"tolerance", 1e-10}}, true});
        cases.push_back({"pivot.solver.pgs", f, {{"tolerance", 1e-6}}});
        cases.push_back({"pivot.solver.pgs", f, {{"tolerance", 1e-6}}, true});
    }
    for (const auto& c : cases) {
        const std::string name = c.solver.substr(c.solver.rfind('.') + 1) + "/" + c.file + (c.warm ? "/warm" : "");
        benchmark::RegisterBenchmark(name.c_str(), [c](benchmark::State& s) { run(s, c); })
            ->Unit(benchmark::kMillisecond);
    }
}

}  // namespace
}  // namespace pivot

int main(int argc, char** argv) {
    pivot::register_all();
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
