// Drives (position, velocity and force modes of a joint's motor, ABI 1.7)
// and joint damping, against the dynamics of a rigid body about a fixed
// axis, and the motor effort the host reports (the motor row's own force).
//
// Two bodies:
//  - a wheel on a vertical revolute hinge through its centre of mass
//    (gravity has no moment about the axis; the axis is a principal axis,
//    so there is no gyroscopic torque): I w' = tau, I = the axial inertia;
//  - the lever of motor_test.cpp: mass m at r from a horizontal hinge,
//    I_hinge theta'' = m g r cos(theta) + tau_motor (theta > 0 = falling).
//
// Every relation below is the semi-implicit step itself, a rigid-body
// balance over one step that holds to the solver's tolerance (impulses to
// 1e-10 N s: 1e-7 N m of torque at h = 1 ms), not an approximation in h:
//   saturated or force mode  I (w+ - w) = h tau, tau = the bound / force;
//   rigid velocity mode      tau = I (w_target+ - w) / h - load(theta);
//   PD (position) mode       tau = -k (phi + h w+) - d w+  (the implicit
//                            PD law, docs/engine.md "Drives"), with
//                            I (w+ - w) = h tau;
//   joint damping d          I (w+ - w) = -h d w+, w_n = w_0 (I/(I+hd))^n.
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>

#include <gtest/gtest.h>

#include "physics_test_support.hpp"

