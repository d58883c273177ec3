// Internal helpers of the narrowphase (not installed, not part of the API).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>

#include "collision/shapes.hpp"

namespace pivot::collision::detail {

// Each pair function appends contacts for (a, b) with type(a) <= type(b)
// (the dispatch in narrowphase.cpp swaps and flips) and leaves ids to the dispatch.
void sphere_sphere(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out);
void sphere_capsule(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out);
void sphere_box(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out);
void sphere_cylinder(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out);
void sphere_plane(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out);
void capsule_capsule(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out);
void capsule_box(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out);
void capsule_cylinder(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out);
void capsule_plane(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out);
void box_box(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out);
void box_cylinder(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out);
void box_plane(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out);
void cylinder_cylinder(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out);
void cylinder_plane(const ShapeInstance& a, const ShapeInstance& b, double margin, ContactBuffer& out);

inline void emit(ContactBuffer& out, const ShapeInstance& a, const ShapeInstance& b, const Vec3& position,
                 const Vec3& normal, double depth, std::uint32_t feature) {
    Contact c;
    c.position = position;
    c.normal = normal;
    c.depth = depth;
    c.shape_a = a.index;
    c.shape_b = b.index;
    c.feature = feature;
    out.contacts.push_back(c);
}

// A unit vector orthogonal to n (n unit).
inline Vec3 any_orthogonal(const Vec3& n) {
    Vec3 t = std::abs(n.x()) < 0.57 ? Vec3::UnitX() : Vec3::UnitY();
    return (t - n * n.dot(t)).normalized();
}

// Unit vector along v, or `fallback` when v is (nearly) zero.
inline Vec3 safe_normalized(const Vec3& v, const Vec3& fallback) {
    double len = v.norm();
    return len > 1e-12 ? Vec3(v / len) : fallback;
}

// The core segment of a capsule/cylinder: p0 + t (p1 - p0), t in [0, 1].
struct Segment {
    Vec3 p0, p1;
};
inline Segment axis_segment(const ShapeInstance& s) {
    Vec3 half = s.pose.orientation * Vec3(0, 0, 0.5 * s.shape.length);
    return {s.pose.position - half, s.pose.position + half};
}

inline Vec3 closest_on_segment(const Segment& s, const Vec3& p) {
    Vec3 d = s.p1 - s.p0;
    double dd = d.squaredNorm();
    double t = dd > 1e-300 ? std::clamp((p - s.p0).dot(d) / dd, 0.0, 1.0) : 0.0;
    return s.p0 + t * d;
}

// Closest points of two segments (Ericson, Real-Time Collision Detection 5.1.9),
// robust to zero-length and parallel segments.
void closest_segment_segment(const Segment& s1, const Segment& s2, double& t1, double& t2, Vec3& c1, Vec3& c2);

// Signed distance of a convex shape (box or cylinder or sphere or capsule) at a
// world point p: distance > 0 outside, < 0 inside; `normal` the outward unit
// normal at `closest`, the nearest surface point.
struct Sdf {
    double distance = 0.0;
    Vec3 normal = Vec3::UnitZ();
    Vec3 closest = Vec3::Zero();
};
Sdf signed_distance(const ShapeInstance& s, const Vec3& p);

// Support point of a convex body shape (not plane) in direction u.
Vec3 support(const ShapeInstance& s, const Vec3& u);

// A contact candidate before reduction.
struct Candidate {
    Vec3 position;
    double depth;
    std::uint32_t feature;
};
inline constexpr int kMaxCandidates = 64;
struct CandidateSet {
    std::array<Candidate, kMaxCandidates> items;
    int count = 0;
    void add(const Vec3& p, double depth, std::uint32_t feature) {
        if (count < kMaxCandidates) items[static_cast<std::size_t>(count++)] = {p, depth, feature};
    }
};
// Keeps at most 4: the deepest, the farthest from it, the largest triangle,
// the largest quadrilateral (normal n). Then emits with the given normal.
void reduce_and_emit(CandidateSet& set, const Vec3& n, const ShapeInstance& a, const ShapeInstance& b,
                     ContactBuffer& out);

// A feature (face polygon, edge, vertex) of a polyhedral view of a shape.
inline constexpr int kMaxFeatureVertices = 16;
struct Feature {
    std::array<Vec3, kMaxFeatureVertices> v;
    int count = 0;
    std::uint32_t code = 0;   // stable code of the feature within its shape
    Vec3 normal = Vec3::Zero();  // outward face normal for polygons
};
// Feature of a box / cylinder most extreme in direction u. Boxes: with
// force_face the face most aligned with u. Cylinders: caps are inscribed 16-gons.
Feature extreme_feature(const ShapeInstance& s, const Vec3& u, bool force_face);

// Contacts between the features of A (extreme along n) and B (extreme along
// -n), n unit from A to B, `depth` the SAT overlap along n: clipping for
// face/face, face/edge; closest points for edge/edge; the vertex for vertex cases.
void contacts_from_features(const Feature& fa, const Feature& fb, const Vec3& n, double depth, double margin,
                            const ShapeInstance& a, const ShapeInstance& b, ContactBuffer& out);

}  // namespace pivot::collision::detail
