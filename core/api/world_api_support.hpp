#pragma once
// What the world functions of the embedding C API share (world_api.cpp,
// world_build_api.cpp): converting the C descriptions to the engine's and
// back, reading a caller's versioned struct, checking indices.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <deque>
#include <memory>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "api/api_support.hpp"
#include "common/input_limits.hpp"

namespace pivot::api {

inline std::string text(const char* s, const char* fallback = "") {
    return s != nullptr ? std::string(s) : std::string(fallback);
}

template <size_t N>
inline std::array<double, N> array_of(const double (&values)[N]) {
    std::array<double, N> out{};
    for (size_t i = 0; i < N; ++i) out[i] = values[i];
    return out;
}

inline nlohmann::json json_object(const char* json, const char* what) {
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
inline T read_struct(const T& given, size_t first_release_size, const char* what) {
    if (given.struct_size < first_release_size) {
        throw pivot::Error(fmt::format("{}: struct_size {} is smaller than {} (call its _init function first)", what,
                                       given.struct_size, first_release_size));
    }
    T out{};
    std::memcpy(&out, &given, std::min<size_t>(given.struct_size, sizeof(T)));
    return out;
}
inline constexpr size_t kShapeSize10 = sizeof(pivot_shape_desc);
inline constexpr size_t kSettingsSize10 = offsetof(pivot_world_settings, stabilization);
inline constexpr size_t kMaterialSize10 = sizeof(pivot_material_desc);
inline constexpr size_t kBodySize10 = offsetof(pivot_body_desc, linear_damping);
inline constexpr size_t kJointSize10 = offsetof(pivot_joint_desc, motor_mode);
inline constexpr size_t kStatisticsSize10 = offsetof(pivot_world_statistics, energy_excess);
inline constexpr size_t kCableSize10 = offsetof(pivot_cable_desc, reserved);
inline constexpr size_t kRopeSize10 = sizeof(pivot_rope_desc);  // 0.10

inline pivot::World& world_of(pivot_world* w, const char* function) {
    return *require(w, function, "world").world;
}
inline const pivot::World& world_of(const pivot_world* w, const char* function) {
    return *require(w, function, "world").world;
}

inline pivot::ShapeDescription shape_of(const pivot_shape_desc& given) {
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

inline void put_body(const pivot::World& world, uint32_t body, pivot_body_state& out) {
    const auto p = world.position(body), v = world.linear_velocity(body), w = world.angular_velocity(body);
    const auto q = world.orientation(body);
    for (int k = 0; k < 3; ++k) out.position[k] = p[k], out.linear_velocity[k] = v[k], out.angular_velocity[k] = w[k];
    for (int k = 0; k < 4; ++k) out.orientation[k] = q[k];
}

inline uint32_t checked_body(const pivot::World& world, uint32_t body, const char* function) {
    if (body >= world.body_count()) {
        throw pivot::Error(fmt::format("{}: body index {} is out of range (the world has {} bodies)", function, body,
                                       world.body_count()));
    }
    return body;
}

inline uint32_t checked_joint(const pivot::World& world, uint32_t joint, const char* function) {
    if (joint >= world.joint_count()) {
        throw pivot::Error(fmt::format("{}: joint index {} is out of range (the world has {} joints)", function,
                                       joint, world.joint_count()));
    }
    return joint;
}

inline uint32_t checked_cable(const pivot::World& world, uint32_t cable, const char* function) {
    if (cable >= world.cable_count()) {
        throw pivot::Error(fmt::format("{}: cable index {} is out of range (the world has {} cables)", function,
                                       cable, world.cable_count()));
    }
    return cable;
}

inline uint32_t checked_rope(const pivot::World& world, uint32_t rope, const char* function) {
    if (rope >= world.rope_count()) {
        throw pivot::Error(fmt::format("{}: rope index {} is out of range (the world has {} ropes)", function, rope,
                                       world.rope_count()));
    }
    return rope;
}

// A name that stays put while the world lives (pivot_world::body_names).
template <typename NameOf>
inline const char* stable_name(std::deque<std::string>& names, uint32_t index, NameOf name_of) {
    while (names.size() <= index) names.push_back(name_of(static_cast<uint32_t>(names.size())));
    return names[index].c_str();
}

inline pivot_world* wrap(pivot_engine* engine, std::unique_ptr<pivot::World> world) {
    auto handle = std::make_unique<pivot_world>();
    handle->engine = engine;
    handle->world = std::move(world);
    ++engine->worlds;
    return handle.release();
}

}  // namespace pivot::api
