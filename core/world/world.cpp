// Building a world and reading it: bodies become elements of the rigid-body
// element plugin, joints members of their joint plugin's group, with frames
// fixed on the bodies so that both frames of a joint coincide initially
// (the joint ABI's convention, <pivot/plugin_joint.h>).
#include "world/world.hpp"
#include "world/physical_limits.hpp"

#include <algorithm>
#include <tuple>
#include <cmath>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/worker_pool.hpp"
#include "plugin_host/checked_calls.hpp"
#include "plugin_host/parameters.hpp"
#include "step/step_scratch.hpp"

namespace pivot {

namespace {

using Mat3 = std::array<std::array<double, 3>, 3>;  // [row][column]

bool all_finite(const double* v, size_t n) {
    return std::all_of(v, v + n, [](double x) { return std::isfinite(x); });
}

Vec3d normalized(const Vec3d& a, const std::string& where) {
    const double n = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    if (!(n > 1e-12) || !std::isfinite(n)) throw Error(where + ": must be a nonzero finite vector");
    return {a[0] / n, a[1] / n, a[2] / n};
}

Vec3d cross(const Vec3d& a, const Vec3d& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const Vec3d& a, const Vec3d& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

Mat3 rotation(const Quatd& q) {
    const double w = q[0], x = q[1], y = q[2], z = q[3];
    return {{{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
             {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
             {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}}};
}

// The unit quaternion of the rotation whose columns are x, y, z (Shepperd).
Quatd quaternion_from_axes(const Vec3d& x, const Vec3d& y, const Vec3d& z) {
    const double m00 = x[0], m11 = y[1], m22 = z[2];
    const double trace = m00 + m11 + m22;
    Quatd q;
    if (trace > 0) {
        const double s = 2 * std::sqrt(1 + trace);
        q = {0.25 * s, (y[2] - z[1]) / s, (z[0] - x[2]) / s, (x[1] - y[0]) / s};
    } else if (m00 > m11 && m00 > m22) {
        const double s = 2 * std::sqrt(1 + m00 - m11 - m22);
        q = {(y[2] - z[1]) / s, 0.25 * s, (y[0] + x[1]) / s, (z[0] + x[2]) / s};
    } else if (m11 > m22) {
        const double s = 2 * std::sqrt(1 + m11 - m00 - m22);
        q = {(z[0] - x[2]) / s, (y[0] + x[1]) / s, 0.25 * s, (z[1] + y[2]) / s};
    } else {
        const double s = 2 * std::sqrt(1 + m22 - m00 - m11);
        q = {(x[1] - y[0]) / s, (z[0] + x[2]) / s, (z[1] + y[2]) / s, 0.25 * s};
    }
    const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    return {q[0] / n, q[1] / n, q[2] / n, q[3] / n};
}

// A frame whose x axis is `axis` (the y axis chosen perpendicular to it).
Quatd frame_with_x(const Vec3d& axis) {
    const Vec3d helper = std::abs(axis[0]) < 0.9 ? Vec3d{1, 0, 0} : Vec3d{0, 1, 0};
    const double d = dot(helper, axis);
    Vec3d y = {helper[0] - d * axis[0], helper[1] - d * axis[1], helper[2] - d * axis[2]};
    y = normalized(y, "frame");
    return quaternion_from_axes(axis, y, cross(axis, y));
}

Quatd conjugate_times(const Quatd& a, const Quatd& b) {  // a^* b
    const double w = a[0], x = -a[1], y = -a[2], z = -a[3];
    return {w * b[0] - x * b[1] - y * b[2] - z * b[3], w * b[1] + x * b[0] + y * b[3] - z * b[2],
            w * b[2] - x * b[3] + y * b[0] + z * b[1], w * b[3] + x * b[2] - y * b[1] + z * b[0]};
}

}  // namespace

pivot_element_batch element_batch(const ElementGroup& g, const WorldState& state, const double* v, const double* q) {
    if (q == nullptr) q = state.q.data() + g.q_offset;
    if (v == nullptr) v = state.v.data() + g.v_offset;
    if (!g.chain) return pivot_element_batch{g.count, g.item_stride, g.item_params.data(), q, v, g.q_reference.data()};
    // A chain stores nodes: element e is nodes e and e + 1, gathered into
    // count x nq (the batch layout every element call reads).
    g.gathered_q.resize(static_cast<size_t>(g.count) * g.nq);
    g.gathered_v.resize(static_cast<size_t>(g.count) * g.nv);
    for (uint32_t e = 0; e < g.count; ++e) {
        std::copy_n(q + g.element_q(e), g.nq, g.gathered_q.data() + static_cast<size_t>(e) * g.nq);
        std::copy_n(v + g.element_v(e), g.nv, g.gathered_v.data() + static_cast<size_t>(e) * g.nv);
    }
    return pivot_element_batch{g.count,          g.item_stride,       g.item_params.data(),
                               g.gathered_q.data(), g.gathered_v.data(), g.q_reference.data()};
}

World::World(const PluginRegistry& registry, WorldSettings settings) : registry_(&registry) {
    check_timestep(settings.timestep);
    check_gravity(settings.gravity);
    const auto require_nonnegative = [](double value, const char* field, const char* unit) {
        if (!(value >= 0.0) || !std::isfinite(value)) {
            throw Error(fmt::format("settings.{}: must be a finite number >= 0{}, got {}", field, unit, value));
        }
    };
    require_nonnegative(settings.contact_margin, "contact_margin", " m");
    require_nonnegative(settings.restitution_threshold, "restitution_threshold", " m/s");
    require_nonnegative(settings.contact_regularization, "contact_regularization", "");
    require_nonnegative(settings.divergence_energy, "divergence_energy", "");
    require_nonnegative(settings.divergence_joint_error, "divergence_joint_error", " m");
    if (settings.projection_iterations > 16) {
        throw Error(fmt::format("settings.projection_iterations: must be 0..16, got {}", settings.projection_iterations));
    }
    require_nonnegative(settings.solver_acceptance, "solver_acceptance", " N s");
    require_nonnegative(settings.step_budget, "step_budget", " s");
    require_nonnegative(settings.step_time_limit, "step_time_limit", " s");
    if (settings.threads > 64) {
        throw Error(fmt::format("settings.threads: must be 0 (automatic) .. 64, got {}", settings.threads));
    }
    model_.settings = std::move(settings);
    solver_ = std::make_unique<LcpSolverChain>(registry, model_.settings.solver, model_.settings.fallback,
                                               model_.settings.solver_acceptance);
    make_island_chains();
    // The material "default" always exists (docs/scene-format.md); its friction
    // plugin is looked up only when something collides.
    MaterialDescription standard;
    standard.name = "default";
    model_.materials.push_back(standard);
}

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
    scratch_.reset();
}

void World::rebuild_material_pairs() {
    // One friction instance per pair of materials. Different models: the
    // first material's model; mu = sqrt(mu1 mu2) when both have a "mu"
    // (docs/scene-format.md); restitution max; compliances in series add.
    const size_t n = model_.materials.size();
    model_.friction_instances.clear();
    model_.material_pairs.assign(n * n, MaterialPair{});
    for (size_t a = 0; a < n; ++a) {
        for (size_t b = a; b < n; ++b) {
            const MaterialDescription& ma = model_.materials[a];
            const MaterialDescription& mb = model_.materials[b];
            nlohmann::json params = ma.friction;
            std::string model_id = ma.friction_model;
            if (ma.friction_model == mb.friction_model && ma.friction.contains("mu") && mb.friction.contains("mu")) {
                params["mu"] = std::sqrt(ma.friction["mu"].get<double>() * mb.friction["mu"].get<double>());
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
            model_.friction_instances.emplace_back(
                plugin, pack_params(plugin, ParamScope::instance, params,
                                    fmt::format("materials '{}' and '{}': friction", ma.name, mb.name)));
            const MaterialPair pair{static_cast<uint32_t>(model_.friction_instances.size() - 1), restitution,
                                    compliance, damping};
            model_.material_pairs[a * n + b] = pair;
            model_.material_pairs[b * n + a] = pair;
        }
    }
    scratch_.reset();
}

collision::Shape World::make_shape(const ShapeDescription& d, const std::string& where, bool is_static) const {
    auto positive = [&](double v, const char* field) { check_shape_size(v, where, field); };
    collision::Shape shape;
    if (d.type == "sphere") {
        positive(d.radius, "radius");
        shape = collision::Shape::sphere(d.radius);
    } else if (d.type == "box") {
        for (int i = 0; i < 3; ++i) positive(d.size[i], "size");
        shape = collision::Shape::box({d.size[0], d.size[1], d.size[2]});
    } else if (d.type == "capsule" || d.type == "cylinder") {
        positive(d.radius, "radius");
        positive(d.length, "length");
        shape = d.type == "capsule" ? collision::Shape::capsule(d.radius, d.length)
                                    : collision::Shape::cylinder(d.radius, d.length);
    } else if (d.type == "plane") {
        if (!is_static) throw Error(where + ": type: a plane can only be a static shape");
        const Vec3d n = normalized(d.normal, where + ": normal");
        if (!(std::abs(d.offset) <= PhysicalLimits::max_coordinate)) {
            throw Error(fmt::format("{}: offset: must be finite and within +-{:g} m, got {}", where,
                                    PhysicalLimits::max_coordinate, d.offset));
        }
        shape = collision::Shape::plane({n[0], n[1], n[2]}, d.offset);
    } else {
        throw Error(fmt::format("{}: type: unknown shape type '{}' (sphere, box, capsule, cylinder, plane)", where,
                                d.type));
    }
    const auto& o = d.orientation;
    const double norm = std::sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2] + o[3] * o[3]);
    if (!(std::abs(norm - 1.0) <= 1e-6)) throw Error(where + ": orientation: must be a unit quaternion");
    check_position(d.position, where, "position");
    shape.local.position = {d.position[0], d.position[1], d.position[2]};
    shape.local.orientation = collision::Quat(o[0] / norm, o[1] / norm, o[2] / norm, o[3] / norm);
    auto it = std::find_if(model_.materials.begin(), model_.materials.end(),
                           [&](const MaterialDescription& m) { return m.name == d.material; });
    if (it == model_.materials.end()) throw Error(fmt::format("{}: material: no material named '{}'", where, d.material));
    shape.material = static_cast<uint32_t>(it - model_.materials.begin());
    return shape;
}

void World::add_static_shape(const ShapeDescription& shape) {
    const std::string where = fmt::format("static shape {}", model_.shapes.size());
    collision::Shape s = make_shape(shape, where, true);
    s.body = collision::kStaticBody;
    model_.shapes.push_back(s);
    scratch_.reset();
}

const std::vector<ContactReport>& World::contacts() const {
    static const std::vector<ContactReport> none;
    return scratch_ ? scratch_->contact_reports : none;
}

World::~World() = default;

ElementGroup& World::rigid_group() {
    const PluginRecord& plugin = registry_->require(PIVOT_KIND_ELEMENT, model_.settings.rigid_body_element);
    for (ElementGroup& g : model_.element_groups) {
        if (&g.instance.plugin() == &plugin) return g;
    }
    ElementGroup g;
    g.instance = PluginInstance(plugin, pack_params(plugin, ParamScope::instance, model_.settings.rigid_body_options,
                                                    "settings.rigid_body_options"));
    g.node_nq = plugin.element.coords_per_node;
    g.node_nv = plugin.element.velocities_per_node;
    g.nq = plugin.element.nodes_per_element * g.node_nq;
    g.nv = plugin.element.nodes_per_element * g.node_nv;
    g.item_stride = plugin.item_param_count();
    if (g.nq != 7 || g.nv != 6 || plugin.has(PIVOT_ELEMENT_CAP_SHARED_NODES)) {
        throw Error(fmt::format("{}: a rigid-body element must have 7 coordinates and 6 velocities", describe(plugin)));
    }
    // A new group goes after the existing ones (cables, when they came
    // first): add_body inserts at its offsets before the next relayout().
    g.first = model_.element_count;
    g.q_offset = model_.nq;
    g.v_offset = model_.nv;
    model_.element_groups.push_back(std::move(g));
    return model_.element_groups.back();
}

void World::relayout() {
    state_.energy_watch.valid = false;
    // Groups are contiguous in q and v, in creation order.
    uint32_t element = 0, q = 0, v = 0;
    model_.element_group.clear();
    model_.element_v_offset.clear();
    model_.element_nv.clear();
    model_.blocks.clear();
    model_.element_block.clear();
    model_.element_block_offset.clear();
    for (uint32_t gi = 0; gi < model_.element_groups.size(); ++gi) {
        ElementGroup& g = model_.element_groups[gi];
        g.first = element;
        g.q_offset = q;
        g.v_offset = v;
        if (g.chain && g.count > 0) {
            model_.blocks.push_back({gi, element, g.count, v, g.v_size(), true});
        }
        for (uint32_t e = 0; e < g.count; ++e) {
            model_.element_group.push_back(gi);
            model_.element_v_offset.push_back(v + g.element_v(e));
            model_.element_nv.push_back(g.nv);
            if (!g.chain) model_.blocks.push_back({gi, element + e, 1, v + g.element_v(e), g.nv, false});
            model_.element_block.push_back(static_cast<uint32_t>(model_.blocks.size() - 1));
            model_.element_block_offset.push_back(g.chain ? g.element_v(e) : 0);
        }
        element += g.count;
        q += g.q_size();
        v += g.v_size();
    }
    model_.element_count = element;
    // Contact samples of the cables: Gauss-Legendre points of each element.
    model_.contact_samples.clear();
    for (const CableRecord& cable : model_.cables) {
        const ElementGroup& g = model_.element_groups[cable.group];
        for (uint32_t e = 0; e < g.count; ++e) {
            const double length = g.item_params[static_cast<size_t>(e) * g.item_stride + cable.length_param];
            for (uint32_t k = 0; k < cable.contact_points; ++k) {
                model_.contact_samples.push_back({g.first + e, cable.contact_s[k], cable.contact_w[k] * length});
            }
        }
    }
    model_.nq = q;
    model_.nv = v;
    uint32_t impulses = 0;
    for (JointGroup& jg : model_.joint_groups) {
        jg.impulse_offset = impulses;
        impulses += jg.count * jg.max_rows;
    }
    state_.joint_impulses.assign(impulses, 0.0);  // building resets the warm start
    scratch_.reset();                             // re-sized at the next step
}

BodyId World::add_body(const BodyDescription& body) {
    const std::string where = fmt::format("body '{}'", body.name);
    if (body.name.empty()) throw Error("body: name must not be empty");
    if (body.name == "world") throw Error("body 'world': the name 'world' is reserved for the fixed world frame");
    if (body_by_name_.count(body.name)) throw Error(where + ": name: another body already has this name");
    if (std::any_of(model_.cables.begin(), model_.cables.end(), [&](const CableRecord& c) { return c.name == body.name; })) {
        throw Error(where + ": name: a cable already has this name");
    }
    check_mass_and_inertia(body.mass, body.inertia, where);
    if (!body.fixed) {
        const BodyRecord* lightest = nullptr;
        const BodyRecord* heaviest = nullptr;
        for (const BodyRecord& b : model_.bodies) {
            if (model_.fixed[b.element]) continue;
            if (!lightest || b.mass < lightest->mass) lightest = &b;
            if (!heaviest || b.mass > heaviest->mass) heaviest = &b;
        }
        check_mass_ratio(body.mass, where, lightest ? lightest->mass : 0.0, lightest ? lightest->name : "",
                         heaviest ? heaviest->mass : 0.0, heaviest ? heaviest->name : "");
    }
    check_position(body.position, where, "position");
    check_velocity(body.linear_velocity, body.angular_velocity, where);
    const auto& o = body.orientation;
    const double norm = std::sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2] + o[3] * o[3]);
    if (!(std::abs(norm - 1.0) <= 1e-6)) {
        throw Error(fmt::format("{}: orientation: not a unit quaternion (norm {})", where, norm));
    }

