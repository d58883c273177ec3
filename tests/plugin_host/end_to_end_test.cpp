// Test-only plugins of each of the four kinds, written in C against the
// public headers only, are loaded and called end to end through the ABI and
// the host's checked calls; the misbehaving ones are caught at the call.
#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/logging.hpp"
#include "plugin_host/checked_calls.hpp"
#include "plugin_host/parameters.hpp"
#include "plugin_host/plugin_registry.hpp"
#include "world/world.hpp"
#include "test_plugins.hpp"

namespace pivot {
namespace {

class EndToEnd : public ::testing::Test {
protected:
    void SetUp() override {
        LoadReport report = registry.load(test::good_plugin_dir());
        ASSERT_TRUE(report.ok()) << report.problems.front();
        report = registry.load(test::broken_plugin_dir());  // refusals expected; the loadable ones are used
    }
    PluginInstance make(pivot_plugin_kind kind, const char* id, const nlohmann::json& params = {}) {
        const PluginRecord& p = registry.require(kind, id);
        return PluginInstance(p, pack_params(p, ParamScope::instance, params, id));
    }
    static pivot_step_info step(double h) {
        pivot_step_info s{};
        s.struct_size = sizeof(s);
        s.timestep = h;
        s.gravity[2] = -9.81;
        return s;
    }
    // A world at 60 Hz whose default material uses friction `model`, with
    // the ground plane z = 0 and one body of `mass` kg carrying `shape`
    // (inertia of a 0.2 m solid), placed at `height`.
    std::unique_ptr<World> world_on_ground(const char* model, const nlohmann::json& params, double mass,
                                           const ShapeDescription& shape, double height) {
        WorldSettings settings;
        settings.timestep = 1.0 / 60.0;
        settings.gravity = {0, 0, -9.81};
        settings.solver = {"pivot.solver.dantzig", nlohmann::json::object()};
        auto world = std::make_unique<World>(registry, settings);
        MaterialDescription material;
        material.name = "default";
        material.friction_model = model;
        material.friction = params;
        world->add_material(material);
        ShapeDescription ground;
        ground.type = "plane";
        ground.normal = {0, 0, 1};
        world->add_static_shape(ground);
        BodyDescription body;
        body.name = "body";
        body.mass = mass;
        const double i = 0.004 * mass;
        body.inertia = {i, 0, 0, 0, i, 0, 0, 0, i};
        body.position = {0, 0, height};
        body.shapes.push_back(shape);
        world->add_body(body);
        return world;
    }
    // A 1 kg, 0.2 m box resting on the ground with test.friction.box (mu
    // 0.5), whose contacts_ended lines (info level) box_log() collects from
    // capture_box_log() until stop_box_log().
    static ShapeDescription cube() {
        ShapeDescription shape;
        shape.type = "box";
        shape.size = {0.2, 0.2, 0.2};
        return shape;
    }
    std::unique_ptr<World> box_with_logged_friction() {
        return world_on_ground("test.friction.box", {{"mu", 0.5}}, 1.0, cube(), 0.1);
    }
    static std::vector<std::string>& box_log() {
        static std::vector<std::string> lines;
        return lines;
    }
    static void capture_box_log() {
        box_log().clear();
        set_log_callback(
            [](void*, spdlog::level::level_enum, const char* source, const char* message) {
                if (std::string(source) == "test.friction.box") box_log().emplace_back(message);
            },
            nullptr);
        set_log_level(spdlog::level::info);
    }
    static void stop_box_log() {
        set_log_callback(nullptr, nullptr);
        set_log_level(spdlog::level::warn);
    }
    // How many contacts a contacts_ended line lists with `builds` ("=10").
    static size_t count_in(const std::string& line, const char* builds) {
        size_t n = 0;
        for (size_t at = line.find(builds); at != std::string::npos; at = line.find(builds, at + 1)) ++n;
        return n;
    }
    PluginRegistry registry;
};

TEST_F(EndToEnd, ElementPointMass) {
    PluginInstance element = make(PIVOT_KIND_ELEMENT, "test.element.point_mass");
    const PluginRecord& p = element.plugin();
    // Two point masses; per-item parameter "mass" packed from JSON.
    std::vector<double> item_params;
    for (double m : {2.0, 0.5}) {
        auto packed = pack_params(p, ParamScope::item, {{"mass", m}}, "bodies");
        item_params.insert(item_params.end(), packed.begin(), packed.end());
    }
    const std::array<double, 6> q = {0, 0, 1, 1, 2, 3};
    const std::array<double, 6> v = {1, 0, 0, 0, -2, 0};
    pivot_element_batch batch{2, 1, item_params.data(), q.data(), v.data(), q.data()};
    const pivot_step_info s = step(0.01);

    std::array<double, 18> mass{};
    ASSERT_TRUE(checked_mass_matrix(element, batch, unguarded(mass.data())).ok());
    EXPECT_DOUBLE_EQ(mass[0], 2.0);
    EXPECT_DOUBLE_EQ(mass[4], 2.0);
    EXPECT_DOUBLE_EQ(mass[1], 0.0);
    EXPECT_DOUBLE_EQ(mass[9 + 8], 0.5);

    std::array<double, 6> forces{};
    ASSERT_TRUE(checked_generalized_forces(element, batch, s, unguarded(forces.data())).ok());
    EXPECT_DOUBLE_EQ(forces[2], 2.0 * -9.81);
    EXPECT_DOUBLE_EQ(forces[5], 0.5 * -9.81);

    std::array<double, 6> q_out{};
    ASSERT_TRUE(checked_integrate(element, 2, q.data(), v.data(), 0.01, unguarded(q_out.data())).ok());
    EXPECT_DOUBLE_EQ(q_out[0], 0.01);
    EXPECT_DOUBLE_EQ(q_out[4], 2.0 - 0.02);

    // A material point offset from the mass moves with it: twist = J v.
    pivot_material_point point{1, 0, {0.1, 0.0, 0.0}};
    std::array<double, 7> pose{};
    std::array<double, 6> twist{};
    std::array<double, 18> jac{};
    ASSERT_TRUE(checked_material_frames(element, batch, &point, 1, unguarded(pose.data()), unguarded(twist.data()),
                                        unguarded(jac.data()))
                    .ok());
    EXPECT_DOUBLE_EQ(pose[0], 1.1);
    EXPECT_DOUBLE_EQ(pose[3], 1.0);
    for (int r = 0; r < 6; ++r) {
        double jv = 0;
        for (int c = 0; c < 3; ++c) jv += jac[r + 6 * c] * v[3 + c];
        EXPECT_DOUBLE_EQ(jv, twist[r]) << r;
    }

    double energies[3];
    ASSERT_TRUE(checked_energy(element, batch, s, unguarded(energies)).ok());
    EXPECT_DOUBLE_EQ(energies[0], 0.5 * 2.0 * 1.0 + 0.5 * 0.5 * 4.0);
    EXPECT_DOUBLE_EQ(energies[1], 2.0 * 9.81 * 1.0 + 0.5 * 9.81 * 3.0);

    // Instances clone through the table.
    PluginInstance copy = element.clone();
    EXPECT_TRUE(copy.valid());
    EXPECT_NE(copy.handle(), element.handle());
}

TEST_F(EndToEnd, JointBallRowsAndTheirJacobianByFiniteDifferences) {
    PluginInstance joint = make(PIVOT_KIND_JOINT, "test.joint.ball");
    const double compliance = 1e-6;
    auto item = pack_params(joint.plugin(), ParamScope::item, {{"compliance", compliance}}, "joints.j");
    std::array<double, 7> f1 = {0, 0, 1, 1, 0, 0, 0};
    std::array<double, 7> f2 = {0.01, -0.02, 1.03, 1, 0, 0, 0};
    const std::array<double, 6> t1{}, t2{};
    pivot_joint_batch batch{1, 1, item.data(), f1.data(), f2.data(), t1.data(), t2.data()};
    std::array<pivot_row, 3> rows{};
    std::array<double, 36> jac{};
    std::array<uint32_t, 1> counts{};
    const pivot_step_info s = step(0.01);
    ASSERT_TRUE(
        checked_joint_rows(joint, batch, s, unguarded(rows.data()), unguarded(jac.data()), unguarded(counts.data()))
            .ok());
    ASSERT_EQ(counts[0], 3u);
    EXPECT_NEAR(rows[0].violation, 0.01, 1e-15);
    EXPECT_NEAR(rows[1].violation, -0.02, 1e-15);
    EXPECT_NEAR(rows[2].violation, 0.03, 1e-15);
    for (const auto& r : rows) {
        EXPECT_EQ(r.compliance, compliance);
        EXPECT_TRUE(r.flags & PIVOT_ROW_POSITION_ERROR);
    }
    // d(violation)/d(position of frame 2) by central differences equals the
    // linear part of the Jacobian for frame 2 (and minus it for frame 1).
    const double eps = 1e-6;
    for (int axis = 0; axis < 3; ++axis) {
        std::array<pivot_row, 3> plus{}, minus{};
        for (int sign : {+1, -1}) {
            auto g = f2;
            g[axis] += sign * eps;
            pivot_joint_batch b = batch;
            b.frame2_poses = g.data();
            std::array<double, 36> unused{};
            ASSERT_TRUE(checked_joint_rows(joint, b, s, unguarded((sign > 0 ? plus : minus).data()),
                                           unguarded(unused.data()), unguarded(counts.data()))
                            .ok());
        }
        for (int r = 0; r < 3; ++r) {
            const double fd = (plus[r].violation - minus[r].violation) / (2 * eps);
            // Central differences of a linear function: exact to rounding of
            // values of order 1 divided by 2e-6, about 1e-10.
            EXPECT_NEAR(jac[12 * r + 6 + axis], fd, 1e-9) << "row " << r << " axis " << axis;
            EXPECT_NEAR(jac[12 * r + axis], -fd, 1e-9) << "row " << r << " axis " << axis;
        }
    }
}

pivot_contact_point contact(uint64_t id) {
    pivot_contact_point c{};
    c.id = id;
    c.normal[2] = 1;
    c.tangent1[0] = 1;
    c.tangent2[1] = 1;
    c.depth = 1e-3;
    c.weight = 1;
    c.effective_radius = HUGE_VAL;
    c.normal_row.lower = 0;
    c.normal_row.upper = HUGE_VAL;
    c.normal_row.violation = -1e-3;
    c.normal_row.findex = -1;
    return c;
}

TEST_F(EndToEnd, FrictionBoxRowsBoundsAndState) {
    PluginInstance box = make(PIVOT_KIND_FRICTION, "test.friction.box", {{"mu", 0.3}});
    const std::array<pivot_contact_point, 2> contacts = {contact(7), contact(9)};
    std::array<double, 2> state{};  // one double per contact, zero for new contacts
    std::array<pivot_row, 6> rows{};
    std::array<double, 36> directions{};
    std::array<double, 18> coupling{};
    std::array<double, 12> impulses{};
    std::array<uint32_t, 2> counts{};
    const pivot_step_info s = step(0.01);
    for (int call = 1; call <= 2; ++call) {
        ASSERT_TRUE(checked_friction_build(box, contacts.data(), nullptr, 2, s, unguarded(state.data()),
                                           unguarded(rows.data()), unguarded(directions.data()),
                                           unguarded(coupling.data()), unguarded(impulses.data()),
                                           unguarded(counts.data()))
                        .ok());
        EXPECT_EQ(state[0], call);  // the state is kept by the host between calls
    }
    ASSERT_EQ(counts[1], 3u);
    const pivot_row* r = rows.data() + 3;  // contact 1
    EXPECT_EQ(r[0].upper, HUGE_VAL);
    EXPECT_EQ(r[1].findex, 0);
    EXPECT_DOUBLE_EQ(r[1].lower, -0.3);
    EXPECT_DOUBLE_EQ(r[2].upper, 0.3);
    const double* d = directions.data() + 3 * 6;
    EXPECT_EQ(d[2], 1.0);       // normal row along the normal
    EXPECT_EQ(d[6 + 0], 1.0);   // first friction row along tangent1
    EXPECT_EQ(d[12 + 1], 1.0);  // second along tangent2
}

// A 3-row boxed problem with friction index: one normal row, two friction
// rows bounded by mu times the normal impulse. A is symmetric positive
// definite, so the solution is unique; the host checks it independently.
struct SmallProblem {
    std::array<double, 9> A = {4, 1, 0, 1, 3, 0.5, 0, 0.5, 2};
    std::array<double, 3> b = {-2, 1, -3};
    std::array<double, 3> lo = {0, -0.5, -0.5};
    std::array<double, 3> hi = {HUGE_VAL, 0.5, 0.5};
    std::array<int32_t, 3> findex = {-1, 0, 0};
    pivot_lcp_problem problem() {
        pivot_lcp_problem p{};
        p.struct_size = sizeof(p);
        p.problem_class = PIVOT_PROBLEM_BOXED;
        p.n = 3;
        p.matrix_properties = PIVOT_MATRIX_SYMMETRIC | PIVOT_MATRIX_POSITIVE_DEFINITE;
        p.dense = A.data();
        p.lda = 3;
        p.b = b.data();
        p.lo = lo.data();
        p.hi = hi.data();
        p.findex = findex.data();
        return p;
    }
};

// previous_impulses (ABI 1.8) is last step's total linear impulse at the
// contact, rows and explicit impulse alike, in this step's (normal,
// tangent1, tangent2) frame: test.friction.echo turns its tangential part
// back into a world vector and applies it again, so the seed's force
// repeats exactly, step after step. (Before 1.8 the host gave the raw
// impulses of the model's rows 0-2: this model has no tangential rows, so
// the echo died after the first step.)
TEST_F(EndToEnd, PreviousImpulsesAreLastStepsImpulseInThisStepsFrame) {
    ASSERT_TRUE(registry.load(PIVOT_FIRST_PARTY_PLUGIN_DIR).ok());
    const double h = 1.0 / 60.0, seed = 0.02;
    ShapeDescription sphere;
    sphere.type = "sphere";
    sphere.radius = 0.1;
    const auto ball = world_on_ground("test.friction.echo", {{"seed", seed}}, 2.0, sphere, 0.1);
    World& world = *ball;
    for (int k = 0; k < 30; ++k) {
        world.step();
        ASSERT_EQ(world.contacts().size(), 1u) << "step " << k;
        const ContactReport& c = world.contacts()[0];
        // The force on body 2 along x: the seed's, whichever side the ball is.
        const double sign = c.normal[2] > 0 ? 1.0 : -1.0;
        EXPECT_NEAR(sign * c.friction[0], seed / h, 1e-12 * seed / h) << "step " << k;
        EXPECT_NEAR(c.friction[1], 0.0, 1e-12 * seed / h) << "step " << k;
    }
}

// contacts_ended (ABI 1.9): a box resting on its face for 10 steps has 4
// contacts that test.friction.box built 10 times each (its state counts
// builds); lifted off the ground, the next step ends all four at once, each
// with its last state, and no later step ends them again. A step in which
// they end is the step that commits: the log says so exactly once.
TEST_F(EndToEnd, ContactsEndOnceWithTheirLastState) {
    ASSERT_TRUE(registry.load(PIVOT_FIRST_PARTY_PLUGIN_DIR).ok());
    capture_box_log();
    const auto box = box_with_logged_friction();
    World& world = *box;
    const BodyId body = 0;
    for (int k = 0; k < 10; ++k) world.step();
    ASSERT_EQ(world.contacts().size(), 4u);
    EXPECT_TRUE(box_log().empty()) << box_log().front();
    world.set_pose(body, {0, 0, 1.0}, {1, 0, 0, 0});
    world.step();
    EXPECT_TRUE(world.contacts().empty());
    for (int k = 0; k < 5; ++k) world.step();
    stop_box_log();
    const std::vector<std::string>& lines = box_log();
    ASSERT_EQ(lines.size(), 1u) << "one call, in the step that lifted the box";
    // "ended 4: <id>=10 <id>=10 <id>=10 <id>=10", ids ascending.
    EXPECT_EQ(lines[0].rfind("ended 4:", 0), 0u) << lines[0];
    EXPECT_EQ(count_in(lines[0], "=10"), 4u) << lines[0];
}

// A body's own friction values changed between steps (World::
// set_body_friction): its contacts go on in the instance of the new values
// with their state (test.friction.box counts its builds there), and end for
// the old instance. Without the carried state the count would restart: the
// lift would end them at 6 builds, not 16.
TEST_F(EndToEnd, ContactsMoveWithTheirStateWhenABodysFrictionValuesChange) {
    ASSERT_TRUE(registry.load(PIVOT_FIRST_PARTY_PLUGIN_DIR).ok());
    capture_box_log();
    const auto box = box_with_logged_friction();
    World& world = *box;
    const BodyId body = 0;
    for (int k = 0; k < 10; ++k) world.step();
    world.set_body_friction(body, {{"mu", 0.8}});
    world.step();  // built by the new instance: the old one's contacts ended at 10 builds
    ASSERT_EQ(world.contacts().size(), 4u);
    for (int k = 0; k < 5; ++k) world.step();
    world.set_pose(body, {0, 0, 1.0}, {1, 0, 0, 0});
    world.step();
    stop_box_log();
    const std::vector<std::string>& lines = box_log();
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0].rfind("ended 4:", 0), 0u) << lines[0];
    EXPECT_EQ(count_in(lines[0], "=10"), 4u) << lines[0];
    EXPECT_EQ(lines[1].rfind("ended 4:", 0), 0u) << lines[1];
    EXPECT_EQ(count_in(lines[1], "=16"), 4u) << lines[1];
}

