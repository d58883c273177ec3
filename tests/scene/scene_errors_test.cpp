// Every way a scene file can be wrong gives one pivot::Error whose one-line
// message names the file, the JSON Pointer and the problem
// (docs/scene-format.md "Errors"); none crashes or reaches the world.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "first_party_plugins.hpp"
#include "scene/scene_loader.hpp"

namespace pivot {
namespace {

const std::string kData = PIVOT_SCENE_TEST_DATA_DIR;

// The message of loading `json`, or "" when it loads.
std::string load_error(const std::string& json) {
    try {
        load_scene_json(test::first_party_plugins(), json, kData, "bad.json");
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

// A scene with one pendulum; `patch` replaces a marked part.
std::string scene(const std::string& settings, const std::string& bodies, const std::string& joints = "[]",
                  const std::string& extra = "") {
    return R"({"format": "pivot-scene/1", "settings": )" + settings + R"(, "bodies": )" + bodies +
           R"(, "joints": )" + joints + extra + "}";
}

const std::string kSettings = R"({"timestep": 0.001})";
const std::string kBob = R"([{"name": "bob", "mass": 1, "inertia": [0.1, 0.1, 0.1], "position": [1, 0, 0]}])";
const std::string kHinge =
    R"([{"name": "hinge", "type": "revolute", "body1": "world", "body2": "bob", "anchor": [0, 0, 0], "axis": [0, 1, 0]}])";

// Asserts the message is one line, starts with the file and pointer, and says `what`.
void expect_error(const std::string& json, const std::string& pointer, const std::vector<std::string>& what) {
    const std::string message = load_error(json);
    ASSERT_FALSE(message.empty()) << "loaded: " << json;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_EQ(message.rfind("bad.json: " + pointer + (pointer.empty() ? "" : ": "), 0), 0u) << message;
    for (const auto& w : what) EXPECT_NE(message.find(w), std::string::npos) << "'" << w << "' not in: " << message;
}

TEST(SceneErrors, TheBaseSceneLoads) { EXPECT_EQ(load_error(scene(kSettings, kBob, kHinge)), ""); }

TEST(SceneErrors, InvalidJsonGivesLineAndColumn) {
    expect_error("{\n  \"format\": \"pivot-scene/1\",\n  \"bodies\": [ }\n}", "", {"invalid JSON", "line 3, column"});
}

TEST(SceneErrors, FileNotFound) {
    try {
        load_scene_file(test::first_party_plugins(), kData + "/no_such_scene.json");
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()), kData + "/no_such_scene.json: file not found");
    }
}

// A body's own friction values (docs/scene-format.md "Bodies"): an object
// of parameters some loaded friction model has, with values it accepts.
TEST(SceneErrors, ABodysFrictionValuesAreChecked) {
    const auto with = [](const std::string& friction) {
        return scene(kSettings, R"([{"name": "tyre", "mass": 1, "inertia": [0.1, 0.1, 0.1], "friction": )" + friction +
                                    "}]");
    };
    EXPECT_EQ(load_error(with(R"({"mu": 0.3})")), "");
    expect_error(with(R"({"grip": 0.3})"), "/bodies/0",
                 {"body 'tyre'", "friction.grip: no loaded friction model has a parameter of this name"});
    expect_error(with(R"({"mu": -1})"), "/bodies/0", {"body 'tyre'", "mu"});
    expect_error(with("0.3"), "/bodies/0/friction", {"expected an object"});
}

// The operator's controls (docs/scene-format.md "controls"): each names
// an object that exists and can be driven, keys are used once.
TEST(SceneErrors, TheIntegratorIsCheckedAtItsKeys) {
    const auto with = [](const std::string& integrator) {
        return scene(R"({"timestep": 0.001, "integrator": )" + integrator + "}", kBob, kHinge);
    };
    EXPECT_EQ(load_error(with(R"("gssss")")), "");
    EXPECT_EQ(load_error(with(R"("semi_implicit")")), "");
    EXPECT_EQ(load_error(with(R"({"type": "gssss", "scheme": "hht", "rho": 0.7, "constraints": "velocity",
                                  "stabilization": "projection"})")),
              "");
    EXPECT_EQ(load_error(with(R"({"type": "gssss", "family": "U0", "rho_min": 0.5, "rho_max": 0.9, "rho_s": 0.2})")),
              "");
    expect_error(with(R"("rk4")"), "/settings/integrator", {"unknown integrator 'rk4'"});
    expect_error(with(R"({"scheme": "midpoint"})"), "/settings/integrator/type", {"missing required key 'type'"});
    expect_error(with(R"({"type": "gssss", "scheme": "euler"})"), "/settings/integrator/scheme",
                 {"unknown scheme 'euler'"});
    expect_error(with(R"({"type": "gssss", "scheme": "hht"})"), "/settings/integrator/scheme", {"needs \"rho\""});
    expect_error(with(R"({"type": "gssss", "scheme": "hht", "rho": 0.3})"), "/settings/integrator/rho",
                 {"[1/2, 1]"});
    expect_error(with(R"({"type": "gssss", "scheme": "midpoint", "rho": 0.3})"), "/settings/integrator/rho",
                 {"no parameter rho"});
    expect_error(with(R"({"type": "gssss", "family": "W0"})"), "/settings/integrator/family", {"U0 or V0"});
    expect_error(with(R"({"type": "gssss", "family": "U0", "rho_min": 0.9, "rho_max": 0.5})"),
                 "/settings/integrator", {"rho_min <= rho_max"});
    expect_error(with(R"({"type": "gssss", "constraints": "jerk"})"), "/settings/integrator/constraints",
                 {"position, velocity or acceleration"});
    expect_error(with(R"({"type": "gssss", "tolerance": 0})"), "/settings/integrator/tolerance", {"> 0"});
    expect_error(with(R"({"type": "gssss", "step": 2})"), "/settings/integrator/step", {"unknown key 'step'"});
    // The choice reaches the world.
    const auto world = load_scene_json(test::first_party_plugins(),
                                       with(R"({"type": "gssss", "scheme": "generalized_alpha", "rho": 0.8})"),
                                       kData, "good.json");
    EXPECT_EQ(world->settings().integrator, Integrator::gssss);
    EXPECT_EQ(world->settings().gssss.parameters.rho_s, 0.8);
}

TEST(SceneErrors, ControlsAreCheckedAgainstTheWorld) {
    const std::string motor_hinge =
        R"([{"name": "hinge", "type": "revolute", "body1": "world", "body2": "bob", "anchor": [0, 0, 0],)"
        R"( "axis": [0, 1, 0], "motor": {"velocity": 0, "max_force": 10}},)"
        R"( {"name": "ball", "type": "spherical", "body1": "world", "body2": "bob", "anchor": [1, 0, 0]}])";
    const auto with = [&](const std::string& controls) {
        return scene(kSettings, kBob, motor_hinge, R"(, "controls": )" + controls);
    };
    EXPECT_EQ(load_error(with(R"([{"joint": "hinge", "keys": ["a", "d"], "speed": 1}])")), "");
    EXPECT_EQ(load_error(with(R"([{"joint": "hinge", "speed": 1}])")), "");  // a slider only
    expect_error(with(R"([{"joint": "nope", "speed": 1}])"), "/controls/0/joint", {"no joint named 'nope'"});
    expect_error(with(R"([{"joint": "ball", "speed": 1}])"), "/controls/0/joint", {"'ball' has no motor"});
    expect_error(with(R"([{"cable": "wire", "speed": 1}])"), "/controls/0/cable", {"no cable named 'wire'"});
    expect_error(with(R"([{"speed": 1}])"), "/controls/0", {"needs one of 'joint'"});
    expect_error(with(R"([{"joint": "hinge", "rope": "r", "speed": 1}])"), "/controls/0", {"only one of"});
    expect_error(with(R"([{"joint": "hinge"}])"), "/controls/0/speed", {"missing required key"});
    expect_error(with(R"([{"joint": "hinge", "speed": 0}])"), "/controls/0/speed", {"must be > 0"});
    expect_error(with(R"([{"joint": "hinge", "speed": 1, "keys": ["a"]}])"), "/controls/0/keys",
                 {"expected 2 keys"});
    expect_error(with(R"([{"joint": "hinge", "speed": 1, "keys": ["a", ""]}])"), "/controls/0/keys/1",
                 {"empty"});
    expect_error(with(R"([{"joint": "hinge", "speed": 1, "keys": ["a", "d"]},)"
                      R"( {"name": "again", "joint": "hinge", "speed": 1, "keys": ["d", "x"]}])"),
                 "/controls/1/keys/0", {"key 'd' is already used (/controls/0/keys/1)"});
    expect_error(with(R"([{"joint": "hinge", "speed": 1}, {"joint": "hinge", "speed": 2}])"), "/controls/1/joint",
                 {"duplicate control name 'hinge'"});
    expect_error(with(R"([{"joint": "hinge", "speed": 1, "lever": 2}])"), "/controls/0/lever", {"unknown key"});
    expect_error(with(R"({"joint": "hinge"})"), "/controls", {"expected an array"});
}

TEST(SceneErrors, ControlsReachTheCallerInFileOrder) {
    const std::string json = scene(
        kSettings, kBob,
        R"([{"name": "hinge", "type": "revolute", "body1": "world", "body2": "bob", "anchor": [0, 0, 0],)"
        R"( "axis": [0, 1, 0], "motor": {"velocity": 0.3, "max_force": 10}}])",
        R"(, "controls": [{"name": "swing", "joint": "hinge", "keys": ["ArrowLeft", "ArrowRight"], "speed": 0.5}])");
    std::vector<OperatorControl> controls;
    SceneOptions options;
    options.controls = &controls;
    auto world = load_scene_json(test::first_party_plugins(), json, kData, "good.json", options);
    ASSERT_EQ(controls.size(), 1u);
    EXPECT_EQ(controls[0].name, "swing");
    EXPECT_EQ(controls[0].target, OperatorControl::Target::joint);
    EXPECT_EQ(controls[0].index, world->joint("hinge"));
    EXPECT_EQ(controls[0].keys[0], "ArrowLeft");
    EXPECT_EQ(controls[0].keys[1], "ArrowRight");
    EXPECT_EQ(controls[0].speed, 0.5);
}

TEST(SceneErrors, FormatIsRequiredAndChecked) {
    expect_error(R"({"bodies": []})", "/format", {"missing required key 'format'", "pivot-scene/1"});
    expect_error(R"({"format": "pivot-scene/2"})", "/format", {"unsupported format", "pivot-scene/2"});
    expect_error(R"([1, 2])", "", {"expected an object, got an array of 2"});
}

TEST(SceneErrors, UnknownKeysAnywhere) {
    expect_error(scene(kSettings, kBob, kHinge, R"(, "bodys": [])"), "/bodys", {"unknown key 'bodys'", "bodies"});
    expect_error(scene(R"({"timestep": 0.001, "gravty": [0, 0, 0]})", kBob), "/settings/gravty",
                 {"unknown key 'gravty'", "gravity"});
    expect_error(scene(kSettings, R"([{"name": "b", "mass": 1, "inertia": [1, 1, 1], "colour": "red"}])"),
                 "/bodies/0/colour", {"unknown key 'colour'"});
    expect_error(scene(kSettings, R"([{"name": "b", "mass": 1, "inertia": [1, 1, 1],
                                      "shapes": [{"type": "sphere", "radius": 1, "size": [1, 1, 1]}]}])"),
                 "/bodies/0/shapes/0/size", {"unknown key 'size'", "radius"});
    expect_error(scene(kSettings, kBob, R"([{"name": "j", "type": "spherical", "body1": "world", "body2": "bob",
                                             "anchor": [0, 0, 0], "axis": [1, 0, 0]}])"),
                 "/joints/0/axis", {"unknown key 'axis'"});
    expect_error(scene(kSettings, kBob, R"([{"name": "j", "type": "revolute", "body1": "world", "body2": "bob",
                                             "anchor": [0, 0, 0], "axis": [0, 1, 0], "limits": {"lo": 0}}])"),
                 "/joints/0/limits/lo", {"unknown key 'lo'", "lower, upper"});
    expect_error(scene(kSettings, kBob, R"([{"name": "j", "type": "revolute", "body1": "world", "body2": "bob",
                                             "anchor": [0, 0, 0], "axis": [0, 1, 0],
                                             "motor": {"velocity": 1, "max_force": 1, "torque": 2}}])"),
                 "/joints/0/motor/torque", {"unknown key 'torque'"});
    expect_error(scene(kSettings, kBob, "[]", R"(, "materials": {"ice": {"mu": 0.1}})"), "/materials/ice/mu",
                 {"unknown key 'mu'", "friction"});
    // A friction model's parameters are its schema's: World's check, with the path prepended.
    expect_error(scene(kSettings, kBob, "[]", R"(, "materials": {"ice": {"friction": {"model": "box", "muu": 0.1}}})"),
                 "/materials/ice", {"'muu' is not a parameter of plugin 'pivot.friction.box'"});
    expect_error(scene(R"({"solver": "dantzig", "solver_options": {"max_iter": 5}})", kBob), "/settings/solver_options",
                 {"'max_iter' is not a parameter of plugin 'pivot.solver.dantzig'"});
}

