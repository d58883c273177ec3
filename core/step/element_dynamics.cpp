// Stages dynamics and factor: the free motion. For every mass block (a rigid body; a whole
// cable): its matrix, the generalized forces f (gravity,
// gyroscopic, internal velocity terms) plus the user's external forces, and
// the free velocity that the joint and contact impulses z later correct,
//     v+ = v* + Mbar^-1 J^T z.
// Without internal rows Mbar = M and v* = v + h M^-1 f (seed000 2.1,
// Eq. 2.11a). A block's internal (strain) rows, compliant and bilateral,
// are eliminated here rather than solved: each row's law c lambda = -phi -
// d J v+ with phi(q+) = phi + h J v+ (the host's row law, assemble_islands.cpp)
// gives its impulse z_r = -(h gamma / c) J v+ - (h / c) phi, gamma = h + d c;
// substituted into M v+ = M v + h f + J_A^T z_A:
//     Mbar = M + J_A^T diag(h gamma / c) J_A + h^2 K,
//     Mbar v* = M v + h f - J_A^T diag(h / c) phi_A + theta h^2 K v,
// K the rows' geometric stiffness (plugin_element.h internal_stiffness:
// the tension that turns with the cable). K acts mostly on the velocity
// change, M (v+ - v) = ... - h^2 K ((v+ - v) + (1 - theta) v): the rows'
// forces keep their start-of-step directions (the tension turning within
// the step is left out, as for joints), and K keeps the fast sideways
// modes of a thin tensioned cable from growing. On one mode of stiffness
// k against mass m, with Omega^2 = h^2 k / m and the force taken at the
// step's start, the energy changes per step by the factor
// (1 + theta Omega^2) / (1 + Omega^2): a mode the step cannot resolve
// (Omega >> 1: the sideways mode of a 12 mm wire's 0.375 m elements
// carrying 500 kg has Omega ~ 10 at 60 Hz) loses 1 - theta = 5 % per step
// and dies out, one it resolves loses about (1 - theta) Omega^2 (a 6 m
// pendulum at 60 Hz: 2e-5 per step). theta = 1 (no loss) was measured
// unstable at 30 Hz for 12 and 16 mm wires (the bending rows' and the
// predicted stretch's lags are not in the model); theta = 0 (implicit
// Euler, the step before) lost 47 % of a 6 m, 500 kg pendulum's swing in
// 20 s at 60 Hz; theta = 0.95 loses 3 to 7 % of it at 60 Hz and 10 to 11 %
// at 30 Hz (tests/cable/thin_wire_test.cpp). This is the Schur complement of
// the strain rows (seed000 2.9): the solvers then see joint and contact
// rows only, with responses Mbar^-1 J^T (mass_blocks.cpp). The matrices are
// factored (factor_mass_blocks, below) after the joints' geometric
// stiffness is added to them (geometric_stiffness.cpp).
// A damped body (BodyDescription::linear_damping, angular_damping) adds
// h C to its matrix, C = J^T diag(c_lin I3, c_ang I3) J with J the 6 x nv
// Jacobian of its frame (material point (0, 0, 0)): the damping force
// -C v+ taken at the end of the step (implicit Euler), which only takes
// energy out, at any h; for a rigid body (J = I) v+ = v / (1 + h c / m) on
// the free motion.
#include <algorithm>

#include <fmt/format.h>

#include "common/error.hpp"
#include "plugin_host/checked_calls.hpp"
#include "step/dense_cholesky.hpp"
#include "step/step_stages.hpp"

