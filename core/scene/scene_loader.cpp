// Reads a scene document top-down into World's build calls: settings (and
// plugin_paths first, since everything else may name their plugins),
// materials, material pairs, bodies, static shapes, cables (they attach to
// bodies), joints (whose names must not clash with the cables' attachment
// joints, "<cable>/attach<k>"), ropes (they pass bodies), the operator's
// controls (they name joints, cables and ropes). The structure
// (keys, types, references between objects) is checked here, where the JSON
// Pointer is known; value ranges are World's own checks, whose messages get
// the file and the pointer prepended, so no rule is written twice.
// One file (~650 lines) for one reader: SceneBuilder's sections (marked
// "--- settings ---" and so on) share its registry, its name tables and
// its error wording; split, the class would need a header of its own.
#include "scene/scene_loader.hpp"

#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <system_error>
#include <tuple>
#include <vector>

#include <Eigen/Eigenvalues>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/error.hpp"
#include "common/input_limits.hpp"
#include "plugin_host/parameters.hpp"
#include "scene/integrator_reader.hpp"
#include "scene/json_reader.hpp"
#include "scene/short_names.hpp"
#include "world/physical_limits.hpp"

namespace pivot {

namespace {

using scene::JsonAt;
using scene::JsonObject;

constexpr std::string_view kFormat = "pivot-scene/1";
constexpr size_t kMaxListedNames = 10;  // names listed in "no body named ..." messages

// "a, b, c" (at most kMaxListedNames, then "...").
std::string name_list(const std::vector<std::string>& names) {
    if (names.empty()) return "none";
    std::vector<std::string> shown(names.begin(), names.begin() + std::min(names.size(), kMaxListedNames));
    if (names.size() > kMaxListedNames) shown.push_back(fmt::format("... ({} in all)", names.size()));
    return fmt::format("{}", fmt::join(shown, ", "));
}

// Runs a World build call; its pivot::Error gets the file and pointer prepended.
template <typename Call>
decltype(auto) at_pointer(const JsonAt& at, Call&& call) {
    try {
        return call();
    } catch (const Error& e) {
        at.fail(e.what());
    }
}

class SceneBuilder {
public:
    SceneBuilder(PluginRegistry& registry, const std::filesystem::path& base_dir, const SceneOptions& options)
        : registry_(registry), base_dir_(base_dir), options_(options) {}

    std::unique_ptr<World> build(const JsonAt& root) {
        root.expect_object();
        // The format first: a newer file should say so rather than fail on a new key.
        if (!root.json().contains("format")) {
            root.fail_below("format", fmt::format("missing required key 'format' (\"{}\")", kFormat));
        }
        if (root["format"].string() != kFormat) {
            root["format"].fail(fmt::format("unsupported format {}; this version reads \"{}\"",
                                            scene::describe_json(root["format"].json()), kFormat));
        }
        const JsonObject top(root, {"format", "settings", "materials", "material_pairs", "bodies", "static_shapes",
                                    "joints", "cables", "ropes", "controls"});
        // An empty settings object stands for an absent one.
        const nlohmann::json no_settings = nlohmann::json::object();
        read_settings(top.optional("settings").value_or(JsonAt(no_settings, "/settings", root.source())));
        if (auto materials = top.optional("materials")) read_materials(*materials);
        if (auto pairs = top.optional("material_pairs")) read_material_pairs(*pairs);
        if (auto bodies = top.optional("bodies")) read_bodies(*bodies);
        if (auto shapes = top.optional("static_shapes")) read_static_shapes(*shapes);
        if (auto cables = top.optional("cables")) read_cables(*cables);
        if (auto joints = top.optional("joints")) read_joints(*joints);
        if (auto ropes = top.optional("ropes")) read_ropes(*ropes);
        if (auto controls = top.optional("controls")) {
            std::vector<OperatorControl> read = read_operator_controls(*controls, *world_);
            if (options_.controls != nullptr) *options_.controls = std::move(read);
        }
        return std::move(world_);
    }

private:
    // --- settings -------------------------------------------------------

