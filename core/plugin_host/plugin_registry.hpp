#pragma once
// The plugins a process has loaded, by id. Loading is all-or-nothing per
// library: a library with any invalid descriptor, or any id already taken by
// another file, is refused whole with a message naming the file, the id and
// both versions. Loading the same file twice is a harmless no-op.
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "plugin_host/plugin_record.hpp"

namespace pivot {

struct LoadReport {
    size_t plugins_loaded = 0;
    std::vector<std::string> problems;  // one sentence per problem, naming the file
    std::vector<std::string> notes;     // harmless findings

    bool ok() const { return problems.empty(); }
    void append(LoadReport other);
};

class PluginRegistry {
public:
    PluginRegistry() = default;
    PluginRegistry(const PluginRegistry&) = delete;
    PluginRegistry& operator=(const PluginRegistry&) = delete;

    // Loads a plugin file, or every file with the platform's library suffix
    // directly inside a folder (in name order, so the result is the same on
    // every run). Problems are returned, never thrown.
    LoadReport load(const std::filesystem::path& file_or_folder);

    // Loads every path; each entry may be a file or a folder.
    LoadReport load_all(const std::vector<std::filesystem::path>& paths);

    // The plugin with exactly this id, or nullptr.
    const PluginRecord* find(std::string_view id) const;

    // The plugin of `kind` named `name`: a full id, or a short name such as
    // "lemke" for "pivot.solver.lemke". Throws pivot::Error naming the id,
    // the expected kind and what is loaded, when there is no such plugin.
    const PluginRecord& require(pivot_plugin_kind kind, std::string_view name) const;

    // All plugins, ordered by id.
    std::vector<const PluginRecord*> plugins() const;

private:
    std::vector<std::shared_ptr<PluginRecord>> records_;
    std::map<std::string, const PluginRecord*, std::less<>> by_id_;
    std::set<std::string> loaded_files_;
};

}  // namespace pivot
