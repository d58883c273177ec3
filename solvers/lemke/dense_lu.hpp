#pragma once
// LU factorization with partial (row) pivoting, P A = L U, of a square dense
// matrix in caller-owned, column-major storage, factorized in place. Used for
// the basis of Lemke's method (basis_factorization.hpp) and for the free-row
// block of a boxed problem (boxed_to_standard.hpp). It never allocates: the
// caller passes the storage, so the solve() path stays allocation free.
#include <Eigen/Core>

namespace pivot::lemke {

using Index = Eigen::Index;

struct LuFactorization {
    double* lu = nullptr;       // size x size, leading dimension ld: L (unit, below) and U (on and above)
    int* row_swaps = nullptr;   // size entries: at step k, row k was swapped with row_swaps[k] >= k
    Index size = 0;
    Index ld = 0;
};

// Factorizes f.lu in place (Golub & Van Loan, "Matrix Computations", 4th ed.,
// Algorithm 3.4.1, in its left-looking "jki" form: column j is finished with
// a triangular solve and a matrix-vector product, which reads the factor
// once per column instead of updating the whole trailing matrix per step).
// Returns false when a pivot is no larger than singular_tolerance times the
// largest magnitude of its column in the input matrix (the matrix is singular
// to working precision for the caller's purpose), or, when column_scales is
// given (size values), times column_scales[j]: for an input that is itself
// a Schur complement, whose columns may cancel to rounding noise that must
// be judged against the matrix it came from.
bool lu_factorize(const LuFactorization& f, double singular_tolerance, const double* column_scales = nullptr);

// Solves A x = rhs in place (rhs: size doubles).
void lu_solve(const LuFactorization& f, double* rhs);

}  // namespace pivot::lemke
