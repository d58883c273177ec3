/*
 * test_friction_box.c - test plugins (good): friction models
 * "test.friction.box" and "test.friction.frictionless", in ONE library.
 *
 * Tests that a library may hold several plugins, and the friction-model ABI:
 *  - test.friction.box: the host's normal row, then two tangent rows whose
 *    bounds are -mu..+mu times the normal force (findex 0). Instance
 *    parameter "mu". Keeps one double of per-contact state, the number of
 *    build() calls in which the contact was present, so host tests can check
 *    that state follows persistent contact ids. Its contacts_ended (ABI
 *    1.9) logs, at info level in category "test.friction.box", one line
 *    "ended <count>: <id>=<builds> ..." (ids in hex), so host tests can
 *    check which contacts ended, when, and with what last state. Its
 *    create() refuses mu = 7 exactly, inside its schema's range, so host
 *    tests can check that a value a model refuses beyond its schema is
 *    reported where it is set.
 *  - test.friction.frictionless: the host's normal row only.
 *  - test.friction.echo: the host's normal row, and as its explicit impulse
 *    the tangential part of previous_impulses put back into the world with
 *    this step's tangents (a new contact starts with `seed` N s along the
 *    world x axis, in the tangent plane). If previous_impulses is last
 *    step's total linear impulse in this step's frame (ABI 1.8), the echo
 *    repeats the seed's world vector exactly, step after step.
 *
 * Written in plain C99 against the public SDK headers only, to prove the
 * friction-model ABI is usable from C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pivot/plugin_friction.h"

#define BOX_ROWS 3u
#define BOX_STATE 1u
#define FRICTIONLESS_ROWS 1u

/* ------------------------------------------------------------------------ */
/* Instances (one struct for both models; frictionless ignores mu)           */
/* ------------------------------------------------------------------------ */

typedef struct friction_instance {
    const pivot_host* host;
    double mu;
} friction_instance;

static pivot_status friction_new(const pivot_host* host, double mu, void** out_instance)
{
    friction_instance* self = (friction_instance*)malloc(sizeof *self);
    if (self == NULL) {
        return PIVOT_ERROR;
    }
    self->host = host;
    self->mu = mu;
    *out_instance = self;
    return PIVOT_OK;
}

static pivot_status box_create(const pivot_host* host, const double* params, uint32_t param_count,
                               void** out_instance)
{
    if (out_instance == NULL) {
        return PIVOT_ERROR;
    }
    *out_instance = NULL;
    if (param_count != 1u || params == NULL) {
        return PIVOT_ERROR; /* schema: "mu" */
    }
    if (params[0] == 7.0) {
        return PIVOT_ERROR; /* refused beyond the schema (see the top of this file) */
    }
    return friction_new(host, params[0], out_instance);
}

static pivot_status frictionless_create(const pivot_host* host, const double* params,
                                        uint32_t param_count, void** out_instance)
{
    (void)params;
    if (out_instance == NULL) {
        return PIVOT_ERROR;
    }
    *out_instance = NULL;
    if (param_count != 0u) {
        return PIVOT_ERROR;
    }
    return friction_new(host, 0.0, out_instance);
}

static void friction_destroy(void* instance)
{
    free(instance);
}

static pivot_status friction_clone(const void* instance, void** out_copy)
{
    friction_instance* copy;
    if (instance == NULL || out_copy == NULL) {
        return PIVOT_ERROR;
    }
    *out_copy = NULL;
    copy = (friction_instance*)malloc(sizeof *copy);
    if (copy == NULL) {
        return PIVOT_ERROR;
    }
    memcpy(copy, instance, sizeof *copy);
    *out_copy = copy;
    return PIVOT_OK;
}

static pivot_status box_set_params(void* instance, const double* params, uint32_t param_count)
{
    if (instance == NULL || param_count != 1u || params == NULL) {
        return PIVOT_ERROR;
    }
    ((friction_instance*)instance)->mu = params[0];
    return PIVOT_OK;
}

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */
/* ------------------------------------------------------------------------ */

static void set_direction(double* direction, const double linear[3])
{
    direction[0] = linear[0];
    direction[1] = linear[1];
    direction[2] = linear[2];
    direction[3] = 0.0;
    direction[4] = 0.0;
    direction[5] = 0.0;
}

