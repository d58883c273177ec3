// The solver chain: a failing solver hands over to the next, a non-finite
// result is never used, incompatible pairings are refused with a reason, the
// solver can be swapped between two solves with the warm start kept, and a
// solver without friction-index support gets the host's friction iteration.
#include <cmath>
#include <filesystem>

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "lcp/lcp_file.hpp"
#include "lcp/lcp_solver_chain.hpp"
#include "plugin_host/lcp_residual.hpp"
#include "test_plugins.hpp"

namespace pivot {
namespace {

class SolverChain : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_TRUE(registry.load(test::good_plugin_dir()).ok());
        registry.load(test::broken_plugin_dir());  // the call-time broken solvers load; the rest is refused
        registry.load(PIVOT_FIRST_PARTY_PLUGIN_DIR);
    }
    PluginRegistry registry;
};

// A small SPD contact problem with friction: 2 contacts, rows [n, t1, t2].
LcpProblem contact_problem() {
    return read_lcp_file(std::filesystem::path(PIVOT_TEST_DATA_DIR) / "lcp-bench" / "lcp_nc010_fric.txt");
}

// A tiny well-conditioned boxed problem with friction index, which the plain
// test PGS solves to 1e-12 in a few dozen sweeps.
LcpProblem easy_problem() {
    LcpProblem p;
    p.n = 3;
    p.dense = {4, 1, 0, 1, 3, 0.5, 0, 0.5, 2};
    p.b = {-2, 1, -3};
    p.lo = {0, -0.5, -0.5};
    p.hi = {HUGE_VAL, 0.5, 0.5};
    p.findex = {-1, 0, 0};
    p.detect_symmetry();
    return p;
}

TEST_F(SolverChain, FallbackTakesOverWhenThePrimaryFails) {
    LcpSolverChain chain(registry, {"test.solver.error"}, {{"test.solver.pgs_dense", {{"tolerance", 1e-12}}}}, 1e-9);
    const LcpProblem p = easy_problem();
    std::vector<double> x;
    const ChainReport r = chain.solve(p, x, false);
    ASSERT_TRUE(r.solved) << (r.failures.empty() ? "" : r.failures[0]);
    EXPECT_EQ(r.solver_id, "test.solver.pgs_dense");
    EXPECT_EQ(r.fallbacks, 1u);
    ASSERT_EQ(r.failures.size(), 1u);
    EXPECT_NE(r.failures[0].find("pivot 3 is singular"), std::string::npos) << r.failures[0];
    EXPECT_LE(r.residual, 1e-9);
}

TEST_F(SolverChain, NonFiniteResultIsNeverUsed) {
    LcpSolverChain chain(registry, {"test.solver.nan"}, {}, 1e-9);
    LcpProblem p = easy_problem();
    p.lo = {0, 0, 0};
    p.hi = {HUGE_VAL, HUGE_VAL, HUGE_VAL};
    p.findex = {-1, -1, -1};
    std::vector<double> x = {1, 2, 3};
    const ChainReport r = chain.solve(p, x, true);
    EXPECT_FALSE(r.solved);
    EXPECT_FALSE(r.approximate);
    EXPECT_EQ(x, (std::vector<double>{1, 2, 3}));  // the caller's x is untouched
    ASSERT_EQ(r.failures.size(), 1u);
    EXPECT_NE(r.failures[0].find("not a finite number"), std::string::npos) << r.failures[0];
}

