#pragma once
// One loaded plugin library: the shared object, mapped with Boost.DLL, whose
// entry table has been validated and whose init() has succeeded. Unmapped
// (after deinit()) when the last record or instance using it is gone.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <pivot/plugin.h>

#include "plugin_host/plugin_record.hpp"

namespace pivot {

// The outcome of opening one file: either plugins (with problems empty) or
// problems, each a full sentence naming the file.
struct LibraryLoad {
    std::vector<PluginRecord> plugins;
    std::vector<std::string> problems;
    std::vector<std::string> notes;
};

class PluginLibrary {
public:
    // Opens `file`, resolves PIVOT_PLUGIN_ENTRY_SYMBOL, validates everything
    // and calls init(). Never throws for a bad library; the result says why.
    static LibraryLoad open(const std::filesystem::path& file);

    ~PluginLibrary();
    PluginLibrary(const PluginLibrary&) = delete;
    PluginLibrary& operator=(const PluginLibrary&) = delete;

    const std::string& file() const { return file_; }

private:
    struct Impl;
    PluginLibrary(std::string file, std::unique_ptr<Impl> impl);

    std::string file_;
    std::unique_ptr<Impl> impl_;
};

// True if the file name has the platform's shared-library suffix
// (".so" on Linux), the files a folder scan considers.
bool has_library_suffix(const std::filesystem::path& file);

}  // namespace pivot
