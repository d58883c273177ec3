#pragma once
// A GSSSS step for a constrained mechanical system (seed 001, Huang 2014,
// Secs. 2.4, 2.6, 2.7 and 2.9 of the extract): the a-form predictor /
// multi-corrector with Newton iterations on the acceleration increment da
// and the algorithmic multipliers lambda~, the equation of motion
// collocated at t_n + W1 h,
//     R1 = M(u~) a~ - f(t_n + W1 h, u~, v~) + C(u~)^T lambda~ = 0,
// and the constraints at t_n+1, normalized by the corrector coefficient
// of the constrained variable so that the Newton matrix is the exact
// derivative (the extract's note on residual scaling):
//     position (index 3):      Phi(u_n+1) / (l3 h^2) = 0
//     velocity (index 2):      C(u_n+1) v_n+1 / (l5 h) = 0
//     acceleration (index 1):  (C a* + G(u_n+1, v_n+1) v_n+1) / s = 0
// with a* the acceleration shifted to t_n+1 (Eq. 3.147: s = 1 / (1 - gamma)
// on the first step, 1 + gamma after) and G(q, w) = d(C(q) w)/dq. The
// Newton matrix (erratum E8: the lower-left block is C, not C^T):
//     [ L6W1 M + L5W2 h D + L3W3 h^2 (K + K_lambda)   C(u~)^T ]
//     [ dR2/d(da)                                       0      ]
// K, D the tangent of M a - f, K_lambda = d(C^T lambda)/dq. Exact for
// index 3 and 2 in a vector space; for index 1 the third derivatives of
// Phi (d/dq of G(q, v) v) are left out (Newton then converges linearly);
// on a Lie group the exponential map's differential is taken as the
// identity in the matrix only, which keeps the solution and its order.
//
// Reported per step: u_n+1, v_n+1, a* (Eq. 3.147) and lambda_n+1 =
// (W1 - 1) lambda~_n + (2 - W1) lambda~_n+1 (Eq. 3.156), both second order.
// The algorithmic a_n+1 and lambda~_n+1 carry to the next step.
//
// Stabilization (Sec. 2.7): Baumgarte on the acceleration row with
// dimensionless alpha*, beta*:  Phi'' + 2 alpha* / (l5 h) Phi' + beta* /
// (l3 h^2) Phi = 0; or the mass-orthogonal projection after each step
// (position by Newton, then velocity and acceleration by one solve each,
// the multipliers by Eq. 4.38), which satisfies the constraints to
// rounding but does not keep the discrete energy.
//
// No allocation after construction; one thread.
#include <cstdint>

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/LU>

#include "integrate/constrained_system.hpp"
#include "integrate/gssss_coefficients.hpp"
#include "integrate/integrator_settings.hpp"

namespace pivot {

struct GssssStepReport {
    bool converged = false;
    uint32_t iterations = 0;   // Newton solves
    double increment = 0.0;    // largest entry of the last Newton change, relative (GssssSettings)
    double residual = 0.0;     // largest entry of the residual at the answer
};

class GssssIntegrator {
public:
    // Throws pivot::Error when the settings are invalid (named field).
    GssssIntegrator(const ConstrainedSystem& system, const GssssSettings& settings);

    // The initial state; a0 and lambda0 follow from the index-1 system
    // [M C^T; C 0] [a0; lambda0] = [f; -G(q0, v0) v0]. q0 and v0 should
    // satisfy the constraints (they are not corrected).
    void start(double t0, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0);

    // One step of h (> 0). When Newton does not converge (or a value is not
    // finite) the state is left as it was and the report says so: retry
    // with a smaller h or a dissipative member.
    GssssStepReport step(double h);

    double time() const { return t_; }
    const Eigen::VectorXd& configuration() const { return q_; }
    const Eigen::VectorXd& velocity() const { return v_; }
    const Eigen::VectorXd& acceleration() const { return a_report_; }   // a* at t_n+1 (Eq. 3.147)
    const Eigen::VectorXd& multipliers() const { return lambda_report_; }  // lambda at t_n+1 (Eq. 3.156)
    const Eigen::VectorXd& algorithmic_acceleration() const { return a_; }  // a_n+1, at t_n+1 - gamma h
    const Eigen::VectorXd& algorithmic_multipliers() const { return lambda_; }  // lambda~ at t_n + W1 h
    const GssssCoefficients& coefficients() const { return c_; }

    // The Newton residual and matrix of the current step at (da, lambda~):
    // exposed so tests can finite-difference the matrix.
    void newton_system(double h, const Eigen::VectorXd& da, const Eigen::VectorXd& lambda, Eigen::VectorXd& residual,
                       Eigen::MatrixXd& matrix);

private:
    double shift() const;                // s of Eq. 3.147 for this step
    void evaluate_residual(double h);    // at x_: the states, then residual_
    void assemble_matrix(double h);      // at the states of evaluate_residual: kkt_
    void project();

    const ConstrainedSystem& system_;
    GssssSettings settings_;
    GssssCoefficients c_;
    int n_ = 0, m_ = 0;

    double t_ = 0.0;
    uint64_t steps_ = 0;
    Eigen::VectorXd q_, v_, a_, lambda_, a_report_, lambda_report_;

    // Work (sized once).
    Eigen::VectorXd x_, dx_, residual_;  // x = (da, lambda~)
    Eigen::MatrixXd kkt_;
    Eigen::PartialPivLU<Eigen::MatrixXd> lu_;
    Eigen::VectorXd displacement_, u_mid_, v_mid_, a_mid_, u_end_, v_end_, a_shift_, f_, phi_, rate_, lambda_work_;
    Eigen::MatrixXd mass_, stiffness_, damping_, lambda_stiffness_, c_mid_, c_end_, curvature_, curvature2_;
    Eigen::MatrixXd gram_matrix_;  // C C^T (projection's multipliers)
    Eigen::LLT<Eigen::MatrixXd> gram_;
    double constraint_rounding_ = 0.0;  // what rounding leaves in R2 (evaluate_residual)
};

}  // namespace pivot
