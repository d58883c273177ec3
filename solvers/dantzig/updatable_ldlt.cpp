#include "updatable_ldlt.hpp"

#include <algorithm>

#include "vector_kernels.hpp"

namespace pivot::dantzig {

void UpdatableLdlt::reserve(uint32_t capacity) {
    if (capacity <= capacity_) return;
    // Growing re-lays the slots; only happens before use (solve() reserves
    // for the problem's n before the first append).
    rows_.assign(static_cast<std::size_t>(capacity) * capacity, 0.0);
    slots_.resize(capacity);
    for (uint32_t s = 0; s < capacity; ++s) slots_[s] = s;
    pivots_.resize(capacity);
    update_vector_.resize(capacity);
    update_scale_.resize(capacity);
    capacity_ = capacity;
    size_ = 0;
#if defined(PIVOT_DANTZIG_AVX2_KERNELS)
    avx2_ = cpu_has_avx2();
#endif
}

void UpdatableLdlt::forward_solve(double* y, uint32_t first) const {
#if defined(PIVOT_DANTZIG_AVX2_KERNELS)
    if (avx2_) {
        forward_solve_avx2(y, first);
        return;
    }
#endif
    for (uint32_t r = first + 1; r < size_; ++r) y[r] -= dot(row_data(r) + first, y + first, r - first);
}

void UpdatableLdlt::backward_solve(double* v) const {
    // L^T v = z column by column of L^T, i.e. row by row of L, last first:
    // once v[r] is final, its multiple of row r is removed from v[0..r).
#if defined(PIVOT_DANTZIG_AVX2_KERNELS)
    if (avx2_) {
        backward_solve_avx2(v);
        return;
    }
#endif
    for (uint32_t r = size_; r-- > 1;) {
        if (v[r] != 0.0) subtract_scaled(v, row_data(r), v[r], r);
    }
}

#if defined(PIVOT_DANTZIG_AVX2_KERNELS)
// The same loops with the AVX2 kernels inlined (bitwise the same results).
__attribute__((target("avx2"))) void UpdatableLdlt::forward_solve_avx2(double* y, uint32_t first) const {
    for (uint32_t r = first + 1; r < size_; ++r) y[r] -= dot_avx2(row_data(r) + first, y + first, r - first);
}

__attribute__((target("avx2"))) void UpdatableLdlt::backward_solve_avx2(double* v) const {
    for (uint32_t r = size_; r-- > 1;) {
        if (v[r] != 0.0) subtract_scaled_avx2(v, row_data(r), v[r], r);
    }
}
#else
void UpdatableLdlt::forward_solve_avx2(double* y, uint32_t first) const { forward_solve(y, first); }
void UpdatableLdlt::backward_solve_avx2(double* v) const { backward_solve(v); }
#endif

void UpdatableLdlt::solve(double* v) const {
    uint32_t first = 0;
    while (first < size_ && v[first] == 0.0) ++first;
    if (first == size_) return;
    forward_solve(v, first);
    for (uint32_t r = first; r < size_; ++r) v[r] /= pivots_[r];
    backward_solve(v);
}

void UpdatableLdlt::append(const double* row, double pivot) {
    std::copy(row, row + size_, row_data(size_));
    pivots_[size_] = pivot;
    ++size_;
}

// The end of trailing row `trailing` (position `row` before the removal) in
// remove(): w is its entry of the update vector; its pivot and the scalars
// of its column follow (GGMS method C1, below).
void UpdatableLdlt::finish_row(uint32_t trailing, uint32_t row, double w, double& alpha) {
    const double d = pivots_[row];
    const double d_updated = d + alpha * w * w;
    update_vector_[trailing] = w;
    update_scale_[trailing] = alpha * w / d_updated;
    alpha = d * alpha / d_updated;
    pivots_[row - 1] = d_updated;
}

void UpdatableLdlt::remove(uint32_t position) {
    // Deleting row/column p of A = L D L^T leaves rows < p of the factor as
    // they are; the trailing block L3 D3 L3^T must absorb the term d_p l l^T
    // that row p contributed (l: column p of L below the diagonal): a
    // rank-one update, by method C1 of Gill, Golub, Murray and Saunders,
    // "Methods for modifying matrix factorizations", Math. Comp. 28 (1974)
    // 505-535, stable for a positive update. Per trailing column j, with
    // w starting as l:
    //     d_j' = d_j + alpha w_j^2,  beta_j = alpha w_j / d_j',  alpha *= d_j / d_j'
    //     for rows i > j:  w_i -= w_j L_ij,  L_ij += beta_j w_i.
    // Run row by row instead of column by column (row i needs only the
    // scalars of the columns before it), every row is read and written
    // contiguously, its entries behind column p moving one place left. Each
    // row is a chain of dependent operations through w_i, so four rows go
    // through the columns together to overlap their chains. Cost
    // (k - p)^2 / 2 multiply-adds.
    const uint32_t p = position;
    const uint32_t trailing_rows = size_ - p - 1;
    double alpha = pivots_[p];
    for (uint32_t t0 = 0; t0 < trailing_rows; t0 += 4) {
        const uint32_t block = std::min<uint32_t>(4, trailing_rows - t0);
        double* tail[4] = {nullptr, nullptr, nullptr, nullptr};  // row entries from column p on
        double w[4] = {0.0, 0.0, 0.0, 0.0};
        uint32_t start[4] = {0, 0, 0, 0};  // first column where the row's chain is not trivially zero
        for (uint32_t q = 0; q < block; ++q) {
            tail[q] = row_data(p + 1 + t0 + q) + p;
            w[q] = tail[q][0];
            uint32_t j = 0;
            if (w[q] == 0.0) {
                // w stays zero and the entries only move until a nonzero
                // entry meets a nonzero update-vector entry.
                for (; j < t0; ++j) {
                    if (tail[q][j + 1] != 0.0 && update_vector_[j] != 0.0) break;
                    tail[q][j] = tail[q][j + 1];
                }
            }
            start[q] = j;
        }
        const auto step = [&](uint32_t q, uint32_t j) {
            const double l = tail[q][j + 1];
            w[q] -= update_vector_[j] * l;
            tail[q][j] = l + update_scale_[j] * w[q];
        };
        if (block == 4) {
            const uint32_t common = std::max(std::max(start[0], start[1]), std::max(start[2], start[3]));
            for (uint32_t q = 0; q < 4; ++q) {
                for (uint32_t j = start[q]; j < common; ++j) step(q, j);
            }
            for (uint32_t j = common; j < t0; ++j) {
                step(0, j);
                step(1, j);
                step(2, j);
                step(3, j);
            }
        } else {
            for (uint32_t q = 0; q < block; ++q) {
                for (uint32_t j = start[q]; j < t0; ++j) step(q, j);
            }
        }
        // The block's own triangle: row q needs the columns of rows t0..t0+q-1.
        for (uint32_t q = 0; q < block; ++q) {
            for (uint32_t j = t0; j < t0 + q; ++j) step(q, j);
            finish_row(t0 + q, p + 1 + t0 + q, w[q], alpha);
        }
    }
    // Rows behind p move up one position; p's slot becomes free.
    const uint32_t freed = slots_[p];
    for (uint32_t r = p; r + 1 < size_; ++r) slots_[r] = slots_[r + 1];
    slots_[size_ - 1] = freed;
    --size_;
}

}  // namespace pivot::dantzig
