#pragma once
// What a world keeps for its GSSSS step (gssss_world_step.cpp): the world
// as a constrained system, the integrator with its algorithmic state, and
// the state it left (to tell whether the world's state was changed since).
#include <cstdint>
#include <vector>

#include "integrate/gssss_integrator.hpp"
#include "integrate/world_system.hpp"

namespace pivot {

class GssssWorldStep {
public:
    GssssWorldStep(const WorldModel& model, const WorldState& state, StepScratch& scratch)
        : active(active_joints(model)), system(model, state, scratch), integrator(system, model.settings.gssss) {}
    // Per joint: whether it writes rows (enabled, not broken, not removed);
    // the step is made again when this changes (World::set_joint_enabled
    // keeps the scratch).
    static bool writes_rows(const JointRecord& r) { return !r.removed && r.enabled && !r.broken; }
    static std::vector<uint8_t> active_joints(const WorldModel& model) {
        std::vector<uint8_t> out(model.joints.size());
        for (size_t j = 0; j < out.size(); ++j) out[j] = writes_rows(model.joints[j]);
        return out;
    }
    bool same_joints(const WorldModel& model) const {  // no allocation: called every step
        if (active.size() != model.joints.size()) return false;
        for (size_t j = 0; j < active.size(); ++j) {
            if (active[j] != static_cast<uint8_t>(writes_rows(model.joints[j]))) return false;
        }
        return true;
    }
    std::vector<uint8_t> active;
    WorldSystem system;
    GssssIntegrator integrator;
    // The state the integrator left, to tell whether it was changed since.
    double time = 0.0;
    std::vector<double> q, v;
    bool started = false;
};

}  // namespace pivot