    void read_settings(const JsonAt& at) {
        const JsonObject s(at, {"timestep", "gravity", "solver", "solver_options", "fallback", "plugin_paths",
                                "solver_acceptance", "contact_margin", "restitution_threshold",
                                "contact_regularization", "geometric_stiffness", "projection_iterations",
                                "divergence_energy", "divergence_joint_error", "direct_islands", "newton_islands", "large_island_rows", "large_island_sweeps",
                                "step_budget", "step_time_limit", "threads", "integrator"});
        if (auto paths = s.optional("plugin_paths")) load_plugin_paths(*paths);

        WorldSettings settings;
        if (auto v = s.optional("timestep")) {
            settings.timestep = v->number();
            if (!(settings.timestep > 0.0)) v->fail(fmt::format("must be > 0 s, got {}", settings.timestep));
            if (!(settings.timestep <= PhysicalLimits::max_timestep)) {
                v->fail(fmt::format("must be at most {} s, got {}", PhysicalLimits::max_timestep, settings.timestep));
            }
        }
        if (auto v = s.optional("gravity")) {
            settings.gravity = v->vec3();
            const auto& g = settings.gravity;
            if (!(std::sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) <= PhysicalLimits::max_gravity)) {
                v->fail(fmt::format("magnitude must be at most {} m/s^2, got [{}, {}, {}]", PhysicalLimits::max_gravity,
                                    g[0], g[1], g[2]));
            }
        }
        for (auto [key, field] : {std::pair{"solver_acceptance", &settings.solver_acceptance},
                                  std::pair{"contact_margin", &settings.contact_margin},
                                  std::pair{"restitution_threshold", &settings.restitution_threshold},
                                  std::pair{"contact_regularization", &settings.contact_regularization},
                                  std::pair{"divergence_energy", &settings.divergence_energy},
                                  std::pair{"divergence_joint_error", &settings.divergence_joint_error}}) {
            if (auto v = s.optional(key)) {
                *field = v->number();
                if (!(*field >= 0.0)) v->fail(fmt::format("must be >= 0, got {}", *field));
            }
        }

        if (auto v = s.optional("integrator")) read_integrator(*v, settings);
        if (auto v = s.optional("geometric_stiffness")) settings.geometric_stiffness = v->boolean();
        if (auto v = s.optional("projection_iterations")) {
            const double n = v->number();
            if (!(n >= 0.0 && n <= 16.0 && n == std::floor(n))) {
                v->fail(fmt::format("must be a whole number 0..16, got {}", n));
            }
            settings.projection_iterations = static_cast<uint32_t>(n);
        }
        if (auto v = s.optional("solver")) {
            settings.solver.id = solver_id(*v);
            settings.direct_islands = false;  // a named solver takes every island
            settings.newton_islands = false;
            settings.large_island_rows = 0;
        }
        if (auto v = s.optional("solver_options")) {
            v->expect_object();
            settings.solver.options = v->json();
        }
        if (options_.solver) {
            const std::string id = at_pointer(at, [&] {
                try {
                    return registry_.require(PIVOT_KIND_SOLVER, *options_.solver).id;
                } catch (const Error& e) {
                    throw Error(fmt::format("solver override: {}", e.what()));
                }
            });
            if (id != settings.solver.id) settings.solver.options = nlohmann::json::object();
            settings.solver.id = id;
            settings.direct_islands = false;
            settings.newton_islands = false;
            settings.large_island_rows = 0;
        }
        if (auto v = s.optional("direct_islands")) settings.direct_islands = v->boolean();
        if (auto v = s.optional("newton_islands")) settings.newton_islands = v->boolean();
        for (auto [key, field, least] : {std::tuple{"large_island_rows", &settings.large_island_rows, 0.0},
                                         std::tuple{"large_island_sweeps", &settings.large_island_sweeps, 1.0}}) {
            if (auto v = s.optional(key)) {
                const double n = v->number();
                if (!(n >= least && n <= 1e9 && n == std::floor(n))) {
                    v->fail(fmt::format("must be a whole number {}..1e9, got {}", least, n));
                }
                *field = static_cast<uint32_t>(n);
            }
        }
        if (auto v = s.optional("step_budget")) {
            const double seconds = v->number();
            if (!(seconds >= 0.0 && std::isfinite(seconds))) v->fail(fmt::format("must be a finite number of seconds >= 0, got {}", seconds));
            settings.step_budget = seconds;
        }
        if (auto v = s.optional("step_time_limit")) {
            const double seconds = v->number();
            if (!(seconds >= 0.0)) v->fail(fmt::format("must be a number of seconds >= 0 (0 = off), got {}", seconds));
            settings.step_time_limit = seconds;
        }
        if (auto v = s.optional("threads")) {
            const double n = v->number();
            if (!(n >= 0.0 && n <= 64.0 && n == std::floor(n))) v->fail(fmt::format("must be a whole number 0..64, got {}", n));
            settings.threads = static_cast<uint32_t>(n);
        }
        const JsonAt options_at = s.optional("solver_options").value_or(at);
        at_pointer(options_at, [&] {
            const PluginRecord& solver = registry_.require(PIVOT_KIND_SOLVER, settings.solver.id);
            pack_params(solver, ParamScope::instance, settings.solver.options,
                        fmt::format("solver '{}' options", solver.id));  // validates
        });

