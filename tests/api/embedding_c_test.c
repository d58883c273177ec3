/* The embedding C API used from C99 (-pedantic-errors), as a training
   simulator would: an engine, a world built in code (ground, a box, a
   pendulum with a motor), stepped at 60 Hz; the box comes to rest on the
   ground (its weight in the contact forces), the motor turns the pendulum
   at its target speed, the state is saved and restored bitwise, and bad
   calls return PIVOT_ERROR with a message instead of crashing. Then
   cables: a crane's wire built in code and from scenes/cable_crane.json,
   its nodes read every frame as a renderer would (node 0 follows the boom
   tip), and the cable calls' errors. Last, the divergence statistics of a
   chain at 60 Hz with and without stabilization. Exits non-zero (printing why) on any
   failure. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pivot/pivot.h"

static int failures = 0;

#define EXPECT(condition)                                                          \
    do {                                                                           \
        if (!(condition)) {                                                        \
            fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #condition); \
            ++failures;                                                            \
        }                                                                          \
    } while (0)

#define CALL(expression)                                                                            \
    do {                                                                                            \
        if ((expression) != PIVOT_OK) {                                                             \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #expression, pivot_last_error()); \
            exit(1);                                                                                \
        }                                                                                           \
    } while (0)

#ifndef PIVOT_SCENE_DIR
#error "PIVOT_SCENE_DIR (the repository's scenes/ folder) is set by tests/api/CMakeLists.txt"
#endif

static int contains(const char* text, const char* part) { return strstr(text, part) != NULL; }

static int all_finite(const double* values, uint32_t n) {
    uint32_t i;
    for (i = 0; i < n; ++i) {
        if (!isfinite(values[i])) return 0;
    }
    return 1;
}

/* p + R(q) r: a point fixed on a body, in the world. */
static void body_point(const pivot_body_state* s, const double r[3], double out[3]) {
    const double w = s->orientation[0], x = s->orientation[1], y = s->orientation[2], z = s->orientation[3];
    const double m[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                            {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                            {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
    int i;
    for (i = 0; i < 3; ++i) out[i] = s->position[i] + m[i][0] * r[0] + m[i][1] * r[1] + m[i][2] * r[2];
}

static double distance(const double a[3], const double b[3]) {
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

/* Steps `frames` times; each frame reads the wire's nodes (as a renderer
   does) and checks node 0 against the boom tip, the boom point at `tip`
   from its centre of mass in the boom frame. Returns the largest distance. */
static double follow_the_tip(pivot_world* world, uint32_t wire, uint32_t boom, const double tip[3], uint32_t frames) {
    double nodes[3 * 64], velocities[3 * 64], tip_now[3], worst = 0.0, d = 0.0;
    pivot_body_state boom_state;
    const uint32_t count = pivot_world_cable_node_count(world, wire);
    uint32_t f;
    EXPECT(count > 0 && count <= 64);
    for (f = 0; f < frames; ++f) {
        CALL(pivot_world_step(world, 1));
        CALL(pivot_world_get_cable_nodes(world, wire, nodes, velocities, 64));
        EXPECT(all_finite(nodes, 3 * count));
        EXPECT(all_finite(velocities, 3 * count));
        CALL(pivot_world_get_body(world, boom, &boom_state));
        body_point(&boom_state, tip, tip_now);
        d = distance(nodes, tip_now);
        if (d > worst) worst = d;
    }
    return worst;
}

/* The crane of scenes/cable_crane.json, built in code: a boom luffing up
   on a motor, a 16-element steel wire from its tip to a hook. */
static void cable_from_code(pivot_engine* engine) {
    pivot_world* world = NULL;
    pivot_world_settings settings;
    pivot_material_desc steel;
    pivot_body_desc boom, hook;
    pivot_joint_desc luff;
    pivot_cable_desc wire, bad;
    pivot_cable_attachment ends[2];
    pivot_body_state boom_state;
    uint32_t boom_index = 0, hook_index = 0, luff_index = 0, wire_index = 99, found = 99, joints = 0, i = 0;
    const double tip[3] = {4.0, 0.0, -0.15};
    double nodes[3 * 17], before[3 * 17], angle = 0.0, rate = 0.0;
    const char* name = NULL;

    /* Layout facts the versioning policy relies on. */
    EXPECT(offsetof(pivot_cable_desc, struct_size) == 0);
    EXPECT(sizeof(pivot_cable_attachment) == sizeof(int64_t) + 2 * sizeof(const char*));
    EXPECT(sizeof(pivot_contact_cables) == 2 * sizeof(int32_t));

    pivot_world_settings_init(&settings);
    settings.timestep = 0.01;
    CALL(pivot_world_create(engine, &settings, &world));
    pivot_material_desc_init(&steel);
    steel.name = "steel";
    steel.friction_params = "{\"mu\": 0.4}";
    CALL(pivot_world_add_material(world, &steel));

    pivot_body_desc_init(&boom);
    boom.name = "boom";
    boom.mass = 400.0;
    boom.inertia[0] = 6.0;
    boom.inertia[4] = boom.inertia[8] = 2136.0;
    boom.position[0] = 4.0;
    boom.position[2] = 2.0;
    CALL(pivot_world_add_body(world, &boom, &boom_index));
    pivot_body_desc_init(&hook);
    hook.name = "hook";
    hook.mass = 50.0;
    hook.inertia[0] = hook.inertia[4] = hook.inertia[8] = 0.2;
    hook.position[0] = 8.0;
    hook.position[2] = 0.9;
    CALL(pivot_world_add_body(world, &hook, &hook_index));
    pivot_joint_desc_init(&luff);
    luff.name = "luff";
    luff.type = "revolute";
    luff.body2 = "boom";
    luff.anchor[2] = 2.0;
    luff.axis[0] = 0.0;
    luff.axis[1] = -1.0;
    luff.has_motor = 1;
    luff.motor_velocity = 0.08;
    luff.motor_max_force = 200000.0;
    CALL(pivot_world_add_joint(world, &luff, &luff_index));

    memset(ends, 0, sizeof ends); /* all zero: node 0 on the world, spherical */
    ends[0].body = "boom";
    ends[1].node = -1; /* the last node */
    ends[1].body = "hook";
    ends[1].type = "spherical";
    pivot_cable_desc_init(&wire);
    EXPECT(wire.elements == 1 && wire.gauss_points == 0 && wire.geometric_stiffness < 0.0);
    EXPECT(strcmp(wire.type, "pivot.element.ancf_cable") == 0 && strcmp(wire.material, "default") == 0);
    wire.name = "wire";
    wire.start[0] = 8.0;
    wire.start[2] = 1.85;
    wire.end[0] = 8.0;
    wire.end[2] = 1.0;
    wire.elements = 16;
    wire.radius = 0.01;
    wire.density = 7800.0;
    wire.youngs_modulus = 1e11;
    wire.material = "steel";
    wire.attachments = ends;
    wire.attachment_count = 2;

    /* Bad fields: refused, named, the world unchanged. */
    joints = pivot_world_joint_count(world);
    bad = wire;
    bad.radius = -0.01;
    EXPECT(pivot_world_add_cable(world, &bad, &wire_index) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "wire") && contains(pivot_last_error(), "radius"));
    EXPECT(wire_index == 99); /* not written on failure */
    bad = wire;
    bad.elements = 0;
    EXPECT(pivot_world_add_cable(world, &bad, NULL) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "elements"));
    bad = wire;
    bad.youngs_modulus = 0.0;
    EXPECT(pivot_world_add_cable(world, &bad, NULL) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "youngs_modulus"));
    bad = wire;
    bad.end[2] = 1.85; /* = start */
    EXPECT(pivot_world_add_cable(world, &bad, NULL) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "end"));
    bad = wire;
    bad.material = "rubber";
    EXPECT(pivot_world_add_cable(world, &bad, NULL) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "material") && contains(pivot_last_error(), "rubber"));
    bad = wire;
    bad.name = "hook"; /* a body's name */
    EXPECT(pivot_world_add_cable(world, &bad, NULL) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "name"));
    bad = wire;
    bad.attachments = NULL;
    EXPECT(pivot_world_add_cable(world, &bad, NULL) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "attachments is NULL"));
    bad = wire;
    bad.struct_size = 8;
    EXPECT(pivot_world_add_cable(world, &bad, NULL) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "struct_size"));
    EXPECT(pivot_world_add_cable(world, NULL, NULL) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "cable is NULL"));
    ends[1].body = "nobody";
    EXPECT(pivot_world_add_cable(world, &wire, NULL) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "attach[1]") && contains(pivot_last_error(), "nobody"));
    ends[1].body = "hook";
    ends[1].node = 17; /* nodes 0 .. 16 */
    EXPECT(pivot_world_add_cable(world, &wire, NULL) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "attach[1]") && contains(pivot_last_error(), "node"));
    ends[1].node = -1;
    ends[1].type = "welded";
    EXPECT(pivot_world_add_cable(world, &wire, NULL) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "attach[1]") && contains(pivot_last_error(), "welded"));
    ends[1].type = NULL; /* spherical */
    EXPECT(pivot_world_cable_count(world) == 0);
    EXPECT(pivot_world_joint_count(world) == joints);

    CALL(pivot_world_add_cable(world, &wire, &wire_index));
    EXPECT(wire_index == 0);
    EXPECT(pivot_world_cable_count(world) == 1);
    EXPECT(pivot_world_joint_count(world) == joints + 2); /* wire/attach0, wire/attach1 */
    CALL(pivot_world_find_joint(world, "wire/attach1", &i));
    CALL(pivot_world_find_cable(world, "wire", &found));
    EXPECT(found == wire_index);
    name = pivot_world_cable_name(world, wire_index);
    EXPECT(name != NULL && strcmp(name, "wire") == 0);
    EXPECT(pivot_world_cable_node_count(world, wire_index) == 16 + 1);

    /* At rest where it was put: node k on the straight line. */
    CALL(pivot_world_get_cable_nodes(world, wire_index, nodes, NULL, 17));
    for (i = 0; i < 17; ++i) {
        EXPECT(fabs(nodes[3 * i] - 8.0) < 1e-12 && fabs(nodes[3 * i + 1]) < 1e-12);
        EXPECT(fabs(nodes[3 * i + 2] - (1.85 - 0.85 * i / 16.0)) < 1e-12);
    }

    /* 2 s of luffing at 100 Hz: node 0 stays on the boom tip. */
    EXPECT(follow_the_tip(world, wire_index, boom_index, tip, 200) < 1e-3);
    CALL(pivot_world_joint_coordinate(world, luff_index, &angle, &rate));
    EXPECT(angle > 0.1); /* the boom did move (0.08 rad/s for 2 s) */
    CALL(pivot_world_get_body(world, boom_index, &boom_state));
    CALL(pivot_world_get_cable_nodes(world, wire_index, nodes, NULL, 17));
    /* The wire hangs below the raised tip: the last node under node 0. */
    EXPECT(nodes[3 * 16 + 2] < nodes[2] - 0.5);

    /* Reading errors: nothing written. */
    memcpy(before, nodes, sizeof nodes);
    EXPECT(pivot_world_get_cable_nodes(world, wire_index, nodes, NULL, 16) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "wire") && contains(pivot_last_error(), "capacity"));
    EXPECT(memcmp(before, nodes, sizeof nodes) == 0);
    EXPECT(pivot_world_get_cable_nodes(world, wire_index, NULL, nodes, 17) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "positions is NULL"));
    EXPECT(pivot_world_get_cable_nodes(world, 5, nodes, NULL, 17) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "out of range"));
    EXPECT(memcmp(before, nodes, sizeof nodes) == 0);
    found = 99;
    EXPECT(pivot_world_find_cable(world, "rope", &found) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "rope"));
    EXPECT(found == 99);
    EXPECT(pivot_world_cable_name(world, 5) == NULL);
    EXPECT(pivot_world_cable_node_count(world, 5) == 0);
    EXPECT(pivot_world_cable_count(NULL) == 0);

    /* A name stays valid while the world lives, cables added after it too. */
    wire.name = "w2";
    wire.start[0] = wire.end[0] = 20.0;
    wire.attachments = NULL;
    wire.attachment_count = 0;
    CALL(pivot_world_add_cable(world, &wire, NULL));
    wire.name = "w3";
    CALL(pivot_world_add_cable(world, &wire, NULL));
    EXPECT(strcmp(name, "wire") == 0);
    EXPECT(pivot_world_cable_count(world) == 3);

    pivot_world_destroy(world);
}