// A body's own values that a model's create() refuses beyond its schema
// (test.friction.box: mu = 7) are refused where they are set, naming the
// body, as a material's are: not by every step after. A refused body adds
// nothing, not even its values.
TEST_F(EndToEnd, ABodysValuesAModelRefusesAreRefusedWhereSet) {
    ASSERT_TRUE(registry.load(PIVOT_FIRST_PARTY_PLUGIN_DIR).ok());
    const auto box = box_with_logged_friction();
    World& world = *box;
    world.step();  // the materials' pairs are made
    const size_t profiles = world.model().friction_profiles.size();
    try {
        world.set_body_friction(0, {{"mu", 7.0}});
        ADD_FAILURE() << "accepted values the model refuses";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("body 'body': friction"), std::string::npos) << e.what();
    }
    BodyDescription other;
    other.name = "other";
    other.position = {1, 0, 0.1};
    other.shapes.push_back(cube());
    other.friction = {{"mu", 7.0}};
    EXPECT_THROW(world.add_body(other), Error);
    other.friction = {{"mu", 0.3}};
    other.orientation = {2, 0, 0, 0};  // refused after its values were checked
    EXPECT_THROW(world.add_body(other), Error);
    EXPECT_EQ(world.model().friction_profiles.size(), profiles);
    for (int k = 0; k < 3; ++k) world.step();
}

