#pragma once
// What every function of the embedding C API (sdk/include/pivot/pivot.h)
// shares: the opaque handles, the per-thread error message, and guarded()
// which turns every C++ exception into PIVOT_ERROR with its message, so that
// nothing is ever thrown across the C interface.
#include <atomic>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <string>

#include <pivot/pivot.h>

#include "common/error.hpp"
#include "plugin_host/plugin_registry.hpp"
#include "world/world.hpp"

struct pivot_engine {
    pivot::PluginRegistry registry;
    std::atomic<uint32_t> worlds{0};   // alive worlds made from it (destroying the engine before them is logged)
    std::atomic<uint32_t> solvers{0};  // alive pivot_solver instances of its plugins (likewise)
    // pivot_engine_plugin_json's texts by plugin id, made on demand.
    mutable std::mutex plugin_json_mutex;
    mutable std::map<std::string, std::string, std::less<>> plugin_json;
};

struct pivot_world {
    pivot_engine* engine = nullptr;
    std::unique_ptr<pivot::World> world;
    // Copies of the names handed out by pivot_world_*_name, filled in index
    // order on demand: a deque never moves its strings, so the pointers stay
    // valid while the world lives, even when later additions move the
    // World's own records (a short std::string moves its characters).
    mutable std::deque<std::string> body_names, joint_names, cable_names, rope_names;
};

namespace pivot::api {

// The calling thread's last error message.
std::string& last_error();

inline pivot_status fail(std::string message) {
    last_error() = std::move(message);
    return PIVOT_ERROR;
}

// Runs f (returning void); exceptions become PIVOT_ERROR with their message.
template <typename F>
pivot_status guarded(const char* function, F&& f) noexcept {
    try {
        f();
        return PIVOT_OK;
    } catch (const pivot::Error& e) {
        return fail(e.what());
    } catch (const std::bad_alloc&) {
        return fail(std::string(function) + ": out of memory");
    } catch (const std::exception& e) {
        return fail(std::string(function) + ": " + e.what());
    } catch (...) {
        return fail(std::string(function) + ": unknown error");
    }
}

// Throws pivot::Error naming the function and argument when p is NULL.
template <typename T>
T& require(T* p, const char* function, const char* argument) {
    if (p == nullptr) throw pivot::Error(std::string(function) + ": " + argument + " is NULL");
    return *p;
}

// A C string argument: the string itself.
inline const char* require(const char* s, const char* function, const char* argument) {
    if (s == nullptr) throw pivot::Error(std::string(function) + ": " + argument + " is NULL");
    return s;
}

}  // namespace pivot::api
