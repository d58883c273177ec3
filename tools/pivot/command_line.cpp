#include "command_line.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "common/logging.hpp"
#include "plugin_host/plugin_search_path.hpp"

namespace pivot::cli {

bool Arguments::take_subcommand(const std::string& name) {
    if (args_.empty() || args_.front() != name) return false;
    args_.erase(args_.begin());
    return true;
}

bool Arguments::flag(const std::string& name) {
    auto it = std::find(args_.begin(), args_.end(), name);
    if (it == args_.end()) return false;
    args_.erase(it);
    return true;
}

std::optional<std::string> Arguments::option(const std::string& name) {
    for (auto it = args_.begin(); it != args_.end(); ++it) {
        if (*it == name) {
            if (it + 1 == args_.end()) throw UsageError{name + " needs a value"};
            std::string value = *(it + 1);
            args_.erase(it, it + 2);
            return value;
        }
        if (it->rfind(name + "=", 0) == 0) {
            std::string value = it->substr(name.size() + 1);
            args_.erase(it);
            return value;
        }
    }
    return std::nullopt;
}

std::vector<std::string> Arguments::options(const std::string& name) {
    std::vector<std::string> values;
    while (auto v = option(name)) values.push_back(*v);
    return values;
}

double parse_positive(const std::string& flag, const std::string& text) {
    try {
        size_t used = 0;
        const double v = std::stod(text, &used);
        if (used == text.size() && v > 0.0 && std::isfinite(v)) return v;
    } catch (const std::exception&) {
    }
    throw UsageError{fmt::format("{} needs a positive number, got '{}'", flag, text)};
}

uint64_t parse_whole(const std::string& flag, const std::string& text, uint64_t min, uint64_t max,
                     const std::string& what) {
    try {
        size_t used = 0;
        const unsigned long long v = std::stoull(text, &used);
        if (used == text.size() && v >= min && v <= max && text.find('-') == std::string::npos) return v;
    } catch (const std::exception&) {
    }
    throw UsageError{fmt::format("{} needs {}, got '{}'", flag, what, text)};
}

std::vector<std::string> Arguments::positionals() {
    std::vector<std::string> out;
    for (const auto& a : args_) {
        if (a.rfind("--", 0) == 0) throw UsageError{"unknown option '" + a + "'"};
        out.push_back(a);
    }
    args_.clear();
    return out;
}

CommonOptions read_common_options(Arguments& args) {
    CommonOptions common;
    if (auto level = args.option("--log-level")) {
        auto parsed = parse_log_level(*level);
        if (!parsed) {
            throw UsageError{"--log-level '" + *level + "' is not one of " + log_level_names()};
        }
        set_log_level(*parsed);
    }
    common.plugin_paths = args.options("--plugins");
    return common;
}

bool load_plugins(PluginRegistry& registry, const CommonOptions& common) {
    LoadReport defaults = registry.load_all(default_plugin_paths());
    for (const auto& note : defaults.notes) logger().info("{}", note);
    for (const auto& problem : defaults.problems) logger().warn("{}", problem);

    std::vector<std::filesystem::path> extra(common.plugin_paths.begin(), common.plugin_paths.end());
    LoadReport explicit_paths = registry.load_all(extra);
    for (const auto& note : explicit_paths.notes) logger().info("{}", note);
    for (const auto& problem : explicit_paths.problems) logger().error("{}", problem);
    return explicit_paths.ok();
}

}  // namespace pivot::cli
