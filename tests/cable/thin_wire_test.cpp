// Thin wires carrying heavy loads at real-time steps (docs/engine.md
// "Cables at real-time steps"): 6 m steel wires of 8 to 16 mm (16 ANCF
// elements) swinging a 500 kg load from 30 degrees, at 60 Hz and 30 Hz,
// with the cable's default geometric stiffness (automatic).
//
// References and tolerances: the load is a pendulum whose potential drop
// from 30 degrees is E_s = m g L (1 - cos 30) = 3944 J (L = 6.2 m to the
// load's centre, less its 0.5 m hanger: 500 * 9.81 * 5.99 * 0.134). Like
// the chains of the 60 Hz issue, the energy may never rise above E(0) +
// 2 % of E_s (the step's errors must not pump it), and the load keeps
// swinging: it loses less than half of E_s in 20 s (the wire's own
// Kelvin-Voigt damping, tau = 0.01 s, takes 1 to 3 % at h = 1 ms).
// Measured with the default: max rise 0.65 % of E_s, loss 3 to 10 % at
// 60 Hz and 10 to 12 % at 30 Hz. With the geometric stiffness off (the
// seed thesis's method) the 12 mm wire grows without bound at 60 Hz
// (energy x 1e4 within 100 steps): the divergence watch must say so.
//
// Measured values are printed as "[ measured ] ..." lines.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "first_party_plugins.hpp"