TEST(SceneErrors, WrongTypes) {
    expect_error(scene(R"({"timestep": "fast"})", kBob), "/settings/timestep",
                 {"expected a number, got a string (\"fast\")"});
    expect_error(scene(R"({"gravity": [0, -9.81]})", kBob), "/settings/gravity", {"expected 3 numbers, got an array of 2"});
    expect_error(scene(kSettings, R"([{"name": "b", "mass": 1, "inertia": [1, 1, 1], "position": [0, "1", 0]}])"),
                 "/bodies/0/position/1", {"expected a number"});
    expect_error(scene(kSettings, R"([{"name": "b", "mass": 1, "inertia": [1, 1, 1], "fixed": "yes"}])"),
                 "/bodies/0/fixed", {"expected true or false"});
    expect_error(scene(kSettings, R"([{"name": 7, "mass": 1, "inertia": [1, 1, 1]}])"), "/bodies/0/name",
                 {"expected a string, got the number 7"});
    expect_error(scene(kSettings, R"({"b": 1})"), "/bodies", {"expected an array, got an object"});
    expect_error(scene(kSettings, R"([{"name": "b", "mass": 1, "inertia": [1, 1]}])"), "/bodies/0/inertia",
                 {"expected 3 numbers", "or 9", "got 2"});
    // Overflow is nlohmann's parse error (no value can be infinite or NaN).
    expect_error(scene(kSettings, R"([{"name": "b", "mass": 1e999, "inertia": [1, 1, 1]}])"), "",
                 {"invalid JSON", "number overflow parsing '1e999'"});
}

