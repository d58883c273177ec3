/*
 * test_joints_contract.c - test plugins that show what the host gives joints.
 *
 * Each joint has one row per joint on the x velocity of frame 2 relative to
 * frame 1 (Jacobian -e_x on frame 1's linear velocity, +e_x on frame 2's).
 *
 * "test.joint.clock": the row drives that velocity to the step's time
 * (pivot_step_info.time, "simulated time at the start of the step"): a body
 * on it moves along x at the speed of the time its step started at, so a
 * host test sees the time the host gives joints.
 * "test.joint.short_clock": the clock joint, which discards any step
 * longer than 3 ms (PIVOT_DISCARD, "outputs unusable for this step only;
 * the host may retry (smaller step, other solver)"): a host test sees the
 * host retry the step in substeps, each with its own start time.
 * "test.joint.drive" (ABI 1.6): parameter roles. Its per-item parameters
 * have names of its own and say what they are through their roles
 * (pivot_param_role):
 * softness (COMPLIANCE), use_drive (MOTOR_ENABLED), drive_speed
 * (MOTOR_VELOCITY), drive_force (MOTOR_MAX_FORCE). With the drive on the row
 * drives the relative x velocity to drive_speed within +-drive_force;
 * off, it holds it at zero.
 * "test.joint.drive_1_5": the same joint declared as built for ABI 1.5, with
 * no roles and the parameter names the first-party joints used then
 * (compliance, motor_enabled, motor_velocity, motor_max_force), which the
 * host reads as those roles.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pivot/plugin_joint.h"

/* The instances keep only the host, for every joint of this library. */
typedef struct contract_joint_instance {
    const pivot_host* host;
} contract_joint_instance;

static pivot_status contract_create(const pivot_host* host, const double* params, uint32_t param_count,
                               void** out_instance)
{
    contract_joint_instance* self;
    (void)params;
    if (out_instance == NULL) {
        return PIVOT_ERROR;
    }
    *out_instance = NULL;
    if (param_count != 0u) {
        return PIVOT_ERROR;
    }
    self = (contract_joint_instance*)malloc(sizeof *self);
    if (self == NULL) {
        return PIVOT_ERROR;
    }
    self->host = host;
    *out_instance = self;
    return PIVOT_OK;
}

static void contract_destroy(void* instance)
{
    free(instance);
}

static pivot_status contract_clone(const void* instance, void** out_copy)
{
    contract_joint_instance* copy;
    if (instance == NULL || out_copy == NULL) {
        return PIVOT_ERROR;
    }
    *out_copy = NULL;
    copy = (contract_joint_instance*)malloc(sizeof *copy);
    if (copy == NULL) {
        return PIVOT_ERROR;
    }
    memcpy(copy, instance, sizeof *copy);
    *out_copy = copy;
    return PIVOT_OK;
}

/* The velocity row of one joint: (v2 - v1).e_x driven to `target` (m/s)
   within [lower, upper] (N), with `compliance` (m/N). */
static void x_velocity_row(pivot_row* row, double* jac, double target, double compliance, double lower,
                           double upper)
{
    uint32_t c;
    row->violation = 0.0;
    row->target_velocity = target;
    row->compliance = compliance;
    row->damping = 0.0;
    row->lower = lower;
    row->upper = upper;
    row->findex = -1;
    row->flags = PIVOT_ROW_NO_STABILIZATION;
    for (c = 0; c < PIVOT_JOINT_JACOBIAN_WIDTH; ++c) {
        jac[c] = 0.0;
    }
    jac[0] = -1.0; /* -e_x on frame 1's linear velocity */
    jac[6] = 1.0;  /* +e_x on frame 2's linear velocity */
}

static pivot_status clock_rows(const void* instance, const pivot_joint_batch* batch,
                               const pivot_step_info* step, pivot_row* rows, double* jacobians,
                               uint32_t* row_counts)
{
    uint32_t j;
    (void)instance;
    if (batch == NULL || step == NULL) {
        return PIVOT_ERROR;
    }
    if (batch->count > 0u && (rows == NULL || jacobians == NULL || row_counts == NULL)) {
        return PIVOT_ERROR;
    }
    for (j = 0; j < batch->count; ++j) {
        /* m/s: the clock */
        x_velocity_row(rows + j, jacobians + (size_t)j * PIVOT_JOINT_JACOBIAN_WIDTH, step->time, 0.0, -HUGE_VAL,
                       HUGE_VAL);
        row_counts[j] = 1u;
    }
    return PIVOT_OK;
}

