/*
 * pivot/plugin.h - the Pivot plugin ABI: what every plugin kind shares.
 *
 * Pivot's engine calls dynamically loaded plugins of four kinds (element,
 * joint, friction model, complementarity solver) through this C interface
 * only. First-party plugins are written against exactly these headers.
 * The kind-specific tables are in plugin_element.h, plugin_joint.h,
 * plugin_friction.h and plugin_solver.h; each includes this file.
 *
 * The header is C99 and C++ clean (-Wall -Wextra -pedantic), uses only
 * fixed-width integers, double, size_t, const char* and opaque pointers.
 *
 * ==========================================================================
 * VERSIONING POLICY
 * ==========================================================================
 * PIVOT_ABI_MAJOR changes when anything already published changes meaning,
 * layout or calling convention. The host refuses to load a plugin whose
 * major differs from its own, with a message that names both versions.
 *
 * PIVOT_ABI_MINOR changes when fields are appended to the tail of a struct
 * or new flags, enum values or kinds appear. Nothing is ever removed,
 * reordered or retyped within one major. Every growable struct begins with
 * `struct_size`: the reader of a struct uses only min(its own size, the
 * writer's struct_size) bytes and treats the fields beyond as zero / NULL
 * ("absent"). So a plugin built against 1.3 loads in a 1.1 host (the host
 * ignores what it does not know) and a 1.1 plugin in a 1.3 host (the host
 * sees the newer fields as absent). Every field appended after 1.0 must
 * therefore have "zero means absent / old behaviour" semantics.
 *
 * The minimum sizes of the 1.0 structs are frozen: the host rejects a
 * struct smaller than its 1.0 size ("struct_size too small"). An array of a
 * growable struct (the parameter schema) is stepped by the struct_size of its
 * first entry, and all its entries have that size.
 *
 * Structs WITHOUT struct_size (pivot_row, pivot_contact_point,
 * pivot_contact_block, pivot_material_point, pivot_instance_functions, which
 * sits inside every kind's table, and the batch structs) are frozen for the
 * whole major: most travel in large host-owned arrays on the per-step path.
 * New data comes as new, separate arrays or new tail functions of the kind's
 * table announced by a newer minor, never as new fields in these.
 *
 * Output structs that the host allocates and the plugin fills (such as
 * pivot_solve_report): the host sets struct_size to its own size before the
 * call; the plugin writes only the first min(that, its own size) bytes and
 * leaves struct_size as the host set it.
 *
 * Plugin versions (descriptor.version) are the plugin author's own,
 * "MAJOR.MINOR.PATCH"; they are reported, never used to refuse loading.
 *
 * ==========================================================================
 * CHANGELOG
 * ==========================================================================
 * 1.0 (2026-11)  First published ABI: library entry, descriptors, parameter
 *                schema, host callbacks, instance life cycle, rows, and the
 *                element, joint, friction-model and solver tables.
 *                (Before its first release: solve() may return
 *                PIVOT_WARNING with status NUMERICAL_ERROR for a usable,
 *                conditioning-limited answer.)
 * 1.1 (2026-11)  Friction models may see the bodies at each contact:
 *                pivot_contact_bodies and the tail function
 *                pivot_friction_functions.build_with_bodies (body-fixed
 *                friction directions: anisotropic laws).
 * 1.2 (2026-11)  Chains of elements with shared nodes (cables):
 *                PIVOT_ELEMENT_CAP_SHARED_NODES, and the element tail
 *                functions node_coordinates (place an undeformed node) and
 *                internal_stiffness (geometric stiffness of the internal
 *                rows, for implicit integration of tension).
 * 1.3 (2026-11)  Geometric stiffness of joints (stable steps at 60 Hz):
 *                the joint tail function geometric_stiffness (how the
 *                rows' force turns with the frames) and the element tail
 *                function frame_stiffness (how a wrench at a material
 *                point turns with the element's lever arm).
 * 1.4 (2026-11)  The factored form of the step problem for solvers
 *                (fast structured solves): PIVOT_SOLVER_CAP_FACTORED, the
 *                tail field pivot_lcp_problem.factored (A = J Mbar^-1 J^T
 *                + diag given as the rows' sparse Jacobians, their
 *                responses and the diagonal, with a callback applying
 *                Mbar^-1); the host then assembles A only for solvers
 *                that read it.
 * 1.5 (2026-11)  The mass blocks themselves in the factored form, for
 *                solvers that work in velocities (a primal Newton method
 *                on the large contact islands): PIVOT_SOLVER_CAP_MASS_BLOCKS
 *                and the tail fields pivot_factored_problem.mass and
 *                mass_offset (Mbar per block, dense; absent for a block
 *                the host keeps only factored, a cable's).
 * 1.6 (2026-11)  Parameter roles: what a per-item parameter means to the
 *                host, in bits 16..23 of pivot_param_info.flags
 *                (PIVOT_PARAM_ROLE, pivot_param_role; 0 = none): the
 *                host fills a joint's compliance, damping, limits, motor
 *                and rest length, and an element's rest length, into the
 *                parameters with those roles, whatever their names. And
 *                the joint tail field pivot_joint_functions.frames (how a
 *                joint's frames are placed from a description: anchor,
 *                axis, two axes, two anchors). Plugins built before 1.6
 *                have neither: their parameters are filled by the names
 *                the first-party plugins used (compliance, damping,
 *                limits_enabled, lower, upper, motor_enabled,
 *                motor_velocity, motor_max_force, length), their frames
 *                placed at the anchor (and along the axis with
 *                PIVOT_JOINT_CAP_FREE_COORDINATE).
 * 1.7 (2026-11)  Drives: the roles MOTOR_MODE (velocity, position or
 *                force), MOTOR_POSITION, MOTOR_STIFFNESS, MOTOR_DAMPING and
 *                MOTOR_FORCE, so a joint description's position (PD) and
 *                force drives reach a joint; and the row flag
 *                PIVOT_ROW_MOTOR, which marks the row whose force the host
 *                reports as the joint's motor effort (the motor's own force
 *                or torque along its axis, without the constraint's).
 *                Plugins built before 1.7 flag no row: their effort reads 0.
 * 1.8 (2026-11)  Velocity-dependent friction laws right at any step:
 *                pivot_contact_motion (the relative motion at the contact
 *                at the start of the step, besides the free velocity of
 *                pivot_contact_point) and the friction tail function
 *                build_with_motion, which the host calls instead of
 *                build / build_with_bodies when it is set. A plugin with
 *                only build_with_motion needs a 1.8 host (an older one
 *                refuses it: no build). And pivot_contact_point.
 *                previous_impulses is what it was documented to be: last
 *                step's total linear impulse at the contact in this step's
 *                (normal, tangent1, tangent2) frame, whatever rows the
 *                model wrote (older hosts gave its raw rows 0, 1, 2: the
 *                same normal impulse for the first-party models, but the
 *                tangential ones in the model's own frame of that step).
 * 1.9 (2026-11)  Contact life cycle: the friction tail function
 *                contacts_ended, called with the contacts of an instance
 *                that ended (ids and last state), for laws with memory of
 *                their own; optional. Hosts keep each contact's impulses
 *                and state at its own model's max_rows_per_contact and
 *                state_per_contact (before: 16 and 64 per contact for
 *                every model).
 * 1.10 (2026-11) Accuracy integrators (GSSSS): the element tail functions
 *                smooth_forces (the forces at a state, for any timestep)
 *                and force_tangent (their derivatives, for Newton's
 *                matrix); optional, given together. Elements without them
 *                work as before with the default step.
 *
 * ==========================================================================
 * LOADING, IN ORDER
 * ==========================================================================
 * 1. The host opens the shared library and resolves exactly one symbol,
 *    PIVOT_PLUGIN_ENTRY_SYMBOL ("pivot_plugin_entry"); nothing else is looked
 *    up, and no constructor side effects are relied upon.
 * 2. It calls pivot_plugin_entry(host ABI major, host ABI minor) once. The
 *    plugin returns its library table, or NULL when it cannot serve that
 *    host (for instance another major).
 * 3. The host validates the table and every descriptor (sizes, versions,
 *    ids, parameter schemas, required functions) before anything is called;
 *    a library with one invalid descriptor is refused whole.
 * 4. If present, library->init(host) is called once; then instances are
 *    created through the descriptors' function tables. library->deinit() is
 *    called once before the library is unloaded.
 *
 * ==========================================================================
 * THREADING (applies to every function of every kind unless stated)
 * ==========================================================================
 * - entry, init and deinit: called once, from one thread, never concurrently
 *   with anything else of the same library.
 * - Function tables are stateless. All mutable state lives in instances
 *   (created through pivot_instance_functions) or in host-owned arrays that
 *   are passed in. A plugin has no mutable global state.
 * - Calls on one instance never overlap; calls on different instances may
 *   run concurrently on different threads (worlds stepped in parallel; a
 *   world's islands solved on its worker threads, each thread with its own
 *   solver instances made by clone()).
 * - The host callbacks (pivot_host) may be called from any thread.
 *
 * ==========================================================================
 * THE PER-STEP PATH
 * ==========================================================================
 * Functions marked [step] are called every time step, once for all items of
 * an instance (batched, on flat host-owned arrays). They must not allocate,
 * block, throw, or call longjmp. Their output arrays are sized by the host
 * from the maxima the plugin declared. Sizing and allocation happen in
 * create() or reserve-style functions, never in a [step] function.
 *
 * The host checks every output of every call for NaN/Inf and for its
 * contract (counts within declared maxima, bounds ordered, compliance >= 0)
 * before it uses it; a violation is treated as PIVOT_ERROR with a message
 * that names the plugin, the function and the offending entry.
 *
 * ==========================================================================
 * CONVENTIONS
 * ==========================================================================
 * SI units. Right-handed frames. Quaternions stored (w, x, y, z), unit
 * length, rotating the local frame into the world. A pose is 7 doubles
 * (x, y, z, qw, qx, qy, qz); a twist is 6 doubles (vx, vy, vz, wx, wy, wz),
 * linear velocity of the frame origin and angular velocity, both in world
 * coordinates. Dense matrices are column-major; a sparse matrix is CSC.
 */