namespace pivot {

namespace {

// The share theta of the internal stiffness that acts on the step's
// velocity change (the rest, 1 - theta, is implicit Euler's; see the
// header comment).
constexpr double kStiffnessOnVelocityChange = 0.95;

// Adds one element's internal rows and stiffness to its matrix `mbar`
// (nv x nv, column-major, holding M_e) and right-hand side `rhs` (holding
// M_e v_e + h f_e): the elimination above.
void eliminate_internal_rows(const ElementGroup& g, const StepScratch::InternalRows& in, uint32_t e, double h,
                             const double* v, double* mbar, double* rhs) {
    const uint32_t nv = g.nv;
    const double* stiffness = in.stiffness.data() + static_cast<size_t>(e) * nv * nv;
    for (uint32_t k = 0; k < nv * nv; ++k) mbar[k] += h * h * stiffness[k];
    // K on the velocity change (see the header comment): rhs += theta h^2 K v.
    for (uint32_t a = 0; a < nv; ++a) {
        double sum = 0.0;
        for (uint32_t b = 0; b < nv; ++b) sum += stiffness[a + b * nv] * v[b];
        rhs[a] += kStiffnessOnVelocityChange * h * h * sum;
    }
    for (uint32_t r = 0; r < in.row_counts[e]; ++r) {
        const size_t index = static_cast<size_t>(e) * in.max_rows + r;
        const pivot_row& row = in.rows[index];
        const double* j = in.jacobians.data() + index * nv;
        const double gamma = h + row.damping * row.compliance;
        const double weight = h * gamma / row.compliance;
        // Upper triangle only: the chain matrix and the dense Cholesky
        // (which reads the lower) are symmetric; the lower is mirrored below.
        for (uint32_t b = 0; b < nv; ++b) {
            const double wj = weight * j[b];
            for (uint32_t a = 0; a <= b; ++a) mbar[a + b * nv] += wj * j[a];
        }
        if ((row.flags & PIVOT_ROW_NO_STABILIZATION) == 0) {
            const double force = h * row.violation / row.compliance;
            for (uint32_t a = 0; a < nv; ++a) rhs[a] -= force * j[a];
        }
    }
    for (uint32_t b = 0; b < nv; ++b) {
        for (uint32_t a = b + 1; a < nv; ++a) mbar[a + b * nv] = mbar[b + a * nv];
    }
}

// rhs = M_e v_e + h (f_e + applied_e): the element's momentum after the
// step's forces, before the internal rows (applied may be NULL).
void momentum(const double* m, const double* v, const double* f, const double* applied, double h, uint32_t nv,
              double* rhs) {
    for (uint32_t a = 0; a < nv; ++a) {
        double sum = h * (f[a] + (applied != nullptr ? applied[a] : 0.0));
        for (uint32_t b = 0; b < nv; ++b) sum += m[a + b * nv] * v[b];
        rhs[a] = sum;
    }
}

// The damped elements of group g at the state: their frames' Jacobians into
// s.damped (one material_frames call for the group).
void find_damped_frames(const WorldModel& model, const ElementGroup& g, const pivot_element_batch& batch,
                        StepScratch& s) {
    auto& d = s.damped;
    d.points.clear();
    for (uint32_t e = 0; e < g.count; ++e) {
        const auto& c = model.element_damping[g.first + e];
        if (!model.fixed[g.first + e] && (c[0] > 0.0 || c[1] > 0.0)) d.points.push_back({e, 0, {0.0, 0.0, 0.0}});
    }
    if (!d.points.empty()) ask_material_frames(g, batch, d);  // within the capacity reserved by prepare_step
}

// m += h J^T diag(c_lin I3, c_ang I3) J (nv x nv, column-major).
void add_damping(const double* jacobian, const std::array<double, 2>& c, double h, uint32_t nv, double* m) {
    for (uint32_t b = 0; b < nv; ++b) {
        for (uint32_t a = 0; a < nv; ++a) {
            double sum = 0.0;
            for (int i = 0; i < 6; ++i) sum += jacobian[i + 6 * a] * c[i < 3 ? 0 : 1] * jacobian[i + 6 * b];
            m[a + b * nv] += h * sum;
        }
    }
}

// Internal rows can be eliminated only if they are plain compliant rows.
void check_internal_rows(const ElementGroup& g, const StepScratch::InternalRows& in) {
    for (uint32_t e = 0; e < g.count; ++e) {
        for (uint32_t r = 0; r < in.row_counts[e]; ++r) {
            const pivot_row& row = in.rows[static_cast<size_t>(e) * in.max_rows + r];
            if (!(row.compliance > 0.0) || row.findex >= 0 || row.target_velocity != 0.0 ||
                row.lower != -HUGE_VAL || row.upper != HUGE_VAL) {
                throw Error(fmt::format("{}: internal_rows: element {} row {} is not a compliant bilateral row "
                                        "(compliance {} must be > 0, bounds (-inf, inf), no friction index, no "
                                        "target velocity): internal rows are eliminated into the mass block",
                                        describe(g.instance.plugin()), e, r, row.compliance));
            }
        }
    }
}

}  // namespace

void compute_element_dynamics(const WorldModel& model, const WorldState& state, StepScratch& s) {
    pivot_step_info step{sizeof(pivot_step_info), 0, model.settings.timestep, state.time,
                         {model.settings.gravity[0], model.settings.gravity[1], model.settings.gravity[2]}};
    const double h = model.settings.timestep;
    for (uint32_t gi = 0; gi < model.element_groups.size(); ++gi) {
        const ElementGroup& g = model.element_groups[gi];
        if (g.count == 0) continue;
        const pivot_element_batch batch = element_batch(g, state);
        double* mass = s.mass.data() + s.mass_offset[g.first];
        StepScratch::InternalRows& in = s.internal_rows[gi];
        // A chain keeps its mass matrices unfactored (its block matrix is
        // assembled from them), so a constant mass is asked for once.
        const bool constant = g.chain && g.instance.plugin().has(PIVOT_ELEMENT_CAP_CONSTANT_MASS);
        CallResult r;
        if (!(constant && in.mass_ready)) {
            r = checked_mass_matrix(g.instance, batch, guarded(s.mass, s.mass_offset[g.first]));
            require_usable(r);
            in.mass_ready = constant;
        }
        double* forces = in.forces.data();
        r = checked_generalized_forces(g.instance, batch, step, guarded(in.forces));
        require_usable(r);
        if (in.max_rows > 0) {
            r = checked_internal_rows(g.instance, batch, step, in.max_rows, guarded(in.rows), guarded(in.jacobians),
                                      guarded(in.row_counts));
            require_usable(r);
            check_internal_rows(g, in);
            r = checked_internal_stiffness(g.instance, batch, step, guarded(in.stiffness));
            require_usable(r);
        }
        const uint32_t nv = g.nv;

        if (g.chain) {
            // One sparse block over the chain's nodes, factored later.
            const uint32_t block = model.element_block[g.first];
            ChainMatrix& matrix = *s.chains[s.block_chain[block]];
            double* v_free = s.v_free.data() + g.v_offset;
            const double* v = state.v.data() + g.v_offset;
            const double* applied = state.applied.data() + g.v_offset;
            matrix.clear();
            for (uint32_t i = 0; i < g.v_size(); ++i) v_free[i] = h * applied[i];
            for (uint32_t e = 0; e < g.count; ++e) {
                const double* m = mass + static_cast<size_t>(e) * nv * nv;
                double* mbar = in.element_matrix.data();
                double* rhs = in.element_rhs.data();
                std::copy_n(m, nv * nv, mbar);
                // Applied forces act on the shared nodes: added once per node above.
                momentum(m, v + g.element_v(e), forces + static_cast<size_t>(e) * nv, nullptr, h, nv, rhs);
                if (in.max_rows > 0) eliminate_internal_rows(g, in, e, h, v + g.element_v(e), mbar, rhs);
                matrix.add_element(e, mbar);
                for (uint32_t a = 0; a < nv; ++a) v_free[g.element_v(e) + a] += rhs[a];
                s.momentum_rhs[g.first + e] = 1;
            }
            continue;
        }

        find_damped_frames(model, g, batch, s);
        size_t damped = 0;  // the next damped element's frame in s.damped
        for (uint32_t e = 0; e < g.count; ++e) {
            const uint32_t element = g.first + e;
            double* m = mass + static_cast<size_t>(e) * nv * nv;
            double* v_free = s.v_free.data() + g.v_offset + e * nv;
            const double* v = state.v.data() + g.v_offset + e * nv;
            if (model.fixed[element]) continue;
            // Right-hand side h (f + applied), or with internal rows or
            // damping the momentum M v + h (f + applied) (- J_A^T diag(h/c)
            // phi_A), the matrix then M + h C (+ the rows' terms).
            const double* f = forces + static_cast<size_t>(e) * nv;
            const double* applied = state.applied.data() + g.v_offset + e * nv;
            const bool internal = in.max_rows > 0;
            const bool damping = damped < s.damped.points.size() && s.damped.points[damped].element == e;
            if (internal || damping) {
                double* rhs = in.element_rhs.data();
                momentum(m, v, f, applied, h, nv, rhs);
                if (internal) eliminate_internal_rows(g, in, e, h, v, m, rhs);
                if (damping) {
                    add_damping(s.damped.jacobians.data() + 6 * nv * damped, model.element_damping[element], h, nv,
                                m);
                    ++damped;
                }
                std::copy_n(rhs, nv, v_free);
            } else {
                for (uint32_t i = 0; i < nv; ++i) v_free[i] = h * (f[i] + applied[i]);
            }
            s.momentum_rhs[element] = internal || damping ? 1 : 0;
        }
    }
}

void factor_mass_blocks(const WorldModel& model, const WorldState& state, StepScratch& s) {
    for (uint32_t gi = 0; gi < model.element_groups.size(); ++gi) {
        const ElementGroup& g = model.element_groups[gi];
        if (g.count == 0) continue;
        if (g.chain) {
            const uint32_t block = model.element_block[g.first];
            ChainMatrix& matrix = *s.chains[s.block_chain[block]];
            if (!matrix.factorize()) {
                const auto cable = std::find_if(model.cables.begin(), model.cables.end(),
                                                [&](const CableRecord& c) { return c.group == gi; });
                throw Error(fmt::format("{}: the iteration matrix of cable '{}' is not positive definite",
                                        describe(g.instance.plugin()),
                                        cable != model.cables.end() ? cable->name : std::string("?")));
            }
            matrix.solve(s.v_free.data() + g.v_offset);
            continue;
        }
        const uint32_t nv = g.nv;
        for (uint32_t e = 0; e < g.count; ++e) {
            const uint32_t element = g.first + e;
            double* v_free = s.v_free.data() + g.v_offset + e * nv;
            if (model.fixed[element]) {
                std::fill(v_free, v_free + nv, 0.0);
                continue;
            }
            double* m = s.mass.data() + s.mass_offset[element];
            if (!s.mass_factored[element] && !cholesky_factor(m, nv)) {
                throw Error(fmt::format("{}: the mass matrix of element {} is not positive definite",
                                        describe(g.instance.plugin()), e));
            }
            if (nv <= kMaxInverseNv) {
                double* inverse = s.mass_inverse.data() + s.mass_offset[element];
                cholesky_inverse_block(m, nv, inverse);
                inverse_multiply_block(inverse, nv, v_free, 0, nv);
            } else {
                cholesky_solve(m, nv, v_free);
            }
            if (s.momentum_rhs[element] == 0) {
                const double* v = state.v.data() + g.v_offset + e * nv;
                for (uint32_t i = 0; i < nv; ++i) v_free[i] += v[i];
            }
        }
    }
    solve_row_responses(model, s, 0, s.joint_rows_end);
}

}  // namespace pivot
