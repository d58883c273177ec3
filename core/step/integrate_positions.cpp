// Stage integrate: positions. q+ = q + h N(q) v+ through each element plugin (which
// owns the meaning of its coordinates: quaternion update and normalization
// for rigid bodies); after the projection (project_positions.cpp), v+, q+
// and the impulses become the state (commit_state), and the friction models
// hear of their contacts that ended. That is the only write to the state,
// so a step that failed earlier leaves the world as it was.
#include <algorithm>

#include "common/error.hpp"
#include "plugin_host/checked_calls.hpp"
#include "step/step_stages.hpp"

namespace pivot {

namespace {

// Contact i's total linear impulse on body 2 this step (world, N s): its
// rows' impulses along their linear directions plus the model's explicit
// impulse, whatever the model (box: normal + 2 tangents; cone: facets;
// compliant: explicit only).
void contact_linear_impulse(const StepScratch& s, uint32_t i, double* impulse) {
    const double* z = s.next_contact_impulses.data() + static_cast<size_t>(i) * WorldState::kMaxContactRows;
    const double* d = s.contact_directions.data() + static_cast<size_t>(i) * WorldState::kMaxContactRows * 6;
    const double* e = s.contact_explicit.data() + 6 * static_cast<size_t>(i);
    for (int k = 0; k < 3; ++k) impulse[k] = e[k];
    for (uint32_t row = 0; row < s.contact_points[i].row_count; ++row) {
        for (int k = 0; k < 3; ++k) impulse[k] += z[row] * d[6 * row + k];
    }
}

}  // namespace

void integrate_positions(const WorldModel& model, const WorldState& state, StepScratch& s) {
    const double h = model.settings.timestep;
    for (const ElementGroup& g : model.element_groups) {
        if (g.count == 0) continue;
        CallResult r = checked_integrate(g.instance, g.node_count(), state.q.data() + g.q_offset,
                                         s.v_next.data() + g.v_offset, h, guarded(s.q_next, g.q_offset));
        require_usable(r);
        for (uint32_t e = 0; e < g.count && !g.chain; ++e) {
            if (!model.fixed[g.first + e]) continue;  // immovable: keep q, zero v
            std::copy_n(state.q.data() + g.q_offset + e * g.nq, g.nq, s.q_next.data() + g.q_offset + e * g.nq);
            std::fill_n(s.v_next.data() + g.v_offset + e * g.nv, g.nv, 0.0);
        }
    }
}

void commit_state(const WorldModel& model, WorldState& state, StepScratch& s) {
    const double h = model.settings.timestep;
    // The friction models' contacts that ended (ABI 1.9) first: a model's
    // failure there still leaves the world as it was.
    const pivot_step_info step{sizeof(pivot_step_info), 0, h, state.time,
                               {model.settings.gravity[0], model.settings.gravity[1], model.settings.gravity[2]}};
    for (size_t f = 0; f < s.friction_batches.size() && f < model.friction_instances.size(); ++f) {
        const auto& batch = s.friction_batches[f];
        if (batch.ended_ids.empty()) continue;
        require_usable(checked_contacts_ended(model.friction_instances[f], batch.ended_ids.data(),
                                              batch.ended_state.empty() ? nullptr : batch.ended_state.data(),
                                              static_cast<uint32_t>(batch.ended_ids.size()), step));
    }
    state.q.assign(s.q_next.begin(), s.q_next.end());  // q_next is plugin output (guarded storage): copied
    state.v.swap(s.v_next);
    state.joint_impulses.swap(s.impulses);
    state.rope_tensions.swap(s.rope_tensions);
    // Contacts by id, sorted, for the next step's lookups (s.contact_order:
    // the contact stage sorted them to match them with the last step's).
    const auto contacts = static_cast<uint32_t>(s.contact_order.size());
    constexpr uint32_t kRows = WorldState::kMaxContactRows;
    constexpr uint32_t kState = WorldState::kMaxContactState;
    s.contact_linear_impulses.resize(3 * static_cast<size_t>(contacts));
    for (uint32_t i = 0; i < contacts; ++i) contact_linear_impulse(s, i, s.contact_linear_impulses.data() + 3 * i);
    // Each contact keeps its own model's slots (plugin_friction.h: its
    // max_rows_per_contact impulses, state_per_contact state values).
    state.contact_ids.resize(contacts);
    state.contact_models.resize(contacts);
    state.contact_row_start.resize(contacts + 1);
    state.contact_state_start.resize(contacts + 1);
    state.contact_linear_impulses.resize(3 * static_cast<size_t>(contacts));
    uint32_t rows = 0, values = 0;
    for (uint32_t k = 0; k < contacts; ++k) {
        const uint32_t model_index = s.contact_points[s.contact_order[k].contact].friction;
        const pivot_friction_functions& f = model.friction_instances[model_index].plugin().friction;
        state.contact_models[k] = model_index;
        state.contact_row_start[k] = rows;
        state.contact_state_start[k] = values;
        rows += WorldState::contact_rows_of(f);
        values += WorldState::contact_state_of(f);
    }
    state.contact_row_start[contacts] = rows;
    state.contact_state_start[contacts] = values;
    state.contact_impulses.resize(rows);
    state.contact_state.resize(values);
    for (uint32_t k = 0; k < contacts; ++k) {
        const uint32_t i = s.contact_order[k].contact;
        state.contact_ids[k] = s.contact_order[k].id;
        std::copy_n(s.next_contact_impulses.data() + static_cast<size_t>(i) * kRows,
                    state.contact_row_start[k + 1] - state.contact_row_start[k],
                    state.contact_impulses.data() + state.contact_row_start[k]);
        std::copy_n(s.next_contact_state.data() + static_cast<size_t>(i) * kState,
                    state.contact_state_start[k + 1] - state.contact_state_start[k],
                    state.contact_state.data() + state.contact_state_start[k]);
        std::copy_n(s.contact_linear_impulses.data() + 3 * static_cast<size_t>(i), 3,
                    state.contact_linear_impulses.data() + 3 * static_cast<size_t>(k));
    }
    state.time += h;
}

}  // namespace pivot
