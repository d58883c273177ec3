// What the friction-model plugins of pivot_friction share: small vector
// math, the contact frame, the row kinds, the regularized Coulomb law, the
// instance life cycle (instance-level parameters only) and the batch loop.
// Written against the public ABI only (<pivot/plugin_friction.h>).
//
// ==========================================================================
// CONVENTIONS (from plugin_friction.h)
// ==========================================================================
// A row acts on the relative motion of body 2 with respect to body 1 at the
// contact point through (d, a): row velocity = d.(v2 - v1) + a.(w2 - w1).
// All our friction directions are purely linear (a = 0). The normal n points
// from body 1 to body 2; a positive normal impulse pushes body 2 along +n.
// Row bounds are forces; with findex = 0 they are multipliers of |f_normal|.
//
// The contact frame (n, t1, t2) is rebuilt defensively from the host's data
// so that every output is finite and orthonormal for any finite input:
//   n  = normal / |normal|, or (0, 0, 1) when |normal| < 1e-12;
//   t1 = the host's tangent1 with its n component removed, normalized; when
//        that is shorter than 1e-6, a unit vector orthogonal to n built from
//        n's smallest component (any tangent will do: a degenerate frame);
//   t2 = n x t1.
// Sliding-aligned frame (box, cone, circular): u_t = u - (u.n) n with u the
// relative velocity; when |u_t| > slip_threshold, t1 = u_t / |u_t| (the
// first friction row lies along the sliding direction, so the friction force
// of a sliding contact is exactly -mu f_n u_t/|u_t| in the box, with no
// dependence on the host's tangent frame: no 45-degree corner artifact,
// seed000 2.11 "the friction force can leave the true cone ... up to
// sqrt(2) mu lambda_n").
//
// Explicit impulses are finite for contact data of physical size; if one
// overflows (forces near 1e308, e.g. a previous impulse of 1e300 N s with a
// small step) build() logs and returns PIVOT_ERROR instead of writing it.
//
// The instances keep only their parameters (no history: per-contact history
// lives in the host-owned state array), so clone is a copy and there is no
// state to save. build() and project() never allocate.
#ifndef PIVOT_PLUGINS_FRICTION_FRICTION_COMMON_HPP
#define PIVOT_PLUGINS_FRICTION_FRICTION_COMMON_HPP

#include <cmath>
#include <cstdio>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>

#include <pivot/plugin_friction.h>