/* scenes/cable_crane.json: its wire from the file, read per frame; contacts
   say which side is a cable. */
static void cable_from_scene(pivot_engine* engine) {
    pivot_world* world = NULL;
    uint32_t wire = 0, boom = 0, count = 0, cable_count = 0, i = 0;
    const double tip[3] = {4.0, 0.0, -0.15}; /* wire start (8, 0, 1.85) from the boom's (4, 0, 2) */
    pivot_contact contacts[64];
    pivot_contact_cables cables[64];

    CALL(pivot_world_create_from_file(engine, PIVOT_SCENE_DIR "/cable_crane.json", &world));
    EXPECT(pivot_world_cable_count(world) == 1);
    CALL(pivot_world_find_cable(world, "wire", &wire));
    CALL(pivot_world_find_body(world, "boom", &boom));
    EXPECT(pivot_world_cable_node_count(world, wire) == 16 + 1);
    EXPECT(follow_the_tip(world, wire, boom, tip, 1) < 1e-3);

    /* Right after the first step, the load still on the ground. */
    CALL(pivot_world_contacts(world, contacts, 64, &count));
    CALL(pivot_world_contact_cables(world, cables, 64, &cable_count));
    EXPECT(count > 0);
    EXPECT(cable_count == count);
    for (i = 0; i < count && i < 64; ++i) {
        EXPECT(cables[i].cable1 == -1 || cables[i].cable1 == (int32_t)wire);
        EXPECT(cables[i].cable2 == -1 || cables[i].cable2 == (int32_t)wire);
        if (cables[i].cable1 >= 0) EXPECT(contacts[i].body1 == -1);
        if (cables[i].cable2 >= 0) EXPECT(contacts[i].body2 == -1);
    }
    EXPECT(pivot_world_contact_cables(world, NULL, 1, &cable_count) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "cables is NULL"));
    EXPECT(pivot_world_contact_cables(world, NULL, 0, &cable_count) == PIVOT_OK); /* asks for the count */
    EXPECT(cable_count == count);

    EXPECT(follow_the_tip(world, wire, boom, tip, 150) < 1e-3);

    pivot_world_destroy(world);
}

/* A chain of 50 links released horizontally at 60 Hz, as in issue 12:
   with the default stabilization it stays bounded and no step reports
   diverging; with stabilization 1 (none: the step before ABI 1.3) it
   explodes, and the statistics say so. Also: a settings struct of the 1.0
   size (without the appended fields) is still accepted. Returns the number
   of steps reported diverging. */
static uint32_t chain_diverging_steps(pivot_engine* engine, uint32_t stabilization, double* max_joint_error) {
    pivot_world* world = NULL;
    pivot_world_settings settings;
    pivot_world_statistics statistics;
    char names[51][16];
    uint32_t i = 0, diverging = 0;
    pivot_world_settings_init(&settings);
    settings.timestep = 1.0 / 60.0;
    settings.stabilization = stabilization;
    CALL(pivot_world_create(engine, &settings, &world));
    for (i = 0; i < 50; ++i) {
        pivot_body_desc link;
        pivot_joint_desc joint;
        char joint_name[16];
        sprintf(names[i], "link%u", (unsigned)i);
        sprintf(joint_name, "joint%u", (unsigned)i);
        pivot_body_desc_init(&link);
        link.name = names[i];
        link.mass = 0.1;
        link.inertia[0] = 6.667e-6;
        link.inertia[4] = link.inertia[8] = 8.667e-5;
        link.position[0] = 0.1 * i + 0.05;
        CALL(pivot_world_add_body(world, &link, NULL));
        pivot_joint_desc_init(&joint);
        joint.name = joint_name;
        joint.type = "spherical";
        joint.body1 = i == 0 ? "world" : names[i - 1];
        joint.body2 = names[i];
        joint.anchor[0] = 0.1 * i;
        CALL(pivot_world_add_joint(world, &joint, NULL));
    }
    *max_joint_error = 0.0;
    for (i = 0; i < 180; ++i) {
        CALL(pivot_world_step(world, 1));
        pivot_world_statistics_init(&statistics);
        CALL(pivot_world_statistics_get(world, &statistics));
        EXPECT(isfinite(statistics.energy_excess));
        if (statistics.diverging) ++diverging;
        if (statistics.max_joint_error > *max_joint_error) *max_joint_error = statistics.max_joint_error;
    }
    pivot_world_destroy(world);
    return diverging;
}

static void divergence_is_reported(pivot_engine* engine) {
    double error_default = 0.0, error_none = 0.0;
    pivot_world* world = NULL;
    pivot_world_settings old_size;
    pivot_world_statistics old_statistics;
    const uint32_t calm = chain_diverging_steps(engine, 0, &error_default);
    const uint32_t exploding = chain_diverging_steps(engine, 1, &error_none);
    printf("chain of 50 links, 3 s at 60 Hz: default %u steps diverging (joint error %.3g m), "
           "stabilization off %u steps diverging (joint error %.3g m)\n",
           (unsigned)calm, error_default, (unsigned)exploding, error_none);
    EXPECT(calm == 0);
    EXPECT(error_default < 0.1);
    EXPECT(exploding > 0);
    EXPECT(error_none > 0.1);
    /* The 1.0 sizes: the appended fields read as absent (defaults). */
    pivot_world_settings_init(&old_size);
    old_size.struct_size = (uint32_t)offsetof(pivot_world_settings, stabilization);
    CALL(pivot_world_create(engine, &old_size, &world));
    CALL(pivot_world_step(world, 1));
    pivot_world_statistics_init(&old_statistics);
    old_statistics.struct_size = (uint32_t)offsetof(pivot_world_statistics, energy_excess);
    old_statistics.diverging = 7u; /* beyond the caller's size: must stay untouched */
    CALL(pivot_world_statistics_get(world, &old_statistics));
    EXPECT(old_statistics.diverging == 7u);
    pivot_world_destroy(world);
    /* A stabilization value the library does not know is refused. */
    old_size.struct_size = sizeof(old_size);
    old_size.stabilization = 2;
    EXPECT(pivot_world_create(engine, &old_size, &world) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "stabilization"));
}

/* C API 0.3: each stage of the last step timed and named, summing to the
   step's time; a 0.2-size statistics struct is written only up to its size;
   pivot_world_settings_init leaves the solver to the engine (NULL). */
static void stage_times_are_reported(pivot_engine* engine) {
    pivot_world* world = NULL;
    pivot_world_settings settings;
    pivot_world_statistics statistics, old_size;
    pivot_body_desc link;
    pivot_joint_desc joint;
    double sum = 0.0;
    uint32_t k = 0;
    pivot_world_settings_init(&settings);
    EXPECT(settings.solver == NULL);
    CALL(pivot_world_create(engine, &settings, &world));
    pivot_body_desc_init(&link);
    link.name = "link";
    link.position[0] = 0.5;
    CALL(pivot_world_add_body(world, &link, NULL));
    pivot_joint_desc_init(&joint);
    joint.name = "pin";
    joint.type = "spherical";
    joint.body1 = "world";
    joint.body2 = "link";
    CALL(pivot_world_add_joint(world, &joint, NULL));
    CALL(pivot_world_step(world, 3));
    pivot_world_statistics_init(&statistics);
    CALL(pivot_world_statistics_get(world, &statistics));
    EXPECT(statistics.stage_count >= 14 && statistics.stage_count <= PIVOT_STEP_STAGE_CAPACITY);
    for (k = 0; k < statistics.stage_count; ++k) {
        EXPECT(pivot_step_stage_name(k) != NULL);
        EXPECT(statistics.stage_seconds[k] >= 0.0);
        sum += statistics.stage_seconds[k];
    }
    EXPECT(pivot_step_stage_name(statistics.stage_count) == NULL);
    EXPECT(strcmp(pivot_step_stage_name(0), "dynamics") == 0);
    EXPECT(fabs(sum - statistics.step_seconds) <= 1e-12 * (1.0 + statistics.step_seconds));
    EXPECT(statistics.step_seconds > 0.0);
    EXPECT(statistics.substeps == 1u); /* no plugin discarded the step (0.8) */
    pivot_world_statistics_init(&old_size);
    old_size.struct_size = (uint32_t)offsetof(pivot_world_statistics, stage_count);
    old_size.stage_count = 99u; /* beyond the caller's size: must stay untouched */
    CALL(pivot_world_statistics_get(world, &old_size));
    EXPECT(old_size.stage_count == 99u);
    pivot_world_destroy(world);
}