        if (auto v = s.optional("fallback")) {
            settings.fallback.clear();
            for (size_t i = 0; i < v->array_size(); ++i) {
                settings.fallback.push_back({solver_id((*v)[i]), nlohmann::json::object()});
            }
        }
        world_ = at_pointer(at, [&] { return std::make_unique<World>(registry_, settings); });
    }

    void load_plugin_paths(const JsonAt& at) {
        for (size_t i = 0; i < at.array_size(); ++i) {
            const JsonAt item = at[i];
            const std::filesystem::path path = base_dir_ / item.nonempty_string();
            std::error_code ec;
            if (!std::filesystem::exists(path, ec)) item.fail(fmt::format("no such file or folder: {}", path.string()));
            const LoadReport report = registry_.load(path);
            if (!report.ok()) item.fail(fmt::format("{}", fmt::join(report.problems, "; ")));
        }
    }

    std::string solver_id(const JsonAt& at) const {
        const std::string name = at.nonempty_string();
        return at_pointer(at, [&] { return registry_.require(PIVOT_KIND_SOLVER, name).id; });
    }

    // --- materials ------------------------------------------------------

    // A "friction" object: "model" (a friction plugin id or short name) and
    // that model's parameters; the model is resolved here so an unknown one
    // is reported at .../friction/model.
    std::pair<std::optional<std::string>, nlohmann::json> read_friction(const JsonAt& at) const {
        at.expect_object();
        std::optional<std::string> model;
        nlohmann::json params = at.json();
        if (params.contains("model")) {
            const JsonAt m = at["model"];
            const std::string name = m.nonempty_string();
            model = at_pointer(m, [&] { return registry_.require(PIVOT_KIND_FRICTION, name).id; });
            params.erase("model");
        }
        return {model, params};
    }

    void read_materials(const JsonAt& at) {
        at.expect_object();
        for (const auto& item : at.json().items()) {
            const JsonAt m_at = at[item.key()];
            const JsonObject m(m_at, {"friction", "restitution", "compliance", "damping"});
            MaterialDescription material;
            material.name = item.key();
            if (material.name.empty()) m_at.fail("a material name must not be empty");
            if (auto f = m.optional("friction")) {
                auto [model, params] = read_friction(*f);
                if (model) material.friction_model = *model;
                material.friction = params;
            }
            if (auto v = m.optional("restitution")) material.restitution = v->number();
            if (auto v = m.optional("compliance")) material.compliance = v->number();
            if (auto v = m.optional("damping")) material.damping = v->number();
            at_pointer(m_at, [&] { world_->add_material(material); });
            materials_.insert(material.name);
        }
    }

    void read_material_pairs(const JsonAt& at) {
        for (size_t i = 0; i < at.array_size(); ++i) {
            const JsonAt p_at = at[i];
            const JsonObject p(p_at, {"materials", "friction", "restitution", "compliance", "damping"});
            MaterialPairDescription pair;
            const JsonAt names = p.required("materials", "the names of the two materials");
            if (names.array_size() != 2) names.fail("expected 2 material names, got " + scene::describe_json(names.json()));
            for (size_t k = 0; k < 2; ++k) pair.materials[k] = material_name(names[k]);
            if (auto f = p.optional("friction")) {
                auto [model, params] = read_friction(*f);
                pair.friction_model = model;
                pair.friction = params;
            }
            if (auto v = p.optional("restitution")) pair.restitution = v->number();
            if (auto v = p.optional("compliance")) pair.compliance = v->number();
            if (auto v = p.optional("damping")) pair.damping = v->number();
            at_pointer(p_at, [&] { world_->add_material_pair(pair); });
        }
    }

    std::string material_name(const JsonAt& at) const {
        std::string name = at.nonempty_string();
        if (!materials_.count(name)) {
            at.fail(fmt::format("no material named '{}' (defined: {})", name,
                                name_list(std::vector<std::string>(materials_.begin(), materials_.end()))));
        }
        return name;
    }

    // --- shapes ---------------------------------------------------------

