// Geometric stiffness of the joint rows (plugin_joint.h geometric_stiffness,
// ABI 1.3): for a row with Jacobian J(frames) and force f held constant, the
// frame wrenches F = J^T f turn as the frames move; K = -dF/d(frames), a
// 12 x 12 matrix over (dp1, dtheta1, dp2, dtheta2), column-major. Every
// frame axis turns as d a1 = dtheta1 x a1 = -[a1]x dtheta1. Per row kind
// (joint_common.hpp names them; tests/joints finite-difference each):
//
//   point         J constant in world coordinates: nothing.
//   line          F = f (-a1, a1 x d, a1, 0), d = p2 - p1:
//                 dF_p1 = f [a1]x dth1,  dF_p2 = -f [a1]x dth1,
//                 dF_th1 = f ([d]x [a1]x dth1 + [a1]x (dp2 - dp1)).
//   perpendicular F = f (0, g, 0, -g), g = a1 x b2:
//                 dg = [b2]x [a1]x dth1 - [a1]x [b2]x dth2.
//   orientation   F = f_k (0, -a_k, 0, a_k), a_k = w a1_k + u x a1_k,
//                 (w, v) = q_rel = q1^* q2 (sign-flipped to w >= 0),
//                 u = R1 v. Turning the frames changes q_rel by
//                 (1/2) q_rel (0, R2^T (dth2 - dth1)), so with
//                 E = R1 R2^T (dth2 - dth1): dw = -(1/2) u.E,
//                 du = dth1 x u + (1/2)(w E + u x E), and
//                 d a_k = P_th dth1 + P_E E,
//                 P_th = -w [a]x + [a]x [u]x - [u]x [a]x,
//                 P_E = -(1/2)(a u^T + [a]x (w I + [u]x)).
//   distance      F = f (-n, 0, n, 0), n = d / |d|:
//                 dn = (I - n n^T)(dp2 - dp1) / |d|.
//   angle         (revolute limit and motor rows) F = f (0, -g, 0, g),
//                 g the angle's gradient (x1 on the constraint manifold):
//                 taken to turn with the mean of the two frames,
//                 dg = ((dth1 + dth2) / 2) x g, exact on the manifold for
//                 turns about the axis and first order in the joint's
//                 angular violation otherwise.
//   translation   (prismatic, cylindrical limit and motor rows): a line
//                 row along x1.
#ifndef PIVOT_PLUGINS_JOINTS_JOINT_STIFFNESS_HPP
#define PIVOT_PLUGINS_JOINTS_JOINT_STIFFNESS_HPP

#include <cstddef>

#include "joint_math.hpp"

namespace pivot::joints {

// A 3 x 3 matrix, [row][column].
struct Mat3 {
    double m[3][3];
};

inline Mat3 skew(Vec3 a) { return Mat3{{{0, -a.z, a.y}, {a.z, 0, -a.x}, {-a.y, a.x, 0}}}; }
inline Mat3 outer(Vec3 a, Vec3 b) {
    return Mat3{{{a.x * b.x, a.x * b.y, a.x * b.z}, {a.y * b.x, a.y * b.y, a.y * b.z}, {a.z * b.x, a.z * b.y, a.z * b.z}}};
}
inline Mat3 identity3(double s) { return Mat3{{{s, 0, 0}, {0, s, 0}, {0, 0, s}}}; }
inline Mat3 operator*(const Mat3& a, const Mat3& b) {
    Mat3 r{};
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) r.m[i][j] = a.m[i][0] * b.m[0][j] + a.m[i][1] * b.m[1][j] + a.m[i][2] * b.m[2][j];
    }
    return r;
}
inline Mat3 operator+(const Mat3& a, const Mat3& b) {
    Mat3 r{};
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) r.m[i][j] = a.m[i][j] + b.m[i][j];
    }
    return r;
}
inline Mat3 operator*(double s, const Mat3& a) {
    Mat3 r{};
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) r.m[i][j] = s * a.m[i][j];
    }
    return r;
}
inline Mat3 operator-(const Mat3& a, const Mat3& b) { return a + (-1.0) * b; }
// The rotation matrix with the given columns.
inline Mat3 columns(Vec3 x, Vec3 y, Vec3 z) { return Mat3{{{x.x, y.x, z.x}, {x.y, y.y, z.y}, {x.z, y.z, z.z}}}; }
inline Mat3 transpose(const Mat3& a) {
    Mat3 r{};
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) r.m[i][j] = a.m[j][i];
    }
    return r;
}

