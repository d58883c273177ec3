/*
 * broken_joint_fatal.c - broken test plugin: a joint that fails for good.
 *
 * A valid, loadable joint "test.joint.fatal" with one row per joint (x of
 * frame 2 follows x of frame 1). DEFECT (at run time): rows() returns
 * PIVOT_FATAL, which means "the instance must not be called again"
 * (plugin.h): a host test checks that the next step does not call it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pivot/plugin_joint.h"

typedef struct fatal_joint_instance {
    const pivot_host* host;
} fatal_joint_instance;

static pivot_status fatal_create(const pivot_host* host, const double* params, uint32_t param_count,
                               void** out_instance)
{
    fatal_joint_instance* self;
    (void)params;
    if (out_instance == NULL) {
        return PIVOT_ERROR;
    }
    *out_instance = NULL;
    if (param_count != 0u) {
        return PIVOT_ERROR;
    }
    self = (fatal_joint_instance*)malloc(sizeof *self);
    if (self == NULL) {
        return PIVOT_ERROR;
    }
    self->host = host;
    *out_instance = self;
    return PIVOT_OK;
}

static void fatal_destroy(void* instance)
{
    free(instance);
}

static pivot_status fatal_clone(const void* instance, void** out_copy)
{
    fatal_joint_instance* copy;
    if (instance == NULL || out_copy == NULL) {
        return PIVOT_ERROR;
    }
    *out_copy = NULL;
    copy = (fatal_joint_instance*)malloc(sizeof *copy);
    if (copy == NULL) {
        return PIVOT_ERROR;
    }
    memcpy(copy, instance, sizeof *copy);
    *out_copy = copy;
    return PIVOT_OK;
}

static pivot_status fatal_rows(const void* instance, const pivot_joint_batch* batch,
                               const pivot_step_info* step, pivot_row* rows, double* jacobians,
                               uint32_t* row_counts)
{
    uint32_t j, c;
    (void)instance;
    (void)step;
    if (batch == NULL) {
        return PIVOT_ERROR;
    }
    if (batch->count > 0u && (rows == NULL || jacobians == NULL || row_counts == NULL)) {
        return PIVOT_ERROR;
    }
    for (j = 0; j < batch->count; ++j) {
        double* jac = jacobians + (size_t)j * PIVOT_JOINT_JACOBIAN_WIDTH;
        rows[j].violation = 0.0;
        rows[j].target_velocity = 0.0;
        rows[j].compliance = 0.0;
        rows[j].damping = 0.0;
        rows[j].lower = -HUGE_VAL;
        rows[j].upper = HUGE_VAL;
        rows[j].findex = -1;
        rows[j].flags = PIVOT_ROW_POSITION_ERROR;
        for (c = 0; c < PIVOT_JOINT_JACOBIAN_WIDTH; ++c) {
            jac[c] = 0.0;
        }
        jac[0] = -1.0; /* -e_x on frame 1's linear velocity */
        jac[6] = 1.0;  /* +e_x on frame 2's linear velocity */
        row_counts[j] = 1u;
    }
    return PIVOT_FATAL; /* DEFECT: the rows are valid, but the instance has failed for good */
}

static const pivot_joint_functions joint_functions = {
    .struct_size = sizeof(pivot_joint_functions),
    .max_rows_per_joint = 1u,
    .instance =
        {
            .create = fatal_create,
            .destroy = fatal_destroy,
            .clone = fatal_clone,
            .reset = NULL,
            .set_params = NULL,
            .state_size = NULL,
            .save_state = NULL,
            .load_state = NULL,
        },
    .rows = fatal_rows,
    .coordinate = NULL,
};

static const pivot_plugin_descriptor descriptor = {
    .struct_size = sizeof(pivot_plugin_descriptor),
    .abi_major = PIVOT_ABI_MAJOR,
    .abi_minor = PIVOT_ABI_MINOR,
    .kind = PIVOT_KIND_JOINT,
    .id = "test.joint.fatal",
    .name = "Fatal joint (broken test)",
    .vendor = "Pivot tests",
    .version = "1.0.0",
    .description = "Its rows() returns FATAL",
    .capabilities = 0u,
    .params = NULL,
    .param_count = 0u,
    .reserved = 0u,
    .functions = &joint_functions,
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
