// The Python module pivot: shared declarations of its four parts (module.cpp:
// the module and its exception; engine.cpp: Engine; world.cpp: World;
// descriptions.cpp: keyword arguments into the C API's *_desc structs).
// Everything goes through the public embedding API (pivot/pivot.h and its
// C++ wrapper pivot/pivot.hpp); nothing of the engine's internals.
#ifndef PIVOT_PYTHON_BINDINGS_HPP
#define PIVOT_PYTHON_BINDINGS_HPP

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <pivot/pivot.hpp>

namespace pivot::python {

namespace py = pybind11;
using pivot::sdk::check;
using Error = pivot::sdk::Error;

// The engine's plugin lock: shared by steps, exclusive for whatever loads
// plugins. Unlike std::shared_mutex (glibc's rwlock lets new readers in
// while a writer waits), a waiting writer keeps new readers out: worlds that
// step in a loop on two threads would otherwise keep load_plugins waiting
// as long as their steps overlap. Neither side holds the GIL while it waits.
class PluginLock {
public:
    void lock_shared() {
        std::unique_lock<std::mutex> guard(mutex_);
        changed_.wait(guard, [this] { return !writing_ && writers_waiting_ == 0; });
        ++readers_;
    }
    void unlock_shared() {
        std::lock_guard<std::mutex> guard(mutex_);
        if (--readers_ == 0) changed_.notify_all();
    }
    void lock() {
        std::unique_lock<std::mutex> guard(mutex_);
        ++writers_waiting_;
        changed_.wait(guard, [this] { return !writing_ && readers_ == 0; });
        --writers_waiting_;
        writing_ = true;
    }
    void unlock() {
        std::lock_guard<std::mutex> guard(mutex_);
        writing_ = false;
        changed_.notify_all();
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    uint32_t readers_ = 0;
    uint32_t writers_waiting_ = 0;
    bool writing_ = false;
};

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
    PluginLock& plugin_lock() { return plugin_lock_; }

private:
    pivot_engine* engine_ = nullptr;
    PluginLock plugin_lock_;
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

// Text that becomes a C string: one with a NUL inside is a ValueError that
// names `where`, since C would silently read only the part before it.
const std::string& c_text(const std::string& text, const std::string& where);

// Numbers, by one rule for every argument and keyword (descriptions.cpp):
// what float() takes but strings (int, float, bool, NumPy scalars, objects
// with __float__ or __index__), one by one from any sequence, or at once
// from a NumPy array of a real dtype. The wrong type (a str, a complex, a
// string array) is a TypeError naming `where`, the wrong count or shape a
// ValueError.
double number(py::handle value, const std::string& where);
void numbers(py::handle value, const std::string& where, double* out, size_t count);
std::array<double, 3> vector3(py::handle value, const std::string& where);
// An (rows, columns) C-contiguous float64 array by the same rule: the value
// itself when it already is one, else a copy.
py::array_t<double, py::array::c_style> number_rows(py::handle value, const std::string& where, size_t rows,
                                                    size_t columns);

// The World: the C++ wrapper's world and the engine it belongs to.
//
// pivot.h: a world is used by one thread at a time. Calls other than step()
// hold the GIL, but not throughout: converting their arguments can run
// Python (__index__, __float__, json.dumps, a sequence's __getitem__), which
// lets other threads run, and step() releases the GIL for the whole step.
// So every bound call holds a Use from its first line to its return, and
// step() runs only while no Use is held, and refuses otherwise; a call made
// while a step runs is refused too. Calls that merely interleave under the
// GIL (a thread switch inside an __index__) are allowed: the C calls of each
// are made with the GIL held, one after the other.
class World {
    static constexpr int stepping = -1;  // users_ while step() runs

public:
    World(std::shared_ptr<Engine> engine, pivot_world* world) : engine_(std::move(engine)), world_(world) {}
    World(const World&) = delete;
    World& operator=(const World&) = delete;

    // A bound call's hold on the world (see above), taken before it converts
    // any argument; pivot.Error while the world steps.
    class Use {
    public:
        explicit Use(World& world);
        ~Use() { --world_.users_; }
        Use(const Use&) = delete;
        Use& operator=(const Use&) = delete;
        pivot::sdk::World& operator*() const { return world_.world_; }
        pivot::sdk::World* operator->() const { return &world_.world_; }

    private:
        World& world_;
    };
    // `const auto w = self.use();` for a whole call, `self.use()->time()` for one expression (the temporary
    // lives to its end). No conversion to a World& exists, so the hold cannot end before the world's use does.
    Use use() { return Use(*this); }

    // Steps without the GIL (no Python runs inside a step); pivot.Error while
    // any other call on this world is inside (another thread's, or the one
    // that calls step() from an __index__ it runs).
    void step(uint32_t steps);
    const std::shared_ptr<Engine>& engine() const { return engine_; }
    std::vector<double>& scratch() { return scratch_; }

private:
    std::shared_ptr<Engine> engine_;  // first: destroyed after world_
    pivot::sdk::World world_;
    // Bound calls inside, or `stepping`. Changed only with the GIL held (step() takes and gives it back with the
    // GIL); atomic since a thread that steps reads it back after releasing the GIL.
    std::atomic<int> users_{0};
    std::vector<double> scratch_;  // positions when only a cable's velocities are asked for
};

void bind_engine(py::module_& m);
void bind_world(py::module_& m);

}  // namespace pivot::python

#endif  // PIVOT_PYTHON_BINDINGS_HPP
