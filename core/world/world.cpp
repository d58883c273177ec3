// Building a world and reading it: bodies become elements of the rigid-body
// element plugin, with their shapes; the world's state read and set body by
// body; its energy. Joints (world_joints.cpp), cables (world_cables.cpp),
// materials (world_materials.cpp) and the solvers' chains
// (world_solvers.cpp) are built in files of their own.
#include "world/world.hpp"
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
    model_.shapes.push_back(s);
    scratch_.reset();
}

const std::vector<ContactReport>& World::contacts() const {
    static const std::vector<ContactReport> none;
    return scratch_ ? scratch_->contact_reports : none;
}

World::~World() = default;

ElementGroup& World::rigid_group() {
    const PluginRecord& plugin = registry_->require(PIVOT_KIND_ELEMENT, model_.settings.rigid_body_element);
    for (ElementGroup& g : model_.element_groups) {
        if (&g.instance.plugin() == &plugin) return g;
    }
    ElementGroup g;
    g.instance = PluginInstance(plugin, pack_params(plugin, ParamScope::instance, model_.settings.rigid_body_options,
                                                    "settings.rigid_body_options"));
    g.node_nq = plugin.element.coords_per_node;
    g.node_nv = plugin.element.velocities_per_node;
    g.nq = plugin.element.nodes_per_element * g.node_nq;
    g.nv = plugin.element.nodes_per_element * g.node_nv;
    g.item_stride = plugin.item_param_count();
    if (g.nq != 7 || g.nv != 6 || plugin.has(PIVOT_ELEMENT_CAP_SHARED_NODES)) {
        throw Error(fmt::format("{}: a rigid-body element must have 7 coordinates and 6 velocities", describe(plugin)));
    }
    // A new group goes after the existing ones (cables, when they came
    // first): add_body inserts at its offsets before the next relayout().
    g.first = model_.element_count;
    g.q_offset = model_.nq;
    g.v_offset = model_.nv;
    model_.element_groups.push_back(std::move(g));
    return model_.element_groups.back();
}

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
    // Contact samples of the cables: Gauss-Legendre points of each element.
    model_.contact_samples.clear();
    for (const CableRecord& cable : model_.cables) {
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
    uint32_t impulses = 0;
    for (JointGroup& jg : model_.joint_groups) {
        jg.impulse_offset = impulses;
        impulses += jg.count * jg.max_rows;
    }
    state_.joint_impulses.assign(impulses, 0.0);  // building resets the warm start
    scratch_.reset();                             // re-sized at the next step
}

