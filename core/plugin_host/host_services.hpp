#pragma once
// The services the host offers to plugins (pivot_host in <pivot/plugin.h>):
// logging routed to the engine's spdlog logger, tagged with the category the
// plugin gives (by convention its id).
#include <pivot/plugin.h>

namespace pivot {

// The process-wide pivot_host. Lives until exit, so plugins may keep the
// pointer for as long as they are loaded; its callbacks are thread-safe.
const pivot_host* host_services();

}  // namespace pivot
