/* The out-of-tree conjugate-gradient solver (factored_cg.c) on a chain of
 * 30 links hanging from the world on ball joints, released horizontally,
 * 0.5 s at h = 1 ms: loaded into the engine, named as the world's solver,
 * against the same world solved by the engine's defaults (the sparse
 * direct solver for this island).
 *
 * Both solve the same linear system A x = -b per step, CG to |A x + b| <=
 * 1e-12 N s (its tolerance) and the direct solver exactly (1e-15 relative),
 * so the impulses differ by about 1e-12 N s per step. An impulse error dz
 * moves a 0.1 kg link by h dz / m = 1e-14 m per step; over 500 steps of a
 * chain whose motion is not chaotic in 0.5 s that stays far below 1e-9 m,
 * the bound checked on every link's position. The test also checks that CG
 * was the solver used (no fallback) and that the host accepted every solve. */
#include <math.h>
#include <stdio.h>

#include <pivot/pivot.h>

#define LINKS 30

static int failures = 0;

static void check_call(pivot_status s, const char* what) {
    if (s != PIVOT_OK && s != PIVOT_WARNING) {
        fprintf(stderr, "chain_cg_test: %s: %s\n", what, pivot_last_error());
        ++failures;
    }
}

/* A chain of LINKS links (0.1 m, 0.1 kg) along +x from the origin; solver NULL = the engine's defaults. */
static pivot_world* make_chain(pivot_engine* engine, const char* solver) {
    pivot_world_settings settings;
    pivot_world* world = NULL;
    char names[LINKS][16];
    int i;
    pivot_world_settings_init(&settings);
    settings.solver = solver;
    check_call(pivot_world_create(engine, &settings, &world), "creating a world");
    if (world == NULL) return NULL;
    for (i = 0; i < LINKS; ++i) {
        pivot_body_desc body;
        pivot_joint_desc joint;
        char joint_name[16];
        pivot_body_desc_init(&body);
        snprintf(names[i], sizeof names[i], "link%d", i);
        body.name = names[i];
        body.mass = 0.1;
        body.inertia[0] = 6.667e-6;
        body.inertia[4] = 8.667e-5;
        body.inertia[8] = 8.667e-5;
        body.position[0] = 0.1 * i + 0.05;
        check_call(pivot_world_add_body(world, &body, NULL), "adding a link");
        pivot_joint_desc_init(&joint);
        snprintf(joint_name, sizeof joint_name, "joint%d", i);
        joint.name = joint_name;
        joint.type = "spherical";
        joint.body1 = i == 0 ? "world" : names[i - 1];
        joint.body2 = names[i];
        joint.anchor[0] = 0.1 * i;
        check_call(pivot_world_add_joint(world, &joint, NULL), "adding a joint");
    }
    return world;
}

int main(void) {
    pivot_engine* engine = NULL;
    pivot_world* cg = NULL;
    pivot_world* reference = NULL;
    double largest = 0.0;
    uint32_t fallbacks = 0, step_failures = 0, iterations = 0;
    int step, i;
    check_call(pivot_engine_create(&engine), "starting the engine");
    if (engine == NULL) return 1;
    check_call(pivot_engine_load_plugins(engine, "example_factored_cg.so"), "loading example_factored_cg.so");
    cg = make_chain(engine, "example.solver.factored_cg");
    reference = make_chain(engine, NULL);
    if (cg == NULL || reference == NULL) return 1;
    for (step = 0; step < 500; ++step) {
        pivot_world_statistics statistics;
        check_call(pivot_world_step(cg, 1), "stepping the CG world");
        check_call(pivot_world_step(reference, 1), "stepping the reference world");
        pivot_world_statistics_init(&statistics);
        check_call(pivot_world_statistics_get(cg, &statistics), "reading statistics");
        fallbacks += statistics.fallbacks;
        step_failures += statistics.solver_failures;
        iterations += statistics.solver_iterations;
    }
    for (i = 0; i < LINKS; ++i) {
        pivot_body_state a, b;
        int k;
        check_call(pivot_world_get_body(cg, (uint32_t)i, &a), "reading a link");
        check_call(pivot_world_get_body(reference, (uint32_t)i, &b), "reading a link");
        for (k = 0; k < 3; ++k) largest = fabs(a.position[k] - b.position[k]) > largest ? fabs(a.position[k] - b.position[k]) : largest;
    }
    printf("30-link chain, 0.5 s at 1 ms: CG %.1f iterations per step, %u fallbacks, %u failures; "
           "largest position difference to the direct solver %.2e m\n",
           iterations / 500.0, fallbacks, step_failures, largest);
    if (fallbacks != 0 || step_failures != 0) ++failures;
    if (!(largest <= 1e-9)) ++failures;
    pivot_world_destroy(cg);
    pivot_world_destroy(reference);
    pivot_engine_destroy(engine);
    if (failures != 0) fprintf(stderr, "chain_cg_test: %d failure(s)\n", failures);
    return failures == 0 ? 0 : 1;
}
