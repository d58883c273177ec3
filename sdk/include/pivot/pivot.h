/*
 * pivot/pivot.h - embedding the Pivot engine in an application (C99).
 *
 * Link with libpivot (CMake: find_package(pivot) and target pivot::pivot).
 * A C++ wrapper is in pivot/pivot.hpp.
 *
 *   pivot_engine  the plugins: created with the first-party plugins (next to
 *                 libpivot) and those of PIVOT_PLUGIN_PATH; more can be
 *                 loaded. It must outlive its worlds.
 *   pivot_world   one simulated world: from a scene file (pivot-scene/1,
 *                 docs/scene-format.md), from scene JSON text, or built in
 *                 code with the *_desc structs below.
 *
 * ERRORS. Every function that can fail returns pivot_status (plugin.h):
 * PIVOT_OK, or PIVOT_ERROR with a one-line message from pivot_last_error()
 * that names the file, object and field. A failed call changes nothing
 * (a step that fails leaves the world as it was). No function aborts or
 * throws across this interface; NULL arguments are errors, not crashes.
 *
 * THREADS. A world is used by one thread at a time (any thread). Different
 * worlds of one engine may step concurrently, provided no thread loads
 * plugins into that engine meanwhile; creating a world from a scene whose
 * settings.plugin_paths name plugins counts as loading them (and plugins
 * so loaded stay in the engine even if the scene is then refused). Creating
 * and destroying worlds of one engine from several threads is allowed.
 * pivot_last_error() is per thread.
 *
 * UNITS. SI throughout; world frame; quaternions (w, x, y, z) body to world.
 *
 * VERSIONING. The *_desc structs and pivot_world_settings and
 * pivot_world_statistics begin with struct_size; set it with the matching
 * pivot_*_init() function, which also fills the defaults. Fields are only
 * ever appended, zero meaning "absent", and a library accepts every size
 * from its first release's on (same policy as plugin.h). An array of such
 * a struct (pivot_body_desc.shapes) is stepped by its first entry's
 * struct_size, and all its entries must have that size. pivot_body_state,
 * pivot_joint_reaction, pivot_contact, pivot_contact_cables and
 * pivot_cable_attachment have no struct_size: they are frozen within a
 * major version (the last three travel in arrays); new data will come
 * through new functions (or new fields of the *_desc that points to them).
 *
 * CHANGES. 0.2 (2026-11, plugin ABI 1.3): pivot_world_settings gains
 * stabilization, divergence_energy and divergence_joint_error;
 * pivot_world_statistics gains energy_excess and diverging (stable steps at
 * 60 Hz and the divergence watch, docs/engine.md). Smaller structs of 0.1
 * are read with those fields absent (the defaults) and written only up to
 * their size.
 * 0.3 (2026-11, plugin ABI 1.4): pivot_world_settings.solver NULL (now what
 * pivot_world_settings_init sets) is the engine's choice per island: the
 * sparse direct solver for islands without friction (chains and trees of
 * joints), dantzig for the others; a named solver takes every island, as
 * before. pivot_world_statistics gains stage_count and stage_seconds (the
 * time of each stage of the last step) and pivot_step_stage_name() names
 * them.
 * 0.4 (2026-11, plugin ABI 1.5): the engine's choice gives contact islands
 * to the Newton solver; pivot_world_settings gains step_budget and threads,
 * pivot_world_statistics budget_limited.
 * 0.5 (2026-11): contact islands of more than large_island_rows rows go to
 * projected Gauss-Seidel in velocities with a sweep budget;
 * pivot_world_settings gains large_island_rows and large_island_sweeps,
 * pivot_world_statistics large_islands.
 * 0.6 (2026-11): hostile input: pivot_world_settings gains step_time_limit
 * (a default 1 s guard on every step); worlds refuse time steps above
 * 1 s, gravity above 1e4 m/s^2, shape sizes outside 1e-6..1e5 m, and
 * masses and inertias outside the limits of docs/scene-format.md "Limits".
 * 0.7 (2026-11): bounded step memory: a step's contacts are capped by the
 * memory their rows take (the rest dropped for the step and counted in
 * pivot_world_statistics.contacts_dropped, appended), and an island whose
 * matrix would exceed 2^22 values is solved by velocity PGS whatever the
 * solver named (docs/engine.md "Memory bounds").
 * 0.8 (2026-11): a step that a plugin discards (PIVOT_DISCARD) is taken
 * again in 2, 4, ... up to 16 substeps, and fails, leaving the world as it
 * was, only when those are discarded too; pivot_world_statistics gains
 * substeps (appended). Body damping: pivot_body_desc gains linear_damping
 * and angular_damping (appended), and pivot_world_set_body_damping changes
 * them. pivot_world_solver says which solver a world uses.
 * pivot_world_settings gains solver_acceptance, contact_margin,
 * contact_regularization and restitution_threshold (appended). Logging:
 * pivot_set_log_callback (the engine's and the plugins' messages with their
 * level and source, instead of stderr) and pivot_set_log_level.
 * 0.9 (2026-11, plugin ABI 1.7): drives: pivot_joint_desc gains motor_mode
 * (velocity, position or force), motor_position, motor_stiffness,
 * motor_damping and motor_force (appended); pivot_world_set_motor_position
 * and pivot_world_set_motor_force change the targets between steps;
 * pivot_world_joint_motor_effort reads the motor's own force or torque.
 * A joint's damping now also damps its free motion (docs/engine.md
 * "Joint damping"). Changing worlds: pivot_joint_desc gains disabled,
 * break_force and break_torque (appended), pivot_world_set_joint_enabled
 * and pivot_world_joint_enabled turn joints on and off and say which broke,
 * pivot_world_statistics gains joints_broken (appended); adding to a world
 * keeps the other joints' warm starts. Winches: pivot_cable_desc gains
 * reel_speed, min_length and max_length (appended);
 * pivot_world_set_cable_reel_speed and pivot_world_cable_length. Material
 * pairs from code: pivot_material_pair_desc and pivot_world_add_material_pair.
 * pivot_world_contact_flags says which contacts are speculative. A body
 * built in code may go unnamed ("#<index>"). The saved state includes the
 * solver that takes the islands. pivot_joint_reaction.position_error and
 * pivot_world_statistics.max_joint_error are the errors after the step,
 * no longer those it started from. Removal: pivot_world_remove_body,
 * _joint, _cable and pivot_world_removed; bodies on and off:
 * pivot_world_set_body_enabled, pivot_world_body_enabled.
 * 0.10 (2026-11): ropes reeved over sheaves (docs/engine.md "Ropes and
 * sheaves"): pivot_rope_point, pivot_rope_desc, pivot_world_add_rope and the
 * pivot_world_rope_* functions; pivot_world_remove_rope; pivot_object_kind
 * gains PIVOT_OBJECT_ROPE. Removing a body also removes the ropes through it.
 * 0.11 (2026-11): solvers on their own, for tools and test kits (the
 * solver conformance kit is built on them): pivot_engine_create_empty; the
 * loaded plugins: pivot_plugin_info, pivot_engine_plugin_count,
 * pivot_engine_plugin_info, pivot_engine_plugin_json,
 * pivot_engine_find_plugin; a solver instance outside any world:
 * pivot_solver_create, _destroy, _clone, _reset, _solve (the host's checked
 * call, pivot_solve_check), _instance, _plugin_functions; pivot-lcp/1
 * problem files:
 * pivot_lcp_read_file, pivot_lcp_problem_of, pivot_lcp_destroy.
 * 0.12 (2026-11): a body's own friction parameters: pivot_body_desc gains
 * friction_params (appended), and pivot_world_set_body_friction changes
 * them (docs/scene-format.md "Bodies": values that replace its materials'
 * in every contact it makes).
 * 0.13 (2026-11, plugin ABI 1.10): accuracy integrators:
 * pivot_world_set_integrator chooses the GSSSS family (Newmark, HHT, WBZ,
 * generalized-alpha, the midpoint rules) instead of the semi-implicit step
 * (docs/engine.md "Integrators").
 */
