// Saving and restoring the complete state of a world (a simulator rewinds
// and replays): time, coordinates, velocities, applied forces, the joints'
// per-joint parameters (motor targets) and what changes of them while the
// world runs (enabled, broken, frame 2), the cables' deployed lengths and
// reel speeds, the solver that takes the islands, the warm starts of every
// row, the
// contacts' memory (impulses and friction-model state by contact id) and the
// plugin instances' own state (plugin.h's state_size/save_state). Solver
// instances are not saved: their warm start is the impulses above. A
// restored world continues bitwise as the saved one did (tested).
//
// The buffer is for the same binary and the same world (same bodies, joints
// and plugins, built in the same order): native byte order, sizes checked on
// restore. It is not a file format.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <set>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/input_limits.hpp"
#include "step/step_scratch.hpp"
#include "step/step_stages.hpp"
#include "world/world.hpp"
#include "world/physical_limits.hpp"

namespace pivot {

namespace {

constexpr char kMagic[8] = {'P', 'I', 'V', 'O', 'T', 'S', 'T', '6'};

// What of a joint changes while the world runs (World::set_joint_enabled,
// breaking): whether it acts, whether it broke, and where frame 2 is
// attached (moved when a joint is enabled at the current pose).
struct JointRuntime {
    uint8_t enabled;
    uint8_t broken;
    uint8_t padding[6];
    double local_point[3];
    double local_rotation[4];
};

class Writer {
public:
    explicit Writer(std::vector<uint8_t>& out) : out_(out) {}
    template <typename T>
    void value(const T& v) {
        const auto* p = reinterpret_cast<const uint8_t*>(&v);
        out_.insert(out_.end(), p, p + sizeof(T));
    }
    template <typename T>
    void array(const std::vector<T>& v) {
        value(static_cast<uint64_t>(v.size()));
        const auto* p = reinterpret_cast<const uint8_t*>(v.data());
        out_.insert(out_.end(), p, p + v.size() * sizeof(T));
    }

private:
    std::vector<uint8_t>& out_;
};

class Reader {
public:
    Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
    template <typename T>
    T value(const char* what) {
        T v{};
        take(&v, sizeof(T), what);
        return v;
    }
    // Reads an array whose length must be `expected` (the world's own).
    template <typename T>
    void array(std::vector<T>& v, size_t expected, const char* what) {
        const auto count = value<uint64_t>(what);
        if (count != expected) {
            throw Error(fmt::format("state buffer: {}: {} values, this world has {} (a buffer from another world?)",
                                    what, count, expected));
        }
        if (count > (size_ - offset_) / sizeof(T)) throw Error(fmt::format("state buffer: {}: truncated", what));
        v.resize(count);
        take(v.data(), count * sizeof(T), what);
    }
    // Reads an array of any length (the contacts of the saved step).
    template <typename T>
    void any_array(std::vector<T>& v, const char* what) {
        const auto count = value<uint64_t>(what);
        if (count > (size_ - offset_) / sizeof(T)) throw Error(fmt::format("state buffer: {}: truncated", what));
        v.resize(count);
        take(v.data(), count * sizeof(T), what);
    }
    // A count of entries that take at least `bytes_each` bytes of the buffer
    // each: a forged count is refused before anything is sized by it.
    size_t count(const char* what, size_t bytes_each) {
        const auto n = value<uint64_t>(what);
        if (n > (size_ - offset_) / bytes_each) throw Error(fmt::format("state buffer: {}: truncated", what));
        return static_cast<size_t>(n);
    }
    bool done() const { return offset_ == size_; }

private:
    void take(void* out, size_t bytes, const char* what) {
        if (bytes == 0) return;  // out may be the null data() of an empty vector
        if (bytes > size_ - offset_) throw Error(fmt::format("state buffer: {}: truncated", what));
        std::memcpy(out, data_ + offset_, bytes);
        offset_ += bytes;
    }
    const uint8_t* data_;
    size_t size_;
    size_t offset_ = 0;
};

}  // namespace

std::vector<uint8_t> World::save_state() const {
    std::vector<uint8_t> out;
    Writer w(out);
    for (char c : kMagic) w.value(c);
    w.value(state_.time);
    w.array(state_.q);
    w.array(state_.v);
    w.array(state_.applied);
    w.array(state_.joint_impulses);
    w.value(static_cast<uint64_t>(model_.joint_groups.size()));
    for (const JointGroup& g : model_.joint_groups) w.array(g.item_params);
    std::vector<JointRuntime> joints(model_.joints.size());
    for (size_t j = 0; j < joints.size(); ++j) {
        const JointRecord& record = model_.joints[j];
        joints[j] = JointRuntime{record.enabled, record.broken, {}, {}, {}};
        std::copy(record.frame2.local_point.begin(), record.frame2.local_point.end(), joints[j].local_point);
        std::copy(record.frame2.local_rotation.begin(), record.frame2.local_rotation.end(), joints[j].local_rotation);
    }
    w.array(joints);
    std::vector<std::array<double, 2>> cables(model_.cables.size());  // deployed length, reel speed
    for (size_t c = 0; c < cables.size(); ++c) cables[c] = {model_.cables[c].length, model_.cables[c].reel_speed};
    w.array(cables);
    std::vector<std::array<double, 3>> ropes(model_.ropes.size());  // length, reel speed, last tension
    for (size_t k = 0; k < ropes.size(); ++k) {
        ropes[k] = {model_.ropes[k].length, model_.ropes[k].reel_speed, state_.rope_tensions[k]};
    }
    w.array(ropes);
    // Bodies on and off: per body enabled and its held velocity.
    for (const BodyRecord& b : model_.bodies) {
        w.value(static_cast<uint8_t>(b.enabled));
        w.array(b.held_velocity);
    }
    // The solver that takes the islands (World::set_solver), or the engine's choice.
    const WorldSettings& settings = model_.settings;
    const std::string solver_id = solver_->primary_id(), options = settings.solver.options.dump();
    w.array(std::vector<char>(solver_id.begin(), solver_id.end()));
    w.array(std::vector<char>(options.begin(), options.end()));
    w.value(static_cast<uint8_t>(settings.direct_islands));
    w.value(static_cast<uint8_t>(settings.newton_islands));
    w.value(settings.large_island_rows);
    w.array(state_.contact_ids);
    w.array(state_.contact_models);
    w.array(state_.contact_row_start);
    w.array(state_.contact_state_start);
    w.array(state_.contact_impulses);
    w.array(state_.contact_state);
    w.array(state_.contact_linear_impulses);
    w.value(static_cast<uint8_t>(state_.energy_watch.valid));
    w.value(state_.energy_watch.reference);
    w.value(state_.energy_watch.kinetic_max);
    w.value(state_.energy_watch.potential_min);
    // The plugins' own instance state (plugin.h: state_size/save_state), for
    // plugins that keep history: element groups, joint groups, and the
    // friction instances once the first step has made them.
    for (const ElementGroup& g : model_.element_groups) w.array(g.instance.save_state());
    for (const JointGroup& g : model_.joint_groups) w.array(g.instance.save_state());
    // Bodies' own friction values (World::set_body_friction, a command like
    // a motor target): the profiles as JSON text and each body's.
    w.value(static_cast<uint64_t>(model_.friction_profiles.size()));
    for (const nlohmann::json& profile : model_.friction_profiles) {
        const std::string text = profile.dump();
        w.array(std::vector<char>(text.begin(), text.end()));
    }
    std::vector<uint32_t> body_profiles(model_.bodies.size());
    for (size_t b = 0; b < body_profiles.size(); ++b) body_profiles[b] = model_.bodies[b].friction_profile;
    w.array(body_profiles);
    // Whether the step after a change is still to forget unused values (so
    // that a restored world forgets them when this one would).
    w.value(static_cast<uint8_t>(friction_profiles_changed_));
    w.value(static_cast<uint64_t>(model_.friction_instances.size()));
    for (const PluginInstance& f : model_.friction_instances) w.array(f.save_state());
    // The pairs met by bodies with their own friction values, in the order
    // they were made (each key and its instance): restore makes them again,
    // so that the instances above and the contacts' models mean the same.
    std::vector<SavedFrictionPair> pairs(model_.profiled_pairs.size());
    const size_t grid = material_grid_pairs(model_);
    for (const auto& [key, pair] : model_.profiled_pairs) {
        pairs[pair - grid] = {key[0], key[1], key[2], key[3], model_.material_pairs[pair].friction};
    }
    w.array(pairs);
    return out;
}

// A refused buffer changes nothing: the plugins' states are loaded before
// everything is checked (each plugin checks its own bytes), and a world
// saved before its first step builds its friction instances here, so a
// failure rolls back to a snapshot taken first (and to no friction
// instances when there were none).
void World::restore_state(const uint8_t* data, size_t size) {
    const bool pairs_built = !model_.material_pairs.empty();
    const std::vector<uint8_t> rollback = save_state();
    try {
        read_state(data, size);
    } catch (...) {
        if (!pairs_built) {
            model_.material_pairs.clear();
            model_.friction_instances.clear();
            model_.profiled_pairs.clear();
            scratch_.reset();
        }
        read_state(rollback.data(), rollback.size());  // this world's own state: accepted
        throw;
    }
}

void World::read_state(const uint8_t* data, size_t size) {
    if (data == nullptr && size > 0) throw Error("state buffer: null data");
    Reader r(data, size);
    for (char c : kMagic) {
        if (r.value<char>("header") != c) throw Error("state buffer: not a Pivot world state (bad header)");
    }
    // Everything is read into a copy first: a bad buffer leaves the world as it was.
    WorldState restored;
    restored.time = r.value<double>("time");
    r.array(restored.q, state_.q.size(), "coordinates");
    r.array(restored.v, state_.v.size(), "velocities");
    r.array(restored.applied, state_.applied.size(), "applied forces");
    r.array(restored.joint_impulses, state_.joint_impulses.size(), "joint impulses");
    const auto groups = r.value<uint64_t>("joint groups");
    if (groups != model_.joint_groups.size()) {
        throw Error(fmt::format("state buffer: {} joint groups, this world has {} (a buffer from another world?)",
                                groups, model_.joint_groups.size()));
    }
    std::vector<std::vector<double>> params(model_.joint_groups.size());
    for (size_t g = 0; g < params.size(); ++g) {
        r.array(params[g], model_.joint_groups[g].item_params.size(), "joint parameters");
    }
    std::vector<JointRuntime> joints;
    r.array(joints, model_.joints.size(), "joints");
    for (const JointRuntime& j : joints) {
        const bool finite = std::all_of(std::begin(j.local_point), std::end(j.local_point),
                                        [](double x) { return std::isfinite(x); }) &&
                            std::all_of(std::begin(j.local_rotation), std::end(j.local_rotation),
                                        [](double x) { return std::isfinite(x); });
        if (j.enabled > 1 || j.broken > 1 || !finite) throw Error("state buffer: a joint's state is not valid");
    }
    std::vector<std::array<double, 2>> cables;
    r.array(cables, model_.cables.size(), "cables");
    for (size_t c = 0; c < cables.size(); ++c) {
        const CableRecord& cable = model_.cables[c];
        if (!(cables[c][0] >= cable.min_length && cables[c][0] <= cable.max_length) ||
            !(std::abs(cables[c][1]) <= PhysicalLimits::max_reel_speed)) {
            throw Error(fmt::format("state buffer: cable '{}': its length or reel speed is not valid", cable.name));
        }
    }
    std::vector<std::array<double, 3>> ropes;
    r.array(ropes, model_.ropes.size(), "ropes");
    restored.rope_tensions.resize(ropes.size());
    for (size_t k = 0; k < ropes.size(); ++k) {
        const RopeRecord& rope = model_.ropes[k];
        const bool length_ok = rope.removed || (ropes[k][0] >= rope.min_length && ropes[k][0] <= rope.max_length);
        if (!length_ok || !(std::abs(ropes[k][1]) <= PhysicalLimits::max_reel_speed) ||
            !(ropes[k][2] >= 0.0 && std::isfinite(ropes[k][2]))) {
            throw Error(
                fmt::format("state buffer: rope '{}': its length, reel speed or tension is not valid", rope.name));
        }
        restored.rope_tensions[k] = ropes[k][2];
    }
    struct BodyRuntime {
        bool enabled;
        std::vector<double> held_velocity;
    };
    std::vector<BodyRuntime> bodies(model_.bodies.size());
    for (size_t b = 0; b < bodies.size(); ++b) {
        bodies[b].enabled = r.value<uint8_t>("bodies") != 0;
        r.any_array(bodies[b].held_velocity, "bodies");
        const BodyRecord& record = model_.bodies[b];
        const size_t nv = record.removed ? 0 : model_.element_nv[record.element];
        const bool held = !bodies[b].enabled && !record.removed;
        if (bodies[b].held_velocity.size() != (held ? nv : 0) || (record.removed && !bodies[b].enabled)) {
            throw Error(fmt::format("state buffer: body '{}': its enabled state is not valid", record.name));
        }
        for (double x : bodies[b].held_velocity) {
            if (!std::isfinite(x)) throw Error(fmt::format("state buffer: body '{}': a held velocity is not finite", record.name));
        }
    }
    std::vector<char> solver_id, options_text;
    r.any_array(solver_id, "solver");
    r.any_array(options_text, "solver options");
    const bool direct_islands = r.value<uint8_t>("solver") != 0;
    const bool newton_islands = r.value<uint8_t>("solver") != 0;
    const auto large_island_rows = r.value<decltype(WorldSettings::large_island_rows)>("solver");
    SolverChoice solver{std::string(solver_id.begin(), solver_id.end()), nlohmann::json::object()};
    try {
        solver.options = nlohmann::json::parse(options_text.begin(), options_text.end());
    } catch (const nlohmann::json::exception&) {
        throw Error("state buffer: the solver's options are not JSON");
    }
    const PluginRecord* solver_plugin = registry_->find(solver.id);
    if (solver_plugin == nullptr || solver_plugin->kind != PIVOT_KIND_SOLVER || !solver.options.is_object()) {
        throw Error(fmt::format("state buffer: solver '{}' is not loaded in this engine", solver.id));
    }
    r.any_array(restored.contact_ids, "contact ids");
    const size_t contacts = restored.contact_ids.size();
    r.array(restored.contact_models, contacts, "contact models");
    r.array(restored.contact_row_start, contacts + 1, "contact impulse slots");
    r.array(restored.contact_state_start, contacts + 1, "contact state slots");
    // Each contact's slots: from 0, at most the ABI's most per contact
    // (checked against its model's below).
    for (const auto& [start, most] : {std::pair{&restored.contact_row_start, WorldState::kMaxContactRows},
                                      std::pair{&restored.contact_state_start, WorldState::kMaxContactState}}) {
        for (size_t k = 0; k < contacts; ++k) {
            if ((*start)[0] != 0 || (*start)[k + 1] < (*start)[k] || (*start)[k + 1] - (*start)[k] > most) {
                throw Error("state buffer: the contacts' slots are not consistent (a buffer from another version?)");
            }
        }
    }
    r.array(restored.contact_impulses, restored.contact_row_start.back(), "contact impulses");
    r.array(restored.contact_state, restored.contact_state_start.back(), "contact state");
    r.array(restored.contact_linear_impulses, restored.contact_ids.size() * 3, "contact impulses (linear)");
    restored.energy_watch.valid = r.value<uint8_t>("energy watch") != 0;
    restored.energy_watch.reference = r.value<double>("energy watch");
    restored.energy_watch.kinetic_max = r.value<double>("energy watch");
    restored.energy_watch.potential_min = r.value<double>("energy watch");
    std::vector<std::vector<unsigned char>> element_states(model_.element_groups.size());
    for (auto& bytes : element_states) r.any_array(bytes, "element plugin state");
    std::vector<std::vector<unsigned char>> joint_states(model_.joint_groups.size());
    for (auto& bytes : joint_states) r.any_array(bytes, "joint plugin state");
    // The bodies' friction values: {} first, then distinct objects, each
    // checked as World::set_body_friction checks them.
    std::vector<nlohmann::json> profiles(r.count("friction profiles", sizeof(uint64_t)));
    std::set<std::string> distinct;
    if (profiles.empty()) throw Error("state buffer: the friction profiles are not consistent");
    for (size_t p = 0; p < profiles.size(); ++p) {
        std::vector<char> text;
        r.any_array(text, "friction profiles");
        const std::string_view view(text.data(), text.size());
        check_json_depth(view, "state buffer: friction profile");
        try {
            profiles[p] = nlohmann::json::parse(view);
        } catch (const nlohmann::json::exception&) {
            throw Error("state buffer: a body's friction values are not JSON");
        }
        check_friction_values(profiles[p], fmt::format("state buffer: friction profile {}", p));
        if ((p == 0) != profiles[p].empty() || !distinct.insert(profiles[p].dump()).second) {
            throw Error("state buffer: the friction profiles are not consistent");
        }
    }
    std::vector<uint32_t> body_profiles;
    r.array(body_profiles, model_.bodies.size(), "bodies' friction profiles");
    for (size_t b = 0; b < body_profiles.size(); ++b) {
        if (body_profiles[b] >= profiles.size() || (model_.bodies[b].removed && body_profiles[b] != 0)) {
            throw Error(
                fmt::format("state buffer: body '{}': its friction profile is not valid", model_.bodies[b].name));
        }
    }
    const bool profiles_changed = r.value<uint8_t>("friction profiles") != 0;
    std::vector<std::vector<unsigned char>> friction_states(r.count("friction instances", sizeof(uint64_t)));
    for (auto& bytes : friction_states) r.any_array(bytes, "friction plugin state");
    std::vector<SavedFrictionPair> friction_pairs;
    r.any_array(friction_pairs, "friction pairs");
    if (!r.done()) throw Error("state buffer: trailing bytes (a buffer from another version?)");
    // A world saved before its first step has no friction instances, so no
    // contacts either.
    if (friction_states.empty() && contacts > 0) {
        throw Error("state buffer: contacts without friction instances (a damaged buffer?)");
    }
    // The bodies' friction values first: the pairs are made from them.
    model_.friction_profiles = std::move(profiles);
    friction_profiles_changed_ = profiles_changed;
    for (size_t b = 0; b < body_profiles.size(); ++b) {
        BodyRecord& body = model_.bodies[b];
        body.friction_profile = body_profiles[b];
        if (!body.removed) model_.element_friction_profile[body.element] = body.friction_profile;
    }
    if (!friction_states.empty()) ensure_material_pairs();
    if (!friction_states.empty() || !friction_pairs.empty()) {
        remake_friction_pairs(friction_pairs, friction_states, restored.contact_models);
    }
    for (size_t k = 0; k < contacts; ++k) {
        const uint32_t f = restored.contact_models[k];
        const bool known = f < model_.friction_instances.size();
        const pivot_friction_functions* fn = known ? &model_.friction_instances[f].plugin().friction : nullptr;
        if (!known ||
            restored.contact_row_start[k + 1] - restored.contact_row_start[k] != WorldState::contact_rows_of(*fn) ||
            restored.contact_state_start[k + 1] - restored.contact_state_start[k] !=
                WorldState::contact_state_of(*fn)) {
            throw Error(fmt::format("state buffer: contact {} has no friction model of this world with its slots "
                                    "(a buffer from another world?)",
                                    k));
        }
    }
    if (!std::isfinite(restored.time)) throw Error("state buffer: time is not finite");
    const WorldState::EnergyWatch& watch = restored.energy_watch;
    if (!std::isfinite(watch.reference) || !std::isfinite(watch.kinetic_max) || !std::isfinite(watch.potential_min)) {
        throw Error("state buffer: the energy watch is not finite");
    }
    for (const auto* values : {&restored.q, &restored.v, &restored.applied}) {
        for (double x : *values) {
            if (!std::isfinite(x)) throw Error("state buffer: a coordinate, velocity or force is not finite");
        }
    }
    // Plugins first (a plugin refusing its bytes throws before the world's
    // own state changes; the plugins loaded before it keep the new state).
    for (size_t g = 0; g < element_states.size(); ++g) model_.element_groups[g].instance.load_state(element_states[g]);
    for (size_t g = 0; g < joint_states.size(); ++g) model_.joint_groups[g].instance.load_state(joint_states[g]);
    if (friction_states.empty() && !model_.friction_instances.empty()) {
        rebuild_material_pairs();  // saved before the first step: fresh instances
    }
    for (size_t f = 0; f < friction_states.size(); ++f) model_.friction_instances[f].load_state(friction_states[f]);
    state_ = std::move(restored);
    for (size_t g = 0; g < params.size(); ++g) model_.joint_groups[g].item_params = std::move(params[g]);
    for (size_t j = 0; j < joints.size(); ++j) {
        JointRecord& record = model_.joints[j];
        record.enabled = joints[j].enabled != 0;
        record.broken = joints[j].broken != 0;
        std::copy_n(joints[j].local_point, 3, record.frame2.local_point.begin());
        std::copy_n(joints[j].local_rotation, 4, record.frame2.local_rotation.begin());
        if (scratch_) update_attachment_point(model_, *scratch_, static_cast<uint32_t>(j));
    }
    if (scratch_) update_excluded_pairs(model_, *scratch_);  // which joints act decides which bodies collide
    for (size_t c = 0; c < cables.size(); ++c) {
        if (!model_.cables[c].removed && cables[c][0] != model_.cables[c].length) {
            set_cable_length(static_cast<CableId>(c), cables[c][0]);
        }
        model_.cables[c].reel_speed = cables[c][1];
    }
    for (size_t k = 0; k < ropes.size(); ++k) {
        model_.ropes[k].length = ropes[k][0];
        model_.ropes[k].reel_speed = ropes[k][1];
    }
    for (size_t b = 0; b < bodies.size(); ++b) {
        BodyRecord& record = model_.bodies[b];
        record.enabled = bodies[b].enabled;
        record.held_velocity = std::move(bodies[b].held_velocity);
        if (!record.removed) apply_body_enabled(record);
    }
    WorldSettings& settings = model_.settings;
    if (solver.id != solver_->primary_id() || solver.options != settings.solver.options ||
        direct_islands != settings.direct_islands || newton_islands != settings.newton_islands ||
        large_island_rows != settings.large_island_rows) {
        solver_->set_primary(solver);
        settings.solver = std::move(solver);
        settings.direct_islands = direct_islands;
        settings.newton_islands = newton_islands;
        settings.large_island_rows = large_island_rows;
        make_island_chains();
    }
    // The reports of the last step belong to the state left behind.
    outputs_.contact_reports.clear();
    outputs_.statistics = StepStatistics{};
    std::fill(outputs_.reactions.begin(), outputs_.reactions.end(), JointReaction{});
}

}  // namespace pivot
