#pragma once
// The basis of Lemke's method and its factorization.
//
// Lemke's method works on the n x (2n + 1) system  I w - M z - e z0 = q
// (Cottle, Pang & Stone, "The Linear Complementarity Problem", 1992, section
// 4.4). A basis B picks n of its columns: unit vectors e_i (w_i basic),
// columns -M_j (z_j basic) and -e (z0 basic). Every pivot replaces one
// column, and each pivot needs  d = B^-1 a  for the entering column a.
//
// Structure used: with W the rows whose w is basic and R the others, B y = v
// splits into the reduced system on the rows R and the non-unit columns
//     C u = v_R,   C = [M(R, Z)  c_R],   y_Z = -u_Z,  y_z0 = -u_z0,
// (Z: the basic z, |R| = |Z| + [z0 basic], c the covering vector: e, or B 1
// of a crash basis) and the unit rows
//     y_W = v_W - M(W, Z) u_Z - c_W u_z0.
// So only C, of order k = |Z| + 1, is factorized (dense LU, partial
// pivoting): O(k^3) per factorization and O(k^2 + |W| k) per solve instead of
// O(n^3) and O(n^2). On contact problems k, the number of contacts that push,
// is much smaller than n for most of the path. C's column singletons (the
// multipliers of boxed and friction rows) are eliminated first (block
// triangular form), then C11's row doubletons (the multipliers' rows of
// sliding contacts) by a Schur complement on a diagonal block
// (basis_factorization.cpp): only what remains goes through the LU.
//
// Between factorizations each pivot appends an eta vector (product form of
// the inverse, Dantzig & Orchard-Hays 1954; Chvatal, "Linear Programming",
// 1983, chapter 24): B_t = B_0 E_1 ... E_t where E_s is the identity with
// column p_s replaced by d_s, so B_t^-1 v = E_t^-1 ... E_1^-1 B_0^-1 v at O(n)
// per eta. The basis is refactorized after `refactor_interval` etas, and at
// once when an eta pivot is small relative to its column (its inverse would
// amplify rounding errors), so the cost per pivot is O(k^2 + n k + n K).
//
// Variables are numbered w_i = i, z_j = n + j, z0 = 2n. Positions in the basis
// ("slots") keep their identity across pivots; slot i starts with w_i.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "dense_lu.hpp"
#include "scratch_buffer.hpp"

namespace pivot::lemke {

// A square matrix by columns of nonzeros (compressed sparse columns) that
// someone else owns: column j's rows and values at [start[j], start[j + 1]).
// The contact problems' M is sparse (a row couples the contacts of the same
// bodies), so the blocks of it that the factorization reads (C, M(W, Z)) are
// gathered and multiplied by nonzeros.
struct MatrixView {
    Index size = 0;
    const Index* start = nullptr;   // size + 1
    const Index* rows = nullptr;
    const double* values = nullptr;
};

class BasisFactorization {
public:
    enum class Update { eta_appended, refactorized, singular };

    // Storage for LCPs of up to `capacity` rows with up to `nonzeros` in M,
    // and `max_etas` etas between factorizations. Allocates; nothing else
    // does.
    void reserve(Index capacity, Index max_etas, size_t nonzeros);
    Index capacity() const { return capacity_; }

    // B = I (all w basic) for the LCP of matrix m; m.size <= capacity().
    // The column of z0 is -e (covering vector e).
    void reset(MatrixView m);

    // A crash start (Dirkse & Ferris, "The PATH solver", Optimization
    // Methods and Software 5, 1995, section 2.2): the complementary basis with
    // z_j basic in slot j for every j with basic_z[j] != 0 (w_i elsewhere),
    // factorized, and the covering vector c = B 1, so that z0's column -c
    // gives B^-1 (-c) = -1 as the unit basis gives -e. False when that basis
    // is singular to working precision (then reset() again before any use).
    bool crash(MatrixView m, const uint8_t* basic_z);
    // The covering vector (n doubles): e after reset(), B 1 after crash().
    const double* covering() const { return covering_.data(); }

    Index size() const { return n_; }
    Index var_in_slot(Index slot) const { return slot_var_[slot]; }
    // The slot of a basic variable, -1 when it is not basic.
    Index slot_of(Index var) const { return var_slot_[var]; }
    Index z0_var() const { return 2 * n_; }
    Index eta_count() const { return eta_count_; }

    // y = B^-1 v; y and v: size() doubles, may not overlap.
    void solve(const double* v, double* y);
    // y = B^-1 e_row (a column of B^-1, for lexicographic comparisons).
    void solve_unit(Index row, double* y);
    // d = B^-1 a_var, a_var the column of variable var in [I, -M, -e].
    void solve_column(Index var, double* d);

    // Puts `entering` in `slot`, whose previous variable leaves; d is
    // B^-1 a_entering (from solve_column, before this call). Appends an eta
    // or refactorizes (the interval is reached, or |d[slot]| is small
    // relative to max |d|). `singular`: the refactorized basis is singular
    // to working precision; the basis must not be used any more.
    Update replace(Index slot, Index entering, const double* d);

