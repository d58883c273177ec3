// Collision shapes, poses and contacts: plain data shared by the broadphase,
// the narrowphase and CollisionWorld. No dependency on the world or plugins.
//
// Geometry (docs: docs/scene-format.md, "shapes"):
//   sphere   radius
//   box      size = full edge lengths, centred
//   capsule  segment of `length` along local z, centred, plus `radius`
//   cylinder `radius`, `length`, axis along local z, centred
//   plane    unit `normal` n, `offset` d: the half-space n.x <= d is solid
//            (static shapes only; normal and offset are given in the shape's
//            frame, i.e. they are moved by the shape's local pose).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace pivot::collision {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Quat = Eigen::Quaterniond;

// A rigid placement: position and unit quaternion (w, x, y, z), body to world.
struct Pose {
    Vec3 position = Vec3::Zero();
    Quat orientation = Quat::Identity();
};

// parent * child.
inline Pose compose(const Pose& parent, const Pose& child) {
    Pose out;
    out.position = parent.position + parent.orientation * child.position;
    out.orientation = (parent.orientation * child.orientation).normalized();
    return out;
}

// Ordered by the narrowphase dispatch: a pair is handled with the lower type first.
enum class ShapeType : std::uint8_t { sphere = 0, capsule = 1, box = 2, cylinder = 3, plane = 4 };
inline constexpr int kShapeTypeCount = 5;

// Owner body index of a static shape (attached to the world).
inline constexpr std::int32_t kStaticBody = -1;

struct Shape {
    ShapeType type = ShapeType::sphere;
    double radius = 0.0;                       // sphere, capsule, cylinder
    double length = 0.0;                       // capsule, cylinder (along local z)
    Vec3 size = Vec3::Zero();                  // box: full edge lengths
    Vec3 normal = Vec3::UnitZ();               // plane (unit)
    double offset = 0.0;                       // plane
    Pose local;                                // relative to the owner body (world for static shapes)
    std::uint32_t material = 0;                // index into the caller's material table
    std::int32_t body = kStaticBody;           // owner body index, or kStaticBody
    // What its contacts' persistent ids are made from (contact_id): a number
    // the owner keeps for the shape while others come and go; kIndexKey:
    // the shape's index in its CollisionWorld.
    static constexpr std::uint32_t kIndexKey = 0xFFFFFFFFu;
    std::uint32_t key = kIndexKey;

    static Shape sphere(double r) { Shape s; s.type = ShapeType::sphere; s.radius = r; return s; }
    static Shape box(const Vec3& full_size) { Shape s; s.type = ShapeType::box; s.size = full_size; return s; }
    static Shape capsule(double r, double len) { Shape s; s.type = ShapeType::capsule; s.radius = r; s.length = len; return s; }
    static Shape cylinder(double r, double len) { Shape s; s.type = ShapeType::cylinder; s.radius = r; s.length = len; return s; }
    static Shape plane(const Vec3& n, double d) { Shape s; s.type = ShapeType::plane; s.normal = n.normalized(); s.offset = d; return s; }
};

// A shape placed in the world for one step.
struct ShapeInstance {
    Shape shape;
    Pose pose;                 // world pose of the shape (body pose * shape.local)
    std::uint32_t index = 0;   // the shape's index in its CollisionWorld (keys the contact ids)
    double sweep = 0.0;        // m: how far any point of the shape may move this step (added to the margin)
};

// The radius of a sphere about the shape's origin that holds it (+inf for a
// plane).
inline double bounding_radius(const Shape& shape) {
    switch (shape.type) {
        case ShapeType::sphere: return shape.radius;
        case ShapeType::box: return 0.5 * shape.size.norm();
        case ShapeType::capsule: return 0.5 * shape.length + shape.radius;
        case ShapeType::cylinder: return std::hypot(0.5 * shape.length, shape.radius);
        case ShapeType::plane: break;
    }
    return std::numeric_limits<double>::infinity();
}

// One contact point. `normal` is unit and points from shape A to shape B
// (moving B along it separates the shapes). `depth` > 0 is penetration; a
// negative depth (down to -margin) is a speculative contact (gap of -depth).
// `position` is midway between the two surfaces.
struct Contact {
    Vec3 position = Vec3::Zero();
    Vec3 normal = Vec3::UnitZ();
    double depth = 0.0;
    std::uint32_t shape_a = 0;
    std::uint32_t shape_b = 0;
    std::uint32_t feature = 0;  // which features touch (pair-family specific, see narrowphase.hpp)
    std::uint64_t id = 0;       // contact_id(key of shape A, key of shape B, feature) (Shape::key)
};

// A persistent id: a deterministic 64-bit mix of (shape A, shape B, feature).
// Stable while the same features touch; distinct features give distinct ids
// (a collision needs a 64-bit hash collision).
inline std::uint64_t contact_id(std::uint32_t a, std::uint32_t b, std::uint32_t feature) {
    auto mix = [](std::uint64_t x) {
        x += 0x9E3779B97F4A7C15ull;
        x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
        x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
        return x ^ (x >> 31);
    };
    return mix(mix(mix(a) ^ b) ^ feature);
}

// Output storage kept between calls: clear() keeps capacity, so once the
// counts stop growing, filling it allocates nothing.
struct ContactBuffer {
    std::vector<Contact> contacts;
    void clear() { contacts.clear(); }
    std::size_t size() const { return contacts.size(); }
};

}  // namespace pivot::collision
