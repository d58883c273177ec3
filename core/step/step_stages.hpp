#pragma once
// The stages of one step, in the order World::step calls them (step.cpp).
// Each throws pivot::Error when a plugin breaks its contract; nothing of the
// world's state changes before the last stage, so a failed step leaves the
// world as it was.
#include "step/step_scratch.hpp"

namespace pivot {

class LcpSolverChain;

// Sizes the scratch for the model (allocation happens here only).
void prepare_step(const WorldModel& model, StepScratch& scratch);

// mass_blocks.cpp: x <- Mbar^-1 x over a mass block (x: the block's nv
// values, zero before `first`); and a row's block on `element`, whose
// Jacobian (the element's nv values) was just appended at
// scratch.jacobian[offset]: its response is computed and the block added to
// the row.
void solve_mass_block(const WorldModel& model, const StepScratch& scratch, uint32_t block, double* x, uint32_t first);
void add_row_block(const WorldModel& model, StepScratch& scratch, ProblemRow& row, uint32_t element, uint32_t offset);

// element_dynamics.cpp: mass matrices (factored), forces, free velocity;
// internal rows eliminated into the mass blocks.
void compute_element_dynamics(const WorldModel& model, const WorldState& state, StepScratch& scratch);

// joint_frames.cpp: world pose, twist and Jacobian of every joint frame.
void compute_joint_frames(const WorldModel& model, const WorldState& state, StepScratch& scratch);

// joint_rows.cpp: rows of every joint, chained to element velocities.
void collect_joint_rows(const WorldModel& model, StepScratch& scratch);

// collision_detection.cpp: the broadphase (shapes placed at the bodies'
// poses, candidate pairs) and the narrowphase (contact points of the pairs).
void find_shape_pairs(const WorldModel& model, const WorldState& state, StepScratch& scratch);
void find_contacts(const WorldModel& model, StepScratch& scratch);

// contact_rows.cpp: for the contacts found, the contact points' Jacobians,
// the friction models' rows (chained to element velocities) and explicit
// impulses (into v*).
void collect_contact_rows(const WorldModel& model, const WorldState& state, StepScratch& scratch);

// islands.cpp: elements coupled by rows are solved together.
void find_islands(const WorldModel& model, StepScratch& scratch);

// solve_islands.cpp: per island the problem A z = ... (assembled dense or
// CSC, as the primary solver reads it), then solved by the chain; impulses
// for the next warm start; v+ = v* + M^-1 J^T z (into the scratch).
void assemble_islands(const WorldModel& model, const LcpSolverChain& solver, StepScratch& scratch);
void solve_islands(const WorldModel& model, const WorldState& state, LcpSolverChain& solver, StepScratch& scratch);

// integrate_positions.cpp: q+ = q + h N(q) v+ through the element plugins,
// then commits v+ and q+ to the state.
void integrate_positions(const WorldModel& model, WorldState& state, StepScratch& scratch);

// joint_reports.cpp: reaction forces and position errors of the joints.
void report_joints(const WorldModel& model, const WorldState& state, StepScratch& scratch);

}  // namespace pivot
