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

// Factors a = L L^T in the lower triangle of a (n x n, column-major).
// Returns false if a is not positive definite.
inline bool cholesky_factor(double* a, uint32_t n) {
    for (uint32_t j = 0; j < n; ++j) {
        double d = a[j + j * n];
        for (uint32_t k = 0; k < j; ++k) d -= a[j + k * n] * a[j + k * n];
        if (!(d > 0.0)) return false;
        const double inverse = 1.0 / std::sqrt(d);
        a[j + j * n] = inverse;
        for (uint32_t i = j + 1; i < n; ++i) {
            double s = a[i + j * n];
            for (uint32_t k = 0; k < j; ++k) s -= a[i + k * n] * a[j + k * n];
            a[i + j * n] = s * inverse;
        }
    }
    return true;
}

// m = L L^T (n x n, column-major, both triangles) from a factor of
// cholesky_factor: the matrix that was factored, to rounding.
inline void cholesky_product(const double* l, uint32_t n, double* m) {
    for (uint32_t c = 0; c < n; ++c) {
        for (uint32_t r = c; r < n; ++r) {
            // sum over k <= c of L(r, k) L(c, k); L(k, k) is stored inverted.
            double s = 0.0;
            for (uint32_t k = 0; k <= c; ++k) {
                const double lr = r == k ? 1.0 / l[k + k * n] : l[r + k * n];
                const double lc = c == k ? 1.0 / l[k + k * n] : l[c + k * n];
                s += lr * lc;
            }
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

}  // namespace pivot
