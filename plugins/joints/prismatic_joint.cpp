// pivot.joint.prismatic: a slider along the frames' common x axis; no
// relative rotation.
//
// Rows (see joint_common.hpp):
//   0..2  orientation:  phi = 2 vec(q1^* q2) sign(w_rel)   (F1 axes, rad)
//   3, 4  line:         phi = y1 . d, phi = z1 . d, d = p2 - p1   (m)
//         d/dt = a1 . (v2 - v1) + w1 . (a1 x d)
//   then  the motor row, the damping row and the limit row on the
//         translation s = x1 . d.
#include "joint_common.hpp"

namespace pivot::joints {
namespace {

struct Prismatic {
    static constexpr const char* kId = "pivot.joint.prismatic";
    static constexpr uint32_t kMaxRows = 8;  // 5 equality + motor + damping + limit
    static constexpr uint32_t kFrames = PIVOT_JOINT_FRAMES_AXIS_AT_BODY;
    static constexpr uint32_t kParamCount = kFreeCoordinateParamCount;

    static FreeCoordinate coordinate(const Frame& f1, const Frame& f2) { return translation_along_x(f1, f2); }

    static void write(RowWriter& out, const Frame& f1, const Frame& f2, const double* params, double h) {
        const Common c = common_of(params);
        orientation_rows(out, f1, f2, c);
        line_row(out, f1, f2, f1.y, c);
        line_row(out, f1, f2, f1.z, c);
        write_free_coordinate_rows<Prismatic>(out, f1, f2, params, h);
    }
};

constexpr CoordinateSchema kTranslation = {
    "m", "m/s", "N", "N/m", "N s/m",
    "lower limit of the translation along the axis",
    "upper limit of the translation along the axis",
    "target speed of the motor along the axis",
    "largest force the motor applies (>= 0)"};

constexpr auto kParams = free_coordinate_params(
    compliance_param("compliance of the five equality rows (m/N for translations, rad/(N m) for rotations); 0 = rigid"),
    kTranslation);

const pivot_joint_functions kFunctions = free_coordinate_joint_functions<Prismatic>();

}  // namespace

const pivot_plugin_descriptor kPrismaticDescriptor =
    joint_descriptor(Prismatic::kId, "Prismatic joint",
                     "slider along the x axis without rotation, with translation limits and a motor",
                     kFreeCoordinateCaps, kParams.data(), static_cast<uint32_t>(kParams.size()), &kFunctions);

}  // namespace pivot::joints
