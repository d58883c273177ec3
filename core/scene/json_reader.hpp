#pragma once
// Typed reading of a JSON document whose every error names the source (the
// file), the JSON Pointer of the value (RFC 6901, e.g. /bodies/2/inertia)
// and the problem, in one line: "scene.json: /bodies/2/inertia: expected 3
// or 9 numbers, got 2". The scene loader reads through this only, so no
// value reaches a world unchecked (no wrong type, no NaN or infinity).
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "world/world_description.hpp"

namespace pivot::scene {

// One reference token of a JSON Pointer: '~' becomes "~0", '/' becomes "~1".
std::string pointer_token(std::string_view key);

// A value of the document and where it is. Cheap to copy (refers to the
// document and the source name, which outlive it).
class JsonAt {
public:
    JsonAt(const nlohmann::json& value, std::string pointer, const std::string& source)
        : value_(&value), pointer_(std::move(pointer)), source_(&source) {}

    const nlohmann::json& json() const { return *value_; }
    const std::string& pointer() const { return pointer_; }
    const std::string& source() const { return *source_; }

    // Throws pivot::Error "<source>: <pointer>: <problem>".
    [[noreturn]] void fail(const std::string& problem) const;
    // The same for a value below this one (a key that is missing, say).
    [[noreturn]] void fail_below(std::string_view key, const std::string& problem) const;

    // Children; the key or index must exist.
    JsonAt operator[](std::string_view key) const;
    JsonAt operator[](size_t index) const;

    // Checked conversions; each fails with the expected and the found type.
    double number() const;                   // finite
    int64_t integer() const;                 // a whole number (10, 10.0 and 1e1 alike), |value| <= 2^53
    std::string string() const;
    std::string nonempty_string() const;
    bool boolean() const;
    std::vector<double> numbers() const;     // an array of finite numbers, any length
    Vec3d vec3() const;                      // exactly 3 finite numbers
    Quatd unit_quaternion() const;           // 4 numbers w, x, y, z with |norm - 1| <= 1e-6
    void expect_object() const;
    size_t array_size() const;               // expects an array

private:
    const nlohmann::json* value_;
    std::string pointer_;
    const std::string* source_;
};

// What a JSON value is, for messages: "a string (\"abc\")", "an array of 2".
std::string describe_json(const nlohmann::json& value);

// An object whose keys are all known: constructing it fails on a non-object
// and on the first key not in `allowed` (listing the allowed ones).
class JsonObject {
public:
    JsonObject(const JsonAt& at, std::initializer_list<std::string_view> allowed);
    JsonObject(const JsonAt& at, const std::vector<std::string_view>& allowed);

    const JsonAt& at() const { return at_; }
    bool has(std::string_view key) const;
    std::optional<JsonAt> optional(std::string_view key) const;
    // Fails "<pointer>/<key>: missing required key (<what>)" when absent.
    JsonAt required(std::string_view key, std::string_view what) const;

private:
    JsonAt at_;
};

}  // namespace pivot::scene