// Frame displacement blocks of the 12 x 12 stiffness.
enum Block { kP1 = 0, kTh1 = 3, kP2 = 6, kTh2 = 9 };

// K += -(dF_row / d col) for one 3 x 3 block of dF/d(frames): the stiffness
// is minus the wrenches' derivative.
inline void add_derivative(double* k, Block row, Block column, const Mat3& dF) {
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) k[(row + i) + 12 * static_cast<size_t>(column + j)] -= dF.m[i][j];
    }
}

inline void line_stiffness(double* k, double f, Vec3 a1, Vec3 d) {
    const Mat3 a = f * skew(a1);
    add_derivative(k, kP1, kTh1, a);
    add_derivative(k, kP2, kTh1, -1.0 * a);
    add_derivative(k, kTh1, kTh1, skew(d) * a);
    add_derivative(k, kTh1, kP1, -1.0 * a);
    add_derivative(k, kTh1, kP2, a);
}

inline void perpendicular_stiffness(double* k, double f, Vec3 a1, Vec3 b2) {
    const Mat3 dg1 = f * (skew(b2) * skew(a1));
    const Mat3 dg2 = -f * (skew(a1) * skew(b2));
    add_derivative(k, kTh1, kTh1, dg1);
    add_derivative(k, kTh1, kTh2, dg2);
    add_derivative(k, kTh2, kTh1, -1.0 * dg1);
    add_derivative(k, kTh2, kTh2, -1.0 * dg2);
}

// Row k of the orientation rows: a = F1's axis k, (w, u) the flipped
// relative quaternion with u = R1 v, q12 = R1 R2^T.
inline void orientation_stiffness(double* k, double f, Vec3 a, double w, Vec3 u, const Mat3& q12) {
    const Mat3 sa = skew(a), su = skew(u);
    const Mat3 p_th = (-w) * sa + sa * su - su * sa;
    const Mat3 p_e = -0.5 * (outer(a, u) + sa * (identity3(w) + su));
    const Mat3 b = p_e * q12;  // d a / d dth2
    const Mat3 da1 = f * (p_th - b);
    const Mat3 da2 = f * b;
    add_derivative(k, kTh2, kTh1, da1);
    add_derivative(k, kTh2, kTh2, da2);
    add_derivative(k, kTh1, kTh1, -1.0 * da1);
    add_derivative(k, kTh1, kTh2, -1.0 * da2);
}

inline void distance_stiffness(double* k, double f, Vec3 n, double length) {
    const Mat3 dn = (f / length) * (identity3(1.0) - outer(n, n));
    add_derivative(k, kP2, kP2, dn);
    add_derivative(k, kP2, kP1, -1.0 * dn);
    add_derivative(k, kP1, kP2, -1.0 * dn);
    add_derivative(k, kP1, kP1, dn);
}

// F = f (0, -g, 0, g) with g turning with the mean of the frames.
inline void angle_stiffness(double* k, double f, Vec3 g) {
    const Mat3 dg = (-0.5 * f) * skew(g);  // d g = -(1/2)[g]x (dth1 + dth2)
    add_derivative(k, kTh2, kTh1, dg);
    add_derivative(k, kTh2, kTh2, dg);
    add_derivative(k, kTh1, kTh1, -1.0 * dg);
    add_derivative(k, kTh1, kTh2, -1.0 * dg);
}

// F = f (0, -a, 0, a) with a fixed on frame `turning`: d a = -[a]x dth.
inline void axis_stiffness(double* k, double f, Vec3 a, Block turning) {
    const Mat3 da = (-f) * skew(a);
    add_derivative(k, kTh2, turning, da);
    add_derivative(k, kTh1, turning, -1.0 * da);
}

}  // namespace pivot::joints

#endif  // PIVOT_PLUGINS_JOINTS_JOINT_STIFFNESS_HPP
