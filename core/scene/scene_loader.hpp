#pragma once
// Builds a World from a scene file (`pivot-scene/1`,
// docs/scene-format.md, the contract and its additions).
// Every error is a pivot::Error with a one-line message
// "<file>: <JSON Pointer>: <problem>", e.g.
// "pendulum.json: /bodies/2/inertia: not positive definite: ...".
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "plugin_host/plugin_registry.hpp"
#include "scene/operator_controls.hpp"
#include "world/world.hpp"

namespace pivot {

struct SceneOptions {
    // Replaces settings.solver (`pivot run --solver`). The scene's
    // solver_options are kept only when the override names the same plugin
    // (another solver's options would not validate against its schema).
    std::optional<std::string> solver;
    // Where the scene's `controls` go (operator_controls.hpp); null: they
    // are read and checked, then dropped.
    std::vector<OperatorControl>* controls = nullptr;
};

// Loads the scene's settings.plugin_paths (relative to the file's folder)
// into `registry`, then builds the world. The registry must outlive it.
std::unique_ptr<World> load_scene_file(PluginRegistry& registry, const std::filesystem::path& file,
                                       const SceneOptions& options = {});

// The same from JSON text: `base_dir` resolves relative plugin_paths,
// `source` names the origin in messages (usually the file name).
std::unique_ptr<World> load_scene_json(PluginRegistry& registry, std::string_view json_text,
                                       const std::filesystem::path& base_dir, const std::string& source,
                                       const SceneOptions& options = {});

}  // namespace pivot
