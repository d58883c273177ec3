#pragma once
// In-place Cholesky factorization and solves for the small dense SPD blocks
// of element mass matrices (nv <= 64), column-major. No allocation.
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
        d = std::sqrt(d);
        a[j + j * n] = d;
        for (uint32_t i = j + 1; i < n; ++i) {
            double s = a[i + j * n];
            for (uint32_t k = 0; k < j; ++k) s -= a[i + k * n] * a[j + k * n];
            a[i + j * n] = s / d;
        }
    }
    return true;
}

// Solves (L L^T) x = b in place (b becomes x).
inline void cholesky_solve(const double* l, uint32_t n, double* b) {
    for (uint32_t i = 0; i < n; ++i) {
        double s = b[i];
        for (uint32_t k = 0; k < i; ++k) s -= l[i + k * n] * b[k];
        b[i] = s / l[i + i * n];
    }
    for (uint32_t i = n; i-- > 0;) {
        double s = b[i];
        for (uint32_t k = i + 1; k < n; ++k) s -= l[k + i * n] * b[k];
        b[i] = s / l[i + i * n];
    }
}

}  // namespace pivot
