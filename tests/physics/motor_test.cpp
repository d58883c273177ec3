// A motor on a revolute hinge against a gravity load, up to its torque
// bound and no further.
//
// A lever of mass m with its centre of mass at r from a hinge about the
// world y axis (centroidal inertia I_c, so I_hinge = I_c + m r^2), started
// horizontal at rest, gravity -z: the load torque about the hinge is
// m g r cos(theta) (theta = the joint coordinate, positive = falling). The
// motor drives the coordinate's rate toward w (negative = lifting) with a
// torque bounded by T (joint_common.hpp: a motor row, impulse in
// [-h T, h T], no stabilization).
//
// Reference (rigid-body dynamics about a fixed axis, Euler's second law):
//     I_hinge theta'' = m g r cos(theta) + tau_motor,  |tau_motor| <= T.
//  - T > m g r: the motor wins; after a saturated transient with
//    theta'' = (m g r cos(theta) - T) / I_hinge the hinge turns at w exactly,
//    and then tau_motor = -m g r cos(theta) (no acceleration).
//  - T < m g r: the motor cannot hold the load; it stays saturated
//    (tau_motor = -T, reported as |reaction torque . axis| = T) and the
//    lever falls with theta'' = (m g r cos(theta) - T) / I_hinge.
// The hinge's other rows (point and perpendicular) have no moment about the
// axis, so the reaction torque along the axis is the motor's alone.
#include <cmath>
#include <cstdio>
#include <memory>

#include <gtest/gtest.h>

#include "physics_test_support.hpp"