    ShapeDescription read_shape(const JsonAt& at, bool is_static) const {
        at.expect_object();
        if (!at.json().contains("type")) {
            at.fail_below("type", "missing required key 'type' (sphere, box, capsule, cylinder" +
                                      std::string(is_static ? ", plane)" : ")"));
        }
        ShapeDescription shape;
        shape.type = at["type"].string();
        std::vector<std::string_view> keys = {"type", "material"};
        if (shape.type == "sphere") {
            keys.insert(keys.end(), {"radius", "position", "orientation"});
        } else if (shape.type == "box") {
            keys.insert(keys.end(), {"size", "position", "orientation"});
        } else if (shape.type == "capsule" || shape.type == "cylinder") {
            keys.insert(keys.end(), {"radius", "length", "position", "orientation"});
        } else if (shape.type == "plane") {
            if (!is_static) at["type"].fail("a plane can only be a static shape (static_shapes)");
            keys.insert(keys.end(), {"normal", "offset"});
        } else {
            at["type"].fail(fmt::format("unknown shape type '{}' (sphere, box, capsule, cylinder{})", shape.type,
                                        is_static ? ", plane" : ""));
        }
        const JsonObject s(at, keys);
        const std::string what = "of a " + shape.type;
        if (shape.type == "sphere" || shape.type == "capsule" || shape.type == "cylinder") {
            shape.radius = s.required("radius", "m, " + what).number();
        }
        if (shape.type == "capsule" || shape.type == "cylinder") {
            shape.length = s.required("length", "m along the local z axis, " + what).number();
        }
        if (shape.type == "box") shape.size = s.required("size", "full edge lengths [x, y, z] in m").vec3();
        if (shape.type == "plane") {
            shape.normal = s.required("normal", "the plane's normal; n.x <= offset is solid").vec3();
            if (auto v = s.optional("offset")) shape.offset = v->number();
        }
        if (auto v = s.optional("position")) shape.position = v->vec3();
        if (auto v = s.optional("orientation")) shape.orientation = v->unit_quaternion();
        if (auto v = s.optional("material")) shape.material = material_name(*v);
        return shape;
    }

    void read_static_shapes(const JsonAt& at) {
        for (size_t i = 0; i < at.array_size(); ++i) {
            const ShapeDescription shape = read_shape(at[i], true);
            at_pointer(at[i], [&] { world_->add_static_shape(shape); });
        }
    }

    // --- bodies ---------------------------------------------------------

    static std::array<double, 9> read_inertia(const JsonAt& at) {
        const std::vector<double> v = at.numbers();
        std::array<double, 9> I{};
        if (v.size() == 3) {
            for (int i = 0; i < 3; ++i) {
                if (!(v[i] > 0.0)) {
                    at.fail(fmt::format("not positive definite: principal moment {} is {} kg m^2, must be > 0", i,
                                        v[i]));
                }
            }
            I = {v[0], 0, 0, 0, v[1], 0, 0, 0, v[2]};
            return I;
        }
        if (v.size() != 9) {
            at.fail(fmt::format("expected 3 numbers (principal moments) or 9 (the symmetric matrix, row-major), got {}",
                                v.size()));
        }
        std::copy(v.begin(), v.end(), I.begin());
        const double scale = std::abs(I[0]) + std::abs(I[4]) + std::abs(I[8]);
        for (int r = 0; r < 3; ++r) {
            for (int c = r + 1; c < 3; ++c) {
                if (std::abs(I[3 * r + c] - I[3 * c + r]) > 1e-12 * scale) {
                    at.fail(fmt::format("not symmetric: entry ({}, {}) is {} but ({}, {}) is {}", r, c, I[3 * r + c],
                                        c, r, I[3 * c + r]));
                }
            }
        }
        const Eigen::Matrix3d m = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(I.data());
        const Eigen::Vector3d eig = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(m, Eigen::EigenvaluesOnly).eigenvalues();
        if (!(eig[0] > 0.0)) {
            at.fail(fmt::format("not positive definite: its eigenvalues (principal moments) are {:.6g}, {:.6g}, {:.6g} "
                                "kg m^2, all must be > 0",
                                eig[0], eig[1], eig[2]));
        }
        return I;
    }