TEST_F(EndToEnd, SolverDensePgsSolvesABoxedProblemWithFrictionIndex) {
    PluginInstance solver = make(PIVOT_KIND_SOLVER, "test.solver.pgs_dense", {{"tolerance", 1e-12}});
    SmallProblem sp;
    const pivot_lcp_problem p = sp.problem();
    pivot_solve_options options{sizeof(options), 0, 0.0};
    std::array<double, 3> x{}, w{};
    pivot_solve_report report{};
    SolveResult r = checked_solve(solver, p, options, unguarded(x.data()), unguarded(w.data()), report);
    ASSERT_TRUE(r.ok()) << r.message;
    EXPECT_EQ(report.status, PIVOT_SOLVE_CONVERGED);
    // The host's residual, computed without the solver, vouches for x.
    EXPECT_LT(r.residual, 1e-10);
    EXPECT_GT(x[0], 0.0);
    EXPECT_LE(std::abs(x[2]), 0.5 * x[0] + 1e-12);

    // Warm started from the solution it needs at most one sweep.
    options.flags = PIVOT_SOLVE_WARM_START;
    r = checked_solve(solver, p, options, unguarded(x.data()), unguarded(w.data()), report);
    ASSERT_TRUE(r.ok()) << r.message;
    EXPECT_LE(report.iterations, 1u);
}