/* The ground and `count` cubes of edge `side` (1 kg) stacked on it,
   "box0", "box1", ... from the bottom. */
static void add_ground_and_stack(pivot_world* world, int count, double side) {
    pivot_shape_desc ground, cube;
    pivot_body_desc box;
    char name[16];
    int k = 0;
    pivot_shape_desc_init(&ground);
    ground.type = "plane";
    CALL(pivot_world_add_static_shape(world, &ground));
    pivot_shape_desc_init(&cube);
    cube.type = "box";
    cube.size[0] = cube.size[1] = cube.size[2] = side;
    for (k = 0; k < count; ++k) {
        pivot_body_desc_init(&box);
        snprintf(name, sizeof name, "box%d", k);
        box.name = name;
        box.position[2] = side * (0.5 + k);
        box.shapes = &cube;
        box.shape_count = 1;
        CALL(pivot_world_add_body(world, &box, NULL));
    }
}

/* C API 0.4: the step budget (a settings tail field) reaches the world: a
   budget spent before the solve (1 ns) makes the box's contact island use
   its best answer, counted in budget_limited and not as a failure; a
   negative budget is refused, naming the field. */
static void step_budget_is_honoured(pivot_engine* engine) {
    pivot_world* world = NULL;
    pivot_world_settings settings;
    pivot_world_statistics statistics;
    pivot_world_settings_init(&settings);
    settings.step_budget = -1.0;
    EXPECT(pivot_world_create(engine, &settings, &world) == PIVOT_ERROR && world == NULL);
    EXPECT(strstr(pivot_last_error(), "step_budget") != NULL);
    settings.step_budget = 1e-9;
    settings.timestep = 1.0 / 60.0;
    CALL(pivot_world_create(engine, &settings, &world));
    add_ground_and_stack(world, 1, 0.2);
    CALL(pivot_world_step(world, 2));
    pivot_world_statistics_init(&statistics);
    CALL(pivot_world_statistics_get(world, &statistics));
    EXPECT(statistics.budget_limited == 1u);
    EXPECT(statistics.solver_failures == 0u);
    pivot_world_destroy(world);
}

/* C API 0.6: hostile input. The step guard step_time_limit (0: the
   default 1 s; < 0: off; NaN refused) cuts the solves like a budget;
   limits where physics has none are refused with the field named; a NaN
   distance-joint length is refused (it used to mean the initial distance);
   JSON nested deeper than 64 levels is refused before it is parsed. */
static void hostile_calls_are_refused(pivot_engine* engine) {
    pivot_world* world = NULL;
    pivot_world_settings settings;
    pivot_world_statistics statistics;
    pivot_joint_desc joint;
    pivot_body_desc body;
    char* deep;
    const size_t depth = 100000;
    pivot_world_settings_init(&settings);
    settings.step_time_limit = NAN;
    EXPECT(pivot_world_create(engine, &settings, &world) == PIVOT_ERROR && world == NULL);
    EXPECT(strstr(pivot_last_error(), "step_time_limit") != NULL);
    settings.step_time_limit = 0.0;
    settings.timestep = 1e9;
    EXPECT(pivot_world_create(engine, &settings, &world) == PIVOT_ERROR && world == NULL);
    EXPECT(strstr(pivot_last_error(), "settings.timestep: must be a positive number of seconds up to 1 s") != NULL);
    settings.timestep = 1.0 / 60.0;
    settings.gravity[2] = -1.2e29;
    EXPECT(pivot_world_create(engine, &settings, &world) == PIVOT_ERROR && world == NULL);
    EXPECT(strstr(pivot_last_error(), "settings.gravity") != NULL);
    settings.gravity[2] = -9.81;
    settings.step_time_limit = 1e-9;
    CALL(pivot_world_create(engine, &settings, &world));
    add_ground_and_stack(world, 1, 0.2);
    CALL(pivot_world_step(world, 2));
    pivot_world_statistics_init(&statistics);
    CALL(pivot_world_statistics_get(world, &statistics));
    EXPECT(statistics.budget_limited == 1u);
    EXPECT(statistics.solver_failures == 0u);

    pivot_body_desc_init(&body);
    body.name = "bob";
    body.position[0] = 1.0;
    CALL(pivot_world_add_body(world, &body, NULL));
    pivot_joint_desc_init(&joint);
    joint.name = "rod";
    joint.type = "distance";
    joint.body2 = "bob";
    joint.length = NAN;
    EXPECT(pivot_world_add_joint(world, &joint, NULL) == PIVOT_ERROR);
    EXPECT(strstr(pivot_last_error(), "joint.length: NaN") != NULL);
    joint.length = -1.0;
    CALL(pivot_world_add_joint(world, &joint, NULL));
    pivot_world_destroy(world);

    /* A scene, then solver options, nested 100 000 levels deep. */
    {
        const char* heads[2] = {"{\"format\": \"pivot-scene/1\", \"x\": ", "{\"a\": "};
        int h;
        for (h = 0; h < 2; ++h) {
            const size_t n = strlen(heads[h]);
            deep = (char*)malloc(n + 2 * depth + 2);
            EXPECT(deep != NULL);
            if (deep == NULL) return;
            memcpy(deep, heads[h], n);
            memset(deep + n, '[', depth);
            memset(deep + n + depth, ']', depth);
            deep[n + 2 * depth] = '}';
            deep[n + 2 * depth + 1] = '\0';
            if (h == 0) {
                EXPECT(pivot_world_create_from_json(engine, deep, NULL, &world) == PIVOT_ERROR && world == NULL);
            } else {
                pivot_world_settings_init(&settings);
                settings.solver = "pgs";
                settings.solver_options = deep;
                EXPECT(pivot_world_create(engine, &settings, &world) == PIVOT_ERROR && world == NULL);
            }
            EXPECT(strstr(pivot_last_error(), "JSON nested deeper than 64 levels") != NULL);
            free(deep);
        }
    }
}

/* C API 0.5: large islands. Four boxes stacked (48 contact rows in one
   island): with large_island_rows = 40 and 2 sweeps the island is a large
   one, cut short by its sweeps (budget_limited, not a failure); with
   UINT32_MAX, or with a solver named, it is not. */
static void large_islands_are_chosen(pivot_engine* engine) {
    const uint32_t rows[3] = {40u, UINT32_MAX, 40u};
    const char* solver[3] = {NULL, NULL, "dantzig"};
    int c = 0;
    for (c = 0; c < 3; ++c) {
        pivot_world* world = NULL;
        pivot_world_settings settings;
        pivot_world_statistics statistics;
        pivot_world_settings_init(&settings);
        settings.timestep = 1.0 / 60.0;
        settings.large_island_rows = rows[c];
        settings.large_island_sweeps = 2;
        settings.solver = solver[c];
        CALL(pivot_world_create(engine, &settings, &world));
        add_ground_and_stack(world, 4, 1.0);
        CALL(pivot_world_step(world, 2));
        pivot_world_statistics_init(&statistics);
        CALL(pivot_world_statistics_get(world, &statistics));
        EXPECT(statistics.rows == 48u);
        EXPECT(statistics.large_islands == (c == 0 ? 1u : 0u));
        if (c == 0) {
            EXPECT(statistics.solver_iterations == 2u);
            EXPECT(statistics.budget_limited == 1u);
            EXPECT(statistics.solver_failures == 0u);
        }
        pivot_world_destroy(world);
    }
}

/* Body damping from C (0.8): a free 2 kg body given 3 m/s, damped 4 N s/m,
   no gravity: each 1/60 s step multiplies its speed by exactly
   1 / (1 + h c / m) (implicit Euler; rounding only, 1e-12); damping set to 0
   leaves it unchanged; a negative one is refused naming the field; a body
   desc of the 0.7 size (no damping fields) adds an undamped body. */
static void body_damping_is_applied(pivot_engine* engine) {
    pivot_world* world = NULL;
    pivot_world_settings settings;
    pivot_body_desc body;
    pivot_body_state state;
    uint32_t index = 0;
    const double h = 1.0 / 60.0;
    pivot_world_settings_init(&settings);
    settings.timestep = h;
    settings.gravity[2] = 0.0;
    CALL(pivot_world_create(engine, &settings, &world));
    pivot_body_desc_init(&body);
    body.name = "sled";
    body.mass = 2.0;
    body.linear_velocity[0] = 3.0;
    body.linear_damping = 4.0;
    CALL(pivot_world_add_body(world, &body, &index));
    CALL(pivot_world_step(world, 1));
    CALL(pivot_world_get_body(world, index, &state));
    EXPECT(fabs(state.linear_velocity[0] - 3.0 / (1.0 + h * 4.0 / 2.0)) <= 1e-12);
    CALL(pivot_world_set_body_damping(world, index, 0.0, 0.0));
    {
        const double before = state.linear_velocity[0];
        CALL(pivot_world_step(world, 1));
        CALL(pivot_world_get_body(world, index, &state));
        EXPECT(state.linear_velocity[0] == before);
    }
    EXPECT(pivot_world_set_body_damping(world, index, -1.0, 0.0) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "body 'sled': set_damping: linear_damping"));
    pivot_body_desc_init(&body);
    body.struct_size = (uint32_t)offsetof(pivot_body_desc, linear_damping);
    body.name = "old";
    body.linear_velocity[0] = 1.0;
    CALL(pivot_world_add_body(world, &body, &index));
    CALL(pivot_world_step(world, 1));
    CALL(pivot_world_get_body(world, index, &state));
    EXPECT(state.linear_velocity[0] == 1.0);
    pivot_world_destroy(world);
}

/* A body's own friction values from C (0.12): a 2 kg crate sliding at
   3 m/s on ground whose default material has mu 0.5, the crate's own mu
   0.1: each 1/60 s step takes mu g h off its speed (the box model is exact
   for a block sliding on a plane: 1e-9 is the solver's acceptance); set to
   0.4 between steps, the next step takes 0.4 g h; a name no friction model
   has is refused naming the body and the field. */
