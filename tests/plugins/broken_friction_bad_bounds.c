/*
 * broken_friction_bad_bounds.c - broken test plugin: a friction row with
 * lower > upper.
 *
 * A valid, loadable friction model "test.friction.bad_bounds" (BOXED, two
 * rows per contact). DEFECT (at run time): build() writes the host's normal
 * row as row 0, then a tangent row with lower = 1 > upper = -1 (findex -1).
 * The host's contract check ("bounds ordered") must catch it and name the
 * plugin, the function and the entry. All values are finite.
 */
#include <stdlib.h>
#include <string.h>

#include "pivot/plugin_friction.h"

#define BAD_ROWS 2u

typedef struct bad_bounds_instance {
    const pivot_host* host;
} bad_bounds_instance;

static pivot_status bad_create(const pivot_host* host, const double* params, uint32_t param_count,
                               void** out_instance)
{
    bad_bounds_instance* self;
    (void)params;
    if (out_instance == NULL) {
        return PIVOT_ERROR;
    }
    *out_instance = NULL;
    if (param_count != 0u) {
        return PIVOT_ERROR;
    }
    self = (bad_bounds_instance*)malloc(sizeof *self);
    if (self == NULL) {
        return PIVOT_ERROR;
    }
    self->host = host;
    *out_instance = self;
    return PIVOT_OK;
}

static void bad_destroy(void* instance)
{
    free(instance);
}

static pivot_status bad_clone(const void* instance, void** out_copy)
{
    bad_bounds_instance* copy;
    if (instance == NULL || out_copy == NULL) {
        return PIVOT_ERROR;
    }
    *out_copy = NULL;
    copy = (bad_bounds_instance*)malloc(sizeof *copy);
    if (copy == NULL) {
        return PIVOT_ERROR;
    }
    memcpy(copy, instance, sizeof *copy);
    *out_copy = copy;
    return PIVOT_OK;
}

static void set_direction(double* direction, const double linear[3])
{
    direction[0] = linear[0];
    direction[1] = linear[1];
    direction[2] = linear[2];
    direction[3] = 0.0;
    direction[4] = 0.0;
    direction[5] = 0.0;
}

static pivot_status bad_build(void* instance, const pivot_contact_point* contacts, uint32_t count,
                              const pivot_step_info* step, double* state, pivot_row* rows,
                              double* directions, double* coupling, double* impulses,
                              uint32_t* row_counts)
{
    uint32_t c;
    size_t i;
    (void)instance;
    (void)step;
    (void)state; /* state_per_contact is 0 */
    if (count == 0u) {
        return PIVOT_OK;
    }
    if (contacts == NULL || rows == NULL || directions == NULL || row_counts == NULL) {
        return PIVOT_ERROR;
    }
    for (c = 0; c < count; ++c) {
        pivot_row* r = rows + (size_t)c * BAD_ROWS;
        double* d = directions + (size_t)c * BAD_ROWS * PIVOT_FRICTION_DIRECTION_WIDTH;
        r[0] = contacts[c].normal_row;
        set_direction(d, contacts[c].normal);
        r[1].violation = 0.0;
        r[1].target_velocity = 0.0;
        r[1].compliance = 0.0;
        r[1].damping = 0.0;
        r[1].lower = 1.0; /* DEFECT: lower > upper */
        r[1].upper = -1.0;
        r[1].findex = -1;
        r[1].flags = 0u;
        set_direction(d + PIVOT_FRICTION_DIRECTION_WIDTH, contacts[c].tangent1);
        row_counts[c] = BAD_ROWS;
    }
    if (coupling != NULL) {
        for (i = 0; i < (size_t)count * BAD_ROWS * BAD_ROWS; ++i) {
            coupling[i] = 0.0;
        }
    }
    if (impulses != NULL) {
        for (i = 0; i < (size_t)count * 6u; ++i) {
            impulses[i] = 0.0;
        }
    }
    return PIVOT_OK;
}

static const pivot_friction_functions friction_functions = {
    .struct_size = sizeof(pivot_friction_functions),
    .max_rows_per_contact = BAD_ROWS,
    .state_per_contact = 0u,
    .reserved = 0u,
    .instance =
        {
            .create = bad_create,
            .destroy = bad_destroy,
            .clone = bad_clone,
            .reset = NULL,
            .set_params = NULL,
            .state_size = NULL,
            .save_state = NULL,
            .load_state = NULL,
        },
    .build = bad_build,
    .project = NULL,
};

static const pivot_plugin_descriptor descriptor = {
    .struct_size = sizeof(pivot_plugin_descriptor),
    .abi_major = PIVOT_ABI_MAJOR,
    .abi_minor = PIVOT_ABI_MINOR,
    .kind = PIVOT_KIND_FRICTION,
    .id = "test.friction.bad_bounds",
    .name = "Bad bounds friction (broken test)",
    .vendor = "Pivot tests",
    .version = "1.0.0",
    .description = "Writes a tangent row whose lower bound exceeds its upper bound",
    .capabilities = PIVOT_FRICTION_CAP_BOXED,
    .params = NULL,
    .param_count = 0u,
    .reserved = 0u,
    .functions = &friction_functions,
};

static const pivot_plugin_descriptor* const plugins[] = {&descriptor};

static const pivot_plugin_library library = {
    .struct_size = sizeof(pivot_plugin_library),
    .abi_major = PIVOT_ABI_MAJOR,
    .abi_minor = PIVOT_ABI_MINOR,
    .plugin_count = 1u,
    .plugins = plugins,
    .init = NULL,
    .deinit = NULL,
};

PIVOT_PLUGIN_ENTRY
{
    (void)host_abi_minor;
    return host_abi_major == PIVOT_ABI_MAJOR ? &library : NULL;
}
