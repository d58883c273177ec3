// LDL^T factor of A_CC, the principal submatrix of the free set C of the
// pivoting, kept up to date as rows join and leave C instead of being
// refactored: O(k^2) per change for k = |C|, where a refactorization costs
// O(k^3). No pivoting: A is positive semidefinite and rows whose pivot would
// be (nearly) zero are kept out of C by the caller.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pivot::dantzig {

class UpdatableLdlt {
public:
    // Room for `capacity` rows (capacity^2 doubles: one slot per row).
    void reserve(uint32_t capacity);
    uint32_t size() const { return size_; }
    void clear() { size_ = 0; }

    // y := L^-1 y on the first size() entries; entries before `first` must
    // be zero (they stay zero: L is unit lower triangular), which skips them.
    void forward_solve(double* y, uint32_t first) const;
    // v := L^-T v.
    void backward_solve(double* v) const;
    // v := (L D L^T)^-1 v.
    void solve(double* v) const;

    double pivot(uint32_t row) const { return pivots_[row]; }

    // Appends a row and column: `row` = D^-1 L^-1 a for the new column a of
    // A_CC (in C order), `pivot` = a_new,new - a^T A_CC^-1 a.
    void append(const double* row, double pivot);

    // Deletes row and column `position`: the rows behind it move up by one.
    void remove(uint32_t position);

private:
    double* row_data(uint32_t row) { return rows_.data() + static_cast<std::size_t>(slots_[row]) * capacity_; }
    const double* row_data(uint32_t row) const {
        return rows_.data() + static_cast<std::size_t>(slots_[row]) * capacity_;
    }
    void finish_row(uint32_t trailing, uint32_t row, double w, double& alpha);
    void forward_solve_avx2(double* y, uint32_t first) const;
    void backward_solve_avx2(double* v) const;

    // Strictly lower triangle of L, one slot of `capacity_` doubles per row:
    // row r's r entries are contiguous, so the forward solve takes dot
    // products with rows and the backward solve subtracts multiples of rows,
    // both over contiguous memory; a removal leaves the rows in their slots
    // (no copying of the parts before the deleted column).
    std::vector<double> rows_;
    std::vector<uint32_t> slots_;  // slot of each row; slots_[size_..] are the free ones
    std::vector<double> pivots_;   // D
    // remove(): per trailing column, the scalars of the rank-one update.
    std::vector<double> update_vector_;
    std::vector<double> update_scale_;
    uint32_t size_ = 0;
    uint32_t capacity_ = 0;
    bool avx2_ = false;  // the solves use the AVX2 kernels (same results, see vector_kernels.hpp)
};

}  // namespace pivot::dantzig
