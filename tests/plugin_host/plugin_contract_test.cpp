// The host's side of the plugin ABI (plugin.h, plugin_solver.h): what it
// promises the plugins and their authors, checked through test plugins
// (tests/plugins) in a world with the first-party plugins.
// - pivot_step_info.time is "the simulated time at the start of the step"
//   for every [step] call; joints got 0 (test.joint.clock, tests/plugins/test_joints_contract.c).
// - PIVOT_FATAL: "the instance must not be called again"; a joint that
//   returned it was called again at the next step (broken_joint_fatal).
// - PIVOT_DISCARD: "outputs unusable for this step only; the host may retry
//   (smaller step, other solver)"; a joint's DISCARD failed the step
//   (test.joint.short_clock).
// - A body is any element that carries shapes (plugin_element.h): the host
//   placed bodies assuming the first-party rigid body's q = (x, quaternion),
//   v = (v, omega) and refused any other layout (test.element.point_mass).
// - PIVOT_SOLVE_OUT_OF_MEMORY is a pivot_solve_status; it was refused as
//   "not a pivot_solve_status" (broken_solver_out_of_memory).
#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "plugin_host/checked_calls.hpp"
#include "plugin_host/parameters.hpp"
#include "plugin_host/plugin_registry.hpp"
#include "test_plugins.hpp"
#include "world/world.hpp"

