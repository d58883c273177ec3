// Stage 2: the joint frames. Each joint frame is a material point of an
// element (or fixed in the world) with a rotation relative to the element's
// material frame. One batched material_frames call per element group gives
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

}  // namespace

void compute_joint_frames(const WorldModel& model, const WorldState& state, StepScratch& s) {
    // Poses, twists and Jacobians of all element attachments, per group.
    for (size_t g = 0; g < model.element_groups.size(); ++g) {
        const ElementGroup& group = model.element_groups[g];
        auto& gp = s.group_points[g];
        if (gp.points.empty()) continue;
        const pivot_element_batch batch = element_batch(group, state);
        CallResult r = checked_material_frames(group.instance, batch, gp.points.data(),
                                               static_cast<uint32_t>(gp.points.size()), gp.poses.data(),
                                               gp.twists.data(), gp.jacobians.data());
        if (!r.ok()) throw Error(r.message);
        for (size_t p = 0; p < gp.points.size(); ++p) {
            const uint32_t joint = gp.attachment[p] / 2;
            const uint32_t side = gp.attachment[p] % 2;
            const JointRecord& record = model.joints[joint];
            const JointGroup& jg = model.joint_groups[record.group];
            (void)jg;
            auto& rows = s.joint_rows[record.group];
            double* pose = (side == 0 ? rows.pose1 : rows.pose2).data() + 7 * record.member;
            double* twist = (side == 0 ? rows.twist1 : rows.twist2).data() + 6 * record.member;
            const Attachment& a = side == 0 ? record.frame1 : record.frame2;
            std::memcpy(pose, gp.poses.data() + 7 * p, 3 * sizeof(double));
            quaternion_multiply(gp.poses.data() + 7 * p + 3, a.local_rotation.data(), pose + 3);
            std::memcpy(twist, gp.twists.data() + 6 * p, 6 * sizeof(double));
            std::memcpy(s.frame_jacobian.data() + s.frame_jacobian_offset[gp.attachment[p]],
                        gp.jacobians.data() + 6 * group.nv * p, 6 * group.nv * sizeof(double));
        }
    }
    // World attachments: fixed poses, zero twist.
    for (const JointRecord& record : model.joints) {
        auto& rows = s.joint_rows[record.group];
        for (int side = 0; side < 2; ++side) {
            const Attachment& a = side == 0 ? record.frame1 : record.frame2;
            if (a.element != Attachment::kWorld) continue;
            double* pose = (side == 0 ? rows.pose1 : rows.pose2).data() + 7 * record.member;
            double* twist = (side == 0 ? rows.twist1 : rows.twist2).data() + 6 * record.member;
            std::memcpy(pose, a.local_point.data(), 3 * sizeof(double));
            std::memcpy(pose + 3, a.local_rotation.data(), 4 * sizeof(double));
            std::memset(twist, 0, 6 * sizeof(double));
        }
    }
}

}  // namespace pivot