#ifndef PIVOT_PIVOT_H
#define PIVOT_PIVOT_H

#include <stddef.h>
#include <stdint.h>

#include "pivot/plugin.h"
#include "pivot/plugin_solver.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(PIVOT_BUILDING_ENGINE)
#define PIVOT_API __declspec(dllexport)
#elif defined(_WIN32)
#define PIVOT_API __declspec(dllimport)
#elif defined(__GNUC__)
#define PIVOT_API __attribute__((visibility("default")))
#else
#define PIVOT_API
#endif

typedef struct pivot_engine pivot_engine;
typedef struct pivot_world pivot_world;
typedef struct pivot_solver pivot_solver; /* (0.11) */
typedef struct pivot_lcp pivot_lcp;       /* (0.11) */

/* ------------------------------------------------------------------------ */
/* Errors and version                                                        */
/* ------------------------------------------------------------------------ */

/* The message of the last failed call on this thread ("" if none); valid
   until the next call on this thread. Never NULL. */
PIVOT_API const char* pivot_last_error(void);

/* "MAJOR.MINOR.PATCH" of the engine library. */
PIVOT_API const char* pivot_version(void);

/* ------------------------------------------------------------------------ */
/* Logging (0.8)                                                             */
/* ------------------------------------------------------------------------ */

/* What the engine and its plugins log (a plugin's reason for refusing its
   parameters, a solver giving up, a refused plugin file) goes to stderr, at
   level warning and above unless the environment variable PIVOT_LOG_LEVEL
   (trace, debug, info, warning, error, off) says otherwise. An embedder takes
   it instead with a callback: its level, its source (the category a plugin
   gave, usually its id; "pivot" for the engine's own messages) and the
   message, NUL-terminated UTF-8 valid during the call only. The callback is
   called on the thread that logs (a world's worker threads included), one
   call at a time, and must not call Pivot. Process-wide: every engine's
   messages. NULL goes back to stderr. */
typedef void (*pivot_log_callback)(void* user, pivot_log_level level, const char* source, const char* message);
PIVOT_API void pivot_set_log_callback(pivot_log_callback callback, void* user);
/* The least level logged, process-wide (PIVOT_LOG_TRACE .. PIVOT_LOG_ERROR):
   messages below it are dropped before they are formatted. */
PIVOT_API pivot_status pivot_set_log_level(pivot_log_level level);

/* ------------------------------------------------------------------------ */
/* Engine (plugins)                                                          */
/* ------------------------------------------------------------------------ */

/* Loads the first-party plugins and those of PIVOT_PLUGIN_PATH. */
PIVOT_API pivot_status pivot_engine_create(pivot_engine** engine);
/* Destroys an engine whose worlds are all destroyed. NULL is ignored. */
PIVOT_API void pivot_engine_destroy(pivot_engine* engine);
/* Loads a plugin file, or every plugin file directly in a folder. A library
   with any invalid plugin is refused whole (the message says why). */
PIVOT_API pivot_status pivot_engine_load_plugins(pivot_engine* engine, const char* file_or_folder);
/* (0.11) An engine with no plugin at all (not even the first-party ones):
   for a tool or test that must see only the plugins it loads itself. */
PIVOT_API pivot_status pivot_engine_create_empty(pivot_engine** engine);

/* (0.11) What an engine has loaded. Plugins are numbered 0..count-1 in id
   order; loading more plugins renumbers them. The strings stay valid while
   the engine lives. */
typedef struct pivot_plugin_info {
    uint32_t struct_size;   /* set by pivot_engine_plugin_info               */
    uint32_t kind;          /* pivot_plugin_kind                             */
    uint32_t abi_major;     /* the ABI the plugin was built with             */
    uint32_t abi_minor;
    uint64_t capabilities;  /* its kind's PIVOT_<KIND>_CAP_* flags            */
    const char* id;         /* "pivot.solver.lemke"                          */
    const char* name;       /* for people                                    */
    const char* vendor;
    const char* version;    /* the plugin's own "MAJOR.MINOR.PATCH"          */
    const char* description;
    const char* file;       /* absolute path of the library it came from     */
    uint32_t param_count;   /* entries of its parameter schema               */
    uint32_t reserved;      /* zero                                          */
} pivot_plugin_info;

PIVOT_API uint32_t pivot_engine_plugin_count(const pivot_engine* engine);
PIVOT_API pivot_status pivot_engine_plugin_info(const pivot_engine* engine, uint32_t plugin, pivot_plugin_info* info);
/* The plugin as a JSON object, the form `pivot plugins --json` prints for it
   (docs/cli.md): id, kind, capabilities by name, and the parameter schema
   with types, units, ranges and defaults. NULL (with pivot_last_error) for
   a bad index. Valid while the engine lives. */
PIVOT_API const char* pivot_engine_plugin_json(const pivot_engine* engine, uint32_t plugin);
/* The plugin of `kind` (pivot_plugin_kind) with this id or short name
   ("lemke" for "pivot.solver.lemke"); the error names what is loaded. */
PIVOT_API pivot_status pivot_engine_find_plugin(const pivot_engine* engine, uint32_t kind, const char* name,
                                                uint32_t* plugin);

/* ------------------------------------------------------------------------ */
/* Creating worlds                                                           */
/* ------------------------------------------------------------------------ */

/* From a scene file; its settings.plugin_paths are loaded into the engine. */
PIVOT_API pivot_status pivot_world_create_from_file(pivot_engine* engine, const char* scene_file,
                                                    pivot_world** world);
