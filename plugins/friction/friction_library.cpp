// pivot_friction: the first-party friction models, one library, eight plugins.
// The conventions they share are documented in friction_common.hpp.
#include "friction_common.hpp"

namespace pivot::friction {
namespace {

const pivot_plugin_descriptor* const kPlugins[] = {
    &kFrictionlessDescriptor, &kBoxDescriptor,       &kConeDescriptor,
    &kRegularizedDescriptor,  &kCompliantDescriptor, &kCircularDescriptor, &kStribeckDescriptor,
    &kLugreDescriptor,
};

const pivot_plugin_library kLibrary = {sizeof(pivot_plugin_library),
                                       PIVOT_ABI_MAJOR,
                                       PIVOT_ABI_MINOR,
                                       sizeof(kPlugins) / sizeof(kPlugins[0]),
                                       kPlugins,
                                       nullptr,
                                       nullptr};

}  // namespace
}  // namespace pivot::friction

PIVOT_PLUGIN_ENTRY {
    (void)host_abi_minor;
    return host_abi_major == PIVOT_ABI_MAJOR ? &pivot::friction::kLibrary : nullptr;
}
