#pragma once
// The generated problems of the conformance kit. Every generator is
// deterministic (pivot/conformance/random.hpp) and sets matrix_properties to
// exactly what it knows to hold (the host's hints: PIVOT_MATRIX_*).
// Problems with a known solution say so (`*_solution`), so that the kit's
// own tests check the generators against it.
#include <cstdint>
#include <vector>

#include <pivot/lcp_data.hpp>

namespace pivot::conformance {

// ---------------------------------------------------------------- P-matrices
// Standard LCP with A = G G^T / n + 0.1 I (G uniform in [-1, 1]): symmetric
// positive definite, hence a P-matrix (every principal submatrix is again
// positive definite), so the solution exists and is unique for every b
// (Cottle, Pang & Stone 1992, "The Linear Complementarity Problem",
// Thm 3.3.7). b uniform in [-1, 1].
sdk::LcpData random_spd_lcp(uint32_t n, uint64_t seed);

// Standard LCP with a non-symmetric, strictly row diagonally dominant A with
// positive diagonal: off-diagonal uniform in [-1, 1], A_ii = sum_j |A_ij| +
// uniform [0.5, 1.5]. Such a matrix is a P-matrix: every principal
// submatrix is again strictly diagonally dominant with positive diagonal, so
// by Gershgorin its real eigenvalues are positive and its determinant is
// positive. Projected Gauss-Seidel converges on it (an H-matrix with
// positive diagonal: Ahn 1981, "Solution of nonsymmetric linear
// complementarity problems by iterative methods", JOTA 33). b uniform in
// [-1, 1].
sdk::LcpData random_diagonally_dominant_lcp(uint32_t n, uint64_t seed);

// ---------------------------------------------------------------- contacts
// A random rigid-body scene turned into a per-step problem the way an engine
// builds it (docs/engine.md "The per-island problem"): bodies with random
// mass, inertia, pose and twist; point contacts between a body and the world or two bodies;
// A = J M^-1 J^T (+ eps I), b = J v (+ a small penetration bias on normals).
struct ContactScene {
    uint32_t contacts = 10;
    // Rigid bodies (6 degrees of freedom each); 0: contacts / 4 + 2.
    uint32_t bodies = 0;
    // A push-out velocity in [0, 0.05) on each normal row (b = J v - bias),
    // as for a resolved penetration. Without it (b = J v) a standard LCP of
    // normal rows is always feasible, hence solvable (A is PSD): a y >= 0
    // with A y = 0 has J' y = 0, so b'y = v'J'y = 0, and Farkas' alternative
    // (y >= 0, A y <= 0, b'y < 0) cannot hold; PSD and feasible implies
    // solvable (Cottle & Dantzig 1968).
    bool penetration_bias = true;
    // Rows per contact: [normal, t1, t2] with the friction index (tangent
    // rows: findex = normal row, lo = -mu, hi = mu), or only the normal row
    // (lo = 0, hi = inf) when false.
    bool friction = true;
    // Ball joints between two bodies: 3 bilateral rows each (lo = -inf,
    // hi = inf), the "free" rows of a boxed problem.
    uint32_t ball_joints = 0;
    // Angular motors on single bodies: one row each with a finite box
    // [-f, f] and no friction index.
    uint32_t motors = 0;
    // The first `duplicated_contacts` contacts appear a second time at the
    // end, same point and frame: identical rows, so A is singular.
    uint32_t duplicated_contacts = 0;
    // eps = regularization x mean diagonal of J M^-1 J^T (0: none, then A is
    // only positive semidefinite, and singular when rows outnumber the
    // degrees of freedom or repeat).
    double regularization = 1e-4;
    // Make the problem inconsistent: the first ball joint is duplicated and
    // the copy's first row gets b + 1, so two identical free rows ask for
    // different velocities (no solution). Needs ball_joints >= 1 and
    // regularization = 0.
    bool inconsistent_duplicate_joint = false;
    uint64_t seed = 1;
};
sdk::LcpData random_contact_problem(const ContactScene& scene);

// ---------------------------------------------------------------- classics
// Murty's example (Murty 1978, "Computational complexity of complementary
// pivot methods"; Murty 1988, "Linear complementarity, linear and nonlinear
// programming", ch. 6): A upper triangular, 1 on the diagonal, 2 above,
// b = -1. Lemke's method with covering vector e takes 2^n - 1 pivots.
// A P-matrix (triangular, positive diagonal): the unique solution is
// x = (0, ..., 0, 1) (back substitution from the last row: x_n = 1; every
// other row then has w_i = x_i + 2 - 1 > 0, so x_i = 0).
sdk::LcpData murty_lcp(uint32_t n);
std::vector<double> murty_solution(uint32_t n);

// The LP of Chvatal ("Linear Programming", 1983, p. 31), on which the
// simplex method with the largest-coefficient rule cycles:
//   max 10 x1 - 57 x2 - 9 x3 - 24 x4  s.t.
//   0.5 x1 - 5.5 x2 - 2.5 x3 + 9 x4 <= 0,  0.5 x1 - 1.5 x2 - 0.5 x3 + x4 <= 0,
//   x1 <= 1,  x >= 0,
// as the LCP of its optimality conditions (min c'x, Ax >= r, x >= 0:
// z = (x, y), A = [0 -A'; A 0], b = (c, -r)); two zero entries in b make it
// degenerate. A is skew-symmetric (PSD, not symmetric). Solution: x = (1, 0,
// 1, 0), y = (0, 18, 1) (checked by hand: reduced costs (0, 30, 0, 42),
// slacks (2, 0, 0)).
sdk::LcpData chvatal_cycling_lcp();
std::vector<double> chvatal_cycling_solution();

// ---------------------------------------------------------------- degenerate
// random_spd_lcp(n) with b = 0: the solution is x = 0 with w = 0, every row
// degenerate (x_i = w_i = 0).
sdk::LcpData degenerate_zero_b_lcp(uint32_t n, uint64_t seed);

// random_spd_lcp's matrix with b = w* - A x* built from a chosen solution:
// rows i % 3 == 0 have x* > 0, w* = 0; rows i % 3 == 1 have x* = 0, w* > 0;
// rows i % 3 == 2 have x* = w* = 0 (degenerate). The solution is unique (A
// is a P-matrix), so it is `solution`.
sdk::LcpData degenerate_constructed_lcp(uint32_t n, uint64_t seed, std::vector<double>* solution = nullptr);

// ---------------------------------------------------------------- no solution
// A = [1 -1; -1 1] (symmetric PSD), b = (-1, -1): w1 + w2 = -2 < 0 for every
// x, so w >= 0 is impossible (infeasible).
sdk::LcpData infeasible_psd_lcp();
// A = diag(-1, 1), b = (-1, -1): w1 = -x1 - 1 < 0 for every x1 >= 0.
sdk::LcpData infeasible_indefinite_lcp();
// A = [0 1; -1 0] (skew, PSD, not symmetric), b = (-1, -1): w2 = -x1 - 1 < 0.
sdk::LcpData infeasible_skew_lcp();
// Boxed: A = [1 1; 1 1] (singular PSD), both rows free (lo = -inf, hi = inf),
// b = (1, -1): w = 0 needs x1 + x2 = -1 and x1 + x2 = 1. No solution.
sdk::LcpData inconsistent_free_rows_problem();

}  // namespace pivot::conformance
