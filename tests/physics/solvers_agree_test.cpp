// The three first-party solvers give the same motion: a 5-link pendulum
// chain (revolute joints about y, straight, released from 60 degrees off
// the vertical), 1 s at h = 1 ms, stepped with lemke, dantzig and pgs;
// once with bilateral rows only, once with limits on the four inner joints
// (active in 84 % of the steps) and a saturating motor on the top hinge.
//
// Reference: the per-step problem has rigid rows and an open chain (no
// redundant row), so A = J M^-1 J^T is positive definite and the impulses
// are unique (an LCP / box-MLCP with a P-matrix has one solution): every
// solver that meets its tolerance computes the same step, to that
// tolerance. Lemke (a pivoting method, exact up to rounding on such a
// problem) is the reference. A solver not built yet is skipped, named.
//
// Tolerance: with every solver's tolerance set to 1e-10 (natural-map
// residual, N s; PGS with up to 20000 sweeps), one step's impulse error is
// ~1e-10 N s and the velocity error it makes is ~ 1e-10 / m_link
// = 5e-10 m/s (the rows' effective masses are of the order of a link's).
// A velocity error made at time t moves the positions at the end by at most
// S(end - t) times it, where S is the sensitivity of the motion (chaotic in
// the long run; measured 0.1 s of displacement per m/s over this 1 s);
// it is measured in the test by running lemke again with the chain turned
// as a whole at 1e-10 m/s at the tip (a perturbation of the free motion
// only, consistent with every joint). Worst case, all steps' errors at the
// tolerance, in the same direction, each amplified by S(1 s):
//     tolerance = (1 s / h) x 5e-10 m/s x S,
// printed with the numbers. Solvers that reach rounding (lemke, dantzig
// pivot to the exact solution) agree far better.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "physics_test_support.hpp"

