// Fuzzes the scene loader (core/scene/): any bytes given to load_scene_json
// build a world or throw pivot::Error naming the problem, and a world that
// builds steps or throws pivot::Error (a failed step leaves the world as it
// was, so the next step is tried too). Anything else is a finding: a crash,
// a sanitizer report, another exception (std::bad_alloc included), an input
// that runs past libFuzzer's -timeout.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>

#include "common/error.hpp"
#include "first_party_plugins.hpp"
#include "fuzz_support.hpp"
#include "scene/scene_loader.hpp"

namespace {

// Steps per world that loads: contacts appear and the warm starts of the
// first step are used by the next, while an input stays a few milliseconds.
// A scene whose three steps take longer (a huge cable, a tiny timestep with
// a stiff material) is what -timeout reports.
constexpr int kSteps = 3;

// The registry is loaded once and shared by every input (worlds are per
// input); without its plugins every scene would fail at its first solver or
// joint and the fuzzer would explore nothing but that message.
pivot::PluginRegistry& registry() {
    static pivot::PluginRegistry& loaded = []() -> pivot::PluginRegistry& {
        pivot::fuzz::quiet_engine_log();
        pivot::PluginRegistry& r = pivot::test::first_party_plugins();
        if (r.find("pivot.solver.dantzig") == nullptr || r.find("pivot.joint.revolute") == nullptr) {
            std::fprintf(stderr, "fuzz_scene_json: the first-party plugins are not in %s\n",
                         PIVOT_FIRST_PARTY_PLUGIN_DIR);
            std::abort();
        }
        return r;
    }();
    return loaded;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    pivot::PluginRegistry& plugins = registry();
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    if (pivot::fuzz::names_plugin_paths(text)) return 0;
    std::unique_ptr<pivot::World> world;
    try {
        // base_dir is only for plugin_paths, which never get here.
        world = pivot::load_scene_json(plugins, text, PIVOT_FIRST_PARTY_PLUGIN_DIR, "fuzz.json");
    } catch (const pivot::Error&) {
        return 0;
    }
    if (pivot::fuzz::lengthens_step_guard(text)) return 0;  // loaded, not stepped
    for (int k = 0; k < kSteps; ++k) {
        try {
            world->step();
        } catch (const pivot::Error&) {
        }
    }
    return 0;
}

// Half the mutations change one value of the scene as a JSON document
// (fuzz_support.hpp), so mutated inputs get past the parser to the loader's
// checks, the world's build and the step.
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
    return pivot::fuzz::mutate_json(data, size, max_size, seed);
}
