#pragma once
// What an implicit integrator (gssss_integrator.hpp) needs of a mechanical
// system with holonomic, scleronomic constraints:
//     M(q) a + C(q)^T lambda = f(t, q, v),   Phi(q) = 0,   C = dPhi/dq
// in the velocity coordinates v of its configuration q. q need not be a
// vector: a rigid body's orientation moves on the rotation group, so a
// configuration is moved by a displacement dq in velocity coordinates,
// q (+) dq (displace), and every derivative "d/dq" below is along such
// displacements: d/de g(q (+) e dq) at e = 0. In a vector space this is
// the ordinary derivative.
//
// The integrator calls these once per Newton iteration (not per row), from
// one thread, with vectors and matrices already at their sizes: an
// implementation writes every entry and does not resize.
#include <Eigen/Core>

namespace pivot {

class ConstrainedSystem {
public:
    virtual ~ConstrainedSystem() = default;

    virtual int configuration_size() const = 0;  // entries of q
    virtual int velocity_size() const = 0;       // n: entries of v, a and dq
    virtual int constraint_size() const = 0;     // m: entries of Phi and lambda

    // q_out = q (+) dq (q_out may not alias q).
    virtual void displace(const Eigen::VectorXd& q, const Eigen::VectorXd& dq, Eigen::VectorXd& q_out) const = 0;

    // M(q), n x n, symmetric, positive definite on the null space of C (it
    // may be singular: a coordinate that carries no mass).
    virtual void mass(const Eigen::VectorXd& q, Eigen::MatrixXd& m) const = 0;

    // f(t, q, v): applied and gravity forces minus internal and
    // velocity-dependent (Coriolis, gyroscopic) ones, n values.
    virtual void forces(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& f) const = 0;

    // The tangent of r(q, v, a) = M(q) a - f(t, q, v): stiffness = dr/dq and
    // damping = dr/dv, both n x n.
    virtual void tangent(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, const Eigen::VectorXd& a,
                         Eigen::MatrixXd& stiffness, Eigen::MatrixXd& damping) const = 0;

    // Phi(q) (m values) and C(q) = dPhi/dq (m x n).
    virtual void constraints(const Eigen::VectorXd& q, Eigen::VectorXd& phi, Eigen::MatrixXd& jacobian) const = 0;

    // d(C(q)^T lambda)/dq at constant lambda, n x n (the constraints'
    // geometric stiffness).
    virtual void constraint_stiffness(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda,
                                      Eigen::MatrixXd& stiffness) const = 0;

    // d(C(q) w)/dq at constant w, m x n. With w = v it gives the velocity
    // term of the constraints' second derivative, Phi'' = C a + G(q, v) v.
    virtual void constraint_curvature(const Eigen::VectorXd& q, const Eigen::VectorXd& w,
                                      Eigen::MatrixXd& curvature) const = 0;
};

}  // namespace pivot
