#include "lemke_solver.hpp"

#include <algorithm>
#include <cmath>
#include <new>
#include <stdexcept>

#include <pivot/solver_support.hpp>

namespace pivot::lemke {

namespace {

// The automatic pivot cap (max_iterations = 0): Lemke's method visits each
// almost-complementary basis at most once (lexicographic rule), but their
// number grows exponentially (Murty's example needs 2^n pivots); on contact
// problems it takes between n/2 and 2n pivots. 50 n + 1000 stops only paths
// that will not finish in useful time.
uint64_t automatic_pivot_cap(Index n) { return 50 * static_cast<uint64_t>(n) + 1000; }

// Below this many LCP variables the cold start is cheap and no crash basis is
// guessed (the published pivot paths of small examples stay as they are).
constexpr Index kCrashMinimumSize = 64;

// The crash guess's sweep count is adaptive (see solve()): a guess is made
// once no row has changed its place (at a bound or between) for the last
// 1/kCrashQuietFraction of the sweeps so far, after at least crash_sweeps
// sweeps and at most kCrashSweepCap times crash_sweeps.
// Measured on lcp-bench: the guessed basis is the solution's after ~550
// sweeps on nc050_fric, ~3250 on nc200_fric, ~1750 on nc333_fric and < 100
// on the normal problems. With a quarter the guesses of nc200_fric and
// nc333_fric are made at 3586 and 1775 sweeps (0 pivots; nc010_fric and
// nc050_fric stop at ~100 sweeps and 31 / 36 pivots, under 1 ms); a sixth
// stops at 2013 and 1148 (5 and 9 pivots, about as fast); an eighth too
// early for nc333_fric (267 pivots, 5x slower). The cap bounds the sweeps
// where the places keep changing.
constexpr uint32_t kCrashQuietFraction = 4;
constexpr uint32_t kCrashSweepCap = 50;

// The time budget is checked every this many Gauss-Seidel sweeps (a sweep
// costs nnz(A) multiply-adds: ~10 us on lcp-bench nc333_fric, n = 999).
constexpr uint32_t kCrashClockSweeps = 16;

double stopwatch_seconds(const void* clock) { return static_cast<const sdk::Stopwatch*>(clock)->seconds(); }

bool all_finite(const double* v, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i) {
        if (!std::isfinite(v[i])) return false;
    }
    return true;
}

}  // namespace

LemkeSolver::LemkeSolver(const pivot_host* /*host: no logging on the step path*/, const double* params,
                         uint32_t count) {
    set_params(params, count);
}

void LemkeSolver::set_params(const double* params, uint32_t count) {
    // The host validated the values against the schema (plugin_entry.cpp).
    if (params == nullptr || count != kParamCount) throw std::invalid_argument("parameter count");  // PIVOT_ERROR
    max_iterations_ = static_cast<uint64_t>(params[kParamMaxIterations]);
    tolerance_ = params[kParamTolerance];
    pivot_tolerance_ = params[kParamPivotTolerance];
    crash_sweeps_ = static_cast<uint32_t>(params[kParamCrashSweeps]);
    const auto interval = static_cast<Index>(params[kParamRefactorInterval]);
    if (interval != refactor_interval_) {
        refactor_interval_ = interval;
        if (reserved_rows_ > 0) {
            const uint32_t rows = reserved_rows_;
            const Index variables = reserved_variables_;
            reserved_rows_ = 0;
            reserved_variables_ = 0;
            reserve(rows, variables);  // the eta storage depends on the interval
        }
    }
}

void LemkeSolver::reserve(uint32_t n) { reserve(n, 2 * static_cast<Index>(n)); }

void LemkeSolver::reserve(uint32_t n, Index variables) {
    n = std::max(n, reserved_rows_);
    variables = std::max({variables, 2 * static_cast<Index>(n), reserved_variables_});
    if (n == reserved_rows_ && variables == reserved_variables_) return;
    // A boxed problem of n rows becomes a standard LCP of up to 2n
    // variables (a multiplier per boxed row, or a doubled free row); a
    // friction row takes up to four (BoxedToStandard::variable_count).
    transform_.reserve(static_cast<Index>(n), variables);
    lemke_.reserve(variables, refactor_interval_, transform_.nonzero_capacity());
    y_.assign(static_cast<size_t>(variables), 0.0);
    w_.assign(n, 0.0);
    guess_.reserve(n);
    guess_x_.assign(n, 0.0);
    guess_v_.assign(static_cast<size_t>(variables), 0.0);
    crash_flags_.assign(static_cast<size_t>(variables), 0);
    reserved_rows_ = n;
    reserved_variables_ = variables;
}

