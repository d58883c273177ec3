// The bound of a rigid body's stiffness number (core/step/stiffness_bound.hpp)
// against the number itself, computed independently here: the
// geometric-stiffness stage skips the joints' splits when the bound says no
// joint needs stiffening, so a bound below the exact number would switch
// off stiffness a chain needs.
// - Exact: S3 = Y_+ (Eigen's eigen-decomposition) or Y + 1e-9 |tr Y| I when
//   that is semidefinite (the two forms split_joint takes), D = sum S3 / 2
//   on the rotations of M = diag(m I, I_w), X = L^-1 D L^-T with Eigen's
//   LLT, Omega^2 = h^2 (largest absolute row sum of X).
// - The bound must be >= the larger exact form. Both are computed to a
//   relative ~1e-14 for the inertias here (cond(I_w) <= 1e3), so 1e-9 of
//   slack in the comparison is far above rounding and far below any error
//   of the bound's algebra (a dropped term or a wrong factor changes it by
//   O(1) on some of the 4000 random cases).
// - It must also be tight enough to be of use: on the S1 chain's link
//   (peer harness) at 1 ms its top joints' tension (200 links) gives a
//   bound below the stage's 0.9, and within 5 times the exact number.
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "step/stiffness_bound.hpp"

namespace pivot {
namespace {

using Mat6 = Eigen::Matrix<double, 6, 6>;

// h^2 G(L^-1 D L^-T) with D = sum_j S3_j / 2 on the rotations; S3_j in the
// form `shifted` selects (when that form applies; else Y_+).
double exact_omega2(double mass, const Eigen::Matrix3d& inertia, const std::vector<Eigen::Matrix3d>& ys, bool shifted,
                    double h) {
    Mat6 m = Mat6::Zero();
    m.topLeftCorner<3, 3>() = mass * Eigen::Matrix3d::Identity();
    m.bottomRightCorner<3, 3>() = inertia;
    Mat6 d = Mat6::Zero();
    for (const Eigen::Matrix3d& y : ys) {
        Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eigen(y);
        Eigen::Matrix3d s3 = eigen.eigenvectors() * eigen.eigenvalues().cwiseMax(0.0).asDiagonal() *
                             eigen.eigenvectors().transpose();
        const Eigen::Matrix3d shift = y + 1e-9 * std::abs(y.trace()) * Eigen::Matrix3d::Identity();
        const bool shift_semidefinite =
            Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(shift).eigenvalues().minCoeff() >= 0.0;
        if (shifted && shift_semidefinite) s3 = shift;
        d.bottomRightCorner<3, 3>() += 0.5 * s3;
    }
    const Mat6 l = m.llt().matrixL();
    const Mat6 y = l.triangularView<Eigen::Lower>().solve(d);
    const Mat6 x = l.triangularView<Eigen::Lower>().solve(y.transpose());
    return h * h * x.cwiseAbs().rowwise().sum().maxCoeff();
}

double bound_omega2(const Eigen::Matrix3d& inertia, const std::vector<Eigen::Matrix3d>& ys, double h) {
    double diagonal[3] = {0.0, 0.0, 0.0};
    for (const Eigen::Matrix3d& y : ys) EXPECT_TRUE(add_stiffness_bound(inertia, y, diagonal));
    return stiffness_bound_omega2(diagonal, h);
}

Eigen::Matrix3d random_rotation(std::mt19937& rng) {
    std::normal_distribution<double> normal;
    Eigen::Quaterniond q(normal(rng), normal(rng), normal(rng), normal(rng));
    return q.normalized().toRotationMatrix();
}

TEST(StiffnessBound, IsAtLeastTheExactNumberForRandomBodiesAndJoints) {
    std::mt19937 rng(12345);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::normal_distribution<double> normal;
    for (int trial = 0; trial < 4000; ++trial) {
        // A body with principal inertias spanning up to 1e3.
        const Eigen::Vector3d principal(std::pow(10.0, -3.0 * unit(rng)), std::pow(10.0, -3.0 * unit(rng)),
                                        std::pow(10.0, -3.0 * unit(rng)));
        const Eigen::Matrix3d r = random_rotation(rng);
        const Eigen::Matrix3d inertia = r * principal.asDiagonal() * r.transpose();
        // 1 to 3 joints: lever-arm-like (T l (I - u u^T)) with a sideways
        // part that makes it indefinite, or wholly random symmetric.
        std::vector<Eigen::Matrix3d> ys;
        const int joints = 1 + trial % 3;
        for (int j = 0; j < joints; ++j) {
            Eigen::Matrix3d y;
            if (trial % 2 == 0) {
                const Eigen::Vector3d u = Eigen::Vector3d(normal(rng), normal(rng), normal(rng)).normalized();
                const Eigen::Vector3d side = Eigen::Vector3d(normal(rng), normal(rng), normal(rng)) * 0.1;
                y = (Eigen::Matrix3d::Identity() - u * u.transpose()) +
                    0.5 * (u * side.transpose() + side * u.transpose());
            } else {
                const Eigen::Matrix3d b = Eigen::Matrix3d::NullaryExpr([&]() { return normal(rng); });
                y = 0.5 * (b + b.transpose());
            }
            ys.push_back(std::pow(10.0, 4.0 * unit(rng) - 2.0) * y);
        }
        const double h = 1e-3;
        const double bound = bound_omega2(inertia, ys, h);
        for (const bool shifted : {false, true}) {
            const double exact = exact_omega2(0.1, inertia, ys, shifted, h);
            ASSERT_LE(exact, bound * (1.0 + 1e-9)) << "trial " << trial << (shifted ? " (shifted form)" : "");
        }
    }
}

TEST(StiffnessBound, PassesTheS1ChainAtOneMillisecond) {
    // The link of the peer harness's S1 chain: 0.1 kg, principal inertia
    // (6.667e-6, 8.667e-5, 8.667e-5) kg m^2 along its length u; the top
    // links of 200 carry ~196 N; the lever arm is half the 0.1 m link, and
    // each joint's two sides add T l (I - u u^T) to Y. In any orientation
    // of the link (a swinging chain's links point every way).
    std::mt19937 rng(7);
    for (int trial = 0; trial < 20; ++trial) {
        const Eigen::Matrix3d r = trial == 0 ? Eigen::Matrix3d::Identity() : random_rotation(rng);
        const Eigen::Matrix3d inertia = r * Eigen::Vector3d(6.667e-6, 8.667e-5, 8.667e-5).asDiagonal() * r.transpose();
        const Eigen::Vector3d u = r.col(0);
        const Eigen::Matrix3d lever = 196.0 * 0.05 * (Eigen::Matrix3d::Identity() - u * u.transpose());
        const std::vector<Eigen::Matrix3d> ys = {2.0 * lever, 2.0 * lever};  // the link's two joints
        const double bound = bound_omega2(inertia, ys, 1e-3);
        const double exact = exact_omega2(0.1, inertia, ys, true, 1e-3);
        EXPECT_LT(bound, 0.9) << "trial " << trial;
        EXPECT_LE(exact, bound * (1.0 + 1e-9)) << "trial " << trial;
        EXPECT_LE(bound, 5.0 * exact) << "trial " << trial;
        // At 60 Hz the same chain is stiff (exact Omega^2 > 1): no bound can pass it.
        EXPECT_GT(exact_omega2(0.1, inertia, ys, true, 1.0 / 60.0), 1.0) << "trial " << trial;
    }
}

TEST(StiffnessBound, RefusesInertiasItCannotVouchFor) {
    double diagonal[3] = {0.0, 0.0, 0.0};
    const Eigen::Matrix3d y = Eigen::Matrix3d::Identity();
    EXPECT_FALSE(add_stiffness_bound(Eigen::Vector3d(1.0, -1.0, 1.0).asDiagonal().toDenseMatrix(), y, diagonal));
    EXPECT_FALSE(add_stiffness_bound(Eigen::Vector3d(1.0, 1.0, 1e-14).asDiagonal().toDenseMatrix(), y, diagonal));
    EXPECT_FALSE(add_stiffness_bound(Eigen::Matrix3d::Constant(NAN), y, diagonal));
    // A thin rod (inertias 1e-12, 1, 1) turned so that its factor's
    // diagonal is even: conditioning, not the factor's diagonal, refuses it.
    std::mt19937 rng(3);
    for (int trial = 0; trial < 10; ++trial) {
        const Eigen::Matrix3d r = random_rotation(rng);
        const Eigen::Matrix3d rod = r * Eigen::Vector3d(1e-12, 1.0, 1.0).asDiagonal() * r.transpose();
        EXPECT_FALSE(add_stiffness_bound(rod, y, diagonal)) << "trial " << trial;
    }
    EXPECT_EQ(diagonal[0], 0.0);
    EXPECT_EQ(diagonal[1], 0.0);
    EXPECT_EQ(diagonal[2], 0.0);
}

}  // namespace
}  // namespace pivot
