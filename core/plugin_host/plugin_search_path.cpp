#include "plugin_host/plugin_search_path.hpp"

#include <cstdlib>
#include <system_error>

#include <boost/dll/runtime_symbol_info.hpp>

#ifndef PIVOT_RELATIVE_PLUGIN_DIR
#error "PIVOT_RELATIVE_PLUGIN_DIR must be defined by the build (plugin folder relative to bin/)"
#endif

namespace pivot {

std::filesystem::path first_party_plugin_folder() {
    // The binary that contains this code (the pivot tool, or a program that
    // links the engine statically); its folder is <prefix>/bin.
    std::error_code ec;
    const std::filesystem::path binary = boost::dll::program_location(ec);
    if (ec) return {};
    return (binary.parent_path() / PIVOT_RELATIVE_PLUGIN_DIR).lexically_normal();
}

std::vector<std::filesystem::path> split_plugin_path(std::string_view list) {
    std::vector<std::filesystem::path> out;
    size_t start = 0;
    while (start <= list.size()) {
        const size_t end = std::min(list.find(':', start), list.size());
        if (end > start) out.emplace_back(std::string(list.substr(start, end - start)));
        start = end + 1;
    }
    return out;
}

std::vector<std::filesystem::path> default_plugin_paths() {
    std::vector<std::filesystem::path> paths;
    std::error_code ec;
    if (auto folder = first_party_plugin_folder(); !folder.empty() && std::filesystem::is_directory(folder, ec)) {
        paths.push_back(folder);
    }
    if (const char* env = std::getenv("PIVOT_PLUGIN_PATH")) {
        for (auto& p : split_plugin_path(env)) paths.push_back(std::move(p));
    }
    return paths;
}

}  // namespace pivot
