#pragma once
// Small vector and quaternion helpers for building a world (world*.cpp):
// frames of joints and cables, checks of given vectors. Quaternions are
// (w, x, y, z); Mat3 is [row][column].
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "common/error.hpp"
#include "world/world_description.hpp"

namespace pivot::frame_math {

using Mat3 = std::array<std::array<double, 3>, 3>;  // [row][column]

inline bool all_finite(const double* v, size_t n) {
    return std::all_of(v, v + n, [](double x) { return std::isfinite(x); });
}

inline Vec3d normalized(const Vec3d& a, const std::string& where) {
    const double n = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    if (!(n > 1e-12) || !std::isfinite(n)) throw Error(where + ": must be a nonzero finite vector");
    return {a[0] / n, a[1] / n, a[2] / n};
}

inline Vec3d cross(const Vec3d& a, const Vec3d& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
inline double dot(const Vec3d& a, const Vec3d& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

inline Mat3 rotation(const Quatd& q) {
    const double w = q[0], x = q[1], y = q[2], z = q[3];
    return {{{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
             {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
             {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}}};
}

// The unit quaternion of the rotation whose columns are x, y, z (Shepperd).
inline Quatd quaternion_from_axes(const Vec3d& x, const Vec3d& y, const Vec3d& z) {
    const double m00 = x[0], m11 = y[1], m22 = z[2];
    const double trace = m00 + m11 + m22;
    Quatd q;
    if (trace > 0) {
        const double s = 2 * std::sqrt(1 + trace);
        q = {0.25 * s, (y[2] - z[1]) / s, (z[0] - x[2]) / s, (x[1] - y[0]) / s};
    } else if (m00 > m11 && m00 > m22) {
        const double s = 2 * std::sqrt(1 + m00 - m11 - m22);
        q = {(y[2] - z[1]) / s, 0.25 * s, (y[0] + x[1]) / s, (z[0] + x[2]) / s};
    } else if (m11 > m22) {
        const double s = 2 * std::sqrt(1 + m11 - m00 - m22);
        q = {(z[0] - x[2]) / s, (y[0] + x[1]) / s, 0.25 * s, (z[1] + y[2]) / s};
    } else {
        const double s = 2 * std::sqrt(1 + m22 - m00 - m11);
        q = {(x[1] - y[0]) / s, (z[0] + x[2]) / s, (z[1] + y[2]) / s, 0.25 * s};
    }
    const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    return {q[0] / n, q[1] / n, q[2] / n, q[3] / n};
}

// A unit vector perpendicular to the unit vector `axis`.
inline Vec3d perpendicular(const Vec3d& axis) {
    const Vec3d helper = std::abs(axis[0]) < 0.9 ? Vec3d{1, 0, 0} : Vec3d{0, 1, 0};
    const double d = dot(helper, axis);
    return normalized({helper[0] - d * axis[0], helper[1] - d * axis[1], helper[2] - d * axis[2]}, "frame");
}

// A frame whose x axis is `axis` (the y axis chosen perpendicular to it).
inline Quatd frame_with_x(const Vec3d& axis) {
    const Vec3d y = perpendicular(axis);
    return quaternion_from_axes(axis, y, cross(axis, y));
}

// R(q) v.
inline Vec3d rotate(const Quatd& q, const Vec3d& v) {
    const Mat3 r = rotation(q);
    return {r[0][0] * v[0] + r[0][1] * v[1] + r[0][2] * v[2], r[1][0] * v[0] + r[1][1] * v[1] + r[1][2] * v[2],
            r[2][0] * v[0] + r[2][1] * v[1] + r[2][2] * v[2]};
}

inline Quatd conjugate_times(const Quatd& a, const Quatd& b) {  // a^* b
    const double w = a[0], x = -a[1], y = -a[2], z = -a[3];
    return {w * b[0] - x * b[1] - y * b[2] - z * b[3], w * b[1] + x * b[0] + y * b[3] - z * b[2],
            w * b[2] - x * b[3] + y * b[0] + z * b[1], w * b[3] + x * b[2] - y * b[1] + z * b[0]};
}

}  // namespace pivot::frame_math
