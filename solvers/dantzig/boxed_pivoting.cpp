#include "boxed_pivoting.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "vector_kernels.hpp"

namespace pivot::dantzig {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Krylov vectors kept by the Newton step's GMRES before it restarts.
constexpr uint32_t kGmresRestart = 60;
// Passes without a 10% fall of the friction mismatch after which a Newton
// step is tried even though the sets still change (friction_consistency()).
constexpr uint32_t kStalledPasses = 16;

double clamp(double v, double lower, double upper) { return std::min(upper, std::max(lower, v)); }

}  // namespace

void BoxedPivoting::reserve(uint32_t n) {
    state_.reserve(n);
    x_.reserve(n);
    w_.reserve(n);
    lower_.reserve(n);
    upper_.reserve(n);
    scale_.reserve(n);
    scale_step_.reserve(n);
    scale_saved_.reserve(n);
    target_saved_.reserve(n);
    relaxation_.reserve(n);
    position_.reserve(n);
    order_.reserve(n);
    blocked_.reserve(n);
    step_w_.reserve(n);
    step_x_.reserve(n);
    watched_.reserve(n);
    free_rows_.reserve(n);
    forward_.reserve(n);
    scaled_.reserve(n);
    direction_.reserve(n);
    leaving_.reserve(n);
    coupled_work_.reserve(n);
    coupled_rows_.reserve(n);
    coupled_rhs_.reserve(n);
    coupled_x_.reserve(n);
    gmres_.reserve(n, kGmresRestart);
    factor_.reserve(n);
}

// ---------------------------------------------------------------- bounds

void BoxedPivoting::refresh_bounds(uint32_t i) {
    if (has_findex(i)) {
        // ODE's friction index: multipliers (finite, lo <= 0 <= hi, checked
        // by validate_problem) of the scale, which stands for |x_findex|.
        lower_[i] = lo_[i] * scale_[i];
        upper_[i] = hi_[i] * scale_[i];
    } else {
        lower_[i] = lo_[i];
        upper_[i] = hi_[i];
    }
}

// ---------------------------------------------------------------- free set C

double BoxedPivoting::eliminate(uint32_t row) {
    // forward_ = L^-1 a, scaled_ = D^-1 L^-1 a for a = A_C,row; returns the
    // Schur complement A_rr - a^T A_CC^-1 a, the pivot the row would get in
    // the factor, which is also dw_row / dx_row along the driving direction.
    const uint32_t k = factor_.size();
    std::fill(forward_.begin(), forward_.begin() + k, 0.0);
    uint32_t first = k;
    for (uint32_t e = a_->column_begin(row); e < a_->column_end(row); ++e) {
        const int32_t p = position_[a_->row(e)];
        if (p < 0) continue;
        forward_[static_cast<uint32_t>(p)] = a_->value(e);
        first = std::min(first, static_cast<uint32_t>(p));
    }
    std::fill(scaled_.begin(), scaled_.begin() + first, 0.0);
    if (first == k) return a_->diagonal(row);
    factor_.forward_solve(forward_.data(), first);
    for (uint32_t p = first; p < k; ++p) scaled_[p] = forward_[p] / factor_.pivot(p);
    return a_->diagonal(row) - dot(forward_.data() + first, scaled_.data() + first, k - first);
}

bool BoxedPivoting::independent(double schur_pivot, uint32_t row) const {
    // A PSD A_CC turns singular when a row that is a combination of C's rows
    // (two identical contact rows, a redundant joint) joins: its Schur pivot
    // is zero up to rounding, i.e. about machine epsilon times A_rr times the
    // growth through the factor. A pivot below singular_pivot_ratio * A_rr
    // (default 1e-10, far above rounding yet below the 1e-4 relative
    // regularization contact solvers add) is treated as zero: such a row
    // never joins C, which keeps cond(A_CC) below about 1 / ratio.
    return schur_pivot > settings_.singular_pivot_ratio * a_->diagonal(row);
}

void BoxedPivoting::join_free_set(uint32_t row, double schur_pivot) {
    const uint32_t k = factor_.size();
    factor_.append(scaled_.data(), schur_pivot);
    free_rows_[k] = row;
    position_[row] = static_cast<int32_t>(k);
    state_[row] = RowState::free;
    w_[row] = 0.0;
}

