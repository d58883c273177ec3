// The mass blocks' dense factorization (core/step/dense_cholesky.hpp): the
// factor reproduces the matrix (and a split block's is the whole's, bit for
// bit), and the kept inverse is the matrix's inverse, for a rigid body's
// split (v, w) block and dense blocks.
// Tolerances: a backward-stable Cholesky and its inverse leave relative
// errors of a few n eps cond(M); the matrices below have cond(M) < 1e3,
// so 1e-12 leaves a margin of ~100 above rounding and fails on any wrong
// index or dropped term (those give O(1) errors).
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "step/dense_cholesky.hpp"

namespace pivot {
namespace {

// A symmetric positive definite n x n matrix (column-major): B B^T + n I
// from a fixed pseudo-random B; `split` zeroes the coupling between the
// first three and the last n - 3 velocities (a rigid body's diag(m I, I_world)).
std::vector<double> spd_matrix(uint32_t n, bool split) {
    std::vector<double> b(n * n), m(n * n);
    for (uint32_t i = 0; i < n * n; ++i) b[i] = std::sin(1.7 * i + 0.3);
    for (uint32_t r = 0; r < n; ++r) {
        for (uint32_t c = 0; c < n; ++c) {
            double s = r == c ? n : 0.0;
            for (uint32_t k = 0; k < n; ++k) s += b[r + k * n] * b[c + k * n];
            m[r + c * n] = split && (r < 3) != (c < 3) ? 0.0 : s;
        }
    }
    return m;
}

double max_abs(const std::vector<double>& a) {
    double largest = 0.0;
    for (double x : a) largest = std::max(largest, std::abs(x));
    return largest;
}

struct Case {
    uint32_t n;
    bool split;
};

// The case's matrix m, its factor l and the kept inverse.
class DenseCholesky : public ::testing::TestWithParam<Case> {
protected:
    void SetUp() override {
        n = GetParam().n;
        m = spd_matrix(n, GetParam().split);
        l = m;
        inverse.assign(n * n, -1.0);
        ASSERT_TRUE(cholesky_factor(l.data(), n));
        cholesky_inverse_block(l.data(), n, inverse.data());
    }
    uint32_t n = 0;
    std::vector<double> m, l, inverse;
};

TEST_P(DenseCholesky, ProductReproducesTheMatrix) {
    std::vector<double> product(n * n);
    cholesky_product(l.data(), n, product.data());
    for (uint32_t i = 0; i < n * n; ++i) EXPECT_NEAR(product[i], m[i], 1e-12 * max_abs(m)) << i;
}

TEST_P(DenseCholesky, SplitFactorIsTheWholeFactor) {
    // A split 6 x 6 block factors as its halves: exactly the numbers of the
    // factorization of the whole (the coupling terms are exact zeros).
    std::vector<double> whole = m;
    ASSERT_TRUE(cholesky_factor(whole.data(), n, n));
    for (uint32_t c = 0; c < n; ++c) {
        for (uint32_t r = c; r < n; ++r) EXPECT_EQ(l[r + c * n], whole[r + c * n]) << r << ", " << c;
    }
}

TEST_P(DenseCholesky, InverseTimesMatrixIsIdentity) {
    const double scale = max_abs(m) * max_abs(inverse);
    for (uint32_t r = 0; r < n; ++r) {
        for (uint32_t c = 0; c < n; ++c) {
            double s = 0.0;
            for (uint32_t k = 0; k < n; ++k) s += m[r + k * n] * inverse[k + c * n];
            EXPECT_NEAR(s, r == c ? 1.0 : 0.0, 1e-12 * scale) << r << ", " << c;
            EXPECT_EQ(inverse[r + c * n], inverse[c + r * n]) << "symmetric, both triangles written";
        }
    }
}

TEST_P(DenseCholesky, InverseMultiplyAgreesWithTheSolve) {
    // x zero outside [first, last): a row's Jacobian on one element of a block.
    for (uint32_t first = 0; first < n; first += 2) {
        const uint32_t last = std::min(n, first + 3);
        std::vector<double> x(n, 0.0);
        for (uint32_t i = first; i < last; ++i) x[i] = std::cos(0.9 * i) + 0.5;
        std::vector<double> solved = x;
        cholesky_solve(l.data(), n, solved.data());
        inverse_multiply_block(inverse.data(), n, x.data(), first, last);
        for (uint32_t i = 0; i < n; ++i) EXPECT_NEAR(x[i], solved[i], 1e-12 * max_abs(solved)) << first << ": " << i;
    }
}

INSTANTIATE_TEST_SUITE_P(Blocks, DenseCholesky,
                         ::testing::Values(Case{3, false}, Case{6, false}, Case{6, true}, Case{9, false},
                                           Case{12, false}),
                         [](const ::testing::TestParamInfo<Case>& param_info) {
                             return "n" + std::to_string(param_info.param.n) + (param_info.param.split ? "_split" : "");
                         });

}  // namespace
}  // namespace pivot
