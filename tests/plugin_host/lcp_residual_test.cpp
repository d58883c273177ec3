// The host's natural-map residual: zero exactly at solutions of the boxed
// LCP with friction index, the same from the dense and the CSC matrix.
#include <array>
#include <cmath>

#include <gtest/gtest.h>

#include "plugin_host/lcp_residual.hpp"

namespace pivot {
namespace {

// 2 rows: a normal row and one friction row with mu = 0.5.
// A = [[2, 1], [1, 2]], b = [-2, 1]. At x = (x0, -0.5 x0) (friction at its
// lower bound): w0 = 2 x0 - 0.5 x0 - 2 = 0 -> x0 = 4/3; w1 = x0 - x0 + 1 = 1 >= 0,
// consistent with x1 at its lower bound. So x = (4/3, -2/3) is the solution.
struct Problem {
    std::array<double, 4> A = {2, 1, 1, 2};
    std::array<int32_t, 3> col_start = {0, 2, 4};
    std::array<int32_t, 4> row_index = {0, 1, 0, 1};
    std::array<double, 2> b = {-2, 1};
    std::array<double, 2> lo = {0, -0.5};
    std::array<double, 2> hi = {HUGE_VAL, 0.5};
    std::array<int32_t, 2> findex = {-1, 0};
    pivot_lcp_problem make(bool dense) {
        pivot_lcp_problem p{};
        p.struct_size = sizeof(p);
        p.n = 2;
        p.dense = dense ? A.data() : nullptr;
        p.lda = 2;
        p.nnz = 4;
        p.col_start = col_start.data();
        p.row_index = row_index.data();
        p.values = A.data();  // symmetric: CSC values equal the column-major dense ones
        p.b = b.data();
        p.lo = lo.data();
        p.hi = hi.data();
        p.findex = findex.data();
        return p;
    }
};

TEST(LcpResidual, ZeroAtTheSolutionDenseAndSparse) {
    Problem pr;
    for (bool dense : {true, false}) {
        const pivot_lcp_problem p = pr.make(dense);
        const std::array<double, 2> x = {4.0 / 3.0, -2.0 / 3.0};
        std::array<double, 2> w{};
        lcp_multiply(p, x.data(), w.data());
        EXPECT_NEAR(w[0], 0.0, 1e-15);
        EXPECT_NEAR(w[1], 1.0, 1e-15);
        EXPECT_NEAR(lcp_natural_map_residual(p, x.data(), w.data()), 0.0, 1e-15);
    }
}

TEST(LcpResidual, MeasuresTheDistanceFromASolution) {
    Problem pr;
    const pivot_lcp_problem p = pr.make(true);
    // Friction impulse fixed at mu times a wrong normal impulse (what a
    // Dantzig solver with frozen bounds returns): not a solution.
    const std::array<double, 2> x = {1.0, -0.5};
    std::array<double, 2> w{};
    lcp_multiply(p, x.data(), w.data());
    // w0 = 2 - 0.5 - 2 = -0.5: row 0 is interior-violating by 0.5.
    EXPECT_NEAR(lcp_natural_map_residual(p, x.data(), w.data()), 0.5, 1e-15);
}

TEST(LcpResidual, FrictionBoundsScaleWithTheNormalImpulse) {
    Problem pr;
    const pivot_lcp_problem p = pr.make(true);
    const std::array<double, 2> x = {2.0, 0.0};
    double lower = 0.0;
    double upper = 0.0;
    lcp_row_bounds(p, x.data(), 1, lower, upper);
    EXPECT_DOUBLE_EQ(lower, -1.0);
    EXPECT_DOUBLE_EQ(upper, 1.0);
}

}  // namespace
}  // namespace pivot

namespace pivot {
namespace {

TEST(LcpResidual, NaNIsNeverHidden) {
    Problem pr;
    const pivot_lcp_problem p = pr.make(true);
    const std::array<double, 2> x = {NAN, 0.0};
    std::array<double, 2> w{};
    lcp_multiply(p, x.data(), w.data());
    EXPECT_EQ(lcp_natural_map_residual(p, x.data(), w.data()), HUGE_VAL);
}

}  // namespace
}  // namespace pivot