TEST_F(EndToEnd, SolverReturningNaNIsCaughtAtTheCall) {
    PluginInstance solver = make(PIVOT_KIND_SOLVER, "test.solver.nan");
    SmallProblem sp;
    sp.findex = {-1, -1, -1};
    sp.lo = {0, 0, 0};
    sp.hi = {HUGE_VAL, HUGE_VAL, HUGE_VAL};
    const pivot_lcp_problem p = sp.problem();
    pivot_solve_options options{sizeof(options), 0, 0.0};
    std::array<double, 3> x{}, w{};
    pivot_solve_report report{};
    SolveResult r = checked_solve(solver, p, options, unguarded(x.data()), unguarded(w.data()), report);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.message.find("plugin 'test.solver.nan'"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("solve: returned x[2] = nan, which is not a finite number"), std::string::npos)
        << r.message;
}

TEST_F(EndToEnd, SolverErrorStatusCarriesItsMessage) {
    PluginInstance solver = make(PIVOT_KIND_SOLVER, "test.solver.error");
    SmallProblem sp;
    const pivot_lcp_problem p = sp.problem();
    pivot_solve_options options{sizeof(options), 0, 0.0};
    std::array<double, 3> x{}, w{};
    pivot_solve_report report{};
    SolveResult r = checked_solve(solver, p, options, unguarded(x.data()), unguarded(w.data()), report);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status, PIVOT_ERROR);
    EXPECT_NE(r.message.find("pivot 3 is singular"), std::string::npos) << r.message;
}

