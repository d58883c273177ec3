// A body's own friction parameters (BodyDescription::friction, issue 16:
// "a material's value overridable by the contact's bodies"), against the
// analytic motion of a block under Coulomb friction at h = 1/60 s. With the
// box model the time-stepping LCP is exact for a block sliding on a plane:
// each step changes the speed down the slope by g (sin theta - mu cos theta) h
// exactly, and a sticking block does not move, so the tolerances are the
// solvers' (acceptance 1e-9 N s on impulses of ~1 N s: 1e-6 relative on
// accelerations measured over many steps is far above it and far below the
// differences the tests look for: mu 0.3 against 0.8 changes the slide by
// 100 %).
#include <cmath>
#include <string>

#include "contact_scenes.hpp"

namespace pivot {
namespace {

using namespace physics_test;

constexpr double kG = 9.81;
constexpr double kH = 1.0 / 60.0;
const double kTheta = 28.0 * M_PI / 180.0;  // tan = 0.532

ContactModel box_model(const std::string& solver, double mu) { return {"pivot.friction.box", {{"mu", mu}}, solver}; }

// A plane tilted by theta about y (downhill along +x), and its directions.
struct Slope {
    Vec3d n{std::sin(kTheta), 0.0, std::cos(kTheta)};
    Vec3d down{std::cos(kTheta), 0.0, -std::sin(kTheta)};
    double along(const std::array<double, 3>& v) const { return v[0] * down[0] + v[1] * down[1] + v[2] * down[2]; }
};

// A 0.2 m cube of 2 kg resting on the slope at lateral offset y.
BodyDescription block_on(const Slope& slope, const std::string& name, double y) {
    BodyDescription b = box_body(name, 2.0, {0.2, 0.2, 0.2}, {0.1 * slope.n[0], y, 0.1 * slope.n[2]});
    b.orientation = {std::cos(0.5 * kTheta), 0.0, std::sin(0.5 * kTheta), 0.0};
    return b;
}

// The largest |f_t| / (mu f_n) over the contacts of `body` in the last step.
double worst_friction_ratio(const World& world, BodyId body, double mu) {
    double worst = 0.0;
    for (const ContactReport& c : world.contacts()) {
        if (c.body1 != static_cast<int32_t>(body) && c.body2 != static_cast<int32_t>(body)) continue;
        if (c.normal_force <= 0.0) continue;
        worst = std::max(worst, std::hypot(c.friction[0], c.friction[1], c.friction[2]) / (mu * c.normal_force));
    }
    return worst;
}

// A 2 kg, 0.2 m cube resting on flat ground and sliding along x at `speed`.
BodyDescription sliding_block(const std::string& name, double speed, const nlohmann::json& friction) {
    BodyDescription b = box_body(name, 2.0, {0.2, 0.2, 0.2}, {0.0, 0.0, 0.1});
    b.linear_velocity = {speed, 0.0, 0.0};
    b.friction = friction;
    return b;
}

// The speed along x a body loses in one step (mu g h when it slides with mu).
double speed_lost_in_a_step(World& world, BodyId body) {
    const double before = world.linear_velocity(body)[0];
    world.step();
    return before - world.linear_velocity(body)[0];
}

// Two blocks on one slope whose material sticks (mu 0.8 > tan 28 deg): the
// one with its own mu 0.3 slides at g (sin - 0.3 cos), the other stays, and
// every contact of the sliding one is at |f_t| = 0.3 f_n (not 0.8).
TEST(BodyFriction, ABodysOwnValueReplacesItsMaterialsOnASlope) {
    const Slope slope;
    for (const char* solver : {"pivot.solver.dantzig", "pivot.solver.pgs", "pivot.solver.lemke"}) {
        PIVOT_REQUIRE_SOLVER(solver);
        const ContactModel model = box_model(solver, 0.8);
        World world(registry(), contact_settings(model, kH));
        use_model(world, model);
        add_ground(world, slope.n);
        BodyDescription worn = block_on(slope, "worn", -0.5);
        worn.friction = {{"mu", 0.3}};
        const BodyId sliding = world.add_body(worn);
        const BodyId resting = world.add_body(block_on(slope, "plain", 0.5));
        const auto rest_start = world.position(resting);
        for (int k = 0; k < 30; ++k) world.step();  // settled: sliding steadily
        const double v0 = slope.along(world.linear_velocity(sliding));
        double worst = 0.0;
        for (int k = 0; k < 30; ++k) {
            world.step();
            worst = std::max(worst, worst_friction_ratio(world, sliding, 0.3));
        }
        const double a = (slope.along(world.linear_velocity(sliding)) - v0) / (30 * kH);
        const double expected = kG * (std::sin(kTheta) - 0.3 * std::cos(kTheta));
        EXPECT_NEAR(a, expected, 1e-6 * expected) << solver;
        EXPECT_NEAR(worst, 1.0, 1e-6) << solver << ": the sliding block's contacts at mu f_n with its own mu";
        const auto rest_end = world.position(resting);
        EXPECT_LT(std::hypot(rest_end[0] - rest_start[0], rest_end[2] - rest_start[2]), 1e-6) << solver;
        EXPECT_EQ(world.body_friction(sliding), (nlohmann::json{{"mu", 0.3}}));
        EXPECT_EQ(world.body_friction(resting), nlohmann::json::object());
    }
}

// Both bodies with their own mu: the ramp (a fixed body, mu 0.8) and the
// block (mu 0.2) combine like two materials, sqrt(0.8 * 0.2) = 0.4 < tan 28:
// the block slides at g (sin - 0.4 cos); either value alone would be 0.2
// (faster) or 0.8 (no slide).
TEST(BodyFriction, TwoBodiesOwnCoefficientsCombineLikeMaterials) {
    const Slope slope;
    const ContactModel model = box_model("pivot.solver.dantzig", 0.5);
    World world(registry(), contact_settings(model, kH));
    use_model(world, model);
    BodyDescription ramp = box_body("ramp", 100.0, {4.0, 2.0, 0.2}, {-0.1 * slope.n[0], 0.0, -0.1 * slope.n[2]});
    ramp.orientation = {std::cos(0.5 * kTheta), 0.0, std::sin(0.5 * kTheta), 0.0};
    ramp.fixed = true;
    ramp.friction = {{"mu", 0.8}};
    world.add_body(ramp);
    BodyDescription block = block_on(slope, "block", 0.0);
    block.friction = {{"mu", 0.2}};
    const BodyId id = world.add_body(block);
    for (int k = 0; k < 30; ++k) world.step();
    const double v0 = slope.along(world.linear_velocity(id));
    for (int k = 0; k < 30; ++k) world.step();
    const double a = (slope.along(world.linear_velocity(id)) - v0) / (30 * kH);
    const double expected = kG * (std::sin(kTheta) - 0.4 * std::cos(kTheta));
    EXPECT_NEAR(a, expected, 1e-6 * expected);
    EXPECT_NEAR(worst_friction_ratio(world, id, 0.4), 1.0, 1e-6);
}

// Changed between steps (a tyre getting wet): a block sliding on flat
// ground at 3 m/s loses mu g h of speed per step with its own mu, the new
// one from the step after the change.
TEST(BodyFriction, ChangedBetweenStepsActsFromTheNextStep) {
    const ContactModel model = box_model("pivot.solver.dantzig", 0.5);
    World world(registry(), contact_settings(model, kH));
    use_model(world, model);
    add_ground(world);
    const BodyId id = world.add_body(sliding_block("block", 3.0, {{"mu", 0.1}}));
    for (int k = 0; k < 5; ++k) world.step();
    for (const double mu : {0.1, 0.4, 0.25}) {
        world.set_body_friction(id, {{"mu", mu}});
        for (int k = 0; k < 5; ++k) {
            EXPECT_NEAR(speed_lost_in_a_step(world, id), mu * kG * kH, 1e-9) << "mu " << mu << " step " << k;
        }
    }
    world.set_body_friction(id, nlohmann::json::object());  // back to the material's 0.5
    EXPECT_NEAR(speed_lost_in_a_step(world, id), 0.5 * kG * kH, 1e-9);
}

// A friction instance is a parameter set: equal values share one, and a
// value the contact's model does not have (mu_static on the box model)
// makes none.
TEST(BodyFriction, EqualParameterSetsShareOneInstance) {
    const ContactModel model = box_model("pivot.solver.dantzig", 0.5);
    World world(registry(), contact_settings(model, kH));
    use_model(world, model);
    add_ground(world);
    for (int k = 0; k < 3; ++k) {
        BodyDescription b = box_body("same" + std::to_string(k), 1.0, {0.2, 0.2, 0.2}, {0.5 * k, 0.0, 0.1});
        b.friction = {{"mu", 0.3}};
        world.add_body(b);
    }
    BodyDescription other = box_body("other", 1.0, {0.2, 0.2, 0.2}, {-1.0, 0.0, 0.1});
    other.friction = {{"mu_static", 0.7}};  // a Stribeck parameter: the box model has none
    const BodyId unaffected = world.add_body(other);
    world.step();
    // The ground material's pair (1 instance) and one for mu 0.3.
    EXPECT_EQ(world.model().friction_instances.size(), 2u);
    EXPECT_EQ(world.model().friction_profiles.size(), 3u);  // none, {mu 0.3}, {mu_static 0.7}
    EXPECT_EQ(world.body_friction(unaffected), (nlohmann::json{{"mu_static", 0.7}}));
}

// Values changed at every step (a wetness ramp) keep the world's profiles,
// pairs and instances bounded: the unused ones are forgotten once they
// outnumber those in use (and 16), while the block keeps sliding right.
TEST(BodyFriction, ChangingEveryStepKeepsTheInstancesBounded) {
    const ContactModel model = box_model("pivot.solver.dantzig", 0.5);
    World world(registry(), contact_settings(model, kH));
    use_model(world, model);
    add_ground(world);
    const BodyId id = world.add_body(sliding_block("block", 30.0, nlohmann::json::object()));
    for (int k = 0; k < 5; ++k) world.step();  // settled on the ground
    size_t most_instances = 0;
    for (int k = 0; k < 200; ++k) {
        const double mu = 0.05 + 0.001 * k;
        world.set_body_friction(id, {{"mu", mu}});
        ASSERT_NEAR(speed_lost_in_a_step(world, id), mu * kG * kH, 1e-9) << "step " << k;
        most_instances = std::max(most_instances, world.model().friction_instances.size());
    }
    // In use: none and the block's; kept unused: at most 16 more.
    EXPECT_LE(world.model().friction_profiles.size(), 2u + 16u);
    EXPECT_LE(most_instances, 1u + 17u + 1u);
}

// A world where nothing touches has no materials' pairs: values changed
// there are forgotten the same way, and the pairs come when shapes do.
TEST(BodyFriction, ValuesChangeInAWorldWithoutShapes) {
    const ContactModel model = box_model("pivot.solver.dantzig", 0.5);
    World world(registry(), contact_settings(model, kH));
    BodyDescription b;
    b.name = "free";
    const BodyId id = world.add_body(b);
    for (int k = 0; k < 40; ++k) {
        world.set_body_friction(id, {{"mu", 0.01 * (k + 1)}});
        world.step();
    }
    EXPECT_LE(world.model().friction_profiles.size(), 2u + 16u);
    EXPECT_TRUE(world.model().friction_instances.empty());
    add_ground(world);
    const BodyId sliding = world.add_body(sliding_block("block", 3.0, {{"mu", 0.2}}));
    for (int k = 0; k < 5; ++k) world.step();
    EXPECT_NEAR(speed_lost_in_a_step(world, sliding), 0.2 * kG * kH, 1e-9);
}

TEST(BodyFriction, BadValuesAreRefusedNamingTheBodyAndParameter) {
    const ContactModel model = box_model("pivot.solver.dantzig", 0.5);
    World world(registry(), contact_settings(model, kH));
    use_model(world, model);
    BodyDescription b = box_body("tyre", 1.0, {0.2, 0.2, 0.2}, {0.0, 0.0, 0.1});
    const auto refused = [&](const nlohmann::json& values, const std::string& part) {
        b.friction = values;
        try {
            world.add_body(b);
            ADD_FAILURE() << "accepted " << values.dump();
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("body 'tyre'"), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
        }
    };
    refused({{"grip", 0.3}}, "friction.grip: no loaded friction model has a parameter of this name");
    refused({{"mu", -0.3}}, "mu");
    refused({{"mu", "wet"}}, "mu");
    refused(nlohmann::json::array({0.3}), "friction: must be an object");
    EXPECT_EQ(world.model().bodies.size(), 0u);  // nothing added
    b.friction = nlohmann::json::object();
    const BodyId id = world.add_body(b);
    EXPECT_THROW(world.set_body_friction(id, {{"mu", std::nan("")}}), Error);
    EXPECT_EQ(world.body_friction(id), nlohmann::json::object());  // unchanged
}

}  // namespace
}  // namespace pivot
