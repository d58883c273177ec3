#include "lemke_pivoting.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace pivot::lemke {

namespace {

using Vector = Eigen::Map<Eigen::VectorXd>;
using ConstVector = Eigen::Map<const Eigen::VectorXd>;

// Basic values within this fraction of the problem's scale (max |q|, max
// x_B) are zero: that is where the rounding of the updates x_B -= theta d
// and of the solves lives. A row ties in the ratio test when its value after
// the step would be zero in this sense, and such values are set to exactly 0
// so that degenerate rows stay exactly degenerate, as the lexicographic rule
// assumes.
constexpr double kZeroTolerance = 1e-12;

// z0's column in a crash basis's coordinates is B^-1 (-B 1) = -1 exactly; a
// computed entry farther than this from -1 means the basis is too ill
// conditioned to start from (its first almost-complementary basis would not
// be feasible).
constexpr double kCrashColumnTolerance = 1e-8;

// The lexicographic comparison of columns of B^-1: entries below this
// fraction of the column's largest entry are rounding noise of exact zeros
// (they are compared as 0), and quotients closer than this fraction of their
// magnitude are equal. Comparing the noise itself would let rounding decide
// between rows that are exactly tied, and the pivot path would leave the
// lexicographic one (and may cycle).
constexpr double kLexicographicTolerance = 1e-11;

// z0 leaves the basis when its value after the step would be within this
// fraction of the scale of zero, even if another row blocks slightly
// earlier. Where z0 ties with another row in exact arithmetic (a degenerate
// last pivot, as on a box's four contacts with the polyhedral cone), the
// updates' rounding decides which one blocks first: measured 7e-12 of the
// scale after 15 pivots on a 40-row cone problem, above kZeroTolerance, and
// letting the other row leave sent the path on to a secondary ray, while
// exact arithmetic ends there with a solution. Taking z0 instead moves the
// other row's value below zero by at most this fraction; the solution is
// then checked (and refined) against the natural-map residual like any
// other.
constexpr double kZ0TieTolerance = 1e-9;

// The time budget is checked every this many pivots (a clock read costs
// about as much as a few hundred flops; a pivot costs far more).
constexpr uint64_t kClockInterval = 8;

double max_abs(const double* v, Index n) { return n > 0 ? ConstVector(v, n).cwiseAbs().maxCoeff() : 0.0; }

}  // namespace

void LemkePivoting::reserve(Index capacity, Index refactor_interval, size_t nonzeros) {
    basis_.reserve(capacity, refactor_interval, nonzeros);
    const auto c = static_cast<size_t>(basis_.capacity());
    x_.assign(c, 0.0);
    d_.assign(c, 0.0);
    inverse_column_.assign(c, 0.0);
    work_.assign(c, 0.0);
    ties_.assign(c, 0);
}

void LemkePivoting::variable_name(Index var, Index n, char* out, size_t capacity) {
    if (var < n) {
        std::snprintf(out, capacity, "w%ld", static_cast<long>(var));
    } else if (var < 2 * n) {
        std::snprintf(out, capacity, "z%ld", static_cast<long>(var - n));
    } else {
        std::snprintf(out, capacity, "z0");
    }
}

Index LemkePivoting::lexicographic_choice(Index tie_count) {
    // Rows s of [B^-1 q, B^-1] / d_s, compared column by column: the first
    // column (x_B / d, equal for all ties) decided nothing, so columns
    // j = 0, 1, ... of B^-1 follow until one row is the smallest.
    const Index n = n_;
    double* column = inverse_column_.data();
    for (Index j = 0; j < n && tie_count > 1; ++j) {
        basis_.solve_unit(j, column);
        const double noise = kLexicographicTolerance * max_abs(column, n);
        const auto quotient = [&](Index s) { return std::abs(column[s]) <= noise ? 0.0 : column[s] / d_[s]; };
        double smallest = std::numeric_limits<double>::infinity();
        for (Index t = 0; t < tie_count; ++t) smallest = std::min(smallest, quotient(ties_[t]));
        Index kept = 0;
        for (Index t = 0; t < tie_count; ++t) {
            const Index s = ties_[t];
            const double value = quotient(s);
            if (value - smallest <= kLexicographicTolerance * std::max(std::abs(value), std::abs(smallest))) {
                ties_[kept++] = s;
            }
        }
        tie_count = kept;
    }
    // Rows of a nonsingular B^-1 differ, so one row is left in exact
    // arithmetic; if rounding left several, the lowest slot is taken.
    return *std::min_element(ties_.begin(), ties_.begin() + tie_count);
}

