// Whole steps of worlds with an ANCF cable (issue 7), at h = 10 ms.
//
// cable/swing/N: a 10 m steel wire (r = 10 mm, E = 2e11 Pa) of N elements
// pinned at one end and released horizontal: it swings and bends, so the
// cable's matrix changes every step.
// cable/crane/N: scenes/cable_crane.json with its wire made of N elements
// (the boom luffs up and lifts the load; timed from 2 s into the run, while
// the load is lifted and swings).
// Counters: per-stage mean times (us_*), real_time_factor = h / (wall time
// per step), rows and islands of the last step, solver failures.
#include <array>
#include <fstream>
#include <sstream>
#include <string>

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include "first_party_plugins.hpp"
#include "scene/scene_loader.hpp"

namespace pivot {
namespace {

PluginRegistry& registry() { return test::first_party_plugins(); }

using StageTimes = std::array<double, static_cast<size_t>(StepStage::count)>;

void time_steps(benchmark::State& state, World& world) {
    StageTimes stage_total{};
    uint64_t failures = 0;
    for (auto _ : state) {
        world.step();
        const StepStatistics& s = world.statistics();
        for (size_t k = 0; k < stage_total.size(); ++k) stage_total[k] += s.stage_seconds[k];
        failures += s.solver_failures;
    }
    const double n = static_cast<double>(state.iterations());
    double total = 0.0;
    for (size_t k = 0; k < stage_total.size(); ++k) {
        state.counters[std::string("us_") + step_stage_name(static_cast<StepStage>(k))] = 1e6 * stage_total[k] / n;
        total += stage_total[k];
    }
    state.counters["real_time_factor"] = world.settings().timestep / (total / n);
    state.counters["rows"] = world.statistics().rows;
    state.counters["islands"] = world.statistics().islands;
    state.counters["solver_failures"] = static_cast<double>(failures);
}

void swing(benchmark::State& state) {
    WorldSettings settings;
    settings.timestep = 0.01;
    World world(registry(), settings);
    CableDescription c;
    c.name = "wire";
    c.start = {0, 0, 0};
    c.end = {10, 0, 0};
    c.elements = static_cast<uint32_t>(state.range(0));
    c.radius = 0.01;
    c.density = 7800;
    c.youngs_modulus = 2e11;
    c.attach.push_back({0, "world", "spherical"});
    world.add_cable(c);
    for (int i = 0; i < 10; ++i) world.step();  // warm-up: sizing, the first factorizations
    time_steps(state, world);
}

void crane(benchmark::State& state) {
    std::ifstream file(PIVOT_SCENE_DIR "/cable_crane.json");
    std::stringstream text;
    text << file.rdbuf();
    nlohmann::json scene = nlohmann::json::parse(text.str());
    scene["cables"][0]["elements"] = state.range(0);
    auto world = load_scene_json(registry(), scene.dump(), PIVOT_SCENE_DIR, "cable_crane.json");
    for (int i = 0; i < 200; ++i) world->step();  // 2 s: the load is off the ground
    time_steps(state, *world);
}

}  // namespace
}  // namespace pivot

BENCHMARK(pivot::swing)->Arg(16)->Arg(50)->Arg(200)->Name("cable/swing")->Unit(benchmark::kMicrosecond);
BENCHMARK(pivot::crane)->Arg(16)->Arg(50)->Arg(200)->Name("cable/crane")->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