    void read_bodies(const JsonAt& at) {
        for (size_t i = 0; i < at.array_size(); ++i) {
            const JsonAt b_at = at[i];
            const JsonObject b(b_at, {"name", "mass", "inertia", "position", "orientation", "linear_velocity",
                                      "angular_velocity", "fixed", "shapes", "linear_damping", "angular_damping",
                                      "friction"});
            BodyDescription body;
            const JsonAt name = b.required("name", "a unique body name");
            body.name = name.nonempty_string();
            if (body.name == "world") name.fail("the name 'world' is reserved for the fixed world frame");
            if (auto it = body_pointers_.find(body.name); it != body_pointers_.end()) {
                name.fail(fmt::format("duplicate body name '{}' (also {})", body.name, it->second));
            }
            if (auto v = b.optional("fixed")) body.fixed = v->boolean();
            // A fixed body never moves, so its mass and inertia may be left out.
            if (body.fixed) {
                if (auto v = b.optional("mass")) body.mass = v->number();
                if (auto v = b.optional("inertia")) body.inertia = read_inertia(*v);
            } else {
                body.mass = b.required("mass", "kg, > 0").number();
                body.inertia = read_inertia(b.required("inertia", "kg m^2: 3 principal moments or 9 numbers"));
            }
            if (auto v = b.optional("position")) body.position = v->vec3();
            if (auto v = b.optional("orientation")) body.orientation = v->unit_quaternion();
            if (auto v = b.optional("linear_velocity")) body.linear_velocity = v->vec3();
            if (auto v = b.optional("angular_velocity")) body.angular_velocity = v->vec3();
            if (auto v = b.optional("linear_damping")) body.linear_damping = v->number();
            if (auto v = b.optional("angular_damping")) body.angular_damping = v->number();
            if (auto v = b.optional("friction")) {
                // The body's own values of its materials' friction parameters
                // (no "model": the contact's materials choose it).
                v->expect_object();
                body.friction = v->json();
            }
            if (auto shapes = b.optional("shapes")) {
                for (size_t k = 0; k < shapes->array_size(); ++k) body.shapes.push_back(read_shape((*shapes)[k], false));
            }
            at_pointer(b_at, [&] { world_->add_body(body); });
            body_pointers_.emplace(body.name, b_at.pointer());
            body_names_.push_back(body.name);
        }
    }

    // --- joints ---------------------------------------------------------

    std::string body_name(const JsonAt& at) const {
        std::string name = at.nonempty_string();
        if (auto it = cable_pointers_.find(name); it != cable_pointers_.end()) {
            at.fail(fmt::format("'{}' is a cable ({}), not a body (a cable is pinned to bodies by its own \"attach\" "
                                "list)",
                                name, it->second));
        }
        if (name != "world" && !body_pointers_.count(name)) {
            at.fail(fmt::format("no body named '{}' (bodies: {}; \"world\" is the fixed world frame)", name,
                                name_list(body_names_)));
        }
        return name;
    }

    static JointLimits read_limits(const JsonAt& at) {
        const JsonObject l(at, {"lower", "upper"});
        return {l.required("lower", "rad or m").number(), l.required("upper", "rad or m").number()};
    }

    // A motor: a velocity motor {velocity, max_force}, or a drive with a
    // "mode" (docs/scene-format.md "Joints"): position (position,
    // stiffness, damping, velocity as feed-forward) or force (force).
    static JointMotor read_motor(const JsonAt& at) {
        const JsonObject m(at, {"mode", "velocity", "max_force", "position", "stiffness", "damping", "force"});
        JointMotor motor;
        if (auto mode = m.optional("mode")) {
            const std::string name = mode->string();
            if (name == "velocity") motor.mode = PIVOT_MOTOR_VELOCITY;
            else if (name == "position") motor.mode = PIVOT_MOTOR_POSITION;
            else if (name == "force") motor.mode = PIVOT_MOTOR_FORCE;
            else mode->fail("'" + name + "' is not a motor mode (velocity, position or force)");
        }
        const auto number = [&](std::string_view key, double& value) {
            if (auto v = m.optional(key)) value = v->number();
        };
        if (motor.mode == PIVOT_MOTOR_VELOCITY) motor.velocity = m.required("velocity", "target, rad/s or m/s").number();
        else number("velocity", motor.velocity);
        motor.max_force = m.required("max_force", "N m or N, >= 0").number();
        number("position", motor.position);
        number("stiffness", motor.stiffness);
        number("damping", motor.damping);
        number("force", motor.force);
        return motor;
    }