BodyId World::add_body(const BodyDescription& body) {
    const std::string where = fmt::format("body '{}'", body.name);
    if (body.name.empty()) throw Error("body: name must not be empty");
    if (body.name == "world") throw Error("body 'world': the name 'world' is reserved for the fixed world frame");
    if (body_by_name_.count(body.name)) throw Error(where + ": name: another body already has this name");
    if (std::any_of(model_.cables.begin(), model_.cables.end(), [&](const CableRecord& c) { return c.name == body.name; })) {
        throw Error(where + ": name: a cable already has this name");
    }
    check_mass_and_inertia(body.mass, body.inertia, where);
    if (!body.fixed) {
        const BodyRecord* lightest = nullptr;
        const BodyRecord* heaviest = nullptr;
        for (const BodyRecord& b : model_.bodies) {
            if (model_.fixed[b.element]) continue;
            if (!lightest || b.mass < lightest->mass) lightest = &b;
            if (!heaviest || b.mass > heaviest->mass) heaviest = &b;
        }
        check_mass_ratio(body.mass, where, lightest ? lightest->mass : 0.0, lightest ? lightest->name : "",
                         heaviest ? heaviest->mass : 0.0, heaviest ? heaviest->name : "");
    }
    check_position(body.position, where, "position");
    check_velocity(body.linear_velocity, body.angular_velocity, where);
    const auto& o = body.orientation;
    const double norm = std::sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2] + o[3] * o[3]);
    if (!(std::abs(norm - 1.0) <= 1e-6)) {
        throw Error(fmt::format("{}: orientation: not a unit quaternion (norm {})", where, norm));
    }

    std::vector<collision::Shape> shapes;
    for (size_t k = 0; k < body.shapes.size(); ++k) {
        shapes.push_back(make_shape(body.shapes[k], fmt::format("{}: shapes[{}]", where, k), false));
    }

    ElementGroup& g = rigid_group();
    const uint32_t group = static_cast<uint32_t>(&g - model_.element_groups.data());
    const auto& I = body.inertia;
    const nlohmann::json item = {{"mass", body.mass},
                                 {"inertia_diagonal", {I[0], I[4], I[8]}},
                                 {"inertia_products", {I[1], I[2], I[5]}}};
    const auto params = pack_params(g.instance.plugin(), ParamScope::item, item, where);
    // Insert the element at the end of its group, in the global arrays too.
    const uint32_t q_at = g.q_offset + g.count * g.nq;
    const uint32_t v_at = g.v_offset + g.count * g.nv;
    const uint32_t element_at = g.first + g.count;
    const double q[7] = {body.position[0], body.position[1], body.position[2], o[0] / norm, o[1] / norm, o[2] / norm,
                         o[3] / norm};
    const double v[6] = {body.linear_velocity[0],  body.linear_velocity[1],  body.linear_velocity[2],
                         body.angular_velocity[0], body.angular_velocity[1], body.angular_velocity[2]};
    state_.q.insert(state_.q.begin() + q_at, q, q + 7);
    state_.v.insert(state_.v.begin() + v_at, v, v + 6);
    state_.applied.insert(state_.applied.begin() + v_at, 6, 0.0);
    model_.fixed.insert(model_.fixed.begin() + element_at, body.fixed ? 1 : 0);
    g.item_params.insert(g.item_params.end(), params.begin(), params.end());
    g.q_reference.insert(g.q_reference.end(), q, q + 7);
    ++g.count;
    for (auto& b : model_.bodies) {
        if (b.element >= element_at) ++b.element;
    }
    for (auto& j : model_.joints) {
        for (Attachment* a : {&j.frame1, &j.frame2}) {
            if (a->element != Attachment::kWorld && a->element >= element_at) ++a->element;
        }
    }
    for (auto& shape : model_.shapes) {
        if (shape.body != collision::kStaticBody && shape.body >= static_cast<int32_t>(element_at)) ++shape.body;
    }
    for (auto& shape : shapes) {
        shape.body = static_cast<int32_t>(element_at);
        model_.shapes.push_back(shape);
    }
    model_.bodies.push_back({body.name, group, element_at, body.mass});
    body_by_name_.emplace(body.name, static_cast<BodyId>(model_.bodies.size() - 1));
    relayout();
    return static_cast<BodyId>(model_.bodies.size() - 1);
}

BodyId World::body(std::string_view name) const {
    auto it = body_by_name_.find(std::string(name));
    if (it == body_by_name_.end()) throw Error(fmt::format("no body named '{}'", name));
    return it->second;
}

JointId World::joint(std::string_view name) const {
    auto it = joint_by_name_.find(std::string(name));
    if (it == joint_by_name_.end()) throw Error(fmt::format("no joint named '{}'", name));
    return it->second;
}

const double* World::body_q(BodyId b) const {
    const BodyRecord& r = model_.bodies.at(b);
    const ElementGroup& g = model_.element_groups[r.group];
    return state_.q.data() + g.q_offset + (r.element - g.first) * g.nq;
}

const double* World::body_v(BodyId b) const {
    return state_.v.data() + model_.element_v_offset[model_.bodies.at(b).element];
}

std::array<double, 3> World::position(BodyId b) const {
    const double* q = body_q(b);
    return {q[0], q[1], q[2]};
}
std::array<double, 4> World::orientation(BodyId b) const {
    const double* q = body_q(b);
    return {q[3], q[4], q[5], q[6]};
}
std::array<double, 3> World::linear_velocity(BodyId b) const {
    const double* v = body_v(b);
    return {v[0], v[1], v[2]};
}
std::array<double, 3> World::angular_velocity(BodyId b) const {
    const double* v = body_v(b);
    return {v[3], v[4], v[5]};
}