namespace pivot {
namespace {

// The first-party plugins, the contract plugins and the broken ones (the
// refusals of the broken folder's unloadable files are expected).
PluginRegistry& registry() {
    static PluginRegistry r;
    static const bool loaded = [] {
        r.load(PIVOT_FIRST_PARTY_PLUGIN_DIR);
        r.load(PIVOT_TEST_CONTRACT_DIR);
        r.load(test::good_plugin_dir());  // test.element.point_mass
        r.load(test::broken_plugin_dir());
        return true;
    }();
    (void)loaded;
    return r;
}

// A 1 kg body at the origin, without gravity, on a joint "drive" of `type`
// to the world, with `motor` when given.
std::unique_ptr<World> world_with_joint(const std::string& type, double timestep,
                                        std::optional<JointMotor> motor = std::nullopt,
                                        uint32_t discard_halvings = WorldSettings{}.discard_halvings) {
    WorldSettings settings;
    settings.timestep = timestep;
    settings.gravity = {0.0, 0.0, 0.0};
    settings.discard_halvings = discard_halvings;
    auto world = std::make_unique<World>(registry(), settings);
    BodyDescription body;
    body.name = "slider";
    body.mass = 1.0;
    body.inertia = {0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1};
    world->add_body(body);
    JointDescription joint;
    joint.name = "drive";
    joint.type = type;
    joint.body1 = "world";
    joint.body2 = "slider";
    joint.motor = motor;
    world->add_joint(joint);
    return world;
}

// The clock joint's row asks v_x = the time its step started at, and the
// rigid row is solved exactly (to rounding: 1e-12 m/s on speeds below
// 0.1 m/s): after the step from t, v_x = t. With time 0 given to joints,
// v_x stayed 0.
TEST(PluginContract, JointsAreGivenTheTimeTheStepStartsAt) {
    const double h = 0.01;
    const std::unique_ptr<World> world_owner = world_with_joint("test.joint.clock", h);
    World& world = *world_owner;
    for (int k = 0; k < 10; ++k) {
        const double start = world.time();
        EXPECT_NEAR(start, k * h, 1e-15);
        world.step();
        EXPECT_NEAR(world.linear_velocity(0)[0], start, 1e-12) << "step from t = " << start;
    }
}

// The short clock discards steps longer than 3 ms; the host takes a 10 ms
// step again in 4 substeps of 2.5 ms (2 of 5 ms are discarded too), each
// given its own start time. The clock's rigid row is solved exactly (1e-12
// m/s, as above), so the substeps' velocities are their start times,
// 0, 2.5, 5 and 7.5 ms, and x = (h/4) sum of them = 3.75e-5 m; a single
// step would have left x = 0, two substeps 2.5e-5 m.
TEST(PluginContract, ADiscardedStepIsTakenAgainInSubsteps) {
    const double h = 0.01;
    const std::unique_ptr<World> world_owner = world_with_joint("test.joint.short_clock", h);
    World& world = *world_owner;
    world.step();
    EXPECT_EQ(world.statistics().substeps, 4u);
    EXPECT_NEAR(world.time(), h, 1e-15);
    EXPECT_NEAR(world.linear_velocity(0)[0], 0.0075, 1e-12);
    EXPECT_NEAR(world.position(0)[0], 0.0025 * (0.0 + 0.0025 + 0.005 + 0.0075), 1e-13);
    world.step();  // from t = h: the substeps start at 10, 12.5, 15 and 17.5 ms
    EXPECT_EQ(world.statistics().substeps, 4u);
    EXPECT_NEAR(world.time(), 2 * h, 1e-15);
    EXPECT_NEAR(world.linear_velocity(0)[0], 0.0175, 1e-12);
}

// A step discarded at every size tried fails naming the plugin, and leaves
// the world exactly as it was; so does one with retries turned off.
TEST(PluginContract, AStepDiscardedAtEverySizeFailsAndChangesNothing) {
    for (uint32_t halvings : {1u, 0u}) {  // 1: 5 ms substeps, still above 3 ms
        const std::unique_ptr<World> world_owner =
            world_with_joint("test.joint.short_clock", 0.01, std::nullopt, halvings);
        World& world = *world_owner;
        world.set_velocity(0, {0.5, 0.0, 0.5}, {0.0, 1.0, 0.0});  // moving: a step would change the state
        const std::vector<uint8_t> before = world.save_state();
        try {
            world.step();
            FAIL() << "a step discarded at every size was accepted";
        } catch (const Error& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("plugin 'test.joint.short_clock'"), std::string::npos) << what;
            EXPECT_NE(what.find("returned DISCARD"), std::string::npos) << what;
            const char* tried = halvings == 0 ? "not retried" : "again in 2 substeps";
            EXPECT_NE(what.find(tried), std::string::npos) << what;
        }
        EXPECT_EQ(world.save_state(), before) << "discard_halvings " << halvings;
    }
}

// Bodies of the point-mass element (q = x, v = its velocity: 3 and 3 values,
// no orientation) are placed, moved, pushed, read and collided through the
// element's own functions. A 2 kg ball of radius 0.1 m given 1 m/s along x:
// read back as given, with the identity orientation of a point; an angular
// velocity is refused (the element cannot turn); a force of m g up holds it
// exactly (v+ = v + h (g + F/m) = 0 in z), a torque does nothing (J^T maps
// it to no velocity). Dropped from 0.5 m onto the ground it comes to rest on
// its sphere: centre at r within 1 mm (rigid contact, default margin).
TEST(PluginContract, BodiesOfAnyElementWithShapes) {
    WorldSettings settings;
    settings.timestep = 0.01;
    settings.rigid_body_element = "test.element.point_mass";
    World world(registry(), settings);
    ShapeDescription ground;
    ground.type = "plane";
    ground.normal = {0, 0, 1};
    world.add_static_shape(ground);
    BodyDescription ball;
    ball.name = "ball";
    ball.mass = 2.0;
    ball.position = {0.0, 0.0, 0.5};
    ball.linear_velocity = {1.0, 0.0, 0.0};
    ShapeDescription sphere;
    sphere.type = "sphere";
    sphere.radius = 0.1;
    ball.shapes.push_back(sphere);
    const BodyId b = world.add_body(ball);
    EXPECT_EQ(world.position(b), (std::array<double, 3>{0.0, 0.0, 0.5}));
    EXPECT_EQ(world.orientation(b), (std::array<double, 4>{1.0, 0.0, 0.0, 0.0}));
    EXPECT_EQ(world.linear_velocity(b), (std::array<double, 3>{1.0, 0.0, 0.0}));
    try {
        world.set_velocity(b, {1.0, 0.0, 0.0}, {0.0, 0.0, 1.0});
        ADD_FAILURE() << "a point mass was given an angular velocity";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("body 'ball': set_velocity: velocity: the body's element cannot move "
                                             "its frame with this twist"),
                  std::string::npos)
            << e.what();
    }
    world.set_velocity(b, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0});
    world.set_external_force(b, {0.0, 0.0, 2.0 * 9.81}, {5.0, 5.0, 5.0});
    world.step();
    EXPECT_EQ(world.linear_velocity(b), (std::array<double, 3>{0.0, 0.0, 0.0}));
    EXPECT_EQ(world.position(b), (std::array<double, 3>{0.0, 0.0, 0.5}));
    world.set_external_force(b, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0});
    for (int k = 0; k < 200; ++k) world.step();
    EXPECT_NEAR(world.position(b)[2], 0.1, 1e-3);
    EXPECT_NEAR(world.linear_velocity(b)[2], 0.0, 1e-6);
}

