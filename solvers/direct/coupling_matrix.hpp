#pragma once
// pivot.solver.direct: the matrix A of a problem in CSC with its full
// symmetric pattern (both triangles and the diagonal), built from the
// factored form of the ABI (plugin_solver.h, A = J W + diag) or copied from
// a CSC A, and the same pattern without the diagonal for the ordering and
// the symbolic factorization.
//
// From the factored form, A's pattern is the rows' coupling graph (two rows
// couple when they act on a common block): a chain of joints is block
// tridiagonal, a tree is a tree of cliques (the rows at each body). It is
// found once and kept, with a plan of which Jacobian meets which response
// for each entry, as long as the rows act on the same blocks in the same
// order (checked at every update, O(rows)); then an update computes the
// values only: one short dot product per entry, no search.
#include <cstdint>
#include <vector>

#include <pivot/plugin_solver.h>

namespace pivot::direct {

class CouplingMatrix {
public:
    // A of the problem into start/rows/values. Returns true when the
    // pattern changed since the last update (a new symbolic analysis is
    // due). Allocates only when the problem outgrows the storage.
    bool update(const pivot_lcp_problem& problem);

    int32_t n = 0;
    std::vector<int32_t> start, rows;  // CSC of A (n + 1, nnz), rows ascending per column
    std::vector<double> values;
    std::vector<int32_t> diagonal;     // position of A(j, j) in values, per column
    std::vector<int32_t> pattern_start, pattern_rows;  // the pattern without the diagonal

private:
    bool same_structure(const pivot_factored_problem& f, uint32_t n_rows) const;
    void build_factored_pattern(const pivot_factored_problem& f, uint32_t n_rows);
    bool copy_csc(const pivot_lcp_problem& problem);
    void build_pattern_without_diagonal();

    // The factored structure the pattern was built for.
    bool from_factored_ = false;
    std::vector<uint32_t> key_row_block_start_;
    std::vector<uint32_t> key_blocks_;  // per row block: block, first, count
    // Per entry of A's lower triangle, which row block's Jacobian meets which
    // row block's response: values[position] (and values[mirror], the
    // entry across the diagonal) += J(jacobian_entry) . W(response_entry)[first ..].
    struct Term {
        int32_t position;
        int32_t mirror;
        uint32_t jacobian_entry;
        uint32_t response_entry;
    };
    std::vector<Term> terms_;
    std::vector<uint32_t> block_entry_start_, block_entries_, entry_row_;  // rows by block
    std::vector<uint32_t> entry_fill_;
    std::vector<int32_t> where_;  // row -> position in the column being built, -1 if not in it
    // The CSC structure the pattern was built for (a CSC input).
    std::vector<int32_t> key_csc_start_, key_csc_rows_;
    std::vector<int32_t> column_fill_;
};

}  // namespace pivot::direct
