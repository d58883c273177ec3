#pragma once
// An owned plugin instance: created through the plugin's table with validated
// parameters, destroyed with it. Keeps its library mapped. Move-only.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "plugin_host/plugin_record.hpp"

namespace pivot {

class PluginInstance {
public:
    PluginInstance() = default;
    // Creates an instance; `params` are the packed instance-level values
    // (see pack_params). Throws pivot::Error naming the plugin on failure.
    PluginInstance(const PluginRecord& plugin, const std::vector<double>& params);
    ~PluginInstance();
    PluginInstance(PluginInstance&& other) noexcept;
    PluginInstance& operator=(PluginInstance&& other) noexcept;
    PluginInstance(const PluginInstance&) = delete;
    PluginInstance& operator=(const PluginInstance&) = delete;

    // A deep copy through the plugin's clone(); throws if it has none.
    PluginInstance clone() const;
    // Changes the instance-level parameters (set_params, or re-creation with
    // the history lost when the plugin has no set_params). Throws on failure.
    void set_params(const std::vector<double>& params);
    // Forgets history (warm starts). No-op when the plugin keeps none.
    void reset();
    // Checkpointing: the plugin's own bytes.
    std::vector<unsigned char> save_state() const;
    void load_state(const std::vector<unsigned char>& bytes);

    bool valid() const { return handle_ != nullptr; }
    // After any call returned PIVOT_FATAL ("the instance (or library) must
    // not be called again", plugin.h) the host calls nothing of it but
    // destroy: the checked calls (checked_calls.hpp) and the functions
    // above refuse, naming the plugin. mark_fatal() is const because a call
    // through a const instance can return FATAL; an instance is used by one
    // thread at a time (workers have their own clones).
    bool fatal() const { return fatal_; }
    void mark_fatal() const { fatal_ = true; }
    void* handle() const { return handle_; }
    const PluginRecord& plugin() const { return *plugin_; }

private:
    // Throws if the instance returned FATAL before; `function` for the message.
    void require_callable(const char* function) const;
    // OK and WARNING pass; anything else throws, FATAL marking the instance.
    void check(pivot_status status, const char* function) const;
    std::shared_ptr<const PluginRecord> plugin_;
    void* handle_ = nullptr;
    mutable bool fatal_ = false;
};

// "plugin 'id' (file)": how messages name a plugin.
std::string describe(const PluginRecord& plugin);

}  // namespace pivot
