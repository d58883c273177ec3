// ANCF cables against analytic references (issue 7, seed000 B8-B13).
#include <cmath>

#include <gtest/gtest.h>

#include "first_party_plugins.hpp"

namespace pivot {
namespace {

PluginRegistry& registry() { return test::first_party_plugins(); }

// A steel cantilever under its own weight (L = 2 m, r = 0.01 m, E = 2e11 Pa,
// rho = 7750 kg/m^3, 8 elements), clamped at x = 0 and settled by material
// damping: the small-deflection tip deflection q L^4 / (8 E I), q = rho A g
// (Euler-Bernoulli). The tip deflects 1.5 % of L, so the geometrically
// nonlinear correction is O(1e-4) relative; 8 cubic elements are converged
// far below that; the criterion is the 2 %.
TEST(CableValidation, CantileverTipDeflectionMatchesEulerBernoulli) {
    WorldSettings settings;
    settings.timestep = 0.01;
    World world(registry(), settings);
    CableDescription c;
    c.name = "beam";
    c.start = {0, 0, 0};
    c.end = {2, 0, 0};
    c.elements = 8;
    c.radius = 0.01;
    c.density = 7750;
    c.youngs_modulus = 2e11;
    c.damping = 0.01;  // s: damps the first mode (22 rad/s) at ~2.4 /s
    c.attach.push_back({0, "world", "fixed"});
    world.add_cable(c);
    for (int i = 0; i < 500; ++i) world.step();
    const double pi = std::acos(-1.0);
    const double area = pi * 1e-4, inertia = pi * 1e-8 / 4;
    const double q = 7750 * area * 9.81;
    const double expected = q * 16.0 / (8.0 * 2e11 * inertia);
    const auto tip = world.cable_node_position(0, 8);
    EXPECT_NEAR(-tip[2], expected, 0.02 * expected);
}

}  // namespace
}  // namespace pivot
