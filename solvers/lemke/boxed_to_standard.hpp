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
//  - friction index, findex_i = j: bounds lo_i |x_j| <= x_i <= hi_i |x_j|
//    (lo_i <= 0 <= hi_i), linear in the normal impulse x_j when x_j >= 0,
//    i.e. when row j is [l_j, inf) with l_j >= 0 (a contact's normal row).
//    The polyhedral formulation of Stewart & Trinkle (1996) and Anitescu &
//    Potra (1997, their LCP (15); seed000 2.12 Eqs. 6.58-6.63) with the two
//    directions +e_i, -e_i: x_i = b+_i - b-_i, b+-_i >= 0, and per bound a
//    multiplier (the sliding speed):
//        b+_i >= 0  complementary to   w_i + g+_i >= 0,
//        b-_i >= 0  complementary to  -w_i + g-_i >= 0,
//        g+_i >= 0  complementary to   hi_i x_j - b+_i >= 0,
//        g-_i >= 0  complementary to  -lo_i x_j - b-_i >= 0.
//    Checked against the three alternatives: g+ > 0 puts x_i at hi_i x_j
//    (b- > 0 as well would need w_i = g- >= 0 and w_i = -g+ < 0) with
//    w_i = -g+ < 0; likewise at the lower bound; with g+ = g- = 0, w_i = 0
//    and x_i anywhere in between. A symmetric row (lo_i = -hi_i, the
//    first-party models' box friction) needs one multiplier g_i for both
//    (complementary to hi_i x_j - b+_i - b-_i >= 0; -g <= w_i <= g): three
//    LCP variables instead of four. A friction row whose row j is fixed
//    (l_j = u_j) has constant bounds lo_i |l_j|, hi_i |l_j| and is a boxed
//    or fixed row as above; any other row j (x_j of either sign) is not
//    supported (unsupported_row()).
//
// With all this, x_N = c + P y for a vector c (l_i, u_i or 0) and a matrix P
// with one entry +-1 per primary variable (s_i, p_i, b+_i: +1; upper-only
// s_i, m_i, b-_i: -1), and
//     M = [ P' S P   E   F ]      q = [ P' (S c + b_N') ]
//         [ -E'      0   0 ]          [ u_B - l_B       ]
//         [ -G' + K  0   0 ]          [ K c             ]
// with E selecting the s_i of the rows B with both bounds finite (the column
// of t_i), F and G the friction rows' b+-_i for their multipliers g, K the
// coefficients hi_i or -lo_i at the column of x_j's primary, and b_N' the
// right-hand side after the eliminations. For y >= 0,
//     y' M y = (P y)' S (P y) + sum over the multipliers g of K x_j g >= 0
// (the E, F and G blocks are skew), so M is copositive when S is positive
// semidefinite; with no friction rows it is positive semidefinite, hence
// copositive-plus, and Lemke's method processes it. With friction rows M
// is copositive but not copositive-plus; Anitescu & Potra (1997; seed000
// 2.12) show that this LCP always has a solution and that Lemke's method
// finds one. The reason, in the terms of Cottle, Pang & Stone (section
// 4.4): ray termination needs a direction d >= 0 with M d >= 0 and
// d' M d = 0, i.e. P d in S's null space and K x_j g = 0; for contacts,
// whose normal impulses cannot cancel, that leaves only multipliers g,
// along which q' d = 0, so the method cannot end on a secondary ray.
//
// Mapping back: x_i = l_i (fixed rows), x_N = c + P y, then x_F as above;
// finally x is clamped into its bounds (friction rows into lo_i |x_j|,
// hi_i |x_j| of the x_j found), which moves it by rounding only.
//
// When every row is [l, inf) (the standard LCP is the case l = 0), M is A
// itself (its nonzeros). M is kept by columns of nonzeros (MatrixView).
#include <cstdint>
#include <vector>

#include <pivot/plugin_solver.h>

#include "basis_factorization.hpp"
#include "scratch_buffer.hpp"

namespace pivot::lemke {

class BoxedToStandard {
public:
    // Storage for problems of up to n rows whose standard LCP has up to
    // `variables` variables (>= n). Allocates; nothing else does.
    void reserve(Index n, Index variables);
    Index capacity() const { return capacity_; }
    Index variable_capacity() const { return variable_capacity_; }
    // The most nonzeros M can have within the capacities.
    size_t nonzero_capacity() const { return m_rows_.size(); }

    // An upper bound on the number of variables of p's standard LCP: 1 per
    // one-sided row, 2 per boxed or free row (a free row may be doubled), 3
    // or 4 per friction row. O(n), allocates nothing.
    static Index variable_count(const pivot_lcp_problem& p);

    // Builds the standard LCP of p (dense A, p.n <= capacity(), and at most
    // variable_capacity() variables: see variable_count). The problem must
    // stay alive and unchanged until map_back. False when a friction row's
    // row j is not one this transformation supports (unsupported_row()).
    bool build(const pivot_lcp_problem& p);
    // The friction row whose findex row is neither [l, inf) with l >= 0 nor
    // fixed, after a build that returned false; -1 otherwise.
    Index unsupported_row() const { return unsupported_row_; }

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

