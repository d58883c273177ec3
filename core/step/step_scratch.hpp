#pragma once
// Everything a step computes on the way, sized once per model (prepare) so
// that a step allocates nothing after the first. Each stage of core/step/
// reads the model and the state and writes only its own part of this.
#include <chrono>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "collision/collision_world.hpp"
#include "step/chain_matrix.hpp"
#include "lcp/lcp_problem.hpp"
#include "lcp/lcp_solver_chain.hpp"
#include "world/world.hpp"

namespace pivot {

// The part of a row acting on one mass block (WorldModel::blocks): its
// Jacobian on one element, `count` values at `offset` in
// StepScratch::jacobian, acting on the block's velocities first ..
// first + count; and its response Mbar^-1 J^T over the whole block (the
// block's nv values at `response` in StepScratch::response; for a rigid
// body the two have the same length).
struct RowBlock {
    uint32_t block;     // mass block
    uint32_t offset;    // into jacobian
    uint32_t first;     // the block velocity the Jacobian starts at
    uint32_t count;     // Jacobian length (the element's nv)
    uint32_t response;  // into response
};

// One row of the per-step problem: a joint's, a contact's or a rope's.
// A joint or contact row acts on two elements at most; a rope's on up to
// RopeRecord::kMaxBodies.
constexpr uint32_t kMaxRowBlocks = 4;
struct ProblemRow {
    pivot_row row;           // as the producer wrote it (bounds in N / N m; row.findex within its item)
    int32_t scaling_row = -1;  // row.findex as an index into StepScratch::rows (the row whose
                               // impulse scales this one's bounds), or -1
    uint32_t block_count = 0;
    RowBlock blocks[kMaxRowBlocks];
    int32_t contact = -1;    // contact index of this step, or -1 for a joint or rope row
    int32_t rope = -1;       // rope index (WorldModel::ropes), or -1 for a joint or contact row
    uint32_t joint_group = 0;
    uint32_t member = 0;     // joint within its group
    uint32_t slot = 0;       // row within the joint (or contact): where its impulse is kept
    uint32_t island = 0;
    uint32_t index_in_island = 0;
    double regularization = 0.0;  // relative: adds regularization * A_kk to the diagonal (rigid contact rows)
    // A row acting on no velocity (block_count 0, e.g. the polyhedral cone's
    // auxiliary row) belongs to the island of this mass block.
    uint32_t anchor_block = 0;
    // Contact rows of a model with a coupling block (PIVOT_FRICTION_CAP_
    // STANDARD_LCP): the contact's m x m block (column-major) starts at
    // contact_coupling[coupling]; the contact's row r is s.rows[contact_row0 + r].
    int32_t coupling = -1;
    uint32_t coupling_size = 0;
    uint32_t contact_row0 = 0;
};

// A friction row of an island that may take part in the least-norm split of
// its manifold (friction_split.cpp): the manifold's key and the row's index
// in the island.
struct FrictionSplitRow {
    int64_t manifold;
    uint32_t row;
};

// StepScratch::collision_cable of a disabled body's collision body.
constexpr int32_t kCollidesWithNothing = -2;

struct StepScratch {
    // Material points of one element group asked of material_frames in one
    // call (ask_material_frames, step_stages.hpp) and the frames it wrote:
    // per point a pose (7), a twist (6) and a 6 x nv Jacobian.
    struct MaterialFrames {
        std::vector<pivot_material_point> points;
        PluginOutput<double> poses, twists, jacobians;
    };
    // Element dynamics: per element an nv x nv mass matrix, Cholesky-factored
    // in place (lower triangle); forces; the free velocity v* = v + h M^-1 f.
    std::vector<uint32_t> mass_offset;  // per element, into mass
    PluginOutput<double> mass;
    // M^-1 of each factored dense block with nv <= kMaxInverseNv (same
    // layout as mass; factor_mass_blocks): rows' responses and contacts'
    // effective masses multiply by it instead of solving with the factor.
    std::vector<double> mass_inverse;
    std::vector<double> v_free;         // model.nv
    // Before factor_mass_blocks, v_free holds a right-hand side: the
    // momentum M v + h f - ... of an element with internal rows (and of a
    // chain), else the increment h f (v* = v + Mbar^-1 h f).
    std::vector<uint8_t> momentum_rhs;  // per element
    // Per element group: generalized forces (count x nv, per element) and
    // the internal rows with their stiffness, eliminated into the mass
    // blocks (element_dynamics.cpp).
    struct InternalRows {
        uint32_t max_rows = 0;
        bool mass_ready = false;            // a chain's constant mass matrices are in `mass`
        PluginOutput<double> forces;
        PluginOutput<pivot_row> rows;        // count x max_rows
        PluginOutput<double> jacobians;      // count x max_rows x nv
        PluginOutput<uint32_t> row_counts;   // count
        PluginOutput<double> stiffness;      // count x nv x nv
        std::vector<double> element_matrix; // nv x nv, one element's Mbar
        std::vector<double> element_rhs;    // nv
    };
    std::vector<InternalRows> internal_rows;  // per element group
    // The damped bodies of the group being computed (WorldModel::
    // element_damping): their frames at material point (0, 0, 0), whose
    // Jacobians give the damping matrix; reserved for every element.
    MaterialFrames damped;
    // Chains (cables): one sparse factorization per chain block.
    std::vector<std::unique_ptr<ChainMatrix>> chains;
    std::vector<uint32_t> block_chain;     // per block: index into chains, or UINT32_MAX
    std::vector<double> block_rhs;         // largest block nv: one solve's right-hand side

