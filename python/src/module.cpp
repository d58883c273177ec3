// The extension module pivot._pivot (re-exported by the package pivot): the
// exception, the version, logging, and the Engine and World classes.
#include "bindings.hpp"

namespace pivot::python {
namespace {

pivot_log_level log_level(const std::string& name) {
    if (name == "trace") return PIVOT_LOG_TRACE;
    if (name == "debug") return PIVOT_LOG_DEBUG;
    if (name == "info") return PIVOT_LOG_INFO;
    if (name == "warning") return PIVOT_LOG_WARNING;
    if (name == "error") return PIVOT_LOG_ERROR;
    throw py::value_error("log level '" + name + "': one of trace, debug, info, warning, error");
}

}  // namespace
}  // namespace pivot::python

PYBIND11_MODULE(_pivot, m) {
    namespace py = pybind11;
    using namespace pivot::python;
    m.doc() = "Pivot, a real-time multibody physics engine: the embedding API (pivot.h) for Python.";

    // Every failed engine call: the engine's one-line message (file, object, field).
    py::register_exception<pivot::sdk::Error>(m, "Error", PyExc_RuntimeError);
    m.attr("Error").attr("__doc__") =
        "A failed engine call. str(error) is the engine's one-line message, which names the file, object and "
        "field (pivot_last_error). A failed call changes nothing: a World whose step failed is as it was "
        "before that step.";

    m.attr("__version__") = pivot_version();
    m.def("version", &pivot_version, "The engine library's version, \"MAJOR.MINOR.PATCH\" (pivot_version).");
    m.def(
        "set_log_level", [](const std::string& level) { check(pivot_set_log_level(log_level(level))); },
        py::arg("level"),
        "The least level the engine and its plugins log to stderr, process-wide: \"trace\", \"debug\", \"info\", "
        "\"warning\" (the default, unless the environment variable PIVOT_LOG_LEVEL says otherwise) or \"error\".");
    m.def(
        "step_stage_names",
        [] {
            py::list names;
            for (uint32_t s = 0; const char* name = pivot_step_stage_name(s); ++s) names.append(name);
            return names;
        },
        "The names of the stages of a step, in pipeline order (the keys of statistics()[\"stage_seconds\"]).");

    m.attr("CONTACT_SPECULATIVE") = PIVOT_CONTACT_SPECULATIVE;
    m.attr("CONTACT_FORCE") = PIVOT_CONTACT_FORCE;

    bind_engine(m);
    bind_world(m);
}
