/* A sled on snow with the out-of-tree anisotropic friction model (loaded by
 * the scene): pushed at 45 degrees, it keeps sliding along its runners
 * (mu_along = 0.05) while the sideways slip is stopped by mu_across = 0.8.
 * With the sled turned by 90 degrees about the vertical the same push gives
 * the mirror result: the law follows the body, not the world.
 *
 * Coulomb with a constant normal force m g: each in-plane component
 * decelerates at mu g while it slides, independently (the box of the two
 * coefficients along the sled's axes):
 *   across: 2 m/s stops after 2 / (0.8 g) = 0.255 s;
 *   along:  after 0.5 s, v = 2 - 0.05 g 0.5 = 1.75475 m/s.
 * Tolerances: 1e-3 m/s, the speed change of a quarter step at 0.8 g (the
 * stop falls within a step of h = 4 ms) is 8e-3; after it the sideways
 * velocity is exactly held (sticking row), so 1e-6 there. */
#include <math.h>
#include <stdio.h>

#include <pivot/pivot.h>

static int failures = 0;

static void check_call(pivot_status s, const char* what) {
    if (s != PIVOT_OK && s != PIVOT_WARNING) {
        fprintf(stderr, "sled_test: %s: %s\n", what, pivot_last_error());
        ++failures;
    }
}

static void expect_near(double value, double expected, double tolerance, const char* what) {
    printf("%-40s %.6f (expected %.6f +- %.0e)\n", what, value, expected, tolerance);
    if (!(fabs(value - expected) <= tolerance)) ++failures;
}

/* Pushes the sled (turned by yaw about z) with 2 m/s along x and along y,
   runs 0.5 s, and returns its velocity. */
static void push(pivot_engine* engine, double yaw, double v[3]) {
    pivot_world* world = NULL;
    uint32_t sled = 0;
    pivot_body_state s;
    check_call(pivot_world_create_from_file(engine, "sled.json", &world), "loading sled.json");
    if (world == NULL) return;
    check_call(pivot_world_find_body(world, "sled", &sled), "finding the sled");
    check_call(pivot_world_get_body(world, sled, &s), "reading the sled");
    s.orientation[0] = cos(0.5 * yaw);
    s.orientation[3] = sin(0.5 * yaw);
    s.linear_velocity[0] = 2.0;
    s.linear_velocity[1] = 2.0;
    check_call(pivot_world_set_body(world, sled, &s), "pushing the sled");
    check_call(pivot_world_step(world, 125), "sliding for 0.5 s");
    check_call(pivot_world_get_body(world, sled, &s), "reading the sled");
    v[0] = s.linear_velocity[0];
    v[1] = s.linear_velocity[1];
    v[2] = s.linear_velocity[2];
    pivot_world_destroy(world);
}

int main(void) {
    pivot_engine* engine = NULL;
    double v[3] = {0, 0, 0};
    const double along = 2.0 - 0.05 * 9.81 * 0.5;
    check_call(pivot_engine_create(&engine), "starting the engine");
    if (engine == NULL) return 1;

    push(engine, 0.0, v); /* runners along x */
    expect_near(v[0], along, 1e-3, "runners along x: v_x (along)");
    expect_near(v[1], 0.0, 1e-6, "runners along x: v_y (across)");

    push(engine, 0.5 * 3.14159265358979323846, v); /* runners along y */
    expect_near(v[0], 0.0, 1e-6, "runners along y: v_x (across)");
    expect_near(v[1], along, 1e-3, "runners along y: v_y (along)");

    pivot_engine_destroy(engine);
    if (failures != 0) fprintf(stderr, "sled_test: %d failure(s)\n", failures);
    return failures == 0 ? 0 : 1;
}
