// pivot.solver.direct: the plugin's tables (parameters, capabilities, the C
// functions of DirectSolver, direct_solver.hpp).
#include <cmath>

#include <pivot/plugin_solver.h>
#include <pivot/solver_support.hpp>

#include "direct_solver.hpp"

namespace pivot::direct {
namespace {

const pivot_param_info kParams[kParameterCount] = {
    {sizeof(pivot_param_info), PIVOT_PARAM_INT, 1, 0, "max_exchanges", "",
     "principal pivoting rounds per solve (one sparse factorization each) before giving up; a problem without "
     "bounds takes one",
     100, 1, 1e6, nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1, PIVOT_PARAM_MIN_EXCLUSIVE, "tolerance", "",
     "how far a row may be outside its bound, or its w on the wrong side, before its state changes", 1e-10, 0.0,
     HUGE_VAL, nullptr, 0, 0},
};

const pivot_solver_functions kFunctions = sdk::solver_functions<DirectSolver>();

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
