// Every plugin call on the step path, checked (checked_calls.hpp): one
// function per ABI function, in one file (~530 lines) so that every call
// checks its status, its guards and its outputs the same way, with the same
// helpers and the same wording.
#include "plugin_host/checked_calls.hpp"

#include <cmath>
#include <cstring>
#include <initializer_list>

#include <fmt/format.h>

#include "plugin_host/lcp_residual.hpp"

namespace pivot {

namespace {

// Formats the failure of `function` of the instance's plugin.
template <class... Args>
CallResult failure(const PluginInstance& inst, const char* function, pivot_status status,
                   fmt::format_string<Args...> what, Args&&... args) {
    CallResult r;
    r.status = status;
    r.broken = true;  // unless a declared failure (status_failure)
    r.message = fmt::format("{}: {}: {}", describe(inst.plugin()), function,
                            fmt::format(what, std::forward<Args>(args)...));
    return r;
}

const char* status_name(pivot_status s) {
    switch (s) {
        case PIVOT_OK: return "OK";
        case PIVOT_WARNING: return "WARNING";
        case PIVOT_DISCARD: return "DISCARD";
        case PIVOT_ERROR: return "ERROR";
        case PIVOT_FATAL: return "FATAL";
    }
    return "an unknown status";
}

// OK and WARNING mean the outputs may be used.
bool usable(pivot_status s) { return s == PIVOT_OK || s == PIVOT_WARNING; }

// ERROR, DISCARD and FATAL are failures a plugin declares (the ABI's way
// to fail); any other unusable status breaks the contract.
bool declared_failure(pivot_status s) { return s == PIVOT_ERROR || s == PIVOT_DISCARD || s == PIVOT_FATAL; }

// A call the host does not make: the instance returned FATAL before
// (PluginInstance::fatal). FATAL again, so a solver chain disables it.
CallResult fatal_refusal(const PluginInstance& inst, const char* function) {
    CallResult r = failure(inst, function, PIVOT_FATAL,
                           "not called: the instance returned FATAL before, and a FATAL instance must not be called "
                           "again (plugin.h)");
    r.broken = false;
    return r;
}

CallResult status_failure(const PluginInstance& inst, const char* function, pivot_status s) {
    if (s == PIVOT_FATAL) inst.mark_fatal();
    CallResult r = failure(inst, function, usable(s) ? PIVOT_ERROR : s,
                           "returned {} ({}); its outputs are not used (see the plugin's log messages)",
                           status_name(s), static_cast<int>(s));
    r.broken = !declared_failure(s);
    return r;
}

// Index of the first non-finite entry of a[0..n), or -1. Every plugin output
// is checked every step, so the common case is one branch-free pass: x * 0
// is 0 for a finite x and NaN for an infinite or NaN one, and a NaN stays in
// a sum (four sums: independent additions pipeline).
long first_nonfinite(const double* a, size_t n) {
    double sum[4] = {0.0, 0.0, 0.0, 0.0};
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        for (size_t k = 0; k < 4; ++k) sum[k] += a[i + k] * 0.0;
    }
    for (; i < n; ++i) sum[0] += a[i] * 0.0;
    if (sum[0] + sum[1] + sum[2] + sum[3] == 0.0) return -1;
    for (i = 0; i < n; ++i) {
        if (!std::isfinite(a[i])) return static_cast<long>(i);
    }
    return -1;
}

bool check_finite(CallResult& r, const PluginInstance& inst, const char* function, const char* name,
                  const double* a, size_t n) {
    const long bad = first_nonfinite(a, n);
    if (bad < 0) return true;
    r = failure(inst, function, PIVOT_ERROR, "returned {}[{}] = {}, which is not a finite number", name,
                bad, a[bad]);
    return false;
}

// Every guard after the call's outputs still holds its pattern.
bool check_guards(CallResult& r, const PluginInstance& inst, const char* function,
                  std::initializer_list<const OutputGuard*> guards) {
    for (const OutputGuard* guard : guards) {
        const long written = guard->first_written();
        if (written < 0) continue;
        r = failure(inst, function, PIVOT_ERROR,
                    "wrote past the end of its output '{}' ({} values): byte {} after it was changed (the host's "
                    "guard zone caught it and put the bytes back)",
                    guard->name(), guard->count(), written);
        return false;
    }
    return true;
}

// Checks rows [0, count) of one item against the row contract.
bool check_rows(CallResult& r, const PluginInstance& inst, const char* function, const char* item,
                uint32_t item_index, const pivot_row* rows, uint32_t count) {
    for (uint32_t k = 0; k < count; ++k) {
        const pivot_row& row = rows[k];
        const char* field = nullptr;
        double value = 0.0;
        if (!std::isfinite(row.violation)) field = "violation", value = row.violation;
        else if (!std::isfinite(row.target_velocity)) field = "target_velocity", value = row.target_velocity;
        else if (!std::isfinite(row.compliance) || row.compliance < 0) field = "compliance", value = row.compliance;
        else if (!std::isfinite(row.damping) || row.damping < 0) field = "damping", value = row.damping;
        else if (std::isnan(row.lower)) field = "lower", value = row.lower;
        else if (std::isnan(row.upper)) field = "upper", value = row.upper;
        if (field != nullptr) {
            r = failure(inst, function, PIVOT_ERROR, "{} {} row {}: {} = {} is not allowed ({})", item,
                        item_index, k, field, value,
                        std::string_view(field) == "compliance" || std::string_view(field) == "damping"
                            ? "must be finite and >= 0"
                            : "must be a number");
            return false;
        }
        if (row.lower > row.upper) {
            r = failure(inst, function, PIVOT_ERROR, "{} {} row {}: lower bound {} is above upper bound {}",
                        item, item_index, k, row.lower, row.upper);
            return false;
        }
        if (row.findex < -1 || row.findex >= static_cast<int32_t>(count) ||
            row.findex == static_cast<int32_t>(k)) {
            r = failure(inst, function, PIVOT_ERROR,
                        "{} {} row {}: findex {} must be -1 or another row of the same {} (0..{})", item,
                        item_index, k, row.findex, item, count - 1);
            return false;
        }
    }
    return true;
}

bool check_count(CallResult& r, const PluginInstance& inst, const char* function, const char* item,
                 uint32_t index, uint32_t count, uint32_t max) {
    if (count <= max) return true;
    r = failure(inst, function, PIVOT_ERROR, "{} {} has {} rows, more than the declared maximum {}", item,
                index, count, max);
    return false;
}

uint32_t element_nv(const PluginRecord& p) { return p.element.nodes_per_element * p.element.velocities_per_node; }

// count nv x nv column-major blocks: symmetric to 1e-12 relative to their
// diagonals, which are positive (mass matrices) or at least non-negative
// (semidefinite matrices such as a geometric stiffness).
bool check_symmetric_blocks(CallResult& r, const PluginInstance& inst, const char* function, const char* what,
                            const double* blocks, uint32_t nv, uint32_t count, bool positive_diagonal) {
    const size_t block = static_cast<size_t>(nv) * nv;
    for (uint32_t e = 0; e < count; ++e) {
        const double* m = blocks + e * block;
        for (uint32_t i = 0; i < nv; ++i) {
            const double d = m[i + i * nv];
            if (positive_diagonal ? !(d > 0.0) : d < 0.0) {
                r = failure(inst, function, PIVOT_ERROR, "element {}: {}: diagonal entry ({}, {}) = {} is {}", e, what,
                            i, i, d, positive_diagonal ? "not positive" : "negative (it must be positive semidefinite)");
                return false;
            }
            for (uint32_t j = 0; j < i; ++j) {
                const double a = m[i + j * nv];
                const double b = m[j + i * nv];
                if (std::abs(a - b) > 1e-12 * (std::abs(d) + std::abs(m[j + j * nv]))) {
                    r = failure(inst, function, PIVOT_ERROR, "element {}: {} is not symmetric: ({}, {}) = {} but ({}, {}) = {}",
                                e, what, i, j, a, j, i, b);
                    return false;
                }
            }
        }
    }
    return true;
}

}  // namespace

