// Stage: contacts. For each contact point found by the collision stages
// the twist Jacobian of the point on each moving body (one
// batched material_frames call per element group), the host's proposal of
// the normal row (unilateral, position-stabilized, Newton restitution above
// a threshold speed, the materials' compliance and damping); then one
// batched build() per friction-model instance (one per parameter set)
// gives the contact rows, chained to element velocities like joint rows,
// and explicit impulses, applied to v* at once. Row impulses and the models'
// per-contact state are remembered by persistent contact id for the next
// step (warm start, stateful laws).
// One stage in one file (~550 lines): the points, the friction models'
// input, the layout of every contact's slots, its rows and the explicit
// impulses all read and write the same per-contact slots of the scratch.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/radix_sort.hpp"
#include "common/worker_pool.hpp"
#include "plugin_host/checked_calls.hpp"
#include "step/step_stages.hpp"

namespace pivot {

namespace {

constexpr uint32_t kRows = WorldState::kMaxContactRows;
constexpr uint32_t kState = WorldState::kMaxContactState;

// The contact frame's tangents: t1 is `preferred` (a cable's tangent) made
// perpendicular to n when that is well defined, else from the axis least
// aligned with n (a function of the normal alone); t2 = n x t1.
void orthonormal_tangents(const double n[3], const double* preferred, double t1[3], double t2[3]) {
    double v[3], len = 0.0;
    if (preferred != nullptr) {
        const double d = preferred[0] * n[0] + preferred[1] * n[1] + preferred[2] * n[2];
        for (int i = 0; i < 3; ++i) v[i] = preferred[i] - d * n[i];
        len = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    }
    if (!(len > 1e-6)) {
        const double a[3] = {std::abs(n[0]) < 0.57 ? 1.0 : 0.0, std::abs(n[0]) < 0.57 ? 0.0 : 1.0, 0.0};
        const double d = a[0] * n[0] + a[1] * n[1] + a[2] * n[2];
        for (int i = 0; i < 3; ++i) v[i] = a[i] - d * n[i];
        len = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    }
    for (int i = 0; i < 3; ++i) t1[i] = v[i] / len;
    t2[0] = n[1] * t1[2] - n[2] * t1[1];
    t2[1] = n[2] * t1[0] - n[0] * t1[2];
    t2[2] = n[0] * t1[1] - n[1] * t1[0];
}

// 1/(1/R1 + 1/R2) of the surfaces at the contact: spheres and capsules are
// curved with their radius; boxes, planes and cylinders count as flat
// (+HUGE_VAL; a cylinder's rim or side is curved in one direction only, which
// one number cannot say).
double effective_radius(const collision::Shape& a, const collision::Shape& b) {
    auto curvature = [](const collision::Shape& shape) {
        const bool round = shape.type == collision::ShapeType::sphere || shape.type == collision::ShapeType::capsule;
        return round ? 1.0 / shape.radius : 0.0;
    };
    const double k = curvature(a) + curvature(b);
    return k > 0.0 ? 1.0 / k : HUGE_VAL;
}

// The contact stage's products with a point's 6 x nv Jacobian (column-major),
// each with nv known at compile time for a rigid body (N = 6: unrolled,
// vectorized across the outputs) or at run time (N = 0). Every output sums
// its terms in the same order either way, so the two are bitwise the same.
// On rigid contacts N = 6 takes ~940 of ~6600 instructions per contact off
// the stage (cachegrind; docs/benchmarks.md "Two cores").

// out += (sign d)^T J over the nv columns, skipping d's zero components.
template <uint32_t N>
void add_direction_times_jacobian(double sign, const double* d, const double* jp, uint32_t nv, double* out) {
    if constexpr (N != 0) nv = N;
    for (int q = 0; q < 6; ++q) {
        const double dq = sign * d[q];
        if (dq == 0.0) continue;
        for (uint32_t col = 0; col < nv; ++col) out[col] += dq * jp[q + 6 * col];
    }
}

// twist = J v, column by column (six independent sums).
template <uint32_t N>
void jacobian_times_velocity(const double* jp, const double* v, uint32_t nv, double twist[6]) {
    if constexpr (N != 0) nv = N;
    double sum[6] = {};
    for (uint32_t col = 0; col < nv; ++col) {
        for (int component = 0; component < 6; ++component) sum[component] += jp[component + 6 * col] * v[col];
    }
    std::copy_n(sum, 6, twist);
}

// n^T times the Jacobian's column col (its linear part).
inline double normal_column(const double n[3], const double* jp, uint32_t col) {
    return n[0] * jp[6 * col] + n[1] * jp[1 + 6 * col] + n[2] * jp[2 + 6 * col];
}

// x[col] = n^T J's column col (J_n^T: the normal's generalized force).
template <uint32_t N>
void normal_times_jacobian(const double n[3], const double* jp, uint32_t nv, double* x) {
    if constexpr (N != 0) nv = N;
    for (uint32_t col = 0; col < nv; ++col) x[col] = normal_column(n, jp, col);
}

// total += (n^T J) x over the columns, one after another (the sum runs on
// over both sides of the contact).
template <uint32_t N>
void add_normal_dot(const double n[3], const double* jp, uint32_t nv, const double* x, double& total) {
    if constexpr (N != 0) nv = N;
    for (uint32_t col = 0; col < nv; ++col) total += normal_column(n, jp, col) * x[col];
}

// The mass the contact's normal direction sees: 1 / (n^T J M^-1 J^T n) over
// the moving bodies (kg; +HUGE_VAL against fixed bodies only).
double normal_effective_mass(const WorldModel& model, const StepScratch& s, const StepScratch::ContactPoint& p,
                             const double n[3], double* rhs) {
    double inverse = 0.0;
    for (int side = 0; side < 2; ++side) {
        if (p.element[side] < 0) continue;
        const auto e = static_cast<uint32_t>(p.element[side]);
        const uint32_t nv = model.element_nv[e];
        const uint32_t block = model.element_block[e];
        const uint32_t first = model.element_block_offset[e];
        const double* jp = s.contact_jacobian.data() + p.jacobian[side];
        // J_n^T Mbar^-1 J_n over the element's mass block.
        double* x = rhs;
        std::fill_n(x, model.blocks[block].nv, 0.0);
        if (nv == 6) {
            normal_times_jacobian<6>(n, jp, nv, x + first);
            solve_mass_block(model, s, block, x, first);
            add_normal_dot<6>(n, jp, nv, x + first, inverse);
        } else {
            normal_times_jacobian<0>(n, jp, nv, x + first);
            solve_mass_block(model, s, block, x, first);
            add_normal_dot<0>(n, jp, nv, x + first, inverse);
        }
    }
    return inverse > 0.0 ? 1.0 / inverse : HUGE_VAL;
}

// The orientations of the two bodies at a contact (ABI 1.1, for laws with
// body-fixed directions); static shapes and fixed bodies are flagged.
pivot_contact_bodies contact_bodies(const WorldModel& model, const StepScratch& s, const collision::Contact& c) {
    pivot_contact_bodies b{};
    const uint32_t static_flag[2] = {PIVOT_CONTACT_BODY1_STATIC, PIVOT_CONTACT_BODY2_STATIC};
    double* orientation[2] = {b.orientation1, b.orientation2};
    const int32_t body[2] = {s.collision.shape(c.shape_a).body, s.collision.shape(c.shape_b).body};
    for (int side = 0; side < 2; ++side) {
        orientation[side][0] = 1.0;
        const int32_t element = collision_element(model, body[side]);
        if (element < 0) {
            b.flags |= static_flag[side];
            continue;
        }
        if (model.fixed[static_cast<uint32_t>(element)]) b.flags |= static_flag[side];
        // A cable sample's orientation is the identity (its contact has no body-fixed directions).
        const collision::Quat& q = s.body_poses[static_cast<uint32_t>(body[side])].orientation;
        orientation[side][0] = q.w();
        orientation[side][1] = q.x();
        orientation[side][2] = q.y();
        orientation[side][3] = q.z();
    }
    return b;
}

// Whether a row's direction (6 values) acts on velocities at all; a row
// that does not (e.g. the polyhedral cone's auxiliary row) has no blocks.
bool acts(const double* direction) {
    return std::any_of(direction, direction + 6, [](double x) { return x != 0.0; });
}

// Contacts per task when the contact stage shares its work with a pool.
constexpr uint32_t kContactChunk = 256;

// Contact i's input to its friction model (its slot of the batch), its
// tangents, id, warm start and state (its own slots): nothing another
// contact writes, so contacts may be filled on any thread. rhs: a
// block-sized scratch of the calling thread.
void fill_contact_input(const WorldModel& model, const WorldState& state, StepScratch& s, uint32_t i,
                        const StepScratch::ContactSlots& slots, double* rhs) {
    const double h = model.settings.timestep;
    const StepScratch::ContactPoint& p = s.contact_points[i];
    const collision::Contact& c = s.collision.contacts().contacts[p.collision_contact];
    const MaterialPair& pair = model.material_pairs[p.pair];
    const double* twist = s.contact_twists.data() + 12 * static_cast<size_t>(i);
    const double* twist_start = s.contact_twists_start.data() + 12 * static_cast<size_t>(i);
    auto& batch = s.friction_batches[p.friction];
    pivot_contact_point& cp = batch.input[p.batch_index];
    cp = pivot_contact_point{};
    cp.id = c.id;
    for (int k = 0; k < 3; ++k) {
        cp.position[k] = c.position[k];
        cp.normal[k] = c.normal[k];
        cp.relative_velocity[k] = twist[6 + k] - twist[k];
        cp.relative_angular_velocity[k] = twist[9 + k] - twist[3 + k];
    }
    // Friction along and across the cable (seed000 2.8) on a cable
    // contact, unless the cable meets the surface end-on. (Our
    // sliding-aligned models turn their first row to the sliding
    // direction when the contact slides; the cable's frame holds for
    // contacts at rest and for the reports.)
    orthonormal_tangents(cp.normal, p.distributed ? p.cable_tangent : nullptr, cp.tangent1, cp.tangent2);
    std::copy_n(cp.tangent1, 3, s.contact_tangents.data() + 6 * static_cast<size_t>(i));
    std::copy_n(cp.tangent2, 3, s.contact_tangents.data() + 6 * static_cast<size_t>(i) + 3);
    cp.depth = c.depth;
    cp.weight = p.weight;
    cp.effective_radius = effective_radius(s.collision.shape(c.shape_a), s.collision.shape(c.shape_b));
    cp.effective_mass = normal_effective_mass(model, s, p, cp.normal, rhs);
    const long previous = s.contact_previous[i];
    double* impulses = s.next_contact_impulses.data() + static_cast<size_t>(i) * kRows;
    double* contact_state = s.next_contact_state.data() + static_cast<size_t>(i) * kState;
    // The contact's impulses and state when the same model built it last
    // step (its model's slots; the others up to the world's most stay
    // zero): the same instance, or another instance of the same plugin when
    // a body's own friction values changed (World::set_body_friction; the
    // contact goes on with the new values, and ended for the old instance).
    // Instances of the materials are only re-created with them, which
    // forgets every contact (rebuild_material_pairs), so the check is a
    // guard that one model never reads another's state.
    std::fill_n(impulses, slots.rows, 0.0);
    std::fill_n(contact_state, slots.state, 0.0);
    const auto same_plugin = [&](uint32_t instance) {
        return instance < model.friction_instances.size() &&
               &model.friction_instances[instance].plugin() == &model.friction_instances[p.friction].plugin();
    };
    const bool same_instance = previous >= 0 && state.contact_models[previous] == p.friction;
    if (same_instance || (previous >= 0 && same_plugin(state.contact_models[previous]))) {
        const auto rows_begin = state.contact_impulses.begin() + state.contact_row_start[previous];
        const auto rows_end = state.contact_impulses.begin() + state.contact_row_start[previous + 1];
        const auto state_begin = state.contact_state.begin() + state.contact_state_start[previous];
        const auto state_end = state.contact_state.begin() + state.contact_state_start[previous + 1];
        std::copy(rows_begin, rows_end, impulses);
        std::copy(state_begin, state_end, contact_state);
    }
    if (previous >= 0) {
        // Last step's total linear impulse on body 2, in this step's frame
        // (normal, tangent1, tangent2): what the ABI promises whatever rows
        // the model wrote (before 1.8: its raw rows 0, 1, 2).
        const double* last = state.contact_linear_impulses.data() + 3 * previous;
        const double* frame[3] = {cp.normal, cp.tangent1, cp.tangent2};
        for (int k = 0; k < 3; ++k) {
            cp.previous_impulses[k] = last[0] * frame[k][0] + last[1] * frame[k][1] + last[2] * frame[k][2];
        }
    }
    // Normal row: gap phi = -depth >= 0 closes at most phi/h in the step
    // (speculative). Newton restitution when the contact closes within
    // the step at a speed above the threshold: J v+ >= -e u_n.
    // Newton's law acts on the approach speed before the step's forces.
    double approach = 0.0;
    for (int k = 0; k < 3; ++k) approach += cp.normal[k] * (twist_start[6 + k] - twist_start[k]);
    pivot_row& normal = cp.normal_row;
    normal.violation = -c.depth;
    normal.lower = 0.0;
    normal.upper = HUGE_VAL;
    normal.findex = -1;
    // On a cable the material's compliance and damping are per metre
    // (m^2/N, N s/m^2): a sample standing for w metres is w times stiffer,
    // so a resting cable sinks in evenly whatever its sampling.
    normal.compliance = pair.compliance / p.weight;
    normal.damping = pair.damping * p.weight;
    const bool closes_now = -c.depth <= -approach * h;
    if (pair.restitution > 0.0 && approach < -model.settings.restitution_threshold && closes_now) {
        normal.target_velocity = -pair.restitution * approach;
        normal.flags = PIVOT_ROW_NO_STABILIZATION;
    }
    if (!batch.bodies.empty()) batch.bodies[p.batch_index] = contact_bodies(model, s, c);
    if (!batch.motion.empty()) {
        pivot_contact_motion& motion = batch.motion[p.batch_index];
        motion = pivot_contact_motion{};
        for (int k = 0; k < 3; ++k) {
            motion.start_velocity[k] = twist_start[6 + k] - twist_start[k];
            motion.start_angular_velocity[k] = twist_start[9 + k] - twist_start[3 + k];
        }
    }
}

// Contact i's rows from its model's build(), into the slots the layout
// pass gave it (StepScratch::ContactLayout, p.row0): rows, their Jacobians
// (direction times the point Jacobian on each moving body), the row blocks
// with their response slots, the reported directions and the model's
// state. Writes nothing another contact writes.
void build_contact_rows(const WorldModel& model, StepScratch& s, uint32_t i) {
    const StepScratch::ContactPoint& p = s.contact_points[i];
    const auto& batch = s.friction_batches[p.friction];
    const uint32_t k = p.batch_index;
    const pivot_friction_functions& fn = model.friction_instances[p.friction].plugin().friction;
    const uint32_t m = fn.max_rows_per_contact;
    const uint32_t st = fn.state_per_contact;
    std::copy_n(batch.state.data() + static_cast<size_t>(k) * st, st,
                s.next_contact_state.data() + static_cast<size_t>(i) * kState);
    const StepScratch::ContactLayout& at = s.contact_layout[i];
    uint32_t jacobian = at.jacobian;
    uint32_t response = at.response;
    double* report_directions = s.contact_directions.data() + static_cast<size_t>(i) * kRows * 6;
    for (uint32_t r_i = 0; r_i < p.row_count; ++r_i) {
        ProblemRow& row = s.rows[p.row0 + r_i];  // value-initialized by the stage's resize
        row.row = batch.rows[static_cast<size_t>(k) * m + r_i];
        row.scaling_row = row.row.findex >= 0 ? static_cast<int32_t>(p.row0) + row.row.findex : -1;
        row.contact = static_cast<int32_t>(i);
        row.slot = r_i;
        row.coupling = at.coupling;
        row.coupling_size = m;
        row.contact_row0 = p.row0;
        row.anchor_block = model.element_block[static_cast<uint32_t>(p.element[1] >= 0 ? p.element[1] : p.element[0])];
        // A rigid unilateral contact row (impulse in [0, inf), no
        // friction index: the normal row, the polyhedral cone's facet
        // rows) is regularized (WorldSettings::contact_regularization):
        // redundant contact sets (a box face on 4 points) then have
        // unique impulses.
        // On a cable (distributed contact: more samples than the
        // cable has tangential velocities) the friction rows are
        // redundant too: they are regularized the same way, which
        // lets a stuck cable creep by ~1e-5 h^2 g per step.
        const bool distributed_friction = p.distributed && row.scaling_row >= 0 && row.row.compliance == 0.0;
        if ((row.scaling_row < 0 && row.row.compliance == 0.0 && row.row.lower == 0.0 && row.row.upper == HUGE_VAL) ||
            distributed_friction) {
            row.regularization = model.settings.contact_regularization;
        }
        const double* d = batch.directions.data() + (static_cast<size_t>(k) * m + r_i) * 6;
        std::copy_n(d, 6, report_directions + 6 * r_i);
        if (!acts(d)) continue;
        for (int side = 0; side < 2; ++side) {
            if (p.element[side] < 0) continue;
            const auto e = static_cast<uint32_t>(p.element[side]);
            const uint32_t nv = model.element_nv[e];
            const double sign = side == 1 ? 1.0 : -1.0;  // relative motion of body 2 w.r.t. body 1
            const double* jp = s.contact_jacobian.data() + p.jacobian[side];
            // J = sign d^T J_point, the columns' sums independent
            // (accumulated over q, not one after another); the slot is zero.
            double* out = s.jacobian.data() + jacobian;
            if (nv == 6) {
                add_direction_times_jacobian<6>(sign, d, jp, nv, out);
            } else {
                add_direction_times_jacobian<0>(sign, d, jp, nv, out);
            }
            // Its response Mbar^-1 J^T: solve_row_responses, batched.
            const uint32_t block = model.element_block[e];
            row.blocks[row.block_count++] = RowBlock{block, jacobian, model.element_block_offset[e], nv, response};
            jacobian += nv;
            response += model.blocks[block].nv;
        }
    }
}

// Each contact's index among the last step's contacts by id (-1 for a new
// one): this step's ids sorted (s.contact_order, the order commit_state
// keeps them in) and merged with the last step's, which the state keeps
// sorted; one pass instead of a binary search per contact. Were two ids
// equal, both would find the first of that id, as a search would.
void match_previous_contacts(const WorldState& state, StepScratch& s) {
    const auto& contacts = s.collision.contacts().contacts;
    const auto count = static_cast<uint32_t>(s.contact_points.size());
    s.contact_order.resize(count);
    for (uint32_t i = 0; i < count; ++i) {
        s.contact_order[i] = {contacts[s.contact_points[i].collision_contact].id, i};
    }
    radix_sort(s.contact_order, s.contact_order_scratch, [](const StepScratch::ContactOrder& c) { return c.id; });
    s.contact_previous.resize(count);
    const std::vector<uint64_t>& last = state.contact_ids;
    size_t k = 0;
    for (const StepScratch::ContactOrder& c : s.contact_order) {
        while (k < last.size() && last[k] < c.id) ++k;
        s.contact_previous[c.contact] = k < last.size() && last[k] == c.id ? static_cast<long>(k) : -1;
    }
}

// The contacts of the last step that no model built again this step (not
// continued by fill_contact_input), gathered per model for contacts_ended
// (ABI 1.9), which commit_state calls: a discarded or failed step ends
// nothing. In ascending id order: the state keeps contacts sorted.
void gather_ended_contacts(const WorldModel& model, const WorldState& state, StepScratch& s) {
    for (auto& batch : s.friction_batches) batch.ended_ids.clear(), batch.ended_state.clear();
    for (uint32_t k = 0; k < state.contact_ids.size(); ++k) {
        const uint32_t f = state.contact_models[k];
        if (s.previous_continued[k] != 0 || f >= model.friction_instances.size() ||
            model.friction_instances[f].plugin().friction.contacts_ended == nullptr) {
            continue;
        }
        auto& batch = s.friction_batches[f];
        batch.ended_ids.push_back(state.contact_ids[k]);
        batch.ended_state.insert(batch.ended_state.end(), state.contact_state.begin() + state.contact_state_start[k],
                                 state.contact_state.begin() + state.contact_state_start[k + 1]);
    }
}

}  // namespace

void collect_contact_rows(const WorldModel& model, const WorldState& state, WorkerPool* pool, StepScratch& s,
                          StepStatistics& statistics) {
    s.contact_points.clear();
    s.contact_coupling.clear();
    s.contact_jacobian.clear();
    s.contact_order.clear();  // the step's contacts for commit_state: none until matched below
    for (auto& g : s.group_contact_points) g.points.clear(), g.owner.clear();
    if (s.friction_batches.size() < model.friction_instances.size()) {
        s.friction_batches.resize(model.friction_instances.size());
    }
    for (auto& b : s.friction_batches) b.contacts.clear();
    s.previous_continued.assign(state.contact_ids.size(), 0);
    if (!s.collision_possible) return gather_ended_contacts(model, state, s);
    const auto& contacts = s.collision.contacts().contacts;

    // Contact points and the material points on the moving bodies, as far
    // as max_contact_row_values allows (their rows' Jacobians and
    // responses at their friction model's most rows, and their points'
    // Jacobians): from the first contact that would pass it on, the
    // contacts are dropped for this step.
    size_t row_values = 0;
    bool full = false;  // a contact passed the cap: the ones after it are dropped too
    for (uint32_t ci = 0; ci < contacts.size(); ++ci) {
        const collision::Contact& c = contacts[ci];
        StepScratch::ContactPoint p{};
        p.collision_contact = ci;
        const collision::Shape& a = s.collision.shape(c.shape_a);
        const collision::Shape& b = s.collision.shape(c.shape_b);
        double sample_weight = HUGE_VAL;  // the smaller of the two sides' when both are cables
        for (int side = 0; side < 2; ++side) {
            const int32_t element = collision_element(model, side == 0 ? a.body : b.body);
            p.element[side] = element >= 0 && !model.fixed[static_cast<uint32_t>(element)] ? element : -1;
        }
        if (p.element[0] < 0 && p.element[1] < 0) continue;
        p.pair = contact_material_pair(model, a, b);
        const uint32_t most_rows = WorldState::contact_rows_of(
            model.friction_instances[model.material_pairs[p.pair].friction].plugin().friction);
        size_t values = 0;
        for (int side = 0; side < 2; ++side) {
            if (p.element[side] < 0) continue;
            const auto e = static_cast<uint32_t>(p.element[side]);
            values += most_rows * (size_t{model.element_nv[e]} + model.blocks[model.element_block[e]].nv) +
                      6 * size_t{model.element_nv[e]};
        }
        full = full || row_values + values > model.settings.max_contact_row_values;
        if (full) {
            ++statistics.contacts_dropped;
            continue;
        }
        row_values += values;
        const auto index = static_cast<uint32_t>(s.contact_points.size());
        for (int side = 0; side < 2; ++side) {
            if (p.element[side] < 0) continue;
            const auto e = static_cast<uint32_t>(p.element[side]);
            const uint32_t group = model.element_group[e];
            const auto body = static_cast<uint32_t>(side == 0 ? a.body : b.body);
            auto& gp = s.group_contact_points[group];
            if (body >= model.element_count) {
                // A cable contact sample: the centreline point, standing for
                // `weight` metres of cable (seed000 2.11: contact at the
                // Gauss points of the touching patch, with their weights).
                const WorldModel::ContactSample& sample = model.contact_samples[body - model.element_count];
                sample_weight = std::min(sample_weight, sample.weight);
                gp.points.push_back({e - model.element_groups[group].first, 0, {sample.s, 0.0, 0.0}});
            } else {
                const collision::Pose& pose = s.body_poses[e];
                const collision::Vec3 local = pose.orientation.conjugate() * (c.position - pose.position);
                gp.points.push_back({e - model.element_groups[group].first, 0, {local.x(), local.y(), local.z()}});
            }
            gp.owner.push_back(2 * index + static_cast<uint32_t>(side));
            p.jacobian[side] = static_cast<uint32_t>(s.contact_jacobian.size());
            s.contact_jacobian.resize(s.contact_jacobian.size() + 6 * model.element_nv[e]);
        }
        p.distributed = sample_weight < HUGE_VAL;
        p.weight = p.distributed ? sample_weight : 1.0;
        s.contact_points.push_back(p);
    }
    const auto count = static_cast<uint32_t>(s.contact_points.size());
    if (count == 0) return gather_ended_contacts(model, state, s);

    // Twists and Jacobians of the points: one call per element group.
    std::vector<double>& twist = s.contact_twists;
    std::vector<double>& twist_start = s.contact_twists_start;
    twist.assign(12 * static_cast<size_t>(count), 0.0);
    twist_start.assign(12 * static_cast<size_t>(count), 0.0);
    for (size_t gi = 0; gi < model.element_groups.size(); ++gi) {
        auto& gp = s.group_contact_points[gi];
        if (gp.points.empty()) continue;
        const ElementGroup& g = model.element_groups[gi];
        const size_t n = gp.points.size();
        ask_material_frames(g, element_batch(g, state), gp);
        for (size_t k = 0; k < n; ++k) {
            const uint32_t contact = gp.owner[k] / 2, side = gp.owner[k] % 2;
            const double* jp = gp.jacobians.data() + 6 * g.nv * k;
            std::copy_n(jp, 6 * g.nv, s.contact_jacobian.data() + s.contact_points[contact].jacobian[side]);
            std::copy_n(gp.twists.data() + 6 * k, 6, twist_start.data() + 12 * contact + 6 * side);
            if (g.chain) {
                // A cable: its tangent (the material frame's x axis) orients
                // the contact's friction directions (below).
                const double* o = gp.poses.data() + 7 * k + 3;
                const collision::Vec3 t = collision::Quat(o[0], o[1], o[2], o[3]) * collision::Vec3::UnitX();
                std::copy_n(t.data(), 3, s.contact_points[contact].cable_tangent);
            }
            // The point's twist at the free velocity v* (gravity and applied
            // forces included, contact impulses not): the direction the
            // contact would slide in, which friction models align with.
            const uint32_t e = gp.points[k].element + g.first;
            const double* v_free = s.v_free.data() + model.element_v_offset[e];
            double* point_twist = twist.data() + 12 * contact + 6 * side;
            if (g.nv == 6) {
                jacobian_times_velocity<6>(jp, v_free, g.nv, point_twist);
            } else {
                jacobian_times_velocity<0>(jp, v_free, g.nv, point_twist);
            }
        }
    }

    const double h = model.settings.timestep;
    // The friction models' input, grouped by instance: each contact's place
    // in its model's batch first (contact order), then the input of every
    // contact into its own slots, on the pool when there is one.
    match_previous_contacts(state, s);
    // Every contact has kRows impulse and kState state slots (the state's
    // layout), of which the world's friction models use the first
    // slots.rows and slots.state: only those are copied and cleared, the
    // others stay zero (never written), so a pile of thousands of contacts
    // does not move 80 values per contact three times a step.
    StepScratch::ContactSlots& slots = s.contact_slots_used;
    slots = {};
    for (const PluginInstance& model_instance : model.friction_instances) {
        slots.rows = std::max(slots.rows, WorldState::contact_rows_of(model_instance.plugin().friction));
        slots.state = std::max(slots.state, WorldState::contact_state_of(model_instance.plugin().friction));
    }
    if (s.next_contact_impulses.size() < static_cast<size_t>(count) * kRows) {
        s.next_contact_impulses.resize(static_cast<size_t>(count) * kRows);
        s.next_contact_state.resize(static_cast<size_t>(count) * kState);
    }
    s.contact_directions.resize(static_cast<size_t>(count) * kRows * 6);
    s.contact_explicit.resize(static_cast<size_t>(count) * 6);
    s.contact_tangents.resize(static_cast<size_t>(count) * 6);
    for (uint32_t i = 0; i < count; ++i) {
        StepScratch::ContactPoint& p = s.contact_points[i];
        p.friction = model.material_pairs[p.pair].friction;
        auto& batch = s.friction_batches[p.friction];
        p.batch_index = static_cast<uint32_t>(batch.contacts.size());
        batch.contacts.push_back(i);
        // The last step's contacts the same model goes on with, marked here
        // and not by fill_contact_input on the pool's threads: neighbouring
        // contacts' bytes would share cache lines across cores.
        const long previous = s.contact_previous[i];
        if (previous >= 0 && state.contact_models[previous] == p.friction) s.previous_continued[previous] = 1;
    }
    for (size_t f = 0; f < model.friction_instances.size(); ++f) {
        auto& batch = s.friction_batches[f];
        batch.input.resize(batch.contacts.size());
        const pivot_friction_functions& fn = model.friction_instances[f].plugin().friction;
        const bool with_motion = fn.build_with_motion != nullptr;
        const bool with_bodies = with_motion || fn.build_with_bodies != nullptr;
        batch.bodies.resize(with_bodies ? batch.contacts.size() : 0);
        batch.motion.resize(with_motion ? batch.contacts.size() : 0);
    }
    // Cables' blocks are solved through their chain factorization, which
    // one thread at a time uses: with cables, the calling thread only.
    const bool cables = std::any_of(model.blocks.begin(), model.blocks.end(), [](const MassBlock& b) { return b.chain; });
    WorkerPool* shared = cables ? nullptr : pool;
    const uint32_t workers = shared != nullptr ? shared->size() : 1;
    if (s.worker_rhs.size() < workers) s.worker_rhs.resize(workers);
    // At least 128 bytes each: two workers' rhs of a rigid body (48 bytes)
    // never share a cache line, which the two cores would pass back and
    // forth at every contact.
    for (uint32_t w = 0; w < workers; ++w) s.worker_rhs[w].resize(std::max<size_t>(s.block_rhs.size(), 16));
    WorkerPool::for_chunks(shared, count, kContactChunk, [&](uint32_t worker, uint32_t begin, uint32_t end) {
        for (uint32_t i = begin; i < end; ++i) fill_contact_input(model, state, s, i, slots, s.worker_rhs[worker].data());
    });

    // The contacts that ended; one build() per friction instance.
    gather_ended_contacts(model, state, s);
    const pivot_step_info step{sizeof(pivot_step_info), 0, h, state.time,
                               {model.settings.gravity[0], model.settings.gravity[1], model.settings.gravity[2]}};
    for (size_t f = 0; f < model.friction_instances.size(); ++f) {
        auto& batch = s.friction_batches[f];
        const auto n = static_cast<uint32_t>(batch.contacts.size());
        if (n == 0) continue;
        const PluginInstance& inst = model.friction_instances[f];
        const pivot_friction_functions& fn = inst.plugin().friction;
        const uint32_t m = fn.max_rows_per_contact;
        const uint32_t st = fn.state_per_contact;
        batch.rows.resize(static_cast<size_t>(n) * std::max(m, 1u));
        batch.directions.resize(static_cast<size_t>(n) * std::max(m, 1u) * 6);
        batch.coupling.resize(static_cast<size_t>(n) * std::max(m * m, 1u));
        batch.impulses.assign(6 * static_cast<size_t>(n), 0.0);
        batch.state.resize(static_cast<size_t>(n) * std::max(st, 1u));
        batch.row_counts.assign(n, 0);
        for (uint32_t k = 0; k < n; ++k) {
            std::copy_n(s.next_contact_state.data() + static_cast<size_t>(batch.contacts[k]) * kState, st,
                        batch.state.data() + static_cast<size_t>(k) * st);
        }
        CallResult r = checked_friction_build(inst, batch.input.data(), batch.bodies.empty() ? nullptr : batch.bodies.data(),
                                              n, step, guarded(batch.state), guarded(batch.rows),
                                              guarded(batch.directions), guarded(batch.coupling),
                                              guarded(batch.impulses), guarded(batch.row_counts),
                                              batch.motion.empty() ? nullptr : batch.motion.data());
        require_usable(r);
    }

    // Where each contact's rows, Jacobians, responses and coupling block go:
    // batch by batch, contact by contact (the layout the rows had when they
    // were appended one after another); then every contact fills its own.
    const auto contact_rows_begin = static_cast<uint32_t>(s.rows.size());
    auto rows_end = contact_rows_begin;
    auto jacobian_end = static_cast<uint32_t>(s.jacobian.size());
    auto response_end = static_cast<uint32_t>(s.response.size());
    s.contact_layout.resize(count);
    for (size_t f = 0; f < model.friction_instances.size(); ++f) {
        auto& batch = s.friction_batches[f];
        const auto n = static_cast<uint32_t>(batch.contacts.size());
        const uint32_t m = model.friction_instances[f].plugin().friction.max_rows_per_contact;
        const bool coupled = model.friction_instances[f].plugin().has(PIVOT_FRICTION_CAP_STANDARD_LCP);
        for (uint32_t k = 0; k < n; ++k) {
            const uint32_t i = batch.contacts[k];
            StepScratch::ContactPoint& p = s.contact_points[i];
            const uint32_t row_count = std::min(batch.row_counts[k], kRows);
            p.row0 = rows_end;
            p.row_count = row_count;
            StepScratch::ContactLayout& at = s.contact_layout[i];
            at = {jacobian_end, response_end, -1};
            if (coupled && row_count > 0) {
                // The model's m x m block over the contact's rows (checked finite by checked_friction_build).
                at.coupling = static_cast<int32_t>(s.contact_coupling.size());
                const double* block = batch.coupling.data() + static_cast<size_t>(k) * m * m;
                s.contact_coupling.insert(s.contact_coupling.end(), block, block + static_cast<size_t>(m) * m);
            }
            for (uint32_t r_i = 0; r_i < row_count; ++r_i) {
                const double* d = batch.directions.data() + (static_cast<size_t>(k) * m + r_i) * 6;
                if (!acts(d)) continue;
                for (int side = 0; side < 2; ++side) {
                    if (p.element[side] < 0) continue;
                    const auto e = static_cast<uint32_t>(p.element[side]);
                    jacobian_end += model.element_nv[e];
                    response_end += model.blocks[model.element_block[e]].nv;
                }
            }
            rows_end += row_count;
        }
    }
    s.rows.resize(rows_end);
    s.jacobian.resize(jacobian_end, 0.0);
    s.response.resize(response_end, 0.0);
    WorkerPool::for_chunks(shared, count, kContactChunk, [&](uint32_t, uint32_t begin, uint32_t end) {
        for (uint32_t i = begin; i < end; ++i) build_contact_rows(model, s, i);
    });

    // Explicit impulses (on body 2 at the point; body 1 the opposite):
    // v* += M^-1 J_point^T impulse, contact by contact in batch order.
    for (size_t f = 0; f < model.friction_instances.size(); ++f) {
        const auto& batch = s.friction_batches[f];
        const bool explicit_force = model.friction_instances[f].plugin().has(PIVOT_FRICTION_CAP_EXPLICIT_FORCE);
        for (uint32_t k = 0; k < batch.contacts.size(); ++k) {
            const uint32_t i = batch.contacts[k];
            double* report_explicit = s.contact_explicit.data() + 6 * static_cast<size_t>(i);
            std::fill_n(report_explicit, 6, 0.0);
            if (!explicit_force) continue;
            const StepScratch::ContactPoint& p = s.contact_points[i];
            const double* imp = batch.impulses.data() + 6 * static_cast<size_t>(k);
            std::copy_n(imp, 6, report_explicit);
            for (int side = 0; side < 2; ++side) {
                if (p.element[side] < 0) continue;
                const auto e = static_cast<uint32_t>(p.element[side]);
                const uint32_t nv = model.element_nv[e];
                const double sign = side == 1 ? 1.0 : -1.0;
                const double* jp = s.contact_jacobian.data() + p.jacobian[side];
                const uint32_t block = model.element_block[e];
                const uint32_t first = model.element_block_offset[e];
                const uint32_t block_nv = model.blocks[block].nv;
                double* generalized = s.block_rhs.data();
                std::fill_n(generalized, block_nv, 0.0);
                for (uint32_t col = 0; col < nv; ++col) {
                    double sum = 0.0;
                    for (int q = 0; q < 6; ++q) sum += imp[q] * jp[q + 6 * col];
                    generalized[first + col] = sign * sum;
                }
                solve_mass_block(model, s, block, generalized, first);
                double* v = s.v_free.data() + model.blocks[block].v_offset;
                for (uint32_t col = 0; col < block_nv; ++col) v[col] += generalized[col];
            }
        }
    }
    // The rows' responses Mbar^-1 J^T, a contact's rows through their
    // bodies' factors together (solve_row_responses batches rows on the
    // same blocks).
    solve_row_responses(model, s, contact_rows_begin, static_cast<uint32_t>(s.rows.size()), shared);
}

}  // namespace pivot
