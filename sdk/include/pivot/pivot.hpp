// pivot/pivot.hpp - a thin, header-only C++17 wrapper over the embedding C API
// (pivot/pivot.h): RAII handles, exceptions instead of status codes, and
// std::array / std::vector / std::string for the plain C types. It adds no
// behaviour: every member calls the C function of the same name, so the C
// header's contracts (units, threads, errors) apply unchanged.
//
//   pivot::sdk::Engine engine;                                  // first-party plugins
//   pivot::sdk::World world = engine.load_scene("crane.json");
//   world.step();
//   auto hook = world.body(world.find_body("hook"));
//   auto wire = world.cable_nodes(world.find_cable("wire")).positions;
#ifndef PIVOT_PIVOT_HPP
#define PIVOT_PIVOT_HPP

#include <array>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "pivot/pivot.h"

namespace pivot::sdk {

// A failed call: the engine's one-line message (file, object, field).
class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
};

inline void check(pivot_status status) {
    if (status != PIVOT_OK && status != PIVOT_WARNING) throw Error(pivot_last_error());
}

// Logging (pivot_set_log_callback): `sink` gets every message of the
// engine and its plugins from now on, process-wide, on the thread that logs,
// one call at a time; it must not call Pivot or throw (an exception is
// swallowed). An empty sink goes back to stderr. The sink is kept in a
// function-local static: set it before worlds step on other threads.
using LogSink = std::function<void(pivot_log_level level, const std::string& source, const std::string& message)>;
inline void set_log_sink(LogSink sink) {
    static LogSink installed;
    if (!sink) {
        pivot_set_log_callback(nullptr, nullptr);
        installed = nullptr;
        return;
    }
    installed = std::move(sink);
    pivot_set_log_callback(
        [](void* user, pivot_log_level level, const char* source, const char* message) {
            try {
                (*static_cast<LogSink*>(user))(level, source != nullptr ? source : "", message != nullptr ? message : "");
            } catch (...) {
            }
        },
        &installed);
}
inline void set_log_level(pivot_log_level level) { check(pivot_set_log_level(level)); }

class World;

// The plugins: first-party and PIVOT_PLUGIN_PATH at construction. Must
// outlive its worlds. Movable, not copyable.
class Engine {
public:
    Engine() { check(pivot_engine_create(&engine_)); }
    ~Engine() { pivot_engine_destroy(engine_); }
    Engine(Engine&& other) noexcept : engine_(std::exchange(other.engine_, nullptr)) {}
    Engine& operator=(Engine&& other) noexcept {
        std::swap(engine_, other.engine_);
        return *this;
    }
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    void load_plugins(const std::string& file_or_folder) {
        check(pivot_engine_load_plugins(engine_, file_or_folder.c_str()));
    }
    inline World load_scene(const std::string& scene_file);
    inline World scene_from_json(const std::string& scene_json, const std::string& base_dir = ".");
    inline World create(const pivot_world_settings& settings);

    pivot_engine* handle() const { return engine_; }

private:
    pivot_engine* engine_ = nullptr;
};

// The nodes of a cable (pivot_world_get_cable_nodes), x y z each, world.
struct CableNodes {
    std::vector<std::array<double, 3>> positions;   // m
    std::vector<std::array<double, 3>> velocities;  // m/s (empty when not asked for)
};

struct BodyState {
    std::array<double, 3> position{};
    std::array<double, 4> orientation{1, 0, 0, 0};
    std::array<double, 3> linear_velocity{};
    std::array<double, 3> angular_velocity{};
};

// One world. Movable, not copyable.
class World {
public:
    explicit World(pivot_world* world) : world_(world) {}
    ~World() { pivot_world_destroy(world_); }
    World(World&& other) noexcept : world_(std::exchange(other.world_, nullptr)) {}
    World& operator=(World&& other) noexcept {
        std::swap(world_, other.world_);
        return *this;
    }
    World(const World&) = delete;
    World& operator=(const World&) = delete;