/* s: the longest step the short clock takes */
#define SHORT_CLOCK_MAX_TIMESTEP 0.003

static pivot_status short_clock_rows(const void* instance, const pivot_joint_batch* batch,
                                     const pivot_step_info* step, pivot_row* rows, double* jacobians,
                                     uint32_t* row_counts)
{
    if (step != NULL && step->timestep > SHORT_CLOCK_MAX_TIMESTEP) {
        const contract_joint_instance* self = (const contract_joint_instance*)instance;
        if (self != NULL && self->host != NULL && self->host->log != NULL) {
            self->host->log(self->host->context, PIVOT_LOG_INFO, "test.joint.short_clock",
                            "steps longer than 3 ms are discarded");
        }
        return PIVOT_DISCARD;
    }
    return clock_rows(instance, batch, step, rows, jacobians, row_counts);
}

static pivot_status drive_rows(const void* instance, const pivot_joint_batch* batch,
                               const pivot_step_info* step, pivot_row* rows, double* jacobians,
                               uint32_t* row_counts)
{
    uint32_t j;
    (void)instance;
    (void)step;
    if (batch == NULL || (batch->count > 0u && (batch->item_params == NULL || batch->item_param_stride < 4u))) {
        return PIVOT_ERROR;
    }
    if (batch->count > 0u && (rows == NULL || jacobians == NULL || row_counts == NULL)) {
        return PIVOT_ERROR;
    }
    for (j = 0; j < batch->count; ++j) {
        const double* p = batch->item_params + (size_t)j * batch->item_param_stride;
        const int drive = p[1] != 0.0;
        x_velocity_row(rows + j, jacobians + (size_t)j * PIVOT_JOINT_JACOBIAN_WIDTH, drive ? p[2] : 0.0,
                       drive ? 0.0 : p[0], drive ? -p[3] : -HUGE_VAL, drive ? p[3] : HUGE_VAL);
        row_counts[j] = 1u;
    }
    return PIVOT_OK;
}

static const pivot_joint_functions drive_functions = {
    .struct_size = sizeof(pivot_joint_functions),
    .max_rows_per_joint = 1u,
    .instance =
        {
            .create = contract_create,
            .destroy = contract_destroy,
            .clone = contract_clone,
            .reset = NULL,
            .set_params = NULL,
            .state_size = NULL,
            .save_state = NULL,
            .load_state = NULL,
        },
    .rows = drive_rows,
    .coordinate = NULL,
    .geometric_stiffness = NULL,
    .frames = PIVOT_JOINT_FRAMES_ANCHOR,
    .reserved = 0u,
};

/* One per-item parameter of length 1, default 0. */
#define DRIVE_PARAM(param_name, param_type, param_unit, param_min, param_max, param_flags)                \
    {                                                                                                 \
        .struct_size = sizeof(pivot_param_info), .type = (param_type), .length = 1u,                  \
        .flags = PIVOT_PARAM_PER_ITEM | (param_flags), .name = (param_name), .unit = (param_unit),    \
        .doc = "test parameter", .default_value = 0.0, .min_value = (param_min),                      \
        .max_value = (param_max), .choices = NULL, .choice_count = 0u, .reserved = 0u                 \
    }

static const pivot_param_info drive_params[] = {
    DRIVE_PARAM("softness", PIVOT_PARAM_REAL, "m/N", 0.0, HUGE_VAL, PIVOT_PARAM_ROLE(PIVOT_ROLE_COMPLIANCE)),
    DRIVE_PARAM("use_drive", PIVOT_PARAM_BOOL, "", 0.0, 1.0, PIVOT_PARAM_ROLE(PIVOT_ROLE_MOTOR_ENABLED)),
    DRIVE_PARAM("drive_speed", PIVOT_PARAM_REAL, "m/s", -HUGE_VAL, HUGE_VAL,
                PIVOT_PARAM_ROLE(PIVOT_ROLE_MOTOR_VELOCITY)),
    DRIVE_PARAM("drive_force", PIVOT_PARAM_REAL, "N", 0.0, HUGE_VAL, PIVOT_PARAM_ROLE(PIVOT_ROLE_MOTOR_MAX_FORCE)),
};

