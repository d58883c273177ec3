// A world's contact materials and what two touching materials use: the
// friction model instance, restitution, compliance and damping of every
// pair (docs/scene-format.md "materials"), and whether a friction model
// can be paired with the world's solver.
#include "world/world.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

#include <fmt/format.h>

#include "common/error.hpp"
#include "plugin_host/parameters.hpp"
#include "step/step_scratch.hpp"

namespace pivot {

void World::add_material(const MaterialDescription& material) {
    const std::string where = fmt::format("material '{}'", material.name);
    if (material.name.empty()) throw Error("material: name must not be empty");
    if (!(material.restitution >= 0.0 && material.restitution <= 1.0)) {
        throw Error(fmt::format("{}: restitution: must be in [0, 1], got {}", where, material.restitution));
    }
    if (!(material.compliance >= 0.0) || !std::isfinite(material.compliance)) {
        throw Error(fmt::format("{}: compliance: must be >= 0 m/N, got {}", where, material.compliance));
    }
    if (!(material.damping >= 0.0) || !std::isfinite(material.damping)) {
        throw Error(fmt::format("{}: damping: must be >= 0 N s/m, got {}", where, material.damping));
    }
    const PluginRecord& plugin = registry_->require(PIVOT_KIND_FRICTION, material.friction_model);
    if (std::string why = nonsymmetric_pairing(plugin, model_.settings.solver.id); !why.empty()) {
        throw Error(fmt::format("{}: friction.model: {}", where, why));
    }
    probe_friction_model(plugin, material.friction, where);
    MaterialDescription stored = material;
    stored.friction_model = plugin.id;
    auto it = std::find_if(model_.materials.begin(), model_.materials.end(),
                           [&](const MaterialDescription& m) { return m.name == material.name; });
    if (it != model_.materials.end()) {
        *it = stored;
    } else {
        model_.materials.push_back(stored);
    }
    model_.material_pairs.clear();  // rebuilt at the next step
    model_.friction_instances.clear();
    model_.profiled_pairs.clear();
    scratch_.reset();
}

void World::add_material_pair(const MaterialPairDescription& pair) {
    const std::string where = fmt::format("material pair ('{}', '{}')", pair.materials[0], pair.materials[1]);
    for (const std::string& name : pair.materials) {
        if (std::none_of(model_.materials.begin(), model_.materials.end(),
                         [&](const MaterialDescription& m) { return m.name == name; })) {
            throw Error(fmt::format("{}: materials: '{}' is not a defined material", where, name));
        }
    }
    if (pair.restitution && !(*pair.restitution >= 0.0 && *pair.restitution <= 1.0)) {
        throw Error(fmt::format("{}: restitution: must be in [0, 1], got {}", where, *pair.restitution));
    }
    for (const auto& [value, field, unit] : {std::tuple{pair.compliance, "compliance", "m/N"},
                                             std::tuple{pair.damping, "damping", "N s/m"}}) {
        if (value && (!(*value >= 0.0) || !std::isfinite(*value))) {
            throw Error(fmt::format("{}: {}: must be >= 0 {}, got {}", where, field, unit, *value));
        }
    }
    MaterialPairDescription stored = pair;
    if (pair.friction_model || pair.friction) {
        const std::string model_id =
            pair.friction_model ? *pair.friction_model
                                : std::find_if(model_.materials.begin(), model_.materials.end(),
                                               [&](const MaterialDescription& m) {
                                                   return m.name == pair.materials[0];
                                               })->friction_model;
        const PluginRecord& plugin = registry_->require(PIVOT_KIND_FRICTION, model_id);
        if (std::string why = nonsymmetric_pairing(plugin, model_.settings.solver.id); !why.empty()) {
            throw Error(fmt::format("{}: friction.model: {}", where, why));
        }
        const nlohmann::json params = pair.friction.value_or(nlohmann::json::object());
        probe_friction_model(plugin, params, where);
        stored.friction_model = plugin.id;
        stored.friction = params;
    }
    auto same = [&](const MaterialPairDescription& o) {
        return (o.materials[0] == pair.materials[0] && o.materials[1] == pair.materials[1]) ||
               (o.materials[0] == pair.materials[1] && o.materials[1] == pair.materials[0]);
    };
    auto it = std::find_if(model_.material_pair_overrides.begin(), model_.material_pair_overrides.end(), same);
    if (it != model_.material_pair_overrides.end()) {
        *it = stored;
    } else {
        model_.material_pair_overrides.push_back(stored);
    }
    model_.material_pairs.clear();  // rebuilt at the next step
    model_.friction_instances.clear();
    model_.profiled_pairs.clear();
    scratch_.reset();
}

void World::ensure_material_pairs() {
    const bool touches = !model_.shapes.empty() || !model_.contact_samples.empty();
    if (touches && model_.material_pairs.empty()) rebuild_material_pairs();
}

void World::rebuild_material_pairs() {
    // One friction instance per pair of materials. Different models: the
    // first material's model; the friction coefficients (mu, and a
    // Stribeck law's mu_static and mu_kinetic) combine as sqrt(mu1 mu2) when
    // both materials have them (docs/scene-format.md); restitution max;
    // compliances in series add.
    const size_t n = model_.materials.size();
    model_.friction_instances.clear();
    model_.friction_instance_params.clear();
    model_.material_pairs.assign(n * n, MaterialPair{});
    model_.profiled_pairs.clear();  // made again when met (world_friction_profiles.cpp)
    // The contacts remembered from the old instances start afresh: their
    // impulses and state were those instances' (whose destroy() ended
    // them; plugin_friction.h, contacts_ended).
    state_.contact_ids.clear();
    state_.contact_models.clear();
    state_.contact_row_start.assign(1, 0);
    state_.contact_state_start.assign(1, 0);
    state_.contact_impulses.clear();
    state_.contact_state.clear();
    state_.contact_linear_impulses.clear();
    for (size_t a = 0; a < n; ++a) {
        for (size_t b = a; b < n; ++b) {
            const MaterialDescription& ma = model_.materials[a];
            const MaterialDescription& mb = model_.materials[b];
            nlohmann::json params = ma.friction;
            std::string model_id = ma.friction_model;
            for (const auto& [coefficient, value] : ma.friction.items()) {
                if (is_friction_coefficient(coefficient) && ma.friction_model == mb.friction_model &&
                    mb.friction.contains(coefficient)) {
                    params[coefficient] = std::sqrt(value.get<double>() * mb.friction[coefficient].get<double>());
                }
            }
            double restitution = std::max(ma.restitution, mb.restitution);
            double compliance = ma.compliance + mb.compliance;
            double damping = std::max(ma.damping, mb.damping);
            for (const MaterialPairDescription& o : model_.material_pair_overrides) {
                if (!((o.materials[0] == ma.name && o.materials[1] == mb.name) ||
                      (o.materials[0] == mb.name && o.materials[1] == ma.name))) {
                    continue;
                }
                if (o.friction_model) model_id = *o.friction_model;
                if (o.friction) params = *o.friction;
                restitution = o.restitution.value_or(restitution);
                compliance = o.compliance.value_or(compliance);
                damping = o.damping.value_or(damping);
            }
            const PluginRecord& plugin = registry_->require(PIVOT_KIND_FRICTION, model_id);
            const std::string where = fmt::format("materials '{}' and '{}': friction", ma.name, mb.name);
            std::vector<double> packed = pack_params(plugin, ParamScope::instance, params, where);
            model_.friction_instances.emplace_back(plugin, packed);
            model_.friction_instance_params.push_back(std::move(packed));
            const MaterialPair pair{static_cast<uint32_t>(model_.friction_instances.size() - 1), restitution,
                                    compliance, damping};
            model_.material_pairs[a * n + b] = pair;
            model_.material_pairs[b * n + a] = pair;
        }
    }
    scratch_.reset();
}

void World::probe_friction_model(const PluginRecord& plugin, const nlohmann::json& params,
                                 const std::string& where) const {
    // The schema check, then one instance: a model whose create() refuses
    // the values (beyond what its schema says) is reported here, naming the
    // material, rather than at the first step that needs the pair.
    auto packed = pack_params(plugin, ParamScope::instance, params, where + ": friction");
    try {
        PluginInstance probe(plugin, packed);
    } catch (const Error& e) {
        throw Error(fmt::format("{}: friction: {}", where, e.what()));
    }
}

std::string World::nonsymmetric_pairing(const PluginRecord& friction_model, const std::string& solver_id) const {
    if (!friction_model.has(PIVOT_FRICTION_CAP_STANDARD_LCP)) return {};
    const PluginRecord& solver = registry_->require(PIVOT_KIND_SOLVER, solver_id);
    if (solver.has(PIVOT_SOLVER_CAP_NONSYMMETRIC)) return {};
    return fmt::format("'{}' makes a standard LCP with a non-symmetric coupling block (the polyhedral cone's "
                       "auxiliary rows), which solver '{}' cannot solve: use a solver that declares "
                       "'nonsymmetric' (pivot.solver.lemke), or the box or circular friction model",
                       friction_model.id, solver.id);
}

}  // namespace pivot