    // Building (the C structs, filled by their _init functions first).
    void add_material(const pivot_material_desc& m) { check(pivot_world_add_material(world_, &m)); }
    void add_static_shape(const pivot_shape_desc& s) { check(pivot_world_add_static_shape(world_, &s)); }
    uint32_t add_body(const pivot_body_desc& b) {
        uint32_t index = 0;
        check(pivot_world_add_body(world_, &b, &index));
        return index;
    }
    uint32_t add_joint(const pivot_joint_desc& j) {
        uint32_t index = 0;
        check(pivot_world_add_joint(world_, &j, &index));
        return index;
    }
    // Also adds the joints "<cable>/attach<k>" of its attachments.
    uint32_t add_cable(const pivot_cable_desc& c) {
        uint32_t index = 0;
        check(pivot_world_add_cable(world_, &c, &index));
        return index;
    }

    uint32_t add_rope(const pivot_rope_desc& r) {
        uint32_t index = 0;
        check(pivot_world_add_rope(world_, &r, &index));
        return index;
    }

    void step(uint32_t steps = 1) { check(pivot_world_step(world_, steps)); }
    double time() const { return pivot_world_time(world_); }
    double timestep() const { return pivot_world_timestep(world_); }

    uint32_t body_count() const { return pivot_world_body_count(world_); }
    uint32_t joint_count() const { return pivot_world_joint_count(world_); }
    uint32_t find_body(const std::string& name) const {
        uint32_t index = 0;
        check(pivot_world_find_body(world_, name.c_str(), &index));
        return index;
    }
    uint32_t find_joint(const std::string& name) const {
        uint32_t index = 0;
        check(pivot_world_find_joint(world_, name.c_str(), &index));
        return index;
    }
    std::string body_name(uint32_t body) const {
        const char* name = pivot_world_body_name(world_, body);
        if (name == nullptr) throw Error("body index " + std::to_string(body) + " is out of range");
        return name;
    }

    uint32_t cable_count() const { return pivot_world_cable_count(world_); }
    uint32_t find_cable(const std::string& name) const {
        uint32_t index = 0;
        check(pivot_world_find_cable(world_, name.c_str(), &index));
        return index;
    }
    std::string cable_name(uint32_t cable) const {
        const char* name = pivot_world_cable_name(world_, cable);
        if (name == nullptr) throw Error("cable index " + std::to_string(cable) + " is out of range");
        return name;
    }
    // elements + 1; 0 for a bad index.
    uint32_t cable_node_count(uint32_t cable) const { return pivot_world_cable_node_count(world_, cable); }
    // Every node's position (and velocity if asked for).
    CableNodes cable_nodes(uint32_t cable, bool with_velocities = true) const {
        std::vector<double> p, v;
        cable_nodes(cable, p, with_velocities ? &v : nullptr);
        CableNodes out;
        out.positions.resize(p.size() / 3);
        out.velocities.resize(v.size() / 3);
        for (size_t n = 0; n < out.positions.size(); ++n) {
            for (size_t k = 0; k < 3; ++k) out.positions[n][k] = p[3 * n + k];
        }
        for (size_t n = 0; n < out.velocities.size(); ++n) {
            for (size_t k = 0; k < 3; ++k) out.velocities[n][k] = v[3 * n + k];
        }
        return out;
    }
    // The per-frame form: flat x y z arrays (3 x node count), resized to fit
    // and reused from frame to frame; velocities may be nullptr.
    void cable_nodes(uint32_t cable, std::vector<double>& positions, std::vector<double>* velocities = nullptr) const {
        const uint32_t nodes = pivot_world_cable_node_count(world_, cable);
        // A bad index (0 nodes) throws the engine's message, the arrays untouched.
        if (nodes == 0) check(pivot_world_get_cable_nodes(world_, cable, nullptr, nullptr, 0));
        positions.resize(3 * static_cast<size_t>(nodes));
        if (velocities != nullptr) velocities->resize(positions.size());
        check(pivot_world_get_cable_nodes(world_, cable, positions.data(),
                                          velocities != nullptr ? velocities->data() : nullptr, nodes));
    }

