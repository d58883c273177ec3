#include "lcp/lcp_solver_chain.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/error.hpp"
#include "common/logging.hpp"
#include "plugin_host/checked_calls.hpp"
#include "plugin_host/lcp_residual.hpp"
#include "plugin_host/parameters.hpp"

namespace pivot {

namespace {

// Rounds of the host's friction-bound iteration for solvers without a
// friction index. Each round is a full solve; contact problems settle in a
// handful (the bounds converge like a fixed point of mu |x_n|), so reaching
// this cap means the iteration is cycling and another solver should try.
constexpr uint32_t kMaxFrictionRounds = 60;

const char* status_text(uint32_t status) {
    switch (status) {
        case PIVOT_SOLVE_CONVERGED: return "converged";
        case PIVOT_SOLVE_MAX_ITERATIONS: return "max_iterations";
        case PIVOT_SOLVE_TIME_BUDGET: return "time_budget";
        case PIVOT_SOLVE_RAY_TERMINATION: return "ray_termination";
        case PIVOT_SOLVE_INFEASIBLE: return "infeasible";
        case PIVOT_SOLVE_UNBOUNDED: return "unbounded";
        case PIVOT_SOLVE_NUMERICAL_ERROR: return "numerical_error";
        case PIVOT_SOLVE_INVALID_PROBLEM: return "invalid_problem";
        case PIVOT_SOLVE_UNSUPPORTED: return "unsupported";
        case PIVOT_SOLVE_OUT_OF_MEMORY: return "out_of_memory";
    }
    return "unknown";
}

// The problem with its matrix also in the form the solver reads. Copy
// assignment reuses the vectors' storage, so this allocates only when the
// problem grows.
// A solver that does not declare PIVOT_SOLVER_CAP_BLOCK_PROJECTION sees no
// blocks (the box rows stand for them).
void hide_blocks(pivot_lcp_problem& view) {
    view.block_count = 0;
    view.block_first_row = nullptr;
    view.project = nullptr;
    view.project_context = nullptr;
}

void convert_matrix(const LcpProblem& from, bool dense, LcpProblem& to) {
    to = from;
    if (dense && !to.has_dense()) to.make_dense();
    if (!dense && !to.has_sparse()) to.make_sparse();
}

// What is left of a time budget (s) since `start`.
double seconds_left(double budget, std::chrono::steady_clock::time_point start) {
    return budget - std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

const char* solve_status_name(uint32_t status) { return status_text(status); }

LcpSolverChain::LcpSolverChain(const PluginRegistry& registry, SolverChoice primary,
                               std::vector<SolverChoice> fallbacks, double acceptance)
    : registry_(&registry), acceptance_(acceptance) {
    stages_.push_back(make_stage(primary));
    set_fallbacks(std::move(fallbacks));
}

LcpSolverChain::Stage LcpSolverChain::make_stage(const SolverChoice& choice) const {
    const PluginRecord& record = registry_->require(PIVOT_KIND_SOLVER, choice.id);
    auto params = pack_params(record, ParamScope::instance, choice.options, fmt::format("solver '{}' options", record.id));
    return Stage{record.id, choice.options, PluginInstance(record, params), 0, 0, 0, {}};
}

void LcpSolverChain::set_primary(SolverChoice primary) { stages_.front() = make_stage(primary); }

void LcpSolverChain::set_fallbacks(std::vector<SolverChoice> fallbacks) {
    std::vector<Stage> stages;
    for (const auto& choice : fallbacks) stages.push_back(make_stage(choice));
    stages_.resize(1);
    for (auto& s : stages) stages_.push_back(std::move(s));
}

const std::string& LcpSolverChain::primary_id() const { return stages_.front().id; }

bool LcpSolverChain::primary_reads_dense() const {
    return stages_.front().instance.plugin().has(PIVOT_SOLVER_CAP_DENSE);
}

bool LcpSolverChain::primary_reads_factored() const {
    return stages_.front().instance.plugin().has(PIVOT_SOLVER_CAP_FACTORED);
}

std::unique_ptr<LcpSolverChain> LcpSolverChain::clone() const {
    return std::unique_ptr<LcpSolverChain>(new LcpSolverChain(*this, CloneTag{}));
}

LcpSolverChain::LcpSolverChain(const LcpSolverChain& other, CloneTag)
    : registry_(other.registry_), acceptance_(other.acceptance_) {
    for (const Stage& stage : other.stages_) {
        stages_.push_back(Stage{stage.id, stage.options, stage.instance.clone(), 0, 0, 0, stage.disabled});
    }
}

bool LcpSolverChain::deterministic() const {
    return std::all_of(stages_.begin(), stages_.end(), [](const Stage& stage) {
        return stage.instance.plugin().has(PIVOT_SOLVER_CAP_DETERMINISTIC);
    });
}

bool LcpSolverChain::reads_mass_blocks() const {
    for (const Stage& stage : stages_) {
        if (stage.instance.plugin().has(PIVOT_SOLVER_CAP_MASS_BLOCKS)) return true;
    }
    return false;
}

std::string LcpSolverChain::incompatibility(const PluginRecord& solver, const LcpProblem& problem) {
    if (!solver.has(PIVOT_SOLVER_CAP_DENSE) && !solver.has(PIVOT_SOLVER_CAP_SPARSE) && !problem.has_factored() &&
        problem.n > 0) {
        return fmt::format("solver '{}' reads only the factored form of the problem, which this one does not have "
                           "(a problem from a file, or with friction coupling blocks)",
                           solver.id);
    }
    const bool boxed = solver.has(PIVOT_SOLVER_CAP_BOXED);
    if (problem.has_findex() && !solver.has(PIVOT_SOLVER_CAP_FRICTION_INDEX) && !boxed) {
        return fmt::format("solver '{}' accepts neither friction indices nor boxed problems", solver.id);
    }
    if (!problem.is_standard_lcp() && !boxed) {
        return fmt::format("solver '{}' only solves standard LCPs (lo = 0, hi = inf), and this problem has other "
                           "bounds",
                           solver.id);
    }
    if (problem.is_standard_lcp() && !solver.has(PIVOT_SOLVER_CAP_STANDARD_LCP) && !boxed) {
        return fmt::format("solver '{}' does not accept standard LCPs", solver.id);
    }
    if ((problem.matrix_properties & PIVOT_MATRIX_SYMMETRIC) == 0 && !solver.has(PIVOT_SOLVER_CAP_NONSYMMETRIC)) {
        return fmt::format("solver '{}' needs a symmetric matrix and this one is not symmetric (coupling blocks "
                           "such as the polyhedral cone friction model's make non-symmetric problems): use a "
                           "solver that declares 'nonsymmetric', e.g. lemke",
                           solver.id);
    }
    return {};
}

ChainReport LcpSolverChain::solve(const LcpProblem& problem, std::vector<double>& x, bool warm_start,
                                  double time_budget) {
    const auto start_time = std::chrono::steady_clock::now();
    ChainReport report;
    if (x.size() != problem.n) x.assign(problem.n, 0.0), warm_start = false;
    have_best_ = false;
    reserve_for(problem);
    uint32_t attempted = 0;
    for (size_t s = 0; s < stages_.size(); ++s) {
        Stage& stage = stages_[s];
        if (!stage.disabled.empty()) continue;
        // A fallback identical to a solver that already failed on this
        // problem (the default fallback PGS behind a PGS primary) would fail
        // the same way, deterministically: skipped.
        if (std::any_of(stages_.begin(), stages_.begin() + static_cast<std::ptrdiff_t>(s), [&](const Stage& earlier) {
                return earlier.id == stage.id && earlier.options == stage.options;
            })) {
            continue;
        }
        // The budget left for this solver (the chain's budget is one).
        double left = 0.0;
        if (time_budget > 0.0) {
            left = seconds_left(time_budget, start_time);
            if (left <= 0.0) {
                report.budget_exhausted = true;
                if (have_best_ || !stage.instance.plugin().has(PIVOT_SOLVER_CAP_TIME_BUDGET)) {
                    if (attempted > 0) report.failures.push_back("the time budget is spent");
                    continue;  // no solver that would overrun it starts
                }
                left = 1e-9;  // no usable answer yet: the solver's warm start, at least
            }
        }
        // Counted: the solvers that failed before the one tried now.
        if (attempted > 0) report.fallbacks = attempted;
        ++attempted;
        report.solver_id = stage.id;
        if (attempt(stage, problem, x, warm_start, left, report)) {
            report.solved = true;
            report.budget_exhausted = false;
            x.assign(x_try_.begin(), x_try_.end());
            break;
        }
        if (time_budget > 0.0 && report.status == PIVOT_SOLVE_TIME_BUDGET) report.budget_exhausted = true;
    }
    const auto disabled = [](const Stage& stage) { return !stage.disabled.empty(); };
    if (attempted == 0 && std::all_of(stages_.begin(), stages_.end(), disabled)) {
        report.unusable = true;
        for (const Stage& stage : stages_) report.failures.push_back(stage.disabled);
    }
    if (!report.solved && have_best_) {
        report.approximate = true;
        report.residual = best_residual_;
        x.assign(x_best_.begin(), x_best_.end());
    }
    report.time_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_time).count();
    if (!report.solved) {
        logger().debug("no solver solved the {}-row problem: {}", problem.n, fmt::join(report.failures, "; "));
    } else if (report.fallbacks > 0) {
        logger().debug("solver '{}' took over after {} failure(s): {}", report.solver_id, report.fallbacks,
                      fmt::join(report.failures, "; "));
    }
    return report;
}

void LcpSolverChain::reserve_for(const LcpProblem& problem) {
    // The CSC size a solver will see: the problem's, or the dense matrix's
    // nonzeros when the chain converts (bounded by n^2).
    const size_t stored = problem.has_sparse()      ? problem.values.size()
                          : !problem.dense.empty()  ? problem.dense.size()
                                                    : problem.factored_nonzeros();
    const auto nnz = static_cast<uint32_t>(std::min<size_t>(stored, UINT32_MAX));
    for (Stage& stage : stages_) {
        if (problem.n <= stage.reserved_n && nnz <= stage.reserved_nnz) continue;
        // Past the first size, by a quarter more at least: a pile whose
        // contacts grow by a few a step would otherwise have its solvers'
        // workspace reallocated (and copied) step after step.
        const auto grown = [](uint32_t reserved, uint32_t needed) {
            if (needed <= reserved) return reserved;
            if (reserved == 0) return needed;
            return std::max(needed, static_cast<uint32_t>(std::min<uint64_t>(reserved + uint64_t{reserved} / 4,
                                                                             UINT32_MAX)));
        };
        stage.reserved_n = grown(stage.reserved_n, problem.n);
        stage.reserved_nnz = grown(stage.reserved_nnz, nnz);
        const auto& f = stage.instance.plugin().solver;
        if (f.reserve == nullptr || stage.instance.fatal()) continue;
        const pivot_status status = f.reserve(stage.instance.handle(), stage.reserved_n, stage.reserved_nnz);
        if (status == PIVOT_FATAL) stage.instance.mark_fatal();  // its next solve is refused, the stage disabled
        if (status != PIVOT_OK && status != PIVOT_WARNING) {
            logger().warn("{}: reserve({}, {}) failed; it may allocate while solving", describe(stage.instance.plugin()),
                          stage.reserved_n, stage.reserved_nnz);
        }
    }
}

bool LcpSolverChain::attempt(Stage& stage, const LcpProblem& problem, const std::vector<double>& start,
                             bool warm_start, double time_budget, ChainReport& report) {
    const PluginRecord& solver = stage.instance.plugin();
    if (std::string why = incompatibility(solver, problem); !why.empty()) {
        report.failures.push_back(why);
        return false;
    }
    // Give the solver the matrix it reads, converting only when needed.
    const bool reads_dense = solver.has(PIVOT_SOLVER_CAP_DENSE);
    const bool reads_sparse = solver.has(PIVOT_SOLVER_CAP_SPARSE);
    const bool reads_factored = solver.has(PIVOT_SOLVER_CAP_FACTORED) && problem.has_factored();
    const LcpProblem* given = &problem;
    if (!((reads_dense && !problem.dense.empty()) || (reads_sparse && problem.has_sparse()) || reads_factored ||
          problem.n == 0)) {
        convert_matrix(problem, reads_dense, converted_);
        given = &converted_;
    }
    x_try_.assign(start.begin(), start.end());
    w_.resize(problem.n);
    scratch_.resize(problem.n);
    if (given->has_findex() && !solver.has(PIVOT_SOLVER_CAP_FRICTION_INDEX)) {
        return solve_with_frozen_friction(stage, *given, warm_start, time_budget, report);
    }
    pivot_lcp_problem view = given->view();
    if (!solver.has(PIVOT_SOLVER_CAP_BLOCK_PROJECTION)) hide_blocks(view);
    pivot_solve_options options{sizeof(options), warm_start ? PIVOT_SOLVE_WARM_START : 0u, time_budget};
    pivot_solve_report solver_report{};
    solver_report.struct_size = sizeof(solver_report);
    SolveResult r = checked_solve(stage.instance, view, options, guarded(x_try_), guarded(w_), solver_report);
    report.status = static_cast<pivot_solve_status>(solver_report.status);
    report.iterations = solver_report.iterations;
    report.solver_residual = solver_report.residual;
    report.friction_rounds = 0;
    note_refusal(stage, r);
    if (!r.ok()) {
        report.failures.push_back(std::move(r.message));
        return false;
    }
    // With block projections the problem's own residual (e.g. the circular
    // cone's), whether or not this solver used them: a box answer is
    // accepted only where it also solves the cone.
    if (problem.has_blocks()) r.residual = lcp_block_residual(given->view(), x_try_.data(), w_.data(), scratch_.data());
    report.residual = r.residual;
    remember_if_best(r.residual);
    const double accepted = r.residual > acceptance_ ? accepted_residual(given->view(), w_.data()) : acceptance_;
    if (r.residual > accepted) {
        report.failures.push_back(fmt::format("solver '{}' stopped ({}) at natural-map residual {:.3g}, above the "
                                              "accepted {:.3g}",
                                              stage.id, status_text(solver_report.status), r.residual, accepted));
        return false;
    }
    return true;
}

double LcpSolverChain::accepted_residual(const pivot_lcp_problem& problem, const double* w) const {
    return std::max(acceptance_, lcp_rounding_floor(problem, w));
}

void LcpSolverChain::note_refusal(Stage& stage, const CallResult& r) {
    stage.broken_in_a_row = r.broken ? stage.broken_in_a_row + 1 : 0;
    if (r.status != PIVOT_FATAL && stage.broken_in_a_row < kBrokenAnswersToDisable) return;
    stage.disabled = r.status == PIVOT_FATAL
                         ? fmt::format("solver '{}' is disabled for this world: it returned FATAL ({})", stage.id,
                                       r.message)
                         : fmt::format("solver '{}' is disabled for this world: its last {} answers broke the "
                                       "plugin ABI's contract (last: {})",
                                       stage.id, kBrokenAnswersToDisable, r.message);
    logger().error("{}", stage.disabled);
}

void LcpSolverChain::remember_if_best(double residual) {
    if (have_best_ && residual >= best_residual_) return;
    x_best_.assign(x_try_.begin(), x_try_.end());
    best_residual_ = residual;
    have_best_ = true;
}

bool LcpSolverChain::solve_with_frozen_friction(Stage& stage, const LcpProblem& problem, bool warm_start,
                                                double time_budget, ChainReport& report) {
    // Friction rows get plain bounds mu_lo |x_n|, mu_hi |x_n| from the
    // current normal impulses; without a warm start the first round is
    // frictionless (bounds 0), which gives the normals to start from.
    frozen_ = problem;
    frozen_.findex.assign(problem.n, -1);
    const pivot_lcp_problem real = problem.view();

    report.iterations = 0;
    bool warm = warm_start;
    const auto start_time = std::chrono::steady_clock::now();
    for (uint32_t round = 1; round <= kMaxFrictionRounds; ++round) {
        double left = 0.0;  // the rounds share the solver's budget
        if (time_budget > 0.0) {
            left = seconds_left(time_budget, start_time);
            if (left <= 0.0 && round > 1) {
                report.status = PIVOT_SOLVE_TIME_BUDGET;
                report.failures.push_back(fmt::format("solver '{}' with the host's friction-bound iteration: the time "
                                                      "budget ended it after {} rounds at natural-map residual {:.3g}",
                                                      stage.id, round - 1, report.residual));
                return false;
            }
            left = std::max(left, 1e-9);
        }
        for (uint32_t i = 0; i < problem.n; ++i) {
            const int32_t j = problem.findex[i];
            if (j < 0) continue;
            const double normal = (warm || round > 1) ? std::abs(x_try_[j]) : 0.0;
            frozen_.lo[i] = problem.lo[i] * normal;
            frozen_.hi[i] = problem.hi[i] * normal;
        }
        pivot_lcp_problem view = frozen_.view();
        if (!stage.instance.plugin().has(PIVOT_SOLVER_CAP_BLOCK_PROJECTION)) hide_blocks(view);
        pivot_solve_options options{sizeof(options), warm || round > 1 ? PIVOT_SOLVE_WARM_START : 0u, left};
        pivot_solve_report solver_report{};
        solver_report.struct_size = sizeof(solver_report);
        SolveResult r = checked_solve(stage.instance, view, options, guarded(x_try_), guarded(w_), solver_report);
        report.status = static_cast<pivot_solve_status>(solver_report.status);
        report.iterations += solver_report.iterations;
        report.solver_residual = solver_report.residual;
        report.friction_rounds = round;
        note_refusal(stage, r);
        if (!r.ok()) {
            report.failures.push_back(fmt::format("{} (friction round {})", r.message, round));
            return false;
        }
        // The real residual, with the friction index.
        lcp_multiply(real, x_try_.data(), w_.data());
        report.residual = lcp_block_residual(real, x_try_.data(), w_.data(), scratch_.data());
        if (report.residual <= acceptance_ || report.residual <= accepted_residual(real, w_.data())) return true;
        remember_if_best(report.residual);
    }
    report.failures.push_back(fmt::format("solver '{}' with the host's friction-bound iteration: {} rounds left the "
                                          "natural-map residual at {:.3g}, above the accepted {:.3g}",
                                          stage.id, kMaxFrictionRounds, report.residual, acceptance_));
    return false;
}

}  // namespace pivot
