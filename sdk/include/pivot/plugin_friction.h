/*
 * pivot/plugin_friction.h - friction-model plugins: what happens at a contact.
 *
 * Collision detection gives contact points; the host proposes the normal row
 * of each (unilateral, position-stabilized, with the materials' restitution,
 * compliance and damping). A friction model instance is one parameter set
 * (one per pair of materials, and one per set that bodies' own friction
 * values make, from host 0.12 on: docs/contacts.md); it turns all of its
 * contacts into rows in one call:
 *  - the rows of each contact, normally the host's normal row copied as row 0
 *    followed by friction rows whose bounds refer to it by findex (box
 *    friction); a model may change or drop the normal row (compliant laws);
 *  - an optional local coupling block added to the problem matrix for the
 *    contact's rows (e.g. the polyhedral cone's auxiliary row, which makes a
 *    standard, non-symmetric LCP);
 *  - an optional explicit impulse (regularized and compliant force laws);
 *  - per-contact state that the host keeps by persistent contact id.
 * A model that can project a contact's impulses onto its admissible set
 * (e.g. the circular Coulomb cone) offers project(); iterative solvers call
 * it through the problem's block projection (plugin_solver.h), so a user's
 * law works with them without the solver knowing the law.
 *
 * Directions: each row acts on the relative motion of body 2 with respect to
 * body 1 at the contact point, through 6 numbers (linear direction d, angular
 * direction a): row velocity = d . (v2 - v1) + a . (w2 - w1), all world.
 * Rolling and torsional friction use the angular part; an all-zero direction
 * is an auxiliary row that acts on no velocity.
 */
#ifndef PIVOT_PLUGIN_FRICTION_H
#define PIVOT_PLUGIN_FRICTION_H

#include "pivot/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PIVOT_FRICTION_DIRECTION_WIDTH 6u

/* pivot_plugin_descriptor.capabilities for friction models */
#define PIVOT_FRICTION_CAP_BOXED ((uint64_t)1 << 0) /* rows fit a boxed LCP with
                                                       friction index           */
#define PIVOT_FRICTION_CAP_STANDARD_LCP ((uint64_t)1 << 1) /* uses the coupling
                                   block: needs a solver for non-symmetric LCPs */
#define PIVOT_FRICTION_CAP_EXPLICIT_FORCE ((uint64_t)1 << 2) /* writes explicit
                                                                impulses        */
#define PIVOT_FRICTION_CAP_PROJECTION ((uint64_t)1 << 3) /* offers project()    */
#define PIVOT_FRICTION_CAP_STATE ((uint64_t)1 << 4) /* keeps per-contact state  */

/* One contact point, as the host gives it. */
typedef struct pivot_contact_point {
    uint64_t id;             /* persistent across steps while the contact lasts */
    double position[3];      /* world (m)                                      */
    double normal[3];        /* unit, world, from body 1 towards body 2        */
    double tangent1[3];      /* unit, orthogonal to normal; the host aligns it
                                with the sliding direction when sliding         */
    double tangent2[3];      /* normal x tangent1                              */
    double depth;            /* penetration (m), > 0 when penetrating          */
    double relative_velocity[3]; /* body 2 minus body 1 at the point, world, at
                                    the step's free velocity (applied forces and
                                    gravity included, contact impulses not): the
                                    direction the contact would slide in        */
    double relative_angular_velocity[3]; /* w2 - w1, world                     */
    double weight;           /* quadrature weight of the point: 1 for a point
                                contact, w~ for distributed (cable) contact    */
    double effective_radius; /* 1/(1/R1 + 1/R2) (m), +HUGE_VAL when flat       */
    double effective_mass;   /* of the normal direction (kg), for force laws   */
    double previous_impulses[3]; /* last step's total linear impulse on body 2
                                    at this contact (its rows along their
                                    directions plus its explicit impulse), as
                                    (normal, tangent1, tangent2) components in
                                    THIS step's frame (N s); 0 for a new
                                    contact. (Hosts before 1.8 gave the raw
                                    impulses of the model's rows 0, 1, 2.)    */
    pivot_row normal_row;    /* the host's proposed normal row (restitution,
                                stabilization, material compliance/damping);
                                its Jacobian direction is `normal`             */
} pivot_contact_point;

/* (ABI 1.1) The two bodies at one contact, for laws whose parameters are
   fixed in a body (anisotropic friction of skis, tracks, brushed surfaces):
   given to build_with_bodies(), one per contact, in the contacts' order. */
typedef struct pivot_contact_bodies {
    double orientation1[4]; /* body 1 (the normal points away from it), w, x, y, z,
                               body to world; (1, 0, 0, 0) for static shapes  */
    double orientation2[4]; /* body 2                                        */
    uint32_t flags;         /* PIVOT_CONTACT_BODY1_STATIC, ..._BODY2_STATIC  */
    uint32_t reserved;      /* zero                                          */
} pivot_contact_bodies;

#define PIVOT_CONTACT_BODY1_STATIC 0x1u /* body 1 is the world or a fixed body */
#define PIVOT_CONTACT_BODY2_STATIC 0x2u

/* (ABI 1.8) The relative motion at one contact at the START of the step,
   for laws that depend on the sliding speed (Stribeck, velocity-weakening,
   viscous): given to build_with_motion(), one per contact, in the contacts'
   order. pivot_contact_point.relative_velocity is the free velocity v* =
   v + h M^-1 f (gravity and applied forces included, contact impulses
   not): a block resting on an incline "slides" there at g sin(theta) h,
   0.077 m/s on 28 degrees at 60 Hz, so a law evaluated at it loses its
   static friction in a way that depends on h. At the start velocity the
   resting block is at rest, at any h; a sliding one slides at its last
   step's speed (first order in h, like the step itself). Frozen layout
   (no struct_size: it travels in an array), 64 bytes. */