    BodyState body(uint32_t index) const {
        pivot_body_state s{};
        check(pivot_world_get_body(world_, index, &s));
        BodyState out;
        for (int k = 0; k < 3; ++k) {
            out.position[k] = s.position[k];
            out.linear_velocity[k] = s.linear_velocity[k];
            out.angular_velocity[k] = s.angular_velocity[k];
        }
        for (int k = 0; k < 4; ++k) out.orientation[k] = s.orientation[k];
        return out;
    }
    void set_body(uint32_t index, const BodyState& state) {
        pivot_body_state s{};
        for (int k = 0; k < 3; ++k) {
            s.position[k] = state.position[k];
            s.linear_velocity[k] = state.linear_velocity[k];
            s.angular_velocity[k] = state.angular_velocity[k];
        }
        for (int k = 0; k < 4; ++k) s.orientation[k] = state.orientation[k];
        check(pivot_world_set_body(world_, index, &s));
    }
    void set_body_force(uint32_t body, const std::array<double, 3>& force, const std::array<double, 3>& torque) {
        check(pivot_world_set_body_force(world_, body, force.data(), torque.data()));
    }
    void set_body_damping(uint32_t body, double linear, double angular) {
        check(pivot_world_set_body_damping(world_, body, linear, angular));
    }
    // A JSON object of friction-model parameters ("{}": none), e.g. R"({"mu": 0.3})".
    void set_body_friction(uint32_t body, const std::string& friction_params) {
        check(pivot_world_set_body_friction(world_, body, friction_params.c_str()));
    }
    void set_motor_velocity(uint32_t joint, double velocity) {
        check(pivot_world_set_motor_velocity(world_, joint, velocity));
    }
    void set_motor_position(uint32_t joint, double position) {
        check(pivot_world_set_motor_position(world_, joint, position));
    }
    void set_motor_force(uint32_t joint, double force) { check(pivot_world_set_motor_force(world_, joint, force)); }
    std::pair<double, double> joint_coordinate(uint32_t joint) const {
        double position = 0.0, rate = 0.0;
        check(pivot_world_joint_coordinate(world_, joint, &position, &rate));
        return {position, rate};
    }
    pivot_joint_reaction joint_reaction(uint32_t joint) const {
        pivot_joint_reaction r{};
        check(pivot_world_joint_reaction(world_, joint, &r));
        return r;
    }
    void remove_body(uint32_t body) { check(pivot_world_remove_body(world_, body)); }
    void set_body_enabled(uint32_t body, bool enabled) {
        check(pivot_world_set_body_enabled(world_, body, enabled ? 1u : 0u));
    }
    void remove_joint(uint32_t joint) { check(pivot_world_remove_joint(world_, joint)); }
    void remove_cable(uint32_t cable) { check(pivot_world_remove_cable(world_, cable)); }
    bool removed(pivot_object_kind kind, uint32_t index) const { return pivot_world_removed(world_, kind, index) != 0; }
    void set_joint_enabled(uint32_t joint, bool enabled, bool at_current_pose = false) {
        check(pivot_world_set_joint_enabled(world_, joint, enabled ? 1u : 0u, at_current_pose ? 1u : 0u));
    }
    // {enabled, broken}
    std::pair<bool, bool> joint_enabled(uint32_t joint) const {
        uint32_t enabled = 0, broken = 0;
        check(pivot_world_joint_enabled(world_, joint, &enabled, &broken));
        return {enabled != 0, broken != 0};
    }
    double cable_length(uint32_t cable) const {
        double length = 0.0;
        check(pivot_world_cable_length(world_, cable, &length));
        return length;
    }
    void set_cable_reel_speed(uint32_t cable, double speed) {
        check(pivot_world_set_cable_reel_speed(world_, cable, speed));
    }
    // Ropes (0.10): count, index by name, state, winch, path (2 points per route point, x y z each).
    uint32_t rope_count() const { return pivot_world_rope_count(world_); }
    uint32_t find_rope(const std::string& name) const {
        uint32_t index = 0;
        check(pivot_world_find_rope(world_, name.c_str(), &index));
        return index;
    }
    pivot_rope_state rope(uint32_t rope) const {
        pivot_rope_state s{};
        check(pivot_world_get_rope(world_, rope, &s));
        return s;
    }
    void set_rope_reel_speed(uint32_t rope, double speed) {
        check(pivot_world_set_rope_reel_speed(world_, rope, speed));
    }
    std::vector<double> rope_path(uint32_t index) const {
        const uint32_t points = rope(index).point_count;
        std::vector<double> positions(6 * static_cast<size_t>(points));
        check(pivot_world_get_rope_path(world_, index, positions.data(), 2 * points));
        return positions;
    }
    void remove_rope(uint32_t rope) { check(pivot_world_remove_rope(world_, rope)); }
    double joint_motor_effort(uint32_t joint) const {
        double effort = 0.0;
        check(pivot_world_joint_motor_effort(world_, joint, &effort));
        return effort;
    }
    std::vector<pivot_contact> contacts() const {
        uint32_t count = 0;
        check(pivot_world_contacts(world_, nullptr, 0, &count));
        std::vector<pivot_contact> out(count);
        check(pivot_world_contacts(world_, out.data(), count, &count));
        out.resize(count);
        return out;
    }
    // Per contact of contacts(), in the same order: PIVOT_CONTACT_* bits (speculative, force).
    std::vector<uint32_t> contact_flags() const {
        uint32_t count = 0;
        check(pivot_world_contact_flags(world_, nullptr, 0, &count));
        std::vector<uint32_t> out(count);
        check(pivot_world_contact_flags(world_, out.data(), count, &count));
        out.resize(count);
        return out;
    }
    // Per contact of contacts(), in the same order: the cable of each side, or -1.
    std::vector<pivot_contact_cables> contact_cables() const {
        uint32_t count = 0;
        check(pivot_world_contact_cables(world_, nullptr, 0, &count));
        std::vector<pivot_contact_cables> out(count);
        check(pivot_world_contact_cables(world_, out.data(), count, &count));
        out.resize(count);
        return out;
    }
    pivot_world_statistics statistics() const {
        pivot_world_statistics s;
        pivot_world_statistics_init(&s);
        check(pivot_world_statistics_get(world_, &s));
        return s;
    }

