// Capsule against capsule, box, cylinder (sphere: narrowphase_sphere.cpp,
// plane: narrowphase_plane.cpp).
//   capsule-capsule: closest points of the core segments (1 point, feature 0);
//     parallel segments overlapping along their length give 2 points at the
//     ends of the overlap (features 1, 2).
//   capsule-box, capsule-cylinder: the two end spheres (features 1, 2) against
//     the signed distance of the other shape, plus the minimum of that signed
//     distance along the segment (convex, golden-section search) when it is
//     deeper than both ends by more than 1e-9 (feature 0): a capsule crossing
//     an edge or lying across a cylinder's side; when the capsule lies along a
//     face (within ~6 degrees) the two ends of its part over that face
//     instead (features 3, 4), so that a box resting on a capsule longer than
//     itself has 2 supports.
#include "collision/narrowphase_internal.hpp"

namespace pivot::collision::detail {

namespace {

void sphere_pair(const ShapeInstance& a, const ShapeInstance& b, const Vec3& ca, const Vec3& cb, double margin,
                 std::uint32_t feature, const Vec3& fallback, ContactBuffer& out) {
    const Vec3 d = cb - ca;
    const double depth = a.shape.radius + b.shape.radius - d.norm();
    if (depth < -margin) return;
    const Vec3 n = safe_normalized(d, fallback);
    emit(out, a, b, 0.5 * ((ca + n * a.shape.radius) + (cb - n * b.shape.radius)), n, depth, feature);
}

// End spheres and the interior minimum of b's signed distance along a's core.
void capsule_convex(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out) {
    const Segment s = axis_segment(a);
    const double r = a.shape.radius;
    auto point = [&](double t, std::uint32_t feature, bool add) {
        const Vec3 c = s.p0 + t * (s.p1 - s.p0);
        const Sdf sd = signed_distance(b, c);
        const double depth = r - sd.distance;
        if (add && depth >= -margin) {
            const Vec3 n = -sd.normal;
            emit(out, a, b, 0.5 * ((c + n * r) + sd.closest), n, depth, feature);
        }
        return depth;
    };
    const double d0 = point(0.0, 1, true);
    const double d1 = point(1.0, 2, true);
    // Golden section on f(t) = sdf(c(t)), convex in t for convex b. 60
    // iterations shrink [0, 1] to 1e-12.
    constexpr double g = 0.6180339887498949;
    double lo = 0.0, hi = 1.0;
    double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    double f1 = -point(x1, 0, false), f2 = -point(x2, 0, false);
    for (int i = 0; i < 60; ++i) {
        if (f1 < f2) {
            hi = x2, x2 = x1, f2 = f1;
            x1 = hi - g * (hi - lo);
            f1 = -point(x1, 0, false);
        } else {
            lo = x1, x1 = x2, f1 = f2;
            x2 = lo + g * (hi - lo);
            f2 = -point(x2, 0, false);
        }
    }
    const double t = 0.5 * (lo + hi);
    const double dt = point(t, 0, false);
    if (!(dt > std::max(d0, d1) + 1e-9)) return;
    // A capsule lying along a face (a box resting on a log longer than it):
    // the part of the segment over that face is a line contact, and its two
    // ends (features 3, 4) are the support; one interior point would let the
    // box seesaw on the log. Taken when the segment is within ~6 degrees of
    // the face's plane; the part over the face (where the closest feature
    // keeps the face's normal, an interval: the segment inside the face's
    // prism) is found by bisection. Otherwise (crossing an edge, across a
    // cylinder's side) the single deepest point.
    const Vec3 along = s.p1 - s.p0;
    const double length = along.norm();
    auto at = [&](double u) { return s.p0 + u * along; };
    // The face: the normal a little (half the radius) to either side of the
    // deepest point, whichever lies flatter along the segment: a tilted box
    // touches with an edge at one end of its face's part, and that part may
    // be anywhere along a long capsule.
    const double step = length > 0.0 ? std::min(0.5, 0.5 * r / length) : 0.0;
    const double before = std::max(0.0, t - step), after = std::min(1.0, t + step);
    const Vec3 normal_before = signed_distance(b, at(before)).normal;
    const Vec3 normal_after = signed_distance(b, at(after)).normal;
    const bool after_flatter = std::abs(along.dot(normal_after)) <= std::abs(along.dot(normal_before));
    const double probe = after_flatter ? after : before;
    const Vec3 face = after_flatter ? normal_after : normal_before;
    auto over_face = [&](double u) { return signed_distance(b, at(u)).normal.dot(face) > 1.0 - 1e-9; };
    if (length > 0.0 && std::abs(along.dot(face)) < 0.1 * length) {
        auto edge = [&](double inside, double outside) {
            for (int i = 0; i < 50; ++i) {
                const double mid = 0.5 * (inside + outside);
                (over_face(mid) ? inside : outside) = mid;
            }
            return inside;
        };
        const double ta = over_face(0.0) ? 0.0 : edge(probe, 0.0);
        const double tb = over_face(1.0) ? 1.0 : edge(probe, 1.0);
        if (over_face(probe) && (tb - ta) * length >= 0.1 * r) {
            if (ta > 0.0) point(ta, 3, true);  // else the end sphere (feature 1) is that end
            if (tb < 1.0) point(tb, 4, true);
            return;
        }
    }
    point(t, 0, true);
}

}  // namespace

void capsule_capsule(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out) {
    const Segment sa = axis_segment(a);
    const Segment sb = axis_segment(b);
    const Vec3 da = sa.p1 - sa.p0;
    const Vec3 db = sb.p1 - sb.p0;
    const Vec3 fallback = any_orthogonal(safe_normalized(da, Vec3::UnitZ()));
    const double laa = da.squaredNorm();
    const double lbb = db.squaredNorm();
    // Parallel: sin^2 of the angle < 1e-8 (angle < 1e-4 rad).
    if (laa > 1e-18 && lbb > 1e-18 && da.cross(db).squaredNorm() < 1e-8 * laa * lbb) {
        // B's ends as parameters along A, and the overlap of [0, 1] with them.
        double u0 = (sb.p0 - sa.p0).dot(da) / laa;
        double u1 = (sb.p1 - sa.p0).dot(da) / laa;
        if (u0 > u1) std::swap(u0, u1);
        const double lo = std::max(0.0, u0);
        const double hi = std::min(1.0, u1);
        if (hi - lo > 1e-9) {
            const Vec3 pa0 = sa.p0 + lo * da;
            const Vec3 pa1 = sa.p0 + hi * da;
            sphere_pair(a, b, pa0, closest_on_segment(sb, pa0), margin, 1, fallback, out);
            sphere_pair(a, b, pa1, closest_on_segment(sb, pa1), margin, 2, fallback, out);
            return;
        }
    }
    double t1 = 0, t2 = 0;
    Vec3 c1, c2;
    closest_segment_segment(sa, sb, t1, t2, c1, c2);
    sphere_pair(a, b, c1, c2, margin, 0, fallback, out);
}

void capsule_box(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out) {
    capsule_convex(a, b, margin, out);
}

void capsule_cylinder(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out) {
    capsule_convex(a, b, margin, out);
}

}  // namespace pivot::collision::detail