SolveResult checked_solve(const PluginInstance& inst, const pivot_lcp_problem& problem,
                          const pivot_solve_options& options, Guarded<double> x_out, Guarded<double> w_out,
                          pivot_solve_report& report, const char* invalid_problem) {
    const char* fn = "solve";
    if (inst.fatal()) return SolveResult{fatal_refusal(inst, fn)};
    std::memset(&report, 0, sizeof(report));
    report.struct_size = sizeof(report);
    double* x = x_out.data();
    double* w = w_out.data();
    const OutputGuard x_guard("x", x_out, problem.n), w_guard("w", w_out, problem.n);
    const pivot_status s = inst.plugin().solver.solve(inst.handle(), &problem, &options, x, w, &report);
    report.message[PIVOT_MESSAGE_CAPACITY - 1] = '\0';

    SolveResult r;
    r.status = s;
    r.returned = s;
    if (!check_guards(r, inst, fn, {&x_guard, &w_guard})) return r;
    if (usable(s) && invalid_problem != nullptr) {
        static_cast<CallResult&>(r) = failure(inst, fn, PIVOT_ERROR, "returned {} for an invalid problem ({})",
                                             status_name(s), invalid_problem);
        return r;
    }
    if (!usable(s)) {
        if (s == PIVOT_FATAL) inst.mark_fatal();
        static_cast<CallResult&>(r) = failure(inst, fn, s, "returned {} with solver status {}: {}", status_name(s),
                                             report.status, report.message[0] ? report.message : "(no message)");
        r.broken = !declared_failure(s);
        return r;
    }
    if (report.status > PIVOT_SOLVE_OUT_OF_MEMORY) {
        static_cast<CallResult&>(r) = failure(inst, fn, PIVOT_ERROR, "report.status {} is not a pivot_solve_status",
                                             report.status);
        return r;
    }
    if (report.status != PIVOT_SOLVE_CONVERGED && report.status != PIVOT_SOLVE_MAX_ITERATIONS &&
        report.status != PIVOT_SOLVE_TIME_BUDGET &&
        !(s == PIVOT_WARNING && report.status == PIVOT_SOLVE_NUMERICAL_ERROR)) {
        static_cast<CallResult&>(r) = failure(inst, fn, PIVOT_ERROR,
                                             "returned {} but its report says it did not solve the problem "
                                             "(solver status {}: {})",
                                             status_name(s), report.status, report.message);
        return r;
    }
    if (!check_finite(r, inst, fn, "x", x, problem.n)) return r;
    for (uint32_t i = 0; i < problem.n; ++i) {
        double lower = 0.0;
        double upper = 0.0;
        lcp_row_bounds(problem, x, i, lower, upper);
        // Bounds hold to rounding: a relative 1e-9 of the bound's magnitude.
        const double slack = 1e-9 * (1.0 + std::max(std::abs(std::isfinite(lower) ? lower : 0.0),
                                                     std::abs(std::isfinite(upper) ? upper : 0.0)));
        if (x[i] < lower - slack || x[i] > upper + slack) {
            static_cast<CallResult&>(r) = failure(inst, fn, PIVOT_ERROR, "x[{}] = {} is outside its bounds [{}, {}]",
                                                 i, x[i], lower, upper);
            return r;
        }
    }
    lcp_multiply(problem, x, w);
    r.residual = lcp_natural_map_residual(problem, x, w);
    return r;
}

