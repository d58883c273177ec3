#include "velocity_hessian.hpp"

#include <algorithm>

namespace pivot::newton {

bool VelocityHessian::set_pattern(const pivot_factored_problem& f, uint32_t n, const int32_t* findex) {
    // The pairs of blocks the rows couple (a row acts on at most two), and
    // a friction row with its normal row.
    pairs_scratch_.clear();
    const auto add_pairs = [&](uint32_t i, uint32_t j) {
        for (uint32_t a = f.row_block_start[i]; a < f.row_block_start[i + 1]; ++a) {
            for (uint32_t b = f.row_block_start[j]; b < f.row_block_start[j + 1]; ++b) {
                uint32_t p = f.row_blocks[a].block, q = f.row_blocks[b].block;
                if (p == q) continue;
                if (p > q) std::swap(p, q);
                pairs_scratch_.push_back(static_cast<uint64_t>(p) << 32 | q);
            }
        }
    };
    for (uint32_t i = 0; i < n; ++i) {
        add_pairs(i, i);
        if (findex != nullptr && findex[i] >= 0) add_pairs(i, static_cast<uint32_t>(findex[i]));
    }
    const uint32_t blocks = f.block_count;
    const bool same_blocks = velocities_ > 0 && blocks == blocks_ &&
                             std::equal(f.block_start, f.block_start + blocks + 1, block_start_.begin(),
                                        block_start_.end());
    // The same rows on the same blocks as last time (a resting pile, step
    // after step): the same pattern, known without sorting the pairs.
    if (same_blocks && pairs_scratch_ == pairs_as_met_) return true;
    pairs_as_met_ = pairs_scratch_;
    std::sort(pairs_scratch_.begin(), pairs_scratch_.end());
    pairs_scratch_.erase(std::unique(pairs_scratch_.begin(), pairs_scratch_.end()), pairs_scratch_.end());
    if (same_blocks && pairs_scratch_ == pairs_) {
        return true;  // the same blocks, coupled the same way: the same pattern
    }
    blocks_ = blocks;
    block_start_.assign(f.block_start, f.block_start + blocks + 1);
    velocities_ = block_start_[blocks];
    pairs_.swap(pairs_scratch_);

    // Each block's adjacent blocks, itself included, ascending: the pairs
    // (a, b), a < b, are sorted by a, so b's lower neighbours arrive in
    // order, then b itself, then its higher ones (again sorted).
    adjacent_start_.assign(blocks + 1, 0);
    for (uint32_t k = 0; k < blocks; ++k) adjacent_start_[k + 1] = 1;
    for (const uint64_t pair : pairs_) {
        ++adjacent_start_[(pair >> 32) + 1];
        ++adjacent_start_[(pair & 0xffffffffu) + 1];
    }
    for (uint32_t k = 0; k < blocks; ++k) adjacent_start_[k + 1] += adjacent_start_[k];
    adjacent_.resize(adjacent_start_[blocks]);
    std::vector<uint32_t>& next = next_;
    next.assign(adjacent_start_.begin(), adjacent_start_.end() - 1);
    for (const uint64_t pair : pairs_) adjacent_[next[pair & 0xffffffffu]++] = static_cast<uint32_t>(pair >> 32);
    for (uint32_t k = 0; k < blocks; ++k) adjacent_[next[k]++] = k;
    for (const uint64_t pair : pairs_) adjacent_[next[pair >> 32]++] = static_cast<uint32_t>(pair & 0xffffffffu);

    // Each adjacent block's run of rows in the block's columns; the CSC of
    // H and the pattern (no diagonal).
    run_.resize(adjacent_.size());
    for (uint32_t k = 0; k < blocks; ++k) {
        uint32_t length = 0;
        for (uint32_t t = adjacent_start_[k]; t < adjacent_start_[k + 1]; ++t) {
            run_[t] = length;
            const uint32_t a = adjacent_[t];
            length += block_start_[a + 1] - block_start_[a];
        }
    }
    column_start_.assign(velocities_ + 1, 0);
    pattern_start_.assign(velocities_ + 1, 0);
    row_index_.clear();
    pattern_rows_.clear();
    for (uint32_t k = 0; k < blocks; ++k) {
        for (uint32_t v = block_start_[k]; v < block_start_[k + 1]; ++v) {
            for (uint32_t t = adjacent_start_[k]; t < adjacent_start_[k + 1]; ++t) {
                const uint32_t a = adjacent_[t];
                for (uint32_t r = block_start_[a]; r < block_start_[a + 1]; ++r) {
                    row_index_.push_back(static_cast<int32_t>(r));
                    if (r != v) pattern_rows_.push_back(static_cast<int32_t>(r));
                }
            }
            column_start_[v + 1] = static_cast<int32_t>(row_index_.size());
            pattern_start_[v + 1] = static_cast<int32_t>(pattern_rows_.size());
        }
    }
    values_.resize(row_index_.size());
    transposed_values_.resize(row_index_.size());
    // (r, c) -> (c, r): row c within column r (rows ascending).
    transpose_.resize(row_index_.size());
    for (uint32_t c = 0; c < velocities_; ++c) {
        for (int32_t e = column_start_[c]; e < column_start_[c + 1]; ++e) {
            const auto r = static_cast<uint32_t>(row_index_[static_cast<size_t>(e)]);
            const auto first = row_index_.begin() + column_start_[r], last = row_index_.begin() + column_start_[r + 1];
            transpose_[static_cast<size_t>(e)] = std::lower_bound(first, last, static_cast<int32_t>(c)) - row_index_.begin();
        }
    }

    // The block graph (no self) for the ordering.
    block_graph_start_.assign(blocks + 1, 0);
    block_graph_.clear();
    for (uint32_t k = 0; k < blocks; ++k) {
        for (uint32_t t = adjacent_start_[k]; t < adjacent_start_[k + 1]; ++t) {
            if (adjacent_[t] != k) block_graph_.push_back(static_cast<int32_t>(adjacent_[t]));
        }
        block_graph_start_[k + 1] = static_cast<int32_t>(block_graph_.size());
    }
    if (analyze()) return true;
    velocities_ = 0;  // not analyzed: the next call starts over, whatever its pairs
    pairs_as_met_.clear();
    return false;
}

bool VelocityHessian::analyze() {
    const auto blocks = static_cast<int32_t>(blocks_);
    ordering_.reserve(blocks, static_cast<int64_t>(block_graph_.size()));
    block_order_.resize(blocks_);
    if (!ordering_.order(blocks, block_graph_start_.data(), block_graph_.data(), block_order_.data())) {
        velocities_ = 0;
        return false;
    }
    // A block's velocities are eliminated together, in the blocks' order:
    // the fill of the block graph's order, no more.
    order_.clear();
    for (const int32_t k : block_order_) {
        for (uint32_t v = block_start_[static_cast<uint32_t>(k)]; v < block_start_[static_cast<uint32_t>(k) + 1]; ++v) {
            order_.push_back(static_cast<int32_t>(v));
        }
    }
    const auto rows = static_cast<int32_t>(velocities_);
    factor_.reserve(rows, 0);
    const int64_t fill = factor_.analyze(rows, pattern_start_.data(), pattern_rows_.data(), order_.data());
    if (fill < 0) {
        velocities_ = 0;
        return false;
    }
    factor_.reserve(rows, fill);
    return true;
}

uint32_t VelocityHessian::run_of(uint32_t row_block, uint32_t column_block) const {
    const auto first = adjacent_.begin() + adjacent_start_[column_block];
    const auto last = adjacent_.begin() + adjacent_start_[column_block + 1];
    return run_[static_cast<size_t>(std::lower_bound(first, last, row_block) - adjacent_.begin())];
}

void VelocityHessian::add_outer(const pivot_factored_problem& f, uint32_t a_row, uint32_t b_row, double scale) {
    for (uint32_t a = f.row_block_start[a_row]; a < f.row_block_start[a_row + 1]; ++a) {
        const pivot_row_block& ra = f.row_blocks[a];
        const double* ja = f.jacobian + ra.jacobian_offset;
        for (uint32_t b = f.row_block_start[b_row]; b < f.row_block_start[b_row + 1]; ++b) {
            const pivot_row_block& rb = f.row_blocks[b];
            const double* jb = f.jacobian + rb.jacobian_offset;
            const uint32_t run = run_of(ra.block, rb.block) + ra.first;
            for (uint32_t c = 0; c < rb.count; ++c) {
                const double factor = scale * jb[c];
                if (factor == 0.0) continue;
                double* column = values_.data() + column_start_[block_start_[rb.block] + rb.first + c] + run;
                for (uint32_t r = 0; r < ra.count; ++r) column[r] += factor * ja[r];
            }
        }
    }
}

void VelocityHessian::add_outer_lower(const pivot_factored_problem& f, uint32_t row, double scale) {
    for (uint32_t a = f.row_block_start[row]; a < f.row_block_start[row + 1]; ++a) {
        const pivot_row_block& ra = f.row_blocks[a];
        const double* ja = f.jacobian + ra.jacobian_offset;
        const uint32_t row0 = block_start_[ra.block] + ra.first;  // the velocity of ja[0]
        for (uint32_t b = f.row_block_start[row]; b < f.row_block_start[row + 1]; ++b) {
            const pivot_row_block& rb = f.row_blocks[b];
            const uint32_t column0 = block_start_[rb.block] + rb.first;
            if (row0 + ra.count <= column0) continue;  // wholly above the diagonal
            const double* jb = f.jacobian + rb.jacobian_offset;
            const uint32_t run = run_of(ra.block, rb.block) + ra.first;
            for (uint32_t c = 0; c < rb.count; ++c) {
                const double factor = scale * jb[c];
                if (factor == 0.0) continue;
                double* column = values_.data() + column_start_[column0 + c] + run;
                // rows row0 + r >= column0 + c only
                for (uint32_t r = column0 + c > row0 ? column0 + c - row0 : 0; r < ra.count; ++r) {
                    column[r] += factor * ja[r];
                }
            }
        }
    }
}

bool VelocityHessian::factor(const pivot_factored_problem& f, uint32_t n, const double* weight,
                             const std::vector<Coupling>& couplings) {
    std::fill(values_.begin(), values_.end(), 0.0);
    // Mbar on the diagonal blocks.
    for (uint32_t k = 0; k < blocks_; ++k) {
        const uint32_t nv = block_start_[k + 1] - block_start_[k];
        const double* m = f.mass + f.mass_offset[k];
        const uint32_t self = run_of(k, k);
        for (uint32_t c = 0; c < nv; ++c) {
            double* column = values_.data() + column_start_[block_start_[k] + c] + self;
            for (uint32_t r = 0; r < nv; ++r) column[r] += m[r + c * nv];
        }
    }
    // J_i^T J_i / d_i of the free rows: symmetric, so the lower triangle
    // (row >= column) and then its mirror, half the multiply-adds; then the
    // friction couplings, which are not.
    for (uint32_t i = 0; i < n; ++i) {
        if (weight[i] != 0.0) add_outer_lower(f, i, weight[i]);
    }
    for (uint32_t c = 0; c < velocities_; ++c) {
        for (int32_t e = column_start_[c]; e < column_start_[c + 1]; ++e) {
            if (static_cast<uint32_t>(row_index_[static_cast<size_t>(e)]) < c) {
                values_[static_cast<size_t>(e)] = values_[static_cast<size_t>(transpose_[static_cast<size_t>(e)])];
            }
        }
    }
    for (const Coupling& c : couplings) add_outer(f, c.row, c.normal, c.value);
    if (couplings.empty()) {
        return factor_.factorize(pattern_start_.data(), pattern_rows_.data(), column_start_.data(),
                                 row_index_.data(), values_.data(), nullptr, nullptr, nullptr);
    }
    for (size_t e = 0; e < values_.size(); ++e) transposed_values_[e] = values_[static_cast<size_t>(transpose_[e])];
    return factor_.factorize(pattern_start_.data(), pattern_rows_.data(), column_start_.data(), row_index_.data(),
                             values_.data(), column_start_.data(), row_index_.data(), transposed_values_.data());
}

}  // namespace pivot::newton
