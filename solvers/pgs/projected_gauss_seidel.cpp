#include "projected_gauss_seidel.hpp"

#include <algorithm>
#include <cmath>
#include <new>
#include <stdexcept>

#include <pivot/solver_support.hpp>

namespace pivot::pgs {

namespace {

using sdk::set_message;

// Steps without a new best residual before steps must improve on it, and the
// factor by which a frozen step may raise the residual with friction (see solve()).
constexpr uint32_t kFruitlessLimit = 8;
constexpr double kGrowth = 2.0;
// Sweeps without a new best residual after which the steps stop for the solve.
constexpr uint32_t kStallSweeps = 500;

inline bool usable(pivot_status s) { return s == PIVOT_OK || s == PIVOT_WARNING; }

inline void add_scaled_column(const pivot_lcp_problem& p, uint32_t column, double scale, double* y) {
    for (int32_t k = p.col_start[column]; k < p.col_start[column + 1]; ++k) y[p.row_index[k]] += p.values[k] * scale;
}

// A(i, i) from the CSC matrix (row indices ascending within a column), 0 if absent.
double diagonal_entry(const pivot_lcp_problem& p, uint32_t i) {
    const int32_t* begin = p.row_index + p.col_start[i];
    const int32_t* end = p.row_index + p.col_start[i + 1];
    const int32_t* at = std::lower_bound(begin, end, static_cast<int32_t>(i));
    return (at != end && *at == static_cast<int32_t>(i)) ? p.values[at - p.row_index] : 0.0;
}

}  // namespace

Parameters parameters_from(const double* values, uint32_t count) {
    if (count != kParameterCount || values == nullptr) throw std::invalid_argument("pivot.solver.pgs: parameter count");
    Parameters p;
    p.max_iterations = static_cast<uint32_t>(values[0]);
    p.tolerance = values[1];
    p.relaxation = values[2];
    p.time_budget = values[3];
    p.check_interval = static_cast<uint32_t>(values[4]);
    p.subspace_minimization = values[5] != 0.0;
    p.subspace_interval = static_cast<uint32_t>(values[6]);
    p.subspace_fill = values[7];
    return p;
}

void ProjectedGaussSeidel::set_parameters(const Parameters& parameters) { parameters_ = parameters; }

void ProjectedGaussSeidel::reserve(uint32_t n, uint32_t nnz) {
    const uint32_t rows = std::max(n, reserved_n_);
    const uint32_t entries = std::max(nnz, reserved_nnz_);
    const double fill =
        std::max(parameters_.subspace_minimization ? parameters_.subspace_fill : 0.0, reserved_fill_);
    if (rows == reserved_n_ && entries == reserved_nnz_ && fill == reserved_fill_) return;
    w_.resize(rows);
    inverse_diagonal_.resize(rows);
    block_step_.resize(rows);
    scratch_.resize(rows);
    locked_.resize(rows);
    if (fill > 0.0) subspace_.reserve(rows, entries, fill);
    reserved_n_ = rows;
    reserved_nnz_ = entries;
    reserved_fill_ = fill;
}

void ProjectedGaussSeidel::recompute_w(const pivot_lcp_problem& p, const double* x) {
    std::copy(p.b, p.b + p.n, w_.begin());
    for (uint32_t j = 0; j < p.n; ++j) {
        if (x[j] != 0.0) add_scaled_column(p, j, x[j], w_.data());
    }
}

bool ProjectedGaussSeidel::prepare(const pivot_lcp_problem& p, pivot_solve_report& report) {
    const pivot_solve_status valid = sdk::validate_problem(p, false, true, report.message);
    if (valid != PIVOT_SOLVE_CONVERGED) {
        report.status = valid;
        return false;
    }
    const uint32_t n = p.n;
    if (!sdk::projection_rows(p, block_begin_, block_end_, report.message)) {
        report.status = PIVOT_SOLVE_INVALID_PROBLEM;
        return false;
    }
    // Grows the workspace only for a problem larger than any reserved
    // before (the one allocation solve() can make; reserve() avoids it).
    reserve(n, p.nnz);
    for (uint32_t i = 0; i < n; ++i) {
        const double a = diagonal_entry(p, i);
        if (!(a > 0.0)) {
            set_message(report.message,
                        "row %u: diagonal A(%u,%u) = %g is not positive (Gauss-Seidel divides by it)",
                        i, i, i, a);
            report.status = PIVOT_SOLVE_INVALID_PROBLEM;
            return false;
        }
        inverse_diagonal_[i] = parameters_.relaxation / a;
    }
    // Block k moves as a whole: x_B <- P_B(x_B - w_B / rho_B), with rho_B
    // >= the largest eigenvalue of A_BB (Gershgorin's bound from the columns).
    // A step of 1/rho_B (times the relaxation) decreases 1/2 x'Ax + b'x for a
    // symmetric A whatever the projection (a projected gradient step on the
    // block with step 1/L, Bertsekas 1999, "Nonlinear Programming", ch. 2), and its
    // fixed points are exactly x_B = P_B(x_B - w_B), the point whose residual
    // is measured; a per-row scaling would converge to another point.
    for (uint32_t k = 0; k < p.block_count; ++k) {
        double rho = 0.0;
        for (uint32_t c = p.block_first_row[k]; c < p.block_first_row[k + 1]; ++c) {
            double column_sum = 0.0;
            for (int32_t t = p.col_start[c]; t < p.col_start[c + 1]; ++t) {
                const auto r = static_cast<uint32_t>(p.row_index[t]);
                if (r >= p.block_first_row[k] && r < p.block_first_row[k + 1]) column_sum += std::abs(p.values[t]);
            }
            rho = std::max(rho, column_sum);
        }
        block_step_[k] = parameters_.relaxation / rho;  // rho >= the (positive) diagonal
    }
    symmetric_ = (p.matrix_properties & PIVOT_MATRIX_SYMMETRIC) != 0;
    return true;
}

void ProjectedGaussSeidel::sweep(const pivot_lcp_problem& p, double* x) {
    double* w = w_.data();
    const double* inverse_diagonal = inverse_diagonal_.data();
    auto update_row = [&](uint32_t i) {
        double lower = 0.0;
        double upper = 0.0;
        sdk::row_bounds(p, x, i, lower, upper);
        const double xi = x[i];
        const double target = std::min(upper, std::max(lower, xi - w[i] * inverse_diagonal[i]));
        const double delta = target - xi;
        if (delta != 0.0) {
            x[i] = target;
            add_scaled_column(p, i, delta, w);
        }
    };
    for (uint32_t i = 0; i < block_begin_; ++i) update_row(i);
    for (uint32_t k = 0; k < p.block_count; ++k) {
        const uint32_t begin = p.block_first_row[k];
        const uint32_t end = p.block_first_row[k + 1];
        for (uint32_t i = begin; i < end; ++i) {
            scratch_[i] = x[i];
            x[i] -= block_step_[k] * w[i];
        }
        // A failed projection shows as a non-finite residual or is caught
        // by residual(), which calls the projection again.
        p.project(p.project_context, k, 1, x);
        for (uint32_t i = begin; i < end; ++i) {
            const double delta = x[i] - scratch_[i];
            if (delta != 0.0) add_scaled_column(p, i, delta, w);
        }
    }
    for (uint32_t i = block_end_; i < p.n; ++i) update_row(i);
}

bool ProjectedGaussSeidel::residual(const pivot_lcp_problem& p, const double* x, double& value) {
    return sdk::natural_map_residual_with_blocks(p, x, w_.data(), block_begin_, block_end_, scratch_.data(), value);
}

bool ProjectedGaussSeidel::project_onto_bounds(const pivot_lcp_problem& p, double* x) {
    bool moved = false;
    for (int pass = 0; pass < 2; ++pass) {
        for (uint32_t i = 0; i < p.n; ++i) {
            if (i == block_begin_) i = block_end_;
            if (i >= p.n) break;
            const bool friction = p.findex != nullptr && p.findex[i] >= 0;
            if (friction != (pass == 1)) continue;
            double lower = 0.0;
            double upper = 0.0;
            sdk::row_bounds(p, x, i, lower, upper);
            const double clamped = std::min(upper, std::max(lower, x[i]));
            if (clamped != x[i]) {
                add_scaled_column(p, i, clamped - x[i], w_.data());
                x[i] = clamped;
                moved = true;
            }
        }
    }
    return moved;
}

void ProjectedGaussSeidel::SubspaceSchedule::saw(double residual, uint32_t sweep) {
    if (residual < best) {
        best = residual;
        best_sweep = sweep;
    }
}

bool ProjectedGaussSeidel::lock_boundary_blocks(const pivot_lcp_problem& p, const double* x) {
    // A block is strictly inside its admissible set when the projection
    // leaves every small move of one of its rows, either way, unchanged: a
    // test through the model's own projection, whatever the model.
    std::fill(locked_.begin(), locked_.begin() + p.n, uint8_t{0});
    std::copy(x, x + p.n, scratch_.begin());
    for (uint32_t k = 0; k < p.block_count; ++k) {
        const uint32_t begin = p.block_first_row[k];
        const uint32_t end = p.block_first_row[k + 1];
        double scale = 0.0;
        for (uint32_t i = begin; i < end; ++i) scale = std::max(scale, std::abs(x[i]));
        const double move = 1e-6 * scale;
        bool inside = move > 0.0;  // a block at zero (no impulse) is on its boundary
        for (uint32_t i = begin; i < end && inside; ++i) {
            for (double sign : {1.0, -1.0}) {
                scratch_[i] = x[i] + sign * move;
                if (!usable(p.project(p.project_context, k, 1, scratch_.data()))) return false;
                for (uint32_t j = begin; j < end; ++j) {
                    const double expected = j == i ? x[i] + sign * move : x[j];
                    inside = inside && scratch_[j] == expected;
                    scratch_[j] = x[j];
                }
            }
        }
        if (!inside) std::fill(locked_.begin() + begin, locked_.begin() + end, uint8_t{1});
    }
    return true;
}

bool ProjectedGaussSeidel::subspace_phase(const pivot_lcp_problem& p, double* x, uint32_t sweeps,
                                          SubspaceSchedule& s, double& r) {
    s.last_sweep = sweeps;
    s.saw(r, sweeps);
    // Last resort: when nothing has improved for kStallSweeps sweeps, plain
    // sweeps for the rest of the solve.
    if (sweeps - s.best_sweep > kStallSweeps) {
        s.active = false;
        return false;
    }
    // Sweeps and steps could undo each other (with friction nothing
    // decreases monotonically: the friction LCP is not monotone), so after
    // kFruitlessLimit accepted steps without a new best residual a step must
    // beat the best residual so far; every step is then progress and the
    // sweeps in between do the rest.
    if (s.best < s.best_at_last_step) s.fruitless = 0;
    const bool strict = s.fruitless >= kFruitlessLimit;
    const bool friction = p.findex != nullptr;
    // The coupled (Newton) step when the free set has settled: it did not
    // change between the last two steps, the last of which was not a partial
    // frozen step. Otherwise, or when it fails, the frozen step: on a
    // symmetric A it must lower the QP objective, which is what moves the
    // sweeps on, while the residual may rise (by kGrowth at most with
    // friction, whose bounds lag behind the normals).
    SubspaceOutcome outcome;
    bool settled = false;
    bool first = true;
    // Blocks: only those strictly inside their set move (their projection
    // is the identity nearby, so the box rows describe them); the others
    // (sliding on the cone, separating) stay for the sweeps.
    const uint8_t* locked = nullptr;
    if (p.block_count > 0) {
        if (!lock_boundary_blocks(p, x)) return false;
        locked = locked_.data();
    }
    if (friction && s.coupled_ready) {
        outcome = subspace_.step(p, symmetric_, SubspaceKind::coupled, x, w_.data(), r, strict ? s.best : r, locked);
        settled = outcome.same_free_set;
        first = false;
    }
    if (!outcome.accepted) {
        double limit = symmetric_ ? HUGE_VAL : r;
        if (symmetric_ && friction) limit = kGrowth * r;
        if (strict) limit = s.best;
        outcome = subspace_.step(p, symmetric_, SubspaceKind::frozen, x, w_.data(), r, limit, locked);
        if (first) settled = outcome.same_free_set;
        s.coupled_ready = settled && (!outcome.accepted || outcome.full_step);
    }
    if (!outcome.accepted) {
        // An unsuccessful step costs a factorization: try less often.
        s.interval = std::min(2 * s.interval, 16 * parameters_.subspace_interval);
        return false;
    }
    ++s.steps;
    ++s.fruitless;
    s.best_at_last_step = s.best;
    s.interval = parameters_.subspace_interval;
    r = outcome.residual;
    s.saw(r, sweeps);
    return true;
}

pivot_status ProjectedGaussSeidel::solve(const pivot_lcp_problem* problem, const pivot_solve_options* options,
                                         double* x, double* w, pivot_solve_report* report) {
    const sdk::Stopwatch clock;
    pivot_status early = PIVOT_ERROR;
    if (!sdk::begin_solve(problem, options, x, report, clock, early)) return early;
    const pivot_lcp_problem& p = *problem;
    const bool warm = (options->flags & PIVOT_SOLVE_WARM_START) != 0;
    try {
        if (!prepare(p, *report)) {
            return sdk::finish(report, static_cast<pivot_solve_status>(report->status), 0, 0.0, clock.seconds());
        }
    } catch (const std::bad_alloc&) {
        set_message(report->message, "out of memory growing the workspace to %u rows, %u nonzeros", p.n, p.nnz);
        return sdk::finish(report, PIVOT_SOLVE_OUT_OF_MEMORY, 0, 0.0, clock.seconds());
    }
    if (!warm) std::fill(x, x + p.n, 0.0);
    recompute_w(p, x);

    const double budget = options->time_budget_seconds > 0.0 ? options->time_budget_seconds : parameters_.time_budget;
    const double tolerance = parameters_.tolerance;
    const bool subspace_enabled = parameters_.subspace_minimization;
    if (subspace_enabled) subspace_.forget(parameters_.subspace_fill);
    SubspaceSchedule schedule;
    schedule.active = subspace_enabled;
    schedule.interval = parameters_.subspace_interval;

    pivot_solve_status status = PIVOT_SOLVE_MAX_ITERATIONS;
    uint32_t sweeps = 0;
    double r = HUGE_VAL;
    bool projection_failed = false;

    // Converged when the residual with a fresh w, at x within its bounds, is
    // within the tolerance (the accumulated w only says when to look).
    auto verified = [&]() {
        project_onto_bounds(p, x);
        recompute_w(p, x);
        projection_failed = !residual(p, x, r);
        return !projection_failed && r <= tolerance;
    };

    while (sweeps < parameters_.max_iterations) {
        sweep(p, x);
        ++sweeps;
        // Also after the first sweep: a warm start at the solution stops there.
        const bool checked = sweeps % parameters_.check_interval == 0 || sweeps == 1;
        if (checked) {
            if (!residual(p, x, r)) {
                projection_failed = true;
                break;
            }
            if (!std::isfinite(r)) break;
            schedule.saw(r, sweeps);
            if (r <= tolerance && verified()) {
                status = PIVOT_SOLVE_CONVERGED;
                break;
            }
            if (projection_failed) break;
        }
        if (budget > 0.0 && clock.seconds() >= budget) {
            status = PIVOT_SOLVE_TIME_BUDGET;
            break;
        }
        if (schedule.active && sweeps - schedule.last_sweep >= schedule.interval &&
            sweeps < parameters_.max_iterations) {
            if (project_onto_bounds(p, x) || !checked) residual(p, x, r);
            if (!std::isfinite(r)) break;
            if (subspace_phase(p, x, sweeps, schedule, r) && r <= tolerance && verified()) {
                status = PIVOT_SOLVE_CONVERGED;
                break;
            }
        }
    }

    // The returned x is within its bounds and w, residual are exact.
    if (status != PIVOT_SOLVE_CONVERGED && !projection_failed) {
        project_onto_bounds(p, x);
        recompute_w(p, x);
        projection_failed = !residual(p, x, r);
    }
    if (projection_failed) {
        set_message(report->message, "the block projection failed after %u sweeps", sweeps);
        return sdk::finish(report, PIVOT_SOLVE_NUMERICAL_ERROR, sweeps, 0.0, clock.seconds());
    }
    if (!std::isfinite(r)) {
        set_message(report->message,
                    "non-finite values after %u sweeps: Gauss-Seidel diverges (A is not positive definite enough)",
                    sweeps);
        return sdk::finish(report, PIVOT_SOLVE_NUMERICAL_ERROR, sweeps, 0.0, clock.seconds());
    }
    if (w != nullptr) std::copy(w_.begin(), w_.begin() + p.n, w);
    if (status == PIVOT_SOLVE_MAX_ITERATIONS) {
        set_message(report->message, "%u sweeps (%u subspace steps): natural-map residual %.3g > tolerance %.3g",
                    sweeps, schedule.steps, r, tolerance);
    } else if (status == PIVOT_SOLVE_TIME_BUDGET) {
        set_message(report->message,
                    "time budget %.3g s used up after %u sweeps (%u subspace steps): natural-map residual %.3g > "
                    "tolerance %.3g",
                    budget, sweeps, schedule.steps, r, tolerance);
    }
    return sdk::finish(report, status, sweeps, r, clock.seconds());
}

}  // namespace pivot::pgs