#ifndef PIVOT_PLUGIN_H
#define PIVOT_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Versions and export                                                       */
/* ------------------------------------------------------------------------ */

#define PIVOT_ABI_MAJOR 1u
#define PIVOT_ABI_MINOR 10u

/* The one symbol the host resolves in a plugin library. */
#define PIVOT_PLUGIN_ENTRY_SYMBOL "pivot_plugin_entry"

#if defined(_WIN32)
#define PIVOT_PLUGIN_EXPORT __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#define PIVOT_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define PIVOT_PLUGIN_EXPORT
#endif

#ifdef __cplusplus
#define PIVOT_EXTERN_C extern "C"
#else
#define PIVOT_EXTERN_C
#endif

/* Limits the host enforces on descriptors. */
#define PIVOT_MAX_ID_LENGTH 128u          /* characters of a plugin id        */
#define PIVOT_MAX_PLUGINS_PER_LIBRARY 256u
#define PIVOT_MAX_PARAMS 256u             /* schema entries per plugin        */
#define PIVOT_MAX_PARAM_LENGTH 64u        /* components of one parameter      */
#define PIVOT_MESSAGE_CAPACITY 256u       /* bytes of a report message, with NUL */

/* ------------------------------------------------------------------------ */
/* Status                                                                     */
/* ------------------------------------------------------------------------ */

