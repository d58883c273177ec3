// A world's bodies: each an element of the body element plugin
// (WorldSettings::rigid_body_element), with shapes in the frame of its
// material point (0, 0, 0) (PIVOT_ELEMENT_GEOMETRY_SHAPES). Nothing here
// reads the element's coordinates: a body is placed by the plugin's
// node_coordinates, given a velocity through the Jacobian of that frame,
// and read back through material_frames, so the element's layout is its
// own (the first-party rigid body's q = (x, quaternion), v = (v, omega) is
// one such layout).
#include <algorithm>
#include <cmath>

#include <Eigen/Dense>
#include <fmt/format.h>

#include "common/error.hpp"
#include "plugin_host/checked_calls.hpp"
#include "plugin_host/parameters.hpp"
#include "step/step_scratch.hpp"
#include "world/physical_limits.hpp"
#include "world/frame_math.hpp"
#include "world/world.hpp"

namespace pivot {

using frame_math::all_finite;

ElementGroup& World::body_group() {
    const PluginRecord& plugin = registry_->require(PIVOT_KIND_ELEMENT, model_.settings.rigid_body_element);
    for (ElementGroup& g : model_.element_groups) {
        if (&g.instance.plugin() == &plugin) return g;
    }
    const pivot_element_functions& f = plugin.element;
    if (f.geometry != PIVOT_ELEMENT_GEOMETRY_SHAPES || f.nodes_per_element != 1 ||
        plugin.has(PIVOT_ELEMENT_CAP_SHARED_NODES)) {
        throw Error(fmt::format("{}: an element for bodies must carry shapes (PIVOT_ELEMENT_GEOMETRY_SHAPES) and have "
                                "one node of its own (settings.rigid_body_element)",
                                describe(plugin)));
    }
    if (f.node_coordinates == nullptr && !(f.coords_per_node == 7 && f.velocities_per_node == 6)) {
        throw Error(fmt::format("{}: an element for bodies must place its node at a pose (node_coordinates, ABI "
                                "1.2) (settings.rigid_body_element)",
                                describe(plugin)));
    }
    ElementGroup g;
    g.instance = PluginInstance(plugin, pack_params(plugin, ParamScope::instance, model_.settings.rigid_body_options,
                                                    "settings.rigid_body_options"));
    g.node_nq = f.coords_per_node;
    g.node_nv = f.velocities_per_node;
    g.nq = g.node_nq;
    g.nv = g.node_nv;
    g.item_stride = plugin.item_param_count();
    // A new group goes after the existing ones (cables, when they came
    // first): add_body inserts at its offsets before the next relayout().
    g.first = model_.element_count;
    g.q_offset = model_.nq;
    g.v_offset = model_.nv;
    model_.element_groups.push_back(std::move(g));
    return model_.element_groups.back();
}

void World::place_body(const ElementGroup& g, const double pose[7], double* q, const std::string& where) const {
    const pivot_element_functions& f = g.instance.plugin().element;
    if (f.node_coordinates == nullptr) {  // a plugin before ABI 1.2: q = (x, quaternion), as hosts read it then
        std::copy_n(pose, 7, q);
        return;
    }
    PluginOutput<double> q_out(g.nq);
    const CallResult r = checked_node_coordinates(g.instance, pose, guarded(q_out));
    if (!r.ok()) throw Error(fmt::format("{}: {}", where, r.message));
    std::copy_n(q_out.data(), g.nq, q);
}

void World::body_velocities(const ElementGroup& g, const double* item_params, const double* q, const double twist[6],
                            double* v, const std::string& where) const {
    // J (6 x nv) of the body's frame at q; v solves J v = twist (least
    // squares, the smallest v for an element with more velocities than its
    // frame has: its internal motion at rest).
    const std::vector<double> zero(g.nv, 0.0);
    const pivot_element_batch batch{1, g.item_stride, item_params, q, zero.data(), q};
    double pose[7], at_rest[6];
    element_frame(g, batch, {0.0, 0.0, 0.0}, pose, at_rest);
    const Eigen::Map<const Eigen::MatrixXd> J(frame_jacobian_.data(), 6, g.nv);
    const Eigen::Map<const Eigen::Matrix<double, 6, 1>> t(twist);
    const Eigen::VectorXd solution = Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>(J).solve(t);
    const double miss = (J * solution - t).norm();
    if (!(miss <= 1e-9 * (1.0 + t.norm()))) {
        throw Error(fmt::format("{}: velocity: the body's element cannot move its frame with this twist (J v misses "
                                "it by {:.3g})",
                                where, miss));
    }
    std::copy_n(solution.data(), g.nv, v);
}

void World::body_frame(BodyId b, double pose[7], double twist[6]) const {
    const BodyRecord& r = live_body(b, "read");
    const ElementGroup& g = model_.element_groups[r.group];
    const uint32_t e = r.element - g.first;
    const pivot_element_batch batch{1, g.item_stride, g.item_params.data() + e * g.item_stride,
                                    state_.q.data() + g.q_offset + e * g.nq, state_.v.data() + g.v_offset + e * g.nv,
                                    g.q_reference.data() + e * g.nq};
    element_frame(g, batch, {0.0, 0.0, 0.0}, pose, twist);
}

void World::shift_elements_from(uint32_t element_at) {
    for (auto& b : model_.bodies) {
        if (b.element >= element_at) ++b.element;
    }
    for (auto& j : model_.joints) {
        for (Attachment* a : {&j.frame1, &j.frame2}) {
            if (a->element != Attachment::kWorld && a->element >= element_at) ++a->element;
        }
    }
    for (auto& rope : model_.ropes) {
        for (RopePoint& p : rope.route) {
            if (p.at.element != Attachment::kWorld && p.at.element >= element_at) ++p.at.element;
        }
    }
    for (auto& shape : model_.shapes) {
        if (shape.body != collision::kStaticBody && shape.body >= static_cast<int32_t>(element_at)) ++shape.body;
    }
}

BodyId World::add_body(const BodyDescription& body) {
    // A body built in code may go unnamed: it is called "#<index>" (what
    // pivot_world_body_name returns, and what a joint names it by).
    const std::string name = body.name.empty() ? fmt::format("#{}", model_.bodies.size()) : body.name;
    const std::string where = fmt::format("body '{}'", name);
    if (name == "world") throw Error("body 'world': the name 'world' is reserved for the fixed world frame");
    if (body_by_name_.count(name)) throw Error(where + ": name: another body already has this name");
    const auto named = [&](const CableRecord& c) { return !c.removed && c.name == name; };
    if (std::any_of(model_.cables.begin(), model_.cables.end(), named)) {
        throw Error(where + ": name: a cable already has this name");
    }
    check_mass_and_inertia(body.mass, body.inertia, where);
    if (!body.fixed) {
        const BodyRecord* lightest = nullptr;
        const BodyRecord* heaviest = nullptr;
        for (const BodyRecord& b : model_.bodies) {
            if (b.removed || model_.fixed[b.element]) continue;
            if (!lightest || b.mass < lightest->mass) lightest = &b;
            if (!heaviest || b.mass > heaviest->mass) heaviest = &b;
        }
        check_mass_ratio(body.mass, where, lightest ? lightest->mass : 0.0, lightest ? lightest->name : "",
                         heaviest ? heaviest->mass : 0.0, heaviest ? heaviest->name : "");
    }
    check_position(body.position, where, "position");
    check_velocity(body.linear_velocity, body.angular_velocity, where);
    check_damping(body.linear_damping, body.angular_damping, where);
    probe_friction_values(body.friction, where);  // kept as a profile once the body is added
    const auto& o = body.orientation;
    const double norm = std::sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2] + o[3] * o[3]);
    if (!(std::abs(norm - 1.0) <= 1e-6)) {
        throw Error(fmt::format("{}: orientation: not a unit quaternion (norm {})", where, norm));
    }

    std::vector<collision::Shape> shapes;
    for (size_t k = 0; k < body.shapes.size(); ++k) {
        shapes.push_back(make_shape(body.shapes[k], fmt::format("{}: shapes[{}]", where, k), false));
    }

    ElementGroup& g = body_group();
    const uint32_t group = static_cast<uint32_t>(&g - model_.element_groups.data());
    // The body's mass and inertia reach the element's per-item parameters of
    // those names (docs/plugin-abi.md "Elements"), those it has: a point
    // mass has no inertia.
    const auto& I = body.inertia;
    const nlohmann::json given = {{"mass", body.mass},
                                  {"inertia_diagonal", {I[0], I[4], I[8]}},
                                  {"inertia_products", {I[1], I[2], I[5]}}};
    nlohmann::json item = nlohmann::json::object();
    for (const ParamSpec& p : g.instance.plugin().params) {
        if (p.per_item() && given.contains(p.name)) item[p.name] = given[p.name];
    }
    const auto params = pack_params(g.instance.plugin(), ParamScope::item, item, where);
    // The element's coordinates and velocities, from the plugin (nothing
    // changes before both are known).
    const double pose[7] = {body.position[0], body.position[1], body.position[2],
                            o[0] / norm,      o[1] / norm,      o[2] / norm,
                            o[3] / norm};
    const double twist[6] = {body.linear_velocity[0],  body.linear_velocity[1],  body.linear_velocity[2],
                             body.angular_velocity[0], body.angular_velocity[1], body.angular_velocity[2]};
    std::vector<double> q(g.nq), v(g.nv);
    place_body(g, pose, q.data(), where);
    body_velocities(g, params.data(), q.data(), twist, v.data(), where);
    // Insert the element at the end of its group, in the global arrays too.
    const uint32_t q_at = g.q_offset + g.count * g.nq;
    const uint32_t v_at = g.v_offset + g.count * g.nv;
    const uint32_t element_at = g.first + g.count;
    state_.q.insert(state_.q.begin() + q_at, q.begin(), q.end());
    state_.v.insert(state_.v.begin() + v_at, v.begin(), v.end());
    state_.applied.insert(state_.applied.begin() + v_at, g.nv, 0.0);
    model_.fixed.insert(model_.fixed.begin() + element_at, body.fixed ? 1 : 0);
    g.item_params.insert(g.item_params.end(), params.begin(), params.end());
    g.q_reference.insert(g.q_reference.end(), q.begin(), q.end());
    ++g.count;
    shift_elements_from(element_at);
    for (auto& shape : shapes) {
        shape.body = static_cast<int32_t>(element_at);
        shape.key = model_.next_shape_key++;
        model_.shapes.push_back(shape);
    }
    BodyRecord record;
    record.name = name;
    record.group = group;
    record.element = element_at;
    record.mass = body.mass;
    record.linear_damping = body.linear_damping;
    record.angular_damping = body.angular_damping;
    record.fixed = body.fixed;
    record.friction_profile = friction_profile_of(body.friction);
    model_.bodies.push_back(std::move(record));
    body_by_name_.emplace(name, static_cast<BodyId>(model_.bodies.size() - 1));
    relayout();
    return static_cast<BodyId>(model_.bodies.size() - 1);
}

