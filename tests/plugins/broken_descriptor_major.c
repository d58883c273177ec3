/*
 * broken_descriptor_major.c - broken test plugin: one descriptor of another
 * ABI major inside a library of the right major.
 *
 * DEFECT: the library table has abi_major = PIVOT_ABI_MAJOR, but its one
 * descriptor claims PIVOT_ABI_MAJOR + 1. The host validates every
 * descriptor and must refuse the library. Everything else is valid.
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
    .abi_major = PIVOT_ABI_MAJOR + 1u, /* DEFECT */
    .abi_minor = PIVOT_ABI_MINOR,
    .kind = PIVOT_KIND_SOLVER,
    .id = "test.broken.descriptor_major",
    .name = "Descriptor of another major (broken test)",
    .vendor = "Pivot tests",
    .version = "1.0.0",
    .description = "A descriptor whose abi_major differs from the library's",
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
