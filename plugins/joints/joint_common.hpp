// What the seven joint plugins of pivot_joints share: the frame conventions,
// the row kinds (with the exact time derivative of every violation), the
// per-item parameters, the free-coordinate limit and motor rows, the batch
// loops and the (empty) instance life cycle. Written against the public ABI
// only (<pivot/plugin_joint.h>).
//
// ==========================================================================
// CONVENTIONS (guaranteed by the host)
// ==========================================================================
// Each joint sees two attachment frames, F1 fixed on body 1 and F2 fixed on
// body 2, as poses (x, y, z, qw, qx, qy, qz; the quaternion turns frame
// coordinates into world coordinates) and twists (v = velocity of the frame
// origin, omega), all in world coordinates. Below, p1, p2 are the origins,
// x1, y1, z1 and x2, y2, z2 the frames' axes in world coordinates,
// (v1, w1), (v2, w2) the twists, and d = p2 - p1. Every axis moves as
// dx1/dt = w1 x x1, and dp1/dt = v1.
//
// - The host builds the frames so that they COINCIDE in the initial
//   configuration, with the joint axis along the frames' x axis (revolute,
//   prismatic, cylindrical); for the universal joint x = axis1 (the cross
//   axis on body 1) and y = axis2 (on body 2), initially perpendicular.
// - Distance joint: F1's origin is anchor1 and F2's origin anchor2 (they do
//   not coincide); the per-item parameter "length" is the rest distance
//   (the host sets it to the initial distance when the scene gives none).
//
// Rows (Jacobian 12 wide, (v1, w1, v2, w2), world coordinates), with the sign
// convention of the seed thesis (seed000 2.0, 2.1; docs/sources.md):
// J = +d(phi)/dq, the force on the frames is J^T lambda, and the constitutive
// law is C lambda = -phi - h J v. Every violation phi is chosen so that
// d(phi)/dt = J [v1; w1; v2; w2] EXACTLY, everywhere (not only to first order
// near phi = 0): the Jacobians are the gradients of the phi we report.
//
//   point      phi_k = e_k . (p2 - p1), k = world x, y, z           (m)
//              J = (-e_k, 0, e_k, 0)
//   line       phi = a1 . (p2 - p1), a1 = y1 or z1 (F2's origin on F1's x line)
//              d/dt = a1.(v2 - v1) + w1.(a1 x d):  J = (-a1, a1 x d, a1, 0)
//   perpendicular  phi = a1 . b2 (a1 on F1, b2 on F2; zero when perpendicular)
//              d/dt = (w1 - w2).(a1 x b2):  J = (0, a1 x b2, 0, -(a1 x b2))
//              hinge: (y1, x2) and (z1, x2); universal: (x1, y2)       (rad)
//   orientation  q_rel = q1^* q2 (F2 in F1 coordinates), flipped so that
//              w_rel >= 0; phi = 2 vec(q_rel) (rad, about F1's axes; equal
//              to the rotation vector to first order). With (w, v) = q_rel:
//              d/dt 2 vec(q_rel) = (w I - [v]x) R1^T (w2 - w1), so row k has
//              a_k = R1 (w e_k + v x e_k) = w a1_k + (R1 v) x a1_k and
//              J = (0, -a_k, 0, a_k). phi jumps at w_rel = 0 (F2 turned by
//              pi relative to F1): the sign flip keeps the shortest way back.
//   distance   phi = |d| - length,  J = (-n, 0, n, 0), n = d/|d|; when
//              |d| <= 1e-12 m the direction is undefined and n = x1 is used
//              (finite rows, violation still -length).
//
// All equality rows: bounds (-inf, inf), flag PIVOT_ROW_POSITION_ERROR,
// compliance and damping from the joint's per-item parameters (the same
// value for translational rows, m/N, and angular rows, rad/(N m)).
//
// Free coordinate (revolute: angle about x; prismatic and cylindrical:
// translation along x):
//   angle        S = z1.y2 - y1.z2, C = y1.y2 + z1.z2, theta = atan2(S, C),
//                in (-pi, pi], continuous away from +-pi. On the constraint
//                manifold (x1 = x2) S = 2 sin(theta), C = 2 cos(theta); in
//                general theta is exactly the twist angle about x of q_rel
//                (2 atan2(qx, qw)), undefined only when C = S = 0 (F2
//                turned by pi about an axis perpendicular to x1).
//                d(theta)/dt = (w2 - w1).g, g = (S (y1 x y2 + z1 x z2)
//                - C (z1 x y2 - y1 x z2)) / (S^2 + C^2)  (= x1 on the
//                manifold; x1 is used when S^2 + C^2 < 1e-12).
//   translation  s = x1 . d,  ds/dt = x1.(v2 - v1) + w1.(x1 x d).
// Limit rows (when limits_enabled): unilateral, violation = the gap
// (s - lower, or upper - s; positive inside the range), bounds [0, +inf),
// Jacobian +-(the coordinate's gradient) so that J v = d(gap)/dt, no flags,
// compliance 0. A limit row is written when gap < 2 h |rate| + 1e-9 (a limit
// that could be reached within the step is caught speculatively; a violated
// one always). At most one limit row per joint: if both limits qualify (a
// range narrower than the margin), the one with the smaller predicted gap
// (gap_lower + h rate versus gap_upper - h rate). lower > upper is read as the
// range [upper, lower]. The angle limits are meant within (-pi, pi): a
// stateless joint cannot count turns.
// Motor row (when motor_enabled and motor_max_force > 0; ABI 1.7 drive
// modes, pivot_motor_mode in plugin.h): flag PIVOT_ROW_MOTOR, Jacobian the
// coordinate's gradient, bounds [-motor_max_force, +motor_max_force] (force;
// the host multiplies by h). The host's row law (docs/engine.md "The
// per-island problem"), c f = -phi - (h + d c)(J v+ - target), gives each
// mode from (violation, target, compliance c, damping d, flags):
//   velocity  (0, motor_velocity, h / motor_damping or 0, 0,
//             NO_STABILIZATION): f = -motor_damping (J v+ - target), or
//             J v+ = target (rigid, motor_damping = 0: the ABI 1.0 motor);
//   position  (s - motor_position, motor_velocity, 1 / motor_stiffness or 0,
//             motor_damping, stabilized): f = -k (phi + h (J v+ - target))
//             - d (J v+ - target), the PD law at the end of the step; an
//             angle's error is wrapped into [-pi, pi] (stateless: no turns);
//   force     (0, 0, 0, 0, NO_STABILIZATION) with bounds [f, f], f =
//             motor_force clamped to the bound: an applied force.
// Damping rows (joint damping d > 0, when h > 0): one per free direction of
// relative motion (revolute: the angle; prismatic: the translation;
// cylindrical: both; spherical: the relative rotation about the world axes;
// universal: about x1 and about y2), violation 0, target 0, compliance h/d,
// flag PIVOT_ROW_NO_STABILIZATION: f = -d J v+, an implicit viscous force
// or torque (N s/m, N m s/rad), stable at any h. Together with the equality
// rows' Kelvin-Voigt damping, a joint's `damping` resists every relative
// motion it allows.
// Row order: equality rows, then the motor row, then the damping rows, then
// the limit row. The host warm-starts a joint's row k with the impulse of
// its row k in the last step (plugin_joint.h), so the row that comes and
// goes (the limit) is last: the motor keeps its slot, and a limit row that
// appears starts from zero instead of from the motor's impulse.
//
// The joints are stateless: instances hold only the host pointer and take
// no instance-level parameters. rows() and coordinate() do not allocate.
// Quaternions are normalized defensively (a zero or non-finite one reads as
// the identity), so every output is finite for finite inputs of physical
// size; coordinates near 1e154 m, where squares overflow, are out of scope
// (the host's finiteness check reports them).
#ifndef PIVOT_PLUGINS_JOINTS_JOINT_COMMON_HPP
#define PIVOT_PLUGINS_JOINTS_JOINT_COMMON_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>

