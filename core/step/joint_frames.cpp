// Stage frames: the joint frames (and, for the position projection, the joints'
// rows at the end of the step: evaluate_joint_rows_at). Each joint frame is
// a material point of an element (or fixed in the world) with a rotation
// relative to the element's material frame. One batched material_frames call per element group gives
// the points' poses, twists and 6 x nv twist Jacobians; the frame's rotation
// offset is then applied (it changes the orientation, not the twist).
#include <cstring>

#include "common/error.hpp"
#include "plugin_host/checked_calls.hpp"
#include "step/step_stages.hpp"

namespace pivot {

namespace {

void quaternion_multiply(const double* a, const double* b, double* out) {
    const double w = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    const double x = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    const double y = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    const double z = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
    out[0] = w, out[1] = x, out[2] = y, out[3] = z;
}

// The joint frames at the configuration q_all (model.nq values): poses into
// pose1/pose2 of each joint group (`at_end`: end_pose1/2) and the frame
// Jacobians; at the state's configuration also the twists.
void place_joint_frames(const WorldModel& model, const WorldState& state, StepScratch& s, const double* q_all,
                        bool at_end) {
    // Poses, twists and Jacobians of all element attachments, per group.
    for (size_t g = 0; g < model.element_groups.size(); ++g) {
        const ElementGroup& group = model.element_groups[g];
        auto& gp = s.group_points[g];
        if (gp.points.empty()) continue;
        const pivot_element_batch batch = element_batch(group, state, nullptr, q_all + group.q_offset);
        ask_material_frames(group, batch, gp);
        for (size_t p = 0; p < gp.points.size(); ++p) {
            const uint32_t joint = gp.attachment[p] / 2;
            const uint32_t side = gp.attachment[p] % 2;
            const JointRecord& record = model.joints[joint];
            auto& rows = s.joint_rows[record.group];
            auto& poses = at_end ? (side == 0 ? rows.end_pose1 : rows.end_pose2)
                                    : (side == 0 ? rows.pose1 : rows.pose2);
            double* pose = poses.data() + 7 * record.member;
            const Attachment& a = side == 0 ? record.frame1 : record.frame2;
            std::memcpy(pose, gp.poses.data() + 7 * p, 3 * sizeof(double));
            quaternion_multiply(gp.poses.data() + 7 * p + 3, a.local_rotation.data(), pose + 3);
            // The frame Jacobians (at the end of the step: for the projection,
            // once the step's solve no longer needs those of its start).
            std::memcpy(s.frame_jacobian.data() + s.frame_jacobian_offset[gp.attachment[p]],
                        gp.jacobians.data() + 6 * group.nv * p, 6 * group.nv * sizeof(double));
            if (at_end) continue;
            double* twist = (side == 0 ? rows.twist1 : rows.twist2).data() + 6 * record.member;
            std::memcpy(twist, gp.twists.data() + 6 * p, 6 * sizeof(double));
        }
    }
    // World attachments: fixed poses, zero twist.
    for (const JointRecord& record : model.joints) {
        if (record.removed) continue;  // a tombstone (World::remove_joint)
        auto& rows = s.joint_rows[record.group];
        for (int side = 0; side < 2; ++side) {
            const Attachment& a = side == 0 ? record.frame1 : record.frame2;
            if (a.element != Attachment::kWorld) continue;
            auto& poses = at_end ? (side == 0 ? rows.end_pose1 : rows.end_pose2)
                                    : (side == 0 ? rows.pose1 : rows.pose2);
            double* pose = poses.data() + 7 * record.member;
            std::memcpy(pose, a.local_point.data(), 3 * sizeof(double));
            std::memcpy(pose + 3, a.local_rotation.data(), 4 * sizeof(double));
            if (at_end) continue;
            double* twist = (side == 0 ? rows.twist1 : rows.twist2).data() + 6 * record.member;
            std::memset(twist, 0, 6 * sizeof(double));
        }
    }
}

}  // namespace

void ask_material_frames(const ElementGroup& g, const pivot_element_batch& batch, StepScratch::MaterialFrames& f) {
    const size_t n = f.points.size();
    f.poses.resize(7 * n);
    f.twists.resize(6 * n);
    f.jacobians.resize(6 * static_cast<size_t>(g.nv) * n);
    require_usable(checked_material_frames(g.instance, batch, f.points.data(), static_cast<uint32_t>(n),
                                           guarded(f.poses), guarded(f.twists), guarded(f.jacobians)));
}

void compute_joint_frames(const WorldModel& model, const WorldState& state, StepScratch& s) {
    place_joint_frames(model, state, s, state.q.data(), false);
}

void evaluate_joint_rows_at(const WorldModel& model, const WorldState& state, StepScratch& s, const double* q_all) {
    place_joint_frames(model, state, s, q_all, true);
    const pivot_step_info step{sizeof(pivot_step_info), 0, model.settings.timestep, state.time,
                               {model.settings.gravity[0], model.settings.gravity[1], model.settings.gravity[2]}};
    for (uint32_t g = 0; g < model.joint_groups.size(); ++g) {
        const JointGroup& jg = model.joint_groups[g];
        if (jg.count == 0) continue;
        auto& out = s.joint_rows[g];
        const pivot_joint_batch batch{jg.count, jg.item_stride, jg.item_params.data(), out.end_pose1.data(),
                                      out.end_pose2.data(), out.twist1.data(), out.twist2.data()};
        CallResult r = checked_joint_rows(jg.instance, batch, step, guarded(out.end_rows), guarded(out.end_jacobians),
                                          guarded(out.end_counts));
        require_usable(r);
    }
}

}  // namespace pivot
