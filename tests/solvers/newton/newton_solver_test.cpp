// pivot.solver.newton against exact references: trees of rigid joints
// (rows with no diagonal: the proximal rounds) against a dense solve,
// bounded rows against Dantzig, contact problems with friction indices
// judged by the natural-map residual of the exact problem, the warm start,
// the time budget and the input it refuses.
//
// References and tolerances: the joint problems are A x = -b with A
// symmetric positive definite of condition 1e1-1e3 (random unit-scale
// Jacobians, mass blocks R R^T + I, FactoredTestProblem). The solver stops
// at a natural-map residual of 1e-10 (its tolerance), so x is within
// cond(A) * 1e-10 <= 1e-7 of the dense solution; 1e-7 bounds that while a
// wrong entry of H (a missed or doubled term) moves x by order 1. The
// contact problems have no closed form: the residual, recomputed by the
// host from the factored form, is the definition of solved (1e-10, for
// impulses of order 1).
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "factored_test_problem.hpp"
#include "limits_and_motors_check.hpp"
#include "solver_test_support.hpp"

namespace pivot::test {
namespace {

const char* const kNewton = "pivot.solver.newton";

double difference(const std::vector<double>& x, const Eigen::VectorXd& y) {
    return (Eigen::Map<const Eigen::VectorXd>(x.data(), static_cast<Eigen::Index>(x.size())) - y).cwiseAbs().maxCoeff();
}

TEST(NewtonDescriptor, ReadsTheFactoredFormWithMassBlocks) {
    const PluginRecord& record = first_party_registry().require(PIVOT_KIND_SOLVER, kNewton);
    for (uint64_t cap : {PIVOT_SOLVER_CAP_FACTORED, PIVOT_SOLVER_CAP_MASS_BLOCKS, PIVOT_SOLVER_CAP_BOXED,
                         PIVOT_SOLVER_CAP_FRICTION_INDEX, PIVOT_SOLVER_CAP_STANDARD_LCP, PIVOT_SOLVER_CAP_WARM_START,
                         PIVOT_SOLVER_CAP_TIME_BUDGET, PIVOT_SOLVER_CAP_DETERMINISTIC}) {
        EXPECT_TRUE(record.has(cap)) << cap;
    }
    EXPECT_FALSE(record.has(PIVOT_SOLVER_CAP_DENSE));
    EXPECT_FALSE(record.has(PIVOT_SOLVER_CAP_SPARSE));
}

TEST(NewtonJoints, RigidRowsConvergeThroughProximalRounds) {
    PluginInstance solver = make_solver(kNewton);
    for (uint32_t seed : {3u, 4u, 5u}) {
        FactoredTestProblem t({6, 6, 6, 6, 6}, tree_rows(seed), std::vector<double>(15, 0.0), seed);
        t.p.b = random_values(15, seed + 9);
        const Solution s = solve(solver, t.p);
        ASSERT_TRUE(s.result.ok()) << s.result.message;
        EXPECT_EQ(s.report.status, PIVOT_SOLVE_CONVERGED);
        EXPECT_LE(s.result.residual, 1e-10);
        const Eigen::VectorXd reference = t.dense_a.ldlt().solve(-Eigen::Map<const Eigen::VectorXd>(t.p.b.data(), 15));
        EXPECT_LE(difference(s.x, reference), 1e-7) << "seed " << seed;
        // Proximal rounds reuse the factor: a few iterations, not one per digit.
        EXPECT_LE(s.report.iterations, 6u) << "seed " << seed;
    }
}

TEST(NewtonBounds, AgreesWithDantzigOnLimitsAndMotors) {
    PluginInstance newton = make_solver(kNewton);
    for (uint32_t seed : {1u, 2u, 3u, 4u}) {
        expect_the_answer_of_dantzig(newton, *limits_and_motors_problem(seed, 1e-6), 1e-7, seed);
    }
}

TEST(NewtonFriction, ContactsWithFrictionIndicesAreSolvedExactly) {
    PluginInstance solver = make_solver(kNewton);
    uint32_t at_bound = 0, free_friction = 0;
    for (uint32_t seed = 1; seed <= 8; ++seed) {
        ContactTestProblem c(seed);
        const Solution s = solve(solver, c.t.p);
        ASSERT_TRUE(s.result.ok()) << "seed " << seed << ": " << s.result.message;
        EXPECT_EQ(s.report.status, PIVOT_SOLVE_CONVERGED) << "seed " << seed << ": " << s.report.message;
        EXPECT_LE(s.result.residual, 1e-10) << "seed " << seed;
        for (uint32_t i = 0; i < c.t.p.n; ++i) {
            if (c.t.p.findex[i] < 0) continue;
            const double bound = 0.5 * s.x[static_cast<size_t>(c.t.p.findex[i])];
            if (bound > 1e-6) (std::abs(std::abs(s.x[i]) - bound) < 1e-9 ? at_bound : free_friction) += 1;
        }
        // Warm started at its own answer: already solved, no iteration.
        const Solution warm = solve(solver, c.t.p, &s.x);
        ASSERT_TRUE(warm.result.ok());
        EXPECT_EQ(warm.report.iterations, 0u) << "seed " << seed;
    }
    // The problems exercise both kinds of friction rows (sliding and sticking).
    EXPECT_GT(at_bound, 5u);
    EXPECT_GT(free_friction, 5u);
}

TEST(NewtonBudget, AnExhaustedBudgetGivesTheBestAnswerSoFar) {
    ContactTestProblem c(3);
    PluginInstance solver = make_solver(kNewton);
    const Solution s = solve(solver, c.t.p, nullptr, 1e-12);
    EXPECT_EQ(s.report.status, PIVOT_SOLVE_TIME_BUDGET);
    EXPECT_TRUE(s.result.ok()) << "a usable answer: finite, within its bounds: " << s.result.message;
    const Solution capped = solve(make_solver(kNewton, {{"max_iterations", 1}}), c.t.p);
    EXPECT_EQ(capped.report.status, PIVOT_SOLVE_MAX_ITERATIONS);
    EXPECT_EQ(capped.report.iterations, 1u);
}

TEST(NewtonInput, ProblemsWithoutMassBlocksOrWithACableBlockAreRefused) {
    FactoredTestProblem t({6, 6, 6, 6, 6}, tree_rows(3), std::vector<double>(15, 0.0), 5);
    t.p.b = random_values(15, 9);
    PluginInstance solver = make_solver(kNewton);
    LcpProblem no_mass = t.p;
    no_mass.mass.clear();
    no_mass.mass_offset.clear();
    Solution s = solve(solver, no_mass);
    EXPECT_FALSE(s.result.ok());
    EXPECT_EQ(s.report.status, PIVOT_SOLVE_UNSUPPORTED);
    LcpProblem cable = t.p;
    cable.mass_offset[2] = PIVOT_NO_MASS_BLOCK;
    s = solve(solver, cable);
    EXPECT_EQ(s.report.status, PIVOT_SOLVE_UNSUPPORTED);
    EXPECT_NE(std::string(s.report.message).find("block 2"), std::string::npos) << s.report.message;
    LcpProblem dense = t.p;  // a problem from a file: no factored form at all
    dense.make_dense();
    dense.factored = false;
    s = solve(solver, dense);
    EXPECT_EQ(s.report.status, PIVOT_SOLVE_UNSUPPORTED);
}

}  // namespace
}  // namespace pivot::test
