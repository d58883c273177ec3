#include <algorithm>

#include <fmt/format.h>

#include "common/error.hpp"
#include "step/step_stages.hpp"

namespace pivot {

namespace {
constexpr uint32_t kMaxInternalRows = 1024;  // per element (plugin_element.h)

// The outputs of a material_frames call for the points asked, elements of nv velocities.
void size_material_frames(StepScratch::MaterialFrames& f, uint32_t nv) {
    const size_t n = f.points.size();
    f.poses.assign(7 * n, 0.0);
    f.twists.assign(6 * n, 0.0);
    f.jacobians.assign(6 * static_cast<size_t>(nv) * n, 0.0);
}
}  // namespace

void update_attachment_point(const WorldModel& model, StepScratch& s, uint32_t joint) {
    const Attachment& a = model.joints[joint].frame2;
    if (a.element == Attachment::kWorld) return;  // a world frame is read from the record each step
    auto& gp = s.group_points[model.element_group[a.element]];
    for (size_t p = 0; p < gp.attachment.size(); ++p) {
        if (gp.attachment[p] != 2 * joint + 1) continue;
        for (int i = 0; i < 3; ++i) gp.points[p].local[i] = a.local_point[i];
    }
}

// Bodies joined by an enabled joint do not collide (a disabled or broken
// joint's bodies do: a hook touches the load it is not latched to); nor do
// a cable's samples with a body it is attached to. (The samples of one
// cable among themselves: the broadphase filter.)
void update_excluded_pairs(const WorldModel& model, StepScratch& s) {
    const uint32_t elements = model.element_count;
    const auto samples = static_cast<uint32_t>(model.contact_samples.size());
    std::vector<uint8_t> cable_group(model.element_groups.size(), 0);
    for (const CableRecord& cable : model.cables) {
        if (!cable.removed) cable_group[cable.group] = 1;
    }
    std::vector<std::pair<int32_t, int32_t>> excluded;
    auto collision_bodies = [&](uint32_t element, std::vector<int32_t>& out) {
        out.clear();
        const uint32_t group = model.element_group[element];
        if (!cable_group[group]) {
            out.push_back(static_cast<int32_t>(element));
            return;
        }
        for (uint32_t k = 0; k < samples; ++k) {
            if (model.element_group[model.contact_samples[k].element] == group) out.push_back(static_cast<int32_t>(elements + k));
        }
    };
    std::vector<int32_t> side1, side2;
    for (const JointRecord& joint : model.joints) {
        if (joint.removed || !joint.enabled) continue;
        if (joint.frame1.element == Attachment::kWorld || joint.frame2.element == Attachment::kWorld) continue;
        collision_bodies(joint.frame1.element, side1);
        collision_bodies(joint.frame2.element, side2);
        for (int32_t a : side1)
            for (int32_t b : side2) excluded.emplace_back(a, b);
    }
    s.collision.broadphase().set_excluded_body_pairs(excluded);
}

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
    s.mass_factor.assign(mass_size, 0.0);
    s.mass_inverse.assign(mass_size, 0.0);
    s.v_free.assign(model.nv, 0.0);
    s.momentum_rhs.assign(elements, 0);
    uint32_t nv_max = 0;
    for (const auto& g : model.element_groups) nv_max = std::max(nv_max, g.nv);
    s.damped.points.reserve(elements);
    s.damped.poses.reserve(7 * static_cast<size_t>(elements));
    s.damped.twists.reserve(6 * static_cast<size_t>(elements));
    s.damped.jacobians.reserve(6 * static_cast<size_t>(nv_max) * elements);
    s.joint_stiffness.assign(mass_size, 0.0);
    s.joint_stiffness_force.assign(model.nv, 0.0);
    s.stiffened.assign(elements, 0);
    s.mass_factor_ready.assign(elements, 0);
    s.mass_factored.assign(elements, 0);
    s.element_stiffness_number.assign(elements, 0.0);
    s.element_stiffness_bound.assign(3 * static_cast<size_t>(elements), 0.0);
    s.joint_split.assign(model.joints.size() * 84, 0.0);
    s.joint_split_active.assign(model.joints.size(), 0);
    s.joint_strength.assign(model.joints.size(), 0.0);
    s.internal_rows.assign(model.element_groups.size(), {});
    for (size_t gi = 0; gi < model.element_groups.size(); ++gi) {
        const ElementGroup& g = model.element_groups[gi];
        auto& in = s.internal_rows[gi];
        const auto& f = g.instance.plugin().element;
        in.max_rows = g.instance.plugin().has(PIVOT_ELEMENT_CAP_INTERNAL_ROWS) && f.max_internal_rows != nullptr
                          ? f.max_internal_rows(g.instance.handle())
                          : 0;
        if (in.max_rows > kMaxInternalRows) {  // its storage is count x max_rows x nv
            throw Error(fmt::format("{}: max_internal_rows returned {}, more than the {} rows per element the host "
                                    "accepts (plugin_element.h)",
                                    describe(g.instance.plugin()), in.max_rows, kMaxInternalRows));
        }
        in.forces.assign(static_cast<size_t>(g.count) * g.nv, 0.0);
        in.rows.assign(static_cast<size_t>(g.count) * in.max_rows, pivot_row{});
        in.jacobians.assign(static_cast<size_t>(g.count) * in.max_rows * g.nv, 0.0);
        in.row_counts.assign(g.count, 0);
        in.stiffness.assign(in.max_rows > 0 ? static_cast<size_t>(g.count) * g.nv * g.nv : 0, 0.0);
        in.element_matrix.assign(static_cast<size_t>(g.nv) * g.nv, 0.0);
        in.element_rhs.assign(g.nv, 0.0);
    }
    // Chains: a sparse matrix each, analysed once here.
    s.chains.clear();
    s.block_chain.assign(model.blocks.size(), UINT32_MAX);
    uint32_t largest_block = 0;
    for (uint32_t b = 0; b < model.blocks.size(); ++b) {
        const MassBlock& block = model.blocks[b];
        largest_block = std::max(largest_block, block.nv);
        if (!block.chain) continue;
        const ElementGroup& g = model.element_groups[block.group];
        s.block_chain[b] = static_cast<uint32_t>(s.chains.size());
        s.chains.push_back(std::make_unique<ChainMatrix>(g.count, g.node_nv));
    }
    s.block_rhs.assign(largest_block, 0.0);
    s.v_next.assign(model.nv, 0.0);
    s.q_next.assign(model.nq, 0.0);
    s.correction.assign(model.nv, 0.0);

