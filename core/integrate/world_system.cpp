#include "integrate/world_system.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "common/error.hpp"
#include "plugin_host/checked_calls.hpp"
#include "step/step_stages.hpp"

namespace pivot {

namespace {

constexpr const char* kWhat = "the gssss integrator";

void require_usable_call(const CallResult& r) {
    if (!r.ok()) throw Error(r.message);
}

// The body an element carries, or the cable it is part of, for messages.
std::string element_name(const WorldModel& model, uint32_t element) {
    for (const BodyRecord& b : model.bodies) {
        if (!b.removed && b.element == element) return fmt::format("body '{}'", b.name);
    }
    for (const CableRecord& c : model.cables) {
        const ElementGroup& g = model.element_groups[c.group];
        if (!c.removed && element >= g.first && element < g.first + g.count) {
            return fmt::format("cable '{}' (element {})", c.name, element - g.first);
        }
    }
    return fmt::format("element {}", element);
}

}  // namespace

WorldSystem::WorldSystem(const World& world)
    : WorldSystem(world.model(), world.state(), [&] {
          auto scratch = std::make_unique<StepScratch>();
          prepare_step(world.model(), *scratch);
          return scratch;
      }()) {}

WorldSystem::WorldSystem(const WorldModel& model, const WorldState& state, std::unique_ptr<StepScratch> scratch)
    : own_scratch_(std::move(scratch)), model_(model), state_(state), s_(*own_scratch_) {
    build();
}

WorldSystem::~WorldSystem() = default;

WorldSystem::WorldSystem(const WorldModel& model, const WorldState& state, StepScratch& scratch)
    : model_(model), state_(state), s_(scratch) {
    build();
}

void WorldSystem::build() {
    const WorldModel& model = model_;
    const WorldState& state = state_;
    size_t largest_block = 0, largest_vector = 0;
    uint32_t largest_nv = 0;
    for (const ElementGroup& g : model.element_groups) {
        if (g.count == 0) continue;
        if (!element_has_smooth_forces(g.instance.plugin())) {
            throw Error(fmt::format("{}: has no smooth_forces and force_tangent (plugin ABI 1.10), which {} needs",
                                    describe(g.instance.plugin()), kWhat));
        }
        largest_block = std::max<size_t>(largest_block, static_cast<size_t>(g.count) * g.nv * g.nv);
        largest_vector = std::max<size_t>(largest_vector, static_cast<size_t>(g.count) * g.nv);
        largest_nv = std::max(largest_nv, g.nv);
    }
    for (uint32_t e = 0; e < model.element_count; ++e) {
        if (model.element_damping[e][0] > 0.0 || model.element_damping[e][1] > 0.0) {
            throw Error(fmt::format("{} has linear or angular damping, which {} does not model yet",
                                    element_name(model, e), kWhat));
        }
    }
    for (const JointRecord& joint : model.joints) {
        if (!joint.removed && (joint.break_force > 0.0 || joint.break_torque > 0.0)) {
            throw Error(fmt::format("joint '{}' is breakable, which {} does not model yet", joint.name, kWhat));
        }
    }
    for (const RopeRecord& rope : model.ropes) {
        if (!rope.removed) throw Error(fmt::format("rope '{}': {} does not integrate ropes", rope.name, kWhat));
    }
    block_.assign(largest_block, 0.0);
    block2_.assign(largest_block, 0.0);
    vector_.assign(largest_vector, 0.0);
    row_.assign(largest_nv, 0.0);
    work6_.assign(6 * static_cast<size_t>(largest_nv), 0.0);
    forces_.resize(model.joint_groups.size());
    for (size_t g = 0; g < model.joint_groups.size(); ++g) {
        forces_[g].assign(static_cast<size_t>(model.joint_groups[g].count) * model.joint_groups[g].max_rows, 0.0);
    }
    k12_.assign(144 * model.joints.size(), 0.0);
    q_rows_.assign(model.nq, 0.0);
    q_work_.assign(model.nq, 0.0);
    // The rows as they are at the start.
    const Eigen::Map<const Eigen::VectorXd> q0(state.q.data(), static_cast<Eigen::Index>(model.nq));
    rows_at(q0);
    for (uint32_t j = 0; j < model.joints.size(); ++j) {
        const JointRecord& record = model.joints[j];
        if (record.removed || !record.enabled || record.broken) continue;
        const auto& out = s_.joint_rows[record.group];
        for (uint32_t k = 0; k < out.end_counts[record.member]; ++k) {
            rows_.push_back({j, record.group, record.member, k});
        }
    }
    built_ = true;
}

pivot_step_info WorldSystem::step_info(double t) const {
    return pivot_step_info{sizeof(pivot_step_info), 0, 0.0, t,
                           {model_.settings.gravity[0], model_.settings.gravity[1], model_.settings.gravity[2]}};
}

bool WorldSystem::element_has_frame_stiffness(uint32_t element) const {
    return model_.element_groups[model_.element_group[element]].instance.plugin().element.frame_stiffness != nullptr;
}

bool WorldSystem::moves(const Attachment& a) const {
    return a.element != Attachment::kWorld && !model_.fixed[a.element];
}

const double* WorldSystem::frame_jacobian(uint32_t joint, int side) const {
    return s_.frame_jacobian.data() + s_.frame_jacobian_offset[2 * joint + side];
}

void WorldSystem::displace(const Eigen::VectorXd& q, const Eigen::VectorXd& dq, Eigen::VectorXd& q_out) const {
    for (const ElementGroup& g : model_.element_groups) {
        if (g.count == 0) continue;
        require_usable_call(checked_integrate(g.instance, g.node_count(), q.data() + g.q_offset, dq.data() + g.v_offset,
                                              1.0, guarded(q_work_, g.q_offset)));
        for (uint32_t e = 0; e < g.count; ++e) {
            const size_t at = g.q_offset + static_cast<size_t>(e) * g.nq;
            if (model_.fixed[g.first + e]) std::copy_n(q.data() + at, g.nq, q_work_.data() + at);
        }
    }
    std::copy_n(q_work_.data(), model_.nq, q_out.data());
}

void WorldSystem::mass(const Eigen::VectorXd& q, Eigen::MatrixXd& m) const {
    m.setZero();
    for (const ElementGroup& g : model_.element_groups) {
        if (g.count == 0) continue;
        const pivot_element_batch batch = element_batch(g, state_, nullptr, q.data() + g.q_offset);
        require_usable_call(checked_mass_matrix(g.instance, batch, guarded(block_)));
        for (uint32_t e = 0; e < g.count; ++e) {  // a chain's elements overlap at their shared nodes: summed
            const Eigen::Index o = g.v_offset + g.element_v(e);
            if (model_.fixed[g.first + e]) {  // held: a = 0 (its f is 0 and no row acts on it)
                m.block(o, o, g.nv, g.nv).setIdentity();
                continue;
            }
            m.block(o, o, g.nv, g.nv) += Eigen::Map<const Eigen::MatrixXd>(
                block_.data() + static_cast<size_t>(e) * g.nv * g.nv, g.nv, g.nv);
        }
    }
}

void WorldSystem::forces(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, Eigen::VectorXd& f) const {
    const pivot_step_info step = step_info(t);
    for (const ElementGroup& g : model_.element_groups) {
        if (g.count == 0) continue;
        const pivot_element_batch batch = element_batch(g, state_, v.data() + g.v_offset, q.data() + g.q_offset);
        require_usable_call(checked_smooth_forces(g.instance, batch, step, guarded(vector_)));
        for (uint32_t i = g.v_offset; i < g.v_offset + g.v_size(); ++i) f(i) = state_.applied[i];
        for (uint32_t e = 0; e < g.count; ++e) {  // summed at a chain's shared nodes
            const double* element_f = vector_.data() + static_cast<size_t>(e) * g.nv;
            f.segment(g.v_offset + g.element_v(e), g.nv) += Eigen::Map<const Eigen::VectorXd>(element_f, g.nv);
        }
        for (uint32_t e = 0; e < g.count; ++e) {
            if (model_.fixed[g.first + e]) f.segment(g.v_offset + g.element_v(e), g.nv).setZero();
        }
    }
}

void WorldSystem::tangent(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, const Eigen::VectorXd& a,
                          Eigen::MatrixXd& stiffness, Eigen::MatrixXd& damping) const {
    stiffness.setZero();
    damping.setZero();
    const pivot_step_info step = step_info(t);
    for (const ElementGroup& g : model_.element_groups) {
        if (g.count == 0) continue;
        const pivot_element_batch batch = element_batch(g, state_, v.data() + g.v_offset, q.data() + g.q_offset);
        require_usable_call(
            checked_force_tangent(g.instance, batch, step, a.data() + g.v_offset, guarded(block_), guarded(block2_)));
        for (uint32_t e = 0; e < g.count; ++e) {
            if (model_.fixed[g.first + e]) continue;
            const Eigen::Index o = g.v_offset + g.element_v(e);
            const size_t at = static_cast<size_t>(e) * g.nv * g.nv;
            stiffness.block(o, o, g.nv, g.nv) += Eigen::Map<const Eigen::MatrixXd>(block_.data() + at, g.nv, g.nv);
            damping.block(o, o, g.nv, g.nv) += Eigen::Map<const Eigen::MatrixXd>(block2_.data() + at, g.nv, g.nv);
        }
    }
}

void WorldSystem::rows_at(const Eigen::VectorXd& q) const {
    for (auto& rows : s_.joint_rows) {  // no twists at a configuration alone (no row of a rigid joint reads them)
        std::fill(rows.twist1.begin(), rows.twist1.end(), 0.0);
        std::fill(rows.twist2.begin(), rows.twist2.end(), 0.0);
    }
    evaluate_joint_rows_at(model_, state_, s_, q.data());
    std::copy_n(q.data(), model_.nq, q_rows_.begin());
    size_t count = 0;
    for (const JointRecord& record : model_.joints) {
        if (record.removed || !record.enabled || record.broken) continue;
        const JointGroup& jg = model_.joint_groups[record.group];
        const auto& out = s_.joint_rows[record.group];
        for (uint32_t k = 0; k < out.end_counts[record.member]; ++k) {
            const pivot_row& row = out.end_rows[static_cast<size_t>(record.member) * jg.max_rows + k];
            if (row.compliance != 0.0 || row.lower != -HUGE_VAL || row.upper != HUGE_VAL || row.findex >= 0 ||
                row.target_velocity != 0.0 || (row.flags & PIVOT_ROW_POSITION_ERROR) == 0) {
                throw Error(fmt::format("joint '{}': row {} is not a rigid equality (compliance {}, bounds [{}, {}], "
                                        "friction index {}, target velocity {}): {} takes joints without "
                                        "compliance, limits, drives or friction",
                                        record.name, k, row.compliance, row.lower, row.upper, row.findex,
                                        row.target_velocity, kWhat));
            }
            // An element without frame_stiffness counts as one whose
            // frames' wrenches keep their generalized force (ABI 1.3: NULL
            // = zero). For a cable that holds for a pure force at a frame
            // (its position r = S q is linear in q), not for a torque
            // (the frame turns with r_x / |r_x|): K_lambda and the
            // curvature would be wrong, so a torque is refused.
            for (int side = 0; side < 2; ++side) {
                const Attachment& a = side == 0 ? record.frame1 : record.frame2;
                if (!moves(a) || element_has_frame_stiffness(a.element)) continue;
                const double* torque = out.end_jacobians.data() +
                                       (static_cast<size_t>(record.member) * jg.max_rows + k) * 12 + 6 * side + 3;
                if (torque[0] != 0.0 || torque[1] != 0.0 || torque[2] != 0.0) {
                    throw Error(fmt::format("joint '{}': row {} turns {}, whose element gives no frame stiffness "
                                            "(ABI 1.3): {} takes only joints that hold its point (spherical) there",
                                            record.name, k, element_name(model_, a.element), kWhat));
                }
            }
        }
        count += out.end_counts[record.member];
    }
    if (built_ && count != rows_.size()) {
        throw Error(fmt::format("{}: the joints wrote {} rows, {} at the start; joints whose rows come and go "
                                "are not supported",
                                kWhat, count, rows_.size()));
    }
}

void WorldSystem::constraints(const Eigen::VectorXd& q, Eigen::VectorXd& phi, Eigen::MatrixXd& jacobian) const {
    rows_at(q);
    jacobian.setZero();
    for (size_t i = 0; i < rows_.size(); ++i) {
        const Row& r = rows_[i];
        const JointRecord& record = model_.joints[r.joint];
        const JointGroup& jg = model_.joint_groups[r.group];
        const auto& out = s_.joint_rows[r.group];
        const size_t slot = static_cast<size_t>(r.member) * jg.max_rows + r.slot;
        phi(static_cast<Eigen::Index>(i)) = out.end_rows[slot].violation;
        for (int side = 0; side < 2; ++side) {
            const Attachment& a = side == 0 ? record.frame1 : record.frame2;
            if (!moves(a)) continue;
            const uint32_t nv = model_.element_nv[a.element];
            chain_frame_jacobian(out.end_jacobians.data() + slot * 12 + 6 * side, frame_jacobian(r.joint, side), nv,
                                 row_.data());
            const Eigen::Index o = model_.element_v_offset[a.element];
            for (uint32_t c = 0; c < nv; ++c) jacobian(static_cast<Eigen::Index>(i), o + c) += row_[c];
        }
    }
}

void WorldSystem::frame_stiffness(const std::vector<std::vector<double>>& forces) const {
    const pivot_step_info step = step_info(state_.time);
    for (size_t g = 0; g < model_.joint_groups.size(); ++g) {
        const JointGroup& jg = model_.joint_groups[g];
        if (jg.count == 0) continue;
        auto& out = s_.joint_rows[g];
        const pivot_joint_batch batch{jg.count,        jg.item_stride,     jg.item_params.data(), out.end_pose1.data(),
                                      out.end_pose2.data(), out.twist1.data(), out.twist2.data()};
        require_usable_call(
            checked_joint_geometric_stiffness(jg.instance, batch, step, forces[g].data(), guarded(out.stiffness)));
    }
    for (uint32_t j = 0; j < model_.joints.size(); ++j) {
        const JointRecord& record = model_.joints[j];
        if (record.removed) continue;
        const auto& out = s_.joint_rows[record.group];
        std::copy_n(out.stiffness.data() + static_cast<size_t>(record.member) * 144, 144, k12_.data() + 144 * j);
    }
    // The lever arms: each attachment's wrench J_side^T f turning with its element.
    for (size_t gi = 0; gi < model_.element_groups.size(); ++gi) {
        const ElementGroup& group = model_.element_groups[gi];
        auto& gp = s_.group_points[gi];
        if (gp.points.empty()) continue;
        for (size_t p = 0; p < gp.points.size(); ++p) {
            const uint32_t joint = gp.attachment[p] / 2, side = gp.attachment[p] % 2;
            const JointRecord& record = model_.joints[joint];
            const auto& out = s_.joint_rows[record.group];
            const bool active = !record.removed && record.enabled && !record.broken;
            frame_wrench(forces[record.group].data(), out.end_jacobians.data(),
                         model_.joint_groups[record.group].max_rows, record.member,
                         active ? out.end_counts[record.member] : 0, side, gp.wrenches.data() + 6 * p);
        }
        const pivot_element_batch batch = element_batch(group, state_, nullptr, q_rows_.data() + group.q_offset);
        require_usable_call(checked_frame_stiffness(group.instance, batch, gp.points.data(),
                                                    static_cast<uint32_t>(gp.points.size()), gp.wrenches.data(),
                                                    guarded(gp.frame_stiffness)));
        for (size_t p = 0; p < gp.points.size(); ++p) {
            const uint32_t joint = gp.attachment[p] / 2, side = gp.attachment[p] % 2;
            Eigen::Map<Eigen::Matrix<double, 12, 12>> k(k12_.data() + 144 * joint);
            k.block<6, 6>(6 * side, 6 * side) +=
                Eigen::Map<const Eigen::Matrix<double, 6, 6>>(gp.frame_stiffness.data() + 36 * p);
        }
    }
}

// d(C^T lambda)/dq = -sum over joints of J_F^T K(lambda) J_F, J_F the
// joint's two frame Jacobians (plugin_joint.h, plugin_element.h: K =
// -d(J^T f)/d(frames) at constant f).
void WorldSystem::constraint_stiffness(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda,
                                       Eigen::MatrixXd& stiffness) const {
    rows_at(q);
    for (auto& f : forces_) std::fill(f.begin(), f.end(), 0.0);
    for (size_t i = 0; i < rows_.size(); ++i) {
        const Row& r = rows_[i];
        forces_[r.group][static_cast<size_t>(r.member) * model_.joint_groups[r.group].max_rows + r.slot] =
            lambda(static_cast<Eigen::Index>(i));
    }
    frame_stiffness(forces_);
    stiffness.setZero();
    for (uint32_t j = 0; j < model_.joints.size(); ++j) {
        const JointRecord& record = model_.joints[j];
        if (record.removed || !record.enabled || record.broken) continue;
        const Eigen::Map<const Eigen::Matrix<double, 12, 12>> k(k12_.data() + 144 * j);
        for (int a = 0; a < 2; ++a) {
            const Attachment& at_a = a == 0 ? record.frame1 : record.frame2;
            if (!moves(at_a)) continue;
            const Eigen::Index na = model_.element_nv[at_a.element];
            const Eigen::Map<const Eigen::MatrixXd> fa(frame_jacobian(j, a), 6, na);
            for (int b = 0; b < 2; ++b) {
                const Attachment& at_b = b == 0 ? record.frame1 : record.frame2;
                if (!moves(at_b)) continue;
                const Eigen::Index nb = model_.element_nv[at_b.element];
                const Eigen::Map<const Eigen::MatrixXd> fb(frame_jacobian(j, b), 6, nb);
                auto kf = Eigen::Map<Eigen::MatrixXd>(work6_.data(), 6, nb);  // no temporaries: sized at build
                kf.noalias() = k.block<6, 6>(6 * a, 6 * b) * fb;
                stiffness.block(model_.element_v_offset[at_a.element], model_.element_v_offset[at_b.element], na, nb)
                    .noalias() -= fa.transpose() * kf;
            }
        }
    }
}

// G(q, w) = d(C(q) w)/dq, row i = w^T H_i with H_i = d(C_i^T)/dq the
// stiffness of a unit force on row i alone: -(J_F w)^T K(e_i) J_F. One
// batch per row slot (every joint's slot k at once: joints share no rows).
void WorldSystem::constraint_curvature(const Eigen::VectorXd& q, const Eigen::VectorXd& w,
                                       Eigen::MatrixXd& curvature) const {
    rows_at(q);
    curvature.setZero();
    uint32_t slots = 0;
    for (const Row& r : rows_) slots = std::max(slots, r.slot + 1);
    for (uint32_t slot = 0; slot < slots; ++slot) {
        for (auto& f : forces_) std::fill(f.begin(), f.end(), 0.0);
        for (const Row& r : rows_) {
            if (r.slot != slot) continue;
            forces_[r.group][static_cast<size_t>(r.member) * model_.joint_groups[r.group].max_rows + slot] = 1.0;
        }
        frame_stiffness(forces_);
        for (size_t i = 0; i < rows_.size(); ++i) {
            const Row& r = rows_[i];
            if (r.slot != slot) continue;
            const JointRecord& record = model_.joints[r.joint];
            Eigen::Matrix<double, 12, 1> twist = Eigen::Matrix<double, 12, 1>::Zero();  // J_F w
            for (int side = 0; side < 2; ++side) {
                const Attachment& a = side == 0 ? record.frame1 : record.frame2;
                if (!moves(a)) continue;
                const Eigen::Index nv = model_.element_nv[a.element];
                twist.segment<6>(6 * side).noalias() =
                    Eigen::Map<const Eigen::MatrixXd>(frame_jacobian(r.joint, side), 6, nv) *
                    w.segment(model_.element_v_offset[a.element], nv);
            }
            const Eigen::Map<const Eigen::Matrix<double, 12, 12>> k(k12_.data() + 144 * r.joint);
            const Eigen::Matrix<double, 12, 1> across = -(k.transpose() * twist);
            for (int side = 0; side < 2; ++side) {
                const Attachment& a = side == 0 ? record.frame1 : record.frame2;
                if (!moves(a)) continue;
                const Eigen::Index nv = model_.element_nv[a.element];
                curvature.block(static_cast<Eigen::Index>(i), model_.element_v_offset[a.element], 1, nv).noalias() +=
                    across.segment<6>(6 * side).transpose() *
                    Eigen::Map<const Eigen::MatrixXd>(frame_jacobian(r.joint, side), 6, nv);
            }
        }
    }
}

void WorldSystem::reactions(const Eigen::VectorXd& q, const Eigen::VectorXd& lambda,
                            std::vector<JointReaction>& out) const {
    rows_at(q);
    for (auto& f : forces_) std::fill(f.begin(), f.end(), 0.0);
    for (size_t i = 0; i < rows_.size(); ++i) {  // the engine's row force is -lambda
        const Row& r = rows_[i];
        forces_[r.group][static_cast<size_t>(r.member) * model_.joint_groups[r.group].max_rows + r.slot] =
            -lambda(static_cast<Eigen::Index>(i));
    }
    for (uint32_t j = 0; j < model_.joints.size() && j < out.size(); ++j) {
        const JointRecord& record = model_.joints[j];
        out[j] = JointReaction{};
        if (record.removed || !record.enabled || record.broken) continue;
        const JointGroup& jg = model_.joint_groups[record.group];
        const auto& rows = s_.joint_rows[record.group];
        double wrench[6];
        frame_wrench(forces_[record.group].data(), rows.end_jacobians.data(), jg.max_rows, record.member,
                     rows.end_counts[record.member], 1, wrench);
        for (int i = 0; i < 3; ++i) {
            out[j].force[i] = wrench[i];
            out[j].torque[i] = wrench[3 + i];
        }
        for (uint32_t k = 0; k < rows.end_counts[record.member]; ++k) {
            const pivot_row& row = rows.end_rows[static_cast<size_t>(record.member) * jg.max_rows + k];
            out[j].position_error = std::max(out[j].position_error, std::abs(row.violation));
        }
    }
}

}  // namespace pivot
