// A step that a plugin discarded (PIVOT_DISCARD: "outputs unusable for this
// step only; the host may retry (smaller step, other solver)", plugin.h).
// The other solver is the solver chain's business (lcp_solver_chain.cpp);
// here the smaller step: the step changed nothing, so it is taken again as
// 2, 4, ... 2^WorldSettings::discard_halvings substeps of h / substeps. The
// state is restored between attempts, so a step either advances the world
// by h or fails and leaves it as it was. The substeps share the step's
// budget (StepScratch::step_start is the step's start) and stop at its
// step_time_limit, so a retry is as bounded as any step.
#include <algorithm>
#include <array>
#include <chrono>

#include <fmt/format.h>

#include "step/step_stages.hpp"

namespace pivot {

namespace {

// Sets the model's timestep for the substeps, and back whatever happens.
class SubstepTimestep {
public:
    SubstepTimestep(double& timestep, double substep) : timestep_(timestep), step_(timestep) { timestep_ = substep; }
    ~SubstepTimestep() { timestep_ = step_; }
    SubstepTimestep(const SubstepTimestep&) = delete;
    SubstepTimestep& operator=(const SubstepTimestep&) = delete;

private:
    double& timestep_;
    const double step_;
};

// One substep's statistics added to the step's: counts summed, maxima kept,
// the energy and what follows from it the last substep's.
void add_substep(StepStatistics& step, const StepStatistics& substep) {
    for (size_t k = 0; k < step.stage_seconds.size(); ++k) step.stage_seconds[k] += substep.stage_seconds[k];
    step.islands = std::max(step.islands, substep.islands);
    step.rows = std::max(step.rows, substep.rows);
    step.solver_failures += substep.solver_failures;
    step.fallbacks += substep.fallbacks;
    step.direct_islands += substep.direct_islands;
    step.newton_islands += substep.newton_islands;
    step.large_islands += substep.large_islands;
    step.contacts_dropped += substep.contacts_dropped;
    step.budget_limited += substep.budget_limited;
    step.pooled_islands += substep.pooled_islands;
    step.solver_iterations += substep.solver_iterations;
    step.solver_residual_max = std::max(step.solver_residual_max, substep.solver_residual_max);
    step.max_joint_error = std::max(step.max_joint_error, substep.max_joint_error);
    step.energy = substep.energy;
    step.energy_excess = substep.energy_excess;
    step.diverging = step.diverging || substep.diverging;
}

}  // namespace

void require_usable(const CallResult& result) {
    if (result.ok()) return;
    if (result.status == PIVOT_DISCARD && !result.broken) throw StepDiscarded(result.message);
    throw Error(result.message);
}

void World::step_in_substeps(const StepDiscarded& discarded) {
    StepScratch& s = *scratch_;
    const double h = model_.settings.timestep;
    const double time_limit = model_.settings.step_time_limit;
    std::string reason = discarded.what();
    uint32_t tried = 1;                                        // substeps of the last attempt
    decltype(StepStatistics::stage_seconds) seconds = outputs_.statistics.stage_seconds;  // every attempt's
    if (model_.settings.discard_halvings == 0) reason += " (WorldSettings::discard_halvings is 0)";
    retry_backup_ = state_;
    for (uint32_t halvings = 1; halvings <= model_.settings.discard_halvings; ++halvings) {
        const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - s.step_start;
        if (time_limit > 0.0 && elapsed.count() >= time_limit) {
            reason += fmt::format(" (not retried further: the step_time_limit of {} s has passed)", time_limit);
            break;
        }
        tried = 1u << halvings;
        const SubstepTimestep timestep(model_.settings.timestep, h / tried);
        StepStatistics step;
        step.stage_seconds = seconds;
        try {
            for (uint32_t k = 0; k < tried; ++k) {
                run_step_stages();
                add_substep(step, outputs_.statistics);
            }
            step.substeps = tried;
            outputs_.statistics = step;
            return;
        } catch (const StepDiscarded& again) {
            state_ = retry_backup_;
            outputs_.broken_joints.clear();  // that attempt's breaks are undone with it
            seconds = step.stage_seconds;
            for (size_t k = 0; k < seconds.size(); ++k) seconds[k] += outputs_.statistics.stage_seconds[k];  // its part
            reason = again.what();
        } catch (...) {
            state_ = retry_backup_;  // a substep failed otherwise: the step fails as a whole
            outputs_.broken_joints.clear();
            throw;
        }
    }
    outputs_.statistics = StepStatistics{};
    outputs_.statistics.stage_seconds = seconds;
    throw Error(tried == 1 ? fmt::format("step discarded, not retried: {}", reason)
                           : fmt::format("step discarded at h = {} s and again in {} substeps: {}", h, tried,
                                         reason));
}

}  // namespace pivot
