// Joint limits: a revolute pendulum with angle limits [-0.5, 0.5] rad and a
// prismatic slider on an inclined guide with limits [-0.2, 0.1] m, under
// gravity, each released so that it hits both limits and then comes to rest
// against the one gravity pushes it into.
//
// Reference (the limit as an ideal unilateral constraint, inelastic: the
// limit rows have no restitution): the coordinate never leaves the range,
// and in the final static pose it sits exactly at the limit with the
// limit's reaction balancing the load along the free direction:
//     revolute:  tau_limit = -m g L cos(upper)  (body at L from the hinge)
//     prismatic: f_limit   = -m g sin(slope)    (component of gravity along the guide)
//
// Why the penetration is ~0 (joint_common.hpp, assemble_islands.cpp): a limit
// row is written when gap < 2 h |rate| + 1e-9, i.e. whenever the limit can
// be reached within the step (speculatively, before contact); it is rigid
// and unilateral, so the step's problem enforces gap + h J v+ >= 0, the
// linearized gap after the step. For a revolute angle about a fixed axis and
// a translation along a fixed axis, the position update is exactly linear in
// v+ (q+ = q + h v+ along the free direction), so the gap after the step is
// >= 0 up to the solver tolerance (1e-10 N s, ~1e-13 in position) and the
// rows' own one-step drift (<= 1e-9 here). Bound: 1e-8 (rad or m), about
// 1e-5 of the distance travelled in the step of impact (h |rate| ~ 3e-3).
#include <cmath>
#include <cstdio>
#include <memory>

#include <gtest/gtest.h>

#include "physics_test_support.hpp"

