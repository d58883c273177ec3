#pragma once
// Every call the engine makes into a plugin on the step path goes through
// these functions. Each calls the plugin once for a whole batch, then checks
// the status and every output against the contract of the ABI (finite
// numbers, counts within the declared maxima, ordered bounds, non-negative
// compliance, unit quaternions) before anything uses it. A failed check is
// returned as a message naming the plugin, its file, the function and the
// offending entry; the outputs must then not be used. Every output is
// guarded (plugin_output.hpp): a plugin writing past the extent it was
// given fails the call, and the bytes it overwrote are put back. No
// allocation happens unless a check fails.
#include <string>

#include <pivot/plugin_element.h>
#include <pivot/plugin_friction.h>
#include <pivot/plugin_joint.h>
#include <pivot/plugin_solver.h>

#include "plugin_host/plugin_instance.hpp"
#include "plugin_host/plugin_output.hpp"

namespace pivot {

struct CallResult {
    pivot_status status = PIVOT_OK; // the plugin's status (or ERROR for a broken contract)
    std::string message;            // empty when the outputs are usable
    // The plugin broke the ABI's contract (outputs that are not finite, out
    // of their bounds, inconsistent with its status, written past their
    // end), as opposed to declaring a failure with its status: a defect of
    // the plugin, which a host does not retry for ever.
    bool broken = false;

    bool ok() const { return message.empty(); }
};

struct SolveResult : CallResult {
    double residual = 0.0;           // the host's own natural-map residual at x
    pivot_status returned = PIVOT_OK;  // what the plugin's solve() returned, broken contract or not
};

// Solves; `w` (n doubles) receives A x + b as recomputed by the host. The
// result is usable when the plugin returned OK/WARNING with a finite x
// within its bounds; whether its accuracy is enough is the caller's choice
// (compare `residual`). `invalid_problem`: the reason the problem is
// invalid, when a caller gives it one on purpose (a test of the plugin's
// refusal; pivot_solver_solve): then only the guards are checked (the
// bounds need a valid friction index) and no answer is usable.
SolveResult checked_solve(const PluginInstance& solver, const pivot_lcp_problem& problem,
                          const pivot_solve_options& options, Guarded<double> x, Guarded<double> w,
                          pivot_solve_report& report, const char* invalid_problem = nullptr);

CallResult checked_mass_matrix(const PluginInstance& element, const pivot_element_batch& batch,
                               Guarded<double> mass);
CallResult checked_generalized_forces(const PluginInstance& element, const pivot_element_batch& batch,
                                      const pivot_step_info& step, Guarded<double> forces);
CallResult checked_internal_rows(const PluginInstance& element, const pivot_element_batch& batch,
                                 const pivot_step_info& step, uint32_t max_rows, Guarded<pivot_row> rows,
                                 Guarded<double> jacobians, Guarded<uint32_t> row_counts);
CallResult checked_integrate(const PluginInstance& element, uint32_t node_count, const double* q,
                             const double* v, double timestep, Guarded<double> q_out);
CallResult checked_material_frames(const PluginInstance& element, const pivot_element_batch& batch,
                                   const pivot_material_point* points, uint32_t point_count,
                                   Guarded<double> poses, Guarded<double> twists, Guarded<double> jacobians);
// ABI 1.2: an undeformed node at a pose (building), and the internal rows'
// geometric stiffness (zero-filled when the plugin has none).
CallResult checked_node_coordinates(const PluginInstance& element, const double pose[7], Guarded<double> q_node);
CallResult checked_internal_stiffness(const PluginInstance& element, const pivot_element_batch& batch,
                                      const pivot_step_info& step, Guarded<double> stiffness);
// energies: kinetic, gravitational, elastic (J).
CallResult checked_energy(const PluginInstance& element, const pivot_element_batch& batch,
                          const pivot_step_info& step, Guarded<double> energies);

CallResult checked_joint_rows(const PluginInstance& joint, const pivot_joint_batch& batch,
                              const pivot_step_info& step, Guarded<pivot_row> rows, Guarded<double> jacobians,
                              Guarded<uint32_t> row_counts);

// ABI 1.3: the joints' geometric stiffness (12 x 12 per joint on the frame
// displacements) at the given row forces, and the elements' frame
// stiffness (6 x 6 per material point) under the given wrenches; both
// zero-filled when the plugin has none.
CallResult checked_joint_geometric_stiffness(const PluginInstance& joint, const pivot_joint_batch& batch,
                                             const pivot_step_info& step, const double* forces,
                                             Guarded<double> stiffness);
CallResult checked_frame_stiffness(const PluginInstance& element, const pivot_element_batch& batch,
                                   const pivot_material_point* points, uint32_t point_count, const double* wrenches,
                                   Guarded<double> stiffness);
// ABI 1.10: the forces at a state and their tangent (accuracy
// integrators). Callers check element_has_smooth_forces first; a call on
// an element without them is an error naming the plugin.
bool element_has_smooth_forces(const PluginRecord& element);
CallResult checked_smooth_forces(const PluginInstance& element, const pivot_element_batch& batch,
                                 const pivot_step_info& step, Guarded<double> forces);
CallResult checked_force_tangent(const PluginInstance& element, const pivot_element_batch& batch,
                                 const pivot_step_info& step, const double* accelerations,
                                 Guarded<double> stiffness, Guarded<double> damping);
// Calls build_with_motion (ABI 1.8) when the model has it, else
// build_with_bodies (ABI 1.1), else build (bodies and motion then unused;
// may be NULL for a model without those functions).
CallResult checked_friction_build(const PluginInstance& friction, const pivot_contact_point* contacts,
                                  const pivot_contact_bodies* bodies, uint32_t count, const pivot_step_info& step,
                                  Guarded<double> state, Guarded<pivot_row> rows, Guarded<double> directions,
                                  Guarded<double> coupling, Guarded<double> impulses, Guarded<uint32_t> row_counts,
                                  const pivot_contact_motion* motion = nullptr);
// ABI 1.9: the model's contacts that ended (contacts_ended; nothing to do,
// OK, for a model without it). Inputs only: the status is checked.
CallResult checked_contacts_ended(const PluginInstance& friction, const uint64_t* ids, const double* state,
                                  uint32_t count, const pivot_step_info& step);

}  // namespace pivot
