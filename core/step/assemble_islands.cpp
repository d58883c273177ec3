// Stage assembly: one complementarity problem per island
// (docs/engine.md, seed000 2.1 Eq. 2.13b with the errata of
// 2.17), for the impulses z = h lambda:
//     A = J Mbar^-1 J^T + diag(c / (h g)),   g = h + d c,
//     w = A z + b,   b = J v* + phi / g - target,
// with impulse bounds h*lower, h*upper (friction-index rows keep their
// multipliers). For a bilateral row w = 0 reproduces the compliant
// constitutive law c lambda = -phi(q+) - d J v+ linearized as
// phi(q+) = phi + h J v+; c = 0 is a rigid row, corrected fully in one step.
// Rows flagged NO_STABILIZATION (motors, velocity-level rows) leave phi out.
// Each island goes to the solver chain that suits it (island_solver_for),
// in the form that chain reads: the factored form J, Mbar^-1 J^T, A dense or
// sparse; the solve is solve_islands.cpp.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "common/error.hpp"
#include "lcp/lcp_solver_chain.hpp"
#include "step/dense_cholesky.hpp"
#include "step/step_stages.hpp"

namespace pivot {

namespace {

// The factored form's callback: velocity = Mbar^-1 force over the island's
// blocks (plugin_solver.h), through the blocks' factorizations.
pivot_status apply_island_inverse_mass(void* context, const double* force, double* velocity) {
    const auto& island = *static_cast<const StepScratch::IslandMass*>(context);
    uint32_t at = 0;
    for (const uint32_t block : island.blocks) {
        const uint32_t nv = island.model->blocks[block].nv;
        std::copy(force + at, force + at + nv, velocity + at);
        solve_mass_block(*island.model, *island.scratch, block, velocity + at, 0);
        at += nv;
    }
    return PIVOT_OK;
}

// The island's factored form (blocks numbered in the order the rows meet
// them); the diagonal is filled by assemble_island.
void set_factored_form(const WorldModel& model, StepScratch& s, uint32_t island, LcpProblem& p) {
    const uint32_t first = s.island_row_start[island];
    StepScratch::IslandMass& mass = s.island_masses[island];
    mass.model = &model;
    mass.scratch = &s;
    mass.blocks.clear();
    p.factored = true;
    p.block_start.assign(1, 0);
    p.row_block_start.resize(p.n + 1);
    p.row_blocks.clear();
    p.diagonal.resize(p.n);
    for (uint32_t k = 0; k < p.n; ++k) {
        const ProblemRow& row = s.rows[s.island_rows[first + k]];
        p.row_block_start[k] = static_cast<uint32_t>(p.row_blocks.size());
        for (uint32_t b = 0; b < row.block_count; ++b) {
            const RowBlock& block = row.blocks[b];
            uint32_t& local = s.island_block_index[block.block];
            if (local == UINT32_MAX) {
                local = static_cast<uint32_t>(mass.blocks.size());
                mass.blocks.push_back(block.block);
                p.block_start.push_back(p.block_start.back() + model.blocks[block.block].nv);
            }
            p.row_blocks.push_back(pivot_row_block{local, block.first, block.count, 0, block.offset, block.response});
        }
    }
    p.row_block_start[p.n] = static_cast<uint32_t>(p.row_blocks.size());
    for (const uint32_t block : mass.blocks) s.island_block_index[block] = UINT32_MAX;
    p.jacobian = s.jacobian.data();
    p.response = s.response.data();
    p.apply_inverse_mass = apply_island_inverse_mass;
    p.inverse_mass_context = &mass;
}

// The island's mass blocks Mbar (ABI 1.5) from their factors (a rigid
// body's dense Cholesky factor, dense_cholesky.hpp); a cable's block is
// kept only factored and is marked absent.
void set_mass_blocks(const WorldModel& model, const StepScratch& s, uint32_t island, LcpProblem& p) {
    const StepScratch::IslandMass& mass = s.island_masses[island];
    p.mass.clear();
    p.mass_offset.clear();
    for (const uint32_t block : mass.blocks) {
        const MassBlock& b = model.blocks[block];
        if (b.chain) {
            p.mass_offset.push_back(PIVOT_NO_MASS_BLOCK);
            continue;
        }
        p.mass_offset.push_back(p.mass.size());
        p.mass.resize(p.mass.size() + static_cast<size_t>(b.nv) * b.nv);
        cholesky_product(s.mass.data() + s.mass_offset[b.first_element], b.nv,
                         p.mass.data() + p.mass_offset.back());
    }
}

}  // namespace

MatrixForm matrix_form_for(const LcpSolverChain& solver) {
    if (solver.primary_reads_factored()) return MatrixForm::none;
    return solver.primary_reads_dense() ? MatrixForm::dense : MatrixForm::sparse;
}

// Fills problem for island i: b, bounds, the factored form (unless the
// island has coupling blocks) and A as `form` asks.
void assemble_island(const WorldModel& model, StepScratch& s, uint32_t island, const LcpSolverChain& solver,
                     LcpProblem& p) {
    const bool too_large = s.island_solver[island] == StepScratch::kIslandTooLarge;
    MatrixForm form = too_large ? MatrixForm::none : matrix_form_for(solver);
    const double h = model.settings.timestep;
    const uint32_t first = s.island_row_start[island];
    const uint32_t n = s.island_row_start[island + 1] - first;
    p.n = n;
    p.b.resize(n);
    p.lo.resize(n);
    p.hi.resize(n);
    p.findex.resize(n);
    p.matrix_properties = PIVOT_MATRIX_SYMMETRIC | PIVOT_MATRIX_POSITIVE_SEMIDEFINITE;
    for (uint32_t k = 0; k < n; ++k) {
        if (s.rows[s.island_rows[first + k]].coupling >= 0) p.matrix_properties = 0;  // coupling blocks: neither
    }
    const bool coupled = p.matrix_properties == 0;
    if (coupled) {
        p.factored = false;  // coupling blocks are not J W: A is assembled (unless too large: not solved)
        if (form == MatrixForm::none && !too_large) form = MatrixForm::sparse;
    } else {
        set_factored_form(model, s, island, p);
        if (solver.reads_mass_blocks()) set_mass_blocks(model, s, island, p);
    }
    const bool dense = form == MatrixForm::dense;
    const bool assemble = form != MatrixForm::none;
    if (dense) {
        p.dense.assign(static_cast<size_t>(n) * n, 0.0);
        p.col_start.clear();
        p.row_index.clear();
        p.values.clear();
    } else {
        p.dense.clear();
        p.col_start.clear();
        p.row_index.clear();
        p.values.clear();
        if (assemble) p.col_start.assign(n + 1, 0);
    }
    for (uint32_t k = 0; k < n; ++k) {
        const ProblemRow& row = s.rows[s.island_rows[first + k]];
        const pivot_row& r = row.row;
        const double gamma = h + r.damping * r.compliance;
        const bool stabilize = (r.flags & PIVOT_ROW_NO_STABILIZATION) == 0;
        const double jv = row_velocity(model, s, row, s.v_free.data());
        p.b[k] = jv + (stabilize ? r.violation / gamma : 0.0) - r.target_velocity;
        if (row.scaling_row >= 0) {
            p.findex[k] = static_cast<int32_t>(s.rows[static_cast<uint32_t>(row.scaling_row)].index_in_island);
            p.lo[k] = r.lower;
            p.hi[k] = r.upper;
        } else {
            p.findex[k] = -1;
            p.lo[k] = h * r.lower;  // -inf stays -inf
            p.hi[k] = h * r.upper;
        }
        // Column k of A: rows sharing an element with row k.
        double diagonal = r.compliance / (h * gamma);
        if (row.regularization > 0.0) {
            double a_kk = 0.0;
            for (uint32_t b = 0; b < row.block_count; ++b) {
                const RowBlock& block = row.blocks[b];
                a_kk += dot(s.jacobian.data() + block.offset, s.response.data() + block.response + block.first,
                            block.count);
            }
            diagonal += row.regularization * a_kk;
        }
        if (!coupled) p.diagonal[k] = diagonal;
        if (!assemble) continue;
        const size_t column_start = p.values.size();
        for (uint32_t b = 0; b < row.block_count; ++b) {
            const uint32_t block = row.blocks[b].block;
            const double* w_k = s.response.data() + row.blocks[b].response;
            for (uint32_t t = s.block_row_start[block]; t < s.block_row_start[block + 1]; ++t) {
                const ProblemRow& other = s.rows[s.block_rows[t]];
                const RowBlock* on_block = nullptr;
                for (uint32_t ob = 0; ob < other.block_count; ++ob) {
                    if (other.blocks[ob].block == block) on_block = &other.blocks[ob];
                }
                // J_other Mbar^-1 J_k^T: the other row's Jacobian is nonzero
                // on its element's velocities only.
                const double value =
                    dot(s.jacobian.data() + on_block->offset, w_k + on_block->first, on_block->count);
                const uint32_t i = other.index_in_island;
                if (dense) {
                    p.dense[i + static_cast<size_t>(k) * n] += value;
                } else {
                    p.row_index.push_back(static_cast<int32_t>(i));
                    p.values.push_back(value);
                }
            }
        }
        if (row.coupling >= 0) {
            // The friction model's coupling block over its contact's rows
            // (impulse units), column `slot` of it: e.g. the polyhedral
            // cone's facet/auxiliary coupling (plugin_friction.h).
            const uint32_t m = row.coupling_size;  // the block's leading dimension
            const uint32_t written = s.contact_points[static_cast<uint32_t>(row.contact)].row_count;
            const double* column = s.contact_coupling.data() + row.coupling + static_cast<size_t>(row.slot) * m;
            for (uint32_t t = 0; t < written; ++t) {
                if (column[t] == 0.0) continue;
                const uint32_t i = s.rows[row.contact_row0 + t].index_in_island;
                if (dense) {
                    p.dense[i + static_cast<size_t>(k) * n] += column[t];
                } else {
                    p.row_index.push_back(static_cast<int32_t>(i));
                    p.values.push_back(column[t]);
                }
            }
        }
        if (dense) {
            p.dense[k + static_cast<size_t>(k) * n] += diagonal;
        } else {
            p.row_index.push_back(static_cast<int32_t>(k));
            p.values.push_back(diagonal);
            // Sort the column by row and merge duplicates (rows sharing two
            // elements). The entries come in a few sorted runs (one per
            // element, the coupling block, the diagonal): sorted as pairs in
            // a reused buffer, O(L log L) where an insertion sort was O(L^2).
            const size_t end = p.values.size();
            // Sorted by (row, arrival): duplicates are summed in the order
            // they were produced, whatever the standard library's sort.
            auto& entries = s.column_entries;
            entries.clear();
            for (size_t a = column_start; a < end; ++a) {
                entries.push_back({p.row_index[a], static_cast<uint32_t>(a - column_start), p.values[a]});
            }
            std::sort(entries.begin(), entries.end(), [](const StepScratch::ColumnEntry& x, const StepScratch::ColumnEntry& y) {
                return x.row != y.row ? x.row < y.row : x.arrival < y.arrival;
            });
            size_t out = column_start;
            for (const auto& [index, arrival, value] : entries) {
                if (out > column_start && p.row_index[out - 1] == index) {
                    p.values[out - 1] += value;
                } else {
                    p.row_index[out] = index;
                    p.values[out] = value;
                    ++out;
                }
            }
            p.row_index.resize(out);
            p.values.resize(out);
            p.col_start[k + 1] = static_cast<int32_t>(out);
        }
    }
}

namespace {

// The block projection the solver calls (plugin_solver.h): block k of the
// island is contact contacts[k]; its model's project() when it has one,
// else the box rule of its rows (bounds, then friction-index bounds).
pivot_status project_contact_blocks(void* context, uint32_t first_block, uint32_t block_count, double* x) {
    const auto& ctx = *static_cast<const StepScratch::IslandProjection*>(context);
    const StepScratch& s = *ctx.scratch;
    const LcpProblem& p = *ctx.problem;
    for (uint32_t k = first_block; k < first_block + block_count; ++k) {
        const StepScratch::ContactPoint& c = s.contact_points[ctx.contacts[k]];
        const uint32_t first = s.rows[c.row0].index_in_island;
        const PluginInstance& model = ctx.model->friction_instances[c.friction];
        if (model.plugin().has(PIVOT_FRICTION_CAP_PROJECTION)) {
            if (model.fatal()) return PIVOT_FATAL;  // not called again (plugin.h)
            const pivot_contact_block block{c.batch_index, first, c.row_count, 0};
            const pivot_status status = model.plugin().friction.project(
                model.handle(), s.friction_batches[c.friction].input.data(), &block, 1, x);
            if (status == PIVOT_FATAL) model.mark_fatal();
            if (status != PIVOT_OK && status != PIVOT_WARNING) return status;
            continue;
        }
        for (uint32_t pass = 0; pass < 2; ++pass) {  // unindexed rows first: the bounds of the others use them
            for (uint32_t i = first; i < first + c.row_count; ++i) {
                const int32_t j = p.findex[i];
                if ((j >= 0) != (pass == 1)) continue;
                const double scale = j >= 0 ? std::abs(x[j]) : 1.0;
                x[i] = std::min(p.hi[i] * scale, std::max(p.lo[i] * scale, x[i]));
            }
        }
    }
    return PIVOT_OK;
}

// Makes every contact of the island a block when one of them uses a
// projecting model. Contact rows follow the joint rows in an island and
// each contact's rows are contiguous (contact_rows.cpp, islands.cpp), so
// the blocks are the consecutive ranges the ABI asks for.
void set_projection(const WorldModel& model, StepScratch& s, uint32_t island, LcpProblem& p) {
    p.block_first_row.clear();
    p.project = nullptr;
    p.project_context = nullptr;
    const uint32_t first = s.island_row_start[island];
    const uint32_t n = s.island_row_start[island + 1] - first;
    bool projecting = false;
    for (uint32_t k = 0; k < n && !projecting; ++k) {
        const ProblemRow& row = s.rows[s.island_rows[first + k]];
        projecting = row.contact >= 0 && model.friction_instances[s.contact_points[static_cast<uint32_t>(row.contact)]
                                                                      .friction]
                                             .plugin()
                                             .has(PIVOT_FRICTION_CAP_PROJECTION);
    }
    if (!projecting) return;
    StepScratch::IslandProjection& ctx = s.projections[island];
    ctx.model = &model;
    ctx.scratch = &s;
    ctx.problem = &p;
    ctx.contacts.clear();
    for (uint32_t k = 0; k < n; ++k) {
        const ProblemRow& row = s.rows[s.island_rows[first + k]];
        if (row.contact < 0 || row.slot != 0) continue;
        if (p.block_first_row.empty()) {
            p.block_first_row.push_back(k);
        } else if (p.block_first_row.back() != k) {
            throw Error(fmt::format("internal: the rows of island {} are not ordered joints first, then contacts",
                                    island));
        }
        ctx.contacts.push_back(static_cast<uint32_t>(row.contact));
        p.block_first_row.push_back(k + s.contact_points[static_cast<uint32_t>(row.contact)].row_count);
    }
    p.project = project_contact_blocks;
    p.project_context = &ctx;
}

}  // namespace

namespace {

// The values island i's matrix takes in `form`: n^2 dense; sparse, the
// column entries assemble_island writes before merging duplicates (for
// each row, every row on each of its blocks, the coupling block's column
// and the diagonal); 0 for none.
size_t assembled_values(const StepScratch& s, uint32_t island, MatrixForm form) {
    const uint32_t first = s.island_row_start[island];
    const size_t n = s.island_row_start[island + 1] - first;
    if (form == MatrixForm::dense) return n * n;
    if (form == MatrixForm::none) return 0;
    size_t values = 0;
    for (size_t k = 0; k < n; ++k) {
        const ProblemRow& row = s.rows[s.island_rows[first + k]];
        for (uint32_t b = 0; b < row.block_count; ++b) {
            const uint32_t block = row.blocks[b].block;
            values += s.block_row_start[block + 1] - s.block_row_start[block];
        }
        values += (row.coupling >= 0 ? row.coupling_size : 0) + 1;
    }
    return values;
}

// Which chain solves island i (WorldSettings::direct_islands, newton_islands,
// large_island_rows): the direct one islands without friction indices and
// coupling blocks (chains and trees of joints, limits, motors); the
// large-island one contact islands (friction indices or cone projections,
// no coupling blocks) of more than large_island_rows rows; the Newton one
// the other islands with friction indices whose rows it can describe (no
// coupling blocks, no cone projections, no cable blocks: piles, stacks,
// boxes on the ground); the world's chain the rest.
// Then the memory bound (WorldSettings::max_assembled_values): an island
// whose matrix that chain would assemble past it goes to velocity PGS on
// the factored form (the contacts of two long cables lying on each other:
// every row on a cable shares its block with every other), or, without a
// factored form (coupling blocks) or velocity PGS, is not solved
// (kIslandTooLarge).
StepScratch::IslandSolver island_solver_for(const WorldModel& model, const StepSolvers& solvers,
                                            const StepScratch& s, uint32_t island) {
    bool friction = false, coupled = false, projecting = false, cable = false;
    for (uint32_t k = s.island_row_start[island]; k < s.island_row_start[island + 1]; ++k) {
        const ProblemRow& row = s.rows[s.island_rows[k]];
        friction = friction || row.scaling_row >= 0;
        coupled = coupled || row.coupling >= 0;
        if (row.contact >= 0 && row.slot == 0) {
            const uint32_t friction_model = s.contact_points[static_cast<uint32_t>(row.contact)].friction;
            projecting = projecting ||
                         model.friction_instances[friction_model].plugin().has(PIVOT_FRICTION_CAP_PROJECTION);
        }
        for (uint32_t b = 0; b < row.block_count; ++b) cable = cable || model.blocks[row.blocks[b].block].chain;
    }
    const uint32_t rows = s.island_row_start[island + 1] - s.island_row_start[island];
    const uint32_t large_rows = model.settings.large_island_rows;
    StepScratch::IslandSolver choice = StepScratch::kIslandChain;  // coupling blocks, among others
    if (!coupled) {
        if ((friction || projecting) && solvers.large != nullptr && large_rows > 0 && rows > large_rows) {
            return StepScratch::kIslandLarge;  // factored form only: nothing assembled
        }
        if (!friction) {
            choice = solvers.direct != nullptr ? StepScratch::kIslandDirect : StepScratch::kIslandChain;
        } else if (solvers.newton != nullptr && !projecting && !cable) {
            choice = StepScratch::kIslandNewton;
        }
    }
    MatrixForm form = matrix_form_for(solvers.chain_for(choice));
    if (coupled && form == MatrixForm::none) form = MatrixForm::sparse;
    if (assembled_values(s, island, form) <= model.settings.max_assembled_values) return choice;
    return solvers.large != nullptr && !coupled ? StepScratch::kIslandLarge : StepScratch::kIslandTooLarge;
}

}  // namespace

void assemble_islands(const WorldModel& model, const StepSolvers& solvers, StepScratch& s) {
    if (s.problems.size() < s.island_count) s.problems.resize(s.island_count);
    if (s.projections.size() < s.island_count) s.projections.resize(s.island_count);
    if (s.island_masses.size() < s.island_count) s.island_masses.resize(s.island_count);
    if (s.island_solver.size() < s.island_count) s.island_solver.resize(s.island_count);
    for (uint32_t island = 0; island < s.island_count; ++island) {
        s.island_solver[island] = island_solver_for(model, solvers, s, island);
        assemble_island(model, s, island, solvers.for_island(s, island), s.problems[island]);
        set_projection(model, s, island, s.problems[island]);
    }
}

}  // namespace pivot