namespace pivot {
namespace {

constexpr double kLoad = 500.0;  // kg
constexpr double kDrop = 3944.0;  // J: E_s, the load's potential drop from 30 degrees

std::unique_ptr<World> swinging_wire(double radius, double h, std::optional<double> geometric_stiffness,
                                     uint32_t elements = 16, double mass = kLoad) {
    WorldSettings settings;
    settings.timestep = h;
    auto world = std::make_unique<World>(test::first_party_plugins(), settings);
    BodyDescription load;
    load.name = "load";
    load.mass = mass;
    const double i = mass * 0.5 / 6.0;  // a 1 m cube's
    load.inertia = {i, 0, 0, 0, i, 0, 0, 0, i};
    load.position = {3.0, 0, 12.0 - 5.2 - 0.5};  // 6 m of wire at 30 degrees, the load 0.5 m below its end
    world->add_body(load);
    CableDescription wire;
    wire.name = "wire";
    wire.elements = elements;
    wire.radius = radius;
    wire.density = 7850.0;
    wire.damping = 0.01;
    wire.geometric_stiffness = geometric_stiffness;
    wire.start = {0, 0, 12.0};
    wire.end = {3.0, 0, 12.0 - 5.2};
    wire.attach.push_back({0, "world", "spherical"});
    wire.attach.push_back({-1, "load", "spherical"});
    world->add_cable(wire);
    return world;
}

struct Swing {
    double largest_rise = 0.0;  // J above E(0)
    double loss = 0.0;          // J: E(0) - E(end)
    bool diverging = false;
};

Swing swing(World& world, double seconds) {
    Swing s;
    const double e0 = world.energy().total();
    const int steps = static_cast<int>(std::lround(seconds / world.settings().timestep));
    for (int n = 0; n < steps; ++n) {
        world.step();
        s.diverging = s.diverging || world.statistics().diverging;
        s.largest_rise = std::max(s.largest_rise, world.energy().total() - e0);
    }
    s.loss = e0 - world.energy().total();
    return s;
}

TEST(ThinWire, HeavyPendulumsStayBoundedAndKeepSwingingAtSixtyAndThirtyHertz) {
    for (double radius : {0.004, 0.006, 0.008}) {
        for (double h : {1.0 / 60.0, 1.0 / 30.0}) {
            auto world = swinging_wire(radius, h, std::nullopt);
            const Swing s = swing(*world, 20.0);
            std::printf("[ measured ] %2.0f mm wire, %.0f Hz: largest rise %.2f %% of E_s, loss in 20 s %.1f %% of "
                        "E_s%s\n",
                        2000 * radius, 1.0 / h, 100 * s.largest_rise / kDrop, 100 * s.loss / kDrop,
                        s.diverging ? ", diverging" : "");
            EXPECT_FALSE(s.diverging) << radius << " m at h = " << h;
            EXPECT_LT(s.largest_rise, 0.02 * kDrop) << radius << " m at h = " << h;
            EXPECT_LT(s.loss, 0.5 * kDrop) << radius << " m at h = " << h;
        }
    }
}

// The automatic choice over wires, discretizations and loads: 4 to 20 mm,
// 8 to 48 elements (75 to 12.5 cm), 50 to 5000 kg, at 60 and 30 Hz, 10 s
// each, with the criteria above (the potential drop scales with the load).
// Measured: all 72 bounded, largest rise 0.91 % of the drop, loss at most
// 18 % in 10 s (a 20 mm wire with 50 kg at 30 Hz: the wire's own swing).
// A first automatic rule, from one element's zigzag mode alone, let 8 of
// them grow (the fine cables: their unstable waves span several elements).
TEST(ThinWire, TheAutomaticChoiceHoldsAcrossWiresElementsAndLoads) {
    int bounded = 0, total = 0;
    double worst_rise = 0.0, worst_loss = 0.0;  // fractions of the drop
    for (double radius : {0.002, 0.004, 0.006, 0.010}) {
        for (uint32_t elements : {8u, 16u, 48u}) {
            for (double mass : {50.0, 500.0, 5000.0}) {
                for (double h : {1.0 / 60.0, 1.0 / 30.0}) {
                    auto world = swinging_wire(radius, h, std::nullopt, elements, mass);
                    const double drop = mass * 9.81 * 5.99 * (1.0 - std::cos(M_PI / 6.0));
                    Swing s;
                    bool failed = false;
                    try {
                        s = swing(*world, 10.0);
                    } catch (const Error&) {
                        failed = true;
                    }
                    const bool ok = !failed && !s.diverging && s.largest_rise < 0.02 * drop && s.loss < 0.5 * drop;
                    EXPECT_TRUE(ok) << 2000 * radius << " mm, " << elements << " elements, " << mass << " kg, "
                                    << 1.0 / h << " Hz: rise " << s.largest_rise / drop << ", loss " << s.loss / drop
                                    << " of the drop" << (s.diverging ? ", diverging" : "")
                                    << (failed ? ", failed" : "");
                    worst_rise = std::max(worst_rise, s.largest_rise / drop);
                    worst_loss = std::max(worst_loss, s.loss / drop);
                    bounded += ok ? 1 : 0;
                    ++total;
                }
            }
        }
    }
    std::printf("[ measured ] %d of %d wires bounded and swinging; largest rise %.2f %%, largest loss in 10 s %.1f %% "
                "of the drop\n",
                bounded, total, 100 * worst_rise, 100 * worst_loss);
}

// The thesis's method (geometric stiffness off) at 60 Hz: the 12 mm wire's
// swing grows without bound, and the statistics say so before the energy
// has grown tenfold.
TEST(ThinWire, WithoutGeometricStiffnessTheTwelveMillimetreWireDivergesAndIsReported) {
    auto world = swinging_wire(0.006, 1.0 / 60.0, 0.0);
    const double e0 = world->energy().total();
    int reported = -1, grown = -1;
    for (int n = 0; n < 600 && grown < 0; ++n) {
        try {
            world->step();
        } catch (const Error&) {
            break;  // the blown-up cable's matrix is refused (after the report)
        }
        if (reported < 0 && world->statistics().diverging) reported = n;
        if (std::abs(world->energy().total() - e0) > 10.0 * kDrop) grown = n;
    }
    std::printf("[ measured ] 12 mm wire at 60 Hz without geometric stiffness: reported diverging at step %d, "
                "energy off by 10 E_s at step %d\n",
                reported, grown);
    ASSERT_GE(grown, 0) << "the thesis's method no longer blows up here: the automatic default may not be needed";
    ASSERT_GE(reported, 0);
    EXPECT_LT(reported, grown);
}

// Where the step resolves the wire (1 ms), the automatic choice adds
// nothing: the same motion, bitwise, as with the geometric stiffness off.
TEST(ThinWire, TheAutomaticChoiceLeavesAResolvedStepUntouched) {
    auto automatic = swinging_wire(0.008, 0.001, std::nullopt);
    auto off = swinging_wire(0.008, 0.001, 0.0);
    for (int n = 0; n < 2000; ++n) {
        automatic->step();
        off->step();
    }
    EXPECT_EQ(automatic->position(automatic->body("load")), off->position(off->body("load")));
    EXPECT_EQ(automatic->cable_node_position(0, 8), off->cable_node_position(0, 8));
}

}  // namespace
}  // namespace pivot
