// Stage integrate: positions. q+ = q + h N(q) v+ through each element plugin (which
// owns the meaning of its coordinates: quaternion update and normalization
// for rigid bodies); after the projection (project_positions.cpp), v+, q+
// and the impulses become the state (commit_state). That is the only
// write to the state, so a step that failed earlier leaves the world as it
// was.
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
    state.q.assign(s.q_next.begin(), s.q_next.end());  // q_next is plugin output (guarded storage): copied
    state.v.swap(s.v_next);
    state.joint_impulses.swap(s.impulses);
    state.rope_tensions.swap(s.rope_tensions);
    // Contacts by id, sorted, for the next step's lookups.
    const auto contacts = static_cast<uint32_t>(s.next_contact_ids.size());
    s.contact_order.resize(contacts);
    for (uint32_t i = 0; i < contacts; ++i) s.contact_order[i] = i;
    std::sort(s.contact_order.begin(), s.contact_order.end(),
              [&](uint32_t a, uint32_t b) { return s.next_contact_ids[a] < s.next_contact_ids[b]; });
    constexpr uint32_t kRows = WorldState::kMaxContactRows;
    constexpr uint32_t kState = WorldState::kMaxContactState;
    state.contact_ids.resize(contacts);
    state.contact_impulses.resize(static_cast<size_t>(contacts) * kRows);
    state.contact_state.resize(static_cast<size_t>(contacts) * kState);
    state.contact_linear_impulses.resize(3 * static_cast<size_t>(contacts));
    s.contact_linear_impulses.resize(3 * static_cast<size_t>(contacts));
    for (uint32_t i = 0; i < contacts; ++i) contact_linear_impulse(s, i, s.contact_linear_impulses.data() + 3 * i);
    for (uint32_t k = 0; k < contacts; ++k) {
        const uint32_t i = s.contact_order[k];
        state.contact_ids[k] = s.next_contact_ids[i];
        // The slots the friction models use (the others stay zero: contact_rows.cpp).
        std::copy_n(s.next_contact_impulses.data() + static_cast<size_t>(i) * kRows, s.contact_slots_used.rows,
                    state.contact_impulses.data() + static_cast<size_t>(k) * kRows);
        std::copy_n(s.next_contact_state.data() + static_cast<size_t>(i) * kState, s.contact_slots_used.state,
                    state.contact_state.data() + static_cast<size_t>(k) * kState);
        std::copy_n(s.contact_linear_impulses.data() + 3 * static_cast<size_t>(i), 3,
                    state.contact_linear_impulses.data() + 3 * static_cast<size_t>(k));
    }
    state.time += h;
}

}  // namespace pivot
