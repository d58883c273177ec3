#include "plugin_host/descriptor_validation.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <set>
#include <string_view>

#include <fmt/format.h>

namespace pivot {

namespace {

// Sizes of the ABI 1.0 structs: the end of their last 1.0 field. Frozen
// forever within major 1: a struct shorter than this is corrupt.
template <class Struct, class Field>
constexpr size_t end_of(size_t offset) {
    return offset + sizeof(Field);
}
using entry_fn = void (*)(void);
constexpr size_t kLibrarySize10 = end_of<pivot_plugin_library, entry_fn>(offsetof(pivot_plugin_library, deinit));
constexpr size_t kDescriptorSize10 =
    end_of<pivot_plugin_descriptor, const void*>(offsetof(pivot_plugin_descriptor, functions));
constexpr size_t kParamInfoSize10 = end_of<pivot_param_info, uint32_t>(offsetof(pivot_param_info, reserved));
constexpr size_t kElementSize10 = end_of<pivot_element_functions, entry_fn>(offsetof(pivot_element_functions, energy));
constexpr size_t kJointSize10 = end_of<pivot_joint_functions, entry_fn>(offsetof(pivot_joint_functions, coordinate));
constexpr size_t kFrictionSize10 = end_of<pivot_friction_functions, entry_fn>(offsetof(pivot_friction_functions, project));
constexpr size_t kSolverSize10 = end_of<pivot_solver_functions, entry_fn>(offsetof(pivot_solver_functions, solve));

constexpr size_t kMaxTextLength = 4096;

// Reads a NUL-terminated string of at most max_length characters.
bool read_text(const char* text, size_t max_length, std::string& out) {
    if (text == nullptr) return false;
    const size_t length = strnlen(text, max_length + 1);
    if (length > max_length) return false;
    out.assign(text, length);
    return true;
}

bool is_version(std::string_view v) {
    // MAJOR.MINOR.PATCH with an optional -prerelease or +build suffix.
    int parts = 0;
    size_t i = 0;
    while (parts < 3) {
        const size_t start = i;
        while (i < v.size() && v[i] >= '0' && v[i] <= '9') ++i;
        if (i == start) return false;
        ++parts;
        if (parts < 3) {
            if (i >= v.size() || v[i] != '.') return false;
            ++i;
        }
    }
    if (i == v.size()) return true;
    if (v[i] != '-' && v[i] != '+') return false;
    return i + 1 < v.size();
}

bool is_param_name(std::string_view name) {
    if (name.empty() || name.size() > 64 || name[0] < 'a' || name[0] > 'z') return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
}

bool is_integral(double v) { return std::isinf(v) || v == std::floor(v); }

// The role of a parameter of a plugin built before ABI 1.6, which had no
// role bits: the names the first-party plugins gave those parameters then
// (the 1.6 changelog of plugin.h promises this reading to those plugins).
uint32_t role_by_name_before_1_6(const std::string& name) {
    static const std::pair<const char*, pivot_param_role> kNames[] = {
        {"compliance", PIVOT_ROLE_COMPLIANCE},         {"damping", PIVOT_ROLE_DAMPING},
        {"limits_enabled", PIVOT_ROLE_LIMITS_ENABLED}, {"lower", PIVOT_ROLE_LIMIT_LOWER},
        {"upper", PIVOT_ROLE_LIMIT_UPPER},             {"motor_enabled", PIVOT_ROLE_MOTOR_ENABLED},
        {"motor_velocity", PIVOT_ROLE_MOTOR_VELOCITY}, {"motor_max_force", PIVOT_ROLE_MOTOR_MAX_FORCE},
        {"length", PIVOT_ROLE_REST_LENGTH}};
    for (const auto& [n, role] : kNames) {
        if (name == n) return role;
    }
    return PIVOT_ROLE_NONE;
}

// A parameter's role (pivot_param_role): from its flags (ABI 1.6), or by
// its name for an older plugin; a role needs a per-item value of one
// component, BOOL for the switches and REAL for the others.
void read_role(const pivot_param_info& raw, uint32_t abi_minor, const std::string& where,
               std::vector<std::string>& problems, ParamSpec& spec) {
    const uint32_t role = abi_minor >= 6 ? PIVOT_PARAM_ROLE_OF(raw.flags) : role_by_name_before_1_6(spec.name);
    if (role == PIVOT_ROLE_NONE) return;
    const uint32_t last_role = abi_minor >= 7 ? PIVOT_ROLE_MOTOR_FORCE : PIVOT_ROLE_REST_LENGTH;
    if (role > last_role) {
        if (abi_minor > PIVOT_ABI_MINOR) return;  // a newer plugin's role this host does not know: no role
        problems.push_back(fmt::format("{}: role {} is not a pivot_param_role of ABI 1.{}", where, role, abi_minor));
        return;
    }
    const bool is_switch = role == PIVOT_ROLE_LIMITS_ENABLED || role == PIVOT_ROLE_MOTOR_ENABLED;
    const pivot_param_type type = is_switch                        ? PIVOT_PARAM_BOOL
                                  : role == PIVOT_ROLE_MOTOR_MODE ? PIVOT_PARAM_ENUM
                                                                   : PIVOT_PARAM_REAL;
    const bool fits = spec.per_item() && spec.length == 1 && spec.type == type;
    if (!fits) {
        if (abi_minor < 6) return;  // an older plugin's parameter that only shares the name
        problems.push_back(fmt::format("{}: role {} needs a per-item {} parameter of length 1", where, role,
                                       type == PIVOT_PARAM_BOOL   ? "BOOL"
                                       : type == PIVOT_PARAM_ENUM ? "ENUM"
                                                                  : "REAL"));
        return;
    }
    spec.role = role;
}

// Checks one parameter schema entry; appends problems prefixed by `where`.
void validate_param(const pivot_param_info& raw, const std::string& where,
                    std::vector<std::string>& problems, ParamSpec& spec) {
    if (raw.struct_size < kParamInfoSize10) {
        problems.push_back(fmt::format("{}: struct_size is {} bytes, smaller than the {} bytes of a "
                                       "pivot_param_info in ABI 1.0",
                                       where, raw.struct_size, kParamInfoSize10));
        return;
    }
    if (!read_text(raw.name, 64, spec.name) || !is_param_name(spec.name)) {
        problems.push_back(fmt::format("{}: name must be lowercase letters, digits and '_', starting "
                                       "with a letter (at most 64 characters)",
                                       where));
        return;
    }
    const std::string at = fmt::format("{} '{}'", where, spec.name);
    if (!read_text(raw.unit, 64, spec.unit)) problems.push_back(at + ": unit is NULL or too long");
    if (!read_text(raw.doc, kMaxTextLength, spec.doc)) problems.push_back(at + ": doc is NULL or too long");
    if (raw.type < PIVOT_PARAM_REAL || raw.type > PIVOT_PARAM_ENUM) {
        problems.push_back(fmt::format("{}: type {} is not a pivot_param_type", at, raw.type));
        return;
    }
    spec.type = static_cast<pivot_param_type>(raw.type);
    if (raw.length < 1 || raw.length > PIVOT_MAX_PARAM_LENGTH) {
        problems.push_back(fmt::format("{}: length {} is outside 1..{}", at, raw.length,
                                       PIVOT_MAX_PARAM_LENGTH));
    }
    spec.length = raw.length;
    const uint32_t known_flags = PIVOT_PARAM_PER_ITEM | PIVOT_PARAM_MIN_EXCLUSIVE | PIVOT_PARAM_MAX_EXCLUSIVE;
    spec.flags = raw.flags & known_flags;
    spec.default_value = raw.default_value;
    spec.min_value = raw.min_value;
    spec.max_value = raw.max_value;

    if (std::isnan(raw.min_value) || std::isnan(raw.max_value) || !std::isfinite(raw.default_value)) {
        problems.push_back(at + ": default must be finite and min/max must not be NaN");
        return;
    }
    if (raw.min_value > raw.max_value) {
        problems.push_back(fmt::format("{}: min_value {} is greater than max_value {}", at,
                                       raw.min_value, raw.max_value));
        return;
    }
    const bool min_excl = (raw.flags & PIVOT_PARAM_MIN_EXCLUSIVE) != 0;
    const bool max_excl = (raw.flags & PIVOT_PARAM_MAX_EXCLUSIVE) != 0;
    const double d = raw.default_value;
    if ((min_excl ? d <= raw.min_value : d < raw.min_value) ||
        (max_excl ? d >= raw.max_value : d > raw.max_value)) {
        problems.push_back(fmt::format("{}: default {} is outside its range {}{}, {}{}", at, d,
                                       min_excl ? "(" : "[", raw.min_value, raw.max_value,
                                       max_excl ? ")" : "]"));
    }
    switch (spec.type) {
        case PIVOT_PARAM_INT:
            if (!is_integral(d) || !is_integral(raw.min_value) || !is_integral(raw.max_value)) {
                problems.push_back(at + ": an INT parameter needs integral default, min and max");
            }
            break;
        case PIVOT_PARAM_BOOL:
            if (d != 0.0 && d != 1.0) problems.push_back(at + ": a BOOL default must be 0 or 1");
            break;
        case PIVOT_PARAM_ENUM: {
            if (raw.choices == nullptr || raw.choice_count == 0 || raw.choice_count > 256) {
                problems.push_back(at + ": an ENUM parameter needs 1..256 choices");
                break;
            }
            for (uint32_t c = 0; c < raw.choice_count; ++c) {
                std::string choice;
                if (!read_text(raw.choices[c], 64, choice) || !is_param_name(choice)) {
                    problems.push_back(fmt::format("{}: choice {} must be a lowercase name", at, c));
                    return;
                }
                spec.choices.push_back(choice);
            }
            if (!is_integral(d) || d < 0 || d >= raw.choice_count) {
                problems.push_back(fmt::format("{}: default {} is not a choice index (0..{})", at, d,
                                               raw.choice_count - 1));
            }
            // The range of an enum is its choices, whatever min/max said.
            spec.min_value = 0;
            spec.max_value = raw.choice_count - 1;
            spec.flags &= ~(PIVOT_PARAM_MIN_EXCLUSIVE | PIVOT_PARAM_MAX_EXCLUSIVE);
            break;
        }
        case PIVOT_PARAM_REAL:
            break;
    }
}

// Copies a function table of type T with the min(size) rule.
template <class T>
bool copy_functions(const void* functions, size_t min_size, const char* type_name,
                    const std::string& where, std::vector<std::string>& problems, T& out) {
    if (functions == nullptr) {
        problems.push_back(where + ": functions is NULL; a plugin needs its " + type_name);
        return false;
    }
    uint32_t size = 0;
    std::memcpy(&size, functions, sizeof(size));
    if (size < min_size) {
        problems.push_back(fmt::format("{}: {}.struct_size is {} bytes, smaller than the {} bytes "
                                       "it has in ABI 1.0; the table is corrupt or from a "
                                       "pre-release SDK",
                                       where, type_name, size, min_size));
        return false;
    }
    out = T{};
    std::memcpy(&out, functions, std::min<size_t>(sizeof(T), size));
    out.struct_size = static_cast<uint32_t>(std::min<size_t>(sizeof(T), size));
    return true;
}

void require(bool present, const std::string& where, const char* function,
             std::vector<std::string>& problems) {
    if (!present) problems.push_back(where + ": required function '" + function + "' is NULL");
}

void validate_instance_functions(const pivot_instance_functions& f, const std::string& where,
                                 std::vector<std::string>& problems) {
    require(f.create != nullptr, where, "instance.create", problems);
    require(f.destroy != nullptr, where, "instance.destroy", problems);
    const int state_functions = (f.state_size != nullptr) + (f.save_state != nullptr) + (f.load_state != nullptr);
    if (state_functions != 0 && state_functions != 3) {
        problems.push_back(where + ": instance.state_size, save_state and load_state must be given "
                                   "together or not at all");
    }
}

void validate_kind(const pivot_plugin_descriptor& d, const std::string& where,
                   std::vector<std::string>& problems, PluginRecord& rec) {
    switch (rec.kind) {
        case PIVOT_KIND_ELEMENT: {
            auto& f = rec.element;
            if (!copy_functions(d.functions, kElementSize10, "pivot_element_functions", where, problems, f)) return;
            validate_instance_functions(f.instance, where, problems);
            if (f.nodes_per_element < 1 || f.nodes_per_element > 64 || f.coords_per_node < 1 ||
                f.coords_per_node > 64 || f.velocities_per_node < 1 || f.velocities_per_node > 64) {
                problems.push_back(fmt::format("{}: nodes_per_element ({}), coords_per_node ({}) and "
                                               "velocities_per_node ({}) must be in 1..64",
                                               where, f.nodes_per_element, f.coords_per_node,
                                               f.velocities_per_node));
            }
            if (f.geometry != PIVOT_ELEMENT_GEOMETRY_SHAPES && f.geometry != PIVOT_ELEMENT_GEOMETRY_CURVE) {
                problems.push_back(fmt::format("{}: geometry {} is not a pivot_element_geometry", where, f.geometry));
            }
            if (f.geometry == PIVOT_ELEMENT_GEOMETRY_CURVE &&
                std::none_of(rec.params.begin(), rec.params.end(),
                             [](const ParamSpec& p) { return p.name == "radius" && !p.per_item(); })) {
                problems.push_back(where + ": curve geometry needs an instance parameter named 'radius'");
            }
            require(f.mass_matrix != nullptr, where, "mass_matrix", problems);
            require(f.generalized_forces != nullptr, where, "generalized_forces", problems);
            require(f.integrate != nullptr, where, "integrate", problems);
            require(f.material_frames != nullptr, where, "material_frames", problems);
            require(f.energy != nullptr, where, "energy", problems);
            if (rec.has(PIVOT_ELEMENT_CAP_INTERNAL_ROWS)) {
                require(f.internal_rows != nullptr, where, "internal_rows (declared INTERNAL_ROWS)", problems);
                require(f.max_internal_rows != nullptr, where, "max_internal_rows (declared INTERNAL_ROWS)", problems);
            }
            if (rec.has(PIVOT_ELEMENT_CAP_SHARED_NODES)) {
                require(f.node_coordinates != nullptr, where, "node_coordinates (declared SHARED_NODES, ABI 1.2)",
                        problems);
                if (f.nodes_per_element != 2) {
                    problems.push_back(fmt::format("{}: SHARED_NODES needs nodes_per_element 2 (element e uses nodes "
                                                   "e and e + 1), not {}",
                                                   where, f.nodes_per_element));
                }
            }
            return;
        }
        case PIVOT_KIND_JOINT: {
            auto& f = rec.joint;
            if (!copy_functions(d.functions, kJointSize10, "pivot_joint_functions", where, problems, f)) return;
            validate_instance_functions(f.instance, where, problems);
            if (f.max_rows_per_joint < 1 || f.max_rows_per_joint > 64) {
                problems.push_back(fmt::format("{}: max_rows_per_joint {} is outside 1..64", where, f.max_rows_per_joint));
            }
            require(f.rows != nullptr, where, "rows", problems);
            if (rec.has(PIVOT_JOINT_CAP_FREE_COORDINATE)) {
                require(f.coordinate != nullptr, where, "coordinate (declared FREE_COORDINATE)", problems);
            }
            if (f.frames > PIVOT_JOINT_FRAMES_TWO_ANCHORS) {
                problems.push_back(fmt::format("{}: frames {} is not a pivot_joint_frames", where, f.frames));
            }
            return;
        }
        case PIVOT_KIND_FRICTION: {
            auto& f = rec.friction;
            if (!copy_functions(d.functions, kFrictionSize10, "pivot_friction_functions", where, problems, f)) return;
            validate_instance_functions(f.instance, where, problems);
            if (f.max_rows_per_contact > 16) {
                problems.push_back(fmt::format("{}: max_rows_per_contact {} is above 16", where, f.max_rows_per_contact));
            }
            if (f.max_rows_per_contact == 0 && !rec.has(PIVOT_FRICTION_CAP_EXPLICIT_FORCE)) {
                problems.push_back(where + ": a friction model with no rows must declare EXPLICIT_FORCE");
            }
            if (f.state_per_contact > 64) {
                problems.push_back(fmt::format("{}: state_per_contact {} is above 64", where, f.state_per_contact));
            }
            require(f.build != nullptr || f.build_with_bodies != nullptr || f.build_with_motion != nullptr, where,
                    "build (or build_with_bodies, build_with_motion)", problems);
            if (rec.has(PIVOT_FRICTION_CAP_PROJECTION)) {
                require(f.project != nullptr, where, "project (declared PROJECTION)", problems);
            }
            return;
        }
        case PIVOT_KIND_SOLVER: {
            auto& f = rec.solver;
            if (!copy_functions(d.functions, kSolverSize10, "pivot_solver_functions", where, problems, f)) return;
            validate_instance_functions(f.instance, where, problems);
            require(f.solve != nullptr, where, "solve", problems);
            // The factored form (ABI 1.4) is enough on its own: such a solver
            // gets step problems only (pivot lcp solve refuses the pairing).
            const bool factored = rec.has(PIVOT_SOLVER_CAP_FACTORED) && rec.abi_minor >= 4;
            if (!rec.has(PIVOT_SOLVER_CAP_DENSE) && !rec.has(PIVOT_SOLVER_CAP_SPARSE) && !factored) {
                problems.push_back(where + ": a solver must accept a DENSE or a SPARSE matrix, or (ABI 1.4) the "
                                           "FACTORED form (capabilities)");
            }
            if (!rec.has(PIVOT_SOLVER_CAP_BOXED) && !rec.has(PIVOT_SOLVER_CAP_STANDARD_LCP)) {
                problems.push_back(where + ": a solver must accept BOXED or STANDARD_LCP problems (capabilities)");
            }
            return;
        }
    }
}

}  // namespace

std::string id_problem(const char* id) {
    std::string text;
    if (!read_text(id, PIVOT_MAX_ID_LENGTH, text)) {
        return id == nullptr ? "id is NULL"
                             : fmt::format("id is longer than {} characters", PIVOT_MAX_ID_LENGTH);
    }
    int segments = 0;
    size_t segment_length = 0;
    for (char c : text) {
        if (c == '.') {
            if (segment_length == 0) break;
            ++segments;
            segment_length = 0;
        } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-') {
            ++segment_length;
        } else {
            segment_length = 0;
            segments = -1;
            break;
        }
    }
    if (segments >= 1 && segment_length > 0) return {};
    return fmt::format("id '{}' is not a dotted lowercase name like 'vendor.kind.name' "
                       "(segments of a-z, 0-9, '_' and '-', at least two)",
                       text);
}