/* From scene JSON text; base_dir (may be NULL: the current folder) resolves
   relative plugin_paths. */
PIVOT_API pivot_status pivot_world_create_from_json(pivot_engine* engine, const char* scene_json,
                                                    const char* base_dir, pivot_world** world);

typedef struct pivot_world_settings {
    uint32_t struct_size;
    uint32_t reserved;            /* zero */
    double timestep;              /* s, > 0; default 1e-3 */
    double gravity[3];            /* m/s^2; default (0, 0, -9.81) */
    const char* solver;           /* solver plugin id or short name: it solves
                                     every island. NULL (the default): the
                                     engine chooses per island, "direct" for
                                     islands without friction (chains, trees
                                     of joints), "newton" for contact islands,
                                     "velocity_pgs" for large ones (below),
                                     "dantzig" for the others               */
    const char* solver_options;   /* JSON object of its parameters, or NULL */
    /* ---- appended in 0.2 (ABI 1.3): zero = the default ---- */
    uint32_t stabilization;       /* 0: geometric stiffness of the joints and
                                     position projection (docs/engine.md
                                     "Stable steps"); 1: neither (rows
                                     corrected by phi/h only, as before)    */
    uint32_t reserved2;           /* zero */
    double divergence_energy;     /* energy gain, as a fraction of the world's
                                     energy scale, above which a step reports
                                     diverging; 0: default 0.1; < 0: off     */
    double divergence_joint_error;/* m or rad; 0: default 0.1; < 0: off     */
    /* ---- appended in 0.4 (ABI 1.5): zero = the default ---- */
    double step_budget;           /* s of wall time a step may take; the
                                     islands' solves get what the other stages
                                     leave, and an island cut short uses its
                                     best answer (statistics: budget_limited).
                                     0: none (every island solved to the
                                     acceptance, however long it takes)      */
    uint32_t threads;             /* threads that solve a step's islands, the
                                     calling one included: 0 = the machine's
                                     hardware threads, at most 4; 1 = the
                                     calling thread only. The steps are
                                     bitwise the same whatever the count     */
    uint32_t reserved3;           /* zero */
    /* ---- appended in 0.5: zero = the default ---- */
    uint32_t large_island_rows;   /* contact islands with more rows than this
                                     (piles of hundreds of bodies) are solved
                                     by projected Gauss-Seidel in velocities
                                     with large_island_sweeps sweeps per step
                                     as their work budget (an answer they cut
                                     short: budget_limited, not a failure;
                                     docs/solvers.md "Large islands").
                                     0: default 4000; UINT32_MAX: never.
                                     Ignored (never) when solver is named   */
    uint32_t large_island_sweeps; /* 0: default 20                           */
    /* ---- appended in 0.6: zero = the default ---- */
    double step_time_limit;       /* s: a guard, not a budget: a step's
                                     solves are cut after this much wall time
                                     whatever step_budget says (counted in
                                     budget_limited), so no input can hold a
                                     step for seconds. 0: default 1;
                                     < 0: off                               */
    /* ---- appended in 0.8: zero = the default, < 0 = zero ---- */
    double solver_acceptance;      /* N s: the largest natural-map residual
                                      an island's solve may leave and count
                                      as solved; default 1e-6               */
    double contact_margin;         /* m: shapes this close become contact
                                      rows (speculative contacts); default
                                      0.01                                  */
    double contact_regularization; /* rigid contact rows get this fraction of
                                      their effective mass as compliance, so
                                      redundant contact sets have unique
                                      forces (docs/contacts.md); default
                                      1e-5; < 0: exactly rigid              */
    double restitution_threshold;  /* m/s: slower approaches do not bounce;
                                      default 0.1                           */
} pivot_world_settings;
PIVOT_API void pivot_world_settings_init(pivot_world_settings* settings);

/* An empty world (then add materials, bodies, static shapes, joints, cables). */
PIVOT_API pivot_status pivot_world_create(pivot_engine* engine, const pivot_world_settings* settings,
                                          pivot_world** world);
/* NULL is ignored. */
PIVOT_API void pivot_world_destroy(pivot_world* world);

/* ------------------------------------------------------------------------ */
/* Building in code (docs/scene-format.md names the same things)          */
/* ------------------------------------------------------------------------ */

typedef struct pivot_material_desc {
    uint32_t struct_size;
    uint32_t reserved;
    const char* name;            /* "default" replaces the default material */
    const char* friction_model;  /* friction plugin id; default "pivot.friction.box" */
    const char* friction_params; /* JSON object of the model's parameters; NULL: {"mu": 0.5} */
    double restitution;          /* [0, 1]; default 0 */
    double compliance;           /* m/N; default 0 (rigid) */
    double damping;              /* N s/m; default 0 */
} pivot_material_desc;
PIVOT_API void pivot_material_desc_init(pivot_material_desc* material);
PIVOT_API pivot_status pivot_world_add_material(pivot_world* world, const pivot_material_desc* material);

/* (0.9) What contacts between two materials use instead of the combination
   rule (docs/scene-format.md "material_pairs": mu = sqrt(mu1 mu2),
   restitution the larger, compliances in series, damping the larger); a
   later pair of the same two materials replaces an earlier one. */
#define PIVOT_PAIR_RESTITUTION 0x1u /* pivot_material_pair_desc.overrides: restitution is set */
#define PIVOT_PAIR_COMPLIANCE 0x2u  /* compliance is set */
#define PIVOT_PAIR_DAMPING 0x4u     /* damping is set */
typedef struct pivot_material_pair_desc {
    uint32_t struct_size;
    uint32_t overrides;          /* PIVOT_PAIR_* bits: which of the three values below replace the rule */
    const char* material1;       /* two defined material names (may be equal) */
    const char* material2;
    const char* friction_model;  /* friction plugin id; NULL: the first material's model */
    const char* friction_params; /* JSON object, all of the model's parameters (nothing is combined);
                                    NULL: combined by the rule, or the model's defaults when
                                    friction_model is set */
    double restitution;          /* [0, 1] */
    double compliance;           /* m/N */
    double damping;              /* N s/m */
} pivot_material_pair_desc;
PIVOT_API void pivot_material_pair_desc_init(pivot_material_pair_desc* pair);
PIVOT_API pivot_status pivot_world_add_material_pair(pivot_world* world, const pivot_material_pair_desc* pair);

