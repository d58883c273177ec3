// The C++ wrapper (pivot/pivot.hpp) over the embedding C API, linked against
// libpivot only, as an application would: a scene from JSON, stepping,
// reading bodies, contacts and joint reactions, swapping solvers mid-run
// without a jump, saving and restoring, and errors as exceptions carrying
// the engine's message; cables (a crane's wire from code and from
// scenes/cable_crane.json, read per frame as a renderer does).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <pivot/pivot.hpp>

namespace {

using pivot::sdk::Engine;
using pivot::sdk::World;

// A pendulum (1 kg at 1 m, revolute about y) and three boxes stacked on the
// ground, at 60 Hz.
const char* const kScene = R"({
  "format": "pivot-scene/1",
  "settings": { "timestep": 0.016666666666666666, "gravity": [0, 0, -9.81], "solver": "dantzig" },
  "bodies": [
    { "name": "bob", "mass": 1.0, "inertia": [0.001, 0.001, 0.001], "position": [1, 0, 2] },
    { "name": "box0", "mass": 10, "inertia": [0.4167, 0.4167, 0.4167], "position": [5, 0, 0.25],
      "shapes": [ { "type": "box", "size": [0.5, 0.5, 0.5] } ] },
    { "name": "box1", "mass": 10, "inertia": [0.4167, 0.4167, 0.4167], "position": [5, 0, 0.75],
      "shapes": [ { "type": "box", "size": [0.5, 0.5, 0.5] } ] },
    { "name": "box2", "mass": 10, "inertia": [0.4167, 0.4167, 0.4167], "position": [5, 0, 1.25],
      "shapes": [ { "type": "box", "size": [0.5, 0.5, 0.5] } ] }
  ],
  "static_shapes": [ { "type": "plane", "normal": [0, 0, 1], "offset": 0 } ],
  "joints": [ { "name": "hinge", "type": "revolute", "body1": "world", "body2": "bob",
                "anchor": [0, 0, 2], "axis": [0, 1, 0] } ]
})";

TEST(EmbeddingCpp, SceneStepsAndReportsLikeASimulatorNeeds) {
    Engine engine;
    World world = engine.scene_from_json(kScene);
    EXPECT_EQ(world.body_count(), 4u);
    const uint32_t bob = world.find_body("bob");
    const uint32_t hinge = world.find_joint("hinge");
    world.step(60);
    EXPECT_NEAR(world.time(), 1.0, 1e-12);
    // The bob stays on its circle of 1 m about the anchor, to the step's
    // linearization error: the rigid row is met along the tangent of the
    // step, off the circle by L (h omega)^2 / 2 <= 2.7e-3 m at h = 1/60 s,
    // omega <= sqrt(2 g / L) = 4.4 rad/s.
    const auto p = world.body(bob).position;
    EXPECT_NEAR(std::hypot(p[0], p[2] - 2.0), 1.0, 2.7e-3);
    // The stack rests: 12 contacts, the ground carries 30 kg.
    double ground = 0.0;
    for (const pivot_contact& c : world.contacts()) {
        if (c.body1 < 0 || c.body2 < 0) ground += c.normal_force;
    }
    EXPECT_NEAR(ground, 30 * 9.81, 1e-2);
    // The hinge holds the bob: its reaction is finite and nonzero.
    const pivot_joint_reaction r = world.joint_reaction(hinge);
    EXPECT_GT(std::hypot(r.force[0], r.force[2]), 1.0);
}

// Dantzig -> PGS -> Lemke between steps on the resting stack: the boxes do
// not move by more than the solvers' tolerance when the solver changes.
TEST(EmbeddingCpp, SwitchingSolversMidRunCausesNoJump) {
    Engine engine;
    World world = engine.scene_from_json(kScene);
    const uint32_t top = world.find_body("box2");
    world.step(60);
    for (const char* solver : {"pgs", "lemke", "dantzig"}) {
        const auto before = world.body(top).position;
        world.set_solver(solver);
        world.step(30);
        const auto after = world.body(top).position;
        EXPECT_NEAR(after[2], before[2], 1e-6) << solver;
        EXPECT_NEAR(after[0], before[0], 1e-6) << solver;
        EXPECT_EQ(world.statistics().solver_failures, 0u) << solver;
    }
}

