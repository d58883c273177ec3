// Which solver takes which island (WorldSettings::direct_islands): by
// default the islands without friction (a chain of joints) go to the
// sparse direct solver and the others (boxes on the ground, with friction)
// to the world's solver; naming a solver, at creation or between two steps,
// gives it every island. The direct solver and Dantzig solve the same
// problems exactly, so a chain stepped either way stays the same to
// rounding: 1e-9 m after 300 steps (the impulses differ by ~1e-15
// relative; the motion over 0.3 s amplifies that by far less than 1e6).
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "first_party_plugins.hpp"

namespace pivot {
namespace {

PluginRegistry& registry() { return test::first_party_plugins(); }

void add_box_on_ground(World& world) {
    ShapeDescription ground;
    ground.type = "plane";
    world.add_static_shape(ground);
    BodyDescription box;
    box.name = "box";
    box.mass = 1.0;
    box.inertia = {1.0 / 6, 0, 0, 0, 1.0 / 6, 0, 0, 0, 1.0 / 6};
    box.position = {5.0, 0.0, 0.5};
    ShapeDescription cube;
    cube.type = "box";
    cube.size = {1.0, 1.0, 1.0};
    box.shapes.push_back(cube);
    world.add_body(box);
}

TEST(SolverSelection, ChainsGoToTheDirectSolverAndFrictionToTheWorldsSolver) {
    World world(registry(), WorldSettings{});
    EXPECT_TRUE(world.settings().direct_islands);
    test::add_swinging_chain(world, 10, 0.1, 0.1, {6.667e-6, 0, 0, 0, 8.667e-5, 0, 0, 0, 8.667e-5});
    add_box_on_ground(world);
    for (int i = 0; i < 5; ++i) world.step();
    EXPECT_EQ(world.statistics().islands, 2u);
    EXPECT_EQ(world.statistics().direct_islands, 1u) << "the chain; the box's contacts have friction";
    EXPECT_EQ(world.statistics().solver_failures, 0u);
    EXPECT_EQ(world.statistics().fallbacks, 0u);
    // Named between two steps: that solver takes every island.
    world.set_solver({"pivot.solver.pgs", nlohmann::json::object()});
    EXPECT_FALSE(world.settings().direct_islands);
    world.step();
    EXPECT_EQ(world.statistics().direct_islands, 0u);
}

TEST(SolverSelection, NamedSolverTakesEveryIsland) {
    WorldSettings settings;
    settings.direct_islands = false;
    World world(registry(), settings);
    test::add_swinging_chain(world, 10, 0.1, 0.1, {6.667e-6, 0, 0, 0, 8.667e-5, 0, 0, 0, 8.667e-5});
    world.step();
    EXPECT_EQ(world.statistics().direct_islands, 0u);
}

TEST(SolverSelection, DirectAndDantzigStepAChainAlike) {
    WorldSettings dantzig_only;
    dantzig_only.direct_islands = false;
    dantzig_only.solver = {"pivot.solver.dantzig", {{"tolerance", 1e-12}}};
    World direct(registry(), WorldSettings{});
    World dantzig(registry(), dantzig_only);
    for (World* w : {&direct, &dantzig}) {
        test::add_swinging_chain(*w, 20, 0.1, 0.1, {6.667e-6, 0, 0, 0, 8.667e-5, 0, 0, 0, 8.667e-5});
    }
    double largest = 0.0;
    for (int i = 0; i < 300; ++i) {
        direct.step();
        dantzig.step();
        EXPECT_EQ(direct.statistics().direct_islands, 1u);
    }
    for (uint32_t b = 0; b < direct.body_count(); ++b) {
        for (int k = 0; k < 3; ++k) largest = std::max(largest, std::abs(direct.position(b)[k] - dantzig.position(b)[k]));
    }
    std::printf("20-link chain, 300 steps at 1 ms: largest position difference direct - dantzig %.2e m\n", largest);
    EXPECT_LE(largest, 1e-9);
}

}  // namespace
}  // namespace pivot