TEST(SceneErrors, MissingRequiredKeys) {
    expect_error(scene(kSettings, R"([{"name": "b", "inertia": [1, 1, 1]}])"), "/bodies/0/mass",
                 {"missing required key 'mass'"});
    expect_error(scene(kSettings, R"([{"mass": 1, "inertia": [1, 1, 1]}])"), "/bodies/0/name",
                 {"missing required key 'name'"});
    expect_error(scene(kSettings, R"([{"name": "b", "mass": 1, "inertia": [1, 1, 1], "shapes": [{"type": "sphere"}]}])"),
                 "/bodies/0/shapes/0/radius", {"missing required key 'radius'"});
    expect_error(scene(kSettings, kBob, R"([{"name": "j", "type": "revolute", "body2": "bob", "anchor": [0, 0, 0],
                                             "axis": [0, 1, 0]}])"),
                 "/joints/0/body1", {"missing required key 'body1'"});
    expect_error(scene(kSettings, kBob, R"([{"name": "j", "type": "revolute", "body1": "world", "body2": "bob",
                                             "anchor": [0, 0, 0]}])"),
                 "/joints/0/axis", {"missing required key 'axis'"});
    expect_error(scene(kSettings, kBob, R"([{"name": "j", "type": "revolute", "body1": "world", "body2": "bob",
                                             "anchor": [0, 0, 0], "axis": [0, 1, 0], "motor": {"velocity": 1}}])"),
                 "/joints/0/motor/max_force", {"missing required key 'max_force'"});
}