namespace pivot {
namespace {

using namespace physics_test;

constexpr double kMass = 2.0, kArm = 0.5, kIc = 0.01, kG = 9.81;
constexpr double kLoad = kMass * kG * kArm;  // m g r = 9.81 N m
constexpr double kIHinge = kIc + kMass * kArm * kArm;
constexpr double kH = 1e-3;

struct Lever {
    std::unique_ptr<World> world;
    BodyId body = 0;
    JointId hinge = 0;
    double angle() const { return world->joint_coordinate(hinge)[0]; }
    double rate() const { return world->joint_coordinate(hinge)[1]; }
    double axial_torque() const { return world->reaction(hinge).torque[1]; }  // on the lever, about +y
};

Lever make_lever(double motor_velocity, double max_torque) {
    Lever lever;
    lever.world = std::make_unique<World>(registry(), settings_for(kH, {0, 0, -kG}));
    BodyDescription body;
    body.name = "lever";
    body.mass = kMass;
    body.inertia = diagonal_inertia({kIc, kIc, kIc});
    body.position = {kArm, 0, 0};
    lever.body = lever.world->add_body(body);
    JointDescription hinge;
    hinge.name = "hinge";
    hinge.type = "revolute";
    hinge.body1 = "world";
    hinge.body2 = "lever";
    hinge.anchor = {0, 0, 0};
    hinge.axis = {0, 1, 0};
    hinge.motor = JointMotor{motor_velocity, max_torque};
    lever.hinge = lever.world->add_joint(hinge);
    return lever;
}

// The solver's impulse tolerance (1e-10 N s) over h is 1e-7 N m of torque
// and 2e-10 rad/s of rate per step: the tolerances below on exact
// relations (rate = w, |torque| = T) are a few hundred times those.
constexpr double kTorqueTolerance = 1e-6;  // N m
constexpr double kRateTolerance = 1e-8;    // rad/s

TEST(Motor, StrongMotorLiftsTheLoadAtItsTargetVelocity) {
    const double w = -1.0, T = 2 * kLoad;
    Lever lever = make_lever(w, T);
    // Saturated transient: the first step gives theta' = h (m g r - T) / I.
    lever.world->step();
    const double first = lever.rate();
    const double expected_first = kH * (kLoad - T) / kIHinge;
    std::printf("strong motor: first-step rate %.9f, expected %.9f; torque . axis %.6f (T = %.4f)\n", first,
                expected_first, lever.axial_torque(), T);
    EXPECT_NEAR(first / expected_first, 1.0, 1e-6);
    EXPECT_NEAR(lever.axial_torque(), -T, kTorqueTolerance);
    // Reaches w after ~ I |w| / (T - m g r) = 0.052 s, then holds it.
    double reached = -1, worst_rate = 0, worst_torque = 0;
    double angle_before = lever.angle();  // the rows of a step use the configuration at its start
    run_until(*lever.world, 1.0, [&](World& world) {
        if (reached < 0 && std::abs(lever.rate() - w) < kRateTolerance) reached = world.time();
        if (world.time() > 0.1) {
            worst_rate = std::max(worst_rate, std::abs(lever.rate() - w));
            // Steady: the motor balances the load, tau = -m g r cos(theta)
            // at the angle the step started from (exact for the linear
            // solve of one step; the angle after the step would differ by
            // m g r sin(theta) |w| h = 8e-3 N m).
            worst_torque =
                std::max(worst_torque, std::abs(lever.axial_torque() + kLoad * std::cos(angle_before)));
        }
        angle_before = lever.angle();
    });
    const double transient = kIHinge * std::abs(w) / (T - kLoad);
    std::printf("  reached w at %.4f s (estimate %.4f s), after 0.1 s: max |rate - w| %.2e rad/s, max |tau + m g r "
                "cos| %.2e N m, angle at 1 s %.4f rad\n",
                reached, transient, worst_rate, worst_torque, lever.angle());
    ASSERT_GT(reached, 0.0);
    EXPECT_NEAR(reached, transient, 2 * kH);  // the transient ends within the step predicted
    EXPECT_LT(worst_rate, kRateTolerance);
    EXPECT_LT(worst_torque, kTorqueTolerance);  // measured 5e-10 N m
    EXPECT_NEAR(lever.angle(), w * (1.0 - transient) - 0.5 * transient * std::abs(w), 0.01);
}

TEST(Motor, StrongMotorHoldsTheLoadStillThenFollowsANewTargetVelocity) {
    Lever lever = make_lever(0.0, 2 * kLoad);
    double worst_rate = 0;
    run_until(*lever.world, 0.5, [&](World&) { worst_rate = std::max(worst_rate, std::abs(lever.rate())); });
    std::printf("holding motor: max |rate| %.2e rad/s, angle %.2e rad, torque . axis %.6f (m g r %.4f)\n", worst_rate,
                lever.angle(), lever.axial_torque(), kLoad);
    EXPECT_LT(worst_rate, kRateTolerance);
    EXPECT_LT(std::abs(lever.angle()), 1e-6);
    EXPECT_NEAR(lever.axial_torque(), -kLoad, kTorqueTolerance);
    // World::set_motor_velocity between steps: the motor now lowers the
    // lever at 0.5 rad/s. Reaching the new rate in one step would take
    // I * 0.5 / h = 255 N m > T, so the motor saturates for ~ 0.5 I / (m g r
    // + T) = 9 ms (gravity helps), then holds the target rate (the steady
    // torque m g r cos(theta) < T), as in the lifting case.
    lever.world->set_motor_velocity(lever.hinge, 0.5);
    run_until(*lever.world, 0.6, [](World&) {});
    std::printf("  after set_motor_velocity(0.5): rate %.12f rad/s, torque . axis %.6f\n", lever.rate(),
                lever.axial_torque());
    EXPECT_NEAR(lever.rate(), 0.5, kRateTolerance);
}

TEST(Motor, WeakMotorCannotHoldTheLoadAndSaturates) {
    const double w = -1.0, T = 0.5 * kLoad;
    Lever lever = make_lever(w, T);
    const double alpha = (kLoad - T) / kIHinge;  // at theta = 0
    // Angular acceleration from the rate after n steps: exactly alpha at the
    // first step (one linear solve from rest); over 10 steps the angle
    // reaches alpha (10 h)^2 / 2 = 5e-4 rad and cos(theta) changes by 1e-7,
    // far below the 1e-5 relative tolerance.
    double worst_torque = 0, alpha_first = 0;
    int steps = 0;
    run_until(*lever.world, 0.2, [&](World&) {
        ++steps;
        if (steps == 1) alpha_first = lever.rate() / kH;
        worst_torque = std::max(worst_torque, std::abs(std::abs(lever.axial_torque()) - T));
    });
    Lever check = make_lever(w, T);
    for (int i = 0; i < 10; ++i) check.world->step();
    const double alpha_10 = check.rate() / (10 * kH);
    // At 0.2 s the lever has fallen by ~ alpha t^2 / 2 = 0.19 rad; the exact
    // rate is the integral of (m g r cos(theta) - T) / I: compared with the
    // constant-alpha value to first order in theta (rate < alpha t).
    std::printf("weak motor: alpha expected %.6f rad/s^2, first step %.6f, over 10 steps %.6f; after 0.2 s rate %.4f "
                "(alpha t %.4f), angle %.4f; max ||torque . axis| - T| %.2e N m\n",
                alpha, alpha_first, alpha_10, lever.rate(), alpha * 0.2, lever.angle(), worst_torque);
    EXPECT_NEAR(alpha_first / alpha, 1.0, 1e-6);
    EXPECT_NEAR(alpha_10 / alpha, 1.0, 1e-5);
    EXPECT_GT(lever.rate(), 0.0);  // it falls, against the motor's lifting direction
    EXPECT_LT(lever.rate(), alpha * 0.2);
    EXPECT_GT(lever.rate(), 0.9 * alpha * 0.2);
    // Saturated at every step: the motor gives T, not more.
    EXPECT_LT(worst_torque, kTorqueTolerance);
    EXPECT_LT(lever.axial_torque(), 0.0);  // opposing the fall
}

}  // namespace
}  // namespace pivot