CallResult checked_mass_matrix(const PluginInstance& inst, const pivot_element_batch& batch,
                               Guarded<double> mass_out) {
    const char* fn = "mass_matrix";
    if (inst.fatal()) return fatal_refusal(inst, fn);
    const uint32_t nv = element_nv(inst.plugin());
    const size_t block = static_cast<size_t>(nv) * nv;
    double* mass = mass_out.data();
    const OutputGuard guard("mass", mass_out, block * batch.count);
    const pivot_status s = inst.plugin().element.mass_matrix(inst.handle(), &batch, mass);
    CallResult r;
    if (!check_guards(r, inst, fn, {&guard})) return r;
    if (!usable(s)) return status_failure(inst, fn, s);
    if (!check_finite(r, inst, fn, "mass", mass, block * batch.count)) return r;
    check_symmetric_blocks(r, inst, fn, "the mass matrix", mass, nv, batch.count, true);
    return r;
}

CallResult checked_generalized_forces(const PluginInstance& inst, const pivot_element_batch& batch,
                                      const pivot_step_info& step, Guarded<double> forces_out) {
    const char* fn = "generalized_forces";
    if (inst.fatal()) return fatal_refusal(inst, fn);
    const size_t count = static_cast<size_t>(element_nv(inst.plugin())) * batch.count;
    double* forces = forces_out.data();
    const OutputGuard guard("forces", forces_out, count);
    const pivot_status s = inst.plugin().element.generalized_forces(inst.handle(), &batch, &step, forces);
    CallResult r;
    if (!check_guards(r, inst, fn, {&guard})) return r;
    if (!usable(s)) return status_failure(inst, fn, s);
    check_finite(r, inst, fn, "forces", forces, count);
    return r;
}

