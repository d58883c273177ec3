#pragma once
// A cheap upper bound of how stiff a rigid body's fastest mode is under the
// rotational geometric stiffness its joints give it (geometric_stiffness.cpp,
// surely_resolved): at a step the motion resolves (1 ms for a chain), the
// stage learns from it that no joint needs stiffening without the joints'
// splits (a 3 x 3 eigen-decomposition each) and the bodies' stiffness
// numbers (a Cholesky and two triangular solves each).
//
// What it bounds. A joint whose K acts on rotations only puts
// D = S3 / 2 on each of its rigid bodies' rotations (split_joint), with
// S3 = Y_+ (the semidefinite part) or, when Y + 1e-9 |tr Y| I passes
// split_joint's principal-minors test, that matrix, for
// Y = A - B - B^T + C from sym(K)'s rotation blocks.
// stiffness_numbers takes a body's Omega^2 = h^2 G(X), G the largest
// absolute row sum of X = L^-1 D L^-T (M = diag(m I, I_w) = L L^T), whose
// only nonzero block is the rotations', L_w^-1 D_r L_w^-T with
// I_w = L_w L_w^T.
//
// The bound:
// - S3 <= Y + c_Y I with c_Y = 1e-9 |tr Y| + max(0, -g), g a lower bound
//   of lambda_min(Y) (stiffness_bound_shift).
// - X's diagonal grows with D in the semidefinite order, so each joint
//   adds at most l_r^T (Y + c_Y I) l_r / 2 to X_rr (l_r row r of L_w^-1).
// - X is semidefinite, so |X_rc| <= sqrt(X_rr X_cc) and
//   G(X) <= max_r sqrt(X_rr) * sum_c sqrt(X_cc).
// It is 2-5 times the exact number on a swinging chain
// (stiffness_bound_test.cpp). The caller compares it with 0.9, not 1: the
// 10 % cover the rounding of both computations (the exact path's 3 x 3
// eigen-decomposition is good to ~1e-8 ||Y|| near a double eigenvalue,
// the trace bound below loses ~1e-16 lambda_max^2 / s to cancellation,
// the factors and solves ~1e-16 cond(I_w)), which the guard on cond(I_w)
// keeps below 1e-7 relative.
#include <algorithm>
#include <cmath>

#include <Eigen/Dense>

namespace pivot {

// c_Y: the shift that makes Y + c_Y I at least the stiffness split_joint
// takes from Y (either of its two forms). Two lower bounds of
// lambda_min(Y), the larger taken: Gershgorin's, and Wolkowicz & Styan's
// (1980, "Bounds for eigenvalues using traces", Linear Algebra Appl. 29)
// m - s sqrt(n - 1) with m = tr Y / n, s^2 = tr(Y^2) / n - m^2, which is
// exact for a lever arm's T l (I - u u^T) (eigenvalues T l, T l, 0) in any
// orientation, where Gershgorin's can be off by a fraction of T l.
inline double stiffness_bound_shift(const Eigen::Matrix3d& y) {
    double gershgorin = HUGE_VAL;
    for (int r = 0; r < 3; ++r) {
        gershgorin = std::min(gershgorin, y(r, r) - std::abs(y(r, (r + 1) % 3)) - std::abs(y(r, (r + 2) % 3)));
    }
    const double mean = y.trace() / 3.0;
    const double spread = std::sqrt(std::max(0.0, y.squaredNorm() / 3.0 - mean * mean));
    const double trace_bound = mean - std::sqrt(2.0) * spread;
    return 1e-9 * std::abs(y.trace()) + std::max(0.0, -std::max(gershgorin, trace_bound));
}

// Adds one joint's share, from its Y, to the bound of a body's X diagonal
// (3 values) with rotational inertia I_w (world, symmetric). False when
// I_w is not positive definite, or may be so badly conditioned that the
// two computations' rounding could matter (tr(I_w) ||L_w^-1||_F^2, which
// is at least cond(I_w), above 1e8; a body's inertias rarely span 1e3):
// the caller then takes the exact path.
inline bool add_stiffness_bound(const Eigen::Matrix3d& inertia, const Eigen::Matrix3d& y, double* diagonal) {
    // L_w^-1 from I_w's Cholesky factor, each pivot checked (NaN included).
    if (!(inertia(0, 0) > 0.0)) return false;
    const double l00 = std::sqrt(inertia(0, 0));
    const double l10 = inertia(1, 0) / l00, l20 = inertia(2, 0) / l00;
    const double p11 = inertia(1, 1) - l10 * l10;
    if (!(p11 > 0.0)) return false;
    const double l11 = std::sqrt(p11);
    const double l21 = (inertia(2, 1) - l20 * l10) / l11;
    const double p22 = inertia(2, 2) - l20 * l20 - l21 * l21;
    if (!(p22 > 0.0)) return false;
    const double l22 = std::sqrt(p22);
    Eigen::Matrix3d inverse = Eigen::Matrix3d::Zero();
    inverse(0, 0) = 1.0 / l00;
    inverse(1, 1) = 1.0 / l11;
    inverse(2, 2) = 1.0 / l22;
    inverse(1, 0) = -l10 * inverse(0, 0) * inverse(1, 1);
    inverse(2, 1) = -l21 * inverse(1, 1) * inverse(2, 2);
    inverse(2, 0) = -(l20 * inverse(0, 0) + l21 * inverse(1, 0)) * inverse(2, 2);
    // ||I_w||_2 <= tr(I_w) and ||I_w^-1||_2 = ||L_w^-1||_2^2 <= ||L_w^-1||_F^2.
    if (!(inertia.trace() * inverse.squaredNorm() <= 1e8)) return false;  // NaN and inf included
    const double shift = stiffness_bound_shift(y);
    for (int r = 0; r < 3; ++r) {
        const Eigen::Vector3d l = inverse.row(r).transpose();
        diagonal[r] += 0.5 * std::max(0.0, l.dot(y * l) + shift * l.squaredNorm());
    }
    return true;
}

// The bound of Omega^2 = h^2 G(X) from the bound of X's diagonal.
inline double stiffness_bound_omega2(const double* diagonal, double h) {
    const double root[3] = {std::sqrt(diagonal[0]), std::sqrt(diagonal[1]), std::sqrt(diagonal[2])};
    return h * h * std::max({root[0], root[1], root[2]}) * (root[0] + root[1] + root[2]);
}

}  // namespace pivot