/* Returned by every plugin function that can fail (after FMI 3's fmi3Status). */
typedef enum pivot_status {
    PIVOT_OK = 0,      /* done as asked                                        */
    PIVOT_WARNING = 1, /* done, outputs usable; something was logged          */
    PIVOT_DISCARD = 2, /* outputs unusable for this step only; the host may
                          retry (smaller step, other solver)                   */
    PIVOT_ERROR = 3,   /* outputs unusable; the instance stays usable          */
    PIVOT_FATAL = 4    /* the instance (or library) must not be called again   */
} pivot_status;

/* ------------------------------------------------------------------------ */
/* Plugin kinds                                                               */
/* ------------------------------------------------------------------------ */

typedef enum pivot_plugin_kind {
    PIVOT_KIND_ELEMENT = 1,  /* bodies: generalized coordinates, mass, forces  */
    PIVOT_KIND_JOINT = 2,    /* rows between two attachment frames             */
    PIVOT_KIND_FRICTION = 3, /* rows (or forces) at contact points             */
    PIVOT_KIND_SOLVER = 4    /* complementarity problem -> impulses            */
} pivot_plugin_kind;

/* ------------------------------------------------------------------------ */
/* Host services given to the plugin                                          */
/* ------------------------------------------------------------------------ */

typedef enum pivot_log_level {
    PIVOT_LOG_TRACE = 0,
    PIVOT_LOG_DEBUG = 1,
    PIVOT_LOG_INFO = 2,
    PIVOT_LOG_WARNING = 3,
    PIVOT_LOG_ERROR = 4
} pivot_log_level;