bool element_has_smooth_forces(const PluginRecord& element) {
    return element.element.smooth_forces != nullptr && element.element.force_tangent != nullptr;
}

CallResult checked_smooth_forces(const PluginInstance& inst, const pivot_element_batch& batch,
                                 const pivot_step_info& step, Guarded<double> forces_out) {
    const char* fn = "smooth_forces";
    if (inst.fatal()) return fatal_refusal(inst, fn);
    if (!element_has_smooth_forces(inst.plugin())) {
        CallResult r = failure(inst, fn, PIVOT_ERROR, "the element has no smooth_forces and force_tangent (ABI 1.10)");
        r.broken = false;
        return r;
    }
    const size_t count = static_cast<size_t>(element_nv(inst.plugin())) * batch.count;
    double* forces = forces_out.data();
    const OutputGuard guard("forces", forces_out, count);
    const pivot_status s = inst.plugin().element.smooth_forces(inst.handle(), &batch, &step, forces);
    CallResult r;
    if (!check_guards(r, inst, fn, {&guard})) return r;
    if (!usable(s)) return status_failure(inst, fn, s);
    check_finite(r, inst, fn, "forces", forces, count);
    return r;
}

CallResult checked_force_tangent(const PluginInstance& inst, const pivot_element_batch& batch,
                                 const pivot_step_info& step, const double* accelerations,
                                 Guarded<double> stiffness_out, Guarded<double> damping_out) {
    const char* fn = "force_tangent";
    if (inst.fatal()) return fatal_refusal(inst, fn);
    if (!element_has_smooth_forces(inst.plugin())) {
        CallResult r = failure(inst, fn, PIVOT_ERROR, "the element has no smooth_forces and force_tangent (ABI 1.10)");
        r.broken = false;
        return r;
    }
    const size_t nv = element_nv(inst.plugin());
    const size_t count = nv * nv * batch.count;
    double* stiffness = stiffness_out.data();
    double* damping = damping_out.data();
    const OutputGuard stiffness_guard("stiffness", stiffness_out, count);
    const OutputGuard damping_guard("damping", damping_out, count);
    const pivot_status s =
        inst.plugin().element.force_tangent(inst.handle(), &batch, &step, accelerations, stiffness, damping);
    CallResult r;
    if (!check_guards(r, inst, fn, {&stiffness_guard, &damping_guard})) return r;
    if (!usable(s)) return status_failure(inst, fn, s);
    if (!check_finite(r, inst, fn, "stiffness", stiffness, count)) return r;
    check_finite(r, inst, fn, "damping", damping, count);
    return r;
}