BodyId World::body(std::string_view name) const {
    auto it = body_by_name_.find(std::string(name));
    if (it == body_by_name_.end()) throw Error(fmt::format("no body named '{}'", name));
    return it->second;
}

std::array<double, 3> World::position(BodyId b) const {
    double pose[7], twist[6];
    body_frame(b, pose, twist);
    return {pose[0], pose[1], pose[2]};
}
std::array<double, 4> World::orientation(BodyId b) const {
    double pose[7], twist[6];
    body_frame(b, pose, twist);
    return {pose[3], pose[4], pose[5], pose[6]};
}
std::array<double, 3> World::linear_velocity(BodyId b) const {
    double pose[7], twist[6];
    body_frame(b, pose, twist);
    return {twist[0], twist[1], twist[2]};
}
std::array<double, 3> World::angular_velocity(BodyId b) const {
    double pose[7], twist[6];
    body_frame(b, pose, twist);
    return {twist[3], twist[4], twist[5]};
}

void World::set_pose(BodyId b, const std::array<double, 3>& p, const std::array<double, 4>& o) {
    const std::string where = fmt::format("body '{}': set_pose", body_name(b));
    // An embedder's quaternion comes out of its own arithmetic (often in
    // single precision, drifting over many products): one within 1e-3 of
    // unit length is normalized; farther off, it is a mistake (Euler angles,
    // a zero quaternion) and refused.
    const double norm = std::sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2] + o[3] * o[3]);
    if (!(std::abs(norm - 1.0) <= 1e-3)) {
        throw Error(fmt::format("{}: orientation: not a unit quaternion: its norm is {:.9g} (one within 1 +- 1e-3 "
                                "is normalized)",
                                where, norm));
    }
    check_position(p, where, "position");
    const BodyRecord& r = live_body(b, "set_pose");
    const ElementGroup& g = model_.element_groups[r.group];
    const double pose[7] = {p[0], p[1], p[2], o[0] / norm, o[1] / norm, o[2] / norm, o[3] / norm};
    std::vector<double> q(g.nq);
    place_body(g, pose, q.data(), where);
    std::copy(q.begin(), q.end(), state_.q.begin() + g.q_offset + (r.element - g.first) * g.nq);
    state_.energy_watch.valid = false;
}

