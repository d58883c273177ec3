// A world's cables: a chain element group of the cable element plugin per
// cable, its contact samples, and the joints that attach it to bodies;
// reading its nodes and material points.
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

CableId World::add_cable(const CableDescription& cable) {
    const std::string where = fmt::format("cable '{}'", cable.name);
    if (cable.name.empty()) throw Error("cable: name must not be empty");
    if (cable.name == "world" || body_by_name_.count(cable.name) ||
        std::any_of(model_.cables.begin(), model_.cables.end(),
                    [&](const CableRecord& c) { return !c.removed && c.name == cable.name; })) {
        throw Error(where + ": name: another body or cable already has this name (or it is 'world')");
    }
    if (!all_finite(cable.start.data(), 3)) throw Error(where + ": start: must be 3 finite numbers");
    if (!all_finite(cable.end.data(), 3)) throw Error(where + ": end: must be 3 finite numbers");
    const Vec3d chord = {cable.end[0] - cable.start[0], cable.end[1] - cable.start[1], cable.end[2] - cable.start[2]};
    const double length = std::sqrt(dot(chord, chord));
    if (!(length > 1e-9)) throw Error(where + ": end: must differ from start (the cable needs a length)");
    if (cable.elements < 1 || cable.elements > 100000) {
        throw Error(fmt::format("{}: elements: must be in 1..100000, got {}", where, cable.elements));
    }
    auto positive = [&](double value, const char* field, const char* unit) {
        if (!(value > 0.0) || !std::isfinite(value)) {
            throw Error(fmt::format("{}: {}: must be a positive number of {}, got {}", where, field, unit, value));
        }
    };
    check_shape_size(cable.radius, where, "radius");  // its contact radius, a shape's size
    check_position(cable.start, where, "start");
    check_position(cable.end, where, "end");
    positive(cable.density, "density", "kg/m^3");
    positive(cable.youngs_modulus, "youngs_modulus", "Pa");
    if (!(cable.damping >= 0.0) || !std::isfinite(cable.damping)) {
        throw Error(fmt::format("{}: damping: must be a finite number >= 0 s, got {}", where, cable.damping));
    }
    const auto [min_length, max_length] = winch_range(length, cable.min_length, cable.max_length, where);
    check_reel_speed(cable.reel_speed, where);
    const std::string id = cable.type.find('.') == std::string::npos ? "pivot.element." + cable.type : cable.type;
    const PluginRecord* plugin = registry_->find(id);
    if (plugin == nullptr || plugin->kind != PIVOT_KIND_ELEMENT) {
        throw Error(fmt::format("{}: type: no element plugin '{}' is loaded", where, cable.type));
    }
    if (!plugin->has(PIVOT_ELEMENT_CAP_SHARED_NODES) || plugin->element.geometry != PIVOT_ELEMENT_GEOMETRY_CURVE) {
        throw Error(fmt::format("{}: type: '{}' is not a cable element (it needs shared nodes and curve geometry)",
                                where, plugin->id));
    }
    const auto material = std::find_if(model_.materials.begin(), model_.materials.end(),
                                       [&](const MaterialDescription& m) { return m.name == cable.material; });
    if (material == model_.materials.end()) {
        throw Error(fmt::format("{}: material: no material named '{}'", where, cable.material));
    }
    nlohmann::json options = {{"radius", cable.radius},
                              {"density", cable.density},
                              {"youngs_modulus", cable.youngs_modulus},
                              {"damping", cable.damping}};
    if (cable.gauss_points) options["gauss_points"] = *cable.gauss_points;
    if (cable.geometric_stiffness) options["geometric_stiffness"] = *cable.geometric_stiffness;
    const double element_length = length / cable.elements;

    ElementGroup g;
    g.instance = PluginInstance(*plugin, pack_params(*plugin, ParamScope::instance, options, where));
    g.chain = true;
    g.node_nq = plugin->element.coords_per_node;
    g.node_nv = plugin->element.velocities_per_node;
    g.nq = 2 * g.node_nq;
    g.nv = 2 * g.node_nv;
    g.item_stride = plugin->item_param_count();
    g.count = cable.elements;
    // The element's reference length: its parameter with that role (ABI 1.6).
    const ParamSpec* length_spec = param_with_role(plugin->params, PIVOT_ROLE_REST_LENGTH);
    if (length_spec == nullptr) {
        throw Error(fmt::format("{}: type: {} has no per-item parameter with the rest-length role, which a cable's "
                                "elements need",
                                where, describe(*plugin)));
    }
    const auto item =
        pack_params(*plugin, ParamScope::item, nlohmann::json{{length_spec->name, element_length}}, where);
    const uint32_t length_param = item_offset_of_role(plugin->params, PIVOT_ROLE_REST_LENGTH);
    for (uint32_t e = 0; e < cable.elements; ++e) g.item_params.insert(g.item_params.end(), item.begin(), item.end());
    // Nodes on the straight line, the tangent as each node's x axis.
    const Vec3d axis = {chord[0] / length, chord[1] / length, chord[2] / length};
    const Quatd frame = frame_with_x(axis);
    PluginOutput<double> q(static_cast<size_t>(cable.elements + 1) * g.node_nq);
    for (uint32_t n = 0; n <= cable.elements; ++n) {
        const double t = static_cast<double>(n) / cable.elements;
        const double pose[7] = {cable.start[0] + t * chord[0], cable.start[1] + t * chord[1],
                                cable.start[2] + t * chord[2], frame[0], frame[1], frame[2], frame[3]};
        CallResult r = checked_node_coordinates(g.instance, pose, guarded(q, static_cast<size_t>(n) * g.node_nq));
        if (!r.ok()) throw Error(fmt::format("{}: {}", where, r.message));
    }
    for (uint32_t e = 0; e < cable.elements; ++e) {
        g.q_reference.insert(g.q_reference.end(), q.begin() + g.element_q(e), q.begin() + g.element_q(e) + g.nq);
    }
    // The element must accept its reference (a plugin checks it here, not at
    // the first step): its mass matrices.
    const std::vector<double> zero_v(static_cast<size_t>(g.count) * g.nv, 0.0);
    {
        PluginOutput<double> mass(static_cast<size_t>(g.count) * g.nv * g.nv);
        std::vector<double> gathered(g.q_reference);
        const pivot_element_batch batch{g.count, g.item_stride, g.item_params.data(), gathered.data(), zero_v.data(),
                                        g.q_reference.data()};
        CallResult r = checked_mass_matrix(g.instance, batch, guarded(mass));
        if (!r.ok()) throw Error(fmt::format("{}: {}", where, r.message));
    }
    // Attachments: resolved before anything changes, so a bad one leaves the world as it was.
    struct Pin {
        uint32_t node;
        const CableAttachment* a;
        const PluginRecord* joint;
    };
    std::vector<Pin> pins;
    for (size_t k = 0; k < cable.attach.size(); ++k) {
        const CableAttachment& a = cable.attach[k];
        const std::string at = fmt::format("{}: attach[{}]", where, k);
        const int64_t node = a.node < 0 ? static_cast<int64_t>(cable.elements) + 1 + a.node : a.node;
        if (node < 0 || node > static_cast<int64_t>(cable.elements)) {
            throw Error(fmt::format("{}: node: {} is not a node of the cable (0 .. {}, or -1 / \"last\")", at, a.node,
                                    cable.elements));
        }
        const PluginRecord& joint = joint_plugin(a.joint, at + ": joint");
        const uint32_t frames = joint_frames(joint);
        if (frames != PIVOT_JOINT_FRAMES_ANCHOR && frames != PIVOT_JOINT_FRAMES_AXIS) {
            throw Error(fmt::format("{}: joint: '{}' does not place its frames at an anchor or along an axis "
                                    "(pivot_joint_frames ANCHOR or AXIS), so it cannot pin a node",
                                    at, joint.id));
        }
        if (a.body != "world" && !body_by_name_.count(a.body)) {
            throw Error(fmt::format("{}: body: no body named '{}' (use \"world\" for the fixed world frame)", at,
                                    a.body));
        }
        const std::string joint_name = fmt::format("{}/attach{}", cable.name, pins.size());
        if (joint_by_name_.count(joint_name)) {
            throw Error(fmt::format("{}: its joint would be named '{}', which another joint already has", at,
                                    joint_name));
        }
        for (const Pin& earlier : pins) {
            if (earlier.node == node && earlier.a->body == a.body) {
                throw Error(fmt::format("{}: node {} is already attached to '{}' (the rows would be redundant)", at,
                                        node, a.body));
            }
        }
        pins.push_back({static_cast<uint32_t>(node), &a, &joint});
    }

    CableRecord record;
    record.name = cable.name;
    record.material = static_cast<uint32_t>(material - model_.materials.begin());
    record.radius = cable.radius;
    record.length_param = length_param;
    record.length = length;
    record.reel_speed = cable.reel_speed;
    record.min_length = min_length;
    record.max_length = max_length;
    record.reference_start = cable.start;
    record.reference_frame = frame;
    // Contact samples: Gauss-Legendre points on [0, 1], about one per
    // cable diameter of element length, 1 to 3 (3 integrate the distributed
    // load of a cubic element exactly up to degree 5): elements shorter
    // than the cable is thick need no more than their midpoint.
    const double r3 = std::sqrt(0.6), r2 = 1.0 / std::sqrt(3.0);
    const double diameters = element_length / (2.0 * cable.radius);
    record.contact_points = diameters > 2.0 ? 3u : (diameters > 1.0 ? 2u : 1u);
    if (record.contact_points == 3) {
        const double s3[3] = {0.5 * (1.0 - r3), 0.5, 0.5 * (1.0 + r3)};
        const double w3[3] = {5.0 / 18.0, 8.0 / 18.0, 5.0 / 18.0};
        std::copy(s3, s3 + 3, record.contact_s);
        std::copy(w3, w3 + 3, record.contact_w);
    } else if (record.contact_points == 2) {
        record.contact_s[0] = 0.5 * (1.0 - r2), record.contact_s[1] = 0.5 * (1.0 + r2);
        record.contact_w[0] = record.contact_w[1] = 0.5;
    } else {
        record.contact_s[0] = 0.5, record.contact_w[0] = 1.0;
    }

    // The attachments' joints, prepared before anything changes (a failed
    // call changes nothing): each node is a material point of its element
    // (s = 0, or 1 for the last node), its frame and the body's (or the
    // world's) coinciding now, world-aligned or (a joint placed along an
    // axis) with x along the tangent.
    struct PreparedJoint {
        std::string name;
        const PluginRecord* plugin;
        std::vector<double> params;
        Attachment on_cable, on_body;
    };
    std::vector<PreparedJoint> prepared;
    const uint32_t first_element = model_.element_count;
    for (size_t k = 0; k < pins.size(); ++k) {
        const uint32_t node = pins[k].node;
        const uint32_t e = std::min(node, cable.elements - 1);
        const double s_node = node == cable.elements ? 1.0 : 0.0;
        const std::string at = fmt::format("{}: attach[{}]", where, k);
        const pivot_element_batch batch{1, g.item_stride, g.item_params.data() + static_cast<size_t>(e) * g.item_stride,
                                        q.data() + g.element_q(e), zero_v.data(), g.q_reference.data() + e * g.nq};
        const pivot_material_point point{0, 0, {s_node, 0.0, 0.0}};
        GuardedArray<double, 7> pose_out;
        GuardedArray<double, 6> twist_out;
        PluginOutput<double> jacobian(6 * g.nv);
        CallResult r = checked_material_frames(g.instance, batch, &point, 1, guarded(pose_out), guarded(twist_out),
                                               guarded(jacobian));
        if (!r.ok()) throw Error(fmt::format("{}: {}", at, r.message));
        const double* pose = pose_out.values.data();
        const Quatd material_rotation = {pose[3], pose[4], pose[5], pose[6]};
        const Mat3 material_axes = rotation(material_rotation);
        const Vec3d tangent = {material_axes[0][0], material_axes[1][0], material_axes[2][0]};
        const bool along_tangent = joint_frames(*pins[k].joint) == PIVOT_JOINT_FRAMES_AXIS;
        const Quatd joint_frame = along_tangent ? frame_with_x(normalized(tangent, at)) : Quatd{1, 0, 0, 0};
        PreparedJoint j;
        j.name = fmt::format("{}/attach{}", cable.name, k);
        j.plugin = pins[k].joint;
        j.params = pack_params(*j.plugin, ParamScope::item, nlohmann::json::object(), at);
        j.on_cable.element = first_element + e;
        j.on_cable.local_point = {s_node, 0.0, 0.0};
        j.on_cable.local_rotation = conjugate_times(material_rotation, joint_frame);
        j.on_body = attach(pins[k].a->body, {pose[0], pose[1], pose[2]}, joint_frame, at + ": body");
        prepared.push_back(std::move(j));
    }
    for (const PreparedJoint& j : prepared) joint_group(*j.plugin);  // their plugins' instances exist

    model_.element_groups.push_back(std::move(g));
    record.group = static_cast<uint32_t>(model_.element_groups.size() - 1);
    const ElementGroup& added = model_.element_groups.back();
    state_.q.insert(state_.q.end(), q.begin(), q.end());
    state_.v.insert(state_.v.end(), added.v_size(), 0.0);
    state_.applied.insert(state_.applied.end(), added.v_size(), 0.0);
    model_.fixed.insert(model_.fixed.end(), added.count, 0);
    model_.cables.push_back(std::move(record));
    const auto cable_id = static_cast<CableId>(model_.cables.size() - 1);
    relayout();
    for (const PreparedJoint& j : prepared) {
        model_.cables[cable_id].attachment_joints.push_back(
            insert_joint(j.name, *j.plugin, j.params, j.on_cable, j.on_body));
    }
    return cable_id;
}

