/*
 * pivot/plugin_element.h - element plugins: things that have mass.
 *
 * An element type (rigid body, ANCF cable element, ...) owns the meaning of
 * its generalized coordinates q and velocities v. The host owns the arrays.
 * Elements are built from nodes; nodes may be shared between elements of the
 * same instance (the two end nodes of consecutive cable elements), so the
 * host stores coordinates per node and gathers them per element for a call:
 *
 *   rigid body:  1 node/element,  7 coordinates (x y z qw qx qy qz),
 *                6 velocities (v in world, omega in world)
 *   ANCF cable:  2 nodes/element, 6 coordinates (r, dr/dx) and 6 velocities
 *
 * Every [step] function takes a batch: all elements of one instance, laid
 * out contiguously. See plugin.h for threading and the no-allocation rule.
 *
 * Sizes below: nq = nodes_per_element * coords_per_node,
 *              nv = nodes_per_element * velocities_per_node.
 */
#ifndef PIVOT_PLUGIN_ELEMENT_H
#define PIVOT_PLUGIN_ELEMENT_H

#include "pivot/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pivot_plugin_descriptor.capabilities for elements */
#define PIVOT_ELEMENT_CAP_CONSTANT_MASS ((uint64_t)1 << 0) /* mass_matrix does not
                                       depend on q or v: the host calls it once,
                                       and again when parameters change        */
#define PIVOT_ELEMENT_CAP_INTERNAL_ROWS ((uint64_t)1 << 1) /* has compliant
                                       internal rows (strains)                 */
/* ABI 1.2. The elements of one instance form ONE chain: element e uses nodes
   e and e + 1 (nodes_per_element must be 2), so an instance of count
   elements has count + 1 nodes and the host gathers each element's 2 nodes
   into the batch. The host creates one instance per chain (per cable) and
   solves the chain's velocities together: its mass matrices summed over the
   shared nodes, with the internal rows eliminated into that matrix (the
   rows must then be bilateral, unbounded, without friction index or target
   velocity, with compliance > 0; they never reach a solver plugin).
   Requires node_coordinates.                                              */
#define PIVOT_ELEMENT_CAP_SHARED_NODES ((uint64_t)1 << 2)

/* How collision geometry is attached to an element. */
typedef enum pivot_element_geometry {
    /* Shapes are given by the user in the frame of material point
       (0,0,0) of the element; the host collides them (rigid bodies). An
       element the host uses for bodies has one node: the host places a
       body with node_coordinates (the pose of that frame), gives it a
       velocity by solving J v = twist with that frame's Jacobian, applies a
       body's external wrench as J^T (force, torque), and reads its pose and
       twist through material_frames; it never reads q or v itself.
       (Without node_coordinates, a plugin before 1.2, q is the pose:
       x y z, w x y z.) */
    PIVOT_ELEMENT_GEOMETRY_SHAPES = 1,
    /* A swept sphere along the element's axis: the centreline is the material
       points (s, 0, 0), s in [0, 1]; the radius is the instance parameter
       named "radius" (cables, beams). */
    PIVOT_ELEMENT_GEOMETRY_CURVE = 2
} pivot_element_geometry;

/* The elements of one call, all from one instance. */
typedef struct pivot_element_batch {
    uint32_t count;             /* elements in this batch                      */
    uint32_t item_param_stride; /* doubles per element in item_params          */
    const double* item_params;  /* count x stride: per-item parameters
                                   (PIVOT_PARAM_PER_ITEM), schema order        */
    const double* q;            /* count x nq: gathered node coordinates       */
    const double* v;            /* count x nv: gathered node velocities        */
    const double* q_reference;  /* count x nq: coordinates at creation (the
                                   stress-free / reference configuration)      */
} pivot_element_batch;

/* A point fixed in an element's material. */
typedef struct pivot_material_point {
    uint32_t element;  /* index within the batch                               */
    uint32_t reserved; /* zero                                                 */
    double local[3];   /* material coordinates: rigid body: position in the
                          body frame (m); cable: (s in [0,1] along the element,
                          cross-section offsets y, z in m)                     */
} pivot_material_point;

