#include "dense_lu.hpp"

#include <cmath>
#include <utility>

namespace pivot::lemke {

namespace {

using Matrix = Eigen::Map<Eigen::MatrixXd, 0, Eigen::OuterStride<>>;
using Vector = Eigen::Map<Eigen::VectorXd>;

}  // namespace

bool lu_factorize(const LuFactorization& f, double singular_tolerance, const double* column_scales) {
    const Index n = f.size;
    Matrix a(f.lu, n, n, Eigen::OuterStride<>(f.ld));
    for (Index j = 0; j < n; ++j) {
        // The input column's scale, before it is overwritten, for the
        // singularity test below (the rows swapped so far only permute it).
        const double column_scale =
            column_scales != nullptr ? column_scales[j] : a.col(j).cwiseAbs().maxCoeff();
        if (j > 0) {
            // U(0:j, j) = L(0:j, 0:j)^-1 A(0:j, j)
            a.topLeftCorner(j, j).triangularView<Eigen::UnitLower>().solveInPlace(a.col(j).head(j));
            // A(j:n, j) -= L(j:n, 0:j) U(0:j, j)
            a.col(j).tail(n - j).noalias() -= a.bottomLeftCorner(n - j, j) * a.col(j).head(j);
        }
        Index pivot_row = j;
        double pivot_magnitude = std::abs(a(j, j));
        for (Index i = j + 1; i < n; ++i) {
            const double m = std::abs(a(i, j));
            if (m > pivot_magnitude) {
                pivot_magnitude = m;
                pivot_row = i;
            }
        }
        f.row_swaps[j] = static_cast<int>(pivot_row);
        if (!(pivot_magnitude > singular_tolerance * column_scale) || pivot_magnitude == 0.0) return false;
        if (pivot_row != j) a.row(j).swap(a.row(pivot_row));
        a.col(j).tail(n - j - 1) /= a(j, j);
    }
    return true;
}

void lu_solve(const LuFactorization& f, double* rhs) {
    const Index n = f.size;
    if (n == 0) return;
    const Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>> a(f.lu, n, n, Eigen::OuterStride<>(f.ld));
    for (Index k = 0; k < n; ++k) {
        const Index p = f.row_swaps[k];
        if (p != k) std::swap(rhs[k], rhs[p]);
    }
    Vector x(rhs, n);
    a.triangularView<Eigen::UnitLower>().solveInPlace(x);
    a.triangularView<Eigen::Upper>().solveInPlace(x);
}

}  // namespace pivot::lemke
