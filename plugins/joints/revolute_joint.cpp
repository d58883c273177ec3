// pivot.joint.revolute: a hinge about the frames' common x axis.
//
// Rows (see joint_common.hpp):
//   0..2  point:          phi_k = e_k . (p2 - p1)        (world axes, m)
//   3, 4  perpendicular:  phi = y1 . x2, phi = z1 . x2   (rad)
//         d/dt = (w1 - w2) . (a1 x x2), a1 = y1, z1
//   then  the motor row, the damping row and the limit row on the angle
//         theta = atan2(z1.y2 - y1.z2, y1.y2 + z1.z2) about x.
// The hinge rows also vanish when x2 = -x1 (the hinge folded over), a
// configuration a simulation does not reach from the coinciding start.
#include "joint_common.hpp"

namespace pivot::joints {
namespace {

struct Revolute {
    static constexpr const char* kId = "pivot.joint.revolute";
    static constexpr uint32_t kMaxRows = 8;  // 5 equality + motor + damping + limit
    static constexpr uint32_t kFrames = PIVOT_JOINT_FRAMES_AXIS;
    static constexpr uint32_t kParamCount = kFreeCoordinateParamCount;

    static FreeCoordinate coordinate(const Frame& f1, const Frame& f2) { return angle_about_x(f1, f2); }

    static void write(RowWriter& out, const Frame& f1, const Frame& f2, const double* params, double h) {
        const Common c = common_of(params);
        point_rows(out, f1, f2, c);
        perpendicular_row(out, f1.y, f2.x, c);
        perpendicular_row(out, f1.z, f2.x, c);
        write_free_coordinate_rows<Revolute>(out, f1, f2, params, h);
    }
};

constexpr CoordinateSchema kAngle = {
    "rad", "rad/s", "N m", "N m/rad", "N m s/rad",
    "lower limit of the angle about the axis, within (-pi, pi)",
    "upper limit of the angle about the axis, within (-pi, pi)",
    "target angular rate of the motor about the axis",
    "largest torque the motor applies (>= 0)"};

constexpr auto kParams = free_coordinate_params(
    compliance_param("compliance of the five equality rows (m/N for translations, rad/(N m) for rotations); 0 = rigid"),
    kAngle);

const pivot_joint_functions kFunctions = free_coordinate_joint_functions<Revolute>();

}  // namespace

const pivot_plugin_descriptor kRevoluteDescriptor =
    joint_descriptor(Revolute::kId, "Revolute joint", "hinge about the x axis, with angle limits and a motor",
                     kFreeCoordinateCaps, kParams.data(), static_cast<uint32_t>(kParams.size()), &kFunctions);

}  // namespace pivot::joints
