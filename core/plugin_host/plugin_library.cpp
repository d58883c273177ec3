#include "plugin_host/plugin_library.hpp"

#include <system_error>
#include <utility>

#include <boost/dll/shared_library.hpp>
#include <fmt/format.h>

#if defined(__unix__) || defined(__APPLE__)
#include <dlfcn.h>
#endif

#include "common/logging.hpp"
#include "plugin_host/descriptor_validation.hpp"
#include "plugin_host/host_services.hpp"

namespace pivot {

struct PluginLibrary::Impl {
    boost::dll::shared_library library;
    const pivot_plugin_library* table = nullptr;
    bool initialized = false;
};

PluginLibrary::PluginLibrary(std::string file, std::unique_ptr<Impl> impl)
    : file_(std::move(file)), impl_(std::move(impl)) {}

PluginLibrary::~PluginLibrary() {
    if (impl_->initialized && impl_->table->deinit != nullptr) impl_->table->deinit();
    // boost::dll::shared_library unloads in its destructor.
}

namespace {

// The loader's own explanation of the last failure, when the platform has one.
std::string loader_reason(const std::error_code& ec) {
#if defined(__unix__) || defined(__APPLE__)
    if (const char* why = dlerror()) return why;
#endif
    return ec.message();
}

}  // namespace

LibraryLoad PluginLibrary::open(const std::filesystem::path& path) {
    LibraryLoad out;
    std::error_code fs_error;
    const std::filesystem::path absolute = std::filesystem::absolute(path, fs_error);
    const std::string file = (fs_error ? path : absolute).lexically_normal().string();
    const std::string prefix = fmt::format("plugin file '{}'", file);

    if (!std::filesystem::is_regular_file(absolute, fs_error)) {
        out.problems.push_back(prefix + ": no such file");
        return out;
    }

    auto impl = std::make_unique<Impl>();
    std::error_code ec;
    impl->library.load(absolute, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local, ec);
    if (ec || !impl->library.is_loaded()) {
        out.problems.push_back(fmt::format("{}: cannot be loaded as a shared library: {}", prefix,
                                           loader_reason(ec)));
        return out;
    }
    if (!impl->library.has(PIVOT_PLUGIN_ENTRY_SYMBOL)) {
        out.problems.push_back(fmt::format(
            "{}: does not export the entry symbol '{}', so it is not a Pivot plugin (a plugin "
            "defines it with the PIVOT_PLUGIN_ENTRY macro of <pivot/plugin.h>)",
            prefix, PIVOT_PLUGIN_ENTRY_SYMBOL));
        return out;
    }
    auto entry = impl->library.get<const pivot_plugin_library*(uint32_t, uint32_t)>(PIVOT_PLUGIN_ENTRY_SYMBOL);
    impl->table = entry(PIVOT_ABI_MAJOR, PIVOT_ABI_MINOR);

    ValidatedLibrary validated = validate_library(impl->table);
    for (auto& note : validated.notes) out.notes.push_back(prefix + ": " + note);
    if (!validated.problems.empty()) {
        for (auto& problem : validated.problems) out.problems.push_back(prefix + ": " + problem);
        return out;
    }

    if (impl->table->init != nullptr) {
        const pivot_status status = impl->table->init(host_services());
        if (status != PIVOT_OK && status != PIVOT_WARNING) {
            out.problems.push_back(fmt::format("{}: its init function failed (status {}, {}); see the "
                                               "plugin's log messages above",
                                               prefix, static_cast<int>(status),
                                               status == PIVOT_FATAL ? "FATAL" : status == PIVOT_DISCARD ? "DISCARD" : "ERROR"));
            return out;
        }
        impl->initialized = true;
    }

    std::shared_ptr<const PluginLibrary> library(new PluginLibrary(file, std::move(impl)));
    for (auto& record : validated.plugins) {
        record.file = file;
        record.library = library;
        logger().debug("loaded {} plugin '{}' {} from '{}'", kind_name(record.kind), record.id,
                       record.version, file);
    }
    out.plugins = std::move(validated.plugins);
    return out;
}

bool has_library_suffix(const std::filesystem::path& file) {
    return file.extension() == boost::dll::shared_library::suffix();
}

}  // namespace pivot
