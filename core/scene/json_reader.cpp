#include "scene/json_reader.hpp"

#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/error.hpp"

namespace pivot::scene {

std::string pointer_token(std::string_view key) {
    std::string out;
    out.reserve(key.size());
    for (char c : key) {
        if (c == '~') {
            out += "~0";
        } else if (c == '/') {
            out += "~1";
        } else {
            out += c;
        }
    }
    return out;
}

std::string describe_json(const nlohmann::json& value) {
    switch (value.type()) {
        case nlohmann::json::value_t::null:
            return "null";
        case nlohmann::json::value_t::boolean:
            return value.get<bool>() ? "true" : "false";
        case nlohmann::json::value_t::string: {
            // Quoted as JSON (control characters escaped, so the message stays one line), and cut short.
            std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
            if (text.size() > 40) text = text.substr(0, 37) + "...";
            return "a string (" + text + ")";
        }
        case nlohmann::json::value_t::array:
            return fmt::format("an array of {}", value.size());
        case nlohmann::json::value_t::object:
            return "an object";
        case nlohmann::json::value_t::number_integer:
        case nlohmann::json::value_t::number_unsigned:
        case nlohmann::json::value_t::number_float:
            return fmt::format("the number {}", value.dump());
        default:
            return "an unsupported value";
    }
}

namespace {

// Control characters (from names and keys in the file) escaped, so that
// every message stays on one line.
std::string one_line(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        if (c == '\n') {
            out += "\\n";
        } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
            out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
        } else {
            out += c;
        }
    }
    return out;
}

}  // namespace

void JsonAt::fail(const std::string& problem) const {
    if (pointer_.empty()) throw Error(one_line(fmt::format("{}: {}", *source_, problem)));
    throw Error(one_line(fmt::format("{}: {}: {}", *source_, pointer_, problem)));
}

void JsonAt::fail_below(std::string_view key, const std::string& problem) const {
    throw Error(one_line(fmt::format("{}: {}/{}: {}", *source_, pointer_, pointer_token(key), problem)));
}

JsonAt JsonAt::operator[](std::string_view key) const {
    return JsonAt(value_->at(std::string(key)), pointer_ + "/" + pointer_token(key), *source_);
}

JsonAt JsonAt::operator[](size_t index) const {
    return JsonAt(value_->at(index), fmt::format("{}/{}", pointer_, index), *source_);
}

double JsonAt::number() const {
    if (!value_->is_number()) fail("expected a number, got " + describe_json(*value_));
    const double v = value_->get<double>();
    // JSON has no NaN, but an overflowing literal such as 1e999 reads as infinity.
    if (!std::isfinite(v)) fail("expected a finite number, got " + value_->dump());
    return v;
}

int64_t JsonAt::integer() const {
    if (!value_->is_number()) fail("expected a whole number, got " + describe_json(*value_));
    // Up to 2^53 (far beyond any count) a whole number is an exact double, however the file wrote it.
    constexpr double kLimit = 9007199254740992.0;
    const double v = value_->get<double>();
    if (!(std::abs(v) <= kLimit) || std::trunc(v) != v) fail("expected a whole number, got " + describe_json(*value_));
    return static_cast<int64_t>(v);
}

std::string JsonAt::string() const {
    if (!value_->is_string()) fail("expected a string, got " + describe_json(*value_));
    return value_->get<std::string>();
}

std::string JsonAt::nonempty_string() const {
    std::string s = string();
    if (s.empty()) fail("must not be empty");
    return s;
}

bool JsonAt::boolean() const {
    if (!value_->is_boolean()) fail("expected true or false, got " + describe_json(*value_));
    return value_->get<bool>();
}

size_t JsonAt::array_size() const {
    if (!value_->is_array()) fail("expected an array, got " + describe_json(*value_));
    return value_->size();
}

void JsonAt::expect_object() const {
    if (!value_->is_object()) fail("expected an object, got " + describe_json(*value_));
}

std::vector<double> JsonAt::numbers() const {
    if (!value_->is_array()) fail("expected an array of numbers, got " + describe_json(*value_));
    std::vector<double> out;
    out.reserve(value_->size());
    for (size_t i = 0; i < value_->size(); ++i) out.push_back((*this)[i].number());
    return out;
}

Vec3d JsonAt::vec3() const {
    if (!value_->is_array() || value_->size() != 3) fail("expected 3 numbers, got " + describe_json(*value_));
    return {(*this)[0].number(), (*this)[1].number(), (*this)[2].number()};
}

Quatd JsonAt::unit_quaternion() const {
    if (!value_->is_array() || value_->size() != 4) {
        fail("expected a unit quaternion as 4 numbers w, x, y, z, got " + describe_json(*value_));
    }
    const Quatd q = {(*this)[0].number(), (*this)[1].number(), (*this)[2].number(), (*this)[3].number()};
    const double norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(std::abs(norm - 1.0) <= 1e-6)) {
        fail(fmt::format("not a unit quaternion: its norm is {:.9g} (allowed 1 +- 1e-6; [1, 0, 0, 0] is no rotation)",
                         norm));
    }
    return q;
}

JsonObject::JsonObject(const JsonAt& at, std::initializer_list<std::string_view> allowed)
    : JsonObject(at, std::vector<std::string_view>(allowed)) {}

JsonObject::JsonObject(const JsonAt& at, const std::vector<std::string_view>& allowed) : at_(at) {
    at_.expect_object();
    for (const auto& item : at_.json().items()) {
        bool known = false;
        for (std::string_view key : allowed) known = known || key == item.key();
        if (!known) {
            at_.fail_below(item.key(), fmt::format("unknown key '{}' (allowed here: {})", item.key(),
                                                   allowed.size() == 0 ? std::string("none")
                                                                       : fmt::format("{}", fmt::join(allowed, ", "))));
        }
    }
}

bool JsonObject::has(std::string_view key) const { return at_.json().contains(std::string(key)); }

std::optional<JsonAt> JsonObject::optional(std::string_view key) const {
    if (!has(key)) return std::nullopt;
    return at_[key];
}

JsonAt JsonObject::required(std::string_view key, std::string_view what) const {
    if (!has(key)) at_.fail_below(key, fmt::format("missing required key '{}' ({})", key, what));
    return at_[key];
}

}  // namespace pivot::scene
