// Stage solve: each island's problem (assemble_islands.cpp) through its
// solver chain, within the step budget, on the worker pool where the answer
// depends on the island only; then the impulses z applied in island order,
//     v+ = v* + Mbar^-1 J^T z
// (Mbar: the mass blocks' matrices, with a cable's strain rows eliminated,
// element_dynamics.cpp), the friction of redundant contact manifolds split
// by least norm (friction_split.cpp: the same v+), and kept as the next
// step's warm start.
#include <algorithm>
#include <chrono>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/error.hpp"
#include "common/logging.hpp"
#include "common/worker_pool.hpp"
#include "lcp/lcp_solver_chain.hpp"
#include "step/step_stages.hpp"

namespace pivot {

namespace {

// An island left unsolved because its matrix would be too large
// (kIslandTooLarge): a failure whose sentence says why.
ChainReport too_large_report(const WorldModel& model) {
    ChainReport report;
    report.failures.push_back(fmt::format(
        "its matrix would take more than max_assembled_values = {} values, and velocity PGS, which needs none, "
        "cannot take it (friction coupling blocks, or pivot.solver.velocity_pgs not loaded)",
        model.settings.max_assembled_values));
    return report;
}

// What the islands' task needs (WorkerPool::Task's context).
struct IslandSolveTask {
    const StepSolvers* solvers;
    StepScratch* scratch;
    const std::vector<uint32_t>* islands;  // the islands to solve, by index
    double budget;                         // s, 0 = none
    std::chrono::steady_clock::time_point deadline;
};

// Solves one island with the chains of `worker` into its own x and report.
void solve_one_island(void* context, uint32_t worker, uint32_t index) {
    const auto& task = *static_cast<const IslandSolveTask*>(context);
    StepScratch& s = *task.scratch;
    const uint32_t island = (*task.islands)[index];
    // What the budget leaves this island (at least a token: a solver
    // that honours budgets then returns its warm start's answer).
    const double left =
        task.budget > 0.0
            ? std::max(std::chrono::duration<double>(task.deadline - std::chrono::steady_clock::now()).count(), 1e-9)
            : 0.0;
    s.island_reports[island] =
        task.solvers->for_island(s, island, worker).solve(s.problems[island], s.island_x[island], true, left);
}

}  // namespace

void solve_islands(const WorldModel& model, const WorldState& state, const StepSolvers& solvers, StepScratch& s,
                   StepStatistics& statistics) {
    // The step budget: the solves end when the stages after them would
    // overrun it (WorldSettings::step_budget, or the step_time_limit guard
    // when that is shorter).
    const double budget = effective_step_budget(model.settings);
    const auto deadline = s.step_start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                             std::chrono::duration<double>(budget - s.after_solve_seconds));
    const double h = model.settings.timestep;
    s.v_next = s.v_free;
    s.impulses.assign(state.joint_impulses.size(), 0.0);
    s.rope_tensions.assign(state.rope_tensions.size(), 0.0);
    if (s.island_x.size() < s.island_count) s.island_x.resize(s.island_count);
    if (s.island_reports.size() < s.island_count) s.island_reports.resize(s.island_count);

    // The warm starts: last step's impulses of the same joint row slots and
    // contacts (looked up by contact id in the contact stage).
    s.parallel_islands.clear();
    s.serial_islands.clear();
    for (uint32_t island = 0; island < s.island_count; ++island) {
        LcpProblem& p = s.problems[island];
        const uint32_t first = s.island_row_start[island];
        std::vector<double>& x = s.island_x[island];
        x.resize(p.n);
        for (uint32_t k = 0; k < p.n; ++k) {
            const ProblemRow& row = s.rows[s.island_rows[first + k]];
            if (row.contact >= 0) {
                x[k] = s.next_contact_impulses[static_cast<size_t>(row.contact) * WorldState::kMaxContactRows +
                                               row.slot];
                continue;
            }
            if (row.rope >= 0) {
                x[k] = h * state.rope_tensions[static_cast<uint32_t>(row.rope)];
                continue;
            }
            const JointGroup& jg = model.joint_groups[row.joint_group];
            x[k] = state.joint_impulses[jg.impulse_offset + row.member * jg.max_rows + row.slot];
        }
        if (s.island_solver[island] == StepScratch::kIslandTooLarge) {
            s.island_reports[island] = too_large_report(model);
            continue;
        }
        if (model.lcp_observer) model.lcp_observer(island, p);
        // On the pool: islands whose answer depends on the island only
        // (deterministic solvers) and that call no friction plugin back
        // (cone projections run on the step's thread).
        const bool shareable = solvers.pool != nullptr && !p.has_blocks() && solvers.for_island(s, island).deterministic();
        (shareable ? s.parallel_islands : s.serial_islands).push_back(island);
    }
    IslandSolveTask task{&solvers, &s, &s.serial_islands, budget, deadline};
    for (uint32_t k = 0; k < s.serial_islands.size(); ++k) solve_one_island(&task, 0, k);
    task.islands = &s.parallel_islands;
    if (solvers.pool != nullptr) {
        solvers.pool->run(static_cast<uint32_t>(s.parallel_islands.size()), solve_one_island, &task);
        statistics.pooled_islands = static_cast<uint32_t>(s.parallel_islands.size());
    }

