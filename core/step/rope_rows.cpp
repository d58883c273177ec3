// Stage rows, ropes (docs/engine.md "Ropes and sheaves"): one row per rope,
// g = L - l(q) >= 0 for its length L and the length l of its path over the
// sheaves (core/world/rope_geometry.hpp), unilateral (a rope pulls, goes
// slack, never pushes), with compliance L / (EA) for an elastic rope. Its
// rate is  dg/dt = -dl/dt = sum over segments e . (v(start) - v(end)):  the
// rope pulls each point it leaves along the segment after it and each point
// it arrives at back along the one before, with its one tension, which is
// what a frictionless sheave does (the two pulls' moments about the sheave's
// axis cancel). A point of a moving element contributes [n; rho x n] on
// the twist of its material frame (rho from the frame's origin, the
// sheave's centre, to the tangent point), chained with the frame's 6 x nv
// Jacobian; points on the same element add into one block.
#include <cmath>

#include "step/step_stages.hpp"

namespace pivot {

static_assert(RopeRecord::kMaxBodies <= kMaxRowBlocks, "a rope's row holds a block per body it passes");

namespace {

// Adds sign [n; r x n] to a frame's 6 row values: a pull along n at `at`,
// r from the frame's origin `centre` to it.
void add_point_force(const Vec3d& n, double sign, const Vec3d& at, const Vec3d& centre, double* side) {
    const double r[3] = {at[0] - centre[0], at[1] - centre[1], at[2] - centre[2]};
    side[0] += sign * n[0];
    side[1] += sign * n[1];
    side[2] += sign * n[2];
    side[3] += sign * (r[1] * n[2] - r[2] * n[1]);
    side[4] += sign * (r[2] * n[0] - r[0] * n[2]);
    side[5] += sign * (r[0] * n[1] - r[1] * n[0]);
}

}  // namespace

void collect_rope_rows(const WorldModel& model, const WorldState& state, StepScratch& s) {
    if (model.ropes.empty()) return;
    for (size_t g = 0; g < model.element_groups.size(); ++g) {
        auto& frames = s.rope_frames[g];
        if (frames.points.empty()) continue;
        const ElementGroup& group = model.element_groups[g];
        ask_material_frames(group, element_batch(group, state), frames);
    }
    for (uint32_t r = 0; r < model.ropes.size(); ++r) {
        const RopeRecord& rope = model.ropes[r];
        if (rope.removed) continue;
        const uint32_t first = s.rope_point_start[r];
        const size_t n = rope.route.size();
        s.rope_route.resize(n);  // reserved for the longest route (prepare_step)
        for (size_t k = 0; k < n; ++k) {
            const uint32_t g = s.rope_point_group[first + k];
            const double* pose =
                g == UINT32_MAX ? nullptr : s.rope_frames[g].poses.data() + 7 * s.rope_point_index[first + k];
            s.rope_route[k] = rope_vertex(rope.route[k], pose);
        }
        const RopePath& path = s.rope_path;
        rope_path(s.rope_route, s.rope_path);

        ProblemRow row;
        row.row.violation = rope.length - path.length;
        row.row.target_velocity = 0.0;
        row.row.compliance = rope.stiffness > 0.0 ? rope.length / rope.stiffness : 0.0;
        row.row.damping = rope.damping;
        row.row.lower = 0.0;
        row.row.upper = HUGE_VAL;
        row.row.findex = -1;
        row.row.flags = 0;
        row.rope = static_cast<int32_t>(r);
        for (size_t k = 0; k < n; ++k) {
            const uint32_t g = s.rope_point_group[first + k];
            const uint32_t element = rope.route[k].at.element;
            if (g == UINT32_MAX || model.fixed[element]) continue;
            double side[6] = {0, 0, 0, 0, 0, 0};
            const Vec3d& centre = s.rope_route[k].centre;
            if (k + 1 < n) add_point_force(path.direction[k], +1.0, path.leave[k], centre, side);
            if (k > 0) add_point_force(path.direction[k - 1], -1.0, path.arrive[k], centre, side);
            const uint32_t nv = model.element_nv[element];
            const double* frame_jac =
                s.rope_frames[g].jacobians.data() + static_cast<size_t>(6) * nv * s.rope_point_index[first + k];
            // The element's block in this row, if an earlier point made it.
            const uint32_t block = model.element_block[element];
            RowBlock* existing = nullptr;
            for (uint32_t b = 0; b < row.block_count; ++b) {
                if (row.blocks[b].block == block) existing = &row.blocks[b];
            }
            uint32_t offset = 0;
            if (existing != nullptr) {
                offset = existing->offset;
            } else {
                offset = static_cast<uint32_t>(s.jacobian.size());
                s.jacobian.resize(offset + nv, 0.0);
                add_row_block(model, s, row, element, offset, false);  // response when factored
            }
            double* out = s.jacobian.data() + offset;
            for (uint32_t c = 0; c < nv; ++c) {
                double sum = 0.0;
                for (uint32_t i = 0; i < 6; ++i) sum += side[i] * frame_jac[i + 6 * c];
                out[c] += sum;
            }
        }
        if (row.block_count == 0) continue;  // over the world and fixed bodies only: nothing moves
        s.rows.push_back(row);
    }
    s.joint_rows_end = static_cast<uint32_t>(s.rows.size());
}

}  // namespace pivot
