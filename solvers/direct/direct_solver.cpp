#include "direct_solver.hpp"

#include <algorithm>
#include <cmath>

#include <pivot/solver_support.hpp>

namespace pivot::direct {

Parameters parameters_from(const double* values, uint32_t count) {
    Parameters p;
    if (count > 0) p.max_exchanges = static_cast<uint32_t>(values[0]);
    if (count > 1) p.tolerance = values[1];
    return p;
}

void DirectSolver::reserve(uint32_t n, uint32_t nnz) {
    const auto rows = static_cast<size_t>(n);
    order_.reserve(rows);
    rhs_.reserve(rows);
    w_.reserve(rows);
    state_.reserve(rows);
    held_values_.reserve(nnz);
    ordering_.reserve(static_cast<int32_t>(n), static_cast<int64_t>(nnz));
    factor_.reserve(static_cast<int32_t>(n), static_cast<int64_t>(nnz));
}

bool DirectSolver::analyze() {
    const int32_t n = matrix_.n;
    const auto entries = static_cast<int64_t>(matrix_.pattern_rows.size());
    ordering_.reserve(n, entries);
    order_.resize(static_cast<size_t>(n));
    if (!ordering_.order(n, matrix_.pattern_start.data(), matrix_.pattern_rows.data(), order_.data())) return false;
    factor_.reserve(n, 0);
    const int64_t fill = factor_.analyze(n, matrix_.pattern_start.data(), matrix_.pattern_rows.data(), order_.data());
    if (fill < 0) return false;
    factor_.reserve(n, fill);
    analyzed_ = true;
    return true;
}

bool DirectSolver::solve_free_rows(const pivot_lcp_problem& p, double* x) {
    const int32_t n = matrix_.n;
    const std::vector<int32_t>& start = matrix_.start;
    const std::vector<int32_t>& rows = matrix_.rows;
    const std::vector<double>& a = matrix_.values;
    // rhs = -(b + A x_C) on the free rows, x_C on the held ones; the held
    // rows and columns of A become identity rows (the pattern stays).
    held_values_.assign(a.begin(), a.end());
    rhs_.assign(p.b, p.b + n);
    for (int32_t j = 0; j < n; ++j) {
        const bool held = state_[static_cast<size_t>(j)] != kFree;
        for (int32_t t = start[j]; t < start[j + 1]; ++t) {
            const auto i = static_cast<size_t>(rows[static_cast<size_t>(t)]);
            if (held) {
                rhs_[i] += a[static_cast<size_t>(t)] * x[j];
                held_values_[static_cast<size_t>(t)] = 0.0;
            } else if (state_[i] != kFree) {
                held_values_[static_cast<size_t>(t)] = 0.0;
            }
        }
        if (held) held_values_[static_cast<size_t>(matrix_.diagonal[static_cast<size_t>(j)])] = 1.0;
    }
    for (int32_t i = 0; i < n; ++i) {
        rhs_[static_cast<size_t>(i)] = state_[static_cast<size_t>(i)] == kFree ? -rhs_[static_cast<size_t>(i)] : x[i];
    }
    if (!factor_.factorize(matrix_.pattern_start.data(), matrix_.pattern_rows.data(), start.data(), rows.data(),
                           held_values_.data(), nullptr, nullptr, nullptr)) {
        return false;
    }
    factor_.solve(rhs_.data());
    for (int32_t i = 0; i < n; ++i) {
        if (state_[static_cast<size_t>(i)] == kFree) x[i] = rhs_[static_cast<size_t>(i)];
    }
    return true;
}

double DirectSolver::residual(const pivot_lcp_problem& p, const double* x, double* w) const {
    const int32_t n = matrix_.n;
    std::copy(p.b, p.b + n, w);
    for (int32_t j = 0; j < n; ++j) {
        const double xj = x[j];
        if (xj == 0.0) continue;
        for (int32_t t = matrix_.start[j]; t < matrix_.start[j + 1]; ++t) {
            w[matrix_.rows[static_cast<size_t>(t)]] += matrix_.values[static_cast<size_t>(t)] * xj;
        }
    }
    return sdk::natural_map_residual(p, x, w);
}

pivot_status DirectSolver::solve(const pivot_lcp_problem* problem, const pivot_solve_options* options, double* x,
                                 double* w, pivot_solve_report* report) {
    const sdk::Stopwatch clock;
    if (problem == nullptr || options == nullptr || report == nullptr || (problem->n > 0 && x == nullptr)) {
        return PIVOT_ERROR;
    }
    const pivot_lcp_problem& p = *problem;
    const bool factored = sdk::has_factored_form(p);
    const pivot_solve_status valid = sdk::validate_problem(p, false, !factored, report->message);
    if (valid != PIVOT_SOLVE_CONVERGED) return sdk::finish(report, valid, 0, HUGE_VAL, clock.seconds());
    if (p.findex != nullptr) {
        for (uint32_t i = 0; i < p.n; ++i) {
            if (p.findex[i] >= 0) {
                sdk::set_message(report->message, "row %u has a friction index, which this solver does not take", i);
                return sdk::finish(report, PIVOT_SOLVE_UNSUPPORTED, 0, HUGE_VAL, clock.seconds());
            }
        }
    }
    const uint32_t n = p.n;
    if (n == 0) return sdk::finish(report, PIVOT_SOLVE_CONVERGED, 0, 0.0, clock.seconds());

    if (matrix_.update(p) || !analyzed_) {
        if (!analyze()) {
            sdk::set_message(report->message, "the ordering workspace could not be sized");
            return sdk::finish(report, PIVOT_SOLVE_OUT_OF_MEMORY, 0, HUGE_VAL, clock.seconds());
        }
    }
    // Initial states: the warm start's rows at a bound are held there;
    // rows with lo = hi are always held.
    const bool warm = (options->flags & PIVOT_SOLVE_WARM_START) != 0;
    state_.assign(n, kFree);
    for (uint32_t i = 0; i < n; ++i) {
        const double lo = p.lo[i], hi = p.hi[i];
        if (lo == hi || (warm && std::isfinite(lo) && x[i] <= lo)) {
            state_[i] = kLower;
        } else if (warm && std::isfinite(hi) && x[i] >= hi) {
            state_[i] = kUpper;
        }
        if (state_[i] == kLower) x[i] = lo;
        if (state_[i] == kUpper) x[i] = hi;
        if (state_[i] == kFree && !std::isfinite(x[i])) x[i] = 0.0;
    }
    w_.resize(n);
    double* wv = w != nullptr ? w : w_.data();
    const double tolerance = parameters_.tolerance;
    uint32_t best_broken = UINT32_MAX;
    uint32_t rounds_left = 3;
    for (uint32_t round = 1;; ++round) {
        if (!solve_free_rows(p, x)) {
            sdk::set_message(report->message,
                             "zero pivot in the sparse factorization: the rows are dependent (redundant joints or a "
                             "closed loop)");
            // x is not an answer: the held rows are at their bounds, the free ones unsolved.
            return sdk::finish(report, PIVOT_SOLVE_NUMERICAL_ERROR, round, HUGE_VAL, clock.seconds());
        }
        residual(p, x, wv);
        // Rows whose state is wrong: free rows outside their bounds, held
        // rows pushed away from their bound.
        uint32_t broken = 0;
        uint32_t last_broken = 0;
        for (uint32_t i = 0; i < n; ++i) {
            const bool wrong = state_[i] == kFree  ? (x[i] < p.lo[i] - tolerance || x[i] > p.hi[i] + tolerance)
                               : p.lo[i] == p.hi[i] ? false  // held either way
                               : state_[i] == kLower ? wv[i] < -tolerance
                                                     : wv[i] > tolerance;
            if (wrong) ++broken, last_broken = i;
        }
        if (broken == 0) {
            const double r = sdk::natural_map_residual(p, x, wv);
            return sdk::finish(report, PIVOT_SOLVE_CONVERGED, round, r, clock.seconds());
        }
        if (round > parameters_.max_exchanges) {
            // The best usable answer: x within its bounds.
            for (uint32_t i = 0; i < n; ++i) x[i] = std::min(p.hi[i], std::max(p.lo[i], x[i]));
            const double r = residual(p, x, wv);
            sdk::set_message(report->message, "%u rows still at the wrong state after %u pivoting rounds", broken,
                             parameters_.max_exchanges);
            return sdk::finish(report, PIVOT_SOLVE_MAX_ITERATIONS, round, r, clock.seconds());
        }
        // Judice & Pires: exchange every broken row while that reduces
        // their count (3 rounds of grace), else only the last one (Murty).
        const bool all = broken < best_broken || rounds_left > 0;
        if (broken < best_broken) {
            best_broken = broken;
            rounds_left = 3;
        } else if (rounds_left > 0) {
            --rounds_left;
        }
        for (uint32_t i = 0; i < n; ++i) {
            if (!all && i != last_broken) continue;
            if (state_[i] == kFree) {
                if (x[i] < p.lo[i] - tolerance) state_[i] = kLower, x[i] = p.lo[i];
                else if (x[i] > p.hi[i] + tolerance) state_[i] = kUpper, x[i] = p.hi[i];
            } else if ((state_[i] == kLower ? wv[i] < -tolerance : wv[i] > tolerance) && p.lo[i] != p.hi[i]) {
                state_[i] = kFree;
            }
        }
    }
}

}  // namespace pivot::direct
