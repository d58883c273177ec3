// A body hanging on a compliant spherical joint (compliance c = 1e-3 m/N,
// i.e. a spring of stiffness k = 1/c = 1000 N/m in each direction), placed
// at its static stretch under gravity.
//
// Reference: Hooke's law. At rest the joint carries the weight, so the
// stretch is u = m g c and the spring stores E_el = k u^2 / 2 = (m g)^2 c / 2.
// The step keeps that equilibrium exactly: with v = 0 and phi = -u, the
// compliant row's law c lambda = -phi - h J v+ (seed000 2.1) is met by
// lambda = m g, v+ = 0 (assemble_islands.cpp), so velocities stay at rounding.
//
// World::energy() documents Energy::elastic as "J, in compliant rows" and
// Energy::total() adds it; a user checking energy conservation of a
// compliant mechanism relies on it.
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "physics_test_support.hpp"

namespace pivot {
namespace {

using namespace physics_test;

constexpr double kMass = 1.0, kCompliance = 1e-3, kG = 9.81;

struct Hanging {
    std::unique_ptr<World> world;
    BodyId body = 0;
    JointId joint = 0;
};

Hanging hang_at_static_stretch() {
    Hanging h;
    h.world = std::make_unique<World>(registry(), settings_for(1e-3, {0, 0, -kG}));
    BodyDescription b;
    b.name = "weight";
    b.mass = kMass;
    b.inertia = diagonal_inertia({0.01, 0.01, 0.01});
    h.body = h.world->add_body(b);
    JointDescription j;
    j.name = "spring";
    j.type = "spherical";
    j.body1 = "world";
    j.body2 = "weight";
    j.anchor = {0, 0, 0};
    j.compliance = kCompliance;
    h.joint = h.world->add_joint(j);
    // The frames coincide at the anchor; move the body down by the stretch.
    h.world->set_pose(h.body, {0, 0, -kMass * kG * kCompliance}, {1, 0, 0, 0});
    return h;
}

TEST(CompliantJointEnergy, StaticStretchFollowsHookesLaw) {
    Hanging h = hang_at_static_stretch();
    double speed = 0;
    run_until(*h.world, 1.0, [&](World& w) { speed = std::max(speed, norm(w.linear_velocity(h.body))); });
    const double z = h.world->position(h.body)[2];
    const double force = h.world->reaction(h.joint).force[2];
    std::printf("compliant joint: stretch %.9f m (m g c = %.9f), max speed %.2e m/s, reaction %.6f N (m g = %.4f)\n",
                -z, kMass * kG * kCompliance, speed, force, kMass * kG);
    // Equilibrium kept to rounding (1e-12 relative of the stretch).
    EXPECT_NEAR(-z, kMass * kG * kCompliance, 1e-12);
    EXPECT_LT(speed, 1e-10);
    // The joint holds the weight: the force on the body is m g upward.
    EXPECT_NEAR(force, kMass * kG, 1e-6);
}

// World::energy() reports the spring energy of compliant joint rows,
// (1/2) phi^2 / c: here (m g)^2 c / 2 at the static stretch.
TEST(CompliantJointEnergy, ElasticEnergyOfACompliantJointIsReported) {
    Hanging h = hang_at_static_stretch();
    h.world->step();
    const double expected = 0.5 * kMass * kG * kMass * kG * kCompliance;
    const Energy e = h.world->energy();
    std::printf("elastic energy reported %.6e J, expected (m g)^2 c / 2 = %.6e J\n", e.elastic, expected);
    // The stretch is kept to rounding, so the spring energy is exact to 1e-9.
    EXPECT_NEAR(e.elastic, expected, 1e-9 * expected + 1e-15);
}

}  // namespace
}  // namespace pivot
