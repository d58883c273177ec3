#pragma once
// Shared by the physics validation tests: the plugin registry (first-party
// plugins), the solver under test, world settings, small 3D vector /
// quaternion helpers, and the mechanical quantities the tests check
// (angular momentum of a body from the world state, the body-frame angular
// velocity). Each test knows its bodies' inertias: the world reports the
// state, these helpers turn it into L, the body-frame omega, and so on.
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "first_party_plugins.hpp"

namespace pivot::physics_test {

// ---------------------------------------------------------------- plugins and solvers

inline PluginRegistry& registry() { return test::first_party_plugins(); }

inline bool solver_available(const std::string& id) {
    if (id.empty()) return true;  // the engine's defaults
    const PluginRecord* p = registry().find(id);
    return p != nullptr && p->kind == PIVOT_KIND_SOLVER;
}

// The solver the validation tests run with: "" is the engine's defaults
// (WorldSettings: pivot.solver.direct for islands without friction,
// dantzig for the others); PIVOT_PHYSICS_SOLVER (a full id) makes one
// solver take every island, so that the whole suite can be run against it
// without editing.
constexpr const char* kDefaultSolver = "pivot.solver.dantzig";  // the engine's default for friction islands

inline std::string solver_under_test() {
    const char* env = std::getenv("PIVOT_PHYSICS_SOLVER");
    return env != nullptr && *env != '\0' ? std::string(env) : std::string();
}

// Tight options for each first-party solver: every test here uses rigid
// rows, so all solvers solve the same (unique in v+) problem, and the
// tolerance bounds the impulse error per step.
inline nlohmann::json tight_options(const std::string& id) {
    if (id == "pivot.solver.pgs") return {{"tolerance", 1e-10}, {"max_iterations", 20000}};
    if (id == "pivot.solver.lemke") return {{"tolerance", 1e-10}};
    if (id == "pivot.solver.dantzig") return {{"tolerance", 1e-10}};
    return nlohmann::json::object();
}

// `solver` takes every island; "" keeps the engine's defaults (tight options).
inline WorldSettings settings_for(double h, const Vec3d& gravity, const std::string& solver = solver_under_test()) {
    WorldSettings s;
    s.timestep = h;
    s.gravity = gravity;
    const std::string id = solver.empty() ? std::string(kDefaultSolver) : solver;
    s.solver = {id, tight_options(id)};
    s.direct_islands = solver.empty();
    s.solver_acceptance = 1e-9;  // N s: far below every tolerance asserted here
    return s;
}

// Skips the current test (with the reason printed) when the solver is not built.
#define PIVOT_REQUIRE_SOLVER(id)                                                          \
    do {                                                                                  \
        if (!::pivot::physics_test::solver_available(id)) {                               \
            GTEST_SKIP() << "solver " << (id) << " is not built (not found in "           \
                         << PIVOT_FIRST_PARTY_PLUGIN_DIR << ")";                          \
        }                                                                                 \
    } while (0)

// ---------------------------------------------------------------- small 3D math

using V3 = std::array<double, 3>;
using Q4 = std::array<double, 4>;        // w, x, y, z; body to world
using M3 = std::array<std::array<double, 3>, 3>;  // [row][column]

inline V3 operator+(const V3& a, const V3& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
inline V3 operator-(const V3& a, const V3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
inline V3 operator*(double s, const V3& a) { return {s * a[0], s * a[1], s * a[2]}; }
inline double dot(const V3& a, const V3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
inline V3 cross(const V3& a, const V3& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
inline double norm(const V3& a) { return std::sqrt(dot(a, a)); }
inline V3 unit(const V3& a) { return (1.0 / norm(a)) * a; }

inline M3 rotation(const Q4& q) {
    const double w = q[0], x = q[1], y = q[2], z = q[3];
    return {{{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
             {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
             {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}}};
}
inline V3 operator*(const M3& m, const V3& v) {
    return {m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2], m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
            m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2]};
}
inline V3 transpose_times(const M3& m, const V3& v) {  // R^T v
    return {m[0][0] * v[0] + m[1][0] * v[1] + m[2][0] * v[2], m[0][1] * v[0] + m[1][1] * v[1] + m[2][1] * v[2],
            m[0][2] * v[0] + m[1][2] * v[1] + m[2][2] * v[2]};
}
// The quaternion of a rotation by `angle` about the unit `axis`.
inline Q4 axis_angle(const V3& axis, double angle) {
    const V3 a = unit(axis);
    const double s = std::sin(0.5 * angle);
    return {std::cos(0.5 * angle), s * a[0], s * a[1], s * a[2]};
}
inline Q4 multiply(const Q4& a, const Q4& b) {
    return {a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3], a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
            a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1], a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]};
}

// ---------------------------------------------------------------- bodies

inline std::array<double, 9> diagonal_inertia(const V3& d) { return {d[0], 0, 0, 0, d[1], 0, 0, 0, d[2]}; }

// A spherical joint between two bodies (or "world") at a world anchor.
inline JointDescription spherical_joint(const std::string& name, const std::string& body1, const std::string& body2,
                                        const V3& anchor) {
    JointDescription joint;
    joint.name = name;
    joint.type = "spherical";
    joint.body1 = body1;
    joint.body2 = body2;
    joint.anchor = anchor;
    return joint;
}

// A slender rod or capsule of mass m and length l along its body z axis,
// with radius r: I = m (3 r^2 + l^2) / 12 transversally, m r^2 / 2 axially.
inline V3 rod_inertia(double m, double l, double r) {
    const double t = m * (3 * r * r + l * l) / 12.0;
    return {t, t, 0.5 * m * r * r};
}

// Body-frame angular velocity R^T omega.
inline V3 body_angular_velocity(const World& w, BodyId b) {
    return transpose_times(rotation(w.orientation(b)), w.angular_velocity(b));
}

// Angular momentum of a body about its centre of mass, world frame:
// L = R I_b R^T omega (principal inertia `inertia_diagonal` in the body frame).
inline V3 spin_angular_momentum(const World& w, BodyId b, const V3& inertia_diagonal) {
    const M3 r = rotation(w.orientation(b));
    const V3 wb = transpose_times(r, w.angular_velocity(b));
    return r * V3{inertia_diagonal[0] * wb[0], inertia_diagonal[1] * wb[1], inertia_diagonal[2] * wb[2]};
}

// Angular momentum about a world point o: spin + m (x - o) x v.
inline V3 angular_momentum_about(const World& w, BodyId b, double mass, const V3& inertia_diagonal, const V3& o) {
    return spin_angular_momentum(w, b, inertia_diagonal) +
           mass * cross(w.position(b) - o, w.linear_velocity(b));
}

// ---------------------------------------------------------------- runs

// Wall time of a piece of the test, printed with the measured numbers.
class Stopwatch {
public:
    Stopwatch() : start_(std::chrono::steady_clock::now()) {}
    double seconds() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }

private:
    std::chrono::steady_clock::time_point start_;
};

// Steps until `t_end` (within half a step), calling f(world) after each step.
template <class F>
void run_until(World& world, double t_end, F&& after_step) {
    const double h = world.settings().timestep;
    while (world.time() < t_end - 0.5 * h) {
        world.step();
        after_step(world);
    }
}

// Least-squares slope of y over t.
inline double fitted_slope(const std::vector<double>& t, const std::vector<double>& y) {
    const double n = static_cast<double>(t.size());
    double st = 0, sy = 0, stt = 0, sty = 0;
    for (size_t i = 0; i < t.size(); ++i) {
        st += t[i];
        sy += y[i];
        stt += t[i] * t[i];
        sty += t[i] * y[i];
    }
    return (n * sty - st * sy) / (n * stt - st * st);
}

}  // namespace pivot::physics_test
