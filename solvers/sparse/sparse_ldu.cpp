#include "sparse_ldu.hpp"

#include <cmath>

namespace pivot::sparse {

void SparseLdu::reserve(int32_t rows, int64_t factor_entries) {
    const auto n = static_cast<size_t>(rows) + 1;
    if (order_.size() < n) {
        order_.resize(n);
        position_.resize(n);
        parent_.resize(n);
        column_count_.resize(n);
        column_start_.resize(n + 1);
        column_fill_.resize(n);
        inverse_diagonal_.resize(n);
        flag_.resize(n);
        reach_.resize(n);
        column_work_.assign(n, 0.0);
        row_work_.assign(n, 0.0);
        row_pattern_start_.resize(n + 1);
    }
    const auto entries = static_cast<size_t>(factor_entries);
    if (factor_rows_.size() < entries) {
        factor_rows_.resize(entries);
        row_pattern_.resize(entries);
        lower_.resize(entries);
        upper_.resize(entries);
    }
}

int64_t SparseLdu::analyze(int32_t rows, const int32_t* pattern_start, const int32_t* pattern_rows,
                           const int32_t* order) {
    rows_ = rows;
    row_pattern_ready_ = false;
    if (static_cast<int64_t>(order_.size()) < rows + 1) return -1;
    for (int32_t k = 0; k < rows; ++k) {
        order_[k] = order[k];
        position_[order[k]] = k;
    }
    // Elimination tree and column counts of L (Davis 2005, ldl_symbolic):
    // L(k, i) != 0 exactly for the nodes i on the tree paths from the
    // entries of row k above the diagonal up to k.
    for (int32_t k = 0; k < rows; ++k) {
        parent_[k] = -1;
        flag_[k] = k;
        column_count_[k] = 0;
        const int32_t original = order_[k];
        for (int32_t t = pattern_start[original]; t < pattern_start[original + 1]; ++t) {
            for (int32_t i = position_[pattern_rows[t]]; i < k && flag_[i] != k; i = parent_[i]) {
                if (parent_[i] == -1) parent_[i] = k;
                ++column_count_[i];
                flag_[i] = k;
            }
        }
    }
    int64_t entries = 0;
    numeric_work_ = 0.0;
    for (int32_t k = 0; k < rows; ++k) {
        column_start_[k] = entries;
        entries += column_count_[k];
        numeric_work_ += static_cast<double>(column_count_[k]) * static_cast<double>(column_count_[k]);
    }
    column_start_[rows] = entries;
    return entries;
}

bool SparseLdu::factorize(const int32_t* pattern_start, const int32_t* pattern_rows, const int32_t* k_start,
                          const int32_t* k_rows, const double* k_values, const int32_t* kt_start,
                          const int32_t* kt_rows, const double* kt_values) {
    symmetric_ = kt_start == nullptr;
    const int32_t n = rows_;
    if (!row_pattern_ready_) find_row_patterns(pattern_start, pattern_rows);
    double* y = column_work_.data();
    double* z = symmetric_ ? column_work_.data() : row_work_.data();
    for (int32_t k = 0; k < n; ++k) {
        const int32_t original = order_[k];
        // Column k of K above the diagonal into y, row k left of it into z.
        double diagonal = 0.0;
        for (int32_t t = k_start[original]; t < k_start[original + 1]; ++t) {
            const int32_t r = position_[k_rows[t]];
            if (r < k) {
                y[r] += k_values[t];
            } else if (r == k) {
                diagonal += k_values[t];
            }
        }
        if (!symmetric_) {
            for (int32_t t = kt_start[original]; t < kt_start[original + 1]; ++t) {
                const int32_t c = position_[kt_rows[t]];
                if (c < k) z[c] += kt_values[t];
            }
        }
        column_fill_[k] = 0;
        // Sparse triangular solves L y = K(:, k) and U^T z = K(k, :)^T over
        // the reach of row k (find_row_patterns), then row k of L, column k
        // of U and D_k.
        const double scale = std::abs(diagonal);
        for (int64_t r = row_pattern_start_[k]; r < row_pattern_start_[k + 1]; ++r) {
            const int32_t i = row_pattern_[r];
            const double yi = y[i];
            const double zi = z[i];
            y[i] = 0.0;
            z[i] = 0.0;
            const int64_t begin = column_start_[i];
            const int64_t end = begin + column_fill_[i];
            if (symmetric_) {
                for (int64_t p = begin; p < end; ++p) y[factor_rows_[p]] -= lower_[p] * yi;
            } else {
                for (int64_t p = begin; p < end; ++p) {
                    y[factor_rows_[p]] -= lower_[p] * yi;
                    z[factor_rows_[p]] -= upper_[p] * zi;
                }
            }
            const double l_ki = zi * inverse_diagonal_[i];
            diagonal -= l_ki * yi;
            factor_rows_[end] = k;
            lower_[end] = l_ki;
            if (!symmetric_) upper_[end] = yi * inverse_diagonal_[i];
            ++column_fill_[i];
        }
        // D_k kept as its reciprocal: every entry of L below it, and the
        // solves, multiply by it (a division costs several multiplications).
        inverse_diagonal_[k] = 1.0 / diagonal;
        if (!(std::abs(diagonal) > 1e-13 * scale) || !std::isfinite(diagonal)) {
            // Leave the work vectors clean for the next factorization.
            for (int32_t r = 0; r < n; ++r) {
                y[r] = 0.0;
                z[r] = 0.0;
            }
            return false;
        }
    }
    return true;
}

void SparseLdu::find_row_patterns(const int32_t* pattern_start, const int32_t* pattern_rows) {
    const int32_t n = rows_;
    int64_t at = 0;
    for (int32_t k = 0; k < n; ++k) {
        // The reach of row k in the elimination tree, in topological order
        // (children before parents) in reach_[top .. n).
        int32_t top = n;
        flag_[k] = k;
        const int32_t original = order_[k];
        for (int32_t t = pattern_start[original]; t < pattern_start[original + 1]; ++t) {
            int32_t i = position_[pattern_rows[t]];
            if (i >= k) continue;
            int32_t length = 0;
            for (; flag_[i] != k; i = parent_[i]) {
                reach_[length++] = i;
                flag_[i] = k;
            }
            while (length > 0) reach_[--top] = reach_[--length];
        }
        row_pattern_start_[k] = at;
        for (; top < n; ++top) row_pattern_[at++] = reach_[top];
    }
    row_pattern_start_[n] = at;
    row_pattern_ready_ = true;
}

void SparseLdu::solve(double* rhs) {
    const int32_t n = rows_;
    double* v = column_work_.data();
    for (int32_t k = 0; k < n; ++k) v[k] = rhs[order_[k]];
    // L v' = v (L by columns), D, then U v = v' (U by rows: U(k, r) at the
    // positions of L's column k).
    for (int32_t k = 0; k < n; ++k) {
        const double vk = v[k];
        if (vk == 0.0) continue;
        for (int64_t p = column_start_[k]; p < column_start_[k + 1]; ++p) v[factor_rows_[p]] -= lower_[p] * vk;
    }
    for (int32_t k = 0; k < n; ++k) v[k] *= inverse_diagonal_[k];
    const std::vector<double>& u = symmetric_ ? lower_ : upper_;
    for (int32_t k = n - 1; k >= 0; --k) {
        double vk = v[k];
        for (int64_t p = column_start_[k]; p < column_start_[k + 1]; ++p) vk -= u[p] * v[factor_rows_[p]];
        v[k] = vk;
    }
    for (int32_t k = 0; k < n; ++k) {
        rhs[order_[k]] = v[k];
        v[k] = 0.0;
    }
}

}  // namespace pivot::sparse