namespace pivot::friction {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr uint32_t kWidth = PIVOT_FRICTION_DIRECTION_WIDTH;

// ---------------------------------------------------------------- math

struct Vec3 {
    double x, y, z;
};
inline Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline Vec3 operator*(double s, Vec3 a) { return {s * a.x, s * a.y, s * a.z}; }
inline double dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec3 cross(Vec3 a, Vec3 b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
// Overflow-safe length, finite for finite input: the plain square root of
// the sum where that is exact to rounding (the sum is a normal number), hypot
// only where squaring would overflow or underflow (hypot costs more than a
// contact's rows otherwise).
inline double length(Vec3 a) {
    const double sum = a.x * a.x + a.y * a.y + a.z * a.z;
    if (sum < 1e300 && sum > 1e-300) return std::sqrt(sum);
    return std::hypot(std::hypot(a.x, a.y), a.z);
}
inline Vec3 load3(const double* p) { return {p[0], p[1], p[2]}; }
inline void store3(Vec3 v, double* p) {
    p[0] = v.x;
    p[1] = v.y;
    p[2] = v.z;
}

// A unit vector orthogonal to the unit vector n.
inline Vec3 any_orthogonal(Vec3 n) {
    const double ax = std::fabs(n.x), ay = std::fabs(n.y), az = std::fabs(n.z);
    const Vec3 e = (ax <= ay && ax <= az) ? Vec3{1, 0, 0} : (ay <= az ? Vec3{0, 1, 0} : Vec3{0, 0, 1});
    const Vec3 t = cross(n, e);
    return (1.0 / length(t)) * t;
}

// ---------------------------------------------------------------- frame

struct Frame {
    Vec3 n, t1, t2;
};

inline Vec3 unit_normal(const pivot_contact_point& c) {
    const Vec3 n = load3(c.normal);
    const double l = length(n);
    return l >= 1e-12 ? (1.0 / l) * n : Vec3{0, 0, 1};
}

// The frame with t1 from `hint` (made orthogonal to n), see the header comment.
inline Frame frame_from(Vec3 n, Vec3 hint) {
    Vec3 t = hint - dot(hint, n) * n;
    const double l = length(t);
    t = l >= 1e-6 ? (1.0 / l) * t : any_orthogonal(n);
    return {n, t, cross(n, t)};
}

inline Frame host_frame(const pivot_contact_point& c) { return frame_from(unit_normal(c), load3(c.tangent1)); }

// The part of v in the plane normal to n: v - (v.n) n.
inline Vec3 tangential(Vec3 v, Vec3 n) { return v - dot(v, n) * n; }

// Tangential relative velocity at the free velocity, u_t = u - (u.n) n.
inline Vec3 tangential_velocity(const pivot_contact_point& c, Vec3 n) {
    return tangential(load3(c.relative_velocity), n);
}

// t1 along the sliding direction when |u_t| > slip_threshold, else the host's.
inline Frame sliding_frame(const pivot_contact_point& c, double slip_threshold) {
    const Vec3 n = unit_normal(c);
    const Vec3 ut = tangential_velocity(c, n);
    if (length(ut) > slip_threshold) return frame_from(n, ut);
    return frame_from(n, load3(c.tangent1));
}

// ---------------------------------------------------------------- rows

// Appends rows and their 6-wide directions for one contact.
struct RowWriter {
    pivot_row* rows;    // max_rows_per_contact entries
    double* dirs;       // max_rows_per_contact x 6
    uint32_t count;

    void add(const pivot_row& row, Vec3 linear) {
        rows[count] = row;
        double* d = dirs + static_cast<size_t>(count) * kWidth;
        store3(linear, d);
        d[3] = d[4] = d[5] = 0.0;
        ++count;
    }
};

// The host's normal row (row 0), findex cleared: a normal row scales nothing.
inline pivot_row normal_row(const pivot_contact_point& c) {
    pivot_row r = c.normal_row;
    r.findex = -1;
    return r;
}

// A box-friction row: bounds [-mu, mu] times |f of row 0|, no stabilization.
inline pivot_row box_row(double mu) {
    return pivot_row{0.0, 0.0, 0.0, 0.0, -mu, mu, 0, PIVOT_ROW_NO_STABILIZATION};
}

// Rows 0..2 of box and circular friction: normal, t1, t2 (findex 0, +-mu).
inline void box_rows(RowWriter& out, const pivot_contact_point& c, double mu, double slip_threshold) {
    const Frame f = sliding_frame(c, slip_threshold);
    out.add(normal_row(c), f.n);
    out.add(box_row(mu), f.t1);
    out.add(box_row(mu), f.t2);
}

// ---------------------------------------------------------------- regularized Coulomb

enum class SmoothLaw : int { tanh_law = 0, linear_law = 1 };

// The regularized Coulomb force (N) for normal force f_n >= 0 and tangential
// relative velocity u_t (seed000 2.10, eq. 6.40-6.41 and 2.22):
//   f_t = -mu f_n g(|u_t| / u0) u_t / |u_t|,  g = tanh(s) or min(1, s).
// Written as f_t = -mu f_n k(|u_t|) u_t with k = g(s)/|u_t|, which tends to
// 1/u0 as u_t -> 0, so the force is finite and continuous at u_t = 0.
inline Vec3 regularized_force(Vec3 ut, double fn, double mu, double u0, SmoothLaw law) {
    const double speed = length(ut);
    const double s = speed / u0;
    double k = 1.0 / u0;  // g(s)/|u_t| for small s (both laws have slope 1 at 0)
    if (law == SmoothLaw::linear_law) {
        if (s > 1.0) k = 1.0 / speed;
    } else if (s > 1e-8) {
        k = std::tanh(s) / speed;  // tanh(s) = s (1 - s^2/3 + ...): 1/u0 below 1e-8 to rounding
    }
    return (-mu * fn * k) * ut;
}

// ---------------------------------------------------------------- Stribeck curve

// mu(v) = mu_k + (mu_s - mu_k) exp(-(v / v_s)^delta), v >= 0: the
// Stribeck model's coefficient and LuGre's g(v) (delta = 2 there).
inline double stribeck_curve(double mu_static, double mu_kinetic, double stribeck_velocity, double exponent,
                             double v) {
    const double s = v / stribeck_velocity;
    const double power = exponent == 2.0 ? s * s : std::pow(s, exponent);
    return mu_kinetic + (mu_static - mu_kinetic) * std::exp(-power);
}

// ---------------------------------------------------------------- parameters

constexpr pivot_param_info real_param(const char* name, const char* unit, const char* doc, double default_value,
                                      double min_value, double max_value, uint32_t flags = 0) {
    return pivot_param_info{sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1, flags, name, unit, doc,
                            default_value, min_value, max_value, nullptr, 0, 0};
}
constexpr pivot_param_info int_param(const char* name, const char* doc, double default_value, double min_value,
                                     double max_value) {
    return pivot_param_info{sizeof(pivot_param_info), PIVOT_PARAM_INT, 1, 0, name, "1", doc,
                            default_value, min_value, max_value, nullptr, 0, 0};
}
constexpr pivot_param_info enum_param(const char* name, const char* doc, const char* const* choices,
                                      uint32_t choice_count) {
    return pivot_param_info{sizeof(pivot_param_info), PIVOT_PARAM_ENUM, 1, 0, name, "", doc,
                            0.0, 0.0, static_cast<double>(choice_count - 1), choices, choice_count, 0};
}
constexpr pivot_param_info mu_param() {
    return real_param("mu", "1", "Coulomb friction coefficient", 0.5, 0.0, kInf);
}
constexpr pivot_param_info slip_threshold_param() {
    return real_param("slip_threshold", "m/s",
                      "tangential speed above which the first tangent follows the sliding direction", 1e-4, 0.0,
                      kInf);
}
constexpr pivot_param_info slip_velocity_param() {
    return real_param("slip_velocity", "m/s", "regularization speed u0: full Coulomb force reached around u0",
                      0.01, 0.0, kInf, PIVOT_PARAM_MIN_EXCLUSIVE);
}

// ---------------------------------------------------------------- instances

constexpr uint32_t kMaxParams = 16;

struct Instance {
    const pivot_host* host;
    uint32_t count;
    double p[kMaxParams];
};

inline const double* params_of(const void* instance) { return static_cast<const Instance*>(instance)->p; }

inline void log_error(const void* instance, const char* id, const char* message) {
    const pivot_host* host = instance != nullptr ? static_cast<const Instance*>(instance)->host : nullptr;
    if (host != nullptr && host->log != nullptr) host->log(host->context, PIVOT_LOG_ERROR, id, message);
}

// "function: message", formatted on the stack (no allocation on the step path).
inline void log_error(const void* instance, const char* id, const char* function, const char* message) {
    char text[256];
    std::snprintf(text, sizeof text, "%s: %s", function, message);
    log_error(instance, id, text);
}

template <class Model>
pivot_status create(const pivot_host* host, const double* params, uint32_t param_count, void** out) {
    if (out == nullptr) return PIVOT_ERROR;
    *out = nullptr;
    static_assert(Model::kParamCount <= kMaxParams, "too many parameters");
    if (param_count != Model::kParamCount || (param_count > 0 && params == nullptr)) return PIVOT_ERROR;
    auto* inst = new (std::nothrow) Instance{host, param_count, {}};
    if (inst == nullptr) return PIVOT_ERROR;
    for (uint32_t i = 0; i < param_count; ++i) inst->p[i] = params[i];
    *out = inst;
    return PIVOT_OK;
}
inline void destroy(void* instance) { delete static_cast<Instance*>(instance); }
inline pivot_status clone(const void* instance, void** out) {
    if (instance == nullptr || out == nullptr) return PIVOT_ERROR;
    auto* copy = new (std::nothrow) Instance(*static_cast<const Instance*>(instance));
    *out = copy;
    return copy != nullptr ? PIVOT_OK : PIVOT_ERROR;
}
template <class Model>
pivot_status set_params(void* instance, const double* params, uint32_t param_count) {
    if (instance == nullptr || param_count != Model::kParamCount || (param_count > 0 && params == nullptr)) {
        return PIVOT_ERROR;
    }
    auto* inst = static_cast<Instance*>(instance);
    for (uint32_t i = 0; i < param_count; ++i) inst->p[i] = params[i];
    return PIVOT_OK;
}

template <class Model>
constexpr pivot_instance_functions instance_functions() {
    return pivot_instance_functions{create<Model>, destroy, clone, nullptr, set_params<Model>,
                                    nullptr,       nullptr, nullptr};
}

// ---------------------------------------------------------------- batch loop

// A model provides:
//   static constexpr const char* kId;
//   static constexpr uint32_t kMaxRows, kState, kParamCount;
//   static void write(RowWriter&, const pivot_contact_point&, const double* params,
//                     const pivot_step_info&, double* state, double* coupling /* m x m, zeroed */,
//                     double* impulse /* 6, zeroed */);
// The batch loop both entry points share: per contact, the coupling block
// and the explicit impulse zeroed, the rows written by write(c, out,
// state, block, impulse), the count kept, and an overflowing explicit
// impulse refused (only absurd contact data, inputs near 1e300, make one).
template <class Model, class Write>
pivot_status build_contacts(void* instance, const char* function, uint32_t count, double* state, pivot_row* rows,
                            double* directions, double* coupling, double* impulses, uint32_t* row_counts,
                            const Write& write) {
    constexpr size_t m = Model::kMaxRows;
    for (uint32_t c = 0; c < count; ++c) {
        double* block = coupling + static_cast<size_t>(c) * m * m;
        for (size_t i = 0; i < m * m; ++i) block[i] = 0.0;
        double* impulse = impulses + static_cast<size_t>(c) * 6;
        for (int i = 0; i < 6; ++i) impulse[i] = 0.0;
        RowWriter out{rows + c * m, directions + c * m * kWidth, 0};
        write(c, out, Model::kState > 0 ? state + static_cast<size_t>(c) * Model::kState : nullptr, block, impulse);
        row_counts[c] = out.count;
        for (int i = 0; i < 6; ++i) {
            if (!std::isfinite(impulse[i])) {
                log_error(instance, Model::kId, function, "the explicit impulse overflows (absurd contact data)");
                return PIVOT_ERROR;
            }
        }
    }
    return PIVOT_OK;
}

template <class Model>
pivot_status build(void* instance, const pivot_contact_point* contacts, uint32_t count, const pivot_step_info* step,
                   double* state, pivot_row* rows, double* directions, double* coupling, double* impulses,
                   uint32_t* row_counts) {
    if (instance == nullptr || step == nullptr || (count > 0 && contacts == nullptr) ||
        (Model::kState > 0 && count > 0 && state == nullptr)) {
        log_error(instance, Model::kId, "build", "missing instance, step, contacts or state");
        return PIVOT_ERROR;
    }
    const double* p = params_of(instance);
    return build_contacts<Model>(instance, "build", count, state, rows, directions, coupling, impulses, row_counts,
                                 [&](uint32_t c, RowWriter& out, double* st, double* block, double* impulse) {
                                     Model::write(out, contacts[c], p, *step, st, block, impulse);
                                 });
}

// The same for a model whose law needs the motion at the step's start
// (ABI 1.8): it provides
//   static void write(RowWriter&, const pivot_contact_point&, const pivot_contact_motion&,
//                     const double* params, const pivot_step_info&, double* state, double* coupling,
//                     double* impulse);
template <class Model>
pivot_status build_with_motion(void* instance, const pivot_contact_point* contacts, const pivot_contact_bodies*,
                               const pivot_contact_motion* motion, uint32_t count, const pivot_step_info* step,
                               double* state, pivot_row* rows, double* directions, double* coupling,
                               double* impulses, uint32_t* row_counts) {
    if (instance == nullptr || step == nullptr || (count > 0 && (contacts == nullptr || motion == nullptr)) ||
        (Model::kState > 0 && count > 0 && state == nullptr)) {
        log_error(instance, Model::kId, "build_with_motion", "missing instance, step, contacts, motion or state");
        return PIVOT_ERROR;
    }
    const double* p = params_of(instance);
    const auto write = [&](uint32_t c, RowWriter& out, double* st, double* block, double* impulse) {
        Model::write(out, contacts[c], motion[c], p, *step, st, block, impulse);
    };
    return build_contacts<Model>(instance, "build_with_motion", count, state, rows, directions, coupling, impulses,
                                 row_counts, write);
}

template <class Model>
constexpr pivot_friction_functions friction_functions_with_motion() {
    return pivot_friction_functions{sizeof(pivot_friction_functions),
                                    Model::kMaxRows,
                                    Model::kState,
                                    0,
                                    instance_functions<Model>(),
                                    nullptr,
                                    nullptr,
                                    nullptr,
                                    build_with_motion<Model>,
                                    nullptr};
}

template <class Model>
constexpr pivot_friction_functions friction_functions(
    pivot_status (*project)(const void*, const pivot_contact_point*, const pivot_contact_block*, uint32_t,
                            double*) = nullptr) {
    return pivot_friction_functions{sizeof(pivot_friction_functions), Model::kMaxRows, Model::kState, 0,
                                    instance_functions<Model>(), build<Model>, project, nullptr, nullptr, nullptr};
}

constexpr pivot_plugin_descriptor friction_descriptor(const char* id, const char* name, const char* description,
                                                      uint64_t capabilities, const pivot_param_info* params,
                                                      uint32_t param_count,
                                                      const pivot_friction_functions* functions) {
    return pivot_plugin_descriptor{sizeof(pivot_plugin_descriptor), PIVOT_ABI_MAJOR, PIVOT_ABI_MINOR,
                                   PIVOT_KIND_FRICTION, id, name, "Pivot", "1.0.0", description, capabilities,
                                   params, param_count, 0, functions};
}

// The descriptors, one per source file; friction_library.cpp lists them.
extern const pivot_plugin_descriptor kFrictionlessDescriptor;
extern const pivot_plugin_descriptor kBoxDescriptor;
extern const pivot_plugin_descriptor kConeDescriptor;
extern const pivot_plugin_descriptor kRegularizedDescriptor;
extern const pivot_plugin_descriptor kCompliantDescriptor;
extern const pivot_plugin_descriptor kCircularDescriptor;
extern const pivot_plugin_descriptor kStribeckDescriptor;
extern const pivot_plugin_descriptor kLugreDescriptor;

}  // namespace pivot::friction

#endif  // PIVOT_PLUGINS_FRICTION_FRICTION_COMMON_HPP
