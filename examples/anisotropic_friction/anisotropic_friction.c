/*
 * example.friction.anisotropic - a friction model written outside Pivot's
 * source tree, against the installed SDK only (<pivot/plugin_friction.h>),
 * built with find_package(pivot) and pivot_add_plugin(), loaded by a scene.
 *
 * Anisotropic Coulomb friction, as for skis, runners or a skid-steer track:
 * a coefficient mu_along along a direction fixed in the body (axis_x,
 * axis_y, axis_z in the body frame) and mu_across perpendicular to it, in the contact plane:
 *   |f_along|  <= mu_along  f_n,   |f_across| <= mu_across f_n
 * (the box of the two coefficients, with its sides along the body's axis;
 * each row saturates on its own, like the box model along world tangents).
 *
 * The body's orientation comes from build_with_bodies() (plugin ABI 1.1).
 * The axis is that of the moving body of the contact (body 2 unless body 2
 * is static); on a contact between two moving bodies, body 2's.
 *
 * Rows per contact: the host's normal row, then "along" and "across" rows
 * bounded by -mu..mu times the normal impulse (friction index 0).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <pivot/plugin_friction.h>

#define ROWS 3u

enum { P_MU_ALONG = 0, P_MU_ACROSS = 1, P_AXIS = 2 /* axis_x, axis_y, axis_z */, PARAM_COUNT = 5 };

typedef struct anisotropic {
    double mu_along, mu_across;
    double axis[3]; /* unit, body frame */
} anisotropic;

static pivot_status set_params(void* instance, const double* p, uint32_t count) {
    anisotropic* self = (anisotropic*)instance;
    double length;
    if (self == NULL || p == NULL || count != PARAM_COUNT) return PIVOT_ERROR;
    length = sqrt(p[P_AXIS] * p[P_AXIS] + p[P_AXIS + 1] * p[P_AXIS + 1] + p[P_AXIS + 2] * p[P_AXIS + 2]);
    if (!(length > 1e-12)) return PIVOT_ERROR; /* the axis must not be zero */
    self->mu_along = p[P_MU_ALONG];
    self->mu_across = p[P_MU_ACROSS];
    self->axis[0] = p[P_AXIS] / length;
    self->axis[1] = p[P_AXIS + 1] / length;
    self->axis[2] = p[P_AXIS + 2] / length;
    return PIVOT_OK;
}

static pivot_status create(const pivot_host* host, const double* p, uint32_t count, void** out) {
    anisotropic* self;
    (void)host;
    if (out == NULL) return PIVOT_ERROR;
    *out = NULL;
    self = (anisotropic*)calloc(1, sizeof *self);
    if (self == NULL) return PIVOT_ERROR;
    if (set_params(self, p, count) != PIVOT_OK) {
        free(self);
        return PIVOT_ERROR;
    }
    *out = self;
    return PIVOT_OK;
}

static void destroy(void* instance) { free(instance); }

static pivot_status clone(const void* instance, void** out) {
    anisotropic* copy;
    if (instance == NULL || out == NULL) return PIVOT_ERROR;
    copy = (anisotropic*)malloc(sizeof *copy);
    if (copy == NULL) return PIVOT_ERROR;
    memcpy(copy, instance, sizeof *copy);
    *out = copy;
    return PIVOT_OK;
}

/* v rotated by the unit quaternion q = (w, x, y, z): v + 2 w (u x v) + 2 u x (u x v). */
static void rotate(const double q[4], const double v[3], double out[3]) {
    const double u[3] = {q[1], q[2], q[3]};
    const double t[3] = {2.0 * (u[1] * v[2] - u[2] * v[1]), 2.0 * (u[2] * v[0] - u[0] * v[2]),
                         2.0 * (u[0] * v[1] - u[1] * v[0])};
    out[0] = v[0] + q[0] * t[0] + (u[1] * t[2] - u[2] * t[1]);
    out[1] = v[1] + q[0] * t[1] + (u[2] * t[0] - u[0] * t[2]);
    out[2] = v[2] + q[0] * t[2] + (u[0] * t[1] - u[1] * t[0]);
}

static void direction(double* d, const double linear[3]) {
    d[0] = linear[0];
    d[1] = linear[1];
    d[2] = linear[2];
    d[3] = d[4] = d[5] = 0.0;
}

static pivot_row friction_row(double mu) {
    pivot_row r;
    memset(&r, 0, sizeof r);
    r.lower = -mu;
    r.upper = mu;
    r.findex = 0; /* bounds scale with row 0, the normal */
    return r;
}