/*
 * The host's services. Owned by the host, valid from init() (or create())
 * until deinit(); plugins keep the pointer, never copy the struct.
 */
typedef struct pivot_host {
    uint32_t struct_size; /* sizeof(pivot_host) as the host compiled it       */
    uint32_t abi_major;   /* the host's PIVOT_ABI_MAJOR                       */
    uint32_t abi_minor;   /* the host's PIVOT_ABI_MINOR                       */
    uint32_t reserved;    /* zero                                             */
    void* context;        /* opaque, pass back to the callbacks               */

    /*
     * Log a message. category: a short tag such as "lemke" or the plugin id
     * (NULL allowed); message: NUL-terminated UTF-8, copied before return.
     * Thread-safe. Cheap when the level is disabled, but still not for use
     * per row on the step path.
     */
    void (*log)(void* context, pivot_log_level level, const char* category,
                const char* message);

    /* The host's current minimum enabled level: skip formatting below it. */
    pivot_log_level (*log_level)(void* context);
} pivot_host;

/* ------------------------------------------------------------------------ */
/* Parameter schema                                                           */
/* ------------------------------------------------------------------------ */

typedef enum pivot_param_type {
    PIVOT_PARAM_REAL = 1, /* double                                           */
    PIVOT_PARAM_INT = 2,  /* integral value carried in a double (|v| < 2^53)   */
    PIVOT_PARAM_BOOL = 3, /* 0 or 1 carried in a double                        */
    PIVOT_PARAM_ENUM = 4  /* index into `choices`, carried in a double         */
} pivot_param_type;

/* pivot_param_info.flags */
#define PIVOT_PARAM_PER_ITEM 0x1u      /* one value per item (body, joint), not per instance */
#define PIVOT_PARAM_MIN_EXCLUSIVE 0x2u /* value > min_value rather than >=  */
#define PIVOT_PARAM_MAX_EXCLUSIVE 0x4u /* value < max_value rather than <=  */
/* ABI 1.6: bits 16..23 of flags give the parameter's role (pivot_param_role),
   e.g. PIVOT_PARAM_PER_ITEM | PIVOT_PARAM_ROLE(PIVOT_ROLE_COMPLIANCE). */
#define PIVOT_PARAM_ROLE(role) (((uint32_t)(role) & 0xFFu) << 16)
#define PIVOT_PARAM_ROLE_OF(flags) (((uint32_t)(flags) >> 16) & 0xFFu)

/* What a per-item parameter means to the host (ABI 1.6), which fills it
   from the item's description (a scene's joint or cable, the C API's
   pivot_joint_desc) whatever its name; at most one parameter per role,
   length 1. Joints: */