    std::vector<collision::Shape> shapes;
    for (size_t k = 0; k < body.shapes.size(); ++k) {
        shapes.push_back(make_shape(body.shapes[k], fmt::format("{}: shapes[{}]", where, k), false));
    }

    ElementGroup& g = rigid_group();
    const uint32_t group = static_cast<uint32_t>(&g - model_.element_groups.data());
    const auto& I = body.inertia;
    const nlohmann::json item = {{"mass", body.mass},
                                 {"inertia_diagonal", {I[0], I[4], I[8]}},
                                 {"inertia_products", {I[1], I[2], I[5]}}};
    const auto params = pack_params(g.instance.plugin(), ParamScope::item, item, where);
    // Insert the element at the end of its group, in the global arrays too.
    const uint32_t q_at = g.q_offset + g.count * g.nq;
    const uint32_t v_at = g.v_offset + g.count * g.nv;
    const uint32_t element_at = g.first + g.count;
    const double q[7] = {body.position[0], body.position[1], body.position[2], o[0] / norm, o[1] / norm, o[2] / norm,
                         o[3] / norm};
    const double v[6] = {body.linear_velocity[0],  body.linear_velocity[1],  body.linear_velocity[2],
                         body.angular_velocity[0], body.angular_velocity[1], body.angular_velocity[2]};
    state_.q.insert(state_.q.begin() + q_at, q, q + 7);
    state_.v.insert(state_.v.begin() + v_at, v, v + 6);
    state_.applied.insert(state_.applied.begin() + v_at, 6, 0.0);
    model_.fixed.insert(model_.fixed.begin() + element_at, body.fixed ? 1 : 0);
    g.item_params.insert(g.item_params.end(), params.begin(), params.end());
    g.q_reference.insert(g.q_reference.end(), q, q + 7);
    ++g.count;
    for (auto& b : model_.bodies) {
        if (b.element >= element_at) ++b.element;
    }
    for (auto& j : model_.joints) {
        for (Attachment* a : {&j.frame1, &j.frame2}) {
            if (a->element != Attachment::kWorld && a->element >= element_at) ++a->element;
        }
    }
    for (auto& shape : model_.shapes) {
        if (shape.body != collision::kStaticBody && shape.body >= static_cast<int32_t>(element_at)) ++shape.body;
    }
    for (auto& shape : shapes) {
        shape.body = static_cast<int32_t>(element_at);
        model_.shapes.push_back(shape);
    }
    model_.bodies.push_back({body.name, group, element_at, body.mass});
    body_by_name_.emplace(body.name, static_cast<BodyId>(model_.bodies.size() - 1));
    relayout();
    return static_cast<BodyId>(model_.bodies.size() - 1);
}

