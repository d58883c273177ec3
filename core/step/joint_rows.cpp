// Stage rows: the joint rows. One batched rows() call per joint group gives,
// for each joint, rows whose Jacobians act on the two frames' twists
// (12 values: v1, w1, v2, w2). Chaining them with each frame's 6 x nv twist
// Jacobian gives the row's blocks on the elements' velocities,
//     J_row,e = J_frame-part^T  J_frame,e        (one block per moving element),
// and its response Mbar^-1 J_row,e^T over the element's mass block, which
// assembly and the velocity update use. A disabled joint's rows are written
// by its plugin with the others (one batched call) and dropped here.
#include <algorithm>

#include <fmt/format.h>

#include "common/error.hpp"
#include "plugin_host/checked_calls.hpp"
#include "step/step_stages.hpp"

namespace pivot {

void chain_frame_jacobian(const double* row, const double* frame_jacobian, uint32_t nv, double* out) {
    for (uint32_t c = 0; c < nv; ++c) {
        double sum = 0.0;
        for (uint32_t i = 0; i < 6; ++i) sum += row[i] * frame_jacobian[i + 6 * c];
        out[c] = sum;
    }
}


void frame_wrench(const double* forces, const double* jacobians, uint32_t max_rows, uint32_t member, uint32_t rows,
                  uint32_t side, double* wrench) {
    std::fill(wrench, wrench + 6, 0.0);
    for (uint32_t k = 0; k < rows; ++k) {
        const size_t row = static_cast<size_t>(member) * max_rows + k;
        const double* j = jacobians + row * 12 + 6 * side;
        for (int i = 0; i < 6; ++i) wrench[i] += forces[row] * j[i];
    }
}

void collect_joint_rows(const WorldModel& model, const WorldState& state, StepScratch& s) {
    s.rows.clear();
    s.jacobian.clear();
    s.response.clear();
    const pivot_step_info step{sizeof(pivot_step_info), 0, model.settings.timestep, state.time,
                         {model.settings.gravity[0], model.settings.gravity[1], model.settings.gravity[2]}};
    for (uint32_t g = 0; g < model.joint_groups.size(); ++g) {
        const JointGroup& jg = model.joint_groups[g];
        if (jg.count == 0) continue;
        auto& out = s.joint_rows[g];
        const pivot_joint_batch batch{jg.count,           jg.item_stride,      jg.item_params.data(),
                                      out.pose1.data(),   out.pose2.data(),    out.twist1.data(),
                                      out.twist2.data()};
        CallResult r = checked_joint_rows(jg.instance, batch, step, guarded(out.rows), guarded(out.jacobians),
                                          guarded(out.row_counts));
        require_usable(r);

        for (uint32_t m = 0; m < jg.count; ++m) {
            const uint32_t joint = jg.joints[m];
            const JointRecord& record = model.joints[joint];
            // A disabled joint's rows are dropped (and reported as none); so
            // are those of a joint on a disabled body.
            const auto on_disabled = [&](const Attachment& a) {
                return a.element != Attachment::kWorld && model.disabled[a.element];
            };
            if (!record.enabled || on_disabled(record.frame1) || on_disabled(record.frame2)) out.row_counts[m] = 0;
            const auto first_row = static_cast<int32_t>(s.rows.size());
            for (uint32_t k = 0; k < out.row_counts[m]; ++k) {
                const size_t row_index = static_cast<size_t>(m) * jg.max_rows + k;
                ProblemRow row;
                row.row = out.rows[row_index];
                row.scaling_row = row.row.findex >= 0 ? first_row + row.row.findex : -1;
                row.joint_group = g;
                row.member = m;
                row.slot = k;
                const double* j12 = out.jacobians.data() + row_index * 12;
                for (uint32_t side = 0; side < 2; ++side) {
                    const Attachment& a = side == 0 ? record.frame1 : record.frame2;
                    if (a.element == Attachment::kWorld || model.fixed[a.element]) continue;
                    const uint32_t nv = model.element_nv[a.element];
                    const double* frame_jac = s.frame_jacobian.data() + s.frame_jacobian_offset[2 * joint + side];
                    const auto offset = static_cast<uint32_t>(s.jacobian.size());
                    s.jacobian.resize(offset + nv);
                    chain_frame_jacobian(j12 + 6 * side, frame_jac, nv, s.jacobian.data() + offset);
                    add_row_block(model, s, row, a.element, offset, false);  // response when factored
                }
                if (row.block_count == 0) continue;  // between the world and fixed bodies: nothing moves
                s.rows.push_back(row);
            }
        }
    }
    s.joint_rows_end = static_cast<uint32_t>(s.rows.size());
}

}  // namespace pivot
