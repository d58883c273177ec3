#pragma once
// What a world keeps for its GSSSS step (gssss_world_step.cpp): the world
// as a constrained system, the integrator with its algorithmic state, and
// the state it left (to tell whether the world's state was changed since).
#include <vector>

#include "integrate/gssss_integrator.hpp"
#include "integrate/world_system.hpp"

namespace pivot {

class GssssWorldStep {
public:
    GssssWorldStep(const WorldModel& model, const WorldState& state, StepScratch& step_scratch)
        : scratch(&step_scratch), system(model, state, step_scratch), integrator(system, model.settings.gssss) {}
    const StepScratch* scratch;  // the scratch it was made with (a new one: made again)
    WorldSystem system;
    GssssIntegrator integrator;
    // The state the integrator left, to tell whether it was changed since.
    double time = 0.0;
    std::vector<double> q, v;
    bool started = false;
};

}  // namespace pivot
