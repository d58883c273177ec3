// Stage solve (after each island's answer): the friction impulses of a
// redundant contact manifold made unique, the least-norm split.
//
// A box face resting on four contact points is statically indeterminate:
// the solution set of the island's problem holds every split of the
// friction impulses among the points that gives the bodies the same
// generalized impulse J^T z, and an exact (pivoting) solver returns a vertex
// of that set, with sideways rows at +-mu fn in cancelling pairs. The bodies
// move the same for every split; the per-contact forces (reports, force
// sensors, the friction models' previous_impulses) do not. Of the split set
// this takes the point of least Euclidean norm,
//     min 1/2 |z_F|^2  s.t.  G z_F = G z_F*,  lo_k |z_n| <= z_k <= hi_k |z_n|,
// over the manifold's box-bounded friction rows F that may move: a rigid
// row whose velocity after the step is zero (sticking, interior or at a
// bound); a row that slides (at its bound) keeps its impulse, so every row
// stays complementary and the answer is still an exact solution of the
// problem. Only a solved island's answer is split: an approximate one (a
// budget or a failure) is no solution to keep, and is left as the solver's.
// G stacks the rows' Jacobians on the manifold's two bodies (12 x |F|):
// keeping G z_F keeps J^T z, hence v+, to rounding.
//
// The QP is solved by a primal active-set method from the solver's answer,
// which is feasible (Nocedal & Wright, "Numerical Optimization", 2nd ed.,
// Algorithm 16.3): every iterate keeps G z_F and the bounds, so stopping at
// the iteration cap still leaves a valid split. Each equality-constrained
// step is the projection of z_F onto the row space of G_F (the least-norm
// z with the same G_F z), from an orthonormal basis of that space built by
// Gram-Schmidt with reorthogonalization over G's rows; G has rank 3 for
// coplanar points with in-plane tangents (the in-plane force and the moment
// about the normal), dependent rows are dropped. For two rigid bodies the
// second body's rows follow from the first's (the same force, its moment
// about another point): the basis is built from the first body's rows and
// the step checked on the second's (every row when that fails). Manifolds
// of one contact (independent rows) and manifolds whose friction is below
// 1e-9 of its bounds (loads at rest) are skipped: measured ~5 % of the
// 120-box pyramid's step, nothing on stacks at rest or sphere piles.
//
// Scope: rows on rigid-body blocks (nv <= 6, not a cable's chain), with a
// friction index and box bounds (not a cone model's projection block or
// coupling block), at most kMaxRows per manifold; others keep the solver's
// split. Fixed-size storage: no allocation.
#include <algorithm>
#include <cmath>

#include "step/step_stages.hpp"