uint32_t World::joint_group(const PluginRecord& plugin) {
    for (uint32_t g = 0; g < model_.joint_groups.size(); ++g) {
        if (&model_.joint_groups[g].instance.plugin() == &plugin) return g;
    }
    JointGroup g;
    g.instance = PluginInstance(plugin, pack_params(plugin, ParamScope::instance, nlohmann::json::object(), plugin.id));
    g.max_rows = plugin.joint.max_rows_per_joint;
    g.item_stride = plugin.item_param_count();
    model_.joint_groups.push_back(std::move(g));
    return static_cast<uint32_t>(model_.joint_groups.size() - 1);
}

Attachment World::attach(std::string_view body_name, const std::array<double, 3>& point,
                         const std::array<double, 4>& frame, const std::string& where) const {
    Attachment a;
    if (body_name == "world") {
        a.local_point = point;
        a.local_rotation = frame;
        return a;
    }
    auto it = body_by_name_.find(std::string(body_name));
    if (it == body_by_name_.end()) {
        throw Error(fmt::format("{}: no body named '{}' (use \"world\" for the fixed world frame)", where, body_name));
    }
    const BodyRecord& b = model_.bodies[it->second];
    const double* q = state_.q.data() + model_.element_groups[b.group].q_offset +
                      (b.element - model_.element_groups[b.group].first) * 7;
    const Quatd orientation = {q[3], q[4], q[5], q[6]};
    const Mat3 r = rotation(orientation);
    const Vec3d d = {point[0] - q[0], point[1] - q[1], point[2] - q[2]};
    a.element = b.element;
    for (int i = 0; i < 3; ++i) a.local_point[i] = r[0][i] * d[0] + r[1][i] * d[1] + r[2][i] * d[2];  // R^T d
    a.local_rotation = conjugate_times(orientation, frame);
    return a;
}

