/*
 * test_element_point_mass.c - test plugin (good): element "test.element.point_mass".
 *
 * A point mass: one node per element, coordinates (x, y, z), velocities
 * (vx, vy, vz), per-element parameter "mass" (kg). Its results are known in
 * closed form, so host tests can check what the host does with an element:
 * M = m I3, f = m g, q+ = q + h v, material frames at q + local with identity
 * orientation, energies 1/2 m v.v and -m g.x.
 *
 * Written in plain C99 against the public SDK headers only, to prove the
 * element ABI is usable from C.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pivot/plugin_element.h"

#define PM_NODES 1u
#define PM_NQ 3u /* coordinates per node (and per element) */
#define PM_NV 3u /* velocities per node (and per element)  */

/* ------------------------------------------------------------------------ */
/* Instances                                                                 */
/* ------------------------------------------------------------------------ */

/* No instance-level parameters: the instance only keeps the host. */
typedef struct point_mass_instance {
    const pivot_host* host;
} point_mass_instance;

static void pm_log(const point_mass_instance* self, pivot_log_level level, const char* message)
{
    if (self != NULL && self->host != NULL && self->host->log != NULL) {
        self->host->log(self->host->context, level, "test.element.point_mass", message);
    }
}

static pivot_status pm_create(const pivot_host* host, const double* params, uint32_t param_count,
                              void** out_instance)
{
    point_mass_instance* self;
    (void)params;
    if (out_instance == NULL) {
        return PIVOT_ERROR;
    }
    *out_instance = NULL;
    if (param_count != 0u) {
        return PIVOT_ERROR; /* the schema has no instance-level parameter */
    }
    self = (point_mass_instance*)malloc(sizeof *self);
    if (self == NULL) {
        return PIVOT_ERROR;
    }
    self->host = host;
    *out_instance = self;
    return PIVOT_OK;
}

static void pm_destroy(void* instance)
{
    free(instance);
}

static pivot_status pm_clone(const void* instance, void** out_copy)
{
    point_mass_instance* copy;
    if (instance == NULL || out_copy == NULL) {
        return PIVOT_ERROR;
    }
    *out_copy = NULL;
    copy = (point_mass_instance*)malloc(sizeof *copy);
    if (copy == NULL) {
        return PIVOT_ERROR;
    }
    memcpy(copy, instance, sizeof *copy);
    *out_copy = copy;
    return PIVOT_OK;
}

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */
/* ------------------------------------------------------------------------ */

/* The per-item parameter block must hold at least "mass". */
static int pm_batch_ok(const void* instance, const pivot_element_batch* batch)
{
    if (batch == NULL) {
        return 0;
    }
    if (batch->count > 0u && (batch->item_params == NULL || batch->item_param_stride < 1u)) {
        pm_log((const point_mass_instance*)instance, PIVOT_LOG_ERROR,
               "batch without the per-item parameter \"mass\"");
        return 0;
    }
    return 1;
}

static double pm_mass(const pivot_element_batch* batch, uint32_t e)
{
    return batch->item_params[(size_t)e * batch->item_param_stride];
}

/* ------------------------------------------------------------------------ */
/* Element functions                                                         */
/* ------------------------------------------------------------------------ */

static pivot_status pm_mass_matrix(const void* instance, const pivot_element_batch* batch,
                                   double* mass)
{
    uint32_t e, k;
    if (!pm_batch_ok(instance, batch) || (batch->count > 0u && mass == NULL)) {
        return PIVOT_ERROR;
    }
    for (e = 0; e < batch->count; ++e) {
        const double m = pm_mass(batch, e);
        double* out = mass + (size_t)e * PM_NV * PM_NV;
        for (k = 0; k < PM_NV * PM_NV; ++k) {
            out[k] = 0.0;
        }
        for (k = 0; k < PM_NV; ++k) {
            out[k + k * PM_NV] = m;
        }
    }
    return PIVOT_OK;
}

static pivot_status pm_generalized_forces(const void* instance, const pivot_element_batch* batch,
                                          const pivot_step_info* step, double* forces)
{
    uint32_t e, k;
    if (!pm_batch_ok(instance, batch) || step == NULL || (batch->count > 0u && forces == NULL)) {
        return PIVOT_ERROR;
    }
    for (e = 0; e < batch->count; ++e) {
        const double m = pm_mass(batch, e);
        for (k = 0; k < PM_NV; ++k) {
            forces[(size_t)e * PM_NV + k] = m * step->gravity[k];
        }
    }
    return PIVOT_OK;
}

/* q+ = q + h v; element-wise, so q and q_out may alias. */
static pivot_status pm_integrate(const void* instance, uint32_t node_count, const double* q,
                                 const double* v, double timestep, double* q_out)
{
    size_t i;
    const size_t total = (size_t)node_count * PM_NQ;
    (void)instance;
    if (node_count > 0u && (q == NULL || v == NULL || q_out == NULL)) {
        return PIVOT_ERROR;
    }
    for (i = 0; i < total; ++i) {
        q_out[i] = q[i] + timestep * v[i];
    }
    return PIVOT_OK;
}

