// pivot.joint.fixed: welds F2 to F1, removing all six relative DOF.
//
// Rows (see joint_common.hpp for the derivations):
//   0..2  point:        phi_k = e_k . (p2 - p1)                 (world axes, m)
//   3..5  orientation:  phi = 2 vec(q1^* q2) sign(w_rel)        (F1 axes, rad)
#include "joint_common.hpp"

namespace pivot::joints {
namespace {

struct Fixed {
    static constexpr const char* kId = "pivot.joint.fixed";
    static constexpr uint32_t kMaxRows = 6;
    static constexpr uint32_t kFrames = PIVOT_JOINT_FRAMES_ANCHOR;
    static constexpr uint32_t kParamCount = kCommonParamCount;

    static void write(RowWriter& out, const Frame& f1, const Frame& f2, const double* params, double) {
        const Common c = common_of(params);
        point_rows(out, f1, f2, c);
        orientation_rows(out, f1, f2, c);
    }
};

const pivot_param_info kParams[] = {
    compliance_param("compliance of the six rows (m/N for translations, rad/(N m) for rotations); 0 = rigid"),
    damping_param(),
};

const pivot_joint_functions kFunctions = joint_functions<Fixed>();

}  // namespace

const pivot_plugin_descriptor kFixedDescriptor =
    joint_descriptor(Fixed::kId, "Fixed joint", "welds two frames: all six relative DOF removed", 0, kParams,
                     sizeof(kParams) / sizeof(kParams[0]), &kFunctions);

}  // namespace pivot::joints