JointId World::add_joint(const JointDescription& joint) {
    const std::string where = fmt::format("joint '{}'", joint.name);
    if (joint.name.empty()) throw Error("joint: name must not be empty");
    if (joint_by_name_.count(joint.name)) throw Error(where + ": name: another joint already has this name");
    if (joint.body1 == joint.body2) throw Error(where + ": body1 and body2 are the same ('" + joint.body1 + "')");
    const std::string id = joint.type.find('.') == std::string::npos ? "pivot.joint." + joint.type : joint.type;
    const PluginRecord* plugin = registry_->find(id);
    if (plugin == nullptr || plugin->kind != PIVOT_KIND_JOINT) {
        throw Error(fmt::format("{}: type: unknown joint type '{}' (fixed, spherical, revolute, prismatic, "
                                "cylindrical, universal, distance, or a loaded joint plugin id)",
                                where, joint.type));
    }
    auto finite3 = [&](const Vec3d& v, const char* field) {
        if (!all_finite(v.data(), 3)) throw Error(fmt::format("{}: {}: must be 3 finite numbers", where, field));
    };
    // Frames in world coordinates, coinciding at the initial configuration.
    Vec3d origin1 = joint.anchor, origin2 = joint.anchor;
    Quatd frame = {1, 0, 0, 0};
    const std::string short_type = id.substr(id.rfind('.') + 1);
    if (short_type == "distance") {
        finite3(joint.anchor1, "anchor1");
        finite3(joint.anchor2, "anchor2");
        origin1 = joint.anchor1;
        origin2 = joint.anchor2;
    } else if (short_type == "universal") {
        finite3(joint.anchor, "anchor");
        const Vec3d a1 = normalized(joint.axis1, where + ": axis1");
        const Vec3d a2 = normalized(joint.axis2, where + ": axis2");
        if (std::abs(dot(a1, a2)) > 1e-6) throw Error(where + ": axis1 and axis2 must be perpendicular");
        frame = quaternion_from_axes(a1, a2, cross(a1, a2));
    } else if (short_type == "prismatic") {
        // No anchor: the frames sit at body 2's centre of mass (or body 1's).
        const std::string& on = joint.body2 != "world" ? joint.body2 : joint.body1;
        if (on != "world") {
            const auto p = position(body(on));
            origin1 = origin2 = p;
        }
        frame = frame_with_x(normalized(joint.axis, where + ": axis"));
    } else {
        finite3(joint.anchor, "anchor");
        if (short_type == "revolute" || short_type == "cylindrical" || plugin->has(PIVOT_JOINT_CAP_FREE_COORDINATE)) {
            frame = frame_with_x(normalized(joint.axis, where + ": axis"));
        }
    }
    if (!(joint.compliance >= 0.0) || !std::isfinite(joint.compliance)) {
        throw Error(fmt::format("{}: compliance: must be >= 0, got {}", where, joint.compliance));
    }
    if (!(joint.damping >= 0.0) || !std::isfinite(joint.damping)) {
        throw Error(fmt::format("{}: damping: must be >= 0, got {}", where, joint.damping));
    }
    auto has_param = [&](const char* name) {
        return std::any_of(plugin->params.begin(), plugin->params.end(),
                           [&](const ParamSpec& p) { return p.name == name && p.per_item(); });
    };
    // Compliance and damping go to the joints that take them (every
    // first-party joint); another plugin's joint without them is rigid.
    nlohmann::json item = nlohmann::json::object();
    for (const auto& [name, value] : {std::pair{"compliance", joint.compliance}, std::pair{"damping", joint.damping}}) {
        if (has_param(name)) {
            item[name] = value;
        } else if (value != 0.0) {
            throw Error(fmt::format("{}: {}: a {} joint has no {} parameter", where, name, short_type, name));
        }
    }
    if (joint.limits) {
        if (!has_param("limits_enabled")) throw Error(where + ": limits: a " + short_type + " joint has no limits");
        if (!(joint.limits->lower <= joint.limits->upper)) {
            throw Error(fmt::format("{}: limits: lower ({}) must not exceed upper ({})", where, joint.limits->lower,
                                    joint.limits->upper));
        }
        item["limits_enabled"] = true;
        item["lower"] = joint.limits->lower;
        item["upper"] = joint.limits->upper;
    }
    if (joint.motor) {
        if (!has_param("motor_enabled")) throw Error(where + ": motor: a " + short_type + " joint has no motor");
        item["motor_enabled"] = true;
        item["motor_velocity"] = joint.motor->velocity;
        item["motor_max_force"] = joint.motor->max_force;
    }
    if (has_param("length")) {
        const Vec3d d = {origin2[0] - origin1[0], origin2[1] - origin1[1], origin2[2] - origin1[2]};
        item["length"] = joint.length ? *joint.length : std::sqrt(dot(d, d));
    }
    const auto params = pack_params(*plugin, ParamScope::item, item, where);
    const Attachment frame1 = attach(joint.body1, origin1, frame, where + ": body1");
    const Attachment frame2 = attach(joint.body2, origin2, frame, where + ": body2");
    return insert_joint(joint.name, *plugin, params, frame1, frame2);
}

JointId World::insert_joint(std::string name, const PluginRecord& plugin, const std::vector<double>& params,
                            const Attachment& frame1, const Attachment& frame2) {
    JointRecord record;
    record.name = std::move(name);
    record.frame1 = frame1;
    record.frame2 = frame2;
    record.group = joint_group(plugin);
    JointGroup& g = model_.joint_groups[record.group];
    record.member = g.count++;
    g.item_params.insert(g.item_params.end(), params.begin(), params.end());
    g.joints.push_back(static_cast<uint32_t>(model_.joints.size()));
    joint_by_name_.emplace(record.name, static_cast<JointId>(model_.joints.size()));
    model_.joints.push_back(std::move(record));
    relayout();
    return static_cast<JointId>(model_.joints.size() - 1);
}

