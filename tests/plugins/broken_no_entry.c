/*
 * broken_no_entry.c - broken test plugin: no entry point.
 *
 * DEFECT: the library exports its table under "pivot_plugin_entry_v0", not
 * PIVOT_PLUGIN_ENTRY_SYMBOL ("pivot_plugin_entry"), so the host finds no
 * entry and must say so. The table itself is valid.
 */

#include "minimal_solver.h"

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
    .id = "test.broken.no_entry",
    .name = "No entry (broken test)",
    .vendor = "Pivot tests",
    .version = "1.0.0",
    .description = "Exports pivot_plugin_entry_v0 instead of pivot_plugin_entry",
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

/* DEFECT: the wrong name, exported exactly like the real entry would be. */
PIVOT_EXTERN_C PIVOT_PLUGIN_EXPORT const pivot_plugin_library*
pivot_plugin_entry_v0(uint32_t host_abi_major, uint32_t host_abi_minor);

PIVOT_EXTERN_C PIVOT_PLUGIN_EXPORT const pivot_plugin_library*
pivot_plugin_entry_v0(uint32_t host_abi_major, uint32_t host_abi_minor)
{
    (void)host_abi_minor;
    return host_abi_major == PIVOT_ABI_MAJOR ? &library : NULL;
}
