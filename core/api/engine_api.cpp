// The embedding C API: errors, version and the engine (the plugin registry).
#include <atomic>

#include <fmt/format.h>

#include "api/api_support.hpp"
#include "common/logging.hpp"
#include "plugin_host/plugin_search_path.hpp"

namespace pivot::api {

std::string& last_error() {
    thread_local std::string message;
    return message;
}

}  // namespace pivot::api

using pivot::api::guarded;
using pivot::api::require;

extern "C" {

PIVOT_API const char* pivot_last_error(void) { return pivot::api::last_error().c_str(); }

PIVOT_API const char* pivot_version(void) { return PIVOT_ENGINE_VERSION; }

PIVOT_API void pivot_set_log_callback(pivot_log_callback callback, void* user) {
    // The embedder's callback behind the engine's (spdlog levels to pivot_log_level).
    static std::atomic<pivot_log_callback> installed{nullptr};
    static std::atomic<void*> installed_user{nullptr};
    installed_user = user;
    installed = callback;
    if (callback == nullptr) {
        pivot::set_log_callback(nullptr, nullptr);
        return;
    }
    pivot::set_log_callback(
        [](void*, spdlog::level::level_enum level, const char* source, const char* message) {
            const pivot_log_callback to = installed.load();
            if (to == nullptr) return;
            pivot_log_level l = PIVOT_LOG_ERROR;
            switch (level) {
                case spdlog::level::trace: l = PIVOT_LOG_TRACE; break;
                case spdlog::level::debug: l = PIVOT_LOG_DEBUG; break;
                case spdlog::level::info: l = PIVOT_LOG_INFO; break;
                case spdlog::level::warn: l = PIVOT_LOG_WARNING; break;
                default: break;
            }
            to(installed_user.load(), l, source, message);
        },
        nullptr);
}

PIVOT_API pivot_status pivot_set_log_level(pivot_log_level level) {
    return guarded("pivot_set_log_level", [&] {
        switch (level) {
            case PIVOT_LOG_TRACE: pivot::set_log_level(spdlog::level::trace); return;
            case PIVOT_LOG_DEBUG: pivot::set_log_level(spdlog::level::debug); return;
            case PIVOT_LOG_INFO: pivot::set_log_level(spdlog::level::info); return;
            case PIVOT_LOG_WARNING: pivot::set_log_level(spdlog::level::warn); return;
            case PIVOT_LOG_ERROR: pivot::set_log_level(spdlog::level::err); return;
        }
        throw pivot::Error(fmt::format("pivot_set_log_level: level: {} is not a pivot_log_level (0 trace .. 4 error)",
                                       static_cast<int>(level)));
    });
}

PIVOT_API pivot_status pivot_engine_create(pivot_engine** engine) {
    return guarded("pivot_engine_create", [&] {
        require(engine, "pivot_engine_create", "engine");
        *engine = nullptr;
        auto created = std::make_unique<pivot_engine>();
        // A refused library here (a broken file on PIVOT_PLUGIN_PATH) is
        // logged; the engine stays usable with the others.
        const pivot::LoadReport report = created->registry.load_all(pivot::default_plugin_paths());
        for (const std::string& problem : report.problems) pivot::logger().warn("{}", problem);
        *engine = created.release();
    });
}

PIVOT_API void pivot_engine_destroy(pivot_engine* engine) {
    if (engine != nullptr && (engine->worlds.load() != 0 || engine->solvers.load() != 0)) {
        // Its worlds and solvers hold its plugins: destroying it first is a
        // use-after-free waiting to happen. Said loudly; the engine is kept
        // (leaked) instead.
        pivot::logger().error("pivot_engine_destroy: {} world(s) and {} solver(s) of this engine are still alive; "
                              "destroy them first (the engine is kept)",
                              engine->worlds.load(), engine->solvers.load());
        return;
    }
    delete engine;
}

PIVOT_API pivot_status pivot_engine_load_plugins(pivot_engine* engine, const char* file_or_folder) {
    return guarded("pivot_engine_load_plugins", [&] {
        require(engine, "pivot_engine_load_plugins", "engine");
        require(file_or_folder, "pivot_engine_load_plugins", "file_or_folder");
        const pivot::LoadReport report = engine->registry.load(file_or_folder);
        if (!report.ok()) throw pivot::Error(fmt::format("{}", fmt::join(report.problems, "; ")));
    });
}

}  // extern "C"
