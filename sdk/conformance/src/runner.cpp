// The runner: the Session (the solver under test, reached through the
// host), the GoogleTest suites the cases are instantiated in, and main().
#include <filesystem>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <iostream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "plugin_host/checked_calls.hpp"
#include "plugin_host/parameters.hpp"
#include "pivot/conformance/kit.hpp"

#ifndef PIVOT_CONFORMANCE_RELATIVE_DATA_DIR
#define PIVOT_CONFORMANCE_RELATIVE_DATA_DIR "../share/pivot/conformance"
#endif
#ifndef PIVOT_CONFORMANCE_DATA_DIR
#define PIVOT_CONFORMANCE_DATA_DIR ""
#endif

namespace pivot::conformance {

// ---------------------------------------------------------------- Session
Session::Session(RunnerOptions options) : options_(std::move(options)), registry_(std::make_unique<PluginRegistry>()) {
    if (options_.plugins.empty()) throw Error("no solver plugin: pass --plugin FILE (or a folder)");
    const LoadReport report = registry_->load_all(options_.plugins);
    if (report.plugins_loaded == 0 || !report.ok()) {
        std::vector<std::string> paths;
        for (const auto& p : options_.plugins) paths.push_back(p.string());
        throw Error(fmt::format("loading {} failed:\n  {}", fmt::join(paths, ", "),
                                report.problems.empty() ? std::string("no plugins found")
                                                        : fmt::format("{}", fmt::join(report.problems, "\n  "))));
    }
    if (options_.solver.empty()) {
        std::vector<const PluginRecord*> solvers;
        for (const PluginRecord* p : registry_->plugins()) {
            if (p->kind == PIVOT_KIND_SOLVER) solvers.push_back(p);
        }
        if (solvers.size() != 1) {
            std::vector<std::string> ids;
            for (const PluginRecord* p : solvers) ids.push_back(p->id);
            throw Error(fmt::format("{} solvers loaded ({}): choose one with --solver ID", solvers.size(),
                                    fmt::join(ids, ", ")));
        }
        solver_ = solvers.front();
    } else {
        solver_ = &registry_->require(PIVOT_KIND_SOLVER, options_.solver);
    }
    // Fails early, with the plugin's own message, on a bad --option.
    (void)pack_params(*solver_, ParamScope::instance, options_.params, "--option");
    if (!options_.expectations.empty()) expectations_ = read_expectations(options_.expectations);
}

std::string Session::describe_solver() const {
    std::vector<std::string> params;
    for (const auto& p : solver_->params) params.push_back(p.name);
    return fmt::format("solver '{}' {} ({}), file {}\n  capabilities: {}\n  parameters: {}", solver_->id,
                       solver_->version, solver_->name, solver_->file, fmt::join(capability_names(*solver_), ", "),
                       fmt::join(params, ", "));
}

namespace {

bool any_findex(const LcpProblem& p) {
    return std::any_of(p.findex.begin(), p.findex.end(), [](int32_t f) { return f != -1; });
}

// The view the solver gets: LcpProblem::view(), with the friction index
// whenever any entry is not -1 (so that invalid entries reach the solver).
pivot_lcp_problem view_of(const LcpProblem& p) {
    pivot_lcp_problem v = p.view();
    if (any_findex(p)) v.findex = p.findex.data();
    return v;
}

bool user_set(const nlohmann::json& params, const char* name) { return params.is_object() && params.contains(name); }

}  // namespace

std::string Session::incompatibility(const LcpProblem& p) const {
    const bool boxed = solver_->has(PIVOT_SOLVER_CAP_BOXED);
    if (any_findex(p) && !solver_->has(PIVOT_SOLVER_CAP_FRICTION_INDEX)) {
        return "the problem has a friction index and the solver does not declare FRICTION_INDEX";
    }
    const bool standard = p.is_standard_lcp();
    if (!standard && !boxed) return "the problem has bounds other than [0, inf) and the solver does not declare BOXED";
    if (standard && !boxed && !solver_->has(PIVOT_SOLVER_CAP_STANDARD_LCP)) {
        return "the solver declares neither STANDARD_LCP nor BOXED";
    }
    if ((p.matrix_properties & PIVOT_MATRIX_SYMMETRIC) == 0 && !solver_->has(PIVOT_SOLVER_CAP_NONSYMMETRIC)) {
        return "A is not symmetric and the solver does not declare NONSYMMETRIC";
    }
    return {};
}

LcpProblem Session::as_given(const LcpProblem& problem) const {
    LcpProblem p = problem;
    const bool dense = solver_->has(PIVOT_SOLVER_CAP_DENSE);
    if (p.dense.empty() && p.has_sparse() && p.n > 0) p.make_dense();
    if (dense) {
        p.col_start.clear();
        p.row_index.clear();
        p.values.clear();
        return p;
    }
    if (!p.has_sparse()) p.make_sparse();
    p.dense.clear();
    return p;
}

double Session::tolerance(const LcpProblem& problem) const { return case_tolerance(problem, options_.tolerance); }

std::optional<double> Session::solver_tolerance(const LcpProblem& problem) const {
    if (user_set(options_.params, "tolerance") && options_.params["tolerance"].is_number()) {
        return options_.params["tolerance"].get<double>();
    }
    const auto spec = std::find_if(solver_->params.begin(), solver_->params.end(), [](const ParamSpec& p) {
        return p.name == "tolerance" && !p.per_item() && p.type == PIVOT_PARAM_REAL && p.length == 1;
    });
    if (spec == solver_->params.end()) return std::nullopt;
    // Within the schema's range (an exclusive end is stepped past by one ulp).
    double lowest = spec->min_value;
    double highest = spec->max_value;
    if (spec->flags & PIVOT_PARAM_MIN_EXCLUSIVE) lowest = std::nextafter(lowest, HUGE_VAL);
    if (spec->flags & PIVOT_PARAM_MAX_EXCLUSIVE) highest = std::nextafter(highest, -HUGE_VAL);
    return std::clamp(tolerance(problem), lowest, std::max(lowest, highest));
}

double Session::claim_limit(const LcpProblem& problem) const {
    return 2.0 * std::max(tolerance(problem), solver_tolerance(problem).value_or(0.0));
}

PluginInstance Session::instance(const LcpProblem& problem) const {
    nlohmann::json params = options_.params;
    if (const auto t = solver_tolerance(problem); t && !user_set(params, "tolerance")) params["tolerance"] = *t;
    return PluginInstance(*solver_, pack_params(*solver_, ParamScope::instance, params, "conformance kit"));
}

Attempt Session::solve(const PluginInstance& solver, const LcpProblem& given, const std::vector<double>* warm,
                       double time_budget_seconds) const {
    Attempt a;
    // The solver writes into guarded storage (a write past x or w is
    // reported, not a corrupted heap), copied into the attempt after.
    PluginOutput<double> x(given.n, 0.0);
    PluginOutput<double> w(given.n, 0.0);
    pivot_solve_options options{sizeof(pivot_solve_options), 0u, time_budget_seconds};
    if (warm != nullptr) {
        x.assign(warm->begin(), warm->end());
        options.flags |= PIVOT_SOLVE_WARM_START;
    }
    const pivot_lcp_problem view = view_of(given);
    const auto start = std::chrono::steady_clock::now();
    const SolveResult r = checked_solve(solver, view, options, guarded(x), guarded(w), a.report);
    a.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    a.x.assign(x.begin(), x.end());
    a.returned = r.status;
    a.usable = r.ok();
    a.host_message = r.message;
    a.residual = a.usable ? independent_residual(given, a.x) : HUGE_VAL;
    return a;
}

CaseResult Session::run(const Case& c) const {
    try {
        if (c.kind == CaseKind::behaviour) return c.behaviour(*this);
        const LcpProblem problem = c.problem();
        if (std::string why = incompatibility(problem); !why.empty()) return CaseResult::skip(why);
        const LcpProblem given = as_given(problem);
        const PluginInstance solver = instance(given);
        if (c.kind == CaseKind::invalid_input) {
            // Called directly, not through checked_solve: the host's checks
            // of the output would read x through the broken friction index.
            // One spare entry, so that a solver that follows findex = n
            // without checking does not read outside x.
            std::vector<double> x(given.n + 1, 0.0);
            std::vector<double> w(given.n + 1, 0.0);
            pivot_solve_report report{};
            report.struct_size = sizeof(report);
            const pivot_solve_options options{sizeof(pivot_solve_options), 0u, 0.0};
            const pivot_lcp_problem view = view_of(given);
            const pivot_status s =
                solver.plugin().solver.solve(solver.handle(), &view, &options, x.data(), w.data(), &report);
            report.message[PIVOT_MESSAGE_CAPACITY - 1] = '\0';
            x.resize(given.n);
            return CaseResult::of(judge_invalid_input(s, report, x));
        }
        const Attempt a = solve(solver, given);
        if (c.kind == CaseKind::no_solution) return CaseResult::of(judge_no_solution(a));
        return CaseResult::of(judge_solvable(a, tolerance(given), claim_limit(given)));
    } catch (const std::exception& e) {
        return CaseResult::of({Verdict::fail, fmt::format("error: {}", e.what())});
    }
}

// ---------------------------------------------------------------- GoogleTest
namespace {

// Filled by run_main before InitGoogleTest, which instantiates the suites.
std::vector<Case>& registered(CaseKind kind) {
    static std::vector<Case> cases[4];
    return cases[static_cast<int>(kind)];
}

std::unique_ptr<Session>& session() {
    static std::unique_ptr<Session> s;
    return s;
}

std::string& session_error() {
    static std::string e;
    return e;
}

void run_case(const Case& c) {
    if (!session()) {
        FAIL() << "no solver under test: " << session_error();
    }
    const Session& s = *session();
    const std::string* expected = s.expectations().reason(c.name);
    const CaseResult r = s.run(c);
    if (r.skipped) {
        if (expected != nullptr) {
            ADD_FAILURE() << c.name << " is listed in " << s.expectations().file
                          << " as an expected failure, but it does not apply to this solver (" << *r.skipped
                          << "): remove the line";
        }
        GTEST_SKIP() << *r.skipped;
    }
    const Outcome& o = r.outcome;
    std::cout << "[ verdict  ] " << verdict_name(o.verdict) << ": " << o.detail << std::endl;
    ::testing::Test::RecordProperty("verdict", verdict_name(o.verdict));
    if (o.verdict == Verdict::fake) {
        ADD_FAILURE() << "a false claim (never allowed, listed or not): " << o.detail;
        return;
    }
    if (expected == nullptr) {
        if (o.verdict != Verdict::pass) ADD_FAILURE() << c.summary << "\n" << o.detail;
        return;
    }
    if (o.verdict == Verdict::pass) {
        ADD_FAILURE() << c.name << " is listed in " << s.expectations().file << " as an expected failure (\""
                      << *expected << "\") but passed: remove the line. " << o.detail;
        return;
    }
    std::cout << "[ expected ] an expected failure, listed in " << s.expectations().file << ": " << *expected
              << std::endl;
}

}  // namespace

// How GoogleTest prints a parameter: its name, not its bytes.
void PrintTo(const Case& c, std::ostream* out) { *out << c.name; }

namespace {

class Solvable : public ::testing::TestWithParam<Case> {};
class NoSolution : public ::testing::TestWithParam<Case> {};
class InvalidInput : public ::testing::TestWithParam<Case> {};
class Behaviour : public ::testing::TestWithParam<Case> {};

TEST_P(Solvable, is_solved) { run_case(GetParam()); }
TEST_P(NoSolution, is_reported_not_solved) { run_case(GetParam()); }
TEST_P(InvalidInput, is_refused) { run_case(GetParam()); }
TEST_P(Behaviour, holds) { run_case(GetParam()); }

std::string case_name(const ::testing::TestParamInfo<Case>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(, Solvable, ::testing::ValuesIn(registered(CaseKind::solvable)), case_name);
INSTANTIATE_TEST_SUITE_P(, NoSolution, ::testing::ValuesIn(registered(CaseKind::no_solution)), case_name);
INSTANTIATE_TEST_SUITE_P(, InvalidInput, ::testing::ValuesIn(registered(CaseKind::invalid_input)), case_name);
INSTANTIATE_TEST_SUITE_P(, Behaviour, ::testing::ValuesIn(registered(CaseKind::behaviour)), case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Solvable);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(NoSolution);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(InvalidInput);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Behaviour);

constexpr const char* usage = R"(usage: pivot_solver_conformance --plugin FILE|FOLDER [--plugin ...] [--solver ID]
           [--option KEY=VALUE ...] [--tolerance T] [--expect FILE] [--data-dir DIR]
           [--describe] [GoogleTest flags, e.g. --gtest_filter=Solvable.*]

Runs the solver conformance cases (sdk/conformance/README.md) against one
solver plugin, through the host's checked calls.

