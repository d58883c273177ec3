#include "plugin_host/plugin_instance.hpp"

#include <utility>

#include <fmt/format.h>

#include "common/error.hpp"
#include "plugin_host/host_services.hpp"

namespace pivot {

std::string describe(const PluginRecord& plugin) {
    return fmt::format("plugin '{}' ({})", plugin.id, plugin.file);
}

namespace {

void check(pivot_status status, const PluginRecord& plugin, const char* function) {
    if (status == PIVOT_OK || status == PIVOT_WARNING) return;
    throw Error(fmt::format("{}: {} failed with status {}; see its log messages", describe(plugin),
                            function, static_cast<int>(status)));
}

}  // namespace

PluginInstance::PluginInstance(const PluginRecord& plugin, const std::vector<double>& params)
    : plugin_(plugin.shared_from_this()) {
    if (params.size() != plugin.instance_param_count()) {
        throw Error(fmt::format("{}: create needs {} parameter values, got {}", describe(plugin),
                                plugin.instance_param_count(), params.size()));
    }
    void* handle = nullptr;
    const auto& f = plugin.instance_functions();
    pivot::check(f.create(host_services(), params.data(), static_cast<uint32_t>(params.size()), &handle), plugin,
          "instance.create");
    if (handle == nullptr) {
        throw Error(describe(plugin) + ": instance.create reported success but returned no instance");
    }
    handle_ = handle;
}

PluginInstance::~PluginInstance() {
    if (handle_ != nullptr) plugin_->instance_functions().destroy(handle_);
}

PluginInstance::PluginInstance(PluginInstance&& other) noexcept
    : plugin_(std::move(other.plugin_)),
      handle_(std::exchange(other.handle_, nullptr)),
      fatal_(std::exchange(other.fatal_, false)) {}

PluginInstance& PluginInstance::operator=(PluginInstance&& other) noexcept {
    if (this != &other) {
        if (handle_ != nullptr) plugin_->instance_functions().destroy(handle_);
        plugin_ = std::move(other.plugin_);
        handle_ = std::exchange(other.handle_, nullptr);
        fatal_ = std::exchange(other.fatal_, false);
    }
    return *this;
}

void PluginInstance::require_callable(const char* function) const {
    if (!fatal_) return;
    throw Error(fmt::format("{}: {}: not called: the instance returned FATAL before, and a FATAL instance must "
                            "not be called again (plugin.h)",
                            describe(*plugin_), function));
}

void PluginInstance::check(pivot_status status, const char* function) const {
    if (status == PIVOT_FATAL) fatal_ = true;
    pivot::check(status, *plugin_, function);
}

PluginInstance PluginInstance::clone() const {
    const auto& f = plugin_->instance_functions();
    if (f.clone == nullptr) throw Error(describe(*plugin_) + ": instances cannot be cloned (no clone function)");
    require_callable("instance.clone");
    PluginInstance copy;
    copy.plugin_ = plugin_;
    check(f.clone(handle_, &copy.handle_), "instance.clone");
    if (copy.handle_ == nullptr) throw Error(describe(*plugin_) + ": instance.clone returned no instance");
    return copy;
}

void PluginInstance::set_params(const std::vector<double>& params) {
    require_callable("instance.set_params");
    const auto& f = plugin_->instance_functions();
    if (f.set_params == nullptr) {
        const std::shared_ptr<const PluginRecord> plugin = plugin_;
        *this = PluginInstance(*plugin, params);
        return;
    }
    if (params.size() != plugin_->instance_param_count()) {
        throw Error(fmt::format("{}: set_params needs {} values, got {}", describe(*plugin_),
                                plugin_->instance_param_count(), params.size()));
    }
    check(f.set_params(handle_, params.data(), static_cast<uint32_t>(params.size())), "instance.set_params");
}

void PluginInstance::reset() {
    const auto& f = plugin_->instance_functions();
    if (f.reset == nullptr) return;
    require_callable("instance.reset");
    check(f.reset(handle_), "instance.reset");
}

std::vector<unsigned char> PluginInstance::save_state() const {
    const auto& f = plugin_->instance_functions();
    if (f.state_size == nullptr) return {};
    require_callable("instance.save_state");
    size_t size = 0;
    check(f.state_size(handle_, &size), "instance.state_size");
    std::vector<unsigned char> bytes(size);
    if (size > 0) check(f.save_state(handle_, bytes.data(), size), "instance.save_state");
    return bytes;
}

void PluginInstance::load_state(const std::vector<unsigned char>& bytes) {
    require_callable("instance.load_state");
    const auto& f = plugin_->instance_functions();
    if (f.load_state == nullptr) {
        if (!bytes.empty()) throw Error(describe(*plugin_) + ": has no state to restore, but state bytes were given");
        return;
    }
    check(f.load_state(handle_, bytes.data(), bytes.size()), "instance.load_state");
}

}  // namespace pivot
