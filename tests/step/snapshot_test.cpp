// Saving and restoring a world's state (World::save_state/restore_state): a
// restored world continues bitwise as the saved one did, with joints, motors,
// contacts with friction (warm starts and contact memory) and applied forces;
// a buffer from another world, or a damaged one, is refused by name and the
// world is left as it was.
#include <cstring>

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "first_party_plugins.hpp"

namespace pivot {
namespace {

PluginRegistry& registry() { return test::first_party_plugins(); }

// The motor-driven hinge of the pendulum "arm".
void add_motor_hinge(World& world) {
    JointDescription hinge;
    hinge.name = "hinge";
    hinge.type = "revolute";
    hinge.body2 = "arm";
    hinge.anchor = {3, 0, 2};
    hinge.axis = {0, 1, 0};
    hinge.motor = JointMotor{1.0, 5.0};
    world.add_joint(hinge);
}

// Boxes tumbling onto the ground next to a motor-driven pendulum.
void build_scene(World& world) {
    ShapeDescription ground;
    ground.type = "plane";
    world.add_static_shape(ground);
    for (int k = 0; k < 3; ++k) {
        BodyDescription box;
        box.name = "box" + std::to_string(k);
        box.mass = 2.0;
        box.inertia = {0.05, 0, 0, 0, 0.06, 0, 0, 0, 0.07};
        box.position = {0.1 * k, 0.05 * k, 0.3 + 0.45 * k};
        box.orientation = {std::cos(0.2 * k), std::sin(0.2 * k), 0.0, 0.0};
        box.linear_velocity = {0.3, 0.0, 0.0};
        ShapeDescription shape;
        shape.type = "box";
        shape.size = {0.4, 0.3, 0.2};
        box.shapes.push_back(shape);
        world.add_body(box);
    }
    BodyDescription arm;
    arm.name = "arm";
    arm.mass = 1.0;
    arm.inertia = {0.01, 0, 0, 0, 0.1, 0, 0, 0, 0.1};
    arm.position = {3.5, 0, 2};
    world.add_body(arm);
    add_motor_hinge(world);
}

std::vector<double> coordinates(const World& world) { return world.state().q; }

TEST(Snapshot, RestoredWorldContinuesBitwise) {
    World world(registry(), WorldSettings{});
    build_scene(world);
    for (int k = 0; k < 300; ++k) world.step();
    world.set_external_force(world.body("box1"), {1.0, 0.0, 0.0}, {0.0, 0.0, 0.2});
    world.set_motor_velocity(world.joint("hinge"), -0.5);
    ASSERT_FALSE(world.state().contact_ids.empty()) << "the scene should be in contact when saved";
    // Each contact keeps its own model's slots (ABI 1.9), not 16 + 64.
    const pivot_friction_functions& box = registry().require(PIVOT_KIND_FRICTION, "pivot.friction.box").friction;
    const size_t contacts = world.state().contact_ids.size();
    EXPECT_EQ(world.state().contact_impulses.size(), contacts * box.max_rows_per_contact);
    EXPECT_EQ(world.state().contact_state.size(), contacts * box.state_per_contact);
    const std::vector<uint8_t> saved = world.save_state();
    for (int k = 0; k < 200; ++k) world.step();
    const std::vector<double> reference = coordinates(world);
    const double reference_time = world.time();

    // Something else happens in between (a different command), then rewind.
    world.set_motor_velocity(world.joint("hinge"), 3.0);
    world.set_external_force(world.body("box1"), {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0});
    for (int k = 0; k < 50; ++k) world.step();
    world.restore_state(saved.data(), saved.size());
    for (int k = 0; k < 200; ++k) world.step();
    EXPECT_EQ(world.time(), reference_time);
    const std::vector<double> replayed = coordinates(world);
    ASSERT_EQ(replayed.size(), reference.size());
    EXPECT_EQ(std::memcmp(replayed.data(), reference.data(), reference.size() * sizeof(double)), 0)
        << "the replay differs from the original run";

    // Into a fresh copy of the world: the same.
    World copy(registry(), WorldSettings{});
    build_scene(copy);
    copy.restore_state(saved.data(), saved.size());
    for (int k = 0; k < 200; ++k) copy.step();
    EXPECT_EQ(std::memcmp(coordinates(copy).data(), reference.data(), reference.size() * sizeof(double)), 0);
}

// Bodies with their own friction values (World::set_body_friction) make
// their pairs' instances when first met, in the order met. The values are
// commands like motor targets: a saved state keeps them and the pairs, and
// a restore sets them and makes the pairs again, so that the contacts'
// models and warm starts mean the same, in the same world after other
// values were set, or in a fresh copy built without any.
TEST(Snapshot, BodiesOwnFrictionValuesAndTheirPairsAreRestored) {
    World world(registry(), WorldSettings{});
    build_scene(world);
    world.set_body_friction(world.body("box0"), {{"mu", 0.3}});
    world.set_body_friction(world.body("box1"), {{"mu", 0.7}});
    for (int k = 0; k < 500; ++k) world.step();
    world.set_body_friction(world.body("box0"), {{"mu", 0.9}});  // another instance, made at the next step
    for (int k = 0; k < 100; ++k) world.step();
    ASSERT_GE(world.model().profiled_pairs.size(), 3u) << "the boxes should have touched the ground and each other";
    const std::vector<uint8_t> saved = world.save_state();
    for (int k = 0; k < 200; ++k) world.step();
    const std::vector<double> reference = coordinates(world);

    world.set_body_friction(world.body("box1"), {{"mu", 0.1}});
    world.set_body_friction(world.body("box2"), {{"mu", 0.2}});
    for (int k = 0; k < 20; ++k) world.step();
    world.restore_state(saved.data(), saved.size());
    EXPECT_EQ(world.body_friction(world.body("box1")), (nlohmann::json{{"mu", 0.7}}));
    EXPECT_EQ(world.body_friction(world.body("box2")), nlohmann::json::object());
    for (int k = 0; k < 200; ++k) world.step();
    EXPECT_EQ(std::memcmp(coordinates(world).data(), reference.data(), reference.size() * sizeof(double)), 0);

    World copy(registry(), WorldSettings{});
    build_scene(copy);
    copy.restore_state(saved.data(), saved.size());
    EXPECT_EQ(copy.body_friction(copy.body("box0")), (nlohmann::json{{"mu", 0.9}}));
    for (int k = 0; k < 200; ++k) copy.step();
    EXPECT_EQ(std::memcmp(coordinates(copy).data(), reference.data(), reference.size() * sizeof(double)), 0);
}

// A buffer with friction instances does not fit a world where nothing
// touches (no materials' pairs): refused by name, nothing made.
TEST(Snapshot, FrictionInstancesDoNotFitAWorldWithoutShapes) {
    World world(registry(), WorldSettings{});
    build_scene(world);
    for (int k = 0; k < 10; ++k) world.step();
    const std::vector<uint8_t> saved = world.save_state();
    World bare(registry(), WorldSettings{});
    for (const char* name : {"box0", "box1", "box2", "arm"}) {
        BodyDescription b;
        b.name = name;
        bare.add_body(b);
    }
    add_motor_hinge(bare);
    const std::vector<uint8_t> before = bare.save_state();
    try {
        bare.restore_state(saved.data(), saved.size());
        ADD_FAILURE() << "accepted friction instances in a world without shapes";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("friction instances, this world has 0"), std::string::npos) << e.what();
    }
    EXPECT_EQ(bare.save_state(), before);
    EXPECT_TRUE(bare.model().friction_instances.empty());
}

TEST(Snapshot, ForeignOrDamagedBuffersAreRefusedAndChangeNothing) {
    World world(registry(), WorldSettings{});
    build_scene(world);
    for (int k = 0; k < 10; ++k) world.step();
    const std::vector<double> before = coordinates(world);
    const double time = world.time();

    World other(registry(), WorldSettings{});
    BodyDescription lone;
    lone.name = "lone";
    other.add_body(lone);
    const std::vector<uint8_t> foreign = other.save_state();
    auto message = [&](const std::vector<uint8_t>& buffer) {
        try {
            world.restore_state(buffer.data(), buffer.size());
        } catch (const Error& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(message(foreign).find("this world has"), std::string::npos) << message(foreign);
    std::vector<uint8_t> truncated = world.save_state();
    truncated.resize(truncated.size() - 3);
    EXPECT_NE(message(truncated).find("truncated"), std::string::npos) << message(truncated);
    std::vector<uint8_t> garbage(64, 0x5a);
    EXPECT_NE(message(garbage).find("not a Pivot world state"), std::string::npos);
    EXPECT_EQ(world.time(), time);
    EXPECT_EQ(coordinates(world), before);
}

// A refused buffer changes nothing, also when reading it had to build the
// world's friction instances (a world saved before its first step has
// none): a buffer of the same world after 10 steps, with one friction
// instance too many, is refused after the instances were built; the world
// is rolled back to exactly what it saves (found by fuzz_save_state).
TEST(Snapshot, ARefusedBufferLeavesAnUnsteppedWorldAsItWas) {
    World stepped(registry(), WorldSettings{});
    build_scene(stepped);
    for (int k = 0; k < 10; ++k) stepped.step();
    std::vector<uint8_t> forged = stepped.save_state();
    const size_t instances = stepped.model().friction_instances.size();
    ASSERT_GT(instances, 0u);
    // The instances' section: the count, each instance's state as length +
    // bytes (empty for the first-party models), then the pairs made for
    // bodies' own friction values (none here: their count, 0).
    const size_t at = forged.size() - 8 - 8 * (instances + 1);
    const uint64_t one_more = instances + 1;
    std::memcpy(forged.data() + at, &one_more, sizeof one_more);
    forged.insert(forged.end() - 8, 8, 0);  // the extra instance's empty state

    World fresh(registry(), WorldSettings{});
    build_scene(fresh);
    const std::vector<uint8_t> before = fresh.save_state();
    EXPECT_TRUE(fresh.model().friction_instances.empty());
    try {
        fresh.restore_state(forged.data(), forged.size());
        ADD_FAILURE() << "accepted a buffer with one friction instance too many";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("friction instances, this world has"), std::string::npos) << e.what();
    }
    EXPECT_EQ(fresh.save_state(), before);
    EXPECT_TRUE(fresh.model().friction_instances.empty());
    fresh.step();  // and it steps as a fresh world
    EXPECT_EQ(fresh.time(), WorldSettings{}.timestep);
}

// A count in the buffer is checked against the bytes left before anything
// is sized by it: a forged count of friction instances (the buffer's last
// section but one: the count, then each instance's state as length + bytes;
// then the bodies' friction pairs, none here) is "truncated", not gigabytes
// allocated.
TEST(Snapshot, ForgedCountsAreRefusedBeforeAllocating) {
    World world(registry(), WorldSettings{});
    build_scene(world);
    for (int k = 0; k < 10; ++k) world.step();
    std::vector<uint8_t> forged = world.save_state();
    const size_t instances = world.model().friction_instances.size();
    ASSERT_GT(instances, 0u);
    // The first-party friction models keep no instance state: the section
    // is the count and one zero length per instance, then an empty array.
    const size_t at = forged.size() - 8 - 8 * (instances + 1);
    uint64_t count = 0;
    std::memcpy(&count, forged.data() + at, sizeof count);
    ASSERT_EQ(count, instances) << "the buffer's layout changed; update this test";
    for (const uint64_t forged_count : {uint64_t{1} << 40, uint64_t{1} << 62, ~uint64_t{0}}) {
        std::memcpy(forged.data() + at, &forged_count, sizeof forged_count);
        try {
            world.restore_state(forged.data(), forged.size());
            ADD_FAILURE() << "accepted a count of " << forged_count;
        } catch (const Error& e) {
            EXPECT_STREQ(e.what(), "state buffer: friction instances: truncated");
        }
    }
}

}  // namespace
}  // namespace pivot
