// Box-cylinder and cylinder-cylinder (cylinder-sphere: narrowphase_sphere.cpp,
// cylinder-capsule: narrowphase_capsule.cpp, cylinder-plane: narrowphase_plane.cpp).
//
// APPROXIMATION (documented in narrowphase.hpp): a separating-axis test over a
// finite set of candidate axes, with exact support functions:
//   box-cylinder:      the 3 box face normals, the cylinder axis, the 3 cross
//                      products of the cylinder axis with the box axes, and the
//                      direction from the box to the point of the cylinder's axis
//                      segment nearest the box (golden-section search on the box's
//                      signed distance) and its part orthogonal to the axis;
//   cylinder-cylinder: both axes, their cross product, the direction between the
//                      closest points of the axis segments and its parts
//                      orthogonal to each axis.
// The candidate of least overlap gives the normal; the features of both shapes
// along it (box face / edge / vertex, cylinder cap as an inscribed 16-gon / side
// line / rim point) are clipped as for boxes. Exact for resting contacts
// (cylinder standing or lying on a box or on another cylinder's cap or side,
// box on a cylinder's cap): there the true normal is a candidate. For other
// poses the normal is the best candidate, not the true minimum translation
// direction, and rim points come from the 16-gon (radius error <= r (1 - cos
// 11.25 deg) = 1.9 % r). When every candidate overlaps but the shapes are
// separated (possible near rim-edge configurations), a shallow false contact
// can be reported.
#include <limits>

#include "collision/narrowphase_internal.hpp"

namespace pivot::collision::detail {

namespace {

constexpr int kMaxAxes = 12;
struct Axes {
    std::array<Vec3, kMaxAxes> v;
    int count = 0;
    void add(const Vec3& axis) {
        const double len = axis.norm();
        if (len > 1e-9 && count < kMaxAxes) v[static_cast<std::size_t>(count++)] = axis / len;
    }
};

void sat_and_clip(const ShapeInstance& a, const ShapeInstance& b, const Axes& axes, double margin,
                  ContactBuffer& out) {
    double best = std::numeric_limits<double>::infinity();
    Vec3 n = Vec3::UnitZ();
    for (int i = 0; i < axes.count; ++i) {
        const Vec3& L = axes.v[static_cast<std::size_t>(i)];
        const double max_a = support(a, L).dot(L);
        const double min_a = support(a, -L).dot(L);
        const double max_b = support(b, L).dot(L);
        const double min_b = support(b, -L).dot(L);
        const double forward = max_a - min_b;  // B on the +L side
        const double backward = max_b - min_a;
        const double o = std::min(forward, backward);
        if (o < -margin) return;
        // Ties go to the earlier candidate (faces and axes first).
        if (i == 0 || o < best - 1e-12 * (1.0 + std::abs(best))) {
            best = o;
            n = forward <= backward ? L : Vec3(-L);
        }
    }
    if (!(best < std::numeric_limits<double>::infinity())) return;
    const Feature fa = extreme_feature(a, n, false);
    const Feature fb = extreme_feature(b, -n, false);
    contacts_from_features(fa, fb, n, best, margin, a, b, out);
}

}  // namespace

void box_cylinder(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out) {
    const Mat3 Ra = a.pose.orientation.toRotationMatrix();
    const Vec3 axis = b.pose.orientation * Vec3::UnitZ();
    Axes axes;
    for (int k = 0; k < 3; ++k) axes.add(Ra.col(k));
    axes.add(axis);
    for (int k = 0; k < 3; ++k) axes.add(axis.cross(Ra.col(k)));
    // Point of the cylinder's axis segment nearest the box (convex distance:
    // golden section, 50 iterations shrink [0, 1] to 1e-10).
    const Segment s = axis_segment(b);
    auto f = [&](double t) { return signed_distance(a, s.p0 + t * (s.p1 - s.p0)).distance; };
    constexpr double g = 0.6180339887498949;
    double lo = 0.0, hi = 1.0;
    double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    double f1 = f(x1), f2 = f(x2);
    for (int i = 0; i < 50; ++i) {
        if (f1 < f2) {
            hi = x2, x2 = x1, f2 = f1, x1 = hi - g * (hi - lo), f1 = f(x1);
        } else {
            lo = x1, x1 = x2, f1 = f2, x2 = lo + g * (hi - lo), f2 = f(x2);
        }
    }
    const Vec3 p = s.p0 + 0.5 * (lo + hi) * (s.p1 - s.p0);
    const Sdf sd = signed_distance(a, p);
    const Vec3 d = sd.distance > 0.0 ? Vec3(p - sd.closest) : sd.normal;
    axes.add(d);
    axes.add(d - axis * axis.dot(d));
    sat_and_clip(a, b, axes, margin, out);
}

void cylinder_cylinder(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out) {
    const Vec3 ax = a.pose.orientation * Vec3::UnitZ();
    const Vec3 bx = b.pose.orientation * Vec3::UnitZ();
    Axes axes;
    axes.add(ax);
    axes.add(bx);
    axes.add(ax.cross(bx));
    double t1 = 0, t2 = 0;
    Vec3 c1, c2;
    closest_segment_segment(axis_segment(a), axis_segment(b), t1, t2, c1, c2);
    Vec3 d = c2 - c1;
    if (d.squaredNorm() < 1e-24) d = b.pose.position - a.pose.position;
    axes.add(d);
    axes.add(d - ax * ax.dot(d));
    axes.add(d - bx * bx.dot(d));
    sat_and_clip(a, b, axes, margin, out);
}

}  // namespace pivot::collision::detail
