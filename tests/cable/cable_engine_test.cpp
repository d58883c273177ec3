// The engine with ANCF cables: solvers, determinism, snapshots, allocation.
#include <gtest/gtest.h>

#include "first_party_plugins.hpp"

namespace pivot {
namespace {

PluginRegistry& registry() { return test::first_party_plugins(); }

// Same inputs, same binary: bitwise the same cable state.
TEST(CableEngine, TwoRunsAreBitwiseEqual) {
    auto run = [] {
        WorldSettings settings;
        settings.timestep = 0.01;
        World world(registry(), settings);
        CableDescription c;
        c.name = "rope";
        c.start = {0, 0, 0};
        c.end = {2, 0, 0};
        c.elements = 6;
        c.radius = 0.005;
        c.attach.push_back({0, "world", "spherical"});
        world.add_cable(c);
        for (int i = 0; i < 50; ++i) world.step();
        return world.state().q;
    };
    EXPECT_EQ(run(), run());
}

}  // namespace
}  // namespace pivot
