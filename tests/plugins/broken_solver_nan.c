/*
 * broken_solver_nan.c - broken test plugin: a solver that returns NaN.
 *
 * A valid, loadable solver "test.solver.nan". DEFECT (at run time): solve()
 * writes x = 0 except x[n-1] = NaN, yet claims CONVERGED with residual 0 and
 * returns PIVOT_OK. The host's output check must catch the NaN and name the
 * plugin, the function and the entry. w (if given) is written as b, finite,
 * so that x is the only bad output.
 */

#include <math.h>

#include "minimal_solver.h"


static pivot_status nan_solve(void* instance, const pivot_lcp_problem* problem,
                              const pivot_solve_options* options, double* x, double* w,
                              pivot_solve_report* report)
{
    uint32_t i;
    (void)instance;
    (void)options;
    if (report == NULL) {
        return PIVOT_ERROR;
    }
    if (problem == NULL || x == NULL || problem->b == NULL) {
        minimal_report(report, PIVOT_SOLVE_INVALID_PROBLEM, 0.0, "no problem, x or b");
        return PIVOT_ERROR;
    }
    for (i = 0; i < problem->n; ++i) {
        x[i] = 0.0;
        if (w != NULL) {
            w[i] = problem->b[i];
        }
    }
    if (problem->n > 0u) {
        x[problem->n - 1u] = NAN; /* DEFECT */
    }
    minimal_report(report, PIVOT_SOLVE_CONVERGED, 0.0, ""); /* a lie */
    return PIVOT_OK;
}

static const pivot_solver_functions solver_functions = {
    .struct_size = sizeof(pivot_solver_functions),
    .reserved = 0u,
    .instance =
        {
            .create = minimal_create,
            .destroy = minimal_destroy,
            .clone = minimal_clone,
            .reset = NULL,
            .set_params = NULL,
            .state_size = NULL,
            .save_state = NULL,
            .load_state = NULL,
        },
    .reserve = NULL,
    .solve = nan_solve,
};

static const pivot_plugin_descriptor descriptor = {
    .struct_size = sizeof(pivot_plugin_descriptor),
    .abi_major = PIVOT_ABI_MAJOR,
    .abi_minor = PIVOT_ABI_MINOR,
    .kind = PIVOT_KIND_SOLVER,
    .id = "test.solver.nan",
    .name = "NaN solver (broken test)",
    .vendor = "Pivot tests",
    .version = "1.0.0",
    .description = "Claims convergence but returns NaN in the last entry of x",
    .capabilities = PIVOT_SOLVER_CAP_BOXED | PIVOT_SOLVER_CAP_STANDARD_LCP |
                    PIVOT_SOLVER_CAP_DENSE,
    .params = NULL,
    .param_count = 0u,
    .reserved = 0u,
    .functions = &solver_functions,
};

static const pivot_plugin_descriptor* const plugins[] = {&descriptor};

static const pivot_plugin_library library = {
    .struct_size = sizeof(pivot_plugin_library),
    .abi_major = PIVOT_ABI_MAJOR,
    .abi_minor = PIVOT_ABI_MINOR,
    .plugin_count = (uint32_t)(sizeof plugins / sizeof plugins[0]),
    .plugins = plugins,
    .init = NULL,
    .deinit = NULL,
};

PIVOT_PLUGIN_ENTRY
{
    (void)host_abi_minor;
    return host_abi_major == PIVOT_ABI_MAJOR ? &library : NULL;
}
