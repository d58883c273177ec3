#pragma once
// Lemke's complementary pivoting method for the standard LCP
//     w = M z + q,  z >= 0,  w >= 0,  z'w = 0,
// with M not necessarily symmetric, kept by its nonzeros (C. E. Lemke,
// "Bimatrix equilibrium points and mathematical programming", Management
// Science 11, 1965; Cottle, Pang & Stone, "The Linear Complementarity
// Problem", 1992, section 4.4).
//
// Covering vector: e = (1, ..., 1) from the basis B = I (the cold start).
// The artificial variable z0 augments the system to w = M z + q + e z0;
// z0 = max(-q_i) makes (z, z0) = (0, z0) feasible, and the method pivots
// along almost-complementary bases until z0 leaves the basis (a solution)
// or the entering column has no blocking variable (a secondary ray:
// termination without a solution). For M copositive-plus (for instance
// positive semidefinite, as the contact problems J M^-1 J' + eps I are) ray
// termination proves that the LCP has no solution (Cottle, Pang & Stone,
// section 4.4); for a P-matrix the method always finds the unique solution.
// From a guessed complementary basis B (a crash start, as the PATH solver
// makes: Dirkse & Ferris 1995) the covering vector is B 1, so that z0's
// column is -1 in the basis's coordinates and the basis is feasible once z0
// enters; that vector is not positive, so the ray guarantee above does not
// hold for it and the caller falls back to the cold start.
//
// Degeneracy: the ratio test is lexicographic (Cottle, Pang & Stone, chapter
// 4, degeneracy resolution): among the rows tying for the minimum ratio
// x_B,i / d_i, the leaving row is the lexicographic minimum of the rows of
// [B^-1 q, B^-1] divided by d_i, which is unique because B^-1 is
// nonsingular, so no basis repeats and the method cannot cycle. z0 leaves as
// soon as it is among the minimizers. The columns of B^-1 are computed one at
// a time, only while several rows are still tied, so a non-degenerate pivot
// costs nothing extra. In floating point, "tied" and "equal" are decided with
// tolerances relative to the scale of x_B and of each column of B^-1 (see
// lemke_pivoting.cpp), so that exact ties computed with rounding noise stay
// ties and the path is the one exact arithmetic would take.
//
// Pivot count: the initial pivot (z0 enters) and every later one, the last
// being the one where z0 leaves; 0 when q >= 0 (z = 0 solves the LCP).
//
// The basis is kept factorized (basis_factorization.hpp), never inverted.
#include <cstdint>
#include <vector>

#include "basis_factorization.hpp"

namespace pivot::lemke {

struct LemkeSettings {
    uint64_t max_pivots = 0;
    double pivot_tolerance = 0.0;      // d_i > pivot_tolerance * max |d| can block
    double time_budget_seconds = 0.0;  // 0: none
    double (*elapsed_seconds)(const void* clock) = nullptr;
    const void* clock = nullptr;
};

enum class LemkeOutcome {
    solved,           // z0 left the basis: a complementary basis
    ray_termination,  // no blocking variable for the entering column
    max_pivots,       // the pivot cap was reached
    time_budget,      // the time budget ran out
    singular_basis    // the basis became singular to working precision
};

struct LemkeResult {
    LemkeOutcome outcome = LemkeOutcome::solved;
    uint64_t pivots = 0;
    Index entering = -1;  // the variable that found no blocking row (ray)
};

class LemkePivoting {
public:
    // Storage for LCPs of up to `capacity` rows. Allocates; nothing else does.
    // `nonzeros`: of the LCPs' M (MatrixView) at most.
    void reserve(Index capacity, Index refactor_interval, size_t nonzeros);
    Index capacity() const { return basis_.capacity(); }

    // Runs the method on w = M z + q (m.size rows, q: m.size doubles, both
    // kept by reference until the next run). With `crash` (m.size flags), it
    // starts from the complementary basis with z_j basic where crash[j] != 0
    // and the covering vector B 1 (BasisFactorization::crash) instead of
    // B = I and e; `singular_basis` with 0 pivots when that basis is singular.
    LemkeResult run(MatrixView m, const double* q, const LemkeSettings& settings, const uint8_t* crash = nullptr);

    // z at the current basis: the basic z values (clamped at 0: the basic
    // variables are nonnegative up to rounding), zero for the nonbasic.
    // After `solved` a solution; else the almost-complementary point with z0
    // dropped.
    void current_z(double* z) const;

    // Recomputes the basic values x_B = B^-1 q. With `refine`, the basis is
    // first factorized afresh and one step of iterative refinement follows
    // (x_B += B^-1 (q - B x_B)). False when the basis is singular.
    bool recompute_basic_values(bool refine);

    // Name of variable `var` ("w3", "z7", "z0") for messages.
    static void variable_name(Index var, Index n, char* out, size_t capacity);

private:
    Index lexicographic_choice(Index tie_count);

    BasisFactorization basis_;
    MatrixView m_;
    const double* q_ = nullptr;
    Index n_ = 0;
    std::vector<double> x_;         // basic values by slot
    std::vector<double> d_;         // B^-1 a of the entering column
    std::vector<double> inverse_column_;  // a column of B^-1 (lexicographic test)
    std::vector<double> work_;      // residual for refinement
    std::vector<Index> ties_;       // slots tied in the ratio test
};

}  // namespace pivot::lemke
