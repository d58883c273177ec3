// The embedding C API: creating a world and building it (pivot.h,
// "Worlds" and "Building"). Each function checks its arguments, converts the
// C descriptions to the engine's (world_api_support.hpp), and reports
// failures through pivot_last_error(); see api_support.hpp.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "api/api_support.hpp"
#include "api/world_api_support.hpp"
#include "common/input_limits.hpp"
#include "scene/scene_loader.hpp"
#include "scene/short_names.hpp"

using namespace pivot::api;  // the conversions of world_api_support.hpp

extern "C" {

// ---------------------------------------------------------------- creating

PIVOT_API pivot_status pivot_world_create_from_file(pivot_engine* engine, const char* scene_file,
                                                    pivot_world** world) {
    return guarded("pivot_world_create_from_file", [&] {
        require(world, "pivot_world_create_from_file", "world") = nullptr;
        auto& e = require(engine, "pivot_world_create_from_file", "engine");
        require(scene_file, "pivot_world_create_from_file", "scene_file");
        *world = wrap(engine, pivot::load_scene_file(e.registry, scene_file));
    });
}

PIVOT_API pivot_status pivot_world_create_from_json(pivot_engine* engine, const char* scene_json,
                                                    const char* base_dir, pivot_world** world) {
    return guarded("pivot_world_create_from_json", [&] {
        require(world, "pivot_world_create_from_json", "world") = nullptr;
        auto& e = require(engine, "pivot_world_create_from_json", "engine");
        require(scene_json, "pivot_world_create_from_json", "scene_json");
        *world = wrap(engine, pivot::load_scene_json(e.registry, scene_json, text(base_dir, "."), "scene JSON"));
    });
}

PIVOT_API void pivot_world_settings_init(pivot_world_settings* settings) {
    if (settings == nullptr) return;
    std::memset(settings, 0, sizeof(*settings));
    settings->struct_size = sizeof(*settings);
    settings->timestep = 1e-3;
    settings->gravity[2] = -9.81;
    settings->solver = nullptr;  // the engine's choice per island (WorldSettings::direct_islands, newton_islands)
}

PIVOT_API pivot_status pivot_world_create(pivot_engine* engine, const pivot_world_settings* settings,
                                          pivot_world** world) {
    return guarded("pivot_world_create", [&] {
        require(world, "pivot_world_create", "world") = nullptr;
        auto& e = require(engine, "pivot_world_create", "engine");
        const pivot_world_settings s =
            read_struct(require(settings, "pivot_world_create", "settings"), kSettingsSize10, "settings");
        pivot::WorldSettings ws;
        ws.timestep = s.timestep;
        ws.gravity = array_of(s.gravity);
        ws.solver = {text(s.solver, "pivot.solver.dantzig"), json_object(s.solver_options, "settings.solver_options")};
        ws.direct_islands = s.solver == nullptr;  // a named solver takes every island
        ws.newton_islands = s.solver == nullptr;
        // Large islands (0.5): 0 = the default; a named solver takes them too.
        if (s.large_island_rows == UINT32_MAX || s.solver != nullptr) {
            ws.large_island_rows = 0;
        } else if (s.large_island_rows != 0) {
            ws.large_island_rows = s.large_island_rows;
        }
        if (s.large_island_sweeps != 0) ws.large_island_sweeps = s.large_island_sweeps;
        // The step guard (0.6): 0 = the default; < 0 = off (WorldSettings: 0).
        if (s.step_time_limit != 0.0) ws.step_time_limit = std::max(s.step_time_limit, 0.0);
        // Solving and contact settings (0.8): 0 = the default, < 0 = zero; a
        // NaN is passed on and refused by the world, naming the field.
        for (auto [given, field] : {std::pair{s.solver_acceptance, &ws.solver_acceptance},
                                    std::pair{s.contact_margin, &ws.contact_margin},
                                    std::pair{s.contact_regularization, &ws.contact_regularization},
                                    std::pair{s.restitution_threshold, &ws.restitution_threshold}}) {
            if (given != 0.0) *field = given < 0.0 ? 0.0 : given;
        }
        if (s.stabilization > 1) {
            throw pivot::Error(fmt::format("settings.stabilization: must be 0 (default) or 1 (none), got {}",
                                           s.stabilization));
        }
        if (s.stabilization == 1) {
            ws.geometric_stiffness = false;
            ws.projection_iterations = 0;
        }
        // 0 = the default; < 0 = off (WorldSettings: 0).
        if (s.divergence_energy != 0.0) ws.divergence_energy = std::max(s.divergence_energy, 0.0);
        if (s.divergence_joint_error != 0.0) ws.divergence_joint_error = std::max(s.divergence_joint_error, 0.0);
        ws.step_budget = s.step_budget;  // checked by World
        ws.threads = s.threads;
        *world = wrap(engine, std::make_unique<pivot::World>(e.registry, ws));
    });
}

PIVOT_API void pivot_world_destroy(pivot_world* world) {
    if (world == nullptr) return;
    --world->engine->worlds;
    delete world;
}

// ---------------------------------------------------------------- building

PIVOT_API void pivot_material_desc_init(pivot_material_desc* material) {
    if (material == nullptr) return;
    std::memset(material, 0, sizeof(*material));
    material->struct_size = sizeof(*material);
    material->name = "default";
    material->friction_model = "pivot.friction.box";
}

PIVOT_API pivot_status pivot_world_add_material(pivot_world* world, const pivot_material_desc* material) {
    return guarded("pivot_world_add_material", [&] {
        auto& w = world_of(world, "pivot_world_add_material");
        const pivot_material_desc d =
            read_struct(require(material, "pivot_world_add_material", "material"), kMaterialSize10, "material");
        pivot::MaterialDescription m;
        m.name = text(d.name, "default");
        m.friction_model = text(d.friction_model, "pivot.friction.box");
        m.friction = d.friction_params != nullptr
                         ? json_object(d.friction_params, ("material '" + m.name + "': friction").c_str())
                         : nlohmann::json{{"mu", 0.5}};
        m.restitution = d.restitution;
        m.compliance = d.compliance;
        m.damping = d.damping;
        w.add_material(m);
    });
}

PIVOT_API void pivot_material_pair_desc_init(pivot_material_pair_desc* pair) {
    if (pair == nullptr) return;
    std::memset(pair, 0, sizeof(*pair));
    pair->struct_size = sizeof(*pair);
}

PIVOT_API pivot_status pivot_world_add_material_pair(pivot_world* world, const pivot_material_pair_desc* pair) {
    return guarded("pivot_world_add_material_pair", [&] {
        auto& w = world_of(world, "pivot_world_add_material_pair");
        const pivot_material_pair_desc d = read_struct(require(pair, "pivot_world_add_material_pair", "pair"),
                                                       sizeof(pivot_material_pair_desc), "pair");
        pivot::MaterialPairDescription p;
        p.materials = {text(require(d.material1, "pivot_world_add_material_pair", "pair.material1")),
                       text(require(d.material2, "pivot_world_add_material_pair", "pair.material2"))};
        const std::string where = fmt::format("material pair ('{}', '{}')", p.materials[0], p.materials[1]);
        if ((d.overrides & ~(PIVOT_PAIR_RESTITUTION | PIVOT_PAIR_COMPLIANCE | PIVOT_PAIR_DAMPING)) != 0) {
            throw pivot::Error(fmt::format("pivot_world_add_material_pair: {}: overrides: unknown bits 0x{:x}", where,
                                           d.overrides));
        }
        if (d.friction_model != nullptr) p.friction_model = text(d.friction_model);
        if (d.friction_params != nullptr) p.friction = json_object(d.friction_params, (where + ": friction").c_str());
        if (d.overrides & PIVOT_PAIR_RESTITUTION) p.restitution = d.restitution;
        if (d.overrides & PIVOT_PAIR_COMPLIANCE) p.compliance = d.compliance;
        if (d.overrides & PIVOT_PAIR_DAMPING) p.damping = d.damping;
        w.add_material_pair(p);
    });
}

PIVOT_API void pivot_shape_desc_init(pivot_shape_desc* shape) {
    if (shape == nullptr) return;
    std::memset(shape, 0, sizeof(*shape));
    shape->struct_size = sizeof(*shape);
    shape->normal[2] = 1.0;
    shape->orientation[0] = 1.0;
    shape->material = "default";
}

PIVOT_API pivot_status pivot_world_add_static_shape(pivot_world* world, const pivot_shape_desc* shape) {
    return guarded("pivot_world_add_static_shape", [&] {
        world_of(world, "pivot_world_add_static_shape")
            .add_static_shape(shape_of(require(shape, "pivot_world_add_static_shape", "shape")));
    });
}

PIVOT_API void pivot_body_desc_init(pivot_body_desc* body) {
    if (body == nullptr) return;
    std::memset(body, 0, sizeof(*body));
    body->struct_size = sizeof(*body);
    body->mass = 1.0;
    body->inertia[0] = body->inertia[4] = body->inertia[8] = 1.0;
    body->orientation[0] = 1.0;
}

PIVOT_API pivot_status pivot_world_add_body(pivot_world* world, const pivot_body_desc* body, uint32_t* index) {
    return guarded("pivot_world_add_body", [&] {
        auto& w = world_of(world, "pivot_world_add_body");
        const pivot_body_desc d = read_struct(require(body, "pivot_world_add_body", "body"), kBodySize10, "body");
        if (d.shape_count > 0) require(d.shapes, "pivot_world_add_body", "body->shapes");
        pivot::BodyDescription b;
        b.name = text(d.name);
        b.mass = d.mass;
        b.inertia = array_of(d.inertia);
        b.position = array_of(d.position);
        b.orientation = array_of(d.orientation);
        b.linear_velocity = array_of(d.linear_velocity);
        b.angular_velocity = array_of(d.angular_velocity);
        b.fixed = d.fixed != 0;
        b.linear_damping = d.linear_damping;  // 0 (absent before 0.8): none
        b.angular_damping = d.angular_damping;
        if (d.friction_params != nullptr) {  // NULL (absent before 0.12): none
            b.friction = json_object(d.friction_params, ("body '" + b.name + "': friction").c_str());
        }
        // An array of a growable struct is stepped by its first entry's
        // struct_size (pivot.h VERSIONING, as plugin.h does for schemas):
        // a caller built against a later header, with a longer
        // pivot_shape_desc, still passes its shapes correctly.
        if (d.shape_count > 0) {
            const uint32_t stride = d.shapes[0].struct_size;
            if (stride < kShapeSize10 || stride % alignof(pivot_shape_desc) != 0) {
                throw pivot::Error(fmt::format("body->shapes[0]: struct_size {} is not a pivot_shape_desc size (call "
                                               "pivot_shape_desc_init)",
                                               stride));
            }
            const auto* bytes = reinterpret_cast<const unsigned char*>(d.shapes);
            for (uint32_t k = 0; k < d.shape_count; ++k) {
                const auto& shape = *reinterpret_cast<const pivot_shape_desc*>(bytes + static_cast<size_t>(k) * stride);
                if (shape.struct_size != stride) {
                    throw pivot::Error(fmt::format("body->shapes[{}]: struct_size {} differs from the first entry's {} "
                                                   "(the entries of one array have one size)",
                                                   k, shape.struct_size, stride));
                }
                b.shapes.push_back(shape_of(shape));
            }
        }
        const pivot::BodyId id = w.add_body(b);
        if (index != nullptr) *index = id;
    });
}

PIVOT_API void pivot_joint_desc_init(pivot_joint_desc* joint) {
    if (joint == nullptr) return;
    std::memset(joint, 0, sizeof(*joint));
    joint->struct_size = sizeof(*joint);
    joint->body1 = "world";
    joint->body2 = "world";
    joint->axis[0] = 1.0;
    joint->axis1[0] = 1.0;
    joint->axis2[1] = 1.0;
    joint->length = -1.0;
}

PIVOT_API pivot_status pivot_world_add_joint(pivot_world* world, const pivot_joint_desc* joint, uint32_t* index) {
    return guarded("pivot_world_add_joint", [&] {
        auto& w = world_of(world, "pivot_world_add_joint");
        const pivot_joint_desc d = read_struct(require(joint, "pivot_world_add_joint", "joint"), kJointSize10, "joint");
        pivot::JointDescription j;
        j.name = text(d.name);
        j.type = text(d.type);
        j.body1 = text(d.body1, "world");
        j.body2 = text(d.body2, "world");
        j.anchor = array_of(d.anchor);
        j.axis = array_of(d.axis);
        j.axis1 = array_of(d.axis1);
        j.axis2 = array_of(d.axis2);
        j.anchor1 = array_of(d.anchor1);
        j.anchor2 = array_of(d.anchor2);
        // Negative: the initial distance; NaN is not "negative" but refused
        // (it used to mean the initial distance silently).
        if (std::isnan(d.length)) {
            throw pivot::Error("pivot_world_add_joint: joint.length: NaN (negative means the initial distance)");
        }
        if (d.length >= 0.0) j.length = d.length;
        j.compliance = d.compliance;
        j.damping = d.damping;
        if (d.has_limits != 0) j.limits = pivot::JointLimits{d.lower, d.upper};
        if (d.has_motor != 0) {
            pivot::JointMotor m;
            m.mode = static_cast<pivot_motor_mode>(d.motor_mode);
            m.velocity = d.motor_velocity;
            m.max_force = d.motor_max_force;
            m.position = d.motor_position;
            m.stiffness = d.motor_stiffness;
            m.damping = d.motor_damping;
            m.force = d.motor_force;
            j.motor = m;
        }
        j.enabled = d.disabled == 0;
        j.break_force = d.break_force;
        j.break_torque = d.break_torque;
        const pivot::JointId id = w.add_joint(j);
        if (index != nullptr) *index = id;
    });
}

PIVOT_API void pivot_cable_desc_init(pivot_cable_desc* cable) {
    if (cable == nullptr) return;
    std::memset(cable, 0, sizeof(*cable));
    const pivot::CableDescription defaults;
    cable->struct_size = sizeof(*cable);
    cable->elements = defaults.elements;
    cable->type = "pivot.element.ancf_cable";
    for (int k = 0; k < 3; ++k) cable->start[k] = defaults.start[k], cable->end[k] = defaults.end[k];
    cable->radius = defaults.radius;
    cable->density = defaults.density;
    cable->youngs_modulus = defaults.youngs_modulus;
    cable->damping = defaults.damping;
    cable->geometric_stiffness = -1.0;
    cable->material = "default";
}

PIVOT_API pivot_status pivot_world_add_cable(pivot_world* world, const pivot_cable_desc* cable, uint32_t* index) {
    return guarded("pivot_world_add_cable", [&] {
        auto& w = world_of(world, "pivot_world_add_cable");
        const pivot_cable_desc d = read_struct(require(cable, "pivot_world_add_cable", "cable"), kCableSize10, "cable");
        if (d.attachment_count > 0) require(d.attachments, "pivot_world_add_cable", "cable->attachments");
        pivot::CableDescription c;
        c.name = text(d.name);
        c.type = text(d.type, "pivot.element.ancf_cable");
        c.start = array_of(d.start);
        c.end = array_of(d.end);
        c.elements = d.elements;
        c.radius = d.radius;
        c.density = d.density;
        c.youngs_modulus = d.youngs_modulus;
        if (d.gauss_points != 0) c.gauss_points = d.gauss_points;
        c.reel_speed = d.reel_speed;
        c.min_length = d.min_length;
        c.max_length = d.max_length;
        c.damping = d.damping;
        if (!(d.geometric_stiffness < 0.0)) c.geometric_stiffness = d.geometric_stiffness;  // NaN: refused by the plugin's range
        c.material = text(d.material, "default");
        for (uint32_t k = 0; k < d.attachment_count; ++k) {
            const pivot_cable_attachment& a = d.attachments[k];
            pivot::CableAttachment attachment;
            attachment.node = a.node;
            attachment.body = text(a.body, "world");
            const std::string type = text(a.type, "spherical");
            auto joint = pivot::cable_attachment_joint(type);
            if (!joint) {
                throw pivot::Error(fmt::format("cable '{}': attach[{}]: type: '{}' is not an attachment type ({})",
                                               c.name, k, type, pivot::cable_attachment_types()));
            }
            attachment.joint = std::move(*joint);
            // The attachment joints are named "<cable>/attach<k>": a joint of
            // that name already in the world is refused here, before anything
            // is added (the world would otherwise hold two joints of one name).
            const std::string joint_name = fmt::format("{}/attach{}", c.name, k);
            for (uint32_t j = 0; j < w.joint_count(); ++j) {
                if (w.joint_name(j) == joint_name) {
                    throw pivot::Error(fmt::format("cable '{}': attach[{}]: its joint would be named '{}', which "
                                                   "another joint already has",
                                                   c.name, k, joint_name));
                }
            }
            c.attach.push_back(std::move(attachment));
        }
        const pivot::CableId id = w.add_cable(c);
        if (index != nullptr) *index = id;
    });
}

// ---------------------------------------------------------------- ropes

PIVOT_API void pivot_rope_desc_init(pivot_rope_desc* rope) {
    if (rope == nullptr) return;
    std::memset(rope, 0, sizeof(*rope));
    rope->struct_size = sizeof(*rope);
}

PIVOT_API pivot_status pivot_world_add_rope(pivot_world* world, const pivot_rope_desc* rope, uint32_t* index) {
    return guarded("pivot_world_add_rope", [&] {
        auto& w = world_of(world, "pivot_world_add_rope");
        const pivot_rope_desc d = read_struct(require(rope, "pivot_world_add_rope", "rope"), kRopeSize10, "rope");
        pivot::RopeDescription r;
        r.name = text(d.name);
        if (d.point_count > 1000) {
            throw pivot::Error(fmt::format("rope '{}': route: must have 2 to 1000 points, got {}", r.name,
                                           d.point_count));
        }
        if (d.point_count > 0) require(d.points, "pivot_world_add_rope", "rope->points");
        for (uint32_t k = 0; k < d.point_count; ++k) {
            const pivot_rope_point& p = d.points[k];
            pivot::RopePointDescription point;
            point.body = text(p.body, "world");
            point.point = array_of(p.point);
            point.axis = array_of(p.axis);
            point.radius = p.radius;
            r.route.push_back(std::move(point));
        }
        r.length = d.length;
        r.stiffness = d.stiffness;
        r.damping = d.damping;
        r.reel_speed = d.reel_speed;
        r.min_length = d.min_length;
        r.max_length = d.max_length;
        const pivot::RopeId id = w.add_rope(r);
        if (index != nullptr) *index = id;
    });
}

}  // extern "C"
