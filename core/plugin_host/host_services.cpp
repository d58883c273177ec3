#include "plugin_host/host_services.hpp"

#include "common/logging.hpp"

namespace pivot {

namespace {

spdlog::level::level_enum to_spdlog(pivot_log_level level) {
    switch (level) {
        case PIVOT_LOG_TRACE: return spdlog::level::trace;
        case PIVOT_LOG_DEBUG: return spdlog::level::debug;
        case PIVOT_LOG_INFO: return spdlog::level::info;
        case PIVOT_LOG_WARNING: return spdlog::level::warn;
        case PIVOT_LOG_ERROR: return spdlog::level::err;
    }
    // A plugin passed a value outside the enum: still show it, as an error.
    return spdlog::level::err;
}

void host_log(void* /*context*/, pivot_log_level level, const char* category,
              const char* message) {
    log_from(to_spdlog(level), category != nullptr ? category : "",
             message != nullptr ? message : "(null message)");
}

pivot_log_level host_log_level(void* /*context*/) {
    switch (logger().level()) {
        case spdlog::level::trace: return PIVOT_LOG_TRACE;
        case spdlog::level::debug: return PIVOT_LOG_DEBUG;
        case spdlog::level::info: return PIVOT_LOG_INFO;
        case spdlog::level::warn: return PIVOT_LOG_WARNING;
        default: return PIVOT_LOG_ERROR;
    }
}

}  // namespace

const pivot_host* host_services() {
    static const pivot_host host = {sizeof(pivot_host), PIVOT_ABI_MAJOR, PIVOT_ABI_MINOR, 0,
                                    nullptr, &host_log, &host_log_level};
    return &host;
}

}  // namespace pivot