CallResult checked_internal_rows(const PluginInstance& inst, const pivot_element_batch& batch,
                                 const pivot_step_info& step, uint32_t max_rows, Guarded<pivot_row> rows_out,
                                 Guarded<double> jacobians_out, Guarded<uint32_t> counts_out) {
    const char* fn = "internal_rows";
    if (inst.fatal()) return fatal_refusal(inst, fn);
    const auto& f = inst.plugin().element;
    pivot_row* rows = rows_out.data();
    double* jacobians = jacobians_out.data();
    uint32_t* row_counts = counts_out.data();
    if (f.internal_rows == nullptr || max_rows == 0) {
        std::fill(row_counts, row_counts + batch.count, 0u);
        return {};
    }
    const size_t nv = element_nv(inst.plugin());
    const size_t row_slots = static_cast<size_t>(batch.count) * max_rows;
    const OutputGuard rows_guard("rows", rows_out, row_slots),
        jacobians_guard("jacobians", jacobians_out, row_slots * nv),
        counts_guard("row_counts", counts_out, batch.count);
    const pivot_status s = f.internal_rows(inst.handle(), &batch, &step, rows, jacobians, row_counts);
    CallResult r;
    if (!check_guards(r, inst, fn, {&rows_guard, &jacobians_guard, &counts_guard})) return r;
    if (!usable(s)) return status_failure(inst, fn, s);
    for (uint32_t e = 0; e < batch.count; ++e) {
        if (!check_count(r, inst, fn, "element", e, row_counts[e], max_rows)) return r;
        if (!check_rows(r, inst, fn, "element", e, rows + static_cast<size_t>(e) * max_rows, row_counts[e])) return r;
        if (!check_finite(r, inst, fn, "jacobians", jacobians + static_cast<size_t>(e) * max_rows * nv,
                          row_counts[e] * nv)) {
            return r;
        }
    }
    return r;
}

CallResult checked_integrate(const PluginInstance& inst, uint32_t node_count, const double* q, const double* v,
                             double timestep, Guarded<double> q_guarded) {
    const char* fn = "integrate";
    if (inst.fatal()) return fatal_refusal(inst, fn);
    const size_t count = static_cast<size_t>(node_count) * inst.plugin().element.coords_per_node;
    double* q_out = q_guarded.data();
    const OutputGuard guard("q_out", q_guarded, count);
    const pivot_status s = inst.plugin().element.integrate(inst.handle(), node_count, q, v, timestep, q_out);
    CallResult r;
    if (!check_guards(r, inst, fn, {&guard})) return r;
    if (!usable(s)) return status_failure(inst, fn, s);
    check_finite(r, inst, fn, "q_out", q_out, count);
    return r;
}

CallResult checked_node_coordinates(const PluginInstance& inst, const double pose[7], Guarded<double> q_out) {
    const char* fn = "node_coordinates";
    if (inst.fatal()) return fatal_refusal(inst, fn);
    const auto& f = inst.plugin().element;
    if (f.node_coordinates == nullptr) return failure(inst, fn, PIVOT_ERROR, "is absent (needed to build a chain)");
    double* q_node = q_out.data();
    const OutputGuard guard("q_node", q_out, f.coords_per_node);
    const pivot_status s = f.node_coordinates(inst.handle(), pose, q_node);
    CallResult r;
    if (!check_guards(r, inst, fn, {&guard})) return r;
    if (!usable(s)) return status_failure(inst, fn, s);
    check_finite(r, inst, fn, "q_node", q_node, f.coords_per_node);
    return r;
}

