// Stages: broadphase and narrowphase. The bodies' shapes are placed at the
// poses of the start of the step; the broadphase (sweep and prune) finds the
// candidate pairs within the contact margin plus how far the shapes may move
// in the step, the narrowphase their contact points (core/collision/). Two stages so that the step statistics time
// them apart.
#include <cmath>

#include "common/error.hpp"
#include "plugin_host/checked_calls.hpp"
#include "step/step_stages.hpp"

namespace pivot {

void find_shape_pairs(const WorldModel& model, const WorldState& state, StepScratch& s) {
    if (!s.collision_possible) return;
    // Poses of the elements that carry shapes (rigid bodies: q = x, quaternion).
    for (uint32_t e = 0; e < model.element_count; ++e) {
        const ElementGroup& g = model.element_groups[model.element_group[e]];
        if (g.chain) continue;
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
        if (model.element_groups[model.element_group[e]].chain) continue;
        const double* v = s.v_free.data() + model.element_v_offset[e];
        // sqrt of the sum, not hypot: speeds are far from overflow, and
        // hypot's care costs more than the rest of the loop for a pile.
        s.body_speeds[e] = model.fixed[e] ? collision::BodySpeed{}
                                          : collision::BodySpeed{std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]),
                                                                 std::sqrt(v[3] * v[3] + v[4] * v[4] + v[5] * v[5])};
    }
    // Cable contact samples: centreline points (one material_frames call per
    // cable), moving at their free velocity J v*.
    for (size_t gi = 0; gi < model.element_groups.size(); ++gi) {
        auto& gs = s.group_samples[gi];
        if (gs.points.empty()) continue;
        const ElementGroup& g = model.element_groups[gi];
        const pivot_element_batch batch = element_batch(g, state);
        CallResult r = checked_material_frames(g.instance, batch, gs.points.data(),
                                               static_cast<uint32_t>(gs.points.size()), guarded(gs.poses),
                                               guarded(gs.twists), guarded(gs.jacobians));
        require_usable(r);
        for (size_t k = 0; k < gs.points.size(); ++k) {
            const size_t body = model.element_count + gs.first_sample + k;
            const double* pose = gs.poses.data() + 7 * k;
            s.body_poses[body].position = {pose[0], pose[1], pose[2]};
            s.body_poses[body].orientation = collision::Quat(1.0, 0.0, 0.0, 0.0);
            const double* jp = gs.jacobians.data() + 6 * g.nv * k;
            const double* v = s.v_free.data() + g.v_offset + g.element_v(gs.points[k].element);
            double velocity[3] = {0.0, 0.0, 0.0};
            for (uint32_t col = 0; col < g.nv; ++col) {
                for (int i = 0; i < 3; ++i) velocity[i] += jp[i + 6 * col] * v[col];
            }
            s.body_speeds[body] = collision::BodySpeed{std::hypot(velocity[0], velocity[1], velocity[2]), 0.0};
        }
    }
    s.collision.find_pairs(s.body_poses, {model.settings.contact_margin, model.settings.timestep}, &s.body_speeds);
}

void find_contacts(const WorldModel& model, StepScratch& s) {
    if (!s.collision_possible) return;
    s.collision.collide_pairs({model.settings.contact_margin});
}

}  // namespace pivot