CableId World::add_cable(const CableDescription& cable) {
    const std::string where = fmt::format("cable '{}'", cable.name);
    if (cable.name.empty()) throw Error("cable: name must not be empty");
    if (cable.name == "world" || body_by_name_.count(cable.name) ||
        std::any_of(model_.cables.begin(), model_.cables.end(), [&](const CableRecord& c) { return c.name == cable.name; })) {
        throw Error(where + ": name: another body or cable already has this name (or it is 'world')");
    }
    if (!all_finite(cable.start.data(), 3)) throw Error(where + ": start: must be 3 finite numbers");
    if (!all_finite(cable.end.data(), 3)) throw Error(where + ": end: must be 3 finite numbers");
    const Vec3d chord = {cable.end[0] - cable.start[0], cable.end[1] - cable.start[1], cable.end[2] - cable.start[2]};
    const double length = std::sqrt(dot(chord, chord));
    if (!(length > 1e-9)) throw Error(where + ": end: must differ from start (the cable needs a length)");
    if (cable.elements < 1 || cable.elements > 100000) {
        throw Error(fmt::format("{}: elements: must be in 1..100000, got {}", where, cable.elements));
    }
    auto positive = [&](double value, const char* field, const char* unit) {
        if (!(value > 0.0) || !std::isfinite(value)) {
            throw Error(fmt::format("{}: {}: must be a positive number of {}, got {}", where, field, unit, value));
        }
    };
    check_shape_size(cable.radius, where, "radius");  // its contact radius, a shape's size
    check_position(cable.start, where, "start");
    check_position(cable.end, where, "end");
    positive(cable.density, "density", "kg/m^3");
    positive(cable.youngs_modulus, "youngs_modulus", "Pa");
    if (!(cable.damping >= 0.0) || !std::isfinite(cable.damping)) {
        throw Error(fmt::format("{}: damping: must be a finite number >= 0 s, got {}", where, cable.damping));
    }
    const std::string id = cable.type.find('.') == std::string::npos ? "pivot.element." + cable.type : cable.type;
    const PluginRecord* plugin = registry_->find(id);
    if (plugin == nullptr || plugin->kind != PIVOT_KIND_ELEMENT) {
        throw Error(fmt::format("{}: type: no element plugin '{}' is loaded", where, cable.type));
    }
    if (!plugin->has(PIVOT_ELEMENT_CAP_SHARED_NODES) || plugin->element.geometry != PIVOT_ELEMENT_GEOMETRY_CURVE) {
        throw Error(fmt::format("{}: type: '{}' is not a cable element (it needs shared nodes and curve geometry)",
                                where, plugin->id));
    }
    const auto material = std::find_if(model_.materials.begin(), model_.materials.end(),
                                       [&](const MaterialDescription& m) { return m.name == cable.material; });
    if (material == model_.materials.end()) {
        throw Error(fmt::format("{}: material: no material named '{}'", where, cable.material));
    }
    nlohmann::json options = {{"radius", cable.radius},
                              {"density", cable.density},
                              {"youngs_modulus", cable.youngs_modulus},
                              {"damping", cable.damping}};
    if (cable.gauss_points) options["gauss_points"] = *cable.gauss_points;
    if (cable.geometric_stiffness) options["geometric_stiffness"] = *cable.geometric_stiffness;
    const double element_length = length / cable.elements;

    ElementGroup g;
    g.instance = PluginInstance(*plugin, pack_params(*plugin, ParamScope::instance, options, where));
    g.chain = true;
    g.node_nq = plugin->element.coords_per_node;
    g.node_nv = plugin->element.velocities_per_node;
    g.nq = 2 * g.node_nq;
    g.nv = 2 * g.node_nv;
    g.item_stride = plugin->item_param_count();
    g.count = cable.elements;
    const auto item = pack_params(*plugin, ParamScope::item, nlohmann::json{{"length", element_length}}, where);
    uint32_t length_param = 0;
    for (const ParamSpec& p : plugin->params) {
        if (!p.per_item()) continue;
        if (p.name == "length") break;
        length_param += p.length;
    }
    for (uint32_t e = 0; e < cable.elements; ++e) g.item_params.insert(g.item_params.end(), item.begin(), item.end());
    // Nodes on the straight line, the tangent as each node's x axis.
    const Vec3d axis = {chord[0] / length, chord[1] / length, chord[2] / length};
    const Quatd frame = frame_with_x(axis);
    PluginOutput<double> q(static_cast<size_t>(cable.elements + 1) * g.node_nq);
    for (uint32_t n = 0; n <= cable.elements; ++n) {
        const double t = static_cast<double>(n) / cable.elements;
        const double pose[7] = {cable.start[0] + t * chord[0], cable.start[1] + t * chord[1],
                                cable.start[2] + t * chord[2], frame[0], frame[1], frame[2], frame[3]};
        CallResult r = checked_node_coordinates(g.instance, pose, guarded(q, static_cast<size_t>(n) * g.node_nq));
        if (!r.ok()) throw Error(fmt::format("{}: {}", where, r.message));
    }
    for (uint32_t e = 0; e < cable.elements; ++e) {
        g.q_reference.insert(g.q_reference.end(), q.begin() + g.element_q(e), q.begin() + g.element_q(e) + g.nq);
    }
    // The element must accept its reference (a plugin checks it here, not at
    // the first step): its mass matrices.
    const std::vector<double> zero_v(static_cast<size_t>(g.count) * g.nv, 0.0);
    {
        PluginOutput<double> mass(static_cast<size_t>(g.count) * g.nv * g.nv);
        std::vector<double> gathered(g.q_reference);
        const pivot_element_batch batch{g.count, g.item_stride, g.item_params.data(), gathered.data(), zero_v.data(),
                                        g.q_reference.data()};
        CallResult r = checked_mass_matrix(g.instance, batch, guarded(mass));
        if (!r.ok()) throw Error(fmt::format("{}: {}", where, r.message));
    }
    // Attachments: resolved before anything changes, so a bad one leaves the world as it was.
    struct Pin {
        uint32_t node;
        const CableAttachment* a;
    };
    std::vector<Pin> pins;
    for (size_t k = 0; k < cable.attach.size(); ++k) {
        const CableAttachment& a = cable.attach[k];
        const std::string at = fmt::format("{}: attach[{}]", where, k);
        const int64_t node = a.node < 0 ? static_cast<int64_t>(cable.elements) + 1 + a.node : a.node;
        if (node < 0 || node > static_cast<int64_t>(cable.elements)) {
            throw Error(fmt::format("{}: node: {} is not a node of the cable (0 .. {}, or -1 / \"last\")", at, a.node,
                                    cable.elements));
        }
        if (a.type != "spherical" && a.type != "fixed") {
            throw Error(fmt::format("{}: type: '{}' is not an attachment type (spherical, fixed)", at, a.type));
        }
        if (a.body != "world" && !body_by_name_.count(a.body)) {
            throw Error(fmt::format("{}: body: no body named '{}' (use \"world\" for the fixed world frame)", at,
                                    a.body));
        }
        const std::string joint_name = fmt::format("{}/attach{}", cable.name, pins.size());
        if (joint_by_name_.count(joint_name)) {
            throw Error(fmt::format("{}: its joint would be named '{}', which another joint already has", at,
                                    joint_name));
        }
        for (const Pin& earlier : pins) {
            if (earlier.node == node && earlier.a->body == a.body) {
                throw Error(fmt::format("{}: node {} is already attached to '{}' (the rows would be redundant)", at,
                                        node, a.body));
            }
        }
        pins.push_back({static_cast<uint32_t>(node), &a});
    }

    CableRecord record;
    record.name = cable.name;
    record.material = static_cast<uint32_t>(material - model_.materials.begin());
    record.radius = cable.radius;
    record.length_param = length_param;
    // Contact samples: Gauss-Legendre points on [0, 1], about one per
    // cable diameter of element length, 1 to 3 (3 integrate the distributed
    // load of a cubic element exactly up to degree 5): elements shorter
    // than the cable is thick need no more than their midpoint.
    const double r3 = std::sqrt(0.6), r2 = 1.0 / std::sqrt(3.0);
    const double diameters = element_length / (2.0 * cable.radius);
    record.contact_points = diameters > 2.0 ? 3u : (diameters > 1.0 ? 2u : 1u);
    if (record.contact_points == 3) {
        const double s3[3] = {0.5 * (1.0 - r3), 0.5, 0.5 * (1.0 + r3)};
        const double w3[3] = {5.0 / 18.0, 8.0 / 18.0, 5.0 / 18.0};
        std::copy(s3, s3 + 3, record.contact_s);
        std::copy(w3, w3 + 3, record.contact_w);
    } else if (record.contact_points == 2) {
        record.contact_s[0] = 0.5 * (1.0 - r2), record.contact_s[1] = 0.5 * (1.0 + r2);
        record.contact_w[0] = record.contact_w[1] = 0.5;
    } else {
        record.contact_s[0] = 0.5, record.contact_w[0] = 1.0;
    }

    // The attachments' joints, prepared before anything changes (a failed
    // call changes nothing): each node is a material point of its element
    // (s = 0, or 1 for the last node), its frame and the body's (or the
    // world's) coinciding now; "fixed" is a revolute joint about the tangent
    // (the element has no torsion to clamp).
    struct PreparedJoint {
        std::string name;
        const PluginRecord* plugin;
        std::vector<double> params;
        Attachment on_cable, on_body;
    };
    std::vector<PreparedJoint> prepared;
    const uint32_t first_element = model_.element_count;
    for (size_t k = 0; k < pins.size(); ++k) {
        const uint32_t node = pins[k].node;
        const uint32_t e = std::min(node, cable.elements - 1);
        const double s_node = node == cable.elements ? 1.0 : 0.0;
        const std::string at = fmt::format("{}: attach[{}]", where, k);
        const pivot_element_batch batch{1, g.item_stride, g.item_params.data() + static_cast<size_t>(e) * g.item_stride,
                                        q.data() + g.element_q(e), zero_v.data(), g.q_reference.data() + e * g.nq};
        const pivot_material_point point{0, 0, {s_node, 0.0, 0.0}};
        GuardedArray<double, 7> pose_out;
        GuardedArray<double, 6> twist_out;
        PluginOutput<double> jacobian(6 * g.nv);
        CallResult r = checked_material_frames(g.instance, batch, &point, 1, guarded(pose_out), guarded(twist_out),
                                               guarded(jacobian));
        if (!r.ok()) throw Error(fmt::format("{}: {}", at, r.message));
        const double* pose = pose_out.values.data();
        const Quatd material_rotation = {pose[3], pose[4], pose[5], pose[6]};
        const Mat3 material_axes = rotation(material_rotation);
        const Vec3d tangent = {material_axes[0][0], material_axes[1][0], material_axes[2][0]};
        const bool fixed = pins[k].a->type == "fixed";
        const Quatd joint_frame = fixed ? frame_with_x(normalized(tangent, at)) : Quatd{1, 0, 0, 0};
        PreparedJoint j;
        j.name = fmt::format("{}/attach{}", cable.name, k);
        j.plugin = &registry_->require(PIVOT_KIND_JOINT, fixed ? "pivot.joint.revolute" : "pivot.joint.spherical");
        j.params = pack_params(*j.plugin, ParamScope::item, nlohmann::json::object(), at);
        j.on_cable.element = first_element + e;
        j.on_cable.local_point = {s_node, 0.0, 0.0};
        j.on_cable.local_rotation = conjugate_times(material_rotation, joint_frame);
        j.on_body = attach(pins[k].a->body, {pose[0], pose[1], pose[2]}, joint_frame, at + ": body");
        prepared.push_back(std::move(j));
    }
    for (const PreparedJoint& j : prepared) joint_group(*j.plugin);  // their plugins' instances exist

    model_.element_groups.push_back(std::move(g));
    record.group = static_cast<uint32_t>(model_.element_groups.size() - 1);
    const ElementGroup& added = model_.element_groups.back();
    state_.q.insert(state_.q.end(), q.begin(), q.end());
    state_.v.insert(state_.v.end(), added.v_size(), 0.0);
    state_.applied.insert(state_.applied.end(), added.v_size(), 0.0);
    model_.fixed.insert(model_.fixed.end(), added.count, 0);
    model_.cables.push_back(std::move(record));
    const auto cable_id = static_cast<CableId>(model_.cables.size() - 1);
    relayout();
    for (const PreparedJoint& j : prepared) {
        model_.cables[cable_id].attachment_joints.push_back(
            insert_joint(j.name, *j.plugin, j.params, j.on_cable, j.on_body));
    }
    return cable_id;
}

