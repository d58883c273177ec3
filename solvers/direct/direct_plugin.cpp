// pivot.solver.direct: the plugin's tables (parameters, capabilities, the C
// functions) around DirectSolver (direct_solver.hpp).
#include <cmath>

#include <pivot/plugin_solver.h>
#include <pivot/solver_support.hpp>

#include "direct_solver.hpp"

namespace pivot::direct {
namespace {

// One instance: the configured solver, its pattern, order and factor.
class Instance {
public:
    Instance(const pivot_host* /*host: no logging on the step path*/, const double* params, uint32_t count)
        : solver_(parameters_from(params, count)) {}
    Instance(const Instance&) = default;
    Instance& operator=(const Instance&) = delete;

    void set_params(const double* params, uint32_t count) { solver_.set_parameters(parameters_from(params, count)); }
    void reset() { solver_.reset(); }
    DirectSolver& solver() { return solver_; }

private:
    DirectSolver solver_;
};

pivot_status reserve(void* instance, uint32_t n, uint32_t nnz) {
    if (instance == nullptr) return PIVOT_ERROR;
    try {
        static_cast<Instance*>(instance)->solver().reserve(n, nnz);
        return PIVOT_OK;
    } catch (...) {
        return PIVOT_ERROR;
    }
}

pivot_status solve(void* instance, const pivot_lcp_problem* problem, const pivot_solve_options* options, double* x,
                   double* w, pivot_solve_report* report) {
    if (instance == nullptr) return PIVOT_ERROR;
    try {
        return static_cast<Instance*>(instance)->solver().solve(problem, options, x, w, report);
    } catch (...) {
        // A new pattern larger than reserved may allocate: std::bad_alloc.
        if (report != nullptr) {
            sdk::set_message(report->message, "out of memory while sizing the factorization");
            return sdk::finish(report, PIVOT_SOLVE_OUT_OF_MEMORY, 0, HUGE_VAL, 0.0);
        }
        return PIVOT_ERROR;
    }
}

const pivot_param_info kParams[kParameterCount] = {
    {sizeof(pivot_param_info), PIVOT_PARAM_INT, 1, 0, "max_exchanges", "",
     "principal pivoting rounds per solve (one sparse factorization each) before giving up; a problem without "
     "bounds takes one",
     100, 1, 1e6, nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1, PIVOT_PARAM_MIN_EXCLUSIVE, "tolerance", "",
     "how far a row may be outside its bound, or its w on the wrong side, before its state changes", 1e-10, 0.0,
     HUGE_VAL, nullptr, 0, 0},
};

pivot_solver_functions make_functions() {
    pivot_solver_functions f{};
    f.struct_size = sizeof(f);
    f.instance = sdk::instance_functions<Instance>();
    f.reserve = reserve;
    f.solve = solve;
    return f;
}

const pivot_solver_functions kFunctions = make_functions();

const pivot_plugin_descriptor kDescriptor = {
    sizeof(pivot_plugin_descriptor),
    PIVOT_ABI_MAJOR,
    PIVOT_ABI_MINOR,
    PIVOT_KIND_SOLVER,
    "pivot.solver.direct",
    "Sparse direct (LDL^T) solver",
    "Pivot",
    "1.0.0",
    "exact solves by a sparse LDL^T of A in a minimum-degree order, from the factored form or CSC: linear time for "
    "chains and trees of joints; bounds by block principal pivoting; no friction index",
    PIVOT_SOLVER_CAP_BOXED | PIVOT_SOLVER_CAP_STANDARD_LCP | PIVOT_SOLVER_CAP_SPARSE | PIVOT_SOLVER_CAP_FACTORED |
        PIVOT_SOLVER_CAP_WARM_START | PIVOT_SOLVER_CAP_DETERMINISTIC,
    kParams,
    kParameterCount,
    0,
    &kFunctions};

const pivot_plugin_descriptor* const kPlugins[] = {&kDescriptor};

const pivot_plugin_library kLibrary = {sizeof(pivot_plugin_library), PIVOT_ABI_MAJOR, PIVOT_ABI_MINOR, 1, kPlugins,
                                       nullptr, nullptr};

}  // namespace
}  // namespace pivot::direct

PIVOT_PLUGIN_ENTRY {
    (void)host_abi_minor;
    return host_abi_major == PIVOT_ABI_MAJOR ? &pivot::direct::kLibrary : nullptr;
}
