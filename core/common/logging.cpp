#include "common/logging.hpp"

#include <cstdlib>
#include <mutex>

#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace pivot {

namespace {

// The embedder's callback, as a sink of the logger: the engine's own
// messages reach it through spdlog (source "pivot"); a plugin's through
// log_from with its category. spdlog's base_sink serializes the calls.
class CallbackSink : public spdlog::sinks::base_sink<std::mutex> {
public:
    void set(LogCallback callback, void* user) {
        std::lock_guard<std::mutex> lock(mutex_);
        callback_ = callback;
        user_ = user;
    }
    // A plugin's message, with its source; false when no callback is set.
    bool forward(spdlog::level::level_enum level, std::string_view source, std::string_view message) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (callback_ == nullptr) return false;
        const std::string s(source), m(message);
        callback_(user_, level, s.c_str(), m.c_str());
        return true;
    }

protected:
    void sink_it_(const spdlog::details::log_msg& msg) override {
        if (callback_ == nullptr) return;
        const std::string text(msg.payload.data(), msg.payload.size());
        callback_(user_, msg.level, "pivot", text.c_str());
    }
    void flush_() override {}

private:
    LogCallback callback_ = nullptr;
    void* user_ = nullptr;
};

struct Sinks {
    std::shared_ptr<spdlog::sinks::stderr_color_sink_mt> stderr_sink =
        std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
    std::shared_ptr<CallbackSink> callback = std::make_shared<CallbackSink>();
};

Sinks& sinks() {
    static Sinks s;
    return s;
}

std::shared_ptr<spdlog::logger> make_logger() {
    Sinks& s = sinks();
    s.callback->set_level(spdlog::level::off);  // until a callback is installed
    auto log = std::make_shared<spdlog::logger>("pivot", spdlog::sinks_init_list{s.stderr_sink, s.callback});
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

void log_from(spdlog::level::level_enum level, std::string_view source, std::string_view message) {
    spdlog::logger& log = logger();
    if (!log.should_log(level)) return;
    if (!source.empty() && sinks().callback->forward(level, source, message)) return;
    if (source.empty()) {
        log.log(level, "{}", message);
    } else {
        log.log(level, "[{}] {}", source, message);
    }
}

void set_log_callback(LogCallback callback, void* user) {
    logger();  // the sinks exist
    Sinks& s = sinks();
    s.callback->set(callback, user);
    // Sink levels are atomic: a message logged meanwhile goes to one or the other.
    s.callback->set_level(callback != nullptr ? spdlog::level::trace : spdlog::level::off);
    s.stderr_sink->set_level(callback != nullptr ? spdlog::level::off : spdlog::level::trace);
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
