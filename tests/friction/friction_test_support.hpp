#pragma once
// Shared by the friction tests: the first-party plugins loaded once through
// the host (PluginRegistry), one friction model instance called through
// checked_friction_build, and contact points built by hand.
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <pivot/plugin_friction.h>
#include <pivot/plugin_solver.h>

#include "plugin_host/checked_calls.hpp"
#include "plugin_host/parameters.hpp"
#include "plugin_host/plugin_registry.hpp"

namespace pivot::friction_test {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPi = 3.14159265358979323846;
constexpr uint32_t kWidth = PIVOT_FRICTION_DIRECTION_WIDTH;

struct V3 {
    double x = 0, y = 0, z = 0;
};
inline V3 operator+(V3 a, V3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline V3 operator-(V3 a, V3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline V3 operator*(double s, V3 a) { return {s * a.x, s * a.y, s * a.z}; }
inline double dot(V3 a, V3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline double length(V3 a) { return std::sqrt(dot(a, a)); }
inline V3 cross(V3 a, V3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
inline void put(V3 v, double* p) {
    p[0] = v.x;
    p[1] = v.y;
    p[2] = v.z;
}
inline V3 get(const double* p) { return {p[0], p[1], p[2]}; }

// The registry with the first-party plugins, loaded once for the process.
inline const PluginRegistry& registry() {
    static PluginRegistry* r = [] {
        auto* reg = new PluginRegistry;
        reg->load(PIVOT_FIRST_PARTY_PLUGIN_DIR);  // other libraries' problems are not ours
        return reg;
    }();
    return *r;
}

inline PluginInstance make_instance(pivot_plugin_kind kind, const std::string& id,
                                    const nlohmann::json& params = nlohmann::json::object()) {
    const PluginRecord& p = registry().require(kind, id);
    return PluginInstance(p, pack_params(p, ParamScope::instance, params, id));
}

// A contact on a plane: normal +z (body 1 = the plane, body 2 above it),
// tangent1 turned by `frame_angle` about the normal, the host's normal row
// unilateral and rigid. Body 2 moves with `velocity` relative to body 1.
inline pivot_contact_point plane_contact(V3 velocity = {}, double frame_angle = 0.0, double depth = 0.0) {
    pivot_contact_point c{};
    c.id = 1;
    const V3 n{0, 0, 1};
    const V3 t1{std::cos(frame_angle), std::sin(frame_angle), 0};
    put(n, c.normal);
    put(t1, c.tangent1);
    put(cross(n, t1), c.tangent2);
    c.depth = depth;
    put(velocity, c.relative_velocity);
    c.weight = 1.0;
    c.effective_radius = kInf;
    c.effective_mass = 1.0;
    c.normal_row = pivot_row{0.0, 0.0, 0.0, 0.0, 0.0, kInf, -1, 0u};
    return c;
}

inline pivot_step_info step_info(double h) {
    pivot_step_info s{};
    s.struct_size = sizeof(s);
    s.timestep = h;
    s.gravity[2] = -9.81;
    return s;
}

// What build() wrote for one contact.
struct Built {
    uint32_t max_rows = 0;
    uint32_t count = 0;
    std::vector<pivot_row> rows;
    std::vector<double> dirs;      // max_rows x 6
    std::vector<double> coupling;  // max_rows x max_rows, column-major
    std::array<double, 6> impulse{};

    V3 linear(uint32_t r) const { return get(&dirs[kWidth * r]); }
    V3 angular(uint32_t r) const { return get(&dirs[kWidth * r + 3]); }
    double c(uint32_t i, uint32_t j) const { return coupling[i + static_cast<size_t>(j) * max_rows]; }
};

// One friction model instance, called through the host's checked call (a
// failed contract check fails the test).
class Model {
public:
    explicit Model(const std::string& id, const nlohmann::json& params = nlohmann::json::object())
        : instance_(make_instance(PIVOT_KIND_FRICTION, id, params)) {}

    const PluginRecord& plugin() const { return instance_.plugin(); }
    const PluginInstance& instance() const { return instance_; }
    uint32_t max_rows() const { return plugin().friction.max_rows_per_contact; }
    uint32_t state_size() const { return plugin().friction.state_per_contact; }

    // Builds one contact; `state` (state_size() doubles) is in/out;
    // `motion`: the contact's motion at the step's start (models with
    // build_with_motion; default: at rest).
    Built build(const pivot_contact_point& contact, double h = 0.01, std::vector<double>* state = nullptr,
                const pivot_contact_motion& motion = pivot_contact_motion{}) const {
        Built out;
        out.max_rows = max_rows();
        const uint32_t m = out.max_rows;
        out.rows.assign(m > 0 ? m : 1, pivot_row{});
        out.dirs.assign(static_cast<size_t>(m > 0 ? m : 1) * kWidth, 0.0);
        out.coupling.assign(static_cast<size_t>(m > 0 ? m * m : 1), 0.0);
        std::vector<double> local(state_size(), 0.0);
        std::vector<double>& s = state != nullptr ? *state : local;
        s.resize(state_size(), 0.0);
        uint32_t count = 0;
        const pivot_step_info step = step_info(h);
        const pivot_contact_bodies bodies{{1, 0, 0, 0}, {1, 0, 0, 0}, PIVOT_CONTACT_BODY1_STATIC, 0};
        const CallResult r = checked_friction_build(
            instance_, &contact, &bodies, 1, step, unguarded(s.empty() ? nullptr : s.data()),
            unguarded(out.rows.data()), unguarded(out.dirs.data()), unguarded(out.coupling.data()),
            unguarded(out.impulse.data()), unguarded(&count), &motion);
        EXPECT_TRUE(r.ok()) << r.message;
        out.count = r.ok() ? count : 0;
        return out;
    }

private:
    PluginInstance instance_;
};

}  // namespace pivot::friction_test
