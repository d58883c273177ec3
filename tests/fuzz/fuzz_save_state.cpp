// Fuzzes restoring a saved state through the C API
// (pivot_world_restore_state; core/world/world_snapshot.cpp reads it): a
// fresh world of save_state_world.hpp gets the input as its state. A buffer
// the world refuses must leave it exactly as it was (pivot.h: a failed call
// changes nothing; checked by saving before and after). A world that
// accepts it steps once. Anything else is a finding: a crash, a sanitizer
// report, a changed world after a refusal, std::bad_alloc behind an error,
// an input that runs past libFuzzer's -timeout.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "fuzz_support.hpp"
#include "save_state_world.hpp"

namespace {

[[noreturn]] void fail(const char* what) {
    std::fprintf(stderr, "fuzz_save_state: %s\n", what);
    std::abort();
}

// The engine (its plugins) is created once; worlds are per input.
pivot_engine* engine() {
    static pivot_engine* created = [] {
        pivot::fuzz::quiet_engine_log();
        pivot_engine* e = nullptr;
        if (pivot_engine_create(&e) != PIVOT_OK) fail(pivot_last_error());
        return e;
    }();
    return created;
}

std::vector<uint8_t> saved_state(const pivot_world* world) {
    size_t size = 0;
    pivot_world_save_state(world, nullptr, 0, &size);  // "buffer too small", with the size
    std::vector<uint8_t> state(size);
    if (pivot_world_save_state(world, state.data(), state.size(), &size) != PIVOT_OK) fail(pivot_last_error());
    return state;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    pivot_world* world = pivot::fuzz::create_save_state_world(engine());
    if (world == nullptr) fail(pivot_last_error());  // the fixed scene: the engine lacks its plugins
    const std::vector<uint8_t> before = saved_state(world);
    const pivot_status restored = pivot_world_restore_state(world, data, size);
    if (restored != PIVOT_OK) {
        pivot::fuzz::expect_clean_failure(restored);
        if (saved_state(world) != before) fail("a refused state buffer changed the world");
    } else {
        pivot::fuzz::expect_clean_failure(pivot_world_step(world, 1));
    }
    pivot_world_destroy(world);
    return 0;
}
