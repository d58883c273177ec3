#pragma once
// The Newton solver's matrix over an island's velocities (newton_solver.hpp):
//     H = Mbar + sum over the free rows i of J_i^T J_i / d_i
//              + sum over the friction rows i held at mu_i |x_j| by a free
//                normal row j of (mu_i s_j / d_j) J_i^T J_j,
// sparse, in blocks: the mass blocks on the diagonal, and a dense block
// for every two mass blocks some row acts on together (two bodies in
// contact, two links of a joint), or a friction row and its normal row.
// The last sum makes H non-symmetric (on the symmetric pattern); without
// it H is symmetric positive definite. Factored by a sparse LDL^T
// (../sparse/sparse_ldu.hpp) in a minimum-degree order of the block graph
// (../sparse/minimum_degree_ordering.hpp), each block's velocities kept
// together.
//
// The pattern holds every row of the problem, free or not, so it depends
// only on which blocks the rows couple: it (and the order and the symbolic
// factorization) is kept from solve to solve while that stays the same (a
// resting pile, a chain), and each Newton iteration costs one numeric
// factorization. Storage grows with the largest problem seen, then nothing
// is allocated.
#include <cstdint>
#include <vector>

#include <pivot/plugin_solver.h>

#include "../sparse/minimum_degree_ordering.hpp"
#include "../sparse/sparse_ldu.hpp"

namespace pivot::newton {

class VelocityHessian {
public:
    // Makes the pattern of the factored problem's rows (n of them, friction
    // index findex or NULL) current: keeps it when the rows couple the same
    // blocks as last time, else orders and analyzes again. Returns false
    // only when the ordering's workspace could not be sized.
    bool set_pattern(const pivot_factored_problem& f, uint32_t n, const int32_t* findex);

    // A held friction row's coupling to its free normal row: value J_row^T J_normal.
    struct Coupling {
        uint32_t row, normal;
        double value;
        bool operator==(const Coupling& o) const { return row == o.row && normal == o.normal && value == o.value; }
        bool operator!=(const Coupling& o) const { return !(*this == o); }
    };

    // Assembles H with weight[i] = 1 / d_i for the free rows (0 for the
    // others) and the couplings, and factors it. False on a pivot the
    // factorization refuses (only rounding at an extreme conditioning, or
    // friction couplings far stronger than the rows' own stiffness).
    bool factor(const pivot_factored_problem& f, uint32_t n, const double* weight,
                const std::vector<Coupling>& couplings);

    // Solves H v = rhs in place (the island's velocities).
    void solve(double* rhs) { factor_.solve(rhs); }

    // Forgets the pattern (the next set_pattern analyzes again).
    void reset() { velocities_ = 0, pairs_.clear(); }

private:
    // Where block `row_block`'s velocities begin within each column of
    // block `column_block` (they are one run there; the blocks are adjacent).
    uint32_t run_of(uint32_t row_block, uint32_t column_block) const;
    bool analyze();
    // H += scale J_a^T J_b over the two rows' blocks.
    void add_outer(const pivot_factored_problem& f, uint32_t a, uint32_t b, double scale);
    // H += scale J_row^T J_row on and below the diagonal only.
    void add_outer_lower(const pivot_factored_problem& f, uint32_t row, double scale);

    uint32_t blocks_ = 0;
    uint32_t velocities_ = 0;
    std::vector<uint32_t> block_start_;          // the island's blocks, as the problem gives them
    std::vector<uint64_t> pairs_;                // (lower block << 32 | higher block), sorted, unique
    std::vector<uint64_t> pairs_scratch_;
    std::vector<uint64_t> pairs_as_met_;         // the last call's pairs in row order (before sorting)
    std::vector<uint32_t> adjacent_start_;       // per block: its blocks (itself included), ascending
    std::vector<uint32_t> adjacent_;
    std::vector<uint32_t> run_;                  // per adjacency entry: its first row within the column
    std::vector<uint32_t> next_;                 // scratch of set_pattern
    std::vector<int32_t> column_start_;          // CSC of H over the velocities (diagonal included)
    std::vector<int32_t> row_index_;
    std::vector<double> values_;
    std::vector<int64_t> transpose_;             // per entry (r, c): the position of (c, r)
    std::vector<double> transposed_values_;      // H^T in the same CSC (H non-symmetric)
    std::vector<int32_t> pattern_start_;         // the same without the diagonal (for the ordering and analysis)
    std::vector<int32_t> pattern_rows_;
    std::vector<int32_t> block_graph_start_;     // the block graph (no self) for the ordering
    std::vector<int32_t> block_graph_;
    std::vector<int32_t> block_order_;
    std::vector<int32_t> order_;                 // velocities, block by block in block_order_
    sparse::MinimumDegreeOrdering ordering_;
    sparse::SparseLdu factor_;
};

}  // namespace pivot::newton