namespace pivot {
namespace {

using namespace physics_test;

constexpr double kH = 1e-3, kG = 9.81;
constexpr double kPenetration = 1e-8;

struct LimitRun {
    double lowest = 0, highest = 0;       // coordinate range visited
    double rate_at_lower = 0, rate_at_upper = 0;  // |rate| of the step before reaching each limit
    double final_position = 0, final_rate = 0, final_axial_reaction = 0;
    double seconds = 0;
};

// Runs `world` until t_end, recording the coordinate of `joint`; `axial`
// returns the reaction along the free direction (torque or force on body 2).
template <class Axial>
LimitRun run_limits(World& world, JointId joint, double lower, double upper, double t_end, Axial axial) {
    LimitRun run;
    run.lowest = run.highest = world.joint_coordinate(joint)[0];
    double previous_rate = 0;
    Stopwatch clock;
    run_until(world, t_end, [&](World& w) {
        const auto [s, rate] = w.joint_coordinate(joint);
        if (run.rate_at_lower == 0 && s < lower + 1e-6) run.rate_at_lower = std::abs(previous_rate);
        if (run.rate_at_upper == 0 && s > upper - 1e-6) run.rate_at_upper = std::abs(previous_rate);
        run.lowest = std::min(run.lowest, s);
        run.highest = std::max(run.highest, s);
        previous_rate = rate;
    });
    run.seconds = clock.seconds();
    const auto [s, rate] = world.joint_coordinate(joint);
    run.final_position = s;
    run.final_rate = rate;
    run.final_axial_reaction = axial(world.reaction(joint));
    return run;
}

TEST(JointLimits, RevolutePendulumStaysWithinItsLimitsAndRestsOnTheUpperOne) {
    const double m = 1.0, L = 1.0, ic = 0.01, lower = -0.5, upper = 0.5;
    World world(registry(), settings_for(kH, {0, 0, -kG}));
    // Released from horizontal (theta = 0), thrown upward at 4 rad/s:
    // theta increases when the bob falls (rotation about +y turns x to -z).
    BodyDescription bob;
    bob.name = "bob";
    bob.mass = m;
    bob.inertia = diagonal_inertia({ic, ic, ic});
    bob.position = {L, 0, 0};
    bob.angular_velocity = {0, -4.0, 0};
    bob.linear_velocity = cross({0, -4.0, 0}, {L, 0, 0});
    world.add_body(bob);
    JointDescription hinge;
    hinge.name = "hinge";
    hinge.type = "revolute";
    hinge.body1 = "world";
    hinge.body2 = "bob";
    hinge.axis = {0, 1, 0};
    hinge.limits = JointLimits{lower, upper};
    const JointId j = world.add_joint(hinge);
    const LimitRun run =
        run_limits(world, j, lower, upper, 3.0, [](const JointReaction& r) { return r.torque[1]; });
    const double static_torque = -m * kG * L * std::cos(upper);
    std::printf("revolute: beyond the limits by %.2e / %.2e rad, impact rates %.3f / %.3f rad/s; final angle "
                "%.12f, rate %.2e, torque . axis %.6f (static %.6f); %.3f s\n",
                lower - run.lowest, run.highest - upper, run.rate_at_lower, run.rate_at_upper, run.final_position,
                run.final_rate, run.final_axial_reaction, static_torque, run.seconds);
    EXPECT_GT(run.rate_at_lower, 1.0);  // both limits were hit, at speed
    EXPECT_GT(run.rate_at_upper, 1.0);
    EXPECT_GT(run.lowest, lower - kPenetration);
    EXPECT_LT(run.highest, upper + kPenetration);
    // At rest against the upper limit: the inelastic limit stops it within a
    // step; 2 s later the rate is zero up to the solver tolerance (1e-10 N s
    // over I_hinge ~ 1: 1e-10 rad/s; bound 1e-8) and the limit's reaction
    // holds gravity's torque at the limit angle (to the solver tolerance
    // over h, 1e-7 N m; bound 1e-6).
    EXPECT_NEAR(run.final_position, upper, kPenetration);
    EXPECT_LT(std::abs(run.final_rate), 1e-8);
    EXPECT_NEAR(run.final_axial_reaction, static_torque, 1e-6);
}

TEST(JointLimits, PrismaticSliderStaysWithinItsLimitsAndRestsAtTheDownhillOne) {
    const double m = 1.0, lower = -0.2, upper = 0.1;
    World world(registry(), settings_for(kH, {0, 0, -kG}));
    // Guide inclined at 45 degrees, downhill along +axis; the slider is
    // thrown uphill at 2 m/s: it reaches the lower limit (it would stop at
    // -v^2 / (2 g sin 45) = -0.29 m), then slides down to the upper one.
    const V3 axis = unit({1, 0, -1});
    const double slope_g = kG * -axis[2];  // g sin(45 degrees)
    BodyDescription slider;
    slider.name = "slider";
    slider.mass = m;
    slider.inertia = diagonal_inertia({0.02, 0.02, 0.02});
    slider.position = {0, 0, 1};
    slider.linear_velocity = -2.0 * axis;
    world.add_body(slider);
    JointDescription guide;
    guide.name = "guide";
    guide.type = "prismatic";
    guide.body1 = "world";
    guide.body2 = "slider";
    guide.axis = axis;
    guide.limits = JointLimits{lower, upper};
    const JointId j = world.add_joint(guide);
    const LimitRun run = run_limits(world, j, lower, upper, 3.0,
                                    [&](const JointReaction& r) { return dot(V3{r.force[0], r.force[1], r.force[2]}, axis); });
    std::printf("prismatic: beyond the limits by %.2e / %.2e m, impact speeds %.3f / %.3f m/s; final "
                "position %.12f, rate %.2e, force . axis %.6f (static %.6f); %.3f s\n",
                lower - run.lowest, run.highest - upper, run.rate_at_lower, run.rate_at_upper, run.final_position,
                run.final_rate, run.final_axial_reaction, -m * slope_g, run.seconds);
    EXPECT_GT(run.rate_at_lower, 0.5);
    EXPECT_GT(run.rate_at_upper, 0.5);
    EXPECT_GT(run.lowest, lower - kPenetration);
    EXPECT_LT(run.highest, upper + kPenetration);
    EXPECT_NEAR(run.final_position, upper, kPenetration);
    EXPECT_LT(std::abs(run.final_rate), 1e-8);
    EXPECT_NEAR(run.final_axial_reaction, -m * slope_g, 1e-6);
}

}  // namespace
}  // namespace pivot
