// The factored form of the step problem on the host's side (plugin ABI 1.4,
// plugin_solver.h): A built from it (dense and CSC, for solvers and
// fallbacks that read A), the residual's product A x from it, and the
// solver chain's handling of solvers that read only it.
//
// Reference: A = J M^-1 J^T + diag(d) formed densely with Eigen from the
// same random mass blocks and Jacobians (tests/support/factored_test_problem.hpp).
// Both sum a handful of products of numbers of order 1 in different orders,
// so they agree to a few ulps of the entries' scale: 1e-13 relative to
// max |A| is a bound with margin, and a wrong pairing of Jacobian and
// response (or a missed block) is off by order 1.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "factored_test_problem.hpp"
#include "lcp/lcp_problem.hpp"
#include "lcp/lcp_solver_chain.hpp"
#include "plugin_host/lcp_residual.hpp"
#include "plugin_host/plugin_record.hpp"

namespace pivot::test {
namespace {

// Two rows sharing both blocks (a joint between two bodies), a row on one
// block only (to the world), a row acting on part of a larger block (a
// cable's 12 of 18 velocities), and a row on no block (an auxiliary row).
std::vector<std::vector<TestRowBlock>> mixed_rows() {
    return {
        {{0, 0, {1.0, -0.5, 0.25, 0.0, 0.3, -0.2}}, {1, 0, {0.7, 0.1, -0.4, 0.2, 0.0, 0.9}}},
        {{0, 0, {-0.3, 0.8, 0.0, 0.5, -0.1, 0.4}}, {1, 0, {0.2, -0.6, 0.3, -0.7, 0.5, 0.1}}},
        {{1, 0, {0.4, 0.4, -0.8, 0.1, 0.2, -0.3}}},
        {{2, 6, {0.5, -0.2, 0.1, 0.9, -0.4, 0.3, 0.2, 0.1, -0.6, 0.0, 0.7, -0.5}}, {0, 0, {0.1, 0.2, 0.3, 0.4, 0.5, 0.6}}},
        {},
    };
}

double max_abs(const Eigen::MatrixXd& a) { return a.cwiseAbs().maxCoeff(); }

TEST(FactoredForm, DenseMatrixFromItIsJMinvJtPlusDiagonal) {
    FactoredTestProblem t({6, 6, 18}, mixed_rows(), {0.0, 1e-3, 0.0, 0.5, 2.0}, 7);
    LcpProblem& p = t.p;
    ASSERT_TRUE(p.dense.empty());
    ASSERT_FALSE(p.has_sparse());
    p.make_dense();
    const Eigen::Map<const Eigen::MatrixXd> a(p.dense.data(), p.n, p.n);
    EXPECT_LE(max_abs(a - t.dense_a), 1e-13 * max_abs(t.dense_a)) << a << "\n\n" << t.dense_a;
    EXPECT_EQ(a(4, 4), 2.0);  // the auxiliary row: its diagonal only
}

TEST(FactoredForm, SparseMatrixFromItHasTheCouplingPattern) {
    FactoredTestProblem t({6, 6, 18}, mixed_rows(), {0.0, 1e-3, 0.0, 0.5, 2.0}, 7);
    LcpProblem& p = t.p;
    p.make_sparse();
    Eigen::MatrixXd a = Eigen::MatrixXd::Zero(p.n, p.n);
    for (uint32_t j = 0; j < p.n; ++j) {
        for (int32_t k = p.col_start[j]; k < p.col_start[j + 1]; ++k) {
            if (k > p.col_start[j]) {
                EXPECT_LT(p.row_index[k - 1], p.row_index[k]) << "rows ascend, no duplicates";
            }
            a(p.row_index[k], j) = p.values[k];
        }
    }
    EXPECT_LE(max_abs(a - t.dense_a), 1e-13 * max_abs(t.dense_a));
    // Row 4 acts on nothing: column 4 holds its diagonal alone.
    EXPECT_EQ(p.col_start[5] - p.col_start[4], 1);
}

TEST(FactoredForm, ResidualProductUsesItWithoutAMatrix) {
    FactoredTestProblem t({6, 6, 18}, mixed_rows(), {0.0, 1e-3, 0.0, 0.5, 2.0}, 11);
    LcpProblem& p = t.p;
    p.b = {0.1, -0.2, 0.3, -0.4, 0.5};
    const std::vector<double> x = {1.0, -2.0, 0.5, 0.25, -1.5};
    std::vector<double> w(p.n);
    lcp_multiply(p.view(), x.data(), w.data());
    const Eigen::VectorXd expected =
        t.dense_a * Eigen::Map<const Eigen::VectorXd>(x.data(), 5) + Eigen::Map<const Eigen::VectorXd>(p.b.data(), 5);
    for (uint32_t i = 0; i < p.n; ++i) EXPECT_NEAR(w[i], expected[i], 1e-13 * expected.cwiseAbs().maxCoeff()) << i;
}

TEST(FactoredForm, ViewCarriesItAndItsSizes) {
    FactoredTestProblem t({6, 6, 18}, mixed_rows(), {0.0, 1e-3, 0.0, 0.5, 2.0}, 7);
    const pivot_lcp_problem view = t.p.view();
    ASSERT_NE(view.factored, nullptr);
    EXPECT_EQ(view.factored->struct_size, sizeof(pivot_factored_problem));
    EXPECT_EQ(view.factored->block_count, 3u);
    EXPECT_EQ(view.factored->block_start[3], 30u);
    EXPECT_EQ(view.factored->row_block_start[5], 7u);
    EXPECT_EQ(view.dense, nullptr);
    EXPECT_EQ(view.col_start, nullptr);
    // Without the factored form, a view has none (a problem from a file).
    LcpProblem plain = LcpProblem::standard(1, {2.0}, {-1.0});
    EXPECT_EQ(plain.view().factored, nullptr);
}

TEST(FactoredForm, AProblemWithoutItIsRefusedToASolverThatReadsOnlyIt) {
    // The chain refuses the pairing with the reason; no solver is called.
    PluginRecord record;
    record.id = "test.solver.factored_only";
    record.kind = PIVOT_KIND_SOLVER;
    record.capabilities = PIVOT_SOLVER_CAP_BOXED | PIVOT_SOLVER_CAP_FACTORED;
    const LcpProblem plain = LcpProblem::standard(2, {2.0, 0.0, 0.0, 2.0}, {-1.0, -1.0});
    EXPECT_NE(LcpSolverChain::incompatibility(record, plain).find("factored form"), std::string::npos);
    FactoredTestProblem t({6, 6, 18}, mixed_rows(), {0.0, 1e-3, 0.0, 0.5, 2.0}, 7);
    EXPECT_EQ(LcpSolverChain::incompatibility(record, t.p), "");
}

}  // namespace
}  // namespace pivot::test