void World::set_cable_reel_speed(CableId c, double speed) {
    check_reel_speed(speed, fmt::format("cable '{}': set_reel_speed", live_cable(c, "set_reel_speed").name));
    model_.cables[c].reel_speed = speed;
}

void World::reel_cables() {
    const double h = model_.settings.timestep;
    reeled_from_.resize(model_.cables.size());  // grows with the cables only: no allocation per step
    for (uint32_t c = 0; c < model_.cables.size(); ++c) {
        const CableRecord& cable = model_.cables[c];
        reeled_from_[c] = cable.length;
        if (cable.removed || cable.reel_speed == 0.0) continue;
        const double length = std::clamp(cable.length + h * cable.reel_speed, cable.min_length, cable.max_length);
        if (length == cable.length) continue;  // stopped at its limit
        set_cable_length(c, length);
        // The winch does work the watch does not count (docs/engine.md
        // "Winches"): it starts again from the step's state.
        state_.energy_watch.valid = false;
    }
}

void World::unreel_cables() {
    for (uint32_t c = 0; c < model_.cables.size() && c < reeled_from_.size(); ++c) {
        if (!model_.cables[c].removed && model_.cables[c].length != reeled_from_[c]) set_cable_length(c, reeled_from_[c]);
    }
}

// The reeled length goes to the elements evenly: each gets length / n as
// its reference length, and every element the same straight reference
// (nodes at the cable's start and one element length along its initial
// direction: straight, unit gradients, as the element requires). The
// strain rows then pull the nodes to the new lengths in the step, at the
// speed the winch turns. The mass of what is reeled in leaves the cable
// (it is on the drum); paid out, it is added.
void World::set_cable_length(CableId c, double length) {
    CableRecord& cable = model_.cables[c];
    ElementGroup& g = model_.element_groups[cable.group];
    const double element_length = length / g.count;
    for (uint32_t e = 0; e < g.count; ++e) g.item_params[e * g.item_stride + cable.length_param] = element_length;
    const Mat3 axes = rotation(cable.reference_frame);
    reel_nodes_.resize(2 * g.node_nq);  // once per world (cables share the element layout of their plugin)
    for (uint32_t n = 0; n < 2; ++n) {
        const double along = n * element_length;
        const double pose[7] = {cable.reference_start[0] + along * axes[0][0],
                                cable.reference_start[1] + along * axes[1][0],
                                cable.reference_start[2] + along * axes[2][0],
                                cable.reference_frame[0],
                                cable.reference_frame[1],
                                cable.reference_frame[2],
                                cable.reference_frame[3]};
        CallResult r = checked_node_coordinates(g.instance, pose, guarded(reel_nodes_, n * g.node_nq));
        if (!r.ok()) throw Error(fmt::format("cable '{}': reeling to {} m: {}", cable.name, length, r.message));
    }
    for (uint32_t e = 0; e < g.count; ++e) std::copy_n(reel_nodes_.begin(), g.nq, g.q_reference.begin() + e * g.nq);
    for (WorldModel::ContactSample& sample : model_.contact_samples) {  // the length each contact sample stands for
        if (model_.element_group[sample.element] != cable.group) continue;
        for (uint32_t k = 0; k < cable.contact_points; ++k) {
            if (sample.s == cable.contact_s[k]) sample.weight = cable.contact_w[k] * element_length;
        }
    }
    if (scratch_) scratch_->internal_rows[cable.group].mass_ready = false;  // its mass matrices changed
    cable.length = length;
}

