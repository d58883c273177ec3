#pragma once
// Parameter values for plugins: given as JSON (scene files, solver options,
// CLI `--option KEY=VALUE`), validated against the plugin's schema, packed
// into the flat double arrays the ABI passes (<pivot/plugin.h>, "Parameter
// schema"). Every error names the context, the plugin, the parameter and the
// allowed range.
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "plugin_host/plugin_record.hpp"

namespace pivot {

enum class ParamScope { instance, item };

// Packs the parameters of `scope` from `values` (a JSON object; missing keys
// take their defaults). Keys that are not parameters of that scope are an
// error unless listed in `ignored_keys` (keys the caller handles itself, like
// a material's "model"). `context` starts every message, e.g.
// "scene.json: materials.ice.friction". Throws pivot::Error.
std::vector<double> pack_params(const PluginRecord& plugin, ParamScope scope,
                                const nlohmann::json& values, std::string_view context,
                                const std::vector<std::string>& ignored_keys = {});

// Converts a command-line value ("1e-8", "true", "tanh", "[1,0,0]") to JSON.
nlohmann::json parse_param_text(std::string_view text);

// For people: "[0, 10]", "(0, inf)", "one of tanh, linear", "true or false".
std::string param_range_text(const ParamSpec& param);
// The default as a user writes it: "0.5", "tanh", "true".
std::string param_default_text(const ParamSpec& param);

// The schema as JSON, as `pivot plugins --json` prints it.
nlohmann::json params_to_json(const PluginRecord& plugin);
// The whole plugin as `pivot plugins --json` lists it (docs/cli.md): kind,
// id, version, abi, file, parameters, name, vendor, description,
// capabilities by name.
nlohmann::json plugin_to_json(const PluginRecord& plugin);

}  // namespace pivot