CallResult checked_internal_stiffness(const PluginInstance& inst, const pivot_element_batch& batch,
                                      const pivot_step_info& step, Guarded<double> stiffness_out) {
    const char* fn = "internal_stiffness";
    if (inst.fatal()) return fatal_refusal(inst, fn);
    const auto& f = inst.plugin().element;
    const size_t nv = element_nv(inst.plugin());
    double* stiffness = stiffness_out.data();
    if (f.internal_stiffness == nullptr) {
        std::fill(stiffness, stiffness + nv * nv * batch.count, 0.0);
        return {};
    }
    const OutputGuard guard("stiffness", stiffness_out, nv * nv * batch.count);
    const pivot_status s = f.internal_stiffness(inst.handle(), &batch, &step, stiffness);
    CallResult r;
    if (!check_guards(r, inst, fn, {&guard})) return r;
    if (!usable(s)) return status_failure(inst, fn, s);
    if (!check_finite(r, inst, fn, "stiffness", stiffness, nv * nv * batch.count)) return r;
    check_symmetric_blocks(r, inst, fn, "K", stiffness, static_cast<uint32_t>(nv), batch.count, false);
    return r;
}

CallResult checked_material_frames(const PluginInstance& inst, const pivot_element_batch& batch,
                                   const pivot_material_point* points, uint32_t point_count,
                                   Guarded<double> poses_out, Guarded<double> twists_out,
                                   Guarded<double> jacobians_out) {
    const char* fn = "material_frames";
    if (inst.fatal()) return fatal_refusal(inst, fn);
    double* poses = poses_out.data();
    double* twists = twists_out.data();
    double* jacobians = jacobians_out.data();
    const size_t jacobian_count = static_cast<size_t>(6) * element_nv(inst.plugin()) * point_count;
    const OutputGuard poses_guard("poses", poses_out, 7u * point_count),
        twists_guard("twists", twists_out, 6u * point_count),
        jacobians_guard("jacobians", jacobians_out, jacobian_count);
    const pivot_status s =
        inst.plugin().element.material_frames(inst.handle(), &batch, points, point_count, poses, twists, jacobians);
    CallResult r;
    if (!check_guards(r, inst, fn, {&poses_guard, &twists_guard, &jacobians_guard})) return r;
    if (!usable(s)) return status_failure(inst, fn, s);
    if (!check_finite(r, inst, fn, "poses", poses, 7u * point_count)) return r;
    if (!check_finite(r, inst, fn, "twists", twists, 6u * point_count)) return r;
    if (!check_finite(r, inst, fn, "jacobians", jacobians,
                      static_cast<size_t>(6) * element_nv(inst.plugin()) * point_count)) {
        return r;
    }
    for (uint32_t p = 0; p < point_count; ++p) {
        const double* qn = poses + 7 * p + 3;
        const double norm = std::sqrt(qn[0] * qn[0] + qn[1] * qn[1] + qn[2] * qn[2] + qn[3] * qn[3]);
        // Unit to well within what a normalized double quaternion keeps.
        if (std::abs(norm - 1.0) > 1e-9) {
            return failure(inst, fn, PIVOT_ERROR, "point {}: the orientation quaternion has norm {}, not 1", p, norm);
        }
    }
    return r;
}

CallResult checked_energy(const PluginInstance& inst, const pivot_element_batch& batch, const pivot_step_info& step,
                          Guarded<double> energies_out) {
    const char* fn = "energy";
    if (inst.fatal()) return fatal_refusal(inst, fn);
    double* energies = energies_out.data();
    energies[0] = energies[1] = energies[2] = 0.0;
    const OutputGuard guard("energies", energies_out, 3);
    const pivot_status s =
        inst.plugin().element.energy(inst.handle(), &batch, &step, &energies[0], &energies[1], &energies[2]);
    CallResult r;
    if (!check_guards(r, inst, fn, {&guard})) return r;
    if (!usable(s)) return status_failure(inst, fn, s);
    if (!check_finite(r, inst, fn, "energy", energies, 3)) return r;
    if (energies[0] < 0.0 || energies[2] < 0.0) {
        return failure(inst, fn, PIVOT_ERROR, "kinetic ({}) and elastic ({}) energy must not be negative", energies[0],
                       energies[2]);
    }
    return r;
}

