// Loading scene files. A scene file builds exactly the world that the same description in code
// builds: the reference is the code-built World itself, and the two
// trajectories must agree bit for bit (same descriptions, same calls, same
// arithmetic), for a pendulum on a revolute joint and for a ball bouncing on
// a plane with its own material, and for a cable pinned to the world and
// clamped to a body.
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
    settings.direct_islands = false;  // the scene names its solver
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
    settings.direct_islands = settings.newton_islands = false;  // the scene names its solver
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

// A horizontal cable pinned to the world at node 0 and clamped to a body at
// its last node ("last", type fixed), above a ground plane: the same
// CableDescription in code steps bit for bit the same.
TEST(SceneRoundTrip, CableFromFileMatchesCodeBitForBit) {
    auto from_file = load_scene_file(registry(), kData + "/cable.json");
    ASSERT_EQ(from_file->cable_count(), 1u);
    const CableId rope = from_file->cable("rope");
    EXPECT_EQ(from_file->cable_name(rope), "rope");
    EXPECT_EQ(from_file->cable_node_count(rope), 5u);  // 4 elements
    // Nodes evenly spaced from start to end, at rest.
    for (uint32_t i = 0; i < 5; ++i) {
        const auto x = from_file->cable_node_position(rope, i);
        EXPECT_NEAR(x[0], 0.25 * i, 1e-15);
        EXPECT_EQ(x[1], 0.0);
        EXPECT_NEAR(x[2], 2.0, 1e-15);
        EXPECT_EQ(from_file->cable_node_velocity(rope, i), (std::array<double, 3>{0, 0, 0}));
    }
    // The attach entries are joints "<cable>/attach<k>".
    EXPECT_EQ(from_file->joint_count(), 2u);
    EXPECT_EQ(from_file->joint_name(from_file->joint("rope/attach0")), "rope/attach0");
    EXPECT_EQ(from_file->joint_name(from_file->joint("rope/attach1")), "rope/attach1");

    WorldSettings settings;
    settings.timestep = 0.001;
    settings.gravity = {0, 0, -9.81};
    settings.solver = {"pivot.solver.dantzig", nlohmann::json::object()};
    settings.direct_islands = false;  // the scene names its solver
    World from_code(registry(), settings);
    MaterialDescription rope_material;
    rope_material.name = "rope";
    rope_material.friction_model = "pivot.friction.box";
    rope_material.friction = {{"mu", 0.3}};
    from_code.add_material(rope_material);
    BodyDescription weight;
    weight.name = "weight";
    weight.mass = 0.5;
    weight.inertia = {0.001, 0, 0, 0, 0.001, 0, 0, 0, 0.001};
    weight.position = {1, 0, 2};
    from_code.add_body(weight);
    ShapeDescription ground;
    ground.type = "plane";
    ground.normal = {0, 0, 1};
    ground.offset = 1.6;
    from_code.add_static_shape(ground);
    CableDescription cable;
    cable.name = "rope";
    cable.type = "pivot.element.ancf_cable";
    cable.start = {0, 0, 2};
    cable.end = {1, 0, 2};
    cable.elements = 4;
    cable.radius = 0.005;
    cable.density = 7850;
    cable.youngs_modulus = 2e11;
    cable.material = "rope";
    cable.gauss_points = 4u;
    cable.damping = 0.001;
    cable.attach.push_back({0, "world", "spherical"});  // the joint types the scene's attach types stand for
    cable.attach.push_back({-1, "weight", "revolute"});
    from_code.add_cable(cable);

    expect_identical_runs(*from_file, from_code, 300);
    // It swung down: the last node fell with the weight.
    EXPECT_LT(from_file->cable_node_position(rope, 4)[2], 1.95);
}