void BoxedPivoting::leave_free_set(uint32_t position, RowState to) {
    const uint32_t row = free_rows_[position];
    factor_.remove(position);
    const uint32_t k = factor_.size();
    for (uint32_t p = position; p < k; ++p) {
        free_rows_[p] = free_rows_[p + 1];
        position_[free_rows_[p]] = static_cast<int32_t>(p);
    }
    position_[row] = -1;
    state_[row] = to;
    x_[row] = to == RowState::at_lower ? lower_[row] : upper_[row];
}

// x_C = -A_CC^-1 (b_C + A_CN x_N): the free rows' values for the current
// values of all other rows.
void BoxedPivoting::solve_free_rows() {
    const uint32_t k = factor_.size();
    for (uint32_t p = 0; p < k; ++p) {
        const uint32_t c = free_rows_[p];
        double sum = b_[c];
        for (uint32_t e = a_->column_begin(c); e < a_->column_end(c); ++e) {
            const uint32_t j = a_->row(e);
            if (position_[j] < 0) sum += a_->value(e) * x_[j];
        }
        direction_[p] = -sum;
    }
    factor_.solve(direction_.data());
    for (uint32_t p = 0; p < k; ++p) x_[free_rows_[p]] = direction_[p];
}

// ---------------------------------------------------------------- driving

