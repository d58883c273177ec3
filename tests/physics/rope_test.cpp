// Massless ropes over sheaves (docs/engine.md "Ropes and sheaves") against
// exact references:
//   - the row's Jacobian against central differences of the rope's length
//     (the path of core/world/rope_geometry.hpp) along random motions;
//   - Atwood's machine: a = g (m2 - m1) / (m1 + m2), T = 2 m1 m2 g / (m1 + m2);
//   - a movable pulley (block and tackle, mechanical advantage 2): the load's
//     acceleration (2 m - M) g / (M + 4 m) and T = m (g - 2 a_M);
//   - an elastic rope's static stretch m g L / (EA);
//   - a slack rope: free flight, no tension;
//   - a winch lifting 500 kg over a sheave on a jib at 60 Hz: the hook's
//     speed is the reel speed, the tension m (g + a), and paying out lowers it.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include <gtest/gtest.h>

#include "physics_test_support.hpp"

namespace pivot {
namespace {

using namespace physics_test;

constexpr double kG = 9.81;

BodyDescription ball(const std::string& name, double mass, const V3& position, double inertia = 0.0) {
    BodyDescription b;
    b.name = name;
    b.mass = mass;
    const double i = inertia > 0.0 ? inertia : 0.4 * mass * 0.05 * 0.05;  // a 5 cm ball
    b.inertia = diagonal_inertia({i, i, i});
    b.position = position;
    return b;
}

RopePointDescription at(const std::string& body, const V3& p, double radius = 0.0, const V3& axis = {0, 1, 0}) {
    RopePointDescription d;
    d.body = body;
    d.point = p;
    d.radius = radius;
    d.axis = axis;
    return d;
}

WorldSettings settings(double h, const V3& gravity = {0, 0, -kG}) {
    WorldSettings s = settings_for(h, gravity, "pivot.solver.dantzig");
    s.solver_acceptance = 1e-12;
    return s;
}

// ---------------------------------------------------------------------------
// The row's Jacobian. With no gravity and spherical inertias the free
// velocity is the velocity (no force, no gyroscopic term), so the island's
// b = J v + g / h with g = L - l(q) (a rigid row): J v = b - g / h. Its
// reference is -dl/dt along the same motion, by central differences of the
// path length with every body moved by +-eps (v, w). Exact for a rope in its
// sheaves' planes and for points (radius 0) anywhere; with a fleet angle
// beta the rate leaves out O(beta^2) of it (rope_geometry.hpp).
struct JacobianCase {
    std::vector<RopePointDescription> route;
    std::vector<BodyDescription> bodies;
};

// J v from the step's problem and -dl/dt from differences, for random body velocities.
std::pair<double, double> rope_rate(const JacobianCase& c, uint32_t seed) {
    const double h = 1e-3;
    World w(registry(), settings(h, {0, 0, 0}));
    for (const BodyDescription& b : c.bodies) w.add_body(b);
    RopeDescription rope;
    rope.name = "rope";
    rope.route = c.route;
    rope.length = 100.0;  // slack: nothing happens, the row is still written
    w.add_rope(rope);
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<std::array<V3, 2>> twist;
    for (BodyId b = 0; b < w.body_count(); ++b) {
        twist.push_back({V3{u(random), u(random), u(random)}, V3{u(random), u(random), u(random)}});
        w.set_velocity(b, twist.back()[0], twist.back()[1]);
    }
    double b_value = NAN;
    w.set_lcp_observer([&](uint32_t, const LcpProblem& p) {
        ASSERT_EQ(p.n, 1u);
        b_value = p.b[0];
    });
    RopePath path;
    w.rope_path(0, path);
    const double gap = 100.0 - path.length;
    w.step();
    const double jv = b_value - gap / h;
    // -dl/dt by differences: a twin world with every body moved by +-eps (v, w).
    auto length_at = [&](double eps) {
        World twin(registry(), settings(h, {0, 0, 0}));
        for (const BodyDescription& b : c.bodies) twin.add_body(b);
        twin.add_rope(rope);
        for (BodyId b = 0; b < twin.body_count(); ++b) {
            const V3& v = twist[b][0];
            const V3& omega = twist[b][1];
            const auto p = twin.position(b);
            const auto q = twin.orientation(b);
            const double angle = eps * norm(omega);
            const Q4 turn = axis_angle(unit(omega), angle);
            const Q4 turned = multiply(turn, Q4{q[0], q[1], q[2], q[3]});
            twin.set_pose(b, {p[0] + eps * v[0], p[1] + eps * v[1], p[2] + eps * v[2]},
                          {turned[0], turned[1], turned[2], turned[3]});
        }
        RopePath moved;
        twin.rope_path(0, moved);
        return moved.length;
    };
    const double eps = 1e-6;
    const double rate = -(length_at(eps) - length_at(-eps)) / (2 * eps);
    return {jv, rate};
}

TEST(Rope, JacobianMatchesDifferencesOfTheLength) {
    // A rope from the world over a sheave on body "a" (axis y), around a
    // sheave under body "b" (axis -y), through an eye on "c" to a point on
    // "d": four bodies in one row, all in the x-z plane (exact).
    JacobianCase planar;
    planar.bodies = {ball("a", 3, {0, 0, 0}, 0.2), ball("b", 2, {1, 0, -2}, 0.1), ball("c", 1, {2, 0, 0.5}, 0.05),
                     ball("d", 5, {3, 0, -1.5}, 0.3)};
    planar.route = {at("world", {-1, 0, -1}), at("a", {0, 0, 0}, 0.3, {0, 1, 0}),
                    at("b", {1, 0, -2}, 0.2, {0, -1, 0}), at("c", {2.1, 0, 0.5}), at("d", {3, 0, -1.4})};
    // Points only, out of plane: exact in 3-D.
    JacobianCase points;
    points.bodies = {ball("a", 3, {0, 0.3, 0}, 0.2), ball("b", 2, {1, -0.4, -2}, 0.1)};
    points.route = {at("world", {-1, 0.5, -1}), at("a", {0.1, 0.3, 0.05}), at("b", {1, -0.4, -1.9}),
                    at("world", {2, 0.2, 1})};
    for (uint32_t seed = 1; seed <= 5; ++seed) {
        for (const JacobianCase* c : {&planar, &points}) {
            const auto [jv, rate] = rope_rate(*c, seed);
            // Differences of a smooth length at eps = 1e-6 m: truncation
            // ~eps^2 |l'''| and round-off ~1e-16 l / eps, both below 1e-8.
            EXPECT_NEAR(jv, rate, 1e-7 * (1.0 + std::abs(rate))) << "seed " << seed;
        }
    }
}

TEST(Rope, FleetAngleErrorIsSecondOrder) {
    // A sheave whose plane the rope leaves at a fleet angle beta: the rate
    // leaves out O(beta^2) (rope_geometry.hpp); at beta ~ 0.1 rad the
    // measured relative error must be within beta^2.
    JacobianCase fleet;
    fleet.bodies = {ball("a", 3, {0, 0, 0}, 0.2), ball("d", 5, {1.5, 0.15, -1.5}, 0.3)};
    fleet.route = {at("world", {-1.5, -0.15, -1.5}), at("a", {0, 0, 0}, 0.3, {0, 1, 0}), at("d", {1.5, 0.15, -1.5})};
    for (uint32_t seed = 1; seed <= 3; ++seed) {
        const auto [jv, rate] = rope_rate(fleet, seed);
        std::printf("fleet angle 0.1 rad, seed %u: J v %.9f, -dl/dt %.9f\n", seed, jv, rate);
        // beta^2 |rate| with beta = 0.1 (the segments leave the plane by
        // 0.15 m over 1.5 m); measured 1.8e-4 to 2.2e-4 relative, where a
        // first-order error would be ~0.1.
        EXPECT_NEAR(jv, rate, 0.01 * std::abs(rate)) << "seed " << seed;
    }
}

// ---------------------------------------------------------------------------
// Atwood's machine: m1 and m2 hang from a fixed sheave of radius r. Constant
// accelerations, so the step's velocity is exact: v_n = a n h.
TEST(Rope, AtwoodMachineAccelerationAndTension) {
    const double m1 = 2.0, m2 = 3.0, r = 0.2, h = 1.0 / 60.0;
    World w(registry(), settings(h));
    const BodyId b1 = w.add_body(ball("m1", m1, {-r, 0, -2}));
    const BodyId b2 = w.add_body(ball("m2", m2, {r, 0, -2}));
    RopeDescription rope;
    rope.name = "rope";
    rope.route = {at("m1", {-r, 0, -2}), at("world", {0, 0, 0}, r, {0, 1, 0}), at("m2", {r, 0, -2})};
    const RopeId id = w.add_rope(rope);
    EXPECT_NEAR(w.rope_length(id), 4.0 + M_PI * r, 1e-12);  // two 2 m falls and half the sheave
    const double a = kG * (m2 - m1) / (m1 + m2), tension = 2 * m1 * m2 * kG / (m1 + m2);
    run_until(w, 1.0, [&](World&) {});
    const double t = w.time();
    // Dantzig solves the one row to round-off: 1e-9 relative.
    EXPECT_NEAR(w.linear_velocity(b2)[2], -a * t, 1e-9 * a * t);
    EXPECT_NEAR(w.linear_velocity(b1)[2], a * t, 1e-9 * a * t);
    EXPECT_NEAR(w.rope_tension(id), tension, 1e-9 * tension);
    RopePath path;
    w.rope_path(id, path);
    // The rope's length holds to the step's first-order drift, corrected
    // each step: (h a)^2-sized, far below a micrometre here.
    EXPECT_NEAR(path.length, w.rope_length(id), 1e-6);
    EXPECT_NEAR(w.position(b1)[0], -r, 1e-12);  // hanging straight: no swing
}

// A movable pulley: the rope runs from the ceiling down under a sheave on
// the load M, up over a fixed sheave and down to a counterweight m. The load
// moves half as far as the counterweight: M a_M = 2 T - M g,
// m (-2 a_M) = T - m g.
TEST(Rope, MovablePulleyHalvesTheForce) {
    const double M = 5.0, m = 2.0, r = 0.1, h = 1.0 / 60.0;
    World w(registry(), settings(h));
    const BodyId load = w.add_body(ball("load", M, {-0.2, 0, -1}, 0.05));
    const BodyId counter = w.add_body(ball("counter", m, {0.1, 0, -1}));
    RopeDescription rope;
    rope.name = "tackle";
    rope.route = {at("world", {-0.3, 0, 0}), at("load", {-0.2, 0, -1}, r, {0, -1, 0}),
                  at("world", {0, 0, 0}, r, {0, 1, 0}), at("counter", {0.1, 0, -1})};
    const RopeId id = w.add_rope(rope);
    const double a_load = (2 * m - M) * kG / (M + 4 * m), tension = m * (kG - 2 * a_load);
    run_until(w, 1.0, [&](World&) {});
    const double t = w.time();
    EXPECT_NEAR(w.linear_velocity(load)[2], a_load * t, 1e-9 * std::abs(a_load) * t);
    EXPECT_NEAR(w.linear_velocity(counter)[2], -2 * a_load * t, 2e-9 * std::abs(a_load) * t);
    EXPECT_NEAR(w.rope_tension(id), tension, 1e-9 * tension);
    // The two pulls on the load's sheave are equal and vertical: it does not turn.
    EXPECT_NEAR(norm(w.angular_velocity(load)), 0.0, 1e-9);
}

// An elastic rope holding m at rest: stretch m g L / (EA), tension m g.
TEST(Rope, ElasticStretchIsStatic) {
    const double mass = 100.0, L = 5.0, ea = 1e6, h = 1.0 / 60.0;
    World w(registry(), settings(h));
    const BodyId b = w.add_body(ball("load", mass, {0, 0, -L}));
    RopeDescription rope;
    rope.name = "rope";
    rope.route = {at("world", {0, 0, 0}), at("load", {0, 0, -L})};
    rope.stiffness = ea;
    rope.damping = 2.0 * std::sqrt(ea / L * mass);  // critical
    const RopeId id = w.add_rope(rope);
    run_until(w, 5.0, [&](World&) {});
    const double stretch = mass * kG * L / ea;
    RopePath path;
    w.rope_path(id, path);
    // Settled (critically damped, 35 periods of 0.14 s): 1e-9 relative.
    EXPECT_NEAR(path.length - L, stretch, 1e-9 * stretch + 1e-12);
    EXPECT_NEAR(w.rope_tension(id), mass * kG, 1e-6 * mass * kG);
    EXPECT_NEAR(w.position(b)[2], -L - stretch, 1e-9);
    // Its energy: (1/2) EA s^2 / L of the stretch in the world's elastic energy.
    EXPECT_NEAR(w.energy().elastic, 0.5 * ea * stretch * stretch / L, 1e-6 * 0.5 * ea * stretch * stretch / L);
}

// A rope never pushes: a load thrown up flies free until the rope is taut again.
TEST(Rope, SlackRopeLetsTheLoadFly) {
    const double h = 1.0 / 60.0, v0 = 2.0;
    World w(registry(), settings(h));
    const BodyId b = w.add_body(ball("load", 10.0, {0, 0, -1}));
    RopeDescription rope;
    rope.name = "rope";
    rope.route = {at("world", {0, 0, 0}), at("load", {0, 0, -1})};
    const RopeId id = w.add_rope(rope);
    w.set_velocity(b, {0, 0, v0}, {0, 0, 0});
    // Symplectic Euler in free flight: v_n = v0 - g n h, z_n = z0 + h sum v_k.
    double z = -1.0, v = v0;
    for (int n = 1; n <= 20; ++n) {  // 0.33 s: up 0.2 m and back to -0.99 m, still slack
        w.step();
        v -= kG * h;
        z += h * v;
        EXPECT_EQ(w.rope_tension(id), 0.0) << "step " << n;
        EXPECT_NEAR(w.position(b)[2], z, 1e-12) << "step " << n;
    }
}

// ---------------------------------------------------------------------------
// A winch lifts 500 kg over a sheave at the tip of a jib at 60 Hz: the
// rope from a drum point on the crane's base (a body fixed to the world by a
// joint) over the jib's sheave (another such body) down to the load: one row
// over three bodies. A 16 mm steel wire (EA = 2e11 pi 0.008^2 = 4.0e7 N),
// the reel speed ramped to 0.5 m/s over 1 s as a hoist drive does.
struct Crane {
    std::unique_ptr<World> world;
    BodyId load = 0;
    RopeId rope = 0;
};

Crane make_crane(double h) {
    Crane c;
    c.world = std::make_unique<World>(registry(), settings(h));
    World& w = *c.world;
    w.add_body(ball("base", 5000.0, {0, 0, 0}, 2000.0));
    w.add_body(ball("jib", 2000.0, {4, 0, 10}, 3000.0));
    c.load = w.add_body(ball("load", 500.0, {4.3, 0, 2}, 50.0));
    for (const char* body : {"base", "jib"}) {
        JointDescription j;
        j.name = std::string(body) + "_mount";
        j.type = "fixed";
        j.body1 = "world";
        j.body2 = body;
        j.anchor = body == std::string("base") ? V3{0, 0, 0} : V3{4, 0, 10};
        w.add_joint(j);
    }
    RopeDescription rope;
    rope.name = "hoist";
    // Over the top of the sheave, +x there: counterclockwise about +y.
    rope.route = {at("base", {0, 0, 1}), at("jib", {4, 0, 10}, 0.3, {0, 1, 0}), at("load", {4.3, 0, 2})};
    rope.stiffness = 2e11 * M_PI * 0.008 * 0.008;
    c.rope = w.add_rope(rope);
    return c;
}

TEST(Rope, WinchLiftsALoadOverASheaveAtSixtyHertz) {
    const double h = 1.0 / 60.0, speed = 0.5, mass = 500.0;
    Crane c = make_crane(h);
    World& w = *c.world;
    const double z0 = w.position(c.load)[2], length0 = w.rope_length(c.rope);
    // The hoist's profile: ramp to `speed` in 1 s, hold for 10 s, stop (set
    // after each step, it applies from the next; by step count, so that
    // reeling in and paying out are the same to the bit).
    const auto profile = [&](double t) {
        const long n = std::lround(t / h);
        return n < 60 ? speed * static_cast<double>(n) / 60.0 : (n < 660 ? speed : 0.0);
    };
    double max_speed_error = 0.0, max_tension_error = 0.0, max_stretch = 0.0;
    run_until(w, 12.0, [&](World& world) {
        const double t = world.time();
        world.set_rope_reel_speed(c.rope, -profile(t));
        RopePath path;
        world.rope_path(c.rope, path);
        max_stretch = std::max(max_stretch, (path.length - world.rope_length(c.rope)) / world.rope_length(c.rope));
        if (t > 3.0 && t < 10.5) {  // steady reeling
            max_speed_error = std::max(max_speed_error, std::abs(world.linear_velocity(c.load)[2] - speed) / speed);
            max_tension_error =
                std::max(max_tension_error, std::abs(world.rope_tension(c.rope) - mass * kG) / (mass * kG));
        }
    });
    const double lifted = w.position(c.load)[2] - z0, reeled = length0 - w.rope_length(c.rope);
    std::printf("winch over a sheave at 60 Hz: reeled %.4f m, lifted %.4f m, speed error %.2e, tension error %.2e, "
                "stretch %.2e\n",
                reeled, lifted, max_speed_error, max_tension_error, max_stretch);
    // The bounds for a winch: speed and tension within 2 %, stretch
    // at most 0.1 % (m g L / EA = 1.2e-4 of the 9.7 m rope here).
    EXPECT_LT(max_speed_error, 0.02);
    EXPECT_LT(max_tension_error, 0.02);
    EXPECT_LT(max_stretch, 1e-3);
    EXPECT_GT(reeled, 5.0);
    // The hook rises by what was reeled in, less the ringing of the wire
    // after the sudden stop (amplitude v / omega = 0.5 / 90 = 5.5 mm, for
    // omega^2 = EA / (L m)) and the change of its stretch (1.2 mm): 1 cm.
    EXPECT_NEAR(lifted, reeled, 0.01);
    // Paying out the same lowers it back.
    run_until(w, 24.0, [&](World& world) { world.set_rope_reel_speed(c.rope, profile(world.time() - 12.0)); });
    run_until(w, 25.0, [&](World&) {});
    std::printf("paid out: back within %.2e m\n", w.position(c.load)[2] - z0);
    EXPECT_NEAR(w.rope_length(c.rope), length0, 1e-9);
    EXPECT_NEAR(w.position(c.load)[2], z0, 0.01);
}

// ---------------------------------------------------------------------------
// What a rope refuses, naming the rope and the field.
TEST(Rope, RefusesBadRoutes) {
    World w(registry(), settings(1.0 / 60.0));
    w.add_body(ball("a", 1.0, {0, 0, -1}));
    auto refused = [&](RopeDescription r, const std::string& expected) {
        try {
            w.add_rope(r);
            ADD_FAILURE() << "accepted: " << expected;
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
        }
    };
    RopeDescription r;
    r.name = "r";
    r.route = {at("world", {0, 0, 0})};
    refused(r, "rope 'r': route: must have 2 to 1000 points");
    r.route = {at("world", {0, 0, 0}, 0.1), at("a", {0, 0, -1})};
    refused(r, "rope 'r': route[0]: radius: the rope's ends are points");
    r.route = {at("world", {0, 0, 0}), at("nobody", {0, 0, -1})};
    refused(r, "rope 'r': route[1]: body: no body named 'nobody'");
    r.route = {at("world", {0, 0, 0}), at("world", {0, 0, -0.5}, 1.0), at("a", {0, 0, -1})};
    refused(r, "rope 'r': route: two consecutive points coincide, or a point lies within the circle");
    // Over the top of a sheave left to right is counterclockwise about +y: -y bends it the wrong way.
    r.route = {at("world", {-1, 0, 0}), at("world", {0, 0, 1}, 0.2, {0, -1, 0}), at("a", {0, 0, -1})};
    refused(r, "rope 'r': route[1]: axis: the rope would wrap this sheave by 238.9 degrees and cross itself");
    // The jib's sheave of WinchLiftsALoadOverASheaveAtSixtyHertz with its axis reversed.
    r.route = {at("world", {0, 0, 1}), at("world", {4, 0, 10}, 0.3, {0, -1, 0}), at("a", {4.3, 0, 2})};
    refused(r, "rope 'r': route[1]: axis: the rope would wrap this sheave by");
    r.route = {at("world", {0, 0, 0}), at("a", {0, 0, -1})};
    r.damping = 10.0;
    refused(r, "rope 'r': damping: needs a stiffness");
    r.damping = 0.0;
    r.length = -1.0;
    refused(r, "rope 'r': length: must be a positive number");
    r.length = 0.0;
    r.reel_speed = 1000.0;
    refused(r, "rope 'r'");
    r.reel_speed = 0.0;
    r.route = {at("world", {0, 0, 0}), at("world", {1, 0, 0}, 0.1, {0, 0, 0}), at("a", {0, 0, -1})};
    refused(r, "rope 'r': route[1]: axis: must be a nonzero finite vector");
    for (int k = 0; k < 5; ++k) w.add_body(ball("b" + std::to_string(k), 1.0, {double(k), 0, -2}));
    r.route.clear();
    for (int k = 0; k < 5; ++k) r.route.push_back(at("b" + std::to_string(k), {double(k), 0, -2.0 + (k % 2)}));
    refused(r, "rope 'r': route: passes 5 distinct bodies; a rope may pass at most 4");
    r.route = {at("world", {0, 0, 0}), at("a", {0, 0, -1})};
    w.add_rope(r);
    refused(r, "rope 'r': name: another rope already has this name");
}

// Removing a body takes the ropes through it; the others keep their tension;
// a saved state restores the ropes' lengths and warm starts bitwise.
TEST(Rope, RemovalAndSavedState) {
    const double h = 1.0 / 60.0;
    World w(registry(), settings(h));
    w.add_body(ball("m1", 2.0, {-0.2, 0, -2}));
    w.add_body(ball("m2", 3.0, {0.2, 0, -2}));
    w.add_body(ball("m3", 1.0, {3, 0, -1}));
    RopeDescription a;
    a.name = "atwood";
    a.route = {at("m1", {-0.2, 0, -2}), at("world", {0, 0, 0}, 0.2, {0, 1, 0}), at("m2", {0.2, 0, -2})};
    a.reel_speed = -0.1;
    w.add_rope(a);
    RopeDescription b;
    b.name = "single";
    b.route = {at("world", {3, 0, 0}), at("m3", {3, 0, -1})};
    const RopeId single = w.add_rope(b);
    for (int k = 0; k < 10; ++k) w.step();
    const std::vector<uint8_t> saved = w.save_state();
    std::vector<double> first;
    for (int k = 0; k < 10; ++k) {
        w.step();
        first.push_back(w.position(1)[2]);
    }
    w.restore_state(saved.data(), saved.size());
    for (int k = 0; k < 10; ++k) {
        w.step();
        EXPECT_EQ(w.position(1)[2], first[static_cast<size_t>(k)]) << "step " << k;  // bitwise
    }
    w.remove_body(w.body("m1"));
    EXPECT_TRUE(w.rope_removed(0));
    EXPECT_FALSE(w.rope_removed(single));
    w.step();
    EXPECT_NEAR(w.rope_tension(single), 1.0 * kG, 1e-9 * kG);
    EXPECT_THROW(w.rope_tension(0), Error);
}

}  // namespace
}  // namespace pivot
