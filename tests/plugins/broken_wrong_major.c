/*
 * broken_wrong_major.c - broken test plugin: built for another ABI major.
 *
 * DEFECT: the library table (and its descriptor) claim abi_major =
 * PIVOT_ABI_MAJOR + 1, and the entry returns the table whatever major the
 * host asks for (a well-behaved plugin would return NULL). The host must
 * refuse it with a message naming both majors. Everything else is valid.
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
    .id = "test.broken.wrong_major",
    .name = "Wrong ABI major (broken test)",
    .vendor = "Pivot tests",
    .version = "2.0.0",
    .description = "A library built against a future ABI major",
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
    .abi_major = PIVOT_ABI_MAJOR + 1u, /* DEFECT */
    .abi_minor = PIVOT_ABI_MINOR,
    .plugin_count = (uint32_t)(sizeof plugins / sizeof plugins[0]),
    .plugins = plugins,
    .init = NULL,
    .deinit = NULL,
};

/* Returns the table even to a host of another major (the defect's trigger). */
PIVOT_PLUGIN_ENTRY
{
    (void)host_abi_major;
    (void)host_abi_minor;
    return &library;
}