static void body_friction_is_applied(pivot_engine* engine) {
    pivot_world* world = NULL;
    pivot_world_settings settings;
    pivot_shape_desc ground, cube;
    pivot_body_desc body;
    pivot_body_state state;
    uint32_t index = 0;
    int k = 0;
    const double h = 1.0 / 60.0, g = 9.81;
    double before = 0.0;
    pivot_world_settings_init(&settings);
    settings.timestep = h;
    CALL(pivot_world_create(engine, &settings, &world));
    pivot_shape_desc_init(&ground);
    ground.type = "plane";
    CALL(pivot_world_add_static_shape(world, &ground));
    pivot_shape_desc_init(&cube);
    cube.type = "box";
    cube.size[0] = cube.size[1] = cube.size[2] = 0.2;
    pivot_body_desc_init(&body);
    body.name = "crate";
    body.mass = 2.0;
    body.inertia[0] = body.inertia[4] = body.inertia[8] = 2.0 * 0.08 / 12.0;
    body.position[2] = 0.1;
    body.linear_velocity[0] = 3.0;
    body.shapes = &cube;
    body.shape_count = 1;
    body.friction_params = "{\"mu\": 0.1}";
    CALL(pivot_world_add_body(world, &body, &index));
    CALL(pivot_world_step(world, 5));
    for (k = 0; k < 2; ++k) {
        const double mu = k == 0 ? 0.1 : 0.4;
        if (k == 1) CALL(pivot_world_set_body_friction(world, index, "{\"mu\": 0.4}"));
        CALL(pivot_world_get_body(world, index, &state));
        before = state.linear_velocity[0];
        CALL(pivot_world_step(world, 1));
        CALL(pivot_world_get_body(world, index, &state));
        EXPECT(fabs(before - state.linear_velocity[0] - mu * g * h) <= 1e-9);
    }
    EXPECT(pivot_world_set_body_friction(world, index, "{\"grip\": 1}") == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "body 'crate': friction.grip"));
    EXPECT(pivot_world_set_body_friction(world, index, "{\"mu\": ") == PIVOT_ERROR);
    CALL(pivot_world_set_body_friction(world, index, NULL)); /* none: the material's 0.5 */
    CALL(pivot_world_get_body(world, index, &state));
    before = state.linear_velocity[0];
    CALL(pivot_world_step(world, 1));
    CALL(pivot_world_get_body(world, index, &state));
    EXPECT(fabs(before - state.linear_velocity[0] - 0.5 * g * h) <= 1e-9);
    pivot_world_destroy(world);
}

/* Drives from C (0.9). A lever (2 kg at 0.5 m from a horizontal hinge,
   I_hinge = 0.51 kg m^2, h = 1 ms, gravity -z; theta > 0 = falling):
   - a velocity drive too weak to hold it (bound 4.905 N m = m g r / 2)
     reports exactly -4.905 N m on every step (the bound, 1e-6 relative);
   - a strong one (bound 100 N m) turning it at -1 rad/s reports the
     inverse dynamics of that uniform rotation, -m g r cos(theta) at the
     angle each step starts from (5e-10 N m measured in motor_test.cpp;
     1e-6 N m allowed);
   - a force drive applies its force and a position drive reaches its target;
   - a joint type without a motor refuses the drive calls, and a joint
     desc of the 0.8 size (no drive fields) gets the velocity motor. */
static void add_lever(pivot_world* world, const pivot_joint_desc* hinge) {
    pivot_body_desc lever;
    pivot_body_desc_init(&lever);
    lever.name = "lever";
    lever.mass = 2.0;
    lever.inertia[0] = lever.inertia[4] = lever.inertia[8] = 0.01;
    lever.position[0] = 0.5;
    CALL(pivot_world_add_body(world, &lever, NULL));
    CALL(pivot_world_add_joint(world, hinge, NULL));
}

static void drives_are_readable(pivot_engine* engine) {
    const double load = 2.0 * 9.81 * 0.5;
    pivot_world_settings settings;
    pivot_joint_desc hinge;
    pivot_world* world = NULL;
    double effort = 0.0, angle = 0.0, rate = 0.0, worst = 0.0;
    int n;
    pivot_world_settings_init(&settings);
    settings.timestep = 1e-3;
    pivot_joint_desc_init(&hinge);
    hinge.name = "hinge";
    hinge.type = "revolute";
    hinge.body2 = "lever";
    hinge.axis[0] = 0.0;
    hinge.axis[1] = 1.0;
    hinge.has_motor = 1;
    hinge.motor_velocity = -1.0;
    hinge.motor_max_force = 0.5 * load;

    CALL(pivot_world_create(engine, &settings, &world));
    add_lever(world, &hinge);
    for (n = 0; n < 200; ++n) {
        CALL(pivot_world_step(world, 1));
        CALL(pivot_world_joint_motor_effort(world, 0, &effort));
        if (fabs(effort + 0.5 * load) > worst) worst = fabs(effort + 0.5 * load);
    }
    EXPECT(worst <= 1e-6 * 0.5 * load);
    pivot_world_destroy(world);

    hinge.motor_max_force = 100.0;
    CALL(pivot_world_create(engine, &settings, &world));
    add_lever(world, &hinge);
    CALL(pivot_world_step(world, 20)); /* at -1 rad/s after 5.7 ms at the bound */
    worst = 0.0;
    for (n = 0; n < 500; ++n) {
        CALL(pivot_world_joint_coordinate(world, 0, &angle, &rate));
        CALL(pivot_world_step(world, 1));
        CALL(pivot_world_joint_motor_effort(world, 0, &effort));
        if (fabs(effort + load * cos(angle)) > worst) worst = fabs(effort + load * cos(angle));
    }
    EXPECT(worst <= 1e-6);
    /* Position and force targets of a velocity-mode motor: the calls are
       accepted (the first-party joints have every mode) and take effect
       only in their mode; a spherical joint has no motor. */
    CALL(pivot_world_set_motor_position(world, 0, 0.3));
    CALL(pivot_world_set_motor_force(world, 0, 1.0));
    EXPECT(pivot_world_set_motor_force(world, 0, NAN) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "joint 'hinge': set_motor_force: must be finite"));
    EXPECT(pivot_world_joint_motor_effort(world, 0, NULL) == PIVOT_ERROR);
    EXPECT(pivot_world_joint_motor_effort(world, 7, &effort) == PIVOT_ERROR);
    pivot_world_destroy(world);

    /* Force mode: 3 N m on the lever balances m g r cos(theta) nowhere
       (9.81 N m at 0): its effort is the force, whatever the motion. */
    hinge.motor_mode = PIVOT_MOTOR_FORCE;
    hinge.motor_force = 3.0;
    CALL(pivot_world_create(engine, &settings, &world));
    add_lever(world, &hinge);
    CALL(pivot_world_step(world, 50));
    CALL(pivot_world_joint_motor_effort(world, 0, &effort));
    EXPECT(fabs(effort - 3.0) <= 3e-6);
    pivot_world_destroy(world);

    /* Position mode, a stiff PD (k = 2000 N m/rad, d = 60 N m s/rad) holding
       the lever at -0.2 rad: at rest the drive balances the load,
       -k (theta - target) = -m g r cos(theta). */
    hinge.motor_mode = PIVOT_MOTOR_POSITION;
    hinge.motor_velocity = 0.0;
    hinge.motor_position = -0.2;
    hinge.motor_stiffness = 2000.0;
    hinge.motor_damping = 60.0;
    CALL(pivot_world_create(engine, &settings, &world));
    add_lever(world, &hinge);
    CALL(pivot_world_step(world, 5000));
    CALL(pivot_world_joint_coordinate(world, 0, &angle, &rate));
    CALL(pivot_world_joint_motor_effort(world, 0, &effort));
    EXPECT(fabs(effort + load * cos(angle)) <= 1e-6);
    EXPECT(fabs(-2000.0 * (angle + 0.2) - effort) <= 1e-6);
    pivot_world_destroy(world);

    /* A 0.8-size desc: no drive fields, the velocity motor. */
    pivot_joint_desc_init(&hinge);
    hinge.struct_size = (uint32_t)offsetof(pivot_joint_desc, motor_mode);
    hinge.name = "hinge";
    hinge.type = "revolute";
    hinge.body2 = "lever";
    hinge.axis[0] = 0.0;
    hinge.axis[1] = 1.0;
    hinge.has_motor = 1;
    hinge.motor_velocity = -1.0;
    hinge.motor_max_force = 100.0;
    CALL(pivot_world_create(engine, &settings, &world));
    add_lever(world, &hinge);
    CALL(pivot_world_step(world, 20)); /* saturated for 0.51 / (100 - 9.81) = 5.7 ms */
    CALL(pivot_world_joint_coordinate(world, 0, &angle, &rate));
    EXPECT(fabs(rate + 1.0) <= 1e-9);
    pivot_joint_desc_init(&hinge);
    hinge.name = "ball";
    hinge.type = "spherical";
    hinge.body2 = "lever";
    CALL(pivot_world_add_joint(world, &hinge, NULL));
    EXPECT(pivot_world_set_motor_position(world, 1, 0.1) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "joint 'ball': set_motor_position: this joint type's motor has no position "
                                        "mode"));
    CALL(pivot_world_joint_motor_effort(world, 1, &effort));
    EXPECT(effort == 0.0);
    pivot_world_destroy(world);
}

/* Joints on and off from C (0.9): two 1 kg balls hanging in a chain at
   60 Hz; the lower link (break_force 15 N, its tension m g = 9.81 N)
   breaks when a 10 N downward force is applied to the lower ball (19.8 N),
   is reported in the statistics and by pivot_world_joint_enabled, and the
   lower ball then falls freely: its speed grows by exactly h (g + 10 N /
   1 kg) per step. A grab built disabled (pivot_joint_desc.disabled) holds
   nothing until enabled at the current pose, then holds the ball where it
   is. */