BoxedPivoting::DriveEnd BoxedPivoting::drive(uint32_t d) {
    ++drive_stamp_;
    if (scale_when_driven_ && has_findex(d)) {
        // ODE's rule for the first pass: the bounds of a friction row are
        // mu times its normal impulse when the row's turn comes (the normal
        // rows come first, so they have theirs by then).
        scale_[d] = std::abs(x_[normal_of(d)]);
    }
    refresh_bounds(d);
    const double start = clamp(x_[d], lower_[d], upper_[d]);
    if (start != x_[d]) {
        // Keep the processed rows' w in step with the moved x_d.
        for (uint32_t e = a_->column_begin(d); e < a_->column_end(d); ++e) {
            w_[a_->row(e)] += a_->value(e) * (start - x_[d]);
        }
        x_[d] = start;
    }
    for (;;) {
        const double wd = b_[d] + a_->row_times(d, x_.data());
        const double xd = x_[d];
        const double lower = lower_[d];
        const double upper = upper_[d];
        w_[d] = wd;
        if (xd <= lower && wd >= -w_tolerance_) {
            state_[d] = RowState::at_lower;
            x_[d] = lower;
            return DriveEnd::done;
        }
        if (xd >= upper && wd <= w_tolerance_) {
            state_[d] = RowState::at_upper;
            x_[d] = upper;
            return DriveEnd::done;
        }
        const double schur = eliminate(d);
        // Rounding can make the Schur complement of a PSD matrix negative:
        // the factor admits cond(A_CC) up to 1 / singular_pivot_ratio, so the
        // error reaches machine epsilon / ratio times A_dd (2e-6 at the
        // default 1e-10); below 1e4 times that it is treated as zero (d is
        // dependent on C). Clearly negative means A is not PSD, and then w_d
        // would move away from 0 as x_d moves towards it.
        if (schur < -negative_pivot_ratio_ * a_->diagonal(d)) return DriveEnd::not_semidefinite;
        const bool can_join = independent(schur, d);
        if (std::abs(wd) <= w_tolerance_) {
            // Strictly inside its bounds with w = 0: satisfied as a free row.
            if (can_join) {
                join_free_set(d, schur);
            } else {
                state_[d] = RowState::free_dependent;
            }
            return DriveEnd::done;
        }
        // Move x_d towards where w_d = 0: w_d changes at the rate `schur`
        // (>= 0) per unit of x_d.
        const double s = wd < 0.0 ? 1.0 : -1.0;
        const uint32_t k = factor_.size();
        std::copy(scaled_.begin(), scaled_.begin() + k, direction_.begin());
        factor_.backward_solve(direction_.data());  // A_CC^-1 A_Cd
        // dx_d = s, dx_C = -s A_CC^-1 A_Cd. dw = A dx matters only for the
        // rows held at a bound that can leave it (l < u): for those, a
        // sparse row (= column) of A times dx.
        step_x_[d] = s;
        for (uint32_t p = 0; p < k; ++p) step_x_[free_rows_[p]] = -s * direction_[p];
        watched_.clear();
        for (uint32_t j = 0; j < n_; ++j) {
            if ((state_[j] == RowState::at_lower || state_[j] == RowState::at_upper) && lower_[j] < upper_[j]) {
                watched_.push_back(j);
                step_w_[j] = a_->row_times(j, step_x_.data());
            }
        }
        step_x_[d] = 0.0;
        for (uint32_t p = 0; p < k; ++p) step_x_[free_rows_[p]] = 0.0;

        // Ratio test: the largest step keeping every processed row valid.
        enum class Event { none, own_zero, own_bound, free_leaves, bound_joins };
        Event event = Event::none;
        double step = kInfinity;
        uint32_t which = 0;
        if (can_join) {
            step = std::abs(wd) / schur;
            event = Event::own_zero;
        }
        const double own_room = s > 0.0 ? upper - xd : xd - lower;
        if (own_room < step) {
            step = own_room;
            event = Event::own_bound;
        }
        for (uint32_t p = 0; p < k; ++p) {
            const double dx = -s * direction_[p];
            const uint32_t c = free_rows_[p];
            double room = kInfinity;
            if (dx > 0.0 && upper_[c] < kInfinity) {
                room = std::max(0.0, (upper_[c] - x_[c]) / dx);
            } else if (dx < 0.0 && lower_[c] > -kInfinity) {
                room = std::max(0.0, (lower_[c] - x_[c]) / dx);
            }
            if (room < step) {
                step = room;
                event = Event::free_leaves;
                which = p;
            }
        }
        for (uint32_t j : watched_) {
            const double dw = step_w_[j];
            double room = kInfinity;
            if (state_[j] == RowState::at_lower) {
                if (dw < 0.0) room = std::max(0.0, w_[j]) / -dw;
            } else if (dw > 0.0) {
                room = std::max(0.0, -w_[j]) / dw;
            }
            if (room < step && blocked_[j] != drive_stamp_) {
                step = room;
                event = Event::bound_joins;
                which = j;
            }
        }
        if (event == Event::none || !(step < kInfinity)) return DriveEnd::unbounded;

        x_[d] = xd + s * step;
        for (uint32_t p = 0; p < k; ++p) x_[free_rows_[p]] -= step * s * direction_[p];
        for (uint32_t j : watched_) w_[j] += step * step_w_[j];
        ++pivots_;

        switch (event) {
            case Event::own_zero:
                join_free_set(d, schur);
                return DriveEnd::done;
            case Event::own_bound:
                state_[d] = s > 0.0 ? RowState::at_upper : RowState::at_lower;
                x_[d] = s > 0.0 ? upper : lower;
                return DriveEnd::done;
            case Event::free_leaves:
                leave_free_set(which, -s * direction_[which] > 0.0 ? RowState::at_upper : RowState::at_lower);
                break;
            case Event::bound_joins: {
                const double pivot = eliminate(which);
                if (independent(pivot, which)) {
                    join_free_set(which, pivot);
                } else {
                    // In exact arithmetic a row dependent on C keeps dw = 0;
                    // here dw was rounding. It stays at its bound, out of
                    // this drive's ratio tests; the end-of-pass check
                    // re-drives it if its w really changed sign.
                    blocked_[which] = drive_stamp_;
                    w_[which] = 0.0;
                }
                break;
            }
            case Event::none: break;
        }
        if (pivots_ >= settings_.max_pivots) return DriveEnd::pivot_limit;
        if (out_of_time()) return DriveEnd::time_budget;
    }
}

BoxedPivoting::DriveEnd BoxedPivoting::drive_unprocessed() {
    for (uint32_t d : order_) {
        if (state_[d] != RowState::unprocessed) continue;
        const DriveEnd end = drive(d);
        if (end != DriveEnd::done) return end;
    }
    return DriveEnd::done;
}

// ---------------------------------------------------------------- passes

void BoxedPivoting::compute_w() {
    for (uint32_t i = 0; i < n_; ++i) w_[i] = b_[i] + a_->row_times(i, x_.data());
}

void BoxedPivoting::refine() {
    // One step of iterative refinement of x_C with the factor: the updates
    // along the drives accumulate rounding in x_C and w.
    compute_w();
    const uint32_t k = factor_.size();
    for (uint32_t p = 0; p < k; ++p) direction_[p] = -w_[free_rows_[p]];
    factor_.solve(direction_.data());
    for (uint32_t p = 0; p < k; ++p) x_[free_rows_[p]] += direction_[p];
    compute_w();
}