void World::set_velocity(BodyId b, const std::array<double, 3>& linear, const std::array<double, 3>& angular) {
    const std::string where = fmt::format("body '{}': set_velocity", body_name(b));
    check_velocity(linear, angular, where);
    const BodyRecord& r = live_body(b, "set_velocity");
    if (!r.enabled) throw Error(where + ": the body is disabled (enable it first)");
    const ElementGroup& g = model_.element_groups[r.group];
    const uint32_t e = r.element - g.first;
    const double twist[6] = {linear[0], linear[1], linear[2], angular[0], angular[1], angular[2]};
    std::vector<double> v(g.nv);
    body_velocities(g, g.item_params.data() + e * g.item_stride, state_.q.data() + g.q_offset + e * g.nq, twist,
                    v.data(), where);
    std::copy(v.begin(), v.end(), state_.v.begin() + model_.element_v_offset[r.element]);
    state_.energy_watch.valid = false;
}

void World::set_damping(BodyId b, double linear, double angular) {
    live_body(b, "set_damping");
    BodyRecord& r = model_.bodies[b];
    check_damping(linear, angular, fmt::format("body '{}': set_damping", r.name));
    r.linear_damping = linear;
    r.angular_damping = angular;
    model_.element_damping[r.element] = {linear, angular};
}