static void joints_change_while_running(pivot_engine* engine) {
    const double h = 1.0 / 60.0;
    pivot_world_settings settings;
    pivot_body_desc ball;
    pivot_joint_desc link;
    pivot_world_statistics statistics;
    pivot_body_state before, after;
    pivot_world* world = NULL;
    uint32_t upper = 0, lower = 0, top = 0, weak = 0, grab = 0, enabled = 9, broken = 9;
    const double down[3] = {0.0, 0.0, -10.0}, none[3] = {0.0, 0.0, 0.0};
    pivot_world_settings_init(&settings);
    settings.timestep = h;
    CALL(pivot_world_create(engine, &settings, &world));
    pivot_body_desc_init(&ball);
    ball.name = "upper";
    ball.position[2] = -0.5;
    CALL(pivot_world_add_body(world, &ball, &upper));
    ball.name = "lower";
    ball.position[2] = -1.0;
    CALL(pivot_world_add_body(world, &ball, &lower));
    pivot_joint_desc_init(&link);
    link.name = "top";
    link.type = "spherical";
    link.body2 = "upper";
    CALL(pivot_world_add_joint(world, &link, &top));
    link.name = "weak";
    link.body1 = "upper";
    link.body2 = "lower";
    link.anchor[2] = -0.5;
    link.break_force = 15.0;
    CALL(pivot_world_add_joint(world, &link, &weak));
    link.name = "grab";
    link.body1 = "world";
    link.anchor[2] = -1.0;
    link.break_force = 0.0;
    link.disabled = 1;
    CALL(pivot_world_add_joint(world, &link, &grab));

    CALL(pivot_world_step(world, 30));
    pivot_world_statistics_init(&statistics);
    CALL(pivot_world_statistics_get(world, &statistics));
    EXPECT(statistics.joints_broken == 0);
    CALL(pivot_world_set_body_force(world, lower, down, none));
    CALL(pivot_world_step(world, 1));
    CALL(pivot_world_statistics_get(world, &statistics));
    EXPECT(statistics.joints_broken == 1);
    CALL(pivot_world_joint_enabled(world, weak, &enabled, &broken));
    EXPECT(enabled == 0 && broken == 1);
    CALL(pivot_world_joint_enabled(world, grab, &enabled, NULL));
    EXPECT(enabled == 0);
    CALL(pivot_world_get_body(world, lower, &before));
    CALL(pivot_world_step(world, 1));
    CALL(pivot_world_get_body(world, lower, &after));
    EXPECT(fabs((after.linear_velocity[2] - before.linear_velocity[2]) + h * (9.81 + 10.0)) <= 1e-9);
    /* Caught in flight where it is: from the next step the ball stays. */
    CALL(pivot_world_set_body_force(world, lower, none, none));
    CALL(pivot_world_set_joint_enabled(world, grab, 1, 1));
    CALL(pivot_world_step(world, 10));
    CALL(pivot_world_get_body(world, lower, &before));
    CALL(pivot_world_step(world, 10));
    CALL(pivot_world_get_body(world, lower, &after));
    EXPECT(fabs(after.position[2] - before.position[2]) <= 1e-9);
    EXPECT(after.position[2] < -1.0); /* held below where it was built: it had fallen */
    EXPECT(pivot_world_set_joint_enabled(world, 99, 1, 0) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "out of range"));
    pivot_world_destroy(world);
}

/* The winch from C (0.9), issue 17's acceptance case: a 500 kg load on a
   10 m, 16-element steel wire (r = 8 mm) from a drum at z = 12 m, 60 Hz.
   Reeling in at 0.5 m/s for 10 s lifts it 5 m (within 2%) at 0.5 m/s
   (within 2% after the first 0.5 s), the tension at the load equals m g
   (within 2%: a = 0 in steady reeling), the wire stretches less than 0.1%;
   paying out for 10 s lowers it back (within 1 cm). Then the scene file
   scenes/winch_hoist.json does the same lift. */
static double wire_length(pivot_world* world, uint32_t cable) {
    double nodes[3 * 17], length = 0.0;
    uint32_t n;
    CALL(pivot_world_get_cable_nodes(world, cable, nodes, NULL, 17));
    for (n = 0; n < 16; ++n) {
        const double dx = nodes[3 * n + 3] - nodes[3 * n], dy = nodes[3 * n + 4] - nodes[3 * n + 1],
                     dz = nodes[3 * n + 5] - nodes[3 * n + 2];
        length += sqrt(dx * dx + dy * dy + dz * dz);
    }
    return length;
}

static void winch_lifts_and_lowers(pivot_engine* engine) {
    const double h = 1.0 / 60.0, m = 500.0, g = 9.81;
    pivot_world_settings settings;
    pivot_body_desc load;
    pivot_cable_desc wire;
    pivot_cable_attachment pins[2];
    pivot_joint_reaction reaction;
    pivot_body_state state;
    pivot_world* world = NULL;
    uint32_t cable = 0, load_index = 0, hook = 0;
    double z0 = 0.0, length = 0.0, worst_speed = 0.0, worst_tension = 0.0, worst_stretch = 0.0;
    int n;
    pivot_world_settings_init(&settings);
    settings.timestep = h;
    CALL(pivot_world_create(engine, &settings, &world));
    pivot_body_desc_init(&load);
    load.name = "load";
    load.mass = m;
    load.inertia[0] = load.inertia[4] = load.inertia[8] = m / 6.0;
    load.position[2] = 1.5;
    CALL(pivot_world_add_body(world, &load, &load_index));
    memset(pins, 0, sizeof pins);
    pins[1].node = -1;
    pins[1].body = "load";
    pivot_cable_desc_init(&wire);
    wire.name = "wire";
    wire.elements = 16;
    wire.start[2] = 12.0;
    wire.end[0] = 0.0;
    wire.end[2] = 2.0;
    wire.radius = 0.008;
    wire.attachments = pins;
    wire.attachment_count = 2;
    wire.min_length = 2.0;
    CALL(pivot_world_add_cable(world, &wire, &cable));
    CALL(pivot_world_find_joint(world, "wire/attach1", &hook));
    CALL(pivot_world_step(world, 60));
    CALL(pivot_world_get_body(world, load_index, &state));
    z0 = state.position[2];
    CALL(pivot_world_set_cable_reel_speed(world, cable, -0.5));
    for (n = 0; n < 600; ++n) {
        double tension, stretch;
        CALL(pivot_world_step(world, 1));
        CALL(pivot_world_cable_length(world, cable, &length));
        stretch = fabs(wire_length(world, cable) / length - 1.0);
        if (stretch > worst_stretch) worst_stretch = stretch;
        if (n < 30) continue;
        CALL(pivot_world_get_body(world, load_index, &state));
        if (fabs(state.linear_velocity[2] - 0.5) > worst_speed) worst_speed = fabs(state.linear_velocity[2] - 0.5);
        CALL(pivot_world_joint_reaction(world, hook, &reaction));
        tension = sqrt(reaction.force[0] * reaction.force[0] + reaction.force[1] * reaction.force[1] +
                       reaction.force[2] * reaction.force[2]);
        if (fabs(tension - m * g) > worst_tension) worst_tension = fabs(tension - m * g);
    }
    CALL(pivot_world_get_body(world, load_index, &state));
    printf("winch from C: rose %.4f m; speed within %.2e m/s, tension within %.2e N, stretch %.2e\n",
           state.position[2] - z0, worst_speed, worst_tension, worst_stretch);
    EXPECT(fabs(state.position[2] - z0 - 5.0) <= 0.1);
    EXPECT(fabs(length - 5.0) <= 1e-9);
    EXPECT(worst_speed <= 0.02 * 0.5);
    EXPECT(worst_tension <= 0.02 * m * g);
    EXPECT(worst_stretch <= 1e-3);
    CALL(pivot_world_set_cable_reel_speed(world, cable, 0.5));
    CALL(pivot_world_step(world, 600));
    CALL(pivot_world_set_cable_reel_speed(world, cable, 0.0));
    CALL(pivot_world_step(world, 60));
    CALL(pivot_world_get_body(world, load_index, &state));
    EXPECT(fabs(state.position[2] - z0) <= 0.01);
    EXPECT(pivot_world_set_cable_reel_speed(world, cable, 500.0) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "reel_speed"));
    EXPECT(pivot_world_cable_length(world, 3, &length) == PIVOT_ERROR);
    pivot_world_destroy(world);

    CALL(pivot_world_create_from_file(engine, PIVOT_SCENE_DIR "/winch_hoist.json", &world));
    CALL(pivot_world_find_body(world, "load", &load_index));
    CALL(pivot_world_step(world, 600));
    CALL(pivot_world_get_body(world, load_index, &state));
    EXPECT(fabs(state.position[2] - 6.5) <= 0.1);
    pivot_world_destroy(world);
}

/* Ropes from C (0.10): a 500 kg load on a hook block hangs from a
   two-part reeving: the rope runs from a drum point on the crane's jib
   over a 0.3 m sheave at the jib tip, down under the hook block's sheave
   and up to a dead end on the jib (mechanical advantage 2), 16 mm steel
   (EA = 4.0e7 N), 60 Hz. Reeling in 4 m at 0.5 m/s (ramped over 1 s)
   lifts the load 2 m at 0.25 m/s (within 2%) with the rope's tension
   m g / 2 (within 2%); the path is never more than 0.1% longer than the
   rope; paying out lowers it back (within 1 cm). A rope whose route
   passes a sheave from inside its circle is refused naming the field. */
