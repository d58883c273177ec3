#include "lcp/lcp_problem.hpp"

#include <algorithm>
#include <cmath>

namespace pivot {

bool LcpProblem::has_findex() const {
    for (int32_t f : findex) {
        if (f >= 0) return true;
    }
    return false;
}

bool LcpProblem::is_standard_lcp() const {
    for (uint32_t i = 0; i < n; ++i) {
        if (lo[i] != 0.0 || hi[i] != HUGE_VAL) return false;
    }
    return !has_findex();
}

pivot_lcp_problem LcpProblem::view() const {
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
    if (has_blocks()) {
        p.block_count = static_cast<uint32_t>(block_first_row.size() - 1);
        p.block_first_row = block_first_row.data();
        p.project = project;
        p.project_context = project_context;
    }
    if (factored) {
        factored_view_ = pivot_factored_problem{sizeof(pivot_factored_problem),
                                                static_cast<uint32_t>(block_start.size() - 1),
                                                block_start.data(),
                                                row_block_start.data(),
                                                row_blocks.data(),
                                                jacobian,
                                                response,
                                                diagonal.data(),
                                                apply_inverse_mass,
                                                inverse_mass_context,
                                                mass_offset.empty() ? nullptr : mass.data(),
                                                mass_offset.empty() ? nullptr : mass_offset.data()};
        p.factored = &factored_view_;
    }
    return p;
}

void LcpProblem::index_block_rows() const {
    const size_t blocks = block_start.size() - 1;
    block_row_start_.assign(blocks + 1, 0);
    for (const pivot_row_block& e : row_blocks) ++block_row_start_[e.block + 1];
    for (size_t k = 0; k < blocks; ++k) block_row_start_[k + 1] += block_row_start_[k];
    // Entries of each block in row order (the entries are visited in order).
    block_row_next_.assign(block_row_start_.begin(), block_row_start_.end() - 1);
    block_row_entries_.resize(row_blocks.size());
    for (uint32_t e = 0; e < row_blocks.size(); ++e) block_row_entries_[block_row_next_[row_blocks[e].block]++] = e;
}

size_t LcpProblem::factored_nonzeros() const {
    if (!factored) return 0;
    // Rows on each block (no index of them: this runs at every solve).
    block_row_start_.assign(block_start.size(), 0);
    for (const pivot_row_block& e : row_blocks) ++block_row_start_[e.block];
    size_t nnz = n;
    for (const uint32_t m : block_row_start_) nnz += static_cast<size_t>(m) * m;
    return nnz;
}

void LcpProblem::factored_column(uint32_t j) const {
    // A(i, j) = J_i,k . W_j,k[first_i ..] over the blocks k of row j.
    factored_column_.clear();
    factored_column_.push_back({j, 0, diagonal[j]});
    auto row_of = [&](uint32_t entry) {
        return static_cast<uint32_t>(std::upper_bound(row_block_start.begin(), row_block_start.end(), entry) -
                                     row_block_start.begin() - 1);
    };
    for (uint32_t ej = row_block_start[j]; ej < row_block_start[j + 1]; ++ej) {
        const pivot_row_block& bj = row_blocks[ej];
        const double* w = response + bj.response_offset;
        for (uint32_t t = block_row_start_[bj.block]; t < block_row_start_[bj.block + 1]; ++t) {
            const pivot_row_block& bi = row_blocks[block_row_entries_[t]];
            const double* jac = jacobian + bi.jacobian_offset;
            double value = 0.0;
            for (uint32_t c = 0; c < bi.count; ++c) value += jac[c] * w[bi.first + c];
            factored_column_.push_back(
                {row_of(block_row_entries_[t]), static_cast<uint32_t>(factored_column_.size()), value});
        }
    }
    // Sorted by (row, arrival): duplicates (rows sharing two blocks) are
    // summed in the order produced, whatever the standard library's sort.
    std::sort(factored_column_.begin(), factored_column_.end(), [](const FactoredEntry& l, const FactoredEntry& r) {
        return l.row != r.row ? l.row < r.row : l.arrival < r.arrival;
    });
}

void LcpProblem::make_sparse() {
    col_start.assign(n + 1, 0);
    row_index.clear();
    values.clear();
    if (dense.empty() && factored) {
        index_block_rows();
        for (uint32_t j = 0; j < n; ++j) {
            factored_column(j);
            for (const auto& [i, arrival, value] : factored_column_) {
                if (static_cast<int32_t>(values.size()) > col_start[j] && row_index.back() == static_cast<int32_t>(i)) {
                    values.back() += value;
                } else {
                    row_index.push_back(static_cast<int32_t>(i));
                    values.push_back(value);
                }
            }
            col_start[j + 1] = static_cast<int32_t>(values.size());
        }
        return;
    }
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

void LcpProblem::make_dense() {
    dense.assign(static_cast<size_t>(n) * n, 0.0);
    if (col_start.empty() && factored) {
        index_block_rows();
        for (uint32_t j = 0; j < n; ++j) {
            factored_column(j);
            for (const auto& [i, arrival, value] : factored_column_) dense[i + static_cast<size_t>(j) * n] += value;
        }
        return;
    }
    for (uint32_t j = 0; j < n; ++j) {
        for (int32_t k = col_start[j]; k < col_start[j + 1]; ++k) {
            dense[static_cast<size_t>(row_index[k]) + static_cast<size_t>(j) * n] = values[k];
        }
    }
}

void LcpProblem::detect_symmetry() {
    // Symmetric to rounding counts: an assembled J M^-1 J^T has A(i,j) and
    // A(j,i) from different sums (a dumped step differs in the last digit,
    // or has -3e-17 opposite an exact 0).
    // Such a matrix is made exactly symmetric (the mean of the pair).
    if (!has_dense() && has_sparse()) make_dense();
    auto at = [&](uint32_t i, uint32_t j) -> double& { return dense[i + static_cast<size_t>(j) * n]; };
    for (uint32_t j = 0; j < n; ++j) {
        for (uint32_t i = j + 1; i < n; ++i) {
            // Relative to the pair and to the rows' scale (a structural zero
            // against a -3e-17 of cancellation is symmetric too).
            const double lower = at(i, j), upper = at(j, i);
            const double scale = std::max({std::abs(lower), std::abs(upper), std::sqrt(std::abs(at(i, i) * at(j, j)))});
            if (!(std::abs(lower - upper) <= 1e-13 * scale)) {
                matrix_properties &= ~PIVOT_MATRIX_SYMMETRIC;
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

LcpProblem LcpProblem::standard(uint32_t n, std::vector<double> dense_column_major, std::vector<double> b) {
    LcpProblem p;
    p.n = n;
    p.dense = std::move(dense_column_major);
    p.b = std::move(b);
    p.lo.assign(n, 0.0);
    p.hi.assign(n, HUGE_VAL);
    p.findex.assign(n, -1);
    return p;
}

}  // namespace pivot
