#include "subspace_minimization.hpp"

#include <algorithm>
#include <cmath>

#include <pivot/solver_support.hpp>

namespace pivot::pgs {

namespace {

// The system solved is (K + mu diag(K)) d = -w_F: a proximal term of weight
// mu (the Levenberg-Marquardt regularization of the Newton step) keeps the
// factorization defined when A_FF is singular, as for redundant contacts
// without regularization (the Siconos box stack: 78 zero eigenvalues of 156),
// at the price of a step that is exact only to about mu relative, which the
// next step or sweep removes.
constexpr double kProximalWeight = 1e-10;

// Points tried on the projected path, t = 1, 1/2, ..., 2^-9. With a wrong
// free set the face minimizer can lie far outside the bounds (A_FF is nearly
// singular along the internal-force directions), and the projection of a
// long step raises the objective: short steps still make progress. Measured
// on lcp-bench and on piles of 300 to 3000 contacts: 5 trials leave the
// 3000-contact pile unsolved after 20 000 sweeps, 10 solve it in about 1 000;
// more gain nothing.
constexpr int kPathTrials = 10;

inline void add_scaled_column(const pivot_lcp_problem& p, uint32_t column, double scale, double* y) {
    for (int32_t k = p.col_start[column]; k < p.col_start[column + 1]; ++k) y[p.row_index[k]] += p.values[k] * scale;
}

// The objective of min 1/2 x'Ax + b'x at x, with w = A x + b.
double quadratic_objective(const pivot_lcp_problem& p, const double* x, const double* w) {
    double f = 0.0;
    for (uint32_t i = 0; i < p.n; ++i) f += x[i] * (w[i] + p.b[i]);
    return 0.5 * f;
}

}  // namespace

void SubspaceMinimization::reserve(uint32_t n, uint32_t nnz, double fill) {
    const size_t rows = static_cast<size_t>(n) + 1;
    const size_t entries = static_cast<size_t>(nnz) + 1;
    if (state_.size() < rows) {
        state_.assign(rows, kFixed);
        factor_state_.assign(rows, kFixed);
        free_rows_.resize(rows);
        previous_free_.assign(rows, 0);
        local_.resize(rows);
        sliding_head_.resize(rows);
        sliding_next_.resize(rows);
        coefficient_.resize(rows);
        lower_.resize(rows);
        upper_.resize(rows);
        k_start_.resize(rows + 1);
        kt_start_.resize(rows + 1);
        pattern_start_.resize(rows + 1);
        accumulator_.resize(rows);
        marker_.resize(rows);
        order_.resize(rows);
        ordered_rows_.resize(rows);
        ordered_position_.assign(rows, -1);
        slot_.resize(rows);
        direction_.assign(rows, 0.0);
        a_direction_.resize(rows);
        trial_x_.resize(rows);
        trial_w_.resize(rows);
        local_work_.resize(rows);
        moving_.resize(rows);
    }
    // K gathers each column of A at most once (free columns and the sliding
    // columns merged into their normal's): nnz(K) <= nnz(A); the symmetric
    // pattern has at most twice that.
    if (k_rows_.size() < entries) {
        k_rows_.resize(entries);
        k_values_.resize(entries);
        kt_rows_.resize(entries);
        kt_values_.resize(entries);
        pattern_rows_.resize(2 * entries);
    }
    ordering_.reserve(static_cast<int32_t>(n), 2 * static_cast<int64_t>(nnz));
    factor_.reserve(static_cast<int32_t>(n), static_cast<int64_t>(fill * static_cast<double>(nnz)) + n);
}

void SubspaceMinimization::forget(double fill) {
    fill_ = fill;
    factor_valid_ = false;
    for (int32_t k = 0; ordering_valid_ && k < ordered_count_; ++k) ordered_position_[ordered_rows_[k]] = -1;
    ordering_valid_ = false;
    previous_free_count_ = -1;
}

void SubspaceMinimization::classify(const pivot_lcp_problem& p, SubspaceKind kind, const double* x,
                                    const uint8_t* locked) {
    free_count_ = 0;
    for (uint32_t i = 0; i < p.n; ++i) {
        sdk::row_bounds(p, x, i, lower_[i], upper_[i]);
        sliding_head_[i] = -1;
        if (lower_[i] < x[i] && x[i] < upper_[i] && (locked == nullptr || locked[i] == 0)) {
            state_[i] = kFree;
            local_[i] = free_count_;
            free_rows_[free_count_++] = static_cast<int32_t>(i);
        } else {
            state_[i] = kFixed;
            local_[i] = -1;
        }
    }
    if (kind != SubspaceKind::coupled || p.findex == nullptr) return;
    // A friction row on a bound that is a nonzero multiple of a free normal
    // impulse slides: it moves with its normal row.
    for (uint32_t i = p.n; i-- > 0;) {
        const int32_t j = p.findex[i];
        if (j < 0 || state_[i] != kFixed || !(lower_[i] < upper_[i]) || state_[j] != kFree) continue;
        if (locked != nullptr && locked[i] != 0) continue;
        const bool at_upper = x[i] >= upper_[i];
        const bool negative = x[j] < 0.0;
        coefficient_[i] = (at_upper ? p.hi[i] : p.lo[i]) * (negative ? -1.0 : 1.0);
        state_[i] = static_cast<int8_t>(kSlidingBase + 2 * (at_upper ? 1 : 0) + (negative ? 1 : 0));
        sliding_next_[i] = sliding_head_[j];
        sliding_head_[j] = static_cast<int32_t>(i);
    }
}

void SubspaceMinimization::add_column(const pivot_lcp_problem& p, uint32_t column, double scale,
                                      int32_t local_column) {
    int32_t& count = k_start_[local_column + 1];
    for (int32_t k = p.col_start[column]; k < p.col_start[column + 1]; ++k) {
        const int32_t r = local_[p.row_index[k]];
        if (r < 0) continue;
        if (marker_[r] != local_column) {
            marker_[r] = local_column;
            accumulator_[r] = scale * p.values[k];
            k_rows_[count++] = r;
        } else {
            accumulator_[r] += scale * p.values[k];
        }
    }
}

bool SubspaceMinimization::factorize(const pivot_lcp_problem& p, bool transpose_needed) {
    const int32_t m = free_count_;
    // K = A_FF plus, in column n, c_s A(F, s) for each sliding row s of normal n.
    std::fill(marker_.begin(), marker_.begin() + m, -1);
    k_start_[0] = 0;
    for (int32_t jl = 0; jl < m; ++jl) {
        k_start_[jl + 1] = k_start_[jl];
        const auto j = static_cast<uint32_t>(free_rows_[jl]);
        add_column(p, j, 1.0, jl);
        for (int32_t s = sliding_head_[j]; s != -1; s = sliding_next_[s]) {
            add_column(p, static_cast<uint32_t>(s), coefficient_[s], jl);
        }
        if (marker_[jl] == jl) accumulator_[jl] *= 1.0 + kProximalWeight;
        for (int32_t t = k_start_[jl]; t < k_start_[jl + 1]; ++t) k_values_[t] = accumulator_[k_rows_[t]];
    }
    const int32_t entries = k_start_[m];
    if (transpose_needed) {
        std::fill(kt_start_.begin(), kt_start_.begin() + m + 1, 0);
        for (int32_t t = 0; t < entries; ++t) ++kt_start_[k_rows_[t] + 1];
        for (int32_t r = 0; r < m; ++r) kt_start_[r + 1] += kt_start_[r];
        for (int32_t jl = 0; jl < m; ++jl) {
            for (int32_t t = k_start_[jl]; t < k_start_[jl + 1]; ++t) {
                const int32_t at = kt_start_[k_rows_[t]]++;
                kt_rows_[at] = jl;
                kt_values_[at] = k_values_[t];
            }
        }
        for (int32_t r = m; r > 0; --r) kt_start_[r] = kt_start_[r - 1];
        kt_start_[0] = 0;
    }
    // The symmetric pattern of K + K^T without the diagonal.
    std::fill(marker_.begin(), marker_.begin() + m, -1);
    int32_t count = 0;
    for (int32_t jl = 0; jl < m; ++jl) {
        pattern_start_[jl] = count;
        marker_[jl] = jl;  // no diagonal
        for (int32_t t = k_start_[jl]; t < k_start_[jl + 1]; ++t) {
            const int32_t r = k_rows_[t];
            if (marker_[r] != jl) {
                marker_[r] = jl;
                pattern_rows_[count++] = r;
            }
        }
        if (transpose_needed) {
            for (int32_t t = kt_start_[jl]; t < kt_start_[jl + 1]; ++t) {
                const int32_t r = kt_rows_[t];
                if (marker_[r] != jl) {
                    marker_[r] = jl;
                    pattern_rows_[count++] = r;
                }
            }
        }
    }
    pattern_start_[m] = count;
    // Order: the last minimum-degree order restricted to the free set, the
    // new rows last, while at most 1/20 of the rows are new and the factor
    // stays within 1.5 times the size that order had; else a fresh one (the
    // ordering costs about as much as the numeric factorization).
    int32_t new_rows = 0;
    for (int32_t jl = 0; jl < m; ++jl) new_rows += ordered_position_[free_rows_[jl]] < 0 ? 1 : 0;
    const bool derive = ordering_valid_ && new_rows <= std::max(4, m / 20);
    if (derive) {
        std::fill(slot_.begin(), slot_.begin() + ordered_count_, -1);
        for (int32_t jl = 0; jl < m; ++jl) {
            const int32_t position = ordered_position_[free_rows_[jl]];
            if (position >= 0) slot_[position] = jl;
        }
        int32_t k = 0;
        for (int32_t position = 0; position < ordered_count_; ++position) {
            if (slot_[position] >= 0) order_[k++] = slot_[position];
        }
        for (int32_t jl = 0; jl < m; ++jl) {
            if (ordered_position_[free_rows_[jl]] < 0) order_[k++] = jl;
        }
    }
    // The factor's size limit depends on the problem only, never on how much
    // was reserved, so that reserve() changes no result.
    int64_t entries_of_l = derive ? factor_.analyze(m, pattern_start_.data(), pattern_rows_.data(), order_.data()) : -1;
    if (!derive || entries_of_l > ordered_factor_entries_ + ordered_factor_entries_ / 2) {
        if (!ordering_.order(m, pattern_start_.data(), pattern_rows_.data(), order_.data())) return false;
        entries_of_l = factor_.analyze(m, pattern_start_.data(), pattern_rows_.data(), order_.data());
        for (int32_t k = 0; ordering_valid_ && k < ordered_count_; ++k) ordered_position_[ordered_rows_[k]] = -1;
        for (int32_t k = 0; k < m; ++k) {
            ordered_rows_[k] = free_rows_[order_[k]];
            ordered_position_[ordered_rows_[k]] = k;
        }
        ordered_count_ = m;
        ordered_factor_entries_ = entries_of_l;
        ordering_valid_ = true;
    }
    const auto limit = static_cast<int64_t>(fill_ * static_cast<double>(p.nnz)) + p.n;
    if (entries_of_l < 0 || entries_of_l > limit || entries_of_l > factor_.factor_capacity()) return false;
    return factor_.factorize(pattern_start_.data(), pattern_rows_.data(), k_start_.data(), k_rows_.data(),
                             k_values_.data(),
                             transpose_needed ? kt_start_.data() : nullptr, kt_rows_.data(), kt_values_.data());
}

SubspaceOutcome SubspaceMinimization::step(const pivot_lcp_problem& p, bool symmetric, SubspaceKind kind, double* x,
                                           double* w, double residual, double residual_limit,
                                           const uint8_t* locked) {
    SubspaceOutcome outcome;
    classify(p, kind, x, locked);
    const int32_t m = free_count_;
    int32_t changes = 0;
    for (uint32_t i = 0; i < p.n; ++i) {
        const int8_t is_free = state_[i] == kFree ? 1 : 0;
        changes += is_free != previous_free_[i] ? 1 : 0;
        previous_free_[i] = is_free;
    }
    outcome.free_set_changes = previous_free_count_ < 0 ? static_cast<int32_t>(p.n) : changes;
    outcome.same_free_set = outcome.free_set_changes == 0;
    previous_free_count_ = m;
    if (m == 0) return outcome;

    const bool reuse = factor_valid_ && factor_kind_ == kind &&
                       std::equal(state_.begin(), state_.begin() + p.n, factor_state_.begin());
    if (!reuse) {
        factor_valid_ = factorize(p, !symmetric || kind == SubspaceKind::coupled);
        factor_kind_ = kind;
        std::copy(state_.begin(), state_.begin() + p.n, factor_state_.begin());
        if (!factor_valid_) return outcome;
    }
    outcome.attempted = true;

    // d_F = -K^-1 w_F; a sliding row follows its normal: d_s = c_s d_n.
    for (int32_t jl = 0; jl < m; ++jl) local_work_[jl] = -w[free_rows_[jl]];
    factor_.solve(local_work_.data());
    int32_t moving = 0;
    bool finite = true;
    for (int32_t jl = 0; jl < m; ++jl) {
        const int32_t i = free_rows_[jl];
        direction_[i] = local_work_[jl];
        finite = finite && std::isfinite(local_work_[jl]);
        moving_[moving++] = i;
        for (int32_t s = sliding_head_[i]; s != -1; s = sliding_next_[s]) {
            direction_[s] = coefficient_[s] * direction_[i];
            moving_[moving++] = s;
        }
    }
    if (finite) {
        std::fill(a_direction_.begin(), a_direction_.begin() + p.n, 0.0);
        for (int32_t t = 0; t < moving; ++t) {
            const auto i = static_cast<uint32_t>(moving_[t]);
            add_scaled_column(p, i, direction_[i], a_direction_.data());
        }
        const bool quadratic = kind == SubspaceKind::frozen && symmetric;
        const double objective = quadratic ? quadratic_objective(p, x, w) : 0.0;
        std::copy(x, x + p.n, trial_x_.begin());
        double t = 1.0;
        for (int trial = 0; trial < kPathTrials; ++trial, t *= 0.5) {
            for (uint32_t i = 0; i < p.n; ++i) trial_w_[i] = w[i] + t * a_direction_[i];
            for (int32_t s = 0; s < moving; ++s) trial_x_[moving_[s]] = x[moving_[s]] + t * direction_[moving_[s]];
            // Project: frozen bounds, or the real ones (rows without a
            // friction index first, as the others' bounds depend on them).
            for (int pass = 0; pass < 2; ++pass) {
                for (int32_t s = 0; s < moving; ++s) {
                    const auto i = static_cast<uint32_t>(moving_[s]);
                    const bool friction = p.findex != nullptr && p.findex[i] >= 0;
                    double lower = lower_[i];
                    double upper = upper_[i];
                    if (kind == SubspaceKind::coupled) {
                        if (friction != (pass == 1)) continue;
                        sdk::row_bounds(p, trial_x_.data(), i, lower, upper);
                    } else if (pass == 1) {
                        continue;
                    }
                    const double clamped = std::min(upper, std::max(lower, trial_x_[i]));
                    if (clamped != trial_x_[i]) {
                        add_scaled_column(p, i, clamped - trial_x_[i], trial_w_.data());
                        trial_x_[i] = clamped;
                    }
                }
            }
            const double trial_residual = sdk::natural_map_residual(p, trial_x_.data(), trial_w_.data(), 0, p.n);
            const bool improves = quadratic ? quadratic_objective(p, trial_x_.data(), trial_w_.data()) < objective
                                            : trial_residual < residual;
            if (improves && trial_residual < residual_limit) {
                std::copy(trial_x_.begin(), trial_x_.begin() + p.n, x);
                std::copy(trial_w_.begin(), trial_w_.begin() + p.n, w);
                outcome.accepted = true;
                outcome.full_step = trial == 0;
                outcome.residual = trial_residual;
                break;
            }
        }
    }
    for (int32_t s = 0; s < moving; ++s) direction_[moving_[s]] = 0.0;
    return outcome;
}

}  // namespace pivot::pgs
