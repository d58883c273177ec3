/*
 * broken_solver_out_of_memory.c - broken test plugin: a solver out of memory.
 *
 * A valid, loadable solver "test.solver.out_of_memory". Its solve() reports
 * PIVOT_SOLVE_OUT_OF_MEMORY ("the workspace could not grow") with
 * PIVOT_WARNING and x = 0. DEFECT: WARNING says the outputs are usable while
 * the report says the problem was not solved; the host must refuse the
 * answer for that reason, reading the status as the valid pivot_solve_status
 * it is.
 */

#include "minimal_solver.h"


static pivot_status out_of_memory_solve(void* instance, const pivot_lcp_problem* problem,
                                const pivot_solve_options* options, double* x, double* w,
                                pivot_solve_report* report)
{
    uint32_t i;
    (void)instance;
    (void)options;
    if (report == NULL) {
        return PIVOT_ERROR;
    }
    if (problem == NULL || x == NULL || problem->b == NULL || problem->lo == NULL ||
        problem->hi == NULL) {
        minimal_report(report, PIVOT_SOLVE_INVALID_PROBLEM, 0.0, "no problem, x, b, lo or hi");
        return PIVOT_ERROR;
    }
    for (i = 0; i < problem->n; ++i) {
        x[i] = 0.0;
        if (w != NULL) {
            w[i] = problem->b[i];
        }
    }
    minimal_report(report, PIVOT_SOLVE_OUT_OF_MEMORY, minimal_residual_at_zero(problem),
                   "the workspace could not grow");
    return PIVOT_WARNING; /* the defect under test */
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
    .solve = out_of_memory_solve,
};

static const pivot_plugin_descriptor descriptor = {
    .struct_size = sizeof(pivot_plugin_descriptor),
    .abi_major = PIVOT_ABI_MAJOR,
    .abi_minor = PIVOT_ABI_MINOR,
    .kind = PIVOT_KIND_SOLVER,
    .id = "test.solver.out_of_memory",
    .name = "Solver out of memory (broken test)",
    .vendor = "Pivot tests",
    .version = "1.0.0",
    .description = "Reports out of memory with a warning",
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