typedef enum pivot_param_role {
    PIVOT_ROLE_NONE = 0,
    PIVOT_ROLE_COMPLIANCE = 1,      /* REAL: the rows' compliance (m/N or rad/(N m))    */
    PIVOT_ROLE_DAMPING = 2,         /* REAL: the rows' damping                          */
    PIVOT_ROLE_LIMITS_ENABLED = 3,  /* BOOL: the free coordinate's limits are on        */
    PIVOT_ROLE_LIMIT_LOWER = 4,     /* REAL: its lower limit (m or rad)                 */
    PIVOT_ROLE_LIMIT_UPPER = 5,     /* REAL: its upper limit                            */
    PIVOT_ROLE_MOTOR_ENABLED = 6,   /* BOOL: the free coordinate's motor is on          */
    PIVOT_ROLE_MOTOR_VELOCITY = 7,  /* REAL: its target rate (m/s or rad/s); the host
                                       changes it between steps (set_motor_velocity)  */
    PIVOT_ROLE_MOTOR_MAX_FORCE = 8, /* REAL: its force bound (N or N m)                 */
    PIVOT_ROLE_REST_LENGTH = 9,     /* REAL: a distance joint's length (the initial
                                       distance unless given); an element's
                                       reference length (a cable's elements)         */
    /* ---- ABI 1.7: drives (what the motor row does; docs/plugin-abi.md) ---- */
    PIVOT_ROLE_MOTOR_MODE = 10,     /* ENUM: pivot_motor_mode, its choices in that
                                       order (a plugin may offer only the first
                                       ones; the host refuses a mode beyond them)   */
    PIVOT_ROLE_MOTOR_POSITION = 11, /* REAL: position mode's target (m or rad); the
                                       host changes it between steps                */
    PIVOT_ROLE_MOTOR_STIFFNESS = 12, /* REAL: position mode's stiffness (N/m or
                                       N m/rad); 0 = a rigid servo                   */
    PIVOT_ROLE_MOTOR_DAMPING = 13,  /* REAL: the drive's damping (N s/m or N m s/rad);
                                       velocity mode: 0 = rigid                     */
    PIVOT_ROLE_MOTOR_FORCE = 14     /* REAL: force mode's force (N or N m), within
                                       the force bound; the host changes it between
                                       steps                                        */
} pivot_param_role;

/* The values of a PIVOT_ROLE_MOTOR_MODE parameter (ABI 1.7). With f the
   motor row's force, s the free coordinate, v its rate at the end of the
   step, F the force bound (MOTOR_MAX_FORCE):
   VELOCITY  f = -d (v - v_target), |f| <= F; d = MOTOR_DAMPING, 0 = rigid
             (v = v_target while |f| < F: the 1.0 motor);
   POSITION  f = -k (s - s_target) - d (v - v_target), |f| <= F, both terms
             taken at the end of the step (implicit); k = 0: a rigid servo
             (the target reached in one step while |f| < F);
   FORCE     f = MOTOR_FORCE clamped to [-F, F], whatever the motion. */
typedef enum pivot_motor_mode {
    PIVOT_MOTOR_VELOCITY = 0,
    PIVOT_MOTOR_POSITION = 1,
    PIVOT_MOTOR_FORCE = 2
} pivot_motor_mode;

/*
 * One parameter of a plugin. The host validates every value against this
 * before the plugin sees it, so plugins may trust received values.
 *
 * Values cross the ABI as doubles, packed in schema order and flattened
 * (a parameter of length 3 takes 3 consecutive doubles). Instance-level
 * parameters (flag PIVOT_PARAM_PER_ITEM clear) are given to create() and
 * set_params(); per-item parameters are given with each batched call as an
 * items x stride array, in schema order among the per-item parameters only.
 */
typedef struct pivot_param_info {
    uint32_t struct_size;  /* sizeof(pivot_param_info)                        */
    uint32_t type;         /* pivot_param_type                                */
    uint32_t length;       /* number of components, 1..PIVOT_MAX_PARAM_LENGTH */
    uint32_t flags;        /* PIVOT_PARAM_*                                    */
    const char* name;      /* [a-z][a-z0-9_]*, unique within the plugin       */
    const char* unit;      /* SI unit, "1" for dimensionless, "" for none     */
    const char* doc;       /* one line for people                             */
    double default_value;  /* every component defaults to this               */
    double min_value;      /* inclusive unless PIVOT_PARAM_MIN_EXCLUSIVE; may be -HUGE_VAL */
    double max_value;      /* inclusive unless PIVOT_PARAM_MAX_EXCLUSIVE; may be +HUGE_VAL */
    const char* const* choices; /* ENUM only: choice names; value = index    */
    uint32_t choice_count;      /* ENUM only                                 */
    uint32_t reserved;          /* zero                                      */
} pivot_param_info;

/* ------------------------------------------------------------------------ */
/* Instance life cycle (shared by every kind)                                 */
/* ------------------------------------------------------------------------ */