    // Frame Jacobians: 6 x nv of the attachment's element (none for the world).
    const auto joints = static_cast<uint32_t>(model.joints.size());
    s.frame_jacobian_offset.assign(2 * joints, 0);
    s.group_points.assign(model.element_groups.size(), {});
    uint32_t frame_size = 0;
    uint32_t jacobian_values = 0;  // upper bound of J values per step
    for (uint32_t j = 0; j < joints; ++j) {
        const JointRecord& joint = model.joints[j];
        if (joint.removed) continue;  // a tombstone: no frames
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
        size_material_frames(gp, model.element_groups[g].nv);
        gp.wrenches.assign(6 * n, 0.0);
        gp.frame_stiffness.assign(36 * n, 0.0);
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
        r.forces.assign(static_cast<size_t>(jg.count) * jg.max_rows, 0.0);
        r.end_pose1.assign(7 * jg.count, 0.0);
        r.end_pose2.assign(7 * jg.count, 0.0);
        r.end_rows.assign(static_cast<size_t>(jg.count) * jg.max_rows, pivot_row{});
        r.end_jacobians.assign(static_cast<size_t>(jg.count) * jg.max_rows * 12, 0.0);
        r.end_counts.assign(jg.count, 0);
        r.stiffness.assign(static_cast<size_t>(jg.count) * 144, 0.0);
        max_rows_total += jg.count * jg.max_rows;
    }
    // Ropes: their route points' material frames, one call per element group.
    s.rope_frames.assign(model.element_groups.size(), {});
    s.rope_point_start.assign(1, 0);
    s.rope_point_group.clear();
    s.rope_point_index.clear();
    size_t longest_route = 0;
    for (const RopeRecord& rope : model.ropes) {
        for (const RopePoint& p : rope.route) {
            const Attachment& a = p.at;
            if (a.element == Attachment::kWorld) {
                s.rope_point_group.push_back(UINT32_MAX);
                s.rope_point_index.push_back(0);
                continue;
            }
            const uint32_t group = model.element_group[a.element];
            const ElementGroup& g = model.element_groups[group];
            auto& frames = s.rope_frames[group];
            s.rope_point_group.push_back(group);
            s.rope_point_index.push_back(static_cast<uint32_t>(frames.points.size()));
            frames.points.push_back({a.element - g.first, 0, {a.local_point[0], a.local_point[1], a.local_point[2]}});
            jacobian_values += g.nv;
        }
        s.rope_point_start.push_back(static_cast<uint32_t>(s.rope_point_group.size()));
        longest_route = std::max(longest_route, rope.route.size());
        if (!rope.removed) ++max_rows_total;
    }
    for (size_t g = 0; g < s.rope_frames.size(); ++g) {
        size_material_frames(s.rope_frames[g], model.element_groups[g].nv);
    }
    s.rope_route.reserve(longest_route);
    s.rope_path.arrive.reserve(longest_route);
    s.rope_path.leave.reserve(longest_route);
    s.rope_path.direction.reserve(longest_route);
    s.rope_path.segment_length.reserve(longest_route);
    s.rope_tensions.assign(model.ropes.size(), 0.0);