ValidatedLibrary validate_library(const pivot_plugin_library* table) {
    ValidatedLibrary out;
    auto& problems = out.problems;
    if (table == nullptr) {
        problems.push_back(fmt::format("its entry function returned NULL: the plugin refuses to run in "
                                       "a host with plugin ABI {}.{}",
                                       PIVOT_ABI_MAJOR, PIVOT_ABI_MINOR));
        return out;
    }
    if (table->struct_size < sizeof(uint32_t) * 3) {
        problems.push_back(fmt::format("the library table's struct_size is {} bytes, too small to hold "
                                       "even its ABI version; it is not a Pivot plugin table",
                                       table->struct_size));
        return out;
    }
    if (table->abi_major != PIVOT_ABI_MAJOR) {
        problems.push_back(fmt::format("it was built for plugin ABI {}.{}, but this Pivot uses plugin "
                                       "ABI {}.{}; rebuild the plugin against a Pivot {}.x SDK",
                                       table->abi_major, table->abi_minor, PIVOT_ABI_MAJOR,
                                       PIVOT_ABI_MINOR, PIVOT_ABI_MAJOR));
        return out;
    }
    if (table->struct_size < kLibrarySize10) {
        problems.push_back(fmt::format("the library table's struct_size is {} bytes, smaller than the {} "
                                       "bytes of a pivot_plugin_library in ABI 1.0",
                                       table->struct_size, kLibrarySize10));
        return out;
    }
    if (table->plugin_count < 1 || table->plugin_count > PIVOT_MAX_PLUGINS_PER_LIBRARY ||
        table->plugins == nullptr) {
        problems.push_back(fmt::format("the library table lists {} plugins (plugins {}); it must list "
                                       "1..{}",
                                       table->plugin_count, table->plugins ? "set" : "NULL",
                                       PIVOT_MAX_PLUGINS_PER_LIBRARY));
        return out;
    }

    std::set<std::string> ids;
    for (uint32_t i = 0; i < table->plugin_count; ++i) {
        const pivot_plugin_descriptor* d = table->plugins[i];
        std::string where = fmt::format("descriptor #{}", i);
        if (d == nullptr) {
            problems.push_back(where + " is NULL");
            continue;
        }
        if (d->struct_size < kDescriptorSize10) {
            problems.push_back(fmt::format("{}: struct_size is {} bytes, smaller than the {} bytes of a "
                                           "pivot_plugin_descriptor in ABI 1.0; the descriptor is "
                                           "corrupt or from a pre-release SDK",
                                           where, d->struct_size, kDescriptorSize10));
            continue;
        }
        PluginRecord rec;
        if (std::string why = id_problem(d->id); !why.empty()) {
            problems.push_back(where + ": " + why);
            continue;
        }
        rec.id = d->id;
        where = fmt::format("plugin '{}'", rec.id);
        if (d->abi_major != PIVOT_ABI_MAJOR) {
            problems.push_back(fmt::format("{}: built for plugin ABI {}.{}, but this Pivot uses plugin "
                                           "ABI {}.{}; rebuild it against a Pivot {}.x SDK",
                                           where, d->abi_major, d->abi_minor, PIVOT_ABI_MAJOR,
                                           PIVOT_ABI_MINOR, PIVOT_ABI_MAJOR));
            continue;
        }
        rec.abi_major = d->abi_major;
        rec.abi_minor = d->abi_minor;
        if (!ids.insert(rec.id).second) {
            problems.push_back(fmt::format("{}: the id appears twice in this library", where));
            continue;
        }
        if (!read_text(d->name, 256, rec.name)) problems.push_back(where + ": name is NULL or too long");
        if (!read_text(d->vendor, 256, rec.vendor)) problems.push_back(where + ": vendor is NULL or too long");
        if (!read_text(d->description, kMaxTextLength, rec.description)) {
            problems.push_back(where + ": description is NULL or too long");
        }
        if (!read_text(d->version, 64, rec.version) || !is_version(rec.version)) {
            problems.push_back(where + ": version must be \"MAJOR.MINOR.PATCH\" (e.g. \"1.0.0\")");
        }
        rec.capabilities = d->capabilities;

        if (d->param_count > PIVOT_MAX_PARAMS || (d->param_count > 0 && d->params == nullptr)) {
            problems.push_back(fmt::format("{}: param_count is {} with params {}; at most {} and params "
                                           "must be set when the count is not zero",
                                           where, d->param_count, d->params ? "set" : "NULL",
                                           PIVOT_MAX_PARAMS));
            continue;
        }
        std::set<std::string> names;
        // The schema is an array of the plugin's pivot_param_info, whose size
        // may be larger than ours (a newer minor): step by its struct_size.
        const size_t stride = d->param_count > 0 ? d->params[0].struct_size : 0;
        if (d->param_count > 0 && stride < kParamInfoSize10) {
            problems.push_back(fmt::format("{}: parameter #0: struct_size is {} bytes, smaller than the "
                                           "{} bytes of a pivot_param_info in ABI 1.0",
                                           where, stride, kParamInfoSize10));
            continue;
        }
        for (uint32_t p = 0; p < d->param_count; ++p) {
            ParamSpec spec;
            const auto* entry = reinterpret_cast<const pivot_param_info*>(
                reinterpret_cast<const unsigned char*>(d->params) + p * stride);
            const std::string at = fmt::format("{}: parameter #{}", where, p);
            validate_param(*entry, at, problems, spec);
            if (!spec.name.empty() && !names.insert(spec.name).second) {
                problems.push_back(fmt::format("{}: parameter '{}' is declared twice", where, spec.name));
            }
            read_role(*entry, d->abi_minor, at, problems, spec);
            if (spec.role != PIVOT_ROLE_NONE && param_with_role(rec.params, spec.role) != nullptr) {
                problems.push_back(fmt::format("{}: parameter '{}': another parameter has role {}", where,
                                               spec.name, spec.role));
            }
            rec.params.push_back(std::move(spec));
        }

        if (d->kind < PIVOT_KIND_ELEMENT || d->kind > PIVOT_KIND_SOLVER) {
            if (d->abi_minor > PIVOT_ABI_MINOR) {
                out.notes.push_back(fmt::format("{}: kind {} is newer than this host (ABI {}.{}); skipped",
                                                where, d->kind, PIVOT_ABI_MAJOR, PIVOT_ABI_MINOR));
            } else {
                problems.push_back(fmt::format("{}: kind {} is not a pivot_plugin_kind", where, d->kind));
            }
            continue;
        }
        rec.kind = static_cast<pivot_plugin_kind>(d->kind);
        validate_kind(*d, where, problems, rec);
        out.plugins.push_back(std::move(rec));
    }
    if (!problems.empty()) out.plugins.clear();
    return out;
}

}  // namespace pivot
