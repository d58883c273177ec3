// Taking bodies, joints, cables and ropes out of a world between steps
// (docs/engine.md "Changing a world while it runs"). What is taken out
// leaves the model's arrays (its coordinates, velocities, parameters,
// shapes, its group's slot and warm starts), so it costs nothing from the
// next step on; its record stays as a tombstone so that every other id
// keeps meaning what it meant. Everything else keeps its state, warm
// starts and contact memory (contact ids are made from the shapes' keys,
// which do not move).
#include <algorithm>

#include <fmt/format.h>

#include "common/error.hpp"
#include "world/world.hpp"

namespace pivot {

const BodyRecord& World::live_body(BodyId b, const char* call) const {
    const BodyRecord& r = model_.bodies.at(b);
    if (r.removed) throw Error(fmt::format("body '{}': {}: it was removed", r.name, call));
    return r;
}

const JointRecord& World::live_joint(JointId j, const char* call) const {
    const JointRecord& r = model_.joints.at(j);
    if (r.removed) throw Error(fmt::format("joint '{}': {}: it was removed", r.name, call));
    return r;
}

const CableRecord& World::live_cable(CableId c, const char* call) const {
    const CableRecord& r = model_.cables.at(c);
    if (r.removed) throw Error(fmt::format("cable '{}': {}: it was removed", r.name, call));
    return r;
}

void World::unshift_elements_from(uint32_t element, uint32_t count) {
    for (BodyRecord& b : model_.bodies) {
        if (!b.removed && b.element >= element) b.element -= count;
    }
    for (JointRecord& j : model_.joints) {
        if (j.removed) continue;
        for (Attachment* a : {&j.frame1, &j.frame2}) {
            if (a->element != Attachment::kWorld && a->element >= element) a->element -= count;
        }
    }
    for (RopeRecord& rope : model_.ropes) {
        for (RopePoint& p : rope.route) {
            if (p.at.element != Attachment::kWorld && p.at.element >= element) p.at.element -= count;
        }
    }
    for (collision::Shape& shape : model_.shapes) {
        if (shape.body != collision::kStaticBody && shape.body >= static_cast<int32_t>(element)) {
            shape.body -= static_cast<int32_t>(count);
        }
    }
}

void World::take_out_joint(JointId j) {
    JointRecord& record = model_.joints[j];
    JointGroup& g = model_.joint_groups[record.group];
    const uint32_t m = record.member;
    // Its warm starts leave the impulse array; the groups after it move
    // down (relayout() copies each group's laid-out members from there).
    if (m < g.laid_out) {
        const auto first = state_.joint_impulses.begin() + g.impulse_offset + static_cast<size_t>(m) * g.max_rows;
        state_.joint_impulses.erase(first, first + g.max_rows);
        for (JointGroup& later : model_.joint_groups) {
            if (later.impulse_offset > g.impulse_offset) later.impulse_offset -= g.max_rows;
        }
        --g.laid_out;
    }
    g.item_params.erase(g.item_params.begin() + static_cast<size_t>(m) * g.item_stride,
                        g.item_params.begin() + static_cast<size_t>(m + 1) * g.item_stride);
    g.joints.erase(g.joints.begin() + m);
    --g.count;
    for (uint32_t k = m; k < g.count; ++k) model_.joints[g.joints[k]].member = k;
    joint_by_name_.erase(record.name);
    record.removed = true;
    record.enabled = false;
    record.frame1 = record.frame2 = Attachment{};
    if (j < outputs_.reactions.size()) outputs_.reactions[j] = JointReaction{};
}

void World::remove_joint(JointId j) {
    live_joint(j, "remove");
    take_out_joint(j);
    relayout();
}

void World::remove_body(BodyId b) {
    const BodyRecord& record = live_body(b, "remove");
    const uint32_t element = record.element;
    // Its joints go with it.
    for (JointId j = 0; j < model_.joints.size(); ++j) {
        const JointRecord& joint = model_.joints[j];
        if (!joint.removed && (joint.frame1.element == element || joint.frame2.element == element)) take_out_joint(j);
    }
    // So do the ropes that pass it.
    for (RopeId r = 0; r < model_.ropes.size(); ++r) {
        const RopeRecord& rope = model_.ropes[r];
        const auto on_body = [&](const RopePoint& p) { return p.at.element == element; };
        if (!rope.removed && std::any_of(rope.route.begin(), rope.route.end(), on_body)) remove_rope(r);
    }
    ElementGroup& g = model_.element_groups[record.group];
    const uint32_t local = element - g.first;
    const auto q_first = state_.q.begin() + g.q_offset + static_cast<size_t>(local) * g.nq;
    state_.q.erase(q_first, q_first + g.nq);
    const size_t v_first = g.v_offset + static_cast<size_t>(local) * g.nv;
    state_.v.erase(state_.v.begin() + v_first, state_.v.begin() + v_first + g.nv);
    state_.applied.erase(state_.applied.begin() + v_first, state_.applied.begin() + v_first + g.nv);
    g.item_params.erase(g.item_params.begin() + static_cast<size_t>(local) * g.item_stride,
                        g.item_params.begin() + static_cast<size_t>(local + 1) * g.item_stride);
    g.q_reference.erase(g.q_reference.begin() + static_cast<size_t>(local) * g.nq,
                        g.q_reference.begin() + static_cast<size_t>(local + 1) * g.nq);
    --g.count;
    model_.fixed.erase(model_.fixed.begin() + element);
    // Its shapes leave; the others keep their keys (their contacts' ids).
    model_.shapes.erase(std::remove_if(model_.shapes.begin(), model_.shapes.end(),
                                       [&](const collision::Shape& s) { return s.body == static_cast<int32_t>(element); }),
                        model_.shapes.end());
    BodyRecord& removed = model_.bodies[b];
    body_by_name_.erase(removed.name);
    removed.removed = true;
    removed.element = Attachment::kWorld;
    friction_profiles_changed_ = friction_profiles_changed_ || removed.friction_profile != 0;
    removed.friction_profile = 0;
    unshift_elements_from(element, 1);
    relayout();
}

void World::remove_cable(CableId c) {
    const CableRecord& record = live_cable(c, "remove");
    const uint32_t group = record.group;
    const ElementGroup& g = model_.element_groups[group];
    const uint32_t first = g.first, count = g.count;
    for (JointId j = 0; j < model_.joints.size(); ++j) {
        const JointRecord& joint = model_.joints[j];
        if (joint.removed) continue;
        const auto on_cable = [&](const Attachment& a) {
            return a.element != Attachment::kWorld && a.element >= first && a.element < first + count;
        };
        if (on_cable(joint.frame1) || on_cable(joint.frame2)) take_out_joint(j);
    }
    state_.q.erase(state_.q.begin() + g.q_offset, state_.q.begin() + g.q_offset + g.q_size());
    state_.v.erase(state_.v.begin() + g.v_offset, state_.v.begin() + g.v_offset + g.v_size());
    state_.applied.erase(state_.applied.begin() + g.v_offset, state_.applied.begin() + g.v_offset + g.v_size());
    model_.fixed.erase(model_.fixed.begin() + first, model_.fixed.begin() + first + count);
    model_.element_groups.erase(model_.element_groups.begin() + group);
    for (BodyRecord& b : model_.bodies) {
        if (!b.removed && b.group > group) --b.group;
    }
    for (CableRecord& other : model_.cables) {
        if (!other.removed && other.group > group) --other.group;
    }
    CableRecord& removed = model_.cables[c];
    removed.removed = true;
    removed.group = UINT32_MAX;
    unshift_elements_from(first, count);
    relayout();
}

}  // namespace pivot
