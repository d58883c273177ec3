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

#include <dlfcn.h>

#include "pivot/conformance/error.hpp"
#include "pivot/conformance/kit.hpp"

#ifndef PIVOT_CONFORMANCE_RELATIVE_DATA_DIR
#define PIVOT_CONFORMANCE_RELATIVE_DATA_DIR "../share/pivot/conformance"
#endif
#ifndef PIVOT_CONFORMANCE_DATA_DIR
#define PIVOT_CONFORMANCE_DATA_DIR ""
#endif

namespace pivot::conformance {

// ---------------------------------------------------------------- Session
std::string last_error() { return pivot_last_error(); }

nlohmann::json parse_option_value(const std::string& text) {
    auto parsed = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded() || parsed.is_object() || parsed.is_null()) return text;
    return parsed;
}

SolverInstance& SolverInstance::operator=(SolverInstance&& other) noexcept {
    if (this != &other) {
        pivot_solver_destroy(solver_);
        solver_ = other.solver_;
        other.solver_ = nullptr;
    }
    return *this;
}

SolverInstance SolverInstance::clone() const {
    pivot_solver* copy = nullptr;
    if (pivot_solver_clone(solver_, &copy) != PIVOT_OK) throw Error(last_error());
    return SolverInstance(copy);
}

void SolverInstance::reset() {
    if (pivot_solver_reset(solver_) != PIVOT_OK) throw Error(last_error());
}

Session::Session(RunnerOptions options) : options_(std::move(options)) {
    if (options_.plugins.empty()) throw Error("no solver plugin: pass --plugin FILE (or a folder)");
    pivot_engine* engine = nullptr;
    if (pivot_engine_create_empty(&engine) != PIVOT_OK) throw Error(last_error());
    engine_.reset(engine);
    for (const auto& path : options_.plugins) {
        if (pivot_engine_load_plugins(engine, path.string().c_str()) != PIVOT_OK) {
            throw Error(fmt::format("loading {} failed: {}", path.string(), last_error()));
        }
    }
    uint32_t index = 0;
    if (options_.solver.empty()) {
        std::vector<uint32_t> solvers;
        std::vector<std::string> ids;
        for (uint32_t i = 0; i < pivot_engine_plugin_count(engine); ++i) {
            pivot_plugin_info info{};
            if (pivot_engine_plugin_info(engine, i, &info) == PIVOT_OK && info.kind == PIVOT_KIND_SOLVER) {
                solvers.push_back(i);
                ids.emplace_back(info.id);
            }
        }
        if (solvers.size() != 1) {
            throw Error(fmt::format("{} solvers loaded ({}): choose one with --solver ID", solvers.size(),
                                    fmt::join(ids, ", ")));
        }
        index = solvers.front();
    } else if (pivot_engine_find_plugin(engine, PIVOT_KIND_SOLVER, options_.solver.c_str(), &index) != PIVOT_OK) {
        throw Error(last_error());
    }
    if (pivot_engine_plugin_info(engine, index, &solver_) != PIVOT_OK) throw Error(last_error());
    const char* json = pivot_engine_plugin_json(engine, index);
    if (json == nullptr) throw Error(last_error());
    const nlohmann::json description = nlohmann::json::parse(json);
    schema_ = description.at("parameters");
    capability_names_ = description.at("capabilities").get<std::vector<std::string>>();
    // Fails early, with the plugin's own message, on a bad --option.
    pivot_solver* probe = nullptr;
    if (pivot_solver_create(engine, solver_.id, options_.params.dump().c_str(), &probe) != PIVOT_OK) {
        throw Error(fmt::format("--option: {}", last_error()));
    }
    probe_ = SolverInstance(probe);
    if (!options_.expectations.empty()) expectations_ = read_expectations(options_.expectations);
}

std::string Session::describe_solver() const {
    std::vector<std::string> params;
    for (const auto& p : schema_) params.push_back(p.at("name").get<std::string>());
    return fmt::format("solver '{}' {} ({}), file {}\n  capabilities: {}\n  parameters: {}", solver_.id,
                       solver_.version, solver_.name, solver_.file, fmt::join(capability_names_, ", "),
                       fmt::join(params, ", "));
}

namespace {

bool any_findex(const sdk::LcpData& p) {
    return std::any_of(p.findex.begin(), p.findex.end(), [](int32_t f) { return f != -1; });
}

// The view the solver gets: LcpData::view(), with the friction index
// whenever any entry is not -1 (so that invalid entries reach the solver).
pivot_lcp_problem view_of(const sdk::LcpData& p) {
    pivot_lcp_problem v = p.view();
    if (any_findex(p)) v.findex = p.findex.data();
    return v;
}

bool user_set(const nlohmann::json& params, const char* name) { return params.is_object() && params.contains(name); }

// A bound of the schema: a number, or "inf" / "-inf" (pivot plugins --json).
double schema_number(const nlohmann::json& v) {
    if (v.is_number()) return v.get<double>();
    return v.get<std::string>() == "-inf" ? -HUGE_VAL : HUGE_VAL;
}

}  // namespace

