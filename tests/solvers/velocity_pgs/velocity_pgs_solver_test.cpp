// pivot.solver.velocity_pgs against references: sweep for sweep the same
// iterates as pivot.solver.pgs on the assembled A (the claim of the
// method: Gauss-Seidel on A with A never formed); converged answers on
// trees of joints (against a dense solve), on limits and motors (against
// Dantzig) and on contacts with friction indices (the host's residual);
// cone-like block projections; warm start, budget and refused input.
//
// Tolerances: the iterates of the two forms differ only by rounding
// (w_i = b_i + d_i x_i + J_i u against w updated column by column), about
// 1e-15 relative per operation and amplified by at most the sweeps'
// contraction over 30 sweeps: 1e-10 on unit-scale impulses is far above
// that and far below any real difference (a wrong response or a missed
// diagonal changes x in the first digit). Converged answers stop at a
// natural-map residual of 1e-10 (the tolerance set here), so x is within
// cond(A) * 1e-10 <= 1e-7 of the dense solution (condition 1e1-1e3,
// FactoredTestProblem).
#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "factored_test_problem.hpp"
#include "limits_and_motors_check.hpp"
#include "solver_test_support.hpp"

namespace pivot::test {
namespace {

const char* const kVelocityPgs = "pivot.solver.velocity_pgs";

nlohmann::json converging() { return {{"tolerance", 1e-10}, {"max_iterations", 1000000}}; }

TEST(VelocityPgsDescriptor, ReadsTheFactoredFormOnly) {
    const PluginRecord& record = first_party_registry().require(PIVOT_KIND_SOLVER, kVelocityPgs);
    for (uint64_t cap : {PIVOT_SOLVER_CAP_FACTORED, PIVOT_SOLVER_CAP_BOXED, PIVOT_SOLVER_CAP_FRICTION_INDEX,
                         PIVOT_SOLVER_CAP_STANDARD_LCP, PIVOT_SOLVER_CAP_WARM_START, PIVOT_SOLVER_CAP_TIME_BUDGET,
                         PIVOT_SOLVER_CAP_BLOCK_PROJECTION, PIVOT_SOLVER_CAP_DETERMINISTIC}) {
        EXPECT_TRUE(record.has(cap)) << cap;
    }
    EXPECT_FALSE(record.has(PIVOT_SOLVER_CAP_DENSE));
    EXPECT_FALSE(record.has(PIVOT_SOLVER_CAP_SPARSE));
    EXPECT_FALSE(record.has(PIVOT_SOLVER_CAP_MASS_BLOCKS));
}

// `sweeps` sweeps of velocity PGS on the factored problem against as many
// of pivot.solver.pgs (no subspace minimization) on its assembled A.
void expect_the_iterates_of_pgs(const LcpProblem& factored, uint32_t sweeps, const std::string& what) {
    LcpProblem assembled = factored;
    assembled.make_sparse();
    assembled.factored = false;
    // interleave 1: the problem's order (the default sweeps contacts on
    // disjoint bodies together: InterleavedContactsAreGaussSeidelInTheOrderOfTheirUnits).
    const Solution v = solve(
        make_solver(kVelocityPgs, {{"max_iterations", sweeps}, {"tolerance", 0.0}, {"interleave", 1}}), factored);
    const Solution a = solve(make_solver("pivot.solver.pgs", {{"max_iterations", sweeps},
                                                              {"tolerance", 0.0},
                                                              {"subspace_minimization", false}}),
                             assembled);
    ASSERT_TRUE(v.result.ok()) << what << ": " << v.result.message;
    ASSERT_TRUE(a.result.ok()) << what << ": " << a.result.message;
    EXPECT_EQ(v.report.iterations, sweeps) << what;
    double largest = 0.0;
    for (uint32_t i = 0; i < factored.n; ++i) {
        EXPECT_NEAR(v.x[i], a.x[i], 1e-10) << what << ", " << sweeps << " sweeps, row " << i;
        largest = std::max(largest, std::abs(a.x[i]));
    }
    EXPECT_GT(largest, 0.1) << what << ": the problem loads its rows";
}

TEST(VelocityPgsIterates, SweepForSweepThoseOfGaussSeidelOnTheAssembledMatrix) {
    for (uint32_t seed : {1u, 2u, 3u}) {
        ContactTestProblem c(seed);
        for (uint32_t sweeps : {1u, 7u, 30u}) expect_the_iterates_of_pgs(c.t.p, sweeps, "seed " + std::to_string(seed));
    }
}

// Rows on a block of 12 velocities (a cable's: its Jacobians act on 6 of
// them from `first`), so the solver's general layout, not the packed one of
// rigid bodies, is exercised: 6 rows between a body and the cable, 3 on the
// cable alone, 3 on the body alone; bounds and friction indices as contacts.
TEST(VelocityPgsIterates, TheGeneralLayoutMatchesGaussSeidelOnTheAssembledMatrix) {
    for (uint32_t seed : {4u, 5u}) {
        std::mt19937 random(seed);
        std::uniform_real_distribution<double> uniform(-1.0, 1.0);
        const auto side = [&](uint32_t block, uint32_t first) {
            TestRowBlock rb{block, first, std::vector<double>(6)};
            for (double& v : rb.jacobian) v = uniform(random);
            return rb;
        };
        std::vector<std::vector<TestRowBlock>> rows;
        for (uint32_t k = 0; k < 12; ++k) {
            if (k < 6) rows.push_back({side(0, 0), side(1, 3 * (k % 3))});
            else if (k < 9) rows.push_back({side(1, 6)});
            else rows.push_back({side(0, 0)});
        }
        FactoredTestProblem t({6, 12}, rows, std::vector<double>(12, 1e-3), seed);
        t.p.b = random_values(12, seed + 3);
        for (uint32_t c = 0; c < 4; ++c) {  // contacts: a normal row and two friction rows each
            t.p.lo[3 * c] = 0.0;
            for (uint32_t k = 1; k <= 2; ++k) {
                t.p.lo[3 * c + k] = -0.5;
                t.p.hi[3 * c + k] = 0.5;
                t.p.findex[3 * c + k] = static_cast<int32_t>(3 * c);
            }
        }
        expect_the_iterates_of_pgs(t.p, 25, "a cable-like block, seed " + std::to_string(seed));
    }
}

// A chain of six contacts, c between bodies c and c + 1 (blocks of 6), in
// the order `order`: a normal row (x >= 0, pressed: b < 0) and two
// friction rows (|x| <= 0.5 x_normal) each, every value drawn from the
// contact's own seed, so that the same contact has the same rows in any
// order. 18 rows.
std::unique_ptr<FactoredTestProblem> contact_chain(const std::vector<uint32_t>& order) {
    std::vector<std::vector<TestRowBlock>> rows;
    for (uint32_t c : order) {
        std::mt19937 random(1000 + c);
        std::uniform_real_distribution<double> uniform(-1.0, 1.0);
        for (uint32_t k = 0; k < 3; ++k) {
            std::vector<TestRowBlock> row;
            for (uint32_t body : {c, c + 1}) {
                row.push_back({body, 0, std::vector<double>(6)});
                for (double& v : row.back().jacobian) v = uniform(random);
            }
            rows.push_back(row);
        }
    }
    auto t = std::make_unique<FactoredTestProblem>(std::vector<uint32_t>(7, 6), rows, std::vector<double>(18, 1e-5), 7);
    for (uint32_t k = 0; k < order.size(); ++k) {
        std::mt19937 random(2000 + order[k]);
        std::uniform_real_distribution<double> uniform(0.2, 1.0);
        const uint32_t normal = 3 * k;
        t->p.lo[normal] = 0.0;
        t->p.b[normal] = -uniform(random);
        for (uint32_t f = 1; f <= 2; ++f) {
            t->p.lo[normal + f] = -0.5;
            t->p.hi[normal + f] = 0.5;
            t->p.findex[normal + f] = static_cast<int32_t>(normal);
            t->p.b[normal + f] = uniform(random) - 0.6;
        }
    }
    return t;
}

// The documented order (velocity_gauss_seidel.hpp): each contact not yet
// swept takes the next contacts that share no body with it or each other,
// up to `interleave`. On the chain c0 .. c5 with 3: {c0, c2, c4}, then
// {c1, c3, c5}, a red-black order; with 2: {c0, c2}, {c1, c3}, {c4} (c5
// shares body 5), {c5}. The sweeps must be those of plain Gauss-Seidel
// (interleave 1) on the contacts in that order, bit for bit: the lanes of
// a unit touch disjoint velocities, so running them in lockstep changes no
// operation. And the first sweep must differ from the chain's own order
// (c2 meets body 2 before c1 does), or the test would not see the order.
TEST(VelocityPgsIterates, InterleavedContactsAreGaussSeidelInTheOrderOfTheirUnits) {
    const auto chain = contact_chain({0, 1, 2, 3, 4, 5});
    const std::pair<uint32_t, std::vector<uint32_t>> cases[] = {{3, {0, 2, 4, 1, 3, 5}}, {2, {0, 2, 1, 3, 4, 5}}};
    for (const auto& [interleave, order] : cases) {
        const auto reordered = contact_chain(order);
        for (uint32_t sweeps : {1u, 7u, 30u}) {
            const std::string what =
                "interleave " + std::to_string(interleave) + ", " + std::to_string(sweeps) + " sweeps";
            const auto run = [&](uint32_t lanes, const LcpProblem& problem) {
                const Solution s = solve(make_solver(kVelocityPgs, {{"max_iterations", sweeps},
                                                                    {"tolerance", 0.0},
                                                                    {"interleave", lanes}}),
                                         problem);
                EXPECT_TRUE(s.result.ok()) << what << ": " << s.result.message;
                EXPECT_EQ(s.report.iterations, sweeps) << what;
                return s.x;
            };
            const std::vector<double> interleaved = run(interleave, chain->p);
            const std::vector<double> plain = run(1, reordered->p);
            const std::vector<double> chain_order = run(1, chain->p);
            ASSERT_EQ(interleaved.size(), 18u);
            double differs = 0.0;
            for (uint32_t k = 0; k < 6; ++k) {
                for (uint32_t r = 0; r < 3; ++r) {
                    const uint32_t row = 3 * order[k] + r;  // the contact's row in the chain's order
                    EXPECT_EQ(interleaved[row], plain[3 * k + r]) << what << ", contact " << order[k] << " row " << r;
                    differs = std::max(differs, std::abs(interleaved[row] - chain_order[row]));
                }
            }
            // (After one sweep; later sweeps converge to the same answer in both orders.)
            if (sweeps == 1) {
                EXPECT_GT(differs, 1e-3) << what << ": the order must matter on this problem";
            }
        }
    }
}

TEST(VelocityPgsJoints, RigidRowsConvergeToTheDenseSolution) {
    PluginInstance solver = make_solver(kVelocityPgs, converging());
    for (uint32_t seed : {3u, 4u, 5u}) {
        FactoredTestProblem t({6, 6, 6, 6, 6}, tree_rows(seed), std::vector<double>(15, 0.0), seed);
        t.p.b = random_values(15, seed + 9);
        const Solution s = solve(solver, t.p);
        ASSERT_TRUE(s.result.ok()) << s.result.message;
        EXPECT_EQ(s.report.status, PIVOT_SOLVE_CONVERGED);
        EXPECT_LE(s.result.residual, 1e-10);
        const Eigen::VectorXd reference = t.dense_a.ldlt().solve(-Eigen::Map<const Eigen::VectorXd>(t.p.b.data(), 15));
        for (uint32_t i = 0; i < 15; ++i) EXPECT_NEAR(s.x[i], reference[i], 1e-7) << "seed " << seed << " row " << i;
    }
}

TEST(VelocityPgsBounds, AgreesWithDantzigOnLimitsAndMotors) {
    PluginInstance solver = make_solver(kVelocityPgs, converging());
    for (uint32_t seed : {1u, 2u, 3u, 4u}) {
        expect_the_answer_of_dantzig(solver, *limits_and_motors_problem(seed, 1e-6), 1e-7, seed);
    }
}

TEST(VelocityPgsFriction, ContactsWithFrictionIndicesConverge) {
    PluginInstance solver = make_solver(kVelocityPgs, converging());
    for (uint32_t seed = 1; seed <= 8; ++seed) {
        ContactTestProblem c(seed);
        const Solution s = solve(solver, c.t.p);
        ASSERT_TRUE(s.result.ok()) << "seed " << seed << ": " << s.result.message;
        EXPECT_EQ(s.report.status, PIVOT_SOLVE_CONVERGED) << "seed " << seed << ": " << s.report.message;
        EXPECT_LE(s.result.residual, 1e-10) << "seed " << seed;  // the host's own residual
        // Warm started at its own answer: no sweep.
        const Solution warm = solve(solver, c.t.p, &s.x);
        ASSERT_TRUE(warm.result.ok());
        EXPECT_EQ(warm.report.iterations, 0u) << "seed " << seed;
    }
}

// A disc bound on each contact's friction rows, |(x_t1, x_t2)| <= mu x_n:
// the circular cone's projection (normal clamped at 0 first), as a
// friction model's project() would give it.
pivot_status project_discs(void* context, uint32_t first_block, uint32_t block_count, double* x) {
    const double mu = *static_cast<const double*>(context);
    for (uint32_t k = first_block; k < first_block + block_count; ++k) {
        double* c = x + 3 * k;
        c[0] = std::max(0.0, c[0]);
        const double norm = std::hypot(c[1], c[2]);
        if (norm > mu * c[0]) {
            c[1] *= mu * c[0] / norm;
            c[2] *= mu * c[0] / norm;
        }
    }
    return PIVOT_OK;
}

TEST(VelocityPgsCone, BlockProjectionsConvergeToTheConeProblemsAnswer) {
    double mu = 0.5;
    PluginInstance solver = make_solver(kVelocityPgs, converging());
    for (uint32_t seed = 1; seed <= 4; ++seed) {
        ContactTestProblem c(seed);
        LcpProblem& p = c.t.p;
        std::fill(p.findex.begin(), p.findex.end(), -1);
        std::fill(p.lo.begin(), p.lo.end(), -HUGE_VAL);
        std::fill(p.hi.begin(), p.hi.end(), HUGE_VAL);
        p.block_first_row.clear();
        for (uint32_t k = 0; k <= 12; ++k) p.block_first_row.push_back(3 * k);
        p.project = project_discs;
        p.project_context = &mu;
        const Solution s = solve(solver, p);
        ASSERT_TRUE(s.result.ok()) << "seed " << seed << ": " << s.result.message;
        EXPECT_EQ(s.report.status, PIVOT_SOLVE_CONVERGED) << "seed " << seed << ": " << s.report.message;
        // x = P(x - w) on every block: the fixed point of the projection,
        // recomputed here from the dense A.
        Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(s.x.data(), 36);
        Eigen::VectorXd y = x - (c.t.dense_a * x + Eigen::Map<const Eigen::VectorXd>(p.b.data(), 36));
        project_discs(&mu, 0, 12, y.data());
        EXPECT_LE((x - y).cwiseAbs().maxCoeff(), 1e-9) << "seed " << seed;
        uint32_t sliding = 0;
        for (uint32_t k = 0; k < 12; ++k) {
            if (x[3 * k] > 1e-6 && std::hypot(x[3 * k + 1], x[3 * k + 2]) > mu * x[3 * k] * (1 - 1e-9)) ++sliding;
        }
        EXPECT_GT(sliding, 0u) << "seed " << seed << ": some contacts slide (on the cone's surface)";
    }
}

TEST(VelocityPgsBudget, BudgetAndSweepCapGiveAUsableAnswer) {
    ContactTestProblem c(3);
    const Solution s = solve(make_solver(kVelocityPgs), c.t.p, nullptr, 1e-12);
    EXPECT_EQ(s.report.status, PIVOT_SOLVE_TIME_BUDGET);
    EXPECT_TRUE(s.result.ok()) << "a usable answer: finite, within its bounds: " << s.result.message;
    const Solution capped = solve(make_solver(kVelocityPgs, {{"max_iterations", 3}, {"tolerance", 0.0}}), c.t.p);
    EXPECT_EQ(capped.report.status, PIVOT_SOLVE_MAX_ITERATIONS);
    EXPECT_EQ(capped.report.iterations, 3u);
    EXPECT_TRUE(capped.result.ok()) << capped.result.message;
    // Its reported residual is the host's (the same x, the same map).
    EXPECT_NEAR(capped.report.residual, capped.result.residual, 1e-12);
}

TEST(VelocityPgsInput, ProblemsWithoutTheFactoredFormAreRefused) {
    FactoredTestProblem t({6, 6, 6, 6, 6}, tree_rows(3), std::vector<double>(15, 0.0), 5);
    t.p.b = random_values(15, 9);
    LcpProblem dense = t.p;  // a problem from a file: no factored form
    dense.make_dense();
    dense.factored = false;
    const Solution s = solve(make_solver(kVelocityPgs), dense);
    EXPECT_FALSE(s.result.ok());
    EXPECT_EQ(s.report.status, PIVOT_SOLVE_UNSUPPORTED);
    // A row with no Jacobian and no diagonal cannot be divided by.
    LcpProblem empty_row = t.p;
    empty_row.row_blocks[0].count = 0;
    empty_row.row_blocks[1].count = 0;
    const Solution e = solve(make_solver(kVelocityPgs), empty_row);
    EXPECT_EQ(e.report.status, PIVOT_SOLVE_INVALID_PROBLEM);
    EXPECT_NE(std::string(e.report.message).find("row 0"), std::string::npos) << e.report.message;
}

}  // namespace
}  // namespace pivot::test
