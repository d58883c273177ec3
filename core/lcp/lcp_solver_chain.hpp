#pragma once
// Solving the per-step problem with solver plugins: a primary solver and a
// configured fallback chain (docs/solvers.md).
//
// For each solver in order the chain
//  1. matches the problem to the solver's capabilities: converts the matrix
//     (dense <-> CSC), and for a solver without FRICTION_INDEX iterates the
//     friction bounds itself (bounds mu |x_normal| frozen, solve, update,
//     until consistent); refuses the pairing with a reason when it cannot
//     (a non-symmetric problem for a symmetric-only solver, a boxed problem
//     for a standard-LCP-only solver);
//  2. calls it through checked_solve (non-finite or out-of-bound results are
//     a failure and never used);
//  3. accepts x only if the host's own natural-map residual is within the
//     chain's acceptance threshold; otherwise the next solver starts, from
//     the same warm start.
// The warm start belongs to the caller (impulses keyed by persistent ids),
// so the solver can be swapped between two solves and the next one starts
// warm. Failures are counted and described for telemetry; nothing allocates
// after warm-up on the success path.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "lcp/lcp_problem.hpp"
#include "plugin_host/plugin_instance.hpp"
#include "plugin_host/plugin_output.hpp"
#include "plugin_host/plugin_registry.hpp"

namespace pivot {

struct CallResult;

// A solver and its options (a JSON object of its parameters).
struct SolverChoice {
    std::string id;  // full id or short name ("dantzig")
    nlohmann::json options = nlohmann::json::object();
};

struct ChainReport {
    bool solved = false;               // x holds an accepted solution
    bool approximate = false;          // not solved, but x holds the best usable answer a solver
                                       // gave (finite, within bounds; residual above acceptance)
    std::string_view solver_id;        // the solver that produced it (or the last tried);
                                       // valid until the chain's solvers change
    pivot_solve_status status = PIVOT_SOLVE_CONVERGED;  // that solver's own status
    uint32_t iterations = 0;           // of that solver (summed over friction rounds)
    uint32_t friction_rounds = 0;      // host friction-bound iterations (0: solver handled findex)
    uint32_t fallbacks = 0;            // solvers that failed before the accepted one
    double residual = 0.0;             // host natural-map residual of x
    double solver_residual = 0.0;      // what the solver reported
    double time_seconds = 0.0;         // wall time of the whole chain
    bool unusable = false;             // every solver of the chain is disabled (failures say why):
                                       // the step cannot go on
    bool budget_exhausted = false;     // the time budget ended the chain before an accepted answer
    std::vector<std::string> failures; // one sentence per failed solver (failure path only)
};

// "converged", "max_iterations", "ray_termination", ... (report files).
const char* solve_status_name(uint32_t status);

class LcpSolverChain {
public:
    // `acceptance` is the largest host natural-map residual accepted as a
    // solution (impulse units). Throws pivot::Error for an unknown solver id
    // or invalid options, naming them.
    LcpSolverChain(const PluginRegistry& registry, SolverChoice primary, std::vector<SolverChoice> fallbacks = {},
                   double acceptance = 1e-6);

    // Swap the primary solver (or its options) between two solves; the
    // fallbacks stay. Throws, leaving the chain unchanged, on a bad choice.
    void set_primary(SolverChoice primary);
    void set_fallbacks(std::vector<SolverChoice> fallbacks);
    void set_acceptance(double acceptance) { acceptance_ = acceptance; }
    // A chain of the same solvers with instances of its own (the plugins'
    // clone()), for another thread. Throws when a solver cannot be cloned.
    std::unique_ptr<LcpSolverChain> clone() const;
    // Whether every solver of the chain declares DETERMINISTIC (same input,
    // same bits out): then which instance solves a problem does not matter.
    bool deterministic() const;

    const std::string& primary_id() const;
    // Whether the primary solver reads the dense matrix (else CSC): the
    // caller builds that form and no conversion is needed.
    bool primary_reads_dense() const;
    // Whether the primary solver reads the factored form (ABI 1.4): the
    // caller then need not assemble A at all (a fallback gets it built).
    bool primary_reads_factored() const;
    // Whether a solver of the chain reads the mass blocks (ABI 1.5): the
    // caller then gives them with the factored form.
    bool reads_mass_blocks() const;
    double acceptance() const { return acceptance_; }

    // Solves `problem`. x: n values; on input the warm start when
    // `warm_start`, on output the solution when report.solved, or the best
    // usable answer when report.approximate (unchanged otherwise).
    // time_budget: seconds for the whole chain, 0 = none. Each solver call
    // gets what is left (solvers that declare TIME_BUDGET honour it); once
    // it is spent no further solver starts (report.budget_exhausted) and the
    // best usable answer so far is the result, except that a solver which
    // honours budgets is still called, with what is left, when there is no
    // usable answer yet (it returns its warm start at least).
    ChainReport solve(const LcpProblem& problem, std::vector<double>& x, bool warm_start, double time_budget = 0.0);

    // Why `solver` cannot take `problem` even with the chain's conversions,
    // or "" when it can.
    static std::string incompatibility(const PluginRecord& solver, const LcpProblem& problem);

private:
    struct CloneTag {};
    LcpSolverChain(const LcpSolverChain& other, CloneTag);
    struct Stage {
        std::string id;
        nlohmann::json options;  // as given, to recognize a repeated solver
        PluginInstance instance;
        uint32_t reserved_n = 0;    // sizes given to the solver's reserve()
        uint32_t reserved_nnz = 0;
        uint32_t broken_in_a_row = 0;  // answers refused as breaking the ABI, consecutively
        std::string disabled;          // why the chain no longer calls it ("" = enabled)
    };
    // A solver that breaks the ABI's contract this many solves in a row (or
    // returns PIVOT_FATAL once) is disabled for the chain's world, with one
    // error logged: a defect is not retried silently every step.
    static constexpr uint32_t kBrokenAnswersToDisable = 3;
    void note_refusal(Stage& stage, const CallResult& r);
    // The largest residual accepted at w = A x + b: the absolute threshold,
    // or rounding at the problem's scale when that is larger
    // (lcp_rounding_floor; O(n), so asked only when the threshold is passed).
    double accepted_residual(const pivot_lcp_problem& problem, const double* w) const;
    // Sizes every solver's workspace for `problem` (reserve() of the ABI), so
    // that solving, and a fallback taking over, allocates nothing later.
    void reserve_for(const LcpProblem& problem);
    Stage make_stage(const SolverChoice& choice) const;
    // One solver on the problem, with conversions. True when accepted.
    bool attempt(Stage& stage, const LcpProblem& problem, const std::vector<double>& start, bool warm_start,
                 double time_budget, ChainReport& report);
    void remember_if_best(double residual);  // keeps x_try_ if it is the best usable answer
    bool solve_with_frozen_friction(Stage& stage, const LcpProblem& problem, bool warm_start, double time_budget,
                                    ChainReport& report);

    const PluginRegistry* registry_;
    std::vector<Stage> stages_;  // primary first
    double acceptance_;

    // Scratch, reused between solves (sized at the first solve of a size).
    LcpProblem converted_;  // matrix converted to what a solver reads
    LcpProblem frozen_;     // friction bounds frozen for solvers without findex
    PluginOutput<double> x_try_;  // what the solver writes (guarded: plugin_output.hpp)
    std::vector<double> x_best_;  // the usable answer with the smallest residual so far
    double best_residual_ = 0.0;
    bool have_best_ = false;
    PluginOutput<double> w_;
    std::vector<double> scratch_;  // block residual
};

}  // namespace pivot
