// The path of a rope over its sheaves (rope_geometry.hpp).
#include "world/rope_geometry.hpp"

#include <algorithm>
#include <cmath>

#include "world/frame_math.hpp"

namespace pivot {

using namespace frame_math;

namespace {

constexpr double kPi = 3.14159265358979323846;

Vec3d sub(const Vec3d& a, const Vec3d& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec3d axpy(const Vec3d& a, double s, const Vec3d& b) { return {a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2]}; }
double norm3(const Vec3d& a) { return std::sqrt(dot(a, a)); }

// The point where the rope from (sign +1) or to (sign -1) the point x
// touches sheave s, winding counterclockwise about its axis. With the
// in-plane part of x - c at distance D along u, and w = a x u, the two
// tangent points are at c + r (cos b u +- sin b w), cos b = r / D; the rope
// runs along a x rho there, which points away from x for the + one.
// False when x is inside the circle (the rope cannot be tangent): then the
// nearest point of the circle.
bool tangent_point(const RopeVertex& s, const Vec3d& x, double sign, Vec3d& out) {
    const Vec3d d = sub(x, s.centre);
    const Vec3d in_plane = axpy(d, -dot(d, s.axis), s.axis);
    const double distance = norm3(in_plane);
    const Vec3d u = distance > 0.0 ? Vec3d{in_plane[0] / distance, in_plane[1] / distance, in_plane[2] / distance}
                                   : perpendicular(s.axis);  // on the axis: any radius
    if (!(distance > s.radius)) {
        out = axpy(s.centre, s.radius, u);
        return false;
    }
    const Vec3d w = cross(s.axis, u);
    const double cos_b = s.radius / distance;
    const double sin_b = std::sqrt(std::max(0.0, 1.0 - cos_b * cos_b));
    for (int i = 0; i < 3; ++i) out[i] = s.centre[i] + s.radius * (cos_b * u[i] + sign * sin_b * w[i]);
    return true;
}

}  // namespace

void rope_path(const std::vector<RopeVertex>& route, RopePath& path) {
    const size_t n = route.size();
    path.arrive.resize(n);
    path.leave.resize(n);
    path.direction.resize(n > 0 ? n - 1 : 0);
    path.segment_length.resize(n > 0 ? n - 1 : 0);
    path.wrap.assign(n, 0.0);
    path.degenerate = false;
    path.length = 0.0;
    double scale = 0.0;
    for (size_t k = 0; k < n; ++k) {
        path.arrive[k] = path.leave[k] = route[k].centre;
        scale = std::max({scale, norm3(route[k].centre), route[k].radius});
    }
    // Tangent points of the sheaves between the ends (Gauss-Seidel: each
    // sweep uses its neighbours' latest points). Sheaves far apart compared
    // with their radii settle in a sweep or two; the cap only guards
    // pathological routes (the last sweep's points are used).
    constexpr int kMaxSweeps = 64;
    const double tolerance = 1e-13 * (1.0 + scale);
    bool inside = false;
    for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
        double moved = 0.0;
        inside = false;
        for (size_t k = 1; k + 1 < n; ++k) {
            const RopeVertex& s = route[k];
            if (s.radius <= 0.0) continue;
            Vec3d arrive{}, leave{};
            inside = !tangent_point(s, path.leave[k - 1], +1.0, arrive) || inside;
            inside = !tangent_point(s, path.arrive[k + 1], -1.0, leave) || inside;
            moved = std::max({moved, norm3(sub(arrive, path.arrive[k])), norm3(sub(leave, path.leave[k]))});
            path.arrive[k] = arrive;
            path.leave[k] = leave;
        }
        if (moved <= tolerance) break;
    }
    path.degenerate = inside;
    for (size_t k = 0; k + 1 < n; ++k) {
        const Vec3d d = sub(path.arrive[k + 1], path.leave[k]);
        const double l = norm3(d);
        path.segment_length[k] = l;
        if (l > 0.0) {
            path.direction[k] = {d[0] / l, d[1] / l, d[2] / l};
        } else {
            path.direction[k] = {0, 0, 0};
            path.degenerate = true;
        }
        path.length += l;
    }
    for (size_t k = 1; k + 1 < n; ++k) {
        const RopeVertex& s = route[k];
        if (s.radius <= 0.0) continue;
        const Vec3d in = sub(path.arrive[k], s.centre), out = sub(path.leave[k], s.centre);
        double wrap = std::atan2(dot(s.axis, cross(in, out)), dot(in, out));
        if (wrap < -0.5 * kPi) wrap += 2.0 * kPi;
        path.wrap[k] = wrap;
        path.length += s.radius * wrap;
    }
}

}  // namespace pivot
