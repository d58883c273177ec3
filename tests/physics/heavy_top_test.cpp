// A heavy symmetric top in steady precession: a body symmetric about its
// z axis, its tip held at the world origin by a spherical joint, its centre
// of mass at distance l from the tip, under gravity g along -z.
//
// Reference (Goldstein, Classical Mechanics, 3rd ed., section 5.7): with
// Euler angles phi (precession about the vertical), theta (tilt of the
// symmetry axis from the vertical) and psi (spin), A the moment of inertia
// about a transverse axis through the TIP (A = A_cm + m l^2), C the moment
// about the symmetry axis and w3 = psi' + phi' cos(theta) the spin component
// along it, the Lagrangian
//     L = A/2 (theta'^2 + phi'^2 sin^2 theta) + C/2 w3^2 - m g l cos(theta)
// gives for theta:
//     A theta'' = A phi'^2 sin(theta) cos(theta) - C w3 phi' sin(theta) + m g l sin(theta).
// Steady precession (theta' = theta'' = 0, phi' = Omega, theta != 0):
//     m g l = Omega (C w3 - A Omega cos(theta)),
// whose slow root is
//     Omega = (C w3 - sqrt(C^2 w3^2 - 4 A cos(theta) m g l)) / (2 A cos(theta)),
// which tends to the gyroscopic limit m g l / (C w3) for a fast top. The top
// is started exactly in that state: symmetry axis e3 = (sin th, 0, cos th),
// angular velocity w = Omega z + (w3 - Omega cos th) e3, centre of mass
// velocity w x (l e3); it must then precess at Omega with theta constant.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "physics_test_support.hpp"

