#include "plugin_host/lcp_residual.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

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
    if (p.dense == nullptr && p.col_start == nullptr && p.factored != nullptr && n > 0) {
        // A x = J (W x) + diagonal x: u = W x over the island's velocities.
        const pivot_factored_problem& f = *p.factored;
        thread_local std::vector<double> u;  // grows to the largest island, then reused
        u.assign(f.block_start[f.block_count], 0.0);
        for (uint32_t j = 0; j < n; ++j) {
            w[j] += f.diagonal[j] * x[j];
            for (uint32_t e = f.row_block_start[j]; e < f.row_block_start[j + 1]; ++e) {
                const pivot_row_block& rb = f.row_blocks[e];
                const double* response = f.response + rb.response_offset;
                double* ub = u.data() + f.block_start[rb.block];
                const uint32_t size = f.block_start[rb.block + 1] - f.block_start[rb.block];
                for (uint32_t c = 0; c < size; ++c) ub[c] += response[c] * x[j];
            }
        }
        for (uint32_t i = 0; i < n; ++i) {
            for (uint32_t e = f.row_block_start[i]; e < f.row_block_start[i + 1]; ++e) {
                const pivot_row_block& rb = f.row_blocks[e];
                const double* jac = f.jacobian + rb.jacobian_offset;
                const double* ub = u.data() + f.block_start[rb.block] + rb.first;
                for (uint32_t c = 0; c < rb.count; ++c) w[i] += jac[c] * ub[c];
            }
        }
        return;
    }
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

namespace {

// The box rule's natural-map residual over rows [begin, end).
double box_residual(const pivot_lcp_problem& p, const double* x, const double* w, uint32_t begin, uint32_t end) {
    double residual = 0.0;
    for (uint32_t i = begin; i < end; ++i) {
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

}  // namespace

double lcp_natural_map_residual(const pivot_lcp_problem& p, const double* x, const double* w) {
    return box_residual(p, x, w, 0, p.n);
}

double lcp_block_residual(const pivot_lcp_problem& p, const double* x, const double* w, double* scratch) {
    if (p.block_count == 0 || p.project == nullptr || p.block_first_row == nullptr) {
        return lcp_natural_map_residual(p, x, w);
    }
    const uint32_t begin = p.block_first_row[0];
    const uint32_t end = p.block_first_row[p.block_count];
    double residual = std::max(box_residual(p, x, w, 0, begin), box_residual(p, x, w, end, p.n));
    for (uint32_t i = begin; i < end; ++i) scratch[i] = x[i] - w[i];
    if (p.project(p.project_context, 0, p.block_count, scratch) != PIVOT_OK) return HUGE_VAL;
    for (uint32_t i = begin; i < end; ++i) {
        const double r = std::abs(x[i] - scratch[i]);
        if (std::isnan(r)) return HUGE_VAL;
        residual = std::max(residual, r);
    }
    return residual;
}

double lcp_rounding_floor(const pivot_lcp_problem& problem, const double* w) {
    double b_size = 0.0, ax_size = 0.0;
    for (uint32_t i = 0; i < problem.n; ++i) {
        b_size = std::max(b_size, std::abs(problem.b[i]));
        ax_size = std::max(ax_size, std::abs(w[i] - problem.b[i]));
    }
    return 1e-10 * (b_size + ax_size);
}

}  // namespace pivot