  --plugin FILE|FOLDER  a solver library, or a folder of libraries, to load
  --solver ID           the solver's id ("pivot.solver.lemke") or short name
                        ("lemke"); optional when exactly one solver is loaded
  --option KEY=VALUE    a solver parameter (repeatable), as in `pivot solve`
  --tolerance T         natural-map residual a solution must reach, scaled by
                        max(1, max|b|); default 1e-8 (use 1e-6 for iterative
                        solvers). Passed as the solver's "tolerance" parameter
                        unless --option tolerance=... is given.
  --expect FILE         the solver's expected failures (`case_name  reason`)
  --data-dir DIR        folder with lcp-bench/ and siconos/ (default: the
                        source tree's tests/data)
  --describe            list the cases with what each checks, then exit
)";

// The problem files (lcp-bench/, siconos/): next to an installed runner
// (<prefix>/share/pivot/conformance, from <prefix>/bin), else the source
// tree the runner was built from.
std::filesystem::path default_data_dir() {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const std::filesystem::path installed = self.parent_path() / PIVOT_CONFORMANCE_RELATIVE_DATA_DIR;
        if (std::filesystem::is_directory(installed / "lcp-bench", ec)) return installed.lexically_normal();
    }
    return PIVOT_CONFORMANCE_DATA_DIR;
}

bool take_value(int& i, int argc, char** argv, std::string& value) {
    if (i + 1 >= argc) return false;
    value = argv[++i];
    return true;
}

}  // namespace

