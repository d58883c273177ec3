#pragma once
// The planar pendulums of the seed 001 thesis (Huang 2014, Sec. 4.1; the
// extract's B1 and B2): N point masses on massless rigid bars, the first
// pinned at the origin, in the thesis's redundant coordinates (x_i, y_i,
// theta_i) per mass, theta carrying no mass (M = diag(m, m, 0)):
//     Phi_i = [x_i - x_i-1 - L_i sin(theta_i);  y_i - y_i-1 + L_i cos(theta_i)]
// (x_0 = y_0 = 0), gravity -g y. A vector space, so q (+) dq = q + dq.
#include <cmath>
#include <vector>

#include <Eigen/Core>

#include "integrate/constrained_system.hpp"

namespace pivot::test {

class PlanarPendulum final : public ConstrainedSystem {
public:
    PlanarPendulum(std::vector<double> masses, std::vector<double> lengths, double g = 9.81)
        : masses_(std::move(masses)), lengths_(std::move(lengths)), g_(g) {}

    int bodies() const { return static_cast<int>(masses_.size()); }
    int configuration_size() const override { return 3 * bodies(); }
    int velocity_size() const override { return 3 * bodies(); }
    int constraint_size() const override { return 2 * bodies(); }

    void displace(const Eigen::VectorXd& q, const Eigen::VectorXd& dq, Eigen::VectorXd& out) const override {
        out = q + dq;
    }
    void mass(const Eigen::VectorXd&, Eigen::MatrixXd& m) const override {
        m.setZero();
        for (int i = 0; i < bodies(); ++i) m(3 * i, 3 * i) = m(3 * i + 1, 3 * i + 1) = masses_[i];
    }
    void forces(double, const Eigen::VectorXd&, const Eigen::VectorXd&, Eigen::VectorXd& f) const override {
        f.setZero();
        for (int i = 0; i < bodies(); ++i) f(3 * i + 1) = -masses_[i] * g_;
    }
    void tangent(double, const Eigen::VectorXd&, const Eigen::VectorXd&, const Eigen::VectorXd&,
                 Eigen::MatrixXd& stiffness, Eigen::MatrixXd& damping) const override {
        stiffness.setZero();  // constant M, constant f
        damping.setZero();
    }
    void constraints(const Eigen::VectorXd& q, Eigen::VectorXd& phi, Eigen::MatrixXd& c) const override {
        c.setZero();
        for (int i = 0; i < bodies(); ++i) {
            const double th = q(3 * i + 2), l = lengths_[i];
            const double px = i > 0 ? q(3 * i - 3) : 0.0, py = i > 0 ? q(3 * i - 2) : 0.0;
            phi(2 * i) = q(3 * i) - px - l * std::sin(th);
            phi(2 * i + 1) = q(3 * i + 1) - py + l * std::cos(th);
            c(2 * i, 3 * i) = 1.0;
            c(2 * i + 1, 3 * i + 1) = 1.0;
            c(2 * i, 3 * i + 2) = -l * std::cos(th);
            c(2 * i + 1, 3 * i + 2) = -l * std::sin(th);
            if (i > 0) {
                c(2 * i, 3 * i - 3) = -1.0;
                c(2 * i + 1, 3 * i - 2) = -1.0;
            }
        }
    }
    void constraint_stiffness(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda,
                              Eigen::MatrixXd& k) const override {
        k.setZero();  // d(C^T lambda)/dq: theta-theta only (the thesis's Eq. 4.14)
        for (int i = 0; i < bodies(); ++i) {
            const double th = q(3 * i + 2), l = lengths_[i];
            k(3 * i + 2, 3 * i + 2) = l * std::sin(th) * lambda(2 * i) - l * std::cos(th) * lambda(2 * i + 1);
        }
    }
    void constraint_curvature(const Eigen::VectorXd& q, const Eigen::VectorXd& w, Eigen::MatrixXd& g) const override {
        g.setZero();  // d(C w)/dq
        for (int i = 0; i < bodies(); ++i) {
            const double th = q(3 * i + 2), l = lengths_[i], wt = w(3 * i + 2);
            g(2 * i, 3 * i + 2) = l * std::sin(th) * wt;
            g(2 * i + 1, 3 * i + 2) = -l * std::cos(th) * wt;
        }
    }

    double energy(const Eigen::VectorXd& q, const Eigen::VectorXd& v) const {
        double e = 0.0;
        for (int i = 0; i < bodies(); ++i) {
            const double speed2 = v(3 * i) * v(3 * i) + v(3 * i + 1) * v(3 * i + 1);
            e += 0.5 * masses_[i] * speed2 + masses_[i] * g_ * q(3 * i + 1);
        }
        return e;
    }

private:
    std::vector<double> masses_, lengths_;
    double g_;
};

// B2: m1 = m2 = 1 kg, L1 = L2 = 1 m; the first bar horizontal, the second
// hanging from it (erratum E16: u0 = [L1, 0, pi/2, L1, -L2, 0]), at rest.
inline PlanarPendulum double_pendulum() { return PlanarPendulum({1.0, 1.0}, {1.0, 1.0}); }
inline Eigen::VectorXd double_pendulum_q0() {
    Eigen::VectorXd q(6);
    q << 1.0, 0.0, M_PI / 2, 1.0, -1.0, 0.0;
    return q;
}

// B1: m = 1 kg, L = 1 m, released horizontally at rest.
inline PlanarPendulum single_pendulum() { return PlanarPendulum({1.0}, {1.0}); }
inline Eigen::VectorXd single_pendulum_q0() {
    Eigen::VectorXd q(3);
    q << 1.0, 0.0, M_PI / 2;
    return q;
}

}  // namespace pivot::test