std::string Session::incompatibility(const sdk::LcpData& p) const {
    const bool boxed = has(PIVOT_SOLVER_CAP_BOXED);
    if (any_findex(p) && !has(PIVOT_SOLVER_CAP_FRICTION_INDEX)) {
        return "the problem has a friction index and the solver does not declare FRICTION_INDEX";
    }
    const bool standard = p.is_standard_lcp();
    if (!standard && !boxed) return "the problem has bounds other than [0, inf) and the solver does not declare BOXED";
    if (standard && !boxed && !has(PIVOT_SOLVER_CAP_STANDARD_LCP)) {
        return "the solver declares neither STANDARD_LCP nor BOXED";
    }
    if ((p.matrix_properties & PIVOT_MATRIX_SYMMETRIC) == 0 && !has(PIVOT_SOLVER_CAP_NONSYMMETRIC)) {
        return "A is not symmetric and the solver does not declare NONSYMMETRIC";
    }
    return {};
}

sdk::LcpData Session::as_given(const sdk::LcpData& problem) const {
    sdk::LcpData p = problem;
    const bool dense = has(PIVOT_SOLVER_CAP_DENSE);
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

double Session::tolerance(const sdk::LcpData& problem) const { return case_tolerance(problem, options_.tolerance); }

std::optional<double> Session::solver_tolerance(const sdk::LcpData& problem) const {
    if (user_set(options_.params, "tolerance") && options_.params["tolerance"].is_number()) {
        return options_.params["tolerance"].get<double>();
    }
    const auto spec = std::find_if(schema_.begin(), schema_.end(), [](const nlohmann::json& p) {
        return p.at("name") == "tolerance" && !p.at("per_item").get<bool>() && p.at("type") == "real" &&
               p.at("length") == 1;
    });
    if (spec == schema_.end()) return std::nullopt;
    // Within the schema's range (an exclusive end is stepped past by one ulp).
    double lowest = schema_number(spec->at("min"));
    double highest = schema_number(spec->at("max"));
    if (spec->at("min_exclusive").get<bool>()) lowest = std::nextafter(lowest, HUGE_VAL);
    if (spec->at("max_exclusive").get<bool>()) highest = std::nextafter(highest, -HUGE_VAL);
    return std::clamp(tolerance(problem), lowest, std::max(lowest, highest));
}

double Session::claim_limit(const sdk::LcpData& problem) const {
    return 2.0 * std::max(tolerance(problem), solver_tolerance(problem).value_or(0.0));
}

SolverInstance Session::instance(const sdk::LcpData& problem) const {
    nlohmann::json params = options_.params;
    if (const auto t = solver_tolerance(problem); t && !user_set(params, "tolerance")) params["tolerance"] = *t;
    pivot_solver* solver = nullptr;
    if (pivot_solver_create(engine_.get(), solver_.id, params.dump().c_str(), &solver) != PIVOT_OK) {
        throw Error(last_error());
    }
    return SolverInstance(solver);
}

Attempt Session::solve(const SolverInstance& solver, const sdk::LcpData& given, const std::vector<double>* warm,
                       double time_budget_seconds) const {
    Attempt a;
    a.x.assign(given.n, 0.0);
    std::vector<double> w(given.n, 0.0);
    pivot_solve_options options{sizeof(pivot_solve_options), 0u, time_budget_seconds};
    if (warm != nullptr) {
        a.x.assign(warm->begin(), warm->end());
        options.flags |= PIVOT_SOLVE_WARM_START;
    }
    const pivot_lcp_problem view = view_of(given);
    a.report.struct_size = sizeof(a.report);
    pivot_solve_check check{};
    check.struct_size = sizeof(check);
    const auto start = std::chrono::steady_clock::now();
    const pivot_status s = pivot_solver_solve(solver.get(), &view, &options, a.x.data(), w.data(), &a.report, &check);
    a.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (s != PIVOT_OK) throw Error(last_error());
    a.returned = check.returned;
    a.usable = check.usable != 0;
    a.host_message = check.message;
    a.residual = a.usable ? independent_residual(given, a.x) : HUGE_VAL;
    return a;
}

CaseResult Session::run(const Case& c) const {
    try {
        if (c.kind == CaseKind::behaviour) return c.behaviour(*this);
        const sdk::LcpData problem = c.problem();
        if (std::string why = incompatibility(problem); !why.empty()) return CaseResult::skip(why);
        const sdk::LcpData given = as_given(problem);
        const SolverInstance solver = instance(given);
        const Attempt a = solve(solver, given);
        // pivot_solver_solve gives the plugin an invalid problem as it is
        // (into guarded storage: a solver that follows findex = n without
        // checking reads the guard, not outside x) and checks only that the
        // plugin refused it.
        if (c.kind == CaseKind::invalid_input) return CaseResult::of(judge_invalid_input(a.returned, a.report, a.x));
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

const Session* current_session() { return session().get(); }

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
solver plugin, through the host's checked calls (libpivot's pivot_solver_solve).

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
                        installed share/pivot/conformance next to libpivot,
                        else the source tree's tests/data)
  --describe            list the cases with what each checks, then exit
)";

// The problem files (lcp-bench/, siconos/): next to the libpivot this
// program runs with (<prefix>/share/pivot/conformance from <prefix>/lib; an
// installed kit links the installed libpivot), else the source tree the kit
// was built from.
std::filesystem::path default_data_dir() {
    Dl_info library{};
    if (dladdr(reinterpret_cast<void*>(&pivot_version), &library) != 0 && library.dli_fname != nullptr) {
        std::error_code ec;
        const std::filesystem::path libpivot = std::filesystem::canonical(library.dli_fname, ec);
        const std::filesystem::path installed = libpivot.parent_path() / PIVOT_CONFORMANCE_RELATIVE_DATA_DIR;
        if (!ec && std::filesystem::is_directory(installed / "lcp-bench", ec)) return installed.lexically_normal();
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
                options.params[value.substr(0, eq)] = parse_option_value(value.substr(eq + 1));
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