bool LemkeSolver::guess_crash_basis(const pivot_lcp_problem& problem, uint32_t minimum_sweeps, uint32_t sweep_cap,
                                    const LemkeSettings& settings, CrashProgress* progress, bool* out_of_time) {
    *out_of_time = false;
    // Projected Gauss-Seidel on the boxed problem (crash_guess.hpp: on A's
    // nonzeros, in single precision), continuing from the last call's x.
    for (uint32_t& done = progress->sweeps; done < sweep_cap; ++done) {
        if (done >= minimum_sweeps && done - progress->last_change >= std::max(done / kCrashQuietFraction, 1u)) {
            break;
        }
        if (settings.time_budget_seconds > 0.0 && done % kCrashClockSweeps == 0 &&
            settings.elapsed_seconds(settings.clock) > settings.time_budget_seconds) {
            *out_of_time = true;
            return false;
        }
        if (guess_.sweep(problem) > 0) progress->last_change = done + 1;
    }
    if (!guess_.point(problem, guess_x_.data())) return false;
    transform_.guess_basis(guess_x_.data(), y_.data(), guess_v_.data(), crash_flags_.data());
    return true;
}

pivot_status LemkeSolver::solve(const pivot_lcp_problem& problem, const pivot_solve_options& options, double* x,
                                double* w, pivot_solve_report* report) {
    const sdk::Stopwatch clock;
    report->reserved = 0;
    report->message[0] = '\0';
    const uint32_t n = problem.n;

    const pivot_solve_status valid = sdk::validate_problem(problem, true, false, report->message);
    if (valid != PIVOT_SOLVE_CONVERGED) return sdk::finish(report, valid, 0, 0.0, clock.seconds());
    if (n > 0 && x == nullptr) {
        sdk::set_message(report->message, "x must be given");
        return sdk::finish(report, PIVOT_SOLVE_INVALID_PROBLEM, 0, 0.0, clock.seconds());
    }
    if (n == 0) return sdk::finish(report, PIVOT_SOLVE_CONVERGED, 0, 0.0, clock.seconds());
    const Index variables = BoxedToStandard::variable_count(problem);
    if (n > reserved_rows_ || variables > reserved_variables_) {
        // A problem larger than reserve() announced (or with friction rows,
        // which take more variables): the workspace grows here, once per
        // new maximum size; the only allocation of solve().
        try {
            reserve(n, variables);
        } catch (const std::bad_alloc&) {
            sdk::set_message(report->message, "no memory for the workspace of %u rows (%lld LCP variables)", n,
                             static_cast<long long>(variables));
            return sdk::finish(report, PIVOT_SOLVE_OUT_OF_MEMORY, 0, 0.0, clock.seconds());
        }
    }
    if (!transform_.build(problem)) {
        const auto row = static_cast<unsigned>(transform_.unsupported_row());
        sdk::set_message(report->message,
                         "row %u has a friction index to row %d, whose impulse may be negative (bounds [%g, %g]): "
                         "pivot.solver.lemke takes friction bounds on rows [l, inf) with l >= 0 or fixed rows",
                         row, problem.findex[row], problem.lo[problem.findex[row]], problem.hi[problem.findex[row]]);
        return sdk::finish(report, PIVOT_SOLVE_UNSUPPORTED, 0, 0.0, clock.seconds());
    }
    LemkeSettings settings;
    settings.max_pivots = max_iterations_ > 0 ? max_iterations_ : automatic_pivot_cap(transform_.size());
    settings.pivot_tolerance = pivot_tolerance_;
    settings.time_budget_seconds = options.time_budget_seconds;
    settings.elapsed_seconds = &stopwatch_seconds;
    settings.clock = &clock;
    double* wx = w != nullptr ? w : w_.data();
    const auto evaluate = [&]() {
        lemke_.current_z(y_.data());
        transform_.map_back(y_.data(), x);
        if (!all_finite(x, n)) return HUGE_VAL;
        sdk::multiply(problem, x, wx);
        const double r = sdk::natural_map_residual(problem, x, wx);
        return std::isfinite(r) ? r : HUGE_VAL;
    };
    const auto zero_output = [&]() {
        // Never NaN or Inf out: x = 0 (w = b) when the point is unusable.
        std::fill(x, x + n, 0.0);
        for (uint32_t i = 0; i < n; ++i) x[i] = std::min(problem.hi[i], std::max(problem.lo[i], 0.0));
        sdk::multiply(problem, x, wx);
        return sdk::natural_map_residual(problem, x, wx);
    };
    LemkeResult result;
    uint64_t used_pivots = 0;
    // Crash starts: Lemke's method from a basis guessed by projected
    // Gauss-Seidel sweeps, then, if it does not end with an accepted
    // solution, from a second guess after at least twice as many sweeps
    // (continued), then the cold start from B = I. PGS converges slowly on
    // the nearly singular contact matrices and the guess must be close: from
    // a fixed count the crash erratically ends on a secondary ray or takes
    // hundreds of pivots (lcp-bench nc333_fric: rays from 100 and 300 sweeps,
    // 258 pivots from 500, 11 from 1000, 0 from 2000; nc200_fric: 515 pivots
    // from 100, a ray from 1000, 0 from 4000). So the guess is made when the
    // rows' places (at a bound, between) have been stable for a quarter of
    // the sweeps (kCrashQuietFraction): sweeps are cheap next to a failed
    // crash (nc333_fric: ~10 us per sweep; ~10 ms for a crash's
    // factorization, more for its pivots). A crash can end on a
    // secondary ray where the cold start cannot (its covering vector B 1 is
    // not positive; Cottle, Pang & Stone, section 4.4 need d > 0 for
    // copositive-plus M).
    // A warm start (the previous step's impulses, or an earlier solution)
    // is where the sweeps start, clamped into the bounds: Lemke's method
    // itself has no use for a point (it starts from a basis), but a guess
    // that starts near the solution finds its basis in few sweeps, and the
    // crash then ends in a handful of pivots (lcp-bench nc333_fric warm from
    // its solution: 0 pivots). The sweeps are as many as from 0 at least: a
    // warm start's places are stable at once, and from a tenth of them the
    // crash from near the solution (0.9 x + shift) took 67 pivots on
    // nc333_fric instead of 8 (70 ms instead of 33). Without a crash (small
    // problems, crash_sweeps = 0) the warm start is not used.
    const bool warm = (options.flags & PIVOT_SOLVE_WARM_START) != 0;
    const bool crash = crash_sweeps_ > 0 && transform_.size() >= kCrashMinimumSize &&
                       guess_.start(problem, warm ? x : nullptr);
    CrashProgress progress;
    const uint32_t sweep_cap = kCrashSweepCap * crash_sweeps_;
    uint32_t minimum_sweeps = crash_sweeps_;
    // Whether a run of this solve left a point of Lemke's method to report
    // (a crash that fails at its factorization leaves none: the basic values
    // would be an earlier solve's).
    bool have_point = false;
    for (int attempt = 0; crash && attempt < 2 && used_pivots < settings.max_pivots; ++attempt) {
        if (attempt > 0) {
            // The second guess: at least twice the first's sweeps, as stable.
            if (progress.sweeps >= sweep_cap) break;
            minimum_sweeps = std::min(2 * progress.sweeps, sweep_cap);
        }
        bool out_of_time = false;
        if (!guess_crash_basis(problem, minimum_sweeps, sweep_cap, settings, &progress, &out_of_time)) {
            if (out_of_time && !have_point) {
                // No point of Lemke's method yet: x = 0 clamped into the bounds.
                const double residual = zero_output();
                sdk::set_message(report->message,
                                 "time budget of %.3g s exhausted while guessing the starting basis: no solution",
                                 options.time_budget_seconds);
                sdk::finish(report, PIVOT_SOLVE_TIME_BUDGET, 0, residual, clock.seconds());
                return PIVOT_ERROR;
            }
            if (out_of_time) result.outcome = LemkeOutcome::time_budget;  // the first attempt's point is reported
            break;
        }
        LemkeSettings remaining = settings;
        remaining.max_pivots = settings.max_pivots - used_pivots;
        result = lemke_.run(transform_.matrix(), transform_.q(), remaining, crash_flags_.data());
        used_pivots += result.pivots;
        have_point = have_point || !(result.outcome == LemkeOutcome::singular_basis && result.pivots == 0);
        if (result.outcome == LemkeOutcome::solved) {
            double residual = evaluate();
            if (!(residual <= tolerance_) && lemke_.recompute_basic_values(true)) residual = evaluate();
            if (residual <= tolerance_) {
                const auto pivots = static_cast<uint32_t>(std::min<uint64_t>(used_pivots, UINT32_MAX));
                return sdk::finish(report, PIVOT_SOLVE_CONVERGED, pivots, residual, clock.seconds());
            }
        }
        if (result.outcome == LemkeOutcome::time_budget || result.outcome == LemkeOutcome::max_pivots) break;
        if (settings.time_budget_seconds > 0.0 && clock.seconds() > settings.time_budget_seconds) {
            result.outcome = LemkeOutcome::time_budget;
            break;
        }
    }
    if (used_pivots < settings.max_pivots && result.outcome != LemkeOutcome::time_budget) {
        settings.max_pivots -= used_pivots;
        result = lemke_.run(transform_.matrix(), transform_.q(), settings);
        result.pivots += used_pivots;
    } else {
        result.pivots = used_pivots;
    }
    const uint32_t pivots = static_cast<uint32_t>(std::min<uint64_t>(result.pivots, UINT32_MAX));
    char variable[16];

    switch (result.outcome) {
        case LemkeOutcome::solved: {
            double residual = evaluate();
            if (residual <= tolerance_) return sdk::finish(report, PIVOT_SOLVE_CONVERGED, pivots, residual, clock.seconds());
            // The updated basic values drifted, or the basis is ill
            // conditioned: a fresh factorization and one refinement step.
            if (!lemke_.recompute_basic_values(true)) {
                residual = zero_output();
                sdk::set_message(report->message,
                                 "Lemke's method ended after %u pivots at a basis that is singular to working "
                                 "precision: no reliable solution",
                                 pivots);
                return sdk::finish(report, PIVOT_SOLVE_NUMERICAL_ERROR, pivots, residual, clock.seconds());
            }
            residual = evaluate();
            if (residual <= tolerance_) return sdk::finish(report, PIVOT_SOLVE_CONVERGED, pivots, residual, clock.seconds());
            if (residual == HUGE_VAL) residual = zero_output();
            Index dropped_row = -1;
            const double violation = transform_.dropped_row_violation(wx, &dropped_row);
            if (dropped_row >= 0 && violation > tolerance_) {
                // Redundant equality rows asking for inconsistent velocities:
                // no x satisfies them all (x is the least violating point
                // Lemke's method found with the dependent rows' x_i = 0).
                sdk::set_message(report->message,
                                 "%u of the free (equality) rows depend on the others, and their right-hand side "
                                 "is inconsistent: row %u keeps |w| = %.3g > tolerance %.3g (residual %.3g)",
                                 static_cast<unsigned>(transform_.dropped_free_rows()),
                                 static_cast<unsigned>(dropped_row), violation, tolerance_, residual);
                return sdk::finish(report, PIVOT_SOLVE_INFEASIBLE, pivots, residual, clock.seconds());
            }
            sdk::set_message(report->message,
                             "Lemke's method ended at a complementary basis after %u pivots, but its solution has "
                             "residual %.3g > tolerance %.3g after iterative refinement (ill-conditioned basis)",
                             pivots, residual, tolerance_);
            // The method's final answer is usable (finite; clamped into the
            // bounds it may leave by rounding): the host judges it by its own
            // residual rather than losing the step's impulses.
            sdk::clamp_to_own_bounds(problem, x);
            sdk::multiply(problem, x, wx);
            residual = sdk::natural_map_residual(problem, x, wx);
            sdk::finish(report, PIVOT_SOLVE_NUMERICAL_ERROR, pivots, residual, clock.seconds());
            return PIVOT_WARNING;
        }
        case LemkeOutcome::ray_termination: {
            double residual = evaluate();
            if (residual == HUGE_VAL) residual = zero_output();
            LemkePivoting::variable_name(result.entering, transform_.size(), variable, sizeof variable);
            sdk::set_message(report->message,
                             "ray termination after %u pivots (entering %s is blocked by no basic variable): the "
                             "LCP may have no solution, or Lemke's method cannot solve it (matrix not "
                             "copositive-plus)",
                             pivots, variable);
            return sdk::finish(report, PIVOT_SOLVE_RAY_TERMINATION, pivots, residual, clock.seconds());
        }
        case LemkeOutcome::max_pivots: {
            double residual = evaluate();
            if (residual == HUGE_VAL) residual = zero_output();
            sdk::set_message(report->message,
                             "stopped at the pivot cap max_iterations = %llu before z0 left the basis; x is the "
                             "last almost-complementary point (residual %.3g)",
                             static_cast<unsigned long long>(settings.max_pivots), residual);
            return sdk::finish(report, PIVOT_SOLVE_MAX_ITERATIONS, pivots, residual, clock.seconds());
        }
        case LemkeOutcome::time_budget: {
            double residual = evaluate();
            if (residual == HUGE_VAL) residual = zero_output();
            sdk::set_message(report->message,
                             "time budget of %.3g s exhausted after %u pivots, before z0 left the basis: no "
                             "solution",
                             options.time_budget_seconds, pivots);
            sdk::finish(report, PIVOT_SOLVE_TIME_BUDGET, pivots, residual, clock.seconds());
            // An intermediate point of Lemke's path is no approximation of
            // the solution (unlike an iterative solver's iterate).
            return PIVOT_ERROR;
        }
        case LemkeOutcome::singular_basis:
        default: {
            const double residual = zero_output();
            sdk::set_message(report->message,
                             "the basis became singular to working precision after %u pivots (numerical "
                             "breakdown; a larger pivot_tolerance may help)",
                             pivots);
            return sdk::finish(report, PIVOT_SOLVE_NUMERICAL_ERROR, pivots, residual, clock.seconds());
        }
    }
}

}  // namespace pivot::lemke
