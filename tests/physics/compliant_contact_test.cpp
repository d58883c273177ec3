// The compliant contact law (pivot.friction.compliant) through the whole
// step: two steel spheres meeting head-on reproduce Hertz's peak force and
// contact duration; a ball dropped with the Hunt-Crossley, Lankarani-Nikravesh
// and Flores laws rebounds with the effective restitution of seed002's table
// (seed002 A2.1, the effective restitution derived there; docs/sources.md).
#include <cmath>
#include <cstdio>

#include "contact_scenes.hpp"

namespace pivot {
namespace {

using namespace physics_test;

// A sphere body of radius r and density rho at x, moving with v.
BodyDescription steel_ball(const std::string& name, double r, double rho, const Vec3d& at, const Vec3d& v) {
    BodyDescription b = sphere_body(name, rho * 4.0 / 3.0 * M_PI * r * r * r, r, at);
    b.linear_velocity = v;
    return b;
}

// Hertz's elastic impact of two equal steel spheres (E = 210 GPa, nu = 0.3,
// r = 5 cm, 4.11 kg each) at a closing speed of 1 m/s, no gravity:
//   E* = E / (2 (1 - nu^2)),  R* = r / 2,  K = 4/3 E* sqrt(R*),  m* = m / 2,
//   delta_max = (5 m* v^2 / (4 K))^(2/5),  F_max = K delta_max^(3/2),
//   t_c = 3.21807 (m* v^2 / K)^(2/5) / v
// (x'' = -x^(3/2), x(0) = 0, x'(0) = 1: x_max = (5/4)^(2/5), contact time
// 3.21807; seed002_003.md A2.1). The law (restitution 1: no damping) is
// explicit; at h = 1 us the contact (0.3 ms) spans ~300 steps, so the
// sampled peak and duration are within 1% of the continuous ones: 5% (the
// issue's criterion) leaves room for nothing but a wrong law.
TEST(CompliantContact, SteelSpheresReproduceHertzPeakForceAndDuration) {
    const double E = 210e9, nu = 0.3, r = 0.05, rho = 7850.0, v = 1.0, h = 1e-6;
    const double e_star = E / (2.0 * (1.0 - nu * nu));
    WorldSettings settings = contact_settings({"", {}, "pivot.solver.dantzig"}, h);
    settings.gravity = {0, 0, 0};
    World world(registry(), settings);
    MaterialDescription steel;
    steel.name = "default";
    steel.friction_model = "pivot.friction.compliant";
    steel.friction = {{"law", "hunt_crossley"}, {"restitution", 1.0}, {"effective_modulus", e_star}, {"mu", 0.0}};
    world.add_material(steel);
    // 0.1 mm apart, closing at v.
    const BodyDescription ball_a = steel_ball("a", r, rho, {-r - 1e-4, 0, 0}, {0.5 * v, 0, 0});
    const BodyId a = world.add_body(ball_a);
    const BodyId b = world.add_body(steel_ball("b", r, rho, {r + 1e-4, 0, 0}, {-0.5 * v, 0, 0}));
    const double m = ball_a.mass;
    double peak = 0.0;
    int steps_in_contact = 0;
    bool ended = false;
    for (int k = 0; k < 2000 && !ended; ++k) {
        world.step();
        double force = 0.0;
        for (const ContactReport& c : world.contacts()) force += c.normal_force;
        if (force > 0.0) {
            ++steps_in_contact;
            peak = std::max(peak, force);
        } else if (steps_in_contact > 0) {
            ended = true;
        }
    }
    const double k_hertz = 4.0 / 3.0 * e_star * std::sqrt(0.5 * r);
    const double m_star = 0.5 * m;
    const double delta_max = std::pow(1.25 * m_star * v * v / k_hertz, 0.4);
    const double f_max = k_hertz * std::pow(delta_max, 1.5);
    const double t_c = 3.21807 * std::pow(m_star * v * v / k_hertz, 0.4) / v;
    const double duration = steps_in_contact * h;
    std::printf("Hertz: peak %.1f N (theory %.1f), duration %.4g s (theory %.4g), separation speed %.6f m/s\n", peak,
                f_max, duration, t_c, world.linear_velocity(b)[0] - world.linear_velocity(a)[0]);
    ASSERT_TRUE(ended);
    EXPECT_NEAR(peak / f_max, 1.0, 0.05);
    EXPECT_NEAR(duration / t_c, 1.0, 0.05);
    // Elastic: they separate at the closing speed (the explicit step's
    // energy error over the contact: well under 1%).
    EXPECT_NEAR(world.linear_velocity(b)[0] - world.linear_velocity(a)[0], v, 0.01 * v);
}

struct RestitutionCase {
    const char* law;
    double e_in;
    double e_out;  // seed002_003.md A2.1 table (RK4 of x'' = -x^1.5 (1 + chi x'))
};

class CompliantRestitution : public ::testing::TestWithParam<RestitutionCase> {};

// The thesis's ball (seed002 B1: m = 1 kg, R = 0.1 m, K = 2.4e10 N/m^1.5,
// n = 3/2, h = 1e-5 s, gravity on) hits the ground at 4.2021 m/s (a 0.9 m
// drop); its rebound speed over its impact speed is the law's effective
// restitution, which depends on e alone. Tolerance 0.01: the extract's, for
// h <= 1e-5 s with gravity acting during the ~17-step contact.
TEST_P(CompliantRestitution, EffectiveRestitutionMatchesTheClosedForm) {
    const RestitutionCase& c = GetParam();
    const double h = 1e-5, r = 0.1, v0 = 4.2021;
    World world(registry(), contact_settings({"", {}, "pivot.solver.dantzig"}, h));
    MaterialDescription steel;
    steel.name = "default";
    steel.friction_model = "pivot.friction.compliant";
    steel.friction = {{"law", c.law}, {"restitution", c.e_in}, {"stiffness", 2.4e10}, {"exponent", 1.5}};
    world.add_material(steel);
    add_ground(world);
    BodyDescription ball = sphere_body("ball", 1.0, r, {0, 0, r + 1e-4});
    ball.linear_velocity = {0, 0, -v0};
    const BodyId id = world.add_body(ball);
    double impact = 0.0, rebound = 0.0;
    bool touching = false;
    for (int k = 0; k < 1000; ++k) {
        const double before = world.linear_velocity(id)[2];
        world.step();
        double force = 0.0;
        for (const ContactReport& report : world.contacts()) force += report.normal_force;
        if (force > 0.0 && !touching) {
            touching = true;
            impact = -before;
        } else if (force == 0.0 && touching) {
            rebound = before;  // the velocity at the end of the last step with contact force
            break;
        }
    }
    const double e_out = rebound / impact;
    std::printf("%s e = %.1f: impact %.4f m/s, rebound %.4f m/s, effective e %.4f (closed form %.4f)\n", c.law, c.e_in,
                impact, rebound, e_out, c.e_out);
    EXPECT_NEAR(e_out, c.e_out, 0.01);
}

INSTANTIATE_TEST_SUITE_P(
    Laws, CompliantRestitution,
    ::testing::Values(RestitutionCase{"hunt_crossley", 0.2, 0.5469}, RestitutionCase{"hunt_crossley", 0.8, 0.8329},
                      RestitutionCase{"lankarani_nikravesh", 0.2, 0.6723},
                      RestitutionCase{"lankarani_nikravesh", 0.8, 0.8471}, RestitutionCase{"flores", 0.2, 0.1555},
                      RestitutionCase{"flores", 0.5, 0.4704}, RestitutionCase{"flores", 0.8, 0.7885}),
    [](const ::testing::TestParamInfo<RestitutionCase>& param) {
        return std::string(param.param.law) + "_" + std::to_string(static_cast<int>(param.param.e_in * 10));
    });

}  // namespace
}  // namespace pivot
