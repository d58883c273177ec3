// The plugin's sparse building blocks on their own (compiled into this test
// from solvers/pgs): the minimum-degree ordering is a permutation that
// reduces fill, and the LDU factorization in that order solves K v = r for
// symmetric and unsymmetric values on a symmetric pattern, including the
// storage compaction of the ordering on dense patterns.
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "contact_problem_generator.hpp"
#include "minimum_degree_ordering.hpp"
#include "sparse_ldu.hpp"

namespace pivot::test {
namespace {

// A sparse n x n matrix with a symmetric pattern, both as CSC with its
// diagonal (for the factorization) and as the off-diagonal pattern.
struct Sparse {
    int32_t n = 0;
    std::vector<double> dense;  // column-major, the reference
    std::vector<int32_t> start, rows;  // CSC with diagonal
    std::vector<double> values;
    std::vector<int32_t> t_start, t_rows;  // transpose
    std::vector<double> t_values;
    std::vector<int32_t> p_start, p_rows;  // pattern without diagonal
};

Sparse from_dense(int32_t n, const std::vector<double>& a) {
    Sparse s;
    s.n = n;
    s.dense = a;
    s.start.push_back(0);
    s.t_start.push_back(0);
    s.p_start.push_back(0);
    for (int32_t j = 0; j < n; ++j) {
        for (int32_t i = 0; i < n; ++i) {
            const double v = a[i + j * n];
            const double vt = a[j + i * n];
            if (v != 0.0 || vt != 0.0) {  // symmetric pattern
                s.rows.push_back(i);
                s.values.push_back(v);
                s.t_rows.push_back(i);
                s.t_values.push_back(vt);
                if (i != j) s.p_rows.push_back(i);
            }
        }
        s.start.push_back(static_cast<int32_t>(s.rows.size()));
        s.t_start.push_back(static_cast<int32_t>(s.t_rows.size()));
        s.p_start.push_back(static_cast<int32_t>(s.p_rows.size()));
    }
    return s;
}

// Random pattern of the given density, strictly diagonally dominant (so the
// factorization without pivoting is stable), symmetric or not.
Sparse random_matrix(int32_t n, double density, bool symmetric, std::mt19937_64& rng) {
    std::vector<double> a(static_cast<size_t>(n) * n, 0.0);
    for (int32_t j = 0; j < n; ++j) {
        for (int32_t i = j + 1; i < n; ++i) {
            if (uniform01(rng) >= density) continue;
            const double v = uniform(rng, -1.0, 1.0);
            a[i + j * n] = v;
            a[j + i * n] = symmetric ? v : uniform(rng, -1.0, 1.0);
        }
    }
    for (int32_t i = 0; i < n; ++i) {
        double off = 0.0;
        for (int32_t j = 0; j < n; ++j) off += j != i ? std::abs(a[i + j * n]) + std::abs(a[j + i * n]) : 0.0;
        a[i + i * n] = off + uniform(rng, 0.5, 2.0);
    }
    return from_dense(n, a);
}

// max_i |(K v - r)_i| / max |r|.
double relative_residual(const Sparse& k, const std::vector<double>& v, const std::vector<double>& r) {
    double worst = 0.0;
    double scale = 0.0;
    for (int32_t i = 0; i < k.n; ++i) {
        double s = -r[i];
        for (int32_t j = 0; j < k.n; ++j) s += k.dense[i + j * k.n] * v[j];
        worst = std::max(worst, std::abs(s));
        scale = std::max(scale, std::abs(r[i]));
    }
    return worst / scale;
}

void expect_permutation(const std::vector<int32_t>& order, int32_t n) {
    std::vector<int> seen(n, 0);
    for (int32_t k = 0; k < n; ++k) {
        ASSERT_GE(order[k], 0);
        ASSERT_LT(order[k], n);
        ++seen[order[k]];
    }
    for (int32_t i = 0; i < n; ++i) ASSERT_EQ(seen[i], 1) << "node " << i;
}

// Orders, factorizes and solves; returns the entries of L (or -1 on failure).
int64_t factor_and_solve(const Sparse& k, bool symmetric, std::vector<double>& v) {
    sparse::MinimumDegreeOrdering ordering;
    sparse::SparseLdu factor;
    ordering.reserve(k.n, k.p_start.back());
    std::vector<int32_t> order(k.n);
    if (!ordering.order(k.n, k.p_start.data(), k.p_rows.data(), order.data())) return -1;
    expect_permutation(order, k.n);
    factor.reserve(k.n, static_cast<int64_t>(k.n) * k.n);
    const int64_t entries = factor.analyze(k.n, k.p_start.data(), k.p_rows.data(), order.data());
    const bool ok = factor.factorize(k.p_start.data(), k.p_rows.data(), k.start.data(), k.rows.data(), k.values.data(),
                                     symmetric ? nullptr : k.t_start.data(), k.t_rows.data(), k.t_values.data());
    if (!ok) return -1;
    factor.solve(v.data());
    return entries;
}

// Double precision with diagonal dominance: the solve is backward stable, so
// the relative residual is a small multiple of n * 1e-16.
TEST(PgsSparseFactorization, SolvesRandomSystemsOfEverySize) {
    std::mt19937_64 rng(5);
    for (const bool symmetric : {true, false}) {
        for (const int32_t n : {1, 2, 3, 7, 20, 64, 150}) {
            for (const double density : {0.02, 0.1, 0.5, 1.0}) {  // 1.0: dense, compaction in the ordering
                const Sparse k = random_matrix(n, density, symmetric, rng);
                std::vector<double> r(n);
                for (double& x : r) x = uniform(rng, -1.0, 1.0);
                std::vector<double> v = r;
                ASSERT_GE(factor_and_solve(k, symmetric, v), 0) << n << " " << density;
                EXPECT_LE(relative_residual(k, v, r), 1e-12) << "n " << n << " density " << density
                                                             << (symmetric ? " symmetric" : " unsymmetric");
            }
        }
    }
}

// A 2D grid (5-point Laplacian + I), 30 x 30: in the natural order the factor
// fills the band (about n * 30 entries); minimum degree needs far fewer
// (about n log n). A broken ordering (say, the identity) would fail this.
TEST(PgsSparseFactorization, MinimumDegreeReducesFillOnAGrid) {
    const int32_t side = 30;
    const int32_t n = side * side;
    std::vector<double> a(static_cast<size_t>(n) * n, 0.0);
    for (int32_t y = 0; y < side; ++y) {
        for (int32_t x = 0; x < side; ++x) {
            const int32_t i = x + side * y;
            a[i + i * n] = 5.0;
            if (x + 1 < side) a[i + (i + 1) * n] = a[(i + 1) + i * n] = -1.0;
            if (y + 1 < side) a[i + (i + side) * n] = a[(i + side) + i * n] = -1.0;
        }
    }
    const Sparse k = from_dense(n, a);
    std::vector<double> r(n, 1.0);
    std::vector<double> v = r;
    const int64_t entries = factor_and_solve(k, true, v);
    ASSERT_GT(entries, 0);
    EXPECT_LT(entries, static_cast<int64_t>(n) * side / 2) << "natural order: about " << n * side;
    EXPECT_LE(relative_residual(k, v, r), 1e-12);
}

// A principal submatrix of a contact problem (every third row of a pile:
// normal rows), the kind of matrix the subspace step factorizes.
TEST(PgsSparseFactorization, SolvesAContactSubmatrix) {
    ContactPileSpec spec;
    spec.contacts = 120;
    spec.stack_columns = 3;
    const LcpProblem p = make_contact_pile(spec);
    LcpProblem dense = p;
    dense.make_dense();
    const int32_t m = static_cast<int32_t>(p.n / 3);
    std::vector<double> a(static_cast<size_t>(m) * m);
    for (int32_t j = 0; j < m; ++j) {
        for (int32_t i = 0; i < m; ++i) a[i + j * m] = dense.dense[3 * i + 3 * j * static_cast<size_t>(p.n)];
    }
    const Sparse k = from_dense(m, a);
    std::vector<double> r(m);
    std::mt19937_64 rng(2);
    for (double& x : r) x = uniform(rng, -1.0, 1.0);
    std::vector<double> v = r;
    ASSERT_GT(factor_and_solve(k, true, v), 0);
    // A is J M^-1 J^T + 1e-4 mean(diag) I: condition number up to ~1e5, so
    // the relative residual of a backward-stable solve is ~1e-11 at most.
    EXPECT_LE(relative_residual(k, v, r), 1e-10);
}

}  // namespace
}  // namespace pivot::test