static void rope_reeving_lifts_and_lowers(pivot_engine* engine) {
    const double h = 1.0 / 60.0, m = 500.0, g = 9.81;
    pivot_world_settings settings;
    pivot_body_desc jib, block;
    pivot_joint_desc mount;
    pivot_rope_point route[4];
    pivot_rope_desc rope;
    pivot_rope_state rope_state;
    pivot_body_state state;
    pivot_world* world = NULL;
    uint32_t jib_index = 0, block_index = 0, hoist = 0, found = 0;
    double z0 = 0.0, length0 = 0.0, worst_speed = 0.0, worst_tension = 0.0, worst_stretch = 0.0;
    double path[6 * 4];
    int n, phase;
    pivot_world_settings_init(&settings);
    settings.timestep = h;
    CALL(pivot_world_create(engine, &settings, &world));
    pivot_body_desc_init(&jib);
    jib.name = "jib";
    jib.mass = 2000.0;
    jib.inertia[0] = jib.inertia[4] = jib.inertia[8] = 3000.0;
    jib.position[0] = 4.0;
    jib.position[2] = 10.0;
    CALL(pivot_world_add_body(world, &jib, &jib_index));
    pivot_joint_desc_init(&mount);
    mount.name = "jib_mount";
    mount.type = "fixed";
    mount.body2 = "jib";
    mount.anchor[0] = 4.0;
    mount.anchor[2] = 10.0;
    CALL(pivot_world_add_joint(world, &mount, NULL));
    pivot_body_desc_init(&block);
    block.name = "hook_block";
    block.mass = m;
    block.inertia[0] = block.inertia[4] = block.inertia[8] = 50.0;
    block.position[0] = 8.6;
    block.position[2] = 2.0;
    CALL(pivot_world_add_body(world, &block, &block_index));
    memset(route, 0, sizeof route);
    route[0].body = "jib"; /* the drum's end */
    route[0].point[2] = 10.0;
    route[1].body = "jib"; /* the tip sheave: over its top, +x there */
    route[1].point[0] = 8.0;
    route[1].point[2] = 10.0;
    route[1].radius = 0.3;
    route[1].axis[1] = 1.0;
    route[2].body = "hook_block"; /* under the block's sheave: +x at its bottom */
    route[2].point[0] = 8.6;
    route[2].point[2] = 2.0;
    route[2].radius = 0.3;
    route[2].axis[1] = -1.0;
    route[3].body = "jib"; /* the dead end */
    route[3].point[0] = 8.9;
    route[3].point[2] = 10.0;
    pivot_rope_desc_init(&rope);
    rope.name = "hoist";
    rope.points = route;
    rope.point_count = 4;
    rope.stiffness = 2e11 * 3.14159265358979 * 0.008 * 0.008;
    CALL(pivot_world_add_rope(world, &rope, &hoist));
    CALL(pivot_world_find_rope(world, "hoist", &found));
    EXPECT(found == hoist && pivot_world_rope_count(world) == 1);
    EXPECT(strcmp(pivot_world_rope_name(world, hoist), "hoist") == 0);
    CALL(pivot_world_step(world, 60));
    CALL(pivot_world_get_body(world, block_index, &state));
    z0 = state.position[2];
    CALL(pivot_world_get_rope(world, hoist, &rope_state));
    length0 = rope_state.length;
    EXPECT(rope_state.point_count == 4);
    /* Reel in (phase 0), then pay out (phase 1) the same: a 1 s ramp to
       0.5 m/s, 7.5 s at it, stop (4 m of rope each way). */
    for (phase = 0; phase < 2; ++phase) {
        const double sign = phase == 0 ? -1.0 : 1.0;
        for (n = 1; n <= 600; ++n) {
            const double speed = n < 60 ? 0.5 * n / 60.0 : (n < 510 ? 0.5 : 0.0);
            CALL(pivot_world_set_rope_reel_speed(world, hoist, sign * speed));
            CALL(pivot_world_step(world, 1));
            CALL(pivot_world_get_rope(world, hoist, &rope_state));
            if ((rope_state.path_length - rope_state.length) / rope_state.length > worst_stretch) {
                worst_stretch = (rope_state.path_length - rope_state.length) / rope_state.length;
            }
            if (phase == 1 || n < 180 || n > 480) continue; /* steady reeling in */
            CALL(pivot_world_get_body(world, block_index, &state));
            if (fabs(state.linear_velocity[2] - 0.25) > worst_speed) {
                worst_speed = fabs(state.linear_velocity[2] - 0.25);
            }
            if (fabs(rope_state.tension - 0.5 * m * g) > worst_tension) {
                worst_tension = fabs(rope_state.tension - 0.5 * m * g);
            }
        }
        if (phase == 0) {
            CALL(pivot_world_get_body(world, block_index, &state));
            printf("rope from C: reeled %.4f m, rose %.4f m; speed within %.2e m/s, tension within %.2e N, "
                   "stretch %.2e\n",
                   length0 - rope_state.length, state.position[2] - z0, worst_speed, worst_tension, worst_stretch);
            EXPECT(fabs(length0 - rope_state.length - 4.0) <= 0.01);
            EXPECT(fabs(state.position[2] - z0 - 2.0) <= 0.02);
        }
    }
    EXPECT(worst_speed <= 0.02 * 0.25);
    EXPECT(worst_tension <= 0.02 * 0.5 * m * g);
    EXPECT(worst_stretch <= 1e-3);
    CALL(pivot_world_step(world, 60));
    CALL(pivot_world_get_body(world, block_index, &state));
    EXPECT(fabs(state.position[2] - z0) <= 0.01);
    /* The path for drawing: the block's sheave's two tangent points 0.6 m apart. */
    CALL(pivot_world_get_rope_path(world, hoist, path, 8));
    EXPECT(all_finite(path, 24));
    EXPECT(fabs(path[15] - path[12] - 0.6) <= 1e-3);
    EXPECT(pivot_world_get_rope_path(world, hoist, path, 7) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "capacity 7"));
    EXPECT(pivot_world_set_rope_reel_speed(world, hoist, 500.0) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "reel_speed"));
    EXPECT(pivot_world_get_rope(world, 3, &rope_state) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "rope index 3"));
    route[2].point[0] = 8.1; /* the block's sheave now holds the tip sheave's tangent point: no tangent */
    route[2].point[2] = 9.9;
    rope.name = "bad";
    EXPECT(pivot_world_add_rope(world, &rope, NULL) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "rope 'bad': route"));
    CALL(pivot_world_remove_rope(world, hoist));
    EXPECT(pivot_world_removed(world, PIVOT_OBJECT_ROPE, hoist) == 1);
    EXPECT(pivot_world_get_rope(world, hoist, &rope_state) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "it was removed"));
    pivot_world_destroy(world);

    CALL(pivot_world_create_from_file(engine, PIVOT_SCENE_DIR "/rope_crane.json", &world));
    CALL(pivot_world_find_rope(world, "hoist", &hoist));
    CALL(pivot_world_step(world, 60));
    CALL(pivot_world_get_rope(world, hoist, &rope_state));
    EXPECT(rope_state.tension > 0.0);
    pivot_world_destroy(world);
    (void)jib_index;
}

/* Material pairs from C (0.9): a 0.5 m ice block (mu 0.05) launched at
   3 m/s on asphalt (mu 0.8); the pair (ice, asphalt) overrides the rule's
   mu = sqrt(0.05 x 0.8) = 0.2 with 0.1: the block slows at 0.1 g, so after
   0.5 s (30 steps) it moves at 3 - 0.1 g 0.5 = 2.5095 m/s (Coulomb's law
   with the box model is exact for a face sliding straight: 1e-6). An
   unknown material is refused naming the pair. */
static void material_pairs_from_code(pivot_engine* engine) {
    pivot_world_settings settings;
    pivot_material_desc material;
    pivot_material_pair_desc pair;
    pivot_shape_desc ground, block;
    pivot_body_desc body;
    pivot_body_state state;
    pivot_world* world = NULL;
    uint32_t index = 0;
    pivot_world_settings_init(&settings);
    settings.timestep = 1.0 / 60.0;
    CALL(pivot_world_create(engine, &settings, &world));
    pivot_material_desc_init(&material);
    material.name = "ice";
    material.friction_params = "{\"mu\": 0.05}";
    CALL(pivot_world_add_material(world, &material));
    material.name = "asphalt";
    material.friction_params = "{\"mu\": 0.8}";
    CALL(pivot_world_add_material(world, &material));
    pivot_material_pair_desc_init(&pair);
    pair.material1 = "ice";
    pair.material2 = "asphalt";
    pair.friction_params = "{\"mu\": 0.1}";
    CALL(pivot_world_add_material_pair(world, &pair));
    pivot_shape_desc_init(&ground);
    ground.type = "plane";
    ground.material = "asphalt";
    CALL(pivot_world_add_static_shape(world, &ground));
    pivot_shape_desc_init(&block);
    block.type = "box";
    block.size[0] = block.size[1] = block.size[2] = 0.5;
    block.material = "ice";
    pivot_body_desc_init(&body);
    body.name = "puck";
    body.mass = 10.0;
    body.inertia[0] = body.inertia[4] = body.inertia[8] = 10.0 * 0.5 / 12.0;
    body.position[2] = 0.25;
    body.linear_velocity[0] = 3.0;
    body.shapes = &block;
    body.shape_count = 1;
    CALL(pivot_world_add_body(world, &body, &index));
    CALL(pivot_world_step(world, 30));
    CALL(pivot_world_get_body(world, index, &state));
    printf("material pair from C: speed after 0.5 s %.9f m/s (expected %.9f)\n", state.linear_velocity[0],
           3.0 - 0.1 * 9.81 * 0.5);
    EXPECT(fabs(state.linear_velocity[0] - (3.0 - 0.1 * 9.81 * 0.5)) <= 1e-6);
    pair.material2 = "tarmac";
    EXPECT(pivot_world_add_material_pair(world, &pair) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "material pair ('ice', 'tarmac')"));
    pair.material2 = "asphalt";
    pair.overrides = PIVOT_PAIR_RESTITUTION;
    pair.restitution = 2.0;
    EXPECT(pivot_world_add_material_pair(world, &pair) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "restitution"));
    pivot_world_destroy(world);
}

/* Bodies built in code need no name (0.9): an unnamed one is "#<index>",
   and a joint names it so. */
static void unnamed_bodies_get_an_index_name(pivot_engine* engine) {
    pivot_world_settings settings;
    pivot_body_desc body;
    pivot_joint_desc joint;
    pivot_world* world = NULL;
    uint32_t first = 0, second = 0, found = 0;
    pivot_world_settings_init(&settings);
    CALL(pivot_world_create(engine, &settings, &world));
    pivot_body_desc_init(&body);
    body.name = NULL;
    CALL(pivot_world_add_body(world, &body, &first));
    body.name = "";
    body.position[2] = -1.0;
    CALL(pivot_world_add_body(world, &body, &second));
    EXPECT(strcmp(pivot_world_body_name(world, second), "#1") == 0);
    CALL(pivot_world_find_body(world, "#0", &found));
    EXPECT(found == first);
    pivot_joint_desc_init(&joint);
    joint.name = "link";
    joint.type = "spherical";
    joint.body1 = "#0";
    joint.body2 = "#1";
    CALL(pivot_world_add_joint(world, &joint, NULL));
    body.name = "#1"; /* taken */
    EXPECT(pivot_world_add_body(world, &body, NULL) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "body '#1': name: another body already has this name"));
    pivot_world_destroy(world);
}

/* Speculative contacts are flagged (0.9): a 0.1 m ball 3 cm above the
   ground (contact margin 5 cm) has one contact after the first step, flagged
   speculative and without force (it falls 2.7 mm in the step); resting on
   the ground after 1 s its contact is not speculative and carries m g. */
