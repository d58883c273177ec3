// Fuzzes the embedding C API on scene JSON (pivot.h): any text given to
// pivot_world_create_from_json makes a world or returns PIVOT_ERROR, and a
// world steps a few times (each step alone, so a failed one is followed by
// another) while everything an application reads every frame is read after
// each step: statistics, contacts, bodies, joints, cable nodes. No call may
// crash or throw across the interface (pivot.h: "No function aborts or
// throws"); an error is an expected outcome unless std::bad_alloc is behind
// it. A crash, a sanitizer report or an input that runs past libFuzzer's
// -timeout is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.hpp"

namespace {

using pivot::fuzz::expect_clean_failure;

// As fuzz_scene_json: contacts and warm starts come into play, an input
// stays short.
constexpr int kSteps = 3;

// A scene that needs a solver and a joint plugin: if it does not build, the
// engine found no first-party plugins and every input would fail alike.
constexpr const char* kPluginCheckScene = R"({
  "format": "pivot-scene/1", "settings": { "solver": "dantzig" },
  "bodies": [ { "name": "bob", "mass": 1, "inertia": [0.01, 0.01, 0.01], "position": [1, 0, 0] } ],
  "joints": [ { "name": "hinge", "type": "revolute", "body1": "world", "body2": "bob",
                "anchor": [0, 0, 0], "axis": [0, 1, 0] } ]
})";

// The engine (its plugins) is created once; worlds are per input.
pivot_engine* engine() {
    static pivot_engine* created = [] {
        pivot::fuzz::quiet_engine_log();
        pivot_engine* e = nullptr;
        pivot_world* check = nullptr;
        if (pivot_engine_create(&e) != PIVOT_OK ||
            pivot_world_create_from_json(e, kPluginCheckScene, nullptr, &check) != PIVOT_OK) {
            std::fprintf(stderr, "fuzz_c_api_json: %s\n", pivot_last_error());
            std::abort();
        }
        pivot_world_destroy(check);
        return e;
    }();
    return created;
}

// What a renderer or an operator console reads after a step.
void read_everything(const pivot_world* world) {
    pivot_world_statistics statistics;
    pivot_world_statistics_init(&statistics);
    expect_clean_failure(pivot_world_statistics_get(world, &statistics));

    uint32_t count = 0;
    expect_clean_failure(pivot_world_contacts(world, nullptr, 0, &count));
    std::vector<pivot_contact> contacts(count);
    std::vector<pivot_contact_cables> sides(count);
    expect_clean_failure(pivot_world_contacts(world, contacts.data(), count, &count));
    expect_clean_failure(pivot_world_contact_cables(world, sides.data(), static_cast<uint32_t>(sides.size()), &count));

    for (uint32_t b = 0; b < pivot_world_body_count(world); ++b) {
        pivot_body_state state;
        expect_clean_failure(pivot_world_get_body(world, b, &state));
        (void)pivot_world_body_name(world, b);
    }
    for (uint32_t j = 0; j < pivot_world_joint_count(world); ++j) {
        pivot_joint_reaction reaction;
        expect_clean_failure(pivot_world_joint_reaction(world, j, &reaction));
        double position = 0.0, rate = 0.0;
        expect_clean_failure(pivot_world_joint_coordinate(world, j, &position, &rate));  // fails without one
        (void)pivot_world_joint_name(world, j);
    }
    for (uint32_t c = 0; c < pivot_world_cable_count(world); ++c) {
        const uint32_t nodes = pivot_world_cable_node_count(world, c);
        std::vector<double> positions(3 * size_t{nodes}), velocities(3 * size_t{nodes});
        expect_clean_failure(pivot_world_get_cable_nodes(world, c, positions.data(), velocities.data(), nodes));
        (void)pivot_world_cable_name(world, c);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    pivot_engine* e = engine();
    // The API takes a C string: the scene is the input up to its first NUL.
    const std::string text(reinterpret_cast<const char*>(data), size);
    if (pivot::fuzz::names_plugin_paths(std::string_view(text.c_str()))) return 0;
    pivot_world* world = nullptr;
    const pivot_status created = pivot_world_create_from_json(e, text.c_str(), nullptr, &world);
    if (created != PIVOT_OK) {
        expect_clean_failure(created);
        return 0;
    }
    for (int k = 0; k < kSteps && !pivot::fuzz::lengthens_step_guard(text.c_str()); ++k) {
        expect_clean_failure(pivot_world_step(world, 1));
        read_everything(world);
    }
    pivot_world_destroy(world);
    return 0;
}

// Half the mutations change one value of the scene as a JSON document
// (fuzz_support.hpp), so mutated inputs get past the parser to the loader's
// checks, the world's build and the step.
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
    return pivot::fuzz::mutate_json(data, size, max_size, seed);
}
