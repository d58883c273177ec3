/*
 * broken_init_fails.c - broken test plugin: library init fails.
 *
 * DEFECT: library->init logs an error through the host, then returns
 * PIVOT_ERROR, so the host must refuse the library (and may show the logged
 * message). The table and its solver are valid.
 */

#include "minimal_solver.h"


static pivot_status broken_init(const pivot_host* host)
{
    if (host != NULL && host->log != NULL) {
        host->log(host->context, PIVOT_LOG_ERROR, "test.broken.init_fails",
                  "init failed on purpose (test plugin)");
    }
    return PIVOT_ERROR; /* DEFECT */
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
    .solve = minimal_solve,
};

static const pivot_plugin_descriptor descriptor = {
    .struct_size = sizeof(pivot_plugin_descriptor),
    .abi_major = PIVOT_ABI_MAJOR,
    .abi_minor = PIVOT_ABI_MINOR,
    .kind = PIVOT_KIND_SOLVER,
    .id = "test.broken.init_fails",
    .name = "Init fails (broken test)",
    .vendor = "Pivot tests",
    .version = "1.0.0",
    .description = "A library whose init returns PIVOT_ERROR",
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
    .init = broken_init,
    .deinit = NULL,
};

PIVOT_PLUGIN_ENTRY
{
    (void)host_abi_minor;
    return host_abi_major == PIVOT_ABI_MAJOR ? &library : NULL;
}
