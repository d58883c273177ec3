// Every row of every joint type: the Jacobian is the exact time derivative
// of the violation, checked by central differences along rigid motions of
// both frames, near the constraint manifold and far from it. Also the free
// coordinate's rate (coordinate()) and the motor row's Jacobian against the
// finite difference of the coordinate.
//
// The frames move with constant twists: p(t) = p + v t, q(t) = exp(w t) q
// (w in world coordinates, so the increment multiplies from the left), which
// is the motion whose twist is (v, w) at every t. For a smooth phi,
//   (phi(dt) - phi(-dt)) / (2 dt) = dphi/dt + dt^2/6 phi'''(xi),
// and rounding adds about eps |phi| / dt. Here |v|, |w| <= 3.5, the frames'
// separation <= 2 m and phi is a polynomial in positions, axes and their
// products, so |phi'''| is at most a few hundred: with dt = 1e-5 the
// truncation is below 1e-8 and the rounding below 1e-10. The tolerance
// 1e-7 (1 + |J v|) sits above both, and a wrong Jacobian term (an error of
// order |v| or |w| ~ 1) is far outside it.
#include <cmath>
#include <string>

#include "joint_test_support.hpp"

namespace pivot::joint_test {
namespace {

constexpr double kDt = 1e-5;
double tolerance(double rate) { return 1e-7 * (1.0 + std::fabs(rate)); }

struct Config {
    Frame f1, f2;
    double length = 1.0;  // distance joint only
    const char* kind = "";
};

// Frame 2 near frame 1 (within 1e-3 m and 1e-3 rad) or far from it (within
// 1 m and 2 rad, so that the relative rotation stays away from pi, where the
// orientation rows switch sign and the angle is undefined). The distance
// joint's anchors are 0.5..1.5 m apart, its length near or far from that.
Config make_config(Random& rng, bool far, bool distance) {
    Config c;
    c.kind = far ? "far" : "near";
    c.f1.p = rng.vec(-2, 2);
    c.f1.q = rng.quaternion();
    const double offset = far ? 1.0 : 1e-3;
    c.f2.p = c.f1.p + rng.vec(-offset, offset);
    c.f2.q = mul(exp_q(rng.rotation(far ? 2.0 : 1e-3)), c.f1.q);
    if (distance) {
        const V3 dir = rng.rotation(1.0);
        const double r = rng.uniform(0.5, 1.5);
        c.f2.p = c.f1.p + (r / length(dir)) * dir;
        c.length = far ? rng.uniform(0.0, 2.0) : r + rng.uniform(-1e-3, 1e-3);
    }
    for (Frame* f : {&c.f1, &c.f2}) {
        f->v = rng.vec(-2, 2);
        f->w = rng.vec(-2, 2);
    }
    return c;
}

// Checks every row but the motor's (whose violation is 0 by definition)
// against central differences; returns the number of rows checked.
uint32_t check_rows(const Joint& joint, const Config& c, const std::string& where) {
    const Rows at = joint.rows(c.f1, c.f2);
    const Rows plus = joint.rows(c.f1.moved(kDt), c.f2.moved(kDt));
    const Rows minus = joint.rows(c.f1.moved(-kDt), c.f2.moved(-kDt));
    EXPECT_EQ(plus.count, at.count) << where;
    EXPECT_EQ(minus.count, at.count) << where;
    if (plus.count != at.count || minus.count != at.count) return 0;
    uint32_t checked = 0;
    for (uint32_t r = 0; r < at.count; ++r) {
        if (at.rows[r].flags & PIVOT_ROW_NO_STABILIZATION) continue;  // the motor
        const double fd = (plus.rows[r].violation - minus.rows[r].violation) / (2 * kDt);
        const double jv = at.rate(r, c.f1, c.f2);
        EXPECT_NEAR(fd, jv, tolerance(jv)) << where << " row " << r;
        ++checked;
    }
    return checked;
}

class JacobianByFiniteDifferences : public ::testing::TestWithParam<JointType> {};

TEST_P(JacobianByFiniteDifferences, EqualityRowsNearAndFarFromTheManifold) {
    const JointType type = GetParam();
    const bool distance = std::string(type.id) == "pivot.joint.distance";
    Joint joint(type.id);
    Random rng(12345);
    for (int k = 0; k < 24; ++k) {
        const Config c = make_config(rng, k % 2 == 1, distance);
        if (distance) joint.set({{"length", c.length}});
        const std::string where = std::string(type.id) + " " + c.kind + " config " + std::to_string(k);
        const Rows at = joint.rows(c.f1, c.f2);
        ASSERT_EQ(at.count, type.equality_rows) << where;
        EXPECT_EQ(check_rows(joint, c, where), type.equality_rows) << where;
    }
}

class FreeCoordinateByFiniteDifferences : public ::testing::TestWithParam<JointType> {};

TEST_P(FreeCoordinateByFiniteDifferences, LimitAndMotorRowsAndTheFreeCoordinateRate) {
    const JointType type = GetParam();
    Joint joint(type.id);
    Random rng(777);
    for (int k = 0; k < 24; ++k) {
        const Config c = make_config(rng, k % 2 == 1, false);
        const std::string where = std::string(type.id) + " " + c.kind + " config " + std::to_string(k);

        // The coordinate's rate against its central difference.
        const auto s = joint.coordinate(c.f1, c.f2);
        const double s_plus = joint.coordinate(c.f1.moved(kDt), c.f2.moved(kDt))[0];
        const double s_minus = joint.coordinate(c.f1.moved(-kDt), c.f2.moved(-kDt))[0];
        const double fd_rate = (s_plus - s_minus) / (2 * kDt);
        EXPECT_NEAR(s[1], fd_rate, tolerance(s[1])) << where;

        // Lower limit violated by 0.5 (the upper 0.6 away): one lower-limit row.
        joint.set({{"limits_enabled", true}, {"lower", s[0] + 0.5}, {"upper", s[0] + 0.6}});
        Rows rows = joint.rows(c.f1, c.f2);
        ASSERT_EQ(rows.count, type.equality_rows + 1) << where;
        EXPECT_NEAR(rows.rows[type.equality_rows].violation, -0.5, 1e-12) << where;
        EXPECT_NEAR(rows.rate(type.equality_rows, c.f1, c.f2), s[1], tolerance(s[1])) << where;
        EXPECT_EQ(check_rows(joint, c, where + " lower limit"), type.equality_rows + 1);

        // Upper limit violated by 0.5: the row's rate is minus the coordinate's.
        joint.set({{"limits_enabled", true}, {"lower", s[0] - 0.6}, {"upper", s[0] - 0.5}});
        rows = joint.rows(c.f1, c.f2);
        ASSERT_EQ(rows.count, type.equality_rows + 1) << where;
        EXPECT_NEAR(rows.rows[type.equality_rows].violation, -0.5, 1e-12) << where;
        EXPECT_NEAR(rows.rate(type.equality_rows, c.f1, c.f2), -s[1], tolerance(s[1])) << where;
        EXPECT_EQ(check_rows(joint, c, where + " upper limit"), type.equality_rows + 1);

        // The motor row's J v is the coordinate's rate (its violation is 0,
        // so it is checked against the coordinate's finite difference).
        joint.set({{"motor_enabled", true}, {"motor_velocity", 1.0}, {"motor_max_force", 5.0}});
        rows = joint.rows(c.f1, c.f2);
        ASSERT_EQ(rows.count, type.equality_rows + 1) << where;
        EXPECT_NEAR(rows.rate(type.equality_rows, c.f1, c.f2), fd_rate, tolerance(fd_rate)) << where;
        EXPECT_EQ(check_rows(joint, c, where + " motor"), type.equality_rows);

        // A position drive's row is stabilized: its violation s - target
        // is checked against J v like an equality row's.
        joint.set({{"motor_enabled", true}, {"motor_mode", "position"}, {"motor_position", s[0] - 0.1},
                   {"motor_stiffness", 100.0}, {"motor_max_force", 5.0}});
        rows = joint.rows(c.f1, c.f2);
        ASSERT_EQ(rows.count, type.equality_rows + 1) << where;
        EXPECT_NEAR(rows.rows[type.equality_rows].violation, 0.1, 1e-12) << where;
        EXPECT_EQ(check_rows(joint, c, where + " position drive"), type.equality_rows + 1);
        joint.set(nlohmann::json::object());
    }
}

std::string test_name(const ::testing::TestParamInfo<JointType>& param_info) {
    return short_name(param_info.param.id);
}
INSTANTIATE_TEST_SUITE_P(AllJoints, JacobianByFiniteDifferences, ::testing::ValuesIn(joint_types()), test_name);
INSTANTIATE_TEST_SUITE_P(FreeCoordinateJoints, FreeCoordinateByFiniteDifferences,
                         ::testing::ValuesIn(free_coordinate_types()), test_name);

}  // namespace
}  // namespace pivot::joint_test
