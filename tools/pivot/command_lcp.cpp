// `pivot lcp solve PROBLEM.txt --solver ID`: solve one pivot-lcp/1 problem
// file with a solver plugin and write the solution (docs/cli.md).
#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "command_line.hpp"
#include "commands.hpp"
#include "common/error.hpp"
#include "lcp/lcp_file.hpp"
#include "lcp/lcp_solver_chain.hpp"
#include "plugin_host/parameters.hpp"

namespace pivot::cli {

namespace {

const char* kUsage =
    "usage: pivot lcp solve PROBLEM.txt --solver ID [options]\n"
    "\n"
    "Solves one pivot-lcp/1 problem file (find x, w = A x + b within the\n"
    "bounds, with the friction index) and writes x, one number per line.\n"
    "\n"
    "  --solver ID            solver plugin id or short name (lemke, dantzig, pgs)\n"
    "  --out X.txt            the solution (default: stdout)\n"
    "  --report FILE.json     {\"status\", \"iterations\", \"residual\", \"time_us\", ...}\n"
    "  --max-iterations N     the solver's max_iterations\n"
    "  --tolerance T          the solver's tolerance\n"
    "  --option KEY=VALUE     any solver parameter (repeatable; see pivot plugins)\n"
    "  --fallback ID          a solver tried when the previous one fails (repeatable)\n"
    "  --accept R             largest natural-map residual accepted (default 1e-6)\n"
    "  --plugins PATH         more plugin files or folders (repeatable)\n"
    "\n"
    "Exit 0 when solved; 1 when the file is bad, the solver unknown, or no\n"
    "solver solved the problem (the report says why); 2 on a usage error.\n";

int solve(Arguments& args) {
    const CommonOptions common = read_common_options(args);
    const auto solver = args.option("--solver");
    const auto out_file = args.option("--out");
    const auto report_file = args.option("--report");
    const auto max_iterations = args.option("--max-iterations");
    const auto tolerance = args.option("--tolerance");
    const auto options = args.options("--option");
    const auto fallbacks = args.options("--fallback");
    const auto accept = args.option("--accept");
    const auto files = args.positionals();
    if (files.size() != 1) throw UsageError{"expected exactly one PROBLEM.txt"};
    if (!solver) throw UsageError{"--solver ID is required"};

    SolverChoice choice{*solver, nlohmann::json::object()};
    auto number = [](const std::string& flag, const std::string& text) {
        nlohmann::json v = parse_param_text(text);
        if (!v.is_number()) throw UsageError{flag + " needs a number, got '" + text + "'"};
        return v;
    };
    if (max_iterations) choice.options["max_iterations"] = number("--max-iterations", *max_iterations);
    if (tolerance) choice.options["tolerance"] = number("--tolerance", *tolerance);
    for (const auto& kv : options) {
        const auto eq = kv.find('=');
        if (eq == std::string::npos || eq == 0) throw UsageError{"--option needs KEY=VALUE, got '" + kv + "'"};
        choice.options[kv.substr(0, eq)] = parse_param_text(kv.substr(eq + 1));
    }
    double acceptance = 1e-6;
    if (accept) acceptance = number("--accept", *accept).get<double>();

    PluginRegistry registry;
    if (!load_plugins(registry, common)) return kUserError;
    try {
        const LcpProblem problem = read_lcp_file(files[0]);
        std::vector<SolverChoice> fallback_choices;
        for (const auto& id : fallbacks) fallback_choices.push_back({id, nlohmann::json::object()});
        LcpSolverChain chain(registry, choice, fallback_choices, acceptance);
        std::vector<double> x(problem.n, 0.0);
        const ChainReport report = chain.solve(problem, x, false);

        if (report_file) {
            nlohmann::json j = {{"status", report.solved ? solve_status_name(report.status) : "failed"},
                                {"iterations", report.iterations},
                                {"residual", report.residual},
                                {"time_us", report.time_seconds * 1e6},
                                {"solver", std::string(report.solver_id)},
                                {"solver_status", solve_status_name(report.status)},
                                {"solver_residual", report.solver_residual},
                                {"friction_rounds", report.friction_rounds},
                                {"fallbacks", report.fallbacks},
                                {"failures", report.failures}};
            std::ofstream out(*report_file);
            out << j.dump(2) << "\n";
            if (!out) throw Error(fmt::format("{}: cannot be written", *report_file));
        }
        if (!report.solved) {
            fmt::print(stderr, "pivot lcp solve: {}: not solved: {}\n", files[0], fmt::join(report.failures, "; "));
            return kUserError;
        }
        std::ofstream file_out;
        if (out_file) {
            file_out.open(*out_file);
            if (!file_out) throw Error(fmt::format("{}: cannot be written", *out_file));
        }
        std::ostream& out = out_file ? file_out : std::cout;
        for (double v : x) out << fmt::format("{:.17g}\n", v);
        if (!out) throw Error(fmt::format("{}: write failed", out_file ? *out_file : std::string("stdout")));
        return kSuccess;
    } catch (const Error& e) {
        fmt::print(stderr, "pivot lcp solve: {}\n", e.what());
        return kUserError;
    }
}

}  // namespace

int command_lcp(std::vector<std::string> argv) {
    Arguments args(std::move(argv));
    if (args.flag("--help") || args.flag("-h")) {
        fmt::print("{}", kUsage);
        return kSuccess;
    }
    try {
        if (!args.take_subcommand("solve")) throw UsageError{"expected 'pivot lcp solve'"};
        return solve(args);
    } catch (const UsageError& e) {
        fmt::print(stderr, "pivot lcp: {}\n{}", e.message, kUsage);
        return kUsageError;
    }
}

}  // namespace pivot::cli