#include <pivot/plugin_joint.h>

#include "joint_math.hpp"
#include "joint_stiffness.hpp"

namespace pivot::joints {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr uint32_t kWidth = PIVOT_JOINT_JACOBIAN_WIDTH;

// ---------------------------------------------------------------- frames

// One attachment frame, read from the batch.
struct Frame {
    Vec3 p;         // origin, world
    Quat q;         // unit quaternion, frame -> world (normalized defensively)
    Vec3 x, y, z;   // axes, world
    Vec3 v;         // velocity of the origin, world
    Vec3 w;         // angular velocity, world
};

inline Frame load_frame(const double* pose, const double* twist) {
    Frame f{};
    f.p = load3(pose);
    f.q = normalized(load_quat(pose + 3));
    f.x = axis_x(f.q);
    f.y = axis_y(f.q);
    f.z = axis_z(f.q);
    f.v = load3(twist);
    f.w = load3(twist + 3);
    return f;
}

// ---------------------------------------------------------------- parameters

// Per-item parameters in schema order. Every joint starts with these two.
constexpr uint32_t kCompliance = 0;
constexpr uint32_t kDamping = 1;
constexpr uint32_t kCommonParamCount = 2;
// Joints with a free coordinate continue with these six.
constexpr uint32_t kLimitsEnabled = 2;
constexpr uint32_t kLower = 3;
constexpr uint32_t kUpper = 4;
constexpr uint32_t kMotorEnabled = 5;
constexpr uint32_t kMotorVelocity = 6;
constexpr uint32_t kMotorMaxForce = 7;
// And the five drive parameters (ABI 1.7).
constexpr uint32_t kMotorMode = 8;
constexpr uint32_t kMotorPosition = 9;
constexpr uint32_t kMotorStiffness = 10;
constexpr uint32_t kMotorDamping = 11;
constexpr uint32_t kMotorForce = 12;
constexpr uint32_t kFreeCoordinateParamCount = 13;

// A per-item parameter; `role` (ABI 1.6) tells the host what it is, so that
// a joint description's compliance, limits, motor and length reach it.
constexpr pivot_param_info item_param(uint32_t type, const char* name, const char* unit, const char* doc,
                                      double default_value, double min_value, double max_value,
                                      pivot_param_role role = PIVOT_ROLE_NONE) {
    return pivot_param_info{sizeof(pivot_param_info), type, 1, PIVOT_PARAM_PER_ITEM | PIVOT_PARAM_ROLE(role), name,
                            unit, doc, default_value, min_value, max_value, nullptr, 0, 0};
}

constexpr pivot_param_info compliance_param(const char* doc) {
    return item_param(PIVOT_PARAM_REAL, "compliance", "m/N", doc, 0.0, 0.0, kInf, PIVOT_ROLE_COMPLIANCE);
}
constexpr pivot_param_info damping_param() {
    return item_param(PIVOT_PARAM_REAL, "damping", "N s/m",
                      "viscous damping of the joint's free motion and of its compliant rows (N m s/rad for "
                      "rotations); 0 = none",
                      0.0, 0.0, kInf, PIVOT_ROLE_DAMPING);
}

// The units and words of a free coordinate, for its eleven parameters.
struct CoordinateSchema {
    const char* unit;            // "rad" or "m"
    const char* rate_unit;       // "rad/s" or "m/s"
    const char* force_unit;      // "N m" or "N"
    const char* stiffness_unit;  // "N m/rad" or "N/m"
    const char* damping_unit;    // "N m s/rad" or "N s/m"
    const char* lower_doc;
    const char* upper_doc;
    const char* velocity_doc;
    const char* force_doc;
};

// The six free-coordinate parameters, in schema order, as entries 2..7.
constexpr pivot_param_info limits_enabled_param() {
    return item_param(PIVOT_PARAM_BOOL, "limits_enabled", "", "keep the free coordinate within [lower, upper]", 0.0,
                      0.0, 1.0, PIVOT_ROLE_LIMITS_ENABLED);
}
constexpr pivot_param_info lower_param(const CoordinateSchema& s) {
    return item_param(PIVOT_PARAM_REAL, "lower", s.unit, s.lower_doc, 0.0, -kInf, kInf, PIVOT_ROLE_LIMIT_LOWER);
}
constexpr pivot_param_info upper_param(const CoordinateSchema& s) {
    return item_param(PIVOT_PARAM_REAL, "upper", s.unit, s.upper_doc, 0.0, -kInf, kInf, PIVOT_ROLE_LIMIT_UPPER);
}
constexpr pivot_param_info motor_enabled_param() {
    return item_param(PIVOT_PARAM_BOOL, "motor_enabled", "",
                      "drive the rate of the free coordinate toward motor_velocity", 0.0, 0.0, 1.0,
                      PIVOT_ROLE_MOTOR_ENABLED);
}
constexpr pivot_param_info motor_velocity_param(const CoordinateSchema& s) {
    return item_param(PIVOT_PARAM_REAL, "motor_velocity", s.rate_unit, s.velocity_doc, 0.0, -kInf, kInf,
                      PIVOT_ROLE_MOTOR_VELOCITY);
}
constexpr pivot_param_info motor_max_force_param(const CoordinateSchema& s) {
    return item_param(PIVOT_PARAM_REAL, "motor_max_force", s.force_unit, s.force_doc, 0.0, 0.0, kInf,
                      PIVOT_ROLE_MOTOR_MAX_FORCE);
}

// The drive parameters (ABI 1.7), entries 8..12; the mode's choices are in
// pivot_motor_mode order, as the role requires.
constexpr const char* kMotorModes[] = {"velocity", "position", "force"};
constexpr pivot_param_info motor_mode_param() {
    return pivot_param_info{sizeof(pivot_param_info),
                            PIVOT_PARAM_ENUM,
                            1,
                            PIVOT_PARAM_PER_ITEM | PIVOT_PARAM_ROLE(PIVOT_ROLE_MOTOR_MODE),
                            "motor_mode",
                            "",
                            "what the motor drives: the rate (velocity), the coordinate (position, a PD law) or a "
                            "force",
                            0.0,
                            0.0,
                            2.0,
                            kMotorModes,
                            3,
                            0};
}
constexpr pivot_param_info motor_position_param(const CoordinateSchema& s) {
    return item_param(PIVOT_PARAM_REAL, "motor_position", s.unit, "position mode: the target of the coordinate",
                      0.0, -kInf, kInf, PIVOT_ROLE_MOTOR_POSITION);
}
constexpr pivot_param_info motor_stiffness_param(const CoordinateSchema& s) {
    return item_param(PIVOT_PARAM_REAL, "motor_stiffness", s.stiffness_unit,
                      "position mode: the drive's stiffness; 0 = a rigid servo", 0.0, 0.0, kInf,
                      PIVOT_ROLE_MOTOR_STIFFNESS);
}
constexpr pivot_param_info motor_damping_param(const CoordinateSchema& s) {
    return item_param(PIVOT_PARAM_REAL, "motor_damping", s.damping_unit,
                      "the drive's damping toward motor_velocity; velocity mode: 0 = rigid", 0.0, 0.0, kInf,
                      PIVOT_ROLE_MOTOR_DAMPING);
}
constexpr pivot_param_info motor_force_param(const CoordinateSchema& s) {
    return item_param(PIVOT_PARAM_REAL, "motor_force", s.force_unit,
                      "force mode: the force applied along the coordinate (within motor_max_force)", 0.0, -kInf,
                      kInf, PIVOT_ROLE_MOTOR_FORCE);
}

// The whole schema of a joint with a free coordinate: compliance, damping
// and the eleven free-coordinate parameters, in the order of the k* indices.
constexpr std::array<pivot_param_info, kFreeCoordinateParamCount> free_coordinate_params(
    const pivot_param_info& compliance, const CoordinateSchema& s) {
    return {compliance,
            damping_param(),
            limits_enabled_param(),
            lower_param(s),
            upper_param(s),
            motor_enabled_param(),
            motor_velocity_param(s),
            motor_max_force_param(s),
            motor_mode_param(),
            motor_position_param(s),
            motor_stiffness_param(s),
            motor_damping_param(s),
            motor_force_param(s)};
}

// Compliance and damping of one joint's equality rows.
struct Common {
    double compliance;
    double damping;
};
inline Common common_of(const double* p) { return {p[kCompliance], p[kDamping]}; }

struct LimitMotor {
    bool limits_enabled;
    double lower, upper;
    bool motor_enabled;
    double motor_velocity, motor_max_force;
    pivot_motor_mode motor_mode;
    double motor_position, motor_stiffness, motor_damping, motor_force;
};
inline LimitMotor limit_motor_of(const double* p) {
    return {p[kLimitsEnabled] != 0.0,
            p[kLower],
            p[kUpper],
            p[kMotorEnabled] != 0.0,
            p[kMotorVelocity],
            p[kMotorMaxForce],
            static_cast<pivot_motor_mode>(static_cast<int>(p[kMotorMode])),
            p[kMotorPosition],
            p[kMotorStiffness],
            p[kMotorDamping],
            p[kMotorForce]};
}

// ---------------------------------------------------------------- rows

// Appends rows and their Jacobians for one joint; with `stiffness` set,
// also adds each row's geometric stiffness (joint_stiffness.hpp) at the
// row's force forces[row] to that 12 x 12 matrix.
struct RowWriter {
    pivot_row* rows;  // max_rows_per_joint entries
    double* jac;      // max_rows_per_joint x 12
    uint32_t count;
    const double* forces = nullptr;  // max_rows_per_joint: the rows' forces (geometric_stiffness)
    double* stiffness = nullptr;     // 12 x 12, column-major, or nullptr (rows only)