typedef struct pivot_shape_desc {
    uint32_t struct_size;
    uint32_t reserved;
    const char* type;        /* "sphere", "box", "capsule", "cylinder", "plane" (static only) */
    double radius;           /* m: sphere, capsule, cylinder */
    double length;           /* m: capsule segment, cylinder height, along local z */
    double size[3];          /* m: box full edge lengths */
    double normal[3];        /* plane: n.x <= offset is solid; default (0, 0, 1) */
    double offset;           /* plane, m */
    double position[3];      /* m, in the body frame (world for static shapes) */
    double orientation[4];   /* unit quaternion, in the body frame; default (1, 0, 0, 0) */
    const char* material;    /* default "default" */
} pivot_shape_desc;
PIVOT_API void pivot_shape_desc_init(pivot_shape_desc* shape);
PIVOT_API pivot_status pivot_world_add_static_shape(pivot_world* world, const pivot_shape_desc* shape);

typedef struct pivot_body_desc {
    uint32_t struct_size;
    uint32_t fixed;              /* nonzero: immovable (still collides) */
    const char* name;            /* unique; "world" is reserved; NULL or "" (0.9): the body is
                                    named "#<index>" (pivot_world_body_name) */
    double mass;                 /* kg, > 0; default 1 */
    double inertia[9];           /* kg m^2, body frame at the centre of mass, row-major SPD; default identity */
    double position[3];          /* m, centre of mass */
    double orientation[4];       /* default (1, 0, 0, 0) */
    double linear_velocity[3];   /* m/s */
    double angular_velocity[3];  /* rad/s */
    const pivot_shape_desc* shapes; /* shape_count shapes, or NULL */
    uint32_t shape_count;
    uint32_t reserved;
    /* ---- appended in 0.8 ---- */
    double linear_damping;       /* N s/m, 0 .. 1e12 (0: none): a force -c v on the centre of mass */
    double angular_damping;      /* N m s/rad, 0 .. 1e12: a torque -c omega; both taken implicitly,
                                    stable at any time step (docs/engine.md "Body damping") */
    /* ---- appended in 0.12 ---- */
    const char* friction_params; /* JSON object: the body's own values of friction-model parameters
                                    ({"mu": 0.3} for a worn tyre), which replace its materials' in
                                    every contact it makes whose model has them; when both bodies
                                    set one, mu, mu_static and mu_kinetic combine as sqrt(a b).
                                    NULL or "{}": none (docs/scene-format.md "Bodies") */
} pivot_body_desc;
PIVOT_API void pivot_body_desc_init(pivot_body_desc* body);
/* index: the body's index (for the calls below); may be NULL. */
PIVOT_API pivot_status pivot_world_add_body(pivot_world* world, const pivot_body_desc* body, uint32_t* index);

typedef struct pivot_joint_desc {
    uint32_t struct_size;
    uint32_t reserved;
    const char* name;       /* unique among joints */
    const char* type;       /* fixed, spherical, revolute, prismatic, cylindrical, universal, distance,
                               or a joint plugin id */
    const char* body1;      /* body name or "world" (default) */
    const char* body2;
    double anchor[3];       /* m, world, at the initial configuration */
    double axis[3];         /* unit: revolute, prismatic, cylindrical; default (1, 0, 0) */
    double axis1[3];        /* universal, on body 1; default (1, 0, 0) */
    double axis2[3];        /* universal, on body 2; default (0, 1, 0) */
    double anchor1[3];      /* distance: on body 1 */
    double anchor2[3];      /* distance: on body 2 */
    double length;          /* distance: m; negative (default): the initial distance */
    double compliance;      /* m/N or rad/(N m); 0 = rigid */
    double damping;         /* N s/m or N m s/rad */
    uint32_t has_limits;    /* nonzero: lower/upper apply to the free coordinate */
    uint32_t has_motor;     /* nonzero: a velocity motor */
    double lower, upper;    /* rad or m */
    double motor_velocity;  /* rad/s or m/s: velocity mode's target, position mode's feed-forward */
    double motor_max_force; /* N m or N, >= 0: the bound of every mode */
    /* ---- appended in 0.9: drives (pivot_motor_mode in plugin.h, docs/engine.md "Drives") ---- */
    uint32_t motor_mode;    /* PIVOT_MOTOR_VELOCITY (0, default), _POSITION or _FORCE */
    uint32_t reserved2;
    double motor_position;  /* rad or m: position mode's target */
    double motor_stiffness; /* N m/rad or N/m, >= 0: position mode (0 = a rigid servo) */
    double motor_damping;   /* N m s/rad or N s/m, >= 0: velocity mode (0 = rigid) and position mode */
    double motor_force;     /* N m or N: force mode's force, clamped to +-motor_max_force */
    /* ---- appended in 0.9: joints that change while the world runs ---- */
    uint32_t disabled;      /* nonzero: added inactive (pivot_world_set_joint_enabled turns it on) */
    uint32_t reserved3;
    double break_force;     /* N, >= 0: the joint breaks (is disabled) after a step whose reaction
                               force exceeds it; 0 = never */
    double break_torque;    /* N m, >= 0: the same for the reaction torque; 0 = never */
} pivot_joint_desc;
PIVOT_API void pivot_joint_desc_init(pivot_joint_desc* joint);
PIVOT_API pivot_status pivot_world_add_joint(pivot_world* world, const pivot_joint_desc* joint, uint32_t* index);

/* Cables (ANCF, docs/scene-format.md "Cables"): a straight chain of
   `elements` equal elements from start (node 0) to end (node `elements`),
   stress-free and at rest when added; nodes 0 .. elements. */

/* Where a node is held. Frozen (no struct_size; travels in an array); all
   zero is a valid entry: node 0 pinned to the world, spherical. */
typedef struct pivot_cable_attachment {
    int64_t node;          /* 0 .. elements, or negative from the end: -1 = the last node */
    const char* body;      /* body name or "world"; NULL: "world" */
    const char* type;      /* "spherical" (the node's position) or "fixed" (also its tangent
                              direction: a revolute joint about it, the cable has no torsion);
                              NULL: "spherical" */
} pivot_cable_attachment;