void World::set_pose(BodyId b, const std::array<double, 3>& p, const std::array<double, 4>& o) {
    const double norm = std::sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2] + o[3] * o[3]);
    if (!(std::abs(norm - 1.0) <= 1e-6)) {
        throw Error(fmt::format("body '{}': set_pose: orientation must be a unit quaternion", body_name(b)));
    }
    check_position(p, fmt::format("body '{}': set_pose", body_name(b)), "position");
    auto* q = const_cast<double*>(body_q(b));
    q[0] = p[0], q[1] = p[1], q[2] = p[2];
    for (int i = 0; i < 4; ++i) q[3 + i] = o[i] / norm;
    state_.energy_watch.valid = false;
}

void World::set_velocity(BodyId b, const std::array<double, 3>& linear, const std::array<double, 3>& angular) {
    check_velocity(linear, angular, fmt::format("body '{}': set_velocity", body_name(b)));
    auto* v = const_cast<double*>(body_v(b));
    for (int i = 0; i < 3; ++i) v[i] = linear[i], v[3 + i] = angular[i];
    state_.energy_watch.valid = false;
}

void World::set_external_force(BodyId b, const std::array<double, 3>& force, const std::array<double, 3>& torque) {
    if (!all_finite(force.data(), 3) || !all_finite(torque.data(), 3)) {
        throw Error(fmt::format("body '{}': external force: must be finite", body_name(b)));
    }
    double* f = state_.applied.data() + model_.element_v_offset[model_.bodies.at(b).element];
    for (int i = 0; i < 3; ++i) f[i] = force[i], f[3 + i] = torque[i];
}

const JointReaction& World::reaction(JointId j) const {
    static const JointReaction none{};
    return scratch_ ? scratch_->reactions.at(j) : none;
}

const StepStatistics& World::statistics() const {
    static const StepStatistics none{};
    return scratch_ ? scratch_->statistics : none;
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
    const pivot_material_point point{0, 0, {a.local_point[0], a.local_point[1], a.local_point[2]}};
    GuardedArray<double, 7> pose_out;
    GuardedArray<double, 6> twist_out;
    frame_jacobian_.resize(6 * g.nv);  // grows once: readers call this every frame (cable nodes)
    CallResult r = checked_material_frames(g.instance, batch, &point, 1, guarded(pose_out), guarded(twist_out),
                                           guarded(frame_jacobian_));
    if (!r.ok()) throw Error(r.message);
    const double* raw_pose = pose_out.values.data();
    std::copy_n(twist_out.values.data(), 6, twist);
    std::copy(raw_pose, raw_pose + 3, pose);
    // The frame's orientation: the material frame's, then the attachment's rotation.
    const Quatd body_conjugate = {raw_pose[3], -raw_pose[4], -raw_pose[5], -raw_pose[6]};
    const Quatd frame = conjugate_times(body_conjugate, a.local_rotation);  // q_body * local_rotation
    std::copy(frame.begin(), frame.end(), pose + 3);
}

Energy World::energy() const {
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
    // (the potential of the compliant constitutive law c lambda = -phi).
    for (const JointGroup& g : model_.joint_groups) {
        PluginOutput<pivot_row> rows(g.max_rows);
        PluginOutput<double> jacobians(12 * g.max_rows);
        for (uint32_t m = 0; m < g.count; ++m) {
            const JointRecord& record = model_.joints[g.joints[m]];
            double pose1[7], pose2[7], twist1[6], twist2[6];
            attachment_frame(record.frame1, pose1, twist1);
            attachment_frame(record.frame2, pose2, twist2);
            const pivot_joint_batch batch{1, g.item_stride, g.item_params.data() + m * g.item_stride,
                                          pose1, pose2, twist1, twist2};
            GuardedArray<uint32_t, 1> row_count;
            CallResult r = checked_joint_rows(g.instance, batch, step, guarded(rows), guarded(jacobians),
                                              guarded(row_count));
            if (!r.ok()) throw Error(r.message);
            const uint32_t count = row_count.values[0];
            for (uint32_t k = 0; k < count; ++k) {
                if (rows[k].compliance > 0.0 && (rows[k].flags & PIVOT_ROW_POSITION_ERROR)) {
                    total.elastic += 0.5 * rows[k].violation * rows[k].violation / rows[k].compliance;
                }
            }
        }
    }
    return total;
}

}  // namespace pivot
