// Stage projection: position projection (post-stabilization), before the
// state is committed. The velocity step satisfies the joints to first
// order only: a body turning by h omega per step opens its joints by
// ~ r (h omega)^2 / 2, and the whip of a chain's free end turns its last
// links by radians per step at 60 Hz. Corrected through the next step's
// velocity (phi / h) that error becomes velocity: energy from nothing.
// Instead, in islands whose joints the step cannot resolve (a joint with
// geometric-stiffness strength alpha > 0), the positions are projected back
// onto the joints after the step, the velocities untouched (Cline & Pai
// 2003, post-stabilization; Bullet's split impulse and Box2D's position
// pass are the same idea):
//     (J Mbar^-1 J^T) mu = -phi(q+),   q+ <- q+ (+) Mbar^-1 J^T mu,
// Newton steps (WorldSettings::projection_iterations) on the rigid equality
// rows with their Jacobians J at q+ (the step's own, at q, leave
// centimetres where a link turned by a radian: a chord iteration converges
// slowly there), the step's factored Mbar as the metric (it moves light
// bodies more than heavy ones, as the joint forces would), and the island's
// problem assembled again (the other rows take no part, bounds [0, 0]). The
// price: the velocity is not projected, and the next step removes its part
// across the moved joints, which dissipates (docs/engine.md "Stable steps
// at 60 Hz" has the measured numbers).
#include <algorithm>
#include <cmath>

#include "common/error.hpp"
#include "lcp/lcp_solver_chain.hpp"
#include "plugin_host/checked_calls.hpp"
#include "step/step_stages.hpp"

