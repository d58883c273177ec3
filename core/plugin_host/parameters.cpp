#include "plugin_host/parameters.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/error.hpp"
#include "common/input_limits.hpp"

namespace pivot {

namespace {

const char* type_name(pivot_param_type type) {
    switch (type) {
        case PIVOT_PARAM_REAL: return "real";
        case PIVOT_PARAM_INT: return "int";
        case PIVOT_PARAM_BOOL: return "bool";
        case PIVOT_PARAM_ENUM: return "enum";
    }
    return "unknown";
}

}  // namespace

std::string param_range_text(const ParamSpec& p) {
    if (p.type == PIVOT_PARAM_ENUM) return fmt::format("one of {}", fmt::join(p.choices, ", "));
    if (p.type == PIVOT_PARAM_BOOL) return "true or false";
    // An infinite limit is never attained: show it as open.
    const bool open_min = (p.flags & PIVOT_PARAM_MIN_EXCLUSIVE) || std::isinf(p.min_value);
    const bool open_max = (p.flags & PIVOT_PARAM_MAX_EXCLUSIVE) || std::isinf(p.max_value);
    return fmt::format("{}{}, {}{}", open_min ? "(" : "[", p.min_value, p.max_value, open_max ? ")" : "]");
}

std::string param_default_text(const ParamSpec& p) {
    if (p.type == PIVOT_PARAM_ENUM) return p.choices.at(static_cast<size_t>(p.default_value));
    if (p.type == PIVOT_PARAM_BOOL) return p.default_value != 0.0 ? "true" : "false";
    return fmt::format("{}", p.default_value);
}

namespace {

// One component: JSON scalar -> validated double.
double component(const ParamSpec& p, const nlohmann::json& v, const std::string& where) {
    double value = 0.0;
    if (p.type == PIVOT_PARAM_ENUM) {
        if (!v.is_string()) throw Error(fmt::format("{}: expected a string, {}", where, param_range_text(p)));
        const auto name = v.get<std::string>();
        auto it = std::find(p.choices.begin(), p.choices.end(), name);
        if (it == p.choices.end()) {
            throw Error(fmt::format("{}: '{}' is not {}", where, name, param_range_text(p)));
        }
        return static_cast<double>(it - p.choices.begin());
    }
    if (p.type == PIVOT_PARAM_BOOL) {
        if (!v.is_boolean()) throw Error(fmt::format("{}: expected true or false", where));
        return v.get<bool>() ? 1.0 : 0.0;
    }
    if (!v.is_number()) throw Error(fmt::format("{}: expected a number in {}", where, param_range_text(p)));
    value = v.get<double>();
    if (!std::isfinite(value)) throw Error(fmt::format("{}: must be finite", where));
    if (p.type == PIVOT_PARAM_INT && value != std::floor(value)) {
        throw Error(fmt::format("{}: expected a whole number, got {}", where, value));
    }
    const bool below = (p.flags & PIVOT_PARAM_MIN_EXCLUSIVE) ? value <= p.min_value : value < p.min_value;
    const bool above = (p.flags & PIVOT_PARAM_MAX_EXCLUSIVE) ? value >= p.max_value : value > p.max_value;
    if (below || above) {
        throw Error(fmt::format("{}: {} is outside the allowed range {}", where, value, param_range_text(p)));
    }
    return value;
}

}  // namespace

std::vector<double> pack_params(const PluginRecord& plugin, ParamScope scope,
                                const nlohmann::json& values, std::string_view context,
                                const std::vector<std::string>& ignored_keys) {
    const bool per_item = scope == ParamScope::item;
    if (!values.is_null() && !values.is_object()) {
        throw Error(fmt::format("{}: expected an object of parameters of plugin '{}'", context, plugin.id));
    }
    if (values.is_object()) {
        for (const auto& [key, value] : values.items()) {
            (void)value;
            if (std::find(ignored_keys.begin(), ignored_keys.end(), key) != ignored_keys.end()) continue;
            auto it = std::find_if(plugin.params.begin(), plugin.params.end(),
                                   [&key = key](const ParamSpec& p) { return p.name == key; });
            if (it == plugin.params.end() || it->per_item() != per_item) {
                std::vector<std::string> names;
                for (const auto& p : plugin.params) {
                    if (p.per_item() == per_item) names.push_back(p.name);
                }
                throw Error(fmt::format("{}.{}: '{}' is not a parameter of plugin '{}' (its parameters: {})",
                                        context, key, key, plugin.id,
                                        names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "))));
            }
        }
    }

    std::vector<double> packed;
    packed.reserve(per_item ? plugin.item_param_count() : plugin.instance_param_count());
    for (const auto& p : plugin.params) {
        if (p.per_item() != per_item) continue;
        const std::string where = fmt::format("{}.{}", context, p.name);
        if (!values.is_object() || !values.contains(p.name)) {
            packed.insert(packed.end(), p.length, p.default_value);
            continue;
        }
        const auto& v = values.at(p.name);
        if (p.length == 1) {
            packed.push_back(component(p, v, where));
            continue;
        }
        if (!v.is_array() || v.size() != p.length) {
            throw Error(fmt::format("{}: expected an array of {} {} values", where, p.length, type_name(p.type)));
        }
        for (size_t i = 0; i < p.length; ++i) {
            packed.push_back(component(p, v[i], fmt::format("{}[{}]", where, i)));
        }
    }
    return packed;
}

nlohmann::json parse_param_text(std::string_view text) {
    // Numbers, booleans and arrays parse as JSON; anything else is a string
    // (an enum choice), so `--option law=tanh` needs no quotes.
    check_json_depth(text, "option value");
    auto parsed = nlohmann::json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded() || parsed.is_object() || parsed.is_null()) return std::string(text);
    return parsed;
}

nlohmann::json params_to_json(const PluginRecord& plugin) {
    auto number = [](double v) -> nlohmann::json {
        if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
        return v;
    };
    nlohmann::json out = nlohmann::json::array();
    for (const auto& p : plugin.params) {
        nlohmann::json j;
        j["name"] = p.name;
        j["type"] = type_name(p.type);
        j["length"] = p.length;
        j["per_item"] = p.per_item();
        j["unit"] = p.unit;
        j["doc"] = p.doc;
        if (p.type == PIVOT_PARAM_ENUM) {
            j["choices"] = p.choices;
            j["default"] = p.choices.at(static_cast<size_t>(p.default_value));
        } else if (p.type == PIVOT_PARAM_BOOL) {
            j["default"] = p.default_value != 0.0;
        } else {
            j["default"] = number(p.default_value);
            j["min"] = number(p.min_value);
            j["max"] = number(p.max_value);
            j["min_exclusive"] = (p.flags & PIVOT_PARAM_MIN_EXCLUSIVE) != 0;
            j["max_exclusive"] = (p.flags & PIVOT_PARAM_MAX_EXCLUSIVE) != 0;
        }
        out.push_back(std::move(j));
    }
    return out;
}

nlohmann::json plugin_to_json(const PluginRecord& p) {
    return {{"kind", kind_name(p.kind)},
            {"id", p.id},
            {"version", p.version},
            {"abi", fmt::format("{}.{}", p.abi_major, p.abi_minor)},
            {"file", p.file},
            {"parameters", params_to_json(p)},
            {"name", p.name},
            {"vendor", p.vendor},
            {"description", p.description},
            {"capabilities", capability_names(p)}};
}

}  // namespace pivot
