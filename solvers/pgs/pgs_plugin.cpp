// pivot.solver.pgs: the plugin's tables (parameters, capabilities, the C
// functions) around ProjectedGaussSeidel (projected_gauss_seidel.hpp).
#include <cmath>
#include <new>

#include <pivot/plugin_solver.h>
#include <pivot/solver_support.hpp>

#include "projected_gauss_seidel.hpp"

namespace pivot::pgs {
namespace {

// One instance: the configured solver and its workspace.
class Instance {
public:
    Instance(const pivot_host* /*host: no logging on the step path*/, const double* params, uint32_t count)
        : solver_(parameters_from(params, count)) {}
    Instance(const Instance&) = default;
    Instance& operator=(const Instance&) = delete;

    void set_params(const double* params, uint32_t count) { solver_.set_parameters(parameters_from(params, count)); }
    void reset() { solver_.reset(); }
    void reserve(uint32_t n, uint32_t nnz) { solver_.reserve(n, nnz); }
    pivot_status solve(const pivot_lcp_problem* problem, const pivot_solve_options* options, double* x, double* w,
                       pivot_solve_report* report) {
        return solver_.solve(problem, options, x, w, report);
    }

private:
    ProjectedGaussSeidel solver_;
};

constexpr uint32_t kMinExclusive = PIVOT_PARAM_MIN_EXCLUSIVE;
constexpr uint32_t kBothExclusive = PIVOT_PARAM_MIN_EXCLUSIVE | PIVOT_PARAM_MAX_EXCLUSIVE;

// Defaults: see Parameters (projected_gauss_seidel.hpp), where the measured
// ones are explained.
const pivot_param_info kParams[kParameterCount] = {
    {sizeof(pivot_param_info), PIVOT_PARAM_INT, 1, 0, "max_iterations", "",
     "maximum number of Gauss-Seidel sweeps per solve", 10000, 1, 1e9, nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1, 0, "tolerance", "",
     "natural-map residual max_i |x_i - mid(l_i, u_i, x_i - w_i)| at which the solve stops", 1e-6, 0, HUGE_VAL,
     nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1, kBothExclusive, "relaxation", "1",
     "successive over-relaxation factor omega of the sweeps: 1 is Gauss-Seidel", 1.0, 0.0, 2.0, nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1, 0, "time_budget", "s",
     "wall-clock budget per solve, used when the solve options give none; 0 = none", 0.0, 0.0, HUGE_VAL, nullptr, 0,
     0},
    {sizeof(pivot_param_info), PIVOT_PARAM_INT, 1, 0, "check_interval", "",
     "sweeps between two residual checks (a check costs O(n), a sweep O(nnz))", 4, 1, 1e6, nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_BOOL, 1, 0, "subspace_minimization", "",
     "accelerate with subspace minimization: solve the free rows exactly by a sparse factorization (PGS-SM)", 1, 0,
     1, nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_INT, 1, 0, "subspace_interval", "",
     "sweeps between two subspace minimization steps", 4, 1, 1e6, nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1, kMinExclusive, "subspace_fill", "1",
     "storage of the subspace factorization in multiples of nnz(A); a free set whose factor needs more is not "
     "minimized",
     4.0, 0.0, 1e3, nullptr, 0, 0},
};

const pivot_solver_functions kFunctions = sdk::solver_functions<Instance>();

const pivot_plugin_descriptor kDescriptor = {
    sizeof(pivot_plugin_descriptor),
    PIVOT_ABI_MAJOR,
    PIVOT_ABI_MINOR,
    PIVOT_KIND_SOLVER,
    "pivot.solver.pgs",
    "Projected Gauss-Seidel with subspace minimization",
    "Pivot",
    "1.0.0",
    "projected Gauss-Seidel / SOR on the sparse matrix, friction index and block projections, accelerated by "
    "subspace minimization",
    PIVOT_SOLVER_CAP_BOXED | PIVOT_SOLVER_CAP_FRICTION_INDEX | PIVOT_SOLVER_CAP_STANDARD_LCP |
        PIVOT_SOLVER_CAP_NONSYMMETRIC | PIVOT_SOLVER_CAP_SPARSE | PIVOT_SOLVER_CAP_WARM_START |
        PIVOT_SOLVER_CAP_TIME_BUDGET | PIVOT_SOLVER_CAP_BLOCK_PROJECTION | PIVOT_SOLVER_CAP_DETERMINISTIC,
    kParams,
    kParameterCount,
    0,
    &kFunctions};

const pivot_plugin_descriptor* const kPlugins[] = {&kDescriptor};

const pivot_plugin_library kLibrary = {sizeof(pivot_plugin_library), PIVOT_ABI_MAJOR, PIVOT_ABI_MINOR, 1, kPlugins,
                                       nullptr, nullptr};

}  // namespace
}  // namespace pivot::pgs

PIVOT_PLUGIN_ENTRY {
    (void)host_abi_minor;
    return host_abi_major == PIVOT_ABI_MAJOR ? &pivot::pgs::kLibrary : nullptr;
}
