#pragma once
// Paths of the test-only plugins built by tests/plugins (never installed).
#include <filesystem>
#include <string>

namespace pivot::test {

inline std::filesystem::path good_plugin_dir() { return PIVOT_TEST_GOOD_DIR; }
inline std::filesystem::path broken_plugin_dir() { return PIVOT_TEST_BROKEN_DIR; }
inline std::filesystem::path good_plugin(const std::string& name) { return good_plugin_dir() / (name + ".so"); }
inline std::filesystem::path broken_plugin(const std::string& name) { return broken_plugin_dir() / (name + ".so"); }

}  // namespace pivot::test
