#pragma once
// The accuracy measure of a complementarity solution, computed by the host
// independently of any solver (<pivot/plugin_solver.h>):
//   r = max_i | x_i - mid(l_i, u_i, x_i - w_i) |,  w = A x + b,
// with friction-index bounds l_i = lo_i |x_j|, u_i = hi_i |x_j| (j = findex_i).
// It is zero exactly at solutions, and has the units of x (impulses).
#include <pivot/plugin_solver.h>

namespace pivot {

// Bounds of row i at x, with the friction index applied.
void lcp_row_bounds(const pivot_lcp_problem& problem, const double* x, uint32_t i, double& lower,
                    double& upper);

// w = A x + b, from the dense matrix if given, else from the CSC one, else
// from the factored form (plugin_solver.h).
void lcp_multiply(const pivot_lcp_problem& problem, const double* x, double* w);

// The natural-map residual at x with w = A x + b given (the box rule for
// every row, block projections ignored).
double lcp_natural_map_residual(const pivot_lcp_problem& problem, const double* x, const double* w);

// The same with the problem's block projection P (plugin_solver.h) for the
// rows of its blocks: max(box rule outside the blocks, |x_B - P(x_B - w_B)|
// inside), which is zero exactly at the solutions of the problem the
// friction models define (e.g. the circular Coulomb cone). scratch: n
// doubles. Without blocks it equals lcp_natural_map_residual. HUGE_VAL when
// the projection fails.
double lcp_block_residual(const pivot_lcp_problem& problem, const double* x, const double* w, double* scratch);

// The residual rounding alone can leave at w = A x + b: a relative 1e-10 of
// the size of w's terms, |b|_inf + |w - b|_inf. An acceptance threshold in
// absolute units (N s) cannot be met by a problem scaled by 1e150; compared
// against the larger of the two, a solution exact to rounding is accepted
// at any scale (for the engine's problems, of order 1, the floor is far
// below the absolute threshold and changes nothing).
double lcp_rounding_floor(const pivot_lcp_problem& problem, const double* w);

}  // namespace pivot
