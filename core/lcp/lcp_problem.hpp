#pragma once
// An owned complementarity problem: the per-step problem of a world, or one
// read from a pivot-lcp/1 file. Its view() is what crosses the solver ABI
// (<pivot/plugin_solver.h>): find x, w = A x + b, with bounds lo/hi and the
// friction index. The plain problem (matrix, b, bounds, friction index) is
// the SDK's public sdk::LcpData; the step adds its block projection and the
// factored form.
#include <cstdint>
#include <vector>

#include <pivot/lcp_data.hpp>
#include <pivot/plugin_solver.h>

namespace pivot {

struct LcpProblem : sdk::LcpData {
    // Block projection (plugin_solver.h): block k is rows [block_first_row[k],
    // block_first_row[k+1]); empty = none. project/project_context are the
    // owner's (the step's friction models) and must outlive the solve.
    std::vector<uint32_t> block_first_row;
    pivot_project_fn project = nullptr;
    void* project_context = nullptr;

    // The factored form of A (plugin_solver.h, ABI 1.4), set by the step for
    // its island problems when it can describe them so (`factored`); the
    // Jacobian and response values stay the step's (pointers into its
    // scratch). Then dense/CSC may be empty: make_dense()/make_sparse()
    // build them from it.
    bool factored = false;
    std::vector<uint32_t> block_start;      // blocks + 1
    std::vector<uint32_t> row_block_start;  // n + 1
    std::vector<pivot_row_block> row_blocks;
    std::vector<double> diagonal;  // n
    const double* jacobian = nullptr;
    const double* response = nullptr;
    pivot_inverse_mass_fn apply_inverse_mass = nullptr;
    void* inverse_mass_context = nullptr;
    // ABI 1.5: the mass blocks (plugin_solver.h), filled for solvers that
    // read them; empty = absent. mass_offset[k] = PIVOT_NO_MASS_BLOCK for a
    // block kept only factored (a cable's).
    std::vector<double> mass;
    std::vector<uint64_t> mass_offset;

    bool has_factored() const { return factored; }
    // Nonzeros of A as the factored form couples the rows (an upper bound
    // of what make_sparse() stores), for sizing a solver's workspace.
    size_t factored_nonzeros() const;
    bool has_blocks() const { return block_first_row.size() > 1 && project != nullptr; }

    // Pointers into this object: valid until it is changed or destroyed.
    pivot_lcp_problem view() const;

    // Builds the CSC matrix from the dense one (exact zeros are not stored),
    // or without one from the factored form (its coupling pattern).
    void make_sparse();
    // Builds the dense matrix from the CSC one, or from the factored form.
    void make_dense();

    // A standard LCP (lo = 0, hi = inf) of size n with dense A.
    static LcpProblem standard(uint32_t n, std::vector<double> dense_column_major, std::vector<double> b);

private:
    // The rows on each block (CSR over blocks), from row_blocks.
    void index_block_rows() const;
    // Column j of A from the factored form, as (row, value) in factored_column_.
    void factored_column(uint32_t j) const;

    mutable pivot_factored_problem factored_view_{};  // what view() points at
    mutable std::vector<uint32_t> block_row_start_, block_row_next_, block_row_entries_;
    struct FactoredEntry {
        uint32_t row, arrival;
        double value;
    };
    mutable std::vector<FactoredEntry> factored_column_;
};

}  // namespace pivot
