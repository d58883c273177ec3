// pivot.solver.lemke: Lemke's complementary pivoting method, checked against
// hand solutions, exhaustive enumeration of complementary bases, published
// pivot counts (Murty's example) and the host's own residual.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "solver_test_support.hpp"

namespace pivot {
namespace {

constexpr double kInf = HUGE_VAL;
const char* const kLemke = "pivot.solver.lemke";

// A problem from its matrix written row by row (as printed in papers).
LcpProblem from_rows(uint32_t n, const std::vector<double>& rows, const std::vector<double>& b) {
    std::vector<double> column_major(static_cast<size_t>(n) * n);
    for (uint32_t i = 0; i < n; ++i) {
        for (uint32_t j = 0; j < n; ++j) column_major[i + static_cast<size_t>(j) * n] = rows[i * n + j];
    }
    return LcpProblem::standard(n, column_major, b);
}

LcpProblem boxed_from_rows(uint32_t n, const std::vector<double>& rows, const std::vector<double>& b,
                           const std::vector<double>& lo, const std::vector<double>& hi) {
    LcpProblem p = from_rows(n, rows, b);
    p.lo = lo;
    p.hi = hi;
    return p;
}

double entry(const LcpProblem& p, uint32_t i, uint32_t j) { return p.dense[i + static_cast<size_t>(j) * p.n]; }

Eigen::MatrixXd matrix_of(const LcpProblem& p) {
    return Eigen::Map<const Eigen::MatrixXd>(p.dense.data(), p.n, p.n);
}

// A deterministic generator whose doubles do not depend on the standard
// library's distributions (which are implementation-defined).
class Random {
public:
    explicit Random(uint64_t seed) : engine_(seed) {}
    double uniform(double a, double b) { return a + (b - a) * static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

private:
    std::mt19937_64 engine_;
};

// Every solution of the standard LCP, by enumerating all 2^n complementary
// bases: z_S = -M_SS^-1 q_S on the support S, checked for z >= 0, w >= 0.
// The independent reference for small problems.
std::vector<Eigen::VectorXd> enumerate_standard_lcp(const LcpProblem& p) {
    const Eigen::MatrixXd m = matrix_of(p);
    const Eigen::VectorXd q = Eigen::Map<const Eigen::VectorXd>(p.b.data(), p.n);
    std::vector<Eigen::VectorXd> solutions;
    const uint32_t n = p.n;
    for (uint32_t mask = 0; mask < (1u << n); ++mask) {
        std::vector<int> support;
        for (uint32_t i = 0; i < n; ++i) {
            if (mask & (1u << i)) support.push_back(static_cast<int>(i));
        }
        const auto k = static_cast<Eigen::Index>(support.size());
        Eigen::VectorXd z = Eigen::VectorXd::Zero(n);
        if (k > 0) {
            Eigen::MatrixXd m_ss(k, k);
            Eigen::VectorXd q_s(k);
            for (Eigen::Index a = 0; a < k; ++a) {
                q_s[a] = q[support[a]];
                for (Eigen::Index c = 0; c < k; ++c) m_ss(a, c) = m(support[a], support[c]);
            }
            Eigen::FullPivLU<Eigen::MatrixXd> lu(m_ss);
            if (!lu.isInvertible()) continue;
            const Eigen::VectorXd z_s = lu.solve(-q_s);
            for (Eigen::Index a = 0; a < k; ++a) z[support[a]] = z_s[a];
        }
        const Eigen::VectorXd w = m * z + q;
        if (z.minCoeff() >= -1e-12 && w.minCoeff() >= -1e-12) solutions.push_back(z);
    }
    return solutions;
}

// Every solution of a boxed problem, by enumerating the 3^n assignments of
// rows to {at lower, at upper, between} (only the feasible ones: no infinite
// bound is "at"), solving A_II x_I = -(b_I + A_IB x_B) for the rows between
// and checking bounds and signs of w. Unique for A positive definite.
std::vector<Eigen::VectorXd> enumerate_boxed(const LcpProblem& p) {
    const uint32_t n = p.n;
    const Eigen::MatrixXd a = matrix_of(p);
    const Eigen::VectorXd b = Eigen::Map<const Eigen::VectorXd>(p.b.data(), n);
    std::vector<Eigen::VectorXd> solutions;
    std::vector<int> state(n, 0);  // 0 lower, 1 upper, 2 between
    uint64_t combinations = 1;
    for (uint32_t i = 0; i < n; ++i) combinations *= 3;
    for (uint64_t code = 0; code < combinations; ++code) {
        uint64_t c = code;
        bool possible = true;
        for (uint32_t i = 0; i < n; ++i) {
            state[i] = static_cast<int>(c % 3);
            c /= 3;
            if (state[i] == 0 && !std::isfinite(p.lo[i])) possible = false;
            if (state[i] == 1 && !std::isfinite(p.hi[i])) possible = false;
            if (state[i] != 0 && p.lo[i] == p.hi[i]) possible = false;  // a fixed row is "at lower"
        }
        if (!possible) continue;
        Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
        std::vector<int> between;
        for (uint32_t i = 0; i < n; ++i) {
            if (state[i] == 0) x[i] = p.lo[i];
            if (state[i] == 1) x[i] = p.hi[i];
            if (state[i] == 2) between.push_back(static_cast<int>(i));
        }
        const auto k = static_cast<Eigen::Index>(between.size());
        if (k > 0) {
            Eigen::MatrixXd a_ii(k, k);
            Eigen::VectorXd rhs(k);
            const Eigen::VectorXd partial = a * x + b;  // x_I = 0 here
            for (Eigen::Index r = 0; r < k; ++r) {
                rhs[r] = -partial[between[r]];
                for (Eigen::Index s = 0; s < k; ++s) a_ii(r, s) = a(between[r], between[s]);
            }
            Eigen::FullPivLU<Eigen::MatrixXd> lu(a_ii);
            if (!lu.isInvertible()) continue;
            const Eigen::VectorXd x_i = lu.solve(rhs);
            for (Eigen::Index r = 0; r < k; ++r) x[between[r]] = x_i[r];
        }
        const Eigen::VectorXd w = a * x + b;
        bool ok = true;
        for (uint32_t i = 0; i < n && ok; ++i) {
            if (p.lo[i] == p.hi[i]) continue;  // x = l = u: any w
            if (state[i] == 0) ok = w[i] >= -1e-12;
            if (state[i] == 1) ok = w[i] <= 1e-12;
            if (state[i] == 2) ok = x[i] >= p.lo[i] - 1e-12 && x[i] <= p.hi[i] + 1e-12;
        }
        if (ok) solutions.push_back(x);
    }
    return solutions;
}

// Lemke's method on a dense tableau with a NAIVE tie rule (the tied row
// whose basic variable has the smallest index; z0 when it ties), to show
// that a problem cycles without the lexicographic rule. Returns true when an
// (almost-complementary basis, entering variable) state repeats, which with
// a deterministic rule means the method loops for ever.
bool naive_lemke_cycles(const LcpProblem& p) {
    const int n = static_cast<int>(p.n);
    const int z0 = 2 * n;
    const int rhs = 2 * n + 1;
    std::vector<std::vector<double>> t(n, std::vector<double>(2 * n + 2, 0.0));
    for (int i = 0; i < n; ++i) {
        t[i][i] = 1.0;
        for (int j = 0; j < n; ++j) t[i][n + j] = -entry(p, i, j);
        t[i][z0] = -1.0;
        t[i][rhs] = p.b[i];
    }
    std::vector<int> basis(n);
    for (int i = 0; i < n; ++i) basis[i] = i;
    const auto pivot = [&](int r, int c) {
        const double e = t[r][c];
        for (double& v : t[r]) v /= e;
        for (int i = 0; i < n; ++i) {
            if (i == r || t[i][c] == 0.0) continue;
            const double f = t[i][c];
            for (int j = 0; j <= rhs; ++j) t[i][j] -= f * t[r][j];
        }
        const int leaving = basis[r];
        basis[r] = c;
        return leaving;
    };
    const auto choose = [&](const std::vector<int>& ties) {
        int best = ties.front();
        for (int r : ties) {
            if (basis[r] == z0) return r;
            if (basis[r] < basis[best]) best = r;
        }
        return best;
    };
    std::vector<int> ties;
    double q_min = p.b[0];
    for (int i = 0; i < n; ++i) q_min = std::min(q_min, p.b[i]);
    for (int i = 0; i < n; ++i) {
        if (std::abs(p.b[i] - q_min) < 1e-9) ties.push_back(i);
    }
    int leaving = pivot(choose(ties), z0);
    std::set<std::pair<std::vector<int>, int>> seen;
    for (int step = 0; step < 1000 && leaving != z0; ++step) {
        const int entering = leaving < n ? leaving + n : leaving - n;
        std::vector<int> sorted = basis;
        std::sort(sorted.begin(), sorted.end());
        if (!seen.insert({sorted, entering}).second) return true;
        double theta = kInf;
        for (int i = 0; i < n; ++i) {
            if (t[i][entering] > 1e-9) theta = std::min(theta, t[i][rhs] / t[i][entering]);
        }
        if (theta == kInf) return false;  // ray
        ties.clear();
        for (int i = 0; i < n; ++i) {
            if (t[i][entering] > 1e-9 && std::abs(t[i][rhs] / t[i][entering] - theta) < 1e-9) ties.push_back(i);
        }
        leaving = pivot(choose(ties), entering);
    }
    return false;
}

void expect_vector_near(const std::vector<double>& x, const Eigen::VectorXd& reference, double tolerance,
                        const std::string& what) {
    ASSERT_EQ(x.size(), static_cast<size_t>(reference.size())) << what;
    for (size_t i = 0; i < x.size(); ++i) {
        EXPECT_NEAR(x[i], reference[static_cast<Eigen::Index>(i)], tolerance) << what << ", x[" << i << "]";
    }
}

// ---------------------------------------------------------------- small LCPs

TEST(LemkeSolver, OneByOne) {
    PluginInstance solver = test::make_solver(kLemke);
    // q >= 0: z = 0 without a pivot.
    test::Solution s = test::solve(solver, from_rows(1, {2.0}, {3.0}));
    ASSERT_TRUE(s.result.ok()) << s.result.message;
    EXPECT_EQ(s.x[0], 0.0);
    EXPECT_EQ(s.report.iterations, 0u);
    // q < 0: w = 2 z - 4 = 0 at z = 2: z0 enters (w leaves), z enters (z0
    // leaves). The two pivots divide by 1 and 2 only: exact.
    s = test::solve(solver, from_rows(1, {2.0}, {-4.0}));
    ASSERT_TRUE(s.result.ok()) << s.result.message;
    EXPECT_EQ(s.x[0], 2.0);
    EXPECT_EQ(s.w[0], 0.0);
    EXPECT_EQ(s.report.iterations, 2u);
    EXPECT_EQ(s.report.status, PIVOT_SOLVE_CONVERGED);
}

TEST(LemkeSolver, TwoByTwoEveryComplementarityPattern) {
    PluginInstance solver = test::make_solver(kLemke);
    // M = [2 1; 1 2] (positive definite: one solution per q). By hand:
    struct Case {
        std::vector<double> q;
        std::vector<double> z;
    };
    const std::vector<Case> cases = {
        {{1.0, 1.0}, {0.0, 0.0}},    // z = 0, w = q > 0
        {{-2.0, 3.0}, {1.0, 0.0}},   // 2 z1 = 2; w2 = z1 + 3 = 4
        {{3.0, -2.0}, {0.0, 1.0}},   // 2 z2 = 2; w1 = z2 + 3 = 4
        {{-3.0, -3.0}, {1.0, 1.0}},  // [2 1; 1 2] z = 3: z = (1, 1)
        {{-2.0, 1.0}, {1.0, 0.0}},   // z1 = 1 and w2 = 1 + 1 = 2
    };
    for (const Case& c : cases) {
        test::Solution s = test::solve(solver, from_rows(2, {2, 1, 1, 2}, c.q));
        ASSERT_TRUE(s.result.ok()) << s.result.message;
        // Values of order 1 from at most three pivots: rounding ~1e-16.
        EXPECT_NEAR(s.x[0], c.z[0], 1e-14) << "q = " << c.q[0] << ", " << c.q[1];
        EXPECT_NEAR(s.x[1], c.z[1], 1e-14) << "q = " << c.q[0] << ", " << c.q[1];
        EXPECT_LE(s.result.residual, 1e-14);
    }
}

TEST(LemkeSolver, NonSymmetricPMatrixByHand) {
    PluginInstance solver = test::make_solver(kLemke);
    // M = [1 -2; 3 1]: principal minors 1, 1, 7 > 0 (a P-matrix), not
    // symmetric. q = (-1, -5): both z positive, z1 - 2 z2 = 1 and
    // 3 z1 + z2 = 5 give z = (11/7, 2/7).
    test::Solution s = test::solve(solver, from_rows(2, {1, -2, 3, 1}, {-1.0, -5.0}));
    ASSERT_TRUE(s.result.ok()) << s.result.message;
    EXPECT_NEAR(s.x[0], 11.0 / 7.0, 1e-14);
    EXPECT_NEAR(s.x[1], 2.0 / 7.0, 1e-14);
    // q = (-1, 1): z1 = 1 makes w1 = 0 and w2 = 3 + 1 = 4 > 0.
    s = test::solve(solver, from_rows(2, {1, -2, 3, 1}, {-1.0, 1.0}));
    ASSERT_TRUE(s.result.ok()) << s.result.message;
    EXPECT_NEAR(s.x[0], 1.0, 1e-14);
    EXPECT_EQ(s.x[1], 0.0);
}

TEST(LemkeSolver, RandomNonSymmetricPMatricesMatchEnumeration) {
    // Strictly row diagonally dominant with a positive diagonal: so is every
    // principal submatrix, whose eigenvalues then have positive real parts
    // (Gershgorin), so every principal minor is positive: a P-matrix, and
    // the LCP has exactly one solution, which enumeration finds.
    PluginInstance solver = test::make_solver(kLemke);
    Random random(20261117);
    for (uint32_t n = 2; n <= 8; ++n) {
        for (int trial = 0; trial < 8; ++trial) {
            std::vector<double> rows(n * n);
            for (uint32_t i = 0; i < n; ++i) {
                double off = 0.0;
                for (uint32_t j = 0; j < n; ++j) {
                    if (i == j) continue;
                    rows[i * n + j] = random.uniform(-1.0, 1.0);
                    off += std::abs(rows[i * n + j]);
                }
                rows[i * n + i] = off + random.uniform(0.1, 1.0);
            }
            std::vector<double> q(n);
            for (double& v : q) v = random.uniform(-1.0, 1.0);
            const LcpProblem p = from_rows(n, rows, q);
            const std::vector<Eigen::VectorXd> reference = enumerate_standard_lcp(p);
            ASSERT_EQ(reference.size(), 1u) << "a P-matrix LCP has one solution";
            test::Solution s = test::solve(solver, p);
            ASSERT_TRUE(s.result.ok()) << s.result.message;
            // Diagonally dominant: condition numbers below ~2n, so both
            // solutions carry ~1e-15 absolute error on values of order 1.
            expect_vector_near(s.x, reference[0], 1e-12, "n = " + std::to_string(n));
            EXPECT_LE(s.result.residual, 1e-13);
        }
    }
}

// ---------------------------------------------------------------- degeneracy

TEST(LemkeSolver, DegenerateProblemThatCyclesWithoutTheLexicographicRule) {
    // Found by a search over small integer problems and checked in exact
    // rational arithmetic: M has two equal columns (2 and 3), q three
    // zeros. With the "smallest basic variable" tie rule Lemke's method
    // returns to an (almost-complementary basis, entering variable) state
    // after 9 pivots and loops; the lexicographic rule solves it in 3.
    const LcpProblem p = from_rows(5,
                                   {2, -1, 2, 2, 1,    //
                                    0, 0, 2, 2, -1,    //
                                    1, 1, 2, 2, -1,    //
                                    -1, -1, 0, 0, -1,  //
                                    -1, -1, 1, 1, 0},
                                   {-1, 0, 0, 0, -1});
    ASSERT_TRUE(naive_lemke_cycles(p)) << "the premise: the naive rule cycles on this problem";
    PluginInstance solver = test::make_solver(kLemke);
    test::Solution s = test::solve(solver, p);
    ASSERT_TRUE(s.result.ok()) << s.result.message;
    EXPECT_EQ(s.report.iterations, 3u) << "the lexicographic path, as in exact arithmetic";
    // Small integers: the solution is exact up to a few roundings.
    EXPECT_LE(s.result.residual, 1e-14);
    const std::vector<Eigen::VectorXd> all = enumerate_standard_lcp(p);
    bool among = false;
    for (const Eigen::VectorXd& z : all) {
        among = among || (Eigen::Map<const Eigen::VectorXd>(s.x.data(), 5) - z).cwiseAbs().maxCoeff() < 1e-12;
    }
    EXPECT_TRUE(among) << "the solution is one of the complementary solutions found by enumeration";
}

TEST(LemkeSolver, AllTiedRowsOfARankOneMatrix) {
    // M = all ones (4 x 4, positive semidefinite, every column repeated),
    // q = -1: every ratio ties at every pivot; the solutions are the z >= 0
    // with sum z = 1 (Cottle, Pang & Stone, Remark 4.1.14 for n = 2).
    PluginInstance solver = test::make_solver(kLemke);
    test::Solution s = test::solve(solver, from_rows(4, std::vector<double>(16, 1.0), {-1, -1, -1, -1}));
    ASSERT_TRUE(s.result.ok()) << s.result.message;
    double sum = 0.0;
    for (double z : s.x) sum += z;
    EXPECT_NEAR(sum, 1.0, 1e-15);
    EXPECT_LE(s.result.residual, 1e-15);
}

// A polymatrix-game LCP in the layout of Siconos' lcp_tobenna: two blocks of
// G groups of s strategies, all-ones blocks on the diagonal, integer payoffs
// 1..250 between the blocks (from a fixed linear congruential generator), a
// -1 column per group and one simplex row per group (q = -1); q = 0 on the
// 2 G s strategy rows, so nearly every pivot is degenerate.
LcpProblem polymatrix_game(uint32_t groups, uint32_t group_size, uint64_t seed) {
    const uint32_t strategies = groups * group_size;
    const uint32_t n = 2 * strategies + 2 * groups;
    std::vector<double> rows(static_cast<size_t>(n) * n, 0.0);
    uint64_t state = seed;
    for (uint32_t i = 0; i < n; ++i) {
        for (uint32_t j = 0; j < n; ++j) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            if (i >= 2 * strategies || j >= 2 * strategies) continue;
            const bool same_block = (i < strategies) == (j < strategies);
            rows[i * n + j] = same_block ? 1.0 : static_cast<double>(1 + (state >> 33) % 250);
        }
    }
    for (uint32_t i = 0; i < 2 * strategies; ++i) rows[i * n + 2 * strategies + i / group_size] = -1.0;
    for (uint32_t g = 0; g < 2 * groups; ++g) {
        for (uint32_t j = g * group_size; j < (g + 1) * group_size; ++j) rows[(2 * strategies + g) * n + j] = 1.0;
    }
    std::vector<double> q(n, 0.0);
    for (uint32_t g = 0; g < 2 * groups; ++g) q[2 * strategies + g] = -1.0;
    return from_rows(n, rows, q);
}

TEST(LemkeSolver, DegenerateGameFollowsTheExactLexicographicPath) {
    // Lemke's method with the lexicographic rule in exact rational
    // arithmetic (a Python tableau with fractions) solves this 40-row
    // problem in 159 pivots. Floating point must take the same path: ties
    // between rows are decided on columns of B^-1 whose exact zeros come out
    // as 1e-16 noise, and comparing that noise (as a first version did)
    // leaves the lexicographic path (505 pivots here, cycling on others).
    // The path must not depend on the refactorization interval either.
    const LcpProblem p = polymatrix_game(4, 4, 4);
    ASSERT_EQ(p.n, 40u);
    for (int interval : {1, 7, 200}) {
        PluginInstance solver = test::make_solver(kLemke, {{"refactor_interval", interval}});
        test::Solution s = test::solve(solver, p);
        ASSERT_TRUE(s.result.ok()) << s.result.message;
        EXPECT_EQ(s.report.iterations, 159u) << "refactor_interval " << interval;
        // Entries up to 250 and solutions of order 1: 1e-10 is ~1e4 roundings.
        EXPECT_LE(s.result.residual, 1e-10) << "refactor_interval " << interval;
    }
}

TEST(LemkeSolver, DegenerateContactProblemWithZerosInQ) {
    // A contact problem made degenerate on purpose: every third q_i = 0
    // (resting contacts) and pairs of equal q_i: many ratio ties, broken by
    // lexicographic columns of B^-1 at scale.
    LcpProblem p = read_lcp_file(test::data_dir() / "lcp-bench" / "lcp_nc050_normal.txt");
    for (uint32_t i = 0; i < p.n; ++i) {
        if (i % 3 == 0) p.b[i] = 0.0;
        if (i % 3 == 1 && i + 1 < p.n) p.b[i + 1] = p.b[i];
    }
    PluginInstance solver = test::make_solver(kLemke);
    test::Solution s = test::solve(solver, p);
    ASSERT_TRUE(s.result.ok()) << s.result.message;
    // The file's solves reach ~1e-15 (entries of A and b of order 1-10).
    EXPECT_LE(s.result.residual, 1e-12);
}

// ---------------------------------------------------------------- Murty

LcpProblem murty(uint32_t n, bool exponential_q) {
    // M upper triangular, 1 on the diagonal and 2 above (Murty, "Linear
    // Complementarity, Linear and Nonlinear Programming", 1988, chapter 6).
    std::vector<double> rows(n * n, 0.0);
    std::vector<double> q(n, -1.0);
    for (uint32_t i = 0; i < n; ++i) {
        rows[i * n + i] = 1.0;
        for (uint32_t j = i + 1; j < n; ++j) rows[i * n + j] = 2.0;
        // q_i = -(2^(n+1) - 2^i), i = 1..n
        if (exponential_q) q[i] = -(std::ldexp(1.0, static_cast<int>(n) + 1) - std::ldexp(1.0, static_cast<int>(i) + 1));
    }
    return from_rows(n, rows, q);
}

TEST(LemkeSolver, MurtyExponentialExample) {
    PluginInstance solver = test::make_solver(kLemke);
    const uint32_t n = 8;
    // q = -e: the rows tie; the lexicographic rule lets w_n leave first, and
    // z_n = 1 (w_i = 2 - 1 = 1 > 0 above it) ends the path: 2 pivots.
    test::Solution s = test::solve(solver, murty(n, false));
    ASSERT_TRUE(s.result.ok()) << s.result.message;
    for (uint32_t i = 0; i + 1 < n; ++i) EXPECT_EQ(s.x[i], 0.0);
    EXPECT_EQ(s.x[n - 1], 1.0);
    EXPECT_EQ(s.report.iterations, 2u);
    // Murty's q: the unique solution is z = 2^n e_n (w_n = 2^n - 2^n = 0,
    // w_i = 2^(n+1) - (2^(n+1) - 2^i) = 2^i > 0), and the complementary pivot
    // method needs 2^n pivots (Murty 1988, chapter 6; the count also comes
    // out of an exact rational tableau for n = 1..8). All values are
    // integers below 2^10: exact in floating point.
    s = test::solve(solver, murty(n, true));
    ASSERT_TRUE(s.result.ok()) << s.result.message;
    for (uint32_t i = 0; i + 1 < n; ++i) EXPECT_EQ(s.x[i], 0.0);
    EXPECT_EQ(s.x[n - 1], 256.0);
    EXPECT_EQ(s.report.iterations, 256u);
}

TEST(LemkeSolver, PivotCapReportsTheLastPointHonestly) {
    PluginInstance solver = test::make_solver(kLemke, {{"max_iterations", 10}});
    test::Solution s = test::solve(solver, murty(8, true));
    // Stopped early with a usable (finite, in-bounds) x: WARNING, and the
    // report's residual is the true one of that point, far from solved.
    ASSERT_TRUE(s.result.ok()) << s.result.message;
    EXPECT_EQ(s.result.status, PIVOT_WARNING);
    EXPECT_EQ(s.report.status, PIVOT_SOLVE_MAX_ITERATIONS);
    EXPECT_EQ(s.report.iterations, 10u);
    EXPECT_GT(s.result.residual, 1.0);
    EXPECT_NEAR(s.report.residual, s.result.residual, 1e-12 * s.result.residual);
    EXPECT_NE(std::strstr(s.report.message, "max_iterations"), nullptr) << s.report.message;
}

// ---------------------------------------------------------------- failures

TEST(LemkeSolver, RayTerminationOnInfeasibleProblemsIsReported) {
    PluginInstance solver = test::make_solver(kLemke);
    // w = -z - 1 < 0 for every z >= 0: no solution.
    test::Solution s = test::solve(solver, from_rows(1, {-1.0}, {-1.0}));
    EXPECT_FALSE(s.result.ok());
    EXPECT_EQ(s.result.status, PIVOT_ERROR);
    EXPECT_EQ(s.report.status, PIVOT_SOLVE_RAY_TERMINATION);
    EXPECT_NE(std::strstr(s.report.message, "may have no solution"), nullptr) << s.report.message;
    // M = [1 -1; -1 1] is positive semidefinite (copositive-plus), and
    // w1 + w2 = -2 < 0 for every z: infeasible, which Lemke's method proves
    // by ray termination.
    s = test::solve(solver, from_rows(2, {1, -1, -1, 1}, {-1.0, -1.0}));
    EXPECT_FALSE(s.result.ok());
    EXPECT_EQ(s.report.status, PIVOT_SOLVE_RAY_TERMINATION);
}

TEST(LemkeSolver, NaNInputIsRejected) {
    PluginInstance solver = test::make_solver(kLemke);
    LcpProblem p = from_rows(2, {2, 1, 1, 2}, {-1.0, std::nan("")});
    test::Solution s = test::solve(solver, p);
    EXPECT_FALSE(s.result.ok());
    EXPECT_EQ(s.report.status, PIVOT_SOLVE_INVALID_PROBLEM);
    EXPECT_NE(std::strstr(s.report.message, "b[1]"), nullptr) << s.report.message;
    p = from_rows(2, {2, std::nan(""), 1, 2}, {-1.0, -1.0});
    s = test::solve(solver, p);
    EXPECT_EQ(s.report.status, PIVOT_SOLVE_INVALID_PROBLEM);
}

// ------------------------------------------------------------ friction index

// One contact on a diagonal A (rows decoupled): the normal impulse is
// x_0 = -b_0 / A_00 and each friction row x_i = mid(lo_i x_0, hi_i x_0,
// -b_i / A_ii), exactly.
TEST(LemkeSolver, FrictionIndexOnADiagonalProblemByHand) {
    PluginInstance solver = test::make_solver(kLemke);
    // rows: normal; symmetric friction sliding (at +mu x_0); symmetric
    // sticking; asymmetric at its lower bound; asymmetric inside.
    LcpProblem p = from_rows(5,
                             {2, 0, 0, 0, 0,  //
                              0, 1, 0, 0, 0,  //
                              0, 0, 1, 0, 0,  //
                              0, 0, 0, 4, 0,  //
                              0, 0, 0, 0, 1},
                             {-2.0, -3.0, 0.2, 2.0, -0.1});
    p.lo = {0.0, -0.5, -0.5, -0.1, -0.1};
    p.hi = {kInf, 0.5, 0.5, 0.6, 0.6};
    p.findex = {-1, 0, 0, 0, 0};
    const test::Solution s = test::solve(solver, p);
    ASSERT_TRUE(s.result.ok()) << s.result.message;
    const std::vector<double> expected = {1.0, 0.5, -0.2, -0.1, 0.1};
    for (uint32_t i = 0; i < 5; ++i) EXPECT_NEAR(s.x[i], expected[i], 1e-14) << "row " << i;
    EXPECT_LT(s.result.residual, 1e-14);
}

// A coupled problem whose solution is known: a block pushed sideways on a
// plane (rows normal, t1, t2 of one contact; A couples the normal and the
// friction rows as a contact off the centre of mass does). Checked against
// every sticking/sliding pattern by the natural-map residual, and against
// the Dantzig solver, which solves the friction index by its own pivoting.
TEST(LemkeSolver, FrictionIndexMatchesDantzigOnRandomContacts) {
    PluginInstance lemke = test::make_solver(kLemke);
    PluginInstance dantzig = test::make_solver("pivot.solver.dantzig");
    Random random(2026);
    int sliding = 0, sticking = 0;
    for (int trial = 0; trial < 200; ++trial) {
        // Contacts on one body: A = J M^-1 J' + eps I with random points,
        // normals near +z; a single body makes A's normal block small rank
        // when contacts > 2 (redundant), which is what contact manifolds are.
        const int contacts = 1 + trial % 4;
        const uint32_t n = static_cast<uint32_t>(3 * contacts);
        Eigen::MatrixXd j(n, 6);
        for (int c = 0; c < contacts; ++c) {
            const Eigen::Vector3d point(random.uniform(-0.5, 0.5), random.uniform(-0.5, 0.5), -0.2);
            const Eigen::Vector3d normal =
                Eigen::Vector3d(random.uniform(-0.2, 0.2), random.uniform(-0.2, 0.2), 1.0).normalized();
            const Eigen::Vector3d t1 = normal.unitOrthogonal();
            const Eigen::Vector3d t2 = normal.cross(t1);
            const Eigen::Vector3d dirs[3] = {normal, t1, t2};
            for (int r = 0; r < 3; ++r) {
                j.block<1, 3>(3 * c + r, 0) = dirs[r].transpose();
                j.block<1, 3>(3 * c + r, 3) = point.cross(dirs[r]).transpose();
            }
        }
        Eigen::VectorXd inverse_mass(6);
        inverse_mass << 1.0, 1.0, 1.0, 6.0, 6.0, 6.0;
        Eigen::MatrixXd a = j * inverse_mass.asDiagonal() * j.transpose();
        a.diagonal().array() += 1e-6 * a.diagonal().mean();
        Eigen::VectorXd velocity(6);
        for (int k = 0; k < 6; ++k) velocity[k] = random.uniform(-1.0, 1.0);
        velocity[2] -= 1.0;  // approaching
        const Eigen::VectorXd b = j * velocity;
        std::vector<double> dense(a.data(), a.data() + a.size());
        LcpProblem p = LcpProblem::standard(n, dense, std::vector<double>(b.data(), b.data() + n));
        const double mu = random.uniform(0.1, 1.0);
        p.findex.assign(n, -1);
        for (int c = 0; c < contacts; ++c) {
            for (int r = 1; r < 3; ++r) {
                p.lo[3 * c + r] = -mu;
                p.hi[3 * c + r] = mu;
                p.findex[3 * c + r] = 3 * c;
            }
        }
        const test::Solution s = test::solve(lemke, p);
        ASSERT_TRUE(s.result.ok()) << "trial " << trial << ": " << s.result.message;
        EXPECT_LT(s.result.residual, 1e-10) << "trial " << trial;
        // The contact wrench J' x is unique where the solution is (it is for
        // one contact: A positive definite); redundant contacts share it.
        const test::Solution d = test::solve(dantzig, p);
        ASSERT_TRUE(d.result.ok()) << "trial " << trial << ": " << d.result.message;
        const Eigen::VectorXd wrench_lemke = j.transpose() * Eigen::Map<const Eigen::VectorXd>(s.x.data(), n);
        const Eigen::VectorXd wrench_dantzig = j.transpose() * Eigen::Map<const Eigen::VectorXd>(d.x.data(), n);
        if (contacts == 1) {
            EXPECT_LT((wrench_lemke - wrench_dantzig).norm(), 1e-8 * (1.0 + wrench_dantzig.norm())) << trial;
        }
        for (int c = 0; c < contacts; ++c) {
            const double friction = std::max(std::abs(s.x[3 * c + 1]), std::abs(s.x[3 * c + 2]));
            (friction > (mu - 1e-9) * s.x[3 * c] && s.x[3 * c] > 0 ? sliding : sticking) += 1;
        }
    }
    // Both regimes were exercised.
    EXPECT_GT(sliding, 20);
    EXPECT_GT(sticking, 20);
}

TEST(LemkeSolver, FrictionIndexToAFixedRowIsAConstantBox) {
    // Row 0 fixed at 2: row 1's bounds are +-0.5 * 2 = +-1.
    PluginInstance solver = test::make_solver(kLemke);
    LcpProblem p = from_rows(2, {1, 0, 0, 1}, {0.0, -3.0});
    p.lo = {2.0, -0.5};
    p.hi = {2.0, 0.5};
    p.findex = {-1, 0};
    const test::Solution s = test::solve(solver, p);
    ASSERT_TRUE(s.result.ok()) << s.result.message;
    EXPECT_EQ(s.x[0], 2.0);
    EXPECT_NEAR(s.x[1], 1.0, 1e-15);
}

TEST(LemkeSolver, FrictionIndexToARowOfEitherSignIsUnsupported) {
    // |x_0| of a free row is not linear: refused, naming the rows.
    PluginInstance solver = test::make_solver(kLemke);
    LcpProblem p = from_rows(2, {2, 0, 0, 2}, {-1.0, 1.0});
    p.lo = {-kInf, -0.5};
    p.hi = {kInf, 0.5};
    p.findex = {-1, 0};
    const test::Solution s = test::solve(solver, p);
    EXPECT_FALSE(s.result.ok());
    EXPECT_EQ(s.report.status, PIVOT_SOLVE_UNSUPPORTED);
    EXPECT_NE(std::strstr(s.report.message, "row 1 has a friction index to row 0"), nullptr) << s.report.message;
}

// The last pivot of this problem (a 20 kg box sliding at 11 m/s on a 30
// degree incline: four contacts of the polyhedral cone with 8 facets, 40
// rows, dumped by `pivot run scenes/cone_friction.json --dump-lcp` at step
// 310) is degenerate: z0 ties with another row, which rounding made block
// 7e-12 of the scale earlier. Letting that row leave ended on a secondary
// ray after 16 pivots; exact rational arithmetic ends with z0 leaving and a
// solution, and so must the solver.
TEST(LemkeSolver, DegenerateLastPivotEndsWithASolution) {
    PluginInstance solver = test::make_solver(kLemke);
    const LcpProblem p = read_lcp_file(test::data_dir() / "lemke" / "cone_box_sliding_degenerate_end.txt");
    const test::Solution s = test::solve(solver, p);
    ASSERT_TRUE(s.result.ok()) << s.result.message;
    EXPECT_LT(s.result.residual, 1e-12);
    EXPECT_EQ(s.report.iterations, 16u);
}

TEST(LemkeSolver, ToleranceNotReachedIsANumericalErrorNotAFakeSolution) {
    // tolerance = 1e-300 cannot be met by a floating-point solve of a
    // 50-row problem (residual ~1e-15): after refinement the solver must
    // say so instead of returning the point as a solution. Its answer is
    // usable (PIVOT_WARNING, plugin_solver.h): the host judges it by its
    // own residual.
    PluginInstance solver = test::make_solver(kLemke, {{"tolerance", 1e-300}});
    const LcpProblem p = read_lcp_file(test::data_dir() / "lcp-bench" / "lcp_nc050_normal.txt");
    test::Solution s = test::solve(solver, p);
    EXPECT_EQ(s.result.status, PIVOT_WARNING) << s.result.message;
    EXPECT_EQ(s.report.status, PIVOT_SOLVE_NUMERICAL_ERROR);
    EXPECT_LT(s.result.residual, 1e-10);
    EXPECT_NE(std::strstr(s.report.message, "refinement"), nullptr) << s.report.message;
}

TEST(LemkeSolver, TimeBudgetStopsWithoutASolution) {
    // The pivot loop's clock, on the cold path (crash_sweeps = 0: the crash
    // guess's own clock check is TimeBudgetIsCheckedWhileGuessingTheCrashBasis).
    PluginInstance solver = test::make_solver(kLemke, {{"crash_sweeps", 0}});
    const LcpProblem p = read_lcp_file(test::data_dir() / "lcp-bench" / "lcp_nc333_normal.txt");
    // 1 ns: exceeded at the first clock check (every 8 pivots; the problem
    // needs ~190).
    test::Solution s = test::solve(solver, p, nullptr, 1e-9);
    EXPECT_FALSE(s.result.ok());
    EXPECT_EQ(s.report.status, PIVOT_SOLVE_TIME_BUDGET);
    EXPECT_LT(s.report.iterations, 190u);
}

TEST(LemkeSolver, EmptyProblem) {
    PluginInstance solver = test::make_solver(kLemke);
    test::Solution s = test::solve(solver, LcpProblem::standard(0, {}, {}));
    ASSERT_TRUE(s.result.ok()) << s.result.message;
    EXPECT_EQ(s.report.status, PIVOT_SOLVE_CONVERGED);
}

// ---------------------------------------------------------------- boxed rows

TEST(LemkeSolver, EachBoundTypeOnADiagonalProblem) {
    // A = 2 I decouples the rows: x_i = mid(l_i, u_i, -b_i / 2) exactly.
    // Every row type in every state it has.
    struct Row {
        double lo, hi, b;
        const char* what;
    };
    const std::vector<Row> rows = {
        {-1.0, kInf, 4.0, "lower only, at the bound"},
        {-1.0, kInf, -4.0, "lower only, above it"},
        {-kInf, 2.0, -6.0, "upper only, at the bound"},
        {-kInf, 2.0, 2.0, "upper only, below it"},
        {-0.5, 0.5, 3.0, "box, at lower"},
        {-0.5, 0.5, -3.0, "box, at upper"},
        {-0.5, 0.5, 0.4, "box, between"},
        {0.3, 0.3, 5.0, "fixed"},
        {-kInf, kInf, 3.0, "free"},
        {0.0, kInf, -2.0, "standard"},
    };
    const auto n = static_cast<uint32_t>(rows.size());
    std::vector<double> a(n * n, 0.0);
    std::vector<double> b(n);
    std::vector<double> lo(n);
    std::vector<double> hi(n);
    for (uint32_t i = 0; i < n; ++i) {
        a[i * n + i] = 2.0;
        b[i] = rows[i].b;
        lo[i] = rows[i].lo;
        hi[i] = rows[i].hi;
    }
    PluginInstance solver = test::make_solver(kLemke);
    test::Solution s = test::solve(solver, boxed_from_rows(n, a, b, lo, hi));
    ASSERT_TRUE(s.result.ok()) << s.result.message;
    for (uint32_t i = 0; i < n; ++i) {
        const double expected = std::min(rows[i].hi, std::max(rows[i].lo, -rows[i].b / 2.0));
        // Halving and adding small binary fractions: exact up to one rounding.
        EXPECT_NEAR(s.x[i], expected, 1e-15) << rows[i].what;
    }
    EXPECT_LE(s.result.residual, 1e-15);
}

// A 6 x 6 symmetric positive definite matrix with couplings (strictly
// diagonally dominant), for the boxed tests against enumeration.
const std::vector<double> kCoupled = {
    5.0, 1.0, -1.0, 0.5, 0.0, 1.0,   //
    1.0, 4.0, 1.0, 0.0, -0.5, 0.5,   //
    -1.0, 1.0, 6.0, 1.0, 1.0, 0.0,   //
    0.5, 0.0, 1.0, 3.0, 0.5, -0.5,   //
    0.0, -0.5, 1.0, 0.5, 4.0, 1.0,   //
    1.0, 0.5, 0.0, -0.5, 1.0, 5.0,   //
};

TEST(LemkeSolver, CoupledBoxedProblemsMatchEnumeration) {
    // Every row type with couplings through A, many right-hand sides so that
    // each row is seen at each of its states; the enumeration of all 3^6
    // state assignments is the independent reference (unique: A is
    // positive definite).
    const uint32_t n = 6;
    const std::vector<std::vector<double>> bounds = {
        {0.0, kInf},    // standard
        {-1.0, kInf},   // lower only
        {-kInf, 0.5},   // upper only
        {-0.5, 0.8},    // box
        {-kInf, kInf},  // free (eliminated by the Schur complement)
        {0.25, 0.25},   // fixed
    };
    std::vector<double> lo(n);
    std::vector<double> hi(n);
    for (uint32_t i = 0; i < n; ++i) {
        lo[i] = bounds[i][0];
        hi[i] = bounds[i][1];
    }
    PluginInstance solver = test::make_solver(kLemke);
    Random random(7);
    std::map<std::string, int> states_seen;
    for (int trial = 0; trial < 60; ++trial) {
        std::vector<double> b(n);
        for (double& v : b) v = random.uniform(-6.0, 6.0);
        // Rotate the row types through the rows, so that each type meets
        // different couplings.
        std::vector<double> lo_t(n);
        std::vector<double> hi_t(n);
        for (uint32_t i = 0; i < n; ++i) {
            lo_t[i] = lo[(i + static_cast<uint32_t>(trial)) % n];
            hi_t[i] = hi[(i + static_cast<uint32_t>(trial)) % n];
        }
        const LcpProblem p = boxed_from_rows(n, kCoupled, b, lo_t, hi_t);
        const std::vector<Eigen::VectorXd> reference = enumerate_boxed(p);
        ASSERT_EQ(reference.size(), 1u);
        test::Solution s = test::solve(solver, p);
        ASSERT_TRUE(s.result.ok()) << s.result.message;
        // Condition number of A below 10: errors ~1e-15 on values of order 1.
        expect_vector_near(s.x, reference[0], 1e-12, "trial " + std::to_string(trial));
        EXPECT_LE(s.result.residual, 1e-13);
        for (uint32_t i = 0; i < n; ++i) {
            const std::string type = std::to_string(lo_t[i]) + "," + std::to_string(hi_t[i]);
            const double x = s.x[i];
            const char* state = x <= lo_t[i] + 1e-12 ? "lower" : (x >= hi_t[i] - 1e-12 ? "upper" : "between");
            ++states_seen[type + ":" + state];
        }
    }
    // The right-hand sides did exercise every state of every bounded type.
    for (const char* state : {"lower", "between"}) {
        EXPECT_GT((states_seen["0.000000,inf:" + std::string(state)]), 0) << state;
        EXPECT_GT((states_seen["-1.000000,inf:" + std::string(state)]), 0) << state;
        EXPECT_GT((states_seen["-0.500000,0.800000:" + std::string(state)]), 0) << state;
    }
    EXPECT_GT(states_seen["-inf,0.500000:upper"], 0);
    EXPECT_GT(states_seen["-inf,0.500000:between"], 0);
    EXPECT_GT(states_seen["-0.500000,0.800000:upper"], 0);
}

TEST(LemkeSolver, FreeRowsWithASingularBlockKeepTheirIndependentRows) {
    // Rows 0 and 1 free with A_FF = [1 1; 1 1] singular: the Schur
    // complement of A_FF does not exist; the rank-revealing elimination keeps
    // row 0 and drops row 1 (x1 = 0, its w1 = 0 holds because b is
    // consistent). A = [1 1 0; 1 1 0; 0 0 1] is positive semidefinite and
    // b = (-1, -1, 1): the solutions are x0 + x1 = 1, x2 = 0.
    PluginInstance solver = test::make_solver(kLemke);
    const LcpProblem p = boxed_from_rows(3, {1, 1, 0, 1, 1, 0, 0, 0, 1}, {-1.0, -1.0, 1.0}, {-kInf, -kInf, 0.0},
                                         {kInf, kInf, kInf});
    test::Solution s = test::solve(solver, p);
    ASSERT_TRUE(s.result.ok()) << s.result.message;
    EXPECT_NEAR(s.x[0] + s.x[1], 1.0, 1e-15);
    EXPECT_EQ(s.x[1], 0.0);
    EXPECT_EQ(s.x[2], 0.0);
    EXPECT_LE(s.result.residual, 1e-15);
}

// Regression (the redundant slider-crank of tests/physics): two identical
// bilateral rows, as two joints constraining the same direction, coupled to
// a contact. The free rows used to be doubled (x = p - m), an LCP solvable
// only for b exactly in A's range: off by rounding, Lemke's method ended in
// ray termination. Now the dependent row is dropped (x1 = 0) and its
// equation checked afterwards.
TEST(LemkeSolver, IdenticalBilateralRowsAreSolvedOrReportedInconsistent) {
    PluginInstance solver = test::make_solver(kLemke);
    const std::vector<double> rows = {2, 2, 1, 2, 2, 1, 1, 1, 2};
    const std::vector<double> lo = {-kInf, -kInf, 0.0};
    const std::vector<double> hi = {kInf, kInf, kInf};
    // With t = x0 + x1: w0 = w1 = 2 t + x2 + b0, w2 = t + 2 x2 + b2.
    struct Case {
        double b1_offset;  // b1 - b0: 0 exact, 1e-14 rounding
        double b2;
        double t;   // expected x0 + x1
        double x2;  // expected contact impulse
    };
    for (const Case& c : {Case{0.0, 1.0, 1.0, 0.0}, Case{0.0, -4.0, 0.0, 2.0}, Case{1e-14, 1.0, 1.0, 0.0},
                          Case{-1e-14, -4.0, 0.0, 2.0}}) {
        const LcpProblem p = boxed_from_rows(3, rows, {-2.0, -2.0 + c.b1_offset, c.b2}, lo, hi);
        const test::Solution s = test::solve(solver, p);
        const std::string label = "b1 - b0 = " + std::to_string(c.b1_offset) + ", b2 = " + std::to_string(c.b2);
        ASSERT_TRUE(s.result.ok()) << label << ": " << s.result.message;
        EXPECT_EQ(s.report.status, PIVOT_SOLVE_CONVERGED) << label << ": " << s.report.message;
        EXPECT_NEAR(s.x[0] + s.x[1], c.t, 1e-13) << label;
        EXPECT_NEAR(s.x[2], c.x2, 1e-13) << label;
        EXPECT_EQ(s.x[1], 0.0) << label;  // the dependent row's impulse
        EXPECT_LE(s.result.residual, 1e-13) << label;
        EXPECT_NEAR(s.report.residual, s.result.residual, 1e-15) << label;
    }
    // Inconsistent: the two rows ask for different velocities (b0 = -2,
    // b1 = -1). No x has w0 = w1 = 0; the best Lemke finds leaves |w1| = 1,
    // and it must say so, not return it as a solution.
    for (const double b2 : {1.0, -4.0}) {
        const LcpProblem p = boxed_from_rows(3, rows, {-2.0, -1.0, b2}, lo, hi);
        const test::Solution s = test::solve(solver, p);
        EXPECT_FALSE(s.result.ok()) << "b2 = " << b2;
        EXPECT_EQ(s.report.status, PIVOT_SOLVE_INFEASIBLE) << s.report.message;
        EXPECT_NEAR(s.report.residual, 1.0, 1e-12);
        EXPECT_NE(std::string(s.report.message).find("inconsistent"), std::string::npos) << s.report.message;
    }
}

TEST(LemkeSolver, DependentFreeRowCoupledToTheOthersIsDoubled) {
    // Row 0 free with A_00 = 0 but a non-symmetric coupling to row 1
    // (w0 = x1 + b0): not redundant, its equation fixes x1 = -b0, so it
    // cannot be dropped; the rank-revealing elimination sees the coupling
    // and the free row is doubled as before. Row 1 standard:
    // w1 = -x0 + x1 + b1 = 0 with x1 = 2 > 0 gives x0 = 3.
    PluginInstance solver = test::make_solver(kLemke);
    const LcpProblem p = boxed_from_rows(2, {0, 1, -1, 1}, {-2.0, 1.0}, {-kInf, 0.0}, {kInf, kInf});
    const test::Solution s = test::solve(solver, p);
    ASSERT_TRUE(s.result.ok()) << s.result.message;
    EXPECT_NEAR(s.x[0], 3.0, 1e-13);
    EXPECT_NEAR(s.x[1], 2.0, 1e-13);
    // The same with a second, regular free row first (x0 = 1): row 1's
    // Schur pivot is 0, but its row still couples to row 2 (w1 = x2 - 2),
    // so dropping it would be wrong. w2 = -x1 + x2 + 1 = 0: x1 = 3.
    const LcpProblem q = boxed_from_rows(3, {1, 0, 0, 0, 0, 1, 0, -1, 1}, {-1.0, -2.0, 1.0}, {-kInf, -kInf, 0.0},
                                         {kInf, kInf, kInf});
    const test::Solution t = test::solve(solver, q);
    ASSERT_TRUE(t.result.ok()) << t.result.message;
    EXPECT_NEAR(t.x[0], 1.0, 1e-13);
    EXPECT_NEAR(t.x[1], 3.0, 1e-13);
    EXPECT_NEAR(t.x[2], 2.0, 1e-13);
}

TEST(LemkeSolver, FreeRowsWithANonSymmetricCoupling) {
    // A mixed LCP with a non-symmetric equality block (a joint row coupled
    // to a contact), against enumeration: A = [3 1 0; -1 2 1; 0 1 2] has a
    // positive definite symmetric part, so the solution is unique.
    PluginInstance solver = test::make_solver(kLemke);
    for (double b2 : {-3.0, 3.0}) {
        const LcpProblem p = boxed_from_rows(3, {3, 1, 0, -1, 2, 1, 0, 1, 2}, {1.0, -2.0, b2}, {-kInf, -kInf, 0.0},
                                             {kInf, kInf, kInf});
        const std::vector<Eigen::VectorXd> reference = enumerate_boxed(p);
        ASSERT_EQ(reference.size(), 1u);
        test::Solution s = test::solve(solver, p);
        ASSERT_TRUE(s.result.ok()) << s.result.message;
        expect_vector_near(s.x, reference[0], 1e-14, "b2 = " + std::to_string(b2));
    }
}

// ---------------------------------------------------------------- ABI details

TEST(LemkeSolver, PaddedLeadingDimensionIsRespected) {
    // lda > n with NaN in the padding: the solver must read A(i, j) =
    // dense[i + j lda] and nothing else.
    const LcpProblem packed = read_lcp_file(test::data_dir() / "lcp-bench" / "lcp_nc010_normal.txt");
    const uint32_t n = packed.n;
    const uint32_t lda = n + 3;
    std::vector<double> padded(static_cast<size_t>(lda) * n, std::nan(""));
    for (uint32_t j = 0; j < n; ++j) {
        for (uint32_t i = 0; i < n; ++i) padded[i + static_cast<size_t>(j) * lda] = entry(packed, i, j);
    }
    pivot_lcp_problem view = packed.view();
    view.dense = padded.data();
    view.lda = lda;
    PluginInstance solver = test::make_solver(kLemke);
    std::vector<double> x(n, 0.0);
    std::vector<double> w(n, 0.0);
    pivot_solve_options options{sizeof(options), 0, 0.0};
    pivot_solve_report report{};
    const SolveResult result = checked_solve(solver, view, options, unguarded(x.data()), unguarded(w.data()), report);
    ASSERT_TRUE(result.ok()) << result.message;
    const test::Solution reference = test::solve(solver, packed);
    EXPECT_EQ(x, reference.x);
}

TEST(LemkeSolver, DeterministicAcrossSolvesInstancesAndClones) {
    // The cold path (crash_sweeps = 0: 116 pivots on nc200_normal, which the
    // crash solves in 0) and the crash path with pivots (nc050_fric).
    for (const auto& [file, sweeps] : {std::pair{"lcp_nc200_normal.txt", 0}, std::pair{"lcp_nc050_fric.txt", 100}}) {
        const LcpProblem p = read_lcp_file(test::data_dir() / "lcp-bench" / file);
        PluginInstance first = test::make_solver(kLemke, {{"crash_sweeps", sweeps}});
        PluginInstance second = test::make_solver(kLemke, {{"crash_sweeps", sweeps}});
        const test::Solution a = test::solve(first, p);
        const test::Solution b = test::solve(first, p);
        const test::Solution c = test::solve(second, p);
        PluginInstance copy = first.clone();
        const test::Solution d = test::solve(copy, p);
        ASSERT_TRUE(a.result.ok()) << file << ": " << a.result.message;
        EXPECT_GT(a.report.iterations, 0u) << file << ": the path under test has pivots";
        for (const test::Solution* other : {&b, &c, &d}) {
            EXPECT_EQ(std::memcmp(a.x.data(), other->x.data(), a.x.size() * sizeof(double)), 0) << file;
            EXPECT_EQ(a.report.iterations, other->report.iterations) << file;
            EXPECT_EQ(std::memcmp(&a.report.residual, &other->report.residual, sizeof(double)), 0) << file;
        }
    }
}

TEST(LemkeSolver, RefactorIntervalChangesRoundingOnly) {
    // Refactorizing at every pivot (no eta) and never, or every 7 (etas on
    // the singleton and doubleton eliminations of a crash basis), must
    // follow the same pivot path to the same solution: the cold path on
    // nc200_normal (crash_sweeps = 0) and the crash path on nc050_fric.
    for (const auto& [file, sweeps] : {std::pair{"lcp_nc200_normal.txt", 0}, std::pair{"lcp_nc050_fric.txt", 100}}) {
        const LcpProblem p = read_lcp_file(test::data_dir() / "lcp-bench" / file);
        PluginInstance always = test::make_solver(kLemke, {{"refactor_interval", 1}, {"crash_sweeps", sweeps}});
        PluginInstance never = test::make_solver(kLemke, {{"refactor_interval", 10000}, {"crash_sweeps", sweeps}});
        PluginInstance seven = test::make_solver(kLemke, {{"refactor_interval", 7}, {"crash_sweeps", sweeps}});
        const test::Solution a = test::solve(always, p);
        const test::Solution b = test::solve(never, p);
        const test::Solution c = test::solve(seven, p);
        ASSERT_TRUE(a.result.ok()) << file << ": " << a.result.message;
        ASSERT_TRUE(b.result.ok()) << file << ": " << b.result.message;
        ASSERT_TRUE(c.result.ok()) << file << ": " << c.result.message;
        EXPECT_GT(a.report.iterations, 1u) << file << ": the path under test has pivots";
        EXPECT_EQ(a.report.iterations, b.report.iterations) << file;
        EXPECT_EQ(a.report.iterations, c.report.iterations) << file;
        // Solutions of order 1-10 from well-conditioned bases: agreement to
        // ~1e-14; 1e-11 leaves room for the condition of the largest basis.
        for (uint32_t i = 0; i < p.n; ++i) {
            EXPECT_NEAR(a.x[i], b.x[i], 1e-11) << file << " " << i;
            EXPECT_NEAR(a.x[i], c.x[i], 1e-11) << file << " " << i;
        }
    }
}

// ---------------------------------------------------------------- lcp-bench

double median_solve_seconds(const PluginInstance& solver, const LcpProblem& p, int repetitions,
                            test::Solution& last) {
    std::vector<double> seconds;
    for (int k = 0; k < repetitions; ++k) {
        last = test::solve(solver, p);
        seconds.push_back(last.report.time_seconds);
    }
    std::sort(seconds.begin(), seconds.end());
    return seconds[seconds.size() / 2];
}

TEST(LemkeSolver, LcpBenchNormalProblems) {
    // The frictionless contact problems (A = J M^-1 J' + eps I, symmetric
    // positive definite): Lemke's method must solve each, with the host's
    // residual below 1e-8. Times are printed, not checked.
    PluginInstance solver = test::make_solver(kLemke);
    for (const char* name :
         {"lcp_nc010_normal.txt", "lcp_nc050_normal.txt", "lcp_nc200_normal.txt", "lcp_nc333_normal.txt"}) {
        const LcpProblem p = read_lcp_file(test::data_dir() / "lcp-bench" / name);
        test::Solution s;
        const double seconds = median_solve_seconds(solver, p, 5, s);
        ASSERT_TRUE(s.result.ok()) << name << ": " << s.result.message;
        EXPECT_LT(s.result.residual, 1e-8) << name;
        std::printf("[ lemke    ] %s: n = %u, %u pivots, %.3f ms (median of 5), residual %.2e\n", name, p.n,
                    s.report.iterations, seconds * 1e3, s.result.residual);
    }
}

TEST(LemkeSolver, LcpBenchFrictionProblemsWithFixedBounds) {
    // The friction files without their friction index: first with the
    // friction rows fixed at 0 (fixed rows leave the problem: the normal
    // solution), then with the bounds +-mu |x_normal| that a host iterating
    // the friction index would pass next (boxed rows at scale).
    PluginInstance solver = test::make_solver(kLemke);
    for (const char* name : {"lcp_nc050_fric.txt", "lcp_nc200_fric.txt"}) {
        const LcpProblem original = read_lcp_file(test::data_dir() / "lcp-bench" / name);
        LcpProblem p = original;
        p.findex.clear();
        for (uint32_t i = 0; i < p.n; ++i) {
            if (original.findex[i] >= 0) p.lo[i] = p.hi[i] = 0.0;
        }
        const test::Solution normal = test::solve(solver, p);
        ASSERT_TRUE(normal.result.ok()) << name << ": " << normal.result.message;
        EXPECT_LT(normal.result.residual, 1e-8) << name;
        for (uint32_t i = 0; i < p.n; ++i) {
            const int32_t j = original.findex[i];
            if (j < 0) continue;
            p.lo[i] = original.lo[i] * std::abs(normal.x[j]);
            p.hi[i] = original.hi[i] * std::abs(normal.x[j]);
        }
        test::Solution s;
        const double seconds = median_solve_seconds(solver, p, 3, s);
        ASSERT_TRUE(s.result.ok()) << name << ": " << s.result.message;
        EXPECT_LT(s.result.residual, 1e-8) << name;
        std::printf("[ lemke    ] %s with bounds fixed: n = %u, %u pivots, %.3f ms, residual %.2e\n", name, p.n,
                    s.report.iterations, seconds * 1e3, s.result.residual);
    }
}

TEST(LemkeSolver, LcpBenchFrictionProblemsWithTheFrictionIndex) {
    // Every friction problem of lcp-bench (up to 999 rows) solved exactly in
    // one run of Lemke's method on the polyhedral LCP (issue 16: natural-map
    // residual <= 1e-8; no outer iteration of the bounds). Times printed.
    PluginInstance solver = test::make_solver(kLemke);
    for (const char* name :
         {"lcp_nc010_fric.txt", "lcp_nc050_fric.txt", "lcp_nc200_fric.txt", "lcp_nc333_fric.txt"}) {
        const LcpProblem p = read_lcp_file(test::data_dir() / "lcp-bench" / name);
        const auto start = std::chrono::steady_clock::now();
        const test::Solution s = test::solve(solver, p);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        ASSERT_TRUE(s.result.ok()) << name << ": " << s.result.message;
        EXPECT_LT(s.result.residual, 1e-8) << name;
        std::printf("[ lemke    ] %s with its friction index: n = %u, %u pivots, %.1f ms, residual %.2e\n", name, p.n,
                    s.report.iterations, seconds * 1e3, s.result.residual);
    }
}

TEST(LemkeSolver, CrashStartAndColdStartBothSolveTheFrictionProblems) {
    // crash_sweeps = 0: Lemke's method from B = I (covering vector e), the
    // path of the published examples; the default: from the complementary
    // basis guessed by projected Gauss-Seidel sweeps (covering vector B 1),
    // with the cold start as fallback. Both must be exact; from a guess the
    // path is much shorter (lcp-bench nc050_fric: 417 pivots cold, 36 crash).
    PluginInstance cold = test::make_solver(kLemke, {{"crash_sweeps", 0}});
    PluginInstance crash = test::make_solver(kLemke);
    for (const char* name : {"lcp_nc010_fric.txt", "lcp_nc050_fric.txt", "lcp_nc200_normal.txt"}) {
        const LcpProblem p = read_lcp_file(test::data_dir() / "lcp-bench" / name);
        const test::Solution a = test::solve(cold, p);
        const test::Solution b = test::solve(crash, p);
        ASSERT_TRUE(a.result.ok()) << name << ": " << a.result.message;
        ASSERT_TRUE(b.result.ok()) << name << ": " << b.result.message;
        EXPECT_LT(a.result.residual, 1e-8) << name;
        EXPECT_LT(b.result.residual, 1e-8) << name;
        EXPECT_LT(b.report.iterations, a.report.iterations) << name;
        std::printf("[ lemke    ] %s: cold start %u pivots, crash start %u pivots\n", name, a.report.iterations,
                    b.report.iterations);
    }
}

TEST(LemkeSolver, TimeBudgetIsCheckedWhileGuessingTheCrashBasis) {
    // The Gauss-Seidel sweeps of the guess (1100 of them on 999 rows, ~0.1 s)
    // check the clock too: a budget already spent stops there, with x inside
    // its bounds and no pivot.
    PluginInstance solver = test::make_solver(kLemke);
    const LcpProblem p = read_lcp_file(test::data_dir() / "lcp-bench" / "lcp_nc333_fric.txt");
    test::Solution s = test::solve(solver, p, nullptr, 1e-9);
    EXPECT_FALSE(s.result.ok());
    EXPECT_EQ(s.report.status, PIVOT_SOLVE_TIME_BUDGET);
    EXPECT_EQ(s.report.iterations, 0u);
    for (uint32_t i = 0; i < p.n; ++i) {
        ASSERT_TRUE(std::isfinite(s.x[i])) << i;
        EXPECT_GE(s.x[i], p.lo[i]) << i;
        EXPECT_LE(s.x[i], p.hi[i]) << i;
    }
}

TEST(LemkeSolver, CrashStartIsDeterministic) {
    // The guess (Gauss-Seidel in a fixed order) and the fallbacks are
    // deterministic: the same x, bit for bit, solve after solve.
    PluginInstance solver = test::make_solver(kLemke);
    const LcpProblem p = read_lcp_file(test::data_dir() / "lcp-bench" / "lcp_nc050_fric.txt");
    const test::Solution a = test::solve(solver, p);
    const test::Solution b = test::solve(solver, p);
    ASSERT_TRUE(a.result.ok()) << a.result.message;
    EXPECT_EQ(a.report.iterations, b.report.iterations);
    EXPECT_EQ(0, std::memcmp(a.x.data(), b.x.data(), a.x.size() * sizeof(double)));
}

TEST(LemkeSolver, WarmStartCrashesInFewerPivotsToTheSameSolution) {
    // The host's warm start is where the guess's sweeps start (WARM_START
    // since 1.3): from the solution (a step that repeats) the guessed basis
    // is the solution's and the crash ends at once; from a point near it (a
    // step that changes a little: the solution scaled and shifted) in far
    // fewer pivots than from B = I. Either way the same solution as cold, to
    // rounding.
    PluginInstance solver = test::make_solver(kLemke);
    PluginInstance unit_basis = test::make_solver(kLemke, {{"crash_sweeps", 0}});
    for (const char* name : {"lcp_nc050_fric.txt", "lcp_nc200_fric.txt", "lcp_nc333_fric.txt"}) {
        const LcpProblem p = read_lcp_file(test::data_dir() / "lcp-bench" / name);
        const test::Solution cold = test::solve(solver, p);
        ASSERT_TRUE(cold.result.ok()) << name << ": " << cold.result.message;
        const test::Solution again = test::solve(solver, p, &cold.x);
        ASSERT_TRUE(again.result.ok()) << name << ": " << again.result.message;
        EXPECT_LT(again.result.residual, 1e-8) << name;
        EXPECT_LE(again.report.iterations, 2u) << name;
        std::vector<double> near = cold.x;
        for (size_t i = 0; i < near.size(); ++i) near[i] = 0.9 * near[i] + 1e-3 * static_cast<double>(i % 5);
        const test::Solution warm = test::solve(solver, p, &near);
        ASSERT_TRUE(warm.result.ok()) << name << ": " << warm.result.message;
        EXPECT_LT(warm.result.residual, 1e-8) << name;
        // From B = I (which ignores the warm start): 417 and 2077 pivots;
        // on nc333_fric 4107 (seconds: not repeated here).
        uint32_t unit_pivots = 4107;
        if (p.n < 999) {
            const test::Solution from_unit_basis = test::solve(unit_basis, p, &near);
            ASSERT_TRUE(from_unit_basis.result.ok()) << name << ": " << from_unit_basis.result.message;
            unit_pivots = from_unit_basis.report.iterations;
        }
        EXPECT_LT(warm.report.iterations, unit_pivots / 4) << name;
        double scale = 1.0;
        for (double v : cold.x) scale = std::max(scale, std::abs(v));
        for (uint32_t i = 0; i < p.n; ++i) {
            ASSERT_NEAR(again.x[i], cold.x[i], 1e-9 * scale) << name << ", x[" << i << "] from the solution";
            ASSERT_NEAR(warm.x[i], cold.x[i], 1e-9 * scale) << name << ", x[" << i << "] from near it";
        }
        std::printf("[ lemke    ] %s: cold %u pivots (%u from B = I), warm from the solution %u, from near it %u\n",
                    name, cold.report.iterations, unit_pivots, again.report.iterations,
                    warm.report.iterations);
    }
}

TEST(LemkeSolver, CrashThatFailsFallsBackToTheColdStart) {
    // Every row doubled (a duplicated contact): A = [B B; B B] is positive
    // semidefinite and singular. The sweeps share each impulse between the
    // two copies, so the guessed basis has both copies' columns, equal: it is
    // singular, both crash attempts fail before any pivot, and the cold start
    // from B = I solves the problem (copositive-plus M: the lexicographic
    // path ends with a solution), bit for bit as with crash_sweeps = 0.
    const uint32_t half = 35;
    const uint32_t n = 2 * half;
    Random random(2026);
    Eigen::MatrixXd g(half, half);
    for (Eigen::Index i = 0; i < g.size(); ++i) g.data()[i] = random.uniform(-1.0, 1.0);
    const Eigen::MatrixXd b_block = g * g.transpose() + 0.1 * Eigen::MatrixXd::Identity(half, half);
    Eigen::MatrixXd a(n, n);
    a << b_block, b_block, b_block, b_block;
    std::vector<double> b(n);
    for (uint32_t i = 0; i < half; ++i) b[i] = b[i + half] = random.uniform(-1.0, 0.5);
    const LcpProblem p = LcpProblem::standard(n, std::vector<double>(a.data(), a.data() + a.size()), b);
    PluginInstance crash = test::make_solver(kLemke);
    PluginInstance cold = test::make_solver(kLemke, {{"crash_sweeps", 0}});
    const test::Solution s = test::solve(crash, p);
    const test::Solution reference = test::solve(cold, p);
    ASSERT_TRUE(s.result.ok()) << s.result.message;
    EXPECT_LT(s.result.residual, 1e-8);
    EXPECT_GT(s.report.iterations, 0u);
    EXPECT_EQ(s.report.iterations, reference.report.iterations);
    EXPECT_EQ(0, std::memcmp(s.x.data(), reference.x.data(), s.x.size() * sizeof(double)));
    std::printf("[ lemke    ] doubled rows, n = %u: %u pivots (crash failed, cold start)\n", n, s.report.iterations);
}

}  // namespace
}  // namespace pivot
