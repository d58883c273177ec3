/*
 * pivot/plugin_joint.h - joint plugins: rows between two attachment frames.
 *
 * A joint sees two frames, never the elements behind them: frame 1 fixed on
 * body 1 and frame 2 fixed on body 2 (either may be the world). The host
 * places both frames so that they coincide in the initial configuration
 * (the joint's anchor, x axis along the joint axis), except for joints whose
 * schema says otherwise (a distance joint's two anchors). The joint returns
 * rows whose Jacobians act on the two frames' twists; the host chains them
 * with each element's material-frame Jacobian, so any joint connects any two
 * element types (rigid bodies, cable nodes) and the world.
 *
 * Jacobian layout per row: 12 doubles, (v1, w1, v2, w2), each a 3-vector in
 * world coordinates, so that the row's velocity is J . [twist1; twist2].
 */
#ifndef PIVOT_PLUGIN_JOINT_H
#define PIVOT_PLUGIN_JOINT_H

#include "pivot/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PIVOT_JOINT_JACOBIAN_WIDTH 12u

/* pivot_plugin_descriptor.capabilities for joints */
#define PIVOT_JOINT_CAP_LIMITS ((uint64_t)1 << 0)      /* has limit rows         */
#define PIVOT_JOINT_CAP_MOTOR ((uint64_t)1 << 1)       /* has a motor (drive)     */
#define PIVOT_JOINT_CAP_FREE_COORDINATE ((uint64_t)1 << 2) /* reports coordinate() */

/* The joints of one call, all from one instance. */
typedef struct pivot_joint_batch {
    uint32_t count;             /* joints in this batch                        */
    uint32_t item_param_stride; /* doubles per joint in item_params            */
    const double* item_params;  /* count x stride: per-joint parameters
                                   (PIVOT_PARAM_PER_ITEM), schema order        */
    const double* frame1_poses;  /* count x 7, world                           */
    const double* frame2_poses;  /* count x 7, world                           */
    const double* frame1_twists; /* count x 6, world                           */
    const double* frame2_twists; /* count x 6, world                           */
} pivot_joint_batch;

typedef struct pivot_joint_functions {
    uint32_t struct_size;        /* sizeof(pivot_joint_functions)              */
    uint32_t max_rows_per_joint; /* 1..64, including limit and motor rows      */

    pivot_instance_functions instance;

    /*
     * [step] Rows of every joint: joint j writes at most max_rows_per_joint
     * rows at rows + j*max_rows, their Jacobians at jacobians +
     * (j*max_rows + r)*12, and the count in row_counts[j]. Equality rows
     * carry PIVOT_ROW_POSITION_ERROR; inactive limits are simply not written;
     * the motor's row carries PIVOT_ROW_MOTOR (ABI 1.7: its force is the
     * joint's reported motor effort).
     * The host warm-starts row k of joint j with the impulse of its row k in
     * the last step: write rows that come and go (limits) after the rows
     * that stay (equalities, motors), so that a row keeps its slot.
     * Required.
     */
    pivot_status (*rows)(const void* instance, const pivot_joint_batch* batch,
                         const pivot_step_info* step, pivot_row* rows, double* jacobians,
                         uint32_t* row_counts);

    /*
     * [step] The joint's free coordinate (angle in rad or displacement in m)
     * and its rate, for joints with PIVOT_JOINT_CAP_FREE_COORDINATE; for
     * sensors and output. Optional.
     */
    pivot_status (*coordinate)(const void* instance, const pivot_joint_batch* batch,
                               double* positions, double* velocities);

    /* ---- ABI 1.3 (absent in older plugins: see plugin.h on struct_size) -- */

    /*
     * [step] Geometric stiffness of the rows: how the force the rows apply
     * to the two frames turns as the frames move, at constant row forces.
     * forces: count x max_rows_per_joint, the force (N or N m) of row k of
     * joint j at forces[j*max_rows + k], in the order rows() writes them
     * (the host passes the previous step's; rows past row_counts[j] are 0).
     * For each joint write a 12 x 12 matrix K, column-major at
     * stiffness + j*144, over the frame displacements
     * (dp1, dtheta1, dp2, dtheta2) in world coordinates, such that the
     * frame wrenches F = J^T f change as
     *     dF = -K [dp1; dtheta1; dp2; dtheta2]
     * to first order with f held constant (K = -d(J^T f)/d(frames)). K need
     * not be symmetric; rows whose Jacobian is constant in world
     * coordinates (a ball joint's point rows) contribute nothing. What the
     * force does through the lever arm of a frame on its element is the
     * element's part (plugin_element.h frame_stiffness). The host makes the
     * result symmetric and semidefinite, keeps only the part that acts on
     * the frames' relative motion, and adds it to the mass blocks before
     * they are factored (docs/engine.md "Geometric stiffness"). Optional:
     * NULL = zero (the rows' directions are treated explicitly).
     */
    pivot_status (*geometric_stiffness)(const void* instance, const pivot_joint_batch* batch,
                                        const pivot_step_info* step, const double* forces,
                                        double* stiffness);

    /* ---- ABI 1.6 ---------------------------------------------------------- */

    /* How the host places the joint's two frames from a description
       (pivot_joint_frames; 0 = absent: at the anchor, along the axis when
       the joint declares PIVOT_JOINT_CAP_FREE_COORDINATE). Both frames
       coincide at the initial configuration, except with TWO_ANCHORS. */
    uint32_t frames;
    uint32_t reserved; /* zero */
} pivot_joint_functions;

/* pivot_joint_functions.frames (ABI 1.6). */
typedef enum pivot_joint_frames {
    PIVOT_JOINT_FRAMES_ANCHOR = 1,         /* at the anchor, world-aligned (ball, weld)   */
    PIVOT_JOINT_FRAMES_AXIS = 2,           /* at the anchor, x along the axis (hinge)      */
    PIVOT_JOINT_FRAMES_AXIS_AT_BODY = 3,   /* x along the axis, at body 2's centre of mass
                                              (body 1's when body 2 is the world): no anchor
                                              (slider)                                     */
    PIVOT_JOINT_FRAMES_TWO_AXES = 4,       /* at the anchor, x along axis1, y along axis2
                                              (perpendicular; a cardan joint)             */
    PIVOT_JOINT_FRAMES_TWO_ANCHORS = 5     /* frame 1 at anchor1, frame 2 at anchor2,
                                              world-aligned (a rope of fixed length)      */
} pivot_joint_frames;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PIVOT_PLUGIN_JOINT_H */
