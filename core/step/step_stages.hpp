#pragma once
// The stages of one step, in the order World::step calls them (step.cpp).
// Each throws pivot::Error when a plugin breaks its contract or declares a
// failure (StepDiscarded for PIVOT_DISCARD); nothing of the world's state
// changes before commit_state, so a failed step leaves the world as it was.
#include "plugin_host/checked_calls.hpp"
#include "step/step_scratch.hpp"

namespace pivot {

// Throws when a plugin call's outputs are unusable: StepDiscarded when the
// plugin declared PIVOT_DISCARD (this step only: World::step retries it in
// smaller steps), Error for any other failure or a broken contract.
void require_usable(const CallResult& result);

// a . b over n values.
inline double dot(const double* a, const double* b, uint32_t n) {
    double sum = 0.0;
    for (uint32_t i = 0; i < n; ++i) sum += a[i] * b[i];
    return sum;
}

// J v of a row: its Jacobian on each of its blocks times those blocks'
// velocities in v (model.nv values, e.g. v* or v+), summed block by block.
inline double row_velocity(const WorldModel& model, const StepScratch& scratch, const ProblemRow& row,
                           const double* v) {
    double jv = 0.0;
    for (uint32_t b = 0; b < row.block_count; ++b) {
        const RowBlock& block = row.blocks[b];
        jv += dot(scratch.jacobian.data() + block.offset, v + model.blocks[block.block].v_offset + block.first,
                  block.count);
    }
    return jv;
}

// joint_frames.cpp: the frames of f.points of group g at `batch` (one
// material_frames call) into f's outputs, sized to the points (within the
// capacity prepare_step gave them); throws as require_usable does.
void ask_material_frames(const ElementGroup& g, const pivot_element_batch& batch, StepScratch::MaterialFrames& f);

class LcpSolverChain;
class WorkerPool;

// The solvers of a step: the world's chain, and the direct, Newton and
// large-island chains for the islands they take (WorldSettings::
// direct_islands, newton_islands, large_island_rows; null when off). assemble_islands decides which island
// goes where (StepScratch::island_solver).
// With a pool (WorldSettings::threads > 1), `workers` holds for each
// thread beyond the calling one its own clones of the four chains
// (IslandChains, world.hpp).
struct StepSolvers {
    LcpSolverChain& chain;
    LcpSolverChain* direct = nullptr;
    LcpSolverChain* newton = nullptr;
    LcpSolverChain* large = nullptr;
    WorkerPool* pool = nullptr;                        // null: the calling thread only
    const std::vector<IslandChains>* workers = nullptr;  // [worker - 1] for workers >= 1
    // The chain of `worker` (0: the calling thread) for islands of kind
    // `which` (StepScratch::IslandSolver; kIslandTooLarge: the world's
    // chain, which does not solve them), and for island i.
    LcpSolverChain& chain_for(uint8_t which, uint32_t worker = 0) const {
        const IslandChains own{&chain, direct, newton, large};
        const IslandChains& c = worker == 0 ? own : (*workers)[worker - 1];
        switch (which) {
            case StepScratch::kIslandDirect: return *c.direct;
            case StepScratch::kIslandNewton: return *c.newton;
            case StepScratch::kIslandLarge: return *c.large;
            default: return *c.chain;
        }
    }
    LcpSolverChain& for_island(const StepScratch& scratch, uint32_t island, uint32_t worker = 0) const {
        return chain_for(scratch.island_solver[island], worker);
    }
};

// Sizes the scratch for the model (allocation happens here only).
void prepare_step(const WorldModel& model, StepScratch& scratch);
// The body pairs the broadphase skips: those joined by an enabled joint
// (prepare_step, and again when a joint is enabled, disabled or breaks;
// allocates: an event, not a step).
void update_excluded_pairs(const WorldModel& model, StepScratch& scratch);
// After World::set_joint_enabled moved joint j's frame 2 on its element: the
// material point the frames stage asks for it (prepare_step.cpp).
void update_attachment_point(const WorldModel& model, StepScratch& scratch, uint32_t joint);

// mass_blocks.cpp: x <- Mbar^-1 x over a mass block (x: the block's nv
// values, zero before `first`); a row's block on `element`, whose Jacobian
// (the element's nv values) was just appended at scratch.jacobian[offset],
// added to the row with its response Mbar^-1 J^T (computed now when
// `solve`, else by solve_row_responses once the blocks are factored).
void solve_mass_block(const WorldModel& model, const StepScratch& scratch, uint32_t block, double* x, uint32_t first);
void add_row_block(const WorldModel& model, StepScratch& scratch, ProblemRow& row, uint32_t element, uint32_t offset,
                   bool solve = true);
void solve_row_responses(const WorldModel& model, StepScratch& scratch, uint32_t first_row, uint32_t end_row,
                         WorkerPool* pool = nullptr);
// A row block's response again from its Jacobian (scratch.jacobian at the
// block's offset) through the factored mass block.
void compute_row_response(const WorldModel& model, StepScratch& scratch, const RowBlock& block);

// element_dynamics.cpp: mass matrices, forces and the right-hand side of
// the free velocity, internal rows eliminated into the mass blocks; then,
// once the joints' stiffness is in them, the blocks factored, the free
// velocity v* solved and the joint rows' responses computed.
void compute_element_dynamics(const WorldModel& model, const WorldState& state, StepScratch& scratch);
void factor_mass_blocks(const WorldModel& model, const WorldState& state, StepScratch& scratch);

// joint_frames.cpp: world pose, twist and Jacobian of every joint frame.
void compute_joint_frames(const WorldModel& model, const WorldState& state, StepScratch& scratch);
// The joints' rows at the configuration q_all (model.nq values), into the
// end_* buffers of each joint group.
void evaluate_joint_rows_at(const WorldModel& model, const WorldState& state, StepScratch& scratch,
                            const double* q_all);

// joint_rows.cpp: rows of every joint, chained to element velocities
// (responses pending: the mass blocks are not factored yet); and one row's
// side chained: out = row_side^T J_frame (6 values of the row's 12 on that
// frame, the frame's 6 x nv twist Jacobian, column-major).
void collect_joint_rows(const WorldModel& model, const WorldState& state, StepScratch& scratch);
void chain_frame_jacobian(const double* row_side, const double* frame_jacobian, uint32_t nv, double* out);
// The wrench J_side^T f (6 values, world) that member `member`'s first
// `rows` rows apply at its frame `side`: forces per row slot (count x
// max_rows) and the rows' 12-value Jacobians, as the rows stage or
// evaluate_joint_rows_at wrote them (geometric stiffness: the lever arms).
void frame_wrench(const double* forces, const double* jacobians, uint32_t max_rows, uint32_t member, uint32_t rows,
                  uint32_t side, double* wrench);

// rope_rows.cpp: one row per rope, after the joints' (responses pending too).
void collect_rope_rows(const WorldModel& model, const WorldState& state, StepScratch& scratch);

// geometric_stiffness.cpp: the joints' geometric stiffness at last step's
// forces, on the frames' relative motion, into the mass blocks.
void add_geometric_stiffness(const WorldModel& model, const WorldState& state, StepScratch& scratch);

// collision_detection.cpp: the broadphase (shapes placed at the bodies'
// poses, candidate pairs) and the narrowphase (contact points of the pairs).
void find_shape_pairs(const WorldModel& model, const WorldState& state, StepScratch& scratch);
void find_contacts(const WorldModel& model, StepScratch& scratch);

// contact_rows.cpp: for the contacts found, the contact points' Jacobians,
// the friction models' rows (chained to element velocities) and explicit
// impulses (into v*). With a pool (and no cables) the contacts' inputs,
// rows and responses are computed on it, each into its own slots: the
// result is the same bit for bit. Contacts past the step's memory cap are
// dropped and counted in statistics.contacts_dropped.
void collect_contact_rows(const WorldModel& model, const WorldState& state, WorkerPool* pool, StepScratch& scratch,
                          StepStatistics& statistics);

// islands.cpp: elements coupled by rows are solved together.
void find_islands(const WorldModel& model, StepScratch& scratch);

// assemble_islands.cpp: per island the problem A z = ... (its factored form,
// and A dense or CSC as the primary solver reads it) and the chain that
// solves it; solve_islands.cpp: solved by the chain; impulses for the next
// warm start; v+ = v* + M^-1 J^T z (into the scratch); how the solves went
// into the statistics.
// The matrix A an island's problem carries besides its factored form
// (plugin_solver.h, ABI 1.4; an island with friction coupling blocks has
// no factored form and gets CSC for `none`).
enum class MatrixForm { dense, sparse, none };
MatrixForm matrix_form_for(const LcpSolverChain& solver);
void assemble_islands(const WorldModel& model, const StepSolvers& solvers, StepScratch& scratch);
// Island i's problem as `solver` (its primary) reads it: A dense, CSC or
// not at all, and the mass blocks (ABI 1.5) when a solver of the chain reads them.
void assemble_island(const WorldModel& model, StepScratch& scratch, uint32_t island, const LcpSolverChain& solver,
                     LcpProblem& problem);
void solve_islands(const WorldModel& model, const WorldState& state, const StepSolvers& solvers, StepScratch& scratch,
                   StepStatistics& statistics);
// After an island's answer is applied (solve_islands): the friction impulses
// of each redundant contact manifold replaced by their least-norm split, the
// same generalized impulse (friction_split.cpp).
void split_friction_least_norm(const WorldModel& model, StepScratch& scratch, uint32_t island);

// integrate_positions.cpp: q+ = q + h N(q) v+ through the element plugins
// (into the scratch); commit_state makes v+ and q+ the state.
void integrate_positions(const WorldModel& model, const WorldState& state, StepScratch& scratch);
void commit_state(const WorldModel& model, WorldState& state, StepScratch& scratch);

// project_positions.cpp: q+ moved back onto the rigid joints (one
// mass-weighted Gauss-Newton step), velocities untouched.
void project_positions(const WorldModel& model, const WorldState& state, const StepSolvers& solvers,
                       StepScratch& scratch);

// joint_reports.cpp: reaction forces and position errors of the joints
// (out.reactions, out.statistics.max_joint_error).
void report_joints(const WorldModel& model, const WorldState& state, const StepScratch& scratch, StepOutputs& out);
// contact_reports.cpp: each contact's point, normal, depth and forces into
// out.contact_reports (on the pool when given; each contact writes its own).
// Reads the contacts' linear impulses commit_state computed.
void report_contacts(const WorldModel& model, WorkerPool* pool, const StepScratch& scratch, StepOutputs& out);

// divergence.cpp: the energy bookkeeping started (before a step, when
// invalid), then after the step the energy against the work done on the
// world, and the joint error, against the divergence thresholds.
void start_energy_watch(const WorldModel& model, const WorldState& state, StepScratch& scratch);
void watch_divergence(const WorldModel& model, WorldState& state, const StepScratch& scratch,
                      StepStatistics& statistics);

}  // namespace pivot
