/*
 * test_joint_clock.c - test plugin: a joint that drives by the clock.
 *
 * "test.joint.clock": one bilateral velocity row per joint, x velocity of
 * frame 2 minus that of frame 1 = the step's time (pivot_step_info.time,
 * "simulated time at the start of the step"). A body on it moves along x
 * at the speed of the time its step started at, so a host test sees the
 * time the host gives joints.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pivot/plugin_joint.h"

typedef struct clock_joint_instance {
    const pivot_host* host;
} clock_joint_instance;

static pivot_status clock_create(const pivot_host* host, const double* params, uint32_t param_count,
                               void** out_instance)
{
    clock_joint_instance* self;
    (void)params;
    if (out_instance == NULL) {
        return PIVOT_ERROR;
    }
    *out_instance = NULL;
    if (param_count != 0u) {
        return PIVOT_ERROR;
    }
    self = (clock_joint_instance*)malloc(sizeof *self);
    if (self == NULL) {
        return PIVOT_ERROR;
    }
    self->host = host;
    *out_instance = self;
    return PIVOT_OK;
}

static void clock_destroy(void* instance)
{
    free(instance);
}

static pivot_status clock_clone(const void* instance, void** out_copy)
{
    clock_joint_instance* copy;
    if (instance == NULL || out_copy == NULL) {
        return PIVOT_ERROR;
    }
    *out_copy = NULL;
    copy = (clock_joint_instance*)malloc(sizeof *copy);
    if (copy == NULL) {
        return PIVOT_ERROR;
    }
    memcpy(copy, instance, sizeof *copy);
    *out_copy = copy;
    return PIVOT_OK;
}

static pivot_status clock_rows(const void* instance, const pivot_joint_batch* batch,
                             const pivot_step_info* step, pivot_row* rows, double* jacobians,
                             uint32_t* row_counts)
{
    uint32_t j, c;
    (void)instance;
    if (batch == NULL || step == NULL) {
        return PIVOT_ERROR;
    }
    if (batch->count > 0u && (rows == NULL || jacobians == NULL || row_counts == NULL)) {
        return PIVOT_ERROR;
    }
    for (j = 0; j < batch->count; ++j) {
        double* jac = jacobians + (size_t)j * PIVOT_JOINT_JACOBIAN_WIDTH;
        rows[j].violation = 0.0;
        rows[j].target_velocity = step->time; /* m/s: the clock */
        rows[j].compliance = 0.0;
        rows[j].damping = 0.0;
        rows[j].lower = -HUGE_VAL;
        rows[j].upper = HUGE_VAL;
        rows[j].findex = -1;
        rows[j].flags = PIVOT_ROW_NO_STABILIZATION;
        for (c = 0; c < PIVOT_JOINT_JACOBIAN_WIDTH; ++c) {
            jac[c] = 0.0;
        }
        jac[0] = -1.0; /* -e_x on frame 1's linear velocity */
        jac[6] = 1.0;  /* +e_x on frame 2's linear velocity */
        row_counts[j] = 1u;
    }
    return PIVOT_OK;
}

static const pivot_joint_functions joint_functions = {
    .struct_size = sizeof(pivot_joint_functions),
    .max_rows_per_joint = 1u,
    .instance =
        {
            .create = clock_create,
            .destroy = clock_destroy,
            .clone = clock_clone,
            .reset = NULL,
            .set_params = NULL,
            .state_size = NULL,
            .save_state = NULL,
            .load_state = NULL,
        },
    .rows = clock_rows,
    .coordinate = NULL,
};

static const pivot_plugin_descriptor descriptor = {
    .struct_size = sizeof(pivot_plugin_descriptor),
    .abi_major = PIVOT_ABI_MAJOR,
    .abi_minor = PIVOT_ABI_MINOR,
    .kind = PIVOT_KIND_JOINT,
    .id = "test.joint.clock",
    .name = "Clock joint (test)",
    .vendor = "Pivot tests",
    .version = "1.0.0",
    .description = "Frame 2 moves along x at the step time, in m/s",
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
