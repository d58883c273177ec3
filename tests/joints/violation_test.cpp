// What each joint removes: its equality rows vanish when the frames coincide
// and along the joint's free motions (however large), and each constrained
// relative DOF (translation along, or rotation about, an axis of F1) gives a
// violation. Also the descriptors, the parameters passed through, batches of
// several joints, the distance joint (including coinciding anchors) and bad
// inputs that must not produce NaN.
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "joint_test_support.hpp"

namespace pivot::joint_test {
namespace {

// The six relative DOF of F2 w.r.t. F1, along / about F1's axes.
enum Dof { kTx, kTy, kTz, kRx, kRy, kRz };
const char* const kDofNames[] = {"tx", "ty", "tz", "rx", "ry", "rz"};

// F2 moved from F1 by `amount` (m or rad) in one DOF.
Frame displaced(const Frame& f1, int dof, double amount) {
    Frame f2 = f1;
    if (dof < 3) f2.p = f1.p + amount * f1.axis(dof);
    else f2.q = mul(exp_q(amount * f1.axis(dof - 3)), f1.q);
    return f2;
}

struct Removes {
    const char* id;
    bool constrained[6];  // tx ty tz rx ry rz
};
const Removes kRemoves[] = {
    {"pivot.joint.fixed", {true, true, true, true, true, true}},
    {"pivot.joint.spherical", {true, true, true, false, false, false}},
    {"pivot.joint.revolute", {true, true, true, false, true, true}},
    {"pivot.joint.prismatic", {false, true, true, true, true, true}},
    {"pivot.joint.cylindrical", {false, true, true, false, true, true}},
    // The free rotations are about axis1 = x1 and axis2 = y2 (= y1 at coincidence).
    {"pivot.joint.universal", {true, true, true, false, false, true}},
};

TEST(JointViolation, ZeroAtCoincidingFramesAndNonzeroForEachConstrainedDof) {
    Random rng(99);
    for (const Removes& joint_case : kRemoves) {
        Joint joint(joint_case.id);
        for (int trial = 0; trial < 4; ++trial) {
            Frame f1;
            f1.p = rng.vec(-3, 3);
            f1.q = rng.quaternion();
            const Rows at = joint.rows(f1, f1);
            EXPECT_LT(at.max_equality_violation(), 1e-15) << joint_case.id;
            for (int dof = 0; dof < 6; ++dof) {
                const bool constrained = joint_case.constrained[dof];
                for (double amount : {1e-3, -0.4, 1.2}) {
                    const Rows rows = joint.rows(f1, displaced(f1, dof, amount));
                    const double m = rows.max_equality_violation();
                    const std::string where = std::string(joint_case.id) + " " + kDofNames[dof] + " by " +
                                              std::to_string(amount);
                    // A constrained DOF shows at least sin(|amount|) / 2 (a
                    // rotation by a changes a perpendicularity row by sin a
                    // and a quaternion row by 2 sin(a/2)); a free one nothing.
                    if (constrained) EXPECT_GT(m, 0.5 * std::sin(std::fabs(amount))) << where;
                    else EXPECT_LT(m, 1e-14) << where;
                }
            }
        }
    }
}

TEST(JointViolation, UniversalAllowsBothCrossAxesAtOnce) {
    // Turn about axis1 (x1), then about axis2 (F2's y): still no violation.
    Joint joint("pivot.joint.universal");
    Frame f1;
    f1.q = exp_q(V3{0.3, -0.2, 0.5});
    Frame f2 = displaced(f1, kRx, 0.7);
    f2.q = mul(exp_q(-0.9 * f2.axis(1)), f2.q);
    EXPECT_LT(joint.rows(f1, f2).max_equality_violation(), 1e-15);
}

TEST(JointViolation, TranslationRowsReportTheOffsetWithSign) {
    // Revolute: F2's origin 0.01 m along world x, -0.02 along y, 0.03 along z.
    Joint joint("pivot.joint.revolute");
    Frame f1, f2;
    f2.p = {0.01, -0.02, 0.03};
    const Rows rows = joint.rows(f1, f2);
    ASSERT_EQ(rows.count, 5u);
    EXPECT_DOUBLE_EQ(rows.rows[0].violation, 0.01);
    EXPECT_DOUBLE_EQ(rows.rows[1].violation, -0.02);
    EXPECT_DOUBLE_EQ(rows.rows[2].violation, 0.03);
    // Fixed: F2 turned by 0.2 rad about z: the third orientation row is 2 sin(0.1).
    Joint fixed("pivot.joint.fixed");
    const Rows r2 = fixed.rows(f1, displaced(f1, kRz, 0.2));
    EXPECT_NEAR(r2.rows[5].violation, 2 * std::sin(0.1), 1e-15);
    EXPECT_NEAR(r2.rows[3].violation, 0.0, 1e-15);
    // Past pi the orientation error takes the short way back (sign of w_rel).
    const Rows r3 = fixed.rows(f1, displaced(f1, kRz, 4.0));
    EXPECT_NEAR(r3.rows[5].violation, 2 * std::sin((4.0 - 2 * M_PI) / 2), 1e-14);
}

TEST(JointViolation, EqualityRowsAreBilateralWithThePerJointComplianceAndDamping) {
    for (const JointType& type : joint_types()) {
        Joint joint(type.id, {{"compliance", 2.5e-7}, {"damping", 40.0}});
        Frame f1, f2;
        f2.p = {0.5, 0.4, 0.3};  // the distance joint needs separate anchors
        const Rows rows = joint.rows(f1, f2);
        ASSERT_EQ(rows.count, type.equality_rows + type.damping_rows) << type.id;
        for (uint32_t r = 0; r < type.equality_rows; ++r) {
            const pivot_row& row = rows.rows[r];
            EXPECT_EQ(row.compliance, 2.5e-7) << type.id;
            EXPECT_EQ(row.damping, 40.0) << type.id;
            EXPECT_EQ(row.lower, -HUGE_VAL) << type.id;
            EXPECT_EQ(row.upper, HUGE_VAL) << type.id;
            EXPECT_EQ(row.findex, -1) << type.id;
            EXPECT_EQ(row.flags, PIVOT_ROW_POSITION_ERROR) << type.id;
            EXPECT_EQ(row.target_velocity, 0.0) << type.id;
        }
    }
}

// The rank of a set of 6-vectors (Gram-Schmidt with a relative cut-off).
int rank6(std::vector<std::array<double, 6>> v) {
    int rank = 0;
    for (size_t i = 0; i < v.size(); ++i) {
        for (int k = 0; k < rank; ++k) {
            double d = 0;
            for (int c = 0; c < 6; ++c) d += v[i][c] * v[k][c];
            for (int c = 0; c < 6; ++c) v[i][c] -= d * v[k][c];
        }
        double n = 0;
        for (int c = 0; c < 6; ++c) n += v[i][c] * v[i][c];
        if (n < 1e-20) continue;
        for (int c = 0; c < 6; ++c) v[rank][c] = v[i][c] / std::sqrt(n);
        ++rank;
    }
    return rank;
}

// Joint damping d (joint_common.hpp "Damping rows"): one unstabilized row
// of compliance h/d per free direction, which together with the equality
// rows resist EVERY relative motion of the frames (the rows' frame-2 parts
// span all 6 directions), and none of them resists a motion of both frames
// together. The distance joint has only its Kelvin-Voigt row.
TEST(JointDamping, DampingRowsResistEveryRelativeMotionAndNoCommonOne) {
    const double h = 0.01, d = 40.0;
    Random rng(99);
    for (const JointType& type : joint_types()) {
        if (type.damping_rows == 0) continue;
        Joint joint(type.id, {{"damping", d}});
        for (int trial = 0; trial < 5; ++trial) {
            Frame f1, f2;
            f1.p = rng.vec(-1, 1);
            f1.q = rng.quaternion();
            f1.v = rng.vec(-1, 1);
            f1.w = rng.vec(-1, 1);
            f2 = f1;  // coinciding frames moving together
            const Rows rows = joint.rows(f1, f2, h);
            ASSERT_EQ(rows.count, type.equality_rows + type.damping_rows) << type.id;
            std::vector<std::array<double, 6>> spans;
            for (uint32_t r = 0; r < rows.count; ++r) {
                std::array<double, 6> part{};
                for (int c = 0; c < 6; ++c) part[c] = rows.jac[kWidth * r + 6 + c];
                spans.push_back(part);
                if (r < type.equality_rows) continue;
                const pivot_row& row = rows.rows[r];
                EXPECT_EQ(row.violation, 0.0) << type.id;
                EXPECT_EQ(row.target_velocity, 0.0) << type.id;
                EXPECT_EQ(row.compliance, h / d) << type.id;
                EXPECT_EQ(row.damping, 0.0) << type.id;
                EXPECT_EQ(row.lower, -HUGE_VAL) << type.id;
                EXPECT_EQ(row.upper, HUGE_VAL) << type.id;
                EXPECT_EQ(row.flags, PIVOT_ROW_NO_STABILIZATION) << type.id;
                EXPECT_NEAR(rows.rate(r, f1, f2), 0.0, 1e-14) << type.id << " row " << r;
            }
            EXPECT_EQ(rank6(spans), 6) << type.id;
        }
        // No damping rows without damping, or without a step (h = 0).
        EXPECT_EQ(Joint(type.id).rows(Frame{}, Frame{}, h).count, type.equality_rows) << type.id;
        EXPECT_EQ(joint.rows(Frame{}, Frame{}, 0.0).count, type.equality_rows) << type.id;
    }
}

TEST(JointDescriptors, IdsRowMaximaCapabilitiesAndParameters) {
    for (const JointType& type : joint_types()) {
        const PluginRecord& p = joint_plugin(type.id);
        EXPECT_EQ(p.kind, PIVOT_KIND_JOINT);
        EXPECT_EQ(p.joint.max_rows_per_joint, type.max_rows) << type.id;
        ASSERT_GE(p.params.size(), 2u);
        EXPECT_EQ(p.params[0].name, "compliance");
        EXPECT_EQ(p.params[1].name, "damping");
        for (const ParamSpec& s : p.params) {
            EXPECT_TRUE(s.per_item()) << type.id << " " << s.name;
            EXPECT_TRUE(std::isfinite(s.default_value)) << type.id << " " << s.name;
        }
        EXPECT_EQ(p.instance_param_count(), 0u);
        const uint64_t caps = PIVOT_JOINT_CAP_LIMITS | PIVOT_JOINT_CAP_MOTOR | PIVOT_JOINT_CAP_FREE_COORDINATE;
        if (type.free_coordinate) {
            EXPECT_EQ(p.capabilities, caps) << type.id;
            EXPECT_NE(p.joint.coordinate, nullptr);
            const char* names[] = {"compliance",     "damping",         "limits_enabled", "lower",
                                   "upper",          "motor_enabled",   "motor_velocity", "motor_max_force",
                                   "motor_mode",     "motor_position",  "motor_stiffness", "motor_damping",
                                   "motor_force"};
            const uint32_t roles[] = {PIVOT_ROLE_COMPLIANCE,      PIVOT_ROLE_DAMPING,        PIVOT_ROLE_LIMITS_ENABLED,
                                      PIVOT_ROLE_LIMIT_LOWER,     PIVOT_ROLE_LIMIT_UPPER,    PIVOT_ROLE_MOTOR_ENABLED,
                                      PIVOT_ROLE_MOTOR_VELOCITY,  PIVOT_ROLE_MOTOR_MAX_FORCE, PIVOT_ROLE_MOTOR_MODE,
                                      PIVOT_ROLE_MOTOR_POSITION,  PIVOT_ROLE_MOTOR_STIFFNESS, PIVOT_ROLE_MOTOR_DAMPING,
                                      PIVOT_ROLE_MOTOR_FORCE};
            ASSERT_EQ(p.params.size(), 13u) << type.id;
            for (size_t k = 0; k < 13; ++k) {
                EXPECT_EQ(p.params[k].name, names[k]) << type.id;
                EXPECT_EQ(p.params[k].role, roles[k]) << type.id << " " << names[k];
            }
            // The mode's choices in pivot_motor_mode order, as the role requires.
            EXPECT_EQ(p.params[8].choices, (std::vector<std::string>{"velocity", "position", "force"}));
        } else {
            EXPECT_EQ(p.capabilities, 0u) << type.id;
            EXPECT_EQ(p.joint.coordinate, nullptr);
        }
        // Instances clone (worlds are clonable) and take no instance parameters.
        PluginInstance inst = make_instance(type.id);
        PluginInstance copy = inst.clone();
        EXPECT_TRUE(copy.valid());
    }
    EXPECT_EQ(joint_plugin("pivot.joint.revolute").params[3].unit, "rad");
    EXPECT_EQ(joint_plugin("pivot.joint.prismatic").params[3].unit, "m");
    EXPECT_EQ(joint_plugin("pivot.joint.distance").params.size(), 3u);
    EXPECT_EQ(joint_plugin("pivot.joint.distance").params[2].name, "length");
}

TEST(JointBatch, SeveralJointsInOneCallMatchSeparateCalls) {
    // Three revolute joints with different parameters and poses: joint j's
    // rows start at j * max_rows, and equal those of a call for it alone.
    Joint single("pivot.joint.revolute");
    const nlohmann::json items[3] = {
        {{"compliance", 1e-6}},
        {{"limits_enabled", true}, {"lower", -0.1}, {"upper", 0.1}},
        {{"motor_enabled", true}, {"motor_velocity", -2.0}, {"motor_max_force", 3.0}, {"damping", 1.0}},
    };
    Random rng(5);
    std::vector<Frame> f1(3), f2(3);
    std::vector<double> params, p1, p2, t1, t2;
    for (int j = 0; j < 3; ++j) {
        f1[j].p = rng.vec(-1, 1);
        f1[j].q = rng.quaternion();
        f1[j].w = rng.vec(-1, 1);
        f2[j] = f1[j];
        f2[j].p = f1[j].p + rng.vec(-0.01, 0.01);
        f2[j].q = mul(exp_q(0.5 * f1[j].axis(0)), f1[j].q);  // 0.5 rad about the hinge: past the limit of joint 1
        single.set(items[j]);
        params.insert(params.end(), single.params().begin(), single.params().end());
        for (auto [dst, src] : {std::pair{&p1, f1[j].pose()}, std::pair{&p2, f2[j].pose()}}) {
            dst->insert(dst->end(), src.begin(), src.end());
        }
        for (auto [dst, src] : {std::pair{&t1, f1[j].twist()}, std::pair{&t2, f2[j].twist()}}) {
            dst->insert(dst->end(), src.begin(), src.end());
        }
    }
    const uint32_t max = single.max_rows();
    const pivot_joint_batch batch{3, static_cast<uint32_t>(single.params().size()), params.data(), p1.data(),
                                  p2.data(), t1.data(), t2.data()};
    pivot_step_info step{};
    step.struct_size = sizeof(step);
    step.timestep = 0.01;
    std::vector<pivot_row> rows(3 * max);
    std::vector<double> jac(3 * max * kWidth);
    uint32_t counts[3] = {};
    const CallResult r = checked_joint_rows(single.instance(), batch, step, unguarded(rows.data()),
                                            unguarded(jac.data()), unguarded(counts));
    ASSERT_TRUE(r.ok()) << r.message;
    EXPECT_EQ(counts[0], 5u);
    EXPECT_EQ(counts[1], 6u);  // upper limit
    EXPECT_EQ(counts[2], 7u);  // motor and the damping row
    for (uint32_t j = 0; j < 3; ++j) {
        single.set(items[j]);
        const Rows alone = single.rows(f1[j], f2[j]);
        ASSERT_EQ(alone.count, counts[j]);
        for (uint32_t k = 0; k < alone.count; ++k) {
            const pivot_row& a = alone.rows[k];
            const pivot_row& b = rows[j * max + k];
            EXPECT_EQ(a.violation, b.violation);
            EXPECT_EQ(a.target_velocity, b.target_velocity);
            EXPECT_EQ(a.lower, b.lower);
            EXPECT_EQ(a.upper, b.upper);
            EXPECT_EQ(a.damping, b.damping);
            EXPECT_EQ(a.flags, b.flags);
            for (uint32_t c = 0; c < kWidth; ++c) EXPECT_EQ(alone.jac[k * kWidth + c], jac[(j * max + k) * kWidth + c]);
        }
    }
    // Too few per-joint parameters is an error, not a read past the array.
    pivot_joint_batch short_batch = batch;
    short_batch.item_param_stride = 1;
    EXPECT_FALSE(checked_joint_rows(single.instance(), short_batch, step, unguarded(rows.data()), unguarded(jac.data()),
                                    unguarded(counts))
                     .ok());
}

TEST(DistanceJoint, ViolationIsDistanceMinusLengthAlongTheAnchorLine) {
    Joint joint("pivot.joint.distance", {{"length", 2.0}});
    Frame f1, f2;
    f1.p = {1, 1, 1};
    f2.p = {1, 1 + 3.0 * 0.6, 1 + 3.0 * 0.8};  // 3 m apart along (0, 0.6, 0.8)
    f1.q = exp_q(V3{0.3, 0.2, 0.1});
    f2.q = exp_q(V3{-1.0, 0.5, 2.0});  // orientations do not matter
    Rows rows = joint.rows(f1, f2);
    ASSERT_EQ(rows.count, 1u);
    EXPECT_NEAR(rows.rows[0].violation, 1.0, 1e-15);
    const double expected[12] = {0, -0.6, -0.8, 0, 0, 0, 0, 0.6, 0.8, 0, 0, 0};
    for (int c = 0; c < 12; ++c) EXPECT_NEAR(rows.jac[c], expected[c], 1e-15) << c;
    // At the rest length, turning either frame about its anchor changes nothing.
    joint.set({{"length", 3.0}});
    EXPECT_NEAR(joint.rows(f1, f2).rows[0].violation, 0.0, 1e-15);
    Frame turned = f2;
    turned.q = mul(exp_q(V3{0.4, -1.0, 0.2}), f2.q);
    EXPECT_NEAR(joint.rows(f1, turned).rows[0].violation, 0.0, 1e-15);
}

TEST(DistanceJoint, CoincidingAnchorsGiveFiniteRowsAlongFrameOnesXAxis) {
    // |p2 - p1| = 0 (and 1e-300): the direction is undefined; the joint uses
    // x1 and still reports the violation -length. checked_joint_rows fails
    // on any NaN or Inf.
    Joint joint("pivot.joint.distance", {{"length", 0.5}});
    Frame f1;  // at the world origin, so that a gap of 1e-300 is representable
    f1.q = exp_q(V3{0, 0, M_PI / 2});  // x1 = world y
    for (double gap : {0.0, 1e-300, 1e-13}) {
        Frame f2 = f1;
        f2.p.z += gap;
        const Rows rows = joint.rows(f1, f2);
        ASSERT_EQ(rows.count, 1u);
        EXPECT_NEAR(rows.rows[0].violation, -0.5, 1e-12) << gap;
        EXPECT_NEAR(rows.jac[6 + 1], 1.0, 1e-15) << gap;  // v2 along x1 = world y
        EXPECT_NEAR(rows.jac[1], -1.0, 1e-15) << gap;
    }
}

TEST(JointRobustness, BadQuaternionsAndFarFramesStayFinite) {
    // Zero, unnormalized and huge quaternions, frames kilometres apart, fast
    // twists, limits and motor on: every output is finite (checked by
    // checked_joint_rows) for every joint type.
    const Q bad[] = {{0, 0, 0, 0}, {2, 0, 0, 0}, {1e200, 1e200, 0, 0}, {1e-200, 0, 1e-200, 0}, {-1, 0, 0, 0}};
    for (const JointType& type : joint_types()) {
        nlohmann::json item = {{"compliance", 1e-3}};
        if (type.free_coordinate) {
            item.update({{"limits_enabled", true}, {"lower", -0.1}, {"upper", 0.1}, {"motor_enabled", true},
                         {"motor_max_force", 1.0}});
        }
        Joint joint(type.id, item);
        for (const Q& q1 : bad) {
            for (const Q& q2 : bad) {
                Frame f1, f2;
                f1.q = q1;
                f2.q = q2;
                f2.p = {1e3, -2e3, 5e2};
                f1.w = {1e3, 0, -1e3};
                f2.v = {0, 1e4, 0};
                const Rows rows = joint.rows(f1, f2);
                EXPECT_GE(rows.count, type.equality_rows) << type.id;
                if (type.free_coordinate) joint.coordinate(f1, f2);
            }
        }
    }
}

}  // namespace
}  // namespace pivot::joint_test
