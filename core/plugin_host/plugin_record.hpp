#pragma once
// What the host knows about one validated plugin: its descriptor, copied into
// host-owned memory, and its function table in the host's own layout.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <pivot/plugin.h>
#include <pivot/plugin_element.h>
#include <pivot/plugin_friction.h>
#include <pivot/plugin_joint.h>
#include <pivot/plugin_solver.h>

namespace pivot {

class PluginLibrary;

struct ParamSpec {
    std::string name;
    std::string unit;
    std::string doc;
    pivot_param_type type = PIVOT_PARAM_REAL;
    uint32_t length = 1;   // components
    uint32_t flags = 0;    // PIVOT_PARAM_*
    double default_value = 0.0;
    double min_value = 0.0;
    double max_value = 0.0;
    std::vector<std::string> choices;  // enum names
    uint32_t role = PIVOT_ROLE_NONE;   // pivot_param_role (ABI 1.6; by name for older plugins)

    bool per_item() const { return (flags & PIVOT_PARAM_PER_ITEM) != 0; }
};

// The per-item parameter with `role` (pivot_param_role), or null; and its
// offset among an item's packed values (UINT32_MAX when there is none).
const ParamSpec* param_with_role(const std::vector<ParamSpec>& params, uint32_t role);
uint32_t item_offset_of_role(const std::vector<ParamSpec>& params, uint32_t role);

// Owned by the registry through shared_ptr; instances share that ownership,
// so a record (and its library) stays alive while any instance of it exists.
struct PluginRecord : std::enable_shared_from_this<PluginRecord> {
    std::string id;
    std::string name;
    std::string vendor;
    std::string version;
    std::string description;
    pivot_plugin_kind kind = PIVOT_KIND_SOLVER;
    uint32_t abi_major = 0;
    uint32_t abi_minor = 0;
    uint64_t capabilities = 0;
    std::vector<ParamSpec> params;
    std::string file;  // absolute path of the library that provides it

    // The function table of `kind`, copied with the min(size) rule: fields the
    // plugin's ABI minor did not have are zero. Only the one of `kind` is set.
    pivot_element_functions element{};
    pivot_joint_functions joint{};
    pivot_friction_functions friction{};
    pivot_solver_functions solver{};

    // Keeps the code of the library mapped while the record (or an instance
    // made from it) exists.
    std::shared_ptr<const PluginLibrary> library;

    bool has(uint64_t capability) const { return (capabilities & capability) == capability; }
    const pivot_instance_functions& instance_functions() const;
    // Number of doubles of the instance-level / per-item parameters.
    uint32_t instance_param_count() const;
    uint32_t item_param_count() const;
};

// "element", "joint", "friction", "solver"; "unknown" otherwise.
const char* kind_name(pivot_plugin_kind kind);

// How a joint plugin places its frames (pivot_joint_frames): as it declares
// (ABI 1.6), or for an older plugin at the anchor, along the axis of a free
// coordinate.
uint32_t joint_frames(const PluginRecord& joint);

// The names of the capability flags the plugin declares ("boxed", "dense"...);
// unknown bits (from a newer minor) as "bit N".
std::vector<std::string> capability_names(const PluginRecord& plugin);

}  // namespace pivot
