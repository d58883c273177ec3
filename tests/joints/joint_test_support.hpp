#pragma once
// Shared by the joint tests: the first-party joint plugins loaded once
// through the host (PluginRegistry), calls through checked_joint_rows, a
// deterministic random generator, and the tests' own small rigid-motion math
// (independent of the plugin's), used to build frames and move them by a twist.
#include <array>
#include <cmath>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <pivot/plugin_joint.h>

#include "plugin_host/checked_calls.hpp"
#include "plugin_host/parameters.hpp"
#include "plugin_host/plugin_registry.hpp"

namespace pivot::joint_test {

// ---------------------------------------------------------------- math

struct V3 {
    double x = 0, y = 0, z = 0;
};
inline V3 operator+(V3 a, V3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline V3 operator-(V3 a, V3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline V3 operator*(double s, V3 a) { return {s * a.x, s * a.y, s * a.z}; }
inline double dot(V3 a, V3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline double length(V3 a) { return std::sqrt(dot(a, a)); }

struct Q {
    double w = 1, x = 0, y = 0, z = 0;
};
inline Q mul(Q a, Q b) {
    return {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}
// Rotation by the rotation vector r (angle |r| about r / |r|).
inline Q exp_q(V3 r) {
    const double a = length(r);
    if (a < 1e-300) return {};
    const double s = std::sin(a / 2) / a;
    return {std::cos(a / 2), s * r.x, s * r.y, s * r.z};
}
// R(q) v, by q (0, v) q^*.
inline V3 rotate(Q q, V3 v) {
    const Q p = mul(mul(q, Q{0, v.x, v.y, v.z}), Q{q.w, -q.x, -q.y, -q.z});
    return {p.x, p.y, p.z};
}

// A frame pose and twist as the batch carries them.
struct Frame {
    V3 p;
    Q q;
    V3 v, w;  // twist: velocity of the origin, angular velocity (world)

    std::array<double, 7> pose() const { return {p.x, p.y, p.z, q.w, q.x, q.y, q.z}; }
    std::array<double, 6> twist() const { return {v.x, v.y, v.z, w.x, w.y, w.z}; }
    V3 axis(int k) const { return rotate(q, V3{k == 0 ? 1.0 : 0.0, k == 1 ? 1.0 : 0.0, k == 2 ? 1.0 : 0.0}); }
    // The frame after moving with its (constant) twist for time t: the
    // origin moves by v t, the orientation by exp(w t) from the left (w is
    // in world coordinates). Its twist at time t is still (v, w).
    Frame moved(double t) const {
        Frame f = *this;
        f.p = p + t * v;
        f.q = mul(exp_q(t * w), q);
        return f;
    }
};

// ---------------------------------------------------------------- random

// SplitMix64: the same numbers on every platform and standard library.
class Random {
public:
    explicit Random(uint64_t seed) : state_(seed) {}
    double uniform(double lo, double hi) {
        state_ += 0x9E3779B97F4A7C15ull;
        uint64_t z = state_;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        return lo + (hi - lo) * static_cast<double>(z >> 11) * 0x1.0p-53;
    }
    V3 vec(double lo, double hi) { return {uniform(lo, hi), uniform(lo, hi), uniform(lo, hi)}; }
    // A rotation vector with length at most `max_angle`, direction roughly uniform.
    V3 rotation(double max_angle) {
        V3 r;
        do r = vec(-1, 1);
        while (dot(r, r) > 1.0 || dot(r, r) < 1e-4);
        return (max_angle / length(r) * uniform(0, 1)) * r;
    }
    Q quaternion() {
        for (;;) {
            const Q q{uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)};
            const double n = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
            if (n > 0.1 && n <= 1.0) return {q.w / n, q.x / n, q.y / n, q.z / n};
        }
    }

private:
    uint64_t state_;
};

// ---------------------------------------------------------------- plugins

constexpr uint32_t kWidth = PIVOT_JOINT_JACOBIAN_WIDTH;

// The registry with the first-party plugins, loaded once for the process.
inline const PluginRegistry& registry() {
    static PluginRegistry* r = [] {
        auto* reg = new PluginRegistry;
        reg->load(PIVOT_FIRST_PARTY_PLUGIN_DIR);  // other libraries' problems are not ours
        return reg;
    }();
    return *r;
}

inline const PluginRecord& joint_plugin(const std::string& id) {
    return registry().require(PIVOT_KIND_JOINT, id);
}

inline PluginInstance make_instance(const std::string& id) {
    const PluginRecord& p = joint_plugin(id);
    return PluginInstance(p, pack_params(p, ParamScope::instance, nlohmann::json::object(), id));
}

// The rows of one joint.
struct Rows {
    std::vector<pivot_row> rows;
    std::vector<double> jac;  // count x 12
    uint32_t count = 0;

    // J . [t1; t2] of row r.
    double rate(uint32_t r, const Frame& f1, const Frame& f2) const {
        const auto t1 = f1.twist(), t2 = f2.twist();
        double s = 0;
        for (int c = 0; c < 6; ++c) s += jac[kWidth * r + c] * t1[c] + jac[kWidth * r + 6 + c] * t2[c];
        return s;
    }
    // The largest |violation| of the equality rows.
    double max_equality_violation() const {
        double m = 0;
        for (uint32_t r = 0; r < count; ++r)
            if (rows[r].flags & PIVOT_ROW_POSITION_ERROR) m = std::fmax(m, std::fabs(rows[r].violation));
        return m;
    }
};

// One joint through the host's checked call (finite outputs, contract);
// a failed check fails the test.
class Joint {
public:
    explicit Joint(const std::string& id, const nlohmann::json& item = nlohmann::json::object())
        : id_(id), instance_(make_instance(id)) {
        set(item);
    }
    void set(const nlohmann::json& item) { params_ = pack_params(instance_.plugin(), ParamScope::item, item, id_); }
    const PluginRecord& plugin() const { return instance_.plugin(); }
    const PluginInstance& instance() const { return instance_; }
    const std::vector<double>& params() const { return params_; }
    uint32_t max_rows() const { return plugin().joint.max_rows_per_joint; }

    Rows rows(const Frame& f1, const Frame& f2, double h = 0.01) const {
        const auto p1 = f1.pose(), p2 = f2.pose();
        const auto t1 = f1.twist(), t2 = f2.twist();
        const pivot_joint_batch batch{1, static_cast<uint32_t>(params_.size()), params_.data(), p1.data(),
                                      p2.data(), t1.data(), t2.data()};
        pivot_step_info step{};
        step.struct_size = sizeof(step);
        step.timestep = h;
        Rows out;
        out.rows.assign(max_rows(), pivot_row{});
        out.jac.assign(static_cast<size_t>(max_rows()) * kWidth, 0.0);
        uint32_t count = 0;
        const CallResult r = checked_joint_rows(instance_, batch, step, unguarded(out.rows.data()),
                                                unguarded(out.jac.data()), unguarded(&count));
        EXPECT_TRUE(r.ok()) << r.message;
        out.count = r.ok() ? count : 0;
        return out;
    }

    // The free coordinate and its rate, through coordinate() (the host has
    // no checked wrapper for it; finiteness is checked here).
    std::array<double, 2> coordinate(const Frame& f1, const Frame& f2) const {
        const auto p1 = f1.pose(), p2 = f2.pose();
        const auto t1 = f1.twist(), t2 = f2.twist();
        const pivot_joint_batch batch{1, static_cast<uint32_t>(params_.size()), params_.data(), p1.data(),
                                      p2.data(), t1.data(), t2.data()};
        double position = NAN, velocity = NAN;
        EXPECT_NE(plugin().joint.coordinate, nullptr);
        if (plugin().joint.coordinate == nullptr) return {NAN, NAN};
        EXPECT_EQ(plugin().joint.coordinate(instance_.handle(), &batch, &position, &velocity), PIVOT_OK);
        EXPECT_TRUE(std::isfinite(position) && std::isfinite(velocity)) << position << " " << velocity;
        return {position, velocity};
    }

private:
    std::string id_;
    PluginInstance instance_;
    std::vector<double> params_;
};

// Every joint type, with the number of equality rows it always writes.
struct JointType {
    const char* id;
    uint32_t equality_rows;
    uint32_t max_rows;
    bool free_coordinate;
    uint32_t damping_rows;  // with joint damping: one per free direction of relative motion
};
// For gtest's messages: the id, not the bytes.
inline void PrintTo(const JointType& type, std::ostream* os) { *os << type.id; }
// "revolute" for "pivot.joint.revolute": parameterized test names.
inline std::string short_name(const char* id) {
    const std::string s = id;
    return s.substr(s.rfind('.') + 1);
}

inline const std::vector<JointType>& joint_types() {
    static const std::vector<JointType> types = {
        {"pivot.joint.fixed", 6, 6, false, 0},      {"pivot.joint.spherical", 3, 6, false, 3},
        {"pivot.joint.revolute", 5, 8, true, 1},     {"pivot.joint.prismatic", 5, 8, true, 1},
        {"pivot.joint.cylindrical", 4, 8, true, 2},  {"pivot.joint.universal", 4, 6, false, 2},
        {"pivot.joint.distance", 1, 1, false, 0},
    };
    return types;
}
inline std::vector<JointType> free_coordinate_types() {
    std::vector<JointType> out;
    for (const JointType& t : joint_types())
        if (t.free_coordinate) out.push_back(t);
    return out;
}

}  // namespace pivot::joint_test
