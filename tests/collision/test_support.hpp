// Helpers shared by the collision tests.
#pragma once

#include <cmath>
#include <vector>

#include "collision/narrowphase.hpp"

namespace pivot::collision::test {

inline ShapeInstance place(const Shape& s, const Vec3& p, const Quat& q = Quat::Identity(), std::uint32_t index = 0) {
    ShapeInstance i;
    i.shape = s;
    i.pose.position = p;
    i.pose.orientation = q.normalized();
    i.index = index;
    return i;
}

inline std::vector<Contact> run(const ShapeInstance& a, const ShapeInstance& b, double margin = 0.0) {
    ContactBuffer buf;
    collide(a, b, margin, buf);
    return buf.contacts;
}

inline Quat about(const Vec3& axis, double angle) { return Quat(Eigen::AngleAxisd(angle, axis.normalized())); }

}  // namespace pivot::collision::test