TEST_F(EndToEnd, JointReturningNaNIsCaughtAtTheCall) {
    PluginInstance joint = make(PIVOT_KIND_JOINT, "test.joint.nan");
    std::array<double, 7> f = {0, 0, 0, 1, 0, 0, 0};
    std::array<double, 6> t{};
    pivot_joint_batch batch{1, 0, nullptr, f.data(), f.data(), t.data(), t.data()};
    std::array<pivot_row, 1> rows{};
    std::array<double, 12> jac{};
    std::array<uint32_t, 1> counts{};
    CallResult r = checked_joint_rows(joint, batch, step(0.01), unguarded(rows.data()), unguarded(jac.data()),
                                      unguarded(counts.data()));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.message.find("rows: joint 0 row 0: violation = nan"), std::string::npos) << r.message;
}

TEST_F(EndToEnd, FrictionWithInvertedBoundsIsCaughtAtTheCall) {
    PluginInstance friction = make(PIVOT_KIND_FRICTION, "test.friction.bad_bounds");
    const pivot_contact_point c = contact(1);
    std::array<pivot_row, 2> rows{};
    std::array<double, 12> directions{};
    std::array<double, 4> coupling{};
    std::array<double, 6> impulses{};
    std::array<uint32_t, 1> counts{};
    CallResult r = checked_friction_build(
        friction, &c, nullptr, 1, step(0.01), unguarded<double>(nullptr), unguarded(rows.data()),
        unguarded(directions.data()), unguarded(coupling.data()), unguarded(impulses.data()), unguarded(counts.data()));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.message.find("contact 0 row 1: lower bound 1 is above upper bound -1"), std::string::npos)
        << r.message;
}

