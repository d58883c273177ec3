#pragma once
// settings.integrator of a scene file (docs/scene-format.md "Integrators"):
// "semi_implicit" (the default), "gssss", or an object choosing the GSSSS
// member, the constraint level and the stabilization.
#include "scene/json_reader.hpp"
#include "world/world_description.hpp"

namespace pivot {

// Reads `at` into settings.integrator and settings.gssss; fails at the
// offending key's pointer.
void read_integrator(const scene::JsonAt& at, WorldSettings& settings);

}  // namespace pivot
