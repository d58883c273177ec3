/*
 * test_joint_ball.c - test plugin (good): joint "test.joint.ball".
 *
 * A ball (spherical) joint that makes the origins of its two frames
 * coincide: three bilateral equality rows, row k with violation
 * (p2 - p1)_k and Jacobian (-e_k, 0, e_k, 0), so that the row velocity is
 * (v2 - v1)_k. Per-joint parameter "compliance" (m/N, 0 = rigid).
 *
 * Written in plain C99 against the public SDK headers only, to prove the
 * joint ABI is usable from C.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pivot/plugin_joint.h"

#define BALL_ROWS 3u

/* ------------------------------------------------------------------------ */
/* Instances                                                                 */
/* ------------------------------------------------------------------------ */

typedef struct ball_instance {
    const pivot_host* host;
} ball_instance;

static pivot_status ball_create(const pivot_host* host, const double* params,
                                uint32_t param_count, void** out_instance)
{
    ball_instance* self;
    (void)params;
    if (out_instance == NULL) {
        return PIVOT_ERROR;
    }
    *out_instance = NULL;
    if (param_count != 0u) {
        return PIVOT_ERROR; /* "compliance" is per joint, not per instance */
    }
    self = (ball_instance*)malloc(sizeof *self);
    if (self == NULL) {
        return PIVOT_ERROR;
    }
    self->host = host;
    *out_instance = self;
    return PIVOT_OK;
}

static void ball_destroy(void* instance)
{
    free(instance);
}

static pivot_status ball_clone(const void* instance, void** out_copy)
{
    ball_instance* copy;
    if (instance == NULL || out_copy == NULL) {
        return PIVOT_ERROR;
    }
    *out_copy = NULL;
    copy = (ball_instance*)malloc(sizeof *copy);
    if (copy == NULL) {
        return PIVOT_ERROR;
    }
    memcpy(copy, instance, sizeof *copy);
    *out_copy = copy;
    return PIVOT_OK;
}

/* ------------------------------------------------------------------------ */
/* Joint functions                                                           */
/* ------------------------------------------------------------------------ */

static pivot_status ball_rows(const void* instance, const pivot_joint_batch* batch,
                              const pivot_step_info* step, pivot_row* rows, double* jacobians,
                              uint32_t* row_counts)
{
    uint32_t j, k, c;
    const ball_instance* self = (const ball_instance*)instance;
    (void)step;
    if (batch == NULL) {
        return PIVOT_ERROR;
    }
    if (batch->count == 0u) {
        return PIVOT_OK;
    }
    if (rows == NULL || jacobians == NULL || row_counts == NULL || batch->frame1_poses == NULL ||
        batch->frame2_poses == NULL) {
        return PIVOT_ERROR;
    }
    if (batch->item_params == NULL || batch->item_param_stride < 1u) {
        if (self != NULL && self->host != NULL && self->host->log != NULL) {
            self->host->log(self->host->context, PIVOT_LOG_ERROR, "test.joint.ball",
                            "batch without the per-joint parameter \"compliance\"");
        }
        return PIVOT_ERROR;
    }
    for (j = 0; j < batch->count; ++j) {
        const double* p1 = batch->frame1_poses + (size_t)j * 7u;
        const double* p2 = batch->frame2_poses + (size_t)j * 7u;
        const double compliance = batch->item_params[(size_t)j * batch->item_param_stride];
        for (k = 0; k < BALL_ROWS; ++k) {
            const size_t r = (size_t)j * BALL_ROWS + k;
            pivot_row* row = rows + r;
            double* jac = jacobians + r * PIVOT_JOINT_JACOBIAN_WIDTH;
            row->violation = p2[k] - p1[k];
            row->target_velocity = 0.0;
            row->compliance = compliance;
            row->damping = 0.0;
            row->lower = -HUGE_VAL;
            row->upper = HUGE_VAL;
            row->findex = -1;
            row->flags = PIVOT_ROW_POSITION_ERROR;
            for (c = 0; c < PIVOT_JOINT_JACOBIAN_WIDTH; ++c) {
                jac[c] = 0.0;
            }
            jac[k] = -1.0;     /* v1 */
            jac[6u + k] = 1.0; /* v2 */
        }
        row_counts[j] = BALL_ROWS;
    }
    return PIVOT_OK;
}

/* ------------------------------------------------------------------------ */
/* Tables                                                                    */
/* ------------------------------------------------------------------------ */

static const pivot_param_info ball_params[] = {
    {
        .struct_size = sizeof(pivot_param_info),
        .type = PIVOT_PARAM_REAL,
        .length = 1u,
        .flags = PIVOT_PARAM_PER_ITEM | PIVOT_PARAM_ROLE(PIVOT_ROLE_COMPLIANCE),
        .name = "compliance",
        .unit = "m/N",
        .doc = "compliance of the three position rows (0 = rigid)",
        .default_value = 0.0,
        .min_value = 0.0,
        .max_value = HUGE_VAL,
        .choices = NULL,
        .choice_count = 0u,
        .reserved = 0u,
    },
};

static const pivot_joint_functions ball_functions = {
    .struct_size = sizeof(pivot_joint_functions),
    .max_rows_per_joint = BALL_ROWS,
    .instance =
        {
            .create = ball_create,
            .destroy = ball_destroy,
            .clone = ball_clone,
            .reset = NULL,
            .set_params = NULL,
            .state_size = NULL,
            .save_state = NULL,
            .load_state = NULL,
        },
    .rows = ball_rows,
    .coordinate = NULL,
};

static const pivot_plugin_descriptor ball_descriptor = {
    .struct_size = sizeof(pivot_plugin_descriptor),
    .abi_major = PIVOT_ABI_MAJOR,
    .abi_minor = PIVOT_ABI_MINOR,
    .kind = PIVOT_KIND_JOINT,
    .id = "test.joint.ball",
    .name = "Ball joint (test)",
    .vendor = "Pivot tests",
    .version = "1.0.0",
    .description = "Makes the origins of the two frames coincide",
    .capabilities = 0u,
    .params = ball_params,
    .param_count = (uint32_t)(sizeof ball_params / sizeof ball_params[0]),
    .reserved = 0u,
    .functions = &ball_functions,
};

static const pivot_plugin_descriptor* const ball_plugins[] = {&ball_descriptor};

static const pivot_plugin_library ball_library = {
    .struct_size = sizeof(pivot_plugin_library),
    .abi_major = PIVOT_ABI_MAJOR,
    .abi_minor = PIVOT_ABI_MINOR,
    .plugin_count = 1u,
    .plugins = ball_plugins,
    .init = NULL,
    .deinit = NULL,
};

PIVOT_PLUGIN_ENTRY
{
    (void)host_abi_minor;
    return host_abi_major == PIVOT_ABI_MAJOR ? &ball_library : NULL;
}
