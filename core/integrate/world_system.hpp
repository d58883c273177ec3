#pragma once
// A world as a ConstrainedSystem (constrained_system.hpp) for the GSSSS
// step: its elements' coordinates and velocities (WorldModel::nq, nv), the
// rows of its joints as holonomic constraints, all through the plugins:
//   displace        element integrate with v = dq over a unit time
//   mass            element mass_matrix (block diagonal)
//   forces          element smooth_forces (ABI 1.10) + the user's external forces
//   tangent         element force_tangent (ABI 1.10)
//   constraints     joint rows at q (violation Phi, Jacobian J through the frames)
//   constraint_stiffness, constraint_curvature
//                   joint geometric_stiffness and element frame_stiffness (ABI 1.3):
//                   d(J^T lambda)/dq = -J_F^T (K_joint + K_frames) J_F
// Dense n x n matrices: meant for the mechanisms of accuracy studies (tens of
// bodies), not for large worlds.
//
// The constraint sign is the thesis's, M a + C^T lambda = f: lambda is the
// negative of the engine's row force.
//
// A chain's elements (a cable's) share nodes: their blocks and forces are
// summed where they overlap.
//
// What it cannot represent it refuses at construction with an Error naming
// the object (validate): elements without smooth_forces, ropes, joints whose
// rows are not rigid equalities (compliant, limited, driven, with friction,
// breakable) or that apply a torque to an element without frame_stiffness
// (a hinge on a cable), damped bodies.
#include <cstdint>
#include <memory>
#include <vector>

#include <Eigen/Core>

#include "integrate/constrained_system.hpp"
#include "plugin_host/plugin_output.hpp"
#include "world/world.hpp"

namespace pivot {

struct StepScratch;

class WorldSystem final : public ConstrainedSystem {
public:
    // model and scratch must outlive the system; scratch is the world's step
    // scratch (prepare_step done), used between steps only.
    WorldSystem(const WorldModel& model, const WorldState& state, StepScratch& scratch);
    // The same over a scratch of its own (tests, tools): the world as it is now.
    explicit WorldSystem(const World& world);
    ~WorldSystem() override;
    WorldSystem(const WorldSystem&) = delete;
    WorldSystem& operator=(const WorldSystem&) = delete;

    int configuration_size() const override { return static_cast<int>(model_.nq); }
    int velocity_size() const override { return static_cast<int>(model_.nv); }
    int constraint_size() const override { return static_cast<int>(rows_.size()); }

    void displace(const Eigen::VectorXd& q, const Eigen::VectorXd& dq, Eigen::VectorXd& q_out) const override;
    void mass(const Eigen::VectorXd& q, Eigen::MatrixXd& m) const override;
    void forces(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& f) const override;
    void tangent(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, const Eigen::VectorXd& a,
                 Eigen::MatrixXd& stiffness, Eigen::MatrixXd& damping) const override;
    void constraints(const Eigen::VectorXd& q, Eigen::VectorXd& phi, Eigen::MatrixXd& jacobian) const override;
    void constraint_stiffness(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda,
                              Eigen::MatrixXd& stiffness) const override;
    void constraint_curvature(const Eigen::VectorXd& q, const Eigen::VectorXd& w,
                              Eigen::MatrixXd& curvature) const override;

    // The joints' reactions at q for the multipliers lambda (the engine's
    // JointReaction: the rows' force on body 2 at its frame origin, world,
    // the position error of its rows), into out (per joint; others zero).
    void reactions(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda, std::vector<JointReaction>& out) const;

    // The constraint rows: joint and row slot of each.
    struct Row {
        uint32_t joint = 0, group = 0, member = 0, slot = 0;
    };
    const std::vector<Row>& rows() const { return rows_; }

private:
    void build();  // checks what the world holds, sizes the work, lists the rows
    void rows_at(const Eigen::VectorXd& q) const;  // the joints' rows and frames at q (checked)
    // Per joint, 12 x 12 over its two frames' displacements: K_joint +
    // diag(K_frame1, K_frame2) at the frames of the last rows_at, for the row
    // forces `forces` (per joint group: count x max_rows), into k12_.
    void frame_stiffness(const std::vector<std::vector<double>>& forces) const;
    const double* frame_jacobian(uint32_t joint, int side) const;
    bool moves(const Attachment& a) const;
    bool element_has_frame_stiffness(uint32_t element) const;
    pivot_step_info step_info(double t) const;

    WorldSystem(const WorldModel& model, const WorldState& state, std::unique_ptr<StepScratch> scratch);

    std::unique_ptr<StepScratch> own_scratch_;  // first: s_ may refer to it
    const WorldModel& model_;
    const WorldState& state_;
    StepScratch& s_;
    std::vector<Row> rows_;
    mutable std::vector<std::vector<double>> forces_;  // per joint group: count x max_rows
    mutable std::vector<double> k12_;                  // per joint: 144
    mutable PluginOutput<double> block_, block2_;      // per element group: count x nv x nv
    mutable PluginOutput<double> vector_;              // per element group: count x nv
    mutable std::vector<double> row_;                  // largest element nv
    mutable std::vector<double> work6_;                // 6 x largest element nv
    mutable std::vector<double> q_rows_;               // the q of the last rows_at
    mutable PluginOutput<double> q_work_;              // model.nq: displace's output (guarded)
    bool built_ = false;                               // rows_ listed: their count is checked from then on
};

}  // namespace pivot
