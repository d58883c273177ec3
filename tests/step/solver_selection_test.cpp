// Which solver takes which island (WorldSettings::direct_islands,
// newton_islands): by default the islands without friction (a chain of
// joints) go to the sparse direct solver and contact islands with friction
// (boxes on the ground) to the Newton solver, large ones (large_island_rows)
// to velocity PGS; the step budget; naming a solver, at creation or between two steps,
// gives it every island. The direct solver and Dantzig solve the same
// problems exactly, so a chain stepped either way stays the same to
// rounding: 1e-9 m after 300 steps (the impulses differ by ~1e-15
// relative; the motion over 0.3 s amplifies that by far less than 1e6).
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "first_party_plugins.hpp"

namespace pivot {
namespace {

PluginRegistry& registry() { return test::first_party_plugins(); }

// The ground and `count` unit cubes (1 m, 1 kg) stacked on it at x.
void add_ground_and_stack(World& world, int count, double x) {
    ShapeDescription ground;
    ground.type = "plane";
    world.add_static_shape(ground);
    for (int k = 0; k < count; ++k) {
        BodyDescription box;
        box.name = "box" + std::to_string(k);
        box.mass = 1.0;
        box.inertia = {1.0 / 6, 0, 0, 0, 1.0 / 6, 0, 0, 0, 1.0 / 6};
        box.position = {x, 0.0, 0.5 + k};
        ShapeDescription cube;
        cube.type = "box";
        cube.size = {1.0, 1.0, 1.0};
        box.shapes.push_back(cube);
        world.add_body(box);
    }
}

// A box on the ground, 5 m from the origin (away from a chain hung there).
void add_box_on_ground(World& world) { add_ground_and_stack(world, 1, 5.0); }

TEST(SolverSelection, ChainsGoToTheDirectSolverAndFrictionToTheWorldsSolver) {
    World world(registry(), WorldSettings{});
    EXPECT_TRUE(world.settings().direct_islands);
    test::add_swinging_chain(world, 10, 0.1, 0.1, {6.667e-6, 0, 0, 0, 8.667e-5, 0, 0, 0, 8.667e-5});
    add_box_on_ground(world);
    for (int i = 0; i < 5; ++i) world.step();
    EXPECT_EQ(world.statistics().islands, 2u);
    EXPECT_EQ(world.statistics().direct_islands, 1u) << "the chain; the box's contacts have friction";
    EXPECT_EQ(world.statistics().newton_islands, 1u) << "the box on the ground";
    EXPECT_EQ(world.statistics().solver_failures, 0u);
    EXPECT_EQ(world.statistics().fallbacks, 0u);
    // Named between two steps: that solver takes every island.
    world.set_solver({"pivot.solver.pgs", nlohmann::json::object()});
    EXPECT_FALSE(world.settings().direct_islands);
    EXPECT_FALSE(world.settings().newton_islands);
    world.step();
    EXPECT_EQ(world.statistics().direct_islands, 0u);
    EXPECT_EQ(world.statistics().newton_islands, 0u);
}

// A step budget spent before the solve (1 ns): the box's island is solved
// by Newton with the token budget, which returns its warm start's answer
// (the last step's impulses, usable: finite, within bounds): applied,
// counted as budget-limited, not as a failure, and no fallback starts.
// Without the budget the same world solves every island exactly.
TEST(SolverSelection, AStepBudgetCutsTheSolveShortWithTheBestAnswer) {
    WorldSettings settings;
    World world(registry(), settings);
    add_box_on_ground(world);
    for (int i = 0; i < 5; ++i) world.step();
    EXPECT_EQ(world.statistics().budget_limited, 0u);
    EXPECT_EQ(world.statistics().solver_failures, 0u);

    WorldSettings budgeted = settings;
    budgeted.step_budget = 1e-9;
    World cut(registry(), budgeted);
    add_box_on_ground(cut);
    for (int i = 0; i < 5; ++i) {
        cut.step();
        EXPECT_EQ(cut.statistics().newton_islands, 1u);
        EXPECT_EQ(cut.statistics().budget_limited, 1u) << "step " << i;
        EXPECT_EQ(cut.statistics().solver_failures, 0u) << "a budgeted answer is not a failure";
        EXPECT_EQ(cut.statistics().fallbacks, 0u) << "no fallback starts once the budget is spent";
        EXPECT_GT(cut.statistics().solver_residual_max, 1e-6) << "how far from exact it is, reported";
        const auto p = cut.position(0);
        EXPECT_TRUE(std::isfinite(p[0]) && std::isfinite(p[1]) && std::isfinite(p[2]));
    }
}

// A row of 8 touching spheres (r = 0.5 m, 1 kg) on the ground: one island
// of 8 ground and 7 neighbour contacts x 3 rows = 45 rows. With
// large_island_rows = 40 it is a large island, solved by velocity PGS with
// no fallback behind it. Its contacts are not redundant (A is well
// conditioned), so enough sweeps solve it to the acceptance and the spheres
// rest (within 1 mm after 1 s). A stack of boxes capped at 2 sweeps a step
// is budget-limited, reported with its residual, never a failure. (A box's 4
// contacts per face are redundant: PGS creeps along their near-null space
// at a rate set by the contact regularization, 1e-5, which is why box
// stacks and pyramids below large_island_rows stay with the Newton solver.)
using test::add_row_of_spheres;  // first_party_plugins.hpp

TEST(SolverSelection, LargeContactIslandsGoToVelocityPgsWithItsSweepsAsTheirBudget) {
    WorldSettings settings;
    settings.timestep = 1.0 / 60.0;
    settings.large_island_rows = 40;
    settings.large_island_sweeps = 5000;
    World world(registry(), settings);
    add_row_of_spheres(world);
    for (int i = 0; i < 60; ++i) {
        world.step();
        ASSERT_EQ(world.statistics().islands, 1u);
        EXPECT_EQ(world.statistics().rows, 45u);
        EXPECT_EQ(world.statistics().large_islands, 1u) << "step " << i;
        EXPECT_EQ(world.statistics().newton_islands, 0u);
        EXPECT_EQ(world.statistics().solver_failures, 0u) << "step " << i;
        EXPECT_EQ(world.statistics().budget_limited, 0u) << "step " << i << ": solved within 5000 sweeps";
        EXPECT_EQ(world.statistics().fallbacks, 0u);
    }
    for (uint32_t k = 0; k < 8; ++k) {
        EXPECT_NEAR(world.position(k)[0], 1.0 * k, 1e-3) << "ball " << k;
        EXPECT_NEAR(world.position(k)[2], 0.5, 1e-3) << "ball " << k;
    }

    WorldSettings capped = settings;
    capped.large_island_sweeps = 2;
    World cut(registry(), capped);
    add_ground_and_stack(cut, 4, 0.0);  // 4 x 4 contacts x 3 rows = 48 rows, redundant: 2 sweeps cannot solve them
    for (int i = 0; i < 10; ++i) {
        cut.step();
        EXPECT_EQ(cut.statistics().large_islands, 1u);
        EXPECT_EQ(cut.statistics().solver_iterations, 2u);
        EXPECT_EQ(cut.statistics().budget_limited, 1u) << "step " << i;
        EXPECT_EQ(cut.statistics().solver_failures, 0u) << "a budgeted answer is not a failure";
        EXPECT_EQ(cut.statistics().fallbacks, 0u) << "no fallback behind the large-island solver";
        EXPECT_GT(cut.statistics().solver_residual_max, 1e-6) << "how far from exact it is, reported";
    }
    // A solver named between two steps takes the large islands as well.
    cut.set_solver({"pivot.solver.dantzig", nlohmann::json::object()});
    EXPECT_EQ(cut.settings().large_island_rows, 0u);
    cut.step();
    EXPECT_EQ(cut.statistics().large_islands, 0u);
}

// The step guard (WorldSettings::step_time_limit) cuts the solves like a
// budget of its length, whatever step_budget says: spent before the solve
// (1 ns), the island is budget-limited even with a generous step_budget,
// and not at all with the guard off (0) and no budget.
TEST(SolverSelection, TheStepTimeLimitCutsLikeTheShorterBudget) {
    EXPECT_EQ(WorldSettings{}.step_time_limit, 1.0);
    for (const double step_budget : {0.0, 10.0}) {
        WorldSettings guarded;
        guarded.step_time_limit = 1e-9;
        guarded.step_budget = step_budget;
        World world(registry(), guarded);
        add_box_on_ground(world);
        for (int i = 0; i < 3; ++i) {
            world.step();
            EXPECT_EQ(world.statistics().budget_limited, 1u) << "step " << i << ", step_budget " << step_budget;
            EXPECT_EQ(world.statistics().solver_failures, 0u);
        }
    }
    WorldSettings off;
    off.step_time_limit = 0.0;
    World world(registry(), off);
    add_box_on_ground(world);
    for (int i = 0; i < 3; ++i) {
        world.step();
        EXPECT_EQ(world.statistics().budget_limited, 0u);
        EXPECT_EQ(world.statistics().solver_failures, 0u);
    }
}

TEST(SolverSelection, ANegativeOrNonFiniteStepBudgetIsRefused) {
    for (double bad : {-1e-3, HUGE_VAL, std::nan("")}) {
        WorldSettings settings;
        settings.step_budget = bad;
        try {
            World world(registry(), settings);
            ADD_FAILURE() << "accepted step_budget " << bad;
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("settings.step_budget"), std::string::npos) << e.what();
        }
    }
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
