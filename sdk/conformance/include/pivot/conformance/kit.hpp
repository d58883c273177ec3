#pragma once
// The solver conformance kit: named cases run against one solver plugin
// given at run time (`--plugin FILE --solver ID`), as GoogleTests. See
// sdk/conformance/README.md for the command line, the cases and the
// expectation files.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lcp/lcp_problem.hpp"
#include "plugin_host/plugin_instance.hpp"
#include "plugin_host/plugin_registry.hpp"
#include "pivot/conformance/judge.hpp"

namespace pivot::conformance {

class Session;

enum class CaseKind {
    solvable,       // has a solution: must be solved (residual <= tolerance)
    no_solution,    // has none: must be reported as not solved, never faked
    invalid_input,  // NaN / Inf / empty bounds / bad friction index: must be refused
    behaviour       // a property of the instance: determinism, clone, warm start...
};

// The result of one case: skipped (with the reason) or an outcome.
struct CaseResult {
    std::optional<std::string> skipped;  // why the case does not apply to this solver
    Outcome outcome;

    static CaseResult skip(std::string why) { return {std::move(why), {}}; }
    static CaseResult of(Outcome o) { return {std::nullopt, std::move(o)}; }
};

struct Case {
    std::string name;     // [A-Za-z0-9_], unique: the GoogleTest name and the expectation-file key
    CaseKind kind = CaseKind::solvable;
    std::string summary;  // what it checks and why, one line
    // The problem (for behaviour cases: unused, they build their own).
    std::function<LcpProblem()> problem;
    // Behaviour cases only.
    std::function<CaseResult(const Session&)> behaviour;
};

// GoogleTest prints a case by its name.
void PrintTo(const Case& c, std::ostream* out);

// Every case, the file-based ones from `data_dir` (lcp-bench/*.txt,
// siconos/lcp/*.dat, siconos/fc3d/*.dat) when that folder exists; a missing
// folder is noted in `notes`.
std::vector<Case> conformance_cases(const std::filesystem::path& data_dir, std::vector<std::string>* notes = nullptr);

const char* kind_name(CaseKind kind);

// ---------------------------------------------------------------- the session
struct RunnerOptions {
    std::vector<std::filesystem::path> plugins;  // files or folders to load
    std::string solver;                          // id or short name; may be empty if one solver is loaded
    nlohmann::json params = nlohmann::json::object();  // --option KEY=VALUE
    double tolerance = 1e-8;                     // --tolerance
    std::filesystem::path expectations;          // --expect FILE (empty: none)
    std::filesystem::path data_dir;              // --data-dir (empty: the built-in default)
};

// The default --tolerance: 1e-8, what a pivoting method reaches on these
// problems with double precision; iterative solvers are run with 1e-6
// (tests/conformance/CMakeLists.txt).
inline constexpr double default_tolerance = 1e-8;

// The solver under test and how the cases talk to it. Everything goes
// through the host: the PluginRegistry, PluginInstance and checked_solve.
class Session {
public:
    // Loads the plugins and finds the solver; throws pivot::Error.
    explicit Session(RunnerOptions options);

    const PluginRecord& solver() const { return *solver_; }
    const RunnerOptions& options() const { return options_; }
    const Expectations& expectations() const { return expectations_; }
    std::string describe_solver() const;

    // Why the solver's declared capabilities exclude the problem ("" if
    // they do not): the same rules as the host's solver chain.
    std::string incompatibility(const LcpProblem& problem) const;
    // The problem with the matrix the solver reads: dense when it declares
    // DENSE, else CSC only (as the host converts it).
    LcpProblem as_given(const LcpProblem& problem) const;

    // The residual a solution must reach (case_tolerance with --tolerance).
    double tolerance(const LcpProblem& problem) const;
    // What the solver's "tolerance" parameter is set to (none when it has no
    // such parameter): --option tolerance if given, else tolerance(problem)
    // within the parameter's allowed range.
    std::optional<double> solver_tolerance(const LcpProblem& problem) const;
    // Above this a claim of convergence is false: 2 x the larger of the two
    // (the factor for the rounding of the solver's own residual).
    double claim_limit(const LcpProblem& problem) const;

    // A fresh instance with the --option parameters and the "tolerance"
    // parameter set to solver_tolerance(problem). Throws pivot::Error.
    PluginInstance instance(const LcpProblem& problem) const;

    // Solves through checked_solve; `warm`: a guess (PIVOT_SOLVE_WARM_START).
    Attempt solve(const PluginInstance& solver, const LcpProblem& given, const std::vector<double>* warm = nullptr,
                  double time_budget_seconds = 0.0) const;

    // Runs one case (catching pivot::Error as a failure).
    CaseResult run(const Case& c) const;

private:
    RunnerOptions options_;
    std::unique_ptr<PluginRegistry> registry_;
    const PluginRecord* solver_ = nullptr;
    Expectations expectations_;
};

// The runner's main: parses the options (anything not --gtest_* is ours),
// registers the cases as value-parameterized GoogleTests, runs them.
// Returns the process exit code (0: all passed; 1: failures; 2: usage).
int run_main(int argc, char** argv);

}  // namespace pivot::conformance