    void read_joints(const JsonAt& at) {
        for (size_t i = 0; i < at.array_size(); ++i) {
            const JsonAt j_at = at[i];
            j_at.expect_object();
            if (!j_at.json().contains("type")) {
                j_at.fail_below("type", "missing required key 'type' (fixed, spherical, revolute, prismatic, "
                                        "cylindrical, universal, distance, or a joint plugin id)");
            }
            const JsonAt type_at = j_at["type"];
            const std::string type = type_at.nonempty_string();
            const PluginRecord& plugin = at_pointer(type_at, [&]() -> const PluginRecord& {
                return registry_.require(PIVOT_KIND_JOINT, type);
            });
            std::vector<std::string_view> keys = {"name",    "type",        "body1",       "body2", "compliance",
                                                  "damping", "break_force", "break_torque", "enabled"};
            std::vector<std::string_view> needed;
            const std::string& id = plugin.id;
            // The keys a joint takes follow from what its plugin declares:
            // how its frames are placed (pivot_joint_functions.frames) and
            // which parameters have the limit, motor and rest-length roles.
            switch (plugin.joint.frames) {
                case PIVOT_JOINT_FRAMES_ANCHOR: needed = {"anchor"}; break;
                case PIVOT_JOINT_FRAMES_AXIS: needed = {"anchor", "axis"}; break;
                case PIVOT_JOINT_FRAMES_AXIS_AT_BODY: needed = {"axis"}; break;
                case PIVOT_JOINT_FRAMES_TWO_AXES: needed = {"anchor", "axis1", "axis2"}; break;
                case PIVOT_JOINT_FRAMES_TWO_ANCHORS: needed = {"anchor1", "anchor2"}; break;
                default:  // a plugin before ABI 1.6: every geometric key, checked by World against the plugin
                    keys.insert(keys.end(), {"anchor", "axis", "axis1", "axis2", "anchor1", "anchor2"});
            }
            if (param_with_role(plugin.params, PIVOT_ROLE_LIMIT_LOWER)) keys.push_back("limits");
            if (param_with_role(plugin.params, PIVOT_ROLE_MOTOR_VELOCITY)) keys.push_back("motor");
            if (param_with_role(plugin.params, PIVOT_ROLE_REST_LENGTH)) keys.push_back("length");
            keys.insert(keys.end(), needed.begin(), needed.end());
            const JsonObject j(j_at, keys);

            JointDescription joint;
            joint.type = id;
            const JsonAt name = j.required("name", "a unique joint name");
            joint.name = name.nonempty_string();
            if (auto it = joint_pointers_.find(joint.name); it != joint_pointers_.end()) {
                name.fail(fmt::format("duplicate joint name '{}' (also {})", joint.name, it->second));
            }
            joint.body1 = body_name(j.required("body1", "a body name or \"world\""));
            joint.body2 = body_name(j.required("body2", "a body name or \"world\""));
            for (std::string_view key : needed) {
                j.required(key, key.rfind("axis", 0) == 0 ? "a direction, world frame"
                                                          : "a point in m, world frame, initial configuration");
            }
            if (auto v = j.optional("anchor")) joint.anchor = v->vec3();
            if (auto v = j.optional("axis")) joint.axis = v->vec3();
            if (auto v = j.optional("axis1")) joint.axis1 = v->vec3();
            if (auto v = j.optional("axis2")) joint.axis2 = v->vec3();
            if (auto v = j.optional("anchor1")) joint.anchor1 = v->vec3();
            if (auto v = j.optional("anchor2")) joint.anchor2 = v->vec3();
            if (auto v = j.optional("length")) joint.length = v->number();
            if (auto v = j.optional("compliance")) joint.compliance = v->number();
            if (auto v = j.optional("damping")) joint.damping = v->number();
            if (auto v = j.optional("limits")) joint.limits = read_limits(*v);
            if (auto v = j.optional("motor")) joint.motor = read_motor(*v);
            if (auto v = j.optional("enabled")) joint.enabled = v->boolean();
            if (auto v = j.optional("break_force")) joint.break_force = v->number();
            if (auto v = j.optional("break_torque")) joint.break_torque = v->number();
            at_pointer(j_at, [&] { world_->add_joint(joint); });
            joint_pointers_.emplace(joint.name, j_at.pointer());
        }
    }

    // --- cables ---------------------------------------------------------

    // An attach entry's node: an index 0 .. elements, or "last" (-1, as in
    // CableAttachment). The range is checked here, where the pointer is known.
    static int64_t read_attach_node(const JsonAt& at, const CableDescription& cable) {
        if (at.json().is_string()) {
            if (at.string() != "last") {
                at.fail(fmt::format("expected a node index (0 .. {}) or \"last\", got {}", cable.elements,
                                    scene::describe_json(at.json())));
            }
            return -1;
        }
        if (!at.json().is_number()) {
            at.fail(fmt::format("expected a node index (0 .. {}) or \"last\", got {}", cable.elements,
                                scene::describe_json(at.json())));
        }
        const int64_t node = at.integer();
        if (node < 0 || node > static_cast<int64_t>(cable.elements)) {
            at.fail(fmt::format("node {} is out of range: cable '{}' has {} elements, nodes 0 .. {} (or \"last\")", node,
                                cable.name, cable.elements, cable.elements));
        }
        return node;
    }