namespace pivot {

namespace {

// The island's joint rows relinearized at q+: their element Jacobians from
// the rows' Jacobians and the frames' at q+ (evaluate_joint_rows_at), and
// their responses Mbar^-1 J^T (Mbar of the step: the metric only).
void relinearize_island(const WorldModel& model, StepScratch& s, uint32_t island) {
    for (uint32_t k = s.island_row_start[island]; k < s.island_row_start[island + 1]; ++k) {
        const ProblemRow& row = s.rows[s.island_rows[k]];
        if (row.contact >= 0 || row.rope >= 0) continue;  // joint rows only
        const JointGroup& jg = model.joint_groups[row.joint_group];
        const auto& out = s.joint_rows[row.joint_group];
        if (row.slot >= out.end_counts[row.member]) continue;
        const uint32_t joint = jg.joints[row.member];
        const JointRecord& record = model.joints[joint];
        const double* j12 = out.end_jacobians.data() + (static_cast<size_t>(row.member) * jg.max_rows + row.slot) * 12;
        // The rows stage gives a row one block per moving side, side 0 first.
        const bool side0_moves = record.frame1.element != Attachment::kWorld && !model.fixed[record.frame1.element];
        for (uint32_t b = 0; b < row.block_count; ++b) {
            const RowBlock& block = row.blocks[b];
            const uint32_t side = row.block_count == 2 ? b : (side0_moves ? 0 : 1);
            const double* frame_jac = s.frame_jacobian.data() + s.frame_jacobian_offset[2 * joint + side];
            chain_frame_jacobian(j12 + 6 * side, frame_jac, block.count, s.jacobian.data() + block.offset);
            compute_row_response(model, s, block);
        }
    }
}

// Whether the island has a joint the step cannot resolve (alpha > 0).
bool unresolved(const WorldModel& model, const StepScratch& s, uint32_t island) {
    for (uint32_t k = s.island_row_start[island]; k < s.island_row_start[island + 1]; ++k) {
        const ProblemRow& row = s.rows[s.island_rows[k]];
        if (row.contact < 0 && row.rope < 0 &&
            s.joint_strength[model.joint_groups[row.joint_group].joints[row.member]] > 0.0) {
            return true;
        }
    }
    return false;
}

// The projection's right-hand side phi(q+) and bounds: the island's rigid
// equality rows free, every other row out (bounds [0, 0]). Returns whether
// any of them is violated.
bool set_projection_rows(const WorldModel& model, const StepScratch& s, uint32_t island, LcpProblem& p) {
    const uint32_t first = s.island_row_start[island];
    bool any = false;
    for (uint32_t k = 0; k < p.n; ++k) {
        const ProblemRow& row = s.rows[s.island_rows[first + k]];
        double violation = 0.0;
        bool active =
            row.contact < 0 && row.rope < 0 && row.row.compliance == 0.0 && (row.row.flags & PIVOT_ROW_POSITION_ERROR);
        if (active) {
            const JointGroup& jg = model.joint_groups[row.joint_group];
            const auto& out = s.joint_rows[row.joint_group];
            const size_t slot = static_cast<size_t>(row.member) * jg.max_rows + row.slot;
            active = row.slot < out.end_counts[row.member] && (out.end_rows[slot].flags & PIVOT_ROW_POSITION_ERROR);
            if (active) violation = out.end_rows[slot].violation;
        }
        p.b[k] = active ? violation : 0.0;
        p.lo[k] = active ? -HUGE_VAL : 0.0;
        p.hi[k] = active ? HUGE_VAL : 0.0;
        p.findex[k] = -1;
        any = any || (active && violation != 0.0);
    }
    p.project = nullptr;
    p.project_context = nullptr;
    p.block_first_row.clear();
    return any;
}

// One Newton step; false when nothing was left to correct.
bool project_once(const WorldModel& model, const WorldState& state, const StepSolvers& solvers, StepScratch& s) {
    // The joints' rows, violations and frame Jacobians at q+.
    evaluate_joint_rows_at(model, state, s, s.q_next.data());
    std::fill(s.correction.begin(), s.correction.end(), 0.0);  // in velocity coordinates
    bool moved = false;
    for (uint32_t island = 0; island < s.island_count; ++island) {
        LcpProblem& p = s.problems[island];
        if (s.island_solver[island] == StepScratch::kIslandTooLarge || !unresolved(model, s, island)) continue;
        // The island's matrix again, from the rows' Jacobians at q+.
        relinearize_island(model, s, island);
        LcpSolverChain& solver = solvers.for_island(s, island);
        assemble_island(model, s, island, solver, p);
        if (!set_projection_rows(model, s, island, p)) continue;
        s.x.assign(p.n, 0.0);
        const ChainReport report = solver.solve(p, s.x, true);
        if (!report.solved && !report.approximate) continue;  // left to the next step's phi / h
        const uint32_t first = s.island_row_start[island];
        for (uint32_t k = 0; k < p.n; ++k) {
            const ProblemRow& row = s.rows[s.island_rows[first + k]];
            for (uint32_t b = 0; b < row.block_count; ++b) {
                const MassBlock& block = model.blocks[row.blocks[b].block];
                const double* w = s.response.data() + row.blocks[b].response;
                double* du = s.correction.data() + block.v_offset;
                for (uint32_t i = 0; i < block.nv; ++i) du[i] += w[i] * s.x[k];
            }
        }
        moved = true;
    }
    if (!moved) return false;
    for (const ElementGroup& g : model.element_groups) {
        if (g.count == 0) continue;
        // q <- q (+) du: the element's own update with velocity du for a
        // unit time. (Fixed elements have no rows: their du is zero.)
        CallResult r = checked_integrate(g.instance, g.node_count(), s.q_next.data() + g.q_offset,
                                         s.correction.data() + g.v_offset, 1.0, guarded(s.q_next, g.q_offset));
        require_usable(r);
    }
    return true;
}

}  // namespace

void project_positions(const WorldModel& model, const WorldState& state, const StepSolvers& solvers,
                       StepScratch& s) {
    // Only islands with a joint the step cannot resolve (alpha > 0) are projected.
    if (std::none_of(s.joint_strength.begin(), s.joint_strength.end(), [](double a) { return a > 0.0; })) return;
    for (uint32_t i = 0; i < model.settings.projection_iterations; ++i) {
        if (!project_once(model, state, solvers, s)) break;
    }
}

}  // namespace pivot
