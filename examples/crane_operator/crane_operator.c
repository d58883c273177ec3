/* An operator-training simulator's core loop, in C, on Pivot's embedding API:
 * a fixed 60 Hz frame clock, operator commands read from a script (time,
 * lever, value), the crane's drives set from the levers, one physics step
 * per frame, and the state printed per frame (what a visualisation or an
 * instructor station would read).
 *
 * The crane (crane.json): a boom slewing on a revolute drive, a steel wire
 * on a winch from the boom tip to a hook, and a load on the ground. The
 * hoist lever turns the winch (the wire reeled in or paid out); the latch
 * lever engages the hook on the load where it is (a joint enabled at the
 * current pose) and releases it. Printed per frame: the slew angle and
 * rate and the slew drive's own torque, the wire's deployed length and its
 * pull at the drum, the hook's and the load's heights, and the latch.
 *
 *   crane_operator [crane.json] [operator_commands.txt] [seconds]
 *
 * A real simulator reads the levers from hardware and renders instead of
 * printing; it would also pace the loop to the wall clock (the step takes
 * well under a frame), which this example leaves out to run at full speed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pivot/pivot.h>

typedef struct command {
    double time;
    char lever[16];
    double value;
} command;

/* Reads "time lever value" lines ('#' starts a comment). Returns the count. */
static int read_commands(const char* path, command* out, int capacity) {
    FILE* f = fopen(path, "r");
    char line[256];
    int count = 0, number = 0;
    if (f == NULL) {
        fprintf(stderr, "crane_operator: cannot open '%s'\n", path);
        exit(1);
    }
    while (fgets(line, sizeof line, f) != NULL) {
        char* hash = strchr(line, '#');
        ++number;
        if (hash != NULL) *hash = '\0';
        if (strspn(line, " \t\r\n") == strlen(line)) continue;
        if (count == capacity ||
            sscanf(line, "%lf %15s %lf", &out[count].time, out[count].lever, &out[count].value) != 3) {
            fprintf(stderr, "crane_operator: %s:%d: expected 'time lever value'\n", path, number);
            exit(1);
        }
        ++count;
    }
    fclose(f);
    return count;
}

/* Stops the program with the engine's message when a call fails. */
static void check(pivot_status status, const char* what) {
    if (status != PIVOT_OK && status != PIVOT_WARNING) {
        fprintf(stderr, "crane_operator: %s: %s\n", what, pivot_last_error());
        exit(1);
    }
}

static double magnitude(const double v[3]) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

int main(int argc, char** argv) {
    const char* scene = argc > 1 ? argv[1] : "crane.json";
    const char* script = argc > 2 ? argv[2] : "operator_commands.txt";
    const double seconds = argc > 3 ? atof(argv[3]) : 10.0;
    command commands[256];
    const int command_count = read_commands(script, commands, 256);
    int next = 0;
    pivot_engine* engine = NULL;
    pivot_world* world = NULL;
    uint32_t slew = 0, latch = 0, drum = 0, wire = 0, hook = 0, load = 0, frame = 0, latched = 0;
    const double frame_time = 1.0 / 60.0;
    const uint32_t frames = (uint32_t)(seconds / frame_time + 0.5);
    pivot_world_statistics statistics;
    uint32_t failures = 0, broken = 0;

    check(pivot_engine_create(&engine), "starting the engine");
    check(pivot_world_create_from_file(engine, scene, &world), "loading the scene");
    check(pivot_world_find_joint(world, "slew", &slew), "the slew joint");
    check(pivot_world_find_joint(world, "latch", &latch), "the latch joint");
    check(pivot_world_find_cable(world, "wire", &wire), "the wire");
    check(pivot_world_find_joint(world, "wire/attach0", &drum), "the wire's drum end");
    check(pivot_world_find_body(world, "hook", &hook), "the hook");
    check(pivot_world_find_body(world, "load", &load), "the load");
    if (fabs(pivot_world_timestep(world) - frame_time) > 1e-12) {
        fprintf(stderr, "crane_operator: the scene's timestep must be 1/60 s (one step per frame)\n");
        return 1;
    }
    pivot_world_statistics_init(&statistics);

    printf("time,slew_angle,slew_rate,slew_torque,wire_length,line_pull,hook_z,load_z,latched\n");
    for (frame = 0; frame < frames; ++frame) {
        const double t = frame * frame_time;
        double angle = 0, rate = 0, torque = 0, length = 0;
        pivot_body_state hook_state, load_state;
        pivot_joint_reaction pull;
        /* Operator input for this frame. */
        while (next < command_count && commands[next].time <= t + 1e-9) {
            const command* c = &commands[next++];
            if (strcmp(c->lever, "slew") == 0) {
                check(pivot_world_set_motor_velocity(world, slew, c->value), "slew lever");
            } else if (strcmp(c->lever, "hoist") == 0) {
                check(pivot_world_set_cable_reel_speed(world, wire, -c->value), "hoist lever");  /* up = reel in */
            } else if (strcmp(c->lever, "latch") == 0) {
                check(pivot_world_set_joint_enabled(world, latch, c->value != 0.0, 1), "latch lever");
            } else {
                fprintf(stderr, "crane_operator: %s: unknown lever '%s' (slew, hoist, latch)\n", script, c->lever);
                return 1;
            }
        }
        check(pivot_world_step(world, 1), "stepping");
        check(pivot_world_statistics_get(world, &statistics), "statistics");
        failures += statistics.solver_failures;
        broken += statistics.joints_broken;
        /* The frame's state. */
        check(pivot_world_joint_coordinate(world, slew, &angle, &rate), "slew state");
        check(pivot_world_joint_motor_effort(world, slew, &torque), "slew torque");
        check(pivot_world_cable_length(world, wire, &length), "wire length");
        check(pivot_world_joint_reaction(world, drum, &pull), "line pull");
        check(pivot_world_get_body(world, hook, &hook_state), "hook state");
        check(pivot_world_get_body(world, load, &load_state), "load state");
        check(pivot_world_joint_enabled(world, latch, &latched, NULL), "latch state");
        printf("%.4f,%.6f,%.6f,%.3f,%.4f,%.3f,%.4f,%.4f,%u\n", pivot_world_time(world), angle, rate, torque, length,
               magnitude(pull.force), hook_state.position[2], load_state.position[2], latched);
    }
    fprintf(stderr, "crane_operator: %u frames, last step %.1f us, solver failures %u, joints broken %u\n", frames,
            statistics.step_seconds * 1e6, failures, broken);
    pivot_world_destroy(world);
    pivot_engine_destroy(engine);
    return failures == 0 ? 0 : 1;
}