    CableAttachment read_attachment(const JsonAt& at, const CableDescription& cable) const {
        const JsonObject a(at, {"node", "body", "type"});
        CableAttachment attachment;
        attachment.node = read_attach_node(a.required("node", "a node index from 0, or \"last\""), cable);
        attachment.body = body_name(a.required("body", "a body name or \"world\""));
        attachment.joint = *cable_attachment_joint("spherical");
        if (auto v = a.optional("type")) {
            auto joint = cable_attachment_joint(v->nonempty_string());
            if (!joint) v->fail(fmt::format("unknown attach type '{}' ({})", v->string(), cable_attachment_types()));
            attachment.joint = std::move(*joint);
        }
        return attachment;
    }

    void read_cables(const JsonAt& at) {
        for (size_t i = 0; i < at.array_size(); ++i) {
            const JsonAt c_at = at[i];
            const JsonObject c(c_at, {"name", "type", "start", "end", "elements", "radius", "density", "youngs_modulus",
                                      "material", "attach", "gauss_points", "damping", "geometric_stiffness",
                                      "winch"});
            CableDescription cable;
            const JsonAt name = c.required("name", "a name unique among cables and bodies");
            cable.name = name.nonempty_string();
            if (cable.name == "world") name.fail("the name 'world' is reserved for the fixed world frame");
            if (auto it = body_pointers_.find(cable.name); it != body_pointers_.end()) {
                name.fail(fmt::format("the name '{}' is taken by the body at {} (cables and bodies share one set of names)",
                                      cable.name, it->second));
            }
            // The trajectory file names node i "<cable>#<i>": no body may already be called so.
            const std::string node_prefix = cable.name + "#";
            for (const std::string& body : body_names_) {
                if (body.size() > node_prefix.size() && body.compare(0, node_prefix.size(), node_prefix) == 0 &&
                    body.find_first_not_of("0123456789", node_prefix.size()) == std::string::npos) {
                    name.fail(fmt::format("the body '{}' ({}) would share its name with a node row of this cable in "
                                          "trajectory files ('{}0', '{}1', ...); rename one of them",
                                          body, body_pointers_.at(body), node_prefix, node_prefix));
                }
            }
            if (auto it = cable_pointers_.find(cable.name); it != cable_pointers_.end()) {
                name.fail(fmt::format("duplicate cable name '{}' (also {})", cable.name, it->second));
            }
            if (auto v = c.optional("type")) {
                const std::string type = v->nonempty_string();
                cable.type = at_pointer(*v, [&] { return registry_.require(PIVOT_KIND_ELEMENT, type).id; });
            }
            cable.start = c.required("start", "m, world: the position of node 0").vec3();
            cable.end = c.required("end", "m, world: the position of the last node").vec3();
            const JsonAt elements = c.required("elements", "the number of equal elements, >= 1");
            const int64_t count = elements.integer();
            if (count < 1) elements.fail(fmt::format("must be a whole number >= 1, got {}", count));
            // Nodes 0 .. count must be countable in 32 bits; World bounds the size further.
            if (count >= static_cast<int64_t>(UINT32_MAX)) elements.fail(fmt::format("too many elements: {}", count));
            cable.elements = static_cast<uint32_t>(count);
            cable.radius = c.required("radius", "m, > 0: the circular cross-section and the contact radius").number();
            cable.density = c.required("density", "kg/m^3, > 0").number();
            cable.youngs_modulus = c.required("youngs_modulus", "Pa, > 0").number();
            if (auto v = c.optional("material")) cable.material = material_name(*v);
            if (auto v = c.optional("gauss_points")) {
                const int64_t points = v->integer();
                // The plugin's own range is World's check; here only what fits the field.
                if (points < 1) v->fail(fmt::format("must be a whole number >= 1 (points per element), got {}", points));
                if (points > static_cast<int64_t>(UINT32_MAX)) v->fail(fmt::format("too many points: {}", points));
                cable.gauss_points = static_cast<uint32_t>(points);
            }
            if (auto v = c.optional("damping")) cable.damping = v->number();
            if (auto v = c.optional("geometric_stiffness")) cable.geometric_stiffness = v->number();
            if (auto v = c.optional("winch")) {
                const JsonObject w(*v, {"speed", "min_length", "max_length"});
                if (auto x = w.optional("speed")) cable.reel_speed = x->number();
                if (auto x = w.optional("min_length")) cable.min_length = x->number();
                if (auto x = w.optional("max_length")) cable.max_length = x->number();
            }
            std::optional<JsonAt> attach = c.optional("attach");
            if (attach) {
                for (size_t k = 0; k < attach->array_size(); ++k) cable.attach.push_back(read_attachment((*attach)[k], cable));
            }
            at_pointer(c_at, [&] { world_->add_cable(cable); });
            cable_pointers_.emplace(cable.name, c_at.pointer());
            // World names the attachment joints "<cable>/attach<k>"; a scene joint may not take those names.
            for (size_t k = 0; k < cable.attach.size(); ++k) {
                joint_pointers_.emplace(fmt::format("{}/attach{}", cable.name, k), (*attach)[k].pointer());
            }
        }
    }

