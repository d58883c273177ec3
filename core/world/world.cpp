// A world: its settings, static shapes, layout (relayout: the offsets of
// groups and elements after a change), material frames and energy, and what
// the last step reported. Bodies (world_bodies.cpp), joints
// (world_joints.cpp), cables (world_cables.cpp), materials
// (world_materials.cpp) and the solvers' chains (world_solvers.cpp) are
// built in files of their own.
#include "world/world.hpp"

#include "integrate/gssss_world_step.hpp"
#include "world/physical_limits.hpp"

#include <algorithm>
#include <tuple>
#include <cmath>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/worker_pool.hpp"
#include "plugin_host/checked_calls.hpp"
#include "plugin_host/parameters.hpp"
#include "step/step_scratch.hpp"
#include "world/frame_math.hpp"

namespace pivot {

using namespace frame_math;  // the vector and quaternion helpers of world building

pivot_element_batch element_batch(const ElementGroup& g, const WorldState& state, const double* v, const double* q) {
    if (q == nullptr) q = state.q.data() + g.q_offset;
    if (v == nullptr) v = state.v.data() + g.v_offset;
    if (!g.chain) return pivot_element_batch{g.count, g.item_stride, g.item_params.data(), q, v, g.q_reference.data()};
    // A chain stores nodes: element e is nodes e and e + 1, gathered into
    // count x nq (the batch layout every element call reads).
    g.gathered_q.resize(static_cast<size_t>(g.count) * g.nq);
    g.gathered_v.resize(static_cast<size_t>(g.count) * g.nv);
    for (uint32_t e = 0; e < g.count; ++e) {
        std::copy_n(q + g.element_q(e), g.nq, g.gathered_q.data() + static_cast<size_t>(e) * g.nq);
        std::copy_n(v + g.element_v(e), g.nv, g.gathered_v.data() + static_cast<size_t>(e) * g.nv);
    }
    return pivot_element_batch{g.count,          g.item_stride,       g.item_params.data(),
                               g.gathered_q.data(), g.gathered_v.data(), g.q_reference.data()};
}

World::World(const PluginRegistry& registry, WorldSettings settings) : registry_(&registry) {
    check_timestep(settings.timestep);
    check_gravity(settings.gravity);
    check_gssss_settings(settings.gssss);
    const auto require_nonnegative = [](double value, const char* field, const char* unit) {
        if (!(value >= 0.0) || !std::isfinite(value)) {
            throw Error(fmt::format("settings.{}: must be a finite number >= 0{}, got {}", field, unit, value));
        }
    };
    require_nonnegative(settings.contact_margin, "contact_margin", " m");
    require_nonnegative(settings.restitution_threshold, "restitution_threshold", " m/s");
    require_nonnegative(settings.contact_regularization, "contact_regularization", "");
    require_nonnegative(settings.divergence_energy, "divergence_energy", "");
    require_nonnegative(settings.divergence_joint_error, "divergence_joint_error", " m");
    if (settings.projection_iterations > 16) {
        throw Error(fmt::format("settings.projection_iterations: must be 0..16, got {}", settings.projection_iterations));
    }
    require_nonnegative(settings.solver_acceptance, "solver_acceptance", " N s");
    require_nonnegative(settings.step_budget, "step_budget", " s");
    require_nonnegative(settings.step_time_limit, "step_time_limit", " s");
    if (settings.discard_halvings > WorldSettings::kMaxDiscardHalvings) {
        throw Error(fmt::format("settings.discard_halvings: at most {} (2^{} substeps), got {}",
                                WorldSettings::kMaxDiscardHalvings, WorldSettings::kMaxDiscardHalvings,
                                settings.discard_halvings));
    }
    if (settings.threads > 64) {
        throw Error(fmt::format("settings.threads: must be 0 (automatic) .. 64, got {}", settings.threads));
    }
    model_.settings = std::move(settings);
    solver_ = std::make_unique<LcpSolverChain>(registry, model_.settings.solver, model_.settings.fallback,
                                               model_.settings.solver_acceptance);
    make_island_chains();
    // The material "default" always exists (docs/scene-format.md); its friction
    // plugin is looked up only when something collides.
    MaterialDescription standard;
    standard.name = "default";
    model_.materials.push_back(standard);
}

collision::Shape World::make_shape(const ShapeDescription& d, const std::string& where, bool is_static) const {
    auto positive = [&](double v, const char* field) { check_shape_size(v, where, field); };
    collision::Shape shape;
    if (d.type == "sphere") {
        positive(d.radius, "radius");
        shape = collision::Shape::sphere(d.radius);
    } else if (d.type == "box") {
        for (int i = 0; i < 3; ++i) positive(d.size[i], "size");
        shape = collision::Shape::box({d.size[0], d.size[1], d.size[2]});
    } else if (d.type == "capsule" || d.type == "cylinder") {
        positive(d.radius, "radius");
        positive(d.length, "length");
        shape = d.type == "capsule" ? collision::Shape::capsule(d.radius, d.length)
                                    : collision::Shape::cylinder(d.radius, d.length);
    } else if (d.type == "plane") {
        if (!is_static) throw Error(where + ": type: a plane can only be a static shape");
        const Vec3d n = normalized(d.normal, where + ": normal");
        if (!(std::abs(d.offset) <= PhysicalLimits::max_coordinate)) {
            throw Error(fmt::format("{}: offset: must be finite and within +-{:g} m, got {}", where,
                                    PhysicalLimits::max_coordinate, d.offset));
        }
        shape = collision::Shape::plane({n[0], n[1], n[2]}, d.offset);
    } else {
        throw Error(fmt::format("{}: type: unknown shape type '{}' (sphere, box, capsule, cylinder, plane)", where,
                                d.type));
    }
    const auto& o = d.orientation;
    const double norm = std::sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2] + o[3] * o[3]);
    if (!(std::abs(norm - 1.0) <= 1e-6)) throw Error(where + ": orientation: must be a unit quaternion");
    check_position(d.position, where, "position");
    shape.local.position = {d.position[0], d.position[1], d.position[2]};
    shape.local.orientation = collision::Quat(o[0] / norm, o[1] / norm, o[2] / norm, o[3] / norm);
    auto it = std::find_if(model_.materials.begin(), model_.materials.end(),
                           [&](const MaterialDescription& m) { return m.name == d.material; });
    if (it == model_.materials.end()) throw Error(fmt::format("{}: material: no material named '{}'", where, d.material));
    shape.material = static_cast<uint32_t>(it - model_.materials.begin());
    return shape;
}