CableId World::cable(std::string_view name) const {
    for (uint32_t c = 0; c < model_.cables.size(); ++c) {
        if (model_.cables[c].name == name) return c;
    }
    throw Error(fmt::format("no cable named '{}'", name));
}

uint32_t World::cable_node_count(CableId c) const {
    return model_.element_groups[model_.cables.at(c).group].node_count();
}

void World::cable_point(CableId c, uint32_t element, double s, double pose[7], double twist[6]) const {
    const ElementGroup& g = model_.element_groups[model_.cables.at(c).group];
    if (element >= g.count || !(s >= 0.0 && s <= 1.0)) {
        throw Error(fmt::format("cable '{}': no point at element {}, s = {}", model_.cables[c].name, element, s));
    }
    Attachment a;
    a.element = g.first + element;
    a.local_point = {s, 0.0, 0.0};
    attachment_frame(a, pose, twist);
}

void World::cable_node(CableId c, uint32_t node, double pose[7], double twist[6]) const {
    const uint32_t elements = model_.element_groups[model_.cables.at(c).group].count;
    if (node > elements) throw Error(fmt::format("cable '{}': no node {}", model_.cables[c].name, node));
    // Node n is the start of element n; the last node the end of the last element.
    if (node < elements) {
        cable_point(c, node, 0.0, pose, twist);
    } else {
        cable_point(c, elements - 1, 1.0, pose, twist);
    }
}

std::array<double, 3> World::cable_node_position(CableId c, uint32_t node) const {
    double pose[7], twist[6];
    cable_node(c, node, pose, twist);
    return {pose[0], pose[1], pose[2]};
}

std::array<double, 3> World::cable_node_velocity(CableId c, uint32_t node) const {
    double pose[7], twist[6];
    cable_node(c, node, pose, twist);
    return {twist[0], twist[1], twist[2]};
}

std::array<double, 3> World::cable_node_tangent(CableId c, uint32_t node) const {
    double pose[7], twist[6];
    cable_node(c, node, pose, twist);
    const Mat3 r = rotation({pose[3], pose[4], pose[5], pose[6]});
    return {r[0][0], r[1][0], r[2][0]};
}

BodyId World::body(std::string_view name) const {
    auto it = body_by_name_.find(std::string(name));
    if (it == body_by_name_.end()) throw Error(fmt::format("no body named '{}'", name));
    return it->second;
}

JointId World::joint(std::string_view name) const {
    auto it = joint_by_name_.find(std::string(name));
    if (it == joint_by_name_.end()) throw Error(fmt::format("no joint named '{}'", name));
    return it->second;
}

