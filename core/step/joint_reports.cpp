// Stage reports: what the joints report. The reaction on body 2 is the sum of the
// joint's row forces (impulse / h) times the body-2 part of each row's
// Jacobian: a force at the frame-2 origin and a torque about it (world).
// The position error is the largest |violation| of the rows flagged
// PIVOT_ROW_POSITION_ERROR, as computed at the start of the step; the motor
// effort the force of the row flagged PIVOT_ROW_MOTOR (its own force along
// the free coordinate, without the constraint's). A breakable joint whose
// reaction passed its threshold is listed in StepOutputs::broken_joints.
#include <algorithm>
#include <cmath>

#include "step/step_stages.hpp"

namespace pivot {

void report_joints(const WorldModel& model, const WorldState& state, const StepScratch& s, StepOutputs& out) {
    const double h = model.settings.timestep;
    out.statistics.max_joint_error = 0.0;
    for (uint32_t j = 0; j < model.joints.size(); ++j) {
        const JointRecord& record = model.joints[j];
        if (record.removed) continue;  // a tombstone (World::remove_joint): no group, its reaction stays zero
        const JointGroup& jg = model.joint_groups[record.group];
        const auto& rows = s.joint_rows[record.group];
        JointReaction& reaction = out.reactions[j];
        reaction = JointReaction{};
        for (uint32_t k = 0; k < rows.row_counts[record.member]; ++k) {
            const size_t index = static_cast<size_t>(record.member) * jg.max_rows + k;
            const pivot_row& row = rows.rows[index];
            const double force = state.joint_impulses[jg.impulse_offset + record.member * jg.max_rows + k] / h;
            const double* j12 = rows.jacobians.data() + index * 12;
            for (int i = 0; i < 3; ++i) {
                reaction.force[i] += force * j12[6 + i];
                reaction.torque[i] += force * j12[9 + i];
            }
            if (row.flags & PIVOT_ROW_MOTOR) reaction.motor_effort += force;
            if (row.flags & PIVOT_ROW_POSITION_ERROR) {
                reaction.position_error = std::max(reaction.position_error, std::abs(row.violation));
            }
        }
        out.statistics.max_joint_error = std::max(out.statistics.max_joint_error, reaction.position_error);
        // A breakable joint breaks after a step whose reaction passed its
        // threshold (World::step disables it: the step itself held).
        const auto magnitude = [](const std::array<double, 3>& x) {
            return std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
        };
        const bool force_broke = record.break_force > 0.0 && magnitude(reaction.force) > record.break_force;
        const bool torque_broke = record.break_torque > 0.0 && magnitude(reaction.torque) > record.break_torque;
        const auto& broken = out.broken_joints;  // reserved per joint: no allocation; once per step (substeps)
        if (record.enabled && (force_broke || torque_broke) &&
            std::find(broken.begin(), broken.end(), j) == broken.end()) {
            out.broken_joints.push_back(j);
        }
    }
}

}  // namespace pivot
