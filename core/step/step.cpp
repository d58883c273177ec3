// One step of a world: the pipeline, stage by stage (ARCHITECTURE.md
// section 2). Each stage is a file of core/step/.
#include "step/step_stages.hpp"

namespace pivot {

void World::step() {
    if (!scratch_) {
        scratch_ = std::make_unique<StepScratch>();
        prepare_step(model_, *scratch_);
    }
    StepScratch& s = *scratch_;
    s.statistics = StepStatistics{};
    compute_element_dynamics(model_, state_, s);  // M, f, v* = v + h M^-1 f
    compute_joint_frames(model_, state_, s);      // joint frames: pose, twist, Jacobian
    collect_joint_rows(model_, s);                // rows J, phi, c, bounds; M^-1 J^T
    find_islands(model_, s);                      // independent groups of rows
    solve_islands(model_, state_, *solver_, s);   // z per island; v+ = v* + M^-1 J^T z
    integrate_positions(model_, state_, s);       // q+ = q + h N v+; commit the state
    report_joints(model_, state_, s);             // reactions, position errors
    s.statistics.islands = s.island_count;
    s.statistics.rows = static_cast<uint32_t>(s.rows.size());
}

}  // namespace pivot
