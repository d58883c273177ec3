#include "common/logging.hpp"

#include <cstdlib>
#include <mutex>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace pivot {

namespace {

std::shared_ptr<spdlog::logger> make_logger() {
    auto sink = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
    auto log = std::make_shared<spdlog::logger>("pivot", sink);
    log->set_pattern("pivot: %^%l%$: %v");
    log->set_level(spdlog::level::warn);
    if (const char* env = std::getenv("PIVOT_LOG_LEVEL")) {
        if (auto level = parse_log_level(env)) {
            log->set_level(*level);
        } else {
            log->warn("PIVOT_LOG_LEVEL='{}' is not a level ({}); using 'warning'", env,
                      log_level_names());
        }
    }
    return log;
}

}  // namespace

spdlog::logger& logger() {
    static std::shared_ptr<spdlog::logger> instance = make_logger();
    return *instance;
}

std::optional<spdlog::level::level_enum> parse_log_level(std::string_view name) {
    using spdlog::level::level_enum;
    if (name == "trace") return level_enum::trace;
    if (name == "debug") return level_enum::debug;
    if (name == "info") return level_enum::info;
    if (name == "warning" || name == "warn") return level_enum::warn;
    if (name == "error") return level_enum::err;
    if (name == "off") return level_enum::off;
    return std::nullopt;
}

void set_log_level(spdlog::level::level_enum level) { logger().set_level(level); }

const char* log_level_names() { return "trace, debug, info, warning, error, off"; }

}  // namespace pivot
