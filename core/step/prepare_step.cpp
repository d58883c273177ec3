#include "step/step_stages.hpp"

namespace pivot {

void prepare_step(const WorldModel& model, StepScratch& s) {
    const uint32_t elements = model.element_count;
    s.mass_offset.assign(elements, 0);
    uint32_t mass_size = 0;
    for (const auto& g : model.element_groups) {
        for (uint32_t e = 0; e < g.count; ++e) {
            s.mass_offset[g.first + e] = mass_size;
            mass_size += g.nv * g.nv;
        }
    }
    s.mass.assign(mass_size, 0.0);
    s.forces.assign(model.nv, 0.0);
    s.v_free.assign(model.nv, 0.0);
    s.v_next.assign(model.nv, 0.0);
    s.q_next.assign(model.nq, 0.0);

    // Frame Jacobians: 6 x nv of the attachment's element (none for the world).
    const auto joints = static_cast<uint32_t>(model.joints.size());
    s.frame_jacobian_offset.assign(2 * joints, 0);
    s.group_points.assign(model.element_groups.size(), {});
    uint32_t frame_size = 0;
    uint32_t jacobian_values = 0;  // upper bound of J values per step
    for (uint32_t j = 0; j < joints; ++j) {
        const JointRecord& joint = model.joints[j];
        const uint32_t max_rows = model.joint_groups[joint.group].max_rows;
        for (int side = 0; side < 2; ++side) {
            const Attachment& a = side == 0 ? joint.frame1 : joint.frame2;
            s.frame_jacobian_offset[2 * j + side] = frame_size;
            if (a.element == Attachment::kWorld) continue;
            const uint32_t group = model.element_group[a.element];
            const ElementGroup& g = model.element_groups[group];
            frame_size += 6 * g.nv;
            jacobian_values += max_rows * g.nv;
            auto& gp = s.group_points[group];
            gp.points.push_back({a.element - g.first, 0, {a.local_point[0], a.local_point[1], a.local_point[2]}});
            gp.attachment.push_back(2 * j + static_cast<uint32_t>(side));
        }
    }
    for (uint32_t g = 0; g < model.element_groups.size(); ++g) {
        auto& gp = s.group_points[g];
        const size_t n = gp.points.size();
        gp.poses.assign(7 * n, 0.0);
        gp.twists.assign(6 * n, 0.0);
        gp.jacobians.assign(6 * model.element_groups[g].nv * n, 0.0);
    }
    s.frame_jacobian.assign(frame_size, 0.0);

    s.joint_rows.assign(model.joint_groups.size(), {});
    uint32_t max_rows_total = 0;
    for (size_t g = 0; g < model.joint_groups.size(); ++g) {
        const JointGroup& jg = model.joint_groups[g];
        auto& r = s.joint_rows[g];
        r.pose1.assign(7 * jg.count, 0.0);
        r.pose2.assign(7 * jg.count, 0.0);
        r.twist1.assign(6 * jg.count, 0.0);
        r.twist2.assign(6 * jg.count, 0.0);
        r.rows.assign(static_cast<size_t>(jg.count) * jg.max_rows, pivot_row{});
        r.jacobians.assign(static_cast<size_t>(jg.count) * jg.max_rows * 12, 0.0);
        r.row_counts.assign(jg.count, 0);
        max_rows_total += jg.count * jg.max_rows;
    }
    s.rows.reserve(max_rows_total);
    s.jacobian.reserve(jacobian_values);
    s.response.reserve(jacobian_values);
    s.island_parent.assign(elements, 0);
    s.island_of_root.assign(elements, 0);
    s.island_row_start.reserve(elements + 1);
    s.island_rows.reserve(max_rows_total);
    s.element_row_start.assign(elements + 1, 0);
    s.element_rows.reserve(2 * max_rows_total);
    s.problems.reserve(elements);
    s.x.reserve(max_rows_total);
    s.reactions.assign(joints, JointReaction{});

    // Contacts: the collision world of the model's shapes; bodies joined by
    // a joint do not collide with each other.
    s.collision = collision::CollisionWorld();
    for (const collision::Shape& shape : model.shapes) s.collision.add_shape(shape);
    std::vector<std::pair<int32_t, int32_t>> jointed;
    for (const JointRecord& joint : model.joints) {
        if (joint.frame1.element != Attachment::kWorld && joint.frame2.element != Attachment::kWorld) {
            jointed.emplace_back(static_cast<int32_t>(joint.frame1.element), static_cast<int32_t>(joint.frame2.element));
        }
    }
    s.collision.broadphase().set_excluded_body_pairs(jointed);
    s.body_poses.assign(elements, collision::Pose{});
    s.body_speeds.assign(elements, collision::BodySpeed{});
    s.group_contact_points.assign(model.element_groups.size(), {});
    s.friction_batches.assign(model.friction_instances.size(), {});
    s.body_of_element.assign(elements, -1);
    for (uint32_t b = 0; b < model.bodies.size(); ++b) s.body_of_element[model.bodies[b].element] = static_cast<int32_t>(b);
}

}  // namespace pivot
