#include "plugin_host/plugin_search_path.hpp"

#include <cstdlib>
#include <system_error>

#include <boost/dll/runtime_symbol_info.hpp>

#if !defined(PIVOT_RELATIVE_PLUGIN_DIR) || !defined(PIVOT_LIBRARY_RELATIVE_PLUGIN_DIR)
#error "PIVOT_RELATIVE_PLUGIN_DIR and PIVOT_LIBRARY_RELATIVE_PLUGIN_DIR must be defined by the build"
#endif

namespace pivot {

std::filesystem::path first_party_plugin_folder() {
    // The module that contains this code: a program that links the engine
    // statically (the pivot tool, tests; in <prefix>/bin) or the engine
    // library libpivot (in <prefix>/lib). The build tree has the same layout.
    std::error_code ec;
    const std::filesystem::path module = boost::dll::this_line_location(ec);
    if (ec) return {};
    const std::filesystem::path from_bin = (module.parent_path() / PIVOT_RELATIVE_PLUGIN_DIR).lexically_normal();
    const std::filesystem::path from_lib =
        (module.parent_path() / PIVOT_LIBRARY_RELATIVE_PLUGIN_DIR).lexically_normal();
    if (std::filesystem::is_directory(from_lib, ec) && !std::filesystem::is_directory(from_bin, ec)) return from_lib;
    return from_bin;
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