TEST(EmbeddingCpp, SavedStateReplaysBitwise) {
    Engine engine;
    World world = engine.scene_from_json(kScene);
    world.step(20);
    const std::vector<uint8_t> saved = world.save_state();
    world.step(40);
    const auto reference = world.body(world.find_body("bob"));
    world.restore_state(saved);
    world.step(40);
    const auto replayed = world.body(world.find_body("bob"));
    EXPECT_EQ(std::memcmp(&reference, &replayed, sizeof reference), 0);
}

TEST(EmbeddingCpp, ErrorsAreExceptionsWithTheEnginesMessage) {
    Engine engine;
    try {
        engine.scene_from_json(R"({"format": "pivot-scene/1", "bodies": [ {"name": "b", "mass": "heavy"} ]})");
        FAIL() << "accepted";
    } catch (const pivot::sdk::Error& e) {
        EXPECT_NE(std::string(e.what()).find("/bodies/0/mass"), std::string::npos) << e.what();
    }
    World world = engine.scene_from_json(kScene);
    EXPECT_THROW(world.find_body("nobody"), pivot::sdk::Error);
    EXPECT_THROW(world.set_solver("pivot.solver.none"), pivot::sdk::Error);
    EXPECT_THROW(engine.load_plugins("/no/such/folder"), pivot::sdk::Error);
    // A refused set_body leaves the body exactly as it was.
    world.step(10);
    const uint32_t bob = world.find_body("bob");
    const auto before = world.body(bob);
    pivot::sdk::BodyState bad = before;
    bad.linear_velocity[0] = 1.0;
    bad.orientation = {2, 0, 0, 0};  // not a unit quaternion
    try {
        world.set_body(bob, bad);
        ADD_FAILURE() << "a quaternion of norm 2 was accepted";
    } catch (const pivot::sdk::Error& e) {
        EXPECT_NE(std::string(e.what()).find("body 'bob': set_pose: orientation: not a unit quaternion: its norm is 2"),
                  std::string::npos)
            << e.what();
    }
    bad = before;
    bad.position[0] = 5.0;
    bad.angular_velocity[1] = NAN;
    EXPECT_THROW(world.set_body(bob, bad), pivot::sdk::Error);
    const auto after = world.body(bob);
    EXPECT_EQ(std::memcmp(&before, &after, sizeof before), 0);
    // A failed call changed nothing: the world still steps.
    world.step();
    // An orientation a little off unit length (an embedder's float
    // arithmetic) is normalized: a norm of 1 + 1e-5 was refused.
    pivot::sdk::BodyState drifted = world.body(bob);
    drifted.orientation = {1.0 + 1e-5, 0.0, 0.0, 0.0};
    world.set_body(bob, drifted);
    EXPECT_EQ(world.body(bob).orientation[0], 1.0);
}

// ---------------------------------------------------------------- cables

// (0.13) The integrator through the API: the pendulum alone (no shapes) is
// stepped by the GSSSS midpoint rule at position level, which keeps the bob
// on its circle to rounding (1e-12 m; the semi-implicit step's 60 Hz error
// above is 2.7e-3 m) and its energy: the midpoint rule's energy error is a
// bounded oscillation of order (h omega)^2 m g L = 0.027 J here (omega =
// sqrt(g / L), h = 1/60 s; measured 0.0098 J), which it must not leave over
// 20 s (a drift of O(h) per swing would). The world with the resting stack
// cannot be stepped by it (contacts): the step fails, the world unchanged.
TEST(EmbeddingCpp, TheIntegratorCanBeChosen) {
    Engine engine;
    const std::string pendulum = R"({
      "format": "pivot-scene/1",
      "settings": { "timestep": 0.016666666666666666, "gravity": [0, 0, -9.81] },
      "bodies": [ { "name": "bob", "mass": 1.0, "inertia": [0.001, 0.001, 0.001], "position": [1, 0, 2] } ],
      "joints": [ { "name": "hinge", "type": "revolute", "body1": "world", "body2": "bob",
                    "anchor": [0, 0, 2], "axis": [0, 1, 0] } ]
    })";
    World world = engine.scene_from_json(pendulum);
    world.set_integrator(R"({"type": "gssss", "scheme": "midpoint"})");
    const uint32_t bob = world.find_body("bob");
    const auto energy = [&] {
        const auto s = world.body(bob);
        const auto& v = s.linear_velocity;
        return 9.81 * s.position[2] + 0.5 * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    };
    const double e0 = energy();
    double radius_error = 0.0, energy_error = 0.0;
    for (int k = 0; k < 1200; ++k) {
        world.step();
        const auto p = world.body(bob).position;
        radius_error = std::max(radius_error, std::abs(std::hypot(p[0], p[2] - 2.0) - 1.0));
        energy_error = std::max(energy_error, std::abs(energy() - e0));
    }
    EXPECT_LE(radius_error, 1e-12);
    EXPECT_LE(energy_error, 0.027);
    try {
        world.set_integrator(R"({"type": "gssss", "scheme": "hht", "rho": 0.2})");
        ADD_FAILURE() << "rho 0.2 accepted for HHT";
    } catch (const pivot::sdk::Error& e) {
        EXPECT_NE(std::string(e.what()).find("/rho: HHT needs rho in [1/2, 1]"), std::string::npos) << e.what();
    }
    EXPECT_THROW(world.set_integrator("{not json"), pivot::sdk::Error);
    world.set_integrator("\"semi_implicit\"");
    world.step();

    World stack = engine.scene_from_json(kScene);
    stack.set_integrator("\"gssss\"");
    const double t0 = stack.time();
    try {
        stack.step();
        ADD_FAILURE() << "a world in contact was stepped by the gssss integrator";
    } catch (const pivot::sdk::Error& e) {
        EXPECT_NE(std::string(e.what()).find("contact points"), std::string::npos) << e.what();
    }
    EXPECT_EQ(stack.time(), t0);
}

