#pragma once
// pivot::sdk::LcpData - a complementarity problem that owns its arrays, for
// tools and tests around the solver ABI (<pivot/plugin_solver.h>): build a
// problem, copy one a host handed over, convert its matrix between dense and
// CSC, and hand its view() to a solver. Header-only C++17, no Pivot library
// needed. The engine's own per-step problem extends it with the factored
// form; the solver conformance kit (sdk/conformance) is built on it.
//
// The problem: find x, w = A x + b with lo_i <= x_i <= hi_i and the friction
// index (findex_i = j: bounds lo_i |x_j| .. hi_i |x_j|), plugin_solver.h.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "pivot/plugin_solver.h"

namespace pivot::sdk {

struct LcpData {
    uint32_t n = 0;
    std::vector<double> dense;       // n*n column-major (lda = n); empty when only CSC
    std::vector<int32_t> col_start;  // CSC: n+1; empty when only dense
    std::vector<int32_t> row_index;  // CSC: nnz
    std::vector<double> values;      // CSC: nnz
    std::vector<double> b;           // n
    std::vector<double> lo;          // n, -inf allowed
    std::vector<double> hi;          // n, +inf allowed
    std::vector<int32_t> findex;     // n entries of -1 or a row; empty = no friction index
    uint32_t matrix_properties = 0;  // PIVOT_MATRIX_* known to hold

    bool has_dense() const { return !dense.empty() || n == 0; }
    bool has_sparse() const { return !col_start.empty(); }
    bool has_findex() const {
        return std::any_of(findex.begin(), findex.end(), [](int32_t f) { return f >= 0; });
    }
    // lo = 0, hi = inf and no friction index.
    bool is_standard_lcp() const {
        for (uint32_t i = 0; i < n; ++i) {
            if (lo[i] != 0.0 || hi[i] != HUGE_VAL) return false;
        }
        return !has_findex();
    }

    // What crosses the solver ABI: pointers into this object, valid until it
    // is changed or destroyed. The friction index is given when any entry is
    // a row (>= 0).
    pivot_lcp_problem view() const {
        pivot_lcp_problem p{};
        p.struct_size = sizeof(p);
        p.problem_class = is_standard_lcp() ? PIVOT_PROBLEM_STANDARD_LCP : PIVOT_PROBLEM_BOXED;
        p.n = n;
        p.matrix_properties = matrix_properties;
        if (!dense.empty()) {
            p.dense = dense.data();
            p.lda = n;
        }
        if (has_sparse()) {
            p.nnz = static_cast<uint32_t>(values.size());
            p.col_start = col_start.data();
            p.row_index = row_index.data();
            p.values = values.data();
        }
        p.b = b.data();
        p.lo = lo.data();
        p.hi = hi.data();
        p.findex = has_findex() ? findex.data() : nullptr;
        return p;
    }

    // Builds the CSC matrix from the dense one (exact zeros are not stored).
    void make_sparse() {
        col_start.assign(n + 1, 0);
        row_index.clear();
        values.clear();
        for (uint32_t j = 0; j < n; ++j) {
            for (uint32_t i = 0; i < n; ++i) {
                const double a = dense[i + static_cast<size_t>(j) * n];
                if (a != 0.0) {
                    row_index.push_back(static_cast<int32_t>(i));
                    values.push_back(a);
                }
            }
            col_start[j + 1] = static_cast<int32_t>(values.size());
        }
    }

    // Builds the dense matrix from the CSC one.
    void make_dense() {
        dense.assign(static_cast<size_t>(n) * n, 0.0);
        for (uint32_t j = 0; j < n; ++j) {
            for (int32_t k = col_start[j]; k < col_start[j + 1]; ++k) {
                dense[static_cast<size_t>(row_index[k]) + static_cast<size_t>(j) * n] = values[k];
            }
        }
    }

    // Sets PIVOT_MATRIX_SYMMETRIC if A is symmetric to rounding (1e-13
    // relative to the pair and to sqrt(A_ii A_jj)), and then makes it exactly
    // symmetric (the mean of each pair). Rounding counts: an assembled
    // J M^-1 J^T has A(i,j) and A(j,i) from different sums (a dumped step
    // differs in the last digit, or has -3e-17 opposite an exact 0).
    void detect_symmetry() {
        if (!has_dense() && has_sparse()) make_dense();
        auto at = [&](uint32_t i, uint32_t j) -> double& { return dense[i + static_cast<size_t>(j) * n]; };
        for (uint32_t j = 0; j < n; ++j) {
            for (uint32_t i = j + 1; i < n; ++i) {
                const double lower = at(i, j), upper = at(j, i);
                const double scale =
                    std::max({std::abs(lower), std::abs(upper), std::sqrt(std::abs(at(i, i) * at(j, j)))});
                if (!(std::abs(lower - upper) <= 1e-13 * scale)) {
                    matrix_properties &= ~static_cast<uint32_t>(PIVOT_MATRIX_SYMMETRIC);
                    return;
                }
            }
        }
        for (uint32_t j = 0; j < n; ++j) {
            for (uint32_t i = j + 1; i < n; ++i) at(i, j) = at(j, i) = 0.5 * (at(i, j) + at(j, i));
        }
        if (has_sparse()) make_sparse();
        matrix_properties |= PIVOT_MATRIX_SYMMETRIC;
    }

    // A standard LCP (lo = 0, hi = inf) of size n with dense A.
    static LcpData standard(uint32_t n, std::vector<double> dense_column_major, std::vector<double> b) {
        LcpData p;
        p.n = n;
        p.dense = std::move(dense_column_major);
        p.b = std::move(b);
        p.lo.assign(n, 0.0);
        p.hi.assign(n, HUGE_VAL);
        p.findex.assign(n, -1);
        return p;
    }

    // A copy of a problem's matrix (dense and/or CSC, as given), b, bounds,
    // friction index (all -1 when absent) and matrix properties. The block
    // projection and the factored form are not copied (they point into
    // their owner). The view must be one a solver may be given: n arrays of
    // the documented sizes.
    static LcpData copy_of(const pivot_lcp_problem& p) {
        LcpData d;
        d.n = p.n;
        d.matrix_properties = p.matrix_properties;
        const size_t n = p.n;
        if (p.dense != nullptr) {
            d.dense.resize(n * n);
            for (size_t j = 0; j < n; ++j) {
                const double* column = p.dense + j * p.lda;
                std::copy(column, column + n, d.dense.begin() + static_cast<ptrdiff_t>(j * n));
            }
        }
        if (p.col_start != nullptr) {
            d.col_start.assign(p.col_start, p.col_start + n + 1);
            d.row_index.assign(p.row_index, p.row_index + p.nnz);
            d.values.assign(p.values, p.values + p.nnz);
        }
        d.b.assign(p.b, p.b + n);
        d.lo.assign(p.lo, p.lo + n);
        d.hi.assign(p.hi, p.hi + n);
        if (p.findex != nullptr) {
            d.findex.assign(p.findex, p.findex + n);
        } else {
            d.findex.assign(n, -1);
        }
        return d;
    }
};

}  // namespace pivot::sdk
