// The embedding C API (0.11): the plugins an engine has loaded, solver
// instances outside any world (solved through the host's checked call), and
// pivot-lcp/1 problem files.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mutex>

#include <fmt/format.h>
#include <pivot/solver_support.hpp>

#include "api/api_support.hpp"
#include "common/input_limits.hpp"
#include "lcp/lcp_file.hpp"
#include "plugin_host/checked_calls.hpp"
#include "plugin_host/parameters.hpp"
#include "plugin_host/plugin_instance.hpp"
#include "plugin_host/plugin_output.hpp"

struct pivot_solver {
    pivot_engine* engine = nullptr;
    pivot::PluginInstance instance;
    // The plugin writes into guarded storage (a write past x or w is
    // reported, not a corrupted caller's heap), copied out after the call.
    pivot::PluginOutput<double> x, w;
};

struct pivot_lcp {
    pivot::LcpProblem problem;
    pivot_lcp_problem view{};
};

namespace {

using pivot::api::guarded;
using pivot::api::require;

const pivot::PluginRecord& plugin_at(const pivot_engine& engine, uint32_t index, const char* function) {
    const auto plugins = engine.registry.plugins();
    if (index >= plugins.size()) {
        throw pivot::Error(fmt::format("{}: plugin {} does not exist ({} loaded)", function, index, plugins.size()));
    }
    return *plugins[index];
}

pivot_solver* adopt(pivot_engine* engine, pivot::PluginInstance instance) {
    auto solver = std::make_unique<pivot_solver>();
    solver->engine = engine;
    solver->instance = std::move(instance);
    ++engine->solvers;
    return solver.release();
}

// The arrays a problem of n rows must point at, so that neither the plugin
// nor the host's checks read through a NULL (values are the plugin's to
// refuse: see pivot_solver_solve).
void require_complete(const pivot_lcp_problem& p, const char* function) {
    if (p.struct_size < sizeof(pivot_lcp_problem)) {
        throw pivot::Error(fmt::format("{}: problem->struct_size {} is smaller than sizeof(pivot_lcp_problem) {}",
                                       function, p.struct_size, sizeof(pivot_lcp_problem)));
    }
    if (p.n == 0) return;
    if (p.b == nullptr || p.lo == nullptr || p.hi == nullptr) {
        throw pivot::Error(fmt::format("{}: problem->b, lo and hi must be given (n = {})", function, p.n));
    }
    const bool sparse = p.col_start != nullptr && p.row_index != nullptr && p.values != nullptr;
    if (p.dense == nullptr && !sparse && !pivot::sdk::has_factored_form(p)) {
        throw pivot::Error(fmt::format("{}: the problem has neither a dense nor a CSC matrix nor a factored form",
                                       function));
    }
    if (p.dense != nullptr && p.lda < p.n) {
        throw pivot::Error(fmt::format("{}: problem->lda {} is smaller than n {}", function, p.lda, p.n));
    }
}

}  // namespace

