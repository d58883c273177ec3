#pragma once
// Contact scenes shared by the contact validations (contact_test.cpp with the
// box model, friction_models_test.cpp with every model): each builds a world
// with a given friction model and solver, runs it and returns the measured
// quantities; the tests compare them with the analytic references.
#include <cmath>
#include <string>
#include <vector>

#include "physics_test_support.hpp"

namespace pivot::physics_test {

// A material's friction model (its parameters, "mu" among them) and the
// solver it is paired with.
struct ContactModel {
    std::string model;      // friction plugin id
    nlohmann::json params;  // its parameters
    std::string solver;     // solver plugin id
    // The solver's options (null: tight_options) and the chain's acceptance
    // (N s), when a test asks for less than the exact-comparison defaults.
    nlohmann::json solver_options = nullptr;
    double acceptance = 1e-9;
};

inline WorldSettings contact_settings(const ContactModel& c, double h) {
    WorldSettings s = settings_for(h, {0, 0, -9.81}, c.solver);
    if (!c.solver_options.is_null()) s.solver.options = c.solver_options;
    s.solver_acceptance = c.acceptance;
    return s;
}

// The default material with the model's friction.
inline void use_model(World& world, const ContactModel& c) {
    MaterialDescription m;
    m.name = "default";
    m.friction_model = c.model;
    m.friction = c.params;
    world.add_material(m);
}

inline BodyDescription box_body(const std::string& name, double mass, const Vec3d& size, const Vec3d& position) {
    BodyDescription b;
    b.name = name;
    b.mass = mass;
    const double ix = mass * (size[1] * size[1] + size[2] * size[2]) / 12.0;
    const double iy = mass * (size[0] * size[0] + size[2] * size[2]) / 12.0;
    const double iz = mass * (size[0] * size[0] + size[1] * size[1]) / 12.0;
    b.inertia = {ix, 0, 0, 0, iy, 0, 0, 0, iz};
    b.position = position;
    ShapeDescription shape;
    shape.type = "box";
    shape.size = size;
    b.shapes.push_back(shape);
    return b;
}

// A solid sphere (I = 2/5 m r^2) of radius r.
inline BodyDescription sphere_body(const std::string& name, double mass, double r, const Vec3d& position) {
    BodyDescription b;
    b.name = name;
    b.mass = mass;
    const double inertia = 0.4 * mass * r * r;
    b.inertia = {inertia, 0, 0, 0, inertia, 0, 0, 0, inertia};
    b.position = position;
    ShapeDescription shape;
    shape.type = "sphere";
    shape.radius = r;
    b.shapes.push_back(shape);
    return b;
}

inline void add_ground(World& world, const Vec3d& normal = {0, 0, 1}) {
    ShapeDescription ground;
    ground.type = "plane";
    ground.normal = normal;
    world.add_static_shape(ground);
}

// A unit block (0.2 m cube, 1 kg) on a plane tilted by theta about an axis
// turned by psi about the vertical, at h = 1 ms: its acceleration down the
// slope over 0.5 s after 0.2 s of settling (0 when it sticks).
inline double incline_acceleration(const ContactModel& c, double theta, double psi) {
    const double h = 1e-3;
    World world(registry(), contact_settings(c, h));
    use_model(world, c);
    // Downhill direction d = (cos psi, sin psi, 0) tilted: normal n.
    const Vec3d downhill_flat = {std::cos(psi), std::sin(psi), 0.0};
    const Vec3d n = {std::sin(theta) * downhill_flat[0], std::sin(theta) * downhill_flat[1], std::cos(theta)};
    add_ground(world, n);
    BodyDescription block = box_body("block", 1.0, {0.2, 0.2, 0.2}, {0.1 * n[0], 0.1 * n[1], 0.1 * n[2]});
    // Orientation: the block's z axis along n (rotation about the axis z x d).
    const double half = 0.5 * theta;
    const Vec3d axis = {-downhill_flat[1], downhill_flat[0], 0.0};
    block.orientation = {std::cos(half), std::sin(half) * axis[0], std::sin(half) * axis[1], 0.0};
    const BodyId id = world.add_body(block);
    const Vec3d down = {std::cos(theta) * downhill_flat[0], std::cos(theta) * downhill_flat[1], -std::sin(theta)};
    auto speed = [&] {
        const auto v = world.linear_velocity(id);
        return v[0] * down[0] + v[1] * down[1] + v[2] * down[2];
    };
    for (int k = 0; k < 200; ++k) world.step();
    const double s0 = speed();
    for (int k = 0; k < 500; ++k) world.step();
    return (speed() - s0) / (500 * h);
}

struct Rolling {
    double acceleration;  // m/s^2 down the slope
    double slip;          // m/s: velocity of the contact point along the slope at the end
};

// A solid sphere (r = 0.1 m, 1 kg) released on a 30-degree incline, h = 1 ms:
// acceleration over 0.5 s after 0.1 s.
inline Rolling roll_sphere(const ContactModel& c, double theta) {
    const double h = 1e-3, r = 0.1, m = 1.0;
    World world(registry(), contact_settings(c, h));
    use_model(world, c);
    const Vec3d n = {std::sin(theta), 0.0, std::cos(theta)};
    add_ground(world, n);
    const BodyDescription ball = sphere_body("ball", m, r, {r * n[0], r * n[1], r * n[2]});
    const BodyId id = world.add_body(ball);
    const Vec3d down = {std::cos(theta), 0.0, -std::sin(theta)};
    auto speed = [&] {
        const auto v = world.linear_velocity(id);
        return v[0] * down[0] + v[1] * down[1] + v[2] * down[2];
    };
    for (int k = 0; k < 100; ++k) world.step();
    const double s0 = speed();
    for (int k = 0; k < 500; ++k) world.step();
    Rolling out{};
    out.acceleration = (speed() - s0) / (500 * h);
    // Velocity of the contact point c = -r n: v + w x c, along the slope.
    const auto v = world.linear_velocity(id);
    const auto w = world.angular_velocity(id);
    const Vec3d p = {-r * n[0], -r * n[1], -r * n[2]};
    const Vec3d point = {v[0] + w[1] * p[2] - w[2] * p[1], v[1] + w[2] * p[0] - w[0] * p[2],
                         v[2] + w[0] * p[1] - w[1] * p[0]};
    out.slip = point[0] * down[0] + point[1] * down[1] + point[2] * down[2];
    return out;
}

struct Standing {
    double drift = 0.0;         // m: largest distance of a box from its start
    uint32_t failures = 0;      // steps' islands not solved to the acceptance
    size_t contacts = 0;        // at the end
    double weight_error = 0.0;  // N: |sum of reported normal forces on the ground - total weight| at the end
};

// Boxes (0.5 m cubes, 10 kg) in a pyramid with `base` boxes in the bottom row
// (rows of base, base-1, ..., 1; 2 cm gaps; base = 1: a stack of `height`),
// stepped for `steps` steps of h.
inline Standing stand_boxes(const ContactModel& c, int base, int height, double h, int steps) {
    const double side = 0.5, gap = 0.02, mass = 10.0;
    World world(registry(), contact_settings(c, h));
    use_model(world, c);
    add_ground(world);
    std::vector<std::pair<BodyId, Vec3d>> boxes;
    const int rows = base == 1 ? height : base;
    for (int row = 0; row < rows; ++row) {
        const int count = base == 1 ? 1 : base - row;
        for (int k = 0; k < count; ++k) {
            const Vec3d at = {(k + 0.5 * row) * (side + gap) * (base == 1 ? 0.0 : 1.0), 0.0, side * (row + 0.5)};
            const std::string name = "box" + std::to_string(row) + "_" + std::to_string(k);
            boxes.emplace_back(world.add_body(box_body(name, mass, {side, side, side}, at)), at);
        }
    }
    Standing out;
    for (int step = 0; step < steps; ++step) {
        world.step();
        out.failures += world.statistics().solver_failures;
        for (const auto& [id, start] : boxes) {
            const auto p = world.position(id);
            out.drift = std::max(out.drift, std::sqrt((p[0] - start[0]) * (p[0] - start[0]) + p[1] * p[1] +
                                                      (p[2] - start[2]) * (p[2] - start[2])));
        }
    }
    out.contacts = world.contacts().size();
    double ground = 0.0;
    for (const auto& report : world.contacts()) {
        if (report.body1 < 0 || report.body2 < 0) ground += report.normal_force;
    }
    out.weight_error = std::abs(ground - mass * 9.81 * static_cast<double>(boxes.size()));
    return out;
}

}  // namespace pivot::physics_test
