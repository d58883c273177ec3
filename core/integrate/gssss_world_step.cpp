// The GSSSS step of a world (WorldSettings::integrator = gssss): the world
// as a ConstrainedSystem (world_system.hpp) advanced by the GSSSS
// integrator (gssss_integrator.hpp), in place of the semi-implicit stages.
// Smooth systems only: a step that starts with shapes in contact fails
// (the nonsmooth part is the semi-implicit step's; docs/engine.md
// "Integrators"). The integrator keeps its algorithmic accelerations and
// multipliers from step to step; when the world's state was changed from
// outside (a body moved, a state restored) or its model changed, it starts
// again from the state as it is (consistent a0, lambda0).
#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "integrate/gssss_world_step.hpp"
#include "step/step_stages.hpp"

namespace pivot {

void World::set_integrator(Integrator integrator, const GssssSettings& gssss) {
    check_gssss_settings(gssss);
    model_.settings.integrator = integrator;
    model_.settings.gssss = gssss;
    gssss_.reset();
}

void World::step_gssss() {
    StepScratch& s = *scratch_;
    const auto start = std::chrono::steady_clock::now();
    const double h = model_.settings.timestep;
    // Smooth only: the shapes' contacts at the start of the step (within
    // the contact margin plus a step's motion at the current velocities).
    s.v_free.assign(state_.v.begin(), state_.v.end());
    find_shape_pairs(model_, state_, s);
    find_contacts(model_, s);
    if (s.collision_possible && s.collision.contacts().size() > 0) {
        throw Error(fmt::format("t = {} s: {} contact points between shapes; the gssss integrator handles smooth "
                                "systems only (no contacts yet): use the semi-implicit step, or shapes that do not "
                                "touch",
                                state_.time, s.collision.contacts().size()));
    }
    for (const CableRecord& cable : model_.cables) {
        if (!cable.removed && cable.reel_speed != 0.0) {
            throw Error(fmt::format("cable '{}': reel_speed {} m/s: the gssss integrator keeps a cable's length "
                                    "(no winch yet): use the semi-implicit step, or reel_speed 0",
                                    cable.name, cable.reel_speed));
        }
    }
    // Made with the scratch (World::step resets it when it makes a new one)
    // and again when a joint was turned on or off.
    if (!gssss_ || !gssss_->same_joints(model_)) {
        gssss_.reset();  // before the new one is made: a failure leaves none
        gssss_ = std::make_unique<GssssWorldStep>(model_, state_, s);
    }
    GssssWorldStep& g = *gssss_;
    GssssIntegrator& integrator = g.integrator;
    const auto n = static_cast<Eigen::Index>(model_.nv);
    const auto nq = static_cast<Eigen::Index>(model_.nq);
    if (!g.started || g.time != state_.time || g.q != state_.q || g.v != state_.v) {
        integrator.start(state_.time, Eigen::Map<const Eigen::VectorXd>(state_.q.data(), nq),
                         Eigen::Map<const Eigen::VectorXd>(state_.v.data(), n));
        g.started = true;
    }
    const GssssStepReport report = integrator.step(h);
    if (!report.converged) {
        g.started = false;  // the next attempt starts again from the state
        throw Error(fmt::format("t = {} s: the gssss step did not converge in {} Newton iterations (largest change "
                                "{:.3g}, residual {:.3g}); the world is as before the step: try a smaller timestep "
                                "or a dissipative member (rho < 1)",
                                state_.time, report.iterations, report.increment, report.residual));
    }
    std::copy_n(integrator.configuration().data(), nq, state_.q.begin());
    std::copy_n(integrator.velocity().data(), n, state_.v.begin());
    state_.time = integrator.time();
    // The rows' impulses in the engine's sign (a row force is +J^T f; the
    // integrator's lambda acts as -C^T lambda), for reports and for a switch
    // back to the semi-implicit step.
    const auto& rows = g.system.rows();
    std::fill(state_.joint_impulses.begin(), state_.joint_impulses.end(), 0.0);
    for (size_t i = 0; i < rows.size(); ++i) {
        const JointGroup& jg = model_.joint_groups[rows[i].group];
        state_.joint_impulses[jg.impulse_offset + static_cast<size_t>(rows[i].member) * jg.max_rows + rows[i].slot] =
            -h * integrator.multipliers()(static_cast<Eigen::Index>(i));
    }
    g.system.reactions(integrator.configuration(), integrator.multipliers(), outputs_.reactions);
    outputs_.contact_reports.clear();
    g.time = state_.time;
    g.q.assign(state_.q.begin(), state_.q.end());
    g.v.assign(state_.v.begin(), state_.v.end());

    StepStatistics& statistics = outputs_.statistics;
    statistics = StepStatistics{};
    statistics.islands = rows.empty() ? 0 : 1;
    statistics.rows = static_cast<uint32_t>(rows.size());
    statistics.solver_iterations = report.iterations;
    statistics.solver_residual_max = report.residual;
    statistics.energy = energy().total();
    for (const JointReaction& r : outputs_.reactions) {
        statistics.max_joint_error = std::max(statistics.max_joint_error, r.position_error);
    }
    statistics.stage_seconds[static_cast<size_t>(StepStage::integrate)] =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace pivot
