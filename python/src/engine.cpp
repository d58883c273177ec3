// pivot.Engine: the plugins, and the worlds made with them.
#include <filesystem>
#include <mutex>

#include <pybind11/stl/filesystem.h>

#include "bindings.hpp"

namespace pivot::python {

Engine::Engine(bool empty) { check(empty ? pivot_engine_create_empty(&engine_) : pivot_engine_create(&engine_)); }

// Every World holds a shared_ptr to its Engine: none is alive here.
Engine::~Engine() { pivot_engine_destroy(engine_); }

namespace {

const char* kind_name(uint32_t kind) {
    switch (kind) {
        case PIVOT_KIND_ELEMENT: return "element";
        case PIVOT_KIND_JOINT: return "joint";
        case PIVOT_KIND_FRICTION: return "friction";
        case PIVOT_KIND_SOLVER: return "solver";
        default: return "unknown";
    }
}

uint32_t kind_of(const std::string& name) {
    for (uint32_t kind : {PIVOT_KIND_ELEMENT, PIVOT_KIND_JOINT, PIVOT_KIND_FRICTION, PIVOT_KIND_SOLVER}) {
        if (name == kind_name(kind)) return kind;
    }
    throw py::value_error("plugin kind '" + name + "': one of element, joint, friction, solver");
}

py::dict plugin_dict(const Engine& engine, uint32_t plugin) {
    pivot_plugin_info info{};
    check(pivot_engine_plugin_info(engine.handle(), plugin, &info));
    const char* json = pivot_engine_plugin_json(engine.handle(), plugin);
    if (json == nullptr) throw Error(pivot_last_error());
    py::dict d;
    d["id"] = info.id;
    d["kind"] = kind_name(info.kind);
    d["name"] = info.name;
    d["vendor"] = info.vendor;
    d["version"] = info.version;
    d["description"] = info.description;
    d["file"] = info.file;
    d["abi"] = std::to_string(info.abi_major) + "." + std::to_string(info.abi_minor);
    d["capabilities"] = info.capabilities;
    d["param_count"] = info.param_count;
    // The `pivot plugins --json` form: capabilities by name, the parameter schema with units and ranges.
    d["details"] = py::module_::import("json").attr("loads")(json);
    return d;
}

// What may load plugins into the engine (load_plugins, and a scene's
// settings.plugin_paths) runs `load` with no other use of the engine's plugin
// registry under way (pivot.h: worlds may run concurrently provided no thread
// loads plugins). Two kinds of use read the registry: steps, which hold the
// plugin lock shared without the GIL, and everything else (create_world,
// plugins(), find_plugin(), a World's add_joint, add_material, add_cable,
// set_solver, ...), which runs with the GIL held. So `load` runs holding the
// plugin lock exclusively and the GIL. The lock is taken first, without the
// GIL, so that Python threads go on while running steps finish; then the GIL.
// No deadlock: a thread holding the GIL never waits for the plugin lock (a
// step gives up the GIL before it takes the lock shared, and reacquires the
// GIL after it let go of the lock), so the GIL comes free while the loader
// holds the lock; and a step waiting for the lock while the loader holds both
// holds neither.
template <class Load>
void loading_plugins(Engine& engine, Load load) {
    py::gil_scoped_release unlocked;
    std::unique_lock<PluginLock> lock(engine.plugin_lock());
    py::gil_scoped_acquire locked;
    load();
}

std::unique_ptr<World> from_file(Engine& engine, const std::filesystem::path& scene_file) {
    const std::string file = c_text(scene_file.string(), "load_scene(): path");
    pivot_world* world = nullptr;
    loading_plugins(engine, [&] { check(pivot_world_create_from_file(engine.handle(), file.c_str(), &world)); });
    return std::make_unique<World>(engine.shared_from_this(), world);
}

std::unique_ptr<World> from_json(Engine& engine, const py::object& scene, const std::filesystem::path& base_dir) {
    Arena arena;
    const char* text = py::isinstance<py::bytes>(scene)
                           ? arena.keep(c_text(scene.cast<std::string>(), "scene_from_json(): scene"))
                           : json_text(scene, arena, "scene_from_json(): scene");
    if (text == nullptr) throw py::type_error("scene_from_json(): scene: JSON text or a dict, not None");
    const std::string base = c_text(base_dir.string(), "scene_from_json(): base_dir");
    pivot_world* world = nullptr;
    const auto load = [&] { check(pivot_world_create_from_json(engine.handle(), text, base.c_str(), &world)); };
    loading_plugins(engine, load);
    return std::make_unique<World>(engine.shared_from_this(), world);
}

std::unique_ptr<World> create(Engine& engine, const py::kwargs& settings) {
    Arena arena;
    const pivot_world_settings s = world_settings(settings, arena);
    pivot_world* world = nullptr;
    check(pivot_world_create(engine.handle(), &s, &world));
    return std::make_unique<World>(engine.shared_from_this(), world);
}

}  // namespace

void bind_engine(py::module_& m) {
    py::class_<Engine, std::shared_ptr<Engine>>(m, "Engine", R"doc(
The plugins (elements, joints, friction models, solvers) and the worlds made with them.

Engine() loads the first-party plugins (found relative to libpivot, in the
build tree as after installation) and those of the environment variable
PIVOT_PLUGIN_PATH (files or folders separated by ':'); Engine(empty=True)
loads none at all. Every World keeps its Engine alive, so
``pivot.Engine().load_scene(path)`` is safe.

Threads: worlds of one engine may step concurrently on different threads
(World.step releases the GIL); loading plugins (load_plugins, or a scene
whose settings.plugin_paths name plugins) waits, letting other Python
threads run, until no World of this engine is stepping, then loads holding
the GIL, so that nothing reads the plugins while they change.)doc")
        .def(py::init([](bool empty) { return std::make_shared<Engine>(empty); }), py::arg("empty") = false,
             "Loads the first-party plugins and those of PIVOT_PLUGIN_PATH (none at all with empty=True).")
        .def(
            "load_plugins",
            [](Engine& self, const std::filesystem::path& path) {
                const std::string file = c_text(path.string(), "load_plugins(): path");
                loading_plugins(self, [&] { check(pivot_engine_load_plugins(self.handle(), file.c_str())); });
            },
            py::arg("path"),
            "Loads a plugin library (a .so file), or every plugin library directly in a folder. A library with "
            "any invalid plugin is refused whole; pivot.Error says why.")
        .def(
            "plugins",
            [](const Engine& self) {
                py::list out;
                const uint32_t count = pivot_engine_plugin_count(self.handle());
                for (uint32_t p = 0; p < count; ++p) out.append(plugin_dict(self, p));
                return out;
            },
            "The loaded plugins, in id order: one dict each with id (\"pivot.solver.lemke\"), kind (\"element\", "
            "\"joint\", \"friction\" or \"solver\"), name, vendor, version, description, file (the library's "
            "absolute path), abi (\"MAJOR.MINOR\" it was built with), capabilities (its kind's flag bits), "
            "param_count, and details: the plugin as `pivot plugins --json` prints it (capabilities by name, the "
            "parameter schema with units, ranges and defaults).")
        .def(
            "find_plugin",
            [](const Engine& self, const std::string& kind, const std::string& name) {
                const uint32_t of = kind_of(kind);
                const std::string& id = c_text(name, "find_plugin(): name");
                uint32_t plugin = 0;
                check(pivot_engine_find_plugin(self.handle(), of, id.c_str(), &plugin));
                return plugin_dict(self, plugin);
            },
            py::arg("kind"), py::arg("name"),
            "The plugin of this kind (\"element\", \"joint\", \"friction\", \"solver\") with this id or short name "
            "(\"lemke\" for \"pivot.solver.lemke\"), as a dict of plugins(); pivot.Error names what is loaded.")
        .def("load_scene", &from_file, py::arg("path"), R"doc(
A World from a scene file (pivot-scene/1, docs/scene-format.md); the
scene's settings.plugin_paths, relative to the file, are loaded into this
engine. pivot.Error names the file, the JSON pointer and the field of a
refused scene.)doc")
        .def("scene_from_json", &from_json, py::arg("scene"), py::arg("base_dir") = std::filesystem::path("."),
             R"doc(
A World from a scene given as JSON text (str or bytes) or as the Python
value of that JSON (a dict, passed through json.dumps). base_dir resolves
the scene's relative settings.plugin_paths.)doc")
        .def("create_world", &create, R"doc(
An empty World, to be built in code (add_material, add_static_shape,
add_body, add_joint, add_cable, add_rope). Keyword arguments, all optional
(pivot_world_settings; zero or absent means the default):

  timestep (s, default 1e-3), gravity (3 values, m/s^2, default (0, 0, -9.81)),
  solver (plugin id or short name: it solves every island; default None, the
  engine's choice per island), solver_options (dict or JSON text),
  stabilization (0: geometric stiffness and projection, 1: neither),
  divergence_energy (fraction of the energy scale; < 0 off),
  divergence_joint_error (m or rad; < 0 off), step_budget (s of wall time;
  0 none), threads (0: the machine's, at most 4; 1: the calling thread),
  large_island_rows, large_island_sweeps, step_time_limit (s, default 1;
  < 0 off), solver_acceptance (N s, default 1e-6), contact_margin (m,
  default 0.01), contact_regularization (default 1e-5; < 0 exactly rigid),
  restitution_threshold (m/s, default 0.1).

An unknown keyword raises TypeError naming it.)doc");
}

}  // namespace pivot::python
