// The embedding C API: errors, version and the engine (the plugin registry).
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
    if (engine != nullptr && engine->worlds.load() != 0) {
        // Its worlds hold its plugins: destroying it first is a use-after-free
        // waiting to happen. Said loudly; the engine is kept (leaked) instead.
        pivot::logger().error("pivot_engine_destroy: {} world(s) of this engine are still alive; destroy them first "
                              "(the engine is kept)",
                              engine->worlds.load());
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
