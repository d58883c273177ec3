// A world's joints: members of their joint plugin's group, with frames
// fixed on the bodies so that both frames of a joint coincide initially
// (the joint ABI's convention, <pivot/plugin_joint.h>); their motors and
// free coordinates.
#include "world/world.hpp"
#include "world/physical_limits.hpp"

#include <algorithm>
#include <tuple>
#include <cmath>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/logging.hpp"
#include "common/worker_pool.hpp"
#include "plugin_host/checked_calls.hpp"
#include "plugin_host/parameters.hpp"
#include "step/step_scratch.hpp"
#include "step/step_stages.hpp"
#include "world/frame_math.hpp"

namespace pivot {

using namespace frame_math;  // the vector and quaternion helpers of world building

uint32_t World::joint_group(const PluginRecord& plugin) {
    for (uint32_t g = 0; g < model_.joint_groups.size(); ++g) {
        if (&model_.joint_groups[g].instance.plugin() == &plugin) return g;
    }
    JointGroup g;
    g.instance = PluginInstance(plugin, pack_params(plugin, ParamScope::instance, nlohmann::json::object(), plugin.id));
    g.max_rows = plugin.joint.max_rows_per_joint;
    g.item_stride = plugin.item_param_count();
    model_.joint_groups.push_back(std::move(g));
    return static_cast<uint32_t>(model_.joint_groups.size() - 1);
}

Attachment World::attach(std::string_view body_name, const std::array<double, 3>& point,
                         const std::array<double, 4>& frame, const std::string& where) const {
    Attachment a;
    if (body_name == "world") {
        a.local_point = point;
        a.local_rotation = frame;
        return a;
    }
    auto it = body_by_name_.find(std::string(body_name));
    if (it == body_by_name_.end()) {
        throw Error(fmt::format("{}: no body named '{}' (use \"world\" for the fixed world frame)", where, body_name));
    }
    // The point in the body's frame (material point (0, 0, 0), where its
    // shapes are given: the material coordinates of a body's points).
    double pose[7], twist[6];
    body_frame(it->second, pose, twist);
    const Quatd orientation = {pose[3], pose[4], pose[5], pose[6]};
    const Mat3 r = rotation(orientation);
    const Vec3d d = {point[0] - pose[0], point[1] - pose[1], point[2] - pose[2]};
    a.element = model_.bodies[it->second].element;
    for (int i = 0; i < 3; ++i) a.local_point[i] = r[0][i] * d[0] + r[1][i] * d[1] + r[2][i] * d[2];  // R^T d
    a.local_rotation = conjugate_times(orientation, frame);
    return a;
}

JointId World::joint(std::string_view name) const {
    auto it = joint_by_name_.find(std::string(name));
    if (it == joint_by_name_.end()) throw Error(fmt::format("no joint named '{}'", name));
    return it->second;
}

const PluginRecord& World::joint_plugin(const std::string& type, const std::string& where) const {
    const std::string id = type.find('.') == std::string::npos ? "pivot.joint." + type : type;
    const PluginRecord* plugin = registry_->find(id);
    if (plugin == nullptr || plugin->kind != PIVOT_KIND_JOINT) {
        std::vector<std::string> loaded;
        for (const PluginRecord* p : registry_->plugins()) {
            if (p->kind == PIVOT_KIND_JOINT) loaded.push_back(p->id);
        }
        throw Error(fmt::format("{}: unknown joint type '{}' (a short name stands for pivot.joint.<name>; "
                                "joint plugins loaded: {})",
                                where, type, fmt::join(loaded, ", ")));
    }
    return *plugin;
}

JointId World::add_joint(const JointDescription& joint) {
    const std::string where = fmt::format("joint '{}'", joint.name);
    if (joint.name.empty()) throw Error("joint: name must not be empty");
    if (joint_by_name_.count(joint.name)) throw Error(where + ": name: another joint already has this name");
    if (joint.body1 == joint.body2) throw Error(where + ": body1 and body2 are the same ('" + joint.body1 + "')");
    const PluginRecord* plugin = &joint_plugin(joint.type, where + ": type");
    const std::string& id = plugin->id;
    auto finite3 = [&](const Vec3d& v, const char* field) {
        if (!all_finite(v.data(), 3)) throw Error(fmt::format("{}: {}: must be 3 finite numbers", where, field));
    };
    // Frames in world coordinates, coinciding at the initial configuration,
    // placed as the plugin says (pivot_joint_functions.frames, ABI 1.6).
    Vec3d origin1 = joint.anchor, origin2 = joint.anchor;
    Quatd frame = {1, 0, 0, 0};
    const std::string short_type = id.substr(id.rfind('.') + 1);
    switch (joint_frames(*plugin)) {
        case PIVOT_JOINT_FRAMES_TWO_ANCHORS:
            finite3(joint.anchor1, "anchor1");
            finite3(joint.anchor2, "anchor2");
            origin1 = joint.anchor1;
            origin2 = joint.anchor2;
            break;
        case PIVOT_JOINT_FRAMES_TWO_AXES: {
            finite3(joint.anchor, "anchor");
            const Vec3d a1 = normalized(joint.axis1, where + ": axis1");
            const Vec3d a2 = normalized(joint.axis2, where + ": axis2");
            if (std::abs(dot(a1, a2)) > 1e-6) throw Error(where + ": axis1 and axis2 must be perpendicular");
            frame = quaternion_from_axes(a1, a2, cross(a1, a2));
            break;
        }
        case PIVOT_JOINT_FRAMES_AXIS_AT_BODY: {
            // No anchor: the frames sit at body 2's centre of mass (or body 1's).
            const std::string& on = joint.body2 != "world" ? joint.body2 : joint.body1;
            if (on != "world") {
                const auto p = position(body(on));
                origin1 = origin2 = p;
            }
            frame = frame_with_x(normalized(joint.axis, where + ": axis"));
            break;
        }
        case PIVOT_JOINT_FRAMES_AXIS:
            finite3(joint.anchor, "anchor");
            frame = frame_with_x(normalized(joint.axis, where + ": axis"));
            break;
        default:  // PIVOT_JOINT_FRAMES_ANCHOR (the registry refuses other values)
            finite3(joint.anchor, "anchor");
            break;
    }
    if (!(joint.compliance >= 0.0) || !std::isfinite(joint.compliance)) {
        throw Error(fmt::format("{}: compliance: must be >= 0, got {}", where, joint.compliance));
    }
    for (const auto& [value, field] : {std::pair{joint.damping, "damping"}, std::pair{joint.break_force, "break_force"},
                                        std::pair{joint.break_torque, "break_torque"}}) {
        if (!(value >= 0.0) || !std::isfinite(value)) {
            throw Error(fmt::format("{}: {}: must be a finite number >= 0, got {}", where, field, value));
        }
    }
    // The description's values go to the parameters with their roles
    // (pivot_param_role, ABI 1.6), whatever the plugin names them.
    nlohmann::json item = nlohmann::json::object();
    const auto set = [&](pivot_param_role role, const nlohmann::json& value) {
        item[param_with_role(plugin->params, role)->name] = value;
    };
    const auto has = [&](pivot_param_role role) { return param_with_role(plugin->params, role) != nullptr; };
    // Compliance and damping go to the joints that take them (every
    // first-party joint); another plugin's joint without them is rigid.
    for (const auto& [role, value, field] : {std::tuple{PIVOT_ROLE_COMPLIANCE, joint.compliance, "compliance"},
                                             std::tuple{PIVOT_ROLE_DAMPING, joint.damping, "damping"}}) {
        if (has(role)) {
            set(role, value);
        } else if (value != 0.0) {
            throw Error(fmt::format("{}: {}: a {} joint has no {} parameter", where, field, short_type, field));
        }
    }
    if (joint.limits) {
        if (!has(PIVOT_ROLE_LIMITS_ENABLED) || !has(PIVOT_ROLE_LIMIT_LOWER) || !has(PIVOT_ROLE_LIMIT_UPPER)) {
            throw Error(where + ": limits: a " + short_type + " joint has no limits");
        }
        if (!(joint.limits->lower <= joint.limits->upper)) {
            throw Error(fmt::format("{}: limits: lower ({}) must not exceed upper ({})", where, joint.limits->lower,
                                    joint.limits->upper));
        }
        set(PIVOT_ROLE_LIMITS_ENABLED, true);
        set(PIVOT_ROLE_LIMIT_LOWER, joint.limits->lower);
        set(PIVOT_ROLE_LIMIT_UPPER, joint.limits->upper);
    }
    if (joint.motor) {
        const JointMotor& m = *joint.motor;
        if (!has(PIVOT_ROLE_MOTOR_ENABLED) || !has(PIVOT_ROLE_MOTOR_VELOCITY) || !has(PIVOT_ROLE_MOTOR_MAX_FORCE)) {
            throw Error(where + ": motor: a " + short_type + " joint has no motor");
        }
        set(PIVOT_ROLE_MOTOR_ENABLED, true);
        set(PIVOT_ROLE_MOTOR_VELOCITY, m.velocity);
        set(PIVOT_ROLE_MOTOR_MAX_FORCE, m.max_force);
        // The drive (ABI 1.7): a joint without a role refuses a value other
        // than the 1.0 motor's (a rigid velocity motor).
        if (m.mode != PIVOT_MOTOR_VELOCITY && m.mode != PIVOT_MOTOR_POSITION && m.mode != PIVOT_MOTOR_FORCE) {
            throw Error(fmt::format("{}: motor: mode: {} is not velocity (0), position (1) or force (2)", where,
                                    static_cast<int>(m.mode)));
        }
        static const char* const kModes[] = {"velocity", "position", "force"};
        const ParamSpec* mode = param_with_role(plugin->params, PIVOT_ROLE_MOTOR_MODE);
        if (mode != nullptr && static_cast<size_t>(m.mode) < mode->choices.size()) {
            item[mode->name] = mode->choices[m.mode];  // the role fixes the choices' order
        } else if (m.mode != PIVOT_MOTOR_VELOCITY) {
            throw Error(fmt::format("{}: motor: mode: a {} joint's motor has no {} mode", where, short_type,
                                    kModes[m.mode]));
        }
        for (const auto& [role, value, field] :
             {std::tuple{PIVOT_ROLE_MOTOR_POSITION, m.position, "position"},
              std::tuple{PIVOT_ROLE_MOTOR_STIFFNESS, m.stiffness, "stiffness"},
              std::tuple{PIVOT_ROLE_MOTOR_DAMPING, m.damping, "damping"},
              std::tuple{PIVOT_ROLE_MOTOR_FORCE, m.force, "force"}}) {
            if (has(role)) {
                set(role, value);
            } else if (value != 0.0) {
                throw Error(fmt::format("{}: motor: {}: a {} joint's motor has no {} (its plugin declares no such "
                                        "role)",
                                        where, field, short_type, field));
            }
        }
    }
    if (has(PIVOT_ROLE_REST_LENGTH)) {
        const Vec3d d = {origin2[0] - origin1[0], origin2[1] - origin1[1], origin2[2] - origin1[2]};
        set(PIVOT_ROLE_REST_LENGTH, joint.length ? *joint.length : std::sqrt(dot(d, d)));
    }
    const auto params = pack_params(*plugin, ParamScope::item, item, where);
    const Attachment frame1 = attach(joint.body1, origin1, frame, where + ": body1");
    const Attachment frame2 = attach(joint.body2, origin2, frame, where + ": body2");
    const JointId added = insert_joint(joint.name, *plugin, params, frame1, frame2);
    JointRecord& record = model_.joints[added];
    record.enabled = joint.enabled;
    record.break_force = joint.break_force;
    record.break_torque = joint.break_torque;
    return added;
}

void World::set_joint_enabled(JointId j, bool enabled, JointAnchor anchor) {
    live_joint(j, "set_enabled");
    JointRecord& record = model_.joints[j];
    if (enabled && anchor == JointAnchor::current_pose) {
        const JointGroup& g = model_.joint_groups[record.group];
        const PluginRecord& plugin = g.instance.plugin();
        double pose1[7], pose2[7], twist1[6], twist2[6];
        attachment_frame(record.frame1, pose1, twist1);
        if (plugin.joint.frames == PIVOT_JOINT_FRAMES_TWO_ANCHORS) {
            // The anchors stay; the length becomes the distance now.
            attachment_frame(record.frame2, pose2, twist2);
            const uint32_t length = item_offset_of_role(plugin.params, PIVOT_ROLE_REST_LENGTH);
            if (length != UINT32_MAX) {
                const Vec3d d = {pose2[0] - pose1[0], pose2[1] - pose1[1], pose2[2] - pose1[2]};
                model_.joint_groups[record.group].item_params[record.member * g.item_stride + length] =
                    std::sqrt(dot(d, d));
            }
        } else {
            // Frame 2 onto frame 1: re-attached to its body where frame 1 is now.
            const uint32_t element = record.frame2.element;
            const std::string* body2 = nullptr;
            for (const BodyRecord& b : model_.bodies) {
                if (!b.removed && element != Attachment::kWorld && b.element == element) body2 = &b.name;
            }
            if (element != Attachment::kWorld && body2 == nullptr) {
                throw Error(fmt::format("joint '{}': enable at the current pose: its second frame is on a cable "
                                        "node, which cannot be moved (only a body's frame or the world's)",
                                        record.name));
            }
            record.frame2 = attach(body2 != nullptr ? std::string_view(*body2) : std::string_view("world"),
                                   {pose1[0], pose1[1], pose1[2]}, {pose1[3], pose1[4], pose1[5], pose1[6]},
                                   "joint '" + record.name + "'");
            if (scratch_) update_attachment_point(model_, *scratch_, j);
        }
    }
    const bool changed = enabled != record.enabled;
    record.enabled = enabled;
    if (enabled) record.broken = false;
    if (!changed) return;
    // A joint starts again from no impulse (its last ones belong to another
    // configuration); it stops acting at once when disabled, and its bodies
    // collide while it is off.
    const JointGroup& g = model_.joint_groups[record.group];
    std::fill_n(state_.joint_impulses.begin() + g.impulse_offset + record.member * g.max_rows, g.max_rows, 0.0);
    state_.energy_watch.valid = false;  // the constraint set changed
    if (scratch_) update_excluded_pairs(model_, *scratch_);
}

JointId World::insert_joint(std::string name, const PluginRecord& plugin, const std::vector<double>& params,
                            const Attachment& frame1, const Attachment& frame2) {
    JointRecord record;
    record.name = std::move(name);
    record.frame1 = frame1;
    record.frame2 = frame2;
    record.group = joint_group(plugin);
    JointGroup& g = model_.joint_groups[record.group];
    record.member = g.count++;
    g.item_params.insert(g.item_params.end(), params.begin(), params.end());
    g.joints.push_back(static_cast<uint32_t>(model_.joints.size()));
    joint_by_name_.emplace(record.name, static_cast<JointId>(model_.joints.size()));
    model_.joints.push_back(std::move(record));
    relayout();
    return static_cast<JointId>(model_.joints.size() - 1);
}

void World::set_motor_target(JointId j, pivot_param_role role, double value, const char* call,
                             const char* missing) {
    const JointRecord& record = live_joint(j, call);
    JointGroup& g = model_.joint_groups[record.group];
    const uint32_t offset = item_offset_of_role(g.instance.plugin().params, role);
    const bool found = offset != UINT32_MAX;
    if (!found || !std::isfinite(value)) {
        throw Error(fmt::format("joint '{}': {}: {}", record.name, call,
                                found ? "must be finite" : missing));
    }
    g.item_params[record.member * g.item_stride + offset] = value;
}

void World::set_motor_velocity(JointId j, double velocity) {
    set_motor_target(j, PIVOT_ROLE_MOTOR_VELOCITY, velocity, "set_motor_velocity", "this joint type has no motor");
}

void World::set_motor_position(JointId j, double position) {
    set_motor_target(j, PIVOT_ROLE_MOTOR_POSITION, position, "set_motor_position",
                     "this joint type's motor has no position mode");
}

void World::set_motor_force(JointId j, double force) {
    set_motor_target(j, PIVOT_ROLE_MOTOR_FORCE, force, "set_motor_force", "this joint type's motor has no force mode");
}

bool World::has_motor(JointId j) const {
    const JointRecord& record = live_joint(j, "motor");
    return item_offset_of_role(model_.joint_groups[record.group].instance.plugin().params,
                               PIVOT_ROLE_MOTOR_VELOCITY) != UINT32_MAX;
}

bool World::has_joint_coordinate(JointId j) const {
    const JointRecord& record = live_joint(j, "coordinate");
    return model_.joint_groups[record.group].instance.plugin().joint.coordinate != nullptr;
}

void World::break_joints() {
    for (const uint32_t j : outputs_.broken_joints) {
        set_joint_enabled(j, false);
        model_.joints[j].broken = true;
    }
    outputs_.statistics.joints_broken = static_cast<uint32_t>(outputs_.broken_joints.size());
    for (const uint32_t j : outputs_.broken_joints) {
        log_from(spdlog::level::info, "pivot",
                 fmt::format("joint '{}' broke at t = {} s (reaction past its break threshold)", model_.joints[j].name,
                             state_.time));
    }
}

std::array<double, 2> World::joint_coordinate(JointId j) const {
    const JointRecord& record = live_joint(j, "coordinate");
    const JointGroup& g = model_.joint_groups[record.group];
    const PluginRecord& plugin = g.instance.plugin();
    if (plugin.joint.coordinate == nullptr) {
        throw Error(fmt::format("joint '{}': a {} joint has no free coordinate", record.name, plugin.id));
    }
    double pose1[7], pose2[7], twist1[6], twist2[6];
    attachment_frame(record.frame1, pose1, twist1);
    attachment_frame(record.frame2, pose2, twist2);
    const pivot_joint_batch batch{1, g.item_stride, g.item_params.data() + record.member * g.item_stride,
                                  pose1, pose2, twist1, twist2};
    double position = 0.0, velocity = 0.0;
    if (g.instance.fatal()) {
        throw Error(fmt::format("joint '{}': {}: coordinate: not called: the instance returned FATAL before",
                                record.name, describe(plugin)));
    }
    const pivot_status status = plugin.joint.coordinate(g.instance.handle(), &batch, &position, &velocity);
    if (status == PIVOT_FATAL) g.instance.mark_fatal();
    if (status > PIVOT_WARNING || !std::isfinite(position) || !std::isfinite(velocity)) {
        throw Error(fmt::format("joint '{}': {}: coordinate failed", record.name, describe(plugin)));
    }
    return {position, velocity};
}

}  // namespace pivot
