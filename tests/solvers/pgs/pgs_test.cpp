// pivot.solver.pgs against known solutions: hand-made 1x1 and 2x2 problems
// with every active-bound pattern, brute-force enumeration of active sets on
// small contact problems with friction, the lcp-bench files; and its
// behaviour: warm start, time budget, iteration cap, invalid input,
// determinism, relaxation, non-symmetric matrices.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "contact_problem_generator.hpp"
#include "pgs_test_support.hpp"

namespace pivot::test {
namespace {

constexpr double kInf = HUGE_VAL;
const double kNaN = std::numeric_limits<double>::quiet_NaN();

// ---------------------------------------------------------------- descriptor

TEST(PgsDescriptor, DeclaresSparseOnlyAndItsCapabilities) {
    const PluginRecord& record = first_party_registry().require(PIVOT_KIND_SOLVER, kPgs);
    for (uint64_t cap : {PIVOT_SOLVER_CAP_BOXED, PIVOT_SOLVER_CAP_FRICTION_INDEX, PIVOT_SOLVER_CAP_STANDARD_LCP,
                         PIVOT_SOLVER_CAP_SPARSE, PIVOT_SOLVER_CAP_WARM_START, PIVOT_SOLVER_CAP_TIME_BUDGET,
                         PIVOT_SOLVER_CAP_BLOCK_PROJECTION, PIVOT_SOLVER_CAP_DETERMINISTIC,
                         PIVOT_SOLVER_CAP_NONSYMMETRIC}) {
        EXPECT_TRUE(record.has(cap)) << cap;
    }
    EXPECT_FALSE(record.has(PIVOT_SOLVER_CAP_DENSE)) << "the host converts dense problems to CSC";
}

TEST(PgsDescriptor, RelaxationOutsideZeroTwoIsRefusedByTheSchema) {
    EXPECT_ANY_THROW(make_solver(kPgs, {{"relaxation", 2.0}}));
    EXPECT_ANY_THROW(make_solver(kPgs, {{"relaxation", 0.0}}));
    EXPECT_NO_THROW(make_solver(kPgs, {{"relaxation", 1.9}}));
}

// ---------------------------------------------------------------- 1x1 and 2x2

struct Pattern1 {
    const char* name;
    double b, lo, hi;
    double x;  // the solution
};

// A = 2: w = 2x + b. Each case puts the solution on one side of the
// complementarity conditions; x is exact in double precision.
TEST(PgsSmall, OneRowEveryActiveBound) {
    const Pattern1 cases[] = {
        {"free", -4.0, 0.0, kInf, 2.0},       // w = 0
        {"at lower 0", 4.0, 0.0, kInf, 0.0},  // w = 4 >= 0
        {"at upper", -4.0, 0.0, 1.0, 1.0},    // w = -2 <= 0
        {"at lower -1", 4.0, -1.0, 1.0, -1.0},  // w = 2 >= 0
        {"free in a box", -1.0, -1.0, 1.0, 0.5},
        {"degenerate", 0.0, 0.0, kInf, 0.0},  // x = w = 0
    };
    for (const bool subspace : {true, false}) {
        for (const Pattern1& c : cases) {
            const LcpProblem p = sparse_problem(1, {2.0}, {c.b}, {c.lo}, {c.hi});
            const Solution s = solve(make_solver(kPgs, {{"subspace_minimization", subspace}}), p);
            ASSERT_TRUE(s.result.ok()) << c.name << ": " << s.result.message;
            EXPECT_EQ(s.report.status, PIVOT_SOLVE_CONVERGED) << c.name;
            EXPECT_DOUBLE_EQ(s.x[0], c.x) << c.name;
        }
    }
}

// A = [2 1; 1 3] (symmetric positive definite), both rows boxed in [-1, 1].
// For each of the 9 patterns (lower, upper, free) x (lower, upper, free) the
// solution x* and w* are chosen to satisfy that pattern strictly and
// b = w* - A x*. A is positive definite, so the box problem is strongly
// monotone with a unique solution, and the natural-map residual r bounds the
// error: |x - x*| <= (1 + |A|) / lambda_min(A) r (the standard error bound of
// the natural map, Facchinei & Pang 2003, "Finite-Dimensional Variational
// Inequalities", ch. 6), here about 3.3 r; with the tolerance 1e-12 the
// solution is checked to 1e-10.
TEST(PgsSmall, TwoRowsEveryPairOfActiveBounds) {
    const std::vector<double> a = {2.0, 1.0, 1.0, 3.0};
    const char* names[3] = {"lower", "upper", "free"};
    const double x_of[3] = {-1.0, 1.0, 0.25};
    const double w_of[3] = {0.5, -0.75, 0.0};
    for (const bool subspace : {true, false}) {
        for (int s0 = 0; s0 < 3; ++s0) {
            for (int s1 = 0; s1 < 3; ++s1) {
                const double x0 = x_of[s0];
                const double x1 = s1 == 2 ? -0.4 : x_of[s1];
                const double b0 = w_of[s0] - (a[0] * x0 + a[2] * x1);
                const double b1 = w_of[s1] - (a[1] * x0 + a[3] * x1);
                const LcpProblem p = sparse_problem(2, a, {b0, b1}, {-1.0, -1.0}, {1.0, 1.0});
                const Solution s = solve(make_solver(kPgs, {{"tolerance", 1e-12}, {"subspace_minimization", subspace}}), p);
                const std::string what = std::string(names[s0]) + "/" + names[s1] + (subspace ? " (SM)" : " (plain)");
                ASSERT_TRUE(s.result.ok()) << what << ": " << s.result.message;
                EXPECT_EQ(s.report.status, PIVOT_SOLVE_CONVERGED) << what;
                EXPECT_NEAR(s.x[0], x0, 1e-10) << what;
                EXPECT_NEAR(s.x[1], x1, 1e-10) << what;
                EXPECT_LE(s.result.residual, 1e-12) << what;
            }
        }
    }
}

// Friction index on two rows: row 1's bounds are +-0.5 |x_0|. With
// A = [2 0.5; 0.5 1] and b = (-2, 1): x_0 = 1 + ..., the friction row slides
// at its lower bound -0.5 x_0. Solution: x_1 = -0.5 x_0, 2 x_0 + 0.5 x_1 = 2
// gives x_0 = 2 / 1.75 and w_1 = 0.5 x_0 + x_1 + 1 = 1 > 0 (pushing up: lower
// bound active, consistent).
TEST(PgsSmall, FrictionRowSlidesAtItsScaledBound) {
    const LcpProblem p = sparse_problem(2, {2.0, 0.5, 0.5, 1.0}, {-2.0, 1.0}, {0.0, -0.5}, {kInf, 0.5}, {-1, 0});
    for (const bool subspace : {true, false}) {
        const Solution s = solve(make_solver(kPgs, {{"tolerance", 1e-13}, {"subspace_minimization", subspace}}), p);
        ASSERT_TRUE(s.result.ok()) << s.result.message;
        EXPECT_EQ(s.report.status, PIVOT_SOLVE_CONVERGED);
        EXPECT_NEAR(s.x[0], 2.0 / 1.75, 1e-11);
        EXPECT_NEAR(s.x[1], -1.0 / 1.75, 1e-11);
    }
}

// ---------------------------------------------------------------- brute force

// Solves M y = r in place (Gaussian elimination, partial pivoting); false if
// a pivot is below 1e-13 of the largest entry (singular for our purpose).
bool solve_dense(std::vector<double> m, std::vector<double>& r, size_t n) {
    double scale = 0.0;
    for (double v : m) scale = std::max(scale, std::abs(v));
    for (size_t k = 0; k < n; ++k) {
        size_t pivot = k;
        for (size_t i = k + 1; i < n; ++i) {
            if (std::abs(m[i * n + k]) > std::abs(m[pivot * n + k])) pivot = i;
        }
        if (std::abs(m[pivot * n + k]) <= 1e-13 * scale) return false;
        if (pivot != k) {
            for (size_t j = 0; j < n; ++j) std::swap(m[k * n + j], m[pivot * n + j]);
            std::swap(r[k], r[pivot]);
        }
        for (size_t i = k + 1; i < n; ++i) {
            const double f = m[i * n + k] / m[k * n + k];
            if (f == 0.0) continue;
            for (size_t j = k; j < n; ++j) m[i * n + j] -= f * m[k * n + j];
            r[i] -= f * r[k];
        }
    }
    for (size_t k = n; k-- > 0;) {
        for (size_t j = k + 1; j < n; ++j) r[k] -= m[k * n + j] * r[j];
        r[k] /= m[k * n + k];
    }
    return true;
}

// Every solution of a boxed problem with friction index (n <= 9), by
// enumeration of the 3^n assignments of each row to {lower, upper, free}:
// a free row has w_i = 0, a row on a bound equals it (for a friction row
// x_i = lo_i x_j or hi_i x_j, the bound with x_j >= 0); the linear system
// gives x, which is kept if every condition holds at x with the real bounds
// lo_i |x_j|, hi_i |x_j|. Distinct solutions (to 1e-8) are returned.
std::vector<std::vector<double>> enumerate_solutions(const LcpProblem& sparse) {
    LcpProblem p = sparse;
    p.make_dense();
    const size_t n = p.n;
    auto a = [&](size_t i, size_t j) { return p.dense[i + j * n]; };
    double scale = 1.0;
    for (double v : p.b) scale = std::max(scale, std::abs(v));
    const double tol = 1e-9 * scale;
    std::vector<std::vector<double>> found;
    std::vector<int> state(n, 0);
    size_t total = 1;
    for (size_t i = 0; i < n; ++i) total *= 3;
    for (size_t code = 0; code < total; ++code) {
        size_t c = code;
        for (size_t i = 0; i < n; ++i, c /= 3) state[i] = static_cast<int>(c % 3);
        std::vector<double> m(n * n, 0.0);
        std::vector<double> x(n, 0.0);
        bool feasible = true;
        for (size_t i = 0; i < n && feasible; ++i) {
            const int32_t j = p.findex.empty() ? -1 : p.findex[i];
            if (state[i] == 2) {
                for (size_t k = 0; k < n; ++k) m[i * n + k] = a(i, k);
                x[i] = -p.b[i];
                continue;
            }
            const double bound = state[i] == 0 ? p.lo[i] : p.hi[i];
            m[i * n + i] = 1.0;
            if (j >= 0) {
                m[i * n + static_cast<size_t>(j)] = -bound;
            } else if (std::isfinite(bound)) {
                x[i] = bound;
            } else {
                feasible = false;
            }
        }
        if (!feasible || !solve_dense(m, x, n)) continue;
        bool ok = true;
        for (size_t i = 0; i < n && ok; ++i) {
            double lower = p.lo[i];
            double upper = p.hi[i];
            const int32_t j = p.findex.empty() ? -1 : p.findex[i];
            if (j >= 0) {
                lower *= std::abs(x[j]);
                upper *= std::abs(x[j]);
            }
            double w = p.b[i];
            for (size_t k = 0; k < n; ++k) w += a(i, k) * x[k];
            ok = x[i] >= lower - tol && x[i] <= upper + tol;
            if (state[i] == 0) ok = ok && w >= -tol;
            if (state[i] == 1) ok = ok && w <= tol;
        }
        if (!ok) continue;
        const bool known = std::any_of(found.begin(), found.end(), [&](const std::vector<double>& y) {
            for (size_t i = 0; i < n; ++i) {
                if (std::abs(y[i] - x[i]) > 1e-8 * scale) return false;
            }
            return true;
        });
        if (!known) found.push_back(x);
    }
    return found;
}

// Three contacts with friction (9 rows: normal, t1, t2 each, mu = 0.5) and a
// frictionless one (9 normal rows), built like lcp-bench. The regularization
// is 1e-2 of the mean diagonal so that lambda_min(A) >= 1e-2 mean(A_ii) and
// the error bound (1 + |A|) / lambda_min r stays near 1e3 r: with the
// tolerance 1e-12 the solutions agree to 1e-8 (relative to max|x*|).
TEST(PgsBruteForce, SmallContactProblemsAgreeWithEnumeratedActiveSets) {
    int checked = 0;
    for (const bool friction : {true, false}) {
        for (uint64_t seed = 1; seed <= 6; ++seed) {
            ContactPileSpec spec;
            spec.contacts = friction ? 3 : 9;
            spec.stack_columns = 2;
            spec.friction = friction;
            spec.regularization = 1e-2;
            spec.seed = seed;
            const LcpProblem p = make_contact_pile(spec);
            ASSERT_EQ(p.n, 9u);
            const std::vector<std::vector<double>> reference = enumerate_solutions(p);
            ASSERT_GE(reference.size(), 1u) << "seed " << seed << ": the enumeration finds the solution that exists";
            if (reference.size() != 1) continue;  // several solutions (friction): nothing to compare against
            const std::vector<double>& expected = reference.front();
            const double scale = std::max(1.0, max_abs(expected));
            for (const bool subspace : {true, false}) {
                const Solution s = solve(
                    make_solver(kPgs, {{"tolerance", 1e-12}, {"subspace_minimization", subspace}, {"max_iterations", 1000000}}),
                    p);
                ASSERT_TRUE(s.result.ok()) << s.result.message;
                ASSERT_EQ(s.report.status, PIVOT_SOLVE_CONVERGED) << "seed " << seed << ": " << s.report.message;
                for (uint32_t i = 0; i < p.n; ++i) {
                    EXPECT_NEAR(s.x[i], expected[i], 1e-8 * scale)
                        << "seed " << seed << " row " << i << (subspace ? " (SM)" : " (plain)");
                }
            }
            ++checked;
        }
    }
    EXPECT_GE(checked, 8) << "most seeds have a unique solution; the test must compare something";
}

// ---------------------------------------------------------------- lcp-bench

class PgsBench : public ::testing::TestWithParam<const char*> {};

// Every lcp-bench file to the default tolerance 1e-6. The solver declares
// convergence only after recomputing w = A x + b from scratch, column by
// column in CSC order: the host's check (checked_solve) computes the same sums
// in the same order, so its residual is the solver's to the last bit and the
// bound needs no slack beyond the sign of zero.
TEST_P(PgsBench, ReachesTheTolerance) {
    const LcpProblem p = sparse_file_problem(std::string("lcp-bench/") + GetParam());
    const Solution s = solve(make_solver(kPgs), p);
    ASSERT_TRUE(s.result.ok()) << s.result.message;
    EXPECT_EQ(s.report.status, PIVOT_SOLVE_CONVERGED) << s.report.message;
    EXPECT_LE(s.result.residual, 1e-6);
    EXPECT_EQ(s.result.residual, s.report.residual);
    std::printf("[ pgs      ] %s: %u sweeps, residual %.3g, %.3f ms\n", GetParam(), s.report.iterations,
                s.result.residual, s.report.time_seconds * 1e3);
}

INSTANTIATE_TEST_SUITE_P(Files, PgsBench,
                         ::testing::Values("lcp_nc010_normal.txt", "lcp_nc050_normal.txt", "lcp_nc200_normal.txt",
                                           "lcp_nc333_normal.txt", "lcp_nc010_fric.txt", "lcp_nc050_fric.txt",
                                           "lcp_nc200_fric.txt", "lcp_nc333_fric.txt"),
                         [](const ::testing::TestParamInfo<const char*>& file) {
                             std::string name = file.param;
                             name = name.substr(4, name.size() - 8);  // lcp_<...>.txt
                             return name;
                         });

// ---------------------------------------------------------------- behaviour

TEST(PgsBehaviour, WarmStartAtTheSolutionStopsAfterOneSweep) {
    const LcpProblem p = sparse_file_problem("lcp-bench/lcp_nc333_fric.txt");
    const PluginInstance solver = make_solver(kPgs, {{"tolerance", 1e-9}});
    const Solution cold = solve(solver, p);
    ASSERT_EQ(cold.report.status, PIVOT_SOLVE_CONVERGED);
    ASSERT_GT(cold.report.iterations, 1u);
    const Solution warm = solve(solver, p, &cold.x);
    ASSERT_TRUE(warm.result.ok()) << warm.result.message;
    EXPECT_EQ(warm.report.status, PIVOT_SOLVE_CONVERGED);
    EXPECT_EQ(warm.report.iterations, 1u);
    EXPECT_LE(warm.result.residual, 1e-9);
}

TEST(PgsBehaviour, WarmStartFromAPoorGuessOutsideTheBounds) {
    const LcpProblem p = sparse_file_problem("lcp-bench/lcp_nc050_fric.txt");
    std::vector<double> guess(p.n);
    for (uint32_t i = 0; i < p.n; ++i) guess[i] = (i % 3 == 0) ? -5.0 : 7.0;  // violates every bound
    const Solution s = solve(make_solver(kPgs), p, &guess);
    ASSERT_TRUE(s.result.ok()) << s.result.message;
    EXPECT_EQ(s.report.status, PIVOT_SOLVE_CONVERGED);
    EXPECT_LE(s.result.residual, 1e-6);
}

TEST(PgsBehaviour, TinyTimeBudgetStopsWithAUsableX) {
    const LcpProblem p = sparse_file_problem("lcp-bench/lcp_nc333_fric.txt");
    for (const bool from_options : {true, false}) {
        // The budget from the solve options, else the instance's "time_budget".
        const PluginInstance solver =
            from_options ? make_solver(kPgs) : make_solver(kPgs, {{"time_budget", 1e-9}});
        const Solution s = solve(solver, p, nullptr, from_options ? 1e-9 : 0.0);
        ASSERT_TRUE(s.result.ok()) << s.result.message;  // finite, within bounds
        EXPECT_EQ(s.result.status, PIVOT_WARNING);
        EXPECT_EQ(s.report.status, PIVOT_SOLVE_TIME_BUDGET);
        EXPECT_GE(s.report.iterations, 1u);
        EXPECT_EQ(s.report.residual, s.result.residual) << "the reported residual is the exact one";
        EXPECT_NE(std::string(s.report.message).find("time budget"), std::string::npos) << s.report.message;
    }
}

TEST(PgsBehaviour, IterationCapReportsMaxIterationsWithAWarning) {
    const LcpProblem p = sparse_file_problem("lcp-bench/lcp_nc333_fric.txt");
    const Solution s = solve(make_solver(kPgs, {{"max_iterations", 3}}), p);
    ASSERT_TRUE(s.result.ok()) << s.result.message;
    EXPECT_EQ(s.result.status, PIVOT_WARNING);
    EXPECT_EQ(s.report.status, PIVOT_SOLVE_MAX_ITERATIONS);
    EXPECT_EQ(s.report.iterations, 3u);
    EXPECT_GT(s.result.residual, 1e-6);
    EXPECT_EQ(s.report.residual, s.result.residual);
    EXPECT_NE(std::string(s.report.message).find("3 sweeps"), std::string::npos) << s.report.message;
}

TEST(PgsBehaviour, NonFiniteInputIsRefused) {
    const std::vector<double> a = {2.0, 1.0, 1.0, 3.0};
    struct Case {
        const char* name;
        LcpProblem problem;
        std::vector<double> warm;
    };
    std::vector<Case> cases;
    cases.push_back({"NaN in b", sparse_problem(2, a, {kNaN, 1.0}, {0, 0}, {kInf, kInf}), {}});
    LcpProblem nan_a = sparse_problem(2, a, {-1.0, 1.0}, {0, 0}, {kInf, kInf});
    nan_a.values[1] = kNaN;
    cases.push_back({"NaN in A", nan_a, {}});
    cases.push_back({"NaN in lo", sparse_problem(2, a, {-1.0, 1.0}, {0, kNaN}, {kInf, kInf}), {}});
    cases.push_back({"NaN in the warm start", sparse_problem(2, a, {-1.0, 1.0}, {0, 0}, {kInf, kInf}), {0.0, kNaN}});
    for (const Case& c : cases) {
        const Solution s = solve(make_solver(kPgs), c.problem, c.warm.empty() ? nullptr : &c.warm);
        EXPECT_FALSE(s.result.ok()) << c.name;
        EXPECT_EQ(s.result.status, PIVOT_ERROR) << c.name;
        EXPECT_EQ(s.report.status, PIVOT_SOLVE_INVALID_PROBLEM) << c.name;
        EXPECT_NE(s.report.message[0], '\0') << c.name;
    }
}

TEST(PgsBehaviour, ZeroOrNegativeDiagonalIsRefusedNamingTheRow) {
    for (const double d : {0.0, -1.0}) {
        const LcpProblem p = sparse_problem(3, {2, 0, 0, 0, d, 0, 0, 0, 2}, {-1, -1, -1}, {0, 0, 0}, {kInf, kInf, kInf});
        const Solution s = solve(make_solver(kPgs), p);
        EXPECT_EQ(s.result.status, PIVOT_ERROR);
        EXPECT_EQ(s.report.status, PIVOT_SOLVE_INVALID_PROBLEM);
        EXPECT_NE(std::string(s.report.message).find("row 1"), std::string::npos) << s.report.message;
    }
}

TEST(PgsBehaviour, EmptyProblemConverges) {
    LcpProblem p;
    const Solution s = solve(make_solver(kPgs), p);
    EXPECT_TRUE(s.result.ok()) << s.result.message;
    EXPECT_EQ(s.report.status, PIVOT_SOLVE_CONVERGED);
}

TEST(PgsBehaviour, DeterministicToTheBit) {
    const LcpProblem p = sparse_file_problem("lcp-bench/lcp_nc333_fric.txt");
    const Solution first = solve(make_solver(kPgs), p);
    const PluginInstance other = make_solver(kPgs);
    const Solution second = solve(other, p);
    const Solution again = solve(other, p);  // the same instance twice: no history
    for (const Solution* s : {&second, &again}) {
        ASSERT_EQ(s->x.size(), first.x.size());
        EXPECT_EQ(std::memcmp(s->x.data(), first.x.data(), first.x.size() * sizeof(double)), 0);
        EXPECT_EQ(s->report.iterations, first.report.iterations);
        EXPECT_EQ(s->report.status, first.report.status);
    }
}

TEST(PgsBehaviour, ReserveChangesNoResult) {
    const LcpProblem p = sparse_file_problem("lcp-bench/lcp_nc200_fric.txt");
    const Solution plain = solve(make_solver(kPgs), p);
    for (const uint32_t scale : {1u, 4u}) {
        const PluginInstance solver = make_solver(kPgs);
        ASSERT_EQ(solver.plugin().solver.reserve(solver.handle(), p.n * scale, static_cast<uint32_t>(p.values.size()) * scale),
                  PIVOT_OK);
        const Solution s = solve(solver, p);
        EXPECT_EQ(std::memcmp(s.x.data(), plain.x.data(), plain.x.size() * sizeof(double)), 0) << scale;
    }
}

// Over-relaxation still converges to the solution (the fixed points of the
// relaxed sweep are the same), frictionless problem: unique solution.
TEST(PgsBehaviour, OverRelaxationConverges) {
    const LcpProblem p = sparse_file_problem("lcp-bench/lcp_nc200_normal.txt");
    const Solution reference = solve(make_solver(kPgs, {{"tolerance", 1e-12}}), p);
    for (const double omega : {0.7, 1.4}) {
        const Solution s =
            solve(make_solver(kPgs, {{"relaxation", omega}, {"subspace_minimization", false}, {"tolerance", 1e-9}}), p);
        ASSERT_TRUE(s.result.ok()) << s.result.message;
        EXPECT_EQ(s.report.status, PIVOT_SOLVE_CONVERGED) << omega;
        EXPECT_LE(s.result.residual, 1e-9);
        // lambda_min(A) >= 1e-4 mean diagonal: |x - x*| <= ~1e5 (r + r*).
        for (uint32_t i = 0; i < p.n; ++i) EXPECT_NEAR(s.x[i], reference.x[i], 1e-3) << omega;
    }
}

// A strictly row diagonally dominant, non-symmetric matrix with a positive
// diagonal is a P-matrix (unique solution) on which Gauss-Seidel converges
// (Cottle, Pang & Stone 1992, ch. 5); with and without subspace steps.
TEST(PgsBehaviour, NonSymmetricDiagonallyDominant) {
    const uint32_t n = 40;
    std::mt19937_64 rng(7);
    std::vector<double> a(n * n, 0.0);
    std::vector<double> b(n);
    for (uint32_t i = 0; i < n; ++i) {
        double off = 0.0;
        for (uint32_t j = 0; j < n; ++j) {
            if (i == j || uniform01(rng) > 0.2) continue;
            a[i + j * n] = uniform(rng, -1.0, 1.0);
            off += std::abs(a[i + j * n]);
        }
        a[i + i * n] = off + uniform(rng, 0.5, 1.5);
        b[i] = uniform(rng, -1.0, 1.0);
    }
    const LcpProblem p = sparse_problem(n, a, b, std::vector<double>(n, 0.0), std::vector<double>(n, kInf));
    ASSERT_EQ(p.matrix_properties & PIVOT_MATRIX_SYMMETRIC, 0u);
    const Solution plain = solve(make_solver(kPgs, {{"subspace_minimization", false}, {"tolerance", 1e-12}}), p);
    const Solution accelerated = solve(make_solver(kPgs, {{"tolerance", 1e-12}}), p);
    for (const Solution* s : {&plain, &accelerated}) {
        ASSERT_TRUE(s->result.ok()) << s->result.message;
        EXPECT_EQ(s->report.status, PIVOT_SOLVE_CONVERGED);
        EXPECT_LE(s->result.residual, 1e-12);
    }
    // Diagonal dominance bounds |A^-1| by 1 / min margin (2): x agrees to a few r.
    for (uint32_t i = 0; i < n; ++i) EXPECT_NEAR(plain.x[i], accelerated.x[i], 1e-10);
}

}  // namespace
}  // namespace pivot::test
