// Winches (docs/engine.md "Winches"): a crane hoist lifts a 500 kg load 5 m
// by reeling a 16-element steel wire in at 0.5 m/s at 60 Hz, then pays it
// out again (issue 17's acceptance case).
//
// References: a load hung on a wire whose deployed length L(t) changes at
// the reel speed u moves with the wire's lower end: z' = -u (reeling in
// lifts it), the wire's own stretch T / (E A) per metre being constant in
// steady reeling. The tension at the load (the attachment's reaction) is
// m (g + a): m g in steady reeling at constant u. The stretch of the whole
// wire is at most (m g + the wire's weight) / (E A) = 1e-4 here.
//
// Measured values are printed as "[ measured ] ..." lines.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "first_party_plugins.hpp"

namespace pivot {
namespace {

PluginRegistry& registry() { return test::first_party_plugins(); }

constexpr double kG = 9.81;
constexpr double kH = 1.0 / 60.0;
constexpr double kLoad = 500.0;        // kg
constexpr double kWireRadius = 0.008;  // m: a 16 mm steel wire
constexpr double kDrumZ = 12.0;        // m: the boom tip, where the wire leaves the drum
constexpr double kInitialLength = 10.0;

struct Hoist {
    std::unique_ptr<World> world;
    CableId wire = 0;
    BodyId load = 0;
    JointId hook = 0;  // the wire's last node on the load
};

Hoist make_hoist() {
    Hoist h;
    WorldSettings settings;
    settings.timestep = kH;
    h.world = std::make_unique<World>(registry(), settings);
    BodyDescription load;
    load.name = "load";
    load.mass = kLoad;
    const double i = kLoad * 0.5 / 6.0;  // a 1 m cube
    load.inertia = {i, 0, 0, 0, i, 0, 0, 0, i};
    load.position = {0, 0, kDrumZ - kInitialLength - 0.5};
    h.load = h.world->add_body(load);
    CableDescription wire;
    wire.name = "wire";
    wire.start = {0, 0, kDrumZ};
    wire.end = {0, 0, kDrumZ - kInitialLength};
    wire.elements = 16;
    wire.radius = kWireRadius;
    wire.attach.push_back({0, "world", "spherical"});
    wire.attach.push_back({-1, "load", "spherical"});
    wire.min_length = 2.0;
    wire.max_length = 20.0;
    h.wire = h.world->add_cable(wire);
    h.hook = h.world->joint("wire/attach1");
    return h;
}

double norm3(const std::array<double, 3>& a) { return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

// The wire's length along its nodes (chords: within 1e-9 of the arc for a
// straight hanging wire).
double wire_length(const World& world, CableId c) {
    double length = 0.0;
    for (uint32_t n = 0; n + 1 < world.cable_node_count(c); ++n) {
        const auto a = world.cable_node_position(c, n), b = world.cable_node_position(c, n + 1);
        length += norm3({b[0] - a[0], b[1] - a[1], b[2] - a[2]});
    }
    return length;
}

TEST(Winch, ReelingInLiftsTheLoadAtTheReelSpeedAndPayingOutLowersItBack) {
    Hoist hoist = make_hoist();
    World& world = *hoist.world;
    for (int n = 0; n < 60; ++n) world.step();  // 1 s: the load settles on the elastic wire
    const double z0 = world.position(hoist.load)[2];
    const double area = M_PI * kWireRadius * kWireRadius;
    const double ea = 2e11 * area;
    // Reel in 5 m at 0.5 m/s: 600 steps.
    world.set_cable_reel_speed(hoist.wire, -0.5);
    double worst_speed = 0.0, worst_tension = 0.0, worst_stretch = 0.0;
    uint32_t failures = 0;
    for (int n = 0; n < 600; ++n) {
        world.step();
        failures += world.statistics().solver_failures;
        const double stretch = wire_length(world, hoist.wire) / world.cable_length(hoist.wire) - 1.0;
        worst_stretch = std::max(worst_stretch, std::abs(stretch));
        if (n < 30) continue;  // steady reeling after the start (0.5 s)
        worst_speed = std::max(worst_speed, std::abs(world.linear_velocity(hoist.load)[2] - 0.5) / 0.5);
        const double tension = norm3(world.reaction(hoist.hook).force);
        worst_tension = std::max(worst_tension, std::abs(tension - kLoad * kG) / (kLoad * kG));
    }
    const double z1 = world.position(hoist.load)[2];
    std::printf("[ measured ] reeling in: load rose %.4f m (5 expected); speed within %.2e, tension within %.2e of "
                "m g, largest stretch %.2e (m g / EA = %.2e); deployed %.4f m; failures %u\n",
                z1 - z0, worst_speed, worst_tension, worst_stretch, kLoad * kG / ea, world.cable_length(hoist.wire),
                failures);
    EXPECT_NEAR(world.cable_length(hoist.wire), kInitialLength - 5.0, 1e-9);
    EXPECT_NEAR(z1 - z0, 5.0, 0.02 * 5.0);
    EXPECT_LT(worst_speed, 0.02);
    EXPECT_LT(worst_tension, 0.02);
    EXPECT_LT(worst_stretch, 1e-3);
    EXPECT_EQ(failures, 0u);
    // Pay out 5 m at 0.5 m/s: the load goes back down.
    world.set_cable_reel_speed(hoist.wire, 0.5);
    double worst_down = 0.0;
    for (int n = 0; n < 600; ++n) {
        world.step();
        failures += world.statistics().solver_failures;
        if (n >= 30) worst_down = std::max(worst_down, std::abs(world.linear_velocity(hoist.load)[2] + 0.5) / 0.5);
    }
    world.set_cable_reel_speed(hoist.wire, 0.0);
    for (int n = 0; n < 60; ++n) world.step();
    const double z2 = world.position(hoist.load)[2];
    std::printf("[ measured ] paying out: load back to %.4f m (started at %.4f m); speed within %.2e; failures %u\n", z2,
                z0, worst_down, failures);
    EXPECT_NEAR(z2, z0, 0.01);
    EXPECT_LT(worst_down, 0.02);
    EXPECT_EQ(failures, 0u);
}

TEST(Winch, StopsAtItsLimitsAndRefusesBadSpeeds) {
    Hoist hoist = make_hoist();
    World& world = *hoist.world;
    world.set_cable_reel_speed(hoist.wire, -10.0);  // 10 m/s: the 2 m minimum in 0.8 s
    for (int n = 0; n < 120; ++n) world.step();
    EXPECT_EQ(world.cable_length(hoist.wire), 2.0);
    EXPECT_THROW(world.set_cable_reel_speed(hoist.wire, NAN), Error);
    EXPECT_THROW(world.set_cable_reel_speed(hoist.wire, 1e3), Error);
    CableDescription bad;
    bad.name = "short";
    bad.start = {5, 0, 0};
    bad.end = {6, 0, 0};
    bad.min_length = 2.0;  // above the initial 1 m
    try {
        world.add_cable(bad);
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("cable 'short': min_length"), std::string::npos) << e.what();
    }
}

TEST(Winch, ASavedStateRemembersTheDeployedLength) {
    Hoist hoist = make_hoist();
    World& world = *hoist.world;
    world.set_cable_reel_speed(hoist.wire, -0.5);
    for (int n = 0; n < 30; ++n) world.step();
    const std::vector<uint8_t> saved = world.save_state();
    for (int n = 0; n < 30; ++n) world.step();
    const auto after = world.position(hoist.load);
    const double length = world.cable_length(hoist.wire);
    world.set_cable_reel_speed(hoist.wire, 0.5);
    for (int n = 0; n < 10; ++n) world.step();
    world.restore_state(saved.data(), saved.size());
    for (int n = 0; n < 30; ++n) world.step();
    EXPECT_EQ(world.cable_length(hoist.wire), length);
    EXPECT_EQ(world.position(hoist.load), after);
}

}  // namespace
}  // namespace pivot
