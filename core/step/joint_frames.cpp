// Stage 2: the joint frames (and, for the position projection, the joints'
// rows at the end of the step: evaluate_joint_rows_at). Each joint frame is a material point of an
// element (or fixed in the world) with a rotation relative to the element's
// material frame. One batched material_frames call per element group gives
// the points' poses, twists and 6 x nv twist Jacobians; the frame's rotation
// offset is then applied (it changes the orientation, not the twist).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "common/error.hpp"
#include "plugin_host/checked_calls.hpp"
#include "step/step_stages.hpp"

namespace pivot {

namespace {

// The frames' turn per step (rad) up to which the predicted drift is used
// whole, and from which it is not used at all (linear in between).
constexpr double kResolvedTurn = 0.5;
constexpr double kUnresolvedTurn = 1.0;

void quaternion_multiply(const double* a, const double* b, double* out) {
    const double w = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    const double x = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    const double y = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    const double z = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
    out[0] = w, out[1] = x, out[2] = y, out[3] = z;
}

// The joint frames at the configuration q_all (model.nq values): poses into
// pose1/pose2 of each joint group (`predicted`: end_pose1/2), and at
// the state's configuration also the twists and the frame Jacobians.
void place_joint_frames(const WorldModel& model, const WorldState& state, StepScratch& s, const double* q_all,
                        bool at_end) {
    // Poses, twists and Jacobians of all element attachments, per group.
    for (size_t g = 0; g < model.element_groups.size(); ++g) {
        const ElementGroup& group = model.element_groups[g];
        auto& gp = s.group_points[g];
        if (gp.points.empty()) continue;
        const pivot_element_batch batch = element_batch(group, state, nullptr, q_all + group.q_offset);
        CallResult r = checked_material_frames(group.instance, batch, gp.points.data(),
                                               static_cast<uint32_t>(gp.points.size()), gp.poses.data(),
                                               gp.twists.data(), gp.jacobians.data());
        if (!r.ok()) throw Error(r.message);
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
            if (at_end) continue;
            double* twist = (side == 0 ? rows.twist1 : rows.twist2).data() + 6 * record.member;
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
        CallResult r = checked_joint_rows(jg.instance, batch, step, out.end_rows.data(),
                                          out.end_jacobians.data(), out.end_counts.data());
        if (!r.ok()) throw Error(r.message);
    }
}

void predict_joint_violations(const WorldModel& model, const WorldState& state, StepScratch& s) {
    const bool predict = model.settings.projection_iterations > 0;
    for (uint32_t g = 0; g < model.joint_groups.size(); ++g) {
        std::fill(s.joint_rows[g].predicted.begin(), s.joint_rows[g].predicted.end(), 0.0);
    }
    if (!predict || model.joints.empty()) return;
    // q + h N(q) v into q_next (integrate_positions overwrites it later).
    const double h = model.settings.timestep;
    for (const ElementGroup& g : model.element_groups) {
        if (g.count == 0) continue;
        CallResult r = checked_integrate(g.instance, g.node_count(), state.q.data() + g.q_offset,
                                         state.v.data() + g.v_offset, h, s.q_next.data() + g.q_offset);
        if (!r.ok()) throw Error(r.message);
        for (uint32_t e = 0; e < g.count && !g.chain; ++e) {
            if (!model.fixed[g.first + e]) continue;
            std::copy_n(state.q.data() + g.q_offset + e * g.nq, g.nq, s.q_next.data() + g.q_offset + e * g.nq);
        }
    }
    evaluate_joint_rows_at(model, state, s, s.q_next.data());
    for (uint32_t g = 0; g < model.joint_groups.size(); ++g) {
        const JointGroup& jg = model.joint_groups[g];
        auto& out = s.joint_rows[g];
        // Equality rows come first in a joint and keep their slots: slot k
        // predicts slot k when both are equality rows.
        for (uint32_t m = 0; m < jg.count; ++m) {
            // A second-order prediction is good while the frames turn by
            // well under a radian in the step; a link turning by radians
            // (the whip of a chain's free end) is not resolved by any, and
            // extrapolating it would feed the solve a made-up drift.
            const double* w1 = out.twist1.data() + 6 * m + 3;
            const double* w2 = out.twist2.data() + 6 * m + 3;
            const double turn = h * std::sqrt(std::max(w1[0] * w1[0] + w1[1] * w1[1] + w1[2] * w1[2],
                                                       w2[0] * w2[0] + w2[1] * w2[1] + w2[2] * w2[2]));
            const double weight = std::clamp((kUnresolvedTurn - turn) / (kUnresolvedTurn - kResolvedTurn), 0.0, 1.0);
            if (weight == 0.0) continue;
            const uint32_t rows = std::min(out.row_counts[m], out.end_counts[m]);
            for (uint32_t k = 0; k < rows; ++k) {
                const size_t i = static_cast<size_t>(m) * jg.max_rows + k;
                if ((out.rows[i].flags & out.end_rows[i].flags & PIVOT_ROW_POSITION_ERROR) == 0) continue;
                // phi(q + h N v) - phi - h J v: the second-order part of the
                // motion at the start velocity (the centripetal term).
                const double* j = out.jacobians.data() + i * 12;
                const double* t1 = out.twist1.data() + 6 * m;
                const double* t2 = out.twist2.data() + 6 * m;
                double rate = 0.0;
                for (int c = 0; c < 6; ++c) rate += j[c] * t1[c] + j[6 + c] * t2[c];
                out.predicted[i] = weight * (out.end_rows[i].violation - out.rows[i].violation - h * rate);
            }
        }
    }
}

}  // namespace pivot
