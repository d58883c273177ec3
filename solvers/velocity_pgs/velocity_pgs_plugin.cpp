// pivot.solver.velocity_pgs: the plugin's tables (parameters, capabilities,
// the C functions of VelocityGaussSeidel, velocity_gauss_seidel.hpp).
#include <cmath>

#include <pivot/plugin_solver.h>
#include <pivot/solver_support.hpp>

#include "velocity_gauss_seidel.hpp"

namespace pivot::velocity_pgs {
namespace {

constexpr uint32_t kBothExclusive = PIVOT_PARAM_MIN_EXCLUSIVE | PIVOT_PARAM_MAX_EXCLUSIVE;

const pivot_param_info kParams[kParameterCount] = {
    {sizeof(pivot_param_info), PIVOT_PARAM_INT, 1, 0, "max_iterations", "",
     "maximum number of Gauss-Seidel sweeps per solve (its work budget)", 1000, 1, 1e9, nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1, 0, "tolerance", "",
     "natural-map residual max_i |x_i - mid(l_i, u_i, x_i - w_i)| at which the solve stops", 1e-8, 0, HUGE_VAL,
     nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1, kBothExclusive, "relaxation", "1",
     "successive over-relaxation factor omega of the sweeps: 1 is Gauss-Seidel", 1.0, 0.0, 2.0, nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1, 0, "time_budget", "s",
     "wall-clock budget per solve, used when the solve options give none; 0 = none", 0.0, 0.0, HUGE_VAL, nullptr, 0,
     0},
    {sizeof(pivot_param_info), PIVOT_PARAM_INT, 1, 0, "check_interval", "",
     "sweeps between two residual checks with block projections (a check costs about one sweep; without "
     "blocks each sweep estimates the residual itself)",
     4, 1, 1e6, nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_INT, 1, 0, "interleave", "",
     "contacts on disjoint bodies swept together in lockstep, at most this many (the sweep is then Gauss-Seidel "
     "over them in that order; 1 = the problem's order, pivot.solver.pgs's sweep for sweep)",
     3, 1, kMostInterleaved, nullptr, 0, 0},
};

const pivot_solver_functions kFunctions = sdk::solver_functions<VelocityGaussSeidel>();

const pivot_plugin_descriptor kDescriptor = {
    sizeof(pivot_plugin_descriptor),
    PIVOT_ABI_MAJOR,
    PIVOT_ABI_MINOR,
    PIVOT_KIND_SOLVER,
    "pivot.solver.velocity_pgs",
    "Projected Gauss-Seidel in velocities",
    "Pivot",
    "1.1.0",
    "projected Gauss-Seidel on the factored form, A never formed (the sequential-impulse scheme): a sweep costs "
    "O(rows x block size); friction index and block projections; for islands too large to factorize; step "
    "problems only (factored form)",
    PIVOT_SOLVER_CAP_BOXED | PIVOT_SOLVER_CAP_FRICTION_INDEX | PIVOT_SOLVER_CAP_STANDARD_LCP |
        PIVOT_SOLVER_CAP_FACTORED | PIVOT_SOLVER_CAP_WARM_START | PIVOT_SOLVER_CAP_TIME_BUDGET |
        PIVOT_SOLVER_CAP_BLOCK_PROJECTION | PIVOT_SOLVER_CAP_DETERMINISTIC,
    kParams,
    kParameterCount,
    0,
    &kFunctions};

const pivot_plugin_descriptor* const kPlugins[] = {&kDescriptor};

const pivot_plugin_library kLibrary = {sizeof(pivot_plugin_library), PIVOT_ABI_MAJOR, PIVOT_ABI_MINOR, 1, kPlugins,
                                       nullptr, nullptr};

}  // namespace
}  // namespace pivot::velocity_pgs

PIVOT_PLUGIN_ENTRY {
    (void)host_abi_minor;
    return host_abi_major == PIVOT_ABI_MAJOR ? &pivot::velocity_pgs::kLibrary : nullptr;
}
