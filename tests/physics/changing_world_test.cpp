// A world that changes while it runs (docs/engine.md "Changing a world while
// it runs"): a hook engages a load where it is and releases it in flight, a
// chain link breaks above its threshold, and adding to a world keeps every
// other joint's warm start. References: rigid-body momentum balance and
// free fall under the semi-implicit step (v_n = v_0 - n h g exactly), and a
// second world without the changes, whose untouched bodies must move
// bitwise the same (islands are solved independently).
#include <cmath>
#include <cstdio>
#include <memory>

#include <gtest/gtest.h>

#include "contact_scenes.hpp"
#include "physics_test_support.hpp"

namespace pivot {
namespace {

using namespace physics_test;

constexpr double kH = 1.0 / 60.0;
constexpr double kG = 9.81;

// A pendulum far from everything: the witness that the other bodies do
// not jump when a world changes (its own island).
BodyId add_witness(World& world) {
    BodyDescription bob;
    bob.name = "witness";
    bob.mass = 1.0;
    bob.inertia = diagonal_inertia({0.01, 0.01, 0.01});
    bob.position = {20.5, 0, 2};
    const BodyId id = world.add_body(bob);
    JointDescription pivot_joint;
    pivot_joint.name = "witness_pivot";
    pivot_joint.type = "spherical";
    pivot_joint.body2 = "witness";
    pivot_joint.anchor = {20, 0, 2};
    world.add_joint(pivot_joint);
    return id;
}

// A 20 kg hook on a vertical slider driven at a commanded speed (a rigid
// velocity drive, 1e5 N), a 500 kg crate on the ground below it, and a
// fixed joint "grab" between them, built disabled.
struct Crane {
    std::unique_ptr<World> world;
    BodyId hook = 0, crate = 0, witness = 0;
    JointId hoist = 0, grab = 0;
};

Crane make_crane(bool with_grab) {
    Crane c;
    c.world = std::make_unique<World>(registry(), settings_for(kH, {0, 0, -kG}));
    add_ground(*c.world);
    c.crate = c.world->add_body(box_body("crate", 500.0, {1, 1, 1}, {0, 0, 0.5}));
    BodyDescription hook;
    hook.name = "hook";
    hook.mass = 20.0;
    hook.inertia = diagonal_inertia({0.5, 0.5, 0.5});
    hook.position = {0, 0, 2.0};
    c.hook = c.world->add_body(hook);
    JointDescription hoist;
    hoist.name = "hoist";
    hoist.type = "prismatic";
    hoist.body2 = "hook";
    hoist.axis = {0, 0, 1};
    hoist.motor = JointMotor{-0.5, 1e5};
    c.hoist = c.world->add_joint(hoist);
    if (with_grab) {
        JointDescription grab;
        grab.name = "grab";
        grab.type = "fixed";
        grab.body1 = "hook";
        grab.body2 = "crate";
        grab.anchor = {0, 0, 1.0};
        grab.enabled = false;
        c.grab = c.world->add_joint(grab);
    }
    c.witness = add_witness(*c.world);
    return c;
}

TEST(ChangingWorld, AHookEngagesALoadWhereItIsAndReleasesItInFlight) {
    Crane crane = make_crane(true);
    Crane reference = make_crane(false);  // the same world without the grab: the witness's reference
    World& world = *crane.world;
    uint32_t failures = 0;
    double witness_gap = 0.0;
    const auto run = [&](int steps, auto&& check) {
        for (int n = 0; n < steps; ++n) {
            world.step();
            reference.world->step();
            failures += world.statistics().solver_failures;
            const auto a = world.position(crane.witness), b = reference.world->position(reference.witness);
            witness_gap = std::max(witness_gap, std::abs(a[0] - b[0]) + std::abs(a[1] - b[1]) + std::abs(a[2] - b[2]));
            check(n);
        }
    };
    // Down 0.9 m at 0.5 m/s (108 steps), then hold: the hook stops 0.1 m
    // above the crate's top (the grab is placed where the hook is, not at
    // its anchor of 1.0 m).
    run(108, [](int) {});
    world.set_motor_velocity(crane.hoist, 0.0);
    reference.world->set_motor_velocity(reference.hoist, 0.0);
    run(30, [](int) {});
    const double hook_z = world.position(crane.hook)[2];
    EXPECT_NEAR(hook_z, 2.0 - 108 * kH * 0.5, 1e-6);
    // Engage at the current pose, then lift at 0.5 m/s.
    world.set_joint_enabled(crane.grab, true, JointAnchor::current_pose);
    EXPECT_TRUE(world.joint_enabled(crane.grab));
    world.set_motor_velocity(crane.hoist, 0.5);
    reference.world->set_motor_velocity(reference.hoist, 0.5);
    double worst_rise = 0.0;
    run(120, [&](int n) {
        // The crate moves with the hook from the first step: the drive is
        // rigid and the grab rigid, so both rise at exactly 0.5 m/s.
        if (n > 0) worst_rise = std::max(worst_rise, std::abs(world.linear_velocity(crane.crate)[2] - 0.5));
    });
    const double lifted = world.position(crane.crate)[2] - 0.5;
    const double effort = world.reaction(crane.hoist).motor_effort;
    std::printf("engaged: crate rises at 0.5 m/s within %.2e m/s, lifted %.4f m in 2 s; hoist effort %.1f N "
                "(m g = %.1f N)\n",
                worst_rise, lifted, effort, 520 * kG);
    EXPECT_LT(worst_rise, 1e-6);
    // 120 steps at 0.5 m/s, from the crate's resting depth (2.7e-8 m into the ground).
    EXPECT_NEAR(lifted, 120 * kH * 0.5, 1e-6);
    EXPECT_NEAR(world.position(crane.hook)[2] - world.position(crane.crate)[2], hook_z - 0.5, 1e-6);
    EXPECT_NEAR(effort, 520 * kG, 1e-6 * 520 * kG);  // steady lift: the weight of hook and crate
    // Release in flight: the crate falls freely from 0.5 m/s up, the hook
    // goes on at 0.5 m/s (no jump), the drive now carries the hook alone.
    world.set_joint_enabled(crane.grab, false);
    const double hook_speed = world.linear_velocity(crane.hook)[2];
    double worst_fall = 0.0, worst_hook = 0.0;
    run(18, [&](int n) {
        worst_fall = std::max(worst_fall, std::abs(world.linear_velocity(crane.crate)[2] - (0.5 - (n + 1) * kH * kG)));
        worst_hook = std::max(worst_hook, std::abs(world.linear_velocity(crane.hook)[2] - hook_speed));
    });
    std::printf("released: crate speed vs free fall %.2e m/s, hook speed change %.2e m/s; hoist effort %.3f N (hook "
                "m g %.3f N); witness gap %.1e m; solver failures %u\n",
                worst_fall, worst_hook, world.reaction(crane.hoist).motor_effort, 20 * kG, witness_gap, failures);
    EXPECT_LT(worst_fall, 1e-9);
    EXPECT_LT(worst_hook, 1e-9);
    EXPECT_NEAR(world.reaction(crane.hoist).motor_effort, 20 * kG, 1e-6 * 20 * kG);
    EXPECT_EQ(failures, 0u);
    EXPECT_EQ(witness_gap, 0.0);  // bitwise: nothing reached the witness's island
}

// Four 1 kg balls hanging 0.25 m apart on spherical joints from the world,
// at 60 Hz. Joint "link1" (carrying balls 1..3, 3 m g = 29.4 N at rest)
// breaks at 1.5 times that. A downward force F = 10 t N on the last ball
// raises its tension to 3 m g + F: it breaks when F passes 1.5 m g =
// 14.7 N (t = 1.47 s), in the step whose reaction first exceeds the
// threshold, and is disabled from the next one; the three balls below then
// fall together with a = g + F / (3 m).
TEST(ChangingWorld, AChainLinkBreaksAboveItsThresholdAndTheRestFalls) {
    World world(registry(), settings_for(kH, {0, 0, -kG}));
    const double m = 1.0, threshold = 1.5 * 3 * m * kG;
    BodyId balls[4];
    for (int k = 0; k < 4; ++k) {
        BodyDescription b;
        b.name = "ball" + std::to_string(k);
        b.mass = m;
        b.inertia = diagonal_inertia({0.004, 0.004, 0.004});
        b.position = {0, 0, -0.25 * (k + 1)};
        balls[k] = world.add_body(b);
        JointDescription link;
        link.name = "link" + std::to_string(k);
        link.type = "spherical";
        link.body1 = k == 0 ? "world" : "ball" + std::to_string(k - 1);
        link.body2 = b.name;
        link.anchor = {0, 0, -0.25 * k};
        if (k == 1) link.break_force = threshold;
        world.add_joint(link);
    }
    const JointId weak = world.joint("link1");
    int broke_at = -1;
    uint32_t failures = 0;
    double tension_before = 0.0, tension_at = 0.0;
    for (int n = 0; n < 120 && broke_at < 0; ++n) {
        const double t = world.time();
        world.set_external_force(balls[3], {0, 0, -10.0 * t}, {0, 0, 0});
        world.step();
        failures += world.statistics().solver_failures;
        const auto f = world.reaction(weak).force;
        const double tension = std::sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
        if (world.statistics().joints_broken > 0) {
            broke_at = n;
            tension_at = tension;
        } else {
            tension_before = tension;
        }
    }
    std::printf("link1 broke at step %d (t = %.4f s): tension %.3f N, the step before %.3f N, threshold %.3f N\n",
                broke_at, world.time(), tension_at, tension_before, threshold);
    ASSERT_GE(broke_at, 0);
    EXPECT_TRUE(world.joint_broken(weak));
    EXPECT_FALSE(world.joint_enabled(weak));
    EXPECT_GT(tension_at, threshold);
    EXPECT_LE(tension_before, threshold);
    EXPECT_NEAR(world.time(), 1.5 * m * kG / 10.0, 2 * kH);
    // Free fall of the three lower balls: their common centre accelerates
    // at g + F / (3 m) (the force on the last ball is spread by the intact
    // links); ball 0 stays hanging, without a jump.
    const auto centre_speed = [&] {
        double v = 0.0;
        for (int k = 1; k < 4; ++k) v += world.linear_velocity(balls[k])[2] / 3.0;
        return v;
    };
    for (int n = 0; n < 12; ++n) {
        const double before = centre_speed();
        const double force = 10.0 * world.time();
        world.set_external_force(balls[3], {0, 0, -force}, {0, 0, 0});
        world.step();
        failures += world.statistics().solver_failures;
        EXPECT_NEAR((centre_speed() - before) / kH, -(kG + force / (3 * m)), 1e-6) << "step " << n;
        EXPECT_EQ(world.statistics().joints_broken, 0u);
        EXPECT_LT(std::abs(world.linear_velocity(balls[0])[2]), 1e-6);
    }
    EXPECT_EQ(failures, 0u);
    const auto r = world.reaction(weak).force;
    EXPECT_EQ(r[0] * r[0] + r[1] * r[1] + r[2] * r[2], 0.0);  // a broken joint carries nothing
    // Enabled again it is not broken, and holds from its built anchors.
    world.set_joint_enabled(weak, true);
    EXPECT_FALSE(world.joint_broken(weak));
}

TEST(ChangingWorld, AddingKeepsEveryOtherJointsWarmStartAndReactions) {
    World world(registry(), settings_for(kH, {0, 0, -kG}));
    add_witness(world);
    for (int n = 0; n < 30; ++n) world.step();
    const std::vector<double> before = world.state().joint_impulses;
    const JointReaction reaction = world.reaction(0);
    ASSERT_NE(before[0], 0.0);
    // A body and a joint of a new type, then one of the witness's type.
    BodyDescription box;
    box.name = "box";
    box.position = {5, 0, 1};
    world.add_body(box);
    JointDescription hinge;
    hinge.name = "hinge";
    hinge.type = "revolute";
    hinge.body2 = "box";
    hinge.anchor = {5, 0, 1.5};
    world.add_joint(hinge);
    JointDescription ball = hinge;
    ball.name = "ball";
    ball.type = "spherical";
    world.add_joint(ball);
    const std::vector<double>& after = world.state().joint_impulses;
    // The witness's spherical joint is member 0 of the first joint group.
    for (size_t k = 0; k < 3; ++k) EXPECT_EQ(after[k], before[k]) << "row " << k;
    EXPECT_EQ(world.reaction(0).force, reaction.force);
    EXPECT_EQ(world.reaction(2).force, (std::array<double, 3>{0, 0, 0}));  // the new joint: no step yet
    world.step();
}

TEST(ChangingWorld, ASavedStateRemembersWhichJointsActAndWhereTheyHold) {
    Crane crane = make_crane(true);
    World& world = *crane.world;
    for (int n = 0; n < 138; ++n) world.step();
    world.set_joint_enabled(crane.grab, true, JointAnchor::current_pose);
    world.set_motor_velocity(crane.hoist, 0.5);
    for (int n = 0; n < 10; ++n) world.step();
    const std::vector<uint8_t> saved = world.save_state();
    for (int n = 0; n < 10; ++n) world.step();
    const auto crate_after = world.position(crane.crate);
    // Released and re-engaged as built (1.0 m: a jump the crate makes), then rewound.
    world.set_joint_enabled(crane.grab, false);
    world.step();
    world.set_joint_enabled(crane.grab, true);
    world.step();
    world.restore_state(saved.data(), saved.size());
    EXPECT_TRUE(world.joint_enabled(crane.grab));
    for (int n = 0; n < 10; ++n) world.step();
    EXPECT_EQ(world.position(crane.crate), crate_after);
}

// Bodies joined by a joint do not collide only while the joint acts: a
// hook (a 0.15 m ball) with a latch to a box, built disabled, lands on the
// box and rests on it (their contact carries its weight); latched, the
// pair is excluded (no contact between them, the latch holds); released,
// they touch again.
TEST(ChangingWorld, BodiesJoinedByADisabledJointCollide) {
    World world(registry(), settings_for(kH, {0, 0, -kG}));
    add_ground(world);
    const BodyId box = world.add_body(box_body("box", 100.0, {1, 1, 0.5}, {0, 0, 0.25}));
    const BodyId hook = world.add_body(sphere_body("hook", 2.0, 0.15, {0, 0, 0.8}));
    JointDescription latch;
    latch.name = "latch";
    latch.type = "spherical";
    latch.body1 = "hook";
    latch.body2 = "box";
    latch.anchor = {0, 0, 0.8};
    latch.enabled = false;
    const JointId j = world.add_joint(latch);
    const auto touching = [&] {
        double force = 0.0;
        for (const ContactReport& c : world.contacts()) {
            const bool pair = (c.body1 == static_cast<int32_t>(hook) && c.body2 == static_cast<int32_t>(box)) ||
                              (c.body1 == static_cast<int32_t>(box) && c.body2 == static_cast<int32_t>(hook));
            if (pair) force += c.normal_force;
        }
        return force;
    };
    for (int n = 0; n < 60; ++n) world.step();
    EXPECT_NEAR(world.position(hook)[2], 0.5 + 0.15, 1e-3);  // on the box, not in it
    EXPECT_NEAR(touching(), 2.0 * kG, 1e-6);
    world.set_joint_enabled(j, true, JointAnchor::current_pose);
    world.step();
    EXPECT_EQ(touching(), 0.0);  // no contact rows between latched bodies
    world.set_joint_enabled(j, false);
    for (int n = 0; n < 10; ++n) world.step();
    EXPECT_NEAR(touching(), 2.0 * kG, 1e-6);
}

// Removal: two stacks of three boxes at 60 Hz solved by PGS with 8 sweeps
// (so that a step depends on its warm start); the middle box of stack A is
// taken out: the top box falls onto the bottom one; stack B, whose contacts
// keep their ids and impulses, moves bitwise as in a world where nothing was
// removed (a lost warm start changes an 8-sweep answer in its last bits).
// Then a joint and a cable: what hung on them falls freely.
std::unique_ptr<World> make_stacks(bool with_cable) {
    WorldSettings settings = settings_for(kH, {0, 0, -kG}, "pivot.solver.pgs");
    settings.solver.options = {{"max_iterations", 8}, {"tolerance", 0.0}};
    auto owned = std::make_unique<World>(registry(), settings);
    World& world = *owned;
    add_ground(world);
    for (const char* stack : {"a", "b"}) {
        const double x = stack[0] == 'a' ? 0.0 : 3.0;
        for (int k = 0; k < 3; ++k) {
            world.add_body(box_body(std::string(stack) + std::to_string(k), 10.0, {0.5, 0.5, 0.5},
                                    {x, 0, 0.25 + 0.5 * k}));
        }
    }
    add_witness(world);  // a pendulum, with its ball joint
    if (with_cable) {
        BodyDescription weight;
        weight.name = "weight";
        weight.mass = 5.0;
        weight.inertia = diagonal_inertia({0.01, 0.01, 0.01});
        weight.position = {-5, 0, 1.0};
        world.add_body(weight);
        CableDescription rope;
        rope.name = "rope";
        rope.start = {-5, 0, 3};
        rope.end = {-5, 0, 1.0};
        rope.elements = 4;
        rope.radius = 0.005;
        rope.attach.push_back({0, "world", "spherical"});
        rope.attach.push_back({-1, "weight", "spherical"});
        world.add_cable(rope);
    }
    return owned;
}

TEST(ChangingWorld, RemovingABodyAJointOrACableLeavesEverythingElseAsItWas) {
    const std::unique_ptr<World> owned = make_stacks(true), reference_owned = make_stacks(true);
    World& world = *owned;
    World& reference = *reference_owned;
    for (int n = 0; n < 30; ++n) world.step(), reference.step();
    const BodyId a1 = world.body("a1"), a2 = world.body("a2"), b2 = world.body("b2");
    world.remove_body(a1);
    EXPECT_TRUE(world.body_removed(a1));
    EXPECT_EQ(world.body_count(), reference.body_count());  // the ids stay
    try {
        world.position(a1);
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("body 'a1': read: it was removed"), std::string::npos) << e.what();
    }
    // The top box falls 0.5 m onto the bottom one: it lands at z = 0.75 m.
    double worst = 0.0;
    for (int n = 0; n < 90; ++n) {
        world.step(), reference.step();
        worst = std::max(worst, std::abs(world.position(b2)[2] - reference.position(b2)[2]));
        EXPECT_EQ(world.statistics().solver_failures, 0u);
    }
    std::printf("removed a1: a2 at z = %.4f m (0.75 on a0); stack b against a world without the removal: %.1e m\n",
                world.position(a2)[2], worst);
    EXPECT_NEAR(world.position(a2)[2], 0.75, 2e-3);
    EXPECT_EQ(worst, 0.0);
    EXPECT_EQ(world.position(b2), reference.position(b2));
    EXPECT_EQ(world.position(world.body("witness")), reference.position(reference.body("witness")));
    // A joint: the witness falls freely from where it swung (v_n = v_0 - n h g).
    const JointId pivot_joint = world.joint("witness_pivot");
    world.remove_joint(pivot_joint);
    EXPECT_THROW(world.joint("witness_pivot"), Error);
    const BodyId witness = world.body("witness");
    const double vz = world.linear_velocity(witness)[2];
    for (int n = 0; n < 6; ++n) world.step();
    EXPECT_NEAR(world.linear_velocity(witness)[2], vz - 6 * kH * kG, 1e-9);
    // A cable with its attachment joints: the weight falls freely too.
    const BodyId weight = world.body("weight");
    const double weight_vz = world.linear_velocity(weight)[2];
    world.remove_cable(world.cable("rope"));
    EXPECT_TRUE(world.joint_removed(world.joint_count() - 1));  // rope/attach1
    for (int n = 0; n < 6; ++n) world.step();
    EXPECT_NEAR(world.linear_velocity(weight)[2], weight_vz - 6 * kH * kG, 1e-9);
    // Names may be used again.
    BodyDescription again;
    again.name = "a1";
    again.position = {10, 0, 5};
    world.add_body(again);
    world.step();
}

// A disabled body: a ball dropped onto a disabled box passes through it; a
// pendulum whose bob is disabled stays where it is, its hinge holding
// nothing; enabled again, both go on with the velocities they had.
TEST(ChangingWorld, ADisabledBodyIsHeldCollidesWithNothingAndResumes) {
    World world(registry(), settings_for(kH, {0, 0, -kG}));
    add_ground(world);
    const BodyId box = world.add_body(box_body("box", 10.0, {1, 1, 0.5}, {0, 0, 0.25}));
    const BodyId ball = world.add_body(sphere_body("ball", 1.0, 0.1, {0, 0, 1.5}));
    const BodyId witness = add_witness(world);
    for (int n = 0; n < 10; ++n) world.step();
    const auto swinging = world.linear_velocity(witness);
    world.set_body_enabled(box, false);
    world.set_body_enabled(witness, false);
    EXPECT_FALSE(world.body_enabled(box));
    EXPECT_THROW(world.set_velocity(box, {0, 0, 0}, {0, 0, 0}), Error);
    const auto box_at = world.position(box), witness_at = world.position(witness);
    // The ball falls through where the box is, to the ground (z = 0.1),
    // with no contact on the box: 1 s of steps.
    double lowest = 10.0;
    for (int n = 0; n < 60; ++n) {
        world.step();
        lowest = std::min(lowest, world.position(ball)[2]);
        for (const ContactReport& c : world.contacts()) {
            EXPECT_FALSE(c.body1 == static_cast<int32_t>(box) || c.body2 == static_cast<int32_t>(box));
        }
    }
    EXPECT_NEAR(lowest, 0.1, 2e-3);
    EXPECT_EQ(world.position(box), box_at);
    EXPECT_EQ(world.position(witness), witness_at);
    EXPECT_EQ(world.reaction(world.joint("witness_pivot")).force, (std::array<double, 3>{0, 0, 0}));
    // Enabled: the pendulum goes on from the velocity it had (the first step
    // adds gravity and its joint's impulse to it), the box rests again (on
    // the ball: they overlap now; the contact pushes them apart).
    world.set_body_enabled(witness, true);
    world.set_body_enabled(box, true);
    EXPECT_EQ(world.linear_velocity(witness), swinging);
    world.step();
    EXPECT_NE(world.reaction(world.joint("witness_pivot")).force, (std::array<double, 3>{0, 0, 0}));
    EXPECT_EQ(world.statistics().solver_failures, 0u);
}

}  // namespace
}  // namespace pivot
