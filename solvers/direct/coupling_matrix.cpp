#include "coupling_matrix.hpp"

#include <algorithm>

#include <pivot/solver_support.hpp>

namespace pivot::direct {

bool CouplingMatrix::update(const pivot_lcp_problem& problem) {
    if (!sdk::has_factored_form(problem)) return copy_csc(problem);
    const pivot_factored_problem& f = *problem.factored;
    const bool changed = !from_factored_ || n != static_cast<int32_t>(problem.n) || !same_structure(f, problem.n);
    if (changed) build_factored_pattern(f, problem.n);
    std::fill(values.begin(), values.end(), 0.0);
    for (const Term& t : terms_) {
        // A(i, j) += J_i,k . W_j,k[first_i ..] on their common block k, for
        // i >= j; A is symmetric, so the same value goes to A(j, i).
        const pivot_row_block& on_i = f.row_blocks[t.jacobian_entry];
        const pivot_row_block& on_j = f.row_blocks[t.response_entry];
        const double* jacobian = f.jacobian + on_i.jacobian_offset;
        const double* response = f.response + on_j.response_offset + on_i.first;
        double value = 0.0;
        for (uint32_t c = 0; c < on_i.count; ++c) value += jacobian[c] * response[c];
        values[static_cast<size_t>(t.position)] += value;
        if (t.mirror != t.position) values[static_cast<size_t>(t.mirror)] += value;
    }
    for (int32_t j = 0; j < n; ++j) values[static_cast<size_t>(diagonal[j])] += f.diagonal[j];
    return changed;
}

bool CouplingMatrix::same_structure(const pivot_factored_problem& f, uint32_t n_rows) const {
    if (key_row_block_start_.size() != n_rows + 1) return false;
    for (uint32_t i = 0; i <= n_rows; ++i) {
        if (key_row_block_start_[i] != f.row_block_start[i]) return false;
    }
    const uint32_t entries = f.row_block_start[n_rows];
    if (key_blocks_.size() != 3 * static_cast<size_t>(entries)) return false;
    for (uint32_t e = 0; e < entries; ++e) {
        const pivot_row_block& b = f.row_blocks[e];
        if (key_blocks_[3 * e] != b.block || key_blocks_[3 * e + 1] != b.first || key_blocks_[3 * e + 2] != b.count) {
            return false;
        }
    }
    return true;
}

void CouplingMatrix::build_factored_pattern(const pivot_factored_problem& f, uint32_t n_rows) {
    from_factored_ = true;
    n = static_cast<int32_t>(n_rows);
    const uint32_t entries = f.row_block_start[n_rows];
    key_row_block_start_.assign(f.row_block_start, f.row_block_start + n_rows + 1);
    key_blocks_.resize(3 * static_cast<size_t>(entries));
    entry_row_.resize(entries);
    for (uint32_t i = 0; i < n_rows; ++i) {
        for (uint32_t e = f.row_block_start[i]; e < f.row_block_start[i + 1]; ++e) entry_row_[e] = i;
    }
    // The row blocks of each block, in row order.
    block_entry_start_.assign(f.block_count + 1, 0);
    for (uint32_t e = 0; e < entries; ++e) {
        const pivot_row_block& b = f.row_blocks[e];
        key_blocks_[3 * e] = b.block;
        key_blocks_[3 * e + 1] = b.first;
        key_blocks_[3 * e + 2] = b.count;
        ++block_entry_start_[b.block + 1];
    }
    for (uint32_t k = 0; k < f.block_count; ++k) block_entry_start_[k + 1] += block_entry_start_[k];
    block_entries_.resize(entries);
    entry_fill_.assign(block_entry_start_.begin(), block_entry_start_.end() - 1);
    for (uint32_t e = 0; e < entries; ++e) block_entries_[entry_fill_[f.row_blocks[e].block]++] = e;

    // Column j: row j and every row on a block of row j, ascending.
    where_.assign(n_rows, -1);
    start.assign(n_rows + 1, 0);
    rows.clear();
    diagonal.assign(n_rows, 0);
    terms_.clear();
    for (uint32_t j = 0; j < n_rows; ++j) {
        const auto column_begin = rows.size();
        rows.push_back(static_cast<int32_t>(j));
        where_[j] = 0;  // marks j as listed
        for (uint32_t ej = f.row_block_start[j]; ej < f.row_block_start[j + 1]; ++ej) {
            const uint32_t block = f.row_blocks[ej].block;
            for (uint32_t t = block_entry_start_[block]; t < block_entry_start_[block + 1]; ++t) {
                const uint32_t i = entry_row_[block_entries_[t]];
                if (where_[i] >= 0) continue;
                where_[i] = 0;
                rows.push_back(static_cast<int32_t>(i));
            }
        }
        std::sort(rows.begin() + static_cast<std::ptrdiff_t>(column_begin), rows.end());
        for (auto p = column_begin; p < rows.size(); ++p) where_[static_cast<size_t>(rows[p])] = static_cast<int32_t>(p);
        diagonal[j] = where_[j];
        for (uint32_t ej = f.row_block_start[j]; ej < f.row_block_start[j + 1]; ++ej) {
            const uint32_t block = f.row_blocks[ej].block;
            for (uint32_t t = block_entry_start_[block]; t < block_entry_start_[block + 1]; ++t) {
                const uint32_t ei = block_entries_[t];
                // The lower triangle only (i >= j); the mirror is found below.
                if (entry_row_[ei] < j) continue;
                terms_.push_back(Term{where_[entry_row_[ei]], -1, ei, ej});
            }
        }
        for (auto p = column_begin; p < rows.size(); ++p) where_[static_cast<size_t>(rows[p])] = -1;
        start[j + 1] = static_cast<int32_t>(rows.size());
    }
    // Each term's mirror: A(j, i) in column i (rows ascend: a binary search).
    for (Term& t : terms_) {
        const int32_t i = rows[static_cast<size_t>(t.position)];
        const auto j = static_cast<int32_t>(entry_row_[t.response_entry]);
        t.mirror = static_cast<int32_t>(std::lower_bound(rows.begin() + start[i], rows.begin() + start[i + 1], j) - rows.begin());
    }
    values.assign(rows.size(), 0.0);
    build_pattern_without_diagonal();
}

bool CouplingMatrix::copy_csc(const pivot_lcp_problem& problem) {
    const auto n_rows = static_cast<int32_t>(problem.n);
    const bool changed = from_factored_ || n != n_rows || key_csc_start_.size() != problem.n + 1 ||
                         !std::equal(key_csc_start_.begin(), key_csc_start_.end(), problem.col_start) ||
                         key_csc_rows_.size() != problem.nnz ||
                         !std::equal(key_csc_rows_.begin(), key_csc_rows_.end(), problem.row_index);
    from_factored_ = false;
    n = n_rows;
    if (changed) {
        key_csc_start_.assign(problem.col_start, problem.col_start + n_rows + 1);
        key_csc_rows_.assign(problem.row_index, problem.row_index + problem.nnz);
        // The symmetric closure of the pattern with the diagonal: column j
        // lists the rows of A(:, j), the columns of A(j, :) and j.
        std::vector<int32_t>& count = column_fill_;
        count.assign(static_cast<size_t>(n_rows), 1);
        for (int32_t j = 0; j < n_rows; ++j) {
            for (int32_t t = problem.col_start[j]; t < problem.col_start[j + 1]; ++t) {
                const int32_t i = problem.row_index[t];
                if (i == j) continue;
                ++count[static_cast<size_t>(j)];
                ++count[static_cast<size_t>(i)];
            }
        }
        start.assign(static_cast<size_t>(n_rows) + 1, 0);
        for (int32_t j = 0; j < n_rows; ++j) start[j + 1] = start[j] + count[static_cast<size_t>(j)];
        rows.assign(static_cast<size_t>(start[n_rows]), 0);
        std::vector<int32_t>& next = column_fill_;
        next.assign(start.begin(), start.end() - 1);
        for (int32_t j = 0; j < n_rows; ++j) {
            rows[static_cast<size_t>(next[static_cast<size_t>(j)]++)] = j;
            for (int32_t t = problem.col_start[j]; t < problem.col_start[j + 1]; ++t) {
                const int32_t i = problem.row_index[t];
                if (i == j) continue;
                rows[static_cast<size_t>(next[static_cast<size_t>(j)]++)] = i;
                rows[static_cast<size_t>(next[static_cast<size_t>(i)]++)] = j;
            }
        }
        // Sorted and without duplicates (a symmetric pattern lists each pair twice).
        int32_t out = 0;
        int32_t begin = 0;
        for (int32_t j = 0; j < n_rows; ++j) {
            const int32_t end = start[j + 1];
            std::sort(rows.begin() + begin, rows.begin() + end);
            start[j] = out;
            for (int32_t t = begin; t < end; ++t) {
                if (t > begin && rows[static_cast<size_t>(t)] == rows[static_cast<size_t>(t - 1)]) continue;
                rows[static_cast<size_t>(out++)] = rows[static_cast<size_t>(t)];
            }
            begin = end;
        }
        start[n_rows] = out;
        rows.resize(static_cast<size_t>(out));
        values.assign(rows.size(), 0.0);
        diagonal.assign(static_cast<size_t>(n_rows), 0);
        for (int32_t j = 0; j < n_rows; ++j) {
            diagonal[static_cast<size_t>(j)] = static_cast<int32_t>(
                std::lower_bound(rows.begin() + start[j], rows.begin() + start[j + 1], j) - rows.begin());
        }
        build_pattern_without_diagonal();
    }
    std::fill(values.begin(), values.end(), 0.0);
    for (int32_t j = 0; j < n_rows; ++j) {
        int32_t p = start[j];
        for (int32_t t = problem.col_start[j]; t < problem.col_start[j + 1]; ++t) {
            // Both lists ascend: a merge walk finds each entry's position.
            while (rows[static_cast<size_t>(p)] < problem.row_index[t]) ++p;
            values[static_cast<size_t>(p)] += problem.values[t];
        }
    }
    return changed;
}

void CouplingMatrix::build_pattern_without_diagonal() {
    pattern_start.assign(static_cast<size_t>(n) + 1, 0);
    pattern_rows.clear();
    for (int32_t j = 0; j < n; ++j) {
        for (int32_t t = start[j]; t < start[j + 1]; ++t) {
            if (rows[static_cast<size_t>(t)] != j) pattern_rows.push_back(rows[static_cast<size_t>(t)]);
        }
        pattern_start[static_cast<size_t>(j) + 1] = static_cast<int32_t>(pattern_rows.size());
    }
}

}  // namespace pivot::direct
