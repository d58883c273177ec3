// pivot.joint.cylindrical: slides along and turns about the frames' common x
// axis. Its limits, motor and free coordinate act on the TRANSLATION along
// the axis (the ABI has one free coordinate per joint); the rotation about
// the axis is free and unlimited.
//
// Rows (see joint_common.hpp):
//   0, 1  perpendicular:  phi = y1 . x2, phi = z1 . x2          (rad)
//   2, 3  line:           phi = y1 . d, phi = z1 . d, d = p2 - p1   (m)
//   then  the motor row, the damping rows of the translation s = x1 . d
//         and of the angle about x, and the limit row on s.
#include "joint_common.hpp"

namespace pivot::joints {
namespace {

struct Cylindrical {
    static constexpr const char* kId = "pivot.joint.cylindrical";
    static constexpr uint32_t kMaxRows = 8;  // 4 equality + motor + 2 damping + limit
    static constexpr uint32_t kFrames = PIVOT_JOINT_FRAMES_AXIS;
    static constexpr uint32_t kParamCount = kFreeCoordinateParamCount;

    static FreeCoordinate coordinate(const Frame& f1, const Frame& f2) { return translation_along_x(f1, f2); }

    static void write(RowWriter& out, const Frame& f1, const Frame& f2, const double* params, double h) {
        const Common c = common_of(params);
        perpendicular_row(out, f1.y, f2.x, c);
        perpendicular_row(out, f1.z, f2.x, c);
        line_row(out, f1, f2, f1.y, c);
        line_row(out, f1, f2, f1.z, c);
        write_free_coordinate_rows<Cylindrical>(out, f1, f2, params, h, /*rotation_free=*/true);
    }
};

constexpr CoordinateSchema kTranslation = {
    "m", "m/s", "N", "N/m", "N s/m",
    "lower limit of the translation along the axis (the rotation is not limited)",
    "upper limit of the translation along the axis (the rotation is not limited)",
    "target speed of the motor along the axis (the motor does not turn the joint)",
    "largest force the motor applies along the axis (>= 0)"};

constexpr auto kParams = free_coordinate_params(
    compliance_param("compliance of the four equality rows (m/N for translations, rad/(N m) for rotations); 0 = rigid"),
    kTranslation);

const pivot_joint_functions kFunctions = free_coordinate_joint_functions<Cylindrical>();

}  // namespace

const pivot_plugin_descriptor kCylindricalDescriptor =
    joint_descriptor(Cylindrical::kId, "Cylindrical joint",
                     "slides along and turns about the x axis; limits and motor act on the translation",
                     kFreeCoordinateCaps, kParams.data(), static_cast<uint32_t>(kParams.size()), &kFunctions);

}  // namespace pivot::joints
