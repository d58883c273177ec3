// pivot.World: stepping, reading and changing one world; NumPy arrays that
// the C API fills in place.
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings.hpp"

namespace pivot::python {

World::Use::Use(World& world) : world_(world) {
    int users = world.users_.load();
    do {
        if (users == stepping) {
            throw Error("this World is stepping on another thread: a world is used by one thread at a time");
        }
    } while (!world.users_.compare_exchange_weak(users, users + 1));
}

void World::step(uint32_t steps) {
    int idle = 0;
    if (!users_.compare_exchange_strong(idle, stepping)) {
        throw Error(idle == stepping
                        ? "this World is stepping on another thread: a world is used by one thread at a time"
                        : "step(): another call on this World has not returned (on another thread, or the call "
                          "whose argument conversion calls step()): a world is used by one thread at a time");
    }
    // Declared before the GIL is released, so given back with the GIL held again.
    struct Done {
        std::atomic<int>& users;
        ~Done() { users = 0; }
    } done{users_};
    // No Python runs inside a step: other Python threads go on meanwhile.
    py::gil_scoped_release unlocked;
    std::shared_lock<PluginLock> lock(engine_->plugin_lock());
    world_.step(steps);
}

namespace {

using Array = py::array_t<double, py::array::c_style>;

// pivot_body_state is 13 doubles, so row i of an (n, 13) float64 array can be one.
static_assert(sizeof(pivot_body_state) == 13 * sizeof(double), "pivot_body_state has padding");

enum class Kind { body, joint, cable, rope };

const char* kind_name(Kind kind) {
    switch (kind) {
        case Kind::body: return "body";
        case Kind::joint: return "joint";
        case Kind::cable: return "cable";
        case Kind::rope: return "rope";
    }
    return "";
}

// A body, joint, cable or rope given by index (int) or by name (str).
uint32_t index_of(pivot::sdk::World& w, const py::handle& which, Kind kind) {
    if (py::isinstance<py::str>(which)) {
        const std::string name = c_text(which.cast<std::string>(), kind_name(kind));
        switch (kind) {
            case Kind::body: return w.find_body(name);
            case Kind::joint: return w.find_joint(name);
            case Kind::cable: return w.find_cable(name);
            case Kind::rope: return w.find_rope(name);
        }
    }
    PyObject* index = PyNumber_Index(which.ptr());
    if (index == nullptr) {
        // Not an integer: our message. Anything else an __index__ raised (pivot.Error from a call back into
        // this World) is its own.
        if (PyErr_ExceptionMatches(PyExc_TypeError) == 0) throw py::error_already_set();
        PyErr_Clear();
        throw py::type_error(std::string(kind_name(kind)) + ": an index (int) or a name (str), not " +
                             Py_TYPE(which.ptr())->tp_name);
    }
    int overflow = 0;
    const long long i = PyLong_AsLongLongAndOverflow(index, &overflow);
    Py_DECREF(index);
    // The engine refuses indices past the end with its message; negative ones never reach it.
    if (overflow != 0 || i < 0 || i > std::numeric_limits<uint32_t>::max()) {
        throw Error(std::string(kind_name(kind)) + " index " + py::str(which).cast<std::string>() + " is out of range");
    }
    return static_cast<uint32_t>(i);
}

// The array a result is written into: a new one, or `out` when given, which
// must be a writable, aligned, C-contiguous, native float64 array of exactly
// that shape (so the engine writes into its memory: no conversion, no copy).
Array output(const py::object& out, const std::vector<py::ssize_t>& shape, const char* what) {
    if (out.is_none()) return Array(shape);
    // The type check takes the layout and a native-order float64 dtype (not byte-swapped float64).
    if (!py::isinstance<Array>(out)) {
        throw py::type_error(std::string(what) + ": out must be a C-contiguous float64 numpy.ndarray");
    }
    auto array = py::reinterpret_borrow<Array>(out);
    // A view at an odd offset of a buffer (np.frombuffer(b, offset=1)) is C-contiguous float64 too, but the
    // engine writes through a double*, which must be aligned.
    if ((array.flags() & py::detail::npy_api::NPY_ARRAY_ALIGNED_) == 0) {
        throw py::type_error(std::string(what) + ": out must be an aligned array (its data is not at a multiple "
                             "of 8 bytes)");
    }
    const std::vector<py::ssize_t> has(array.shape(), array.shape() + array.ndim());
    if (has != shape) {
        std::string want;
        for (const py::ssize_t n : shape) want += (want.empty() ? "" : ", ") + std::to_string(n);
        throw py::value_error(std::string(what) + ": out must have shape (" + want + ")");
    }
    if (!array.writeable()) throw py::value_error(std::string(what) + ": out is read-only");
    return array;
}

Array copy_of(const double* data, py::ssize_t n) {
    Array a(n);
    std::memcpy(a.mutable_data(), data, static_cast<size_t>(n) * sizeof(double));
    return a;
}

// One structured record per contact: pivot_contact's fields, then its
// flags (pivot_world_contact_flags) and cables (pivot_world_contact_cables).
struct ContactRecord {
    pivot_contact contact;
    uint32_t flags;
    int32_t cable1;
    int32_t cable2;
};

py::dtype contact_dtype() {
    const auto at = [](size_t field) { return static_cast<py::ssize_t>(offsetof(ContactRecord, contact) + field); };
    py::list names, formats, offsets;
    const auto field = [&](const char* name, const char* format, py::ssize_t offset) {
        names.append(name);
        formats.append(format);
        offsets.append(offset);
    };
    field("body1", "<i4", at(offsetof(pivot_contact, body1)));
    field("body2", "<i4", at(offsetof(pivot_contact, body2)));
    field("point", "(3,)<f8", at(offsetof(pivot_contact, point)));
    field("normal", "(3,)<f8", at(offsetof(pivot_contact, normal)));
    field("depth", "<f8", at(offsetof(pivot_contact, depth)));
    field("normal_force", "<f8", at(offsetof(pivot_contact, normal_force)));
    field("friction", "(3,)<f8", at(offsetof(pivot_contact, friction)));
    field("flags", "<u4", offsetof(ContactRecord, flags));
    field("cable1", "<i4", offsetof(ContactRecord, cable1));
    field("cable2", "<i4", offsetof(ContactRecord, cable2));
    return py::dtype(names, formats, offsets, sizeof(ContactRecord));
}

py::array contacts(pivot::sdk::World& w) {
    const std::vector<pivot_contact> found = w.contacts();
    const std::vector<uint32_t> flags = w.contact_flags();
    const std::vector<pivot_contact_cables> cables = w.contact_cables();
    py::array out(contact_dtype(), std::vector<py::ssize_t>{static_cast<py::ssize_t>(found.size())});
    auto* records = static_cast<ContactRecord*>(out.mutable_data());
    for (size_t c = 0; c < found.size(); ++c) {
        ContactRecord r{};
        r.contact = found[c];
        r.flags = c < flags.size() ? flags[c] : 0u;
        r.cable1 = c < cables.size() ? cables[c].cable1 : -1;
        r.cable2 = c < cables.size() ? cables[c].cable2 : -1;
        std::memcpy(records + c, &r, sizeof r);
    }
    return out;
}

py::dict statistics(pivot::sdk::World& w) {
    const pivot_world_statistics s = w.statistics();
    py::dict d;
    d["islands"] = s.islands;
    d["rows"] = s.rows;
    d["solver_failures"] = s.solver_failures;
    d["fallbacks"] = s.fallbacks;
    d["solver_iterations"] = s.solver_iterations;
    d["solver_residual"] = s.solver_residual;
    d["max_joint_error"] = s.max_joint_error;
    d["step_seconds"] = s.step_seconds;
    d["kinetic_energy"] = s.kinetic_energy;
    d["potential_energy"] = s.potential_energy;
    d["energy_excess"] = s.energy_excess;
    d["diverging"] = s.diverging != 0;
    py::dict stages;
    for (uint32_t k = 0; k < s.stage_count && k < PIVOT_STEP_STAGE_CAPACITY; ++k) {
        const char* name = pivot_step_stage_name(k);
        stages[name != nullptr ? name : std::to_string(k).c_str()] = s.stage_seconds[k];
    }
    d["stage_seconds"] = stages;
    d["budget_limited"] = s.budget_limited;
    d["large_islands"] = s.large_islands;
    d["contacts_dropped"] = s.contacts_dropped;
    d["substeps"] = s.substeps;
    d["joints_broken"] = s.joints_broken;
    return d;
}

py::bytes save_state(pivot::sdk::World& w) {
    size_t size = 0;
    pivot_world_save_state(w.handle(), nullptr, 0, &size);  // "buffer too small", with the size
    // Written straight into the bytes object's storage.
    auto out = py::reinterpret_steal<py::bytes>(PyBytes_FromStringAndSize(nullptr, static_cast<py::ssize_t>(size)));
    if (!out) throw py::error_already_set();
    check(pivot_world_save_state(w.handle(), PyBytes_AS_STRING(out.ptr()), size, &size));
    return out;
}

void restore_state(pivot::sdk::World& w, const py::object& state) {
    Py_buffer view;
    if (PyObject_GetBuffer(state.ptr(), &view, PyBUF_SIMPLE) != 0) {
        PyErr_Clear();
        throw py::type_error("restore_state(): state must be bytes (or another contiguous buffer) from save_state()");
    }
    struct Release {
        Py_buffer* view;
        ~Release() { PyBuffer_Release(view); }
    } release{&view};
    check(pivot_world_restore_state(w.handle(), view.buf, static_cast<size_t>(view.len)));
}

pivot_object_kind object_kind(const std::string& kind) {
    if (kind == "body") return PIVOT_OBJECT_BODY;
    if (kind == "joint") return PIVOT_OBJECT_JOINT;
    if (kind == "cable") return PIVOT_OBJECT_CABLE;
    if (kind == "rope") return PIVOT_OBJECT_ROPE;
    throw py::value_error("kind '" + kind + "': one of body, joint, cable, rope");
}

py::list names(pivot::sdk::World& w, Kind kind) {
    const pivot_world* h = w.handle();
    py::list out;
    const uint32_t count = kind == Kind::body    ? pivot_world_body_count(h)
                           : kind == Kind::joint ? pivot_world_joint_count(h)
                           : kind == Kind::cable ? pivot_world_cable_count(h)
                                                 : pivot_world_rope_count(h);
    for (uint32_t i = 0; i < count; ++i) {
        const char* name = kind == Kind::body    ? pivot_world_body_name(h, i)
                           : kind == Kind::joint ? pivot_world_joint_name(h, i)
                           : kind == Kind::cable ? pivot_world_cable_name(h, i)
                                                 : pivot_world_rope_name(h, i);
        out.append(name != nullptr ? py::str(name) : py::str(""));
    }
    return out;
}

Array body_states(pivot::sdk::World& w, const py::object& out) {
    const uint32_t n = w.body_count();
    Array a = output(out, {static_cast<py::ssize_t>(n), 13}, "body_states()");
    double* rows = a.mutable_data();
    for (uint32_t b = 0; b < n; ++b) {
        double* row = rows + 13 * static_cast<size_t>(b);
        if (pivot_world_removed(w.handle(), PIVOT_OBJECT_BODY, b) != 0) {
            std::fill(row, row + 13, std::numeric_limits<double>::quiet_NaN());
            continue;
        }
        check(pivot_world_get_body(w.handle(), b, reinterpret_cast<pivot_body_state*>(row)));
    }
    return a;
}

void set_body_states(pivot::sdk::World& w, const py::object& states) {
    const uint32_t n = w.body_count();
    const Array a = number_rows(states, "set_body_states(): states (the layout of body_states())", n, 13);
    std::vector<uint32_t> live;
    for (uint32_t b = 0; b < n; ++b) {
        if (pivot_world_removed(w.handle(), PIVOT_OBJECT_BODY, b) == 0 && !std::isnan(a.data()[13 * size_t{b}])) {
            live.push_back(b);
        }
    }
    // Each pivot_world_set_body is all or nothing, but a row can be refused after others were set (a quaternion
    // far from unit length, a disabled body's velocity, whatever an element plugin refuses), and a failed call
    // changes nothing: the rows set before it are undone from a state saved first. (Setting them back from
    // pivot_world_get_body would not be bit-exact: pivot_world_set_body normalizes the quaternion.)
    std::vector<char> saved;
    if (live.size() > 1) {
        size_t size = 0;
        pivot_world_save_state(w.handle(), nullptr, 0, &size);  // "buffer too small", with the size
        saved.resize(size);
        check(pivot_world_save_state(w.handle(), saved.data(), saved.size(), &size));
    }
    for (const uint32_t b : live) {
        pivot_body_state s;
        std::memcpy(&s, a.data() + 13 * size_t{b}, sizeof s);
        if (pivot_world_set_body(w.handle(), b, &s) == PIVOT_OK) continue;
        const std::string refused = pivot_last_error();
        if (!saved.empty() && pivot_world_restore_state(w.handle(), saved.data(), saved.size()) != PIVOT_OK) {
            throw Error(refused + " (and restoring the rows set before it failed: " + pivot_last_error() + ")");
        }
        throw Error(refused);
    }
}

uint32_t node_count(pivot::sdk::World& w, uint32_t cable) {
    const uint32_t nodes = w.cable_node_count(cable);
    if (nodes == 0) {
        check(pivot_world_get_cable_nodes(w.handle(), cable, nullptr, nullptr, 0));  // the engine's message
        throw Error("cable index " + std::to_string(cable) + " has no nodes");
    }
    return nodes;
}

Array cable_nodes(World& self, const py::object& cable, const py::object& out, bool velocities) {
    const auto use = self.use();
    pivot::sdk::World& w = *use;
    const uint32_t c = index_of(w, cable, Kind::cable);
    const uint32_t nodes = node_count(w, c);
    Array a = output(out, {static_cast<py::ssize_t>(nodes), 3}, velocities ? "cable_velocities()" : "cable_nodes()");
    if (velocities) {
        self.scratch().resize(3 * static_cast<size_t>(nodes));
        check(pivot_world_get_cable_nodes(w.handle(), c, self.scratch().data(), a.mutable_data(), nodes));
    } else {
        check(pivot_world_get_cable_nodes(w.handle(), c, a.mutable_data(), nullptr, nodes));
    }
    return a;
}

// A method on one body, joint, cable or rope: f(world, index, ...) bound as
// (World, index or name, ...), the index resolved first. f is a function
// pointer (+[] (...) {...}) so that pybind11 sees the arguments' types.
template <class R, class... Args>
auto on(Kind kind, R (*f)(pivot::sdk::World&, uint32_t, Args...)) {
    return [kind, f](World& self, const py::object& which, Args... rest) -> R {
        const auto use = self.use();
        return f(*use, index_of(*use, which, kind), rest...);
    };
}

}  // namespace

void bind_world(py::module_& m) {
    using W = pivot::sdk::World;
    py::class_<World>(m, "World", R"doc(
One simulated world, made by an Engine (load_scene, scene_from_json,
create_world). SI units throughout, world frame, quaternions (w, x, y, z)
from body to world.

Bodies, joints, cables and ropes are given by index (int, in the order they
were added; indices stay valid after a removal) or by name (str). A failed
call raises pivot.Error with the engine's message and changes nothing.

Threads: a World is used by one thread at a time. step() releases the GIL,
so other Python threads run meanwhile (and other worlds may step
concurrently); calling this World from another thread while it steps raises
pivot.Error, and so does step() while another call on this World has not
returned (one whose argument conversion runs Python: __index__, __float__).
The World keeps its Engine alive.)doc")
        .def_property_readonly("engine", [](const World& self) { return self.engine(); }, "The Engine of this world.")
        // ---------------------------------------------------------------- stepping
        .def(
            "step",
            [](World& self, long long steps) {
                if (steps < 0 || steps > std::numeric_limits<uint32_t>::max()) {
                    throw py::value_error("step(): n must be 0 .. 4294967295, not " + std::to_string(steps));
                }
                self.step(static_cast<uint32_t>(steps));
            },
            py::arg("n") = 1,
            "Advances by n time steps, without the GIL. On failure (pivot.Error) the world is as it was before "
            "the failing step; the earlier steps of the call are kept.")
        .def_property_readonly("time", [](World& self) { return self.use()->time(); }, "Simulated time (s).")
        .def_property_readonly("timestep", [](World& self) { return self.use()->timestep(); }, "Time step (s).")
        // ---------------------------------------------------------------- building
        .def(
            "add_material", [](World& self, const py::kwargs& kw) {
                const auto use = self.use();
                Arena arena;
                use->add_material(material_desc(kw, arena));
            },
            R"doc(Adds a contact material (pivot_material_desc). Keywords: name ("default" replaces the
default material), friction_model (friction plugin id or short name; default "pivot.friction.box"),
friction_params (dict or JSON text of the model's parameters; default {"mu": 0.5}), restitution
([0, 1]), compliance (m/N), damping (N s/m).)doc")
        .def(
            "add_material_pair",
            [](World& self, const py::kwargs& kw) {
                const auto use = self.use();
                Arena arena;
                const pivot_material_pair_desc pair = material_pair_desc(kw, arena);
                check(pivot_world_add_material_pair(use->handle(), &pair));
            },
            R"doc(What contacts between two materials use instead of the combination rule
(pivot_material_pair_desc). Keywords: material1, material2 (names), friction_model, friction_params
(dict or JSON: all of the model's parameters), restitution ([0, 1]), compliance (m/N), damping
(N s/m); each of the last three given replaces the rule's value.)doc")
        .def(
            "add_static_shape", [](World& self, const py::kwargs& kw) {
                const auto use = self.use();
                Arena arena;
                use->add_static_shape(shape_desc(kw, arena, "add_static_shape()"));
            },
            R"doc(Adds a shape fixed in the world (pivot_shape_desc). Keywords: type ("sphere", "box",
"capsule", "cylinder", "plane"), radius (m), length (m, along local z), size (3 full edge lengths, m),
normal (plane: n.x <= offset is solid; default (0, 0, 1)), offset (m), position (m), orientation
(w, x, y, z), material (default "default").)doc")
        .def(
            "add_body",
            [](World& self, const py::kwargs& kw) {
                const auto use = self.use();
                Arena arena;
                return use->add_body(body_desc(kw, arena));
            },
            R"doc(Adds a rigid body (pivot_body_desc) and returns its index. Keywords: name (unique;
omitted: "#<index>"), fixed (bool), mass (kg, default 1), inertia (kg m^2 at the centre of mass, body
frame: 3 principal moments, 9 values row-major or 3 x 3; default identity), position (m, of the centre
of mass), orientation (w, x, y, z), linear_velocity (m/s), angular_velocity (rad/s), shapes (a list of
dicts with the keywords of add_static_shape, positions in the body frame), linear_damping (N s/m),
angular_damping (N m s/rad), friction_params (dict or JSON: the body's own friction values, e.g.
{"mu": 0.3}).)doc")
        .def(
            "add_joint",
            [](World& self, const py::kwargs& kw) {
                const auto use = self.use();
                Arena arena;
                return use->add_joint(joint_desc(kw, arena));
            },
            R"doc(Adds a joint (pivot_joint_desc) and returns its index. Keywords: name, type ("fixed",
"spherical", "revolute", "prismatic", "cylindrical", "universal", "distance" or a joint plugin id),
body1, body2 (body names; default "world"), anchor (m, world), axis (unit; default (1, 0, 0)), axis1,
axis2 (universal), anchor1, anchor2 (distance, m), length (distance, m; negative: the initial
distance), compliance (m/N or rad/(N m)), damping (N s/m or N m s/rad), lower, upper (limits, rad or
m; giving one sets has_limits), motor_velocity (rad/s or m/s), motor_max_force (N m or N),
motor_mode ("velocity", "position" or "force"), motor_position (rad or m), motor_stiffness
(N m/rad or N/m), motor_damping (N m s/rad or N s/m), motor_force (N m or N) (giving any motor_*
sets has_motor), has_limits, has_motor (bool, to say so explicitly), disabled (bool),
break_force (N), break_torque (N m).)doc")
        .def(
            "add_cable",
            [](World& self, const py::kwargs& kw) {
                const auto use = self.use();
                Arena arena;
                return use->add_cable(cable_desc(kw, arena));
            },
            R"doc(Adds an ANCF cable (pivot_cable_desc), a straight chain of equal elements at rest, and
returns its index; each attachment adds a joint "<cable>/attach<k>". Keywords: name, elements (>= 1),
type (element plugin; default "pivot.element.ancf_cable"), start, end (m, world), radius (m), density
(kg/m^3), youngs_modulus (Pa), damping (s: Kelvin-Voigt time constant), geometric_stiffness ([0, 1];
negative: the plugin's default), material, attachments (a list of dicts: node (0 .. elements, or
negative from the end), body (name; default "world"), type ("spherical" or "fixed")), gauss_points,
reel_speed (m/s), min_length, max_length (m).)doc")
        .def(
            "add_rope",
            [](World& self, const py::kwargs& kw) {
                const auto use = self.use();
                Arena arena;
                return use->add_rope(rope_desc(kw, arena));
            },
            R"doc(Adds a massless rope reeved over sheaves (pivot_rope_desc) and returns its index.
Keywords: name, points (a list of dicts: body (name; default "world"), point (m, world), axis (the
sheave's axis), radius (m; 0 for a point)), length (m; 0: the route's length), stiffness (N, EA; 0:
inextensible), damping (N s/m), reel_speed (m/s), min_length, max_length (m).)doc")
        // ---------------------------------------------------------------- names
        .def_property_readonly("body_names", [](World& self) { return names(*self.use(), Kind::body); },
                               "Names of the bodies, by index (removed ones included).")
        .def_property_readonly("joint_names", [](World& self) { return names(*self.use(), Kind::joint); },
                               "Names of the joints, by index (a cable's attachments: \"<cable>/attach<k>\").")
        .def_property_readonly("cable_names", [](World& self) { return names(*self.use(), Kind::cable); },
                               "Names of the cables, by index.")
        .def_property_readonly("rope_names", [](World& self) { return names(*self.use(), Kind::rope); },
                               "Names of the ropes, by index.")
        .def_property_readonly("body_count", [](World& self) { return self.use()->body_count(); },
                               "Number of bodies (removed ones included).")
        .def_property_readonly("joint_count", [](World& self) { return self.use()->joint_count(); },
                               "Number of joints (removed ones included).")
        .def_property_readonly("cable_count", [](World& self) { return self.use()->cable_count(); },
                               "Number of cables (removed ones included).")
        .def_property_readonly("rope_count", [](World& self) { return self.use()->rope_count(); },
                               "Number of ropes (removed ones included).")
        .def(
            "find_body",
            [](World& self, const std::string& name) {
                return self.use()->find_body(c_text(name, "find_body(): name"));
            },
             py::arg("name"), "Index of a body by name (pivot.Error if none).")
        .def(
            "find_joint",
            [](World& self, const std::string& name) {
                return self.use()->find_joint(c_text(name, "find_joint(): name"));
            },
             py::arg("name"), "Index of a joint by name (pivot.Error if none).")
        .def(
            "find_cable",
            [](World& self, const std::string& name) {
                return self.use()->find_cable(c_text(name, "find_cable(): name"));
            },
             py::arg("name"), "Index of a cable by name (pivot.Error if none).")
        .def(
            "find_rope",
            [](World& self, const std::string& name) {
                return self.use()->find_rope(c_text(name, "find_rope(): name"));
            },
             py::arg("name"), "Index of a rope by name (pivot.Error if none).")
        // ---------------------------------------------------------------- bodies
        .def("body_states", [](World& self, const py::object& out) { return body_states(*self.use(), out); },
             py::arg("out") = py::none(), R"doc(
Every body's state as an (n, 13) float64 array, one row per body index:
columns 0-2 position (m, centre of mass), 3-6 orientation (w, x, y, z),
7-9 linear velocity (m/s), 10-12 angular velocity (rad/s, world); rows of
removed bodies are NaN. The engine writes each row directly into the
array's memory (the row is a pivot_body_state); with out= (a C-contiguous
float64 array of that shape) that array is filled and returned, so a loop
reuses one buffer.)doc")
        .def("set_body_states", [](World& self, const py::object& s) { set_body_states(*self.use(), s); },
             py::arg("states"),
             "Teleports every body: an (n, 13) array in the layout of body_states(); rows starting with NaN "
             "(removed bodies) are skipped. A row the engine refuses raises pivot.Error with no body changed.")
        .def(
            "body_state",
            on(Kind::body,
               +[](W& w, uint32_t b) {
                   Array a(13);
                   check(pivot_world_get_body(w.handle(), b, reinterpret_cast<pivot_body_state*>(a.mutable_data())));
                   py::dict d;
                   d["position"] = a[py::slice(0, 3, 1)];
                   d["orientation"] = a[py::slice(3, 7, 1)];
                   d["linear_velocity"] = a[py::slice(7, 10, 1)];
                   d["angular_velocity"] = a[py::slice(10, 13, 1)];
                   return d;
               }),
            py::arg("body"),
            "A body's state: a dict of position (3,) m, orientation (4,) w x y z, linear_velocity (3,) m/s and "
            "angular_velocity (3,) rad/s, world frame (views of one 13-value array the engine filled).")
        .def("body_position", on(Kind::body, +[](W& w, uint32_t b) { return copy_of(w.body(b).position.data(), 3); }),
             py::arg("body"), "A body's centre of mass (3,), m, world.")
        .def("body_orientation",
             on(Kind::body, +[](W& w, uint32_t b) { return copy_of(w.body(b).orientation.data(), 4); }),
             py::arg("body"), "A body's orientation (4,): unit quaternion w, x, y, z, body to world.")
        .def("body_linear_velocity",
             on(Kind::body, +[](W& w, uint32_t b) { return copy_of(w.body(b).linear_velocity.data(), 3); }),
             py::arg("body"), "A body's centre of mass velocity (3,), m/s, world.")
        .def("body_angular_velocity",
             on(Kind::body, +[](W& w, uint32_t b) { return copy_of(w.body(b).angular_velocity.data(), 3); }),
             py::arg("body"), "A body's angular velocity (3,), rad/s, world.")
        .def(
            "set_body_state",
            [](World& self, const py::object& body, const py::object& position, const py::object& orientation,
               const py::object& linear_velocity, const py::object& angular_velocity) {
                const auto use = self.use();
                W& w = *use;
                const uint32_t b = index_of(w, body, Kind::body);
                pivot_body_state s{};
                check(pivot_world_get_body(w.handle(), b, &s));
                if (!position.is_none()) numbers(position, "set_body_state(): position", s.position, 3);
                if (!orientation.is_none()) numbers(orientation, "set_body_state(): orientation", s.orientation, 4);
                if (!linear_velocity.is_none()) {
                    numbers(linear_velocity, "set_body_state(): linear_velocity", s.linear_velocity, 3);
                }
                if (!angular_velocity.is_none()) {
                    numbers(angular_velocity, "set_body_state(): angular_velocity", s.angular_velocity, 3);
                }
                check(pivot_world_set_body(w.handle(), b, &s));
            },
            py::arg("body"), py::kw_only(), py::arg("position") = py::none(), py::arg("orientation") = py::none(),
            py::arg("linear_velocity") = py::none(), py::arg("angular_velocity") = py::none(),
            "Teleports a body: the values given replace its position (m), orientation (w, x, y, z; a norm within "
            "1 +- 1e-3 is normalized, one farther off refused), linear velocity (m/s), angular velocity (rad/s); "
            "the others are kept.")
        .def(
            "set_body_force",
            [](World& self, const py::object& body, const py::object& force, const py::object& torque) {
                const auto use = self.use();
                W& w = *use;
                const uint32_t b = index_of(w, body, Kind::body);
                w.set_body_force(b, vector3(force, "set_body_force(): force"),
                                 vector3(torque, "set_body_force(): torque"));
            },
            py::arg("body"), py::arg("force") = std::vector<double>{0, 0, 0},
            py::arg("torque") = std::vector<double>{0, 0, 0},
            "A force (N) at the centre of mass and a torque (N m), world frame, applied in every following step "
            "until changed (zeros remove them).")
        .def("set_body_damping",
             on(Kind::body, +[](W& w, uint32_t b, double linear, double angular) {
                 w.set_body_damping(b, linear, angular);
             }),
             py::arg("body"), py::arg("linear"), py::arg("angular"),
             "A body's viscous damping from the next step on: linear (N s/m) and angular (N m s/rad), 0 .. 1e12.")
        .def(
            "set_body_friction",
            [](World& self, const py::object& body, const py::object& params) {
                const auto use = self.use();
                W& w = *use;
                const uint32_t b = index_of(w, body, Kind::body);
                Arena arena;
                check(pivot_world_set_body_friction(w.handle(), b, json_text(params, arena, "set_body_friction()")));
            },
            py::arg("body"), py::arg("params"),
            "A body's own friction-model parameters from the next step on (a dict or JSON text such as "
            "{\"mu\": 0.3}; None or {}: none), replacing its materials' in every contact it makes.")
        .def("set_body_enabled",
             on(Kind::body, +[](W& w, uint32_t b, bool enabled) { w.set_body_enabled(b, enabled); }),
             py::arg("body"), py::arg("enabled"),
             "Turns a body on or off between steps: a disabled body stays where it is, collides with nothing, "
             "and the joints attached to it act no more.")
        .def("body_enabled",
             on(Kind::body,
                +[](W& w, uint32_t b) {
                    uint32_t enabled = 0;
                    check(pivot_world_body_enabled(w.handle(), b, &enabled));
                    return enabled != 0;
                }),
             py::arg("body"), "Whether a body is enabled.")
        .def("remove_body", on(Kind::body, +[](W& w, uint32_t b) { w.remove_body(b); }), py::arg("body"),
             "Takes a body (with its joints and the ropes through it) out of the world; indices stay as they were.")
        // ---------------------------------------------------------------- joints
        .def("joint_coordinate",
             on(Kind::joint,
                +[](W& w, uint32_t j) {
                    const auto [position, rate] = w.joint_coordinate(j);
                    return py::make_tuple(position, rate);
                }),
             py::arg("joint"),
             "(position, rate) of a joint's free coordinate: rad and rad/s, or m and m/s; pivot.Error for a "
             "joint type without one.")
        .def("joint_reaction",
             on(Kind::joint,
                +[](W& w, uint32_t j) {
                    const pivot_joint_reaction r = w.joint_reaction(j);
                    py::dict d;
                    d["force"] = copy_of(r.force, 3);
                    d["torque"] = copy_of(r.torque, 3);
                    d["position_error"] = r.position_error;
                    return d;
                }),
             py::arg("joint"),
             "The joint's reaction in the last step: force (3,) N on body 2 at its joint frame and torque (3,) "
             "N m about that point, world; position_error: the largest violation of its rows after the step (m "
             "or rad).")
        .def("joint_motor_effort", on(Kind::joint, +[](W& w, uint32_t j) { return w.joint_motor_effort(j); }),
             py::arg("joint"),
             "The motor's own force (N) or torque (N m) along the free coordinate in the last step; positive "
             "drives the coordinate up. 0 without a motor.")
        .def("set_motor_velocity",
             on(Kind::joint, +[](W& w, uint32_t j, double v) { w.set_motor_velocity(j, v); }), py::arg("joint"),
             py::arg("velocity"), "Velocity mode's target (rad/s or m/s) of a joint's motor, from the next step.")
        .def("set_motor_position",
             on(Kind::joint, +[](W& w, uint32_t j, double p) { w.set_motor_position(j, p); }), py::arg("joint"),
             py::arg("position"), "Position mode's target (rad or m) of a joint's motor, from the next step.")
        .def("set_motor_force", on(Kind::joint, +[](W& w, uint32_t j, double f) { w.set_motor_force(j, f); }),
             py::arg("joint"), py::arg("force"),
             "Force mode's force (N m or N) of a joint's motor, from the next step.")
        .def("set_joint_enabled",
             on(Kind::joint,
                +[](W& w, uint32_t j, bool enabled, bool at_current_pose) {
                    w.set_joint_enabled(j, enabled, at_current_pose);
                }),
             py::arg("joint"), py::arg("enabled"), py::arg("at_current_pose") = false,
             "Turns a joint on or off between steps; at_current_pose (when enabling): the joint holds the "
             "bodies where they are now.")
        .def("joint_enabled",
             on(Kind::joint,
                +[](W& w, uint32_t j) {
                    const auto [enabled, broken] = w.joint_enabled(j);
                    return py::make_tuple(enabled, broken);
                }),
             py::arg("joint"), "(enabled, broken): whether a joint is on, and whether its break threshold took it off.")
        .def("remove_joint", on(Kind::joint, +[](W& w, uint32_t j) { w.remove_joint(j); }), py::arg("joint"),
             "Takes a joint out of the world; indices stay as they were.")
        // ---------------------------------------------------------------- cables and ropes
        .def("cable_node_count", on(Kind::cable, +[](W& w, uint32_t c) { return node_count(w, c); }),
             py::arg("cable"), "Nodes of a cable (elements + 1).")
        .def(
            "cable_nodes",
            [](World& self, const py::object& cable, const py::object& out) {
                return cable_nodes(self, cable, out, false);
            },
            py::arg("cable"), py::arg("out") = py::none(), R"doc(
The centreline at every node of a cable: an (nodes, 3) float64 array of
positions (m, world), written by the engine directly into the array's
memory. With out= (a C-contiguous float64 array of that shape) that array
is filled in place and returned: no allocation per frame.)doc")
        .def(
            "cable_velocities",
            [](World& self, const py::object& cable, const py::object& out) {
                return cable_nodes(self, cable, out, true);
            },
            py::arg("cable"), py::arg("out") = py::none(),
            "The velocity (m/s, world) at every node of a cable, (nodes, 3), written like cable_nodes().")
        .def("cable_length", on(Kind::cable, +[](W& w, uint32_t c) { return w.cable_length(c); }), py::arg("cable"),
             "A cable's deployed length (m, the sum of its elements' reference lengths).")
        .def("set_cable_reel_speed",
             on(Kind::cable, +[](W& w, uint32_t c, double speed) { w.set_cable_reel_speed(c, speed); }),
             py::arg("cable"), py::arg("speed"),
             "The winch: the speed (m/s) at which the deployed length changes from the next step (> 0 pays out, "
             "< 0 reels in), stopping at the cable's min_length and max_length.")
        .def("remove_cable", on(Kind::cable, +[](W& w, uint32_t c) { w.remove_cable(c); }), py::arg("cable"),
             "Takes a cable (with its attachment joints) out of the world.")
        .def("rope_state",
             on(Kind::rope,
                +[](W& w, uint32_t r) {
                    const pivot_rope_state s = w.rope(r);
                    py::dict d;
                    d["length"] = s.length;
                    d["path_length"] = s.path_length;
                    d["tension"] = s.tension;
                    d["point_count"] = s.point_count;
                    return d;
                }),
             py::arg("rope"),
             "A rope now: length (m, unstretched), path_length (m), tension (N, of the last step; 0 when "
             "slack), point_count (route points).")
        .def(
            "rope_path",
            [](World& self, const py::object& rope, const py::object& out) {
                const auto use = self.use();
                W& w = *use;
                const uint32_t r = index_of(w, rope, Kind::rope);
                const uint32_t points = 2 * w.rope(r).point_count;
                Array a = output(out, {static_cast<py::ssize_t>(points), 3}, "rope_path()");
                check(pivot_world_get_rope_path(w.handle(), r, a.mutable_data(), points));
                return a;
            },
            py::arg("rope"), py::arg("out") = py::none(),
            "The rope's path now, for drawing: (2 x route points, 3), m, world: where it arrives at and leaves "
            "each route point (the tangent points of a sheave).")
        .def("set_rope_reel_speed",
             on(Kind::rope, +[](W& w, uint32_t r, double speed) { w.set_rope_reel_speed(r, speed); }),
             py::arg("rope"), py::arg("speed"),
             "The rope's winch speed (m/s; > 0 pays out, < 0 reels in), from the next step.")
        .def("remove_rope", on(Kind::rope, +[](W& w, uint32_t r) { w.remove_rope(r); }), py::arg("rope"),
             "Takes a rope out of the world.")
        .def(
            "is_removed",
            [](World& self, const std::string& kind, long long index) {
                const auto use = self.use();
                W& w = *use;
                if (index < 0 || index > std::numeric_limits<uint32_t>::max()) return false;
                return pivot_world_removed(w.handle(), object_kind(kind), static_cast<uint32_t>(index)) != 0;
            },
            py::arg("kind"), py::arg("index"),
            "Whether the \"body\", \"joint\", \"cable\" or \"rope\" of that index was removed.")
        // ---------------------------------------------------------------- contacts and statistics
        .def("contacts", [](World& self) { return contacts(*self.use()); }, R"doc(
The contacts of the last step as a NumPy structured array, one record per
contact: body1, body2 (int32 body index; -1 for the world's static shapes
or a cable), point (3,) m, normal (3,) unit from body 1 to body 2, depth (m,
> 0 penetrating), normal_force (N on body 2), friction (3,) N tangential
force on body 2, flags (CONTACT_SPECULATIVE: did not touch at the step's
start; CONTACT_FORCE: carried a normal force), cable1, cable2 (the cable
index of a side that is a cable, else -1).)doc")
        .def("statistics", [](World& self) { return statistics(*self.use()); }, R"doc(
The last step's statistics (pivot_world_statistics) as a dict: islands,
rows, solver_failures, fallbacks, solver_iterations, solver_residual (N s),
max_joint_error (m or rad), step_seconds (s, wall time), kinetic_energy,
potential_energy, energy_excess (J), diverging (bool), stage_seconds (a dict
of the step's stages in pipeline order, s, summing to step_seconds),
budget_limited, large_islands, contacts_dropped, substeps, joints_broken.)doc")
        // ---------------------------------------------------------------- solvers and state
        .def(
            "set_solver",
            [](World& self, const std::string& solver, const py::object& options) {
                const auto use = self.use();
                W& w = *use;
                Arena arena;
                const char* options_text = json_text(options, arena, "set_solver(): options");
                check(pivot_world_set_solver(w.handle(), c_text(solver, "set_solver(): solver").c_str(), options_text));
            },
            py::arg("solver"), py::arg("options") = py::none(),
            "Swaps the solver between two steps (plugin id or short name; options: dict or JSON text of its "
            "parameters); the warm start is kept. Refused, world unchanged, for an unknown solver or bad options.")
        .def(
            "set_fallback",
            [](World& self, const std::vector<std::string>& solvers) {
                const auto use = self.use();
                for (const std::string& solver : solvers) c_text(solver, "set_fallback(): solvers");
                use->set_fallback(solvers);
            },
            py::arg("solvers"), "The solvers tried in order when the primary one fails (ids or short names).")
        .def_property_readonly(
            "solver",
            [](World& self) -> py::object {
                const char* id = pivot_world_solver(self.use()->handle());
                return id != nullptr ? py::str(id) : py::object(py::none());
            },
            "The registered id of the solver that takes every island (\"pivot.solver.pgs\"), or None while the "
            "engine chooses per island.")
        .def("save_state", [](World& self) { return save_state(*self.use()); }, R"doc(
The complete state (time, poses, velocities, forces, motor targets, warm
starts, contact memory) as bytes, for restore_state() on this world or one
built the same way, with the same engine version.)doc")
        .def("restore_state", [](World& self, const py::object& state) { restore_state(*self.use(), state); },
             py::arg("state"),
             "Restores bytes from save_state(): the world then continues bitwise as it did after the save. A "
             "state of another world is refused (pivot.Error), the world unchanged.")
        .def("__repr__", [](World& self) {
            const auto use = self.use();
            W& w = *use;
            return "<pivot.World: " + std::to_string(w.body_count()) + " bodies, " + std::to_string(w.joint_count()) +
                   " joints, " + std::to_string(w.cable_count()) + " cables, t = " + py::str(py::float_(w.time()))
                   .cast<std::string>() + " s>";
        });
}

}  // namespace pivot::python
