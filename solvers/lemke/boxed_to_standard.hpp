#pragma once
// The boxed problem of plugin_solver.h as a standard LCP for Lemke's method.
//
// Boxed problem: find x, w = A x + b with, for every row i and bounds
// l_i <= u_i (either may be infinite),
//     x_i = l_i and w_i >= 0,  or  x_i = u_i and w_i <= 0,  or  l_i < x_i < u_i and w_i = 0.
// Standard LCP: find y >= 0 with v = M y + q >= 0, y'v = 0.
//
// Row by row (the derivation, with each case checked against the three
// alternatives above):
//  - fixed, l_i = u_i: x_i = l_i is known and w_i is free (any sign satisfies
//    one of the first two alternatives). The row and column leave the
//    problem; A(:, i) l_i moves into b.
//  - lower bound only, [l, inf): x_i = l_i + s_i with s_i >= 0, and the
//    conditions read s_i >= 0, w_i >= 0, s_i w_i = 0: one LCP variable,
//    y = s_i, complementary to v = w_i.
//  - upper bound only, (-inf, u]: x_i = u_i - s_i, s_i >= 0, and the conditions
//    read s_i >= 0, -w_i >= 0, s_i (-w_i) = 0: y = s_i with v = -w_i.
//  - both finite, l < u: x_i = l_i + s_i, and the multiplier t_i >= 0 of the
//    upper bound splits w_i = (w_i + t_i) - t_i (the box-constrained
//    variational inequality written as an LCP; Cottle, Pang & Stone, "The
//    Linear Complementarity Problem", 1992, chapter 1):
//        s_i >= 0  complementary to  w_i + t_i >= 0,
//        t_i >= 0  complementary to  u_i - l_i - s_i >= 0.
//    At s_i = 0 (x = l): u - l > 0 forces t_i = 0, so w_i >= 0. At s_i = u - l
//    (x = u): s_i > 0 forces w_i + t_i = 0, so w_i = -t_i <= 0. In between:
//    t_i = 0 and w_i = 0. Two LCP variables, y = s_i and y = t_i.
//  - free, (-inf, inf): the row is an equality w_i = 0. The free rows F are
//    eliminated first (a mixed LCP reduced by the Schur complement of its
//    equality block; Cottle, Pang & Stone, chapter 1): with N the other rows,
//        w_F = A_FF x_F + A_FN x_N + b_F = 0  =>  x_F = -A_FF^-1 (A_FN x_N + b_F),
//        w_N = S x_N + b_N - A_NF A_FF^-1 b_F,   S = A_NN - A_NF A_FF^-1 A_FN,
//    which is well posed exactly when A_FF is nonsingular (for A positive
//    definite it is, and S is positive definite again). When A_FF is
//    singular to working precision (a singular pivot in its LU), as with
//    redundant bilateral joints, a rank-revealing elimination (Gaussian
//    elimination with symmetric diagonal pivoting: the largest remaining
//    Schur diagonal first) finds independent free rows R; a row whose Schur
//    pivot falls below kFreeRowDependent times its A_ii (the Dantzig
//    solver's singular_pivot_ratio) is dependent: its x_i is set to 0 and
//    its equation w_i = 0 is not imposed but holds when b is consistent;
//    after the solve its |w_i| is part of the residual, and an inconsistent
//    one is reported (infeasible), never hidden. F is then replaced by R
//    above. Only when that does not leave a well-conditioned A_RR with a
//    negligible Schur block on the dependent rows (possible for
//    non-symmetric or indefinite A_FF) is each free row doubled instead:
//    x_i = p_i - m_i, p_i complementary to w_i >= 0, m_i to -w_i >= 0, which
//    forces w_i = 0 (feasible only for b exactly in A's range).
//
// With all this, x_N = c + P y for a vector c (l_i, u_i or 0) and a matrix P
// with one entry +-1 per primary variable (s_i, p_i: +1; upper-only s_i and
// m_i: -1), and
//     M = [ P' S P   E ]      q = [ P' (S c + b_N') ]
//         [ -E'      0 ]          [ u_B - l_B     ]
// with E selecting the s_i of the rows B with both bounds finite (the column
// of t_i) and b_N' the right-hand side after the eliminations. If S is
// positive semidefinite, so is M (the E blocks are skew), hence M is
// copositive-plus and Lemke's method processes it.
//
// Mapping back: x_i = l_i (fixed rows), x_N = c + P y, then x_F as above;
// finally x is clamped into [l, u], which moves it by rounding only (s_i and
// t_i are nonnegative and u_i - l_i - s_i >= 0 up to rounding).
//
// When every row is [l, inf) (the standard LCP is the case l = 0), M is A
// itself and nothing is copied.
#include <cstdint>
#include <vector>