const double* World::body_q(BodyId b) const {
    const BodyRecord& r = model_.bodies.at(b);
    const ElementGroup& g = model_.element_groups[r.group];
    return state_.q.data() + g.q_offset + (r.element - g.first) * g.nq;
}

const double* World::body_v(BodyId b) const {
    return state_.v.data() + model_.element_v_offset[model_.bodies.at(b).element];
}

std::array<double, 3> World::position(BodyId b) const {
    const double* q = body_q(b);
    return {q[0], q[1], q[2]};
}
std::array<double, 4> World::orientation(BodyId b) const {
    const double* q = body_q(b);
    return {q[3], q[4], q[5], q[6]};
}
std::array<double, 3> World::linear_velocity(BodyId b) const {
    const double* v = body_v(b);
    return {v[0], v[1], v[2]};
}
std::array<double, 3> World::angular_velocity(BodyId b) const {
    const double* v = body_v(b);
    return {v[3], v[4], v[5]};
}

void World::set_pose(BodyId b, const std::array<double, 3>& p, const std::array<double, 4>& o) {
    const double norm = std::sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2] + o[3] * o[3]);
    if (!(std::abs(norm - 1.0) <= 1e-6)) {
        throw Error(fmt::format("body '{}': set_pose: orientation must be a unit quaternion", body_name(b)));
    }
    check_position(p, fmt::format("body '{}': set_pose", body_name(b)), "position");
    auto* q = const_cast<double*>(body_q(b));
    q[0] = p[0], q[1] = p[1], q[2] = p[2];
    for (int i = 0; i < 4; ++i) q[3 + i] = o[i] / norm;
    state_.energy_watch.valid = false;
}

void World::set_velocity(BodyId b, const std::array<double, 3>& linear, const std::array<double, 3>& angular) {
    check_velocity(linear, angular, fmt::format("body '{}': set_velocity", body_name(b)));
    auto* v = const_cast<double*>(body_v(b));
    for (int i = 0; i < 3; ++i) v[i] = linear[i], v[3 + i] = angular[i];
    state_.energy_watch.valid = false;
}

void World::set_external_force(BodyId b, const std::array<double, 3>& force, const std::array<double, 3>& torque) {
    if (!all_finite(force.data(), 3) || !all_finite(torque.data(), 3)) {
        throw Error(fmt::format("body '{}': external force: must be finite", body_name(b)));
    }
    double* f = state_.applied.data() + model_.element_v_offset[model_.bodies.at(b).element];
    for (int i = 0; i < 3; ++i) f[i] = force[i], f[3 + i] = torque[i];
}

