#include "lcp/lcp_problem.hpp"

#include <algorithm>
#include <cmath>

namespace pivot {

pivot_lcp_problem LcpProblem::view() const {
    pivot_lcp_problem p = LcpData::view();
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
    LcpData::make_sparse();
}

void LcpProblem::make_dense() {
    if (col_start.empty() && factored) {
        dense.assign(static_cast<size_t>(n) * n, 0.0);
        index_block_rows();
        for (uint32_t j = 0; j < n; ++j) {
            factored_column(j);
            for (const auto& [i, arrival, value] : factored_column_) dense[i + static_cast<size_t>(j) * n] += value;
        }
        return;
    }
    LcpData::make_dense();
}

LcpProblem LcpProblem::standard(uint32_t n, std::vector<double> dense_column_major, std::vector<double> b) {
    LcpProblem p;
    static_cast<LcpData&>(p) = LcpData::standard(n, std::move(dense_column_major), std::move(b));
    return p;
}

}  // namespace pivot
