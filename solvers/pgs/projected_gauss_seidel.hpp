#pragma once
// pivot.solver.pgs: projected Gauss-Seidel / SOR on the sparse (CSC) matrix,
// for boxed problems with a friction index, block projections (friction
// cones), warm start, iteration and time limits, accelerated by subspace
// minimization (subspace_minimization.hpp).
//
// The sweep keeps w = A x + b up to date instead of computing each row's
// w_i = b_i + A(i,:) x: updating x_i by delta adds delta A(:, i), a column of
// the CSC matrix. The iterates are those of the row-wise projected SOR
// (Cottle, Pang & Stone 1992, "The Linear Complementarity Problem", ch. 5);
// only the bookkeeping differs. So
//  - a sweep reads each column once, O(nnz), and skips the column of every
//    row that does not move (rows resting on a bound, most of a contact
//    problem), for symmetric and non-symmetric A alike, with no transposed copy;
//  - the natural-map residual is available after any sweep for O(n).
// The accumulated w drifts by rounding, so it is recomputed from scratch
// (a mat-vec) before convergence is declared and for the returned w.
//
// Block projections (problem->block_count > 0, e.g. friction cones): a block
// moves as a whole, x_B <- P_B(x_B - w_B / rho_B), with one call of the
// problem's project() per block per sweep; its rows follow the projection
// alone, not their boxes. The residual of a block row is |x - P_B(x - w)|
// (the natural map of the projection), which is what is reported; the host's
// box residual does not measure a cone problem. No subspace steps then.
#include <cmath>
#include <cstdint>
#include <vector>

#include <pivot/plugin_solver.h>

#include "subspace_minimization.hpp"

namespace pivot::pgs {

// The defaults that were measured (lcp-bench, RelWithDebInfo, 2-core machine):
//  - check_interval 4: with the friction index a check costs about a tenth of
//    a sweep on lcp_nc333_fric (O(n) against O(nnz) skipping resting rows):
//    14.1 us per sweep checking every 4th against 15.6 every sweep, for at
//    most 3 sweeps more.
//  - subspace_interval 4: 2 and 8 were slower on the friction files and on
//    piles of 300 to 3000 contacts (fewer sweeps but more factorizations, or
//    the reverse).
//  - subspace_fill 4: the factors met are 0.1 to 0.3 times nnz(A) (lcp-bench,
//    piles); 4 only stops pathological free sets.
struct Parameters {
    uint32_t max_iterations = 10000;  // sweeps
    double tolerance = 1e-6;          // natural-map residual
    double relaxation = 1.0;          // SOR factor in (0, 2)
    double time_budget = 0.0;         // s per solve when the options give none; 0 = none
    uint32_t check_interval = 4;      // sweeps between residual checks
    bool subspace_minimization = true;
    uint32_t subspace_interval = 4;   // sweeps between subspace steps
    double subspace_fill = 4.0;       // factor storage in multiples of nnz(A)
};

// Schema order of the instance parameters (pgs_plugin.cpp).
constexpr uint32_t kParameterCount = 8;
Parameters parameters_from(const double* values, uint32_t count);

class ProjectedGaussSeidel {
public:
    explicit ProjectedGaussSeidel(const Parameters& parameters) : parameters_(parameters) {}

    void set_parameters(const Parameters& parameters);
    // Workspace for up to n rows and nnz nonzeros; solve() allocates nothing
    // for problems within it. May allocate (and throw std::bad_alloc).
    void reserve(uint32_t n, uint32_t nnz);
    // Nothing is remembered between solves (the warm start is the host's x).
    void reset() {}

    pivot_status solve(const pivot_lcp_problem* problem, const pivot_solve_options* options, double* x, double* w,
                       pivot_solve_report* report);

private:
    // Book-keeping of the subspace steps within one solve.
    struct SubspaceSchedule {
        bool active = false;         // steps are still tried
        uint32_t interval = 0;       // sweeps between two attempts
        uint32_t last_sweep = 0;     // sweep of the last attempt
        bool coupled_ready = false;  // try the coupled step first next time
        uint32_t steps = 0;          // steps taken
        double best = HUGE_VAL;      // smallest residual seen
        uint32_t best_sweep = 0;     // and when
        double best_at_last_step = HUGE_VAL;
        uint32_t fruitless = 0;      // steps taken since the best residual last improved
        void saw(double residual, uint32_t sweep);
    };

    bool prepare(const pivot_lcp_problem& p, pivot_solve_report& report);
    // One subspace phase at x (within its bounds; r its residual). True when
    // a step was taken (x, w and r updated).
    bool subspace_phase(const pivot_lcp_problem& p, double* x, uint32_t sweeps, SubspaceSchedule& schedule, double& r);
    void sweep(const pivot_lcp_problem& p, double* x);
    // Natural-map residual at x with the incremental w (blocks: with their
    // projection). False when a block projection failed.
    bool residual(const pivot_lcp_problem& p, const double* x, double& value);
    // Puts every row within its bounds at x (friction rows after the rows
    // they depend on), keeping w up to date. True if x moved.
    bool project_onto_bounds(const pivot_lcp_problem& p, double* x);
    void recompute_w(const pivot_lcp_problem& p, const double* x);
    // Flags the rows of every block that is not strictly inside its set at
    // x (locked_): such rows stay fixed in a subspace step. False when a
    // block projection failed.
    bool lock_boundary_blocks(const pivot_lcp_problem& p, const double* x);

    Parameters parameters_;
    uint32_t reserved_n_ = 0;
    uint32_t reserved_nnz_ = 0;
    double reserved_fill_ = 0.0;
    std::vector<double> w_;                 // A x + b, updated incrementally
    std::vector<double> inverse_diagonal_;  // relaxation / A_ii
    std::vector<double> block_step_;        // relaxation / (bound on the largest eigenvalue of A_BB)
    std::vector<double> scratch_;           // n values: block rows before an update; residual trial point
    std::vector<uint8_t> locked_;           // n flags: block rows a subspace step must not move
    uint32_t block_begin_ = 0;              // rows [block_begin_, block_end_) are in blocks
    uint32_t block_end_ = 0;
    bool symmetric_ = false;
    SubspaceMinimization subspace_;
};

}  // namespace pivot::pgs