    // Solvers can be swapped between two steps; the warm start is kept.
    void set_solver(const std::string& solver, const std::string& options_json = "{}") {
        check(pivot_world_set_solver(world_, solver.c_str(), options_json.c_str()));
    }
    // (0.13) The integrator: JSON as a scene's settings.integrator ("semi_implicit",
    // "gssss" or an object; docs/scene-format.md "Integrators").
    void set_integrator(const std::string& integrator_json) {
        check(pivot_world_set_integrator(world_, integrator_json.c_str()));
    }
    void set_fallback(const std::vector<std::string>& solvers) {
        std::vector<const char*> ids;
        for (const auto& s : solvers) ids.push_back(s.c_str());
        check(pivot_world_set_fallback(world_, ids.data(), static_cast<uint32_t>(ids.size())));
    }

    std::vector<uint8_t> save_state() const {
        size_t size = 0;
        pivot_world_save_state(world_, nullptr, 0, &size);  // asks for the size
        std::vector<uint8_t> buffer(size);
        check(pivot_world_save_state(world_, buffer.data(), buffer.size(), &size));
        return buffer;
    }
    void restore_state(const std::vector<uint8_t>& buffer) {
        check(pivot_world_restore_state(world_, buffer.data(), buffer.size()));
    }

    pivot_world* handle() const { return world_; }

private:
    pivot_world* world_ = nullptr;
};

inline World Engine::load_scene(const std::string& scene_file) {
    pivot_world* world = nullptr;
    check(pivot_world_create_from_file(engine_, scene_file.c_str(), &world));
    return World(world);
}

inline World Engine::scene_from_json(const std::string& scene_json, const std::string& base_dir) {
    pivot_world* world = nullptr;
    check(pivot_world_create_from_json(engine_, scene_json.c_str(), base_dir.c_str(), &world));
    return World(world);
}

inline World Engine::create(const pivot_world_settings& settings) {
    pivot_world* world = nullptr;
    check(pivot_world_create(engine_, &settings, &world));
    return World(world);
}

}  // namespace pivot::sdk

#endif  // PIVOT_PIVOT_HPP