typedef struct pivot_cable_desc {
    uint32_t struct_size;
    uint32_t elements;          /* >= 1; default 1 */
    const char* name;           /* unique among cables and bodies; not "world" */
    const char* type;           /* element plugin id or short name; default "pivot.element.ancf_cable" */
    double start[3];            /* m, world: node 0; default (0, 0, 0) */
    double end[3];              /* m, world: the last node, != start; default (1, 0, 0) */
    double radius;              /* m, > 0 (also the contact radius); default 0.01 */
    double density;             /* kg/m^3, > 0; default 7800 */
    double youngs_modulus;      /* Pa, > 0; default 2e11 */
    double damping;             /* s, >= 0: Kelvin-Voigt time constant (not N s/m); default 0 */
    double geometric_stiffness; /* [0, 1]: the plugin's "geometric_stiffness" (0: off); negative (default):
                                   the plugin's default (pivot.element.ancf_cable: automatic) */
    const char* material;       /* contact material; default "default" */
    const pivot_cable_attachment* attachments; /* attachment_count entries, or NULL */
    uint32_t attachment_count;
    uint32_t gauss_points;      /* per element; 0 (default): the plugin's default */
    /* ---- appended in 0.9: the winch (docs/engine.md "Winches") ---- */
    uint32_t reserved;
    double reel_speed;          /* m/s, |v| <= 100: the deployed length changes at it from the first
                                   step (> 0 pays out, < 0 reels in); default 0 */
    double min_length;          /* m: the winch stops here; 0 (default): a tenth of the initial length */
    double max_length;          /* m: and here; 0 (default): ten times the initial length */
} pivot_cable_desc;
PIVOT_API void pivot_cable_desc_init(pivot_cable_desc* cable);
/* Adds the cable and one joint per attachment, named "<cable>/attach<k>"
   (k from 0, in array order; they count in pivot_world_joint_count).
   index: the cable's index (for the calls below); may be NULL. */
PIVOT_API pivot_status pivot_world_add_cable(pivot_world* world, const pivot_cable_desc* cable, uint32_t* index);
/* (0.9) Winches: a cable's deployed length (m, the sum of its elements'
   reference lengths), and the speed at which it changes from the next step
   on (m/s; > 0 pays out, < 0 reels in, |v| <= 100), stopping at the
   cable's min_length and max_length. The length is spread evenly over the
   elements; the wire's own elasticity gives its stretch and tension
   (docs/engine.md "Winches"). */
PIVOT_API pivot_status pivot_world_cable_length(const pivot_world* world, uint32_t cable, double* length);
PIVOT_API pivot_status pivot_world_set_cable_reel_speed(pivot_world* world, uint32_t cable, double speed);

/* (0.10) Ropes: a massless rope reeved over sheaves on bodies, one
   unilateral row of the step (docs/engine.md "Ropes and sheaves"): its path
   (straight segments, wrapped around the sheaves) is never longer than its
   length; it pulls with one tension along its whole length (frictionless
   sheaves), goes slack, never pushes. What a hoist rope over a jib's sheaves,
   a block and tackle or a luffing rope needs; a hanging wire whose own
   mass and sway matter is a cable.

   A route point: where the rope passes a body. Frozen (no struct_size;
   travels in an array); all zero is a valid entry: a point at the world
   origin. */
typedef struct pivot_rope_point {
    const char* body;   /* body name or "world"; NULL: "world" */
    double point[3];    /* m, world, as the body is when the rope is added: the point the rope passes
                           (radius 0) or the sheave's centre */
    double axis[3];     /* world, as the body is when the rope is added: the sheave's axis; the rope
                           wraps it counterclockwise (right hand) as it runs from the first point to the
                           last. Read when radius > 0 */
    double radius;      /* m, >= 0: 0 for a point (an eye, an end; both ends are points), > 0 a sheave */
} pivot_rope_point;

typedef struct pivot_rope_desc {
    uint32_t struct_size;
    uint32_t point_count;             /* 2 .. 1000, on at most 4 distinct bodies */
    const char* name;                 /* unique among ropes */
    const pivot_rope_point* points;   /* point_count entries */
    double length;                    /* m: unstretched length; 0 (default): the route's length when added */
    double stiffness;                 /* N: axial stiffness EA; 0 (default): inextensible */
    double damping;                   /* N s/m along the rope (needs stiffness > 0); default 0 */
    double reel_speed;                /* m/s, |v| <= 100: the winch (> 0 pays out, < 0 reels in); default 0 */
    double min_length;                /* m: the winch stops here; 0 (default): a tenth of the initial length */
    double max_length;                /* m: and here; 0 (default): ten times the initial length */
} pivot_rope_desc;
PIVOT_API void pivot_rope_desc_init(pivot_rope_desc* rope);
/* index: the rope's index (for the calls below); may be NULL. */
PIVOT_API pivot_status pivot_world_add_rope(pivot_world* world, const pivot_rope_desc* rope, uint32_t* index);
/* Count, index by name, name (valid while the world lives; NULL for a bad index). */
PIVOT_API uint32_t pivot_world_rope_count(const pivot_world* world);
PIVOT_API pivot_status pivot_world_find_rope(const pivot_world* world, const char* name, uint32_t* index);
PIVOT_API const char* pivot_world_rope_name(const pivot_world* world, uint32_t rope);
/* A rope now. Frozen (no struct_size). */
typedef struct pivot_rope_state {
    double length;          /* m: unstretched */
    double path_length;     /* m: its path now (longer than length when taut and elastic) */
    double tension;         /* N: of the last step; 0 when slack */
    uint32_t point_count;   /* route points (pivot_world_get_rope_path gives two per point) */
    uint32_t reserved;      /* 0 */
} pivot_rope_state;
PIVOT_API pivot_status pivot_world_get_rope(const pivot_world* world, uint32_t rope, pivot_rope_state* state);
/* The winch: the speed at which the length changes from the next step on
   (m/s; > 0 pays out, < 0 reels in, |v| <= 100), stopping at min_length and
   max_length. The winch's work is the rope's to do: the tension follows. */
PIVOT_API pivot_status pivot_world_set_rope_reel_speed(pivot_world* world, uint32_t rope, double speed);
/* The path now, for drawing: per route point where the rope arrives and
   where it leaves (x y z each, m, world; equal for a point, the two tangent
   points of a sheave, between which it follows the sheave's circle), so
   2 x point_count points, 6 x point_count doubles; capacity counts points.
   A capacity below 2 x point_count is refused (nothing written). */
PIVOT_API pivot_status pivot_world_get_rope_path(const pivot_world* world, uint32_t rope, double* positions,
                                                 uint32_t capacity);

/* ------------------------------------------------------------------------ */
/* Stepping and reading                                                      */
/* ------------------------------------------------------------------------ */

/* Advances by `steps` timesteps. On failure the world is as it was before
   the failing step (the earlier steps of the call are kept). */
PIVOT_API pivot_status pivot_world_step(pivot_world* world, uint32_t steps);
PIVOT_API double pivot_world_time(const pivot_world* world);
PIVOT_API double pivot_world_timestep(const pivot_world* world);

PIVOT_API uint32_t pivot_world_body_count(const pivot_world* world);
PIVOT_API uint32_t pivot_world_joint_count(const pivot_world* world);
/* Index of a body or joint by name. */
PIVOT_API pivot_status pivot_world_find_body(const pivot_world* world, const char* name, uint32_t* index);
PIVOT_API pivot_status pivot_world_find_joint(const pivot_world* world, const char* name, uint32_t* index);
/* Name of a body or joint (valid while the world lives), or NULL for a bad index. */
PIVOT_API const char* pivot_world_body_name(const pivot_world* world, uint32_t body);
PIVOT_API const char* pivot_world_joint_name(const pivot_world* world, uint32_t joint);

