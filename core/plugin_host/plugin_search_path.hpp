#pragma once
// Where plugins are looked for, in order:
//  1. the first-party plugin folder next to the engine binary
//     (<prefix>/lib/pivot/plugins, relative to <prefix>/bin for a program
//     linking the engine statically, to <prefix>/lib for libpivot; the build
//     tree has the same layout), so nothing needs configuring after build or
//     install;
//  2. the folders of the environment variable PIVOT_PLUGIN_PATH
//     (colon-separated; empty entries ignored);
//  3. whatever the caller adds (--plugins, a scene's plugin_paths).
#include <filesystem>
#include <string_view>
#include <vector>

namespace pivot {

// The first-party plugin folder for the running binary (may not exist).
std::filesystem::path first_party_plugin_folder();

// Splits a PIVOT_PLUGIN_PATH-style list.
std::vector<std::filesystem::path> split_plugin_path(std::string_view list);

// 1 and 2 above; only folders and files that exist.
std::vector<std::filesystem::path> default_plugin_paths();

}  // namespace pivot
