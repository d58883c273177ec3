// pivot.solver.direct against exact references: trees of joints from the
// factored form (the pattern kept across solves, new values, a changed
// structure), bounded rows by principal pivoting against Dantzig on the
// same problem, its warm start, dependent rows, and invalid input.
//
// References and tolerances: the unbounded problems are A x = -b with A
// symmetric positive definite of condition 1e1-1e3 (random unit-scale
// Jacobians, mass blocks R R^T + I): Eigen's dense LDL^T and the sparse
// factorization both solve them to a few ulps times the condition, so
// 1e-10 relative (x of order 1) bounds the difference with margin while a
// wrong entry of A (a missed or doubled term) moves x by order 1. The
// bounded problems have a unique solution (A positive definite), which
// Dantzig finds exactly: the two agree to their tolerance 1e-10.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "factored_test_problem.hpp"
#include "limits_and_motors_check.hpp"
#include "solver_test_support.hpp"

namespace pivot::test {
namespace {

const char* const kDirect = "pivot.solver.direct";

Eigen::VectorXd dense_solution(const FactoredTestProblem& t) {
    return t.dense_a.ldlt().solve(-Eigen::Map<const Eigen::VectorXd>(t.p.b.data(), t.p.n));
}

double difference(const std::vector<double>& x, const Eigen::VectorXd& y) {
    return (Eigen::Map<const Eigen::VectorXd>(x.data(), static_cast<Eigen::Index>(x.size())) - y).cwiseAbs().maxCoeff();
}

TEST(DirectDescriptor, ReadsTheFactoredFormAndCscButNoFrictionIndex) {
    const PluginRecord& record = first_party_registry().require(PIVOT_KIND_SOLVER, kDirect);
    for (uint64_t cap : {PIVOT_SOLVER_CAP_FACTORED, PIVOT_SOLVER_CAP_SPARSE, PIVOT_SOLVER_CAP_BOXED,
                         PIVOT_SOLVER_CAP_STANDARD_LCP, PIVOT_SOLVER_CAP_WARM_START, PIVOT_SOLVER_CAP_DETERMINISTIC}) {
        EXPECT_TRUE(record.has(cap)) << cap;
    }
    EXPECT_FALSE(record.has(PIVOT_SOLVER_CAP_DENSE));
    EXPECT_FALSE(record.has(PIVOT_SOLVER_CAP_FRICTION_INDEX));
    EXPECT_FALSE(record.has(PIVOT_SOLVER_CAP_NONSYMMETRIC));
}

TEST(DirectTree, SolvesATreeOfJointsFromTheFactoredForm) {
    FactoredTestProblem t({6, 6, 6, 6, 6}, tree_rows(3), std::vector<double>(15, 0.0), 5);
    t.p.b = random_values(15, 9);
    PluginInstance solver = make_solver(kDirect);
    const Solution s = solve(solver, t.p);
    ASSERT_TRUE(s.result.ok()) << s.result.message;
    EXPECT_EQ(s.report.status, PIVOT_SOLVE_CONVERGED);
    EXPECT_EQ(s.report.iterations, 1u) << "no bounds: one factorization";
    EXPECT_LE(difference(s.x, dense_solution(t)), 1e-10);
    EXPECT_LE(s.result.residual, 1e-12) << "the host's own residual, from the factored form";
    EXPECT_EQ(t.apply_calls, 0u) << "A is formed from the responses: no Mbar^-1 callback needed";
}

TEST(DirectTree, KeepsThePatternAndTakesNewValues) {
    PluginInstance solver = make_solver(kDirect);
    for (uint32_t seed : {5u, 6u, 7u}) {  // same structure, other masses and Jacobians
        FactoredTestProblem t({6, 6, 6, 6, 6}, tree_rows(seed), std::vector<double>(15, 1e-4), seed);
        t.p.b = random_values(15, seed + 100);
        const Solution s = solve(solver, t.p);
        ASSERT_TRUE(s.result.ok()) << s.result.message;
        EXPECT_LE(difference(s.x, dense_solution(t)), 1e-10) << "seed " << seed;
    }
    // Another structure with the same instance: a chain of 3 bodies.
    std::vector<std::vector<TestRowBlock>> chain = {
        {{0, 0, {1, 0, 0, 0, 0.5, 0}}},
        {{0, 0, {0, 1, 0, 0.2, 0, 0}}, {1, 0, {0, -1, 0, 0.1, 0, 0.3}}},
        {{1, 0, {0, 0, 1, 0, 0.4, 0.1}}, {2, 0, {0.2, 0, -1, 0, 0, 0.6}}},
    };
    FactoredTestProblem c({6, 6, 6}, chain, {0.0, 0.0, 0.0}, 1);
    c.p.b = {0.3, -0.7, 0.2};
    const Solution s = solve(solver, c.p);
    ASSERT_TRUE(s.result.ok()) << s.result.message;
    EXPECT_LE(difference(s.x, dense_solution(c)), 1e-10);
}

TEST(DirectBounds, PrincipalPivotingAgreesWithDantzig) {
    PluginInstance direct = make_solver(kDirect);
    for (uint32_t seed : {1u, 2u, 3u, 4u}) {
        const auto t = limits_and_motors_problem(seed, 0.0);
        const Solution s = expect_the_answer_of_dantzig(direct, *t, 1e-9, seed);
        ASSERT_TRUE(s.result.ok()) << s.result.message;
        // Warm started at its own answer: the active set is right at once.
        const Solution warm = solve(direct, t->p, &s.x);
        ASSERT_TRUE(warm.result.ok());
        EXPECT_EQ(warm.report.iterations, 1u) << "seed " << seed;
    }
}

TEST(DirectSingular, DependentRowsFailCleanlyForTheNextSolver) {
    // The same joint twice (a redundant constraint): A is singular.
    auto rows = tree_rows(3);
    rows.push_back(rows[4]);
    FactoredTestProblem t({6, 6, 6, 6, 6}, rows, std::vector<double>(16, 0.0), 5);
    t.p.b = random_values(16, 9);
    PluginInstance solver = make_solver(kDirect);
    const Solution s = solve(solver, t.p);
    EXPECT_FALSE(s.result.ok());
    EXPECT_EQ(s.report.status, PIVOT_SOLVE_NUMERICAL_ERROR);
    EXPECT_NE(std::string(s.report.message).find("zero pivot"), std::string::npos) << s.report.message;
}

TEST(DirectInput, FrictionIndicesAreRefusedAsUnsupported) {
    FactoredTestProblem t({6, 6, 6, 6, 6}, tree_rows(3), std::vector<double>(15, 0.0), 5);
    t.p.b = random_values(15, 9);
    t.p.lo[1] = -0.5, t.p.hi[1] = 0.5;
    t.p.lo[0] = 0.0;
    t.p.findex[1] = 0;
    PluginInstance solver = make_solver(kDirect);
    const Solution s = solve(solver, t.p);
    EXPECT_FALSE(s.result.ok());
    EXPECT_EQ(s.report.status, PIVOT_SOLVE_UNSUPPORTED);
}

}  // namespace
}  // namespace pivot::test
