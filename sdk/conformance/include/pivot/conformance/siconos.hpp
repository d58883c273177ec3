#pragma once
// Readers for the test problems of the Siconos project (INRIA, Apache
// License 2.0; tests/data/siconos/README.md): standard LCPs and 2D/3D
// frictional-contact problems, in Siconos' plain-text formats.
//
// Matrices: `storage size0 size1`, then
//   storage 0 (dense):  `size0 size1` again, then size0*size1 numbers in
//                       COLUMN-MAJOR order;
//   storage 1 (sparse block, Siconos' SparseBlockStructuredMatrix):
//                       `nbblocks blocknumber0 blocknumber1`, the cumulative
//                       block-row sizes, the cumulative block-column sizes,
//                       `filled1 filled2`, filled1 block-row pointers (CSR),
//                       filled2 block-column indices, then per stored block
//                       its number and its entries, column-major in the block;
//   storage 2 (general sparse): not supported (UnsupportedSiconosStorage).
// Whatever follows the data is comments and ignored.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "pivot/conformance/error.hpp"
#include <pivot/lcp_data.hpp>

namespace pivot::conformance {

// Thrown for a file in storage type 2, which the kit skips (see the README).
class UnsupportedSiconosStorage : public Error {
public:
    using Error::Error;
};

// An LCP file: `n`, the matrix M (n x n), q (n): find z >= 0 with
// w = M z + q >= 0, z'w = 0. Returned as a standard sdk::LcpData (A = M,
// b = q) with PIVOT_MATRIX_SYMMETRIC set when M is exactly symmetric.
// Throws pivot::Error naming the file, the line and the field.
sdk::LcpData read_siconos_lcp(const std::filesystem::path& file);

// A frictional-contact file: `dimension` (2 or 3), `contacts`, the local
// Delassus matrix M (n x n, n = dimension * contacts), q (n), mu (contacts).
// Per contact the rows are [normal, tangent(s)].
struct FrictionContactProblem {
    uint32_t dimension = 3;
    uint32_t contacts = 0;
    std::vector<double> m;   // n*n, column-major
    std::vector<double> q;   // n
    std::vector<double> mu;  // contacts
    uint32_t n() const { return dimension * contacts; }
};
FrictionContactProblem read_siconos_friction_contact(const std::filesystem::path& file);

// The frictional-contact problem as a boxed problem with the friction
// pyramid (the ODE friction index): per contact, the normal row with
// lo = 0, hi = inf and each tangent row with findex = the normal row,
// lo = -mu, hi = mu; A = M, b = q (so w = A x + b is u = M r + q).
// This is Coulomb's law with the cone replaced by the pyramid
// |r_t,k| <= mu r_n and without the De Saxce correction of the normal
// velocity (u_n + mu |u_T|): the approximation engines such as ODE and
// Bullet solve; its solutions are not those of Siconos' cone problem.
sdk::LcpData friction_pyramid_problem(const FrictionContactProblem& problem);

// max_ij |A_ij - A_ji| / max_ij |A_ij| of the dense matrix (0 when A = 0).
double relative_asymmetry(const sdk::LcpData& problem);

// A = (A + A')/2, and the SYMMETRIC hint set. Many Siconos Delassus
// matrices are symmetric only to the rounding of their assembly (relative
// asymmetry ~1e-16); a few carry an asymmetry of 1e-5..1e-3 (the Rover,
// OneObject and Capsules scenes).
void symmetrize(sdk::LcpData& problem);

// The Siconos frictional-contact files (by stem) whose matrix is not
// symmetric beyond rounding (relative asymmetry > 1e-12); the kit's tests
// check this list against the files.
bool siconos_friction_contact_is_nonsymmetric(const std::string& stem);

}  // namespace pivot::conformance
