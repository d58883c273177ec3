// Solver plugins on the contact-structured problems of tests/data/lcp-bench
// (the files on which ODE, Bullet and Siconos were timed; see its README).
// Each benchmark times the plugin's solve() alone, cold (x = 0) unless the
// name says warm; the counters give the host's natural-map residual of the
// last solve and the solver's iteration (pivot/sweep) count.
#include <cstdio>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

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

void register_all() {
    std::vector<Case> cases;
    for (const char* f : kNormal) {
        cases.push_back({"pivot.solver.lemke", f, {{"tolerance", 1e-8}}});
        cases.push_back({"pivot.solver.dantzig", f, {{"tolerance", 1e-8}}});
        cases.push_back({"pivot.solver.pgs", f, {{"tolerance", 1e-6}}});
    }
    for (const char* f : kFriction) {
        cases.push_back({"pivot.solver.dantzig", f, {{"tolerance", 1e-8}}});
        cases.push_back({"pivot.solver.dantzig", f, {{"tolerance", 1e-8}}, true});
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