namespace pivot {
namespace {

using namespace physics_test;

struct Top {
    double m = 1.0, l = 0.1, a_cm = 0.01, c = 0.02, g = 9.81;
    double spin = 30.0;                 // w3, rad/s
    double theta = 30.0 * M_PI / 180.0;  // tilt from the vertical
    double a_tip() const { return a_cm + m * l * l; }
    double steady_precession() const {
        const double a = a_tip() * std::cos(theta);
        return (c * spin - std::sqrt(c * c * spin * spin - 4 * a * m * g * l)) / (2 * a);
    }
    double gyroscopic_limit() const { return m * g * l / (c * spin); }
};

struct TopRun {
    double precession = 0;    // fitted slope of phi(t), rad/s
    double tilt_drift = 0;    // theta(T) - theta0 from a quadratic fit of theta(t), rad
    double nutation = 0;      // max |theta(t) - fit(t)|: the oscillation about the drifting tilt, rad
    double energy_loss = 0;   // (E0 - E(T)) / (m g l)
    double joint_error = 0;   // m
    double height_error = 0;  // max |z_cm - l cos(theta0)|, m
    double seconds = 0;
};

// `gssss`: stepped by that GSSSS member (docs/engine.md "Integrators").
TopRun run_top(const Top& top, double h, double t_end, const GssssSettings* gssss = nullptr) {
    WorldSettings settings = settings_for(h, {0, 0, -top.g});
    if (gssss != nullptr) {
        settings.integrator = Integrator::gssss;
        settings.gssss = *gssss;
    }
    World world(registry(), settings);
    const double omega = top.steady_precession();
    const V3 e3 = {std::sin(top.theta), 0, std::cos(top.theta)};
    const V3 w = omega * V3{0, 0, 1} + (top.spin - omega * std::cos(top.theta)) * e3;
    BodyDescription body;
    body.name = "top";
    body.mass = top.m;
    body.inertia = diagonal_inertia({top.a_cm, top.a_cm, top.c});
    body.orientation = axis_angle({0, 1, 0}, top.theta);  // body z -> e3
    body.position = top.l * e3;
    body.angular_velocity = w;
    body.linear_velocity = cross(w, top.l * e3);
    const BodyId b = world.add_body(body);
    JointDescription tip;
    tip.name = "tip";
    tip.type = "spherical";
    tip.body1 = "world";
    tip.body2 = "top";
    tip.anchor = {0, 0, 0};
    world.add_joint(tip);

    TopRun run;
    const double e0 = world.energy().total();
    std::vector<double> t, phi, theta;
    double previous = 0.0, turns = 0.0;
    Stopwatch clock;
    run_until(world, t_end, [&](World& wd) {
        const V3 axis = rotation(wd.orientation(b)) * V3{0, 0, 1};
        const double raw = std::atan2(axis[1], axis[0]);
        if (raw - previous < -M_PI) turns += 2 * M_PI;
        if (raw - previous > M_PI) turns -= 2 * M_PI;
        previous = raw;
        t.push_back(wd.time());
        phi.push_back(raw + turns);
        theta.push_back(std::acos(axis[2]));
        run.joint_error = std::max(run.joint_error, wd.statistics().max_joint_error);
        run.height_error = std::max(run.height_error, std::abs(wd.position(b)[2] - top.l * std::cos(top.theta)));
    });
    run.seconds = clock.seconds();
    run.energy_loss = (e0 - world.energy().total()) / (top.m * top.g * top.l);
    run.precession = fitted_slope(t, phi);
    // theta(t) = quadratic fit (the slow, accelerating fall) + nutation.
    const double t_mid = 0.5 * t_end;
    double m[3][4] = {};
    for (size_t i = 0; i < t.size(); ++i) {
        const double x[3] = {1.0, t[i] - t_mid, (t[i] - t_mid) * (t[i] - t_mid)};
        for (int r = 0; r < 3; ++r) {
            for (int c = 0; c < 3; ++c) m[r][c] += x[r] * x[c];
            m[r][3] += x[r] * theta[i];
        }
    }
    for (int p = 0; p < 3; ++p) {  // Gauss-Jordan on the 3x3 normal equations
        for (int r = 0; r < 3; ++r) {
            if (r == p) continue;
            const double f = m[r][p] / m[p][p];
            for (int c = 0; c < 4; ++c) m[r][c] -= f * m[p][c];
        }
    }
    const double coef[3] = {m[0][3] / m[0][0], m[1][3] / m[1][1], m[2][3] / m[2][2]};
    auto fit = [&](double x) { return coef[0] + coef[1] * (x - t_mid) + coef[2] * (x - t_mid) * (x - t_mid); };
    for (size_t i = 0; i < t.size(); ++i) run.nutation = std::max(run.nutation, std::abs(theta[i] - fit(t[i])));
    run.tilt_drift = fit(t_end) - top.theta;
    return run;
}

void print(const char* label, const TopRun& r, double exact) {
    std::printf("  %s: Omega %.6f (rel error %+.2e), tilt drift %+.3e rad, nutation %.2e rad, energy loss %.3e m g l, "
                "joint error %.2e m, %.2f s\n",
                label, r.precession, r.precession / exact - 1.0, r.tilt_drift, r.nutation, r.energy_loss,
                r.joint_error, r.seconds);
}

TEST(HeavyTop, SteadyPrecessionMatchesTheExactRelation) {
    const Top top;
    const double exact = top.steady_precession();
    const double limit = top.gyroscopic_limit();
    const double t_end = 3 * 2 * M_PI / exact;  // three precession periods, 11 s
    const TopRun run = run_top(top, 1e-3, t_end);
    const TopRun half = run_top(top, 5e-4, t_end);
    const TopRun fine = run_top(top, 1e-4, t_end);
    std::printf("top: w3 %.1f rad/s, theta %.1f deg, Omega exact %.6f rad/s, gyroscopic limit %.6f (%+.2f%%), "
                "%.1f s\n",
                top.spin, top.theta * 180 / M_PI, exact, limit, 100 * (limit / exact - 1), t_end);
    print("h=1ms  ", run, exact);
    print("h=0.5ms", half, exact);
    print("h=0.1ms", fine, exact);

    // Precession rate. A first-order method makes relative errors O(h f)
    // with f the frequency that sets the quantity: the precession rate
    // comes from the balance of gravity and gyroscopic torque, reproduced to
    // O(h Omega) = 2e-3, and it follows the tilt, which drifts (below): from
    // the exact relation dOmega/dtheta = -A Omega^2 sin(theta) / (C w3 - 2 A
    // Omega cos(theta)) = -0.055 rad/s per rad, so the mean drift (half the
    // final one, 0.14 rad at 1 ms) lowers the mean rate by 4.4e-3 relative:
    // nearly all of the measured -4.5e-3. Bound 1e-2 at h = 1 ms, first
    // order (ratio of the errors at h and h/2 in 2 +- 0.5), and 1e-3 at
    // h = 0.1 ms. The exact relation must be told apart from the gyroscopic
    // limit (5 % off): the measured rate is > 3 % away from it.
    EXPECT_NEAR(run.precession / exact, 1.0, 1e-2);
    EXPECT_NEAR((run.precession / exact - 1) / (half.precession / exact - 1), 2.0, 0.5);
    EXPECT_NEAR(fine.precession / exact, 1.0, 1e-3);
    EXPECT_GT(std::abs(run.precession / limit - 1.0), 3e-2);

    // Nutation about the (drifting) tilt: the discrete map's own steady
    // precession differs from the exact one by O(h), so a top started on
    // the exact one nutates about the discrete one with an O(h) amplitude
    // (at the nutation frequency C w3 / A = 30 rad/s). Measured 5.6e-4 rad
    // at 1 ms; asserted: < 2e-3 rad and first order (ratio 2 +- 0.5).
    EXPECT_LT(run.nutation, 2e-3);
    EXPECT_NEAR(run.nutation / half.nutation, 2.0, 0.5);
    // Tilt drift (the top slowly falls): the scheme is dissipative at first
    // order. Per step the tip drifts by h^2/2 |w| |w x r| (the body turns
    // about w while its centre moves on a straight line), the rigid row
    // removes that drift in the next step, and the work of that correction
    // and of the implicit gyroscopic update (see torque_free_body_test.cpp)
    // lowers the energy at a rate proportional to h. Asserted: the drift is
    // a fall (positive), first order (ratio 2 +- 0.4 between h and h/2),
    // and small at h = 0.1 ms (< 0.03 rad over three periods). At 1 ms it
    // is 0.28 rad (16 degrees in 11 s, the energy falling by 0.16 m g l):
    // a visible fall of a top that should not fall; part of it
    // (30 %) remains with the explicit gyroscopic torque (the constraint part).
    EXPECT_GT(run.tilt_drift, 0.0);
    EXPECT_NEAR(run.tilt_drift / half.tilt_drift, 2.0, 0.4);
    EXPECT_LT(fine.tilt_drift, 3e-2);
    // Joint error of the rigid spherical rows: the per-step drift above,
    // h^2/2 |w| |w x r| = h^2/2 x 30 rad/s x (Omega l sin theta) = 1.3e-6 m
    // at 1 ms; bound 3e-6 m.
    const double drift = 0.5 * 1e-6 * top.spin * exact * top.l * std::sin(top.theta);
    EXPECT_LT(run.joint_error, 3e-6) << "estimate " << drift;
}

// Issue 20's top, stepped by the GSSSS midpoint rule V0(1, 1, 0) at
// position level: m 1 kg, l 0.1 m, transverse inertia 0.005 and axial
// 0.004 kg m^2 about the centre of mass (A = 0.015 about the tip), 60
// degrees, w3 = 126 rad/s: Omega = 2.00633 rad/s from the relation above.
// Over 10 s at h = 1 ms the centre of mass must stay within 0.1 mm of l
// cos(theta) = 5 cm in height and the precession rate (slope of the
// unwrapped azimuth) within 0.1 % of Omega, and the energy within 1e-6 m g
// l of its start (the rule has no numerical dissipation; measured 6e-9).
TEST(HeavyTop, GssssMidpointKeepsTheSteadyPrecession) {
    Top top;
    top.a_cm = 0.005;
    top.c = 0.004;
    top.spin = 126.0;
    top.theta = M_PI / 3;
    GssssSettings midpoint;
    midpoint.parameters = gssss_midpoint();
    const TopRun run = run_top(top, 1e-3, 10.0, &midpoint);
    const double exact = top.steady_precession();
    print("GSSSS V0(1,1,0), h=1ms", run, exact);
    std::printf("  largest height error %.3e m\n", run.height_error);
    EXPECT_LE(run.height_error, 1e-4);
    EXPECT_NEAR(run.precession / exact, 1.0, 1e-3);
    EXPECT_LE(std::abs(run.energy_loss), 1e-6);
}

}  // namespace
}  // namespace pivot