CallResult checked_joint_rows(const PluginInstance& inst, const pivot_joint_batch& batch, const pivot_step_info& step,
                              Guarded<pivot_row> rows_out, Guarded<double> jacobians_out,
                              Guarded<uint32_t> counts_out) {
    const char* fn = "rows";
    if (inst.fatal()) return fatal_refusal(inst, fn);
    const uint32_t max_rows = inst.plugin().joint.max_rows_per_joint;
    pivot_row* rows = rows_out.data();
    double* jacobians = jacobians_out.data();
    uint32_t* row_counts = counts_out.data();
    const size_t row_slots = static_cast<size_t>(batch.count) * max_rows;
    const OutputGuard rows_guard("rows", rows_out, row_slots),
        jacobians_guard("jacobians", jacobians_out, row_slots * PIVOT_JOINT_JACOBIAN_WIDTH),
        counts_guard("row_counts", counts_out, batch.count);
    const pivot_status s = inst.plugin().joint.rows(inst.handle(), &batch, &step, rows, jacobians, row_counts);
    CallResult r;
    if (!check_guards(r, inst, fn, {&rows_guard, &jacobians_guard, &counts_guard})) return r;
    if (!usable(s)) return status_failure(inst, fn, s);
    for (uint32_t j = 0; j < batch.count; ++j) {
        if (!check_count(r, inst, fn, "joint", j, row_counts[j], max_rows)) return r;
        if (!check_rows(r, inst, fn, "joint", j, rows + static_cast<size_t>(j) * max_rows, row_counts[j])) return r;
        if (!check_finite(r, inst, fn, "jacobians",
                          jacobians + static_cast<size_t>(j) * max_rows * PIVOT_JOINT_JACOBIAN_WIDTH,
                          static_cast<size_t>(row_counts[j]) * PIVOT_JOINT_JACOBIAN_WIDTH)) {
            return r;
        }
    }
    return r;
}

CallResult checked_joint_geometric_stiffness(const PluginInstance& inst, const pivot_joint_batch& batch,
                                             const pivot_step_info& step, const double* forces,
                                             Guarded<double> stiffness_out) {
    const char* fn = "geometric_stiffness";
    if (inst.fatal()) return fatal_refusal(inst, fn);
    const auto& f = inst.plugin().joint;
    const size_t size = static_cast<size_t>(144) * batch.count;
    double* stiffness = stiffness_out.data();
    if (f.geometric_stiffness == nullptr) {
        std::fill(stiffness, stiffness + size, 0.0);
        return {};
    }
    const OutputGuard guard("stiffness", stiffness_out, size);
    const pivot_status s = f.geometric_stiffness(inst.handle(), &batch, &step, forces, stiffness);
    CallResult r;
    if (!check_guards(r, inst, fn, {&guard})) return r;
    if (!usable(s)) return status_failure(inst, fn, s);
    check_finite(r, inst, fn, "stiffness", stiffness, size);
    return r;
}

CallResult checked_frame_stiffness(const PluginInstance& inst, const pivot_element_batch& batch,
                                   const pivot_material_point* points, uint32_t point_count, const double* wrenches,
                                   Guarded<double> stiffness_out) {
    const char* fn = "frame_stiffness";
    if (inst.fatal()) return fatal_refusal(inst, fn);
    const auto& f = inst.plugin().element;
    const size_t size = static_cast<size_t>(36) * point_count;
    double* stiffness = stiffness_out.data();
    if (f.frame_stiffness == nullptr) {
        std::fill(stiffness, stiffness + size, 0.0);
        return {};
    }
    const OutputGuard guard("stiffness", stiffness_out, size);
    const pivot_status s = f.frame_stiffness(inst.handle(), &batch, points, point_count, wrenches, stiffness);
    CallResult r;
    if (!check_guards(r, inst, fn, {&guard})) return r;
    if (!usable(s)) return status_failure(inst, fn, s);
    check_finite(r, inst, fn, "stiffness", stiffness, size);
    return r;
}