/*
 * An instance is the plugin's per-use state: a configured solver with its
 * workspace and warm start, a friction model for one material pair, a set of
 * elements of one type sharing parameters, a set of joints of one type.
 * Instances are opaque to the host and are only touched through these
 * functions; they are what makes worlds clonable, checkpointable and
 * steppable on several threads.
 */
typedef struct pivot_instance_functions {
    /*
     * Create an instance. params: the instance-level parameter values in
     * schema order, already validated (param_count doubles). host: valid for
     * the instance's lifetime. May allocate. Required.
     */
    pivot_status (*create)(const pivot_host* host, const double* params,
                           uint32_t param_count, void** out_instance);

    /* Release everything the instance owns. NULL is a no-op. Required. */
    void (*destroy)(void* instance);

    /*
     * Deep copy, so that a world can be cloned. The copy behaves exactly
     * like the original from now on (bitwise the same results). Optional
     * (NULL: instances of this plugin cannot be cloned).
     */
    pivot_status (*clone)(const void* instance, void** out_copy);

    /* Forget history (warm starts, cached factorizations). Optional. */
    pivot_status (*reset)(void* instance);

    /*
     * Change the instance-level parameters between two steps; same packing
     * as create(). Optional (NULL: parameters are fixed at creation and the
     * host re-creates the instance to change them).
     */
    pivot_status (*set_params)(void* instance, const double* params,
                               uint32_t param_count);

    /*
     * Checkpointing: the number of bytes save_state writes, then the state
     * itself, then its restoration into an instance created with the same
     * parameters. The bytes are the plugin's own format; a plugin that keeps
     * no history may leave all three NULL (nothing to save).
     */
    pivot_status (*state_size)(const void* instance, size_t* out_size);
    pivot_status (*save_state)(const void* instance, void* buffer, size_t size);
    pivot_status (*load_state)(void* instance, const void* buffer, size_t size);
} pivot_instance_functions;

/* ------------------------------------------------------------------------ */
/* Rows: the common currency of elements, joints and friction models          */
/* ------------------------------------------------------------------------ */

/* pivot_row.flags */
#define PIVOT_ROW_POSITION_ERROR 0x1u /* violation counts toward the reported
                                         joint/position error (equality rows) */
#define PIVOT_ROW_NO_STABILIZATION 0x2u /* violation is reported, not corrected
                                           (velocity-level rows, e.g. cones)   */
#define PIVOT_ROW_MOTOR 0x4u /* ABI 1.7: the joint's motor (drive) row: the host
                                reports its force as the joint's motor effort;
                                at most one per joint                          */

/*
 * One constraint row: everything about it except its Jacobian, which is
 * passed separately in a dense array whose width is fixed by the producing
 * kind (element velocities, 12 for a joint's two frame twists, 6 per contact
 * direction). The host turns a row into the per-step problem
 * (docs/engine.md "The per-island problem"):  (J Mbar^-1 J^T + c/h^2) z
 * + ... with right-hand side from -violation/h and target_velocity, and
 * impulse bounds h*lower, h*upper.
 *
 * Bounds are forces (N or N m): lower <= f <= upper; use -HUGE_VAL/+HUGE_VAL
 * for none. A bilateral row has (-inf, +inf), a unilateral one (0, +inf).
 * With findex >= 0 the bounds are finite multipliers of the magnitude of
 * the force of row `findex` of the same item (the ODE friction index):
 * lower*|f_ref| <= f <= upper*|f_ref|.
 */
typedef struct pivot_row {
    double violation;       /* position-level error phi (m or rad), 0 if none */
    double target_velocity; /* velocity the row drives J v toward (m/s, rad/s) */
    double compliance;      /* c >= 0 (m/N or rad/(N m)); 0 = rigid           */
    double damping;         /* >= 0 (N s/m or N m s/rad)                      */
    double lower;           /* force bound, or multiplier with findex         */
    double upper;           /* force bound, or multiplier with findex         */
    int32_t findex;         /* -1, or index of the scaling row within the item */
    uint32_t flags;         /* PIVOT_ROW_*                                     */
} pivot_row;

