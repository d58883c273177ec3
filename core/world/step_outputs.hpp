#pragma once
// What a step reports (World::statistics(), reaction(), contacts()): the
// statistics of the last step, each joint's reaction and each contact's
// report, in StepOutputs, which the world keeps apart from the step's
// scratch; and the names of the step's stages, which the statistics time.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace pivot {

// Reported per joint after each step.
struct JointReaction {
    std::array<double, 3> force{};   // N, on body 2 at its frame origin, world (body 1 gets the opposite)
    std::array<double, 3> torque{};  // N m, on body 2 about its frame origin, world
    double position_error = 0.0;     // largest |violation| of its equality rows (m or rad)
    double motor_effort = 0.0;       // N or N m: the force of its motor row along the free coordinate
                                     // (PIVOT_ROW_MOTOR), 0 without one
};

// The stages of a step, in order (core/step/step.cpp), for timing.
enum class StepStage : uint32_t {
    dynamics,
    frames,
    rows,
    stiffness,
    factor,
    broadphase,
    narrowphase,
    contacts,
    islands,
    assembly,
    solve,
    integrate,
    projection,
    reports,
    count
};
const char* step_stage_name(StepStage stage);

// A contact of the last step (world frame; the normal from body 1 to body 2).
struct ContactReport {
    int32_t body1 = -1;  // body index, or -1 for the world (static shapes) or a cable
    int32_t body2 = -1;
    int32_t cable1 = -1;  // cable index when that side is a cable, else -1
    int32_t cable2 = -1;
    std::array<double, 3> point{};
    std::array<double, 3> normal{};
    double depth = 0.0;  // m, > 0 when penetrating
    double normal_force = 0.0;              // N (impulse / h) on body 2, along the normal
    std::array<double, 3> friction{};       // N, world: the tangential force on body 2
    std::array<double, 3> tangent1{};       // unit, world: the contact frame's first tangent
                                            // (a function of the normal alone, see contact_rows.cpp;
                                            // on a cable: along the cable)
    std::array<double, 2> friction_force{}; // N: `friction` along tangent1 and normal x tangent1
};

struct StepStatistics {
    // Wall time of each stage in the last step (s), indexed by StepStage.
    std::array<double, static_cast<size_t>(StepStage::count)> stage_seconds{};
    uint32_t islands = 0;
    uint32_t rows = 0;
    uint32_t solver_failures = 0;  // islands no solver solved to the acceptance threshold (the
                                   // best usable answer was applied, or none: zero impulses)
    uint32_t fallbacks = 0;        // islands solved by a fallback solver
    uint32_t direct_islands = 0;   // islands given to the direct solver (WorldSettings::direct_islands)
    uint32_t newton_islands = 0;   // islands given to the Newton solver (WorldSettings::newton_islands)
    uint32_t large_islands = 0;    // islands given to velocity PGS (WorldSettings::large_island_rows,
                                   // or max_assembled_values)
    uint32_t contacts_dropped = 0; // contacts past WorldSettings::max_contact_row_values, not solved
    uint32_t budget_limited = 0;   // islands whose solve the step budget cut short (best answer applied)
    uint32_t pooled_islands = 0;   // islands solved on the worker pool (WorldSettings::threads)
    uint32_t solver_iterations = 0;
    double solver_residual_max = 0.0;
    double max_joint_error = 0.0;  // m or rad
    // Divergence watch (core/step/divergence.cpp): the mechanical energy
    // after the step, how far it is above what the work done on the world
    // allows, and whether that or the joint error passed its threshold
    // (WorldSettings::divergence_*).
    double energy = 0.0;        // J: kinetic + gravitational + elastic
    double energy_excess = 0.0; // J: energy - (initial energy + work of forces and motors); > 0 is a gain
    bool diverging = false;
    // 1, or the substeps the step was taken in after a plugin discarded it
    // (PIVOT_DISCARD: 2, 4, ... up to 2^WorldSettings::discard_halvings at
    // h / substeps; core/step/discarded_step.cpp). The counts above are then
    // summed over the substeps, the stage times over every attempt, the
    // maxima taken over the substeps, and the energy is the last one's.
    uint32_t substeps = 1;
    // Joints that broke in this step (their reaction passed break_force or
    // break_torque): disabled from the next step on (World::joint_broken).
    uint32_t joints_broken = 0;
};

// What the last step reported, kept apart from its scratch (StepScratch:
// what the stages compute on the way), so the step's working memory can be
// rebuilt after a model change or split among workers without touching what
// the world reports. The stages write it (step_stages.hpp says which);
// World owns it and resets it when the model changes or a state is
// restored.
struct StepOutputs {
    StepStatistics statistics;
    std::vector<JointReaction> reactions;        // per joint
    std::vector<ContactReport> contact_reports;  // per contact of the step
    std::vector<uint32_t> broken_joints;         // the joints that broke in the step (reserved per joint)
};

}  // namespace pivot
