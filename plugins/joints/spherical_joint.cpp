// pivot.joint.spherical: a ball joint; the frames' origins coincide, the
// three relative rotations are free.
//
// Rows (see joint_common.hpp):
//   0..2  point:  phi_k = e_k . (p2 - p1)   (world axes, m), J = (-e_k, 0, e_k, 0)
//   then  with damping, three damping rows on the relative rotation,
//         J = (0, -e_k, 0, e_k).
#include "joint_common.hpp"

namespace pivot::joints {
namespace {

struct Spherical {
    static constexpr const char* kId = "pivot.joint.spherical";
    static constexpr uint32_t kMaxRows = 6;  // 3 point + 3 damping
    static constexpr uint32_t kFrames = PIVOT_JOINT_FRAMES_ANCHOR;
    static constexpr uint32_t kParamCount = kCommonParamCount;

    static void write(RowWriter& out, const Frame& f1, const Frame& f2, const double* params, double h) {
        const Common c = common_of(params);
        point_rows(out, f1, f2, c);
        rotation_damping_rows(out, c, h);
    }
};

const pivot_param_info kParams[] = {
    compliance_param("compliance of the three translational rows (m/N); 0 = rigid"),
    damping_param(),
};

const pivot_joint_functions kFunctions = joint_functions<Spherical>();

}  // namespace

const pivot_plugin_descriptor kSphericalDescriptor =
    joint_descriptor(Spherical::kId, "Spherical joint", "ball joint: the anchors coincide, rotation is free", 0,
                     kParams, sizeof(kParams) / sizeof(kParams[0]), &kFunctions);

}  // namespace pivot::joints
