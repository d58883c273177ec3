#pragma once
// The engine's logger. Everything, the plugins' messages included, goes to
// one spdlog logger named "pivot" on stderr. Its level comes from the
// environment variable PIVOT_LOG_LEVEL (trace, debug, info, warning, error,
// off; default warning) and may be overridden by the `--log-level` flag.
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <spdlog/logger.h>

namespace pivot {

// The shared logger; created on first use with the level from the environment.
spdlog::logger& logger();

// Parses a level name as accepted by PIVOT_LOG_LEVEL / --log-level.
std::optional<spdlog::level::level_enum> parse_log_level(std::string_view name);

// Sets the level of the shared logger.
void set_log_level(spdlog::level::level_enum level);

// The accepted names, for help texts: "trace, debug, info, warning, error, off".
const char* log_level_names();

}  // namespace pivot
