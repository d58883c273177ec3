// pivot.joint.universal: a Cardan joint. The origins coincide; axis1 (F1's
// x axis) and axis2 (F2's y axis) stay perpendicular, so the rotations about
// both axes are free and the one about their common normal is removed.
//
// Rows (see joint_common.hpp):
//   0..2  point:          phi_k = e_k . (p2 - p1)   (world axes, m)
//   3     perpendicular:  phi = x1 . y2             (rad)
//         d/dt = (w1 - w2) . (x1 x y2)
//   then  with damping, damping rows on the rotations about x1 and y2,
//         J = (0, -a, 0, a).
#include "joint_common.hpp"

namespace pivot::joints {
namespace {

struct Universal {
    static constexpr const char* kId = "pivot.joint.universal";
    static constexpr uint32_t kMaxRows = 6;  // 4 equality + 2 damping
    static constexpr uint32_t kFrames = PIVOT_JOINT_FRAMES_TWO_AXES;
    static constexpr uint32_t kParamCount = kCommonParamCount;

    static void write(RowWriter& out, const Frame& f1, const Frame& f2, const double* params, double h) {
        const Common c = common_of(params);
        point_rows(out, f1, f2, c);
        perpendicular_row(out, f1.x, f2.y, c);
        axis_damping_row(out, f1.x, kTh1, c, h);
        axis_damping_row(out, f2.y, kTh2, c, h);
    }
};

const pivot_param_info kParams[] = {
    compliance_param("compliance of the four rows (m/N for translations, rad/(N m) for the angular row); 0 = rigid"),
    damping_param(),
};

const pivot_joint_functions kFunctions = joint_functions<Universal>();

}  // namespace

const pivot_plugin_descriptor kUniversalDescriptor =
    joint_descriptor(Universal::kId, "Universal joint",
                     "Cardan joint: anchors coincide, axis1 (x on body 1) stays perpendicular to axis2 (y on body 2)",
                     0, kParams, sizeof(kParams) / sizeof(kParams[0]), &kFunctions);

}  // namespace pivot::joints
