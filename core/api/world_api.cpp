// The embedding C API: stepping a world and reading it, its solvers and its
// saved state (sdk/include/pivot/pivot.h); creating and building a world is
// world_build_api.cpp. Each function checks its arguments and reports
// failures through pivot_last_error(); see api_support.hpp.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "api/api_support.hpp"
#include "api/world_api_support.hpp"
#include "common/input_limits.hpp"
#include "scene/integrator_reader.hpp"
#include "scene/scene_loader.hpp"

using namespace pivot::api;  // the conversions of world_api_support.hpp

extern "C" {

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

PIVOT_API pivot_status pivot_world_cable_length(const pivot_world* world, uint32_t cable, double* length) {
    return guarded("pivot_world_cable_length", [&] {
        const auto& w = world_of(world, "pivot_world_cable_length");
        checked_cable(w, cable, "pivot_world_cable_length");
        require(length, "pivot_world_cable_length", "length") = w.cable_length(cable);
    });
}

PIVOT_API pivot_status pivot_world_set_cable_reel_speed(pivot_world* world, uint32_t cable, double speed) {
    return guarded("pivot_world_set_cable_reel_speed", [&] {
        auto& w = world_of(world, "pivot_world_set_cable_reel_speed");
        checked_cable(w, cable, "pivot_world_set_cable_reel_speed");
        w.set_cable_reel_speed(cable, speed);
    });
}

// ---------------------------------------------------------------- ropes

PIVOT_API uint32_t pivot_world_rope_count(const pivot_world* world) {
    return world != nullptr ? world->world->rope_count() : 0;
}

PIVOT_API pivot_status pivot_world_find_rope(const pivot_world* world, const char* name, uint32_t* index) {
    return guarded("pivot_world_find_rope", [&] {
        const auto& w = world_of(world, "pivot_world_find_rope");
        require(index, "pivot_world_find_rope", "index") = w.rope(require(name, "pivot_world_find_rope", "name"));
    });
}

PIVOT_API const char* pivot_world_rope_name(const pivot_world* world, uint32_t rope) {
    if (world == nullptr || rope >= world->world->rope_count()) return nullptr;
    return stable_name(world->rope_names, rope, [&](uint32_t r) { return world->world->rope_name(r); });
}

PIVOT_API pivot_status pivot_world_get_rope(const pivot_world* world, uint32_t rope, pivot_rope_state* state) {
    return guarded("pivot_world_get_rope", [&] {
        const auto& w = world_of(world, "pivot_world_get_rope");
        checked_rope(w, rope, "pivot_world_get_rope");
        auto& out = require(state, "pivot_world_get_rope", "state");
        pivot::RopePath path;
        w.rope_path(rope, path);
        out.tension = w.rope_tension(rope);
        out.length = w.rope_length(rope);
        out.path_length = path.length;
        out.point_count = static_cast<uint32_t>(path.arrive.size());
        out.reserved = 0;
    });
}

PIVOT_API pivot_status pivot_world_set_rope_reel_speed(pivot_world* world, uint32_t rope, double speed) {
    return guarded("pivot_world_set_rope_reel_speed", [&] {
        auto& w = world_of(world, "pivot_world_set_rope_reel_speed");
        w.set_rope_reel_speed(checked_rope(w, rope, "pivot_world_set_rope_reel_speed"), speed);
    });
}

PIVOT_API pivot_status pivot_world_get_rope_path(const pivot_world* world, uint32_t rope, double* positions,
                                                 uint32_t capacity) {
    return guarded("pivot_world_get_rope_path", [&] {
        const auto& w = world_of(world, "pivot_world_get_rope_path");
        checked_rope(w, rope, "pivot_world_get_rope_path");
        require(positions, "pivot_world_get_rope_path", "positions");
        pivot::RopePath path;
        w.rope_path(rope, path);
        const size_t needed = 2 * path.arrive.size();
        if (capacity < needed) {
            throw pivot::Error(fmt::format("pivot_world_get_rope_path: rope '{}': capacity {} is too small ({} points "
                                           "= 2 per route point)",
                                           w.rope_name(rope), capacity, needed));
        }
        for (size_t k = 0; k < path.arrive.size(); ++k) {
            for (int i = 0; i < 3; ++i) {
                positions[6 * k + i] = path.arrive[k][i];
                positions[6 * k + 3 + i] = path.leave[k][i];
            }
        }
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

PIVOT_API pivot_status pivot_world_set_body_damping(pivot_world* world, uint32_t body, double linear,
                                                    double angular) {
    return guarded("pivot_world_set_body_damping", [&] {
        auto& w = world_of(world, "pivot_world_set_body_damping");
        checked_body(w, body, "pivot_world_set_body_damping");
        w.set_damping(body, linear, angular);
    });
}

PIVOT_API pivot_status pivot_world_set_body_friction(pivot_world* world, uint32_t body, const char* friction_params) {
    return guarded("pivot_world_set_body_friction", [&] {
        auto& w = world_of(world, "pivot_world_set_body_friction");
        const pivot::BodyId b = checked_body(w, body, "pivot_world_set_body_friction");
        const std::string where = "body '" + w.body_name(b) + "': friction";
        w.set_body_friction(b, friction_params != nullptr ? json_object(friction_params, where.c_str())
                                                          : nlohmann::json::object());
    });
}

PIVOT_API pivot_status pivot_world_set_integrator(pivot_world* world, const char* integrator) {
    return guarded("pivot_world_set_integrator", [&] {
        auto& w = world_of(world, "pivot_world_set_integrator");
        const std::string source = "pivot_world_set_integrator";
        nlohmann::json value = "semi_implicit";
        if (integrator != nullptr) {
            pivot::check_json_depth(integrator, source.c_str());
            value = nlohmann::json::parse(integrator, nullptr, false);
            if (value.is_discarded() || !(value.is_string() || value.is_object())) {
                throw pivot::Error(fmt::format("{}: not a JSON string or object: '{}'", source,
                                               std::string(integrator, strnlen(integrator, 80))));
            }
        }
        pivot::WorldSettings settings = w.settings();
        pivot::read_integrator(pivot::scene::JsonAt(value, "", source), settings);
        w.set_integrator(settings.integrator, settings.gssss);
    });
}

PIVOT_API pivot_status pivot_world_set_motor_velocity(pivot_world* world, uint32_t joint, double velocity) {
    return guarded("pivot_world_set_motor_velocity", [&] {
        auto& w = world_of(world, "pivot_world_set_motor_velocity");
        w.set_motor_velocity(checked_joint(w, joint, "pivot_world_set_motor_velocity"), velocity);
    });
}

PIVOT_API pivot_status pivot_world_remove_body(pivot_world* world, uint32_t body) {
    return guarded("pivot_world_remove_body", [&] {
        auto& w = world_of(world, "pivot_world_remove_body");
        w.remove_body(checked_body(w, body, "pivot_world_remove_body"));
    });
}

PIVOT_API pivot_status pivot_world_remove_joint(pivot_world* world, uint32_t joint) {
    return guarded("pivot_world_remove_joint", [&] {
        auto& w = world_of(world, "pivot_world_remove_joint");
        w.remove_joint(checked_joint(w, joint, "pivot_world_remove_joint"));
    });
}

PIVOT_API pivot_status pivot_world_remove_cable(pivot_world* world, uint32_t cable) {
    return guarded("pivot_world_remove_cable", [&] {
        auto& w = world_of(world, "pivot_world_remove_cable");
        checked_cable(w, cable, "pivot_world_remove_cable");
        w.remove_cable(cable);
    });
}

PIVOT_API pivot_status pivot_world_remove_rope(pivot_world* world, uint32_t rope) {
    return guarded("pivot_world_remove_rope", [&] {
        auto& w = world_of(world, "pivot_world_remove_rope");
        w.remove_rope(checked_rope(w, rope, "pivot_world_remove_rope"));
    });
}

PIVOT_API uint32_t pivot_world_removed(const pivot_world* world, pivot_object_kind kind, uint32_t index) {
    if (world == nullptr) return 0;
    const pivot::World& w = *world->world;
    switch (kind) {
        case PIVOT_OBJECT_BODY: return index < w.body_count() && w.body_removed(index) ? 1u : 0u;
        case PIVOT_OBJECT_JOINT: return index < w.joint_count() && w.joint_removed(index) ? 1u : 0u;
        case PIVOT_OBJECT_CABLE: return index < w.cable_count() && w.cable_removed(index) ? 1u : 0u;
        case PIVOT_OBJECT_ROPE: return index < w.rope_count() && w.rope_removed(index) ? 1u : 0u;
    }
    return 0;
}

PIVOT_API pivot_status pivot_world_set_body_enabled(pivot_world* world, uint32_t body, uint32_t enabled) {
    return guarded("pivot_world_set_body_enabled", [&] {
        auto& w = world_of(world, "pivot_world_set_body_enabled");
        w.set_body_enabled(checked_body(w, body, "pivot_world_set_body_enabled"), enabled != 0);
    });
}

PIVOT_API pivot_status pivot_world_body_enabled(const pivot_world* world, uint32_t body, uint32_t* enabled) {
    return guarded("pivot_world_body_enabled", [&] {
        const auto& w = world_of(world, "pivot_world_body_enabled");
        require(enabled, "pivot_world_body_enabled", "enabled") =
            w.body_enabled(checked_body(w, body, "pivot_world_body_enabled")) ? 1u : 0u;
    });
}

PIVOT_API pivot_status pivot_world_set_joint_enabled(pivot_world* world, uint32_t joint, uint32_t enabled,
                                                     uint32_t at_current_pose) {
    return guarded("pivot_world_set_joint_enabled", [&] {
        auto& w = world_of(world, "pivot_world_set_joint_enabled");
        w.set_joint_enabled(checked_joint(w, joint, "pivot_world_set_joint_enabled"), enabled != 0,
                            at_current_pose != 0 ? pivot::JointAnchor::current_pose : pivot::JointAnchor::as_built);
    });
}

PIVOT_API pivot_status pivot_world_joint_enabled(const pivot_world* world, uint32_t joint, uint32_t* enabled,
                                                 uint32_t* broken) {
    return guarded("pivot_world_joint_enabled", [&] {
        const auto& w = world_of(world, "pivot_world_joint_enabled");
        const pivot::JointId j = checked_joint(w, joint, "pivot_world_joint_enabled");
        if (enabled != nullptr) *enabled = w.joint_enabled(j) ? 1u : 0u;
        if (broken != nullptr) *broken = w.joint_broken(j) ? 1u : 0u;
    });
}

PIVOT_API pivot_status pivot_world_set_motor_position(pivot_world* world, uint32_t joint, double position) {
    return guarded("pivot_world_set_motor_position", [&] {
        auto& w = world_of(world, "pivot_world_set_motor_position");
        w.set_motor_position(checked_joint(w, joint, "pivot_world_set_motor_position"), position);
    });
}

PIVOT_API pivot_status pivot_world_set_motor_force(pivot_world* world, uint32_t joint, double force) {
    return guarded("pivot_world_set_motor_force", [&] {
        auto& w = world_of(world, "pivot_world_set_motor_force");
        w.set_motor_force(checked_joint(w, joint, "pivot_world_set_motor_force"), force);
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
        out.position_error = w.joint_error_now(joint);  // after the step, not the one it started from
    });
}

PIVOT_API pivot_status pivot_world_joint_motor_effort(const pivot_world* world, uint32_t joint, double* effort) {
    return guarded("pivot_world_joint_motor_effort", [&] {
        const auto& w = world_of(world, "pivot_world_joint_motor_effort");
        auto& out = require(effort, "pivot_world_joint_motor_effort", "effort");
        out = w.reaction(checked_joint(w, joint, "pivot_world_joint_motor_effort")).motor_effort;
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

PIVOT_API pivot_status pivot_world_contact_flags(const pivot_world* world, uint32_t* flags, uint32_t capacity,
                                                 uint32_t* count) {
    return guarded("pivot_world_contact_flags", [&] {
        const auto& reports = world_of(world, "pivot_world_contact_flags").contacts();
        auto& n = require(count, "pivot_world_contact_flags", "count");
        if (capacity > 0) require(flags, "pivot_world_contact_flags", "flags");
        n = static_cast<uint32_t>(reports.size());
        for (uint32_t i = 0; i < capacity && i < reports.size(); ++i) {
            flags[i] = (reports[i].depth < 0.0 ? PIVOT_CONTACT_SPECULATIVE : 0u) |
                       (reports[i].normal_force != 0.0 ? PIVOT_CONTACT_FORCE : 0u);
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
        out.step_seconds = 0.0;
        for (double t : s.stage_seconds) out.step_seconds += t;
        const pivot::Energy e = w.energy(&out.max_joint_error);  // the joint error after the step
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
        out.substeps = s.substeps;
        out.joints_broken = s.joints_broken;
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

PIVOT_API const char* pivot_world_solver(const pivot_world* world) {
    if (world == nullptr) return nullptr;
    const std::string* id = world->world->named_solver();
    return id != nullptr ? id->c_str() : nullptr;
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