    // A complementary basis guessed from a point x of the boxed problem (p.n
    // doubles, e.g. a few projected Gauss-Seidel sweeps), for a crash start:
    // y (size() doubles) gives each primary its part of x - c (b+ =
    // max(x_i, 0), b- = max(-x_i, 0)) and each multiplier the violation it
    // absorbs (t_i = max(0, -v_i) with v = M y + q at the multipliers' 0: the
    // w_i < 0 that the upper bound holds); z_j is basic (basic_z[j] = 1)
    // where y_j > v_j, v = M y + q. A basic multiplier needs a basic primary
    // among those it bounds (else its column vanishes on the basis's
    // non-unit rows and the basis is singular): a separated contact's
    // friction rows (x_j = 0, g = |w_i|) keep the primary whose row g holds
    // at 0 (a degenerate basic b+ or b-). `v`: size() doubles of scratch.
    void guess_basis(const double* x, double* y, double* v, uint8_t* basic_z) const;

private:
    enum class RowKind : uint8_t { fixed, lower, upper, box, free_row, dropped_free_row, friction };
    // What a variable of the standard LCP is: a primary (x at its position
    // with var_sign_ +-1; s_i, p_i, m_i, b+-_i), the multiplier t_i of a
    // boxed row, or a friction multiplier g (of b+, of b-, or of both).
    enum class VarKind : uint8_t { primary, box_multiplier, friction_plus, friction_minus, friction_both };
    // Row kinds from the bounds and the friction index; false when a friction
    // row's row j is unsupported. Fills lower_ and upper_.
    bool classify_rows();
    // M's entry (row, col) between two variables, S read through `s_at`.
    template <typename SAt>
    double entry(Index row, Index col, const SAt& s_at) const;
    // Rank-revealing elimination of A_FF (f free rows in free_rows_): keeps
    // the independent rows in free_rows_ (in their original order), marks
    // the others dropped_free_row and returns the number kept; returns f
    // (changing nothing) when A_FF has full rank, 0 when no reliable split
    // exists (then free_rows_ is unchanged too).
    Index drop_dependent_free_rows(Index f);
    // Schur complement of the f free rows against the `kept` rows N: S into
    // m_storage_ (leading dimension ld), G, h and b_N'. False when A_FF is
    // singular to working precision.
    bool eliminate_free_rows(Index f, Index kept, Index ld);
    // M's nonzeros by columns (m_), from S (the dense S in m_storage_ when
    // `eliminated`, else A(N, N)) and the variables' kinds and positions.
    void build_sparse_matrix(Index size, Index kept, bool eliminated);

    const pivot_lcp_problem* p_ = nullptr;
    Index capacity_ = 0;
    Index variable_capacity_ = 0;
    Index unsupported_row_ = -1;
    MatrixView m_;
    Index eliminated_free_ = 0;
    Index doubled_free_ = 0;
    Index dropped_free_ = 0;

    std::vector<RowKind> kind_;        // n
    std::vector<double> lower_;        // n: the bounds of fixed, boxed and one-sided rows;
    std::vector<double> upper_;        //    lo_i, hi_i (the multipliers) of friction rows
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

    // The standard LCP's variables (variable capacity each): kind, position
    // (the kept row it belongs to) and sign (+-1 for primaries, 0 else).
    std::vector<VarKind> var_kind_;
    std::vector<Index> var_position_;
    std::vector<int8_t> var_sign_;
    std::vector<Index> primary_of_position_;  // n: the +1 (or only) primary
    std::vector<Index> minus_of_position_;    // n: b-_i of a friction row, else -1
    std::vector<Index> position_of_row_;      // n: a kept row's position, else -1
    // M is stored by its nonzeros (the contact problems' A is sparse: lcp-bench
    // nc333_fric's M of order 2331 has ~3% nonzeros, and a dense M was 43 MB
    // that a first solve had the kernel zero page by page).
    ScratchBuffer m_storage_;                 // n x variables: the dense S of eliminated free rows
    std::vector<Index> s_start_;              // n + 1: S's nonzeros by position (column)
    ScratchArray<Index> s_rows_;              // n^2 capacity
    ScratchBuffer s_values_;                  // n^2 capacity
    std::vector<Index> m_start_;              // variables + 1
    ScratchArray<Index> m_rows_;              // 4 n^2 + 8 variables capacity
    ScratchBuffer m_values_;
    std::vector<Index> position_var_start_;   // n + 1: the variables of each position
    std::vector<Index> position_vars_;        // variables
    std::vector<Index> normal_multiplier_start_;  // variables + 1: friction multipliers by normal primary
    std::vector<Index> normal_multipliers_;       // variables
    std::vector<double> q_;            // variables
};

}  // namespace pivot::lemke
