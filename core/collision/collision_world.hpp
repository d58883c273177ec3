// CollisionWorld: the shapes of a scene, placed each step from the body
// poses, broadphase then narrowphase, contacts out. Plain data in and out; no
// dependency on the engine's World. Every vector (instances, AABBs, pairs,
// contacts) is kept between calls: after the first call nothing is allocated
// while the counts do not grow.
#pragma once

#include <cstdint>
#include <vector>

#include "collision/broadphase.hpp"
#include "collision/narrowphase.hpp"
#include "collision/shapes.hpp"

namespace pivot::collision {

struct CollisionSettings {
    // Speculative margin (m): contacts with a gap up to this are reported
    // (depth >= -margin); also the AABB growth of the broadphase. A pair's
    // margin also grows by both shapes' sweeps (how far they may move in the
    // step), so that a fast body meets its contact before it passes it.
    double margin = 0.01;
    double sweep_time = 0.0;  // s: the step (0: no sweep)
};

// A body's speeds for the sweep: |linear velocity| (m/s), |angular| (rad/s).
struct BodySpeed {
    double linear = 0.0;
    double angular = 0.0;
};

class CollisionWorld {
public:
    // Returns the shape's index (keys its contact ids).
    std::uint32_t add_shape(const Shape& shape);
    std::size_t shape_count() const { return instances_.size(); }
    const Shape& shape(std::uint32_t index) const { return instances_[index].shape; }

    Broadphase& broadphase() { return broadphase_; }

    // Places every shape (body_poses indexed by body; static shapes, and
    // shapes whose body index is outside body_poses, use their local pose as
    // world pose), finds the pairs, and their contacts: pairs in sorted
    // order, each pair's contacts contiguous, so the output is deterministic.
    const ContactBuffer& detect(const std::vector<Pose>& body_poses, const CollisionSettings& settings);
    // detect() in its two phases (timed apart by the step): place the shapes
    // and find the candidate pairs; then the contacts of those pairs.
    // body_speeds (per body, or null: no sweep) with settings.sweep_time give
    // each shape's sweep: h (|v| + |w| (|offset| + bounding radius)).
    const std::vector<ShapePair>& find_pairs(const std::vector<Pose>& body_poses, const CollisionSettings& settings,
                                             const std::vector<BodySpeed>* body_speeds = nullptr);
    const ContactBuffer& collide_pairs(const CollisionSettings& settings);

    const std::vector<ShapeInstance>& instances() const { return instances_; }
    const ContactBuffer& contacts() const { return contacts_; }

private:
    std::vector<ShapeInstance> instances_;
    Broadphase broadphase_;
    const std::vector<ShapePair>* pairs_ = nullptr;  // of the last find_pairs()
    ContactBuffer contacts_;
};

}  // namespace pivot::collision
