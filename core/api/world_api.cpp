// The embedding C API: worlds (sdk/include/pivot/pivot.h). Each function
// checks its arguments, converts the C descriptions to the engine's, and
// reports failures through pivot_last_error(); see api_support.hpp.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "api/api_support.hpp"
#include "common/input_limits.hpp"
#include "scene/scene_loader.hpp"

using pivot::api::guarded;
using pivot::api::require;

namespace {

std::string text(const char* s, const char* fallback = "") { return s != nullptr ? std::string(s) : std::string(fallback); }

template <size_t N>
std::array<double, N> array_of(const double (&values)[N]) {
    std::array<double, N> out{};
    for (size_t i = 0; i < N; ++i) out[i] = values[i];
    return out;
}

nlohmann::json json_object(const char* json, const char* what) {
    if (json == nullptr) return nlohmann::json::object();
    pivot::check_json_depth(json, what);
    nlohmann::json parsed = nlohmann::json::parse(json, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) {
        std::string shown(json, strnlen(json, 80));
        for (char& c : shown) c = (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;  // one line
        throw pivot::Error(fmt::format("{}: not a JSON object: '{}{}'", what, shown, json[shown.size()] ? "..." : ""));
    }
    return parsed;
}

// The caller's struct as this library knows it: at least its first-release
// size (kSize10: the whole struct today; frozen when fields are appended),
// the bytes the caller has copied, the rest zero (appended fields must mean
// "absent" when zero, as in plugin.h's policy).
template <typename T>
T read_struct(const T& given, size_t first_release_size, const char* what) {
    if (given.struct_size < first_release_size) {
        throw pivot::Error(fmt::format("{}: struct_size {} is smaller than {} (call its _init function first)", what,
                                       given.struct_size, first_release_size));
    }
    T out{};
    std::memcpy(&out, &given, std::min<size_t>(given.struct_size, sizeof(T)));
    return out;
}
constexpr size_t kShapeSize10 = sizeof(pivot_shape_desc);
constexpr size_t kSettingsSize10 = offsetof(pivot_world_settings, stabilization);
constexpr size_t kMaterialSize10 = sizeof(pivot_material_desc);
constexpr size_t kBodySize10 = sizeof(pivot_body_desc);
constexpr size_t kJointSize10 = sizeof(pivot_joint_desc);
constexpr size_t kStatisticsSize10 = offsetof(pivot_world_statistics, energy_excess);
constexpr size_t kCableSize10 = sizeof(pivot_cable_desc);

pivot::World& world_of(pivot_world* w, const char* function) {
    return *require(w, function, "world").world;
}
const pivot::World& world_of(const pivot_world* w, const char* function) {
    return *require(w, function, "world").world;
}

pivot::ShapeDescription shape_of(const pivot_shape_desc& given) {
    const pivot_shape_desc d = read_struct(given, kShapeSize10, "shape");
    pivot::ShapeDescription s;
    s.type = text(d.type);
    s.radius = d.radius;
    s.length = d.length;
    s.size = array_of(d.size);
    s.normal = array_of(d.normal);
    s.offset = d.offset;
    s.position = array_of(d.position);
    s.orientation = array_of(d.orientation);
    s.material = text(d.material, "default");
    return s;
}

void put_body(const pivot::World& world, uint32_t body, pivot_body_state& out) {
    const auto p = world.position(body), v = world.linear_velocity(body), w = world.angular_velocity(body);
    const auto q = world.orientation(body);
    for (int k = 0; k < 3; ++k) out.position[k] = p[k], out.linear_velocity[k] = v[k], out.angular_velocity[k] = w[k];
    for (int k = 0; k < 4; ++k) out.orientation[k] = q[k];
}

uint32_t checked_body(const pivot::World& world, uint32_t body, const char* function) {
    if (body >= world.body_count()) {
        throw pivot::Error(fmt::format("{}: body index {} is out of range (the world has {} bodies)", function, body,
                                       world.body_count()));
    }
    return body;
}

uint32_t checked_joint(const pivot::World& world, uint32_t joint, const char* function) {
    if (joint >= world.joint_count()) {
        throw pivot::Error(fmt::format("{}: joint index {} is out of range (the world has {} joints)", function,
                                       joint, world.joint_count()));
    }
    return joint;
}

uint32_t checked_cable(const pivot::World& world, uint32_t cable, const char* function) {
    if (cable >= world.cable_count()) {
        throw pivot::Error(fmt::format("{}: cable index {} is out of range (the world has {} cables)", function,
                                       cable, world.cable_count()));
    }
    return cable;
}

// A name that stays put while the world lives (pivot_world::body_names).
template <typename NameOf>
const char* stable_name(std::deque<std::string>& names, uint32_t index, NameOf name_of) {
    while (names.size() <= index) names.push_back(name_of(static_cast<uint32_t>(names.size())));
    return names[index].c_str();
}

pivot_world* wrap(pivot_engine* engine, std::unique_ptr<pivot::World> world) {
    auto handle = std::make_unique<pivot_world>();
    handle->engine = engine;
    handle->world = std::move(world);
    ++engine->worlds;
    return handle.release();
}

}  // namespace

extern "C" {

// ---------------------------------------------------------------- creating

PIVOT_API pivot_status pivot_world_create_from_file(pivot_engine* engine, const char* scene_file,
                                                    pivot_world** world) {
    return guarded("pivot_world_create_from_file", [&] {
        require(world, "pivot_world_create_from_file", "world") = nullptr;
        auto& e = require(engine, "pivot_world_create_from_file", "engine");
        require(scene_file, "pivot_world_create_from_file", "scene_file");
        *world = wrap(engine, pivot::load_scene_file(e.registry, scene_file));
    });
}

PIVOT_API pivot_status pivot_world_create_from_json(pivot_engine* engine, const char* scene_json,
                                                    const char* base_dir, pivot_world** world) {
    return guarded("pivot_world_create_from_json", [&] {
        require(world, "pivot_world_create_from_json", "world") = nullptr;
        auto& e = require(engine, "pivot_world_create_from_json", "engine");
        require(scene_json, "pivot_world_create_from_json", "scene_json");
        *world = wrap(engine, pivot::load_scene_json(e.registry, scene_json, text(base_dir, "."), "scene JSON"));
    });
}

PIVOT_API void pivot_world_settings_init(pivot_world_settings* settings) {
    if (settings == nullptr) return;
    std::memset(settings, 0, sizeof(*settings));
    settings->struct_size = sizeof(*settings);
    settings->timestep = 1e-3;
    settings->gravity[2] = -9.81;
    settings->solver = nullptr;  // the engine's choice per island (WorldSettings::direct_islands, newton_islands)
}

PIVOT_API pivot_status pivot_world_create(pivot_engine* engine, const pivot_world_settings* settings,
                                          pivot_world** world) {
    return guarded("pivot_world_create", [&] {
        require(world, "pivot_world_create", "world") = nullptr;
        auto& e = require(engine, "pivot_world_create", "engine");
        const pivot_world_settings s =
            read_struct(require(settings, "pivot_world_create", "settings"), kSettingsSize10, "settings");
        pivot::WorldSettings ws;
        ws.timestep = s.timestep;
        ws.gravity = array_of(s.gravity);
        ws.solver = {text(s.solver, "pivot.solver.dantzig"), json_object(s.solver_options, "settings.solver_options")};
        ws.direct_islands = s.solver == nullptr;  // a named solver takes every island
        ws.newton_islands = s.solver == nullptr;
        // Large islands (0.5): 0 = the default; a named solver takes them too.
        if (s.large_island_rows == UINT32_MAX || s.solver != nullptr) {
            ws.large_island_rows = 0;
        } else if (s.large_island_rows != 0) {
            ws.large_island_rows = s.large_island_rows;
        }
        if (s.large_island_sweeps != 0) ws.large_island_sweeps = s.large_island_sweeps;
        // The step guard (0.6): 0 = the default; < 0 = off (WorldSettings: 0).
        if (s.step_time_limit != 0.0) ws.step_time_limit = std::max(s.step_time_limit, 0.0);
        if (s.stabilization > 1) {
            throw pivot::Error(fmt::format("settings.stabilization: must be 0 (default) or 1 (none), got {}",
                                           s.stabilization));
        }
        if (s.stabilization == 1) {
            ws.geometric_stiffness = false;
            ws.projection_iterations = 0;
        }
        // 0 = the default; < 0 = off (WorldSettings: 0).
        if (s.divergence_energy != 0.0) ws.divergence_energy = std::max(s.divergence_energy, 0.0);
        if (s.divergence_joint_error != 0.0) ws.divergence_joint_error = std::max(s.divergence_joint_error, 0.0);
        ws.step_budget = s.step_budget;  // checked by World
        ws.threads = s.threads;
        *world = wrap(engine, std::make_unique<pivot::World>(e.registry, ws));
    });
}

PIVOT_API void pivot_world_destroy(pivot_world* world) {
    if (world == nullptr) return;
    --world->engine->worlds;
    delete world;
}

// ---------------------------------------------------------------- building

PIVOT_API void pivot_material_desc_init(pivot_material_desc* material) {
    if (material == nullptr) return;
    std::memset(material, 0, sizeof(*material));
    material->struct_size = sizeof(*material);
    material->name = "default";
    material->friction_model = "pivot.friction.box";
}

PIVOT_API pivot_status pivot_world_add_material(pivot_world* world, const pivot_material_desc* material) {
    return guarded("pivot_world_add_material", [&] {
        auto& w = world_of(world, "pivot_world_add_material");
        const pivot_material_desc d =
            read_struct(require(material, "pivot_world_add_material", "material"), kMaterialSize10, "material");
        pivot::MaterialDescription m;
        m.name = text(d.name, "default");
        m.friction_model = text(d.friction_model, "pivot.friction.box");
        m.friction = d.friction_params != nullptr
                         ? json_object(d.friction_params, ("material '" + m.name + "': friction").c_str())
                         : nlohmann::json{{"mu", 0.5}};
        m.restitution = d.restitution;
        m.compliance = d.compliance;
        m.damping = d.damping;
        w.add_material(m);
    });
}

PIVOT_API void pivot_shape_desc_init(pivot_shape_desc* shape) {
    if (shape == nullptr) return;
    std::memset(shape, 0, sizeof(*shape));
    shape->struct_size = sizeof(*shape);
    shape->normal[2] = 1.0;
    shape->orientation[0] = 1.0;
    shape->material = "default";
}

PIVOT_API pivot_status pivot_world_add_static_shape(pivot_world* world, const pivot_shape_desc* shape) {
    return guarded("pivot_world_add_static_shape", [&] {
        world_of(world, "pivot_world_add_static_shape")
            .add_static_shape(shape_of(require(shape, "pivot_world_add_static_shape", "shape")));
    });
}

PIVOT_API void pivot_body_desc_init(pivot_body_desc* body) {
    if (body == nullptr) return;
    std::memset(body, 0, sizeof(*body));
    body->struct_size = sizeof(*body);
    body->mass = 1.0;
    body->inertia[0] = body->inertia[4] = body->inertia[8] = 1.0;
    body->orientation[0] = 1.0;
}

PIVOT_API pivot_status pivot_world_add_body(pivot_world* world, const pivot_body_desc* body, uint32_t* index) {
    return guarded("pivot_world_add_body", [&] {
        auto& w = world_of(world, "pivot_world_add_body");
        const pivot_body_desc d = read_struct(require(body, "pivot_world_add_body", "body"), kBodySize10, "body");
        if (d.shape_count > 0) require(d.shapes, "pivot_world_add_body", "body->shapes");
        pivot::BodyDescription b;
        b.name = text(d.name);
        b.mass = d.mass;
        b.inertia = array_of(d.inertia);
        b.position = array_of(d.position);
        b.orientation = array_of(d.orientation);
        b.linear_velocity = array_of(d.linear_velocity);
        b.angular_velocity = array_of(d.angular_velocity);
        b.fixed = d.fixed != 0;
        // An array of a growable struct is stepped by its first entry's
        // struct_size (pivot.h VERSIONING, as plugin.h does for schemas):
        // a caller built against a later header, with a longer
        // pivot_shape_desc, still passes its shapes correctly.
        if (d.shape_count > 0) {
            const uint32_t stride = d.shapes[0].struct_size;
            if (stride < kShapeSize10 || stride % alignof(pivot_shape_desc) != 0) {
                throw pivot::Error(fmt::format("body->shapes[0]: struct_size {} is not a pivot_shape_desc size (call "
                                               "pivot_shape_desc_init)",
                                               stride));
            }
            const auto* bytes = reinterpret_cast<const unsigned char*>(d.shapes);
            for (uint32_t k = 0; k < d.shape_count; ++k) {
                const auto& shape = *reinterpret_cast<const pivot_shape_desc*>(bytes + static_cast<size_t>(k) * stride);
                if (shape.struct_size != stride) {
                    throw pivot::Error(fmt::format("body->shapes[{}]: struct_size {} differs from the first entry's {} "
                                                   "(the entries of one array have one size)",
                                                   k, shape.struct_size, stride));
                }
                b.shapes.push_back(shape_of(shape));
            }
        }
        const pivot::BodyId id = w.add_body(b);
        if (index != nullptr) *index = id;
    });
}

PIVOT_API void pivot_joint_desc_init(pivot_joint_desc* joint) {
    if (joint == nullptr) return;
    std::memset(joint, 0, sizeof(*joint));
    joint->struct_size = sizeof(*joint);
    joint->body1 = "world";
    joint->body2 = "world";
    joint->axis[0] = 1.0;
    joint->axis1[0] = 1.0;
    joint->axis2[1] = 1.0;
    joint->length = -1.0;
}

PIVOT_API pivot_status pivot_world_add_joint(pivot_world* world, const pivot_joint_desc* joint, uint32_t* index) {
    return guarded("pivot_world_add_joint", [&] {
        auto& w = world_of(world, "pivot_world_add_joint");
        const pivot_joint_desc d = read_struct(require(joint, "pivot_world_add_joint", "joint"), kJointSize10, "joint");
        pivot::JointDescription j;
        j.name = text(d.name);
        j.type = text(d.type);
        j.body1 = text(d.body1, "world");
        j.body2 = text(d.body2, "world");
        j.anchor = array_of(d.anchor);
        j.axis = array_of(d.axis);
        j.axis1 = array_of(d.axis1);
        j.axis2 = array_of(d.axis2);
        j.anchor1 = array_of(d.anchor1);
        j.anchor2 = array_of(d.anchor2);
        // Negative: the initial distance; NaN is not "negative" but refused
        // (it used to mean the initial distance silently).
        if (std::isnan(d.length)) {
            throw pivot::Error("pivot_world_add_joint: joint.length: NaN (negative means the initial distance)");
        }
        if (d.length >= 0.0) j.length = d.length;
        j.compliance = d.compliance;
        j.damping = d.damping;
        if (d.has_limits != 0) j.limits = pivot::JointLimits{d.lower, d.upper};
        if (d.has_motor != 0) j.motor = pivot::JointMotor{d.motor_velocity, d.motor_max_force};
        const pivot::JointId id = w.add_joint(j);
        if (index != nullptr) *index = id;
    });
}

PIVOT_API void pivot_cable_desc_init(pivot_cable_desc* cable) {
    if (cable == nullptr) return;
    std::memset(cable, 0, sizeof(*cable));
    const pivot::CableDescription defaults;
    cable->struct_size = sizeof(*cable);
    cable->elements = defaults.elements;
    cable->type = "pivot.element.ancf_cable";
    for (int k = 0; k < 3; ++k) cable->start[k] = defaults.start[k], cable->end[k] = defaults.end[k];
    cable->radius = defaults.radius;
    cable->density = defaults.density;
    cable->youngs_modulus = defaults.youngs_modulus;
    cable->damping = defaults.damping;
    cable->geometric_stiffness = -1.0;
    cable->material = "default";
}

PIVOT_API pivot_status pivot_world_add_cable(pivot_world* world, const pivot_cable_desc* cable, uint32_t* index) {
    return guarded("pivot_world_add_cable", [&] {
        auto& w = world_of(world, "pivot_world_add_cable");
        const pivot_cable_desc d = read_struct(require(cable, "pivot_world_add_cable", "cable"), kCableSize10, "cable");
        if (d.attachment_count > 0) require(d.attachments, "pivot_world_add_cable", "cable->attachments");
        pivot::CableDescription c;
        c.name = text(d.name);
        c.type = text(d.type, "pivot.element.ancf_cable");
        c.start = array_of(d.start);
        c.end = array_of(d.end);
        c.elements = d.elements;
        c.radius = d.radius;
        c.density = d.density;
        c.youngs_modulus = d.youngs_modulus;
        if (d.gauss_points != 0) c.gauss_points = d.gauss_points;
        c.damping = d.damping;
        if (!(d.geometric_stiffness < 0.0)) c.geometric_stiffness = d.geometric_stiffness;  // NaN: refused by the plugin's range
        c.material = text(d.material, "default");
        for (uint32_t k = 0; k < d.attachment_count; ++k) {
            const pivot_cable_attachment& a = d.attachments[k];
            pivot::CableAttachment attachment;
            attachment.node = a.node;
            attachment.body = text(a.body, "world");
            attachment.type = text(a.type, "spherical");
            // The attachment joints are named "<cable>/attach<k>": a joint of
            // that name already in the world is refused here, before anything
            // is added (the world would otherwise hold two joints of one name).
            const std::string joint_name = fmt::format("{}/attach{}", c.name, k);
            for (uint32_t j = 0; j < w.joint_count(); ++j) {
                if (w.joint_name(j) == joint_name) {
                    throw pivot::Error(fmt::format("cable '{}': attach[{}]: its joint would be named '{}', which "
                                                   "another joint already has",
                                                   c.name, k, joint_name));
                }
            }
            c.attach.push_back(std::move(attachment));
        }
        const pivot::CableId id = w.add_cable(c);
        if (index != nullptr) *index = id;
    });
}

// ---------------------------------------------------------------- stepping and reading

PIVOT_API pivot_status pivot_world_step(pivot_world* world, uint32_t steps) {
    return guarded("pivot_world_step", [&] {
        auto& w = world_of(world, "pivot_world_step");
        for (uint32_t k = 0; k < steps; ++k) w.step();
    });
}

PIVOT_API double pivot_world_time(const pivot_world* world) {
    return world != nullptr ? world->world->time() : 0.0;
}

PIVOT_API double pivot_world_timestep(const pivot_world* world) {
    return world != nullptr ? world->world->settings().timestep : 0.0;
}

PIVOT_API uint32_t pivot_world_body_count(const pivot_world* world) {
    return world != nullptr ? world->world->body_count() : 0;
}

PIVOT_API uint32_t pivot_world_joint_count(const pivot_world* world) {
    return world != nullptr ? world->world->joint_count() : 0;
}

PIVOT_API pivot_status pivot_world_find_body(const pivot_world* world, const char* name, uint32_t* index) {
    return guarded("pivot_world_find_body", [&] {
        const auto& w = world_of(world, "pivot_world_find_body");
        require(index, "pivot_world_find_body", "index") = w.body(require(name, "pivot_world_find_body", "name"));
    });
}

PIVOT_API pivot_status pivot_world_find_joint(const pivot_world* world, const char* name, uint32_t* index) {
    return guarded("pivot_world_find_joint", [&] {
        const auto& w = world_of(world, "pivot_world_find_joint");
        require(index, "pivot_world_find_joint", "index") = w.joint(require(name, "pivot_world_find_joint", "name"));
    });
}

PIVOT_API const char* pivot_world_body_name(const pivot_world* world, uint32_t body) {
    if (world == nullptr || body >= world->world->body_count()) return nullptr;
    return stable_name(world->body_names, body, [&](uint32_t b) { return world->world->body_name(b); });
}

PIVOT_API const char* pivot_world_joint_name(const pivot_world* world, uint32_t joint) {
    if (world == nullptr || joint >= world->world->joint_count()) return nullptr;
    return stable_name(world->joint_names, joint, [&](uint32_t j) { return world->world->joint_name(j); });
}

// ---------------------------------------------------------------- cables

PIVOT_API uint32_t pivot_world_cable_count(const pivot_world* world) {
    return world != nullptr ? world->world->cable_count() : 0;
}

PIVOT_API pivot_status pivot_world_find_cable(const pivot_world* world, const char* name, uint32_t* index) {
    return guarded("pivot_world_find_cable", [&] {
        const auto& w = world_of(world, "pivot_world_find_cable");
        require(index, "pivot_world_find_cable", "index") = w.cable(require(name, "pivot_world_find_cable", "name"));
    });
}

PIVOT_API const char* pivot_world_cable_name(const pivot_world* world, uint32_t cable) {
    if (world == nullptr || cable >= world->world->cable_count()) return nullptr;
    return stable_name(world->cable_names, cable, [&](uint32_t c) { return world->world->cable_name(c); });
}

PIVOT_API uint32_t pivot_world_cable_node_count(const pivot_world* world, uint32_t cable) {
    if (world == nullptr || cable >= world->world->cable_count()) return 0;
    return world->world->cable_node_count(cable);
}

PIVOT_API pivot_status pivot_world_get_cable_nodes(const pivot_world* world, uint32_t cable, double* positions,
                                                   double* velocities, uint32_t capacity) {
    return guarded("pivot_world_get_cable_nodes", [&] {
        const auto& w = world_of(world, "pivot_world_get_cable_nodes");
        checked_cable(w, cable, "pivot_world_get_cable_nodes");
        require(positions, "pivot_world_get_cable_nodes", "positions");
        const uint32_t nodes = w.cable_node_count(cable);
        if (capacity < nodes) {
            throw pivot::Error(fmt::format("pivot_world_get_cable_nodes: cable '{}': capacity {} is too small ({} nodes; "
                                           "each array needs 3 x {} doubles)",
                                           w.cable_name(cable), capacity, nodes, nodes));
        }
        // Read whole first, written only then: a failure leaves the arrays as they were.
        std::vector<double> p(3 * static_cast<size_t>(nodes)), v(velocities != nullptr ? p.size() : 0);
        for (uint32_t n = 0; n < nodes; ++n) {
            const auto x = w.cable_node_position(cable, n);
            std::copy(x.begin(), x.end(), p.begin() + 3 * static_cast<size_t>(n));
            if (velocities != nullptr) {
                const auto u = w.cable_node_velocity(cable, n);
                std::copy(u.begin(), u.end(), v.begin() + 3 * static_cast<size_t>(n));
            }
        }
        std::copy(p.begin(), p.end(), positions);
        if (velocities != nullptr) std::copy(v.begin(), v.end(), velocities);
    });
}

PIVOT_API pivot_status pivot_world_get_body(const pivot_world* world, uint32_t body, pivot_body_state* state) {
    return guarded("pivot_world_get_body", [&] {
        const auto& w = world_of(world, "pivot_world_get_body");
        put_body(w, checked_body(w, body, "pivot_world_get_body"), require(state, "pivot_world_get_body", "state"));
    });
}

PIVOT_API pivot_status pivot_world_set_body(pivot_world* world, uint32_t body, const pivot_body_state* state) {
    return guarded("pivot_world_set_body", [&] {
        auto& w = world_of(world, "pivot_world_set_body");
        const auto& s = require(state, "pivot_world_set_body", "state");
        checked_body(w, body, "pivot_world_set_body");
        // Velocity first: if the pose is then refused, putting the old
        // velocity back is bit-exact (set_pose normalizes its quaternion, so
        // the other order could not be undone exactly).
        const auto linear = w.linear_velocity(body);
        const auto angular = w.angular_velocity(body);
        w.set_velocity(body, array_of(s.linear_velocity), array_of(s.angular_velocity));
        try {
            w.set_pose(body, array_of(s.position), array_of(s.orientation));
        } catch (...) {
            w.set_velocity(body, linear, angular);
            throw;
        }
    });
}

PIVOT_API pivot_status pivot_world_set_body_force(pivot_world* world, uint32_t body, const double force[3],
                                                  const double torque[3]) {
    return guarded("pivot_world_set_body_force", [&] {
        auto& w = world_of(world, "pivot_world_set_body_force");
        checked_body(w, body, "pivot_world_set_body_force");
        require(force, "pivot_world_set_body_force", "force");
        require(torque, "pivot_world_set_body_force", "torque");
        w.set_external_force(body, {force[0], force[1], force[2]}, {torque[0], torque[1], torque[2]});
    });
}

PIVOT_API pivot_status pivot_world_set_motor_velocity(pivot_world* world, uint32_t joint, double velocity) {
    return guarded("pivot_world_set_motor_velocity", [&] {
        auto& w = world_of(world, "pivot_world_set_motor_velocity");
        w.set_motor_velocity(checked_joint(w, joint, "pivot_world_set_motor_velocity"), velocity);
    });
}

PIVOT_API pivot_status pivot_world_joint_coordinate(const pivot_world* world, uint32_t joint, double* position,
                                                    double* rate) {
    return guarded("pivot_world_joint_coordinate", [&] {
        const auto& w = world_of(world, "pivot_world_joint_coordinate");
        const auto c = w.joint_coordinate(checked_joint(w, joint, "pivot_world_joint_coordinate"));
        if (position != nullptr) *position = c[0];
        if (rate != nullptr) *rate = c[1];
    });
}

PIVOT_API pivot_status pivot_world_joint_reaction(const pivot_world* world, uint32_t joint,
                                                  pivot_joint_reaction* reaction) {
    return guarded("pivot_world_joint_reaction", [&] {
        const auto& w = world_of(world, "pivot_world_joint_reaction");
        auto& out = require(reaction, "pivot_world_joint_reaction", "reaction");
        const pivot::JointReaction& r = w.reaction(checked_joint(w, joint, "pivot_world_joint_reaction"));
        for (int k = 0; k < 3; ++k) out.force[k] = r.force[k], out.torque[k] = r.torque[k];
        out.position_error = r.position_error;
    });
}

PIVOT_API pivot_status pivot_world_contacts(const pivot_world* world, pivot_contact* contacts, uint32_t capacity,
                                            uint32_t* count) {
    return guarded("pivot_world_contacts", [&] {
        const auto& reports = world_of(world, "pivot_world_contacts").contacts();
        auto& n = require(count, "pivot_world_contacts", "count");
        if (capacity > 0) require(contacts, "pivot_world_contacts", "contacts");
        n = static_cast<uint32_t>(reports.size());
        for (uint32_t i = 0; i < capacity && i < reports.size(); ++i) {
            const pivot::ContactReport& r = reports[i];
            pivot_contact& c = contacts[i];
            c.body1 = r.body1;
            c.body2 = r.body2;
            for (int k = 0; k < 3; ++k) c.point[k] = r.point[k], c.normal[k] = r.normal[k], c.friction[k] = r.friction[k];
            c.depth = r.depth;
            c.normal_force = r.normal_force;
        }
    });
}

PIVOT_API pivot_status pivot_world_contact_cables(const pivot_world* world, pivot_contact_cables* cables,
                                                  uint32_t capacity, uint32_t* count) {
    return guarded("pivot_world_contact_cables", [&] {
        const auto& reports = world_of(world, "pivot_world_contact_cables").contacts();
        auto& n = require(count, "pivot_world_contact_cables", "count");
        if (capacity > 0) require(cables, "pivot_world_contact_cables", "cables");
        n = static_cast<uint32_t>(reports.size());
        for (uint32_t i = 0; i < capacity && i < reports.size(); ++i) {
            cables[i].cable1 = reports[i].cable1;
            cables[i].cable2 = reports[i].cable2;
        }
    });
}

PIVOT_API const char* pivot_step_stage_name(uint32_t stage) {
    return stage < static_cast<uint32_t>(pivot::StepStage::count) ? pivot::step_stage_name(static_cast<pivot::StepStage>(stage))
                                                                  : nullptr;
}

PIVOT_API void pivot_world_statistics_init(pivot_world_statistics* statistics) {
    if (statistics == nullptr) return;
    std::memset(statistics, 0, sizeof(*statistics));
    statistics->struct_size = sizeof(*statistics);
}

PIVOT_API pivot_status pivot_world_statistics_get(const pivot_world* world, pivot_world_statistics* statistics) {
    return guarded("pivot_world_statistics_get", [&] {
        const auto& w = world_of(world, "pivot_world_statistics_get");
        auto& given = require(statistics, "pivot_world_statistics_get", "statistics");
        pivot_world_statistics out = read_struct(given, kStatisticsSize10, "statistics");
        const pivot::StepStatistics& s = w.statistics();
        out.islands = s.islands;
        out.rows = s.rows;
        out.solver_failures = s.solver_failures;
        out.fallbacks = s.fallbacks;
        out.solver_iterations = s.solver_iterations;
        out.solver_residual = s.solver_residual_max;
        out.max_joint_error = s.max_joint_error;
        out.step_seconds = 0.0;
        for (double t : s.stage_seconds) out.step_seconds += t;
        const pivot::Energy e = w.energy();
        out.kinetic_energy = e.kinetic;
        out.potential_energy = e.gravitational + e.elastic;
        out.energy_excess = s.energy_excess;
        out.diverging = s.diverging ? 1u : 0u;
        static_assert(static_cast<size_t>(pivot::StepStage::count) <= PIVOT_STEP_STAGE_CAPACITY);
        out.stage_count = static_cast<uint32_t>(pivot::StepStage::count);
        std::fill(std::begin(out.stage_seconds), std::end(out.stage_seconds), 0.0);
        std::copy(s.stage_seconds.begin(), s.stage_seconds.end(), out.stage_seconds);
        out.budget_limited = s.budget_limited;
        out.large_islands = s.large_islands;
        out.contacts_dropped = s.contacts_dropped;
        // Written only now, and only the bytes the caller has: a failure above
        // leaves the caller's struct untouched.
        std::memcpy(&given, &out, std::min<size_t>(given.struct_size, sizeof(out)));
    });
}

// ---------------------------------------------------------------- solvers

PIVOT_API pivot_status pivot_world_set_solver(pivot_world* world, const char* solver, const char* options) {
    return guarded("pivot_world_set_solver", [&] {
        auto& w = world_of(world, "pivot_world_set_solver");
        require(solver, "pivot_world_set_solver", "solver");
        w.set_solver({solver, json_object(options, "pivot_world_set_solver: options")});
    });
}

PIVOT_API pivot_status pivot_world_set_fallback(pivot_world* world, const char* const* solvers, uint32_t count) {
    return guarded("pivot_world_set_fallback", [&] {
        auto& w = world_of(world, "pivot_world_set_fallback");
        if (count > 0) require(solvers, "pivot_world_set_fallback", "solvers");
        std::vector<pivot::SolverChoice> chain;
        for (uint32_t k = 0; k < count; ++k) {
            if (solvers[k] == nullptr) throw pivot::Error(fmt::format("pivot_world_set_fallback: solvers[{}] is NULL", k));
            chain.push_back({solvers[k], nlohmann::json::object()});
        }
        w.set_fallback(chain);
    });
}

// ---------------------------------------------------------------- state

PIVOT_API pivot_status pivot_world_save_state(const pivot_world* world, void* buffer, size_t capacity,
                                              size_t* size) {
    return guarded("pivot_world_save_state", [&] {
        const std::vector<uint8_t> state = world_of(world, "pivot_world_save_state").save_state();
        require(size, "pivot_world_save_state", "size") = state.size();
        if (capacity < state.size()) {
            throw pivot::Error(fmt::format("pivot_world_save_state: buffer too small ({} bytes, {} needed)", capacity,
                                           state.size()));
        }
        if (buffer == nullptr) throw pivot::Error("pivot_world_save_state: buffer is NULL");
        std::memcpy(buffer, state.data(), state.size());
    });
}

PIVOT_API pivot_status pivot_world_restore_state(pivot_world* world, const void* buffer, size_t size) {
    return guarded("pivot_world_restore_state", [&] {
        auto& w = world_of(world, "pivot_world_restore_state");
        if (buffer == nullptr) throw pivot::Error("pivot_world_restore_state: buffer is NULL");
        w.restore_state(static_cast<const uint8_t*>(buffer), size);
    });
}

}  // extern "C"
