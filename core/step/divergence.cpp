// Stage reports (with joint_reports.cpp): the divergence watch. A world that
// blows up says so in its statistics (StepStatistics::diverging,
// pivot_world_statistics, the summary of `pivot run`) instead of silently
// producing metres of joint error.
//
// Energy: the world's mechanical energy E = T + V (kinetic, gravitational,
// elastic) may grow only by the work done on it,
//     E_ref(t + h) = E_ref(t) + h f_applied . v+ + sum_k z_k (J_k v+),
// the sum over every row that does work by design: motors and other rows
// with a target velocity, compliant rows (springs), contacts and friction
// (whose work is mostly dissipation); rigid joint rows are excluded, their
// work z (J v+) = -z phi / h is the stabilization's, i.e. numerical (the
// seed's energy target, seed000 2.4 Eqs. 3.31-3.32 with erratum E5). The
// excess E - E_ref is reported; above divergence_energy times the energy
// scale (the larger of the largest kinetic energy seen and the energy above
// the lowest potential seen) the world is diverging. So is a world whose
// largest joint error passes divergence_joint_error.
#include <algorithm>

#include "common/error.hpp"
#include "plugin_host/checked_calls.hpp"
#include "step/step_stages.hpp"

namespace pivot {

namespace {

// T, V (gravitational + elastic) of the elements at the state; the failed
// call's result when an element could not say.
CallResult element_energies(const WorldModel& model, const WorldState& state, double& kinetic, double& potential) {
    const pivot_step_info step{sizeof(pivot_step_info), 0, model.settings.timestep, state.time,
                               {model.settings.gravity[0], model.settings.gravity[1], model.settings.gravity[2]}};
    kinetic = potential = 0.0;
    for (const ElementGroup& g : model.element_groups) {
        if (g.count == 0) continue;
        GuardedArray<double, 3> energies;
        const CallResult r = checked_energy(g.instance, element_batch(g, state), step, guarded(energies));
        if (!r.ok()) return r;
        const double* e = energies.values.data();
        kinetic += e[0];
        potential += e[1] + e[2];
    }
    return {};
}

bool does_work(const pivot_row& row) {
    return !((row.flags & PIVOT_ROW_POSITION_ERROR) != 0 && row.compliance == 0.0);
}

}  // namespace

void start_energy_watch(const WorldModel& model, const WorldState& state, StepScratch& s) {
    s.watch_start = {};
    if (state.energy_watch.valid || model.settings.divergence_energy <= 0.0) return;
    double kinetic = 0.0, potential = 0.0;
    require_usable(element_energies(model, state, kinetic, potential));
    s.watch_start = {true, kinetic + potential, kinetic, potential};
}

void watch_divergence(const WorldModel& model, WorldState& state, const StepScratch& s, StepStatistics& statistics) {
    WorldState::EnergyWatch& watch = state.energy_watch;
    if (s.watch_start.valid) watch = s.watch_start;  // started by this step
    if (model.settings.divergence_energy > 0.0 && watch.valid) {
        // The work done on the world in the step, at the velocity v+.
        double work = 0.0;
        const double h = model.settings.timestep;
        for (size_t i = 0; i < state.v.size(); ++i) work += h * state.applied[i] * state.v[i];
        for (uint32_t island = 0; island < s.island_count; ++island) {
            for (uint32_t k = s.island_row_start[island]; k < s.island_row_start[island + 1]; ++k) {
                const ProblemRow& row = s.rows[s.island_rows[k]];
                if (!does_work(row.row)) continue;
                double z = 0.0;
                if (row.contact >= 0) {
                    z = s.next_contact_impulses[static_cast<size_t>(row.contact) * WorldState::kMaxContactRows +
                                                row.slot];
                } else if (row.rope >= 0) {
                    z = h * state.rope_tensions[static_cast<uint32_t>(row.rope)];
                } else {
                    const JointGroup& jg = model.joint_groups[row.joint_group];
                    z = state.joint_impulses[jg.impulse_offset + row.member * jg.max_rows + row.slot];
                }
                double rate = 0.0;
                for (uint32_t b = 0; b < row.block_count; ++b) {
                    const RowBlock& block = row.blocks[b];
                    const double* j = s.jacobian.data() + block.offset;
                    const double* v = state.v.data() + model.blocks[block.block].v_offset + block.first;
                    for (uint32_t c = 0; c < block.count; ++c) rate += j[c] * v[c];
                }
                work += z * rate;
            }
        }
        double kinetic = 0.0, potential = 0.0;
        if (element_energies(model, state, kinetic, potential).ok()) {
            watch.reference += work;
            watch.kinetic_max = std::max(watch.kinetic_max, kinetic);
            watch.potential_min = std::min(watch.potential_min, potential);
            statistics.energy = kinetic + potential;
            statistics.energy_excess = statistics.energy - watch.reference;
            const double scale = std::max(watch.kinetic_max, watch.reference - watch.potential_min);
            statistics.diverging =
                scale > 0.0 && statistics.energy_excess > model.settings.divergence_energy * scale;
        } else {
            // The step is committed and stands; the watch starts again from
            // the energy the next step begins with (start_energy_watch).
            watch.valid = false;
        }
    }
    if (model.settings.divergence_joint_error > 0.0 &&
        statistics.max_joint_error > model.settings.divergence_joint_error) {
        statistics.diverging = true;
    }
}

}  // namespace pivot
