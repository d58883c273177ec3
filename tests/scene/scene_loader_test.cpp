// Loading scene files. A scene file builds exactly the world that the same description in code
// builds: the reference is the code-built World itself, and the two
// trajectories must agree bit for bit (same descriptions, same calls, same
// arithmetic), for a pendulum on a revolute joint and for a ball bouncing on
// a plane with its own material.
#include <cmath>
#include <cstring>

#include <gtest/gtest.h>

#include "first_party_plugins.hpp"
#include "scene/scene_loader.hpp"

namespace pivot {
namespace {

const std::string kData = PIVOT_SCENE_TEST_DATA_DIR;

PluginRegistry& registry() { return test::first_party_plugins(); }

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void expect_identical_runs(World& from_file, World& from_code, int steps) {
    ASSERT_EQ(from_file.body_count(), from_code.body_count());
    for (int k = 0; k < steps; ++k) {
        from_file.step();
        from_code.step();
        const auto& a = from_file.state();
        const auto& b = from_code.state();
        ASSERT_EQ(a.q.size(), b.q.size());
        for (size_t i = 0; i < a.q.size(); ++i) {
            ASSERT_TRUE(same_bits(a.q[i], b.q[i])) << "step " << k << " q[" << i << "]: " << a.q[i] << " vs " << b.q[i];
        }
        for (size_t i = 0; i < a.v.size(); ++i) {
            ASSERT_TRUE(same_bits(a.v[i], b.v[i])) << "step " << k << " v[" << i << "]: " << a.v[i] << " vs " << b.v[i];
        }
        ASSERT_EQ(from_file.contacts().size(), from_code.contacts().size()) << "step " << k;
    }
}

TEST(SceneRoundTrip, PendulumFromFileMatchesCodeBitForBit) {
    auto from_file = load_scene_file(registry(), kData + "/pendulum.json");

    WorldSettings settings;
    settings.timestep = 0.001;
    settings.gravity = {0, 0, -9.81};
    settings.solver = {"pivot.solver.lemke", nlohmann::json::object()};
    settings.solver_acceptance = 1e-9;
    World from_code(registry(), settings);
    BodyDescription bob;
    bob.name = "bob";
    bob.mass = 2.0;
    bob.inertia = {0.01, 0, 0, 0, 0.01, 0, 0, 0, 0.01};
    bob.position = {1.5 * std::sin(2.0), 0.0, -1.5 * std::cos(2.0)};
    from_code.add_body(bob);
    JointDescription hinge;
    hinge.name = "hinge";
    hinge.type = "revolute";
    hinge.body1 = "world";
    hinge.body2 = "bob";
    hinge.anchor = {0, 0, 0};
    hinge.axis = {0, 1, 0};
    from_code.add_joint(hinge);

    expect_identical_runs(*from_file, from_code, 2000);
    // It did swing: from x = +1.36 through the bottom.
    EXPECT_LT(from_file->position(0)[0], 1.0);
}

TEST(SceneRoundTrip, BouncingBallFromFileMatchesCodeBitForBit) {
    auto from_file = load_scene_file(registry(), kData + "/falling_ball.json");

    WorldSettings settings;
    settings.timestep = 0.001;
    settings.solver = {"pivot.solver.dantzig", nlohmann::json::object()};
    World from_code(registry(), settings);
    MaterialDescription rubber;
    rubber.name = "rubber";
    rubber.friction_model = "pivot.friction.box";
    rubber.friction = {{"mu", 0.8}};
    rubber.restitution = 0.5;
    from_code.add_material(rubber);
    BodyDescription ball;
    ball.name = "ball";
    ball.mass = 1.0;
    ball.inertia = {0.016, 0, 0, 0, 0.016, 0, 0, 0, 0.016};
    ball.position = {0, 0, 1};
    ball.linear_velocity = {0.5, 0, 0};
    ShapeDescription sphere;
    sphere.type = "sphere";
    sphere.radius = 0.2;
    sphere.material = "rubber";
    ball.shapes.push_back(sphere);
    from_code.add_body(ball);
    ShapeDescription ground;
    ground.type = "plane";
    ground.normal = {0, 0, 1};
    ground.offset = 0;
    from_code.add_static_shape(ground);

    expect_identical_runs(*from_file, from_code, 1000);
    // It hit the ground (contacts happened) and bounced back up.
    EXPECT_GT(from_file->position(0)[2], 0.2);
}

TEST(SceneLoader, EveryFeatureLoads) {
    auto world = load_scene_file(registry(), kData + "/showcase.json");
    EXPECT_EQ(world->body_count(), 9u);
    EXPECT_EQ(world->joint_count(), 7u);
    EXPECT_EQ(world->settings().timestep, 0.002);
    EXPECT_EQ(world->settings().solver.id, "pivot.solver.dantzig");
    ASSERT_EQ(world->settings().fallback.size(), 2u);
    EXPECT_EQ(world->settings().fallback[1].id, "pivot.solver.lemke");
    EXPECT_EQ(world->model().materials.size(), 3u);
    EXPECT_EQ(world->model().material_pair_overrides.size(), 1u);
    EXPECT_EQ(world->model().shapes.size(), 5u + 5u);  // bodies' and static
    const auto q = world->orientation(world->body("crate"));
    EXPECT_NEAR(q[3], 0.7071067811865476, 1e-15);
    for (int k = 0; k < 200; ++k) world->step();
    EXPECT_EQ(world->statistics().solver_failures, 0u);
}

TEST(SceneLoader, SolverOverrideReplacesTheSolverAndDropsItsOptions) {
    SceneOptions options;
    options.solver = "pgs";
    auto world = load_scene_file(registry(), kData + "/pendulum.json", options);
    EXPECT_EQ(world->settings().solver.id, "pivot.solver.pgs");
    EXPECT_TRUE(world->settings().solver.options.empty());
}

}  // namespace
}  // namespace pivot
