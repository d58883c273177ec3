#pragma once
// The engine's logger. Everything, the plugins' messages included, goes to
// one spdlog logger named "pivot": on stderr, or to the callback an embedder
// installs (set_log_callback; pivot_set_log_callback in the C API), each
// message with its source (the plugin's category, or "pivot" for the
// engine's own). Its level comes from the environment variable
// PIVOT_LOG_LEVEL (trace, debug, info, warning, error, off; default warning)
// and may be overridden by the `--log-level` flag or set_log_level.
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <spdlog/logger.h>

namespace pivot {

// The shared logger; created on first use with the level from the environment.
spdlog::logger& logger();

// A message from `source` (a plugin's category; empty: the engine): to the
// callback when one is installed, with its source, else to the logger as
// "[source] message".
void log_from(spdlog::level::level_enum level, std::string_view source, std::string_view message);

// Where messages go instead of stderr: callback(user, level, source,
// message), level as spdlog's (trace .. err), the strings valid during the
// call only. Called on the thread that logs, one call at a time. nullptr
// goes back to stderr.
using LogCallback = void (*)(void* user, spdlog::level::level_enum level, const char* source, const char* message);
void set_log_callback(LogCallback callback, void* user);

// Parses a level name as accepted by PIVOT_LOG_LEVEL / --log-level.
std::optional<spdlog::level::level_enum> parse_log_level(std::string_view name);

// Sets the level of the shared logger.
void set_log_level(spdlog::level::level_enum level);

// The accepted names, for help texts: "trace, debug, info, warning, error, off".
const char* log_level_names();

}  // namespace pivot