    // Joint frames: per joint, 2 attachments; the 6 x nv Jacobian of each
    // attachment's twist w.r.t. its element's velocities.
    std::vector<uint32_t> frame_jacobian_offset;  // per joint x 2
    std::vector<double> frame_jacobian;
    // Material points asked of each element group in one batched call.
    struct GroupPoints : MaterialFrames {
        std::vector<uint32_t> attachment;  // joint * 2 + side, per point
        std::vector<double> wrenches;          // per point 6: the joint's wrench on it (geometric stiffness)
        PluginOutput<double> frame_stiffness;  // per point 36 (plugin_element.h frame_stiffness)
    };
    std::vector<GroupPoints> group_points;  // per element group

    // Per joint group: the frames given to the plugin and the rows it wrote.
    struct JointGroupRows {
        std::vector<double> pose1, pose2;    // count x 7, world
        std::vector<double> twist1, twist2;  // count x 6, world
        PluginOutput<pivot_row> rows;        // count x max_rows
        PluginOutput<double> jacobians;      // count x max_rows x 12
        PluginOutput<uint32_t> row_counts;   // count
        std::vector<double> forces;          // count x max_rows: last step's row forces (N, N m)
        // The rows at the end of the step, q+ (evaluate_joint_rows_at), for
        // the position projection.
        std::vector<double> end_pose1, end_pose2;  // count x 7
        PluginOutput<pivot_row> end_rows;          // count x max_rows
        PluginOutput<double> end_jacobians;        // count x max_rows x 12
        PluginOutput<uint32_t> end_counts;         // count
        PluginOutput<double> stiffness;      // count x 144: geometric stiffness on the frames
    };
    std::vector<JointGroupRows> joint_rows;  // per joint group

    // Geometric stiffness of the joints (geometric_stiffness.cpp), per
    // element: the implicit part D (nv x nv at mass_offset) and the explicit
    // force change c (nv at the element's velocities), added to the mass
    // blocks before they are factored.
    std::vector<double> joint_stiffness;
    std::vector<double> joint_stiffness_force;
    std::vector<uint8_t> stiffened;  // per element: D or c is nonzero
    std::vector<double> element_stiffness_number;  // per element: h^2 lambda_max(M^-1 D)
    std::vector<double> element_stiffness_bound;   // per element 3: a bound of X's rotation diagonal (surely_resolved)
    std::vector<double> joint_split;               // per joint 84: D_1, D_2, K_rel t
    std::vector<uint8_t> joint_split_active;       // per joint
    std::vector<double> joint_strength;            // per joint: alpha of this step (0: resolved)
    // M's Cholesky factor from the stiffness numbers (same layout as mass):
    // an element no joint stiffens gets it as its block's factor, and the
    // factor stage does not factor it again (mass_factored).
    std::vector<double> mass_factor;
    std::vector<uint8_t> mass_factor_ready;  // per element
    std::vector<uint8_t> mass_factored;      // per element: mass holds the factor already
    uint32_t joint_rows_end = 0;  // rows [0, joint_rows_end): joints' and ropes', responses computed when factored

    // Ropes (rope_rows.cpp): their route points' material frames, asked of
    // each element group in one call; per route point (numbered rope by
    // rope) its group and its index among the group's points; per rope its
    // route and path in world coordinates (reused).
    std::vector<MaterialFrames> rope_frames;      // per element group
    std::vector<uint32_t> rope_point_start;       // per rope + 1: its first point in the numbering
    std::vector<uint32_t> rope_point_group;       // per rope point: element group, or UINT32_MAX (world)
    std::vector<uint32_t> rope_point_index;       // per rope point: index in its group's rope_frames
    std::vector<RopeVertex> rope_route;
    RopePath rope_path;
    std::vector<double> rope_tensions;            // like WorldState::rope_tensions (N), for this step