static pivot_status pm_material_frames(const void* instance, const pivot_element_batch* batch,
                                       const pivot_material_point* points, uint32_t point_count,
                                       double* poses, double* twists, double* jacobians)
{
    uint32_t p, k;
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
        double* jac = jacobians + (size_t)p * 6u * PM_NV;
        if (e >= batch->count) {
            pm_log((const point_mass_instance*)instance, PIVOT_LOG_ERROR,
                   "material point refers to an element outside the batch");
            return PIVOT_ERROR;
        }
        q = batch->q + (size_t)e * PM_NQ;
        v = batch->v + (size_t)e * PM_NV;
        for (k = 0; k < 3u; ++k) {
            pose[k] = q[k] + points[p].local[k];
            twist[k] = v[k];
            twist[3u + k] = 0.0;
        }
        pose[3] = 1.0; /* identity orientation (w, x, y, z) */
        pose[4] = 0.0;
        pose[5] = 0.0;
        pose[6] = 0.0;
        /* 6 x 3 column-major: [I3; 0] */
        for (k = 0; k < 6u * PM_NV; ++k) {
            jac[k] = 0.0;
        }
        for (k = 0; k < PM_NV; ++k) {
            jac[k + 6u * k] = 1.0;
        }
    }
    return PIVOT_OK;
}

static pivot_status pm_energy(const void* instance, const pivot_element_batch* batch,
                              const pivot_step_info* step, double* kinetic, double* gravitational,
                              double* elastic)
{
    uint32_t e, k;
    double ke = 0.0;
    double pe = 0.0;
    if (!pm_batch_ok(instance, batch) || step == NULL || kinetic == NULL ||
        gravitational == NULL || elastic == NULL) {
        return PIVOT_ERROR;
    }
    if (batch->count > 0u && (batch->q == NULL || batch->v == NULL)) {
        return PIVOT_ERROR;
    }
    for (e = 0; e < batch->count; ++e) {
        const double m = pm_mass(batch, e);
        const double* q = batch->q + (size_t)e * PM_NQ;
        const double* v = batch->v + (size_t)e * PM_NV;
        double vv = 0.0;
        double gx = 0.0;
        for (k = 0; k < 3u; ++k) {
            vv += v[k] * v[k];
            gx += step->gravity[k] * q[k];
        }
        ke += 0.5 * m * vv;
        pe -= m * gx;
    }
    *kinetic = ke;
    *gravitational = pe;
    *elastic = 0.0;
    return PIVOT_OK;
}

/* A point placed at `pose`: its position (a point has no orientation). */
static pivot_status pm_node_coordinates(const void* instance, const double pose[7], double* q_node)
{
    (void)instance;
    if (pose == NULL || q_node == NULL) {
        return PIVOT_ERROR;
    }
    q_node[0] = pose[0];
    q_node[1] = pose[1];
    q_node[2] = pose[2];
    return PIVOT_OK;
}

/* ------------------------------------------------------------------------ */
/* Tables                                                                    */
/* ------------------------------------------------------------------------ */

static const pivot_param_info pm_params[] = {
    {
        .struct_size = sizeof(pivot_param_info),
        .type = PIVOT_PARAM_REAL,
        .length = 1u,
        .flags = PIVOT_PARAM_PER_ITEM | PIVOT_PARAM_MIN_EXCLUSIVE,
        .name = "mass",
        .unit = "kg",
        .doc = "mass of the point",
        .default_value = 1.0,
        .min_value = 0.0,
        .max_value = HUGE_VAL,
        .choices = NULL,
        .choice_count = 0u,
        .reserved = 0u,
    },
};

static const pivot_element_functions pm_functions = {
    .struct_size = sizeof(pivot_element_functions),
    .nodes_per_element = PM_NODES,
    .coords_per_node = PM_NQ,
    .velocities_per_node = PM_NV,
    .geometry = PIVOT_ELEMENT_GEOMETRY_SHAPES,
    .reserved = 0u,
    .instance =
        {
            .create = pm_create,
            .destroy = pm_destroy,
            .clone = pm_clone,
            .reset = NULL,
            .set_params = NULL,
            .state_size = NULL,
            .save_state = NULL,
            .load_state = NULL,
        },
    .max_internal_rows = NULL,
    .mass_matrix = pm_mass_matrix,
    .generalized_forces = pm_generalized_forces,
    .internal_rows = NULL,
    .integrate = pm_integrate,
    .material_frames = pm_material_frames,
    .energy = pm_energy,
    .node_coordinates = pm_node_coordinates,
};

static const pivot_plugin_descriptor pm_descriptor = {
    .struct_size = sizeof(pivot_plugin_descriptor),
    .abi_major = PIVOT_ABI_MAJOR,
    .abi_minor = PIVOT_ABI_MINOR,
    .kind = PIVOT_KIND_ELEMENT,
    .id = "test.element.point_mass",
    .name = "Point mass (test)",
    .vendor = "Pivot tests",
    .version = "1.0.0",
    .description = "A point mass with three translational coordinates",
    .capabilities = PIVOT_ELEMENT_CAP_CONSTANT_MASS,
    .params = pm_params,
    .param_count = (uint32_t)(sizeof pm_params / sizeof pm_params[0]),
    .reserved = 0u,
    .functions = &pm_functions,
};

static const pivot_plugin_descriptor* const pm_plugins[] = {&pm_descriptor};

static const pivot_plugin_library pm_library = {
    .struct_size = sizeof(pivot_plugin_library),
    .abi_major = PIVOT_ABI_MAJOR,
    .abi_minor = PIVOT_ABI_MINOR,
    .plugin_count = 1u,
    .plugins = pm_plugins,
    .init = NULL,
    .deinit = NULL,
};

PIVOT_PLUGIN_ENTRY
{
    (void)host_abi_minor;
    return host_abi_major == PIVOT_ABI_MAJOR ? &pm_library : NULL;
}