static const pivot_param_info drive_params_1_5[] = {
    DRIVE_PARAM("compliance", PIVOT_PARAM_REAL, "m/N", 0.0, HUGE_VAL, 0u),
    DRIVE_PARAM("motor_enabled", PIVOT_PARAM_BOOL, "", 0.0, 1.0, 0u),
    DRIVE_PARAM("motor_velocity", PIVOT_PARAM_REAL, "m/s", -HUGE_VAL, HUGE_VAL, 0u),
    DRIVE_PARAM("motor_max_force", PIVOT_PARAM_REAL, "N", 0.0, HUGE_VAL, 0u),
};

/* The function table of a clock-like joint: one row, no parameters. */
#define CLOCK_FUNCTIONS(rows_function)                                                                  \
    {                                                                                                   \
        .struct_size = sizeof(pivot_joint_functions), .max_rows_per_joint = 1u,                         \
        .instance = {.create = contract_create, .destroy = contract_destroy, .clone = contract_clone,    \
                     .reset = NULL, .set_params = NULL, .state_size = NULL, .save_state = NULL,         \
                     .load_state = NULL},                                                               \
        .rows = (rows_function), .coordinate = NULL, .geometric_stiffness = NULL,                       \
        .frames = PIVOT_JOINT_FRAMES_ANCHOR, .reserved = 0u                                             \
    }

static const pivot_joint_functions clock_functions = CLOCK_FUNCTIONS(clock_rows);

static const pivot_plugin_descriptor clock_descriptor = {
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
    .functions = &clock_functions,
};

static const pivot_joint_functions short_clock_functions = CLOCK_FUNCTIONS(short_clock_rows);

static const pivot_plugin_descriptor short_clock_descriptor = {
    .struct_size = sizeof(pivot_plugin_descriptor),
    .abi_major = PIVOT_ABI_MAJOR,
    .abi_minor = PIVOT_ABI_MINOR,
    .kind = PIVOT_KIND_JOINT,
    .id = "test.joint.short_clock",
    .name = "Short-step clock joint (test)",
    .vendor = "Pivot tests",
    .version = "1.0.0",
    .description = "The clock joint; discards steps longer than 3 ms",
    .capabilities = 0u,
    .params = NULL,
    .param_count = 0u,
    .reserved = 0u,
    .functions = &short_clock_functions,
};

static const pivot_plugin_descriptor descriptor = {
    .struct_size = sizeof(pivot_plugin_descriptor),
    .abi_major = PIVOT_ABI_MAJOR,
    .abi_minor = PIVOT_ABI_MINOR,
    .kind = PIVOT_KIND_JOINT,
    .id = "test.joint.drive",
    .name = "Drive joint (test)",
    .vendor = "Pivot tests",
    .version = "1.0.0",
    .description = "Drives the relative x velocity; parameters with roles",
    .capabilities = PIVOT_JOINT_CAP_MOTOR,
    .params = drive_params,
    .param_count = (uint32_t)(sizeof drive_params / sizeof drive_params[0]),
    .reserved = 0u,
    .functions = &drive_functions,
};

static const pivot_plugin_descriptor descriptor_1_5 = {
    .struct_size = sizeof(pivot_plugin_descriptor),
    .abi_major = PIVOT_ABI_MAJOR,
    .abi_minor = 5u, /* as if built before roles */
    .kind = PIVOT_KIND_JOINT,
    .id = "test.joint.drive_1_5",
    .name = "Drive joint, ABI 1.5 (test)",
    .vendor = "Pivot tests",
    .version = "1.0.0",
    .description = "The same drive, parameters named as before ABI 1.6",
    .capabilities = PIVOT_JOINT_CAP_MOTOR,
    .params = drive_params_1_5,
    .param_count = (uint32_t)(sizeof drive_params_1_5 / sizeof drive_params_1_5[0]),
    .reserved = 0u,
    .functions = &drive_functions,
};

static const pivot_plugin_descriptor* const plugins[] = {&clock_descriptor, &short_clock_descriptor, &descriptor,
                                                         &descriptor_1_5};

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