/* Time-step information given to [step] functions. */
typedef struct pivot_step_info {
    uint32_t struct_size;
    uint32_t reserved;
    double timestep;   /* h (s), > 0                                          */
    double time;       /* simulated time at the start of the step (s)         */
    double gravity[3]; /* m/s^2, world frame                                  */
} pivot_step_info;

/* ------------------------------------------------------------------------ */
/* Descriptors and the library entry                                          */
/* ------------------------------------------------------------------------ */

/*
 * What a plugin is. One per plugin; static, constant, owned by the library
 * and valid while it is loaded.
 */
typedef struct pivot_plugin_descriptor {
    uint32_t struct_size;    /* sizeof(pivot_plugin_descriptor)               */
    uint32_t abi_major;      /* PIVOT_ABI_MAJOR the plugin was built with     */
    uint32_t abi_minor;      /* PIVOT_ABI_MINOR the plugin was built with     */
    uint32_t kind;           /* pivot_plugin_kind                             */
    const char* id;          /* unique, dotted lowercase: "pivot.solver.lemke";
                                [a-z0-9_-]+ segments, at least two, at most
                                PIVOT_MAX_ID_LENGTH characters               */
    const char* name;        /* for people: "Lemke (lexicographic)"           */
    const char* vendor;      /* who wrote it                                  */
    const char* version;     /* "MAJOR.MINOR.PATCH" of the plugin itself      */
    const char* description; /* one line                                      */
    uint64_t capabilities;   /* kind-specific PIVOT_<KIND>_CAP_* flags         */
    const pivot_param_info* params; /* schema, param_count entries, all of
                                       params[0].struct_size bytes            */
    uint32_t param_count;
    uint32_t reserved;       /* zero                                          */
    /*
     * The kind's function table: pivot_element_functions,
     * pivot_joint_functions, pivot_friction_functions or
     * pivot_solver_functions, each beginning with its own struct_size.
     */
    const void* functions;
} pivot_plugin_descriptor;

/* What pivot_plugin_entry returns: all plugins of one library. */
typedef struct pivot_plugin_library {
    uint32_t struct_size; /* sizeof(pivot_plugin_library)                     */
    uint32_t abi_major;   /* PIVOT_ABI_MAJOR the library was built with       */
    uint32_t abi_minor;
    uint32_t plugin_count; /* 1..PIVOT_MAX_PLUGINS_PER_LIBRARY                */
    const pivot_plugin_descriptor* const* plugins; /* plugin_count pointers  */

    /*
     * Optional. Called once after validation, before any instance exists;
     * host stays valid until deinit. A status other than OK/WARNING refuses
     * the whole library.
     */
    pivot_status (*init)(const pivot_host* host);
    /* Optional. Called once after the last instance is destroyed. */
    void (*deinit)(void);
} pivot_plugin_library;

/*
 * The entry point every plugin library exports, under the name
 * PIVOT_PLUGIN_ENTRY_SYMBOL, declared with PIVOT_PLUGIN_ENTRY:
 *
 *     PIVOT_PLUGIN_ENTRY {
 *         (void)host_abi_minor;
 *         return host_abi_major == PIVOT_ABI_MAJOR ? &my_library : NULL;
 *     }
 *
 * Called once per load, from one thread. Must not allocate, log or fail
 * in any other way than returning NULL.
 *
 * (A PIVOT_WARNING status of any function means: outputs usable, the reason
 * is in the call's report or was logged.)
 */
typedef const pivot_plugin_library* (*pivot_plugin_entry_fn)(uint32_t host_abi_major,
                                                            uint32_t host_abi_minor);

/* The prototype of the entry (so that -Wmissing-prototypes is satisfied);
   host_abi_major/minor are the host's PIVOT_ABI_MAJOR/MINOR. */
PIVOT_PLUGIN_EXPORT const pivot_plugin_library* pivot_plugin_entry(uint32_t host_abi_major,
                                                                   uint32_t host_abi_minor);

#define PIVOT_PLUGIN_ENTRY                                                     \
    PIVOT_EXTERN_C PIVOT_PLUGIN_EXPORT const pivot_plugin_library*             \
    pivot_plugin_entry(uint32_t host_abi_major, uint32_t host_abi_minor)

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PIVOT_PLUGIN_H */