    s.rows.reserve(max_rows_total);
    s.jacobian.reserve(jacobian_values);
    s.response.reserve(jacobian_values);
    const auto blocks = static_cast<uint32_t>(model.blocks.size());
    s.island_parent.assign(blocks, 0);
    s.island_of_root.assign(blocks, 0);
    s.island_row_start.reserve(blocks + 1);
    s.island_rows.reserve(max_rows_total);
    s.block_row_start.assign(blocks + 1, 0);
    s.block_rows.reserve(kMaxRowBlocks * max_rows_total);
    s.problems.reserve(blocks);
    s.island_block_index.assign(blocks, UINT32_MAX);
    s.x.reserve(max_rows_total);

    // Contacts: the collision world of the model's shapes, then the cables'
    // contact samples (a sphere of the cable's radius each, collision body
    // element_count + sample).
    s.collision = collision::CollisionWorld();
    for (const collision::Shape& shape : model.shapes) s.collision.add_shape(shape);
    const auto samples = static_cast<uint32_t>(model.contact_samples.size());
    s.group_samples.assign(model.element_groups.size(), {});
    std::vector<int32_t> cable_of_group(model.element_groups.size(), -1);
    for (uint32_t c = 0; c < model.cables.size(); ++c) {
        if (!model.cables[c].removed) cable_of_group[model.cables[c].group] = static_cast<int32_t>(c);
    }
    for (uint32_t k = 0; k < samples; ++k) {
        const WorldModel::ContactSample& sample = model.contact_samples[k];
        const uint32_t group = model.element_group[sample.element];
        const CableRecord& cable = model.cables[static_cast<uint32_t>(cable_of_group[group])];
        collision::Shape sphere = collision::Shape::sphere(cable.radius);
        sphere.material = cable.material;
        sphere.body = static_cast<int32_t>(elements + k);
        sphere.key = 0x80000000u | k;  // apart from the model's shapes' keys (contact ids)
        s.collision.add_shape(sphere);
        auto& gs = s.group_samples[group];
        if (gs.points.empty()) gs.first_sample = k;
        gs.points.push_back({sample.element - model.element_groups[group].first, 0, {sample.s, 0.0, 0.0}});
    }
    for (size_t g = 0; g < s.group_samples.size(); ++g) {
        size_material_frames(s.group_samples[g], model.element_groups[g].nv);
    }
    // The elements that carry shapes: their frames at material point (0, 0, 0).
    s.group_origins.assign(model.element_groups.size(), {});
    std::vector<uint8_t> has_shapes(elements, 0);
    for (const collision::Shape& shape : model.shapes) {
        if (shape.body != collision::kStaticBody) has_shapes[static_cast<uint32_t>(shape.body)] = 1;
    }
    for (uint32_t e = 0; e < elements; ++e) {
        if (!has_shapes[e]) continue;
        const uint32_t group = model.element_group[e];
        s.group_origins[group].points.push_back({e - model.element_groups[group].first, 0, {0.0, 0.0, 0.0}});
    }
    for (size_t g = 0; g < s.group_origins.size(); ++g) {
        size_material_frames(s.group_origins[g], model.element_groups[g].nv);
    }
    update_excluded_pairs(model, s);
    // A cable's samples among themselves: by a filter on the cable of each
    // collision body (a pair list would grow with the square of the samples).
    s.collision_cable.assign(elements + samples, -1);
    for (uint32_t e = 0; e < elements; ++e) {
        if (model.disabled[e]) s.collision_cable[e] = kCollidesWithNothing;
    }
    for (uint32_t k = 0; k < samples; ++k) {
        s.collision_cable[elements + k] = cable_of_group[model.element_group[model.contact_samples[k].element]];
    }
    s.collision.broadphase().set_filter(
        [](int32_t a, int32_t b, void* user) {
            const auto& cable = *static_cast<const std::vector<int32_t>*>(user);
            const int32_t ca = a >= 0 ? cable[static_cast<uint32_t>(a)] : -1;
            const int32_t cb = b >= 0 ? cable[static_cast<uint32_t>(b)] : -1;
            return ca == kCollidesWithNothing || cb == kCollidesWithNothing || (ca >= 0 && ca == cb);
        },
        &s.collision_cable);
    s.collision_possible = !model.shapes.empty() || model.cables.size() > 1;
    s.body_poses.assign(elements + samples, collision::Pose{});
    s.body_speeds.assign(elements + samples, collision::BodySpeed{});
    s.group_contact_points.assign(model.element_groups.size(), {});
    s.friction_batches.assign(model.friction_instances.size(), {});
    s.body_of_element.assign(elements, -1);
    for (uint32_t b = 0; b < model.bodies.size(); ++b) {
        if (!model.bodies[b].removed) s.body_of_element[model.bodies[b].element] = static_cast<int32_t>(b);
    }
    s.cable_of_element.assign(elements, -1);
    for (uint32_t c = 0; c < model.cables.size(); ++c) {
        if (model.cables[c].removed) continue;
        const ElementGroup& g = model.element_groups[model.cables[c].group];
        std::fill_n(s.cable_of_element.begin() + g.first, g.count, static_cast<int32_t>(c));
    }
}

}  // namespace pivot