/* Cables: count, index by name, name (valid while the world lives; NULL
   for a bad index), and the number of nodes (elements + 1; 0 for a bad
   index). */
PIVOT_API uint32_t pivot_world_cable_count(const pivot_world* world);
PIVOT_API pivot_status pivot_world_find_cable(const pivot_world* world, const char* name, uint32_t* index);
PIVOT_API const char* pivot_world_cable_name(const pivot_world* world, uint32_t cable);
PIVOT_API uint32_t pivot_world_cable_node_count(const pivot_world* world, uint32_t cable);
/* The centreline at every node of a cable, nodes 0 .. node_count - 1, x y z
   each: positions (m, world) and, if velocities is not NULL, velocities
   (m/s, world). Each array holds 3 x capacity doubles; a capacity below
   pivot_world_cable_node_count is refused (nothing written). What a
   renderer calls every frame to draw the cable as a polyline or tube of its
   radius. */
PIVOT_API pivot_status pivot_world_get_cable_nodes(const pivot_world* world, uint32_t cable, double* positions,
                                                   double* velocities, uint32_t capacity);

typedef struct pivot_body_state {
    double position[3];         /* m, centre of mass, world */
    double orientation[4];      /* w, x, y, z, body to world */
    double linear_velocity[3];  /* m/s, world */
    double angular_velocity[3]; /* rad/s, world */
} pivot_body_state;
PIVOT_API pivot_status pivot_world_get_body(const pivot_world* world, uint32_t body, pivot_body_state* state);
/* Teleports a body (pose and velocities). An orientation whose norm is
   within 1 +- 1e-3 is normalized; one farther off is refused (the message
   names the field and the norm). */
PIVOT_API pivot_status pivot_world_set_body(pivot_world* world, uint32_t body, const pivot_body_state* state);

/* A force at the centre of mass and a torque (world), applied in every
   following step until changed (zeros remove it). */
PIVOT_API pivot_status pivot_world_set_body_force(pivot_world* world, uint32_t body, const double force[3],
                                                  const double torque[3]);
/* (0.8) A body's viscous damping, from the next step on: linear (N s/m) and
   angular (N m s/rad), each 0 .. 1e12 (pivot_body_desc.linear_damping). */
PIVOT_API pivot_status pivot_world_set_body_damping(pivot_world* world, uint32_t body, double linear,
                                                    double angular);
/* (0.12) A body's own friction parameters (pivot_body_desc.friction_params;
   NULL or "{}": none), from the next step on. Its contacts go on under the
   new values with their impulses and friction state. Each key must be a
   parameter of some loaded friction model, and its value valid for every
   loaded model that has it. */
PIVOT_API pivot_status pivot_world_set_body_friction(pivot_world* world, uint32_t body, const char* friction_params);
/* Motor target velocity (rad/s or m/s) of a joint that has a motor. */
PIVOT_API pivot_status pivot_world_set_motor_velocity(pivot_world* world, uint32_t joint, double velocity);
/* (0.9) Takes a body (with the joints attached to it), a joint, or a cable
   (with its attachment joints) out of the world between steps (docs/engine.md
   "Changing a world while it runs"): from the next step it costs nothing;
   everything else keeps its state, warm starts and contact memory. Indices
   stay as they were: the counts include what was removed, a removed index
   is refused by every call (the message says it was removed), and
   pivot_world_removed says which are. Its name may be used again. */
PIVOT_API pivot_status pivot_world_remove_body(pivot_world* world, uint32_t body);
PIVOT_API pivot_status pivot_world_remove_joint(pivot_world* world, uint32_t joint);
PIVOT_API pivot_status pivot_world_remove_cable(pivot_world* world, uint32_t cable);
/* (0.10) Takes a rope out (removing a body also removes the ropes through it). */
PIVOT_API pivot_status pivot_world_remove_rope(pivot_world* world, uint32_t rope);
typedef enum pivot_object_kind {
    PIVOT_OBJECT_BODY = 0,
    PIVOT_OBJECT_JOINT = 1,
    PIVOT_OBJECT_CABLE = 2,
    PIVOT_OBJECT_ROPE = 3 /* (0.10) */
} pivot_object_kind;
/* 1 when the body, joint or cable of that index was removed; 0 otherwise
   (a bad index or world included). */
PIVOT_API uint32_t pivot_world_removed(const pivot_world* world, pivot_object_kind kind, uint32_t index);
/* (0.9) Turns a body on or off between steps: a disabled body stays where
   it is, collides with nothing, and the joints attached to it act no more;
   enabled again it goes on with the velocity it had (docs/engine.md
   "Changing a world while it runs"). pivot_world_set_body refuses a
   disabled body's velocity. */
PIVOT_API pivot_status pivot_world_set_body_enabled(pivot_world* world, uint32_t body, uint32_t enabled);
PIVOT_API pivot_status pivot_world_body_enabled(const pivot_world* world, uint32_t body, uint32_t* enabled);
/* (0.9) Turns a joint on or off between steps (docs/engine.md "Changing a
   world while it runs"). A disabled joint writes no rows and costs the
   solver nothing; enabled again, it starts from a zero warm start and is no
   longer reported broken. at_current_pose nonzero (when enabling): frame 2
   is moved onto frame 1 as the bodies are now, so the joint holds them
   where they are (a hook engaging a load); a distance joint keeps its
   anchors and takes the current distance as its length. Refused for a
   frame 2 on a cable node. */
PIVOT_API pivot_status pivot_world_set_joint_enabled(pivot_world* world, uint32_t joint, uint32_t enabled,
                                                     uint32_t at_current_pose);
/* (0.9) Whether a joint is enabled, and whether it broke (was disabled by
   its break threshold and not enabled since); either pointer may be NULL. */
PIVOT_API pivot_status pivot_world_joint_enabled(const pivot_world* world, uint32_t joint, uint32_t* enabled,
                                                 uint32_t* broken);
/* (0.9) Position mode's target (rad or m) and force mode's force (N m or
   N) of a joint's motor, from the next step on. Refused for a joint type
   whose motor has no such mode. */
PIVOT_API pivot_status pivot_world_set_motor_position(pivot_world* world, uint32_t joint, double position);
PIVOT_API pivot_status pivot_world_set_motor_force(pivot_world* world, uint32_t joint, double force);
/* The free coordinate (rad or m) and its rate of a joint that has one. */
PIVOT_API pivot_status pivot_world_joint_coordinate(const pivot_world* world, uint32_t joint, double* position,
                                                    double* rate);

