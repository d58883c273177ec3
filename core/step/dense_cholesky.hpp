#pragma once
// In-place Cholesky factorization and solves for the small dense SPD blocks
// of element mass matrices (nv <= 64), column-major. No allocation.
// The factor is stored as L below the diagonal and 1 / L_ii on it: a solve
// then multiplies where it would divide (a division costs several
// multiplications' time, and the step solves with every body's factor once
// per row block).
#include <cmath>
#include <cstdint>

namespace pivot {

// Factors a = L L^T in the lower triangle of a (n x n, column-major with
// leading dimension ld). Returns false if a is not positive definite.
inline bool cholesky_factor(double* a, uint32_t n, uint32_t ld) {
    for (uint32_t j = 0; j < n; ++j) {
        double d = a[j + j * ld];
        for (uint32_t k = 0; k < j; ++k) d -= a[j + k * ld] * a[j + k * ld];
        if (!(d > 0.0)) return false;
        const double inverse = 1.0 / std::sqrt(d);
        a[j + j * ld] = inverse;
        for (uint32_t i = j + 1; i < n; ++i) {
            double s = a[i + j * ld];
            for (uint32_t k = 0; k < j; ++k) s -= a[i + k * ld] * a[j + k * ld];
            a[i + j * ld] = s * inverse;
        }
    }
    return true;
}

// Whether a 6 x 6 block (column-major; a matrix or its factor) has no
// coupling between its (v, w) halves: rows 3..5 of columns 0..2 all zero,
// as in a rigid body's diag(m I, I_world) and its factor.
inline bool uncoupled_halves(const double* a) {
    bool uncoupled = true;
    for (uint32_t c = 0; c < 3; ++c) {
        for (uint32_t r = 3; r < 6; ++r) uncoupled = uncoupled && a[r + c * 6] == 0.0;
    }
    return uncoupled;
}

// cholesky_factor of an n x n block. A rigid body's diag(m I, I_world)
// factors as its two 3 x 3 halves: the same numbers (the coupling terms are
// exact zeros), in two independent chains of square roots and divisions
// instead of one twice as long.
inline bool cholesky_factor(double* a, uint32_t n) {
    if (n == 6 && uncoupled_halves(a)) {
        const bool first = cholesky_factor(a, 3, 6);
        const bool second = cholesky_factor(a + 3 + 3 * 6, 3, 6);
        return first && second;
    }
    return cholesky_factor(a, n, n);
}

// m = L L^T (n x n, column-major, both triangles) from a factor of
// cholesky_factor: the matrix that was factored, to rounding.
inline void cholesky_product(const double* l, uint32_t n, double* m) {
    for (uint32_t c = 0; c < n; ++c) {
        const double l_cc = 1.0 / l[c + c * n];  // L(c, c) is stored inverted
        for (uint32_t r = c; r < n; ++r) {
            // sum over k <= c of L(r, k) L(c, k), the diagonal term last
            double s = 0.0;
            for (uint32_t k = 0; k < c; ++k) s += l[r + k * n] * l[c + k * n];
            s += (r == c ? l_cc : l[r + c * n]) * l_cc;
            m[r + c * n] = s;
            m[c + r * n] = s;
        }
    }
}

// Solves L x = b in place (the first half of a solve), for b zero before
// index `first` (then so is x).
inline void lower_solve_from(const double* l, uint32_t n, double* b, uint32_t first) {
    for (uint32_t i = first; i < n; ++i) {
        double s = b[i];
        for (uint32_t k = first; k < i; ++k) s -= l[i + k * n] * b[k];
        b[i] = s * l[i + i * n];
    }
}

// Solves (L L^T) x = b in place (b becomes x).
inline void cholesky_solve(const double* l, uint32_t n, double* b) {
    lower_solve_from(l, n, b, 0);
    for (uint32_t i = n; i-- > 0;) {
        double s = b[i];
        for (uint32_t k = i + 1; k < n; ++k) s -= l[k + i * n] * b[k];
        b[i] = s * l[i + i * n];
    }
}

// Solves (L L^T) x_r = b_r in place for `count` right-hand sides at once
// (count <= 8): the same operations as cholesky_solve per column, the
// columns interleaved, so their independent chains of multiply-adds run
// side by side (the rows of one joint side share a body's factor).
inline void cholesky_solve_many(const double* l, uint32_t n, double* const* b, uint32_t count) {
    for (uint32_t i = 0; i < n; ++i) {
        const double inverse = l[i + i * n];
        for (uint32_t r = 0; r < count; ++r) {
            double* x = b[r];
            double s = x[i];
            for (uint32_t k = 0; k < i; ++k) s -= l[i + k * n] * x[k];
            x[i] = s * inverse;
        }
    }
    for (uint32_t i = n; i-- > 0;) {
        const double inverse = l[i + i * n];
        for (uint32_t r = 0; r < count; ++r) {
            double* x = b[r];
            double s = x[i];
            for (uint32_t k = i + 1; k < n; ++k) s -= l[k + i * n] * x[k];
            x[i] = s * inverse;
        }
    }
}

// Blocks up to this size keep their inverse (element_dynamics.cpp).
constexpr uint32_t kMaxInverseNv = 12;

// The inverse M^-1 = L^-T L^-1 of a factored block (n x n, column-major
// with leading dimension ld, both triangles written) from a factor of
// cholesky_factor, n <= kMaxInverseNv. About n^3 / 3 multiply-adds: for a
// rigid body (n = 6) the time of two solves, and the step solves with each
// body's factor once per row side and contact (inverse_multiply). Worked
// in local arrays, which the compiler keeps apart from the output.
template <uint32_t N = 0>
inline void cholesky_inverse(const double* l, uint32_t n, uint32_t ld, double* inverse) {
    if constexpr (N != 0) n = N;
    constexpr uint32_t kSize = N != 0 ? N : kMaxInverseNv;
    // X = L^-1, lower triangular, row by row (L X = I): row i's entries
    // X(i, c), c < i, are independent sums of the rows above, so they
    // proceed side by side rather than as one long chain per column.
    double x[kSize][kSize];
    for (uint32_t i = 0; i < n; ++i) {
        double row[kSize] = {};
        for (uint32_t k = 0; k < i; ++k) {
            const double l_ik = l[i + k * ld];
            for (uint32_t c = 0; c <= k; ++c) row[c] -= l_ik * x[k][c];
        }
        const double l_ii = l[i + i * ld];  // stored inverted
        for (uint32_t c = 0; c < i; ++c) x[i][c] = row[c] * l_ii;
        x[i][i] = l_ii;
    }
    // M^-1 = X^T X: M^-1 (r, c) = sum over k >= max(r, c) of X(k, r) X(k, c).
    for (uint32_t c = 0; c < n; ++c) {
        double column[kSize] = {};
        for (uint32_t k = c; k < n; ++k) {
            const double x_kc = x[k][c];
            for (uint32_t r = c; r <= k; ++r) column[r] += x[k][r] * x_kc;
        }
        for (uint32_t r = c; r < n; ++r) {
            inverse[r + c * ld] = column[r];
            inverse[c + r * ld] = column[r];
        }
    }
}

// cholesky_inverse of an n x n block (ld = n). A rigid body's 6 x 6 mass
// matrix diag(m I, I_world) has a factor without coupling between its
// (v, w) halves: then two 3 x 3 inverses, the exact same numbers at a
// fraction of the work.
inline void cholesky_inverse_block(const double* l, uint32_t n, double* inverse) {
    if (n != 6) {
        cholesky_inverse(l, n, n, inverse);
        return;
    }
    if (!uncoupled_halves(l)) {
        cholesky_inverse<6>(l, 6, 6, inverse);
        return;
    }
    cholesky_inverse<3>(l, 3, 6, inverse);
    cholesky_inverse<3>(l + 3 + 3 * 6, 3, 6, inverse + 3 + 3 * 6);
    for (uint32_t c = 0; c < 3; ++c) {
        for (uint32_t r = 3; r < 6; ++r) inverse[r + c * 6] = inverse[c + r * 6] = 0.0;
    }
}

// x = M^-1 x in place for x zero outside [first, last): the columns of
// M^-1 there, summed (independent multiply-adds, unlike a triangular
// solve's chain). n <= kMaxInverseNv; N: n when known at compile time
// (a rigid body's 6), else 0.
template <uint32_t N = 0>
inline void inverse_multiply(const double* inverse, uint32_t n, double* x, uint32_t first, uint32_t last) {
    if constexpr (N != 0) n = N;
    double y[N != 0 ? N : kMaxInverseNv] = {};
    for (uint32_t c = first; c < last; ++c) {
        const double xc = x[c];
        const double* column = inverse + c * n;
        for (uint32_t r = 0; r < n; ++r) y[r] += column[r] * xc;
    }
    for (uint32_t r = 0; r < n; ++r) x[r] = y[r];
}

// inverse_multiply for any n <= kMaxInverseNv, a rigid body's 6 unrolled.
inline void inverse_multiply_block(const double* inverse, uint32_t n, double* x, uint32_t first, uint32_t last) {
    if (n == 6) {
        inverse_multiply<6>(inverse, n, x, first, last);
    } else {
        inverse_multiply(inverse, n, x, first, last);
    }
}

}  // namespace pivot
