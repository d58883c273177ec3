#include "integrate/gssss_integrator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "common/error.hpp"

namespace pivot {

namespace {

// Largest |entry| of a vector or a block of one (no temporary: a block
// passed as a VectorXd would be copied into a new one).
template <class Vector>
double largest(const Eigen::MatrixBase<Vector>& x) {
    return x.size() == 0 ? 0.0 : x.template lpNorm<Eigen::Infinity>();
}

}  // namespace

GssssIntegrator::GssssIntegrator(const ConstrainedSystem& system, const GssssSettings& settings)
    : system_(system), settings_(settings), c_(gssss_coefficients(settings.parameters)) {
    check_gssss_settings(settings);
    n_ = system.velocity_size();
    m_ = system.constraint_size();
    if (n_ <= 0 || m_ < 0 || system.configuration_size() <= 0) {
        throw Error(fmt::format("GSSSS: a system of {} coordinates, {} velocities and {} constraints",
                                system.configuration_size(), n_, m_));
    }
    const int nq = system.configuration_size();
    q_.setZero(nq);
    for (Eigen::VectorXd* vector : {&v_, &a_, &a_report_, &displacement_, &v_mid_, &a_mid_, &v_end_, &a_shift_, &f_}) {
        vector->setZero(n_);
    }
    for (Eigen::VectorXd* vector : {&lambda_, &lambda_report_, &phi_, &rate_, &lambda_work_}) vector->setZero(m_);
    u_mid_.setZero(nq);
    u_end_.setZero(nq);
    x_.setZero(n_ + m_);
    dx_.setZero(n_ + m_);
    residual_.setZero(n_ + m_);
    kkt_.setZero(n_ + m_, n_ + m_);
    // lu_ and gram_ size themselves at their first compute (start(), the
    // first projection): assigning a pre-sized Eigen::LLT copies its
    // uninitialized status (UBSan: an invalid enum value).
    for (Eigen::MatrixXd* matrix : {&mass_, &stiffness_, &damping_, &lambda_stiffness_}) matrix->setZero(n_, n_);
    for (Eigen::MatrixXd* matrix : {&c_mid_, &c_end_, &curvature_, &curvature2_}) matrix->setZero(m_, n_);
    gram_matrix_.setZero(m_, m_);
}

double GssssIntegrator::shift() const {
    // Eq. 3.147: a* = a_n + s (a_n+1 - a_n) extrapolates to t_n+1.
    if (steps_ == 0) return c_.gamma < 1.0 ? 1.0 / (1.0 - c_.gamma) : 1.0;
    return 1.0 + c_.gamma;
}

void GssssIntegrator::start(double t0, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0) {
    if (q0.size() != q_.size() || v0.size() != n_) {
        throw Error(fmt::format("GSSSS start: {} coordinates and {} velocities given, the system has {} and {}",
                                q0.size(), v0.size(), q_.size(), n_));
    }
    t_ = t0;
    steps_ = 0;
    q_ = q0;
    v_ = v0;
    // [M C^T; C 0] [a0; lambda0] = [f; -G(q0, v0) v0].
    system_.mass(q_, mass_);
    system_.forces(t_, q_, v_, f_);
    system_.constraints(q_, phi_, c_end_);
    system_.constraint_curvature(q_, v_, curvature_);
    kkt_.setZero();
    kkt_.topLeftCorner(n_, n_) = mass_;
    kkt_.topRightCorner(n_, m_) = c_end_.transpose();
    kkt_.bottomLeftCorner(m_, n_) = c_end_;
    residual_.head(n_) = f_;
    residual_.tail(m_).noalias() = -curvature_ * v_;
    lu_.compute(kkt_);
    x_ = lu_.solve(residual_);
    if (!x_.allFinite()) {
        throw Error("GSSSS start: the initial accelerations are not finite (is [M C^T; C 0] singular?)");
    }
    a_ = x_.head(n_);
    lambda_ = x_.tail(m_);
    a_report_ = a_;
    lambda_report_ = lambda_;
}

void GssssIntegrator::evaluate_residual(double h) {
    const auto da = x_.head(n_);
    const auto lambda = x_.tail(m_);
    const double h2 = h * h;
    displacement_ = c_.l1w1 * h * v_ + c_.l2w2 * h2 * a_ + c_.l3w3 * h2 * da;
    system_.displace(q_, displacement_, u_mid_);
    v_mid_ = v_ + c_.l4w1 * h * a_ + c_.l5w2 * h * da;
    a_mid_ = a_ + c_.l6w1 * da;
    displacement_ = c_.l1 * h * v_ + c_.l2 * h2 * a_ + c_.l3 * h2 * da;
    system_.displace(q_, displacement_, u_end_);
    v_end_ = v_ + c_.l4 * h * a_ + c_.l5 * h * da;
    a_shift_ = a_ + shift() * da;

    // R1: the equation of motion at t_n + W1 h.
    system_.mass(u_mid_, mass_);
    system_.forces(t_ + c_.w1 * h, u_mid_, v_mid_, f_);
    system_.constraints(u_mid_, phi_, c_mid_);
    residual_.head(n_).noalias() = mass_ * a_mid_;  // then - f: a product in a sum would make a temporary
    residual_.head(n_) -= f_;
    residual_.head(n_).noalias() += c_mid_.transpose() * lambda;

    // R2: the constraints at t_n+1, normalized.
    system_.constraints(u_end_, phi_, c_end_);
    auto r2 = residual_.tail(m_);
    // What rounding alone leaves in R2: Phi and C v carry a few ulps of the
    // coordinates and velocities they are made of (16 eps of the largest),
    // divided by the normalization; at small h that exceeds any absolute
    // tolerance (Phi / (l3 h^2) at h = 30 us and |q| ~ 1 m: 2e-6).
    const double eps16 = 16.0 * std::numeric_limits<double>::epsilon();
    const double position_rounding = eps16 * (1.0 + largest(u_end_)) / (c_.l3 * h2);
    switch (settings_.stabilization == ConstraintStabilization::baumgarte ? ConstraintLevel::acceleration
                                                                           : settings_.level) {
    case ConstraintLevel::position:
        r2 = phi_ / (c_.l3 * h2);
        constraint_rounding_ = position_rounding;
        break;
    case ConstraintLevel::velocity:
        r2.noalias() = c_end_ * v_end_;
        r2 /= c_.l5 * h;
        constraint_rounding_ = eps16 * (1.0 + largest(u_end_)) * (1.0 + largest(v_end_)) / (c_.l5 * h);
        break;
    case ConstraintLevel::acceleration:
        system_.constraint_curvature(u_end_, v_end_, curvature_);
        rate_.noalias() = c_end_ * v_end_;  // Phi'
        r2.noalias() = c_end_ * a_shift_;
        r2.noalias() += curvature_ * v_end_;  // Phi''
        constraint_rounding_ = 0.0;
        if (settings_.stabilization == ConstraintStabilization::baumgarte) {
            r2 += (2.0 * settings_.baumgarte_alpha / (c_.l5 * h)) * rate_ +
                  (settings_.baumgarte_beta / (c_.l3 * h2)) * phi_;
            constraint_rounding_ = settings_.baumgarte_beta * position_rounding;
        }
        r2 /= shift();
        constraint_rounding_ /= shift();
        break;
    }
}

void GssssIntegrator::assemble_matrix(double h) {
    const double h2 = h * h;
    system_.tangent(t_ + c_.w1 * h, u_mid_, v_mid_, a_mid_, stiffness_, damping_);
    lambda_work_ = x_.tail(m_);  // the interface takes a vector: no temporary
    system_.constraint_stiffness(u_mid_, lambda_work_, lambda_stiffness_);
    kkt_.topLeftCorner(n_, n_) = c_.l6w1 * mass_ + (c_.l5w2 * h) * damping_ + (c_.l3w3 * h2) * stiffness_ +
                                 (c_.l3w3 * h2) * lambda_stiffness_;
    kkt_.topRightCorner(n_, m_) = c_mid_.transpose();
    kkt_.bottomRightCorner(m_, m_).setZero();
    auto j21 = kkt_.bottomLeftCorner(m_, n_);
    const ConstraintLevel level =
        settings_.stabilization == ConstraintStabilization::baumgarte ? ConstraintLevel::acceleration : settings_.level;
    switch (level) {
    case ConstraintLevel::position:  // d(Phi(u_n+1)) / (l3 h^2 d da) = C
        j21 = c_end_;
        break;
    case ConstraintLevel::velocity:  // (l5 h C + l3 h^2 G(u, v)) / (l5 h)
        system_.constraint_curvature(u_end_, v_end_, curvature_);
        j21 = c_end_ + (c_.l3 * h / c_.l5) * curvature_;
        break;
    case ConstraintLevel::acceleration: {
        // (s C + l3 h^2 G(u, a*) + 2 l5 h G(u, v)) / s: d(G(u, v) v)/dv = 2 G(u, v)
        // for a Phi whose second derivative is symmetric; d/du of G(u, v) v
        // (third derivatives) left out.
        const double s = shift();
        system_.constraint_curvature(u_end_, a_shift_, curvature2_);
        j21 = c_end_ + (c_.l3 * h2 / s) * curvature2_ + (2.0 * c_.l5 * h / s) * curvature_;
        if (settings_.stabilization == ConstraintStabilization::baumgarte) {
            j21 += (2.0 * settings_.baumgarte_alpha / s) * (c_end_ + (c_.l3 * h / c_.l5) * curvature_) +
                   (settings_.baumgarte_beta / s) * c_end_;
        }
        break;
    }
    }
}

void GssssIntegrator::newton_system(double h, const Eigen::VectorXd& da, const Eigen::VectorXd& lambda,
                                    Eigen::VectorXd& residual, Eigen::MatrixXd& matrix) {
    x_.head(n_) = da;
    x_.tail(m_) = lambda;
    evaluate_residual(h);
    assemble_matrix(h);
    residual = residual_;
    matrix = kkt_;
}

GssssStepReport GssssIntegrator::step(double h) {
    if (!std::isfinite(h) || h <= 0.0) throw Error(fmt::format("GSSSS step: h = {} must be positive and finite", h));
    GssssStepReport report;
    x_.head(n_).setZero();  // predictor: da = 0, lambda~ = lambda~_n
    x_.tail(m_) = lambda_;
    double previous_increment = HUGE_VAL;
    for (uint32_t k = 0;; ++k) {
        evaluate_residual(h);
        report.residual = largest(residual_);
        if (!std::isfinite(report.residual)) return report;
        const bool residual_small =
            largest(residual_.head(n_)) < settings_.residual_tolerance &&
            largest(residual_.tail(m_)) < std::max(settings_.residual_tolerance, constraint_rounding_);
        // Converged: a small change with a small residual (the constraint
        // rows' down to what rounding leaves in them); or, with the
        // residual small, a change that no longer shrinks (at least halving
        // is what Newton does above rounding): the position-level residual
        // is Phi / (l3 h^2), so at small h rounding in Phi alone moves
        // lambda~ by ~ m eps |q| / h^2, which no iteration removes.
        const bool stalled = k > 2 && report.increment > 0.5 * previous_increment;
        if (k > 0 && residual_small && (report.increment < settings_.increment_tolerance || stalled)) {
            break;
        }
        previous_increment = report.increment;
        if (k == settings_.max_iterations) return report;
        assemble_matrix(h);
        lu_.compute(kkt_);
        dx_.noalias() = lu_.solve(-residual_);
        if (!dx_.allFinite()) return report;
        x_ += dx_;
        ++report.iterations;
        // The change relative to the unknowns' size (1 + |da|, 1 + |lambda~|):
        // an absolute one would ask for digits that rounding does not give
        // at small h (the position-level residual is Phi / (l3 h^2)).
        report.increment = std::max(largest(dx_.head(n_)) / (1.0 + largest(x_.head(n_))),
                                    largest(dx_.tail(m_)) / (1.0 + largest(x_.tail(m_))));
    }
    report.converged = true;
    // evaluate_residual left u_n+1, v_n+1 and a* of the answer.
    a_report_ = a_shift_;
    a_ += x_.head(n_);
    q_ = u_end_;
    v_ = v_end_;
    lambda_report_ = (c_.w1 - 1.0) * lambda_ + (2.0 - c_.w1) * x_.tail(m_);  // Eq. 3.156
    lambda_ = x_.tail(m_);
    t_ += h;
    if (settings_.stabilization == ConstraintStabilization::projection) project();
    ++steps_;
    return report;
}

void GssssIntegrator::project() {
    // Position: min 1/2 d^T M d subject to Phi(q* (+) d) = 0, by Newton on
    //     [M + d(C^T sigma)/dq   C^T] [dd    ]     [M d + C^T sigma]
    //     [C                     0  ] [dsigma] = - [Phi            ]
    // (erratum E9: C, not C^T, lower left; sigma starts at 0).
    const Eigen::VectorXd& q_star = u_end_;  // == q_
    system_.mass(q_star, mass_);
    x_.setZero();
    for (uint32_t k = 0; k < settings_.projection_iterations; ++k) {
        displacement_ = x_.head(n_);
        system_.displace(q_star, displacement_, u_mid_);
        system_.constraints(u_mid_, phi_, c_mid_);
        lambda_work_ = x_.tail(m_);  // the interface takes a vector: no temporary
        system_.constraint_stiffness(u_mid_, lambda_work_, lambda_stiffness_);
        residual_.head(n_).noalias() = mass_ * x_.head(n_);
        residual_.head(n_).noalias() += c_mid_.transpose() * x_.tail(m_);
        residual_.tail(m_) = phi_;
        kkt_.topLeftCorner(n_, n_) = mass_ + lambda_stiffness_;
        kkt_.topRightCorner(n_, m_) = c_mid_.transpose();
        kkt_.bottomLeftCorner(m_, n_) = c_mid_;
        kkt_.bottomRightCorner(m_, m_).setZero();
        lu_.compute(kkt_);
        dx_.noalias() = lu_.solve(-residual_);
        if (!dx_.allFinite()) break;
        x_ += dx_;
        if (largest(dx_) < settings_.projection_tolerance) break;
    }
    displacement_ = x_.head(n_);
    system_.displace(q_star, displacement_, u_mid_);
    q_ = u_mid_;

    // Velocity and acceleration: one solve each with [M C^T; C 0] at q.
    system_.mass(q_, mass_);
    system_.constraints(q_, phi_, c_end_);
    kkt_.topLeftCorner(n_, n_) = mass_;
    kkt_.topRightCorner(n_, m_) = c_end_.transpose();
    kkt_.bottomLeftCorner(m_, n_) = c_end_;
    kkt_.bottomRightCorner(m_, m_).setZero();
    lu_.compute(kkt_);
    residual_.head(n_).noalias() = mass_ * v_;
    residual_.tail(m_).setZero();
    dx_.noalias() = lu_.solve(residual_);
    v_ = dx_.head(n_);
    system_.constraint_curvature(q_, v_, curvature_);
    residual_.head(n_).noalias() = mass_ * a_report_;
    residual_.tail(m_).noalias() = -curvature_ * v_;
    dx_.noalias() = lu_.solve(residual_);
    a_report_ = dx_.head(n_);

    // The multipliers that make the equation of motion hold at the
    // projected state (Eq. 4.38): lambda = (C C^T)^-1 C (f - M a).
    system_.forces(t_, q_, v_, f_);
    f_.noalias() -= mass_ * a_report_;
    gram_matrix_.noalias() = c_end_ * c_end_.transpose();
    gram_.compute(gram_matrix_);
    rate_.noalias() = c_end_ * f_;
    lambda_report_ = gram_.solve(rate_);
}

}  // namespace pivot
