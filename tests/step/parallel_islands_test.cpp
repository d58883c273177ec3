// Islands solved in parallel (WorldSettings::threads): a world of many
// islands (boxes dropped apart on the ground, a chain of links, a stack)
// stepped with 1, 2 and 4 threads stays bitwise the same, step by step:
// every island's answer depends on the island only and the answers are
// applied in island order (docs/engine.md "Islands in parallel"). Exact
// equality is the requirement, so the test compares bits. The same for a
// pile whose contact stage is shared with the pool.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "first_party_plugins.hpp"

namespace pivot {
namespace {

PluginRegistry& registry() { return test::first_party_plugins(); }

void build(World& world) {
    ShapeDescription ground;
    ground.type = "plane";
    world.add_static_shape(ground);
    for (int i = 0; i < 12; ++i) {  // apart: one island each once they land
        BodyDescription box;
        box.name = "box" + std::to_string(i);
        box.mass = 1.0 + 0.1 * i;
        box.inertia = {box.mass / 6, 0, 0, 0, box.mass / 6, 0, 0, 0, box.mass / 6};
        box.position = {2.0 * i, 0.3 * (i % 3), 0.5 + 0.05 * i};
        const double half = 0.005 * i;  // tilted about x by 0.01 i rad
        box.orientation = {std::cos(half), std::sin(half), 0.0, 0.0};
        ShapeDescription cube;
        cube.type = "box";
        cube.size = {1.0, 1.0, 1.0};
        box.shapes.push_back(cube);
        world.add_body(box);
    }
    for (int level = 0; level < 4; ++level) {  // a stack: one island of contacts
        BodyDescription box;
        box.name = "stack" + std::to_string(level);
        box.mass = 1.0;
        box.inertia = {1.0 / 6, 0, 0, 0, 1.0 / 6, 0, 0, 0, 1.0 / 6};
        box.position = {-5.0, 0.0, 0.5 + level};
        ShapeDescription cube;
        cube.type = "box";
        cube.size = {1.0, 1.0, 1.0};
        box.shapes.push_back(cube);
        world.add_body(box);
    }
    test::add_swinging_chain(world, 8, 0.1, 0.1, {6.667e-6, 0, 0, 0, 8.667e-5, 0, 0, 0, 8.667e-5});
}

std::vector<double> snapshot(const World& world) {
    std::vector<double> out;
    for (BodyId b = 0; b < world.body_count(); ++b) {
        for (double v : world.position(b)) out.push_back(v);
        for (double v : world.linear_velocity(b)) out.push_back(v);
    }
    return out;
}

// Worlds of 1, 2 and 4 threads at 60 Hz (`settings` otherwise), each built
// by `scene`.
std::vector<std::unique_ptr<World>> worlds_of_1_2_4_threads(WorldSettings settings, void (*scene)(World&)) {
    std::vector<std::unique_ptr<World>> worlds;
    for (uint32_t threads : {1u, 2u, 4u}) {
        settings.timestep = 1.0 / 60.0;
        settings.threads = threads;
        worlds.push_back(std::make_unique<World>(registry(), settings));
        scene(*worlds.back());
    }
    return worlds;
}

// Whether every world holds the bits of the first (positions, velocities).
::testing::AssertionResult same_bits(const std::vector<std::unique_ptr<World>>& worlds) {
    const std::vector<double> reference = snapshot(*worlds[0]);
    for (size_t k = 1; k < worlds.size(); ++k) {
        const std::vector<double> other = snapshot(*worlds[k]);
        if (other.size() != reference.size() ||
            std::memcmp(other.data(), reference.data(), reference.size() * sizeof(double)) != 0) {
            return ::testing::AssertionFailure() << "world " << k << " differs from world 0";
        }
    }
    return ::testing::AssertionSuccess();
}

TEST(ParallelIslands, StepsAreBitwiseTheSameWhateverTheThreadCount) {
    const auto worlds = worlds_of_1_2_4_threads(WorldSettings{}, build);
    uint32_t pooled = 0;
    for (int step = 0; step < 120; ++step) {
        for (auto& w : worlds) w->step();
        pooled += worlds[1]->statistics().pooled_islands;
        EXPECT_EQ(worlds[0]->statistics().pooled_islands, 0u) << "one thread: no pool";
        ASSERT_TRUE(same_bits(worlds)) << "step " << step;
        EXPECT_EQ(worlds[2]->statistics().islands, worlds[0]->statistics().islands);
    }
    EXPECT_GT(pooled, 120u) << "the islands were shared with the pool";
    for (auto& w : worlds) EXPECT_EQ(w->statistics().solver_failures, 0u);
}

// 300 spheres dropped as a 10 x 10 x 3 block into a box of planes: one
// island of ~900 contacts once they land, so the contact stage shares its
// contacts' inputs, rows and responses with the pool (from 512 contacts),
// and the large-island solver takes the island. Bitwise the same with 1, 2
// and 4 threads, step by step.
void build_pile(World& world) {
    for (const Vec3d& normal : {Vec3d{0, 0, 1}, Vec3d{1, 0, 0}, Vec3d{-1, 0, 0}, Vec3d{0, 1, 0}, Vec3d{0, -1, 0}}) {
        ShapeDescription plane;
        plane.type = "plane";
        plane.normal = normal;
        plane.offset = normal[2] != 0.0 ? 0.0 : -0.55;
        world.add_static_shape(plane);
    }
    for (int i = 0; i < 300; ++i) {
        BodyDescription ball;
        ball.name = "ball" + std::to_string(i);
        ball.mass = 0.1;
        ball.inertia = {1e-4, 0, 0, 0, 1e-4, 0, 0, 0, 1e-4};
        ball.position = {(i % 10 - 4.5) * 0.105 + 0.002 * (i % 3), (i / 10 % 10 - 4.5) * 0.105,
                         0.06 + 0.105 * (i / 100)};
        ShapeDescription sphere;
        sphere.type = "sphere";
        sphere.radius = 0.05;
        ball.shapes.push_back(sphere);
        world.add_body(ball);
    }
}

TEST(ParallelIslands, TheContactStageOnThePoolGivesTheSameBits) {
    WorldSettings settings;
    settings.large_island_rows = 1000;
    const auto worlds = worlds_of_1_2_4_threads(settings, build_pile);
    size_t most_contacts = 0;
    for (int step = 0; step < 40; ++step) {
        for (auto& w : worlds) w->step();
        most_contacts = std::max(most_contacts, worlds[0]->contacts().size());
        ASSERT_TRUE(same_bits(worlds)) << "step " << step;
    }
    EXPECT_GT(most_contacts, 600u) << "enough contacts for the pool (from 512) and chunks of 256 for each thread";
    EXPECT_EQ(worlds[1]->statistics().large_islands, 1u);
}

TEST(ParallelIslands, AThreadCountAboveSixtyFourIsRefused) {
    WorldSettings settings;
    settings.threads = 65;
    EXPECT_THROW(World(registry(), settings), Error);
}

}  // namespace
}  // namespace pivot