void World::set_motor_velocity(JointId j, double velocity) {
    const JointRecord& record = model_.joints.at(j);
    JointGroup& g = model_.joint_groups[record.group];
    const PluginRecord& plugin = g.instance.plugin();
    uint32_t offset = 0;
    bool found = false;
    for (const ParamSpec& p : plugin.params) {
        if (!p.per_item()) continue;
        if (p.name == "motor_velocity") {
            found = true;
            break;
        }
        offset += p.length;
    }
    if (!found || !std::isfinite(velocity)) {
        throw Error(fmt::format("joint '{}': set_motor_velocity: {}", record.name,
                                found ? "must be finite" : "this joint type has no motor"));
    }
    g.item_params[record.member * g.item_stride + offset] = velocity;
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

void World::make_island_chains() {
    // Large islands, and the contact islands the Newton solver fails on:
    // velocity PGS with the island's sweeps as its work budget, no
    // fallback behind it (an exact solver on thousands of rows takes
    // seconds); it stops early at a residual the chain accepts.
    // Velocity PGS also takes the islands whose matrix would exceed
    // max_assembled_values, whatever the solver (solve_islands.cpp).
    std::vector<SolverChoice> sweeps;
    if (registry_->find("pivot.solver.velocity_pgs") != nullptr) {
        const nlohmann::json options = {{"max_iterations", std::max<uint32_t>(model_.settings.large_island_sweeps, 1)},
                                        {"tolerance", 0.5 * model_.settings.solver_acceptance}};
        sweeps.push_back({"pivot.solver.velocity_pgs", options});
    }
    // Without a plugin (a registry that did not load it) the world's solver takes those islands.
    const auto make = [&](const char* id, bool& enabled,
                          const std::vector<SolverChoice>* behind) -> std::unique_ptr<LcpSolverChain> {
        if (!enabled || registry_->find(id) == nullptr) {
            enabled = false;
            return nullptr;
        }
        std::vector<SolverChoice> world_chain{model_.settings.solver};
        world_chain.insert(world_chain.end(), model_.settings.fallback.begin(), model_.settings.fallback.end());
        return std::make_unique<LcpSolverChain>(*registry_, SolverChoice{id, nlohmann::json::object()},
                                                behind != nullptr ? *behind : world_chain,
                                                model_.settings.solver_acceptance);
    };
    direct_ = make("pivot.solver.direct", model_.settings.direct_islands, nullptr);
    // Behind Newton: the bounded sweeps when there are any, not the world's
    // Dantzig and 10 000-sweep PGS, which take seconds on the 3-D piles
    // where Newton's pivoting stalls (a 300-sphere pile: docs/solvers.md).
    const bool sweeps_behind_newton = !sweeps.empty() && model_.settings.large_island_rows > 0;
    newton_ = make("pivot.solver.newton", model_.settings.newton_islands, sweeps_behind_newton ? &sweeps : nullptr);
    large_.reset();
    if (!sweeps.empty()) {
        large_ = std::make_unique<LcpSolverChain>(*registry_, sweeps.front(), std::vector<SolverChoice>{},
                                                  model_.settings.solver_acceptance);
    }
    worker_chains_.clear();  // cloned again from these at the next step
    worker_chain_owner_.clear();
}

void World::prepare_workers() {
    const uint32_t threads = WorkerPool::threads_for(model_.settings.threads);
    // The pool starts after a step with islands to share, or with contacts
    // enough for the contact stage to share (two chunks of its work).
    if (threads < 2 || !scratch_ || (scratch_->island_count < 2 && scratch_->contact_points.size() < 512)) return;
    if (!pool_) pool_ = std::make_unique<WorkerPool>(threads);
    if (!worker_chains_.empty()) return;
    // Per thread beyond the calling one, clones of the four chains.
    for (uint32_t w = 1; w < pool_->size(); ++w) {
        IslandChains chains;
        const auto own = [&](const std::unique_ptr<LcpSolverChain>& chain) -> LcpSolverChain* {
            if (!chain) return nullptr;
            worker_chain_owner_.push_back(chain->clone());
            return worker_chain_owner_.back().get();
        };
        chains.chain = own(solver_);
        chains.direct = own(direct_);
        chains.newton = own(newton_);
        chains.large = own(large_);
        worker_chains_.push_back(chains);
    }
}

void World::set_solver(const SolverChoice& solver) {
    for (const MaterialDescription& m : model_.materials) {
        const PluginRecord& model = registry_->require(PIVOT_KIND_FRICTION, m.friction_model);
        if (std::string why = nonsymmetric_pairing(model, solver.id); !why.empty()) {
            throw Error(fmt::format("solver: material '{}' uses {}", m.name, why));
        }
    }
    for (const MaterialPairDescription& o : model_.material_pair_overrides) {
        if (!o.friction_model) continue;
        const PluginRecord& model = registry_->require(PIVOT_KIND_FRICTION, *o.friction_model);
        if (std::string why = nonsymmetric_pairing(model, solver.id); !why.empty()) {
            throw Error(fmt::format("solver: material pair ('{}', '{}') uses {}", o.materials[0], o.materials[1], why));
        }
    }
    solver_->set_primary(solver);
    model_.settings.solver = solver;
    model_.settings.direct_islands = false;  // the chosen solver takes every island
    model_.settings.newton_islands = false;
    model_.settings.large_island_rows = 0;
    make_island_chains();
}

void World::set_fallback(const std::vector<SolverChoice>& fallback) {
    solver_->set_fallbacks(fallback);
    model_.settings.fallback = fallback;
    make_island_chains();
}

const JointReaction& World::reaction(JointId j) const {
    static const JointReaction none{};
    return scratch_ ? scratch_->reactions.at(j) : none;
}

const StepStatistics& World::statistics() const {
    static const StepStatistics none{};
    return scratch_ ? scratch_->statistics : none;
}

void World::attachment_frame(const Attachment& a, double pose[7], double twist[6]) const {
    if (a.element == Attachment::kWorld) {
        std::copy(a.local_point.begin(), a.local_point.end(), pose);
        std::copy(a.local_rotation.begin(), a.local_rotation.end(), pose + 3);
        std::fill(twist, twist + 6, 0.0);
        return;
    }
    const ElementGroup& g = model_.element_groups[model_.element_group[a.element]];
    const uint32_t e = a.element - g.first;
    // One element: its nodes are contiguous in the state, shared or not.
    const pivot_element_batch batch{1, g.item_stride, g.item_params.data() + e * g.item_stride,
                                    state_.q.data() + g.q_offset + g.element_q(e),
                                    state_.v.data() + g.v_offset + g.element_v(e), g.q_reference.data() + e * g.nq};
    const pivot_material_point point{0, 0, {a.local_point[0], a.local_point[1], a.local_point[2]}};
    GuardedArray<double, 7> pose_out;
    GuardedArray<double, 6> twist_out;
    frame_jacobian_.resize(6 * g.nv);  // grows once: readers call this every frame (cable nodes)
    CallResult r = checked_material_frames(g.instance, batch, &point, 1, guarded(pose_out), guarded(twist_out),
                                           guarded(frame_jacobian_));
    if (!r.ok()) throw Error(r.message);
    const double* raw_pose = pose_out.values.data();
    std::copy_n(twist_out.values.data(), 6, twist);
    std::copy(raw_pose, raw_pose + 3, pose);
    // The frame's orientation: the material frame's, then the attachment's rotation.
    const Quatd body_conjugate = {raw_pose[3], -raw_pose[4], -raw_pose[5], -raw_pose[6]};
    const Quatd frame = conjugate_times(body_conjugate, a.local_rotation);  // q_body * local_rotation
    std::copy(frame.begin(), frame.end(), pose + 3);
}

std::array<double, 2> World::joint_coordinate(JointId j) const {
    const JointRecord& record = model_.joints.at(j);
    const JointGroup& g = model_.joint_groups[record.group];
    const PluginRecord& plugin = g.instance.plugin();
    if (plugin.joint.coordinate == nullptr) {
        throw Error(fmt::format("joint '{}': a {} joint has no free coordinate", record.name, plugin.id));
    }
    double pose1[7], pose2[7], twist1[6], twist2[6];
    attachment_frame(record.frame1, pose1, twist1);
    attachment_frame(record.frame2, pose2, twist2);
    const pivot_joint_batch batch{1, g.item_stride, g.item_params.data() + record.member * g.item_stride,
                                  pose1, pose2, twist1, twist2};
    double position = 0.0, velocity = 0.0;
    if (g.instance.fatal()) {
        throw Error(fmt::format("joint '{}': {}: coordinate: not called: the instance returned FATAL before",
                                record.name, describe(plugin)));
    }
    const pivot_status status = plugin.joint.coordinate(g.instance.handle(), &batch, &position, &velocity);
    if (status == PIVOT_FATAL) g.instance.mark_fatal();
    if (status > PIVOT_WARNING || !std::isfinite(position) || !std::isfinite(velocity)) {
        throw Error(fmt::format("joint '{}': {}: coordinate failed", record.name, describe(plugin)));
    }
    return {position, velocity};
}

Energy World::energy() const {
    Energy total;
    pivot_step_info step{sizeof(pivot_step_info), 0, model_.settings.timestep, state_.time,
                         {model_.settings.gravity[0], model_.settings.gravity[1], model_.settings.gravity[2]}};
    for (const ElementGroup& g : model_.element_groups) {
        if (g.count == 0) continue;
        const pivot_element_batch batch = element_batch(g, state_);
        GuardedArray<double, 3> energies;
        CallResult r = checked_energy(g.instance, batch, step, guarded(energies));
        if (!r.ok()) throw Error(r.message);
        const double* e = energies.values.data();
        total.kinetic += e[0];
        total.gravitational += e[1];
        total.elastic += e[2];
    }
    // Compliant joint rows store (1/2) phi^2 / c at the current configuration
    // (the potential of the compliant constitutive law c lambda = -phi).
    for (const JointGroup& g : model_.joint_groups) {
        PluginOutput<pivot_row> rows(g.max_rows);
        PluginOutput<double> jacobians(12 * g.max_rows);
        for (uint32_t m = 0; m < g.count; ++m) {
            const JointRecord& record = model_.joints[g.joints[m]];
            double pose1[7], pose2[7], twist1[6], twist2[6];
            attachment_frame(record.frame1, pose1, twist1);
            attachment_frame(record.frame2, pose2, twist2);
            const pivot_joint_batch batch{1, g.item_stride, g.item_params.data() + m * g.item_stride,
                                          pose1, pose2, twist1, twist2};
            GuardedArray<uint32_t, 1> row_count;
            CallResult r = checked_joint_rows(g.instance, batch, step, guarded(rows), guarded(jacobians),
                                              guarded(row_count));
            if (!r.ok()) throw Error(r.message);
            const uint32_t count = row_count.values[0];
            for (uint32_t k = 0; k < count; ++k) {
                if (rows[k].compliance > 0.0 && (rows[k].flags & PIVOT_ROW_POSITION_ERROR)) {
                    total.elastic += 0.5 * rows[k].violation * rows[k].violation / rows[k].compliance;
                }
            }
        }
    }
    return total;
}

}  // namespace pivot