int run_main(int argc, char** argv) {
    RunnerOptions options;
    options.tolerance = default_tolerance;
    options.data_dir = default_data_dir();
    bool describe_only = false;
    std::vector<char*> gtest_args = {argv[0]};
    try {
        for (int i = 1; i < argc; ++i) {
            const std::string arg = argv[i];
            std::string value;
            if (arg.rfind("--gtest_", 0) == 0 || arg.rfind("--gtest-", 0) == 0) {
                gtest_args.push_back(argv[i]);
            } else if (arg == "--help" || arg == "-h") {
                std::cout << usage;
                return 0;
            } else if (arg == "--describe") {
                describe_only = true;
            } else if (arg == "--plugin" && take_value(i, argc, argv, value)) {
                options.plugins.emplace_back(value);
            } else if (arg == "--solver" && take_value(i, argc, argv, value)) {
                options.solver = value;
            } else if (arg == "--option" && take_value(i, argc, argv, value)) {
                const auto eq = value.find('=');
                if (eq == std::string::npos || eq == 0) throw Error(fmt::format("--option {}: expected KEY=VALUE", value));
                options.params[value.substr(0, eq)] = parse_param_text(value.substr(eq + 1));
            } else if (arg == "--tolerance" && take_value(i, argc, argv, value)) {
                char* end = nullptr;
                options.tolerance = std::strtod(value.c_str(), &end);
                if (end == value.c_str() || *end != '\0' || !(options.tolerance > 0) || !std::isfinite(options.tolerance)) {
                    throw Error(fmt::format("--tolerance {}: expected a positive number", value));
                }
            } else if (arg == "--expect" && take_value(i, argc, argv, value)) {
                options.expectations = value;
            } else if (arg == "--data-dir" && take_value(i, argc, argv, value)) {
                options.data_dir = value;
            } else {
                throw Error(fmt::format("unknown or incomplete argument '{}'", arg));
            }
        }
    } catch (const std::exception& e) {
        std::cerr << "pivot_solver_conformance: " << e.what() << "\n\n" << usage;
        return 2;
    }

    std::vector<std::string> notes;
    const std::vector<Case> cases = conformance_cases(options.data_dir, &notes);
    if (describe_only) {
        for (const Case& c : cases) std::cout << fmt::format("{:<44} {:<14} {}\n", c.name, kind_name(c.kind), c.summary);
        return 0;
    }
    for (const Case& c : cases) registered(c.kind).push_back(c);

    const bool listing = std::any_of(gtest_args.begin(), gtest_args.end(), [](const char* a) {
        return std::strcmp(a, "--gtest_list_tests") == 0;
    });
    if (!listing) {
        for (const auto& n : notes) std::cerr << "note: " << n << "\n";
        try {
            session() = std::make_unique<Session>(options);
            const Session& s = *session();
            std::cout << s.describe_solver() << "\n  tolerance: " << options.tolerance << " x max(1, max|b|)";
            if (!options.params.empty()) std::cout << ", options " << options.params.dump();
            std::cout << "\n  expectations: "
                      << (options.expectations.empty()
                              ? std::string("none")
                              : fmt::format("{} ({} listed)", options.expectations.string(),
                                            s.expectations().reasons.size()))
                      << std::endl;
            // A listed name that is no case is a typo: it would hide nothing
            // and pass silently.
            std::vector<std::string> unknown;
            for (const auto& [name, reason] : s.expectations().reasons) {
                (void)reason;
                if (std::none_of(cases.begin(), cases.end(), [&](const Case& c) { return c.name == name; })) {
                    unknown.push_back(name);
                }
            }
            if (!unknown.empty()) {
                std::cerr << "pivot_solver_conformance: " << options.expectations.string()
                          << " lists cases that do not exist: " << fmt::format("{}", fmt::join(unknown, ", "))
                          << "\n";
                return 2;
            }
        } catch (const std::exception& e) {
            // Reported by every test, so that no run passes without a solver.
            session_error() = e.what();
            std::cerr << "pivot_solver_conformance: " << e.what() << "\n";
        }
    }
    int gtest_argc = static_cast<int>(gtest_args.size());
    gtest_args.push_back(nullptr);
    ::testing::InitGoogleTest(&gtest_argc, gtest_args.data());
    return RUN_ALL_TESTS() == 0 ? 0 : 1;
}

}  // namespace pivot::conformance
