// Stage 1: the free motion. For every element: its mass matrix M (factored),
// its generalized forces f (gravity, gyroscopic, internal velocity terms)
// plus the user's external forces, and the free velocity
//     v* = v + h M^-1 f                       (seed000 2.1, Eq. 2.11a)
// that the constraint impulses later correct: v+ = v* + M^-1 J^T z.
#include <algorithm>

#include <fmt/format.h>

#include "common/error.hpp"
#include "plugin_host/checked_calls.hpp"
#include "step/dense_cholesky.hpp"
#include "step/step_stages.hpp"

namespace pivot {


void compute_element_dynamics(const WorldModel& model, const WorldState& state, StepScratch& s) {
    pivot_step_info step{sizeof(pivot_step_info), 0, model.settings.timestep, state.time,
                         {model.settings.gravity[0], model.settings.gravity[1], model.settings.gravity[2]}};
    const double h = model.settings.timestep;
    for (const ElementGroup& g : model.element_groups) {
        if (g.count == 0) continue;
        const pivot_element_batch batch = element_batch(g, state);
        double* mass = s.mass.data() + s.mass_offset[g.first];
        CallResult r = checked_mass_matrix(g.instance, batch, mass);
        if (!r.ok()) throw Error(r.message);
        double* forces = s.forces.data() + g.v_offset;
        r = checked_generalized_forces(g.instance, batch, step, forces);
        if (!r.ok()) throw Error(r.message);

        for (uint32_t e = 0; e < g.count; ++e) {
            const uint32_t element = g.first + e;
            double* m = mass + static_cast<size_t>(e) * g.nv * g.nv;
            double* v_free = s.v_free.data() + g.v_offset + e * g.nv;
            const double* v = state.v.data() + g.v_offset + e * g.nv;
            if (model.fixed[element]) {
                std::fill(v_free, v_free + g.nv, 0.0);
                continue;
            }
            if (!cholesky_factor(m, g.nv)) {
                throw Error(fmt::format("{}: the mass matrix of element {} is not positive definite",
                                        describe(g.instance.plugin()), e));
            }
            // v* = v + h M^-1 (f + applied)
            const double* f = forces + e * g.nv;
            const double* applied = state.applied.data() + g.v_offset + e * g.nv;
            for (uint32_t i = 0; i < g.nv; ++i) v_free[i] = h * (f[i] + applied[i]);
            cholesky_solve(m, g.nv, v_free);
            for (uint32_t i = 0; i < g.nv; ++i) v_free[i] += v[i];
        }
    }
}

}  // namespace pivot