    // Rows of this step and their Jacobian blocks.
    std::vector<ProblemRow> rows;
    std::vector<double> jacobian;  // J blocks
    std::vector<double> response;  // M^-1 J^T blocks (same layout)

    // Islands: union-find over mass blocks; rows grouped by island.
    std::vector<uint32_t> island_parent;   // per block
    std::vector<uint32_t> island_of_root;  // per block (root -> island index)
    std::vector<uint32_t> island_row_start;  // islands + 1
    std::vector<uint32_t> island_rows;       // row indices, grouped by island
    std::vector<uint32_t> block_row_start;   // per block + 1: rows touching it
    std::vector<uint32_t> block_rows;
    uint32_t island_count = 0;

    // Per island problem and solution (reused).
    std::vector<LcpProblem> problems;
    struct ColumnEntry {
        int32_t row;
        uint32_t arrival;
        double value;
    };
    std::vector<ColumnEntry> column_entries;  // CSC assembly: one column, sorted
    std::vector<double> x;         // solution of the island being solved (projection stage)
    // The solve stage: per island its x (warm start in, answer out) and the
    // chain's report; which islands go to the pool and which stay on the
    // step's thread (solve_islands.cpp).
    std::vector<std::vector<double>> island_x;
    std::vector<ChainReport> island_reports;
    std::vector<FrictionSplitRow> friction_split_rows;  // one island's, friction_split.cpp
    std::vector<uint32_t> parallel_islands, serial_islands;
    std::vector<double> impulses;  // like WorldState::joint_impulses, for this step
    std::vector<double> v_next;  // model.nv
    PluginOutput<double> q_next;  // model.nq
    std::vector<double> correction;  // model.nv: the position projection's displacement

    // Contacts of this step. Nothing can collide without shapes, unless two
    // cables meet (a cable's samples never collide among themselves).
    bool collision_possible = false;
    collision::CollisionWorld collision;
    std::vector<collision::Pose> body_poses;  // per collision body (elements, then cable contact samples)
    std::vector<collision::BodySpeed> body_speeds;  // the same, for the collision sweep
    struct GroupSamples : MaterialFrames {  // per element group: its cable contact samples
        uint32_t first_sample = 0;  // index of the first in WorldModel::contact_samples
    };
    std::vector<GroupSamples> group_samples;
    // Per element group carrying shapes: the frames of its elements that
    // have shapes, at material point (0, 0, 0), asked of material_frames
    // (`elements`: their indices within the group).
    std::vector<MaterialFrames> group_origins;
    // Per collision body: its cable, or -1, or kCollidesWithNothing (a
    // disabled body): the broadphase filter.
    std::vector<int32_t> collision_cable;
    struct ContactPoint {
        uint32_t collision_contact;  // index in the collision world's contacts of this step
        int32_t element[2];     // moving element on side 0 (shape a) / 1 (shape b), or -1
        uint32_t pair;          // index into WorldModel::material_pairs
        uint32_t jacobian[2];   // offset of the 6 x nv point Jacobian per side in contact_jacobian
        uint32_t first_row;     // its rows in friction scratch (instance order), see below
        uint32_t friction;      // friction instance (index into WorldModel::friction_instances)
        uint32_t batch_index;   // its index among that instance's contacts of this step
        uint32_t row0;          // its first row in StepScratch::rows
        uint32_t row_count;     // rows the model wrote for it
        double weight;          // m of cable a cable contact stands for (pivot_contact_point::weight), else 1
        bool distributed;       // a cable contact sample on one side at least
        double cable_tangent[3];  // a cable side's unit tangent (the last cable side's), if distributed
    };
    std::vector<ContactPoint> contact_points;
    // Per contact: where its rows' Jacobians and responses start (in
    // jacobian, response) and its coupling block (contact_coupling, -1 for
    // none), laid out before the rows are built (contact_rows.cpp).
    struct ContactLayout {
        uint32_t jacobian;
        uint32_t response;
        int32_t coupling;
    };
    std::vector<ContactLayout> contact_layout;
    std::vector<uint32_t> response_runs;  // solve_row_responses: the first row of each run, then the end
    std::vector<std::vector<double>> worker_rhs;  // per worker of the contact stage: a block_rhs of its own
    std::vector<double> contact_coupling;     // coupling blocks of contacts that have one (ProblemRow::coupling)
    std::vector<double> contact_directions;   // per contact kMaxContactRows x 6: each written row's direction (reports)
    std::vector<double> contact_explicit;     // per contact 6: the model's explicit impulse (reports)
    std::vector<double> contact_tangents;     // per contact 6: the host's tangent1, tangent2 (reports)
    std::vector<double> contact_jacobian;
    struct GroupContactPoints : MaterialFrames {  // per element group: its contacts' points
        std::vector<uint32_t> owner;  // contact * 2 + side
    };
    std::vector<GroupContactPoints> group_contact_points;
    struct FrictionBatch {  // per friction instance: its contacts this step
        std::vector<uint32_t> contacts;  // contact indices
        std::vector<pivot_contact_point> input;
        std::vector<pivot_contact_bodies> bodies;  // per contact (models with build_with_bodies or _with_motion)
        std::vector<pivot_contact_motion> motion;  // per contact (models with build_with_motion)
        PluginOutput<pivot_row> rows;
        PluginOutput<double> directions, coupling, impulses, state;
        PluginOutput<uint32_t> row_counts;
        // Its contacts of the last step that it did not build again (ABI
        // 1.9): ids in ascending order and their last state, given to
        // contacts_ended when the step commits.
        std::vector<uint64_t> ended_ids;
        std::vector<double> ended_state;
    };
    std::vector<FrictionBatch> friction_batches;
    std::vector<double> contact_twists;        // per contact: twist of the point at v* on side 0, then side 1 (12)
    std::vector<double> contact_twists_start;  // the same at the step's start velocity v
    std::vector<int32_t> body_of_element;   // body index of each element (for reports), or -1
    std::vector<int32_t> cable_of_element;  // cable index of each element (for reports), or -1
    // Next step's warm start and friction state, per contact (kept by id
    // at the end of the step; the ids are contact_order's).
    std::vector<double> next_contact_impulses;
    std::vector<double> next_contact_state;
    // Per contact of the last step (WorldState::contact_ids): 1 when its
    // model built it again this step; the others ended (FrictionBatch::
    // ended_ids).
    std::vector<uint8_t> previous_continued;
    // Each contact's total linear impulse on body 2 this step (3 each, step
    // order, world, N s): computed once by commit_state, for the state
    // (previous_impulses) and the reports.
    std::vector<double> contact_linear_impulses;
    // Of each contact's kMaxContactRows impulse and kMaxContactState state
    // slots, those the world's friction models use (the others stay zero).
    struct ContactSlots {
        uint32_t rows = 0;
        uint32_t state = 0;
    };
    ContactSlots contact_slots_used;
    // This step's contacts sorted by id (the contact stage), and each one's
    // index among the last step's contacts or -1: the state keeps its
    // contacts in id order (commit_state), so a merge matches the two.
    struct ContactOrder {
        uint64_t id;
        uint32_t contact;
    };
    std::vector<ContactOrder> contact_order, contact_order_scratch;
    std::vector<long> contact_previous;