// The step that gets FATAL fails naming the plugin; the next one fails
// too, without calling it, and says why. (The plugin returns valid rows
// with its FATAL: called again, the step's message named FATAL a second
// time instead of refusing.)
TEST(PluginContract, AFatalInstanceIsNotCalledAgain) {
    const std::unique_ptr<World> world_owner = world_with_joint("test.joint.fatal", 0.01);
    World& world = *world_owner;
    for (int k = 0; k < 2; ++k) {
        try {
            world.step();
            FAIL() << "step " << k << " accepted a FATAL joint";
        } catch (const Error& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("plugin 'test.joint.fatal'"), std::string::npos) << what;
            const char* expected = k == 0 ? "rows: returned FATAL" : "rows: not called: the instance returned FATAL";
            EXPECT_NE(what.find(expected), std::string::npos) << "step " << k << ": " << what;
        }
        EXPECT_EQ(world.time(), 0.0) << "a failed step leaves the world as it was";
    }
}

// Parameter roles (ABI 1.6): a joint description's motor reaches the
// parameters with the motor roles whatever their names (test.joint.drive:
// use_drive, drive_speed, drive_force), and by the old names for a plugin
// built before roles (test.joint.drive_1_5); set_motor_velocity finds the
// velocity by its role. The drive's row holds the relative x velocity at
// the motor's speed within +-100 N (an impulse of 1 N s at h = 0.01 s, more
// than the 0.5 N s needed), solved exactly: v_x is the speed to 1e-12 m/s.
// A joint without motor roles refuses a motor.
TEST(PluginContract, AMotorReachesTheParametersWithTheMotorRoles) {
    for (const char* type : {"test.joint.drive", "test.joint.drive_1_5"}) {
        const std::unique_ptr<World> world = world_with_joint(type, 0.01, JointMotor{0.3, 100.0});
        world->step();
        EXPECT_NEAR(world->linear_velocity(0)[0], 0.3, 1e-12) << type;
        world->set_motor_velocity(world->joint("drive"), -0.2);
        world->step();
        EXPECT_NEAR(world->linear_velocity(0)[0], -0.2, 1e-12) << type;
    }
    try {
        world_with_joint("test.joint.clock", 0.01, JointMotor{0.3, 100.0});
        FAIL() << "a motor on a joint without motor roles was accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("joint 'drive': motor: a clock joint has no motor"), std::string::npos)
            << e.what();
    }
}

// OUT_OF_MEMORY with WARNING: the answer is refused because the report
// says the problem was not solved, the status read as what it is.
TEST(PluginContract, OutOfMemoryIsASolveStatus) {
    const PluginRecord& plugin = registry().require(PIVOT_KIND_SOLVER, "test.solver.out_of_memory");
    PluginInstance solver(plugin, pack_params(plugin, ParamScope::instance, {}, "test"));
    std::array<double, 1> a = {2.0}, b = {-1.0}, lo = {0.0}, hi = {HUGE_VAL};
    pivot_lcp_problem p{};
    p.struct_size = sizeof(p);
    p.problem_class = PIVOT_PROBLEM_BOXED;
    p.n = 1;
    p.matrix_properties = PIVOT_MATRIX_SYMMETRIC | PIVOT_MATRIX_POSITIVE_DEFINITE;
    p.dense = a.data();
    p.lda = 1;
    p.b = b.data();
    p.lo = lo.data();
    p.hi = hi.data();
    pivot_solve_options options{sizeof(options), 0, 0.0};
    std::array<double, 1> x{}, w{};
    pivot_solve_report report{};
    SolveResult r = checked_solve(solver, p, options, unguarded(x.data()), unguarded(w.data()), report);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.message.find("not a pivot_solve_status"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("returned WARNING but its report says it did not solve the problem (solver status 9"),
              std::string::npos)
        << r.message;
}

}  // namespace
}  // namespace pivot