namespace pivot {
namespace {

using namespace physics_test;

constexpr double kH = 1e-3;
constexpr double kWheelAxial = 0.4;  // kg m^2

struct Hinged {
    std::unique_ptr<World> world;
    JointId hinge = 0;
    double angle() const { return world->joint_coordinate(hinge)[0]; }
    double rate() const { return world->joint_coordinate(hinge)[1]; }
    double effort() const { return world->reaction(hinge).motor_effort; }
};

// A wheel (axial inertia kWheelAxial) on a vertical hinge at its centre of
// mass, spinning at w0.
Hinged make_wheel(const std::optional<JointMotor>& motor, double damping = 0.0, double w0 = 0.0) {
    Hinged w;
    w.world = std::make_unique<World>(registry(), settings_for(kH, {0, 0, -9.81}));
    BodyDescription body;
    body.name = "wheel";
    body.mass = 20.0;
    body.inertia = diagonal_inertia({0.25, 0.25, kWheelAxial});
    body.angular_velocity = {0, 0, w0};
    w.world->add_body(body);
    JointDescription hinge;
    hinge.name = "hinge";
    hinge.type = "revolute";
    hinge.body2 = "wheel";
    hinge.axis = {0, 0, 1};
    hinge.damping = damping;
    hinge.motor = motor;
    w.hinge = w.world->add_joint(hinge);
    return w;
}

// The lever of motor_test.cpp.
constexpr double kMass = 2.0, kArm = 0.5, kIc = 0.01, kG = 9.81;
constexpr double kLoad = kMass * kG * kArm;  // m g r = 9.81 N m
constexpr double kIHinge = kIc + kMass * kArm * kArm;

Hinged make_lever(const JointMotor& motor) {
    Hinged lever;
    lever.world = std::make_unique<World>(registry(), settings_for(kH, {0, 0, -kG}));
    BodyDescription body;
    body.name = "lever";
    body.mass = kMass;
    body.inertia = diagonal_inertia({kIc, kIc, kIc});
    body.position = {kArm, 0, 0};
    lever.world->add_body(body);
    JointDescription hinge;
    hinge.name = "hinge";
    hinge.type = "revolute";
    hinge.body2 = "lever";
    hinge.axis = {0, 1, 0};
    hinge.motor = motor;
    lever.hinge = lever.world->add_joint(hinge);
    return lever;
}

JointMotor motor_in(pivot_motor_mode mode, double max_force) {
    JointMotor m;
    m.mode = mode;
    m.max_force = max_force;
    return m;
}

// Relative tolerance of an effort at its bound: the bound is the impulse
// bound h T the solver clamps to, exact up to rounding (measured 0).
constexpr double kBoundTolerance = 1e-6;
// Torque from impulses solved to 1e-10 N s at h = 1 ms: 1e-7 N m; the
// checks below allow ten times that.
constexpr double kTorqueTolerance = 1e-6;

TEST(Drive, ASaturatedVelocityDriveReportsItsBoundAndNoConstraintTorque) {
    // A lever the drive cannot hold (T < m g r): saturated at -T on every
    // step while the lever falls; the reaction torque about the axis would
    // also hold the hinge rows' share (zero about the axis here).
    const double T = 0.5 * kLoad;
    JointMotor m = motor_in(PIVOT_MOTOR_VELOCITY, T);
    m.velocity = -1.0;
    Hinged lever = make_lever(m);
    double worst = 0.0;
    run_until(*lever.world, 0.3, [&](World&) { worst = std::max(worst, std::abs(lever.effort() + T) / T); });
    std::printf("saturated velocity drive: max |effort + T| / T = %.2e over 0.3 s\n", worst);
    EXPECT_LT(worst, kBoundTolerance);
}

TEST(Drive, TheRigidVelocityDriveMatchesTheInverseDynamicsOfARamp) {
    // The drive makes the lever follow w(t) = -alpha t (lifting, speeding
    // up): the effort is the inverse dynamics, I alpha' - m g r cos(theta)
    // at the angle the step starts from, with alpha' = (w_target(n+1) -
    // w(n)) / h the step's own acceleration.
    const double alpha = 2.0;
    JointMotor m = motor_in(PIVOT_MOTOR_VELOCITY, 100.0);
    Hinged lever = make_lever(m);
    double worst = 0.0, largest = 0.0;
    for (int n = 0; n < 500; ++n) {
        const double theta = lever.angle(), w = lever.rate();
        const double target = -alpha * (n + 1) * kH;
        lever.world->set_motor_velocity(lever.hinge, target);
        lever.world->step();
        const double inverse = kIHinge * (target - w) / kH - kLoad * std::cos(theta);
        worst = std::max(worst, std::abs(lever.effort() - inverse));
        largest = std::max(largest, std::abs(inverse));
        ASSERT_NEAR(lever.rate(), target, 1e-8) << "step " << n;
    }
    // Not exact to the solver's tolerance: the step carries the lever's
    // momentum about the hinge with the velocity of the previous
    // configuration (the Jacobians are frozen at the start of each step), a
    // consistency error that grows with (h w)^2 (measured 2e-6 N m at
    // 0.9 rad/s after 0.5 s, the same with geometric stiffness off). 1e-5 N m
    // is 1e-6 of the torque; a wrong inertia, load or bound by 1e-5 of
    // itself, or one step of gravity (h m g r = 1e-2 N m s), fails it.
    std::printf("ramp: max |effort - inverse dynamics| = %.2e N m (largest torque %.3f N m)\n", worst, largest);
    EXPECT_LT(worst, 1e-6 * largest);
}

TEST(Drive, AForceDriveAppliesItsForceClampedToTheBound) {
    JointMotor m = motor_in(PIVOT_MOTOR_FORCE, 5.0);
    m.force = 3.0;
    Hinged wheel = make_wheel(m);
    run_until(*wheel.world, 0.1, [](World&) {});
    // 100 steps of 3 N m on 0.4 kg m^2: w = 0.1 s * 7.5 rad/s^2.
    EXPECT_NEAR(wheel.rate(), 0.75, 1e-9);
    EXPECT_NEAR(wheel.effort(), 3.0, 3.0 * kBoundTolerance);
    wheel.world->set_motor_force(wheel.hinge, -10.0);  // beyond the bound: -5
    wheel.world->step();
    EXPECT_NEAR(wheel.effort(), -5.0, 5.0 * kBoundTolerance);
    EXPECT_NEAR(wheel.rate(), 0.75 - kH * 5.0 / kWheelAxial, 1e-9);
}

TEST(Drive, APositionDriveFollowsTheImplicitPdLaw) {
    // k = 40 N m/rad, d = 2 N m s/rad on I = 0.4: omega_n = 10 rad/s,
    // zeta = d / (2 sqrt(k I)) = 0.25. Each step must satisfy the implicit
    // law, and the wheel settles at the target.
    const double k = 40.0, d = 2.0, target = 0.7;
    JointMotor m = motor_in(PIVOT_MOTOR_POSITION, 1e3);
    m.position = target;
    m.stiffness = k;
    m.damping = d;
    Hinged wheel = make_wheel(m);
    double worst_law = 0.0, overshoot = 0.0;
    for (int n = 0; n < 6000; ++n) {
        const double phi = wheel.angle() - target, w = wheel.rate();
        wheel.world->step();
        const double w_plus = wheel.rate();
        const double law = -k * (phi + kH * w_plus) - d * w_plus;
        worst_law = std::max(worst_law, std::abs(wheel.effort() - law));
        worst_law = std::max(worst_law, std::abs(kWheelAxial * (w_plus - w) / kH - wheel.effort()));
        overshoot = std::max(overshoot, wheel.angle() - target);
    }
    // The continuous oscillator overshoots by exp(-pi zeta / sqrt(1 - zeta^2))
    // = 44.4% of the step; the implicit step adds damping h k = 0.04 N m s/rad
    // (2%), so the overshoot is a little smaller, not larger.
    const double zeta = d / (2 * std::sqrt(k * kWheelAxial));
    const double continuous = target * std::exp(-M_PI * zeta / std::sqrt(1 - zeta * zeta));
    std::printf("PD drive: max |effort - implicit law| = %.2e N m; overshoot %.4f rad (continuous %.4f); final "
                "angle %.9f\n",
                worst_law, overshoot, continuous, wheel.angle());
    EXPECT_LT(worst_law, kTorqueTolerance);
    EXPECT_LT(overshoot, continuous);
    EXPECT_GT(overshoot, 0.9 * continuous);
    // 6 s = 15 decay times 1 / (zeta omega_n): |error| <= 0.7 exp(-15) = 2e-7 rad.
    EXPECT_NEAR(wheel.angle(), target, 1e-6);
}

TEST(Drive, ARigidServoTakesTheShortWayAroundAndHoldsItsTarget) {
    // k = 0: the target is reached in one step when the bound allows
    // (3 rad in 1 ms takes 0.4 * 3000 / 1e-3 = 1.2e6 N m); from 0 to 3 rad,
    // then to -3 rad: the short way is +0.28 rad across pi. With a bound
    // of 1e4 N m the servo moves at most h^2 T / I = 0.025 rad per step
    // from rest.
    JointMotor m = motor_in(PIVOT_MOTOR_POSITION, 1e7);
    m.position = 3.0;
    Hinged wheel = make_wheel(m);
    wheel.world->step();
    EXPECT_NEAR(wheel.angle(), 3.0, 1e-9);
    wheel.world->set_motor_position(wheel.hinge, -3.0);
    wheel.world->step();
    const double short_way = 2 * M_PI - 6.0;
    EXPECT_NEAR(wheel.rate(), short_way / kH, 1e-5);
    EXPECT_NEAR(wheel.angle(), -3.0, 1e-9);
    Hinged weak = make_wheel(motor_in(PIVOT_MOTOR_POSITION, 1e4));
    weak.world->set_motor_position(weak.hinge, 3.0);
    weak.world->step();
    EXPECT_NEAR(weak.angle(), kH * kH * 1e4 / kWheelAxial, 1e-12);
    EXPECT_NEAR(weak.effort(), 1e4, 1e4 * kBoundTolerance);
}

TEST(JointDamping, AHingeWithDampingSlowsAsTheImplicitViscousLaw) {
    const double d = 0.8, w0 = 5.0;
    Hinged wheel = make_wheel(std::nullopt, d, w0);
    run_until(*wheel.world, 1.0, [](World&) {});
    const double expected = w0 * std::pow(kWheelAxial / (kWheelAxial + kH * d), 1000);
    std::printf("damped hinge: rate after 1 s %.12f, expected %.12f (continuous %.12f)\n", wheel.rate(), expected,
                w0 * std::exp(-d / kWheelAxial));
    EXPECT_NEAR(wheel.rate() / expected, 1.0, 1e-9);
}

TEST(JointDamping, ABallJointDampsTheRelativeRotationAboutEveryAxis) {
    // A solid sphere (I = 0.1 kg m^2 about every axis) held at its centre
    // by a ball joint, spinning about a skew axis: the damping torque
    // -d w slows it along its axis, w_n = w_0 (I / (I + h d))^n.
    auto world = std::make_unique<World>(registry(), settings_for(kH, {0, 0, -9.81}));
    BodyDescription body;
    body.name = "ball";
    body.mass = 2.5;
    body.inertia = diagonal_inertia({0.1, 0.1, 0.1});
    const V3 w0 = {1.0, -2.0, 3.0};
    body.angular_velocity = w0;
    const BodyId ball = world->add_body(body);
    JointDescription joint;
    joint.name = "ball_joint";
    joint.type = "spherical";
    joint.body2 = "ball";
    joint.damping = 0.3;
    world->add_joint(joint);
    run_until(*world, 0.5, [](World&) {});
    const double factor = std::pow(0.1 / (0.1 + kH * 0.3), 500);
    const V3 w = world->angular_velocity(ball);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(w[k], factor * w0[k], 1e-9) << "component " << k;
}

TEST(JointDamping, AHookOnADampedBallJointComesToRestAndAnUndampedOneSwings) {
    // A 50 kg hook 4 m below a ball joint, released 0.5 m aside, at 60 Hz:
    // joint damping 2000 N m s/rad about the pivot (the swing's angular
    // rate is v / 4 m: a viscous moment that brings it to rest within
    // seconds); without it the hook swings on.
    for (const double damping : {2000.0, 0.0}) {
        auto world = std::make_unique<World>(registry(), settings_for(1.0 / 60, {0, 0, -9.81}));
        BodyDescription hook;
        hook.name = "hook";
        hook.mass = 50.0;
        hook.inertia = diagonal_inertia({1.0, 1.0, 0.5});
        hook.position = {0.5, 0, -std::sqrt(16.0 - 0.25)};
        const BodyId id = world->add_body(hook);
        JointDescription rope;
        rope.name = "rope";
        rope.type = "spherical";
        rope.body2 = "hook";
        rope.anchor = {0, 0, 0};
        rope.damping = damping;
        world->add_joint(rope);
        run_until(*world, 20.0, [](World&) {});
        const V3 v = world->linear_velocity(id), w = world->angular_velocity(id);
        const double kinetic = 0.5 * 50.0 * dot(v, v) + 0.5 * (w[0] * w[0] + w[1] * w[1] + 0.5 * w[2] * w[2]);
        // The swing's energy above the lowest point (z = -4 m): 15.4 J at release.
        const double swing = kinetic + 50.0 * 9.81 * (world->position(id)[2] + 4.0);
        std::printf("hook, joint damping %g N m s/rad: after 20 s kinetic %.3e J, swing %.3f J\n", damping, kinetic,
                    swing);
        if (damping > 0) {
            EXPECT_LT(kinetic, 1e-3);
        } else {
            EXPECT_GT(swing, 0.9 * 50.0 * 9.81 * (4.0 - std::sqrt(16.0 - 0.25)));  // measured: all of it kept
        }
    }
}

}  // namespace
}  // namespace pivot
