// geometric_stiffness (ABI 1.3) of every first-party joint: the frame
// wrenches F = J(frames)^T f at constant row forces f change, for a frame
// displacement xi = (dp1, dtheta1, dp2, dtheta2), as dF = -K xi. Checked
// by central differences of F at frames moved by +-eps along each of the 12
// displacement directions (origins shifted, orientations turned from the
// left by exp(dtheta)), at random configurations on and off the joints'
// manifolds with random row forces. eps = 1e-6: the truncation error is
// ~ |f| eps^2 and the rounding ~ 1e-16 |f| / eps, so the difference is
// ~1e-9 of the entries' scale (|f| |d|, |f|); the tolerance is 1e-7 of it.
#include <algorithm>
#include <cmath>
#include <vector>

#include "joint_test_support.hpp"

namespace pivot::joint_test {
namespace {

using Matrix12 = std::array<double, 144>;

Matrix12 stiffness(const Joint& joint, const Frame& f1, const Frame& f2, const std::vector<double>& forces) {
    const auto p1 = f1.pose(), p2 = f2.pose();
    const auto t1 = f1.twist(), t2 = f2.twist();
    const pivot_joint_batch batch{1, static_cast<uint32_t>(joint.params().size()), joint.params().data(), p1.data(),
                                  p2.data(), t1.data(), t2.data()};
    pivot_step_info step{};
    step.struct_size = sizeof(step);
    step.timestep = 0.01;
    Matrix12 k{};
    const CallResult r =
        checked_joint_geometric_stiffness(joint.instance(), batch, step, forces.data(), unguarded(k.data()));
    EXPECT_TRUE(r.ok()) << r.message;
    return k;
}

// F = sum_k f_k J_k (12 values).
std::array<double, 12> wrenches(const Joint& joint, const Frame& f1, const Frame& f2, const std::vector<double>& forces,
                                uint32_t expected_rows) {
    const Rows rows = joint.rows(f1, f2);
    EXPECT_EQ(rows.count, expected_rows);
    std::array<double, 12> f{};
    for (uint32_t r = 0; r < rows.count; ++r) {
        for (uint32_t c = 0; c < kWidth; ++c) f[c] += forces[r] * rows.jac[kWidth * r + c];
    }
    return f;
}

// Frames moved by a displacement of one of the 12 directions.
void displace(Frame& f1, Frame& f2, int direction, double amount) {
    Frame& f = direction < 6 ? f1 : f2;
    const int d = direction % 6;
    V3 e{d % 3 == 0 ? 1.0 : 0.0, d % 3 == 1 ? 1.0 : 0.0, d % 3 == 2 ? 1.0 : 0.0};
    if (d < 3) f.p = f.p + amount * e;
    else f.q = mul(exp_q(amount * e), f.q);
}

// The largest |K - K_fd| over the entries, and the entries' scale.
std::array<double, 2> compare(const Joint& joint, const Frame& f1, const Frame& f2, const std::vector<double>& forces,
                              uint32_t rows) {
    const Matrix12 k = stiffness(joint, f1, f2, forces);
    const double eps = 1e-6;
    double worst = 0.0, scale = 0.0;
    for (int c = 0; c < 12; ++c) {
        Frame a1 = f1, a2 = f2, b1 = f1, b2 = f2;
        displace(a1, a2, c, eps);
        displace(b1, b2, c, -eps);
        const auto plus = wrenches(joint, a1, a2, forces, rows);
        const auto minus = wrenches(joint, b1, b2, forces, rows);
        for (int r = 0; r < 12; ++r) {
            const double fd = -(plus[r] - minus[r]) / (2 * eps);
            worst = std::max(worst, std::abs(fd - k[r + 12 * c]));
            scale = std::max(scale, std::abs(fd));
        }
    }
    return {worst, scale};
}

class GeometricStiffness : public ::testing::TestWithParam<JointType> {};

TEST_P(GeometricStiffness, MatchesFiniteDifferencesOnAndOffTheManifold) {
    const JointType& type = GetParam();
    const bool distance = std::string(type.id) == "pivot.joint.distance";
    // With joint damping: its rows turn with the frames too (universal:
    // about x1 and y2; the others' along the free coordinate or constant).
    Joint joint(type.id, distance ? nlohmann::json{{"length", 0.7}} : nlohmann::json{{"damping", 5.0}});
    const uint32_t rows = type.equality_rows + type.damping_rows;
    const bool angle_damping =
        std::string(type.id) == "pivot.joint.revolute" || std::string(type.id) == "pivot.joint.cylindrical";
    Random random(0x5eed + type.equality_rows);
    for (int trial = 0; trial < 20; ++trial) {
        Frame f1, f2;
        f1.p = random.vec(-1, 1);
        f1.q = random.quaternion();
        f2 = f1;
        if (distance) f2.p = f1.p + 0.7 * rotate(random.quaternion(), V3{1, 0, 0});
        // Off the manifold by up to 0.05 m / 0.1 rad in half the trials.
        if (trial % 2 == 1) {
            f2.p = f2.p + random.vec(-0.05, 0.05);
            f2.q = mul(exp_q(random.rotation(0.1)), f2.q);
        }
        std::vector<double> forces(joint.max_rows(), 0.0);
        for (uint32_t r = 0; r < rows; ++r) forces[r] = random.uniform(-50, 50);
        // The damping row of an angle (revolute, cylindrical: written last)
        // has the angle rows' stiffness, exact on the manifold only (see
        // AngleMotorRowIsExactForTurnsAboutTheAxis below): off it, no force.
        if (trial % 2 == 1 && angle_damping) forces[rows - 1] = 0.0;
        const auto [worst, scale] = compare(joint, f1, f2, forces, rows);
        EXPECT_LE(worst, 1e-7 * std::max(scale, 1.0)) << type.id << " trial " << trial;
    }
}

std::string joint_name(const ::testing::TestParamInfo<JointType>& p) { return short_name(p.param.id); }
INSTANTIATE_TEST_SUITE_P(Joints, GeometricStiffness, ::testing::ValuesIn(joint_types()), joint_name);

// A ball joint's point rows act along world axes: no stiffness of its own
// (the lever arms' part is the element's frame_stiffness).
TEST(GeometricStiffnessOfRows, PointRowsHaveNone) {
    Joint joint("pivot.joint.spherical");
    Frame f1, f2;
    f1.q = exp_q(V3{0.3, -0.2, 0.9});
    f2.p = V3{0.01, 0.0, -0.02};
    const Matrix12 k = stiffness(joint, f1, f2, {10.0, -20.0, 30.0});
    for (double x : k) EXPECT_EQ(x, 0.0);
}

// The free coordinate's limit and motor rows: a translation's (a line row
// along x1) is exact everywhere; an angle's gradient is taken to turn with
// the mean of the two frames (joint_stiffness.hpp), exact on the manifold
// for the turn about the axis, first order in the angular violation
// otherwise. Measured here: on the manifold the difference is within the
// finite-difference noise except for tilts of the axis, where it is a
// fixed fraction of |f| (the gradient's own change with a tilt, which
// the approximation does not model): bounded by 0.5 |f| per radian.
TEST(GeometricStiffnessOfRows, MotorRowsOfTranslationsAreExact) {
    for (const char* id : {"pivot.joint.prismatic", "pivot.joint.cylindrical"}) {
        Joint joint(id, {{"motor_enabled", true}, {"motor_velocity", 0.3}, {"motor_max_force", 100.0}});
        Random random(7);
        const uint32_t equality = std::string(id) == "pivot.joint.prismatic" ? 5 : 4;
        for (int trial = 0; trial < 10; ++trial) {
            Frame f1, f2;
            f1.p = random.vec(-1, 1);
            f1.q = random.quaternion();
            f2 = f1;
            f2.p = f1.p + random.uniform(-0.5, 0.5) * f1.axis(0) + random.vec(-0.02, 0.02);
            std::vector<double> forces(joint.max_rows(), 0.0);
            for (uint32_t r = 0; r < equality + 1; ++r) forces[r] = random.uniform(-50, 50);
            const auto [worst, scale] = compare(joint, f1, f2, forces, equality + 1);
            EXPECT_LE(worst, 1e-7 * std::max(scale, 1.0)) << id << " trial " << trial;
        }
    }
}

TEST(GeometricStiffnessOfRows, AngleMotorRowIsExactForTurnsAboutTheAxis) {
    Joint joint("pivot.joint.revolute", {{"motor_enabled", true}, {"motor_velocity", 0.3}, {"motor_max_force", 100.0}});
    Frame f1, f2;
    f1.p = V3{0.2, -0.1, 0.4};
    f1.q = exp_q(V3{0.3, -0.5, 0.8});
    f2 = f1;
    f2.q = mul(exp_q(0.6 * f1.axis(0)), f1.q);  // on the manifold, turned by 0.6 rad about the axis
    std::vector<double> forces(joint.max_rows(), 0.0);
    forces[5] = 40.0;  // the motor row only
    const Matrix12 k = stiffness(joint, f1, f2, forces);
    // Turning both frames together about any axis turns the motor's torque
    // with them: dF_theta2 = (dtheta x g) f.
    const double eps = 1e-6;
    double worst_common = 0.0;
    for (int axis = 0; axis < 3; ++axis) {
        Frame a1 = f1, a2 = f2, b1 = f1, b2 = f2;
        displace(a1, a2, 3 + axis, eps), displace(a1, a2, 9 + axis, eps);
        displace(b1, b2, 3 + axis, -eps), displace(b1, b2, 9 + axis, -eps);
        const auto plus = wrenches(joint, a1, a2, forces, 6), minus = wrenches(joint, b1, b2, forces, 6);
        for (int r = 0; r < 12; ++r) {
            const double fd = -(plus[r] - minus[r]) / (2 * eps);
            worst_common = std::max(worst_common, std::abs(fd - (k[r + 12 * (3 + axis)] + k[r + 12 * (9 + axis)])));
        }
    }
    EXPECT_LT(worst_common, 1e-6) << worst_common;
    // The relative turn about the axis moves the angle, not the gradient.
    Frame a1 = f1, a2 = f2, b1 = f1, b2 = f2;
    const V3 x = f1.axis(0);
    a2.q = mul(exp_q(eps * x), f2.q);
    b2.q = mul(exp_q(-eps * x), f2.q);
    const auto plus = wrenches(joint, a1, a2, forces, 6), minus = wrenches(joint, b1, b2, forces, 6);
    for (int r = 0; r < 12; ++r) {
        const double fd = -(plus[r] - minus[r]) / (2 * eps);
        const double an = k[r + 12 * 9] * x.x + k[r + 12 * 10] * x.y + k[r + 12 * 11] * x.z;
        EXPECT_NEAR(fd, an, 1e-6) << r;
    }
}

}  // namespace
}  // namespace pivot::joint_test
