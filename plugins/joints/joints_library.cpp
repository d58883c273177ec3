// pivot_joints: the first-party joint plugins, one library, seven plugins.
// The conventions they share are documented in joint_common.hpp.
#include "joint_common.hpp"

namespace pivot::joints {
namespace {

const pivot_plugin_descriptor* const kPlugins[] = {
    &kFixedDescriptor,     &kSphericalDescriptor, &kRevoluteDescriptor, &kPrismaticDescriptor,
    &kCylindricalDescriptor, &kUniversalDescriptor, &kDistanceDescriptor,
};

const pivot_plugin_library kLibrary = {sizeof(pivot_plugin_library),
                                       PIVOT_ABI_MAJOR,
                                       PIVOT_ABI_MINOR,
                                       sizeof(kPlugins) / sizeof(kPlugins[0]),
                                       kPlugins,
                                       nullptr,
                                       nullptr};

}  // namespace
}  // namespace pivot::joints

PIVOT_PLUGIN_ENTRY {
    (void)host_abi_minor;
    return host_abi_major == PIVOT_ABI_MAJOR ? &pivot::joints::kLibrary : nullptr;
}
