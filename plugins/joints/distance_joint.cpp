// pivot.joint.distance: a massless rod between anchor1 (F1's origin) and
// anchor2 (F2's origin), which do not coincide.
//
// Row (see joint_common.hpp):
//   0  phi = |d| - length, d = p2 - p1 (m); d/dt = n . (v2 - v1), n = d/|d|,
//      J = (-n, 0, n, 0).
// When |d| <= 1e-12 m the direction is undefined (and the stateless joint
// has no previous direction to fall back on): n = x1, F1's x axis, and the
// violation is still |d| - length, so the rows stay finite and a length > 0
// pushes the anchors apart along x1. A rod of length 0 is a poor ball joint
// (one row, undefined direction at its solution): use pivot.joint.spherical.
#include "joint_common.hpp"

namespace pivot::joints {
namespace {

constexpr uint32_t kLength = kCommonParamCount;
constexpr double kDegenerateDistance = 1e-12;  // m

struct Distance {
    static constexpr const char* kId = "pivot.joint.distance";
    static constexpr uint32_t kMaxRows = 1;
    static constexpr uint32_t kFrames = PIVOT_JOINT_FRAMES_TWO_ANCHORS;
    static constexpr uint32_t kParamCount = kCommonParamCount + 1;

    static void write(RowWriter& out, const Frame& f1, const Frame& f2, const double* params, double) {
        const Vec3 d = f2.p - f1.p;
        const double r = norm(d);
        const Vec3 n = r > kDegenerateDistance ? (1.0 / r) * d : f1.x;
        out.add(equality_row(r - params[kLength], common_of(params)), -n, kZero3, n, kZero3);
        // A degenerate direction has no defined turn: no stiffness.
        if (out.stiffness != nullptr && r > kDegenerateDistance) distance_stiffness(out.stiffness, out.last_force(), n, r);
    }
};

const pivot_param_info kParams[] = {
    compliance_param("compliance of the rod (m/N); 0 = rigid"),
    damping_param(),
    item_param(PIVOT_PARAM_REAL, "length", "m",
               "rest distance between the anchors (the host uses the initial distance when the scene gives none)",
               0.0, 0.0, kInf, PIVOT_ROLE_REST_LENGTH),
};

const pivot_joint_functions kFunctions = joint_functions<Distance>();

}  // namespace

const pivot_plugin_descriptor kDistanceDescriptor =
    joint_descriptor(Distance::kId, "Distance joint", "rod: keeps the distance between two anchors at a length", 0,
                     kParams, sizeof(kParams) / sizeof(kParams[0]), &kFunctions);

}  // namespace pivot::joints