extern "C" {

PIVOT_API pivot_status pivot_engine_create_empty(pivot_engine** engine) {
    return guarded("pivot_engine_create_empty", [&] {
        require(engine, "pivot_engine_create_empty", "engine");
        *engine = new pivot_engine();
    });
}

PIVOT_API uint32_t pivot_engine_plugin_count(const pivot_engine* engine) {
    return engine == nullptr ? 0u : static_cast<uint32_t>(engine->registry.plugins().size());
}

PIVOT_API pivot_status pivot_engine_plugin_info(const pivot_engine* engine, uint32_t plugin, pivot_plugin_info* info) {
    return guarded("pivot_engine_plugin_info", [&] {
        const char* fn = "pivot_engine_plugin_info";
        require(info, fn, "info");
        const pivot::PluginRecord& p = plugin_at(require(engine, fn, "engine"), plugin, fn);
        *info = pivot_plugin_info{};
        info->struct_size = sizeof(pivot_plugin_info);
        info->kind = p.kind;
        info->abi_major = p.abi_major;
        info->abi_minor = p.abi_minor;
        info->capabilities = p.capabilities;
        info->id = p.id.c_str();
        info->name = p.name.c_str();
        info->vendor = p.vendor.c_str();
        info->version = p.version.c_str();
        info->description = p.description.c_str();
        info->file = p.file.c_str();
        info->param_count = static_cast<uint32_t>(p.params.size());
    });
}

PIVOT_API const char* pivot_engine_plugin_json(const pivot_engine* engine, uint32_t plugin) {
    const char* text = nullptr;
    const pivot_status s = guarded("pivot_engine_plugin_json", [&] {
        const char* fn = "pivot_engine_plugin_json";
        const pivot_engine& e = require(engine, fn, "engine");
        const pivot::PluginRecord& p = plugin_at(e, plugin, fn);
        const std::lock_guard<std::mutex> lock(e.plugin_json_mutex);
        auto [at, added] = e.plugin_json.try_emplace(p.id);
        if (added) at->second = pivot::plugin_to_json(p).dump();
        text = at->second.c_str();
    });
    return s == PIVOT_OK ? text : nullptr;
}

PIVOT_API pivot_status pivot_engine_find_plugin(const pivot_engine* engine, uint32_t kind, const char* name,
                                                uint32_t* plugin) {
    return guarded("pivot_engine_find_plugin", [&] {
        const char* fn = "pivot_engine_find_plugin";
        const pivot_engine& e = require(engine, fn, "engine");
        require(name, fn, "name");
        require(plugin, fn, "plugin");
        if (kind > PIVOT_KIND_SOLVER) {
            throw pivot::Error(fmt::format("{}: kind {} is not a pivot_plugin_kind", fn, kind));
        }
        const pivot::PluginRecord& found = e.registry.require(static_cast<pivot_plugin_kind>(kind), name);
        const auto plugins = e.registry.plugins();
        *plugin = static_cast<uint32_t>(std::find(plugins.begin(), plugins.end(), &found) - plugins.begin());
    });
}

PIVOT_API pivot_status pivot_solver_create(pivot_engine* engine, const char* solver, const char* params_json,
                                           pivot_solver** out) {
    return guarded("pivot_solver_create", [&] {
        const char* fn = "pivot_solver_create";
        require(out, fn, "out");
        *out = nullptr;
        pivot_engine& e = require(engine, fn, "engine");
        const pivot::PluginRecord& record = e.registry.require(PIVOT_KIND_SOLVER, require(solver, fn, "solver"));
        nlohmann::json params = nlohmann::json::object();
        if (params_json != nullptr && params_json[0] != '\0') {
            pivot::check_json_depth(params_json, "pivot_solver_create: params_json");
            params = nlohmann::json::parse(params_json, nullptr, /*allow_exceptions=*/false);
            if (!params.is_object()) {
                throw pivot::Error(fmt::format("{}: params_json is not a JSON object: {}", fn, params_json));
            }
        }
        const std::string context = fmt::format("{}: solver '{}'", fn, record.id);
        *out = adopt(&e, pivot::PluginInstance(record, pivot::pack_params(record, pivot::ParamScope::instance, params,
                                                                          context)));
    });
}

PIVOT_API void pivot_solver_destroy(pivot_solver* solver) {
    if (solver == nullptr) return;
    --solver->engine->solvers;
    delete solver;
}

PIVOT_API pivot_status pivot_solver_clone(const pivot_solver* solver, pivot_solver** copy) {
    return guarded("pivot_solver_clone", [&] {
        require(copy, "pivot_solver_clone", "copy");
        *copy = nullptr;
        const pivot_solver& s = require(solver, "pivot_solver_clone", "solver");
        *copy = adopt(s.engine, s.instance.clone());
    });
}

PIVOT_API pivot_status pivot_solver_reset(pivot_solver* solver) {
    return guarded("pivot_solver_reset", [&] { require(solver, "pivot_solver_reset", "solver").instance.reset(); });
}

PIVOT_API void* pivot_solver_instance(const pivot_solver* solver) {
    return solver == nullptr ? nullptr : solver->instance.handle();
}

PIVOT_API const pivot_solver_functions* pivot_solver_plugin_functions(const pivot_solver* solver) {
    return solver == nullptr ? nullptr : &solver->instance.plugin().solver;
}

PIVOT_API pivot_status pivot_solver_solve(pivot_solver* solver, const pivot_lcp_problem* problem,
                                          const pivot_solve_options* options, double* x, double* w,
                                          pivot_solve_report* report, pivot_solve_check* check) {
    return guarded("pivot_solver_solve", [&] {
        const char* fn = "pivot_solver_solve";
        pivot_solver& s = require(solver, fn, "solver");
        const pivot_lcp_problem& p = require(problem, fn, "problem");
        require(report, fn, "report");
        require(check, fn, "check");
        require_complete(p, fn);
        if (p.n > 0) require(x, fn, "x");
        // Both are this version's (the function is new in 0.11): a smaller
        // size is a caller that did not set it.
        if (report->struct_size < sizeof(pivot_solve_report) || check->struct_size < sizeof(pivot_solve_check)) {
            throw pivot::Error(fmt::format("{}: set report->struct_size and check->struct_size (to their sizeof)", fn));
        }
        pivot_solve_options given{sizeof(pivot_solve_options), 0u, 0.0};
        if (options != nullptr) {
            if (options->struct_size < sizeof(pivot_solve_options)) {
                throw pivot::Error(fmt::format("{}: options->struct_size {} is smaller than {}", fn,
                                               options->struct_size, sizeof(pivot_solve_options)));
            }
            given = *options;
        }
        if (s.instance.fatal()) {
            throw pivot::Error(fmt::format("{}: {} returned PIVOT_FATAL before and is not called again", fn,
                                           pivot::describe(s.instance.plugin())));
        }
        // The values are the plugin's to refuse (plugin_solver.h); the host
        // then checks only that it did.
        char defect[PIVOT_MESSAGE_CAPACITY] = "";
        const bool valid = pivot::sdk::validate_problem(p, false, false, defect) == PIVOT_SOLVE_CONVERGED;
        s.x.assign(p.n, 0.0);
        s.w.assign(p.n, 0.0);
        if ((given.flags & PIVOT_SOLVE_WARM_START) != 0) std::copy(x, x + p.n, s.x.begin());
        pivot_solve_report plugin_report{};
        const pivot::SolveResult r = pivot::checked_solve(s.instance, p, given, pivot::guarded(s.x),
                                                          pivot::guarded(s.w), plugin_report, valid ? nullptr : defect);
        std::copy(s.x.begin(), s.x.end(), x);
        if (w != nullptr) std::copy(s.w.begin(), s.w.end(), w);
        *report = plugin_report;
        *check = pivot_solve_check{};
        check->struct_size = sizeof(pivot_solve_check);
        check->returned = r.returned;
        check->usable = r.ok() ? 1u : 0u;
        check->residual = r.ok() ? r.residual : HUGE_VAL;
        std::snprintf(check->message, sizeof(check->message), "%s", r.message.c_str());
    });
}

PIVOT_API pivot_status pivot_lcp_read_file(const char* file, pivot_lcp** lcp) {
    return guarded("pivot_lcp_read_file", [&] {
        require(lcp, "pivot_lcp_read_file", "lcp");
        *lcp = nullptr;
        auto read = std::make_unique<pivot_lcp>();
        read->problem = pivot::read_lcp_file(require(file, "pivot_lcp_read_file", "file"));
        read->view = read->problem.view();
        *lcp = read.release();
    });
}

PIVOT_API const pivot_lcp_problem* pivot_lcp_problem_of(const pivot_lcp* lcp) {
    return lcp == nullptr ? nullptr : &lcp->view;
}

PIVOT_API void pivot_lcp_destroy(pivot_lcp* lcp) { delete lcp; }

}  // extern "C"
