// Stage reports, contacts: each contact's point, normal, depth and forces
// (impulse / h): its rows' impulses along their linear directions plus the
// model's explicit impulse, split into the normal force and the friction
// force (also in the host's tangent frame). Contacts on the pool when there
// is one, each writing its own report.
#include "common/worker_pool.hpp"
#include "step/step_stages.hpp"

namespace pivot {

void report_contacts(const WorldModel& model, WorkerPool* pool, const StepScratch& s, StepOutputs& out) {
    const double h = model.settings.timestep;
    out.contact_reports.resize(s.contact_points.size());
    const auto& contacts = s.collision.contacts().contacts;
    const auto count = static_cast<uint32_t>(s.contact_points.size());
    WorkerPool::for_chunks(pool, count, 512, [&](uint32_t, uint32_t begin, uint32_t end) {
        for (uint32_t i = begin; i < end; ++i) {
            const collision::Contact& c = contacts[s.contact_points[i].collision_contact];
            ContactReport& r = out.contact_reports[i];
            const int32_t ea = collision_element(model, s.collision.shape(c.shape_a).body);
            const int32_t eb = collision_element(model, s.collision.shape(c.shape_b).body);
            r.body1 = ea >= 0 ? s.body_of_element[static_cast<uint32_t>(ea)] : -1;
            r.body2 = eb >= 0 ? s.body_of_element[static_cast<uint32_t>(eb)] : -1;
            r.cable1 = ea >= 0 ? s.cable_of_element[static_cast<uint32_t>(ea)] : -1;
            r.cable2 = eb >= 0 ? s.cable_of_element[static_cast<uint32_t>(eb)] : -1;
            for (int k = 0; k < 3; ++k) r.point[k] = c.position[k], r.normal[k] = c.normal[k];
            r.depth = c.depth;
            // The contact's total linear impulse on body 2 (commit_state),
            // split into normal and tangential force.
            const double* impulse = s.contact_linear_impulses.data() + 3 * static_cast<size_t>(i);
            const double in = impulse[0] * c.normal[0] + impulse[1] * c.normal[1] + impulse[2] * c.normal[2];
            r.normal_force = in / h;
            for (int k = 0; k < 3; ++k) r.friction[k] = (impulse[k] - in * c.normal[k]) / h;
            const double* t1 = s.contact_tangents.data() + 6 * static_cast<size_t>(i);
            r.tangent1 = {t1[0], t1[1], t1[2]};
            r.friction_force = {r.friction[0] * t1[0] + r.friction[1] * t1[1] + r.friction[2] * t1[2],
                                r.friction[0] * t1[3] + r.friction[1] * t1[4] + r.friction[2] * t1[5]};
        }
    });
}

}  // namespace pivot
