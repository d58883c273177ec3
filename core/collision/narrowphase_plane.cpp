// Planes against sphere (narrowphase_sphere.cpp), capsule, box, cylinder:
// exact vertex tests against the half-space n.x <= d. Shape a is the body
// shape, b the plane; the normal from a to b is -n.
// Features: box corner index 0..7 (bit 0 = +x, bit 1 = +y, bit 2 = +z local);
// capsule end 0 (-z) / 1 (+z); cylinder: lowest rim point of cap c (0 = -z,
// 1 = +z) is 8 + c, fixed rim point k (local +x, +y, -x, -y) of cap c is 4 c + k.
#include "collision/narrowphase_internal.hpp"

namespace pivot::collision::detail {

namespace {

struct WorldPlane {
    Vec3 n;
    double d;
};
WorldPlane world_plane(const ShapeInstance& p) {
    const Vec3 n = (p.pose.orientation * p.shape.normal).normalized();
    return {n, p.shape.offset + n.dot(p.pose.position)};
}

// The point p of a (its surface) against the plane.
void vertex(const ShapeInstance& a, const ShapeInstance& b, const WorldPlane& pl, const Vec3& p, double margin,
            std::uint32_t feature, ContactBuffer& out) {
    const double depth = pl.d - pl.n.dot(p);
    if (depth < -margin) return;
    emit(out, a, b, p + pl.n * (0.5 * depth), -pl.n, depth, feature);
}

}  // namespace

void box_plane(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out) {
    const WorldPlane pl = world_plane(b);
    const Vec3 h = 0.5 * a.shape.size;
    CandidateSet set;
    for (std::uint32_t k = 0; k < 8; ++k) {
        const Vec3 l((k & 1u) ? h.x() : -h.x(), (k & 2u) ? h.y() : -h.y(), (k & 4u) ? h.z() : -h.z());
        const Vec3 p = a.pose.position + a.pose.orientation * l;
        const double depth = pl.d - pl.n.dot(p);
        if (depth >= -margin) set.add(p + pl.n * (0.5 * depth), depth, k);
    }
    reduce_and_emit(set, -pl.n, a, b, out);
}

void capsule_plane(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out) {
    const WorldPlane pl = world_plane(b);
    const Segment s = axis_segment(a);
    vertex(a, b, pl, s.p0 - pl.n * a.shape.radius, margin, 0, out);
    vertex(a, b, pl, s.p1 - pl.n * a.shape.radius, margin, 1, out);
}

void cylinder_plane(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out) {
    const WorldPlane pl = world_plane(b);
    const Mat3 R = a.pose.orientation.toRotationMatrix();
    const Vec3 axis = R.col(2);
    const double half = 0.5 * a.shape.length;
    const double r = a.shape.radius;
    // Rim direction towards the plane, in the cap's plane.
    const Vec3 w = -pl.n + axis * axis.dot(pl.n);
    const double wn = w.norm();
    // Nearly flat cap (axis within ~3 degrees of the normal, |w| < 0.05): the
    // 4 fixed rim points give a stable support polygon; they are real surface
    // points, so their depths are exact, and the lowest rim point is at most
    // r * 0.05 deeper than the deepest of them.
    const bool flat = wn < 0.05;
    CandidateSet set;
    auto add = [&](const Vec3& p, std::uint32_t feature) {
        const double depth = pl.d - pl.n.dot(p);
        if (depth >= -margin) set.add(p + pl.n * (0.5 * depth), depth, feature);
    };
    for (std::uint32_t cap = 0; cap < 2; ++cap) {
        const Vec3 centre = a.pose.position + axis * (cap == 0 ? -half : half);
        if (flat) {
            const Vec3 dirs[4] = {R.col(0), R.col(1), -R.col(0), -R.col(1)};
            for (std::uint32_t k = 0; k < 4; ++k) add(centre + dirs[k] * r, 4 * cap + k);
        } else {
            add(centre + w * (r / wn), 8 + cap);
        }
    }
    reduce_and_emit(set, -pl.n, a, b, out);
}

}  // namespace pivot::collision::detail
