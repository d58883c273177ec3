#include "collision/collision_world.hpp"

namespace pivot::collision {

std::uint32_t CollisionWorld::add_shape(const Shape& shape) {
    ShapeInstance inst;
    inst.shape = shape;
    inst.pose = shape.local;
    inst.index = static_cast<std::uint32_t>(instances_.size());
    instances_.push_back(inst);
    return inst.index;
}

const ContactBuffer& CollisionWorld::detect(const std::vector<Pose>& body_poses, const CollisionSettings& settings) {
    find_pairs(body_poses, settings);
    return collide_pairs(settings);
}

const std::vector<ShapePair>& CollisionWorld::find_pairs(const std::vector<Pose>& body_poses,
                                                         const CollisionSettings& settings) {
    for (ShapeInstance& inst : instances_) {
        const std::int32_t body = inst.shape.body;
        if (body == kStaticBody || body < 0 || static_cast<std::size_t>(body) >= body_poses.size()) {
            inst.pose = inst.shape.local;
        } else {
            inst.pose = compose(body_poses[static_cast<std::size_t>(body)], inst.shape.local);
        }
    }
    pairs_ = &broadphase_.find_pairs(instances_, settings.margin);
    return *pairs_;
}

const ContactBuffer& CollisionWorld::collide_pairs(const CollisionSettings& settings) {
    contacts_.clear();
    if (pairs_ == nullptr) return contacts_;
    for (const ShapePair& p : *pairs_) collide(instances_[p.a], instances_[p.b], settings.margin, contacts_);
    return contacts_;
}

}  // namespace pivot::collision
