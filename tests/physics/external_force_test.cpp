// External forces and torques set through the API: a free body (no gravity)
// under a constant force F and a torque tau about a principal axis moves as
// semi-implicit Euler says exactly: after n steps v = n h F/m and
// x = h^2 F/m n (n + 1) / 2 (the velocity is updated first, then the
// position with the new velocity), omega = n h tau / I about that axis.
#include "physics_test_support.hpp"

#include "common/error.hpp"

namespace pivot {
namespace {

using namespace physics_test;

TEST(ExternalForce, ConstantForceAndTorqueIntegrateExactly) {
    const double h = 1e-3, m = 4.0, I = 0.5;
    World world(registry(), settings_for(h, {0, 0, 0}));
    BodyDescription b;
    b.name = "box";
    b.mass = m;
    b.inertia = {I, 0, 0, 0, 2 * I, 0, 0, 0, 3 * I};
    const BodyId id = world.add_body(b);
    world.set_external_force(id, {2.0, 0.0, -1.0}, {0.3, 0.0, 0.0});
    const int n = 1000;
    for (int k = 0; k < n; ++k) world.step();
    const auto x = world.position(id);
    const auto v = world.linear_velocity(id);
    const auto w = world.angular_velocity(id);
    // Sums of n terms of size ~1e-6: rounding ~1e-13.
    EXPECT_NEAR(v[0], n * h * 2.0 / m, 1e-12);
    EXPECT_NEAR(v[2], -n * h * 1.0 / m, 1e-12);
    EXPECT_NEAR(x[0], h * h * 2.0 / m * n * (n + 1) / 2.0, 1e-12);
    EXPECT_NEAR(x[2], -h * h * 1.0 / m * n * (n + 1) / 2.0, 1e-12);
    // Spin about the body x axis (principal, aligned with world x as the
    // body turns about it): no gyroscopic torque.
    EXPECT_NEAR(w[0], n * h * 0.3 / I, 1e-12);
    EXPECT_NEAR(w[1], 0.0, 1e-12);
    EXPECT_NEAR(w[2], 0.0, 1e-12);
    // Removing the force stops the acceleration.
    world.set_external_force(id, {0, 0, 0}, {0, 0, 0});
    world.step();
    EXPECT_NEAR(world.linear_velocity(id)[0], v[0], 1e-15);
}

TEST(ExternalForce, NonFiniteInputIsRefusedWithTheBodyName) {
    World world(registry(), settings_for(1e-3, {0, 0, 0}));
    BodyDescription b;
    b.name = "crate";
    const BodyId id = world.add_body(b);
    try {
        world.set_external_force(id, {NAN, 0, 0}, {0, 0, 0});
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()), "body 'crate': external force: must be finite");
    }
}

}  // namespace
}  // namespace pivot