    // The force of the row added last.
    double last_force() const { return forces[count - 1]; }

    void add(const pivot_row& row, Vec3 v1, Vec3 w1, Vec3 v2, Vec3 w2) {
        rows[count] = row;
        double* j = jac + static_cast<size_t>(count) * kWidth;
        store3(v1, j);
        store3(w1, j + 3);
        store3(v2, j + 6);
        store3(w2, j + 9);
        ++count;
    }
};

inline pivot_row equality_row(double violation, const Common& c) {
    return pivot_row{violation, 0.0, c.compliance, c.damping, -kInf, kInf, -1, PIVOT_ROW_POSITION_ERROR};
}

// Three rows: the origins coincide, along the world axes.
inline void point_rows(RowWriter& out, const Frame& f1, const Frame& f2, const Common& c) {
    const Vec3 d = f2.p - f1.p;
    const Vec3 e[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    const double phi[3] = {d.x, d.y, d.z};
    for (int k = 0; k < 3; ++k) out.add(equality_row(phi[k], c), -e[k], kZero3, e[k], kZero3);
}

// One row: F2's origin has no component along a1 (an axis of F1) from F1's origin.
inline void line_row(RowWriter& out, const Frame& f1, const Frame& f2, Vec3 a1, const Common& c) {
    const Vec3 d = f2.p - f1.p;
    out.add(equality_row(dot(a1, d), c), -a1, cross(a1, d), a1, kZero3);
    if (out.stiffness != nullptr) line_stiffness(out.stiffness, out.last_force(), a1, d);
}

// One row: a1 (an axis of F1) is perpendicular to b2 (an axis of F2).
inline void perpendicular_row(RowWriter& out, Vec3 a1, Vec3 b2, const Common& c) {
    const Vec3 g = cross(a1, b2);
    out.add(equality_row(dot(a1, b2), c), kZero3, g, kZero3, -g);
    if (out.stiffness != nullptr) perpendicular_stiffness(out.stiffness, out.last_force(), a1, b2);
}

// Three rows: the frames have the same orientation (see the header comment).
inline void orientation_rows(RowWriter& out, const Frame& f1, const Frame& f2, const Common& c) {
    Quat r = conjugate(f1.q) * f2.q;
    if (r.w < 0.0) r = Quat{-r.w, -r.x, -r.y, -r.z};
    const Vec3 v_world = rotate(f1.q, vec(r));  // R1 v
    const Vec3 axes[3] = {f1.x, f1.y, f1.z};
    const double phi[3] = {2 * r.x, 2 * r.y, 2 * r.z};
    const Mat3 q12 = columns(f1.x, f1.y, f1.z) * transpose(columns(f2.x, f2.y, f2.z));  // R1 R2^T
    for (int k = 0; k < 3; ++k) {
        const Vec3 a = r.w * axes[k] + cross(v_world, axes[k]);
        out.add(equality_row(phi[k], c), kZero3, -a, kZero3, a);
        if (out.stiffness != nullptr) orientation_stiffness(out.stiffness, out.last_force(), axes[k], r.w, v_world, q12);
    }
}

// ---------------------------------------------------------------- free coordinate

// A free coordinate and its gradient: rate = jv1.v1 + jw1.w1 + jv2.v2 + jw2.w2.
// An angle's gradient is (0, -jw2, 0, jw2); a translation's is a line row's
// along x1 = jv2 with d = p2 - p1 (for the geometric stiffness).
struct FreeCoordinate {
    double value;
    Vec3 jv1, jw1, jv2, jw2;
    bool angular;
    Vec3 d;  // translation: p2 - p1

    double rate(const Frame& f1, const Frame& f2) const {
        return dot(jv1, f1.v) + dot(jw1, f1.w) + dot(jv2, f2.v) + dot(jw2, f2.w);
    }
};

// The angle of F2 about F1's x axis (see the header comment).
inline FreeCoordinate angle_about_x(const Frame& f1, const Frame& f2) {
    const double s = dot(f1.z, f2.y) - dot(f1.y, f2.z);
    const double c = dot(f1.y, f2.y) + dot(f1.z, f2.z);
    const double n = s * s + c * c;
    Vec3 g = f1.x;
    if (n >= 1e-12) {
        const Vec3 dc = cross(f1.y, f2.y) + cross(f1.z, f2.z);  // dC/dt = (w1 - w2).dc
        const Vec3 ds = cross(f1.z, f2.y) - cross(f1.y, f2.z);  // dS/dt = (w1 - w2).ds
        g = (1.0 / n) * (s * dc - c * ds);
    }
    return {std::atan2(s, c), kZero3, -g, kZero3, g, true, kZero3};
}

// The translation of F2's origin along F1's x axis.
inline FreeCoordinate translation_along_x(const Frame& f1, const Frame& f2) {
    const Vec3 d = f2.p - f1.p;
    return {dot(f1.x, d), -f1.x, cross(f1.x, d), f1.x, kZero3, false, d};
}

// Adds the geometric stiffness of the row just written along sign * (the
// coordinate's gradient).
inline void free_coordinate_stiffness(RowWriter& out, const FreeCoordinate& s, double sign) {
    if (out.stiffness == nullptr) return;
    if (s.angular) angle_stiffness(out.stiffness, sign * out.last_force(), s.jw2);
    else line_stiffness(out.stiffness, sign * out.last_force(), s.jv2, s.d);
}

// The motor row in its mode (see the header comment), when the motor is on.
inline void motor_row(RowWriter& out, const FreeCoordinate& s, const LimitMotor& lm, double h) {
    if (!lm.motor_enabled || !(lm.motor_max_force > 0.0)) return;
    const double bound = lm.motor_max_force;
    pivot_row row{0.0, lm.motor_velocity, 0.0, 0.0, -bound, bound, -1, PIVOT_ROW_MOTOR | PIVOT_ROW_NO_STABILIZATION};
    switch (lm.motor_mode) {
        case PIVOT_MOTOR_POSITION: {
            const double error = s.value - lm.motor_position;
            constexpr double kTwoPi = 6.283185307179586476925;
            row.violation = s.angular ? std::remainder(error, kTwoPi) : error;
            row.compliance = lm.motor_stiffness > 0.0 ? 1.0 / lm.motor_stiffness : 0.0;
            row.damping = lm.motor_damping;
            row.flags = PIVOT_ROW_MOTOR;
            break;
        }
        case PIVOT_MOTOR_FORCE:
            row.target_velocity = 0.0;
            row.lower = row.upper = std::fmin(std::fmax(lm.motor_force, -bound), bound);
            break;
        case PIVOT_MOTOR_VELOCITY:
        default:
            if (lm.motor_damping > 0.0 && h > 0.0) row.compliance = h / lm.motor_damping;
            break;
    }
    out.add(row, s.jv1, s.jw1, s.jv2, s.jw2);
    free_coordinate_stiffness(out, s, 1.0);
}

// A damping row (see the header comment): f = -d J v+ through the
// compliance h/d of an unstabilized row. None without damping or a step.
inline bool damped(const Common& c, double h) { return c.damping > 0.0 && h > 0.0; }
inline pivot_row damping_row(const Common& c, double h) {
    return pivot_row{0.0, 0.0, h / c.damping, 0.0, -kInf, kInf, -1, PIVOT_ROW_NO_STABILIZATION};
}

// Damping of a free coordinate's rate.
inline void coordinate_damping_row(RowWriter& out, const FreeCoordinate& s, const Common& c, double h) {
    if (!damped(c, h)) return;
    out.add(damping_row(c, h), s.jv1, s.jw1, s.jv2, s.jw2);
    free_coordinate_stiffness(out, s, 1.0);
}

// Damping of the relative rotation about the world axes (ball joints).
inline void rotation_damping_rows(RowWriter& out, const Common& c, double h) {
    if (!damped(c, h)) return;
    const Vec3 e[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (const Vec3& a : e) out.add(damping_row(c, h), kZero3, -a, kZero3, a);  // constant J: no stiffness
}

// Damping of the relative rotation about `a`, an axis fixed on frame
// `turning` (kTh1 or kTh2).
inline void axis_damping_row(RowWriter& out, Vec3 a, Block turning, const Common& c, double h) {
    if (!damped(c, h)) return;
    out.add(damping_row(c, h), kZero3, -a, kZero3, a);
    if (out.stiffness != nullptr) axis_stiffness(out.stiffness, out.last_force(), a, turning);
}

// The limit row of a free coordinate. At most one limit row is written:
// when both gaps are below the margin (a range narrower than
// 2 h |rate| + 1e-9), the one whose gap predicted after the step at the
// current rate is smaller (the violated one, or the one the coordinate
// moves toward).
inline void limit_row(RowWriter& out, const FreeCoordinate& s, double rate, const LimitMotor& lm, double h) {
    if (!lm.limits_enabled) return;
    const double lower = std::fmin(lm.lower, lm.upper);
    const double upper = std::fmax(lm.lower, lm.upper);
    const double margin = 2.0 * h * std::fabs(rate) + 1e-9;
    const double gap_lower = s.value - lower;
    const double gap_upper = upper - s.value;
    const bool near_lower = gap_lower < margin;
    const bool near_upper = gap_upper < margin;
    if (!near_lower && !near_upper) return;
    bool use_upper = near_upper;
    if (near_lower && near_upper) {
        // Both qualify: the one with the smaller gap predicted after the
        // step at the current rate (gap_lower + h rate, gap_upper - h rate).
        use_upper = gap_upper - h * rate < gap_lower + h * rate;
    }
    pivot_row row{use_upper ? gap_upper : gap_lower, 0.0, 0.0, 0.0, 0.0, kInf, -1, 0u};
    if (use_upper) out.add(row, -s.jv1, -s.jw1, -s.jv2, -s.jw2);
    else out.add(row, s.jv1, s.jw1, s.jv2, s.jw2);
    free_coordinate_stiffness(out, s, use_upper ? -1.0 : 1.0);
}

// ---------------------------------------------------------------- instances

struct Instance {
    const pivot_host* host;
};

inline void log_error(const void* instance, const char* id, const char* message) {
    const pivot_host* host = instance != nullptr ? static_cast<const Instance*>(instance)->host : nullptr;
    if (host != nullptr && host->log != nullptr) host->log(host->context, PIVOT_LOG_ERROR, id, message);
}

inline pivot_status create(const pivot_host* host, const double*, uint32_t param_count, void** out) {
    if (out == nullptr) return PIVOT_ERROR;
    *out = nullptr;
    if (param_count != 0) return PIVOT_ERROR;  // every joint parameter is per item
    auto* inst = new (std::nothrow) Instance{host};
    *out = inst;
    return inst != nullptr ? PIVOT_OK : PIVOT_ERROR;
}
inline void destroy(void* instance) { delete static_cast<Instance*>(instance); }
inline pivot_status clone(const void* instance, void** out) {
    if (instance == nullptr || out == nullptr) return PIVOT_ERROR;
    auto* copy = new (std::nothrow) Instance(*static_cast<const Instance*>(instance));
    *out = copy;
    return copy != nullptr ? PIVOT_OK : PIVOT_ERROR;
}
inline pivot_status set_params(void*, const double*, uint32_t param_count) {
    return param_count == 0 ? PIVOT_OK : PIVOT_ERROR;
}

constexpr pivot_instance_functions kInstanceFunctions = {create,  destroy, clone,   nullptr,
                                                         set_params, nullptr, nullptr, nullptr};

// ---------------------------------------------------------------- batch loops

// A joint type provides:
//   static constexpr const char* kId;
//   static constexpr uint32_t kMaxRows, kParamCount;
//   static void write(RowWriter&, const Frame& f1, const Frame& f2, const double* params, double h);
// and, with a free coordinate,
//   static FreeCoordinate coordinate(const Frame& f1, const Frame& f2);

template <class Joint>
bool check_batch(const void* instance, const pivot_joint_batch* batch) {
    if (batch->count > 0 && (batch->item_params == nullptr || batch->item_param_stride < Joint::kParamCount)) {
        log_error(instance, Joint::kId, "the per-joint parameters are missing (item_param_stride too small)");
        return false;
    }
    return true;
}

template <class Joint>
pivot_status joint_rows(const void* instance, const pivot_joint_batch* batch, const pivot_step_info* step,
                        pivot_row* rows, double* jacobians, uint32_t* row_counts) {
    if (!check_batch<Joint>(instance, batch)) return PIVOT_ERROR;
    const double h = step != nullptr ? step->timestep : 0.0;
    for (uint32_t j = 0; j < batch->count; ++j) {
        const Frame f1 = load_frame(batch->frame1_poses + 7 * static_cast<size_t>(j),
                                    batch->frame1_twists + 6 * static_cast<size_t>(j));
        const Frame f2 = load_frame(batch->frame2_poses + 7 * static_cast<size_t>(j),
                                    batch->frame2_twists + 6 * static_cast<size_t>(j));
        const size_t first = static_cast<size_t>(j) * Joint::kMaxRows;
        RowWriter out{rows + first, jacobians + first * kWidth, 0};
        Joint::write(out, f1, f2, batch->item_params + static_cast<size_t>(j) * batch->item_param_stride, h);
        row_counts[j] = out.count;
    }
    return PIVOT_OK;
}

// The rows are written again (into scratch on the stack) with the
// stiffness of each added at its force: the same code decides which rows
// exist, so row k's force is always the force of row k.
template <class Joint>
pivot_status joint_geometric_stiffness(const void* instance, const pivot_joint_batch* batch,
                                       const pivot_step_info* step, const double* forces, double* stiffness) {
    if (!check_batch<Joint>(instance, batch)) return PIVOT_ERROR;
    const double h = step != nullptr ? step->timestep : 0.0;
    pivot_row rows[Joint::kMaxRows];
    double jacobians[Joint::kMaxRows * kWidth];
    for (uint32_t j = 0; j < batch->count; ++j) {
        const Frame f1 = load_frame(batch->frame1_poses + 7 * static_cast<size_t>(j),
                                    batch->frame1_twists + 6 * static_cast<size_t>(j));
        const Frame f2 = load_frame(batch->frame2_poses + 7 * static_cast<size_t>(j),
                                    batch->frame2_twists + 6 * static_cast<size_t>(j));
        double* k = stiffness + static_cast<size_t>(j) * kWidth * kWidth;
        for (uint32_t i = 0; i < kWidth * kWidth; ++i) k[i] = 0.0;
        RowWriter out{rows, jacobians, 0, forces + static_cast<size_t>(j) * Joint::kMaxRows, k};
        Joint::write(out, f1, f2, batch->item_params + static_cast<size_t>(j) * batch->item_param_stride, h);
    }
    return PIVOT_OK;
}

template <class Joint>
pivot_status joint_coordinate(const void* instance, const pivot_joint_batch* batch, double* positions,
                              double* velocities) {
    if (!check_batch<Joint>(instance, batch)) return PIVOT_ERROR;
    for (uint32_t j = 0; j < batch->count; ++j) {
        const Frame f1 = load_frame(batch->frame1_poses + 7 * static_cast<size_t>(j),
                                    batch->frame1_twists + 6 * static_cast<size_t>(j));
        const Frame f2 = load_frame(batch->frame2_poses + 7 * static_cast<size_t>(j),
                                    batch->frame2_twists + 6 * static_cast<size_t>(j));
        const FreeCoordinate s = Joint::coordinate(f1, f2);
        positions[j] = s.value;
        velocities[j] = s.rate(f1, f2);
    }
    return PIVOT_OK;
}

// The rows of a joint with a free coordinate after its equality rows, in
// the documented order: motor, damping of the coordinate (and of the
// rotation about x for a joint whose coordinate is a translation and
// whose rotation is free: `rotation_free`), limit.
template <class Joint>
void write_free_coordinate_rows(RowWriter& out, const Frame& f1, const Frame& f2, const double* params, double h,
                                bool rotation_free = false) {
    const FreeCoordinate s = Joint::coordinate(f1, f2);
    const LimitMotor lm = limit_motor_of(params);
    const Common c = common_of(params);
    motor_row(out, s, lm, h);
    coordinate_damping_row(out, s, c, h);
    if (rotation_free) coordinate_damping_row(out, angle_about_x(f1, f2), c, h);
    limit_row(out, s, s.rate(f1, f2), lm, h);
}

template <class Joint>
constexpr pivot_joint_functions joint_functions() {
    return pivot_joint_functions{sizeof(pivot_joint_functions), Joint::kMaxRows, kInstanceFunctions,
                                 joint_rows<Joint>, nullptr, joint_geometric_stiffness<Joint>, Joint::kFrames, 0};
}
template <class Joint>
constexpr pivot_joint_functions free_coordinate_joint_functions() {
    return pivot_joint_functions{sizeof(pivot_joint_functions), Joint::kMaxRows, kInstanceFunctions,
                                 joint_rows<Joint>,
                                 joint_coordinate<Joint>,
                                 joint_geometric_stiffness<Joint>,
                                 Joint::kFrames,
                                 0};
}

constexpr uint64_t kFreeCoordinateCaps =
    PIVOT_JOINT_CAP_LIMITS | PIVOT_JOINT_CAP_MOTOR | PIVOT_JOINT_CAP_FREE_COORDINATE;

constexpr pivot_plugin_descriptor joint_descriptor(const char* id, const char* name, const char* description,
                                                   uint64_t capabilities, const pivot_param_info* params,
                                                   uint32_t param_count, const pivot_joint_functions* functions) {
    return pivot_plugin_descriptor{sizeof(pivot_plugin_descriptor), PIVOT_ABI_MAJOR, PIVOT_ABI_MINOR,
                                   PIVOT_KIND_JOINT, id, name, "Pivot", "1.0.0", description, capabilities,
                                   params, param_count, 0, functions};
}

// The descriptors, one per source file; joints_library.cpp lists them.
extern const pivot_plugin_descriptor kFixedDescriptor;
extern const pivot_plugin_descriptor kSphericalDescriptor;
extern const pivot_plugin_descriptor kRevoluteDescriptor;
extern const pivot_plugin_descriptor kPrismaticDescriptor;
extern const pivot_plugin_descriptor kCylindricalDescriptor;
extern const pivot_plugin_descriptor kUniversalDescriptor;
extern const pivot_plugin_descriptor kDistanceDescriptor;

}  // namespace pivot::joints

#endif  // PIVOT_PLUGINS_JOINTS_JOINT_COMMON_HPP