static void speculative_contacts_are_flagged(pivot_engine* engine) {
    pivot_world_settings settings;
    pivot_shape_desc ground, sphere;
    pivot_body_desc ball;
    pivot_contact contact;
    pivot_world* world = NULL;
    uint32_t flags = 0, count = 0;
    pivot_world_settings_init(&settings);
    settings.timestep = 1.0 / 60.0;
    settings.contact_margin = 0.05;
    CALL(pivot_world_create(engine, &settings, &world));
    pivot_shape_desc_init(&ground);
    ground.type = "plane";
    CALL(pivot_world_add_static_shape(world, &ground));
    pivot_shape_desc_init(&sphere);
    sphere.type = "sphere";
    sphere.radius = 0.1;
    pivot_body_desc_init(&ball);
    ball.name = "ball";
    ball.inertia[0] = ball.inertia[4] = ball.inertia[8] = 0.004;
    ball.position[2] = 0.13;
    ball.shapes = &sphere;
    ball.shape_count = 1;
    CALL(pivot_world_add_body(world, &ball, NULL));
    CALL(pivot_world_step(world, 1));
    CALL(pivot_world_contact_flags(world, &flags, 1, &count));
    EXPECT(count == 1 && flags == PIVOT_CONTACT_SPECULATIVE);
    CALL(pivot_world_step(world, 60));
    CALL(pivot_world_contact_flags(world, &flags, 1, &count));
    CALL(pivot_world_contacts(world, &contact, 1, &count));
    EXPECT(count == 1 && flags == PIVOT_CONTACT_FORCE);
    EXPECT(fabs(contact.normal_force - 9.81) <= 1e-6);
    EXPECT(pivot_world_contact_flags(world, NULL, 1, &count) == PIVOT_ERROR);
    pivot_world_destroy(world);
}

/* The joint error is the one after the step (0.9), not the one the step
   started from: a 1 kg bob on a 1 m ball joint released horizontal at
   60 Hz opens its joint by ~ L (h w)^2 / 2 per step; after each step the
   reported error equals the anchor's offset recomputed from the bob's pose
   now (the largest component of frame 2's origin minus the anchor: the
   spherical joint's point rows), to rounding. */
static void joint_error_is_after_the_step(pivot_engine* engine) {
    pivot_world_settings settings;
    pivot_body_desc bob;
    pivot_joint_desc ball;
    pivot_joint_reaction reaction;
    pivot_world_statistics statistics;
    pivot_body_state state;
    pivot_world* world = NULL;
    const double local[3] = {-1.0, 0.0, 0.0};
    double anchor_now[3], worst = 0.0;
    int n, k;
    pivot_world_settings_init(&settings);
    settings.timestep = 1.0 / 60.0;
    settings.stabilization = 1; /* no position projection: the error stays visible */
    CALL(pivot_world_create(engine, &settings, &world));
    pivot_body_desc_init(&bob);
    bob.name = "bob";
    bob.inertia[0] = bob.inertia[4] = bob.inertia[8] = 1e-3;
    bob.position[0] = 1.0;
    CALL(pivot_world_add_body(world, &bob, NULL));
    pivot_joint_desc_init(&ball);
    ball.name = "ball";
    ball.type = "spherical";
    ball.body2 = "bob";
    CALL(pivot_world_add_joint(world, &ball, NULL));
    pivot_world_statistics_init(&statistics);
    for (n = 0; n < 30; ++n) {
        double error = 0.0;
        CALL(pivot_world_step(world, 1));
        CALL(pivot_world_get_body(world, 0, &state));
        body_point(&state, local, anchor_now);
        for (k = 0; k < 3; ++k) error = fabs(anchor_now[k]) > error ? fabs(anchor_now[k]) : error;
        CALL(pivot_world_joint_reaction(world, 0, &reaction));
        CALL(pivot_world_statistics_get(world, &statistics));
        if (fabs(reaction.position_error - error) > worst) worst = fabs(reaction.position_error - error);
        EXPECT(statistics.max_joint_error == reaction.position_error);
        if (n == 29) EXPECT(error > 1e-6); /* there is an error to report */
    }
    EXPECT(worst <= 1e-12);
    pivot_world_destroy(world);
}

/* Removal from C (0.9): a chain of two balls; removing the upper ball
   takes its two joints with it, the lower ball then falls freely
   (v_n = v_0 - n h g); the indices stay, the removed ones are refused and
   reported by pivot_world_removed; the name may be used again. */
static void removal_from_c(pivot_engine* engine) {
    const double h = 1.0 / 60.0;
    pivot_world_settings settings;
    pivot_body_desc ball;
    pivot_joint_desc link;
    pivot_body_state state;
    pivot_world* world = NULL;
    uint32_t upper = 0, lower = 0, top = 0, middle = 0;
    double v0 = 0.0;
    pivot_world_settings_init(&settings);
    settings.timestep = h;
    CALL(pivot_world_create(engine, &settings, &world));
    pivot_body_desc_init(&ball);
    ball.name = "upper";
    ball.position[0] = 0.5;
    CALL(pivot_world_add_body(world, &ball, &upper));
    ball.name = "lower";
    ball.position[0] = 1.0;
    CALL(pivot_world_add_body(world, &ball, &lower));
    pivot_joint_desc_init(&link);
    link.name = "top";
    link.type = "spherical";
    link.body2 = "upper";
    CALL(pivot_world_add_joint(world, &link, &top));
    link.name = "middle";
    link.body1 = "upper";
    link.body2 = "lower";
    link.anchor[0] = 0.5;
    CALL(pivot_world_add_joint(world, &link, &middle));
    CALL(pivot_world_step(world, 20));
    CALL(pivot_world_remove_body(world, upper));
    EXPECT(pivot_world_removed(world, PIVOT_OBJECT_BODY, upper) == 1);
    EXPECT(pivot_world_removed(world, PIVOT_OBJECT_JOINT, top) == 1);
    EXPECT(pivot_world_removed(world, PIVOT_OBJECT_JOINT, middle) == 1);
    EXPECT(pivot_world_removed(world, PIVOT_OBJECT_BODY, lower) == 0);
    EXPECT(pivot_world_body_count(world) == 2);
    EXPECT(pivot_world_get_body(world, upper, &state) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "body 'upper'") && contains(pivot_last_error(), "it was removed"));
    EXPECT(pivot_world_remove_joint(world, top) == PIVOT_ERROR);
    CALL(pivot_world_get_body(world, lower, &state));
    v0 = state.linear_velocity[2];
    CALL(pivot_world_step(world, 10));
    CALL(pivot_world_get_body(world, lower, &state));
    EXPECT(fabs(state.linear_velocity[2] - (v0 - 10 * h * 9.81)) <= 1e-9);
    ball.name = "upper"; /* the name is free again */
    CALL(pivot_world_add_body(world, &ball, NULL));
    /* Disabled, the lower ball stays where it is; enabled, it falls on
       with the velocity it had. */
    {
        uint32_t enabled = 9;
        pivot_body_state held, later;
        CALL(pivot_world_set_body_enabled(world, lower, 0));
        CALL(pivot_world_body_enabled(world, lower, &enabled));
        EXPECT(enabled == 0);
        CALL(pivot_world_get_body(world, lower, &held));
        CALL(pivot_world_step(world, 5));
        CALL(pivot_world_get_body(world, lower, &later));
        EXPECT(later.position[2] == held.position[2] && later.linear_velocity[2] == 0.0);
        CALL(pivot_world_set_body_enabled(world, lower, 1));
        CALL(pivot_world_get_body(world, lower, &later));
        EXPECT(later.linear_velocity[2] == held.linear_velocity[2]);
    }
    pivot_world_destroy(world);
}

/* Contact settings from C (0.8): a 0.1 m sphere 0.15 m above the ground
   (a gap of 0.15 m) is a speculative contact after one 1/60 s step with a
   contact margin of 0.2 m, and none with the default 0.01 m (its sweep adds
   only v h = 3 mm); a NaN margin is refused naming the field. */
static uint32_t contacts_after_one_step(pivot_engine* engine, double margin) {
    pivot_world* world = NULL;
    pivot_world_settings settings;
    pivot_shape_desc ground, ball;
    pivot_body_desc body;
    pivot_contact contacts[4];
    uint32_t count = 0;
    pivot_world_settings_init(&settings);
    settings.timestep = 1.0 / 60.0;
    settings.contact_margin = margin;
    CALL(pivot_world_create(engine, &settings, &world));
    pivot_shape_desc_init(&ground);
    ground.type = "plane";
    CALL(pivot_world_add_static_shape(world, &ground));
    pivot_shape_desc_init(&ball);
    ball.type = "sphere";
    ball.radius = 0.1;
    pivot_body_desc_init(&body);
    body.name = "ball";
    body.position[2] = 0.25;
    body.shapes = &ball;
    body.shape_count = 1;
    CALL(pivot_world_add_body(world, &body, NULL));
    CALL(pivot_world_step(world, 1));
    CALL(pivot_world_contacts(world, contacts, 4, &count));
    pivot_world_destroy(world);
    return count;
}

/* Which solver a world uses (0.8): none named while the engine chooses per
   island; the registered id of the one pivot_world_set_solver named, short
   names resolved; the old one after a refused swap. */
/* Which solver a world uses is readable (0.8) and saved with its state
   (0.9): restoring a state saved under the engine's choice goes back to it,
   one saved under PGS back to PGS. */
static void the_solver_is_readable(pivot_engine* engine) {
    pivot_world* world = NULL;
    pivot_world_settings settings;
    unsigned char* automatic = NULL;
    unsigned char* pgs = NULL;
    size_t automatic_size = 0, pgs_size = 0;
    pivot_world_settings_init(&settings);
    CALL(pivot_world_create(engine, &settings, &world));
    EXPECT(pivot_world_solver(world) == NULL);
    EXPECT(pivot_world_save_state(world, NULL, 0, &automatic_size) == PIVOT_ERROR);
    automatic = (unsigned char*)malloc(automatic_size);
    CALL(pivot_world_save_state(world, automatic, automatic_size, &automatic_size));
    CALL(pivot_world_set_solver(world, "pgs", NULL));
    EXPECT(pivot_world_solver(world) != NULL && strcmp(pivot_world_solver(world), "pivot.solver.pgs") == 0);
    EXPECT(pivot_world_set_solver(world, "pivot.solver.none", NULL) == PIVOT_ERROR);
    EXPECT(pivot_world_solver(world) != NULL && strcmp(pivot_world_solver(world), "pivot.solver.pgs") == 0);
    EXPECT(pivot_world_solver(NULL) == NULL);
    EXPECT(pivot_world_save_state(world, NULL, 0, &pgs_size) == PIVOT_ERROR);
    pgs = (unsigned char*)malloc(pgs_size);
    CALL(pivot_world_save_state(world, pgs, pgs_size, &pgs_size));
    CALL(pivot_world_restore_state(world, automatic, automatic_size));
    EXPECT(pivot_world_solver(world) == NULL);
    CALL(pivot_world_set_solver(world, "dantzig", NULL));
    CALL(pivot_world_restore_state(world, pgs, pgs_size));
    EXPECT(pivot_world_solver(world) != NULL && strcmp(pivot_world_solver(world), "pivot.solver.pgs") == 0);
    free(automatic);
    free(pgs);
    pivot_world_destroy(world);
}

