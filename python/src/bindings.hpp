// The Python module pivot: shared declarations of its four parts (module.cpp:
// the module and its exception; engine.cpp: Engine; world.cpp: World;
// descriptions.cpp: keyword arguments into the C API's *_desc structs).
// Everything goes through the public embedding API (pivot/pivot.h and its
// C++ wrapper pivot/pivot.hpp); nothing of the engine's internals.
#ifndef PIVOT_PYTHON_BINDINGS_HPP
#define PIVOT_PYTHON_BINDINGS_HPP

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <shared_mutex>
#include <string>
#include <type_traits>
#include <vector>

#include <pybind11/pybind11.h>

#include <pivot/pivot.hpp>

namespace pivot::python {

namespace py = pybind11;
using pivot::sdk::check;
using Error = pivot::sdk::Error;

// One engine, shared by the Python Engine object and every World made from
// it, so that the engine outlives its worlds whatever Python frees first.
class Engine : public std::enable_shared_from_this<Engine> {
public:
    explicit Engine(bool empty);
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    pivot_engine* handle() const { return engine_; }
    // pivot.h: worlds of one engine may step concurrently provided no thread
    // loads plugins into it meanwhile. Steps hold this shared, whatever loads
    // plugins (load_plugins, a scene with plugin_paths) holds it exclusively.
    std::shared_mutex& plugin_lock() { return plugin_lock_; }

private:
    pivot_engine* engine_ = nullptr;
    std::shared_mutex plugin_lock_;
};

// What a Python object is made of for a C struct field: strings and arrays
// that the desc points to, kept alive until the C call is made.
class Arena {
public:
    const char* keep(std::string text) { return strings_.emplace_back(std::move(text)).c_str(); }
    template <class T>
    std::vector<T>& array() {
        if constexpr (std::is_same_v<T, pivot_shape_desc>) return shapes_.emplace_back();
        else if constexpr (std::is_same_v<T, pivot_cable_attachment>) return attachments_.emplace_back();
        else return rope_points_.emplace_back();
    }

private:
    std::deque<std::string> strings_;
    std::deque<std::vector<pivot_shape_desc>> shapes_;
    std::deque<std::vector<pivot_cable_attachment>> attachments_;
    std::deque<std::vector<pivot_rope_point>> rope_points_;
};

// Keyword arguments (a dict of them) into the structs of pivot.h, after
// their _init defaults. An unknown keyword is a TypeError that names it, a
// value of the wrong type a TypeError that names the keyword.
pivot_world_settings world_settings(const py::dict& kwargs, Arena& arena);
pivot_material_desc material_desc(const py::dict& kwargs, Arena& arena);
pivot_material_pair_desc material_pair_desc(const py::dict& kwargs, Arena& arena);
pivot_shape_desc shape_desc(const py::dict& kwargs, Arena& arena, const char* what);
pivot_body_desc body_desc(const py::dict& kwargs, Arena& arena);
pivot_joint_desc joint_desc(const py::dict& kwargs, Arena& arena);
pivot_cable_desc cable_desc(const py::dict& kwargs, Arena& arena);
pivot_rope_desc rope_desc(const py::dict& kwargs, Arena& arena);

// JSON text for the API from a str, or from any JSON-able Python value
// (a dict) through json.dumps; None gives NULL.
const char* json_text(py::handle value, Arena& arena, const std::string& what);

// The World: the C++ wrapper's world and the engine it belongs to.
class World {
public:
    World(std::shared_ptr<Engine> engine, pivot_world* world) : engine_(std::move(engine)), world_(world) {}
    World(const World&) = delete;
    World& operator=(const World&) = delete;

    // The world for a call made with the GIL held: refused while this world
    // steps on another thread (pivot.h: a world is used by one thread at a
    // time), which only World.step allows since it releases the GIL.
    pivot::sdk::World& use() {
        if (stepping_.load()) {
            throw Error("this World is stepping on another thread: a world is used by one thread at a time");
        }
        return world_;
    }
    // Steps without the GIL (no Python runs inside a step).
    void step(uint32_t steps);
    const std::shared_ptr<Engine>& engine() const { return engine_; }
    std::vector<double>& scratch() { return scratch_; }

private:
    std::shared_ptr<Engine> engine_;  // first: destroyed after world_
    pivot::sdk::World world_;
    std::atomic<bool> stepping_{false};
    std::vector<double> scratch_;  // positions when only a cable's velocities are asked for
};

void bind_engine(py::module_& m);
void bind_world(py::module_& m);

}  // namespace pivot::python

#endif  // PIVOT_PYTHON_BINDINGS_HPP