void World::add_static_shape(const ShapeDescription& shape) {
    const std::string where = fmt::format("static shape {}", model_.shapes.size());
    collision::Shape s = make_shape(shape, where, true);
    s.body = collision::kStaticBody;
    s.key = model_.next_shape_key++;
    model_.shapes.push_back(s);
    scratch_.reset();
}

const std::vector<ContactReport>& World::contacts() const { return outputs_.contact_reports; }

World::~World() = default;

void World::relayout() {
    state_.energy_watch.valid = false;
    // Groups are contiguous in q and v, in creation order.
    uint32_t element = 0, q = 0, v = 0;
    model_.element_group.clear();
    model_.element_v_offset.clear();
    model_.element_nv.clear();
    model_.blocks.clear();
    model_.element_block.clear();
    model_.element_block_offset.clear();
    for (uint32_t gi = 0; gi < model_.element_groups.size(); ++gi) {
        ElementGroup& g = model_.element_groups[gi];
        g.first = element;
        g.q_offset = q;
        g.v_offset = v;
        if (g.chain && g.count > 0) {
            model_.blocks.push_back({gi, element, g.count, v, g.v_size(), true});
        }
        for (uint32_t e = 0; e < g.count; ++e) {
            model_.element_group.push_back(gi);
            model_.element_v_offset.push_back(v + g.element_v(e));
            model_.element_nv.push_back(g.nv);
            if (!g.chain) model_.blocks.push_back({gi, element + e, 1, v + g.element_v(e), g.nv, false});
            model_.element_block.push_back(static_cast<uint32_t>(model_.blocks.size() - 1));
            model_.element_block_offset.push_back(g.chain ? g.element_v(e) : 0);
        }
        element += g.count;
        q += g.q_size();
        v += g.v_size();
    }
    model_.element_count = element;
    model_.element_damping.assign(element, {0.0, 0.0});
    model_.disabled.assign(element, 0);
    for (const BodyRecord& b : model_.bodies) {
        if (!b.removed && !b.enabled) model_.disabled[b.element] = 1;
    }
    model_.element_friction_profile.assign(element, 0);
    for (const BodyRecord& b : model_.bodies) {
        if (b.removed) continue;
        model_.element_damping[b.element] = {b.linear_damping, b.angular_damping};
        model_.element_friction_profile[b.element] = b.friction_profile;
    }
    // Contact samples of the cables: Gauss-Legendre points of each element.
    model_.contact_samples.clear();
    for (const CableRecord& cable : model_.cables) {
        if (cable.removed) continue;
        const ElementGroup& g = model_.element_groups[cable.group];
        for (uint32_t e = 0; e < g.count; ++e) {
            const double length = g.item_params[static_cast<size_t>(e) * g.item_stride + cable.length_param];
            for (uint32_t k = 0; k < cable.contact_points; ++k) {
                model_.contact_samples.push_back({g.first + e, cable.contact_s[k], cable.contact_w[k] * length});
            }
        }
    }
    model_.nq = q;
    model_.nv = v;
    // The joints' warm starts move with their groups: a joint added keeps
    // every other joint's impulses (a new joint and a new group start from
    // zero); JointGroup::laid_out is the members the old layout had.
    uint32_t impulses = 0;
    for (JointGroup& jg : model_.joint_groups) impulses += jg.count * jg.max_rows;
    std::vector<double> moved(impulses, 0.0);
    impulses = 0;
    for (JointGroup& jg : model_.joint_groups) {
        const size_t kept = static_cast<size_t>(std::min(jg.laid_out, jg.count)) * jg.max_rows;
        if (kept > 0 && jg.impulse_offset + kept <= state_.joint_impulses.size()) {
            std::copy_n(state_.joint_impulses.begin() + jg.impulse_offset, kept, moved.begin() + impulses);
        }
        jg.impulse_offset = impulses;
        jg.laid_out = jg.count;
        impulses += jg.count * jg.max_rows;
    }
    state_.joint_impulses = std::move(moved);
    scratch_.reset();  // re-sized at the next step
    // What the last step reported stays readable for what it reported on;
    // a new joint reads zeros until the next step.
    outputs_.reactions.resize(model_.joints.size(), JointReaction{});
    outputs_.broken_joints.reserve(model_.joints.size());
}