double BoxedPivoting::residual() const {
    // The natural-map residual with the true bounds (|x_findex|, not the scale).
    double r = 0.0;
    for (uint32_t i = 0; i < n_; ++i) {
        double lower = lo_[i];
        double upper = hi_[i];
        if (has_findex(i)) {
            const double magnitude = std::abs(x_[normal_of(i)]);
            lower *= magnitude;
            upper *= magnitude;
        }
        r = std::max(r, std::abs(x_[i] - clamp(x_[i] - w_[i], lower, upper)));
    }
    return r;
}

double BoxedPivoting::friction_mismatch() const {
    // || scale - |x_normal| ||_2 over the friction-indexed rows.
    double sum = 0.0;
    for (uint32_t i = 0; i < n_; ++i) {
        if (!has_findex(i)) continue;
        const double e = scale_[i] - std::abs(x_[normal_of(i)]);
        sum += e * e;
    }
    return std::sqrt(sum);
}

void BoxedPivoting::pin_rows_at_bounds() {
    for (uint32_t i = 0; i < n_; ++i) {
        if (has_findex(i)) refresh_bounds(i);
    }
    for (uint32_t i = 0; i < n_; ++i) {
        switch (state_[i]) {
            case RowState::at_lower: x_[i] = lower_[i]; break;
            case RowState::at_upper: x_[i] = upper_[i]; break;
            case RowState::unprocessed:
            case RowState::free_dependent: x_[i] = clamp(x_[i], lower_[i], upper_[i]); break;
            case RowState::free: break;
        }
    }
}

void BoxedPivoting::revalidate() {
    // Start of a pass after the friction scales changed (or after a guess):
    // rows at a bound move with their bound, the free rows are re-solved for
    // that; a free row now outside its bounds leaves C (at the bound it
    // crossed), which changes the others, until all are inside; then every
    // row at a bound whose w has the wrong sign is driven again. All
    // processed rows then satisfy their conditions, the invariant the drives
    // need.
    pin_rows_at_bounds();
    for (;;) {
        solve_free_rows();
        leaving_.clear();
        const uint32_t k = factor_.size();
        for (uint32_t p = 0; p < k; ++p) {
            const uint32_t c = free_rows_[p];
            if (x_[c] < lower_[c] - x_tolerance_ || x_[c] > upper_[c] + x_tolerance_) leaving_.push_back(p);
        }
        if (leaving_.empty()) break;
        // Last position first: removing a row shifts only those behind it.
        for (uint32_t q = static_cast<uint32_t>(leaving_.size()); q-- > 0;) {
            const uint32_t p = leaving_[q];
            const uint32_t c = free_rows_[p];
            leave_free_set(p, x_[c] < lower_[c] ? RowState::at_lower : RowState::at_upper);
            ++pivots_;  // a change of C like any other
        }
    }
    for (uint32_t p = 0; p < factor_.size(); ++p) {
        const uint32_t c = free_rows_[p];
        x_[c] = clamp(x_[c], lower_[c], upper_[c]);
    }
    compute_w();
    for (uint32_t i = 0; i < n_; ++i) {
        const bool fixed = lower_[i] == upper_[i];
        switch (state_[i]) {
            case RowState::at_lower:
                if (w_[i] < -w_tolerance_ && !fixed) state_[i] = RowState::unprocessed;
                break;
            case RowState::at_upper:
                if (w_[i] > w_tolerance_ && !fixed) state_[i] = RowState::unprocessed;
                break;
            case RowState::free_dependent:
                if (std::abs(w_[i]) > w_tolerance_) state_[i] = RowState::unprocessed;
                break;
            case RowState::unprocessed:
            case RowState::free: break;
        }
    }
}

BoxedPivoting::DriveEnd BoxedPivoting::evaluate() {
    // The exact solution for the current (fixed) friction scales, from the
    // current sets: few pivots when the scales moved little.
    revalidate();
    const DriveEnd end = drive_unprocessed();
    refine();
    return end;
}

