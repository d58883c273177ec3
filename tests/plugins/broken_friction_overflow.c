/*
 * broken_friction_overflow.c - broken test plugin: writes past its output
 * rows.
 *
 * A valid, loadable friction model "test.friction.overflow" (BOXED, one row
 * per contact: the host's normal row). DEFECT (at run time): build() also
 * writes two rows and their directions after the last contact's, past the
 * arrays the host gave it. The host's guard zones (plugin_output.hpp) must
 * catch it, name the plugin, the function and the output, and leave the
 * heap intact. Everything it writes is finite.
 */
#include <stdlib.h>
#include <string.h>

#include "pivot/plugin_friction.h"

#define OVERFLOW_ROWS 1u
#define EXTRA_ROWS 2u

typedef struct overflow_instance {
    const pivot_host* host;
} overflow_instance;

static pivot_status overflow_create(const pivot_host* host, const double* params, uint32_t param_count,
                               void** out_instance)
{
    overflow_instance* self;
    (void)params;
    if (out_instance == NULL) {
        return PIVOT_ERROR;
    }
    *out_instance = NULL;
    if (param_count != 0u) {
        return PIVOT_ERROR;
    }
    self = (overflow_instance*)malloc(sizeof *self);
    if (self == NULL) {
        return PIVOT_ERROR;
    }
    self->host = host;
    *out_instance = self;
    return PIVOT_OK;
}

static void overflow_destroy(void* instance)
{
    free(instance);
}

static pivot_status overflow_clone(const void* instance, void** out_copy)
{
    overflow_instance* copy;
    if (instance == NULL || out_copy == NULL) {
        return PIVOT_ERROR;
    }
    *out_copy = NULL;
    copy = (overflow_instance*)malloc(sizeof *copy);
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

static pivot_status overflow_build(void* instance, const pivot_contact_point* contacts, uint32_t count,
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
        rows[c] = contacts[c].normal_row;
        set_direction(directions + (size_t)c * PIVOT_FRICTION_DIRECTION_WIDTH, contacts[c].normal);
        row_counts[c] = OVERFLOW_ROWS;
    }
    /* DEFECT: two rows more than count * max_rows_per_contact. */
    for (c = count; c < count + EXTRA_ROWS; ++c) {
        rows[c] = contacts[count - 1].normal_row;
        set_direction(directions + (size_t)c * PIVOT_FRICTION_DIRECTION_WIDTH, contacts[count - 1].normal);
    }
    if (coupling != NULL) {
        for (i = 0; i < (size_t)count * OVERFLOW_ROWS * OVERFLOW_ROWS; ++i) {
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
    .max_rows_per_contact = OVERFLOW_ROWS,
    .state_per_contact = 0u,
    .reserved = 0u,
    .instance =
        {
            .create = overflow_create,
            .destroy = overflow_destroy,
            .clone = overflow_clone,
            .reset = NULL,
            .set_params = NULL,
            .state_size = NULL,
            .save_state = NULL,
            .load_state = NULL,
        },
    .build = overflow_build,
    .project = NULL,
};

static const pivot_plugin_descriptor descriptor = {
    .struct_size = sizeof(pivot_plugin_descriptor),
    .abi_major = PIVOT_ABI_MAJOR,
    .abi_minor = PIVOT_ABI_MINOR,
    .kind = PIVOT_KIND_FRICTION,
    .id = "test.friction.overflow",
    .name = "Overflowing friction (broken test)",
    .vendor = "Pivot tests",
    .version = "1.0.0",
    .description = "Writes two rows past the end of its output",
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
