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
    // The frames of the elements that carry shapes (material point (0, 0, 0),
    // one material_frames call per group), and how fast each may move this
    // step: at its free velocity v* (gravity and applied forces included),
    // so its shapes' contacts are looked for that much farther and a fast
    // body meets the ground as a speculative contact instead of passing
    // into it (a 60 Hz drop at 5 m/s moves 8 cm a step, eight times the
    // default margin).
    for (size_t gi = 0; gi < model.element_groups.size(); ++gi) {
        auto& go = s.group_origins[gi];
        if (go.points.empty()) continue;
        const ElementGroup& g = model.element_groups[gi];
        const pivot_element_batch batch = element_batch(g, state, s.v_free.data() + g.v_offset);
        ask_material_frames(g, batch, go);
        for (size_t k = 0; k < go.points.size(); ++k) {
            const uint32_t e = g.first + go.points[k].element;
            const double* pose = go.poses.data() + 7 * k;
            const double* twist = go.twists.data() + 6 * k;
            s.body_poses[e].position = {pose[0], pose[1], pose[2]};
            s.body_poses[e].orientation = collision::Quat(pose[3], pose[4], pose[5], pose[6]);
            // sqrt of the sum, not hypot: speeds are far from overflow, and
            // hypot's care costs more than the rest of the loop for a pile.
            s.body_speeds[e] = model.fixed[e] ? collision::BodySpeed{}
                                              : collision::BodySpeed{
                                                    std::sqrt(twist[0] * twist[0] + twist[1] * twist[1] +
                                                              twist[2] * twist[2]),
                                                    std::sqrt(twist[3] * twist[3] + twist[4] * twist[4] +
                                                              twist[5] * twist[5])};
        }
    }
    // Cable contact samples: centreline points (one material_frames call per
    // cable), moving at their free velocity J v*.
    for (size_t gi = 0; gi < model.element_groups.size(); ++gi) {
        auto& gs = s.group_samples[gi];
        if (gs.points.empty()) continue;
        const ElementGroup& g = model.element_groups[gi];
        const pivot_element_batch batch = element_batch(g, state);
        ask_material_frames(g, batch, gs);
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
