// Sphere against sphere, capsule, box, cylinder: exact. The sphere centre's
// closest point on (or signed distance to) the other shape gives the normal
// and the depth. Feature index 0 (a sphere pair has one contact).
#include "collision/narrowphase_internal.hpp"

namespace pivot::collision::detail {

namespace {

// Spheres (ca, ra) and (cb, rb); coincident centres get the normal +z.
void spheres(const ShapeInstance& a, const ShapeInstance& b, const Vec3& ca, double ra, const Vec3& cb, double rb,
             double margin, ContactBuffer& out, std::uint32_t feature) {
    const Vec3 d = cb - ca;
    const double dist = d.norm();
    const double depth = ra + rb - dist;
    if (depth < -margin) return;
    const Vec3 n = safe_normalized(d, Vec3::UnitZ());
    const Vec3 pa = ca + n * ra;
    const Vec3 pb = cb - n * rb;
    emit(out, a, b, 0.5 * (pa + pb), n, depth, feature);
}

// Sphere a against the convex shape b through b's signed distance.
void sphere_convex(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out) {
    const Vec3& c = a.pose.position;
    const Sdf s = signed_distance(b, c);
    const double depth = a.shape.radius - s.distance;
    if (depth < -margin) return;
    const Vec3 n = -s.normal;  // b's outward normal points towards a
    const Vec3 pa = c + n * a.shape.radius;
    emit(out, a, b, 0.5 * (pa + s.closest), n, depth, 0);
}

}  // namespace

void sphere_sphere(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out) {
    spheres(a, b, a.pose.position, a.shape.radius, b.pose.position, b.shape.radius, margin, out, 0);
}

void sphere_capsule(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out) {
    const Vec3 q = closest_on_segment(axis_segment(b), a.pose.position);
    // Centre on the axis: any direction orthogonal to the axis separates.
    if ((q - a.pose.position).squaredNorm() < 1e-24) {
        const Vec3 axis = b.pose.orientation * Vec3::UnitZ();
        const Vec3 n = any_orthogonal(axis);
        const double depth = a.shape.radius + b.shape.radius;
        if (depth < -margin) return;
        emit(out, a, b, a.pose.position + n * (0.5 * (a.shape.radius - b.shape.radius)), n, depth, 0);
        return;
    }
    spheres(a, b, a.pose.position, a.shape.radius, q, b.shape.radius, margin, out, 0);
}

void sphere_box(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out) {
    sphere_convex(a, b, margin, out);
}

void sphere_cylinder(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out) {
    sphere_convex(a, b, margin, out);
}

void sphere_plane(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out) {
    sphere_convex(a, b, margin, out);
}

}  // namespace pivot::collision::detail
