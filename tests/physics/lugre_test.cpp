// pivot.friction.lugre against converged integrations of the LuGre model's
// own equations (issue 16: the test of per-contact state):
//   - presliding: a block pushed with half its breakaway force creeps to
//     the presliding displacement and holds (x -> F / (sigma0 f_n) plus the
//     transient's slip);
//   - stick-slip: a block dragged through a soft spring at constant speed
//     (Canudas de Wit et al. 1995, section 5: m 1 kg, k 2 N/m, V 0.1 m/s,
//     F_c 1 N, F_s 1.5 N, v_s 0.001 m/s, sigma0 1e5 N/m, sigma1 sqrt(1e5)
//     N s/m, sigma2 0.4 N s/m; here per newton of normal force, f_n = m g)
//     sticks and slips in a limit cycle whose spring-force peak (the
//     breakaway force) and period match the reference.
// Reference: the ODE  x' = v,  m v' = F(t, x) - f_n (sigma0 z + sigma1 z'
// + sigma2 v),  z' = v - sigma0 |v| z / g(v), integrated by classical
// Runge-Kutta with a step 100 times below the simulation's (and checked
// converged against half of it).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "contact_scenes.hpp"

namespace pivot {
namespace {

using namespace physics_test;

constexpr double kG = 9.81;

struct Lugre {
    double mu_s, mu_k, v_s, sigma0, sigma1, sigma2;
    double g(double v) const { return mu_k + (mu_s - mu_k) * std::exp(-(v / v_s) * (v / v_s)); }
};

ContactModel lugre_model(const Lugre& l, const std::string& solver) {
    return {"pivot.friction.lugre",
            {{"mu_static", l.mu_s},
             {"mu_kinetic", l.mu_k},
             {"stribeck_velocity", l.v_s},
             {"bristle_stiffness", l.sigma0},
             {"bristle_damping", l.sigma1},
             {"viscous", l.sigma2}},
            solver};
}

// The ODE above for a block of mass m with normal force m g, driven by
// force(t, x); returns x(t) sampled at the given times.
struct Trajectory {
    std::vector<double> t, x, v;
};
Trajectory reference(const Lugre& l, double m, const std::function<double(double, double)>& force, double t_end,
                     double dt, double sample) {
    const double fn = m * kG;
    auto rhs = [&](double t, const double* s, double* d) {
        const double v = s[1], z = s[2];
        const double zdot = v - l.sigma0 * std::abs(v) * z / l.g(std::abs(v));
        d[0] = v;
        d[1] = (force(t, s[0]) - fn * (l.sigma0 * z + l.sigma1 * zdot + l.sigma2 * v)) / m;
        d[2] = zdot;
    };
    Trajectory out;
    double s[3] = {0, 0, 0};
    double t = 0.0;
    double next = 0.0;
    const auto steps = static_cast<long>(std::llround(t_end / dt));
    for (long k = 0; k <= steps; ++k) {
        if (t >= next - 1e-12) {
            out.t.push_back(t);
            out.x.push_back(s[0]);
            out.v.push_back(s[1]);
            next += sample;
        }
        double k1[3], k2[3], k3[3], k4[3], tmp[3];
        rhs(t, s, k1);
        for (int i = 0; i < 3; ++i) tmp[i] = s[i] + 0.5 * dt * k1[i];
        rhs(t + 0.5 * dt, tmp, k2);
        for (int i = 0; i < 3; ++i) tmp[i] = s[i] + 0.5 * dt * k2[i];
        rhs(t + 0.5 * dt, tmp, k3);
        for (int i = 0; i < 3; ++i) tmp[i] = s[i] + dt * k3[i];
        rhs(t + dt, tmp, k4);
        for (int i = 0; i < 3; ++i) s[i] += dt * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) / 6.0;
        t += dt;
    }
    return out;
}

// A block of mass m (0.2 m cube) on flat ground with the LuGre material,
// settled for 20 steps of h (its contacts' normal forces known: the law
// lags them by a step).
struct Block {
    std::unique_ptr<World> world;
    BodyId id = 0;
};
Block settled_block(const Lugre& l, double m, double h, const std::string& solver) {
    const ContactModel c = lugre_model(l, solver);
    Block b{std::make_unique<World>(registry(), contact_settings(c, h))};
    use_model(*b.world, c);
    add_ground(*b.world);
    b.id = b.world->add_body(box_body("block", m, {0.2, 0.2, 0.2}, {0, 0, 0.1}));
    for (int k = 0; k < 20; ++k) b.world->step();
    return b;
}

// The settled block driven by force(t, x) (t and x from the start of the
// drive) for t_end; x sampled every `sample`.
Trajectory simulate(const Lugre& l, double m, const std::function<double(double, double)>& force, double t_end,
                    double h, double sample, const std::string& solver) {
    Block block = settled_block(l, m, h, solver);
    World& world = *block.world;
    const BodyId id = block.id;
    const double x0 = world.position(id)[0];
    Trajectory out;
    double next = 0.0;
    const auto steps = static_cast<long>(std::llround(t_end / h));
    for (long k = 0; k <= steps; ++k) {
        const double t = static_cast<double>(k) * h;
        const double x = world.position(id)[0] - x0;
        if (t >= next - 1e-12) {
            out.t.push_back(t);
            out.x.push_back(x);
            out.v.push_back(world.linear_velocity(id)[0]);
            next += sample;
        }
        world.set_external_force(id, {force(t, x), 0, 0}, {0, 0, 0});
        world.step();
    }
    return out;
}

const char* const kSolvers[] = {"pivot.solver.dantzig", "pivot.solver.pgs", "pivot.solver.lemke"};

// A block set down at rest on a 28-degree incline (tan 0.532 < mu_s 0.6) at
// 60 Hz: its contacts are new, the law has no normal force yet, and its
// first step's Coulomb rows must hold it (without them it slid a step at
// g sin h = 0.077 m/s, far above v_s = 0.01 m/s, and never stuck: 4.3 m
// in 2 s). Then the bristles take over: it creeps to its presliding
// deflection and holds (measured 0.54 mm, its 60 Hz transient; the static
// deflection tan / sigma0 is 0.053 mm).
TEST(Lugre, BlockSetDownOnAnInclineHoldsAtSixtyHertz) {
    const double theta = 28.0 * M_PI / 180.0, h = 1.0 / 60.0;
    for (const char* solver : kSolvers) {
        PIVOT_REQUIRE_SOLVER(solver);
        const ContactModel c = lugre_model({0.6, 0.3, 0.01, 1e4, 30.0, 0.0}, solver);
        World world(registry(), contact_settings(c, h));
        use_model(world, c);
        const Vec3d n = {std::sin(theta), 0.0, std::cos(theta)};
        add_ground(world, n);
        BodyDescription b = box_body("block", 20.0, {0.2, 0.2, 0.2}, {0.1 * n[0], 0.1 * n[1], 0.1 * n[2]});
        b.orientation = {std::cos(0.5 * theta), 0.0, std::sin(0.5 * theta), 0.0};
        const BodyId id = world.add_body(b);
        const auto start = world.position(id);
        for (int k = 0; k < 120; ++k) world.step();
        const auto end = world.position(id);
        const double moved = std::hypot(end[0] - start[0], end[1] - start[1], end[2] - start[2]);
        const auto v = world.linear_velocity(id);
        std::printf("%s: moved %.3e m in 2 s, speed %.1e m/s\n", solver, moved, std::hypot(v[0], v[1], v[2]));
        EXPECT_LT(moved, 1e-3) << solver;
        EXPECT_LT(std::hypot(v[0], v[1], v[2]), 1e-6) << solver;
    }
}

TEST(Lugre, PreslidingDisplacementUnderHalfTheBreakawayForce) {
    const Lugre l{0.6, 0.4, 0.01, 1e4, 30.0, 0.0};
    const double m = 1.0, push = 0.5 * l.mu_s * m * kG;
    const auto force = [&](double, double) { return push; };
    const Trajectory ref = reference(l, m, force, 1.0, 1e-6, 0.1);
    const Trajectory fine = reference(l, m, force, 1.0, 2e-6, 0.1);
    const double z_static = push / (l.sigma0 * m * kG);
    std::printf("reference: x(1 s) = %.9e m (converged to %.1e), of which F / (sigma0 f_n) = %.9e m\n",
                ref.x.back(), std::abs(ref.x.back() - fine.x.back()), z_static);
    for (const char* solver : kSolvers) {
        PIVOT_REQUIRE_SOLVER(solver);
        double error[3] = {};
        const double steps[3] = {1e-3, 5e-4, 1.0 / 60.0};
        for (int i = 0; i < 3; ++i) {
            const Trajectory sim = simulate(l, m, force, 1.0, steps[i], 0.1, solver);
            error[i] = sim.x.back() - ref.x.back();
            std::printf("%s, h = %.4f s: x(1 s) = %.9e m, error %+.2e (%.2f %%), v = %.1e m/s\n", solver, steps[i],
                        sim.x.back(), error[i], 100 * error[i] / ref.x.back(), sim.v.back());
            EXPECT_LT(std::abs(sim.v.back()), 1e-9) << solver << " h " << steps[i];  // it holds
        }
        // The presliding transient (the block slips 2.5e-5 m before the
        // bristles hold it, more than their 3e-5 m of deflection) converges
        // at first order: 1.8 % at 1 ms, half that at 0.5 ms; 8.6 % at 60 Hz
        // (measured; bounds with a margin).
        EXPECT_NEAR(error[1] / error[0], 0.5, 0.1) << solver;
        EXPECT_LT(std::abs(error[0]), 0.03 * ref.x.back()) << solver;
        EXPECT_LT(std::abs(error[2]), 0.15 * ref.x.back()) << solver;
    }
}

// Held, the contact's friction balances the push exactly: sum over the
// contacts of f_n sigma0 z = F, whatever the transient was (the bristle
// state of each contact carried from step to step).
TEST(Lugre, HeldContactsBalanceThePushExactly) {
    const Lugre l{0.6, 0.4, 0.01, 1e4, 30.0, 0.0};
    const double m = 1.0, push = 0.5 * l.mu_s * m * kG;
    for (const char* solver : kSolvers) {
        PIVOT_REQUIRE_SOLVER(solver);
        for (const double h : {1e-3, 1.0 / 60.0}) {
            Block block = settled_block(l, m, h, solver);
            World& world = *block.world;
            world.set_external_force(block.id, {push, 0, 0}, {0, 0, 0});
            for (int k = 0; k < static_cast<int>(2.0 / h); ++k) world.step();
            double friction = 0.0;
            for (const ContactReport& r : world.contacts()) friction += r.friction[0];
            std::printf("%s, h = %.4f s: friction %.12f N against the push %.12f N\n", solver, h, friction, push);
            EXPECT_NEAR(friction, -push, 1e-9 * push) << solver << " h " << h;
        }
    }
}

// The limit cycle's features from a sampled spring-force history: the
// peaks (breakaway forces) after the first `skip` seconds and their mean
// spacing (the period).
struct Cycle {
    double peak = 0.0, period = 0.0;
    int peaks = 0;
};
Cycle limit_cycle(const Trajectory& tr, const std::function<double(double, double)>& spring, double skip) {
    Cycle c;
    std::vector<double> times;
    double peak_sum = 0.0;
    for (size_t i = 1; i + 1 < tr.t.size(); ++i) {
        if (tr.t[i] < skip) continue;
        const double f0 = spring(tr.t[i - 1], tr.x[i - 1]), f1 = spring(tr.t[i], tr.x[i]),
                     f2 = spring(tr.t[i + 1], tr.x[i + 1]);
        if (f1 > f0 && f1 >= f2) {
            times.push_back(tr.t[i]);
            peak_sum += f1;
        }
    }
    c.peaks = static_cast<int>(times.size());
    if (c.peaks >= 2) {
        c.peak = peak_sum / c.peaks;
        c.period = (times.back() - times.front()) / (c.peaks - 1);
    }
    return c;
}

TEST(Lugre, StickSlipLimitCycleMatchesTheReference) {
    const double fn = kG;  // m = 1 kg
    const Lugre l{1.5 / fn, 1.0 / fn, 0.001, 1e5 / fn, std::sqrt(1e5) / fn, 0.4 / fn};
    const double m = 1.0, k = 2.0, drag = 0.1;
    const auto spring = [&](double t, double x) { return k * (drag * t - x); };
    const double t_end = 25.0, sample = 1e-3;
    const Cycle ref = limit_cycle(reference(l, m, spring, t_end, 1e-5, sample), spring, 6.0);
    const Cycle fine = limit_cycle(reference(l, m, spring, t_end, 5e-6, sample), spring, 6.0);
    std::printf("reference: %d peaks, breakaway %.6f N, period %.6f s (dt halved: %.6f N, %.6f s)\n", ref.peaks,
                ref.peak, ref.period, fine.peak, fine.period);
    ASSERT_GE(ref.peaks, 3);
    // Measured (2026-11-27): breakaway +1.12 % / +0.60 %, period +2.22 % /
    // +1.17 % at 1 / 0.5 ms: first order. At 60 Hz the limit cycle stays
    // (breakaway +10.5 %, period +22 %; 30 Hz: +17 %, +37 %): the bristles'
    // implicit step is stable at any h, and its error is the step's first
    // order on a law whose Stribeck velocity (1 mm/s) is far below h a.
    double peak_error[2] = {}, period_error[2] = {};
    const double steps[3] = {1e-3, 5e-4, 1.0 / 60.0};
    for (int i = 0; i < 3; ++i) {
        const double h = steps[i];
        const Cycle sim = limit_cycle(simulate(l, m, spring, t_end, h, sample, "pivot.solver.dantzig"), spring, 6.0);
        const double peak = sim.peak / ref.peak - 1.0, period = sim.period / ref.period - 1.0;
        std::printf("h = %.4f s: %d peaks, breakaway %.6f N (%+.2f %%), period %.6f s (%+.2f %%)\n", h, sim.peaks,
                    sim.peak, 100 * peak, sim.period, 100 * period);
        ASSERT_GE(sim.peaks, 2) << "h " << h << ": no stick-slip";
        if (i < 2) {
            peak_error[i] = peak;
            period_error[i] = period;
        } else {
            EXPECT_LT(std::abs(peak), 0.15) << "60 Hz";
            EXPECT_LT(std::abs(period), 0.30) << "60 Hz";
        }
    }
    EXPECT_LT(std::abs(peak_error[0]), 0.02);
    EXPECT_LT(std::abs(period_error[0]), 0.03);
    EXPECT_NEAR(peak_error[1] / peak_error[0], 0.5, 0.15);
    EXPECT_NEAR(period_error[1] / period_error[0], 0.5, 0.15);
}

}  // namespace
}  // namespace pivot
