// The geometric-stiffness stage's shortcut (core/step/stiffness_bound.hpp):
// when a bound says no joint can need stiffness, the stage skips the exact
// computation. The claim is that the step is then bitwise what the exact
// computation gives (alpha = 0 everywhere). Reference: the same world
// stepped with WorldSettings::stiffness_bound = false, which always takes
// the exact computation; positions and velocities must be equal bit for bit
// after every step.
//
// Two chains of ball-jointed links (0.1 m, 0.1 kg, the peer harness's S1
// link inertia along the link) released horizontally, gravity along a
// direction that is not a coordinate axis (every inertia and stiffness
// matrix is full):
// - 20 uniform links at h = 1 ms, where the bound decides every step but
//   the first (which knows no forces yet): 999 of 1000, measured;
// - 20 links under a 5 kg tip (50:1) at h = 2 ms, where the bound decided
//   206 of 500 steps and the exact computation the other 293, stiffening
//   joints on 15 of them (measured with counters in the stage): a bound
//   that passed where a joint needs stiffness would change the trajectory
//   there (with the threshold 0.9 raised to 50 this test fails).
#include <cstring>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "physics_test_support.hpp"

namespace pivot {
namespace {

using namespace physics_test;

const V3 kDown = unit({0.3, -0.2, -1.0});

std::unique_ptr<World> make_chain(double h, int links, double tip_mass, bool stiffness_bound) {
    WorldSettings settings = settings_for(h, 9.81 * kDown, "");
    settings.stiffness_bound = stiffness_bound;
    auto world = std::make_unique<World>(registry(), settings);
    for (int i = 0; i < links; ++i) {
        BodyDescription link;
        link.name = "link" + std::to_string(i);
        link.mass = 0.1;
        link.inertia = diagonal_inertia({6.667e-6, 8.667e-5, 8.667e-5});
        link.position = {0.1 * i + 0.05, 0.0, 0.0};
        world->add_body(link);
        world->add_joint(spherical_joint("joint" + std::to_string(i), i == 0 ? "world" : "link" + std::to_string(i - 1),
                                         link.name, {0.1 * i, 0.0, 0.0}));
    }
    if (tip_mass > 0.0) {
        BodyDescription tip;
        tip.name = "tip";
        tip.mass = tip_mass;
        const double it = 0.4 * tip_mass * 0.05 * 0.05;  // solid sphere of radius 5 cm
        tip.inertia = diagonal_inertia({it, it, it});
        tip.position = {0.1 * links + 0.05, 0.0, 0.0};
        world->add_body(tip);
        world->add_joint(
            spherical_joint("tip_joint", "link" + std::to_string(links - 1), "tip", {0.1 * links, 0.0, 0.0}));
    }
    return world;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

void expect_same_steps(double h, int links, double tip_mass, int steps) {
    auto with_bound = make_chain(h, links, tip_mass, true);
    auto exact = make_chain(h, links, tip_mass, false);
    for (int k = 0; k < steps; ++k) {
        with_bound->step();
        exact->step();
        ASSERT_TRUE(same_bits(with_bound->state().q, exact->state().q)) << "positions differ after step " << k + 1;
        ASSERT_TRUE(same_bits(with_bound->state().v, exact->state().v)) << "velocities differ after step " << k + 1;
    }
    // The chain fell and swung (not a trivially resting world).
    EXPECT_GT(norm(exact->linear_velocity(static_cast<BodyId>(links - 1))), 1.0);
}

TEST(StiffnessBoundStep, ChainAtOneMillisecondIsBitwiseTheExactStep) { expect_same_steps(1e-3, 20, 0.0, 1000); }

TEST(StiffnessBoundStep, HeavyTipChainWhereSomeStepsStiffenIsBitwiseTheExactStep) {
    expect_same_steps(2e-3, 20, 5.0, 500);
}

}  // namespace
}  // namespace pivot