    // --- ropes ----------------------------------------------------------

    void read_ropes(const JsonAt& at) {
        std::map<std::string, std::string> rope_pointers;
        for (size_t i = 0; i < at.array_size(); ++i) {
            const JsonAt r_at = at[i];
            const JsonObject r(r_at, {"name", "route", "length", "stiffness", "damping", "winch"});
            RopeDescription rope;
            const JsonAt name = r.required("name", "a name unique among ropes");
            rope.name = name.nonempty_string();
            if (auto it = rope_pointers.find(rope.name); it != rope_pointers.end()) {
                name.fail(fmt::format("duplicate rope name '{}' (also {})", rope.name, it->second));
            }
            const JsonAt route = r.required("route", "the points the rope passes, from one end to the other");
            for (size_t k = 0; k < route.array_size(); ++k) {
                const JsonObject p(route[k], {"body", "point", "radius", "axis"});
                RopePointDescription point;
                if (auto v = p.optional("body")) point.body = v->nonempty_string();
                point.point = p.required("point", "m, world: the point, or the sheave's centre").vec3();
                if (auto v = p.optional("radius")) point.radius = v->number();
                if (auto v = p.optional("axis")) point.axis = v->vec3();
                rope.route.push_back(std::move(point));
            }
            if (auto v = r.optional("length")) rope.length = v->number();
            if (auto v = r.optional("stiffness")) rope.stiffness = v->number();
            if (auto v = r.optional("damping")) rope.damping = v->number();
            if (auto v = r.optional("winch")) {
                const JsonObject w(*v, {"speed", "min_length", "max_length"});
                if (auto x = w.optional("speed")) rope.reel_speed = x->number();
                if (auto x = w.optional("min_length")) rope.min_length = x->number();
                if (auto x = w.optional("max_length")) rope.max_length = x->number();
            }
            at_pointer(r_at, [&] { world_->add_rope(rope); });
            rope_pointers.emplace(rope.name, r_at.pointer());
        }
    }

    PluginRegistry& registry_;
    const std::filesystem::path& base_dir_;
    const SceneOptions& options_;
    std::unique_ptr<World> world_;
    std::set<std::string> materials_ = {"default"};
    std::map<std::string, std::string> body_pointers_;   // name -> pointer of its definition
    std::vector<std::string> body_names_;                // in file order, for messages
    std::map<std::string, std::string> joint_pointers_;  // scene joints and cable attachment joints
    std::map<std::string, std::string> cable_pointers_;
};

// nlohmann's message without its "[json.exception.parse_error.101] " prefix.
std::string parse_error_text(const nlohmann::json::exception& e) {
    std::string text = e.what();
    const auto end = text.find("] ");
    if (text.rfind("[json.exception", 0) == 0 && end != std::string::npos) text = text.substr(end + 2);
    return text;
}

}  // namespace

std::unique_ptr<World> load_scene_json(PluginRegistry& registry, std::string_view json_text,
                                       const std::filesystem::path& base_dir, const std::string& source,
                                       const SceneOptions& options) {
    check_json_depth(json_text, source);  // before parsing: a deep document would exhaust the stack later
    nlohmann::json document;
    try {
        document = nlohmann::json::parse(json_text.begin(), json_text.end());
    } catch (const nlohmann::json::exception& e) {  // a syntax error, or a number overflowing a double
        throw Error(fmt::format("{}: invalid JSON: {}", source, parse_error_text(e)));
    }
    SceneBuilder builder(registry, base_dir, options);
    return builder.build(JsonAt(document, "", source));
}

std::unique_ptr<World> load_scene_file(PluginRegistry& registry, const std::filesystem::path& file,
                                       const SceneOptions& options) {
    const std::string text = read_input_file(file, "scene file");
    return load_scene_json(registry, text, file.parent_path(), file.string(), options);
}

}  // namespace pivot
