#pragma once
// An owned complementarity problem: the per-step problem of a world, or one
// read from a pivot-lcp/1 file. Its view() is what crosses the solver ABI
// (<pivot/plugin_solver.h>): find x, w = A x + b, with bounds lo/hi and the
// friction index.
#include <cstdint>
#include <vector>

#include <pivot/plugin_solver.h>

namespace pivot {

struct LcpProblem {
    uint32_t n = 0;
    std::vector<double> dense;       // n*n column-major (lda = n); empty when only sparse
    std::vector<int32_t> col_start;  // CSC: n+1; empty when only dense
    std::vector<int32_t> row_index;  // CSC: nnz
    std::vector<double> values;      // CSC: nnz
    std::vector<double> b;           // n
    std::vector<double> lo;          // n, -inf allowed
    std::vector<double> hi;          // n, +inf allowed
    std::vector<int32_t> findex;     // n entries of -1 or a row; empty = no friction index
    uint32_t matrix_properties = 0;  // PIVOT_MATRIX_* known to hold
    // Block projection (plugin_solver.h): block k is rows [block_first_row[k],
    // block_first_row[k+1]); empty = none. project/project_context are the
    // owner's (the step's friction models) and must outlive the solve.
    std::vector<uint32_t> block_first_row;
    pivot_project_fn project = nullptr;
    void* project_context = nullptr;

    bool has_dense() const { return !dense.empty() || n == 0; }
    bool has_sparse() const { return !col_start.empty(); }
    bool has_findex() const;
    bool is_standard_lcp() const;  // lo = 0, hi = inf, no findex
    bool has_blocks() const { return block_first_row.size() > 1 && project != nullptr; }

    // Pointers into this object: valid until it is changed or destroyed.
    pivot_lcp_problem view() const;

    // Builds the CSC matrix from the dense one (exact zeros are not stored).
    void make_sparse();
    // Builds the dense matrix from the CSC one.
    void make_dense();
    // Sets PIVOT_MATRIX_SYMMETRIC if A is symmetric to rounding (1e-13
    // relative to the pair and to sqrt(A_ii A_jj)), and then makes it exactly
    // symmetric.
    void detect_symmetry();

    // A standard LCP (lo = 0, hi = inf) of size n with dense A.
    static LcpProblem standard(uint32_t n, std::vector<double> dense_column_major, std::vector<double> b);
};

}  // namespace pivot
