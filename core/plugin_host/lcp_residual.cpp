#include "plugin_host/lcp_residual.hpp"

#include <algorithm>
#include <cmath>

namespace pivot {

void lcp_row_bounds(const pivot_lcp_problem& p, const double* x, uint32_t i, double& lower,
                    double& upper) {
    lower = p.lo[i];
    upper = p.hi[i];
    if (p.findex != nullptr && p.findex[i] >= 0) {
        // Scaled by the magnitude of the referenced (normal) impulse, the ODE
        // convention: ordered even if that impulse is slightly negative
        // within a solver's tolerance.
        const int32_t j = p.findex[i];
        // An out-of-range index (a problem no solver should have accepted)
        // bounds nothing rather than reading out of the array.
        const double scale = j < static_cast<int32_t>(p.n) ? std::abs(x[j]) : 0.0;
        lower *= scale;
        upper *= scale;
    }
}

void lcp_multiply(const pivot_lcp_problem& p, const double* x, double* w) {
    const uint32_t n = p.n;
    std::copy(p.b, p.b + n, w);
    if (p.dense != nullptr) {
        for (uint32_t j = 0; j < n; ++j) {
            const double xj = x[j];
            const double* column = p.dense + static_cast<size_t>(j) * p.lda;
            for (uint32_t i = 0; i < n; ++i) w[i] += column[i] * xj;
        }
        return;
    }
    for (uint32_t j = 0; j < n; ++j) {
        const double xj = x[j];
        for (int32_t k = p.col_start[j]; k < p.col_start[j + 1]; ++k) w[p.row_index[k]] += p.values[k] * xj;
    }
}

double lcp_natural_map_residual(const pivot_lcp_problem& p, const double* x, const double* w) {
    double residual = 0.0;
    for (uint32_t i = 0; i < p.n; ++i) {
        double lower = 0.0;
        double upper = 0.0;
        lcp_row_bounds(p, x, i, lower, upper);
        // mid(l, u, x - w) written so that infinite bounds need no special case.
        const double projected = std::min(upper, std::max(lower, x[i] - w[i]));
        const double r = std::abs(x[i] - projected);
        // min/max drop a NaN operand: a NaN anywhere is reported, not hidden.
        if (std::isnan(r) || std::isnan(w[i]) || std::isnan(x[i])) return HUGE_VAL;
        residual = std::max(residual, r);
    }
    return residual;
}

}  // namespace pivot
