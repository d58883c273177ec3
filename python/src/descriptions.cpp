// Keyword arguments into the *_desc structs of pivot.h: each struct's _init
// defaults first, then one setter per keyword, named and typed as the C
// field (units in pivot.h and in the docstrings of world.cpp).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings.hpp"

namespace pivot::python {
namespace {

std::string type_name(py::handle value) { return Py_TYPE(value.ptr())->tp_name; }

int64_t integer(py::handle value, const std::string& where, int64_t low, int64_t high) {
    PyObject* index = PyNumber_Index(value.ptr());
    if (index == nullptr) {
        // Not an integer: our message; what else an __index__ raised is its own.
        if (PyErr_ExceptionMatches(PyExc_TypeError) == 0) throw py::error_already_set();
        PyErr_Clear();
        throw py::type_error(where + ": an integer, not " + type_name(value));
    }
    int overflow = 0;
    const long long x = PyLong_AsLongLongAndOverflow(index, &overflow);
    Py_DECREF(index);
    if (overflow != 0 || x < low || x > high) {
        throw py::value_error(where + ": " + py::str(value).cast<std::string>() + " is outside " +
                              std::to_string(low) + " .. " + std::to_string(high));
    }
    return x;
}

uint32_t unsigned32(py::handle value, const std::string& where) {
    return static_cast<uint32_t>(integer(value, where, 0, std::numeric_limits<uint32_t>::max()));
}

bool flag(py::handle value, const std::string& where) {
    const int truth = PyObject_IsTrue(value.ptr());
    if (truth < 0) {
        PyErr_Clear();
        throw py::type_error(where + ": a bool, not " + type_name(value));
    }
    return truth != 0;
}

py::sequence sequence(py::handle value, const std::string& where, const char* of) {
    if (py::isinstance<py::str>(value) || py::isinstance<py::bytes>(value) || PySequence_Check(value.ptr()) == 0) {
        throw py::type_error(where + ": " + of + ", not " + type_name(value));
    }
    return py::reinterpret_borrow<py::sequence>(value);
}

// An inertia tensor: 9 values row-major, a 3 x 3 nested sequence (a NumPy
// array), or the 3 principal moments of a diagonal one (as scene files allow).
void inertia(py::handle value, const std::string& where, double (&out)[9]) {
    const py::sequence s = sequence(value, where, "3 or 9 numbers or 3 x 3");
    if (s.size() == 9) return numbers(value, where, out, 9);
    if (s.size() != 3) throw py::value_error(where + ": 3 or 9 numbers or 3 x 3, not " + std::to_string(s.size()));
    const bool nested = PySequence_Check(s[0].ptr()) != 0;
    std::fill(std::begin(out), std::end(out), 0.0);
    for (size_t r = 0; r < 3; ++r) {
        const std::string row = where + "[" + std::to_string(r) + "]";
        if (nested) {
            numbers(s[r], row, out + 3 * r, 3);
        } else {
            out[4 * r] = number(s[r], row);
        }
    }
}

// The fields of one struct by keyword, applied to a _init-filled struct.
template <class Desc>
class Fields {
public:
    using Setter = std::function<void(Desc&, py::handle, Arena&, const std::string&)>;

    Fields& add(const char* name, Setter set) {
        entries_.emplace_back(name, std::move(set));
        return *this;
    }
    Fields& real(const char* name, double Desc::*field) {
        return add(name, [field](Desc& d, py::handle v, Arena&, const std::string& w) { d.*field = number(v, w); });
    }
    template <size_t N>
    Fields& reals(const char* name, double (Desc::*field)[N]) {
        return add(name, [field](Desc& d, py::handle v, Arena&, const std::string& w) { numbers(v, w, d.*field, N); });
    }
    Fields& count(const char* name, uint32_t Desc::*field) {
        return add(name, [field](Desc& d, py::handle v, Arena&, const std::string& w) { d.*field = unsigned32(v, w); });
    }
    Fields& boolean(const char* name, uint32_t Desc::*field) {
        return add(name, [field](Desc& d, py::handle v, Arena&, const std::string& w) { d.*field = flag(v, w); });
    }
    Fields& text(const char* name, const char* Desc::*field) {
        return add(name, [field](Desc& d, py::handle v, Arena& a, const std::string& w) {
            if (v.is_none()) {
                d.*field = nullptr;
            } else if (py::isinstance<py::str>(v)) {
                d.*field = a.keep(c_text(v.cast<std::string>(), w));
            } else {
                throw py::type_error(w + ": a str, not " + type_name(v));
            }
        });
    }
    Fields& json(const char* name, const char* Desc::*field) {
        return add(name,
                   [field](Desc& d, py::handle v, Arena& a, const std::string& w) { d.*field = json_text(v, a, w); });
    }

