#pragma once
// Validation of what a plugin library's entry function returned: the library
// table, every descriptor, parameter schema and function table. Nothing of
// the plugin is called here; only its static data is read, and never beyond
// the sizes it declares.
#include <string>
#include <vector>

#include <pivot/plugin.h>

#include "plugin_host/plugin_record.hpp"

namespace pivot {

struct ValidatedLibrary {
    std::vector<PluginRecord> plugins;  // without `file` and `library` set
    std::vector<std::string> problems;  // one sentence each; empty when valid
    std::vector<std::string> notes;     // harmless findings (skipped newer kinds)
};

// Checks `table` (may be NULL) and builds the records. The library is valid
// only if `problems` is empty; then every plugin in it is usable.
ValidatedLibrary validate_library(const pivot_plugin_library* table);

// Checks an id against the rule of <pivot/plugin.h>; empty string when valid,
// else the reason.
std::string id_problem(const char* id);

}  // namespace pivot
