// Writes the seed corpus of fuzz_save_state: the states of the world of
// save_state_world.hpp after 0 steps (no contact yet), 1 (the box's
// contacts), 40 (the ball landing on its compliant material) and 200 (at
// rest, the pendulum swinging on), each checked to restore into a fresh
// world. The buffers fit only the engine version that
// wrote them (pivot.h): after a change of the state's layout, run
//   cmake --build build --target fuzz_save_state_seeds &&
//   build/bin/fuzz_save_state_seeds tests/fuzz/corpus/fuzz_save_state
// so the fuzzer starts from states the engine accepts again.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

#include "save_state_world.hpp"

namespace {

int fail(const char* what) {
    std::fprintf(stderr, "fuzz_save_state_seeds: %s: %s\n", what, pivot_last_error());
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUTPUT_FOLDER\n", argc > 0 ? argv[0] : "fuzz_save_state_seeds");
        return 2;
    }
    pivot_engine* engine = nullptr;
    if (pivot_engine_create(&engine) != PIVOT_OK) return fail("pivot_engine_create");
    pivot_world* world = pivot::fuzz::create_save_state_world(engine);
    pivot_world* fresh = pivot::fuzz::create_save_state_world(engine);
    if (world == nullptr || fresh == nullptr) return fail("the save-state world");
    uint32_t done = 0;
    for (const uint32_t steps : {0u, 1u, 40u, 200u}) {
        if (pivot_world_step(world, steps - done) != PIVOT_OK) return fail("pivot_world_step");
        done = steps;
        size_t size = 0;
        pivot_world_save_state(world, nullptr, 0, &size);
        std::vector<uint8_t> state(size);
        if (pivot_world_save_state(world, state.data(), state.size(), &size) != PIVOT_OK) return fail("save");
        if (pivot_world_restore_state(fresh, state.data(), state.size()) != PIVOT_OK) return fail("restore");
        const std::string file = std::string(argv[1]) + "/state_step" + std::to_string(steps) + ".bin";
        std::ofstream out(file, std::ios::binary);
        out.write(reinterpret_cast<const char*>(state.data()), static_cast<std::streamsize>(state.size()));
        if (!out) {
            std::fprintf(stderr, "fuzz_save_state_seeds: %s: cannot be written\n", file.c_str());
            return 1;
        }
        std::printf("%s: %zu bytes\n", file.c_str(), state.size());
    }
    pivot_world_destroy(fresh);
    pivot_world_destroy(world);
    pivot_engine_destroy(engine);
    return 0;
}