// Drives (docs/scene-format.md "Joints"): the mode, and the values a mode reads.
TEST(SceneErrors, MotorModes) {
    const auto hinge_with = [](const std::string& motor) {
        return R"([{"name": "hinge", "type": "revolute", "body1": "world", "body2": "bob", "anchor": [0, 0, 0],
                    "axis": [0, 1, 0], "motor": )" +
               motor + "}]";
    };
    EXPECT_EQ(load_error(scene(kSettings, kBob, hinge_with(R"({"mode": "position", "position": 0.5, "stiffness": 100,
                                                               "damping": 2, "max_force": 10})"))),
              "");
    EXPECT_EQ(load_error(scene(kSettings, kBob, hinge_with(R"({"mode": "force", "force": 3, "max_force": 10})"))), "");
    expect_error(scene(kSettings, kBob, hinge_with(R"({"mode": "servo", "max_force": 10})")), "/joints/0/motor/mode",
                 {"'servo' is not a motor mode (velocity, position or force)"});
    expect_error(scene(kSettings, kBob, hinge_with(R"({"mode": "velocity", "max_force": 10})")),
                 "/joints/0/motor/velocity", {"missing required key 'velocity'"});
    expect_error(scene(kSettings, kBob, hinge_with(R"({"mode": "position", "stiffness": -1, "max_force": 10})")),
                 "/joints/0", {"motor_stiffness", "-1"});
    expect_error(scene(kSettings, kBob, hinge_with(R"({"mode": "position", "position": "up", "max_force": 10})")),
                 "/joints/0/motor/position", {"expected a number"});
    // A joint without a free coordinate has no motor at all.
    expect_error(scene(kSettings, kBob, R"([{"name": "ball", "type": "spherical", "body1": "world", "body2": "bob",
                                            "anchor": [0, 0, 0], "motor": {"velocity": 1, "max_force": 1}}])"),
                 "/joints/0/motor", {"unknown key 'motor'"});
}

// Joints that change while the world runs (docs/scene-format.md "joints").
TEST(SceneErrors, JointEnabledAndBreakThresholds) {
    const std::string ok = R"([{"name": "hinge", "type": "revolute", "body1": "world", "body2": "bob",
                               "anchor": [0, 0, 0], "axis": [0, 1, 0], "enabled": false, "break_force": 100,
                               "break_torque": 20}])";
    EXPECT_EQ(load_error(scene(kSettings, kBob, ok)), "");
    expect_error(scene(kSettings, kBob, R"([{"name": "hinge", "type": "revolute", "body1": "world", "body2": "bob",
                                            "anchor": [0, 0, 0], "axis": [0, 1, 0], "break_force": -1}])"),
                 "/joints/0", {"break_force: must be a finite number >= 0, got -1"});
    expect_error(scene(kSettings, kBob, R"([{"name": "hinge", "type": "revolute", "body1": "world", "body2": "bob",
                                            "anchor": [0, 0, 0], "axis": [0, 1, 0], "enabled": "no"}])"),
                 "/joints/0/enabled", {"expected true or false"});
}

TEST(SceneErrors, QuaternionNotUnitSaysTheNorm) {
    expect_error(scene(kSettings, R"([{"name": "b", "mass": 1, "inertia": [1, 1, 1], "orientation": [1, 0, 0, 0.1]}])"),
                 "/bodies/0/orientation", {"not a unit quaternion", "norm is 1.00498756"});
    expect_error(scene(kSettings, R"([{"name": "b", "mass": 1, "inertia": [1, 1, 1],
                                      "shapes": [{"type": "sphere", "radius": 1, "orientation": [0, 0, 0, 0]}]}])"),
                 "/bodies/0/shapes/0/orientation", {"norm is 0"});
    // Within 1e-6 of unit is accepted.
    EXPECT_EQ(load_error(scene(kSettings, R"([{"name": "b", "mass": 1, "inertia": [1, 1, 1],
                                              "orientation": [1.0000005, 0, 0, 0]}])")),
              "");
}

TEST(SceneErrors, InertiaNotPositiveDefiniteSaysWhy) {
    expect_error(scene(kSettings, R"([{"name": "b", "mass": 1, "inertia": [1, -1, 1]}])"), "/bodies/0/inertia",
                 {"not positive definite", "principal moment 1 is -1"});
    expect_error(scene(kSettings, R"([{"name": "b", "mass": 1, "inertia": [1, 2, 0, 2, 1, 0, 0, 0, 1]}])"),
                 "/bodies/0/inertia", {"not positive definite", "eigenvalues", "-1"});
    expect_error(scene(kSettings, R"([{"name": "b", "mass": 1, "inertia": [1, 0.5, 0, 0, 1, 0, 0, 0, 1]}])"),
                 "/bodies/0/inertia", {"not symmetric", "(0, 1) is 0.5 but (1, 0) is 0"});
}

TEST(SceneErrors, ValueRangesAreWorldChecksWithThePath) {
    expect_error(scene(kSettings, R"([{"name": "crate", "mass": -2, "inertia": [1, 1, 1]}])"), "/bodies/0",
                 {"body 'crate': mass: must be a positive number of kg, got -2"});
    expect_error(scene(kSettings, kBob, "[]", R"(, "materials": {"ice": {"restitution": 2}})"), "/materials/ice",
                 {"restitution: must be in [0, 1]"});
    expect_error(scene(kSettings, R"([{"name": "b", "mass": 1, "inertia": [1, 1, 1],
                                      "shapes": [{"type": "sphere", "radius": -1}]}])"),
                 "/bodies/0", {"radius: must be between 1e-06 m and 100000 m, got -1"});
    expect_error(scene(R"({"timestep": 0})", kBob), "/settings/timestep", {"must be > 0 s"});
}

