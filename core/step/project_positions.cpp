// Stage projection: position projection (post-stabilization), before the state is
// committed. The velocity step satisfies the joints to first order only: a body turning by h omega per
// step opens its joints by ~ r (h omega)^2 / 2, and the whip of a chain's
// free end turns its last links by radians per step at 60 Hz. Correcting
// that through the next step's velocity (phi / h) puts the correction's
// velocity into the motion: energy from nothing. Instead the positions are
// projected back onto the joints after the step, the velocities untouched
// (Cline & Pai 2003, post-stabilization; the "split impulse" of Bullet and
// the position pass of Box2D are the same idea):
//     (J Mbar^-1 J^T) mu = -phi(q+),   q+ <- q+ (+) Mbar^-1 J^T mu,
// Gauss-Newton steps (WorldSettings::projection_iterations) on the rigid
// equality rows, with the step's own Jacobian, matrix and factorization
// (the island problems are reused: the other rows take no part, bounds
// [0, 0]). The metric Mbar moves light bodies more than heavy ones, as the
// joint forces would. The price: the velocity is not projected, and the
// next step removes its part across the moved joints, which dissipates
// (docs/engine.md "Stabilization" has the measured numbers).
#include <algorithm>
#include <cmath>

#include "common/error.hpp"
#include "lcp/lcp_solver_chain.hpp"
#include "plugin_host/checked_calls.hpp"
#include "step/step_stages.hpp"

namespace pivot {

namespace {

// One Gauss-Newton step; false when nothing was left to correct.
bool project_once(const WorldModel& model, const WorldState& state, LcpSolverChain& solver, StepScratch& s) {
    // The joints' violations at q+ (into the end_* buffers).
    evaluate_joint_rows_at(model, state, s, s.q_next.data());
    std::fill(s.correction.begin(), s.correction.end(), 0.0);  // in velocity coordinates
    bool moved = false;
    for (uint32_t island = 0; island < s.island_count; ++island) {
        LcpProblem& p = s.problems[island];
        const uint32_t first = s.island_row_start[island];
        bool any = false, unresolved = false;
        for (uint32_t k = 0; k < p.n; ++k) {
            const ProblemRow& row = s.rows[s.island_rows[first + k]];
            if (row.contact < 0) {
                const uint32_t joint = model.joint_groups[row.joint_group].joints[row.member];
                unresolved = unresolved || s.joint_strength[joint] > 0.0;
            }
            double violation = 0.0;
            bool active = row.contact < 0 && row.row.compliance == 0.0 && (row.row.flags & PIVOT_ROW_POSITION_ERROR);
            if (active) {
                const JointGroup& jg = model.joint_groups[row.joint_group];
                const auto& out = s.joint_rows[row.joint_group];
                const size_t slot = static_cast<size_t>(row.member) * jg.max_rows + row.slot;
                active = row.slot < out.end_counts[row.member] &&
                         (out.end_rows[slot].flags & PIVOT_ROW_POSITION_ERROR) != 0;
                if (active) violation = out.end_rows[slot].violation;
            }
            p.b[k] = active ? violation : 0.0;
            p.lo[k] = active ? -HUGE_VAL : 0.0;
            p.hi[k] = active ? HUGE_VAL : 0.0;
            p.findex[k] = -1;
            any = any || (active && violation != 0.0);
        }
        if (!any || !unresolved) continue;
        p.project = nullptr;
        p.project_context = nullptr;
        p.block_first_row.clear();
        s.x.assign(p.n, 0.0);
        const ChainReport report = solver.solve(p, s.x, true);
        if (!report.solved && !report.approximate) continue;  // left to the next step's phi / h
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
                                         s.correction.data() + g.v_offset, 1.0, s.q_next.data() + g.q_offset);
        if (!r.ok()) throw Error(r.message);
    }
    return true;
}

}  // namespace

void project_positions(const WorldModel& model, const WorldState& state, LcpSolverChain& solver, StepScratch& s) {
    // Only islands with a joint the step cannot resolve (alpha > 0) are projected.
    if (std::none_of(s.joint_strength.begin(), s.joint_strength.end(), [](double a) { return a > 0.0; })) return;
    for (uint32_t i = 0; i < model.settings.projection_iterations; ++i) {
        if (!project_once(model, state, solver, s)) break;
    }
}

}  // namespace pivot
