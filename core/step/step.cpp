// One step of a world: the pipeline, stage by stage (docs/engine.md
// section 2). Each stage is a file of core/step/.
#include <chrono>

#include "integrate/gssss_world_step.hpp"
#include "step/step_stages.hpp"

namespace pivot {

namespace {

// Times one stage of a step into the statistics (no allocation).
class StageTimer {
public:
    explicit StageTimer(StepStatistics& statistics) : statistics_(statistics), last_(Clock::now()) {}
    void done(StepStage stage) {
        const auto now = Clock::now();
        statistics_.stage_seconds[static_cast<size_t>(stage)] = std::chrono::duration<double>(now - last_).count();
        last_ = now;
    }

private:
    using Clock = std::chrono::steady_clock;
    StepStatistics& statistics_;
    Clock::time_point last_;
};

}  // namespace

const char* step_stage_name(StepStage stage) {
    static const char* const names[] = {"dynamics",    "frames",   "rows",    "stiffness", "factor",
                                        "broadphase",  "narrowphase", "contacts", "islands", "assembly",
                                        "solve",       "integrate",   "projection", "reports"};
    return stage < StepStage::count ? names[static_cast<size_t>(stage)] : "unknown";
}

void World::step() {
    if (!scratch_) {
        ensure_material_pairs();
        scratch_ = std::make_unique<StepScratch>();
        prepare_step(model_, *scratch_);
        gssss_.reset();  // the GSSSS step's view of the world is made again with the scratch
    }
    if (model_.settings.integrator == Integrator::gssss) {  // core/integrate/gssss_world_step.cpp
        step_gssss();
        return;
    }
    prepare_workers();
    scratch_->step_start = std::chrono::steady_clock::now();  // substeps share the step's budget
    outputs_.broken_joints.clear();
    reel_cables();  // winches: the cables' deployed lengths for this step
    reel_ropes();   // and the ropes' lengths
    try {
        try {
            run_step_stages();
        } catch (const StepDiscarded& discarded) {  // nothing committed: retried smaller (discarded_step.cpp)
            outputs_.broken_joints.clear();
            step_in_substeps(discarded);
        }
    } catch (...) {
        unreel_cables();  // a failed step leaves the world as it was
        unreel_ropes();
        throw;
    }
    break_joints();  // those whose reaction passed their threshold, from the next step on
    if (friction_profiles_changed_) drop_unused_friction_profiles();  // bodies' own friction values, once moved
}

void World::run_step_stages() {
    StepScratch& s = *scratch_;
    const bool pooled = pool_ && !worker_chains_.empty();
    const StepSolvers solvers{*solver_,           direct_.get(),
                              newton_.get(),      large_.get(),
                              pooled ? pool_.get() : nullptr, pooled ? &worker_chains_ : nullptr};
    StepStatistics& statistics = outputs_.statistics;
    s.after_solve_seconds = 0.0;  // the last step's stages after the solve, for the step budget
    for (StepStage k : {StepStage::integrate, StepStage::projection, StepStage::reports}) {
        s.after_solve_seconds += statistics.stage_seconds[static_cast<size_t>(k)];
    }
    statistics = StepStatistics{};
    StageTimer timer(statistics);
    start_energy_watch(model_, state_, s);        // the energy the world starts from (once)
    compute_element_dynamics(model_, state_, s);  // M, f (internal rows eliminated)
    timer.done(StepStage::dynamics);
    compute_joint_frames(model_, state_, s);      // joint frames: pose, twist, Jacobian
    timer.done(StepStage::frames);
    collect_joint_rows(model_, state_, s);        // rows J, phi, c, bounds
    collect_rope_rows(model_, state_, s);         // a row per rope over its sheaves
    timer.done(StepStage::rows);
    add_geometric_stiffness(model_, state_, s);   // M += h^2 D: the joints' turning forces
    timer.done(StepStage::stiffness);
    factor_mass_blocks(model_, state_, s);        // Mbar factored; v* = v + h Mbar^-1 f; Mbar^-1 J^T
    timer.done(StepStage::factor);
    find_shape_pairs(model_, state_, s);          // broadphase: shapes placed, candidate pairs
    timer.done(StepStage::broadphase);
    find_contacts(model_, s);                     // narrowphase: contact points of the pairs
    make_friction_pairs_met();                    // bodies with their own friction values: their pairs' instances
    timer.done(StepStage::narrowphase);
    collect_contact_rows(model_, state_, pool_.get(), s, statistics);  // friction models: rows, explicit impulses
    timer.done(StepStage::contacts);
    find_islands(model_, s);                      // independent groups of rows
    timer.done(StepStage::islands);
    assemble_islands(model_, solvers, s);         // per island b, bounds, factored form (A if read)
    timer.done(StepStage::assembly);
    solve_islands(model_, state_, solvers, s, statistics);  // solve per island; v+ = v* + M^-1 J^T z
    timer.done(StepStage::solve);
    integrate_positions(model_, state_, s);       // q+ = q + h N v+
    timer.done(StepStage::integrate);
    project_positions(model_, state_, solvers, s);   // q+ back onto the rigid joints
    commit_state(model_, state_, s);                 // v+, q+, impulses become the state
    timer.done(StepStage::projection);
    report_joints(model_, state_, s, outputs_);   // reactions, position errors
    report_contacts(model_, pool_.get(), s, outputs_);  // contact points and forces
    watch_divergence(model_, state_, s, statistics);    // energy against work done, joint error
    timer.done(StepStage::reports);
    statistics.islands = s.island_count;
    statistics.rows = static_cast<uint32_t>(s.rows.size());
}

}  // namespace pivot