typedef struct pivot_element_functions {
    uint32_t struct_size; /* sizeof(pivot_element_functions)                  */
    uint32_t nodes_per_element;
    uint32_t coords_per_node;     /* generalized coordinates per node          */
    uint32_t velocities_per_node; /* generalized velocities per node           */
    uint32_t geometry;            /* pivot_element_geometry                    */
    uint32_t reserved;            /* zero                                      */

    pivot_instance_functions instance;

    /*
     * Upper bound on internal rows per element for this instance (e.g. 2 per
     * Gauss point for a cable). Called once after create/set_params. Required
     * if PIVOT_ELEMENT_CAP_INTERNAL_ROWS, else may be NULL (zero rows).
     */
    uint32_t (*max_internal_rows)(const void* instance);

    /*
     * [step] Mass matrices: for each element an nv x nv symmetric positive
     * definite matrix, column-major, written to mass + e*nv*nv. Units of
     * kg, kg m^2 as the velocities dictate. Required.
     */
    pivot_status (*mass_matrix)(const void* instance, const pivot_element_batch* batch,
                                double* mass);

    /*
     * [step] Generalized forces f (nv per element) such that the free
     * velocity is solved from M v_free = M v + h f: applied and gravity
     * forces, minus velocity-dependent (gyroscopic, Coriolis) terms. An
     * element that treats such terms implicitly (rigid bodies at large
     * angular velocity) returns the f that reproduces its implicit update.
     * Required.
     */
    pivot_status (*generalized_forces)(const void* instance, const pivot_element_batch* batch,
                                       const pivot_step_info* step, double* forces);

    /*
     * [step] Internal compliant rows (strains at Gauss points). For element
     * e, up to max_internal_rows rows at rows + e*max_rows, their Jacobians
     * w.r.t. the element's velocities at jacobians + (e*max_rows + r)*nv
     * (one nv-vector per row), and the number written in row_counts[e].
     * The host eliminates them into the element's mass block (ABI 1.2; with
     * or without shared nodes), so each must be a plain compliant row:
     * compliance > 0, bounds (-inf, inf), findex -1, target_velocity 0
     * (PIVOT_ROW_NO_STABILIZATION leaves its violation out); anything else
     * fails the step with a message naming the element and row. At most
     * 1024 rows per element. Optional (NULL when the element has none).
     */
    pivot_status (*internal_rows)(const void* instance, const pivot_element_batch* batch,
                                  const pivot_step_info* step, pivot_row* rows,
                                  double* jacobians, uint32_t* row_counts);

    /*
     * [step] Position update q+ = q + h N(q) v+ for node_count nodes:
     * q and q_out are node_count x coords_per_node, v is node_count x
     * velocities_per_node. Normalizes quaternions and the like. q and q_out
     * may alias. Required.
     */
    pivot_status (*integrate)(const void* instance, uint32_t node_count, const double* q,
                              const double* v, double timestep, double* q_out);

    /*
     * [step] Frames at material points: for each point p, its world pose
     * (7 doubles at poses + 7p), twist (6 doubles at twists + 6p) and the
     * 6 x nv Jacobian of that twist w.r.t. the element's velocities,
     * column-major at jacobians + 6*nv*p, so twist = J v. The frame's
     * orientation is the element's material orientation at the point (body
     * frame for a rigid body; for a cable x along the tangent). Required:
     * joints and contacts attach through it.
     */
    pivot_status (*material_frames)(const void* instance, const pivot_element_batch* batch,
                                    const pivot_material_point* points, uint32_t point_count,
                                    double* poses, double* twists, double* jacobians);

    /*
     * [step] Energies summed over the batch (J): kinetic, gravitational
     * potential (zero at the world origin, -m g.x) and elastic (stored in the
     * internal rows' compliance). Required.
     */
    pivot_status (*energy)(const void* instance, const pivot_element_batch* batch,
                           const pivot_step_info* step, double* kinetic,
                           double* gravitational, double* elastic);

    /* ---- ABI 1.2 (absent in older plugins: see plugin.h on struct_size) -- */

    /*
     * [build] The coordinates (coords_per_node doubles) of a node placed
     * undeformed at `pose` (x y z, quaternion w x y z: for a curve the x
     * axis is the tangent), written to q_node. The host builds a chain from
     * these (a straight cable: every node on the line, x axis along it) and
     * gives the elements' reference configuration the same values; and
     * places a body of an element with PIVOT_ELEMENT_GEOMETRY_SHAPES at the
     * pose of its material point (0,0,0). Required with
     * PIVOT_ELEMENT_CAP_SHARED_NODES and for an element used for bodies,
     * else may be NULL. Any thread, no allocation.
     */
    pivot_status (*node_coordinates)(const void* instance, const double pose[7], double* q_node);

    /*
     * [step] The geometric (initial-stress) stiffness of the internal rows
     * at the batch's configuration: for each element an nv x nv symmetric
     * positive semidefinite matrix K, column-major at stiffness + e*nv*nv,
     * such that the internal forces F = J^T lambda change as
     * dF = -(J^T C^-1 J + K) dq; K is the part from the rotation of J under
     * stress, sum_i lambda_i d^2 phi_i / dq^2 (e.g. a cable's tension: in a
     * thin tensioned cable it, not the bending rows, stiffens sideways
     * motion). The host adds h^2 K to the iteration matrix and
     * 0.95 h^2 K v to its right-hand side: K acts on the step's velocity
     * change, and on the velocity itself only at 5 % (implicit Euler's
     * share), which keeps unresolved sideways modes from growing without
     * damping resolved motion (docs/engine.md "Cables at real-time steps").
     * A plugin returns only the semidefinite part (compression dropped).
     * Optional: NULL = zero.
     */
    pivot_status (*internal_stiffness)(const void* instance, const pivot_element_batch* batch,
                                       const pivot_step_info* step, double* stiffness);

    /* ---- ABI 1.3 ---------------------------------------------------------- */

    /*
     * [step] Geometric stiffness of the material frames: how a wrench held
     * constant at a material point acts on the element as the element
     * moves. For each point p with wrench W_p = (force, torque), world, at
     * the frame origin (6 doubles at wrenches + 6p), write a 6 x 6 matrix
     * K_p, column-major at stiffness + 36p, on the frame's displacement
     * twist (dp, dtheta), such that the element's generalized force
     * J_p^T W_p changes as
     *     d(J_p^T W_p) = -J_p^T K_p J_p du
     * for a displacement du of the element's velocity coordinates (J_p the
     * frame Jacobian of material_frames). A rigid body's K_p is the lever
     * arm's turn, (F . r) I - r F^T on dtheta, r the arm from the centre of
     * mass. K_p need not be symmetric. Optional: NULL = zero (joints on
     * this element then get only the joint's own stiffness).
     */
    pivot_status (*frame_stiffness)(const void* instance, const pivot_element_batch* batch,
                                    const pivot_material_point* points, uint32_t point_count,
                                    const double* wrenches, double* stiffness);

    /* ---- ABI 1.10 --------------------------------------------------------- */

    /*
     * [step] The forces f(q, v) exactly at the batch's state, for any
     * timestep: what generalized_forces returns, without an implicit
     * treatment of any term (a rigid body's gyroscopic torque is
     * -omega x (I omega) at the given omega), plus the forces of its
     * internal_rows (an ANCF cable's elasticity: these integrators take no
     * internal rows), nv per element at forces + e*nv. The host's accuracy integrators (GSSSS, docs/engine.md
     * "Integrators") solve M(q) a = f(q, v) + J^T lambda at states of their
     * own choosing. step->timestep is 0 and must not be read. With shared
     * nodes, as mass_matrix: each element's own nv values, which the host
     * sums where elements share a node (so for force_tangent). Optional
     * (NULL: the element cannot be used with those integrators); given
     * together with force_tangent.
     */
    pivot_status (*smooth_forces)(const void* instance, const pivot_element_batch* batch,
                                  const pivot_step_info* step, double* forces);

    /*
     * [step] The tangent of r(q, v, a) = M(q) a - f(q, v), f of
     * smooth_forces, at the batch's q and v and the accelerations a (count
     * x nv, laid out like batch->v): for each element the stiffness dr/dq,
     * along the displacements of integrate (d/de r(q (+) e dq), q (+) dq the
     * q_out of integrate with v = dq and timestep 1), and the damping
     * dr/dv, both nv x nv column-major at stiffness + e*nv*nv and damping +
     * e*nv*nv. Neither need be symmetric. Required with smooth_forces.
     */
    pivot_status (*force_tangent)(const void* instance, const pivot_element_batch* batch,
                                  const pivot_step_info* step, const double* accelerations,
                                  double* stiffness, double* damping);
} pivot_element_functions;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PIVOT_PLUGIN_ELEMENT_H */
