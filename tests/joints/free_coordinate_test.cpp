// The free coordinate of revolute (angle about x), prismatic and cylindrical
// (translation along x) joints: its value and rate through coordinate(), its
// limit rows (when they appear, their gap, sign, bounds and flags), and the
// motor row (target, bounds, flags), all through the host's checked calls.
#include <cmath>
#include <string>

#include "joint_test_support.hpp"

namespace pivot::joint_test {
namespace {

struct Coordinated {
    const char* id;
    bool angle;  // else a translation along x
    uint32_t equality_rows;
};
void PrintTo(const Coordinated& c, std::ostream* os) { *os << c.id; }
const Coordinated kJoints[] = {
    {"pivot.joint.revolute", true, 5},
    {"pivot.joint.prismatic", false, 5},
    {"pivot.joint.cylindrical", false, 4},
};

// F1 somewhere, at rest; F2 on the joint's manifold with free coordinate
// `value`, moving along it at `rate` (rad/s or m/s).
struct Pair {
    Frame f1, f2;
};
Pair at_coordinate(bool angle, double value, double rate) {
    Pair p;
    p.f1.p = {0.3, -1.0, 2.0};
    p.f1.q = exp_q(V3{0.4, -0.7, 1.1});
    const V3 axis = p.f1.axis(0);
    p.f2 = p.f1;
    if (angle) {
        p.f2.q = mul(exp_q(value * axis), p.f1.q);
        p.f2.w = rate * axis;
    } else {
        p.f2.p = p.f1.p + value * axis;
        p.f2.v = rate * axis;
    }
    return p;
}

TEST(FreeCoordinate, AngleAboutTheAxisInMinusPiToPi) {
    Joint joint("pivot.joint.revolute");
    for (double a : {0.0, 0.3, -1.2, 2.9, -3.1, 3.14159}) {
        const Pair p = at_coordinate(true, a, 0.7);
        const auto s = joint.coordinate(p.f1, p.f2);
        EXPECT_NEAR(s[0], a, 1e-12) << a;
        EXPECT_NEAR(s[1], 0.7, 1e-12) << a;
    }
    // Exactly pi: the value is +-pi (the cut), never anything else.
    const Pair half_turn = at_coordinate(true, M_PI, 0.0);
    EXPECT_NEAR(std::fabs(joint.coordinate(half_turn.f1, half_turn.f2)[0]), M_PI, 1e-12);
    // Off the manifold the angle is the twist about x of the relative
    // rotation: a tilt about z1 applied after the turn about x leaves it.
    Pair tilted = at_coordinate(true, 1.0, 0.0);
    tilted.f2.q = mul(exp_q(0.3 * tilted.f1.axis(2)), tilted.f2.q);
    tilted.f2.p = tilted.f2.p + V3{0.1, 0.2, -0.1};
    EXPECT_NEAR(joint.coordinate(tilted.f1, tilted.f2)[0], 1.0, 1e-12);
}

TEST(FreeCoordinate, TranslationAlongTheAxis) {
    for (const char* id : {"pivot.joint.prismatic", "pivot.joint.cylindrical"}) {
        Joint joint(id);
        for (double t : {0.0, 0.25, -3.5}) {
            Pair p = at_coordinate(false, t, -0.4);
            p.f2.p = p.f2.p + 0.05 * p.f1.axis(1);  // an off-axis offset does not count
            const auto s = joint.coordinate(p.f1, p.f2);
            EXPECT_NEAR(s[0], t, 1e-12) << id;
            EXPECT_NEAR(s[1], -0.4, 1e-12) << id;
        }
        // F1 turning carries the axis: ds/dt = x1.(v2 - v1) + w1.(x1 x d).
        Pair p = at_coordinate(false, 2.0, 0.0);
        p.f1.w = 0.5 * p.f1.axis(2);        // x1 turns toward y1 at 0.5 rad/s
        p.f2.p = p.f2.p + 1.0 * p.f1.axis(1);  // d = 2 x1 + y1
        EXPECT_NEAR(joint.coordinate(p.f1, p.f2)[1], 0.5, 1e-12) << id;
    }
}

class FreeCoordinateRows : public ::testing::TestWithParam<Coordinated> {
protected:
    // The joint with limits [lower, upper] and the given extra parameters.
    Joint limited(double lower, double upper) const {
        return Joint(GetParam().id, {{"limits_enabled", true}, {"lower", lower}, {"upper", upper}});
    }
    // Rows at coordinate `value` moving at `rate`, h = 0.01.
    Rows rows(const Joint& joint, double value, double rate) const {
        const Pair p = at_coordinate(GetParam().angle, value, rate);
        return joint.rows(p.f1, p.f2, 0.01);
    }
    double rate_of(const Rows& r, uint32_t row, double value, double rate) const {
        const Pair p = at_coordinate(GetParam().angle, value, rate);
        return r.rate(row, p.f1, p.f2);
    }
};

TEST_P(FreeCoordinateRows, NoLimitRowFarFromTheLimits) {
    const uint32_t eq = GetParam().equality_rows;
    const Joint joint = limited(-1.0, 1.0);
    EXPECT_EQ(rows(joint, 0.0, 0.5).count, eq);
    EXPECT_EQ(rows(joint, 0.95, 1.0).count, eq);  // 0.05 away, 2 h |rate| = 0.02
    EXPECT_EQ(rows(joint, -0.95, -1.0).count, eq);
    // Disabled limits write nothing, even far past them.
    const Joint free(GetParam().id, {{"lower", -1.0}, {"upper", 1.0}});
    EXPECT_EQ(rows(free, -1.5, 0.0).count, eq);
    EXPECT_EQ(rows(free, 1.5, 0.0).count, eq);
}

TEST_P(FreeCoordinateRows, ViolatedLimitsGiveAUnilateralRowWithTheGap) {
    const uint32_t eq = GetParam().equality_rows;
    const Joint joint = limited(-1.0, 1.0);
    struct Case {
        double value, rate, gap, sign;  // sign: d(gap)/dt = sign * rate
    };
    for (const Case c : {Case{-1.2, 0.3, -0.2, +1}, Case{1.2, 0.3, -0.2, -1}, Case{1.0, 0.0, 0.0, -1},
                         Case{-1.0, 0.0, 0.0, +1}, Case{-1.3, -2.0, -0.3, +1}}) {
        const Rows r = rows(joint, c.value, c.rate);
        ASSERT_EQ(r.count, eq + 1) << c.value;
        const pivot_row& limit = r.rows[eq];
        EXPECT_NEAR(limit.violation, c.gap, 1e-12) << c.value;
        EXPECT_EQ(limit.lower, 0.0);
        EXPECT_EQ(limit.upper, HUGE_VAL);
        EXPECT_EQ(limit.flags, 0u);
        EXPECT_EQ(limit.compliance, 0.0);
        EXPECT_EQ(limit.target_velocity, 0.0);
        EXPECT_EQ(limit.findex, -1);
        EXPECT_NEAR(rate_of(r, eq, c.value, c.rate), c.sign * c.rate, 1e-12) << c.value;
    }
}

TEST_P(FreeCoordinateRows, ALimitReachableWithinTwoStepsIsCaughtSpeculatively) {
    const uint32_t eq = GetParam().equality_rows;
    const Joint joint = limited(-1.0, 1.0);
    // 0.05 from the upper limit at 10 per second: 2 h |rate| = 0.2 > 0.05.
    Rows r = rows(joint, 0.95, 10.0);
    ASSERT_EQ(r.count, eq + 1);
    EXPECT_NEAR(r.rows[eq].violation, 0.05, 1e-12);
    EXPECT_NEAR(rate_of(r, eq, 0.95, 10.0), -10.0, 1e-10);
    // The same near the lower limit.
    r = rows(joint, -0.95, -10.0);
    ASSERT_EQ(r.count, eq + 1);
    EXPECT_NEAR(r.rows[eq].violation, 0.05, 1e-12);
    EXPECT_NEAR(rate_of(r, eq, -0.95, -10.0), -10.0, 1e-10);  // gap closing
}

TEST_P(FreeCoordinateRows, AtMostOneLimitRowForANarrowOrReversedRange) {
    const uint32_t eq = GetParam().equality_rows;
    // lower = upper: the violated side, else the side the coordinate moves toward.
    const Joint locked = limited(0.5, 0.5);
    Rows r = rows(locked, 0.51, 0.0);
    ASSERT_EQ(r.count, eq + 1);
    EXPECT_NEAR(r.rows[eq].violation, -0.01, 1e-12);  // upper
    r = rows(locked, 0.49, 0.0);
    ASSERT_EQ(r.count, eq + 1);
    EXPECT_NEAR(r.rows[eq].violation, -0.01, 1e-12);  // lower
    EXPECT_NEAR(rate_of(r, eq, 0.49, 1.0), 1.0, 1e-12);
    r = rows(locked, 0.5, 5.0);
    ASSERT_EQ(r.count, eq + 1);
    EXPECT_NEAR(rate_of(r, eq, 0.5, 5.0), -5.0, 1e-10);  // the upper limit's row
    r = rows(locked, 0.5, -5.0);
    ASSERT_EQ(r.count, eq + 1);
    EXPECT_NEAR(rate_of(r, eq, 0.5, -5.0), -5.0, 1e-10);  // the lower limit's row
    // lower > upper is the range [upper, lower].
    const Joint reversed = limited(1.0, -1.0);
    r = rows(reversed, -1.2, 0.0);
    ASSERT_EQ(r.count, eq + 1);
    EXPECT_NEAR(r.rows[eq].violation, -0.2, 1e-12);
    EXPECT_EQ(rows(reversed, 0.0, 0.0).count, eq);
}

TEST_P(FreeCoordinateRows, MotorRowDrivesTheRateWithinTheForceBounds) {
    const uint32_t eq = GetParam().equality_rows;
    Joint joint(GetParam().id,
                {{"motor_enabled", true}, {"motor_velocity", 2.0}, {"motor_max_force", 5.0}, {"compliance", 1e-6},
                 {"damping", 3.0}});
    Rows r = rows(joint, 0.3, 0.7);
    uint32_t damping_rows = 0;  // the joint's damping adds its rows after the motor
    for (const JointType& t : joint_types()) {
        if (t.id == std::string(GetParam().id)) damping_rows = t.damping_rows;
    }
    ASSERT_EQ(r.count, eq + 1 + damping_rows);
    const pivot_row& motor = r.rows[eq];
    EXPECT_EQ(motor.violation, 0.0);
    EXPECT_EQ(motor.target_velocity, 2.0);
    EXPECT_EQ(motor.lower, -5.0);
    EXPECT_EQ(motor.upper, 5.0);
    EXPECT_EQ(motor.flags, static_cast<uint32_t>(PIVOT_ROW_MOTOR | PIVOT_ROW_NO_STABILIZATION));
    EXPECT_EQ(motor.compliance, 0.0);
    EXPECT_EQ(motor.damping, 0.0);
    EXPECT_EQ(motor.findex, -1);
    EXPECT_NEAR(rate_of(r, eq, 0.3, 0.7), 0.7, 1e-12);  // J v is the coordinate's rate
    for (uint32_t k = 0; k < eq; ++k) {
        EXPECT_EQ(r.rows[k].compliance, 1e-6);
        EXPECT_EQ(r.rows[k].damping, 3.0);
    }
    // With a limit too: equality rows, motor, limit (and damping rows: the
    // declared maximum).
    // The motor keeps its slot whether the limit row is written or not: the
    // host warm-starts row k with last step's row k (plugin_joint.h), and
    // with the limit before it the motor took the limit's impulse each time
    // the limit came or went.
    joint.set({{"motor_enabled", true}, {"motor_velocity", -1.0}, {"motor_max_force", 5.0},
               {"limits_enabled", true}, {"lower", 0.4}, {"upper", 0.8}});
    r = rows(joint, 0.3, 0.0);
    ASSERT_EQ(r.count, eq + 2);
    joint.set({{"motor_enabled", true}, {"motor_velocity", -1.0}, {"motor_max_force", 5.0}, {"damping", 1.0},
               {"limits_enabled", true}, {"lower", 0.4}, {"upper", 0.8}});
    EXPECT_EQ(rows(joint, 0.3, 0.0).count, joint.max_rows());
    EXPECT_EQ(rows(joint, 0.3, 0.0).rows[joint.max_rows() - 1].lower, 0.0);  // the limit row is last
    joint.set({{"motor_enabled", true}, {"motor_velocity", -1.0}, {"motor_max_force", 5.0},
               {"limits_enabled", true}, {"lower", 0.4}, {"upper", 0.8}});
    EXPECT_EQ(r.rows[eq].target_velocity, -1.0);
    EXPECT_NEAR(r.rows[eq + 1].violation, -0.1, 1e-12);
    r = rows(joint, 0.6, 0.0);  // inside the range: no limit row
    ASSERT_EQ(r.count, eq + 1);
    EXPECT_EQ(r.rows[eq].target_velocity, -1.0);
    // A motor without force cannot act: no row.
    joint.set({{"motor_enabled", true}, {"motor_velocity", 2.0}, {"motor_max_force", 0.0}});
    EXPECT_EQ(rows(joint, 0.3, 0.7).count, eq);
}

// The drive modes (ABI 1.7, joint_common.hpp "Motor row"): what each puts
// in the row, so that the host's law c f = -phi - (h + d c)(J v+ - target)
// is the mode's.
TEST_P(FreeCoordinateRows, MotorModesWriteTheirLawIntoTheRow) {
    const uint32_t eq = GetParam().equality_rows;
    const double h = 0.01;
    // Position: phi = s - target, the feed-forward rate, c = 1/k, d, stabilized.
    Joint joint(GetParam().id, {{"motor_enabled", true}, {"motor_mode", "position"}, {"motor_position", 0.5},
                                {"motor_velocity", 0.25}, {"motor_stiffness", 400.0}, {"motor_damping", 7.0},
                                {"motor_max_force", 50.0}});
    Rows r = rows(joint, 0.3, 0.7);
    ASSERT_EQ(r.count, eq + 1);
    EXPECT_NEAR(r.rows[eq].violation, -0.2, 1e-12);
    EXPECT_EQ(r.rows[eq].target_velocity, 0.25);
    EXPECT_EQ(r.rows[eq].compliance, 1.0 / 400.0);
    EXPECT_EQ(r.rows[eq].damping, 7.0);
    EXPECT_EQ(r.rows[eq].lower, -50.0);
    EXPECT_EQ(r.rows[eq].upper, 50.0);
    EXPECT_EQ(r.rows[eq].flags, static_cast<uint32_t>(PIVOT_ROW_MOTOR));
    EXPECT_NEAR(rate_of(r, eq, 0.3, 0.7), 0.7, 1e-12);
    // Stiffness 0: a rigid servo (compliance 0).
    joint.set({{"motor_enabled", true}, {"motor_mode", "position"}, {"motor_position", 0.5},
               {"motor_max_force", 50.0}});
    EXPECT_EQ(rows(joint, 0.3, 0.7).rows[eq].compliance, 0.0);
    if (GetParam().angle) {
        // An angle's error is wrapped into [-pi, pi]: from 3.0 to -3.0 is
        // 2 pi - 6 = 0.283 rad forward, an error of -0.283.
        joint.set({{"motor_enabled", true}, {"motor_mode", "position"}, {"motor_position", -3.0},
                   {"motor_max_force", 50.0}});
        EXPECT_NEAR(rows(joint, 3.0, 0.0).rows[eq].violation, 6.0 - 2 * M_PI, 1e-12);
    }
    // Velocity with damping: c = h/d, unstabilized: f = -d (J v+ - target).
    joint.set({{"motor_enabled", true}, {"motor_velocity", 2.0}, {"motor_damping", 8.0}, {"motor_max_force", 50.0}});
    r = rows(joint, 0.3, 0.7);
    EXPECT_EQ(r.rows[eq].compliance, h / 8.0);
    EXPECT_EQ(r.rows[eq].damping, 0.0);
    EXPECT_EQ(r.rows[eq].target_velocity, 2.0);
    EXPECT_EQ(r.rows[eq].flags, static_cast<uint32_t>(PIVOT_ROW_MOTOR | PIVOT_ROW_NO_STABILIZATION));
    // Force: bounds [f, f], clamped to the bound.
    for (const auto& [force, applied] : {std::pair{3.0, 3.0}, std::pair{-80.0, -50.0}, std::pair{80.0, 50.0}}) {
        joint.set({{"motor_enabled", true}, {"motor_mode", "force"}, {"motor_force", force}, {"motor_velocity", 9.0},
                   {"motor_max_force", 50.0}});
        r = rows(joint, 0.3, 0.7);
        ASSERT_EQ(r.count, eq + 1);
        EXPECT_EQ(r.rows[eq].lower, applied);
        EXPECT_EQ(r.rows[eq].upper, applied);
        EXPECT_EQ(r.rows[eq].target_velocity, 0.0);
        EXPECT_EQ(r.rows[eq].compliance, 0.0);
        EXPECT_EQ(r.rows[eq].flags, static_cast<uint32_t>(PIVOT_ROW_MOTOR | PIVOT_ROW_NO_STABILIZATION));
    }
}

INSTANTIATE_TEST_SUITE_P(FreeCoordinateJoints, FreeCoordinateRows, ::testing::ValuesIn(kJoints),
                         [](const ::testing::TestParamInfo<Coordinated>& param_info) {
                             return short_name(param_info.param.id);
                         });

}  // namespace
}  // namespace pivot::joint_test