    // Factorizes the current basis from scratch (drops the etas). False when
    // it is singular to working precision.
    bool refactorize();

    // v - B y for the current basis (the residual of B y = v), into r.
    void residual(const double* v, const double* y, double* r) const;

private:
    void base_solve(const double* v, double* y);
    // C's column t (a basic z's column of M, or the covering vector for z0)
    // by its nonzeros in the rows R: f(r, value), r the row's position in R.
    template <typename F>
    void for_each_c_entry(Index t, const F& f) const {
        if (t < z_count_) {
            const Index j = z_columns_[t];
            for (Index e = m_.start[j]; e < m_.start[j + 1]; ++e) {
                const Index r = reduced_position_[m_.rows[e]];
                if (r >= 0 && m_.values[e] != 0.0) f(r, m_.values[e]);
            }
        } else {
            for (Index r = 0; r < k_; ++r) {
                const double value = covering_[reduced_rows_[r]];
                if (value != 0.0) f(r, value);
            }
        }
    }
    // Second stage of refactorize(): C11 (k1_ x k1_, read from M) without
    // its row doubletons, factorized into `storage`. False when singular.
    bool eliminate_row_doubletons(double* storage);
    void apply_etas(double* y, Index first_eta) const;

    MatrixView m_;
    Index n_ = 0;
    Index capacity_ = 0;
    Index max_etas_ = 0;

    std::vector<Index> slot_var_;  // capacity
    std::vector<Index> var_slot_;  // 2 capacity + 1

    // The factorization of the basis as it was at the last refactorization.
    Index k_ = 0;                          // order of C
    Index z_count_ = 0;                    // basic z among C's columns (first)
    Index z0_slot_ = -1;                   // slot of z0 when it was basic, else -1
    std::vector<Index> reduced_rows_;      // R (k_ entries)
    std::vector<Index> z_columns_;         // M column of each basic z (z_count_)
    std::vector<Index> z_slots_;           // their slots
    std::vector<Index> unit_rows_;         // W (n - k_ entries)
    std::vector<Index> unit_slots_;        // slot of w_i for each i in W
    Index k1_ = 0;                         // order of C11 (C without its column singletons)
    Index singles_ = 0;                    // column singletons of C
    std::vector<Index> kept_columns_;      // C's columns in C11 (k1_)
    std::vector<Index> kept_rows_;         // positions in R of C11's rows (k1_)
    std::vector<Index> single_columns_;    // the singleton columns (singles_)
    std::vector<Index> single_rows_;       // the position in R of each one's nonzero
    std::vector<double> single_pivots_;    // that nonzero (D)
    std::vector<double> single_work_;      // capacity
    std::vector<double> first_work_;       // capacity
    std::vector<double> c11_solution_;     // capacity
    Index pivot_count_ = 0;                // row doubletons of C11 eliminated
    std::vector<Index> pivot_rows_;        // their rows in C11 (increasing)
    std::vector<Index> pivot_columns_;     // their pivot columns in C11
    std::vector<Index> rest_rows_;         // C11's other rows (k2 = k1_ - pivot_count_)
    std::vector<Index> rest_columns_;      // C11's other columns
    std::vector<double> doubleton_pivots_; // D
    std::vector<double> pivot_work_;       // capacity
    std::vector<double> pivot_result_;     // capacity
    std::vector<Index> kept_candidates_;   // 2 capacity: the doubletons chosen (row, pivot column)
    // The Schur complement's LU (k2^2), F (k2 x doubletons), E (doubletons x
    // k2).
    ScratchBuffer factor_storage_;
    // C21 (by C11 column: the singletons' index, value) and M(W, Z) (by
    // basic z: the unit row's position, value), one after the other.
    std::vector<Index> c21_start_;         // capacity + 1
    std::vector<Index> m_wz_start_;        // capacity + 1
    ScratchArray<Index> block_rows_;       // nonzeros of M + capacity
    ScratchBuffer block_values_;
    std::vector<Index> reduced_position_;  // by row: its position in R, -1 for W (rows of R and W set)
    std::vector<Index> unit_position_;     // by row: its position in W, -1 for R
    std::vector<Index> c11_row_;           // by position in R: its row in C11, -1 for a singleton's
    std::vector<double> row_first_value_;  // C11's rows: their first two nonzeros (doubletons)
    std::vector<double> row_second_value_;
    std::vector<int> row_swaps_;           // capacity
    std::vector<double> reduced_work_;     // capacity
    std::vector<double> unit_work_;        // capacity
    std::vector<double> column_work_;      // capacity
    std::vector<double> covering_;         // capacity: z0's column is -covering_

    // Etas since the last factorization: slot and column (capacity doubles each).
    Index eta_count_ = 0;
    std::vector<Index> eta_slots_;         // max_etas
    ScratchBuffer eta_columns_;            // capacity x max_etas
};

}  // namespace pivot::lemke