    // The answers, in island order.
    for (uint32_t island = 0; island < s.island_count; ++island) {
        const LcpProblem& p = s.problems[island];
        const uint32_t first = s.island_row_start[island];
        const ChainReport& report = s.island_reports[island];
        if (report.unusable) {
            // Every solver of the island's chain is disabled (a defective
            // plugin): the step stops here, the world keeps its last state.
            throw Error(fmt::format("step at t = {}: island {} ({} rows) has no usable solver: {}", state.time, island,
                                    p.n, fmt::join(report.failures, "; ")));
        }
        std::vector<double>& x = s.island_x[island];
        if (s.island_solver[island] == StepScratch::kIslandDirect) ++statistics.direct_islands;
        if (s.island_solver[island] == StepScratch::kIslandNewton) ++statistics.newton_islands;
        const bool large = s.island_solver[island] == StepScratch::kIslandLarge;
        if (large) ++statistics.large_islands;
        statistics.solver_iterations += report.iterations;
        if (report.solved && report.fallbacks > 0) ++statistics.fallbacks;  // solved by a fallback
        if (!report.solved && report.approximate &&
            (report.budget_exhausted || (large && report.status == PIVOT_SOLVE_MAX_ITERATIONS))) {
            // Cut short by the step budget or by a large island's sweeps
            // (its work budget): the best answer is applied and its
            // residual reported; not a failure.
            ++statistics.budget_limited;
        } else if (!report.solved) {
            // Counted and logged. The best usable answer (finite, within its
            // bounds) is applied; with none at all, the island's constraints
            // are skipped for this step (zero impulses).
            ++statistics.solver_failures;
            logger().warn("step at t = {}: no solver solved island {} ({} rows) to the accepted residual; {}: {}",
                          state.time, island, p.n,
                          report.approximate ? fmt::format("the best answer (residual {:.3g}) is used", report.residual)
                                             : std::string("its constraints are skipped for this step"),
                          report.failures.empty() ? "" : report.failures.back());
            if (!report.approximate) std::fill(x.begin(), x.end(), 0.0);
        }
        statistics.solver_residual_max = std::max(statistics.solver_residual_max, report.residual);
        for (uint32_t k = 0; k < p.n; ++k) {
            const ProblemRow& row = s.rows[s.island_rows[first + k]];
            if (row.contact >= 0) {
                s.next_contact_impulses[static_cast<size_t>(row.contact) * WorldState::kMaxContactRows + row.slot] =
                    x[k];
            } else if (row.rope >= 0) {
                s.rope_tensions[static_cast<uint32_t>(row.rope)] = x[k] / h;
            } else {
                const JointGroup& jg = model.joint_groups[row.joint_group];
                s.impulses[jg.impulse_offset + row.member * jg.max_rows + row.slot] = x[k];
            }
            for (uint32_t b = 0; b < row.block_count; ++b) {
                const MassBlock& block = model.blocks[row.blocks[b].block];
                const double* w = s.response.data() + row.blocks[b].response;
                double* v = s.v_next.data() + block.v_offset;
                for (uint32_t i = 0; i < block.nv; ++i) v[i] += w[i] * x[k];
            }
        }
        if (report.solved) split_friction_least_norm(model, s, island);  // unique per-contact forces: same v+
    }
}

}  // namespace pivot
