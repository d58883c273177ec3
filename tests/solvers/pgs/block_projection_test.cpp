// pivot.solver.pgs with block projections: each contact's (n, t1, t2) is
// projected onto the circular Coulomb cone K = {|t| <= mu n} by a callback
// written here, as a friction model would supply it. The solution is the
// point with x = P_K(x - w) on every block (the variational inequality of
// the cone), checked against a closed form and an independent projected
// gradient method.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "contact_problem_generator.hpp"
#include "pgs_test_support.hpp"

namespace pivot::test {
namespace {

// Euclidean projection onto {(n, t): |t| <= mu n}: inside stays, inside the
// polar cone (mu |t| <= -n) goes to 0, otherwise onto the boundary ray
// (1, mu t/|t|) / sqrt(1 + mu^2), onto which the point projects.
void project_onto_cone(double* z, double mu) {
    const double n = z[0];
    const double s = std::hypot(z[1], z[2]);
    if (s <= mu * n) return;
    if (mu * s <= -n) {
        z[0] = z[1] = z[2] = 0.0;
        return;
    }
    const double normal = (n + mu * s) / (1.0 + mu * mu);
    const double scale = mu * normal / s;
    z[0] = normal;
    z[1] *= scale;
    z[2] *= scale;
}

struct Cones {
    double mu = 0.5;
    uint32_t single_block_calls = 0;  // calls for one block (the sweeps)
    uint32_t other_calls = 0;
    bool fail = false;
};

pivot_status project_cones(void* context, uint32_t first_block, uint32_t block_count, double* x) {
    auto* cones = static_cast<Cones*>(context);
    if (cones->fail) return PIVOT_ERROR;
    ++(block_count == 1 ? cones->single_block_calls : cones->other_calls);
    for (uint32_t k = first_block; k < first_block + block_count; ++k) project_onto_cone(x + 3 * k, cones->mu);
    return PIVOT_OK;
}

// Solves `p` with one cone block per contact (rows 3k, 3k+1, 3k+2).
struct ConeSolve {
    SolveResult result;
    pivot_solve_report report{};
    std::vector<double> x;
};

ConeSolve solve_with_cones(const PluginInstance& solver, const LcpProblem& p, Cones& cones) {
    std::vector<uint32_t> first_row(p.n / 3 + 1);
    for (uint32_t k = 0; k < first_row.size(); ++k) first_row[k] = 3 * k;
    pivot_lcp_problem view = p.view();
    view.block_count = p.n / 3;
    view.block_first_row = first_row.data();
    view.project = project_cones;
    view.project_context = &cones;
    ConeSolve s;
    s.x.assign(p.n, 0.0);
    std::vector<double> w(p.n);
    const pivot_solve_options options{sizeof(pivot_solve_options), 0, 0.0};
    s.report.struct_size = sizeof(s.report);
    s.result = checked_solve(solver, view, options, unguarded(s.x.data()), unguarded(w.data()), s.report);
    return s;
}

// max over blocks of |x - P_K(x - w)|: zero exactly at the solution.
double cone_residual(const LcpProblem& p, const std::vector<double>& x, double mu) {
    const std::vector<double> w = affine(p, x);
    double r = 0.0;
    for (uint32_t k = 0; 3 * k < p.n; ++k) {
        double z[3] = {x[3 * k] - w[3 * k], x[3 * k + 1] - w[3 * k + 1], x[3 * k + 2] - w[3 * k + 2]};
        project_onto_cone(z, mu);
        for (int e = 0; e < 3; ++e) r = std::max(r, std::abs(x[3 * k + e] - z[e]));
    }
    return r;
}

// The row bounds the host gives with cones: the box containing the cone
// (normal >= 0, friction rows within mu |normal| through the friction index).
LcpProblem with_cone_box(LcpProblem p, double mu) {
    p.findex.assign(p.n, -1);
    for (uint32_t i = 0; i < p.n; ++i) {
        const bool normal = i % 3 == 0;
        p.lo[i] = normal ? 0.0 : -mu;
        p.hi[i] = normal ? HUGE_VAL : mu;
        if (!normal) p.findex[i] = static_cast<int32_t>(i - i % 3);
    }
    return p;
}

// One contact, A = 2 I: w = 2 (x - y) with y = -b / 2, so the inequality
// w . (z - x) >= 0 for all z in K says (y - x) . (z - x) <= 0 for all z in K,
// the characterization of x = P_K(y); here a sliding contact: y has
// |t| = 1.52 > mu y_n = 0.25.
TEST(PgsCones, SingleContactIsTheProjectionOfTheUnconstrainedPoint) {
    LcpProblem p = with_cone_box(sparse_problem(3, {2, 0, 0, 0, 2, 0, 0, 0, 2}, {-1.0, 3.0, 0.5}, {0, 0, 0},
                                                {HUGE_VAL, HUGE_VAL, HUGE_VAL}),
                                 0.5);
    double expected[3] = {0.5, -1.5, -0.25};
    project_onto_cone(expected, 0.5);
    ASSERT_GT(expected[0], 0.5) << "the projection moved the point: a sliding contact";
    Cones cones;
    const ConeSolve s = solve_with_cones(make_solver(kPgs, {{"tolerance", 1e-14}}), p, cones);
    ASSERT_TRUE(s.result.ok()) << s.result.message;
    EXPECT_EQ(s.report.status, PIVOT_SOLVE_CONVERGED);
    // The block step from 0 is x = P_K(0 - (2 * 0 + b) / 2) = P_K(y): exact
    // up to rounding after one sweep.
    for (int e = 0; e < 3; ++e) EXPECT_NEAR(s.x[e], expected[e], 1e-15) << e;
    EXPECT_EQ(s.report.iterations, 1u);
    EXPECT_NEAR(std::hypot(s.x[1], s.x[2]), 0.5 * s.x[0], 1e-15) << "on the cone's boundary";
}

// Projected gradient x <- P_K(x - alpha (A x + b)), alpha = 1 / L with L >= the
// largest eigenvalue (Gershgorin): converges to the unique solution of the
// strongly monotone inequality (A positive definite), linearly.
std::vector<double> projected_gradient(const LcpProblem& p, double mu) {
    double lipschitz = 0.0;
    for (uint32_t j = 0; j < p.n; ++j) {
        double column = 0.0;
        for (int32_t k = p.col_start[j]; k < p.col_start[j + 1]; ++k) column += std::abs(p.values[k]);
        lipschitz = std::max(lipschitz, column);
    }
    std::vector<double> x(p.n, 0.0);
    for (int iteration = 0; iteration < 200000; ++iteration) {
        const std::vector<double> w = affine(p, x);
        double change = 0.0;
        for (uint32_t k = 0; 3 * k < p.n; ++k) {
            double z[3];
            for (int e = 0; e < 3; ++e) z[e] = x[3 * k + e] - w[3 * k + e] / lipschitz;
            project_onto_cone(z, mu);
            for (int e = 0; e < 3; ++e) {
                change = std::max(change, std::abs(z[e] - x[3 * k + e]));
                x[3 * k + e] = z[e];
            }
        }
        if (change < 1e-15) break;
    }
    return x;
}

// Twenty coupled contacts of a pile (regularization 0.1 of the mean diagonal,
// so that lambda_min(A) >= 0.1 mean(A_ii) and both methods converge well):
// the solver's result lies in every cone, solves the inequality (the natural
// map of the projection vanishes to the tolerance), agrees with projected
// gradient to the error bound (1 + |A|) / lambda_min r ~ 1e2 r, and the
// projection was called at least once per block per sweep.
TEST(PgsCones, CoupledContactsSolveTheConeInequality) {
    ContactPileSpec spec;
    spec.contacts = 20;
    spec.stack_columns = 2;
    spec.regularization = 0.1;
    spec.seed = 3;
    const double mu = 0.5;
    const LcpProblem p = with_cone_box(make_contact_pile(spec), mu);
    Cones cones;
    cones.mu = mu;
    const ConeSolve s = solve_with_cones(make_solver(kPgs, {{"tolerance", 1e-11}}), p, cones);
    ASSERT_TRUE(s.result.ok()) << s.result.message;
    ASSERT_EQ(s.report.status, PIVOT_SOLVE_CONVERGED) << s.report.message;
    // Once per block per sweep, plus the interior tests of the subspace
    // steps (2 per row of each block per step).
    EXPECT_GE(cones.single_block_calls, s.report.iterations * (p.n / 3));
    int sliding = 0;
    for (uint32_t k = 0; 3 * k < p.n; ++k) {
        const double tangential = std::hypot(s.x[3 * k + 1], s.x[3 * k + 2]);
        EXPECT_LE(tangential, mu * s.x[3 * k] * (1.0 + 1e-12) + 1e-15) << "contact " << k;
        sliding += s.x[3 * k] > 0.0 && tangential > mu * s.x[3 * k] * (1.0 - 1e-9) ? 1 : 0;
    }
    EXPECT_GT(sliding, 0) << "some contacts slide: the cone's boundary matters";
    EXPECT_LE(cone_residual(p, s.x, mu), 1e-11 * 2) << "the solver's residual is this one, up to rounding of w";
    const std::vector<double> reference = projected_gradient(p, mu);
    ASSERT_LE(cone_residual(p, reference, mu), 1e-12);
    const double scale = std::max(1.0, max_abs(reference));
    for (uint32_t i = 0; i < p.n; ++i) EXPECT_NEAR(s.x[i], reference[i], 1e-8 * scale) << i;
}

TEST(PgsCones, AFailingProjectionIsReported) {
    LcpProblem p = with_cone_box(sparse_problem(3, {2, 0, 0, 0, 2, 0, 0, 0, 2}, {-1.0, 3.0, 0.5}, {0, 0, 0},
                                                {HUGE_VAL, HUGE_VAL, HUGE_VAL}),
                                 0.5);
    Cones cones;
    cones.fail = true;
    const ConeSolve s = solve_with_cones(make_solver(kPgs), p, cones);
    EXPECT_FALSE(s.result.ok());
    EXPECT_EQ(s.report.status, PIVOT_SOLVE_NUMERICAL_ERROR);
}

}  // namespace
}  // namespace pivot::test
