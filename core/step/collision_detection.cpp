// Stages: broadphase and narrowphase. The bodies' shapes are placed at the
// poses of the start of the step; the broadphase (sweep and prune) finds the
// candidate pairs within the contact margin plus how far the shapes may move
// in the step, the narrowphase their contact points (core/collision/). Two stages so that the step statistics time
// them apart.
#include <cmath>

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
    // How fast each body may move this step (at its free velocity v*, gravity
    // and applied forces included): its shapes' contacts are looked for that
    // much farther, so that a fast body meets the ground as a speculative
    // contact instead of passing into it (a 60 Hz drop at 5 m/s moves 8 cm
    // a step, eight times the default margin).
    for (uint32_t e = 0; e < model.element_count; ++e) {
        const double* v = s.v_free.data() + model.element_v_offset[e];
        s.body_speeds[e] = model.fixed[e] ? collision::BodySpeed{}
                                          : collision::BodySpeed{std::hypot(v[0], v[1], v[2]),
                                                                 std::hypot(v[3], v[4], v[5])};
    }
    s.collision.find_pairs(s.body_poses, {model.settings.contact_margin, model.settings.timestep}, &s.body_speeds);
}

void find_contacts(const WorldModel& model, StepScratch& s) {
    if (model.shapes.empty()) return;
    s.collision.collide_pairs({model.settings.contact_margin});
}

}  // namespace pivot
