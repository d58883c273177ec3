#pragma once
// The point from which pivot.solver.lemke guesses a crash basis: projected
// Gauss-Seidel sweeps (Cottle, Pang & Stone, "The Linear Complementarity
// Problem", 1992, section 5.2) on the boxed problem, friction bounds from the
// current normal impulses, on a sparse copy of A.
//
// Why sparse: the contact matrices J M^-1 J' couple a row only with the rows
// of contacts on the same bodies (lcp-bench nc333_fric: 39 nonzeros per
// column of 999), and a sweep updates w = A x + b by one column per row that
// moves. On the dense A a sweep reads all n^2 numbers (measured: half of the
// whole solve of nc333_fric in the 1100 sweeps of the guess); on the columns'
// nonzeros it reads nnz(A) of them.
//
// Why single precision: the sweeps only guess which bounds are active (the
// solution comes from the basis, in double); half the memory traffic.
//
// Semantics: exactly those of the sweeps on the dense A in single precision,
// w updated column by column (the zeros that are skipped add 0 to w), so the
// guess, and the solve, are the same bits as the dense sweeps' for finite
// values. Deterministic: a fixed order of rows and of each column's entries.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <pivot/plugin_solver.h>

#include "scratch_buffer.hpp"

namespace pivot::lemke {

class CrashGuess {
public:
    // Storage for problems of up to n rows (up to n^2 nonzeros: the storage
    // is committed only as far as a problem's nonzeros reach). Allocates;
    // nothing else does.
    void reserve(uint32_t n);
    uint32_t capacity() const { return capacity_; }

    // Copies A's nonzeros (dense A, p.n <= capacity()) in single precision
    // and sets x to the start: `start` clamped into the bounds (friction rows
    // into lo_i |x_j|, hi_i |x_j| of the clamped x_j), or x = 0 when start is
    // null (the first sweep projects it), and w = A x + b. False when no sweep can be
    // made: a diagonal A_ii that is not positive and finite in single
    // precision (Gauss-Seidel divides by it), or a non-finite b. A start with
    // a non-finite entry is replaced by 0 there.
    bool start(const pivot_lcp_problem& p, const double* start);

    // One sweep over the rows in order. Returns the number of rows whose
    // place (at the lower bound, at the upper bound, between) differs from
    // the sweep before (all rows for the first sweep after start()).
    uint32_t sweep(const pivot_lcp_problem& p);

    // x in double (p.n values); false when x or w is not finite (the sweeps
    // diverged, or overflowed single precision).
    bool point(const pivot_lcp_problem& p, double* x) const;

    // Nonzeros of the copy of A (for tests and messages).
    size_t nonzeros() const { return nonzeros_; }

private:
    void bounds(const pivot_lcp_problem& p, uint32_t i, float* lower, float* upper) const;

    uint32_t capacity_ = 0;
    size_t nonzeros_ = 0;
    std::vector<size_t> column_start_;  // n + 1
    ScratchArray<float> values_;        // n^2 capacity, the first nonzeros_ used
    ScratchArray<uint32_t> rows_;       // n^2 capacity
    std::vector<float> diagonal_;       // n
    std::vector<float> x_;              // n
    std::vector<float> w_;              // n: A x + b
    std::vector<uint8_t> place_;        // n: 0 lower, 1 upper, 2 between, 3 unknown
};

}  // namespace pivot::lemke
