/*
 * broken_element_error.c - broken test plugin: an element whose mass matrix
 * fails.
 *
 * A valid, loadable element "test.element.error" with the layout of
 * test.element.point_mass (one node, 3 coordinates, 3 velocities) but no
 * parameters: every element is a 1 kg point mass. DEFECT (at run time):
 * mass_matrix() logs "mass matrix not available" through the host kept in
 * the instance and returns PIVOT_ERROR. Every other function works, so host
 * tests see exactly one failing call and can check how it is reported.
 */
#include <stdlib.h>
#include <string.h>

#include "pivot/plugin_element.h"

#define ERR_NQ 3u
#define ERR_NV 3u
#define ERR_MASS 1.0 /* kg */

typedef struct error_element_instance {
    const pivot_host* host;
} error_element_instance;

static pivot_status err_create(const pivot_host* host, const double* params, uint32_t param_count,
                               void** out_instance)
{
    error_element_instance* self;
    (void)params;
    if (out_instance == NULL) {
        return PIVOT_ERROR;
    }
    *out_instance = NULL;
    if (param_count != 0u) {
        return PIVOT_ERROR;
    }
    self = (error_element_instance*)malloc(sizeof *self);
    if (self == NULL) {
        return PIVOT_ERROR;
    }
    self->host = host;
    *out_instance = self;
    return PIVOT_OK;
}

static void err_destroy(void* instance)
{
    free(instance);
}

static pivot_status err_clone(const void* instance, void** out_copy)
{
    error_element_instance* copy;
    if (instance == NULL || out_copy == NULL) {
        return PIVOT_ERROR;
    }
    *out_copy = NULL;
    copy = (error_element_instance*)malloc(sizeof *copy);
    if (copy == NULL) {
        return PIVOT_ERROR;
    }
    memcpy(copy, instance, sizeof *copy);
    *out_copy = copy;
    return PIVOT_OK;
}

static pivot_status err_mass_matrix(const void* instance, const pivot_element_batch* batch,
                                    double* mass)
{
    const error_element_instance* self = (const error_element_instance*)instance;
    (void)batch;
    (void)mass;
    if (self != NULL && self->host != NULL && self->host->log != NULL) {
        self->host->log(self->host->context, PIVOT_LOG_ERROR, "test.element.error",
                        "mass matrix not available");
    }
    return PIVOT_ERROR; /* DEFECT */
}

static pivot_status err_generalized_forces(const void* instance, const pivot_element_batch* batch,
                                           const pivot_step_info* step, double* forces)
{
    uint32_t e, k;
    (void)instance;
    if (batch == NULL || step == NULL || (batch->count > 0u && forces == NULL)) {
        return PIVOT_ERROR;
    }
    for (e = 0; e < batch->count; ++e) {
        for (k = 0; k < ERR_NV; ++k) {
            forces[(size_t)e * ERR_NV + k] = ERR_MASS * step->gravity[k];
        }
    }
    return PIVOT_OK;
}

static pivot_status err_integrate(const void* instance, uint32_t node_count, const double* q,
                                  const double* v, double timestep, double* q_out)
{
    size_t i;
    const size_t total = (size_t)node_count * ERR_NQ;
    (void)instance;
    if (node_count > 0u && (q == NULL || v == NULL || q_out == NULL)) {
        return PIVOT_ERROR;
    }
    for (i = 0; i < total; ++i) {
        q_out[i] = q[i] + timestep * v[i];
    }
    return PIVOT_OK;
}

static pivot_status err_material_frames(const void* instance, const pivot_element_batch* batch,
                                        const pivot_material_point* points, uint32_t point_count,
                                        double* poses, double* twists, double* jacobians)
{
    uint32_t p, k;
    (void)instance;
    if (batch == NULL) {
        return PIVOT_ERROR;
    }
    if (point_count > 0u &&
        (points == NULL || poses == NULL || twists == NULL || jacobians == NULL ||
         batch->q == NULL || batch->v == NULL)) {
        return PIVOT_ERROR;
    }
    for (p = 0; p < point_count; ++p) {
        const uint32_t e = points[p].element;
        const double* q;
        const double* v;
        double* pose = poses + (size_t)p * 7u;
        double* twist = twists + (size_t)p * 6u;
        double* jac = jacobians + (size_t)p * 6u * ERR_NV;
        if (e >= batch->count) {
            return PIVOT_ERROR;
        }
        q = batch->q + (size_t)e * ERR_NQ;
        v = batch->v + (size_t)e * ERR_NV;
        for (k = 0; k < 3u; ++k) {
            pose[k] = q[k] + points[p].local[k];
            twist[k] = v[k];
            twist[3u + k] = 0.0;
        }
        pose[3] = 1.0;
        pose[4] = 0.0;
        pose[5] = 0.0;
        pose[6] = 0.0;
        for (k = 0; k < 6u * ERR_NV; ++k) {
            jac[k] = 0.0;
        }
        for (k = 0; k < ERR_NV; ++k) {
            jac[k + 6u * k] = 1.0;
        }
    }
    return PIVOT_OK;
}

static pivot_status err_energy(const void* instance, const pivot_element_batch* batch,
                               const pivot_step_info* step, double* kinetic,
                               double* gravitational, double* elastic)
{
    uint32_t e, k;
    double ke = 0.0;
    double pe = 0.0;
    (void)instance;
    if (batch == NULL || step == NULL || kinetic == NULL || gravitational == NULL ||
        elastic == NULL || (batch->count > 0u && (batch->q == NULL || batch->v == NULL))) {
        return PIVOT_ERROR;
    }
    for (e = 0; e < batch->count; ++e) {
        const double* q = batch->q + (size_t)e * ERR_NQ;
        const double* v = batch->v + (size_t)e * ERR_NV;
        for (k = 0; k < 3u; ++k) {
            ke += 0.5 * ERR_MASS * v[k] * v[k];
            pe -= ERR_MASS * step->gravity[k] * q[k];
        }
    }
    *kinetic = ke;
    *gravitational = pe;
    *elastic = 0.0;
    return PIVOT_OK;
}

static const pivot_element_functions element_functions = {
    .struct_size = sizeof(pivot_element_functions),
    .nodes_per_element = 1u,
    .coords_per_node = ERR_NQ,
    .velocities_per_node = ERR_NV,
    .geometry = PIVOT_ELEMENT_GEOMETRY_SHAPES,
    .reserved = 0u,
    .instance =
        {
            .create = err_create,
            .destroy = err_destroy,
            .clone = err_clone,
            .reset = NULL,
            .set_params = NULL,
            .state_size = NULL,
            .save_state = NULL,
            .load_state = NULL,
        },
    .max_internal_rows = NULL,
    .mass_matrix = err_mass_matrix,
    .generalized_forces = err_generalized_forces,
    .internal_rows = NULL,
    .integrate = err_integrate,
    .material_frames = err_material_frames,
    .energy = err_energy,
};

static const pivot_plugin_descriptor descriptor = {
    .struct_size = sizeof(pivot_plugin_descriptor),
    .abi_major = PIVOT_ABI_MAJOR,
    .abi_minor = PIVOT_ABI_MINOR,
    .kind = PIVOT_KIND_ELEMENT,
    .id = "test.element.error",
    .name = "Failing element (broken test)",
    .vendor = "Pivot tests",
    .version = "1.0.0",
    .description = "A 1 kg point mass whose mass_matrix always fails",
    .capabilities = PIVOT_ELEMENT_CAP_CONSTANT_MASS,
    .params = NULL,
    .param_count = 0u,
    .reserved = 0u,
    .functions = &element_functions,
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