    // Block projections of the islands whose contacts use a projecting
    // friction model (PIVOT_FRICTION_CAP_PROJECTION): every contact of such an
    // island is a block (assemble_islands.cpp).
    struct IslandProjection {
        const WorldModel* model = nullptr;
        const StepScratch* scratch = nullptr;
        const LcpProblem* problem = nullptr;
        std::vector<uint32_t> contacts;  // contact of each block
    };
    std::vector<IslandProjection> projections;

    // The factored form's Mbar^-1 callback (plugin_solver.h) per island:
    // the island's mass blocks, in the order of the problem's blocks.
    struct IslandMass {
        const WorldModel* model = nullptr;
        const StepScratch* scratch = nullptr;
        std::vector<uint32_t> blocks;  // global mass block of each island block
    };
    std::vector<IslandMass> island_masses;
    std::vector<uint32_t> island_block_index;  // per mass block: its index in the island assembled, or UINT32_MAX
    // kIslandTooLarge: its matrix would exceed WorldSettings::max_assembled_values
    // and velocity PGS cannot take it: not solved (assemble_islands.cpp).
    enum IslandSolver : uint8_t {
        kIslandChain = 0,
        kIslandDirect = 1,
        kIslandNewton = 2,
        kIslandLarge = 3,
        kIslandTooLarge = 4
    };
    std::vector<uint8_t> island_solver;        // per island: which chain of StepSolvers solves it

    // The step budget (WorldSettings::step_budget): when this step started,
    // and the last step's time after the solve stage (integrate,
    // projection, reports), which the solves leave for the stages after them.
    std::chrono::steady_clock::time_point step_start;
    double after_solve_seconds = 0.0;
    // The energy watch started by this step (start_energy_watch), which
    // becomes the state's after the commit (watch_divergence): a step that
    // fails leaves the watch as it was.
    WorldState::EnergyWatch watch_start;
};

}  // namespace pivot