static void contact_settings_are_applied(pivot_engine* engine) {
    pivot_world* world = NULL;
    pivot_world_settings settings;
    EXPECT(contacts_after_one_step(engine, 0.2) == 1u);
    EXPECT(contacts_after_one_step(engine, 0.0) == 0u);
    pivot_world_settings_init(&settings);
    settings.contact_margin = NAN;
    EXPECT(pivot_world_create(engine, &settings, &world) == PIVOT_ERROR && world == NULL);
    EXPECT(contains(pivot_last_error(), "contact_margin"));
}

/* Logging from C (0.8): a callback installed with pivot_set_log_callback
   receives the engine's messages (source "pivot": destroying an engine whose
   world is alive) and a plugin's with its source (test.joint.short_clock
   logs at INFO each step it discards: the 10 ms step it discards twice before
   taking it in 4 substeps, which pivot_world_statistics.substeps says), at
   and above the level of pivot_set_log_level only. */
typedef struct log_record {
    int engine_errors;
    int plugin_infos;
    int below_level;
    pivot_log_level minimum;
} log_record;

static void record_log(void* user, pivot_log_level level, const char* source, const char* message) {
    log_record* r = (log_record*)user;
    if (level < r->minimum) ++r->below_level;
    if (level == PIVOT_LOG_ERROR && strcmp(source, "pivot") == 0 && contains(message, "pivot_engine_destroy")) {
        ++r->engine_errors;
    }
    if (level == PIVOT_LOG_INFO && strcmp(source, "test.joint.short_clock") == 0 &&
        contains(message, "steps longer than 3 ms are discarded")) {
        ++r->plugin_infos;
    }
}

static void logging_reaches_the_callback(void) {
    pivot_engine* engine = NULL;
    pivot_world* world = NULL;
    pivot_world_settings settings;
    pivot_world_statistics statistics;
    pivot_body_desc body;
    pivot_joint_desc joint;
    log_record record = {0, 0, 0, PIVOT_LOG_INFO};
    CALL(pivot_engine_create(&engine));
    CALL(pivot_engine_load_plugins(engine, PIVOT_TEST_CONTRACT_DIR));
    pivot_set_log_callback(record_log, &record);
    CALL(pivot_set_log_level(PIVOT_LOG_INFO));
    pivot_world_settings_init(&settings);
    settings.timestep = 0.01;
    settings.gravity[2] = 0.0;
    CALL(pivot_world_create(engine, &settings, &world));
    pivot_body_desc_init(&body);
    body.name = "slider";
    CALL(pivot_world_add_body(world, &body, NULL));
    pivot_joint_desc_init(&joint);
    joint.name = "clock";
    joint.type = "test.joint.short_clock";
    joint.body2 = "slider";
    CALL(pivot_world_add_joint(world, &joint, NULL));
    CALL(pivot_world_step(world, 1));
    EXPECT(record.plugin_infos == 2); /* at h and at h/2 */
    pivot_world_statistics_init(&statistics);
    CALL(pivot_world_statistics_get(world, &statistics)); /* its energy asks the joint's rows too */
    EXPECT(statistics.substeps == 4u);
    pivot_engine_destroy(engine); /* refused and logged: its world is alive */
    EXPECT(record.engine_errors == 1);
    CALL(pivot_set_log_level(PIVOT_LOG_ERROR));
    record.minimum = PIVOT_LOG_ERROR;
    record.plugin_infos = 0;
    CALL(pivot_world_step(world, 1)); /* the plugin's INFO messages are below the level now */
    EXPECT(record.plugin_infos == 0);
    EXPECT(record.below_level == 0);
    EXPECT(pivot_set_log_level((pivot_log_level)7) == PIVOT_ERROR);
    EXPECT(contains(pivot_last_error(), "not a pivot_log_level"));
    pivot_set_log_callback(NULL, NULL);
    CALL(pivot_set_log_level(PIVOT_LOG_WARNING));
    pivot_world_destroy(world);
    pivot_engine_destroy(engine);
}

int main(void) {
    pivot_engine* engine = NULL;
    pivot_world* world = NULL;
    pivot_world_settings settings;
    pivot_shape_desc ground, cube;
    pivot_body_desc box, arm;
    pivot_joint_desc hinge;
    uint32_t box_index = 0, arm_index = 0, hinge_index = 0, count = 0, i = 0;
    pivot_body_state state;
    pivot_contact contacts[16];
    double total = 0.0, angle = 0.0, rate = 0.0;
    size_t size = 0;
    unsigned char* saved = NULL;
    pivot_body_state after_save, after_restore;

    CALL(pivot_engine_create(&engine));
    pivot_world_settings_init(&settings);
    settings.timestep = 1.0 / 60.0;
    CALL(pivot_world_create(engine, &settings, &world));

    pivot_shape_desc_init(&ground);
    ground.type = "plane";
    CALL(pivot_world_add_static_shape(world, &ground));

    pivot_shape_desc_init(&cube);
    cube.type = "box";
    cube.size[0] = cube.size[1] = cube.size[2] = 0.5;
    pivot_body_desc_init(&box);
    box.name = "crate";
    box.mass = 10.0;
    box.inertia[0] = box.inertia[4] = box.inertia[8] = 10.0 * 0.25 / 6.0;
    box.position[2] = 0.3;
    box.shapes = &cube;
    box.shape_count = 1;
    CALL(pivot_world_add_body(world, &box, &box_index));

    pivot_body_desc_init(&arm);
    arm.name = "arm";
    arm.position[0] = 3.0;
    arm.position[2] = 2.0;
    CALL(pivot_world_add_body(world, &arm, &arm_index));
    pivot_joint_desc_init(&hinge);
    hinge.name = "slew";
    hinge.type = "revolute";
    hinge.body2 = "arm";
    hinge.anchor[0] = 2.0;
    hinge.anchor[2] = 2.0;
    hinge.axis[0] = 0.0;
    hinge.axis[2] = 1.0;
    hinge.has_motor = 1;
    hinge.motor_velocity = 0.5;
    hinge.motor_max_force = 100.0;
    CALL(pivot_world_add_joint(world, &hinge, &hinge_index));

    CALL(pivot_world_step(world, 120)); /* 2 s */
    CALL(pivot_world_get_body(world, box_index, &state));
    EXPECT(fabs(state.position[2] - 0.25) < 1e-4);
    CALL(pivot_world_contacts(world, contacts, 16, &count));
    EXPECT(count == 4);
    for (i = 0; i < count && i < 16; ++i) total += contacts[i].normal_force;
    EXPECT(fabs(total - 10.0 * 9.81) < 1e-3);
    CALL(pivot_world_joint_coordinate(world, hinge_index, &angle, &rate));
    EXPECT(fabs(rate - 0.5) < 1e-9);

    /* Save, run on, restore, run the same again: bitwise the same. */
    EXPECT(pivot_world_save_state(world, NULL, 0, &size) == PIVOT_ERROR); /* asks for the size */
    EXPECT(strstr(pivot_last_error(), "buffer too small") != NULL);
    saved = (unsigned char*)malloc(size);
    CALL(pivot_world_save_state(world, saved, size, &size));
    CALL(pivot_world_step(world, 30));
    CALL(pivot_world_get_body(world, arm_index, &after_save));
    CALL(pivot_world_set_motor_velocity(world, hinge_index, -2.0));
    CALL(pivot_world_step(world, 10));
    CALL(pivot_world_restore_state(world, saved, size));
    CALL(pivot_world_step(world, 30));
    CALL(pivot_world_get_body(world, arm_index, &after_restore));
    EXPECT(memcmp(&after_save, &after_restore, sizeof after_save) == 0);
    free(saved);

    /* Swapping the solver between two steps. */
    CALL(pivot_world_set_solver(world, "pgs", NULL));
    CALL(pivot_world_step(world, 10));
    CALL(pivot_world_get_body(world, box_index, &state));
    EXPECT(fabs(state.position[2] - 0.25) < 1e-4);

    /* Errors: a status and a message, never a crash. */
    EXPECT(pivot_world_step(NULL, 1) == PIVOT_ERROR);
    EXPECT(strstr(pivot_last_error(), "world is NULL") != NULL);
    EXPECT(pivot_world_find_body(world, "nobody", &i) == PIVOT_ERROR);
    EXPECT(strstr(pivot_last_error(), "nobody") != NULL);
    EXPECT(pivot_world_get_body(world, 99, &state) == PIVOT_ERROR);
    EXPECT(strstr(pivot_last_error(), "out of range") != NULL);
    EXPECT(pivot_world_set_solver(world, "no.such.solver", NULL) == PIVOT_ERROR);
    EXPECT(strstr(pivot_last_error(), "no.such.solver") != NULL);
    box.name = "crate"; /* a duplicate name */
    EXPECT(pivot_world_add_body(world, &box, NULL) == PIVOT_ERROR);
    EXPECT(strstr(pivot_last_error(), "crate") != NULL);
    {
        pivot_world* broken = world; /* a failed create sets its output to NULL */
        EXPECT(pivot_world_create_from_json(engine, "{ not json", NULL, &broken) == PIVOT_ERROR);
        EXPECT(broken == NULL);
        EXPECT(strstr(pivot_last_error(), "scene JSON") != NULL);
    }

    pivot_world_destroy(world);

    cable_from_code(engine);
    cable_from_scene(engine);
    divergence_is_reported(engine);
    stage_times_are_reported(engine);
    step_budget_is_honoured(engine);
    hostile_calls_are_refused(engine);
    large_islands_are_chosen(engine);
    body_damping_is_applied(engine);
    body_friction_is_applied(engine);
    contact_settings_are_applied(engine);
    the_solver_is_readable(engine);
    drives_are_readable(engine);
    joints_change_while_running(engine);
    winch_lifts_and_lowers(engine);
    rope_reeving_lifts_and_lowers(engine);
    material_pairs_from_code(engine);
    unnamed_bodies_get_an_index_name(engine);
    speculative_contacts_are_flagged(engine);
    joint_error_is_after_the_step(engine);
    removal_from_c(engine);
    logging_reaches_the_callback();

    pivot_engine_destroy(engine);
    if (failures != 0) fprintf(stderr, "%d failure(s)\n", failures);
    return failures == 0 ? 0 : 1;
}