const JointReaction& World::reaction(JointId j) const { return outputs_.reactions.at(j); }

const StepStatistics& World::statistics() const { return outputs_.statistics; }

void World::element_frame(const ElementGroup& g, const pivot_element_batch& batch, const std::array<double, 3>& local,
                          double pose[7], double twist[6]) const {
    const pivot_material_point point{0, 0, {local[0], local[1], local[2]}};
    GuardedArray<double, 7> pose_out;
    GuardedArray<double, 6> twist_out;
    frame_jacobian_.resize(6 * g.nv);  // grows once: readers call this every frame (bodies, cable nodes)
    CallResult r = checked_material_frames(g.instance, batch, &point, 1, guarded(pose_out), guarded(twist_out),
                                           guarded(frame_jacobian_));
    if (!r.ok()) throw Error(r.message);
    std::copy_n(pose_out.values.data(), 7, pose);
    std::copy_n(twist_out.values.data(), 6, twist);
}

void World::attachment_frame(const Attachment& a, double pose[7], double twist[6]) const {
    if (a.element == Attachment::kWorld) {
        std::copy(a.local_point.begin(), a.local_point.end(), pose);
        std::copy(a.local_rotation.begin(), a.local_rotation.end(), pose + 3);
        std::fill(twist, twist + 6, 0.0);
        return;
    }
    const ElementGroup& g = model_.element_groups[model_.element_group[a.element]];
    const uint32_t e = a.element - g.first;
    // One element: its nodes are contiguous in the state, shared or not.
    const pivot_element_batch batch{1, g.item_stride, g.item_params.data() + e * g.item_stride,
                                    state_.q.data() + g.q_offset + g.element_q(e),
                                    state_.v.data() + g.v_offset + g.element_v(e), g.q_reference.data() + e * g.nq};
    double material[7];
    element_frame(g, batch, a.local_point, material, twist);
    std::copy(material, material + 3, pose);
    // The frame's orientation: the material frame's, then the attachment's rotation.
    const Quatd body_conjugate = {material[3], -material[4], -material[5], -material[6]};
    const Quatd frame = conjugate_times(body_conjugate, a.local_rotation);  // q_body * local_rotation
    std::copy(frame.begin(), frame.end(), pose + 3);
}

