// Whole steps of rigid-body worlds: chains of 10, 50 and 200 links on
// spherical joints at h = 1 ms, hanging from the world and released from a
// horizontal pose (so the problem changes every step), with each solver.
// Time per step; counters: rows, solver iterations, largest joint error.
#include <array>
#include <string>

#include <benchmark/benchmark.h>

#include "first_party_plugins.hpp"

namespace pivot {
namespace {

PluginRegistry& registry() { return test::first_party_plugins(); }

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
    test::add_swinging_chain(world, links, 0.1, 0.2, {2e-4, 0, 0, 0, 2e-4, 0, 0, 0, 1e-5});
    for (int i = 0; i < 10; ++i) world.step();  // warm-up: sizing, first solves
    double max_error = 0.0;
    uint64_t iterations = 0;
    std::array<double, static_cast<size_t>(StepStage::count)> stage_total{};
    for (auto _ : state) {
        world.step();
        max_error = std::max(max_error, world.statistics().max_joint_error);
        iterations += world.statistics().solver_iterations;
        for (size_t k = 0; k < stage_total.size(); ++k) stage_total[k] += world.statistics().stage_seconds[k];
    }
    // Mean time per stage, in microseconds.
    for (size_t k = 0; k < stage_total.size(); ++k) {
        state.counters[std::string("us_") + step_stage_name(static_cast<StepStage>(k))] =
            1e6 * stage_total[k] / static_cast<double>(state.iterations());
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