// Limits where physics sets none (core/world/physical_limits.hpp): each is
// refused with the file, the pointer and the limit, at load.
TEST(SceneErrors, LimitsAreRefusedAtLoad) {
    expect_error(scene(R"({"timestep": 1e9})", kBob), "/settings/timestep", {"must be at most 1 s, got 1000000000"});
    expect_error(scene(R"({"gravity": [0, 0, -1.2e29]})", kBob), "/settings/gravity",
                 {"magnitude must be at most 10000 m/s^2"});
    expect_error(scene(kSettings, R"([{"name": "b", "mass": 1, "inertia": [1, 1, 1],
                                      "shapes": [{"type": "box", "size": [1.2e29, 0.2, 0.2]}]}])"),
                 "/bodies/0", {"shapes[0]: size: must be between 1e-06 m and 100000 m, got 1.2e+29"});
    expect_error(scene(kSettings, R"([{"name": "b", "mass": 1, "inertia": [1, 1, 1],
                                      "shapes": [{"type": "capsule", "radius": 1e-7, "length": 1}]}])"),
                 "/bodies/0", {"shapes[0]: radius: must be between 1e-06 m and 100000 m, got 1e-07"});
    // An inertia of 1e-101 kg m^2 is positive definite but far too small
    // for 1 kg (radius of gyration 3e-51 m); it used to be misread as
    // indefinite through an underflowing determinant.
    expect_error(scene(kSettings, R"([{"name": "b", "mass": 1, "inertia": [1e-101, 1e-101, 1e-101]}])"), "/bodies/0",
                 {"body 'b': inertia: principal moments 1e-101..1e-101 kg m^2 give a radius of gyration"});
    expect_error(scene(kSettings, R"([{"name": "b", "mass": 1, "inertia": [1, 1, 1e-11]}])"), "/bodies/0",
                 {"differ by more than the factor 1e+10"});
    // Masses of one world's moving bodies within a factor 1e8 (a 1e-12 kg box
    // in a pile of 10 kg boxes made every step take seconds); a fixed body
    // may weigh anything.
    expect_error(scene(kSettings, R"([{"name": "crate", "mass": 10, "inertia": [1, 1, 1]},
                                      {"name": "dust", "mass": 1e-12, "inertia": [1e-13, 1e-13, 1e-13]}])"),
                 "/bodies/1", {"body 'dust': mass: 1e-12 kg is less than 1/1e+08 of the mass of body 'crate' (10 kg)"});
    expect_error(scene(kSettings, R"([{"name": "dust", "mass": 1e-6, "inertia": [1e-7, 1e-7, 1e-7]},
                                      {"name": "crate", "mass": 1000, "inertia": [100, 100, 100]}])"),
                 "/bodies/1", {"body 'crate': mass: 1000 kg is more than 1e+08 times the mass of body 'dust'"});
    EXPECT_EQ(load_error(scene(kSettings, R"([{"name": "ground", "mass": 1e12, "inertia": [1e12, 1e12, 1e12],
                                              "fixed": true},
                                             {"name": "dust", "mass": 1e-3, "inertia": [1e-5, 1e-5, 1e-5]}])")),
              "");
    // A position of 1e308 m made every energy infinite, refused in the step
    // by the element plugin with no body named.
    expect_error(scene(kSettings, R"([{"name": "far", "mass": 1, "inertia": [1, 1, 1], "position": [0, 0, 1e308]}])"),
                 "/bodies/0", {"body 'far': position: coordinates must be finite and within +-1e+06 m"});
    expect_error(scene(kSettings, R"([{"name": "fast", "mass": 1, "inertia": [1, 1, 1],
                                      "linear_velocity": [3e4, 0, 0]}])"),
                 "/bodies/0", {"body 'fast': linear_velocity: must be finite with a speed up to 10000 m/s"});
    expect_error(scene(kSettings, R"([{"name": "hook", "mass": 1, "inertia": [1, 1, 1], "angular_damping": -2}])"),
                 "/bodies/0", {"body 'hook': angular_damping: must be a number of N m s/rad from 0 to 1e+12, got -2"});
    expect_error(scene(kSettings, kBob, "[]", R"(, "static_shapes": [{"type": "plane", "normal": [0, 0, 1],
                                                                    "offset": -1e300}])"),
                 "/static_shapes/0", {"offset: must be finite and within +-1e+06 m"});
    expect_error(scene(R"({"step_time_limit": -1})", kBob), "/settings/step_time_limit",
                 {"must be a number of seconds >= 0 (0 = off), got -1"});
}

