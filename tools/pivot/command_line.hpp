#pragma once
// A small argument reader for the `pivot` subcommands, and the exit codes
// of the CLI contract: 0 success, 1 user error (bad file, unknown plugin),
// 2 usage error.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "plugin_host/plugin_registry.hpp"

namespace pivot::cli {

enum ExitCode : int { kSuccess = 0, kUserError = 1, kUsageError = 2 };

// Thrown for a usage error; main prints the message and the command's usage.
struct UsageError {
    std::string message;
};

class Arguments {
public:
    Arguments(std::vector<std::string> args) : args_(std::move(args)) {}

    // Consumes the first argument if it is `name` (a subcommand).
    bool take_subcommand(const std::string& name);
    // Consumes "--name" if present.
    bool flag(const std::string& name);
    // Consumes "--name VALUE" (or "--name=VALUE"); throws UsageError if the value is missing.
    std::optional<std::string> option(const std::string& name);
    // Consumes every "--name VALUE".
    std::vector<std::string> options(const std::string& name);
    // The remaining arguments that do not start with "--"; then, if anything
    // starting with "--" is left, throws UsageError("unknown option ...").
    std::vector<std::string> positionals();

private:
    std::vector<std::string> args_;
};

// The value of `flag` as a finite number > 0; throws UsageError otherwise.
double parse_positive(const std::string& flag, const std::string& text);
// The value of `flag` as a whole number in [min, max] (digits only); throws
// UsageError "<flag> needs <what>, got '<text>'" otherwise.
uint64_t parse_whole(const std::string& flag, const std::string& text, uint64_t min, uint64_t max,
                     const std::string& what);

// Options every command accepts: --log-level LEVEL, --plugins PATH (repeatable).
struct CommonOptions {
    std::vector<std::string> plugin_paths;
};
CommonOptions read_common_options(Arguments& args);

// Loads the default plugin paths plus the extra ones; prints problems as
// warnings on stderr (a broken file in a plugin folder does not stop the
// tool) but returns false if an explicitly named extra path failed.
bool load_plugins(PluginRegistry& registry, const CommonOptions& common);

}  // namespace pivot::cli
