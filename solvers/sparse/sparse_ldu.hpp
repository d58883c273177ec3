#pragma once
// K = L D U for a sparse square matrix with a symmetric nonzero pattern (the
// subspace system of subspace_minimization.hpp), without pivoting, in a given
// fill-reducing order: L unit lower triangular, D diagonal, U unit upper
// triangular, U = L^T when K is symmetric.
//
// The up-looking algorithm of Davis 2005 ("Algorithm 849: a concise sparse
// Cholesky factorization package", ACM TOMS 31(4): LDL's symbolic and numeric
// phases), extended to the unsymmetric case on the symmetric pattern: row k of
// L and column k of U have the same nonzero pattern (the reach of row k in the
// elimination tree), so they are found by one tree walk (once per analyze(),
// kept for every factorize()) and solved in the same pass (Davis 2006,
// "Direct Methods for Sparse Linear Systems", ch. 4 and 6).
//
// Without pivoting this is stable for the matrices it gets: principal
// submatrices of A = J M^-1 J^T + eps I (symmetric positive definite), and
// the same with friction coupling columns added; a pivot that is not clearly
// nonzero makes factorize() fail and the caller skips the step.
//
// All storage is sized by reserve(); analyze(), factorize() and solve() never
// allocate.
#include <cstdint>
#include <vector>

namespace pivot::sparse {

class SparseLdu {
public:
    // Sizes the workspace for up to `rows` rows and `factor_entries` entries
    // of L (below the diagonal). May allocate.
    void reserve(int32_t rows, int64_t factor_entries);
    int64_t factor_capacity() const { return static_cast<int64_t>(factor_rows_.size()); }

    // Symbolic phase. pattern: symmetric, no diagonal (as for the ordering);
    // order[k] = the row eliminated k-th. Returns the number of entries of L
    // (factorize() needs factor_capacity() >= it), or -1 when `rows` exceeds
    // the reserved rows. Also estimates the numeric work (multiply-adds).
    int64_t analyze(int32_t rows, const int32_t* pattern_start, const int32_t* pattern_rows, const int32_t* order);
    double numeric_work() const { return numeric_work_; }

    // Numeric phase with the pattern and order of the last analyze() (the
    // same pattern is passed again). k_*: K in CSC with its diagonal; kt_*:
    // K^T in CSC (the rows of K), or nullptr when K is symmetric. Entries of K
    // must lie within the pattern. Returns false on a pivot
    // |D_k| <= 1e-13 |K_kk| (or not finite).
    bool factorize(const int32_t* pattern_start, const int32_t* pattern_rows, const int32_t* k_start,
                   const int32_t* k_rows, const double* k_values, const int32_t* kt_start, const int32_t* kt_rows,
                   const double* kt_values);

    // Solves K v = rhs in place (rhs: `rows` values in the original order).
    void solve(double* rhs);

private:
    // Row k's pattern in L (its reach in the elimination tree, in the order
    // the numeric phase visits it) for every k: found once per analyze(), at
    // the first factorize(), then read (the tree walk was a third of a small
    // factorization's time).
    void find_row_patterns(const int32_t* pattern_start, const int32_t* pattern_rows);

    int32_t rows_ = 0;
    bool row_pattern_ready_ = false;
    bool symmetric_ = true;
    double numeric_work_ = 0.0;
    std::vector<int32_t> order_;        // k -> original row
    std::vector<int32_t> position_;     // original row -> k
    std::vector<int32_t> parent_;       // elimination tree (in k numbering), -1 at roots
    std::vector<int32_t> column_count_;  // entries of L in column k (symbolic)
    std::vector<int64_t> column_start_;  // k -> first entry of L column k (and of U row k)
    std::vector<int32_t> column_fill_;   // entries of column k computed so far (numeric)
    std::vector<int32_t> factor_rows_;   // row index (k numbering) of each entry of L
    std::vector<double> lower_;          // L(r, k) at factor_rows_ = r
    std::vector<double> upper_;          // U(k, r) at the same position (unused when symmetric)
    std::vector<double> inverse_diagonal_;  // D^-1
    std::vector<int32_t> flag_;
    std::vector<int32_t> reach_;
    std::vector<int64_t> row_pattern_start_;  // k -> first entry of row k's pattern
    std::vector<int32_t> row_pattern_;         // the rows' patterns (nnz(L) entries)
    std::vector<double> column_work_;  // column k of K being reduced (for U)
    std::vector<double> row_work_;     // row k of K being reduced (for L)
};

}  // namespace pivot::sparse