TEST(SceneErrors, UnknownPluginIds) {
    expect_error(scene(R"({"solver": "gauss"})", kBob), "/settings/solver", {"unknown solver plugin 'gauss'", "loaded:"});
    expect_error(scene(R"({"fallback": ["pgs", "nope"]})", kBob), "/settings/fallback/1",
                 {"unknown solver plugin 'nope'"});
    expect_error(scene(kSettings, kBob, "[]", R"(, "materials": {"ice": {"friction": {"model": "sticky"}}})"),
                 "/materials/ice/friction/model", {"unknown friction plugin 'sticky'"});
    expect_error(scene(kSettings, kBob, R"([{"name": "j", "type": "hinge", "body1": "world", "body2": "bob"}])"),
                 "/joints/0/type", {"unknown joint plugin 'hinge'", "pivot.joint.revolute"});
    // A plugin of another kind is named as such.
    expect_error(scene(R"({"solver": "pivot.friction.box"})", kBob), "/settings/solver",
                 {"'pivot.friction.box' is a friction plugin, not a solver plugin"});
}

TEST(SceneErrors, PluginPathsAreRelativeToTheFile) {
    expect_error(scene(R"({"plugin_paths": ["no/such/folder"]})", kBob), "/settings/plugin_paths/0",
                 {"no such file or folder", "no/such/folder"});
}

TEST(SceneErrors, JointNamingAMissingBody) {
    expect_error(scene(kSettings, kBob, R"([{"name": "j", "type": "revolute", "body1": "world", "body2": "bobb",
                                             "anchor": [0, 0, 0], "axis": [0, 1, 0]}])"),
                 "/joints/0/body2", {"no body named 'bobb'", "bodies: bob"});
}

TEST(SceneErrors, ControlCharactersInNamesAreEscapedToKeepOneLine) {
    expect_error(scene(kSettings, R"([{"name": "a\nb", "mass": 1, "inertia": [1, 1, 1]}])",
                       R"([{"name": "j", "type": "spherical", "body1": "a\nb", "body2": "c", "anchor": [0, 0, 0]}])"),
                 "/joints/0/body2", {"no body named 'c' (bodies: a\\nb;"});
}

TEST(SceneErrors, DuplicateNames) {
    expect_error(scene(kSettings, R"([{"name": "b", "mass": 1, "inertia": [1, 1, 1]},
                                     {"name": "b", "mass": 1, "inertia": [1, 1, 1]}])"),
                 "/bodies/1/name", {"duplicate body name 'b' (also /bodies/0)"});
    expect_error(scene(kSettings, kBob, R"([{"name": "j", "type": "spherical", "body1": "world", "body2": "bob", "anchor": [0, 0, 0]},
                                           {"name": "j", "type": "spherical", "body1": "world", "body2": "bob", "anchor": [0, 0, 0]}])"),
                 "/joints/1/name", {"duplicate joint name 'j' (also /joints/0)"});
    expect_error(scene(kSettings, R"([{"name": "world", "mass": 1, "inertia": [1, 1, 1]}])"), "/bodies/0/name",
                 {"reserved"});
}

TEST(SceneErrors, UnknownMaterialReferencedByAShape) {
    expect_error(scene(kSettings, R"([{"name": "b", "mass": 1, "inertia": [1, 1, 1],
                                      "shapes": [{"type": "sphere", "radius": 1, "material": "steel"}]}])"),
                 "/bodies/0/shapes/0/material", {"no material named 'steel'", "defined: default"});
    expect_error(scene(kSettings, kBob, "[]", R"(, "material_pairs": [{"materials": ["default", "ice"]}])"),
                 "/material_pairs/0/materials/1", {"no material named 'ice'"});
}

TEST(SceneErrors, ShapeTypes) {
    expect_error(scene(kSettings, R"([{"name": "b", "mass": 1, "inertia": [1, 1, 1],
                                      "shapes": [{"type": "plane", "normal": [0, 0, 1]}]}])"),
                 "/bodies/0/shapes/0/type", {"a plane can only be a static shape"});
    expect_error(scene(kSettings, kBob, "[]", R"(, "static_shapes": [{"type": "torus"}])"), "/static_shapes/0/type",
                 {"unknown shape type 'torus'"});
}

// A cable scene: `cable` is one entry of "cables" (the bob is a body to attach to).
std::string cable_scene(const std::string& cable, const std::string& joints = "[]") {
    return scene(kSettings, kBob, joints, R"(, "cables": [)" + cable + "]");
}

// A valid cable with `patch` (more keys, or replacements: JSON keeps the last
// of duplicates) spliced in before its closing brace.
std::string rope(const std::string& patch = "") {
    return R"({"name": "rope", "start": [0, 0, 0], "end": [1, 0, 0], "elements": 4, "radius": 0.005,
               "density": 7850, "youngs_modulus": 2e11)" +
           patch + "}";
}