uint32_t World::joint_rows_now(const JointRecord& record) const {
    const JointGroup& g = model_.joint_groups[record.group];
    now_rows_.resize(std::max<size_t>(now_rows_.size(), g.max_rows));  // no allocation after the largest group
    now_jacobians_.resize(std::max<size_t>(now_jacobians_.size(), 12 * static_cast<size_t>(g.max_rows)));
    double pose1[7], pose2[7], twist1[6], twist2[6];
    attachment_frame(record.frame1, pose1, twist1);
    attachment_frame(record.frame2, pose2, twist2);
    const pivot_joint_batch batch{1, g.item_stride, g.item_params.data() + record.member * g.item_stride,
                                  pose1, pose2, twist1, twist2};
    GuardedArray<uint32_t, 1> row_count;
    // A joint that discards the world's h gives its rows at the smaller
    // steps the step itself takes then (discarded_step.cpp).
    pivot_step_info at{sizeof(pivot_step_info), 0, model_.settings.timestep, state_.time,
                       {model_.settings.gravity[0], model_.settings.gravity[1], model_.settings.gravity[2]}};
    CallResult r;
    for (uint32_t halvings = 0;; ++halvings) {
        r = checked_joint_rows(g.instance, batch, at, guarded(now_rows_), guarded(now_jacobians_), guarded(row_count));
        if (r.ok() || r.status != PIVOT_DISCARD || r.broken || halvings >= model_.settings.discard_halvings) break;
        at.timestep /= 2.0;
    }
    if (!r.ok()) throw Error(r.message);
    return row_count.values[0];
}

namespace {

// The largest |violation| of the rows flagged PIVOT_ROW_POSITION_ERROR.
double max_position_error(const pivot_row* rows, uint32_t count) {
    double error = 0.0;
    for (uint32_t k = 0; k < count; ++k) {
        if (rows[k].flags & PIVOT_ROW_POSITION_ERROR) error = std::max(error, std::abs(rows[k].violation));
    }
    return error;
}

}  // namespace

double World::joint_error_now(JointId j) const {
    const JointRecord& record = live_joint(j, "joint_error");
    return record.enabled ? max_position_error(now_rows_.data(), joint_rows_now(record)) : 0.0;
}

Energy World::energy(double* max_joint_error) const {
    Energy total;
    pivot_step_info step{sizeof(pivot_step_info), 0, model_.settings.timestep, state_.time,
                         {model_.settings.gravity[0], model_.settings.gravity[1], model_.settings.gravity[2]}};
    for (const ElementGroup& g : model_.element_groups) {
        if (g.count == 0) continue;
        const pivot_element_batch batch = element_batch(g, state_);
        GuardedArray<double, 3> energies;
        CallResult r = checked_energy(g.instance, batch, step, guarded(energies));
        if (!r.ok()) throw Error(r.message);
        const double* e = energies.values.data();
        total.kinetic += e[0];
        total.gravitational += e[1];
        total.elastic += e[2];
    }
    // Compliant joint rows store (1/2) phi^2 / c at the current configuration
    // (the potential of the compliant constitutive law c lambda = -phi); the
    // same rows give the joint errors now, when asked.
    double error = 0.0;
    for (const JointGroup& g : model_.joint_groups) {
        for (uint32_t m = 0; m < g.count; ++m) {
            const JointRecord& record = model_.joints[g.joints[m]];
            if (!record.enabled) continue;
            const uint32_t count = joint_rows_now(record);
            const pivot_row* rows = now_rows_.data();
            for (uint32_t k = 0; k < count; ++k) {
                if (rows[k].compliance > 0.0 && (rows[k].flags & PIVOT_ROW_POSITION_ERROR)) {
                    total.elastic += 0.5 * rows[k].violation * rows[k].violation / rows[k].compliance;
                }
            }
            error = std::max(error, max_position_error(rows, count));
        }
    }
    // A stretched elastic rope stores (1/2) EA s^2 / L for its stretch s
    // (the same law as its compliant row, c = L / EA).
    for (const RopeRecord& rope : model_.ropes) {
        if (rope.removed || rope.stiffness == 0.0) continue;
        rope_route(rope, rope_route_);
        pivot::rope_path(rope_route_, rope_path_);
        const double stretch = rope_path_.length - rope.length;
        if (stretch > 0.0) total.elastic += 0.5 * rope.stiffness * stretch * stretch / rope.length;
    }
    if (max_joint_error != nullptr) *max_joint_error = error;
    return total;
}

}  // namespace pivot