typedef struct pivot_joint_reaction {
    double force[3];       /* N, on body 2 at its joint frame, world (body 1: the opposite) */
    double torque[3];      /* N m, about that point, world */
    double position_error; /* largest |violation| of its equality rows (m or rad), after the
                              step (0.9; before: at the start of the step) */
} pivot_joint_reaction;
/* Of the last step. */
PIVOT_API pivot_status pivot_world_joint_reaction(const pivot_world* world, uint32_t joint,
                                                  pivot_joint_reaction* reaction);
/* (0.9) The motor's own force (N) or torque (N m) along the joint's free
   coordinate in the last step: positive drives the coordinate up. Only
   the motor row's force: the constraint's reaction is not in it. 0 when
   the joint wrote no motor row (no motor, a zero bound, or a joint plugin
   older than ABI 1.7). */
PIVOT_API pivot_status pivot_world_joint_motor_effort(const pivot_world* world, uint32_t joint, double* effort);

typedef struct pivot_contact {
    int32_t body1;         /* body index, -1 for the world (static shapes) or a cable
                              (pivot_world_contact_cables says which) */
    int32_t body2;
    double point[3];       /* m, world */
    double normal[3];      /* unit, from body 1 to body 2 */
    double depth;          /* m, > 0 when penetrating */
    double normal_force;   /* N, on body 2 along the normal */
    double friction[3];    /* N, world: the tangential force on body 2 */
} pivot_contact;
/* The contacts of the last step: count is set to their number; at most
   capacity are written to contacts (which may be NULL when capacity is 0). */
PIVOT_API pivot_status pivot_world_contacts(const pivot_world* world, pivot_contact* contacts, uint32_t capacity,
                                            uint32_t* count);

/* Which side of each contact is a cable: cables[i] belongs to contact i of
   pivot_world_contacts (same step, same order, same count and capacity
   rules). Frozen, like pivot_contact. */
typedef struct pivot_contact_cables {
    int32_t cable1;        /* cable index when body 1's side is a cable, else -1 */
    int32_t cable2;        /* the same for body 2 */
} pivot_contact_cables;
PIVOT_API pivot_status pivot_world_contact_cables(const pivot_world* world, pivot_contact_cables* cables,
                                                  uint32_t capacity, uint32_t* count);
/* (0.9) What each contact of pivot_world_contacts is (same step, order,
   count and capacity rules): PIVOT_CONTACT_* bits. A speculative contact
   is a pair of shapes within the contact margin that did not touch at the
   start of the step (depth < 0): it is in the problem so that the bodies
   cannot pass each other within the step, and carries a force only if
   they close the gap during it. A sensor counting touches should skip
   them (pivot run's --contacts file leaves them out unless they carry a
   force). */
#define PIVOT_CONTACT_SPECULATIVE 0x1u /* the shapes did not touch (depth < 0) */
#define PIVOT_CONTACT_FORCE 0x2u       /* it carried a normal force in the step */
PIVOT_API pivot_status pivot_world_contact_flags(const pivot_world* world, uint32_t* flags, uint32_t capacity,
                                                 uint32_t* count);

/* Room for the step's stages in pivot_world_statistics.stage_seconds. */
#define PIVOT_STEP_STAGE_CAPACITY 24

/* The name of stage `stage` of the step ("dynamics", "frames", ..., see
   docs/engine.md), or NULL for stage >= pivot_world_statistics.stage_count. */
PIVOT_API const char* pivot_step_stage_name(uint32_t stage);

typedef struct pivot_world_statistics {
    uint32_t struct_size;
    uint32_t islands;          /* of the last step */
    uint32_t rows;
    uint32_t solver_failures;  /* islands not solved to the acceptance (best answer applied) */
    uint32_t fallbacks;        /* islands solved by a fallback solver */
    uint32_t solver_iterations;
    double solver_residual;    /* largest residual of the step's islands (N s) */
    double max_joint_error;    /* m or rad: the largest joint position error after the last
                                  step (0.9; before: at its start, a step late) */
    double step_seconds;       /* wall time of the last step */
    double kinetic_energy;     /* J, now */
    double potential_energy;   /* J, gravitational (zero at the origin) plus elastic */
    /* ---- appended in 0.2 (ABI 1.3) ---- */
    double energy_excess;      /* J: energy above what the work done on the
                                  world since it started allows (> 0: gained) */
    uint32_t diverging;        /* 1: the last step passed a divergence
                                  threshold (energy gain or joint error)      */
    uint32_t reserved;         /* zero */
    /* ---- appended in 0.3 (ABI 1.4) ---- */
    uint32_t stage_count;      /* entries of stage_seconds in use            */
    uint32_t reserved3;        /* zero */
    double stage_seconds[PIVOT_STEP_STAGE_CAPACITY]; /* wall time of each stage
                                  of the last step, in pipeline order (names:
                                  pivot_step_stage_name); they sum to
                                  step_seconds                                */
    /* ---- appended in 0.4 (ABI 1.5) ---- */
    uint32_t budget_limited;   /* islands whose solve the step budget cut short
                                  (their best answer applied: not failures;
                                  solver_residual says how far from exact)    */
    uint32_t reserved4;        /* zero */
    /* ---- appended in 0.5 ---- */
    uint32_t large_islands;    /* islands solved as large ones (settings:
                                  large_island_rows)                          */
    uint32_t reserved5;        /* zero */
    /* ---- appended in 0.7 ---- */
    uint32_t contacts_dropped; /* contacts of the last step dropped, not
                                  solved: their rows would have passed the
                                  step's memory cap (docs/engine.md
                                  "Memory bounds")                            */
    uint32_t reserved6;        /* zero */
    /* ---- appended in 0.8 ---- */
    uint32_t substeps;         /* 1, or the substeps the last step was taken
                                  in after a plugin discarded it (2, 4, ...
                                  16, each of timestep / substeps; the counts
                                  above are then summed over them)            */
    uint32_t reserved7;        /* zero */
    /* ---- appended in 0.9 ---- */
    uint32_t joints_broken;    /* joints that broke in the last step (their
                                  reaction passed break_force or break_torque;
                                  disabled from the next step on)             */
    uint32_t reserved8;        /* zero */
} pivot_world_statistics;
PIVOT_API void pivot_world_statistics_init(pivot_world_statistics* statistics);
PIVOT_API pivot_status pivot_world_statistics_get(const pivot_world* world, pivot_world_statistics* statistics);

/* ------------------------------------------------------------------------ */
/* Solvers                                                                   */
/* ------------------------------------------------------------------------ */

/* Swaps the solver between two steps (options: JSON object or NULL); the
   warm start is kept. Refused, world unchanged, for an unknown solver, bad
   options, or a solver that cannot solve the world's friction models. */