// A solver whose answers break the ABI (NaN) three solves in a row is
// disabled for the chain's world with one error: alone, the chain then has
// no usable solver and says so (the step stops); with a fallback, the
// fallback solves at once. A solver that declares its failures (status
// ERROR, "pivot is singular") is a working solver: never disabled.
TEST_F(SolverChain, ASolverThatKeepsBreakingTheContractIsDisabled) {
    LcpProblem p = easy_problem();
    p.lo = {0, 0, 0};
    p.hi = {HUGE_VAL, HUGE_VAL, HUGE_VAL};
    p.findex = {-1, -1, -1};
    LcpSolverChain alone(registry, {"test.solver.nan"}, {}, 1e-9);
    std::vector<double> x;
    for (uint32_t k = 1; k <= 3; ++k) {
        const ChainReport r = alone.solve(p, x, false);
        EXPECT_FALSE(r.solved);
        EXPECT_FALSE(r.unusable) << "solve " << k;
    }
    ChainReport r = alone.solve(p, x, false);
    EXPECT_TRUE(r.unusable);
    EXPECT_FALSE(r.solved);
    ASSERT_EQ(r.failures.size(), 1u);
    EXPECT_NE(r.failures[0].find("solver 'test.solver.nan' is disabled for this world: its last 3 answers broke the "
                                 "plugin ABI's contract (last: plugin 'test.solver.nan'"),
              std::string::npos)
        << r.failures[0];
    // Naming a solver again makes a fresh one.
    alone.set_primary({"test.solver.nan"});
    EXPECT_FALSE(alone.solve(p, x, false).unusable);

    LcpSolverChain with_fallback(registry, {"test.solver.nan"}, {{"test.solver.pgs_dense", {{"tolerance", 1e-12}}}},
                                 1e-9);
    for (uint32_t k = 1; k <= 4; ++k) {
        r = with_fallback.solve(p, x, false);
        EXPECT_TRUE(r.solved);
        EXPECT_EQ(r.fallbacks, k <= 3 ? 1u : 0u) << "solve " << k;
    }

    LcpSolverChain declared(registry, {"test.solver.error"}, {}, 1e-9);
    for (uint32_t k = 1; k <= 5; ++k) {
        r = declared.solve(easy_problem(), x, false);
        EXPECT_FALSE(r.unusable);
        ASSERT_EQ(r.failures.size(), 1u);
        EXPECT_NE(r.failures[0].find("pivot 3 is singular"), std::string::npos) << r.failures[0];
    }
}