// A plugin writing past the outputs it was given (two rows after the last
// contact's) is caught by the guard after each output: the call fails with
// the plugin, the function and the output named, and what lay after the
// extent (here the vector's own later entries) is put back.
TEST_F(EndToEnd, WritesPastAnOutputAreCaughtAndUndone) {
    PluginInstance friction = make(PIVOT_KIND_FRICTION, "test.friction.overflow");
    const pivot_contact_point c = contact(1);
    PluginOutput<pivot_row> rows(4);  // the call's extent is 1 row; 3 more follow it
    for (size_t k = 1; k < rows.size(); ++k) rows[k].violation = 100.0 + static_cast<double>(k);
    PluginOutput<double> directions(6), coupling(1), impulses(6), state(1);
    PluginOutput<uint32_t> counts(1);
    CallResult r = checked_friction_build(friction, &c, nullptr, 1, step(0.01), guarded(state), guarded(rows),
                                          guarded(directions), guarded(coupling), guarded(impulses), guarded(counts));
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(r.broken);
    EXPECT_NE(r.message.find("plugin 'test.friction.overflow'"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("build: wrote past the end of its output 'rows' (1 values): byte 0 after it was "
                             "changed"),
              std::string::npos)
        << r.message;
    for (size_t k = 1; k < rows.size(); ++k) EXPECT_EQ(rows[k].violation, 100.0 + static_cast<double>(k)) << k;
}

TEST_F(EndToEnd, ElementErrorStatusIsReported) {
    PluginInstance element = make(PIVOT_KIND_ELEMENT, "test.element.error");
    const std::array<double, 3> q{}, v{};
    pivot_element_batch batch{1, 0, nullptr, q.data(), v.data(), q.data()};
    std::array<double, 9> mass{};
    CallResult r = checked_mass_matrix(element, batch, unguarded(mass.data()));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status, PIVOT_ERROR);
    EXPECT_NE(r.message.find("plugin 'test.element.error'"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("mass_matrix: returned ERROR"), std::string::npos) << r.message;
}

}  // namespace
}  // namespace pivot