/*
 * The coupling block and explicit impulses are only read with
 * PIVOT_FRICTION_CAP_STANDARD_LCP / EXPLICIT_FORCE, which these models do not
 * declare; they are zeroed anyway as the header asks. The header does not
 * say whether the host may pass NULL for them, so NULL is tolerated.
 */
static void zero_unused(double* coupling, double* impulses, uint32_t count, uint32_t max_rows)
{
    size_t i;
    if (coupling != NULL) {
        const size_t n = (size_t)count * max_rows * max_rows;
        for (i = 0; i < n; ++i) {
            coupling[i] = 0.0;
        }
    }
    if (impulses != NULL) {
        const size_t n = (size_t)count * 6u;
        for (i = 0; i < n; ++i) {
            impulses[i] = 0.0;
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Friction functions                                                        */
/* ------------------------------------------------------------------------ */

static pivot_status box_build(void* instance, const pivot_contact_point* contacts, uint32_t count,
                              const pivot_step_info* step, double* state, pivot_row* rows,
                              double* directions, double* coupling, double* impulses,
                              uint32_t* row_counts)
{
    uint32_t c;
    double mu;
    (void)step;
    if (instance == NULL) {
        return PIVOT_ERROR;
    }
    if (count == 0u) {
        return PIVOT_OK;
    }
    if (contacts == NULL || state == NULL || rows == NULL || directions == NULL ||
        row_counts == NULL) {
        return PIVOT_ERROR;
    }
    mu = ((const friction_instance*)instance)->mu;
    for (c = 0; c < count; ++c) {
        const pivot_contact_point* contact = contacts + c;
        pivot_row* r = rows + (size_t)c * BOX_ROWS;
        double* d = directions + (size_t)c * BOX_ROWS * PIVOT_FRICTION_DIRECTION_WIDTH;
        uint32_t k;

        state[(size_t)c * BOX_STATE] += 1.0;

        r[0] = contact->normal_row;
        set_direction(d, contact->normal);
        for (k = 1; k < BOX_ROWS; ++k) {
            r[k].violation = 0.0;
            r[k].target_velocity = 0.0;
            r[k].compliance = 0.0;
            r[k].damping = 0.0;
            r[k].lower = -mu;
            r[k].upper = mu;
            r[k].findex = 0;
            r[k].flags = 0u;
        }
        set_direction(d + 1u * PIVOT_FRICTION_DIRECTION_WIDTH, contact->tangent1);
        set_direction(d + 2u * PIVOT_FRICTION_DIRECTION_WIDTH, contact->tangent2);
        row_counts[c] = BOX_ROWS;
    }
    zero_unused(coupling, impulses, count, BOX_ROWS);
    return PIVOT_OK;
}

static pivot_status box_contacts_ended(void* instance, const uint64_t* ids, const double* state, uint32_t count,
                                       const pivot_step_info* step)
{
    const friction_instance* self = (const friction_instance*)instance;
    char line[512];
    size_t used;
    uint32_t c;
    (void)step;
    if (self == NULL || ids == NULL || state == NULL || count == 0u) {
        return PIVOT_ERROR; /* the contract: count >= 1, state for a model with state */
    }
    used = (size_t)snprintf(line, sizeof line, "ended %u:", (unsigned)count);
    for (c = 0; c < count && used < sizeof line; ++c) {
        used += (size_t)snprintf(line + used, sizeof line - used, " %llx=%.0f", (unsigned long long)ids[c],
                                 state[(size_t)c * BOX_STATE]);
    }
    if (self->host != NULL && self->host->log != NULL) {
        self->host->log(self->host->context, PIVOT_LOG_INFO, "test.friction.box", line);
    }
    return PIVOT_OK;
}

static pivot_status frictionless_build(void* instance, const pivot_contact_point* contacts,
                                       uint32_t count, const pivot_step_info* step, double* state,
                                       pivot_row* rows, double* directions, double* coupling,
                                       double* impulses, uint32_t* row_counts)
{
    uint32_t c;
    (void)step;
    (void)state; /* state_per_contact is 0 */
    if (instance == NULL) {
        return PIVOT_ERROR;
    }
    if (count == 0u) {
        return PIVOT_OK;
    }
    if (contacts == NULL || rows == NULL || directions == NULL || row_counts == NULL) {
        return PIVOT_ERROR;
    }
    for (c = 0; c < count; ++c) {
        rows[c] = contacts[c].normal_row;
        set_direction(directions + (size_t)c * PIVOT_FRICTION_DIRECTION_WIDTH, contacts[c].normal);
        row_counts[c] = FRICTIONLESS_ROWS;
    }
    zero_unused(coupling, impulses, count, FRICTIONLESS_ROWS);
    return PIVOT_OK;
}

/* ------------------------------------------------------------------------ */
/* Tables                                                                    */
/* ------------------------------------------------------------------------ */

static const pivot_param_info box_params[] = {
    {
        .struct_size = sizeof(pivot_param_info),
        .type = PIVOT_PARAM_REAL,
        .length = 1u,
        .flags = 0u,
        .name = "mu",
        .unit = "1",
        .doc = "Coulomb friction coefficient (box approximation)",
        .default_value = 0.5,
        .min_value = 0.0,
        .max_value = 10.0,
        .choices = NULL,
        .choice_count = 0u,
        .reserved = 0u,
    },
};

static const pivot_friction_functions box_functions = {
    .struct_size = sizeof(pivot_friction_functions),
    .max_rows_per_contact = BOX_ROWS,
    .state_per_contact = BOX_STATE,
    .reserved = 0u,
    .instance =
        {
            .create = box_create,
            .destroy = friction_destroy,
            .clone = friction_clone,
            .reset = NULL,
            .set_params = box_set_params,
            .state_size = NULL,
            .save_state = NULL,
            .load_state = NULL,
        },
    .build = box_build,
    .project = NULL,
    .contacts_ended = box_contacts_ended,
};

static const pivot_friction_functions frictionless_functions = {
    .struct_size = sizeof(pivot_friction_functions),
    .max_rows_per_contact = FRICTIONLESS_ROWS,
    .state_per_contact = 0u,
    .reserved = 0u,
    .instance =
        {
            .create = frictionless_create,
            .destroy = friction_destroy,
            .clone = friction_clone,
            .reset = NULL,
            .set_params = NULL,
            .state_size = NULL,
            .save_state = NULL,
            .load_state = NULL,
        },
    .build = frictionless_build,
    .project = NULL,
};

static const pivot_plugin_descriptor box_descriptor = {
    .struct_size = sizeof(pivot_plugin_descriptor),
    .abi_major = PIVOT_ABI_MAJOR,
    .abi_minor = PIVOT_ABI_MINOR,
    .kind = PIVOT_KIND_FRICTION,
    .id = "test.friction.box",
    .name = "Box friction (test)",
    .vendor = "Pivot tests",
    .version = "1.0.0",
    .description = "Normal row plus two tangent rows bounded by mu times the normal force",
    .capabilities = PIVOT_FRICTION_CAP_BOXED | PIVOT_FRICTION_CAP_STATE,
    .params = box_params,
    .param_count = (uint32_t)(sizeof box_params / sizeof box_params[0]),
    .reserved = 0u,
    .functions = &box_functions,
};

static const pivot_plugin_descriptor frictionless_descriptor = {
    .struct_size = sizeof(pivot_plugin_descriptor),
    .abi_major = PIVOT_ABI_MAJOR,
    .abi_minor = PIVOT_ABI_MINOR,
    .kind = PIVOT_KIND_FRICTION,
    .id = "test.friction.frictionless",
    .name = "Frictionless (test)",
    .vendor = "Pivot tests",
    .version = "1.0.0",
    .description = "The host's normal row only",
    .capabilities = PIVOT_FRICTION_CAP_BOXED,
    .params = NULL,
    .param_count = 0u,
    .reserved = 0u,
    .functions = &frictionless_functions,
};

/* ------------------------------------------------------------------------ */
/* test.friction.echo                                                        */
/* ------------------------------------------------------------------------ */

static pivot_status echo_build(void* instance, const pivot_contact_point* contacts, uint32_t count,
                               const pivot_step_info* step, double* state, pivot_row* rows,
                               double* directions, double* coupling, double* impulses,
                               uint32_t* row_counts)
{
    const friction_instance* self = (const friction_instance*)instance;
    uint32_t c;
    (void)step;
    (void)state;
    if (self == NULL || (count > 0u && contacts == NULL)) {
        return PIVOT_ERROR;
    }
    zero_unused(coupling, NULL, count, FRICTIONLESS_ROWS);
    for (c = 0; c < count; ++c) {
        const pivot_contact_point* k = contacts + c;
        const double* p = k->previous_impulses;
        double* impulse = impulses + (size_t)c * 6u;
        int i;
        rows[c] = k->normal_row;
        rows[c].findex = -1;
        set_direction(directions + (size_t)c * 6u, k->normal);
        if (p[0] == 0.0 && p[1] == 0.0 && p[2] == 0.0) { /* new contact: the seed along x */
            const double xn = k->normal[0];
            for (i = 0; i < 3; ++i) {
                impulse[i] = self->mu * ((i == 0 ? 1.0 : 0.0) - xn * k->normal[i]);
            }
        } else {
            for (i = 0; i < 3; ++i) {
                impulse[i] = p[1] * k->tangent1[i] + p[2] * k->tangent2[i];
            }
        }
        impulse[3] = impulse[4] = impulse[5] = 0.0;
        row_counts[c] = FRICTIONLESS_ROWS;
    }
    return PIVOT_OK;
}

static const pivot_param_info echo_params[] = {
    {
        .struct_size = sizeof(pivot_param_info),
        .type = PIVOT_PARAM_REAL,
        .length = 1u,
        .flags = 0u,
        .name = "seed",
        .unit = "N s",
        .doc = "the first step's tangential impulse, along the world x axis",
        .default_value = 0.01,
        .min_value = 0.0,
        .max_value = 10.0,
        .choices = NULL,
        .choice_count = 0u,
        .reserved = 0u,
    },
};

static const pivot_friction_functions echo_functions = {
    .struct_size = sizeof(pivot_friction_functions),
    .max_rows_per_contact = FRICTIONLESS_ROWS,
    .state_per_contact = 0u,
    .reserved = 0u,
    .instance =
        {
            .create = box_create, /* one parameter, kept in `mu` */
            .destroy = friction_destroy,
            .clone = friction_clone,
            .reset = NULL,
            .set_params = box_set_params,
            .state_size = NULL,
            .save_state = NULL,
            .load_state = NULL,
        },
    .build = echo_build,
    .project = NULL,
};

static const pivot_plugin_descriptor echo_descriptor = {
    .struct_size = sizeof(pivot_plugin_descriptor),
    .abi_major = PIVOT_ABI_MAJOR,
    .abi_minor = PIVOT_ABI_MINOR,
    .kind = PIVOT_KIND_FRICTION,
    .id = "test.friction.echo",
    .name = "Echo of the previous impulse (test)",
    .vendor = "Pivot tests",
    .version = "1.0.0",
    .description = "Normal row; explicit impulse = last step's tangential impulse, in this step's frame",
    .capabilities = PIVOT_FRICTION_CAP_BOXED | PIVOT_FRICTION_CAP_EXPLICIT_FORCE,
    .params = echo_params,
    .param_count = (uint32_t)(sizeof echo_params / sizeof echo_params[0]),
    .reserved = 0u,
    .functions = &echo_functions,
};

static const pivot_plugin_descriptor* const friction_plugins[] = {
    &box_descriptor,
    &frictionless_descriptor,
    &echo_descriptor,
};

static const pivot_plugin_library friction_library = {
    .struct_size = sizeof(pivot_plugin_library),
    .abi_major = PIVOT_ABI_MAJOR,
    .abi_minor = PIVOT_ABI_MINOR,
    .plugin_count = (uint32_t)(sizeof friction_plugins / sizeof friction_plugins[0]),
    .plugins = friction_plugins,
    .init = NULL,
    .deinit = NULL,
};

PIVOT_PLUGIN_ENTRY
{
    (void)host_abi_minor;
    return host_abi_major == PIVOT_ABI_MAJOR ? &friction_library : NULL;
}