LemkeResult LemkePivoting::run(MatrixView m, const double* q, const LemkeSettings& settings, const uint8_t* crash) {
    LemkeResult result;
    m_ = m;
    q_ = q;
    n_ = m.size;
    const Index n = n_;
    double* x = x_.data();
    double* d = d_.data();
    if (n == 0) {
        basis_.reset(m);
        return result;
    }
    if (crash == nullptr) {
        basis_.reset(m);
        std::copy(q, q + n, x);
    } else {
        if (!basis_.crash(m, crash)) {
            result.outcome = LemkeOutcome::singular_basis;
            return result;
        }
        basis_.solve(q, x);  // the crash basis's values x_B = B^-1 q
        // The factorization is the expensive step of a crash start (order
        // ~1400 on lcp-bench nc333_fric): the time budget is checked after it.
        if (settings.time_budget_seconds > 0.0 &&
            settings.elapsed_seconds(settings.clock) > settings.time_budget_seconds) {
            result.outcome = LemkeOutcome::time_budget;
            return result;
        }
    }

    const double q_scale = std::max(max_abs(q, n), max_abs(x, n));
    const double zero = kZeroTolerance * q_scale;
    if (crash != nullptr) {
        // The solve's rounding around the crash basis's zero values (its
        // degenerate rows, as many as the guessed point has x_i = 0 and
        // w_i = 0) is zero, as in the ratio test below.
        for (Index i = 0; i < n; ++i) {
            if (std::abs(x[i]) <= zero) x[i] = 0.0;
        }
    }
    // Lexicographic minimum of the rows [x_B, B^-1] (Cottle, Pang & Stone,
    // section 4.4: z0 enters at max(-x_B) and the leaving row is the
    // lexicographic minimum). With B = I: the most negative q_i and among
    // ties the largest i (its unit row is the smallest).
    Index r = 0;
    for (Index i = 1; i < n; ++i) {
        if (x[i] < x[r]) r = i;
    }
    if (x[r] >= 0.0) return result;  // the starting (complementary) basis solves it, with no pivot
    if (crash == nullptr) {
        for (Index i = n - 1; i > r; --i) {
            if (x[i] - x[r] <= zero) {
                r = i;
                break;
            }
        }
    } else {
        Index tie_count = 0;
        for (Index i = 0; i < n; ++i) {
            if (x[i] - x[r] <= zero) ties_[tie_count++] = i;
        }
        std::fill(d, d + n, 1.0);  // rows compared undivided
        if (tie_count > 1) r = lexicographic_choice(tie_count);
    }
    // z0 enters at -x_r; its column -c gives d = B^-1 (-c) = -1 (c = e with
    // B = I; c = B 1 for a crash basis, where d is computed for its rounding).
    const double z0_start = -x[r];
    if (crash == nullptr) {
        std::fill(d, d + n, -1.0);
    } else {
        basis_.solve_column(basis_.z0_var(), d);
        // The leaving row was chosen for d = -1; a basis that passed the
        // factorization's singularity test but is ill conditioned computes
        // another d, and the first almost-complementary basis would not be
        // feasible: the crash has failed (the caller tries the next start).
        for (Index i = 0; i < n; ++i) {
            if (!(std::abs(d[i] + 1.0) <= kCrashColumnTolerance)) {
                result.outcome = LemkeOutcome::singular_basis;
                return result;
            }
        }
    }
    const double x_r = x[r];
    for (Index i = 0; i < n; ++i) x[i] = x[i] - x_r <= zero ? 0.0 : std::max(x[i] - z0_start * d[i], 0.0);
    x[r] = z0_start;
    const Index first_leaving = basis_.var_in_slot(r);
    if (basis_.replace(r, basis_.z0_var(), d) == BasisFactorization::Update::singular) {
        result.outcome = LemkeOutcome::singular_basis;
        return result;
    }
    result.pivots = 1;
    // The complement of the leaving variable (z_r for w_r) enters.
    Index entering = first_leaving < n ? first_leaving + n : first_leaving - n;

    for (;;) {
        if (result.pivots >= settings.max_pivots) {
            result.outcome = LemkeOutcome::max_pivots;
            return result;
        }
        if (settings.time_budget_seconds > 0.0 && result.pivots % kClockInterval == 0 &&
            settings.elapsed_seconds(settings.clock) > settings.time_budget_seconds) {
            result.outcome = LemkeOutcome::time_budget;
            return result;
        }
        basis_.solve_column(entering, d);

        // Ratio test: the entering variable rises to theta, x_B(theta) =
        // x_B - theta d; rows with d_s > 0 block it.
        const double blocking = settings.pivot_tolerance * max_abs(d, n);
        double theta = std::numeric_limits<double>::infinity();
        double x_scale = q_scale;
        for (Index s = 0; s < n; ++s) {
            x_scale = std::max(x_scale, x[s]);
            if (d[s] > blocking) theta = std::min(theta, x[s] / d[s]);
        }
        if (theta == std::numeric_limits<double>::infinity()) {
            result.outcome = LemkeOutcome::ray_termination;
            result.entering = entering;
            return result;
        }
        const double zero_value = kZeroTolerance * x_scale;
        const Index z0_slot = basis_.slot_of(basis_.z0_var());
        Index tie_count = 0;
        for (Index s = 0; s < n; ++s) {
            if (d[s] > blocking && x[s] - theta * d[s] <= zero_value) ties_[tie_count++] = s;
        }
        const bool z0_ties = z0_slot >= 0 && d[z0_slot] > blocking &&
                             x[z0_slot] - theta * d[z0_slot] <= kZ0TieTolerance * x_scale;
        const Index leaving_slot = z0_ties ? z0_slot : (tie_count == 1 ? ties_[0] : lexicographic_choice(tie_count));
        theta = x[leaving_slot] / d[leaving_slot];

        // The step; the tied rows land on (numerical) zero and are set to
        // exactly 0, and rounding below 0 is clamped.
        Vector(x, n).noalias() -= theta * ConstVector(d, n);
        for (Index s = 0; s < n; ++s) {
            if (x[s] <= zero_value && d[s] > blocking) x[s] = 0.0;
            x[s] = std::max(x[s], 0.0);
        }
        x[leaving_slot] = theta;

        const Index leaving = basis_.var_in_slot(leaving_slot);
        const BasisFactorization::Update update = basis_.replace(leaving_slot, entering, d);
        ++result.pivots;
        if (update == BasisFactorization::Update::singular) {
            result.outcome = LemkeOutcome::singular_basis;
            return result;
        }
        if (update == BasisFactorization::Update::refactorized) {
            // A fresh factorization: fresh basic values too (the updates
            // accumulate rounding).
            basis_.solve(q, x);
            for (Index s = 0; s < n; ++s) {
                if (x[s] <= zero_value) x[s] = 0.0;
            }
        }
        if (leaving == basis_.z0_var()) return result;  // z0 = 0: complementary
        entering = leaving < n ? leaving + n : leaving - n;
    }
}

void LemkePivoting::current_z(double* z) const {
    const Index n = n_;
    for (Index j = 0; j < n; ++j) {
        const Index slot = basis_.slot_of(n + j);
        z[j] = slot >= 0 ? std::max(x_[slot], 0.0) : 0.0;
    }
}

bool LemkePivoting::recompute_basic_values(bool refine) {
    const Index n = n_;
    if (n == 0) return true;
    if (refine && !basis_.refactorize()) return false;
    double* x = x_.data();
    basis_.solve(q_, x);
    if (refine) {
        double* r = work_.data();
        double* correction = d_.data();
        basis_.residual(q_, x, r);
        basis_.solve(r, correction);
        Vector(x, n) += ConstVector(correction, n);
    }
    return true;
}

}  // namespace pivot::lemke