TEST(SceneLoader, CableDefaultsAndAttachNodes) {
    auto world = load_scene_json(registry(), R"({"format": "pivot-scene/1",
        "cables": [{"name": "line", "start": [0, 0, 0], "end": [0, 0, -3], "elements": 6,
                    "radius": 0.002, "density": 1100, "youngs_modulus": 3e9,
                    "attach": [{"node": 2, "body": "world", "type": "spherical"}]}]})",
                                 kData, "inline.json");
    ASSERT_EQ(world->cable_count(), 1u);
    EXPECT_EQ(world->cable_node_count(0), 7u);
    EXPECT_EQ(world->body_count(), 0u);
    ASSERT_EQ(world->joint_count(), 1u);
    EXPECT_EQ(world->joint_name(0), "line/attach0");
    EXPECT_NEAR(world->cable_node_position(0, 2)[2], -1.0, 1e-15);
    // The default type (pivot.element.ancf_cable) and material ("default").
    EXPECT_EQ(world->model().cables.at(0).material, 0u);
    for (int k = 0; k < 10; ++k) world->step();
    EXPECT_EQ(world->statistics().solver_failures, 0u);
}

TEST(SceneLoader, SolverOverrideReplacesTheSolverAndDropsItsOptions) {
    SceneOptions options;
    options.solver = "pgs";
    auto world = load_scene_file(registry(), kData + "/pendulum.json", options);
    EXPECT_EQ(world->settings().solver.id, "pivot.solver.pgs");
    EXPECT_TRUE(world->settings().solver.options.empty());
}

// settings.large_island_rows / large_island_sweeps: read as whole
// numbers; a named solver (in the scene or by --solver) turns the large
// islands off (0) unless the scene sets them.
TEST(SceneLoader, LargeIslandSettingsAreReadAndFollowWhetherASolverIsNamed) {
    const auto settings_of = [](const std::string& settings, const SceneOptions& options = {}) {
        return load_scene_json(registry(), R"({"format": "pivot-scene/1", "settings": )" + settings + "}", kData,
                               "inline.json", options)
            ->settings();
    };
    EXPECT_EQ(settings_of("{}").large_island_rows, WorldSettings{}.large_island_rows);
    EXPECT_GT(WorldSettings{}.large_island_rows, 0u);
    const WorldSettings set = settings_of(R"({"large_island_rows": 2500, "large_island_sweeps": 12})");
    EXPECT_EQ(set.large_island_rows, 2500u);
    EXPECT_EQ(set.large_island_sweeps, 12u);
    EXPECT_EQ(settings_of(R"({"solver": "dantzig"})").large_island_rows, 0u);
    EXPECT_EQ(settings_of(R"({"solver": "dantzig", "large_island_rows": 100})").large_island_rows, 100u);
    SceneOptions options;
    options.solver = "pgs";
    EXPECT_EQ(settings_of("{}", options).large_island_rows, 0u);
    for (const char* bad : {R"({"large_island_rows": -1})", R"({"large_island_rows": 1.5})",
                            R"({"large_island_sweeps": 0})", R"({"large_island_sweeps": true})"}) {
        try {
            settings_of(bad);
            ADD_FAILURE() << "accepted " << bad;
        } catch (const std::exception& e) {
            EXPECT_NE(std::string(e.what()).find("/settings/large_island_"), std::string::npos) << e.what();
        }
    }
}

// settings.direct_islands: on when the scene names no solver, off when it
// names one (or --solver does), unless set; a non-boolean is refused at its
// pointer.
TEST(SceneLoader, DirectIslandsFollowWhetherASolverIsNamed) {
    const auto settings_of = [](const std::string& settings) {
        return load_scene_json(registry(), R"({"format": "pivot-scene/1", "settings": )" + settings + "}", kData,
                               "inline.json")
            ->settings()
            .direct_islands;
    };
    EXPECT_TRUE(settings_of("{}"));
    EXPECT_FALSE(settings_of(R"({"solver": "dantzig"})"));
    EXPECT_TRUE(settings_of(R"({"solver": "pgs", "direct_islands": true})"));
    EXPECT_FALSE(settings_of(R"({"direct_islands": false})"));
    SceneOptions options;
    options.solver = "lemke";
    EXPECT_FALSE(load_scene_json(registry(), R"({"format": "pivot-scene/1"})", kData, "inline.json", options)
                     ->settings()
                     .direct_islands);
    try {
        settings_of(R"({"direct_islands": 1})");
        ADD_FAILURE() << "a number for direct_islands was accepted";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("/settings/direct_islands"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace pivot