void BoxedPivoting::newton_direction() {
    // Friction consistency is the equation phi(s) = s - |x_normal(s)| = 0 in
    // the scales s, where x(s) is the solution with bounds lo*s, hi*s. x(s)
    // is piecewise affine: with the sets fixed, a friction row g at a bound
    // has x_g = sigma_g s_g (sigma = lo_g or hi_g), the free rows follow
    // x_C = -A_CC^-1 (b_C + A_CN x_N), so for a free normal row n
    //     d|x_n| / ds_g = -sign(x_n) [A_CC^-1 A_Cg]_n sigma_g   (g in U)
    // for U, the friction rows at a bound, and 0 otherwise. The Newton step
    // J ds = -phi, J = I - D, is solved on U by GMRES (one A_CC solve per
    // iteration; I plus a term of rank |U|, nonsymmetric), then for the
    // other friction rows explicitly.
    const uint32_t k = factor_.size();
    for (uint32_t g = 0; g < n_; ++g) {
        // A row held at l = u (a friction row of a zero normal) satisfies
        // either condition; which bound it follows when the scale grows
        // depends on the sign of w now.
        if ((state_[g] == RowState::at_lower || state_[g] == RowState::at_upper) && lower_[g] == upper_[g]) {
            state_[g] = w_[g] >= 0.0 ? RowState::at_lower : RowState::at_upper;
        }
    }
    coupled_rows_.clear();
    for (uint32_t g = 0; g < n_; ++g) {
        if (has_findex(g) && (state_[g] == RowState::at_lower || state_[g] == RowState::at_upper)) {
            coupled_rows_.push_back(g);
        }
    }
    const uint32_t m = static_cast<uint32_t>(coupled_rows_.size());
    const auto phi = [&](uint32_t f) { return scale_[f] - std::abs(x_[normal_of(f)]); };
    // coupled_work_ = A_CC^-1 A_CU (sigma v), in C order; A_CU (sigma v) as
    // k sparse row products with sigma v scattered into step_x_.
    const auto solve_coupling = [&](const double* v) {
        for (uint32_t q = 0; q < m; ++q) {
            const uint32_t g = coupled_rows_[q];
            step_x_[g] = (state_[g] == RowState::at_lower ? lo_[g] : hi_[g]) * v[q];
        }
        for (uint32_t p = 0; p < k; ++p) coupled_work_[p] = a_->row_times(free_rows_[p], step_x_.data());
        for (uint32_t q = 0; q < m; ++q) step_x_[coupled_rows_[q]] = 0.0;
        factor_.solve(coupled_work_.data());
    };
    // (D v)_f for the solve_coupling() result.
    const auto coupling = [&](uint32_t f) {
        const uint32_t normal = normal_of(f);
        const int32_t p = position_[normal];
        if (p < 0) return 0.0;
        const double sign = x_[normal] >= 0.0 ? 1.0 : -1.0;
        return -sign * coupled_work_[static_cast<uint32_t>(p)];
    };
    double rhs_norm = 0.0;
    for (uint32_t q = 0; q < m; ++q) {
        coupled_rhs_[q] = -phi(coupled_rows_[q]);
        coupled_x_[q] = coupled_rhs_[q];  // the Picard step as the initial guess
        rhs_norm = std::max(rhs_norm, std::abs(coupled_rhs_[q]));
    }
    const auto apply = [&](const double* v, double* out) {
        solve_coupling(v);
        for (uint32_t q = 0; q < m; ++q) out[q] = v[q] - coupling(coupled_rows_[q]);
    };
    if (m > 0) {
        // Accurate to well below the target residual; the step is only a
        // direction, each trial point is then solved exactly by pivoting.
        const double target = std::max(0.01 * settings_.tolerance, 1e-13 * rhs_norm);
        gmres_.solve(m, coupled_rhs_.data(), coupled_x_.data(), target, 4 * kGmresRestart, apply);
    }
    for (uint32_t i = 0; i < n_; ++i) scale_step_[i] = 0.0;
    solve_coupling(coupled_x_.data());
    for (uint32_t q = 0; q < m; ++q) scale_step_[coupled_rows_[q]] = coupled_x_[q];
    for (uint32_t f = 0; f < n_; ++f) {
        if (!has_findex(f) || state_[f] == RowState::at_lower || state_[f] == RowState::at_upper) continue;
        scale_step_[f] = -phi(f) + coupling(f);
    }
}

