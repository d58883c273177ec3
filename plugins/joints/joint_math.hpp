// Small fixed-size 3D math for the joint plugins: 3-vectors and unit
// quaternions (w, x, y, z, body to world), with no dependency beyond <cmath>,
// so the per-joint loops stay plain and inline. (The same idea as the
// rigid-body element's helpers; the joints keep their own copy so that the
// two plugin libraries share nothing but the SDK.)
#ifndef PIVOT_PLUGINS_JOINTS_JOINT_MATH_HPP
#define PIVOT_PLUGINS_JOINTS_JOINT_MATH_HPP

#include <cmath>

namespace pivot::joints {

struct Vec3 {
    double x, y, z;
};
inline Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline Vec3 operator-(Vec3 a) { return {-a.x, -a.y, -a.z}; }
inline Vec3 operator*(double s, Vec3 a) { return {s * a.x, s * a.y, s * a.z}; }
inline double dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec3 cross(Vec3 a, Vec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
inline Vec3 load3(const double* p) { return {p[0], p[1], p[2]}; }
inline void store3(Vec3 a, double* p) { p[0] = a.x, p[1] = a.y, p[2] = a.z; }

constexpr Vec3 kZero3{0.0, 0.0, 0.0};

// |a| without overflow or underflow in the squares (the components are
// scaled by the largest one first); 0 for the zero vector.
inline double norm(Vec3 a) {
    const double m = std::fmax(std::fabs(a.x), std::fmax(std::fabs(a.y), std::fabs(a.z)));
    if (!(m > 0.0)) return 0.0;
    const Vec3 s = (1.0 / m) * a;
    return m * std::sqrt(dot(s, s));
}

struct Quat {
    double w, x, y, z;
};
inline Quat load_quat(const double* p) { return {p[0], p[1], p[2], p[3]}; }
inline Quat conjugate(Quat q) { return {q.w, -q.x, -q.y, -q.z}; }
// Hamilton product.
inline Quat operator*(Quat a, Quat b) {
    return {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}
inline Vec3 vec(Quat q) { return {q.x, q.y, q.z}; }

// Unit quaternion of q, computed defensively: scaled by its largest
// component first (no overflow), and the identity for a zero or non-finite
// q. The host passes unit quaternions; this only keeps a bad input from
// turning into NaN rows.
inline Quat normalized(Quat q) {
    const double m = std::fmax(std::fmax(std::fabs(q.w), std::fabs(q.x)), std::fmax(std::fabs(q.y), std::fabs(q.z)));
    if (!(m > 0.0) || !std::isfinite(m)) return {1.0, 0.0, 0.0, 0.0};
    const Quat s{q.w / m, q.x / m, q.y / m, q.z / m};
    const double n = std::sqrt(s.w * s.w + s.x * s.x + s.y * s.y + s.z * s.z);
    return {s.w / n, s.x / n, s.y / n, s.z / n};
}

// The columns of the rotation matrix of a unit quaternion: the frame's x, y
// and z axes in world coordinates.
inline Vec3 axis_x(Quat q) {
    return {1 - 2 * (q.y * q.y + q.z * q.z), 2 * (q.x * q.y + q.w * q.z), 2 * (q.x * q.z - q.w * q.y)};
}
inline Vec3 axis_y(Quat q) {
    return {2 * (q.x * q.y - q.w * q.z), 1 - 2 * (q.x * q.x + q.z * q.z), 2 * (q.y * q.z + q.w * q.x)};
}
inline Vec3 axis_z(Quat q) {
    return {2 * (q.x * q.z + q.w * q.y), 2 * (q.y * q.z - q.w * q.x), 1 - 2 * (q.x * q.x + q.y * q.y)};
}
// R(q) a, world coordinates of the frame vector a.
inline Vec3 rotate(Quat q, Vec3 a) { return a.x * axis_x(q) + a.y * axis_y(q) + a.z * axis_z(q); }

}  // namespace pivot::joints

#endif  // PIVOT_PLUGINS_JOINTS_JOINT_MATH_HPP
