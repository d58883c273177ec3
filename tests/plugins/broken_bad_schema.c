/*
 * broken_bad_schema.c - broken test plugin: inconsistent parameter schema.
 *
 * DEFECT: the one parameter "tolerance" has min_value 1 > max_value 0 (its
 * default 0.5 is therefore outside the range too, but the range is the
 * defect). The host must refuse the descriptor, naming the parameter.
 * Everything else is valid.
 */

#include "minimal_solver.h"


static const pivot_param_info bad_params[] = {
    {
        .struct_size = sizeof(pivot_param_info),
        .type = PIVOT_PARAM_REAL,
        .length = 1u,
        .flags = 0u,
        .name = "tolerance",
        .unit = "1",
        .doc = "a tolerance whose range is empty",
        .default_value = 0.5,
        .min_value = 1.0, /* DEFECT: min > max */
        .max_value = 0.0,
        .choices = NULL,
        .choice_count = 0u,
        .reserved = 0u,
    },
};

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
    .id = "test.broken.bad_schema",
    .name = "Bad schema (broken test)",
    .vendor = "Pivot tests",
    .version = "1.0.0",
    .description = "A parameter whose minimum exceeds its maximum",
    .capabilities = PIVOT_SOLVER_CAP_BOXED | PIVOT_SOLVER_CAP_STANDARD_LCP |
                    PIVOT_SOLVER_CAP_DENSE,
    .params = bad_params,
    .param_count = (uint32_t)(sizeof bad_params / sizeof bad_params[0]),
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
