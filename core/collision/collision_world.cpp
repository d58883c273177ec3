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
                                                         const CollisionSettings& settings,
                                                         const std::vector<BodySpeed>* body_speeds) {
    for (ShapeInstance& inst : instances_) {
        const std::int32_t body = inst.shape.body;
        inst.sweep = 0.0;
        if (body == kStaticBody || body < 0 || static_cast<std::size_t>(body) >= body_poses.size()) {
            inst.pose = inst.shape.local;
            continue;
        }
        inst.pose = compose(body_poses[static_cast<std::size_t>(body)], inst.shape.local);
        if (body_speeds != nullptr && static_cast<std::size_t>(body) < body_speeds->size()) {
            const BodySpeed& speed = (*body_speeds)[static_cast<std::size_t>(body)];
            const double reach = inst.shape.local.position.norm() + bounding_radius(inst.shape);
            inst.sweep = settings.sweep_time * (speed.linear + speed.angular * reach);
        }
    }
    pairs_ = &broadphase_.find_pairs(instances_, settings.margin);
    return *pairs_;
}

const ContactBuffer& CollisionWorld::collide_pairs(const CollisionSettings& settings) {
    contacts_.clear();
    if (pairs_ == nullptr) return contacts_;
    for (const ShapePair& p : *pairs_) {
        const ShapeInstance& a = instances_[p.a];
        const ShapeInstance& b = instances_[p.b];
        collide(a, b, settings.margin + a.sweep + b.sweep, contacts_);
    }
    return contacts_;
}

}  // namespace pivot::collision