#include <pivot/plugin_solver.h>

#include "basis_factorization.hpp"
#include "scratch_buffer.hpp"

namespace pivot::lemke {

class BoxedToStandard {
public:
    // Storage for problems of up to n rows. Allocates; nothing else does.
    void reserve(Index n);
    Index capacity() const { return capacity_; }

    // Builds the standard LCP of p (dense A, no friction index, p.n <=
    // capacity()). The problem must stay alive and unchanged until map_back.
    void build(const pivot_lcp_problem& p);

    MatrixView matrix() const { return m_; }
    const double* q() const { return q_.data(); }
    Index size() const { return m_.size; }
    // Free rows eliminated by the Schur complement / doubled, last build.
    Index eliminated_free_rows() const { return eliminated_free_; }
    Index doubled_free_rows() const { return doubled_free_; }
    // Free rows found dependent (x_i = 0, w_i = 0 not imposed), last build.
    Index dropped_free_rows() const { return dropped_free_; }
    // The largest |w_i| over the dropped free rows and its row (w = A x + b
    // of the original problem); 0 and -1 when none were dropped.
    double dropped_row_violation(const double* w, Index* row) const;

    // x (p.n doubles) from a point y (size() doubles) of the standard LCP.
    void map_back(const double* y, double* x);

private:
    enum class RowKind : uint8_t { fixed, lower, upper, box, free_row, dropped_free_row };
    // Rank-revealing elimination of A_FF (f free rows in free_rows_): keeps
    // the independent rows in free_rows_ (in their original order), marks
    // the others dropped_free_row and returns the number kept; returns f
    // (changing nothing) when A_FF has full rank, 0 when no reliable split
    // exists (then free_rows_ is unchanged too).
    Index drop_dependent_free_rows(Index f);
    // Schur complement of the f free rows against the `kept` rows N: S into
    // M's storage (leading dimension ld), G, h and b_N'. False when A_FF is
    // singular to working precision.
    bool eliminate_free_rows(Index f, Index kept, Index ld);

    const pivot_lcp_problem* p_ = nullptr;
    Index capacity_ = 0;
    MatrixView m_;
    Index eliminated_free_ = 0;
    Index doubled_free_ = 0;
    Index dropped_free_ = 0;

    std::vector<RowKind> kind_;        // n
    std::vector<Index> kept_rows_;     // N: the original row at each position (n)
    std::vector<Index> free_rows_;     // F (n)
    std::vector<double> rhs_;          // b + A(:, fixed) l_fixed (n)
    std::vector<double> kept_rhs_;     // b_N' by position (n)
    std::vector<double> offset_;       // c by position (n)
    std::vector<double> shifted_rhs_;  // S c + b_N' by position (n)
    std::vector<double> x_kept_;       // x_N by position (n)
    std::vector<double> x_free_;       // x_F (n)
    // Schur complement elimination of the free rows: LU of A_FF, then
    // G = A_FF^-1 A_FN (|F| x |N|) and A_NF (|N| x |F|), one after the
    // other (|F|^2 + 2 |F| |N| <= n^2 numbers).
    ScratchBuffer free_storage_;
    std::vector<int> free_swaps_;      // n
    std::vector<double> free_shift_;   // h = A_FF^-1 b_F' (n)

    // The standard LCP: variable k is primary (x at position var_position_,
    // sign +-1) or the upper multiplier t of a boxed row (sign 0).
    std::vector<Index> var_position_;  // 2n
    std::vector<int8_t> var_sign_;     // 2n
    std::vector<Index> primary_of_position_;  // n: the +1 (or only) primary
    ScratchBuffer m_storage_;          // (2n)^2, S first when eliminated
    std::vector<double> q_;            // 2n
};

}  // namespace pivot::lemke
