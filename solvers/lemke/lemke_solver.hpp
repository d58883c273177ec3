#pragma once
// The pivot.solver.lemke instance: parameters, workspace, and solve() from
// the ABI's problem to Lemke's method and back.
#include <cstdint>
#include <vector>

#include <pivot/plugin_solver.h>

#include "boxed_to_standard.hpp"
#include "crash_guess.hpp"
#include "lemke_pivoting.hpp"

namespace pivot::lemke {

// Parameter schema order (plugin_entry.cpp).
enum LemkeParam : uint32_t {
    kParamMaxIterations = 0,
    kParamTolerance,
    kParamPivotTolerance,
    kParamRefactorInterval,
    kParamCrashSweeps,
    kParamCount
};

class LemkeSolver {
public:
    LemkeSolver(const pivot_host* host, const double* params, uint32_t count);
    LemkeSolver(const LemkeSolver&) = default;
    LemkeSolver& operator=(const LemkeSolver&) = delete;

    void set_params(const double* params, uint32_t count);
    // No history: every solve starts afresh (crash guess from the host's
    // warm start or from 0, then cold); the warm start is the host's.
    void reset() {}
    // Workspace for problems of up to n rows (and a standard LCP of up to
    // 2n variables). May throw std::bad_alloc.
    void reserve(uint32_t n);
    void reserve(uint32_t n, Index variables);
    pivot_status solve(const pivot_lcp_problem& problem, const pivot_solve_options& options, double* x, double* w,
                       pivot_solve_report* report);

private:
    // The sweeps of one solve's crash guess so far, and the last sweep in
    // which a row changed its place (at a bound, between).
    struct CrashProgress {
        uint32_t sweeps = 0;
        uint32_t last_change = 0;
    };
    // The crash basis into crash_flags_, guessed from projected Gauss-Seidel
    // sweeps on the boxed problem continuing `progress` (guess_.start()
    // before the first call): at least minimum_sweeps in all, then until no
    // row has changed its place for the last 1/kCrashQuietFraction of them,
    // at most sweep_cap. False when no guess is made (the sweeps diverged, or
    // settings' time budget ran out: *out_of_time).
    bool guess_crash_basis(const pivot_lcp_problem& problem, uint32_t minimum_sweeps, uint32_t sweep_cap,
                           const LemkeSettings& settings, CrashProgress* progress, bool* out_of_time);

    uint64_t max_iterations_ = 0;  // 0: automatic
    double tolerance_ = 0.0;
    double pivot_tolerance_ = 0.0;
    Index refactor_interval_ = 0;
    uint32_t crash_sweeps_ = 0;
    uint32_t reserved_rows_ = 0;
    Index reserved_variables_ = 0;

    BoxedToStandard transform_;
    LemkePivoting lemke_;
    std::vector<double> y_;  // the standard LCP's z (reserved variables)
    std::vector<double> w_;  // A x + b (n), when the host passes no w
    CrashGuess guess_;                   // the sweeps (n rows)
    std::vector<double> guess_x_;        // the sweeps' x in double (n)
    std::vector<double> guess_v_;        // M y + q of the guess (reserved variables)
    std::vector<uint8_t> crash_flags_;   // z_j basic in the crash basis (reserved variables)
};

}  // namespace pivot::lemke
