// Small fixed-size 3D math for the rigid-body element: quaternions (w, x, y,
// z, body to world), 3-vectors and 3x3 matrices (row-major in arrays), with
// no dependency beyond <cmath>, so the per-item loops stay plain and inline.
#ifndef PIVOT_PLUGINS_RIGID_BODY_MATH_HPP
#define PIVOT_PLUGINS_RIGID_BODY_MATH_HPP

#include <cmath>

namespace pivot::rigid {

struct Vec3 {
    double x, y, z;
};
inline Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline Vec3 operator*(double s, Vec3 a) { return {s * a.x, s * a.y, s * a.z}; }
inline double dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec3 cross(Vec3 a, Vec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
inline Vec3 load3(const double* p) { return {p[0], p[1], p[2]}; }
inline void store3(Vec3 a, double* p) { p[0] = a.x, p[1] = a.y, p[2] = a.z; }

// 3x3 matrix, m[r][c].
struct Mat3 {
    double m[3][3];
};
inline Vec3 operator*(const Mat3& a, Vec3 v) {
    return {a.m[0][0] * v.x + a.m[0][1] * v.y + a.m[0][2] * v.z, a.m[1][0] * v.x + a.m[1][1] * v.y + a.m[1][2] * v.z,
            a.m[2][0] * v.x + a.m[2][1] * v.y + a.m[2][2] * v.z};
}
inline Mat3 operator*(const Mat3& a, const Mat3& b) {
    Mat3 c{};
    for (int r = 0; r < 3; ++r)
        for (int k = 0; k < 3; ++k)
            for (int col = 0; col < 3; ++col) c.m[r][col] += a.m[r][k] * b.m[k][col];
    return c;
}
inline Mat3 transpose(const Mat3& a) {
    Mat3 t{};
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) t.m[r][c] = a.m[c][r];
    return t;
}
// [v]x, so that skew(a) * b = a x b.
inline Mat3 skew(Vec3 a) { return Mat3{{{0, -a.z, a.y}, {a.z, 0, -a.x}, {-a.y, a.x, 0}}}; }

// Solves a x = b for a 3x3 matrix by Cramer's rule; false if singular.
inline bool solve3(const Mat3& a, Vec3 b, Vec3& x) {
    const auto& m = a.m;
    const double c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1];
    const double c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2];
    const double c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0];
    const double det = m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02;
    const double scale = std::abs(m[0][0]) + std::abs(m[1][1]) + std::abs(m[2][2]);
    if (!(std::abs(det) > 1e-14 * scale * scale * scale)) return false;
    const Mat3 inv_t{{{c00, c01, c02},
                      {m[0][2] * m[2][1] - m[0][1] * m[2][2], m[0][0] * m[2][2] - m[0][2] * m[2][0],
                       m[0][1] * m[2][0] - m[0][0] * m[2][1]},
                      {m[0][1] * m[1][2] - m[0][2] * m[1][1], m[0][2] * m[1][0] - m[0][0] * m[1][2],
                       m[0][0] * m[1][1] - m[0][1] * m[1][0]}}};
    // inverse = transpose(cofactors) / det
    x = (1.0 / det) * (transpose(inv_t) * b);
    return true;
}

struct Quat {
    double w, x, y, z;
};
inline Quat load_quat(const double* p) { return {p[0], p[1], p[2], p[3]}; }
inline void store_quat(Quat q, double* p) { p[0] = q.w, p[1] = q.x, p[2] = q.y, p[3] = q.z; }
inline Quat operator*(Quat a, Quat b) {
    return {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}
inline Quat normalized(Quat q) {
    const double n = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
    return {q.w / n, q.x / n, q.y / n, q.z / n};
}
// The rotation matrix of a unit quaternion (body to world).
inline Mat3 rotation(Quat q) {
    const double w = q.w, x = q.x, y = q.y, z = q.z;
    return Mat3{{{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                 {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                 {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}}};
}
// exp of the rotation vector r (angle |r| about r/|r|), as a unit quaternion;
// the series near zero keeps it exact to rounding.
inline Quat exp_rotation(Vec3 r) {
    const double angle = std::sqrt(dot(r, r));
    const double half = 0.5 * angle;
    const double s = angle < 1e-8 ? 0.5 - angle * angle / 48.0 : std::sin(half) / angle;
    return {std::cos(half), s * r.x, s * r.y, s * r.z};
}

}  // namespace pivot::rigid

#endif  // PIVOT_PLUGINS_RIGID_BODY_MATH_HPP
