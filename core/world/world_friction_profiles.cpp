// Bodies' own friction parameters (BodyDescription::friction, docs/scene-format.md
// "Bodies"): a body may replace its materials' friction values in every
// contact it makes (a worn tyre, a wet pallet). A friction-model instance is
// one parameter set (plugin_friction.h), so every model gets this without
// knowing of it: for each pair of contact sides (material, profile) that
// meets, the world makes an instance of the materials' model with the
// values combined, when the pair is first met, and equal parameter sets
// share one instance.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "world/world.hpp"

#include "common/error.hpp"
#include "plugin_host/parameters.hpp"
#include "step/step_scratch.hpp"

namespace pivot {

namespace {

// Profiles no body uses are kept until they outnumber those in use and this:
// a body whose values change every step does not re-make its pairs each time.
constexpr size_t kSpareProfiles = 16;

// Friction coefficients combine like the materials' (sqrt(mu1 mu2),
// rebuild_material_pairs); other parameters set by both bodies take the
// mean (real values) or the larger (integers, switches and choices by
// index), symmetric in the two bodies and inside any interval both are in.
double combine(const ParamSpec& spec, double a, double b) {
    if (is_friction_coefficient(spec.name)) return std::sqrt(a * b);
    if (spec.type == PIVOT_PARAM_REAL) return 0.5 * (a + b);
    return std::max(a, b);
}

}  // namespace

uint32_t World::friction_profile_of(const nlohmann::json& values) {
    if (values.empty()) return 0;
    const auto same = std::find(model_.friction_profiles.begin() + 1, model_.friction_profiles.end(), values);
    if (same != model_.friction_profiles.end()) return static_cast<uint32_t>(same - model_.friction_profiles.begin());
    model_.friction_profiles.push_back(values);
    return static_cast<uint32_t>(model_.friction_profiles.size() - 1);
}

void World::probe_friction_values(const nlohmann::json& values, const std::string& where) const {
    check_friction_values(values, where);
    if (values.empty() ||
        std::find(model_.friction_profiles.begin(), model_.friction_profiles.end(), values) !=
            model_.friction_profiles.end()) {
        return;  // none, or probed when first set
    }
    // New values: every model of the materials' pairs that takes one of
    // them must accept its set with them (create(), as a material is
    // probed), so that a model refusing a combination its schema allows
    // (a user's law may check mu_kinetic <= mu_static) is reported here,
    // not by the step that meets it. (Two bodies' values combined can still
    // be refused there: that step fails, naming both bodies.)
    const size_t grid_instances = model_.material_pairs.empty() ? 0 : material_grid_instances(model_);
    for (size_t f = 0; f < grid_instances; ++f) {
        const auto base = static_cast<uint32_t>(f);
        const std::vector<double> params =
            combined_friction_params(base, values, nlohmann::json::object(), where + ": friction");
        if (params == model_.friction_instance_params[f]) continue;
        try {
            const PluginInstance probe(model_.friction_instances[f].plugin(), params);
        } catch (const Error& e) {
            throw Error(fmt::format("{}: friction: {}", where, e.what()));
        }
    }
}

void World::check_friction_values(const nlohmann::json& values, const std::string& where) const {
    if (!values.is_object()) {
        throw Error(fmt::format("{}: friction: must be an object of friction-model parameters, got {}", where,
                                values.type_name()));
    }
    // Each value must be one some loaded friction model takes, and valid
    // for every model that has the parameter: whichever model a contact of
    // the body uses, its value (or a combination of two valid ones) is.
    for (const auto& item : values.items()) {
        const std::string& key = item.key();  // (not a structured binding: the lambda below uses it)
        const nlohmann::json& value = item.value();
        bool known = false;
        for (const PluginRecord* plugin : registry_->plugins()) {
            if (plugin->kind != PIVOT_KIND_FRICTION) continue;
            const bool has = std::any_of(plugin->params.begin(), plugin->params.end(),
                                         [&](const ParamSpec& p) { return !p.per_item() && p.name == key; });
            if (!has) continue;
            known = true;
            pack_params(*plugin, ParamScope::instance, nlohmann::json{{key, value}},
                        fmt::format("{}: friction ({})", where, plugin->id));
        }
        if (!known) {
            throw Error(fmt::format("{}: friction.{}: no loaded friction model has a parameter of this name", where,
                                    key));
        }
    }
}

void World::set_body_friction(BodyId b, const nlohmann::json& values) {
    live_body(b, "set_friction");
    BodyRecord& r = model_.bodies[b];
    probe_friction_values(values, fmt::format("body '{}'", r.name));
    const uint32_t profile = friction_profile_of(values);
    if (profile == r.friction_profile) return;
    r.friction_profile = profile;
    model_.element_friction_profile[r.element] = profile;
    friction_profiles_changed_ = true;
}

const nlohmann::json& World::body_friction(BodyId b) const {
    return model_.friction_profiles[live_body(b, "friction").friction_profile];
}

void World::make_friction_pairs_met() {
    if (model_.friction_profiles.size() <= 1) return;  // no body has values of its own
    const StepScratch& s = *scratch_;
    for (const collision::Contact& c : s.collision.contacts().contacts) {
        const collision::Shape& a = s.collision.shape(c.shape_a);
        const collision::Shape& b = s.collision.shape(c.shape_b);
        const uint32_t profile_a = shape_friction_profile(model_, a);
        const uint32_t profile_b = shape_friction_profile(model_, b);
        if (profile_a == 0 && profile_b == 0) continue;
        const auto key = friction_pair_key(a.material, profile_a, b.material, profile_b);
        if (model_.profiled_pairs.count(key) != 0) continue;
        const auto name_of = [&](const collision::Shape& shape) -> std::string {
            if (shape.body < 0) return "the world";
            const auto element = static_cast<uint32_t>(shape.body);
            const int32_t body = element < s.body_of_element.size() ? s.body_of_element[element] : -1;
            return body >= 0 ? fmt::format("body '{}'", model_.bodies[static_cast<uint32_t>(body)].name) : "a cable";
        };
        make_friction_pair(key, fmt::format("contact of {} and {}", name_of(a), name_of(b)));
    }
}

std::vector<double> World::combined_friction_params(uint32_t base_instance, const nlohmann::json& own_a,
                                                   const nlohmann::json& own_b, const std::string& context) const {
    // The materials' parameter set with each body's values in place of its
    // own (parameters the model does not have are not used here).
    const PluginRecord& plugin = model_.friction_instances[base_instance].plugin();
    std::vector<double> params = model_.friction_instance_params[base_instance];
    size_t offset = 0;
    for (const ParamSpec& spec : plugin.params) {
        if (spec.per_item()) continue;
        const bool in_a = own_a.contains(spec.name);
        const bool in_b = own_b.contains(spec.name);
        if (in_a || in_b) {
            const auto packed = [&](const nlohmann::json& own) {
                return pack_params(plugin, ParamScope::instance, nlohmann::json{{spec.name, own[spec.name]}}, context);
            };
            const std::vector<double> a = in_a ? packed(own_a) : std::vector<double>();
            const std::vector<double> b = in_b ? packed(own_b) : std::vector<double>();
            for (size_t k = offset; k < offset + spec.length; ++k) {
                params[k] = in_a && in_b ? combine(spec, a[k], b[k]) : in_a ? a[k] : b[k];
            }
        }
        offset += spec.length;
    }
    return params;
}

void World::make_friction_pair(const std::array<uint32_t, 4>& key, const std::string& where) {
    const auto materials = static_cast<uint32_t>(model_.materials.size());
    const MaterialPair base = model_.material_pairs[key[0] * materials + key[2]];
    const PluginRecord& plugin = model_.friction_instances[base.friction].plugin();
    const std::string context = fmt::format("{} (materials '{}' and '{}'): friction", where,
                                            model_.materials[key[0]].name, model_.materials[key[2]].name);
    const std::vector<double> params = combined_friction_params(
        base.friction, model_.friction_profiles[key[1]], model_.friction_profiles[key[3]], context);
    // An instance of the same model with the same values serves this pair
    // too (the first one: a restore finds the same).
    uint32_t instance = 0;
    while (instance < model_.friction_instances.size() &&
           !(&model_.friction_instances[instance].plugin() == &plugin &&
             model_.friction_instance_params[instance] == params)) {
        ++instance;
    }
    if (instance == model_.friction_instances.size()) {
        try {
            model_.friction_instances.emplace_back(plugin, params);
        } catch (const Error& e) {
            throw Error(fmt::format("{}: {}", context, e.what()));
        }
        model_.friction_instance_params.push_back(params);
    }
    model_.material_pairs.push_back({instance, base.restitution, base.compliance, base.damping});
    model_.profiled_pairs.emplace(key, static_cast<uint32_t>(model_.material_pairs.size() - 1));
}

void World::remake_friction_pairs(const std::vector<SavedFrictionPair>& saved,
                                  std::vector<std::vector<unsigned char>>& instance_states,
                                  std::vector<uint32_t>& contact_models) {
    const size_t grid = material_grid_pairs(model_);
    const size_t grid_instances = material_grid_instances(model_);
    const bool built = model_.material_pairs.size() >= grid &&
                       model_.friction_instances.size() >= grid_instances;
    if (!built || instance_states.size() < grid_instances) {
        throw Error(fmt::format("state buffer: {} friction instances, this world has {} (a buffer from another world?)",
                                instance_states.size(), built ? grid_instances : 0));
    }
    // Back to the materials' pairs and instances (never grown here).
    model_.material_pairs.erase(model_.material_pairs.begin() + static_cast<std::ptrdiff_t>(grid),
                                model_.material_pairs.end());
    model_.profiled_pairs.clear();
    model_.friction_instances.erase(model_.friction_instances.begin() + static_cast<std::ptrdiff_t>(grid_instances),
                                    model_.friction_instances.end());
    model_.friction_instance_params.erase(
        model_.friction_instance_params.begin() + static_cast<std::ptrdiff_t>(grid_instances),
        model_.friction_instance_params.end());
    // The buffer's instance numbers to this world's: the grid's are the same.
    std::vector<uint32_t> saved_to(instance_states.size(), UINT32_MAX);
    for (size_t f = 0; f < grid_instances; ++f) saved_to[f] = static_cast<uint32_t>(f);
    for (size_t k = 0; k < saved.size(); ++k) {
        const SavedFrictionPair& p = saved[k];
        const std::array<uint32_t, 4> key{p.material_a, p.profile_a, p.material_b, p.profile_b};
        const bool valid = p.material_a < model_.materials.size() && p.material_b < model_.materials.size() &&
                           p.profile_a < model_.friction_profiles.size() &&
                           p.profile_b < model_.friction_profiles.size() && (p.profile_a != 0 || p.profile_b != 0) &&
                           friction_pair_key(key[0], key[1], key[2], key[3]) == key &&
                           model_.profiled_pairs.count(key) == 0 && p.instance < instance_states.size();
        if (!valid) throw Error(fmt::format("state buffer: friction pair {} is not one of this world (a buffer from "
                                            "another world?)",
                                            k));
        make_friction_pair(key, "state buffer");
        const uint32_t made = model_.material_pairs.back().friction;
        if (saved_to[p.instance] != UINT32_MAX && saved_to[p.instance] != made) {
            throw Error(fmt::format("state buffer: friction pair {} does not make the instance it names (a buffer "
                                    "from another world?)",
                                    k));
        }
        saved_to[p.instance] = made;
    }
    if (saved_to.size() != model_.friction_instances.size()) {
        throw Error(fmt::format("state buffer: {} friction instances, this world has {} (a buffer from another world?)",
                                saved_to.size(), model_.friction_instances.size()));
    }
    std::vector<uint8_t> hit(model_.friction_instances.size(), 0);
    for (uint32_t to : saved_to) {
        if (to == UINT32_MAX || hit[to] != 0) {
            throw Error("state buffer: the friction instances do not match this world's pairs (a buffer from another "
                        "world?)");
        }
        hit[to] = 1;
    }
    std::vector<std::vector<unsigned char>> states(instance_states.size());
    for (size_t f = 0; f < saved_to.size(); ++f) states[saved_to[f]] = std::move(instance_states[f]);
    instance_states = std::move(states);
    for (uint32_t& m : contact_models) {
        if (m < saved_to.size()) m = saved_to[m];  // others are refused with the contacts' slots
    }
}

void World::drop_unused_friction_profiles() {
    friction_profiles_changed_ = false;
    std::vector<uint8_t> used(model_.friction_profiles.size(), 0);
    used[0] = 1;
    for (const BodyRecord& r : model_.bodies) {
        if (!r.removed) used[r.friction_profile] = 1;
    }
    const auto in_use = static_cast<size_t>(std::count(used.begin(), used.end(), uint8_t{1}));
    if (model_.friction_profiles.size() - in_use <= std::max(kSpareProfiles, in_use)) return;

    // New numbers of the profiles in use (in their order), of the bodies'
    // and elements' profiles.
    std::vector<uint32_t> profile_to(model_.friction_profiles.size(), UINT32_MAX);
    std::vector<nlohmann::json> profiles;
    for (size_t p = 0; p < used.size(); ++p) {
        if (used[p] == 0) continue;
        profile_to[p] = static_cast<uint32_t>(profiles.size());
        profiles.push_back(std::move(model_.friction_profiles[p]));
    }
    model_.friction_profiles = std::move(profiles);
    for (BodyRecord& r : model_.bodies) r.friction_profile = r.removed ? 0 : profile_to[r.friction_profile];
    for (uint32_t& p : model_.element_friction_profile) p = profile_to[p];

    // The pairs of profiles in use stay (in their order, after the grid),
    // and the instances that the grid or those pairs use.
    if (model_.material_pairs.empty()) return;  // no pairs yet (nothing touches): nothing else to drop
    const size_t grid = material_grid_pairs(model_);
    const size_t grid_instances = material_grid_instances(model_);
    std::vector<std::pair<std::array<uint32_t, 4>, uint32_t>> kept;  // new key, old pair index
    for (const auto& [key, pair] : model_.profiled_pairs) {
        if (profile_to[key[1]] == UINT32_MAX || profile_to[key[3]] == UINT32_MAX) continue;
        kept.push_back({{key[0], profile_to[key[1]], key[2], profile_to[key[3]]}, pair});
    }
    std::sort(kept.begin(), kept.end(), [](const auto& x, const auto& y) { return x.second < y.second; });
    // The materials' instances first, then the pairs' in the order the kept
    // pairs first use them: the order make_friction_pair gives when a
    // restore makes the kept pairs again (remake_friction_pairs), so that a
    // restored world lays out its rows as this one does.
    std::vector<uint32_t> instance_to(model_.friction_instances.size(), UINT32_MAX);
    std::vector<PluginInstance> instances;
    std::vector<std::vector<double>> instance_params;
    const auto keep = [&](uint32_t f) {
        if (instance_to[f] != UINT32_MAX) return;
        instance_to[f] = static_cast<uint32_t>(instances.size());
        instances.push_back(std::move(model_.friction_instances[f]));
        instance_params.push_back(std::move(model_.friction_instance_params[f]));
    };
    for (size_t f = 0; f < grid_instances; ++f) keep(static_cast<uint32_t>(f));
    for (const auto& [key, old_pair] : kept) keep(model_.material_pairs[old_pair].friction);
    // The others are destroyed below: the end of their contacts (plugin_friction.h).
    std::vector<MaterialPair> pairs(model_.material_pairs.begin(), model_.material_pairs.begin() + grid);
    model_.profiled_pairs.clear();
    for (const auto& [key, old_pair] : kept) {
        pairs.push_back(model_.material_pairs[old_pair]);
        model_.profiled_pairs.emplace(key, static_cast<uint32_t>(pairs.size() - 1));
    }
    for (MaterialPair& pair : pairs) pair.friction = instance_to[pair.friction];
    model_.material_pairs = std::move(pairs);
    model_.friction_instances = std::move(instances);
    model_.friction_instance_params = std::move(instance_params);

    // The remembered contacts follow their instances; those of a destroyed
    // one are forgotten.
    WorldState& st = state_;
    size_t kept_contacts = 0;
    size_t row = 0;
    size_t value = 0;
    for (size_t k = 0; k < st.contact_ids.size(); ++k) {
        const uint32_t to = instance_to[st.contact_models[k]];
        if (to == UINT32_MAX) continue;
        const size_t rows = st.contact_row_start[k + 1] - st.contact_row_start[k];
        const size_t values = st.contact_state_start[k + 1] - st.contact_state_start[k];
        if (kept_contacts != k) {  // moved down over a forgotten one (else in place)
            std::copy_n(st.contact_impulses.begin() + st.contact_row_start[k], rows, st.contact_impulses.begin() + row);
            std::copy_n(st.contact_state.begin() + st.contact_state_start[k], values,
                        st.contact_state.begin() + value);
            std::copy_n(st.contact_linear_impulses.begin() + 3 * k, 3,
                        st.contact_linear_impulses.begin() + 3 * kept_contacts);
        }
        st.contact_ids[kept_contacts] = st.contact_ids[k];
        st.contact_models[kept_contacts] = to;
        row += rows;
        value += values;
        ++kept_contacts;
        st.contact_row_start[kept_contacts] = static_cast<uint32_t>(row);
        st.contact_state_start[kept_contacts] = static_cast<uint32_t>(value);
    }
    st.contact_ids.resize(kept_contacts);
    st.contact_models.resize(kept_contacts);
    st.contact_row_start.resize(kept_contacts + 1);
    st.contact_state_start.resize(kept_contacts + 1);
    st.contact_impulses.resize(row);
    st.contact_state.resize(value);
    st.contact_linear_impulses.resize(3 * kept_contacts);
}

}  // namespace pivot
