// Dantzig-style principal pivoting for boxed LCPs with a friction index on a
// symmetric positive semidefinite A: the algorithm of ODE's dSolveLCP and of
// Baraff, "Fast contact force computation for nonpenetrating rigid bodies"
// (SIGGRAPH 1994), in the bounded form of Cottle, Pang and Stone, "The
// Linear Complementarity Problem" (1992), ch. 4 (principal pivoting).
//
// Find x, w = A x + b with, per row i and bounds l_i <= u_i,
//   x_i = l_i, w_i >= 0   or   x_i = u_i, w_i <= 0   or   l_i < x_i < u_i, w_i = 0,
// where a row with friction index j has l_i = lo_i |x_j|, u_i = hi_i |x_j|.
//
// Rows are "processed" one at a time: each processed row satisfies its
// condition, and the row being driven moves monotonically towards its own,
// while the free rows (set C: w = 0) follow so as to keep w_C = 0 and the
// rows at a bound (set N) stay there. The driving stops at the first event:
// the driven row reaches w = 0 (joins C) or a bound (joins N), or a C row
// reaches a bound (leaves C), or an N row's w reaches 0 (joins C); the last
// two change C and the drive goes on. The matrix of the free rows is kept as
// a factor that is updated, not refactored, at each change of C.
//
// Friction index: the bounds of a friction row are lo * s, hi * s with a
// scale s per row that stays fixed during a pivoting pass, so that every
// pass solves a boxed LCP with a symmetric PSD matrix, where the pivoting is
// monotone and finite. ODE takes s = |x_normal| at the moment the friction row
// is processed (normal rows first) and stops there; its answers leave a
// natural-map residual of ~0.2 on contact problems. Here the first pass does
// the same, and then an outer iteration makes the scales consistent,
// s = |x_normal(s)|, each iterate solved exactly by a pass warm started from
// the previous one's sets and factor (friction_consistency()).
//
// Why not tie the bounds to the normals inside the pivoting (Baraff's
// dynamic-friction treatment, one exact pass)? The matrix of the free rows
// becomes nonsymmetric, and on contact problems with more contact rows than
// body degrees of freedom (A = J M^-1 J^T + eps I, nearly singular) the
// coupled path folds back: a friction row's own bound moves faster than the
// row, so it can neither stay free nor stay on the bound while the drive goes
// on. A monotone drive cannot follow that; tried, it cycles on lcp-bench.
#pragma once

#include <cstdint>
#include <vector>

#include "gmres.hpp"
#include "pivot/plugin_solver.h"
#include "pivot/solver_support.hpp"
#include "symmetric_matrix.hpp"
#include "updatable_ldlt.hpp"

namespace pivot::dantzig {

struct BoxedProblem {
    const SymmetricMatrix* a = nullptr;
    const double* b = nullptr;
    const double* lo = nullptr;
    const double* hi = nullptr;
    const int32_t* findex = nullptr;  // NULL: no friction index
};

struct PivotingSettings {
    double tolerance = 1e-10;            // natural-map residual to reach
    uint32_t max_passes = 200;           // pivoting passes, the first included
    uint64_t max_pivots = 0;             // cap on pivots over all passes
    double singular_pivot_ratio = 1e-10; // pivot <= ratio * A_ii counts as zero
    double time_budget_seconds = 0.0;    // 0: none
};

struct PivotingOutcome {
    pivot_solve_status status = PIVOT_SOLVE_CONVERGED;
    uint64_t pivots = 0;
    uint32_t passes = 0;
    double residual = 0.0;
    char message[PIVOT_MESSAGE_CAPACITY] = {};
};

class BoxedPivoting {
public:
    // Workspace for n rows (the factor takes n^2 doubles).
    void reserve(uint32_t n);

    // x: the previous solution on input when warm_start, else ignored; the
    // solution on output (within its bounds to 1e-10 (1 + |bound|)).
    // w: A x + b on output.
    PivotingOutcome solve(const BoxedProblem& problem, const PivotingSettings& settings, bool warm_start, double* x,
                          double* w, const sdk::Stopwatch& clock);

private:
    enum class RowState : uint8_t {
        unprocessed,     // x fixed at a value within its bounds, condition not yet enforced
        free,            // in C: w = 0, l <= x <= u, a row of the factor
        at_lower,        // x = l, w >= 0
        at_upper,        // x = u, w <= 0
        free_dependent,  // l < x < u, w = 0 but A_CC would become singular
                         // with this row: x fixed, w = 0 follows from C
    };
    enum class DriveEnd { done, pivot_limit, time_budget, unbounded, not_semidefinite };

