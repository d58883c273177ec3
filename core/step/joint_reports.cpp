// Stage reports: what the joints report. The reaction on body 2 is the sum of the
// joint's row forces (impulse / h) times the body-2 part of each row's
// Jacobian: a force at the frame-2 origin and a torque about it (world).
// The position error is the largest |violation| of the rows flagged
// PIVOT_ROW_POSITION_ERROR, as computed at the start of the step.
#include <algorithm>
#include <cmath>

#include "step/step_stages.hpp"

namespace pivot {

void report_joints(const WorldModel& model, const WorldState& state, StepScratch& s) {
    const double h = model.settings.timestep;
    s.statistics.max_joint_error = 0.0;
    for (uint32_t j = 0; j < model.joints.size(); ++j) {
        const JointRecord& record = model.joints[j];
        const JointGroup& jg = model.joint_groups[record.group];
        const auto& out = s.joint_rows[record.group];
        JointReaction& reaction = s.reactions[j];
        reaction = JointReaction{};
        for (uint32_t k = 0; k < out.row_counts[record.member]; ++k) {
            const size_t index = static_cast<size_t>(record.member) * jg.max_rows + k;
            const pivot_row& row = out.rows[index];
            const double force = state.joint_impulses[jg.impulse_offset + record.member * jg.max_rows + k] / h;
            const double* j12 = out.jacobians.data() + index * 12;
            for (int i = 0; i < 3; ++i) {
                reaction.force[i] += force * j12[6 + i];
                reaction.torque[i] += force * j12[9 + i];
            }
            if (row.flags & PIVOT_ROW_POSITION_ERROR) {
                reaction.position_error = std::max(reaction.position_error, std::abs(row.violation));
            }
        }
        s.statistics.max_joint_error = std::max(s.statistics.max_joint_error, reaction.position_error);
    }
    // Contacts: point, normal, depth and forces (impulse / h).
    s.contact_reports.resize(s.contact_points.size());
    const auto& contacts = s.collision.contacts().contacts;
    for (uint32_t i = 0; i < s.contact_points.size(); ++i) {
        const collision::Contact& c = contacts[s.contact_points[i].collision_contact];
        ContactReport& r = s.contact_reports[i];
        const int32_t ea = collision_element(model, s.collision.shape(c.shape_a).body);
        const int32_t eb = collision_element(model, s.collision.shape(c.shape_b).body);
        r.body1 = ea >= 0 ? s.body_of_element[static_cast<uint32_t>(ea)] : -1;
        r.body2 = eb >= 0 ? s.body_of_element[static_cast<uint32_t>(eb)] : -1;
        r.cable1 = ea >= 0 ? s.cable_of_element[static_cast<uint32_t>(ea)] : -1;
        r.cable2 = eb >= 0 ? s.cable_of_element[static_cast<uint32_t>(eb)] : -1;
        for (int k = 0; k < 3; ++k) r.point[k] = c.position[k], r.normal[k] = c.normal[k];
        r.depth = c.depth;
        // The contact's total linear impulse on body 2: its rows' impulses
        // along their linear directions plus the model's explicit impulse,
        // whatever the model (box: normal + 2 tangents; cone: facets;
        // compliant: explicit only); split into normal and tangential force.
        const double* z = s.next_contact_impulses.data() + static_cast<size_t>(i) * WorldState::kMaxContactRows;
        const double* d = s.contact_directions.data() + static_cast<size_t>(i) * WorldState::kMaxContactRows * 6;
        const double* e = s.contact_explicit.data() + 6 * static_cast<size_t>(i);
        double impulse[3] = {e[0], e[1], e[2]};
        for (uint32_t row = 0; row < s.contact_points[i].row_count; ++row) {
            for (int k = 0; k < 3; ++k) impulse[k] += z[row] * d[6 * row + k];
        }
        const double in = impulse[0] * c.normal[0] + impulse[1] * c.normal[1] + impulse[2] * c.normal[2];
        r.normal_force = in / h;
        for (int k = 0; k < 3; ++k) r.friction[k] = (impulse[k] - in * c.normal[k]) / h;
        const double* t1 = s.contact_tangents.data() + 6 * static_cast<size_t>(i);
        r.tangent1 = {t1[0], t1[1], t1[2]};
        r.friction_force = {r.friction[0] * t1[0] + r.friction[1] * t1[1] + r.friction[2] * t1[2],
                            r.friction[0] * t1[3] + r.friction[1] * t1[4] + r.friction[2] * t1[5]};
    }
}

}  // namespace pivot
