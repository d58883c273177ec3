/* The embedding C API used from C99 (-pedantic-errors), as a training
   simulator would: an engine, a world built in code (ground, a box, a
   pendulum with a motor), stepped at 60 Hz; the box comes to rest on the
   ground (its weight in the contact forces), the motor turns the pendulum
   at its target speed, the state is saved and restored bitwise, and bad
   calls return PIVOT_ERROR with a message instead of crashing. Exits
   non-zero (printing why) on any failure. */
#include <math.h>
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
    pivot_engine_destroy(engine);
    if (failures != 0) fprintf(stderr, "%d failure(s)\n", failures);
    return failures == 0 ? 0 : 1;
}
