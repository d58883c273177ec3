// Stages: broadphase and narrowphase. The bodies' shapes are placed at the
// poses of the start of the step; the broadphase (sweep and prune) finds the
// candidate pairs within the contact margin, the narrowphase their contact
// points (core/collision/). Two stages so that the step statistics time
// them apart.
#include "step/step_stages.hpp"

namespace pivot {

void find_shape_pairs(const WorldModel& model, const WorldState& state, StepScratch& s) {
    if (model.shapes.empty()) return;
    // Poses of the elements that carry shapes (rigid bodies: q = x, quaternion).
    for (uint32_t e = 0; e < model.element_count; ++e) {
        const ElementGroup& g = model.element_groups[model.element_group[e]];
        const double* q = state.q.data() + g.q_offset + (e - g.first) * g.nq;
        s.body_poses[e].position = {q[0], q[1], q[2]};
        s.body_poses[e].orientation = collision::Quat(q[3], q[4], q[5], q[6]);
    }
    s.collision.find_pairs(s.body_poses, {model.settings.contact_margin});
}

void find_contacts(const WorldModel& model, StepScratch& s) {
    if (model.shapes.empty()) return;
    s.collision.collide_pairs({model.settings.contact_margin});
}

}  // namespace pivot