TEST(SceneErrors, CablesLoad) {
    EXPECT_EQ(load_error(scene(kSettings, kBob, "[]", R"(, "cables": [])")), "");
    EXPECT_EQ(load_error(cable_scene(rope())), "");
    EXPECT_EQ(load_error(cable_scene(rope(R"(, "type": "pivot.element.ancf_cable", "material": "default",
                                             "gauss_points": 3, "damping": 0.01, "geometric_stiffness": 1,
                                             "attach": [{"node": 0, "body": "world", "type": "spherical"},
                                                        {"node": "last", "body": "bob", "type": "fixed"},
                                                        {"node": 2, "body": "world"}])"))),
              "");
}

TEST(SceneErrors, CableStructure) {
    expect_error(cable_scene(rope(R"(, "colour": "red")")), "/cables/0/colour",
                 {"unknown key 'colour'", "youngs_modulus", "attach"});
    expect_error(cable_scene(R"({"start": [0, 0, 0], "end": [1, 0, 0], "elements": 4})"), "/cables/0/name",
                 {"missing required key 'name'"});
    expect_error(cable_scene(R"({"name": "rope", "start": [0, 0, 0], "end": [1, 0, 0], "radius": 0.01,
                                 "density": 7850, "youngs_modulus": 2e11})"),
                 "/cables/0/elements", {"missing required key 'elements'"});
    expect_error(cable_scene(R"({"name": "rope", "start": [0, 0, 0], "end": [1, 0, 0], "elements": 4,
                                 "density": 7850, "youngs_modulus": 2e11})"),
                 "/cables/0/radius", {"missing required key 'radius'"});
    expect_error(cable_scene(rope(R"(, "end": [1, 0])")), "/cables/0/end", {"expected 3 numbers, got an array of 2"});
    expect_error(cable_scene(rope(R"(, "elements": "ten")")), "/cables/0/elements",
                 {"expected a whole number, got a string (\"ten\")"});
    expect_error(cable_scene(rope(R"(, "elements": 2.5)")), "/cables/0/elements",
                 {"expected a whole number, got the number 2.5"});
    expect_error(cable_scene(rope(R"(, "elements": 0)")), "/cables/0/elements", {"must be a whole number >= 1, got 0"});
    expect_error(cable_scene(rope(R"(, "elements": -3)")), "/cables/0/elements", {">= 1, got -3"});
    expect_error(cable_scene(rope(R"(, "radius": "thin")")), "/cables/0/radius", {"expected a number"});
    expect_error(cable_scene(rope(R"(, "gauss_points": 0)")), "/cables/0/gauss_points", {">= 1", "got 0"});
    expect_error(cable_scene(rope(R"(, "gauss_points": 2.5)")), "/cables/0/gauss_points", {"expected a whole number"});
    expect_error(cable_scene(rope(R"(, "damping": "high")")), "/cables/0/damping", {"expected a number"});
    expect_error(cable_scene(rope(R"(, "geometric_stiffness": true)")), "/cables/0/geometric_stiffness",
                 {"expected a number, got true"});
    expect_error(cable_scene(rope(R"(, "attach": {"node": 0})")), "/cables/0/attach", {"expected an array"});
    expect_error(scene(kSettings, kBob, "[]", R"(, "cables": {"rope": {}})"), "/cables",
                 {"expected an array, got an object"});
    // 4.0 is a whole number however it is written.
    EXPECT_EQ(load_error(cable_scene(rope(R"(, "elements": 4.0, "gauss_points": 3e0)"))), "");
}

TEST(SceneErrors, CableReferences) {
    expect_error(cable_scene(rope(R"(, "type": "beam")")), "/cables/0/type", {"unknown element plugin 'beam'"});
    expect_error(cable_scene(rope(R"(, "type": "pivot.solver.pgs")")), "/cables/0/type",
                 {"'pivot.solver.pgs' is a solver plugin, not a"});
    expect_error(cable_scene(rope(R"(, "material": "hemp")")), "/cables/0/material",
                 {"no material named 'hemp'", "defined: default"});
    // Names: unique among cables and bodies; "world" is reserved.
    expect_error(cable_scene(R"({"name": "bob", "start": [0, 0, 0], "end": [1, 0, 0], "elements": 1, "radius": 0.01,
                                 "density": 7850, "youngs_modulus": 2e11})"),
                 "/cables/0/name", {"the name 'bob' is taken by the body at /bodies/0"});
    expect_error(cable_scene(rope() + ", " + rope()), "/cables/1/name", {"duplicate cable name 'rope' (also /cables/0)"});
    expect_error(cable_scene(R"({"name": "world", "start": [0, 0, 0], "end": [1, 0, 0], "elements": 1, "radius": 0.01,
                                 "density": 7850, "youngs_modulus": 2e11})"),
                 "/cables/0/name", {"reserved"});
    // Joints connect bodies, not cables; their names may not take an attachment joint's.
    expect_error(cable_scene(rope(), R"([{"name": "j", "type": "spherical", "body1": "world", "body2": "rope",
                                          "anchor": [0, 0, 0]}])"),
                 "/joints/0/body2", {"'rope' is a cable (/cables/0), not a body", "attach"});
    expect_error(scene(kSettings, R"([{"name": "rope#2", "mass": 1, "inertia": [1, 1, 1]}])", "[]",
                       R"(, "cables": [)" + rope() + "]"),
                 "/cables/0/name", {"the body 'rope#2' (/bodies/0) would share its name with a node row", "'rope#0', 'rope#1', ..."});
    EXPECT_EQ(load_error(scene(kSettings, R"([{"name": "rope#", "mass": 1, "inertia": [1, 1, 1]},
                                            {"name": "rope#1a", "mass": 1, "inertia": [1, 1, 1]}])",
                               "[]", R"(, "cables": [)" + rope() + "]")),
              "");
    expect_error(cable_scene(rope(R"(, "attach": [{"node": 0, "body": "world"}])"),
                             R"([{"name": "rope/attach0", "type": "spherical", "body1": "world", "body2": "bob",
                                  "anchor": [1, 0, 0]}])"),
                 "/joints/0/name", {"duplicate joint name 'rope/attach0' (also /cables/0/attach/0)"});
}

