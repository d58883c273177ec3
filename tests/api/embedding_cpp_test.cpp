// The C++ wrapper (pivot/pivot.hpp) over the embedding C API, linked against
// libpivot only, as an application would: a scene from JSON, stepping,
// reading bodies, contacts and joint reactions, swapping solvers mid-run
// without a jump, saving and restoring, and errors as exceptions carrying
// the engine's message.
#include <cmath>
#include <cstring>

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
    EXPECT_THROW(world.set_body(bob, bad), pivot::sdk::Error);
    bad = before;
    bad.position[0] = 5.0;
    bad.angular_velocity[1] = NAN;
    EXPECT_THROW(world.set_body(bob, bad), pivot::sdk::Error);
    const auto after = world.body(bob);
    EXPECT_EQ(std::memcmp(&before, &after, sizeof before), 0);
    // A failed call changed nothing: the world still steps.
    world.step();
}

}  // namespace
