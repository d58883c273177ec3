// pivot.solver.newton: the plugin's tables (parameters, capabilities, the C
// functions of NewtonSolver, newton_solver.hpp).
#include <cmath>

#include <pivot/plugin_solver.h>
#include <pivot/solver_support.hpp>

#include "newton_solver.hpp"

namespace pivot::newton {
namespace {

const pivot_param_info kParams[kParameterCount] = {
    {sizeof(pivot_param_info), PIVOT_PARAM_INT, 1, 0, "max_iterations", "",
     "Newton iterations per solve (one sparse factorization each at most), over all proximal rounds", 100, 1, 1e6,
     nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1, PIVOT_PARAM_MIN_EXCLUSIVE, "tolerance", "",
     "natural-map residual (impulse units) at which an answer is accepted", 1e-10, 0.0, HUGE_VAL, nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1, PIVOT_PARAM_MIN_EXCLUSIVE, "proximal", "",
     "rows whose diagonal is below proximal * A_ii (rigid joints) get a proximal term that makes it so; smaller "
     "converges in fewer rounds but conditions the Hessian worse",
     1e-8, 0.0, 1.0, nullptr, 0, 0},
};

const pivot_solver_functions kFunctions = sdk::solver_functions<NewtonSolver>();

const pivot_plugin_descriptor kDescriptor = {
    sizeof(pivot_plugin_descriptor),
    PIVOT_ABI_MAJOR,
    PIVOT_ABI_MINOR,
    PIVOT_KIND_SOLVER,
    "pivot.solver.newton",
    "Newton-type solver for contact islands",
    "Pivot",
    "1.0.0",
    "exact solves of the step's problem by block principal pivoting (the semismooth Newton method on the natural "
    "map) with the linear algebra in the island's velocities: a sparse LDL^T of H = Mbar + J^T D^-1 J; friction "
    "index; a few factorizations for large piles; step problems only (factored form with mass blocks)",
    PIVOT_SOLVER_CAP_BOXED | PIVOT_SOLVER_CAP_FRICTION_INDEX | PIVOT_SOLVER_CAP_STANDARD_LCP |
        PIVOT_SOLVER_CAP_FACTORED | PIVOT_SOLVER_CAP_MASS_BLOCKS | PIVOT_SOLVER_CAP_WARM_START |
        PIVOT_SOLVER_CAP_TIME_BUDGET | PIVOT_SOLVER_CAP_DETERMINISTIC,
    kParams,
    kParameterCount,
    0,
    &kFunctions};

const pivot_plugin_descriptor* const kPlugins[] = {&kDescriptor};

const pivot_plugin_library kLibrary = {sizeof(pivot_plugin_library), PIVOT_ABI_MAJOR, PIVOT_ABI_MINOR, 1, kPlugins,
                                       nullptr, nullptr};

}  // namespace
}  // namespace pivot::newton

PIVOT_PLUGIN_ENTRY {
    (void)host_abi_minor;
    return host_abi_major == PIVOT_ABI_MAJOR ? &pivot::newton::kLibrary : nullptr;
}