CableId World::cable(std::string_view name) const {
    for (uint32_t c = 0; c < model_.cables.size(); ++c) {
        if (!model_.cables[c].removed && model_.cables[c].name == name) return c;
    }
    throw Error(fmt::format("no cable named '{}'", name));
}

uint32_t World::cable_node_count(CableId c) const {
    return model_.element_groups[live_cable(c, "nodes").group].node_count();
}

void World::cable_point(CableId c, uint32_t element, double s, double pose[7], double twist[6]) const {
    const ElementGroup& g = model_.element_groups[live_cable(c, "read").group];
    if (element >= g.count || !(s >= 0.0 && s <= 1.0)) {
        throw Error(fmt::format("cable '{}': no point at element {}, s = {}", model_.cables[c].name, element, s));
    }
    Attachment a;
    a.element = g.first + element;
    a.local_point = {s, 0.0, 0.0};
    attachment_frame(a, pose, twist);
}

void World::cable_node(CableId c, uint32_t node, double pose[7], double twist[6]) const {
    const uint32_t elements = model_.element_groups[live_cable(c, "read").group].count;
    if (node > elements) throw Error(fmt::format("cable '{}': no node {}", model_.cables[c].name, node));
    // Node n is the start of element n; the last node the end of the last element.
    if (node < elements) {
        cable_point(c, node, 0.0, pose, twist);
    } else {
        cable_point(c, elements - 1, 1.0, pose, twist);
    }
}

std::array<double, 3> World::cable_node_position(CableId c, uint32_t node) const {
    double pose[7], twist[6];
    cable_node(c, node, pose, twist);
    return {pose[0], pose[1], pose[2]};
}

std::array<double, 3> World::cable_node_velocity(CableId c, uint32_t node) const {
    double pose[7], twist[6];
    cable_node(c, node, pose, twist);
    return {twist[0], twist[1], twist[2]};
}

std::array<double, 3> World::cable_node_tangent(CableId c, uint32_t node) const {
    double pose[7], twist[6];
    cable_node(c, node, pose, twist);
    const Mat3 r = rotation({pose[3], pose[4], pose[5], pose[6]});
    return {r[0][0], r[1][0], r[2][0]};
}

}  // namespace pivot
