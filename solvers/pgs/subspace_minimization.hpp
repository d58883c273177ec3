#pragma once
// The subspace minimization step that accelerates projected Gauss-Seidel
// (PGS-SM: Silcowitz, Niebe & Erleben, "Projected Gauss-Seidel subspace
// minimization method for interactive rigid body dynamics", GRAPP 2010): after
// some sweeps the rows strictly between their bounds are taken as the free
// set F, the others stay where they are, and
//     A_FF d_F = -w_F        (w = A x + b)
// gives the point x + d where every free row has w_i = 0. The step is taken
// along the projected path x(t) = P(x + t d), t = 1, 1/2, ..., 2^-9, at the
// first point where a merit decreased (and the natural-map residual stays
// below a limit the caller gives); otherwise x is left as it was.
//
// Two kinds of step:
//  - frozen: the bounds of friction rows (findex) are frozen at their values
//    at x, so the problem is a box-constrained QP min 1/2 x'Ax + b'x when A is
//    symmetric, and the merit is that QP's objective (the face minimization
//    with a projected search of Moré & Toraldo 1991, "On the solution of large
//    quadratic programming problems with bound constraints", SIAM J. Optim.
//    1(1)); for a non-symmetric A the merit is the natural-map residual.
//  - coupled: a friction row at a bound whose normal row is free follows its
//    normal, x_s = c_s x_n with c_s = lo_s or hi_s times sign(x_n), which puts
//    c_s A(:, s) into column n: the step is the semismooth Newton step of the
//    natural map with this active set (Pang 1990, "Newton's method for
//    B-differentiable equations", Math. Oper. Res. 15(2)). It is exact on the
//    right active set but, on these ill-conditioned problems, wild on a wrong
//    one, so the solver tries it only once the free set has settled; merit:
//    the natural-map residual with the real bounds.
//
// The system (with a tiny proximal term, see kProximalWeight) is factorized
// without pivoting in a minimum-degree order, reused while the free set
// changes little, and the factorization is reused as long as the active set
// does not change (within one solve). All storage is sized by reserve();
// step() does not allocate.
#include <cstdint>
#include <vector>

#include <pivot/plugin_solver.h>

#include "../sparse/minimum_degree_ordering.hpp"
#include "../sparse/sparse_ldu.hpp"

namespace pivot::pgs {

enum class SubspaceKind { frozen, coupled };

struct SubspaceOutcome {
    bool attempted = false;     // a system was set up and solved
    bool accepted = false;      // x and w were moved
    bool full_step = false;     // accepted with t = 1
    bool same_free_set = false;  // the free set is the one of the previous attempt
    int32_t free_set_changes = 0;  // rows that entered or left the free set since the previous attempt
    double residual = 0.0;      // natural-map residual at x afterwards (when accepted)
};

class SubspaceMinimization {
public:
    // Storage for problems of up to n rows and nnz nonzeros; the factor gets
    // fill * nnz + n entries (a free set whose factor needs more than that
    // for the problem at hand is not minimized).
    void reserve(uint32_t n, uint32_t nnz, double fill);

    // A new solve: forget the cached factorization (the matrix may differ).
    // fill: the factor's size limit for this solve, in multiples of nnz(A)
    // (at most what reserve() was given).
    void forget(double fill);

    // One step from x (within its bounds) with w = A x + b. residual: the
    // natural-map residual at x. symmetric: A is symmetric (the QP merit).
    // A step is taken only if it leaves a natural-map residual below
    // residual_limit (and, for the frozen step on a symmetric A, lowers the
    // QP objective; else lowers the residual). locked: n flags (or null),
    // rows that stay fixed whatever their bounds say (rows of projection
    // blocks on the boundary of their set, see ProjectedGaussSeidel).
    SubspaceOutcome step(const pivot_lcp_problem& problem, bool symmetric, SubspaceKind kind, double* x, double* w,
                         double residual, double residual_limit, const uint8_t* locked = nullptr);

private:
    enum RowState : int8_t { kFixed = 0, kFree = 1, kSlidingBase = 2 };  // sliding: 2 + 2 * upper + negative

    void classify(const pivot_lcp_problem& p, SubspaceKind kind, const double* x, const uint8_t* locked);
    bool factorize(const pivot_lcp_problem& p, bool transpose_needed);
    void add_column(const pivot_lcp_problem& p, uint32_t column, double scale, int32_t local_column);

    double fill_ = 0.0;
    int32_t free_count_ = 0;
    bool factor_valid_ = false;
    SubspaceKind factor_kind_ = SubspaceKind::frozen;

    std::vector<int8_t> state_;           // RowState per row
    std::vector<int8_t> factor_state_;    // state_ when the factor was built
    std::vector<int32_t> free_rows_;      // local index -> row
    std::vector<int8_t> previous_free_;   // 1 for rows free at the previous attempt
    int32_t previous_free_count_ = -1;
    std::vector<int32_t> local_;          // row -> local index, -1 if not free
    std::vector<int32_t> sliding_head_;   // normal row -> first sliding row following it, -1
    std::vector<int32_t> sliding_next_;
    std::vector<double> coefficient_;     // sliding row: x_s = coefficient * x_normal
    std::vector<double> lower_;           // bounds frozen at x
    std::vector<double> upper_;

    // K (free x free, local indices) in CSC, its transpose, and the
    // symmetric pattern without diagonal for the ordering and the factor.
    std::vector<int32_t> k_start_, k_rows_;
    std::vector<double> k_values_;
    std::vector<int32_t> kt_start_, kt_rows_;
    std::vector<double> kt_values_;
    std::vector<int32_t> pattern_start_, pattern_rows_;
    std::vector<double> accumulator_;
    std::vector<int32_t> marker_;
    std::vector<int32_t> order_;          // elimination order (local indices)

    // The last minimum-degree order, by row, reused while the free set
    // changes little (rows that joined are eliminated last).
    bool ordering_valid_ = false;
    int32_t ordered_count_ = 0;
    int64_t ordered_factor_entries_ = 0;  // entries of L with that order when it was computed
    std::vector<int32_t> ordered_rows_;   // position -> row
    std::vector<int32_t> ordered_position_;  // row -> position, -1 if not in that order
    std::vector<int32_t> slot_;           // position -> local index (scratch)

    std::vector<double> direction_;    // d (rows), zero outside the moving rows
    std::vector<double> a_direction_;  // A d
    std::vector<double> trial_x_, trial_w_;
    std::vector<double> local_work_;   // rhs / solution in local indices
    std::vector<int32_t> moving_;      // rows with d != 0 (free, then sliding)

    sparse::MinimumDegreeOrdering ordering_;
    sparse::SparseLdu factor_;
};

}  // namespace pivot::pgs