// Acceptance is absolute (N s) or relative to rounding, whichever is
// larger: the contact problem with A and b scaled by 1e150 has the same
// solution, which Dantzig finds exactly to rounding (residual ~1e135, far
// above 1e-9 absolute); it used to be "never solved".
TEST_F(SolverChain, AScaledProblemSolvedToRoundingIsAccepted) {
    LcpProblem p = contact_problem();
    LcpSolverChain chain(registry, {"pivot.solver.dantzig"}, {}, 1e-9);
    std::vector<double> x;
    const ChainReport unscaled = chain.solve(p, x, false);
    ASSERT_TRUE(unscaled.solved);
    const std::vector<double> x_unscaled = x;
    for (double& a : p.dense) a *= 1e150;
    for (double& b : p.b) b *= 1e150;
    p.detect_symmetry();
    const ChainReport scaled = chain.solve(p, x, false);
    EXPECT_TRUE(scaled.solved) << (scaled.failures.empty() ? "" : scaled.failures[0]);
    EXPECT_GT(scaled.residual, 1e-9) << "the absolute threshold alone would refuse it";
    for (size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(x[i], x_unscaled[i], 1e-9 * (1.0 + std::abs(x_unscaled[i]))) << i;
}

TEST_F(SolverChain, ResidualAboveAcceptanceIsAFailure) {
    // Three sweeps of PGS cannot reach 1e-9 on the lcp-bench problem.
    LcpSolverChain chain(registry, {"test.solver.pgs_dense", {{"max_iterations", 3}}}, {}, 1e-9);
    std::vector<double> x;
    const ChainReport r = chain.solve(contact_problem(), x, false);
    EXPECT_FALSE(r.solved);
    ASSERT_EQ(r.failures.size(), 1u);
    EXPECT_NE(r.failures[0].find("stopped (max_iterations) at natural-map residual"), std::string::npos)
        << r.failures[0];
    // Its answer is finite and within bounds: kept as the best available,
    // flagged approximate, with its residual.
    EXPECT_TRUE(r.approximate);
    EXPECT_GT(r.residual, 1e-9);
    ASSERT_EQ(x.size(), 30u);
}

TEST_F(SolverChain, ASpentBudgetStartsNoFallback) {
    // 1 ns for the chain: PGS (which honours budgets) is still called, as
    // there is no usable answer yet, and stops with what it has; Dantzig
    // (which does not honour budgets) is not started. The answer is the
    // best so far, flagged approximate and budget-exhausted.
    LcpSolverChain chain(registry, {"pivot.solver.pgs", {{"tolerance", 1e-14}}}, {{"pivot.solver.dantzig"}}, 1e-9);
    std::vector<double> x;
    const ChainReport r = chain.solve(contact_problem(), x, false, 1e-9);
    EXPECT_FALSE(r.solved);
    EXPECT_TRUE(r.approximate);
    EXPECT_TRUE(r.budget_exhausted);
    EXPECT_EQ(r.solver_id, "pivot.solver.pgs");
    EXPECT_EQ(r.fallbacks, 0u);
    ASSERT_FALSE(r.failures.empty());
    EXPECT_NE(r.failures.back().find("time budget is spent"), std::string::npos) << r.failures.back();
    // Without a budget the same chain solves it.
    const ChainReport unbounded = chain.solve(contact_problem(), x, false);
    EXPECT_TRUE(unbounded.solved);
    EXPECT_FALSE(unbounded.budget_exhausted);
}

TEST_F(SolverChain, AFallbackIdenticalToAFailedSolverIsSkipped) {
    // PGS behind PGS with the same options would fail the same way (the
    // solvers are deterministic): tried once; with other options, tried.
    const SolverChoice three_sweeps{"test.solver.pgs_dense", {{"max_iterations", 3}}};
    LcpSolverChain chain(registry, three_sweeps, {three_sweeps}, 1e-9);
    std::vector<double> x;
    ChainReport r = chain.solve(contact_problem(), x, false);
    EXPECT_FALSE(r.solved);
    EXPECT_EQ(r.failures.size(), 1u);
    EXPECT_EQ(r.fallbacks, 0u);  // the skipped stage is no fallback
    chain.set_fallbacks({{"test.solver.pgs_dense", {{"max_iterations", 4}}}});
    x.clear();
    r = chain.solve(contact_problem(), x, false);
    EXPECT_EQ(r.failures.size(), 2u);
}

TEST_F(SolverChain, IncompatiblePairingIsRefusedWithAReason) {
    LcpProblem p = easy_problem();
    p.dense[1] = 2.0;  // no longer symmetric
    p.detect_symmetry();
    LcpSolverChain chain(registry, {"test.solver.pgs_dense"}, {}, 1e-9);
    std::vector<double> x;
    const ChainReport r = chain.solve(p, x, false);
    EXPECT_FALSE(r.solved);
    ASSERT_EQ(r.failures.size(), 1u);
    EXPECT_NE(r.failures[0].find("needs a symmetric matrix and this one is not symmetric"), std::string::npos)
        << r.failures[0];
}

TEST_F(SolverChain, UnknownSolverAndBadOptionsAreNamed) {
    try {
        LcpSolverChain chain(registry, {"no.such.solver"});
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("unknown solver plugin 'no.such.solver'"), std::string::npos);
    }
    try {
        LcpSolverChain chain(registry, {"test.solver.pgs_dense", {{"tolerance", -1}}});
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()),
                  "solver 'test.solver.pgs_dense' options.tolerance: -1 is outside the allowed range [0, inf)");
    }
}

