/*
 * broken_duplicate_in_library.c - broken test plugin: one id twice in one
 * library.
 *
 * DEFECT: the library holds two valid solver descriptors that both use the
 * id "test.broken.twice"; the host must refuse the whole library. Each
 * descriptor on its own is valid.
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

static const pivot_plugin_descriptor first = {
    .struct_size = sizeof(pivot_plugin_descriptor),
    .abi_major = PIVOT_ABI_MAJOR,
    .abi_minor = PIVOT_ABI_MINOR,
    .kind = PIVOT_KIND_SOLVER,
    .id = "test.broken.twice",
    .name = "Twice, first (broken test)",
    .vendor = "Pivot tests",
    .version = "1.0.0",
    .description = "First of two descriptors with the same id",
    .capabilities = PIVOT_SOLVER_CAP_BOXED | PIVOT_SOLVER_CAP_STANDARD_LCP |
                    PIVOT_SOLVER_CAP_DENSE,
    .params = NULL,
    .param_count = 0u,
    .reserved = 0u,
    .functions = &solver_functions,
};

static const pivot_plugin_descriptor second = {
    .struct_size = sizeof(pivot_plugin_descriptor),
    .abi_major = PIVOT_ABI_MAJOR,
    .abi_minor = PIVOT_ABI_MINOR,
    .kind = PIVOT_KIND_SOLVER,
    .id = "test.broken.twice", /* DEFECT: same id as `first` */
    .name = "Twice, second (broken test)",
    .vendor = "Pivot tests",
    .version = "1.0.1",
    .description = "Second of two descriptors with the same id",
    .capabilities = PIVOT_SOLVER_CAP_BOXED | PIVOT_SOLVER_CAP_STANDARD_LCP |
                    PIVOT_SOLVER_CAP_DENSE,
    .params = NULL,
    .param_count = 0u,
    .reserved = 0u,
    .functions = &solver_functions,
};

static const pivot_plugin_descriptor* const plugins[] = {&first, &second};

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