void BoxedPivoting::friction_consistency(DriveEnd& end, double& r, PivotingOutcome& out) {
    // Outer iteration on the friction scales s, each iterate solved exactly
    // by a pass warm started from the previous one (evaluate()): find
    // s = |x_normal(s)|. The map is piecewise affine with small pieces on
    // contact problems (bodies with more contact rows than degrees of
    // freedom make the normal impulses sensitive to the friction bounds), and
    // neither plain substitution (ODE's single step, repeated) nor Newton's
    // method converges on its own there; the combination that does on the
    // lcp-bench problems:
    //  - substitution s <- s + r_f (|x_n| - s) with a relaxation r_f per row,
    //    halved when the row's update changes sign (it oscillates), grown
    //    back by 1.5x (up to 1) otherwise;
    //  - after a pass that changed no set (x(s) affine around s), or when the
    //    mismatch ||s - |x_n||| has not fallen by 10% for 16 passes, a Newton
    //    step (newton_direction()) to the fixed point of the current piece,
    //    kept if it at least halves the mismatch, else followed by the
    //    substitution step from the point it reached, and no Newton step for
    //    the next 3 passes.
    // Measured on lcp-bench with b perturbed by 2-5%, within the default 200
    // passes: all of 200 nc050 cases, 93-97% of nc200, 18 of 20 nc333;
    // restoring the exact pre-Newton state after a rejected step, or
    // triggering Newton sooner, did worse. Non-convergence is reported as
    // MAX_ITERATIONS with the residual reached.
    uint64_t pivots_before = ~uint64_t{0};
    uint32_t newton_pause = 0;
    double best_mismatch = kInfinity;
    uint32_t stalled = 0;  // passes since the mismatch last fell below 0.9 of its best
    while (end == DriveEnd::done && r > settings_.tolerance) {
        if (findex_ != nullptr) {
            const double mismatch = friction_mismatch();
            if (mismatch < 0.9 * best_mismatch) {
                best_mismatch = mismatch;
                stalled = 0;
            } else {
                ++stalled;
            }
        }
        if (out.passes >= settings_.max_passes) {
            out.status = PIVOT_SOLVE_MAX_ITERATIONS;
            sdk::set_message(out.message, "residual %.3g after %u passes (max_iterations)%s", r, out.passes,
                             findex_ != nullptr ? ": friction bounds not consistent with the normal impulses" : "");
            return;
        }
        if (out_of_time()) {
            out.status = PIVOT_SOLVE_TIME_BUDGET;
            sdk::set_message(out.message, "time budget %g s used up after %u passes (residual %.3g)",
                             settings_.time_budget_seconds, out.passes, r);
            return;
        }
        const bool settled = pivots_ == pivots_before;
        pivots_before = pivots_;
        if (findex_ == nullptr) {
            // No friction: the sets are exact; only rounding is left, which
            // another refined pass removes.
        } else if ((settled || stalled >= kStalledPasses) && newton_pause == 0) {
            stalled = 0;
            const double mismatch = friction_mismatch();
            for (uint32_t i = 0; i < n_; ++i) {
                scale_saved_[i] = scale_[i];
                target_saved_[i] = has_findex(i) ? std::abs(x_[normal_of(i)]) : 0.0;
            }
            newton_direction();
            for (uint32_t i = 0; i < n_; ++i) {
                if (has_findex(i)) scale_[i] = std::max(0.0, scale_saved_[i] + scale_step_[i]);
            }
            end = evaluate();
            ++out.passes;
            r = residual();
            if (end != DriveEnd::done || r <= settings_.tolerance || friction_mismatch() <= 0.5 * mismatch) continue;
            // The step left its piece for a worse one: the relaxed
            // substitution from where it started.
            for (uint32_t i = 0; i < n_; ++i) {
                if (has_findex(i)) {
                    scale_[i] = scale_saved_[i] + relaxation_[i] * (target_saved_[i] - scale_saved_[i]);
                }
                scale_step_[i] = 0.0;
            }
            newton_pause = 3;
            pivots_before = ~uint64_t{0};
        } else {
            if (newton_pause > 0) --newton_pause;
            for (uint32_t i = 0; i < n_; ++i) {
                if (!has_findex(i)) continue;
                const double update = std::abs(x_[normal_of(i)]) - scale_[i];
                relaxation_[i] = update * scale_step_[i] < 0.0 ? std::max(1.0 / 64, 0.5 * relaxation_[i])
                                                              : std::min(1.0, 1.5 * relaxation_[i]);
                scale_step_[i] = relaxation_[i] * update;
                scale_[i] += scale_step_[i];
            }
        }
        end = evaluate();
        ++out.passes;
        r = residual();
    }
}

