// Shared narrowphase geometry: closest points, signed distances, support
// points, polyhedral features, clipping and manifold reduction.
#include <cmath>

#include "collision/narrowphase_internal.hpp"

namespace pivot::collision::detail {

void closest_segment_segment(const Segment& s1, const Segment& s2, double& t1, double& t2, Vec3& c1, Vec3& c2) {
    const Vec3 d1 = s1.p1 - s1.p0;
    const Vec3 d2 = s2.p1 - s2.p0;
    const Vec3 r = s1.p0 - s2.p0;
    const double a = d1.squaredNorm();
    const double e = d2.squaredNorm();
    const double f = d2.dot(r);
    constexpr double eps = 1e-300;
    if (a <= eps && e <= eps) {
        t1 = t2 = 0.0;
    } else if (a <= eps) {
        t1 = 0.0;
        t2 = std::clamp(f / e, 0.0, 1.0);
    } else {
        const double c = d1.dot(r);
        if (e <= eps) {
            t2 = 0.0;
            t1 = std::clamp(-c / a, 0.0, 1.0);
        } else {
            const double b = d1.dot(d2);
            const double denom = a * e - b * b;
            // Parallel (denom ~ 0): any t1 works; take the start of segment 1.
            t1 = denom > 1e-12 * a * e ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
            t2 = (b * t1 + f) / e;
            if (t2 < 0.0) {
                t2 = 0.0;
                t1 = std::clamp(-c / a, 0.0, 1.0);
            } else if (t2 > 1.0) {
                t2 = 1.0;
                t1 = std::clamp((b - c) / a, 0.0, 1.0);
            }
        }
    }
    c1 = s1.p0 + t1 * d1;
    c2 = s2.p0 + t2 * d2;
}

namespace {

Sdf box_sdf_local(const Vec3& h, const Vec3& p) {
    Sdf out;
    const Vec3 q = p.cwiseAbs() - h;
    if (q.maxCoeff() > 0.0) {
        const Vec3 c = p.cwiseMax(-h).cwiseMin(h);
        const Vec3 d = p - c;
        out.distance = d.norm();
        out.normal = safe_normalized(d, Vec3::UnitZ());
        out.closest = c;
    } else {
        Eigen::Index axis = 0;
        q.maxCoeff(&axis);
        const double s = p[axis] >= 0.0 ? 1.0 : -1.0;
        out.distance = q[axis];
        out.normal = Vec3::Zero();
        out.normal[axis] = s;
        out.closest = p;
        out.closest[axis] = s * h[axis];
    }
    return out;
}

Sdf cylinder_sdf_local(double radius, double half, const Vec3& p) {
    Sdf out;
    const double r = std::hypot(p.x(), p.y());
    const Vec3 u = r > 1e-12 ? Vec3(p.x() / r, p.y() / r, 0.0) : Vec3::UnitX();
    const double dr = r - radius;
    const double dz = std::abs(p.z()) - half;
    const double sz = p.z() >= 0.0 ? 1.0 : -1.0;
    if (dr > 0.0 || dz > 0.0) {
        const Vec3 c = u * std::min(r, radius) + Vec3(0, 0, std::clamp(p.z(), -half, half));
        const Vec3 d = p - c;
        out.distance = d.norm();
        out.normal = safe_normalized(d, Vec3(0, 0, sz));
        out.closest = c;
    } else if (dz >= dr) {
        out.distance = dz;
        out.normal = Vec3(0, 0, sz);
        out.closest = Vec3(p.x(), p.y(), sz * half);
    } else {
        out.distance = dr;
        out.normal = u;
        out.closest = u * radius + Vec3(0, 0, p.z());
    }
    return out;
}

}  // namespace

Sdf signed_distance(const ShapeInstance& s, const Vec3& p) {
    const Quat& q = s.pose.orientation;
    const Vec3 local = q.conjugate() * (p - s.pose.position);
    Sdf l;
    switch (s.shape.type) {
        case ShapeType::box:
            l = box_sdf_local(0.5 * s.shape.size, local);
            break;
        case ShapeType::cylinder:
            l = cylinder_sdf_local(s.shape.radius, 0.5 * s.shape.length, local);
            break;
        case ShapeType::capsule: {
            const double h = 0.5 * s.shape.length;
            const Vec3 c(0, 0, std::clamp(local.z(), -h, h));
            const Vec3 d = local - c;
            l.normal = safe_normalized(d, Vec3::UnitX());
            l.distance = d.norm() - s.shape.radius;
            l.closest = c + l.normal * s.shape.radius;
            break;
        }
        case ShapeType::sphere:
            l.normal = safe_normalized(local, Vec3::UnitZ());
            l.distance = local.norm() - s.shape.radius;
            l.closest = l.normal * s.shape.radius;
            break;
        case ShapeType::plane:
            l.normal = s.shape.normal;
            l.distance = s.shape.normal.dot(local) - s.shape.offset;
            l.closest = local - l.normal * l.distance;
            break;
    }
    Sdf w;
    w.distance = l.distance;
    w.normal = q * l.normal;
    w.closest = s.pose.position + q * l.closest;
    return w;
}

Vec3 support(const ShapeInstance& s, const Vec3& u) {
    const Quat& q = s.pose.orientation;
    const Vec3 lu = q.conjugate() * u;
    Vec3 l = Vec3::Zero();
    switch (s.shape.type) {
        case ShapeType::box: {
            const Vec3 h = 0.5 * s.shape.size;
            for (int i = 0; i < 3; ++i) l[i] = lu[i] >= 0.0 ? h[i] : -h[i];
            break;
        }
        case ShapeType::cylinder: {
            const Vec3 radial(lu.x(), lu.y(), 0.0);
            const double rn = radial.norm();
            if (rn > 1e-12) l = radial * (s.shape.radius / rn);
            l.z() = lu.z() >= 0.0 ? 0.5 * s.shape.length : -0.5 * s.shape.length;
            break;
        }
        case ShapeType::capsule:
            l = safe_normalized(lu, Vec3::UnitZ()) * s.shape.radius;
            l.z() += lu.z() >= 0.0 ? 0.5 * s.shape.length : -0.5 * s.shape.length;
            break;
        case ShapeType::sphere:
            l = safe_normalized(lu, Vec3::UnitZ()) * s.shape.radius;
            break;
        case ShapeType::plane:
            break;  // unbounded: never asked
    }
    return s.pose.position + q * l;
}

void reduce_and_emit(CandidateSet& set, const Vec3& n, const ShapeInstance& a, const ShapeInstance& b,
                     ContactBuffer& out) {
    auto& it = set.items;
    const int count = set.count;
    if (count <= 4) {
        for (int i = 0; i < count; ++i) {
            const Candidate& c = it[static_cast<std::size_t>(i)];
            emit(out, a, b, c.position, n, c.depth, c.feature);
        }
        return;
    }
    std::array<int, 4> pick{-1, -1, -1, -1};
    auto at = [&](int i) -> const Candidate& { return it[static_cast<std::size_t>(i)]; };
    // Distances and areas are measured in the contact plane, and a tie
    // (points over one another along n, e.g. the bottom and top corners of a
    // thin box lying flat when the margin exceeds its thickness) goes to the
    // deeper point: the support polygon is made of the touching points, not
    // of speculative ones above them. "Over one another" allows a planar
    // offset of about 1e-6 of the manifold's size (the tie is on squared
    // distances and areas, which such an offset changes by ~1e-6 scale): a
    // box sliding on an incline, its orientation 1e-11 rad off the plane's
    // after 5 s, had its top corners (within the sweep margin at 11 m/s and
    // 60 Hz) win over the bottom ones by 5e-13 m^2 with a tie of 1e-12 scale,
    // lost a supporting corner and rocked.
    auto planar = [&](const Vec3& v) -> Vec3 { return v - n * n.dot(v); };
    double scale = 0.0;
    for (int i = 0; i < count; ++i) scale = std::max(scale, planar(at(i).position - at(0).position).squaredNorm());
    const double tie = 1e-6 * std::max(scale, 1e-12);
    // The first candidate looked at is always taken, so every pick below is
    // a candidate whatever the scale (at 1e29 m the tie exceeds every
    // distance).
    auto better = [&](double value, double best_value, int i, int best_index) {
        if (best_index < 0 || value > best_value + tie) return true;
        return best_index >= 0 && value >= best_value - tie && at(i).depth > at(best_index).depth + 1e-12;
    };
    // 1. deepest (ties: the first, which keeps the choice deterministic).
    pick[0] = 0;
    for (int i = 1; i < count; ++i)
        if (at(i).depth > at(pick[0]).depth + 1e-12) pick[0] = i;
    // 2. farthest from it, in the plane.
    double best = -1.0;
    for (int i = 0; i < count; ++i) {
        const double d = planar(at(i).position - at(pick[0]).position).squaredNorm();
        if (better(d, best, i, pick[1])) best = d, pick[1] = i;
    }
    // 3. largest triangle.
    best = -1.0;
    const Vec3 p0 = at(pick[0]).position;
    const Vec3 p1 = at(pick[1]).position;
    for (int i = 0; i < count; ++i) {
        const double area = std::abs((p1 - p0).cross(at(i).position - p0).dot(n));
        if (better(area, best, i, pick[2])) best = area, pick[2] = i;
    }
    // 4. the point farthest outside the triangle (most negative edge area).
    const Vec3 p2 = at(pick[2]).position;
    const double orient = (p1 - p0).cross(p2 - p0).dot(n) >= 0.0 ? 1.0 : -1.0;
    best = 0.0;
    for (int i = 0; i < count; ++i) {
        const Vec3& p = at(i).position;
        const double e0 = orient * (p1 - p0).cross(p - p0).dot(n);
        const double e1 = orient * (p2 - p1).cross(p - p1).dot(n);
        const double e2 = orient * (p0 - p2).cross(p - p2).dot(n);
        const double outside = -std::min({e0, e1, e2});
        if (outside > tie && better(outside, best, i, pick[3])) best = outside, pick[3] = i;
    }
    for (int k = 0; k < 4; ++k) {
        if (pick[static_cast<std::size_t>(k)] < 0) continue;
        bool dup = false;
        for (int j = 0; j < k; ++j) dup = dup || pick[static_cast<std::size_t>(j)] == pick[static_cast<std::size_t>(k)];
        if (dup) continue;
        const Candidate& c = at(pick[static_cast<std::size_t>(k)]);
        emit(out, a, b, c.position, n, c.depth, c.feature);
    }
}

// Feature codes: box faces 0..5 (2 axis + negative), edges 8 + 4 axis + corner
// pair, vertices 32 + corner; cylinder caps 64 + side, side lines 72, rim
// points 80 + cap (a moving point: its id stays while the same cap touches).
Feature extreme_feature(const ShapeInstance& s, const Vec3& u, bool force_face) {
    Feature f;
    const Quat& q = s.pose.orientation;
    const Mat3 R = q.toRotationMatrix();
    const Vec3 lu = q.conjugate() * u;
    const Vec3& c = s.pose.position;
    // Tolerances: a face is taken when within ~0.8 degrees of u (cos 0.9999),
    // an edge when its direction is within ~0.6 degrees of orthogonal to u.
    // Within these the contact points' depths differ by < 1.5 % of the size,
    // and flat resting contacts get their full polygon instead of flickering
    // between single vertices.
    constexpr double kFaceCos = 0.9999;
    constexpr double kEdgeSin = 1e-2;
    if (s.shape.type == ShapeType::box) {
        const Vec3 h = 0.5 * s.shape.size;
        Eigen::Index axis = 0;
        lu.cwiseAbs().maxCoeff(&axis);
        const double unit = lu.norm();
        if (force_face || std::abs(lu[axis]) >= kFaceCos * unit) {
            const double sgn = lu[axis] >= 0.0 ? 1.0 : -1.0;
            const Eigen::Index j = (axis + 1) % 3;
            const Eigen::Index k = (axis + 2) % 3;
            const double sj[4] = {1, -1, -1, 1};
            const double sk[4] = {1, 1, -1, -1};
            for (int i = 0; i < 4; ++i) {
                Vec3 l = Vec3::Zero();
                l[axis] = sgn * h[axis];
                l[j] = sj[i] * h[j];
                l[k] = sk[i] * h[k];
                f.v[static_cast<std::size_t>(i)] = c + R * l;
            }
            f.count = 4;
            f.code = static_cast<std::uint32_t>(2 * axis + (sgn < 0.0 ? 1 : 0));
            f.normal = R.col(axis) * sgn;
            return f;
        }
        Vec3 l;
        for (int i = 0; i < 3; ++i) l[i] = lu[i] >= 0.0 ? h[i] : -h[i];
        int corner = (lu[0] >= 0.0 ? 1 : 0) | (lu[1] >= 0.0 ? 2 : 0) | (lu[2] >= 0.0 ? 4 : 0);
        Eigen::Index small = 0;
        lu.cwiseAbs().minCoeff(&small);
        if (std::abs(lu[small]) < kEdgeSin * unit) {
            Vec3 l2 = l;
            l[small] = h[small];
            l2[small] = -h[small];
            f.v[0] = c + R * l;
            f.v[1] = c + R * l2;
            f.count = 2;
            f.code = static_cast<std::uint32_t>(8 + 8 * small + (corner & ~(1 << small)));
            return f;
        }
        f.v[0] = c + R * l;
        f.count = 1;
        f.code = static_cast<std::uint32_t>(40 + corner);
        return f;
    }
    // cylinder
    const double radius = s.shape.radius;
    const double half = 0.5 * s.shape.length;
    const Vec3 axis = R.col(2);
    const double ca = axis.dot(u) / std::max(u.norm(), 1e-300);
    const double sgn = ca >= 0.0 ? 1.0 : -1.0;
    if (force_face || std::abs(ca) >= kFaceCos) {
        const Vec3 centre = c + axis * (sgn * half);
        for (int i = 0; i < kMaxFeatureVertices; ++i) {
            // Counter-clockwise seen from outside for sgn = +1; the clipper
            // does not depend on the winding.
            const double ang = 2.0 * M_PI * i / kMaxFeatureVertices;
            f.v[static_cast<std::size_t>(i)] = centre + radius * (std::cos(ang) * R.col(0) + std::sin(ang) * R.col(1));
        }
        f.count = kMaxFeatureVertices;
        f.code = sgn > 0 ? 64u : 65u;
        f.normal = axis * sgn;
        return f;
    }
    const Vec3 radial = safe_normalized(u - axis * axis.dot(u), any_orthogonal(axis));
    if (std::abs(ca) < kEdgeSin) {
        f.v[0] = c - axis * half + radial * radius;
        f.v[1] = c + axis * half + radial * radius;
        f.count = 2;
        f.code = 72;
        return f;
    }
    f.v[0] = c + axis * (sgn * half) + radial * radius;
    f.count = 1;
    f.code = sgn > 0 ? 80u : 81u;
    return f;
}

namespace {

struct ClipVertex {
    Vec3 p;
    std::uint32_t tag;
};
constexpr int kMaxClip = 64;
struct ClipPoly {
    std::array<ClipVertex, kMaxClip> v;
    int count = 0;
    void add(const Vec3& p, std::uint32_t tag) {
        if (count < kMaxClip) v[static_cast<std::size_t>(count++)] = {p, tag};
    }
};

// Keeps the part of `in` with plane_n . x <= plane_d (a closed polygon when
// `closed`, else a polyline of 1 or 2 points); points within 1e-12 of the
// plane count as inside, so coincident faces keep their corners. Tags: kept
// vertices keep theirs; an intersection point gets a tag computed from the
// clipping side and the tags of the crossing edge's ends, so it is the same
// while the same edge crosses the same side (persistent ids).
void clip(const ClipPoly& in, bool closed, const Vec3& plane_n, double plane_d, std::uint32_t side, ClipPoly& out) {
    out.count = 0;
    const int n = in.count;
    if (n == 0) return;
    if (n == 1) {
        if (plane_n.dot(in.v[0].p) <= plane_d + 1e-12) out.add(in.v[0].p, in.v[0].tag);
        return;
    }
    const int edges = closed ? n : n - 1;
    if (!closed) {
        // The start vertex of a polyline.
        if (plane_n.dot(in.v[0].p) - plane_d <= 1e-12) out.add(in.v[0].p, in.v[0].tag);
    }
    for (int e = 0; e < edges; ++e) {
        const ClipVertex& a = in.v[static_cast<std::size_t>(e)];
        const ClipVertex& b = in.v[static_cast<std::size_t>((e + 1) % n)];
        const double da = plane_n.dot(a.p) - plane_d;
        const double db = plane_n.dot(b.p) - plane_d;
        const bool ina = da <= 1e-12;
        const bool inb = db <= 1e-12;
        if (ina != inb) {
            const double t = da / (da - db);
            out.add(a.p + t * (b.p - a.p), 1000u + side * 4096u + (a.tag % 4096u) * 7u + (b.tag % 4096u));
        }
        if (inb) out.add(b.p, b.tag);
    }
}

}  // namespace

void contacts_from_features(const Feature& fa, const Feature& fb, const Vec3& n, double depth, double margin,
                            const ShapeInstance& a, const ShapeInstance& b, ContactBuffer& out) {
    const std::uint32_t pair_code = (fa.code << 8) | fb.code;
    // A vertex on either side: one point.
    if (fa.count == 1 || fb.count == 1) {
        if (depth < -margin) return;
        const Vec3 pos = fa.count == 1 ? Vec3(fa.v[0] - n * (0.5 * depth)) : Vec3(fb.v[0] + n * (0.5 * depth));
        emit(out, a, b, pos, n, depth, pair_code << 12);
        return;
    }
    // Two edges: closest points, or the overlap of parallel edges.
    if (fa.count == 2 && fb.count == 2) {
        const Vec3 da = fa.v[1] - fa.v[0];
        const Vec3 db = fb.v[1] - fb.v[0];
        if (da.cross(db).squaredNorm() > 1e-6 * da.squaredNorm() * db.squaredNorm()) {
            if (depth < -margin) return;
            double t1 = 0, t2 = 0;
            Vec3 c1, c2;
            closest_segment_segment({fa.v[0], fa.v[1]}, {fb.v[0], fb.v[1]}, t1, t2, c1, c2);
            emit(out, a, b, 0.5 * (c1 + c2), n, depth, pair_code << 12);
            return;
        }
    }
    // Reference = the polygon (face) most aligned with n; the other is clipped
    // against its side planes.
    const bool a_poly = fa.count >= 3;
    const bool b_poly = fb.count >= 3;
    bool ref_is_a = true;
    if (a_poly && b_poly) ref_is_a = std::abs(fa.normal.dot(n)) >= std::abs(fb.normal.dot(n)) - 1e-9;
    else if (b_poly) ref_is_a = false;
    else if (!a_poly) ref_is_a = fa.count >= fb.count;
    const Feature& ref = ref_is_a ? fa : fb;
    const Feature& inc = ref_is_a ? fb : fa;
    const Vec3 ref_n = ref_is_a ? n : Vec3(-n);  // outward from the reference shape
    ClipPoly p1, p2;
    for (int i = 0; i < inc.count; ++i) p1.add(inc.v[static_cast<std::size_t>(i)], static_cast<std::uint32_t>(i));
    const bool closed = inc.count >= 3;
    if (ref.count >= 3) {
        Vec3 centroid = Vec3::Zero();
        for (int i = 0; i < ref.count; ++i) centroid += ref.v[static_cast<std::size_t>(i)];
        centroid /= ref.count;
        for (int e = 0; e < ref.count && p1.count > 0; ++e) {
            const Vec3& v0 = ref.v[static_cast<std::size_t>(e)];
            const Vec3& v1 = ref.v[static_cast<std::size_t>((e + 1) % ref.count)];
            Vec3 side = (v1 - v0).cross(ref_n);
            if (side.dot(centroid - v0) > 0.0) side = -side;
            side = safe_normalized(side, Vec3::UnitX());
            clip(p1, closed, side, side.dot(v0), static_cast<std::uint32_t>(e), p2);
            p1 = p2;
        }
    } else {
        // Reference edge: keep the part of the incident edge between its end planes.
        const Vec3 d = safe_normalized(ref.v[1] - ref.v[0], Vec3::UnitX());
        clip(p1, closed, d, d.dot(ref.v[1]), 0, p2);
        clip(p2, closed, -d, -d.dot(ref.v[0]), 1, p1);
    }
    const double ref_d = ref_n.dot(ref.v[0]);
    CandidateSet set;
    for (int i = 0; i < p1.count; ++i) {
        const Vec3& p = p1.v[static_cast<std::size_t>(i)].p;
        const double dep = ref_d - ref_n.dot(p);
        if (dep < -margin) continue;
        set.add(p + ref_n * (0.5 * dep), dep, (pair_code << 12) | (ref_is_a ? 0u : 2048u) | (p1.v[static_cast<std::size_t>(i)].tag % 2048u));
    }
    reduce_and_emit(set, n, a, b, out);
}

}  // namespace pivot::collision::detail
