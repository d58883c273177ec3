#pragma once
// Loading a first-party solver plugin from the build tree and solving an
// LcpProblem through the host's checked call, for the solver tests.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lcp/lcp_file.hpp"
#include "lcp/lcp_problem.hpp"
#include "plugin_host/checked_calls.hpp"
#include "plugin_host/parameters.hpp"
#include "plugin_host/plugin_registry.hpp"

namespace pivot::test {

inline std::filesystem::path data_dir() { return PIVOT_TEST_DATA_DIR; }

// The registry with every first-party plugin of the build tree loaded.
inline PluginRegistry& first_party_registry() {
    static PluginRegistry registry;
    static bool loaded = false;
    if (!loaded) {
        LoadReport report = registry.load(PIVOT_FIRST_PARTY_PLUGIN_DIR);
        for (const auto& p : report.problems) ADD_FAILURE() << p;
        loaded = true;
    }
    return registry;
}

// An instance of solver `id` with the given parameters (JSON object).
inline PluginInstance make_solver(const std::string& id, const nlohmann::json& params = nlohmann::json::object()) {
    const PluginRecord& p = first_party_registry().require(PIVOT_KIND_SOLVER, id);
    return PluginInstance(p, pack_params(p, ParamScope::instance, params, id));
}

struct Solution {
    SolveResult result;          // ok(), message, host residual
    pivot_solve_report report{};  // the solver's own report
    std::vector<double> x;
    std::vector<double> w;
};

// Solves `problem` with `solver` through checked_solve. The problem must hold
// the matrix the solver accepts (make_sparse() for sparse-only solvers).
inline Solution solve(const PluginInstance& solver, const LcpProblem& problem, const std::vector<double>* warm = nullptr,
                      double time_budget = 0.0) {
    Solution s;
    s.x.assign(problem.n, 0.0);
    s.w.assign(problem.n, 0.0);
    pivot_solve_options options{sizeof(options), 0, time_budget};
    if (warm != nullptr) {
        s.x = *warm;
        options.flags |= PIVOT_SOLVE_WARM_START;
    }
    const pivot_lcp_problem view = problem.view();
    s.report.struct_size = sizeof(s.report);
    s.result = checked_solve(solver, view, options, unguarded(s.x.data()), unguarded(s.w.data()), s.report);
    return s;
}

}  // namespace pivot::test