void BoxedPivoting::clamp_to_bounds() {
    // Into the true bounds (from |x_normal|; friction-indexed rows last in
    // order_, after the rows their bounds scale with), up to a slack far
    // below the host's (1e-9 (1 + |bound|)): a free row may end a hair
    // outside its bound, by at most x_tolerance_ plus rounding, and the
    // residual already counts that; clamping it anyway would move w by A
    // times the hair, which on a matrix with entries ~100 is 100 times more.
    for (uint32_t i : order_) {
        if (has_findex(i)) scale_[i] = std::abs(x_[normal_of(i)]);
        refresh_bounds(i);
        const double l = lower_[i];
        const double u = upper_[i];
        const double magnitude = std::max(l > -kInfinity ? std::abs(l) : 0.0, u < kInfinity ? std::abs(u) : 0.0);
        const double slack = 1e-10 * (1.0 + magnitude);
        if (x_[i] < l - slack || x_[i] > u + slack) x_[i] = clamp(x_[i], l, u);
    }
}

bool BoxedPivoting::out_of_time() const {
    return settings_.time_budget_seconds > 0.0 && clock_->seconds() > settings_.time_budget_seconds;
}

// ---------------------------------------------------------------- setup

void BoxedPivoting::setup(const BoxedProblem& problem, const PivotingSettings& settings, bool warm_start,
                          const double* x) {
    a_ = problem.a;
    b_ = problem.b;
    lo_ = problem.lo;
    hi_ = problem.hi;
    findex_ = problem.findex;
    n_ = a_->size();
    settings_ = settings;
    pivots_ = 0;
    // Sign decisions within a tenth of the target residual: a row left with
    // |w| or a bound violation below it costs at most that much residual.
    double b_scale = 1.0;
    for (uint32_t i = 0; i < n_; ++i) b_scale = std::max(b_scale, std::abs(b_[i]));
    w_tolerance_ = std::min(0.1 * settings.tolerance, 1e-11 * b_scale);
    x_tolerance_ = w_tolerance_;
    negative_pivot_ratio_ =
        std::min(0.5, 1e4 * std::numeric_limits<double>::epsilon() / settings.singular_pivot_ratio);

    state_.assign(n_, RowState::unprocessed);
    x_.assign(n_, 0.0);
    w_.assign(n_, 0.0);
    lower_.assign(n_, 0.0);
    upper_.assign(n_, 0.0);
    scale_.assign(n_, 0.0);
    scale_step_.assign(n_, 0.0);
    scale_saved_.assign(n_, 0.0);
    target_saved_.assign(n_, 0.0);
    relaxation_.assign(n_, 1.0);
    position_.assign(n_, -1);
    blocked_.assign(n_, 0);
    drive_stamp_ = 0;
    step_w_.assign(n_, 0.0);
    step_x_.assign(n_, 0.0);
    watched_.clear();
    free_rows_.assign(n_, 0);
    forward_.assign(n_, 0.0);
    scaled_.assign(n_, 0.0);
    direction_.assign(n_, 0.0);
    coupled_work_.assign(n_, 0.0);
    coupled_rows_.clear();
    coupled_rhs_.assign(n_, 0.0);
    coupled_x_.assign(n_, 0.0);
    gmres_.reserve(n_, kGmresRestart);
    factor_.reserve(n_);
    factor_.clear();

    order_.clear();
    for (uint32_t i = 0; i < n_; ++i) {
        if (!has_findex(i)) order_.push_back(i);
    }
    for (uint32_t i = 0; i < n_; ++i) {
        if (has_findex(i)) order_.push_back(i);
    }

    if (warm_start) std::copy(x, x + n_, x_.begin());
    for (uint32_t i : order_) {
        if (has_findex(i)) scale_[i] = std::abs(x_[normal_of(i)]);
        refresh_bounds(i);
        x_[i] = clamp(x_[i], lower_[i], upper_[i]);
    }
}