typedef struct pivot_contact_motion {
    double start_velocity[3];         /* body 2 minus body 1 at the point, world,
                                         at the start of the step (m/s)        */
    double start_angular_velocity[3]; /* w2 - w1, world, at the start (rad/s)  */
    double reserved[2];               /* zero                                  */
} pivot_contact_motion;

/* A contiguous range of problem rows that belongs to one contact. */
typedef struct pivot_contact_block {
    uint32_t contact;   /* index into the contacts of the build() call         */
    uint32_t first_row; /* first row in the solution vector                    */
    uint32_t row_count; /* rows written for that contact by build()           */
    uint32_t reserved;  /* zero                                                */
} pivot_contact_block;

typedef struct pivot_friction_functions {
    uint32_t struct_size;          /* sizeof(pivot_friction_functions)         */
    uint32_t max_rows_per_contact; /* 0..16 (0: explicit force only)           */
    uint32_t state_per_contact;    /* doubles of state per contact (0: none)   */
    uint32_t reserved;             /* zero                                     */

    pivot_instance_functions instance;

    /*
     * [step] Rows, coupling and explicit impulses for count contacts.
     * For contact c (with m = max_rows_per_contact):
     *   rows + c*m              up to m rows; findex is local to the contact
     *   directions + (c*m+r)*6  the row's direction (see top of file)
     *   coupling + c*m*m        m x m column-major block added to the
     *                           problem matrix over the contact's rows, in
     *                           impulse units (zero it when unused); only read
     *                           with PIVOT_FRICTION_CAP_STANDARD_LCP
     *   impulses + c*6          explicit impulse on body 2 at the point
     *                           (N s, then N m s), body 1 gets the opposite;
     *                           only read with PIVOT_FRICTION_CAP_EXPLICIT_FORCE
     *   state + c*s             per-contact state, in/out (s = state_per_contact;
     *                           zero-filled for a new contact)
     *   row_counts[c]           number of rows written
     * rows, directions, coupling, impulses and row_counts are never NULL;
     * state is NULL when state_per_contact is 0. Required unless
     * build_with_bodies (ABI 1.1) is set.
     */
    pivot_status (*build)(void* instance, const pivot_contact_point* contacts, uint32_t count,
                          const pivot_step_info* step, double* state, pivot_row* rows,
                          double* directions, double* coupling, double* impulses,
                          uint32_t* row_counts);

    /*
     * [solver inner loop] Project the impulses of the given contact blocks
     * (z, the full problem-sized vector, in N s) onto the model's admissible
     * set, in place: z[first_row .. first_row + row_count). contacts are the
     * same as in the last build() call. Called once per block per sweep by
     * iterative solvers: must be cheap, must not allocate. Optional
     * (PIVOT_FRICTION_CAP_PROJECTION).
     */
    pivot_status (*project)(const void* instance, const pivot_contact_point* contacts,
                            const pivot_contact_block* blocks, uint32_t block_count,
                            double* z);

    /* ---- ABI 1.1 ---- */

    /*
     * [step] build() with each contact's bodies (bodies[c] belongs to
     * contacts[c]); otherwise exactly build()'s contract. Optional: when it
     * is set the host calls it instead of build(), and build may then be
     * NULL (such a plugin needs a 1.1 host).
     */
    pivot_status (*build_with_bodies)(void* instance, const pivot_contact_point* contacts,
                                      const pivot_contact_bodies* bodies, uint32_t count,
                                      const pivot_step_info* step, double* state, pivot_row* rows,
                                      double* directions, double* coupling, double* impulses,
                                      uint32_t* row_counts);

    /* ---- ABI 1.8 ---- */

    /*
     * [step] build_with_bodies() with each contact's motion at the start of
     * the step as well (motion[c] belongs to contacts[c]; bodies and motion
     * are never NULL); otherwise exactly build()'s contract. Optional: when
     * it is set the host calls it instead of build_with_bodies and build,
     * which may then both be NULL (such a plugin needs a 1.8 host).
     */
    pivot_status (*build_with_motion)(void* instance, const pivot_contact_point* contacts,
                                      const pivot_contact_bodies* bodies, const pivot_contact_motion* motion,
                                      uint32_t count, const pivot_step_info* step, double* state,
                                      pivot_row* rows, double* directions, double* coupling,
                                      double* impulses, uint32_t* row_counts);

    /* ---- ABI 1.9 ---- */

    /*
     * [step] The contacts of this instance that ended: built by it in the
     * last step and not in this one (the bodies parted, a body was removed
     * or disabled, or a body's own friction values changed: the contact then
     * goes on in the instance of the new values, which gets its impulses and
     * state as a continuing contact's, not zeros).
     * ids[i] is the contact's persistent id (pivot_contact_point.id) and
     * state + i * state_per_contact its last state (NULL when
     * state_per_contact is 0), read-only: the host forgets both after the
     * call. Called once per step, before this step's build call, with every
     * contact of the instance that ended (count >= 1), in ascending id
     * order; not for the contacts alive when the instance is destroyed
     * (with its world, or when the world's materials change, which
     * re-creates the instances and starts every contact afresh: destroy()
     * is the end of those). A status other than OK/WARNING fails the step, as build's does.
     * For a law with memory beyond the contact (wear, a count of stick-slip
     * events, a log); optional.
     */
    pivot_status (*contacts_ended)(void* instance, const uint64_t* ids, const double* state, uint32_t count,
                                   const pivot_step_info* step);
} pivot_friction_functions;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PIVOT_PLUGIN_FRICTION_H */