std::array<double, 3> body_point(const pivot::sdk::BodyState& s, const std::array<double, 3>& r) {
    const double w = s.orientation[0], x = s.orientation[1], y = s.orientation[2], z = s.orientation[3];
    const double m[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                            {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                            {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
    std::array<double, 3> out{};
    for (int i = 0; i < 3; ++i) out[i] = s.position[i] + m[i][0] * r[0] + m[i][1] * r[1] + m[i][2] * r[2];
    return out;
}

double distance(const double* a, const std::array<double, 3>& b) {
    return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

// The boom tip in the boom's frame: the wire's start (8, 0, 1.85) from the
// boom's centre of mass (4, 0, 2), as in scenes/cable_crane.json.
constexpr std::array<double, 3> kTip = {4.0, 0.0, -0.15};

// The crane of cable_crane.json without shapes, built in code: a boom
// luffing up on its motor, a wire from its tip to a hook.
World crane_in_code(Engine& engine, uint32_t elements) {
    pivot_world_settings settings;
    pivot_world_settings_init(&settings);
    settings.timestep = 0.01;
    World world = engine.create(settings);
    pivot_body_desc boom;
    pivot_body_desc_init(&boom);
    boom.name = "boom";
    boom.mass = 400.0;
    boom.inertia[0] = 6.0;
    boom.inertia[4] = boom.inertia[8] = 2136.0;
    boom.position[0] = 4.0;
    boom.position[2] = 2.0;
    world.add_body(boom);
    pivot_body_desc hook;
    pivot_body_desc_init(&hook);
    hook.name = "hook";
    hook.mass = 50.0;
    hook.inertia[0] = hook.inertia[4] = hook.inertia[8] = 0.2;
    hook.position[0] = 8.0;
    hook.position[2] = 0.9;
    world.add_body(hook);
    pivot_joint_desc luff;
    pivot_joint_desc_init(&luff);
    luff.name = "luff";
    luff.type = "revolute";
    luff.body2 = "boom";
    luff.anchor[2] = 2.0;
    luff.axis[0] = 0.0;
    luff.axis[1] = -1.0;
    luff.has_motor = 1;
    luff.motor_velocity = 0.08;
    luff.motor_max_force = 200000.0;
    world.add_joint(luff);

    const pivot_cable_attachment ends[2] = {{0, "boom", "spherical"}, {-1, "hook", nullptr}};
    pivot_cable_desc wire;
    pivot_cable_desc_init(&wire);
    wire.name = "wire";
    wire.start[0] = 8.0;
    wire.start[2] = 1.85;
    wire.end[0] = 8.0;
    wire.end[2] = 1.0;
    wire.elements = elements;
    wire.youngs_modulus = 1e11;
    wire.attachments = ends;
    wire.attachment_count = 2;
    EXPECT_EQ(world.add_cable(wire), 0u);
    return world;
}

TEST(EmbeddingCpp, CableBuiltInCodeIsDrawnEveryFrame) {
    Engine engine;
    World world = crane_in_code(engine, 16);
    EXPECT_EQ(world.cable_count(), 1u);
    const uint32_t wire = world.find_cable("wire");
    EXPECT_EQ(world.cable_name(wire), "wire");
    EXPECT_EQ(world.cable_node_count(wire), 17u);
    EXPECT_NO_THROW(world.find_joint("wire/attach0"));
    EXPECT_NO_THROW(world.find_joint("wire/attach1"));
    const uint32_t boom = world.find_body("boom");
    // The render loop: the same two arrays every frame, never reallocated.
    std::vector<double> positions, velocities;
    world.cable_nodes(wire, positions, &velocities);
    ASSERT_EQ(positions.size(), 3u * 17u);
    ASSERT_EQ(velocities.size(), 3u * 17u);
    const double* storage = positions.data();
    double worst = 0.0;
    for (int frame = 0; frame < 200; ++frame) {
        world.step();
        world.cable_nodes(wire, positions, &velocities);
        for (double x : positions) ASSERT_TRUE(std::isfinite(x));
        for (double x : velocities) ASSERT_TRUE(std::isfinite(x));
        worst = std::max(worst, distance(positions.data(), body_point(world.body(boom), kTip)));
    }
    EXPECT_EQ(positions.data(), storage);
    EXPECT_LT(worst, 1e-3);  // node 0 follows the boom tip
    EXPECT_GT(world.joint_coordinate(world.find_joint("luff")).first, 0.1);  // which moved
    // The allocating form agrees with the per-frame one.
    const pivot::sdk::CableNodes nodes = world.cable_nodes(wire);
    ASSERT_EQ(nodes.positions.size(), 17u);
    ASSERT_EQ(nodes.velocities.size(), 17u);
    for (size_t n = 0; n < 17; ++n) {
        for (size_t k = 0; k < 3; ++k) {
            EXPECT_EQ(nodes.positions[n][k], positions[3 * n + k]);
            EXPECT_EQ(nodes.velocities[n][k], velocities[3 * n + k]);
        }
    }
    EXPECT_TRUE(world.cable_nodes(wire, false).velocities.empty());
}

TEST(EmbeddingCpp, CableCraneSceneFollowsTheBoomAndReplaysBitwise) {
    Engine engine;
    World world = engine.load_scene(PIVOT_SCENE_DIR "/cable_crane.json");
    ASSERT_EQ(world.cable_count(), 1u);
    const uint32_t wire = world.find_cable("wire");
    const uint32_t boom = world.find_body("boom");
    EXPECT_EQ(world.cable_node_count(wire), 16u + 1u);
    size_t contact_frames = 0;
    for (int frame = 0; frame < 100; ++frame) {
        world.step();
        const auto nodes = world.cable_nodes(wire).positions;
        ASSERT_EQ(nodes.size(), 17u);
        for (const auto& p : nodes) ASSERT_TRUE(std::isfinite(p[0]) && std::isfinite(p[1]) && std::isfinite(p[2]));
        EXPECT_LT(distance(nodes[0].data(), body_point(world.body(boom), kTip)), 1e-3) << "frame " << frame;
        // Contacts: one cable entry per contact, same order.
        const auto contacts = world.contacts();
        const auto cables = world.contact_cables();
        ASSERT_EQ(cables.size(), contacts.size());
        contact_frames += contacts.empty() ? 0 : 1;
        for (size_t i = 0; i < cables.size(); ++i) {
            EXPECT_TRUE(cables[i].cable1 == -1 || cables[i].cable1 == static_cast<int32_t>(wire));
            EXPECT_TRUE(cables[i].cable2 == -1 || cables[i].cable2 == static_cast<int32_t>(wire));
        }
    }
    EXPECT_GT(contact_frames, 0u);  // the load on the ground before it is lifted
    // Rewind: the wire replays bitwise too.
    const std::vector<uint8_t> saved = world.save_state();
    world.step(30);
    std::vector<double> reference, replayed;
    world.cable_nodes(wire, reference);
    world.restore_state(saved);
    world.step(30);
    world.cable_nodes(wire, replayed);
    EXPECT_EQ(reference, replayed);
}

// A free rope dropped on the ground: its contacts name it on one side
// (body -1 there), the ground (body -1, no cable) on the other.
TEST(EmbeddingCpp, ContactsSayWhichSideIsACable) {
    Engine engine;
    pivot_world_settings settings;
    pivot_world_settings_init(&settings);
    settings.timestep = 0.01;
    World world = engine.create(settings);
    pivot_shape_desc ground;
    pivot_shape_desc_init(&ground);
    ground.type = "plane";
    world.add_static_shape(ground);
    pivot_body_desc crate;  // a body first, so that cable and body indices differ
    pivot_body_desc_init(&crate);
    crate.name = "crate";
    crate.fixed = 1;
    crate.position[0] = 50.0;
    world.add_body(crate);
    pivot_cable_desc rope;
    pivot_cable_desc_init(&rope);
    rope.name = "rope";
    rope.start[2] = 0.05;
    rope.end[0] = 2.0;
    rope.end[2] = 0.05;
    rope.elements = 8;
    rope.youngs_modulus = 1e9;
    const uint32_t index = world.add_cable(rope);
    world.step(50);
    const auto contacts = world.contacts();
    const auto cables = world.contact_cables();
    ASSERT_EQ(cables.size(), contacts.size());
    ASSERT_FALSE(contacts.empty());
    double load = 0.0;
    for (size_t i = 0; i < cables.size(); ++i) {
        EXPECT_EQ(contacts[i].body1, -1);
        EXPECT_EQ(contacts[i].body2, -1);
        // Exactly one side is the rope.
        EXPECT_TRUE((cables[i].cable1 == static_cast<int32_t>(index)) != (cables[i].cable2 == static_cast<int32_t>(index)))
            << cables[i].cable1 << " " << cables[i].cable2;
        EXPECT_TRUE(cables[i].cable1 == -1 || cables[i].cable2 == -1);
        load += contacts[i].normal_force;
    }
    // The ground carries the rope's weight, pi r^2 L rho g = 4.81 N.
    const double weight = 3.141592653589793 * 0.01 * 0.01 * 2.0 * 7800.0 * 9.81;
    EXPECT_NEAR(load, weight, 0.05 * weight);
}

TEST(EmbeddingCpp, CableErrorsNameTheCableAndField) {
    Engine engine;
    World world = crane_in_code(engine, 8);
    const uint32_t joints = world.joint_count();
    auto refused = [&](pivot_cable_desc desc, const std::string& part) {
        try {
            world.add_cable(desc);
            ADD_FAILURE() << "accepted; expected an error with '" << part << "'";
        } catch (const pivot::sdk::Error& e) {
            EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("rope"), std::string::npos) << e.what();
        }
        EXPECT_EQ(world.cable_count(), 1u);
        EXPECT_EQ(world.joint_count(), joints);
    };
    pivot_cable_desc rope;
    pivot_cable_desc_init(&rope);
    rope.name = "rope";
    rope.start[2] = 5.0;
    rope.end[0] = 3.0;
    rope.end[2] = 5.0;
    rope.elements = 4;
    pivot_cable_desc bad = rope;
    bad.geometric_stiffness = 2.0;
    refused(bad, "geometric_stiffness");
    bad = rope;
    bad.gauss_points = 1000;
    refused(bad, "gauss_points");
    bad = rope;
    bad.damping = -1.0;
    refused(bad, "damping");
    bad = rope;
    bad.density = NAN;
    refused(bad, "density");
    bad = rope;
    bad.type = "pivot.element.rigid_body";
    refused(bad, "type");
    // Its attachment joint would take the name of an existing joint.
    pivot_joint_desc taken;
    pivot_joint_desc_init(&taken);
    taken.name = "rope/attach0";
    taken.type = "spherical";
    taken.body2 = "hook";
    taken.anchor[0] = 8.0;
    world.add_joint(taken);
    const pivot_cable_attachment pin = {0, nullptr, nullptr};
    bad = rope;
    bad.attachments = &pin;
    bad.attachment_count = 1;
    const uint32_t with_taken = world.joint_count();
    try {
        world.add_cable(bad);
        ADD_FAILURE() << "accepted";
    } catch (const pivot::sdk::Error& e) {
        EXPECT_NE(std::string(e.what()).find("rope/attach0"), std::string::npos) << e.what();
    }
    EXPECT_EQ(world.joint_count(), with_taken);
    EXPECT_EQ(world.cable_count(), 1u);
    // Explicit defaults are accepted: the plugin's geometric stiffness (0) and Gauss points (5).
    rope.geometric_stiffness = 0.0;
    rope.gauss_points = 5;
    EXPECT_EQ(world.add_cable(rope), 1u);

    try {
        world.find_cable("cable9");
        ADD_FAILURE() << "found";
    } catch (const pivot::sdk::Error& e) {
        EXPECT_NE(std::string(e.what()).find("cable9"), std::string::npos) << e.what();
    }
    EXPECT_THROW(world.cable_name(7), pivot::sdk::Error);
    EXPECT_EQ(world.cable_node_count(7), 0u);
    std::vector<double> positions = {1.0, 2.0, 3.0};
    try {
        world.cable_nodes(7, positions);
        ADD_FAILURE() << "read";
    } catch (const pivot::sdk::Error& e) {
        EXPECT_NE(std::string(e.what()).find("out of range"), std::string::npos) << e.what();
    }
    EXPECT_EQ(positions, (std::vector<double>{1.0, 2.0, 3.0}));  // untouched
    // The C call checks the caller's capacity (in nodes).
    std::vector<double> small(3 * 4, -1.0);
    EXPECT_EQ(pivot_world_get_cable_nodes(world.handle(), 0, small.data(), nullptr, 4), PIVOT_ERROR);
    EXPECT_NE(std::string(pivot_last_error()).find("capacity 4 is too small (9 nodes"), std::string::npos)
        << pivot_last_error();
    EXPECT_EQ(small, std::vector<double>(3 * 4, -1.0));
}

}  // namespace

namespace {

// pivot.h VERSIONING: body->shapes is stepped by its first entry's
// struct_size, so an application built against a later header (a longer
// pivot_shape_desc) still passes every shape. Here a "future" shape with a
// trailing field: a ball of two spheres, the second 0.3 m, settles at
// z = 0.3 on the ground (read at the wrong stride, the second shape's radius
// would be garbage or the call refused). Entries of different sizes are
// refused, naming the entry.
TEST(EmbeddingCpp, ShapeArraysAreSteppedByTheirStructSize) {
    struct FutureShape {
        pivot_shape_desc base;
        double added_later;
    };
    Engine engine;
    pivot_world_settings settings;
    pivot_world_settings_init(&settings);
    settings.timestep = 0.01;
    World world = engine.create(settings);
    pivot_shape_desc ground;
    pivot_shape_desc_init(&ground);
    ground.type = "plane";
    world.add_static_shape(ground);
    FutureShape shapes[2];
    for (FutureShape& s : shapes) {
        pivot_shape_desc_init(&s.base);
        s.base.struct_size = sizeof(FutureShape);
        s.base.type = "sphere";
        s.added_later = 1e300;
    }
    shapes[0].base.radius = 0.1;
    shapes[1].base.radius = 0.3;
    pivot_body_desc ball;
    pivot_body_desc_init(&ball);
    ball.name = "ball";
    ball.position[2] = 0.5;
    ball.shapes = &shapes[0].base;
    ball.shape_count = 2;
    const uint32_t index = world.add_body(ball);
    world.step(200);
    EXPECT_NEAR(world.body(index).position[2], 0.3, 1e-3);
    shapes[1].base.struct_size = sizeof(pivot_shape_desc);
    ball.name = "other";
    try {
        world.add_body(ball);
        ADD_FAILURE() << "mixed entry sizes accepted";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("shapes[1]"), std::string::npos) << e.what();
    }
}

}  // namespace

namespace {

// The log sink of the wrapper (pivot::sdk::set_log_sink): a breakable joint
// that breaks is logged at info level with the source "pivot" and the
// joint's name; an empty sink goes back to stderr.
TEST(EmbeddingCpp, TheLogSinkGetsTheEnginesMessages) {
    std::vector<std::string> messages;
    pivot::sdk::set_log_sink([&](pivot_log_level level, const std::string& source, const std::string& message) {
        if (level == PIVOT_LOG_INFO && source == "pivot") messages.push_back(message);
    });
    pivot::sdk::set_log_level(PIVOT_LOG_INFO);
    Engine engine;
    World world = engine.scene_from_json(R"({
      "format": "pivot-scene/1", "settings": { "timestep": 0.016666666666666666 },
      "bodies": [ { "name": "bob", "mass": 1, "inertia": [0.01, 0.01, 0.01], "position": [0, 0, -1] } ],
      "joints": [ { "name": "weak", "type": "spherical", "body1": "world", "body2": "bob",
                    "anchor": [0, 0, 0], "break_force": 5 } ] })");
    world.step(1);  // m g = 9.81 N > 5 N: it breaks after the first step
    pivot::sdk::set_log_sink(nullptr);
    pivot::sdk::set_log_level(PIVOT_LOG_WARNING);
    ASSERT_EQ(messages.size(), 1u);
    EXPECT_NE(messages[0].find("joint 'weak' broke"), std::string::npos) << messages[0];
    EXPECT_EQ(world.joint_enabled(0), std::make_pair(false, true));
}

}  // namespace
