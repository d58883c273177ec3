#include "plugin_host/plugin_record.hpp"

#include <iterator>

namespace pivot {

const pivot_instance_functions& PluginRecord::instance_functions() const {
    switch (kind) {
        case PIVOT_KIND_ELEMENT: return element.instance;
        case PIVOT_KIND_JOINT: return joint.instance;
        case PIVOT_KIND_FRICTION: return friction.instance;
        case PIVOT_KIND_SOLVER: break;
    }
    return solver.instance;
}

const ParamSpec* param_with_role(const std::vector<ParamSpec>& params, uint32_t role) {
    for (const ParamSpec& p : params) {
        if (p.role == role && p.per_item()) return &p;
    }
    return nullptr;
}

uint32_t item_offset_of_role(const std::vector<ParamSpec>& params, uint32_t role) {
    uint32_t offset = 0;
    for (const ParamSpec& p : params) {
        if (!p.per_item()) continue;
        if (p.role == role) return offset;
        offset += p.length;
    }
    return UINT32_MAX;
}

namespace {

uint32_t count_params(const std::vector<ParamSpec>& params, bool per_item) {
    uint32_t n = 0;
    for (const auto& p : params) {
        if (p.per_item() == per_item) n += p.length;
    }
    return n;
}

}  // namespace

uint32_t PluginRecord::instance_param_count() const { return count_params(params, false); }
uint32_t PluginRecord::item_param_count() const { return count_params(params, true); }

const char* kind_name(pivot_plugin_kind kind) {
    switch (kind) {
        case PIVOT_KIND_ELEMENT: return "element";
        case PIVOT_KIND_JOINT: return "joint";
        case PIVOT_KIND_FRICTION: return "friction";
        case PIVOT_KIND_SOLVER: return "solver";
    }
    return "unknown";
}

std::vector<std::string> capability_names(const PluginRecord& plugin) {
    static const char* const element[] = {"constant_mass", "internal_rows", "shared_nodes"};
    static const char* const joint[] = {"limits", "motor", "free_coordinate"};
    static const char* const friction[] = {"boxed", "standard_lcp", "explicit_force", "projection", "state"};
    static const char* const solver[] = {"boxed", "friction_index", "standard_lcp", "nonsymmetric", "dense",
                                         "sparse", "warm_start", "time_budget", "block_projection",
                                         "deterministic", "factored", "mass_blocks"};
    const char* const* names = solver;
    size_t count = std::size(solver);
    switch (plugin.kind) {
        case PIVOT_KIND_ELEMENT: names = element, count = std::size(element); break;
        case PIVOT_KIND_JOINT: names = joint, count = std::size(joint); break;
        case PIVOT_KIND_FRICTION: names = friction, count = std::size(friction); break;
        case PIVOT_KIND_SOLVER: break;
    }
    std::vector<std::string> out;
    for (unsigned bit = 0; bit < 64; ++bit) {
        if ((plugin.capabilities >> bit & 1u) == 0) continue;
        out.push_back(bit < count ? names[bit] : "bit " + std::to_string(bit));
    }
    return out;
}

uint32_t joint_frames(const PluginRecord& joint) {
    if (joint.joint.frames != 0) return joint.joint.frames;
    // A plugin before ABI 1.6: at the anchor, along the axis of a free coordinate.
    return joint.has(PIVOT_JOINT_CAP_FREE_COORDINATE) ? PIVOT_JOINT_FRAMES_AXIS : PIVOT_JOINT_FRAMES_ANCHOR;
}

}  // namespace pivot
