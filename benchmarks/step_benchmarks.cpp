// Whole steps of rigid-body worlds: chains of 10, 50 and 200 links on
// spherical joints at h = 1 ms, hanging from the world and released from a
// horizontal pose (so the problem changes every step), with each solver.
// Time per step; counters: rows, solver iterations, largest joint error.
#include <string>

#include <benchmark/benchmark.h>

#include "plugin_host/plugin_registry.hpp"
#include "world/world.hpp"

namespace pivot {
namespace {

PluginRegistry& registry() {
    static PluginRegistry r;
    static bool loaded = [] {
        r.load(PIVOT_FIRST_PARTY_PLUGIN_DIR);
        return true;
    }();
    (void)loaded;
    return r;
}

void chain(benchmark::State& state, const std::string& solver) {
    if (registry().find(solver) == nullptr) {
        state.SkipWithError(("not built: " + solver).c_str());
        return;
    }
    const int links = static_cast<int>(state.range(0));
    WorldSettings settings;
    settings.timestep = 1e-3;
    settings.solver = {solver, nlohmann::json::object()};
    World world(registry(), settings);
    const double length = 0.1;
    for (int i = 0; i < links; ++i) {
        BodyDescription b;
        b.name = "link" + std::to_string(i);
        b.mass = 0.2;
        b.inertia = {2e-4, 0, 0, 0, 2e-4, 0, 0, 0, 1e-5};
        b.position = {(i + 0.5) * length, 0.0, 0.0};
        world.add_body(b);
        JointDescription j;
        j.name = "joint" + std::to_string(i);
        j.type = "spherical";
        j.body1 = i == 0 ? "world" : "link" + std::to_string(i - 1);
        j.body2 = b.name;
        j.anchor = {i * length, 0.0, 0.0};
        world.add_joint(j);
    }
    for (int i = 0; i < 10; ++i) world.step();  // warm-up: sizing, first solves
    double max_error = 0.0;
    uint64_t iterations = 0;
    for (auto _ : state) {
        world.step();
        max_error = std::max(max_error, world.statistics().max_joint_error);
        iterations += world.statistics().solver_iterations;
    }
    state.counters["rows"] = world.statistics().rows;
    state.counters["iterations_per_step"] =
        benchmark::Counter(static_cast<double>(iterations), benchmark::Counter::kAvgIterations);
    state.counters["max_joint_error"] = max_error;
    state.counters["solver_failures"] = world.statistics().solver_failures;
}

void register_all() {
    for (const char* solver : {"pivot.solver.dantzig", "pivot.solver.pgs", "pivot.solver.lemke"}) {
        const std::string name = std::string("chain/") + (std::string(solver).substr(13));
        benchmark::RegisterBenchmark(name.c_str(), [solver](benchmark::State& s) { chain(s, solver); })
            ->Arg(10)
            ->Arg(50)
            ->Arg(200)
            ->Unit(benchmark::kMicrosecond);
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
