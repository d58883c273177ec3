#include "plugin_host/plugin_registry.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/error.hpp"
#include "common/logging.hpp"
#include "plugin_host/plugin_library.hpp"

namespace pivot {

void LoadReport::append(LoadReport other) {
    plugins_loaded += other.plugins_loaded;
    for (auto& p : other.problems) problems.push_back(std::move(p));
    for (auto& n : other.notes) notes.push_back(std::move(n));
}

namespace {

std::string canonical_name(const std::filesystem::path& path) {
    std::error_code ec;
    auto canonical = std::filesystem::weakly_canonical(path, ec);
    return (ec ? path : canonical).string();
}

}  // namespace

LoadReport PluginRegistry::load(const std::filesystem::path& path) {
    LoadReport report;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        std::vector<std::filesystem::path> files;
        for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
            // Symlinks to libraries count (MuJoCo skips them silently: #3072).
            if (has_library_suffix(entry.path()) && std::filesystem::is_regular_file(entry.path(), ec)) {
                files.push_back(entry.path());
            }
        }
        if (ec) {
            report.problems.push_back(fmt::format("plugin folder '{}': cannot be read: {}", path.string(), ec.message()));
        }
        std::sort(files.begin(), files.end());
        for (const auto& file : files) report.append(load(file));
        return report;
    }
    if (!std::filesystem::exists(path, ec)) {
        report.problems.push_back(fmt::format("plugin path '{}': no such file or folder", path.string()));
        return report;
    }

    const std::string key = canonical_name(path);
    if (loaded_files_.count(key) != 0) return report;  // already loaded: no-op

    LibraryLoad load = PluginLibrary::open(path);
    report.notes = std::move(load.notes);
    report.problems = std::move(load.problems);
    if (!report.problems.empty()) return report;

    // All-or-nothing: check every id before registering any.
    for (const auto& record : load.plugins) {
        if (const PluginRecord* existing = find(record.id)) {
            report.problems.push_back(fmt::format(
                "plugin file '{}': plugin '{}' version {} was not loaded because '{}' version {} "
                "from '{}' is already loaded; two plugins cannot share an id (remove one of the "
                "files from the plugin path), so no plugin of this file was loaded",
                record.file, record.id, record.version, existing->id, existing->version,
                existing->file));
        }
    }
    if (!report.problems.empty()) return report;

    loaded_files_.insert(key);
    for (auto& record : load.plugins) {
        records_.push_back(std::make_shared<PluginRecord>(std::move(record)));
        by_id_.emplace(records_.back()->id, records_.back().get());
        ++report.plugins_loaded;
    }
    return report;
}

LoadReport PluginRegistry::load_all(const std::vector<std::filesystem::path>& paths) {
    LoadReport report;
    for (const auto& path : paths) report.append(load(path));
    return report;
}

const PluginRecord* PluginRegistry::find(std::string_view id) const {
    auto it = by_id_.find(id);
    return it == by_id_.end() ? nullptr : it->second;
}

const PluginRecord& PluginRegistry::require(pivot_plugin_kind kind, std::string_view name) const {
    const PluginRecord* record = find(name);
    if (record == nullptr && name.find('.') == std::string_view::npos) {
        record = find(fmt::format("pivot.{}.{}", kind_name(kind), name));
    }
    if (record != nullptr && record->kind == kind) return *record;

    std::vector<std::string> available;
    for (const auto& [id, r] : by_id_) {
        if (r->kind == kind) available.push_back(id);
    }
    const std::string list = available.empty() ? "none is loaded" : "loaded: " + fmt::format("{}", fmt::join(available, ", "));
    if (record != nullptr) {
        throw Error(fmt::format("plugin '{}' is a {} plugin, not a {} plugin ({})", record->id,
                                kind_name(record->kind), kind_name(kind), list));
    }
    throw Error(fmt::format("unknown {} plugin '{}' ({}); add its folder with --plugins or "
                            "PIVOT_PLUGIN_PATH",
                            kind_name(kind), name, list));
}

std::vector<const PluginRecord*> PluginRegistry::plugins() const {
    std::vector<const PluginRecord*> out;
    out.reserve(by_id_.size());
    for (const auto& [id, record] : by_id_) out.push_back(record);
    return out;
}

}  // namespace pivot