namespace pivot {
namespace {

using namespace physics_test;

constexpr int kLinks = 5;
constexpr double kLength = 0.2, kMass = 0.2, kH = 1e-3, kEnd = 1.0;

struct ChainResult {
    std::vector<V3> positions;  // of every link after kEnd
    double residual_max = 0;
    uint32_t iterations = 0, failures = 0, fallbacks = 0;
    int at_limit_steps = 0;  // steps that ended with a joint at a limit
    double seconds = 0;
};

// `spin`: an initial rigid rotation rate of the whole chain about the top
// hinge (rad/s), consistent with every joint: a perturbation of the free
// motion only.
// `boxed`: also limits of +-0.1 rad on the joints between links (they fold
// onto them within the first second) and a torque-bounded motor on the top
// hinge (0.3 N m, below the load: it saturates), so that the problem has
// unilateral and bounded rows whose active set changes during the run.
ChainResult run_chain(const std::string& solver, bool boxed, double spin = 0.0) {
    World world(registry(), settings_for(kH, {0, 0, -9.81}, solver));
    const double angle = 60.0 * M_PI / 180.0;
    const V3 dir = {std::sin(angle), 0, -std::cos(angle)};
    for (int i = 0; i < kLinks; ++i) {
        BodyDescription link;
        link.name = "link" + std::to_string(i);
        link.mass = kMass;
        const V3 in = rod_inertia(kMass, kLength, 0.01);  // along body z
        link.inertia = diagonal_inertia(in);
        link.orientation = axis_angle({0, 1, 0}, M_PI - angle);  // body z along -dir
        link.position = ((i + 0.5) * kLength) * dir;
        link.angular_velocity = {0, spin, 0};
        link.linear_velocity = cross({0, spin, 0}, link.position);
        world.add_body(link);
        JointDescription joint;
        joint.name = "joint" + std::to_string(i);
        joint.type = "revolute";
        joint.body1 = i == 0 ? "world" : "link" + std::to_string(i - 1);
        joint.body2 = link.name;
        joint.anchor = (i * kLength) * dir;
        joint.axis = {0, 1, 0};
        if (boxed && i > 0) joint.limits = JointLimits{-0.1, 0.1};
        if (boxed && i == 0) joint.motor = JointMotor{-1.0, 0.3};
        world.add_joint(joint);
    }
    ChainResult result;
    Stopwatch clock;
    const auto limited = [&](World& w) {
        int n = 0;
        for (JointId j = 1; j < w.joint_count(); ++j) n += std::abs(w.joint_coordinate(j)[0]) > 0.1 - 1e-6;
        return n;
    };
    run_until(world, kEnd, [&](World& w) {
        const StepStatistics& s = w.statistics();
        result.residual_max = std::max(result.residual_max, s.solver_residual_max);
        result.iterations += s.solver_iterations;
        result.failures += s.solver_failures;
        result.fallbacks += s.fallbacks;
        if (boxed) result.at_limit_steps += limited(w) > 0;
    });
    result.seconds = clock.seconds();
    for (BodyId b = 0; b < world.body_count(); ++b) result.positions.push_back(world.position(b));
    return result;
}

double max_distance(const ChainResult& a, const ChainResult& b) {
    double d = 0;
    for (size_t i = 0; i < a.positions.size(); ++i) d = std::max(d, norm(a.positions[i] - b.positions[i]));
    return d;
}

// The tolerance (see the header), from lemke's sensitivity to a consistent
// velocity perturbation: the chain turned as a whole at 1e-10 m/s at the tip.
double agreement_tolerance(const ChainResult& reference, bool boxed) {
    const double tip_speed = 1e-10;
    const ChainResult perturbed = run_chain("pivot.solver.lemke", boxed, tip_speed / (kLinks * kLength));
    const double distance = max_distance(reference, perturbed);
    const double sensitivity = distance / tip_speed;  // m of position after kEnd per m/s at the start
    const double per_step = 1e-10 / kMass;            // m/s: one step's velocity error at the solver tolerance
    const double tolerance = (kEnd / kH) * per_step * sensitivity;
    std::printf("sensitivity: a consistent 1e-10 m/s perturbation moves the chain by %.2e m after %.0f s; "
                "tolerance %.0f steps x %.0e m/s x %.2f s = %.2e m\n",
                distance, kEnd, kEnd / kH, per_step, sensitivity, tolerance);
    return tolerance;
}

void compare_with_lemke(const std::string& solver, bool boxed) {
    PIVOT_REQUIRE_SOLVER("pivot.solver.lemke");
    PIVOT_REQUIRE_SOLVER(solver);
    const ChainResult reference = run_chain("pivot.solver.lemke", boxed);
    const ChainResult result = run_chain(solver, boxed);
    const double tolerance = agreement_tolerance(reference, boxed);
    const double d = max_distance(reference, result);
    std::printf("%s vs lemke after %.0f s%s: max link distance %.3e m (tolerance %.2e); residual max %.2e (lemke "
                "%.2e), iterations %u (lemke %u), failures %u, fallbacks %u; %.3f s (lemke %.3f s)\n",
                solver.c_str(), kEnd, boxed ? " (limits + motor)" : "", d, tolerance, result.residual_max,
                reference.residual_max, result.iterations, reference.iterations, result.failures, result.fallbacks,
                result.seconds, reference.seconds);
    if (boxed) std::printf("  steps ending with a joint at a limit: %d of %.0f\n", reference.at_limit_steps, kEnd / kH);
    EXPECT_EQ(reference.failures, 0u);
    EXPECT_EQ(result.failures, 0u);
    EXPECT_EQ(result.fallbacks, 0u);
    if (boxed) {
        EXPECT_GT(reference.at_limit_steps, 100);  // the limits were active
    }
    EXPECT_LT(d, tolerance);
}

TEST(SolversAgree, DantzigMatchesLemke) { compare_with_lemke("pivot.solver.dantzig", false); }
TEST(SolversAgree, PgsMatchesLemke) { compare_with_lemke("pivot.solver.pgs", false); }
TEST(SolversAgree, DantzigMatchesLemkeWithLimitsAndMotor) { compare_with_lemke("pivot.solver.dantzig", true); }
TEST(SolversAgree, PgsMatchesLemkeWithLimitsAndMotor) { compare_with_lemke("pivot.solver.pgs", true); }

}  // namespace
}  // namespace pivot
