// A hanging chain: 50 capsule-like links (0.1 m, 0.1 kg), the first hinged
// to the world (revolute, horizontal axis), consecutive links joined by
// spherical joints, and a tip body 10 times heavier than a link (1 kg) on a
// spherical joint under the last link; started at the exact rest
// configuration (vertical, i.e. along gravity, at rest). Gravity is given
// along a direction that is not a coordinate axis, so that no component of
// the state is zero by symmetry (with gravity along -z every x, y
// component stays exactly 0 and the test would prove nothing).
//
// Reference: statics. The vertical chain at rest is an equilibrium (every
// joint carries the weight below it, no moment anywhere), so the exact
// motion is no motion: positions stay at the initial ones, velocities zero.
//
// Why the step keeps it (assemble_islands.cpp): with phi = 0 and v = 0, the
// rigid rows ask J v+ = 0 with v+ = h M^-1 (f_gravity + J^T lambda); the
// equilibrium lambda makes v+ = 0 and is the unique solution in v+, so a
// step reproduces the rest state up to the solver's impulse residual
// (solver tolerance 1e-10 N s, host acceptance 1e-9 N s) and rounding. A
// residual r per step gives velocity errors ~ r / m_link = 1e-9 m/s (r at
// the tolerance); the hanging chain is stable (gravity restores), so errors
// do not accumulate beyond ~ r / m_link x (a swing period / h) in the worst
// case of a resonant sum, 1e-9 x 600 = 6e-7 m/s, and positions ~ that times
// the swing period over 2 pi, 1e-7 m. Bounds: 1e-6 m/s and 1e-6 m, and a
// joint error of 1e-9 m (the rows see only rounding). Measured: 6e-12 m/s
// and 8e-15 m with lemke and dantzig, 4e-9 m/s and 4e-12 m with pgs.
//
// Runtime (2 cores, 155 rows in one island, 2000 steps): lemke 0.7-1.0 s,
// dantzig 0.5 s, pgs 0.45 s.
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "physics_test_support.hpp"