static pivot_status build_with_bodies(void* instance, const pivot_contact_point* contacts,
                                      const pivot_contact_bodies* bodies, uint32_t count,
                                      const pivot_step_info* step, double* state, pivot_row* rows,
                                      double* directions, double* coupling, double* impulses,
                                      uint32_t* row_counts) {
    const anisotropic* self = (const anisotropic*)instance;
    uint32_t c;
    (void)step;
    (void)state;
    (void)coupling; /* read only with STANDARD_LCP, not declared */
    (void)impulses; /* read only with EXPLICIT_FORCE, not declared */
    if (self == NULL || (count > 0 && (contacts == NULL || bodies == NULL))) return PIVOT_ERROR;
    for (c = 0; c < count; ++c) {
        const pivot_contact_point* contact = contacts + c;
        const pivot_contact_bodies* b = bodies + c;
        const double* n = contact->normal;
        const double* q = (b->flags & PIVOT_CONTACT_BODY2_STATIC) ? b->orientation1 : b->orientation2;
        double along[3], across[3], length, along_n;
        pivot_row* r = rows + (size_t)c * ROWS;
        double* d = directions + (size_t)c * ROWS * PIVOT_FRICTION_DIRECTION_WIDTH;

        /* The body's axis in the world, projected onto the contact plane. */
        rotate(q, self->axis, along);
        along_n = along[0] * n[0] + along[1] * n[1] + along[2] * n[2];
        along[0] -= along_n * n[0];
        along[1] -= along_n * n[1];
        along[2] -= along_n * n[2];
        length = sqrt(along[0] * along[0] + along[1] * along[1] + along[2] * along[2]);
        if (length < 1e-9) { /* axis along the normal: no preferred direction in the plane */
            memcpy(along, contact->tangent1, sizeof along);
        } else {
            along[0] /= length;
            along[1] /= length;
            along[2] /= length;
        }
        across[0] = n[1] * along[2] - n[2] * along[1];
        across[1] = n[2] * along[0] - n[0] * along[2];
        across[2] = n[0] * along[1] - n[1] * along[0];

        r[0] = contact->normal_row;
        direction(d, n);
        r[1] = friction_row(self->mu_along);
        direction(d + PIVOT_FRICTION_DIRECTION_WIDTH, along);
        r[2] = friction_row(self->mu_across);
        direction(d + 2 * PIVOT_FRICTION_DIRECTION_WIDTH, across);
        row_counts[c] = ROWS;
    }
    return PIVOT_OK;
}

static const pivot_param_info params[] = {
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1u, 0u, "mu_along", "1",
     "Coulomb coefficient along the body's axis", 0.05, 0.0, HUGE_VAL, NULL, 0u, 0u},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1u, 0u, "mu_across", "1",
     "Coulomb coefficient across the body's axis, in the contact plane", 0.5, 0.0, HUGE_VAL, NULL, 0u, 0u},
    /* Three scalars rather than one 3-vector parameter: a schema default
       applies to every component, and the axis defaults to (1, 0, 0). */
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1u, 0u, "axis_x", "1",
     "the cheap direction in the body frame (normalized; not zero): x", 1.0, -HUGE_VAL, HUGE_VAL, NULL, 0u, 0u},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1u, 0u, "axis_y", "1", "y component of the axis", 0.0, -HUGE_VAL,
     HUGE_VAL, NULL, 0u, 0u},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1u, 0u, "axis_z", "1", "z component of the axis", 0.0, -HUGE_VAL,
     HUGE_VAL, NULL, 0u, 0u},
};

static const pivot_friction_functions functions = {
    sizeof(pivot_friction_functions), ROWS, 0u, 0u,
    {create, destroy, clone, NULL, set_params, NULL, NULL, NULL},
    NULL, /* build: build_with_bodies replaces it (ABI 1.1) */
    NULL, /* project */
    build_with_bodies,
    NULL, /* build_with_motion (ABI 1.8): the law does not depend on the sliding speed */
    NULL, /* contacts_ended (ABI 1.9): no memory beyond the contact */
};

static const pivot_plugin_descriptor descriptor = {
    sizeof(pivot_plugin_descriptor),
    PIVOT_ABI_MAJOR,
    PIVOT_ABI_MINOR,
    PIVOT_KIND_FRICTION,
    "example.friction.anisotropic",
    "Anisotropic Coulomb friction",
    "Pivot examples",
    "1.0.0",
    "mu_along along a body-fixed axis, mu_across perpendicular to it (skis, runners, tracks)",
    PIVOT_FRICTION_CAP_BOXED,
    params,
    (uint32_t)(sizeof params / sizeof params[0]),
    0u,
    &functions,
};

static const pivot_plugin_descriptor* const plugins[] = {&descriptor};

static const pivot_plugin_library library = {
    sizeof(pivot_plugin_library), PIVOT_ABI_MAJOR, PIVOT_ABI_MINOR, 1u, plugins, NULL, NULL,
};

PIVOT_PLUGIN_ENTRY {
    /* build_with_bodies needs a 1.1 host; an older one would see build = NULL and refuse us. */
    return host_abi_major == PIVOT_ABI_MAJOR && host_abi_minor >= 1u ? &library : NULL;
}