TEST(SceneErrors, CableAttachEntries) {
    expect_error(cable_scene(rope(R"(, "attach": [{"node": 0, "body": "world", "kind": "spherical"}])")),
                 "/cables/0/attach/0/kind", {"unknown key 'kind'", "node, body, type"});
    expect_error(cable_scene(rope(R"(, "attach": [{"body": "world"}])")), "/cables/0/attach/0/node",
                 {"missing required key 'node'"});
    expect_error(cable_scene(rope(R"(, "attach": [{"node": 0}])")), "/cables/0/attach/0/body",
                 {"missing required key 'body'"});
    expect_error(cable_scene(rope(R"(, "attach": [{"node": 0, "body": "hook"}])")), "/cables/0/attach/0/body",
                 {"no body named 'hook'", "bodies: bob"});
    expect_error(cable_scene(rope(R"(, "attach": [{"node": 0, "body": "world"},
                                                  {"node": 0, "body": "bob", "type": "hinge"}])")),
                 "/cables/0/attach/1/type", {"unknown attach type 'hinge'", "spherical", "fixed"});
    // Nodes 0 .. elements, or "last"; checked here, so the pointer is the node's.
    expect_error(cable_scene(rope(R"(, "attach": [{"node": 5, "body": "world"}])")), "/cables/0/attach/0/node",
                 {"node 5 is out of range", "4 elements, nodes 0 .. 4"});
    expect_error(cable_scene(rope(R"(, "attach": [{"node": -1, "body": "world"}])")), "/cables/0/attach/0/node",
                 {"node -1 is out of range"});
    expect_error(cable_scene(rope(R"(, "attach": [{"node": "first", "body": "world"}])")),
                 "/cables/0/attach/0/node", {"expected a node index (0 .. 4) or \"last\", got a string (\"first\")"});
    expect_error(cable_scene(rope(R"(, "attach": [{"node": 1.5, "body": "world"}])")), "/cables/0/attach/0/node",
                 {"expected a whole number"});
    expect_error(cable_scene(rope(R"(, "attach": [{"node": null, "body": "world"}])")), "/cables/0/attach/0/node",
                 {"expected a node index (0 .. 4) or \"last\", got null"});
    EXPECT_EQ(load_error(cable_scene(rope(R"(, "attach": [{"node": 4, "body": "world"}])"))), "");
}

// Value ranges are World::add_cable's checks, with the cable's pointer.
TEST(SceneErrors, CableRangesFromWorld) {
    expect_error(cable_scene(rope(R"(, "radius": -0.01)")), "/cables/0", {"rope", "radius"});
    expect_error(cable_scene(rope(R"(, "density": 0)")), "/cables/0", {"rope", "density"});
    expect_error(cable_scene(rope(R"(, "youngs_modulus": -1)")), "/cables/0", {"rope", "youngs_modulus"});
    expect_error(cable_scene(rope(R"(, "end": [0, 0, 0])")), "/cables/0", {"rope"});
    expect_error(cable_scene(rope(R"(, "damping": -1)")), "/cables/0", {"rope", "damping"});
    expect_error(cable_scene(rope(R"(, "gauss_points": 1000)")), "/cables/0", {"rope", "gauss_points"});
    expect_error(cable_scene(rope(R"(, "geometric_stiffness": 2)")), "/cables/0", {"rope", "geometric_stiffness"});
}

TEST(SceneErrors, JointRangesFromWorld) {
    expect_error(scene(kSettings, kBob, R"([{"name": "j", "type": "revolute", "body1": "world", "body2": "bob",
                                             "anchor": [0, 0, 0], "axis": [0, 0, 0]}])"),
                 "/joints/0", {"joint 'j': axis: must be a nonzero finite vector"});
    expect_error(scene(kSettings, kBob, R"([{"name": "j", "type": "revolute", "body1": "world", "body2": "bob",
                                             "anchor": [0, 0, 0], "axis": [0, 1, 0], "limits": {"lower": 1, "upper": 0}}])"),
                 "/joints/0", {"lower (1) must not exceed upper (0)"});
    expect_error(scene(kSettings, kBob, R"([{"name": "j", "type": "revolute", "body1": "bob", "body2": "bob",
                                             "anchor": [0, 0, 0], "axis": [0, 1, 0]}])"),
                 "/joints/0", {"body1 and body2 are the same"});
}

TEST(SceneErrors, SolverOverrideThatDoesNotExist) {
    SceneOptions options;
    options.solver = "magic";
    try {
        load_scene_json(test::first_party_plugins(), scene(kSettings, kBob), kData, "bad.json", options);
        FAIL();
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("bad.json: /settings: solver override: unknown solver plugin 'magic'"),
                  std::string::npos)
            << e.what();
    }
}

// Whatever the bytes, an Error or a world: never a crash (a cheap fuzz over
// truncations and byte flips of a full scene).
TEST(SceneErrors, MangledScenesNeverCrash) {
    const std::string good = scene(kSettings, kBob, kHinge);
    for (size_t cut = 0; cut < good.size(); cut += 3) (void)load_error(good.substr(0, cut));
    for (size_t i = 0; i < good.size(); ++i) {
        std::string bad = good;
        bad[i] = static_cast<char>(bad[i] ^ 0x5a);
        (void)load_error(bad);
    }
    const std::string cable = cable_scene(
        rope(R"(, "gauss_points": 3, "attach": [{"node": 0, "body": "world"}, {"node": "last", "body": "bob", "type": "fixed"}])"));
    ASSERT_EQ(load_error(cable), "");
    const size_t from = cable.find("\"cables\"");
    for (size_t i = from; i < cable.size(); ++i) {
        std::string bad = cable;
        bad[i] = static_cast<char>(bad[i] ^ 0x5a);
        (void)load_error(bad);
    }
}

}  // namespace
}  // namespace pivot