namespace pivot {

namespace {

constexpr uint32_t kMaxDofs = 12;  // two rigid bodies
constexpr uint32_t kMaxRows = 32;  // friction rows of one manifold
// A row slipping slower than this (m/s, rad/s) sticks: it may move within
// its bounds. A micrometre per second is sticking for any simulated
// machine, and above what an iterative solver leaves on a sticking row.
constexpr double kStickingSpeed = 1e-6;
// A manifold whose friction impulses are all below this fraction of its
// largest bound is left as it is: its split cannot move any contact's force
// by more than that (the validations ask for 1e-6).
constexpr double kNegligibleFriction = 1e-9;

// One manifold's movable rows: G (dofs x rows, G[r][i] the Jacobian of row i
// on velocity r of the two blocks), bounds, impulses.
struct Manifold {
    uint32_t dofs = 0;
    uint32_t rows = 0;
    // The first block's velocities (all of them with one block): for two
    // rigid bodies the second body's generalized impulse follows from the
    // first's (the same forces, moments about another point), so the
    // projection is made on the first block's rows and checked on the
    // others; where that check fails, on all rows.
    uint32_t primary_dofs = 0;
    double g[kMaxDofs][kMaxRows];
    double lo[kMaxRows], hi[kMaxRows], z[kMaxRows];
};

// The manifold a row belongs to: its one or two mass blocks, ordered; -1
// for none (a static body). Rows outside the scope get no key.
bool manifold_key(const WorldModel& model, const ProblemRow& row, int64_t& key) {
    if (row.block_count == 0 || row.block_count > 2) return false;
    int64_t blocks[2] = {-1, -1};
    for (uint32_t b = 0; b < row.block_count; ++b) {
        const MassBlock& block = model.blocks[row.blocks[b].block];
        if (block.chain || block.nv > 6 || row.blocks[b].first != 0 || row.blocks[b].count != block.nv) return false;
        blocks[b] = row.blocks[b].block;
    }
    if (blocks[0] > blocks[1]) std::swap(blocks[0], blocks[1]);
    key = (blocks[0] + 1) * (static_cast<int64_t>(model.blocks.size()) + 1) + (blocks[1] + 1);
    return true;
}

// The least-norm z over the free rows (held[i] == 0) with the same G z, into
// target (held rows copied), and, when some row is held, pull[i] =
// (G^T mu)_i for every row, where target_F = G_F^T mu (the multipliers are
// only needed to release held rows).
void least_norm_point(const Manifold& m, uint32_t dofs, const int* held, bool any_held, double* target, double* pull) {
    double q[kMaxDofs][kMaxRows];  // orthonormal basis of the row space of G_F (its first dofs rows)
    double t[kMaxDofs][kMaxDofs];  // q_l = sum_r t[l][r] G_F[r] (with held rows only)
    uint32_t rank = 0;
    for (uint32_t r = 0; r < dofs; ++r) {
        double* v = q[rank];
        double* tv = t[rank];
        double norm0 = 0.0;
        for (uint32_t i = 0; i < m.rows; ++i) {
            v[i] = held[i] == 0 ? m.g[r][i] : 0.0;
            norm0 += v[i] * v[i];
        }
        if (norm0 == 0.0) continue;
        if (any_held) {
            for (uint32_t c = 0; c < dofs; ++c) tv[c] = c == r ? 1.0 : 0.0;
        }
        // Gram-Schmidt, a second pass only when the first cancelled much of
        // the row (Kahan's "twice is enough" criterion; Giraud et al. 2005).
        double norm = std::sqrt(norm0);
        for (int pass = 0; pass < 2; ++pass) {
            for (uint32_t l = 0; l < rank; ++l) {
                const double c = dot(q[l], v, m.rows);
                for (uint32_t i = 0; i < m.rows; ++i) v[i] -= c * q[l][i];
                if (any_held) {
                    for (uint32_t k = 0; k < dofs; ++k) tv[k] -= c * t[l][k];
                }
            }
            const double before = norm;
            norm = std::sqrt(dot(v, v, m.rows));
            if (rank == 0 || norm > 0.5 * before) break;
        }
        if (!(norm > 1e-10 * std::sqrt(norm0))) continue;  // dependent on the rows before
        for (uint32_t i = 0; i < m.rows; ++i) v[i] /= norm;
        if (any_held) {
            for (uint32_t k = 0; k < dofs; ++k) tv[k] /= norm;
        }
        ++rank;
    }
    double mu[kMaxDofs] = {};
    for (uint32_t i = 0; i < m.rows; ++i) target[i] = held[i] != 0 ? m.z[i] : 0.0;
    for (uint32_t l = 0; l < rank; ++l) {
        double c = 0.0;
        for (uint32_t i = 0; i < m.rows; ++i) c += held[i] == 0 ? q[l][i] * m.z[i] : 0.0;
        for (uint32_t i = 0; i < m.rows; ++i) target[i] += held[i] == 0 ? c * q[l][i] : 0.0;
        if (any_held) {
            for (uint32_t k = 0; k < dofs; ++k) mu[k] += c * t[l][k];
        }
    }
    if (!any_held) return;
    for (uint32_t i = 0; i < m.rows; ++i) {
        pull[i] = 0.0;
        for (uint32_t r = 0; r < dofs; ++r) pull[i] += m.g[r][i] * mu[r];
    }
}

// Whether target keeps G's rows from `first` on: G_r (target - z) zero to
// rounding of the row's terms.
bool keeps_rows(const Manifold& m, uint32_t first, const double* target) {
    for (uint32_t r = first; r < m.dofs; ++r) {
        double change = 0.0, scale = 0.0;
        for (uint32_t i = 0; i < m.rows; ++i) {
            change += m.g[r][i] * (target[i] - m.z[i]);
            scale += std::abs(m.g[r][i]) * (std::abs(target[i]) + std::abs(m.z[i]));
        }
        if (!(std::abs(change) <= 1e-12 * scale)) return false;
    }
    return true;
}

// The least-norm point of { z : G z = G z0, lo <= z <= hi } from z0 = m.z
// (feasible), in m.z. Returns false (m.z still a feasible split) when the
// iteration cap is reached.
bool least_norm_split(Manifold& m) {
    int held[kMaxRows];  // -1 held at the lower bound, +1 at the upper, 0 free
    for (uint32_t i = 0; i < m.rows; ++i) {
        held[i] = m.lo[i] == m.hi[i] || m.z[i] <= m.lo[i] ? -1 : (m.z[i] >= m.hi[i] ? 1 : 0);
    }
    double target[kMaxRows];
    double pull[kMaxRows];
    uint32_t dofs = m.primary_dofs;
    for (uint32_t iteration = 0; iteration < 4 * m.rows + 8; ++iteration) {
        const bool any_held = std::any_of(held, held + m.rows, [](int h) { return h != 0; });
        least_norm_point(m, dofs, held, any_held, target, pull);
        if (dofs < m.dofs && !keeps_rows(m, dofs, target)) {
            dofs = m.dofs;  // not two rigid bodies after all: every row, from now on
            least_norm_point(m, dofs, held, any_held, target, pull);
        }
        // The longest step toward the target within the bounds.
        double step = 1.0;
        int blocking = -1;
        for (uint32_t i = 0; i < m.rows; ++i) {
            const double p = target[i] - m.z[i];
            if (held[i] != 0 || p == 0.0) continue;
            const double room = p > 0.0 ? m.hi[i] - m.z[i] : m.lo[i] - m.z[i];
            if (room / p < step) {
                step = std::max(room / p, 0.0);
                blocking = static_cast<int>(i);
            }
        }
        for (uint32_t i = 0; i < m.rows; ++i) {
            if (held[i] == 0) m.z[i] += step * (target[i] - m.z[i]);
        }
        if (blocking >= 0) {
            const auto b = static_cast<uint32_t>(blocking);
            held[b] = target[b] > m.z[b] ? 1 : -1;
            m.z[b] = held[b] > 0 ? m.hi[b] : m.lo[b];
            continue;
        }
        if (!any_held) return true;
        // At the minimum over the free rows: a held row whose multiplier
        // has the wrong sign (the norm falls by moving it inward) is freed.
        // At an upper bound nu = (G^T mu)_i - z_i >= 0, at a lower one
        // nu = z_i - (G^T mu)_i >= 0 (the KKT conditions of the QP).
        int release = -1;
        double scale = 0.0;
        for (uint32_t i = 0; i < m.rows; ++i) scale = std::max(scale, std::abs(m.z[i]));
        double most_negative = -1e-12 * scale;
        for (uint32_t i = 0; i < m.rows; ++i) {
            if (held[i] == 0 || m.lo[i] == m.hi[i]) continue;
            const double nu = held[i] > 0 ? pull[i] - m.z[i] : m.z[i] - pull[i];
            if (nu < most_negative) {
                most_negative = nu;
                release = static_cast<int>(i);
            }
        }
        if (release < 0) return true;
        held[release] = 0;
    }
    return false;
}

}  // namespace

void split_friction_least_norm(const WorldModel& model, StepScratch& s, uint32_t island) {
    const LcpProblem& p = s.problems[island];
    const uint32_t first = s.island_row_start[island];
    std::vector<double>& x = s.island_x[island];
    // Rows in a cone model's projection blocks are not box-bounded.
    const uint32_t projected_begin = p.has_blocks() ? p.block_first_row.front() : p.n;
    const uint32_t projected_end = p.has_blocks() ? p.block_first_row.back() : p.n;

    // The candidate rows, in island order: a manifold's contacts come out of
    // the narrowphase together (one shape pair) and a contact's rows are
    // consecutive, so a manifold is a run of rows with the same key (a
    // manifold split over two runs, from compound shapes, is split within
    // each run: still the same v+, less than least-norm over the whole).
    auto& candidates = s.friction_split_rows;
    candidates.clear();
    for (uint32_t k = 0; k < p.n; ++k) {
        const ProblemRow& row = s.rows[s.island_rows[first + k]];
        if (row.contact < 0 || row.scaling_row < 0 || row.coupling >= 0 || row.row.compliance != 0.0 ||
            row.regularization != 0.0 || (k >= projected_begin && k < projected_end)) {
            continue;
        }
        int64_t key = 0;
        if (manifold_key(model, row, key)) candidates.push_back({key, k});
    }

    for (size_t begin = 0; begin < candidates.size();) {
        size_t end = begin + 1;
        bool several_contacts = false;  // one contact's rows are independent: nothing to split
        const int32_t first_contact = s.rows[s.island_rows[first + candidates[begin].row]].contact;
        while (end < candidates.size() && candidates[end].manifold == candidates[begin].manifold) {
            const int32_t contact = s.rows[s.island_rows[first + candidates[end].row]].contact;
            several_contacts = several_contacts || contact != first_contact;
            ++end;
        }
        const size_t count = end - begin;
        const size_t group = begin;
        begin = end;
        if (!several_contacts || count > kMaxRows) continue;
        // The manifold's blocks, in the order of the key.
        const ProblemRow& first_row = s.rows[s.island_rows[first + candidates[group].row]];
        uint32_t blocks[2] = {first_row.blocks[0].block, first_row.block_count > 1 ? first_row.blocks[1].block : 0};
        const uint32_t block_count = first_row.block_count;
        if (block_count == 2 && blocks[0] > blocks[1]) std::swap(blocks[0], blocks[1]);
        uint32_t dofs = 0;
        uint32_t dof_start[2] = {0, 0};
        for (uint32_t b = 0; b < block_count; ++b) {
            dof_start[b] = dofs;
            dofs += model.blocks[blocks[b]].nv;
        }

        Manifold m;  // 3.8 kB on the stack
        m.dofs = dofs;
        m.primary_dofs = model.blocks[blocks[0]].nv;
        m.rows = 0;
        uint32_t rows[kMaxRows];
        for (size_t c = 0; c < count; ++c) {
            const uint32_t k = candidates[group + c].row;
            const ProblemRow& row = s.rows[s.island_rows[first + k]];
            const double normal = std::abs(x[static_cast<uint32_t>(p.findex[k])]);
            const double lower = p.lo[k] * normal;
            const double upper = p.hi[k] * normal;
            // A row at a bound may slide: w_k = b_k + d_k x_k + J_k (v+ - v*),
            // its velocity after the step. (An interior row of a solved
            // island has w_k = 0 to the solver's accuracy.)
            const double slack = 1e-9 * (1.0 + std::abs(lower) + std::abs(upper));
            if (x[k] <= lower + slack || x[k] >= upper - slack) {
                const double w = p.b[k] + p.diagonal[k] * x[k] + row_velocity(model, s, row, s.v_next.data()) -
                                 row_velocity(model, s, row, s.v_free.data());
                if (std::abs(w) > kStickingSpeed) continue;  // slides: keeps its impulse
            }
            const uint32_t i = m.rows++;
            for (uint32_t r = 0; r < dofs; ++r) m.g[r][i] = 0.0;
            for (uint32_t b = 0; b < row.block_count; ++b) {
                const RowBlock& rb = row.blocks[b];
                const uint32_t start = dof_start[rb.block == blocks[0] ? 0 : 1];
                for (uint32_t v = 0; v < rb.count; ++v) m.g[start + v][i] = s.jacobian[rb.offset + v];
            }
            rows[i] = k;
            m.lo[i] = std::min(lower, x[k]);  // the solver's answer is within its bounds to rounding
            m.hi[i] = std::max(upper, x[k]);
            m.z[i] = x[k];
        }
        if (m.rows < 2) continue;
        // Friction at rounding level of its bounds everywhere (a load at
        // rest under gravity alone): its split is as small, nothing to do.
        double largest = 0.0, bound = 0.0;
        for (uint32_t i = 0; i < m.rows; ++i) {
            largest = std::max(largest, std::abs(m.z[i]));
            bound = std::max({bound, std::abs(m.lo[i]), std::abs(m.hi[i])});
        }
        if (largest <= kNegligibleFriction * bound || !least_norm_split(m)) continue;
        // The new impulses, and v+ moved by Mbar^-1 J^T dz (zero to rounding).
        for (uint32_t i = 0; i < m.rows; ++i) {
            const uint32_t k = rows[i];
            const double change = m.z[i] - x[k];
            if (change == 0.0) continue;
            x[k] = m.z[i];
            const ProblemRow& row = s.rows[s.island_rows[first + k]];
            for (uint32_t b = 0; b < row.block_count; ++b) {
                const MassBlock& block = model.blocks[row.blocks[b].block];
                const double* response = s.response.data() + row.blocks[b].response;
                double* v = s.v_next.data() + block.v_offset;
                for (uint32_t j = 0; j < block.nv; ++j) v[j] += response[j] * change;
            }
            s.next_contact_impulses[static_cast<size_t>(row.contact) * WorldState::kMaxContactRows + row.slot] = x[k];
        }
    }
}

}  // namespace pivot
