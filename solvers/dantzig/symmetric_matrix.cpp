#include "symmetric_matrix.hpp"

#include <algorithm>
#include <cmath>

#include "pivot/solver_support.hpp"

namespace pivot::dantzig {

void SymmetricMatrix::reserve(uint32_t n, std::size_t nnz) {
    start_.reserve(static_cast<std::size_t>(n) + 1);
    diagonal_.reserve(n);
    index_.reserve(nnz);
    value_.reserve(nnz);
}

bool SymmetricMatrix::assign(const pivot_lcp_problem& p, char (&message)[PIVOT_MESSAGE_CAPACITY]) {
    n_ = p.n;
    // resize() within the reserved capacity does not allocate.
    start_.resize(static_cast<std::size_t>(n_) + 1);
    diagonal_.assign(n_, 0.0);
    index_.clear();
    value_.clear();
    start_[0] = 0;
    const bool from_csc = p.col_start != nullptr && p.row_index != nullptr && p.values != nullptr;
    for (uint32_t j = 0; j < n_; ++j) {
        if (from_csc) {
            for (int32_t k = p.col_start[j]; k < p.col_start[j + 1]; ++k) {
                const double a = p.values[k];
                if (a == 0.0) continue;
                const uint32_t i = static_cast<uint32_t>(p.row_index[k]);
                index_.push_back(i);
                value_.push_back(a);
                if (i == j) diagonal_[j] = a;
            }
        } else {
            const double* column = p.dense + static_cast<std::size_t>(j) * p.lda;
            for (uint32_t i = 0; i < n_; ++i) {
                if (column[i] == 0.0) continue;
                index_.push_back(i);
                value_.push_back(column[i]);
            }
            diagonal_[j] = column[j];
        }
        start_[j + 1] = static_cast<uint32_t>(index_.size());
    }
    for (uint32_t i = 0; i < n_; ++i) {
        if (diagonal_[i] < 0.0) {
            sdk::set_message(message, "A(%u, %u) = %g < 0: A is not positive semidefinite", i, i, diagonal_[i]);
            return false;
        }
    }
    return check_symmetry(message);
}

bool SymmetricMatrix::check_symmetry(char (&message)[PIVOT_MESSAGE_CAPACITY]) const {
    // Every entry (i, j) below the diagonal against (j, i), found by binary
    // search in column i (row indices ascend): O(nnz log) without a second
    // copy of A. An entry present on one side only is compared with zero.
    // An asymmetry up to 1e-12 of the entry's natural scale sqrt(A_ii A_jj)
    // (the bound on |A_ij| for a PSD matrix) is rounding from how the host
    // assembled A; the solver reads column j for row j.
    const auto entry = [&](uint32_t i, uint32_t j) {
        const uint32_t* begin = index_.data() + start_[j];
        const uint32_t* end = index_.data() + start_[j + 1];
        const uint32_t* at = std::lower_bound(begin, end, i);
        return at != end && *at == i ? value_[static_cast<std::size_t>(at - index_.data())] : 0.0;
    };
    const auto mismatch = [&](uint32_t i, uint32_t j, double value, double mirrored) {
        if (std::abs(value - mirrored) <= 1e-12 * std::sqrt(diagonal_[i] * diagonal_[j])) return false;
        sdk::set_message(message,
                         "A is not symmetric: A(%u, %u) = %.17g but A(%u, %u) = %.17g "
                         "(this solver needs a symmetric positive semidefinite A)",
                         i, j, value, j, i, mirrored);
        return true;
    };
    for (uint32_t j = 0; j < n_; ++j) {
        for (uint32_t k = start_[j]; k < start_[j + 1]; ++k) {
            const uint32_t i = index_[k];
            if (i != j && mismatch(i, j, value_[k], entry(j, i))) return false;
        }
    }
    return true;
}

}  // namespace pivot::dantzig
