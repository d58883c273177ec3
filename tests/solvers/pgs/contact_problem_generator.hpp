#pragma once
// Contact-structured complementarity problems built the way a physics engine
// builds its per-step problem (like tests/data/lcp-bench, README there):
//   A = J M^-1 J^T + eps I,  eps = 1e-4 x mean diagonal,
//   b = J v - bias on the normal rows,
// with 6-dof rigid bodies, three rows per contact [normal, t1, t2] and the
// friction rows bounded by mu |x_normal| through the friction index. A is
// assembled directly in CSC (no dense n x n matrix), so 30 000 rows are cheap.
//
// The bodies sit on a grid of stacks (a pile of boxes): each rests on the one
// below through four corner contacts (the bottom layer on the ground) and
// touches its neighbours on the side through one contact each. Contact normals
// and points get small random perturbations, masses and inertias are random.
// There are three rows per contact for about 6 velocities per contact, so A is
// rank deficient but for eps, as in lcp-bench.
//
// Deterministic on every platform: std::mt19937_64 (its output sequence is
// fixed by the C++ standard) turned into doubles here, not by
// std::uniform_real_distribution (implementation-defined).
#include <cstdint>
#include <random>

#include "lcp/lcp_problem.hpp"

namespace pivot::test {

struct ContactPileSpec {
    uint32_t contacts = 100;       // stops adding contacts at this many
    uint32_t stack_columns = 4;    // stacks per side of the square grid
    double mu = 0.5;               // friction coefficient (friction rows' bounds)
    bool friction = true;          // false: normal rows only (a standard LCP)
    double regularization = 1e-4;  // eps / mean diagonal
    uint64_t seed = 1;
};

// Uniform double in [0, 1) from the top 53 bits of the generator's output.
inline double uniform01(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }
inline double uniform(std::mt19937_64& rng, double low, double high) { return low + (high - low) * uniform01(rng); }

// The problem (CSC only, PIVOT_MATRIX_SYMMETRIC set): n = 3 * contacts rows
// with friction, contacts rows without.
LcpProblem make_contact_pile(const ContactPileSpec& spec);

}  // namespace pivot::test