namespace pivot {
namespace {

using namespace physics_test;

constexpr int kLinks = 50;
constexpr double kLinkLength = 0.1, kLinkMass = 0.1, kLinkRadius = 0.01, kTipMass = 1.0, kTipRadius = 0.05;

// Gravity along a direction that is not a coordinate axis (so that no
// component of the rest state is zero by symmetry and rounding acts on
// all of them); the chain hangs along it: "vertical" is `down`.
const V3 kDown = unit({0.3, -0.2, -1.0});

std::unique_ptr<World> make_chain(double h, const std::string& solver) {
    auto world = std::make_unique<World>(registry(), settings_for(h, 9.81 * kDown, solver));
    // Link body z along the chain (towards -down): the rotation from z to -down.
    const V3 up = -1.0 * kDown;
    const Q4 link_orientation = axis_angle(cross({0, 0, 1}, up), std::acos(up[2]));
    const V3 hinge_axis = unit(cross(kDown, {1, 0, 0}));  // horizontal
    for (int i = 0; i < kLinks; ++i) {
        BodyDescription link;
        link.name = "link" + std::to_string(i);
        link.mass = kLinkMass;
        link.inertia = diagonal_inertia(rod_inertia(kLinkMass, kLinkLength, kLinkRadius));  // along body z
        link.orientation = link_orientation;
        link.position = ((i + 0.5) * kLinkLength) * kDown;
        world->add_body(link);
        JointDescription joint;
        joint.name = "joint" + std::to_string(i);
        joint.type = i == 0 ? "revolute" : "spherical";
        joint.body1 = i == 0 ? "world" : "link" + std::to_string(i - 1);
        joint.body2 = link.name;
        joint.anchor = (i * kLinkLength) * kDown;
        joint.axis = hinge_axis;
        world->add_joint(joint);
    }
    BodyDescription tip;
    tip.name = "tip";
    tip.mass = kTipMass;
    const double it = 0.4 * kTipMass * kTipRadius * kTipRadius;  // solid sphere
    tip.inertia = diagonal_inertia({it, it, it});
    tip.position = (kLinks * kLinkLength + kTipRadius) * kDown;
    world->add_body(tip);
    world->add_joint(
        spherical_joint("tip_joint", "link" + std::to_string(kLinks - 1), "tip", (kLinks * kLinkLength) * kDown));
    return world;
}

struct ChainRun {
    double position_drift = 0;  // max |x(t) - x(0)| over bodies and steps, m
    double speed = 0;           // max |v|, m/s
    double angular_speed = 0;   // max |w|, rad/s
    double joint_error = 0;     // m or rad
    uint32_t rows = 0, failures = 0;
    double seconds = 0;
};

ChainRun run_chain(double h, double t_end, const std::string& solver) {
    auto world = make_chain(h, solver);
    std::vector<V3> initial;
    for (BodyId b = 0; b < world->body_count(); ++b) initial.push_back(world->position(b));
    ChainRun run;
    Stopwatch clock;
    run_until(*world, t_end, [&](World& w) {
        for (BodyId b = 0; b < w.body_count(); ++b) {
            run.position_drift = std::max(run.position_drift, norm(w.position(b) - initial[b]));
            run.speed = std::max(run.speed, norm(w.linear_velocity(b)));
            run.angular_speed = std::max(run.angular_speed, norm(w.angular_velocity(b)));
        }
        run.joint_error = std::max(run.joint_error, w.statistics().max_joint_error);
        run.rows = w.statistics().rows;
        run.failures += w.statistics().solver_failures;
    });
    run.seconds = clock.seconds();
    return run;
}

void check_chain(double h, double t_end) {
    const std::string solver = solver_under_test();
    const ChainRun run = run_chain(h, t_end, solver);
    std::printf("chain of %d links + tip, %s, h = %.4f s, %.1f s (%d steps, %u rows): max drift %.2e m, max |v| %.2e "
                "m/s, max |w| %.2e rad/s, joint error %.2e, solver failures %u; %.2f s wall\n",
                kLinks, solver.c_str(), h, t_end, static_cast<int>(std::lround(t_end / h)), run.rows,
                run.position_drift, run.speed, run.angular_speed, run.joint_error, run.failures, run.seconds);
    EXPECT_EQ(run.failures, 0u);
    EXPECT_LT(run.position_drift, 1e-6);
    EXPECT_LT(run.speed, 1e-6);
    EXPECT_LT(run.angular_speed, 1e-5);  // 1e-6 m/s over a link half-length
    EXPECT_LT(run.joint_error, 1e-9);
}

TEST(HangingChain, StaysAtRestAtOneMillisecond) { check_chain(1e-3, 2.0); }

// The step treats the constraint forces' change of direction with the
// configuration (the geometric stiffness K = d(J^T lambda)/dq, seed000 2.3)
// explicitly: J is taken at the start of the step. Under a tension T, the
// zigzag mode of links of mass m and length l (alternate joints displaced
// sideways) has omega^2 = T l / (m l^2 / 12) = 12 T / (m l), and symplectic
// Euler on an oscillator is stable only for h omega < 2. With the tension
// at the top, T = (49 m + M) g = 57.9 N: omega = 264 rad/s and
// h_crit = 2 / omega = 7.6 ms (a lower bound: the top link's local
// estimate bounds the chain's highest frequency from above; measured, the
// chain is stable at 8 ms and unstable at 9 ms). Below it the rest state is
// kept; at 6 ms (0.8 h_crit) it must be.
double critical_step() {
    const double tension = ((kLinks - 1) * kLinkMass + kTipMass) * 9.81;
    return 2.0 / std::sqrt(12.0 * tension / (kLinkMass * kLinkLength));
}

TEST(HangingChain, StaysAtRestBelowTheGeometricStiffnessStepLimit) {
    std::printf("predicted step limit of the explicit geometric stiffness: %.2f ms\n", 1e3 * critical_step());
    check_chain(0.8 * critical_step(), 2.0);
}

// At 60 Hz (h = 16.7 ms, 2.2 times the limit above) the chain at exact rest
// exploded from rounding errors within ~15 steps before the step had the
// geometric stiffness (growth x10 per step, joint errors of metres after
// 2 s, and no solver failure reported). With it (core/step/
// geometric_stiffness.cpp: the zigzag modes, Omega^2 = h^2 12 T / (m l)
// up to 16 here, are damped like implicit Euler) the rest state is kept to
// the same bounds; measured: 1.6e-13 m/s, 3.6e-15 m.
TEST(HangingChain, StaysAtRestAtSixtyHertz) { check_chain(1.0 / 60.0, 2.0); }

}  // namespace
}  // namespace pivot
