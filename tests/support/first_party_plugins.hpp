#pragma once
// The first-party plugins of the build tree (PIVOT_FIRST_PARTY_PLUGIN_DIR),
// loaded once per test or benchmark program, and a swinging chain of bodies
// on spherical joints, the scene the step tests and benchmarks share.
#include <string>

#include "plugin_host/plugin_registry.hpp"
#include "world/world.hpp"

namespace pivot::test {

inline PluginRegistry& first_party_plugins() {
    static PluginRegistry registry;
    static const bool loaded = [] {
        registry.load(PIVOT_FIRST_PARTY_PLUGIN_DIR);
        return true;
    }();
    (void)loaded;
    return registry;
}

// `links` bodies of `mass` and `length` along +x, the first hanging from the
// world at the origin, each joined to the next by a spherical joint at their
// common end: released horizontally, the chain swings.
inline void add_swinging_chain(World& world, int links, double length, double mass,
                               const std::array<double, 9>& inertia) {
    for (int i = 0; i < links; ++i) {
        BodyDescription b;
        b.name = "link" + std::to_string(i);
        b.mass = mass;
        b.inertia = inertia;
        b.position = {(i + 0.5) * length, 0.0, 0.0};
        world.add_body(b);
        JointDescription j;
        j.name = "joint" + std::to_string(i);
        j.type = "spherical";
        j.body1 = i == 0 ? "world" : "link" + std::to_string(i - 1);
        j.body2 = b.name;
        j.anchor = {i * length, 0.0, 0.0};
        world.add_joint(j);
    }
}

// A row of 8 touching spheres (r = 0.5 m, 1 kg) along x on the ground
// plane, every shape of `material`: one island of 8 ground and 7
// neighbour contacts, 3 rows each with the default friction (45 rows).
inline void add_row_of_spheres(World& world, const std::string& material = "default") {
    ShapeDescription ground;
    ground.type = "plane";
    ground.material = material;
    world.add_static_shape(ground);
    for (int k = 0; k < 8; ++k) {
        BodyDescription ball;
        ball.name = "ball" + std::to_string(k);
        ball.mass = 1.0;
        ball.inertia = {0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1};
        ball.position = {1.0 * k, 0.0, 0.5};
        ShapeDescription sphere;
        sphere.type = "sphere";
        sphere.radius = 0.5;
        sphere.material = material;
        ball.shapes.push_back(sphere);
        world.add_body(ball);
    }
}

}  // namespace pivot::test