void World::set_external_force(BodyId b, const std::array<double, 3>& force, const std::array<double, 3>& torque) {
    live_body(b, "set_external_force");
    if (!all_finite(force.data(), 3) || !all_finite(torque.data(), 3)) {
        throw Error(fmt::format("body '{}': external force: must be finite", body_name(b)));
    }
    // The generalized force of a wrench at the body's frame: J^T (force, torque).
    double pose[7], twist[6];
    body_frame(b, pose, twist);
    const uint32_t nv = model_.element_nv[model_.bodies.at(b).element];
    const double wrench[6] = {force[0], force[1], force[2], torque[0], torque[1], torque[2]};
    double* f = state_.applied.data() + model_.element_v_offset[model_.bodies.at(b).element];
    for (uint32_t c = 0; c < nv; ++c) {
        double sum = 0.0;
        for (int i = 0; i < 6; ++i) sum += frame_jacobian_.data()[i + 6 * c] * wrench[i];
        f[c] = sum;
    }
}

void World::set_body_enabled(BodyId b, bool enabled) {
    live_body(b, "set_enabled");
    BodyRecord& r = model_.bodies[b];
    if (r.enabled == enabled) return;
    const uint32_t e = r.element;
    const size_t v_first = model_.element_v_offset[e];
    const uint32_t nv = model_.element_nv[e];
    if (!enabled) {
        // Held as a fixed element (the step keeps its q and zeroes its v);
        // its velocity waits until it is enabled again.
        r.held_velocity.assign(state_.v.begin() + v_first, state_.v.begin() + v_first + nv);
    } else {
        std::copy(r.held_velocity.begin(), r.held_velocity.end(), state_.v.begin() + v_first);
        r.held_velocity.clear();
    }
    r.enabled = enabled;
    apply_body_enabled(r);
    state_.energy_watch.valid = false;
}

void World::apply_body_enabled(const BodyRecord& r) {
    const uint32_t e = r.element;
    model_.fixed[e] = !r.enabled || r.fixed ? 1 : 0;  // a disabled body is held: the step keeps its q, zeroes its v
    model_.disabled[e] = r.enabled ? 0 : 1;
    if (scratch_) scratch_->collision_cable[e] = r.enabled ? -1 : kCollidesWithNothing;
}

}  // namespace pivot
