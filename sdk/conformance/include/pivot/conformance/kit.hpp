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

#include <pivot/lcp_data.hpp>
#include <pivot/pivot.h>

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
    std::function<sdk::LcpData()> problem;
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

// A solver instance made through the embedding API (pivot_solver_create),
// destroyed with it. Move-only.
class SolverInstance {
public:
    explicit SolverInstance(pivot_solver* solver) : solver_(solver) {}
    ~SolverInstance() { pivot_solver_destroy(solver_); }
    SolverInstance(SolverInstance&& other) noexcept : solver_(other.solver_) { other.solver_ = nullptr; }
    SolverInstance& operator=(SolverInstance&& other) noexcept;
    SolverInstance(const SolverInstance&) = delete;
    SolverInstance& operator=(const SolverInstance&) = delete;

    pivot_solver* get() const { return solver_; }
    // A deep copy (pivot_solver_clone); throws Error when the plugin cannot.
    SolverInstance clone() const;
    // Forgets history (pivot_solver_reset); throws Error on failure.
    void reset();
    // The plugin's own handle and function table, for the calls the kit
    // makes directly (reserve()).
    void* handle() const { return pivot_solver_instance(solver_); }
    const pivot_solver_functions& functions() const { return *pivot_solver_plugin_functions(solver_); }

private:
    pivot_solver* solver_ = nullptr;
};

// The solver under test and how the cases talk to it. Everything goes
// through the embedding API (<pivot/pivot.h> 0.11): an engine with only the
// --plugin files loaded, solver instances, and pivot_solver_solve, the
// host's checked call that a world's step makes too.
class Session {
public:
    // Loads the plugins and finds the solver; throws Error.
    explicit Session(RunnerOptions options);

    const pivot_plugin_info& solver() const { return solver_; }
    bool has(uint64_t capability) const { return (solver_.capabilities & capability) == capability; }
    // The plugin's instance functions (clone, reset...) and solver functions.
    const pivot_solver_functions& functions() const { return probe_.functions(); }
    const RunnerOptions& options() const { return options_; }
    const Expectations& expectations() const { return expectations_; }
    std::string describe_solver() const;

    // Why the solver's declared capabilities exclude the problem ("" if
    // they do not): the same rules as the host's solver chain.
    std::string incompatibility(const sdk::LcpData& problem) const;
    // The problem with the matrix the solver reads: dense when it declares
    // DENSE, else CSC only (as the host converts it).
    sdk::LcpData as_given(const sdk::LcpData& problem) const;

    // The residual a solution must reach (case_tolerance with --tolerance).
    double tolerance(const sdk::LcpData& problem) const;
    // What the solver's "tolerance" parameter is set to (none when it has no
    // such parameter): --option tolerance if given, else tolerance(problem)
    // within the parameter's allowed range.
    std::optional<double> solver_tolerance(const sdk::LcpData& problem) const;
    // Above this a claim of convergence is false: 2 x the larger of the two
    // (the factor for the rounding of the solver's own residual).
    double claim_limit(const sdk::LcpData& problem) const;

    // A fresh instance with the --option parameters and the "tolerance"
    // parameter set to solver_tolerance(problem). Throws Error.
    SolverInstance instance(const sdk::LcpData& problem) const;

    // Solves through pivot_solver_solve; `warm`: a guess
    // (PIVOT_SOLVE_WARM_START). An invalid problem is given to the plugin
    // as it is (the plugin must refuse it).
    Attempt solve(const SolverInstance& solver, const sdk::LcpData& given, const std::vector<double>* warm = nullptr,
                  double time_budget_seconds = 0.0) const;

    // Runs one case (catching exceptions as a failure).
    CaseResult run(const Case& c) const;

private:
    struct EngineDeleter {
        void operator()(pivot_engine* engine) const { pivot_engine_destroy(engine); }
    };
    RunnerOptions options_;
    std::unique_ptr<pivot_engine, EngineDeleter> engine_;  // declared first: destroyed after the instances
    pivot_plugin_info solver_{};
    nlohmann::json schema_;  // the solver's parameter schema (pivot_engine_plugin_json's "parameters")
    std::vector<std::string> capability_names_;
    SolverInstance probe_{nullptr};  // made with the --option values: checks them, and gives functions()
    Expectations expectations_;
};

// The message of the embedding API's last failure on this thread.
std::string last_error();

// Converts a command-line value ("1e-8", "true", "tanh", "[1,0,0]") to JSON:
// numbers, booleans and arrays as JSON, anything else as a string.
nlohmann::json parse_option_value(const std::string& text);

// The session run_main made for the solver under test: null before, and
// when the solver could not be loaded (every case then fails saying why).
// For a solver author's own GoogleTests in a program whose main calls
// run_main (examples/solver_conformance).
const Session* current_session();

// The runner's main: parses the options (anything not --gtest_* is ours),
// registers the cases as value-parameterized GoogleTests, runs them.
// Returns the process exit code (0: all passed; 1: failures; 2: usage).
int run_main(int argc, char** argv);

}  // namespace pivot::conformance
