// The scene format's short names for first-party joints where a word of the
// format stands for a joint plugin: a cable's attachment types. (A joint's
// "type" needs no table: a short name stands for pivot.joint.<name>.) The
// C API's pivot_cable_attachment.type takes the same words, so it reads them
// here too; nothing else in core names a first-party joint.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace pivot {

// The joint type that realizes a cable attachment type, or nothing for a word
// that is not one: "spherical" pins the node's position (a spherical joint);
// "fixed" also its tangent direction (a revolute joint about the tangent: the
// cable element has no torsion to clamp).
std::optional<std::string> cable_attachment_joint(std::string_view attachment_type);

// The attachment types, for messages: "spherical, fixed".
const char* cable_attachment_types();

}  // namespace pivot