    // `what` is the call ("add_body()") or the place ("add_body() shapes[1]") for the messages.
    void apply(Desc& desc, const py::dict& kwargs, Arena& arena, const std::string& what) const {
        for (const auto& [key, value] : kwargs) {
            const std::string name = py::str(key).cast<std::string>();
            const auto entry = std::find_if(entries_.begin(), entries_.end(),
                                            [&](const auto& e) { return name == e.first; });
            if (entry == entries_.end()) {
                std::string known;
                for (const auto& e : entries_) known += (known.empty() ? "" : ", ") + std::string(e.first);
                throw py::type_error(what + " got an unexpected keyword argument '" + name + "' (its keywords: " +
                                     known + ")");
            }
            entry->second(desc, value, arena, what + " " + name);
        }
    }

private:
    std::vector<std::pair<const char*, Setter>> entries_;
};

// A list of dicts of keywords (a body's shapes, a cable's attachments, a
// rope's points) into an array kept by the arena.
template <class T, class Make>
std::vector<T>& list_of(py::handle value, Arena& arena, const std::string& where, Make make) {
    const py::sequence s = sequence(value, where, "a list of dicts");
    std::vector<T>& out = arena.array<T>();
    for (size_t k = 0; k < s.size(); ++k) {
        const std::string item = where + "[" + std::to_string(k) + "]";
        const py::object entry = s[k];
        if (!py::isinstance<py::dict>(entry)) {
            throw py::type_error(item + ": a dict of keywords, not " + type_name(entry));
        }
        out.push_back(make(entry.cast<py::dict>(), item));
    }
    return out;
}

const Fields<pivot_shape_desc>& shape_fields() {
    static const auto fields = Fields<pivot_shape_desc>()
                                   .text("type", &pivot_shape_desc::type)
                                   .real("radius", &pivot_shape_desc::radius)
                                   .real("length", &pivot_shape_desc::length)
                                   .reals("size", &pivot_shape_desc::size)
                                   .reals("normal", &pivot_shape_desc::normal)
                                   .real("offset", &pivot_shape_desc::offset)
                                   .reals("position", &pivot_shape_desc::position)
                                   .reals("orientation", &pivot_shape_desc::orientation)
                                   .text("material", &pivot_shape_desc::material);
    return fields;
}

// A NumPy array whose elements convert to double by a cast (bool, integers,
// floats) as one C-contiguous float64 array (itself, or a copy); nothing for
// anything else. Object arrays go element by element like a list, so that
// one of numbers converts and one of strings is refused as a list of them.
std::optional<py::array_t<double, py::array::c_style>> real_array(py::handle value, const std::string& where) {
    // An ndarray exists only once NumPy is imported; asking pybind11 before that would import it for a tuple
    // (import pivot and create_world(gravity=(0, 0, -9.81)) do not need NumPy).
    if (PyDict_GetItemString(PyImport_GetModuleDict(), "numpy") == nullptr || !py::isinstance<py::array>(value)) {
        return std::nullopt;
    }
    const py::dtype dtype = py::reinterpret_borrow<py::array>(value).dtype();
    const char kind = dtype.kind();
    if (kind == 'O') return std::nullopt;
    if (kind != 'b' && kind != 'i' && kind != 'u' && kind != 'f') {
        // Strings, complex numbers (NumPy's cast would drop the imaginary part), dates, records.
        throw py::type_error(where + ": numbers, not an array of " + py::str(py::handle(dtype)).cast<std::string>());
    }
    const py::array converted = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
    if (!converted) throw py::error_already_set();
    if ((converted.flags() & py::detail::npy_api::NPY_ARRAY_ALIGNED_) != 0) {
        return py::reinterpret_borrow<py::array_t<double, py::array::c_style>>(converted);
    }
    // A C-contiguous float64 view at an odd address (np.frombuffer(b, offset=1)) passes as it is: copied byte by
    // byte into an aligned array, since reading a double at a misaligned address is undefined behaviour.
    py::array_t<double, py::array::c_style> copy(
        std::vector<py::ssize_t>(converted.shape(), converted.shape() + converted.ndim()));
    std::memcpy(copy.mutable_data(), converted.data(), static_cast<size_t>(converted.nbytes()));
    return copy;
}

}  // namespace

const std::string& c_text(const std::string& text, const std::string& where) {
    if (text.find('\0') != std::string::npos) {
        throw py::value_error(where + ": text without NUL characters (C would read only the part before the first)");
    }
    return text;
}

double number(py::handle value, const std::string& where) {
    // PyFloat_AsDouble takes __float__ and __index__, never parses text (float("1") would). Refused before it:
    // a str or bytes subclass with a __float__, and NumPy's complex scalars (a complex whose __float__ drops the
    // imaginary part).
    if (PyUnicode_Check(value.ptr()) || PyBytes_Check(value.ptr()) || PyComplex_Check(value.ptr())) {
        throw py::type_error(where + ": a real number, not " + type_name(value));
    }
    const double x = PyFloat_AsDouble(value.ptr());
    if (x == -1.0 && PyErr_Occurred() != nullptr) {
        // Not a number: our message; what else a __float__ or __index__ raised is its own.
        if (PyErr_ExceptionMatches(PyExc_TypeError) == 0) throw py::error_already_set();
        PyErr_Clear();
        throw py::type_error(where + ": a number, not " + type_name(value));
    }
    return x;
}

void numbers(py::handle value, const std::string& where, double* out, size_t count) {
    const std::string of = std::to_string(count) + " numbers";
    if (auto array = real_array(value, where)) {
        if (array->ndim() != 1 || static_cast<size_t>(array->shape(0)) != count) {
            throw py::value_error(where + ": " + of + ", not an array of shape " +
                                  py::str(array->attr("shape")).cast<std::string>());
        }
        std::copy_n(array->data(), count, out);
        return;
    }
    const py::sequence s = sequence(value, where, of.c_str());
    if (s.size() != count) throw py::value_error(where + ": " + of + ", not " + std::to_string(s.size()));
    for (size_t k = 0; k < count; ++k) out[k] = number(s[k], where + "[" + std::to_string(k) + "]");
}

std::array<double, 3> vector3(py::handle value, const std::string& where) {
    std::array<double, 3> v{};
    numbers(value, where, v.data(), 3);
    return v;
}

py::array_t<double, py::array::c_style> number_rows(py::handle value, const std::string& where, size_t rows,
                                                    size_t columns) {
    const std::string shape = "(" + std::to_string(rows) + ", " + std::to_string(columns) + ")";
    if (auto array = real_array(value, where)) {
        if (array->ndim() != 2 || static_cast<size_t>(array->shape(0)) != rows ||
            static_cast<size_t>(array->shape(1)) != columns) {
            throw py::value_error(where + ": an array of shape " + shape + ", not " +
                                  py::str(array->attr("shape")).cast<std::string>());
        }
        return *array;
    }
    const py::sequence s = sequence(value, where, ("an array of shape " + shape).c_str());
    if (s.size() != rows) {
        throw py::value_error(where + ": " + std::to_string(rows) + " rows of " + std::to_string(columns) +
                              " numbers, not " + std::to_string(s.size()) + " rows");
    }
    py::array_t<double, py::array::c_style> out({static_cast<py::ssize_t>(rows), static_cast<py::ssize_t>(columns)});
    for (size_t r = 0; r < rows; ++r) {
        numbers(s[r], where + "[" + std::to_string(r) + "]", out.mutable_data() + r * columns, columns);
    }
    return out;
}

const char* json_text(py::handle value, Arena& arena, const std::string& what) {
    if (value.is_none()) return nullptr;
    if (py::isinstance<py::str>(value)) return arena.keep(c_text(value.cast<std::string>(), what));
    try {
        return arena.keep(py::module_::import("json").attr("dumps")(value).cast<std::string>());
    } catch (py::error_already_set& e) {
        throw py::type_error(what + ": JSON text or a JSON-able value (a dict): " + std::string(e.what()));
    }
}

pivot_world_settings world_settings(const py::dict& kwargs, Arena& arena) {
    using S = pivot_world_settings;
    static const auto fields = Fields<S>()
                                   .real("timestep", &S::timestep)
                                   .reals("gravity", &S::gravity)
                                   .text("solver", &S::solver)
                                   .json("solver_options", &S::solver_options)
                                   .count("stabilization", &S::stabilization)
                                   .real("divergence_energy", &S::divergence_energy)
                                   .real("divergence_joint_error", &S::divergence_joint_error)
                                   .real("step_budget", &S::step_budget)
                                   .count("threads", &S::threads)
                                   .count("large_island_rows", &S::large_island_rows)
                                   .count("large_island_sweeps", &S::large_island_sweeps)
                                   .real("step_time_limit", &S::step_time_limit)
                                   .real("solver_acceptance", &S::solver_acceptance)
                                   .real("contact_margin", &S::contact_margin)
                                   .real("contact_regularization", &S::contact_regularization)
                                   .real("restitution_threshold", &S::restitution_threshold);
    S s;
    pivot_world_settings_init(&s);
    fields.apply(s, kwargs, arena, "create_world()");
    return s;
}

pivot_material_desc material_desc(const py::dict& kwargs, Arena& arena) {
    using M = pivot_material_desc;
    static const auto fields = Fields<M>()
                                   .text("name", &M::name)
                                   .text("friction_model", &M::friction_model)
                                   .json("friction_params", &M::friction_params)
                                   .real("restitution", &M::restitution)
                                   .real("compliance", &M::compliance)
                                   .real("damping", &M::damping);
    M m;
    pivot_material_desc_init(&m);
    fields.apply(m, kwargs, arena, "add_material()");
    return m;
}

pivot_material_pair_desc material_pair_desc(const py::dict& kwargs, Arena& arena) {
    using P = pivot_material_pair_desc;
    // Giving restitution, compliance or damping is what sets its override bit.
    const auto overriding = [](double P::*field, uint32_t bit) {
        return [field, bit](P& p, py::handle v, Arena&, const std::string& w) {
            p.*field = number(v, w);
            p.overrides |= bit;
        };
    };
    static const auto fields = Fields<P>()
                                   .text("material1", &P::material1)
                                   .text("material2", &P::material2)
                                   .text("friction_model", &P::friction_model)
                                   .json("friction_params", &P::friction_params)
                                   .add("restitution", overriding(&P::restitution, PIVOT_PAIR_RESTITUTION))
                                   .add("compliance", overriding(&P::compliance, PIVOT_PAIR_COMPLIANCE))
                                   .add("damping", overriding(&P::damping, PIVOT_PAIR_DAMPING));
    P p;
    pivot_material_pair_desc_init(&p);
    fields.apply(p, kwargs, arena, "add_material_pair()");
    return p;
}

pivot_shape_desc shape_desc(const py::dict& kwargs, Arena& arena, const char* what) {
    pivot_shape_desc s;
    pivot_shape_desc_init(&s);
    shape_fields().apply(s, kwargs, arena, what);
    return s;
}

pivot_body_desc body_desc(const py::dict& kwargs, Arena& arena) {
    using B = pivot_body_desc;
    static const auto fields =
        Fields<B>()
            .text("name", &B::name)
            .boolean("fixed", &B::fixed)
            .real("mass", &B::mass)
            .add("inertia", [](B& b, py::handle v, Arena&, const std::string& w) { inertia(v, w, b.inertia); })
            .reals("position", &B::position)
            .reals("orientation", &B::orientation)
            .reals("linear_velocity", &B::linear_velocity)
            .reals("angular_velocity", &B::angular_velocity)
            .add("shapes",
                 [](B& b, py::handle v, Arena& a, const std::string& w) {
                     const auto& shapes =
                         list_of<pivot_shape_desc>(v, a, w, [&a](const py::dict& d, const std::string& at) {
                             pivot_shape_desc s;
                             pivot_shape_desc_init(&s);
                             shape_fields().apply(s, d, a, at);
                             return s;
                         });
                     b.shapes = shapes.empty() ? nullptr : shapes.data();
                     b.shape_count = static_cast<uint32_t>(shapes.size());
                 })
            .real("linear_damping", &B::linear_damping)
            .real("angular_damping", &B::angular_damping)
            .json("friction_params", &B::friction_params);
    B b;
    pivot_body_desc_init(&b);
    fields.apply(b, kwargs, arena, "add_body()");
    return b;
}

pivot_joint_desc joint_desc(const py::dict& kwargs, Arena& arena) {
    using J = pivot_joint_desc;
    static const auto fields =
        Fields<J>()
            .text("name", &J::name)
            .text("type", &J::type)
            .text("body1", &J::body1)
            .text("body2", &J::body2)
            .reals("anchor", &J::anchor)
            .reals("axis", &J::axis)
            .reals("axis1", &J::axis1)
            .reals("axis2", &J::axis2)
            .reals("anchor1", &J::anchor1)
            .reals("anchor2", &J::anchor2)
            .real("length", &J::length)
            .real("compliance", &J::compliance)
            .real("damping", &J::damping)
            .boolean("has_limits", &J::has_limits)
            .boolean("has_motor", &J::has_motor)
            .real("lower", &J::lower)
            .real("upper", &J::upper)
            .real("motor_velocity", &J::motor_velocity)
            .real("motor_max_force", &J::motor_max_force)
            .add("motor_mode",
                 [](J& j, py::handle v, Arena&, const std::string& w) {
                     if (!py::isinstance<py::str>(v)) {
                         j.motor_mode = static_cast<uint32_t>(integer(v, w, PIVOT_MOTOR_VELOCITY, PIVOT_MOTOR_FORCE));
                         return;
                     }
                     const std::string mode = v.cast<std::string>();
                     if (mode == "velocity") j.motor_mode = PIVOT_MOTOR_VELOCITY;
                     else if (mode == "position") j.motor_mode = PIVOT_MOTOR_POSITION;
                     else if (mode == "force") j.motor_mode = PIVOT_MOTOR_FORCE;
                     else throw py::value_error(w + ": '" + mode + "': one of velocity, position, force");
                 })
            .real("motor_position", &J::motor_position)
            .real("motor_stiffness", &J::motor_stiffness)
            .real("motor_damping", &J::motor_damping)
            .real("motor_force", &J::motor_force)
            .boolean("disabled", &J::disabled)
            .real("break_force", &J::break_force)
            .real("break_torque", &J::break_torque);
    J j;
    pivot_joint_desc_init(&j);
    fields.apply(j, kwargs, arena, "add_joint()");
    // Limits or motor values given mean limits or a motor, unless has_limits / has_motor say otherwise.
    if (!kwargs.contains("has_limits")) j.has_limits = kwargs.contains("lower") || kwargs.contains("upper");
    if (!kwargs.contains("has_motor")) {
        for (const char* key : {"motor_velocity", "motor_max_force", "motor_mode", "motor_position",
                                "motor_stiffness", "motor_damping", "motor_force"}) {
            if (kwargs.contains(key)) j.has_motor = 1;
        }
    }
    return j;
}

pivot_cable_desc cable_desc(const py::dict& kwargs, Arena& arena) {
    using C = pivot_cable_desc;
    static const auto attachment_fields =
        Fields<pivot_cable_attachment>()
            .add("node",
                 [](pivot_cable_attachment& a, py::handle v, Arena&, const std::string& w) {
                     a.node = integer(v, w, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
                 })
            .text("body", &pivot_cable_attachment::body)
            .text("type", &pivot_cable_attachment::type);
    static const auto fields =
        Fields<C>()
            .count("elements", &C::elements)
            .text("name", &C::name)
            .text("type", &C::type)
            .reals("start", &C::start)
            .reals("end", &C::end)
            .real("radius", &C::radius)
            .real("density", &C::density)
            .real("youngs_modulus", &C::youngs_modulus)
            .real("damping", &C::damping)
            .real("geometric_stiffness", &C::geometric_stiffness)
            .text("material", &C::material)
            .add("attachments",
                 [](C& c, py::handle v, Arena& a, const std::string& w) {
                     const auto& list =
                         list_of<pivot_cable_attachment>(v, a, w, [&a](const py::dict& d, const std::string& at) {
                             pivot_cable_attachment attachment{};
                             attachment_fields.apply(attachment, d, a, at);
                             return attachment;
                         });
                     c.attachments = list.empty() ? nullptr : list.data();
                     c.attachment_count = static_cast<uint32_t>(list.size());
                 })
            .count("gauss_points", &C::gauss_points)
            .real("reel_speed", &C::reel_speed)
            .real("min_length", &C::min_length)
            .real("max_length", &C::max_length);
    C c;
    pivot_cable_desc_init(&c);
    fields.apply(c, kwargs, arena, "add_cable()");
    return c;
}

pivot_rope_desc rope_desc(const py::dict& kwargs, Arena& arena) {
    using R = pivot_rope_desc;
    using P = pivot_rope_point;
    static const auto point_fields =
        Fields<P>().text("body", &P::body).reals("point", &P::point).reals("axis", &P::axis).real("radius", &P::radius);
    static const auto fields =
        Fields<R>()
            .text("name", &R::name)
            .add("points",
                 [](R& r, py::handle v, Arena& a, const std::string& w) {
                     const auto& list = list_of<P>(v, a, w, [&a](const py::dict& d, const std::string& at) {
                         P point{};
                         point_fields.apply(point, d, a, at);
                         return point;
                     });
                     r.points = list.empty() ? nullptr : list.data();
                     r.point_count = static_cast<uint32_t>(list.size());
                 })
            .real("length", &R::length)
            .real("stiffness", &R::stiffness)
            .real("damping", &R::damping)
            .real("reel_speed", &R::reel_speed)
            .real("min_length", &R::min_length)
            .real("max_length", &R::max_length);
    R r;
    pivot_rope_desc_init(&r);
    fields.apply(r, kwargs, arena, "add_rope()");
    return r;
}

}  // namespace pivot::python