    void setup(const BoxedProblem& problem, const PivotingSettings& settings, bool warm_start, const double* x);
    void guess_sets();
    DriveEnd drive(uint32_t d);
    DriveEnd drive_unprocessed();
    DriveEnd evaluate();
    double eliminate(uint32_t row);
    bool independent(double schur_pivot, uint32_t row) const;
    void join_free_set(uint32_t row, double schur_pivot);
    void leave_free_set(uint32_t position, RowState to);
    bool has_findex(uint32_t row) const { return findex_ != nullptr && findex_[row] >= 0; }
    uint32_t normal_of(uint32_t row) const { return static_cast<uint32_t>(findex_[row]); }
    void refresh_bounds(uint32_t row);
    void pin_rows_at_bounds();
    void solve_free_rows();
    void revalidate();
    void refine();
    void compute_w();
    double residual() const;
    double friction_mismatch() const;
    void newton_direction();
    void friction_consistency(DriveEnd& end, double& residual, PivotingOutcome& out);
    void clamp_to_bounds();
    bool out_of_time() const;

    // The problem of the current solve.
    const SymmetricMatrix* a_ = nullptr;
    const double* b_ = nullptr;
    const double* lo_ = nullptr;
    const double* hi_ = nullptr;
    const int32_t* findex_ = nullptr;
    uint32_t n_ = 0;
    PivotingSettings settings_;
    const sdk::Stopwatch* clock_ = nullptr;
    double w_tolerance_ = 0.0;  // |w| below this counts as zero for the sign conditions
    double x_tolerance_ = 0.0;  // bound violation of a free row tolerated before it leaves C
    double negative_pivot_ratio_ = 0.0;  // a pivot below -ratio * A_dd proves A is not PSD
    uint64_t pivots_ = 0;
    uint32_t drive_stamp_ = 0;
    bool scale_when_driven_ = false;  // cold first pass: friction scale taken when the row is driven

    // Per row.
    std::vector<RowState> state_;
    std::vector<double> x_;
    std::vector<double> w_;
    std::vector<double> lower_;
    std::vector<double> upper_;
    // Friction-indexed rows: bounds lo * scale, hi * scale, the scale fixed
    // during a pass; consistent when scale = |x_normal|.
    std::vector<double> scale_;
    std::vector<double> scale_step_;    // Newton direction, or the last relaxed update, for scale_
    std::vector<double> scale_saved_;   // scale_ before a Newton step
    std::vector<double> target_saved_;  // |x_normal| before a Newton step
    std::vector<double> relaxation_;    // per friction row, of the damped substitution
    std::vector<int32_t> position_;     // position in C (row of the factor), -1 outside C
    std::vector<uint32_t> order_;       // processing order: plain rows, then friction-indexed rows
    std::vector<uint32_t> blocked_;     // == drive_stamp_: excluded from the current drive's ratio test
    std::vector<double> step_w_;        // dw of the current step (rows in watched_)
    std::vector<double> step_x_;        // dx of the current step, scattered; zero between steps
    std::vector<uint32_t> watched_;     // rows at a bound with l < u: those a step can move off it

    // Per position in C.
    std::vector<uint32_t> free_rows_;   // row at each position
    std::vector<double> forward_;       // L^-1 a for the column a of the row being eliminated
    std::vector<double> scaled_;        // D^-1 L^-1 a: the new factor row if it joins C
    std::vector<double> direction_;     // A_CC^-1 a
    std::vector<uint32_t> leaving_;     // revalidate(): positions whose x left its bounds
    std::vector<double> coupled_work_;  // newton_direction(): A_CC^-1 A_CU v

    // newton_direction(): the friction rows at a bound (set U), whose x
    // moves with their scale.
    std::vector<uint32_t> coupled_rows_;
    std::vector<double> coupled_rhs_;
    std::vector<double> coupled_x_;
    Gmres gmres_;

    UpdatableLdlt factor_;
};

}  // namespace pivot::dantzig