PIVOT_API pivot_status pivot_world_set_solver(pivot_world* world, const char* solver, const char* options);
/* (0.13) The integrator, from the next step on (docs/engine.md
   "Integrators"): JSON as a scene's settings.integrator, "semi_implicit"
   (the default), "gssss" (the midpoint rule V0(1, 1, 0) on position
   constraints) or an object {"type": "gssss", "scheme": "generalized_alpha",
   "rho": 0.8, "constraints": "position", "stabilization": "projection", ...}
   (docs/scene-format.md "Integrators"); NULL: "semi_implicit". Refused,
   world unchanged, for invalid JSON or settings. The GSSSS step takes rigid
   bodies, cables and rigid joints: a step fails (world unchanged, the error
   says why) for contacts, ropes, damped bodies, breakable joints, joints
   with compliance, limits or drives, cables with a fixed attachment or a
   reel speed, and when its Newton iteration does not converge. It reports
   joint reactions, no contacts. */
PIVOT_API pivot_status pivot_world_set_integrator(pivot_world* world, const char* integrator);
/* (0.8) The registered id of the solver that takes every island (named in
   pivot_world_settings.solver or by pivot_world_set_solver, e.g.
   "pivot.solver.pgs" for "pgs"), valid until the next call that changes
   it; NULL while the engine chooses per island (settings.solver NULL) or
   for a NULL world. */
PIVOT_API const char* pivot_world_solver(const pivot_world* world);
/* The solvers tried, in order, when the primary fails (ids or short names). */
PIVOT_API pivot_status pivot_world_set_fallback(pivot_world* world, const char* const* solvers, uint32_t count);

/* ------------------------------------------------------------------------ */
/* Solvers on their own (0.11)                                                */
/* ------------------------------------------------------------------------ */
/*
 * A solver plugin's instance outside any world, given complementarity
 * problems in the ABI's own form (pivot_lcp_problem, plugin_solver.h), for
 * tools and test kits: the solver conformance kit, a benchmark of solvers on
 * dumped step problems. Solves go through the same checked call a world's
 * step makes. A pivot_solver is used by one thread at a time; the engine
 * must outlive it (pivot_engine_destroy keeps, and says so, an engine with
 * solvers alive).
 */

/* An instance of the solver plugin `solver` (id or short name) with its
   instance parameters from a JSON object (NULL or "" for the defaults); the
   error names the solver and the parameter. */
PIVOT_API pivot_status pivot_solver_create(pivot_engine* engine, const char* solver, const char* params_json,
                                           pivot_solver** out);
/* NULL is ignored. */
PIVOT_API void pivot_solver_destroy(pivot_solver* solver);
/* A deep copy through the plugin's clone(): it continues bitwise as the
   original would. An error when the plugin cannot clone. */
PIVOT_API pivot_status pivot_solver_clone(const pivot_solver* solver, pivot_solver** copy);
/* Forgets history (warm starts, cached factorizations) through the plugin's
   reset(); nothing to do for a plugin without one. */
PIVOT_API pivot_status pivot_solver_reset(pivot_solver* solver);
/* The plugin's own instance handle, for a test kit that calls the plugin's
   functions (pivot_solver_plugin_functions) directly: an invalid problem,
   reserve(). The host checks nothing of such calls. */
PIVOT_API void* pivot_solver_instance(const pivot_solver* solver);
/* The plugin's pivot_solver_functions (the table its descriptor gives,
   fields its ABI minor did not have zeroed); valid while the engine lives. */
PIVOT_API const pivot_solver_functions* pivot_solver_plugin_functions(const pivot_solver* solver);

/* What the host made of one solve (pivot_solver_solve). */
typedef struct pivot_solve_check {
    uint32_t struct_size;  /* set by pivot_solver_solve                      */
    pivot_status returned; /* what the plugin's solve() returned             */
    uint32_t usable;       /* 1: the answer a world's step would take: OK or
                              WARNING, a report that agrees, a finite x within
                              its bounds, nothing written past x or w        */
    double residual;       /* the host's natural-map residual of x, with
                              w = A x + b recomputed; +inf when not usable   */
    char message[PIVOT_MESSAGE_CAPACITY]; /* why not usable ("" when usable) */
} pivot_solve_check;

/* Solves problem (checked like any caller's data: sizes, pointers, and for
   the host's own checks of the answer, bounds and friction index) through
   the host's checked call. x: n doubles, the warm start when options->flags
   has PIVOT_SOLVE_WARM_START, the answer after; w: n doubles, A x + b
   (recomputed by the host when the answer is usable, else as the plugin
   wrote it; NULL: not wanted); report: the plugin's own report. report->
   struct_size and check->struct_size must be set (to their sizeof).
   options NULL: no flags, no time budget. Returns PIVOT_OK when the solver
   was called (check says what its answer is worth), an error when it could
   not be (bad arguments, an instance that returned PIVOT_FATAL before). An
   invalid problem (a NaN in b, lo > hi, findex out of range) is given to the
   plugin, which must refuse it (plugin_solver.h); accepting it makes the
   answer not usable. */
PIVOT_API pivot_status pivot_solver_solve(pivot_solver* solver, const pivot_lcp_problem* problem,
                                          const pivot_solve_options* options, double* x, double* w,
                                          pivot_solve_report* report, pivot_solve_check* check);

/* A pivot-lcp/1 problem file (docs/cli.md; `pivot lcp solve` reads the same
   and `pivot run --dump-lcp` writes it). The error names the file, line and
   field. */
PIVOT_API pivot_status pivot_lcp_read_file(const char* file, pivot_lcp** lcp);
/* Its problem, dense A; valid until pivot_lcp_destroy. */
PIVOT_API const pivot_lcp_problem* pivot_lcp_problem_of(const pivot_lcp* lcp);
/* NULL is ignored. */
PIVOT_API void pivot_lcp_destroy(pivot_lcp* lcp);

/* ------------------------------------------------------------------------ */
/* Saving and restoring the state (rewind and replay)                        */
/* ------------------------------------------------------------------------ */

/* Writes the complete state (time, poses, velocities, forces, motor targets,
   warm starts, contact memory) to buffer. size is set to the bytes needed;
   with capacity < size (buffer may then be NULL) nothing is written and the
   call returns PIVOT_ERROR with "buffer too small". The buffer fits only
   this world (or one built the same way) in the same engine version. */
PIVOT_API pivot_status pivot_world_save_state(const pivot_world* world, void* buffer, size_t capacity,
                                              size_t* size);
/* Restores a saved state; the world then continues bitwise as it did after
   the save. A buffer of another world is refused, the world unchanged. */
PIVOT_API pivot_status pivot_world_restore_state(pivot_world* world, const void* buffer, size_t size);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PIVOT_PIVOT_H */