TEST_F(SolverChain, SwappingTheSolverKeepsTheWarmStart) {
    const LcpProblem p = easy_problem();
    LcpSolverChain chain(registry, {"test.solver.pgs_dense", {{"tolerance", 1e-13}}}, {}, 1e-12);
    std::vector<double> x;
    ChainReport first = chain.solve(p, x, false);
    ASSERT_TRUE(first.solved);
    EXPECT_GT(first.iterations, 1u);
    // A different configuration takes over; started warm from the previous
    // solution it needs a single sweep to confirm it.
    chain.set_primary({"test.solver.pgs_dense", {{"tolerance", 1e-12}, {"max_iterations", 50}}});
    ChainReport second = chain.solve(p, x, true);
    ASSERT_TRUE(second.solved);
    EXPECT_LE(second.iterations, 1u);
    // A refused swap leaves the chain as it was.
    EXPECT_THROW(chain.set_primary({"test.joint.ball"}), Error);
    EXPECT_EQ(chain.primary_id(), "test.solver.pgs_dense");
}

}  // namespace
}  // namespace pivot

namespace pivot {
namespace {

// The first-party solvers on a contact problem with friction (lcp-bench,
// 50 contacts): swapped between solves, each next one starts from the
// previous solution and accepts it at once or after a short correction.
TEST_F(SolverChain, FirstPartySolversSwapWithTheWarmStartKept) {
    for (const char* id : {"pivot.solver.dantzig", "pivot.solver.pgs", "pivot.solver.lemke"}) {
        if (registry.find(id) == nullptr) GTEST_SKIP() << id << " is not built";
    }
    const LcpProblem p =
        read_lcp_file(std::filesystem::path(PIVOT_TEST_DATA_DIR) / "lcp-bench" / "lcp_nc050_fric.txt");
    // 1e-8 N s on impulses of order 1: well inside every solver's reach.
    LcpSolverChain chain(registry, {"dantzig", {{"tolerance", 1e-10}}}, {}, 1e-8);
    std::vector<double> x;
    ChainReport r = chain.solve(p, x, false);
    ASSERT_TRUE(r.solved) << r.failures.front();
    const std::vector<double> first = x;

    chain.set_primary({"pgs", {{"tolerance", 1e-9}}});
    r = chain.solve(p, x, true);
    ASSERT_TRUE(r.solved) << r.failures.front();
    EXPECT_EQ(r.solver_id, "pivot.solver.pgs");
    EXPECT_LE(r.iterations, 2u) << "PGS started from the solution should confirm it in a sweep or two";

    // Lemke solves the friction index itself (the polyhedral LCP), in one run.
    chain.set_primary({"lemke"});
    r = chain.solve(p, x, true);
    ASSERT_TRUE(r.solved) << r.failures.front();
    EXPECT_EQ(r.friction_rounds, 0u);
    EXPECT_LE(r.residual, 1e-8);
    // The friction problem's solution need not be unique, but on this one
    // (A = J M^-1 J^T + eps I, positive definite, no redundant contacts)
    // Lemke and Dantzig agree to 1e-6 (measured: to rounding).
    for (size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(x[i], first[i], 1e-6) << i;
}

// A solver without FRICTION_INDEX gets fixed bounds: the host iterates them
// (mu times the last normal impulses) until the natural-map residual of the
// friction problem is reached.
TEST_F(SolverChain, ASolverWithoutFrictionIndexGetsTheHostsFrictionIteration) {
    LcpSolverChain chain(registry, {"test.solver.pgs_dense_fixed_bounds", {{"tolerance", 1e-13}}}, {}, 1e-8);
    const LcpProblem p = easy_problem();
    std::vector<double> x;
    const ChainReport r = chain.solve(p, x, false);
    ASSERT_TRUE(r.solved) << r.failures.front();
    EXPECT_GE(r.friction_rounds, 1u);
    EXPECT_LE(r.residual, 1e-8);
    // The same problem solved with the friction index by the test PGS.
    LcpSolverChain direct(registry, {"test.solver.pgs_dense", {{"tolerance", 1e-13}}}, {}, 1e-8);
    std::vector<double> y;
    const ChainReport d = direct.solve(p, y, false);
    ASSERT_TRUE(d.solved) << d.failures.front();
    EXPECT_EQ(d.friction_rounds, 0u);
    for (size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(x[i], y[i], 1e-7) << i;
}

}  // namespace
}  // namespace pivot