CallResult checked_friction_build(const PluginInstance& inst, const pivot_contact_point* contacts,
                                  const pivot_contact_bodies* bodies, uint32_t count, const pivot_step_info& step,
                                  Guarded<double> state_out, Guarded<pivot_row> rows_out,
                                  Guarded<double> directions_out, Guarded<double> coupling_out,
                                  Guarded<double> impulses_out, Guarded<uint32_t> counts_out,
                                  const pivot_contact_motion* motion) {
    const PluginRecord& plugin = inst.plugin();
    const auto& f = plugin.friction;
    const char* fn = f.build_with_motion != nullptr   ? "build_with_motion"
                     : f.build_with_bodies != nullptr ? "build_with_bodies"
                                                      : "build";
    if (inst.fatal()) return fatal_refusal(inst, fn);
    const size_t m = f.max_rows_per_contact;
    const size_t states = static_cast<size_t>(f.state_per_contact) * count;
    double* state = states > 0 ? state_out.data() : nullptr;
    pivot_row* rows = rows_out.data();
    double* directions = directions_out.data();
    double* coupling = coupling_out.data();
    double* impulses = impulses_out.data();
    uint32_t* row_counts = counts_out.data();
    const OutputGuard state_guard("state", state_out, states), rows_guard("rows", rows_out, count * m),
        directions_guard("directions", directions_out, count * m * PIVOT_FRICTION_DIRECTION_WIDTH),
        coupling_guard("coupling", coupling_out, count * m * m), impulses_guard("impulses", impulses_out, 6u * count),
        counts_guard("row_counts", counts_out, count);
    pivot_status s = PIVOT_OK;
    if (f.build_with_motion != nullptr) {
        s = f.build_with_motion(inst.handle(), contacts, bodies, motion, count, &step, state, rows, directions,
                                coupling, impulses, row_counts);
    } else if (f.build_with_bodies != nullptr) {
        s = f.build_with_bodies(inst.handle(), contacts, bodies, count, &step, state, rows, directions, coupling,
                                impulses, row_counts);
    } else {
        s = f.build(inst.handle(), contacts, count, &step, state, rows, directions, coupling, impulses, row_counts);
    }
    CallResult r;
    const std::initializer_list<const OutputGuard*> guards = {&state_guard,    &rows_guard,     &directions_guard,
                                                              &coupling_guard, &impulses_guard, &counts_guard};
    if (!check_guards(r, inst, fn, guards)) return r;
    if (!usable(s)) return status_failure(inst, fn, s);
    for (uint32_t c = 0; c < count; ++c) {
        if (!check_count(r, inst, fn, "contact", c, row_counts[c], f.max_rows_per_contact)) return r;
        if (!check_rows(r, inst, fn, "contact", c, rows + c * m, row_counts[c])) return r;
        if (!check_finite(r, inst, fn, "directions", directions + c * m * PIVOT_FRICTION_DIRECTION_WIDTH,
                          row_counts[c] * PIVOT_FRICTION_DIRECTION_WIDTH)) {
            return r;
        }
    }
    if (plugin.has(PIVOT_FRICTION_CAP_STANDARD_LCP) && !check_finite(r, inst, fn, "coupling", coupling, count * m * m)) {
        return r;
    }
    if (plugin.has(PIVOT_FRICTION_CAP_EXPLICIT_FORCE) && !check_finite(r, inst, fn, "impulses", impulses, 6u * count)) {
        return r;
    }
    check_finite(r, inst, fn, "state", state, static_cast<size_t>(f.state_per_contact) * count);
    return r;
}

CallResult checked_contacts_ended(const PluginInstance& inst, const uint64_t* ids, const double* state,
                                  uint32_t count, const pivot_step_info& step) {
    const char* fn = "contacts_ended";
    const auto ended = inst.plugin().friction.contacts_ended;
    if (ended == nullptr || count == 0) return {};
    if (inst.fatal()) return fatal_refusal(inst, fn);
    const pivot_status s = ended(inst.handle(), ids, state, count, &step);
    if (!usable(s)) return status_failure(inst, fn, s);
    return {};
}

}  // namespace pivot
