// Switching solvers while a simulation runs (C++ wrapper <pivot/pivot.hpp>):
// a stack of five boxes at 60 Hz, one second with Dantzig, then one each
// with PGS, Newton and Dantzig again. The warm start (last step's impulses)
// is kept across a switch, so the stack does not jump: the program prints
// the top box's height around each switch and exits non-zero if any box
// moved by more than 1e-6 m at a switch or a solver failed. (Lemke is not
// one of them: on a stack with friction its pivoting can take seconds in a
// step, which the engine's step guard cuts at 1 s.)
#include <array>
#include <cmath>
#include <cstdio>
#include <string>

#include <pivot/pivot.hpp>

namespace {

std::string stack_scene(int boxes) {
    std::string bodies;
    for (int k = 0; k < boxes; ++k) {
        char body[320];
        std::snprintf(body, sizeof body,
                      R"(%s{ "name": "box%d", "mass": 10, "inertia": [0.4167, 0.4167, 0.4167], "position": [0, 0, %.3f],
                         "shapes": [ { "type": "box", "size": [0.5, 0.5, 0.5] } ] })",
                      k == 0 ? "" : ",", k, 0.25 + 0.5 * k);
        bodies += body;
    }
    return R"({ "format": "pivot-scene/1",
                "settings": { "timestep": 0.016666666666666666, "solver": "dantzig" },
                "bodies": [)" +
           bodies + R"(],
                "static_shapes": [ { "type": "plane", "normal": [0, 0, 1], "offset": 0 } ] })";
}

}  // namespace

int main() {
    try {
        const int boxes = 5;
        pivot::sdk::Engine engine;
        pivot::sdk::World world = engine.scene_from_json(stack_scene(boxes));
        double worst_jump = 0.0;
        unsigned failures = 0;
        world.step(60);  // one second with the scene's solver (Dantzig): the stack settles
        const char* solvers[] = {"pgs", "newton", "dantzig"};
        for (const char* solver : solvers) {
            std::array<double, 3> before[boxes];
            for (int k = 0; k < boxes; ++k) before[k] = world.body(static_cast<uint32_t>(k)).position;
            world.set_solver(solver);
            world.step();
            for (int k = 0; k < boxes; ++k) {
                const auto after = world.body(static_cast<uint32_t>(k)).position;
                worst_jump = std::fmax(worst_jump, std::fabs(after[2] - before[k][2]));
            }
            for (int frame = 1; frame < 60; ++frame) {
                world.step();
                failures += world.statistics().solver_failures;
            }
            std::printf("t = %.2f s after 1 s with %-8s top box z = %.9f m, solver failures %u\n", world.time(),
                        solver, world.body(boxes - 1).position[2], failures);
        }
        std::printf("largest move of a box across a switch: %.3g m\n", worst_jump);
        return worst_jump <= 1e-6 && failures == 0 ? 0 : 1;
    } catch (const pivot::sdk::Error& e) {
        std::fprintf(stderr, "solver_switching: %s\n", e.what());
        return 1;
    }
}
