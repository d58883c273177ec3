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

// w = A x + b, from the dense matrix if given, else from the CSC one.
void lcp_multiply(const pivot_lcp_problem& problem, const double* x, double* w);

// The natural-map residual at x with w = A x + b given.
double lcp_natural_map_residual(const pivot_lcp_problem& problem, const double* x, const double* w);

}  // namespace pivot
