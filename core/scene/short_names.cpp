// The scene format's short names for first-party joints (short_names.hpp).
#include "scene/short_names.hpp"

namespace pivot {

std::optional<std::string> cable_attachment_joint(std::string_view attachment_type) {
    if (attachment_type == "spherical") return "pivot.joint.spherical";
    if (attachment_type == "fixed") return "pivot.joint.revolute";
    return std::nullopt;
}

const char* cable_attachment_types() {
    return "spherical: pins the node's position; fixed: also its tangent direction";
}

}  // namespace pivot