void BoxedPivoting::guess_sets() {
    // The rows at a bound and the free rows of x (the previous step's
    // solution) are the guess; the factor of the guessed C is built row by
    // row (rows that would make it singular stay out, unprocessed). revalidate() then repairs a wrong guess: free rows
    // that come out of bounds leave C, rows at a bound with the wrong sign of
    // w are driven as in a cold start.
    for (uint32_t i : order_) {
        if (has_findex(i)) scale_[i] = std::abs(x_[normal_of(i)]);
        refresh_bounds(i);
        x_[i] = clamp(x_[i], lower_[i], upper_[i]);
    }
    // A row of the guess counts as at a bound when it is within the guess's
    // own accuracy of it. The solver's answers meet their conditions only to
    // its residual r (up to `tolerance`): a friction row at its bound lo *
    // scale sits |lo| |scale - |x_normal|| <= r away from lo |x_normal|, and
    // a free row may end a hair outside its bound. A fixed 1e-12 missed
    // those rows whenever r was larger (a looser tolerance: r ~ 6e-12 on
    // lcp_nc333_fric at tolerance 1e-8), guessed them free, and the repair
    // took ~1400 pivots. The margin is capped at the tolerance: a guess
    // farther from a solution than that is not snapped by more.
    compute_w();
    const double guess_margin = std::min(settings_.tolerance, 2.0 * residual());
    for (uint32_t i : order_) {
        const double l = lower_[i];
        const double u = upper_[i];
        const double near = std::max(1e-12 * (1.0 + std::abs(x_[i])), guess_margin);
        if (l > -kInfinity && x_[i] <= l + near) {
            state_[i] = RowState::at_lower;
        } else if (u < kInfinity && x_[i] >= u - near) {
            state_[i] = RowState::at_upper;
        } else {
            const double pivot = eliminate(i);
            if (independent(pivot, i)) join_free_set(i, pivot);
        }
    }
    revalidate();
}

// ---------------------------------------------------------------- solve

PivotingOutcome BoxedPivoting::solve(const BoxedProblem& problem, const PivotingSettings& settings, bool warm_start,
                                     double* x, double* w, const sdk::Stopwatch& clock) {
    PivotingOutcome out;
    clock_ = &clock;
    setup(problem, settings, warm_start, x);
    if (warm_start) guess_sets();

    // First pass: every row driven once in order_ (cold; friction scales
    // as ODE takes them), or only the guess's wrong rows (warm).
    scale_when_driven_ = !warm_start;
    DriveEnd end = drive_unprocessed();
    scale_when_driven_ = false;
    refine();
    out.passes = 1;
    double r = residual();
    friction_consistency(end, r, out);
    switch (end) {
        case DriveEnd::done: break;
        case DriveEnd::pivot_limit:
            out.status = PIVOT_SOLVE_MAX_ITERATIONS;
            sdk::set_message(out.message, "pivot limit (%llu) reached in pass %u",
                             static_cast<unsigned long long>(settings_.max_pivots), out.passes);
            break;
        case DriveEnd::time_budget:
            out.status = PIVOT_SOLVE_TIME_BUDGET;
            sdk::set_message(out.message, "time budget %g s used up in pass %u after %llu pivots",
                             settings_.time_budget_seconds, out.passes, static_cast<unsigned long long>(pivots_));
            break;
        case DriveEnd::unbounded:
            out.status = PIVOT_SOLVE_INFEASIBLE;
            sdk::set_message(out.message,
                             "a driven row moves without bound and its w never reaches 0: no solution "
                             "(e.g. dependent rows with inconsistent b and no finite bound)");
            break;
        case DriveEnd::not_semidefinite:
            out.status = PIVOT_SOLVE_NUMERICAL_ERROR;
            sdk::set_message(out.message, "negative pivot: A is not positive semidefinite");
            break;
    }

    clamp_to_bounds();
    compute_w();
    out.residual = residual();
    out.pivots = pivots_;
    if (out.status == PIVOT_SOLVE_CONVERGED && out.residual > settings_.tolerance) {
        // The final clamp cost accuracy.
        out.status = PIVOT_SOLVE_MAX_ITERATIONS;
        sdk::set_message(out.message, "residual %.3g above tolerance after the final clamp to bounds",
                         out.residual);
    }
    std::copy(x_.begin(), x_.end(), x);
    if (w != nullptr) std::copy(w_.begin(), w_.end(), w);
    return out;
}

}  // namespace pivot::dantzig
