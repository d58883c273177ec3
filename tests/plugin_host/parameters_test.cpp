// Parameter values are validated against the schema and packed in schema
// order; every refusal names the context, the parameter and the range.
#include <cmath>

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "plugin_host/parameters.hpp"

namespace pivot {
namespace {

PluginRecord friction_like() {
    PluginRecord p;
    p.id = "acme.friction.aniso";
    ParamSpec mu;
    mu.name = "mu";
    mu.unit = "1";
    mu.default_value = 0.5;
    mu.min_value = 0;
    mu.max_value = 10;
    ParamSpec direction;
    direction.name = "direction";
    direction.length = 3;
    direction.default_value = 0;
    direction.min_value = -1;
    direction.max_value = 1;
    ParamSpec law;
    law.name = "law";
    law.type = PIVOT_PARAM_ENUM;
    law.choices = {"tanh", "linear"};
    law.max_value = 1;
    ParamSpec iterations;
    iterations.name = "iterations";
    iterations.type = PIVOT_PARAM_INT;
    iterations.default_value = 10;
    iterations.min_value = 1;
    iterations.max_value = 100;
    ParamSpec sticky;
    sticky.name = "sticky";
    sticky.type = PIVOT_PARAM_BOOL;
    sticky.max_value = 1;
    ParamSpec slip;
    slip.name = "slip";
    slip.flags = PIVOT_PARAM_PER_ITEM | PIVOT_PARAM_MIN_EXCLUSIVE;
    slip.default_value = 1;
    slip.min_value = 0;
    slip.max_value = HUGE_VAL;
    p.params = {mu, direction, law, iterations, sticky, slip};
    return p;
}

std::string error_of(const nlohmann::json& values, ParamScope scope = ParamScope::instance) {
    try {
        pack_params(friction_like(), scope, values, "scene.json: materials.ice.friction");
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

TEST(Parameters, DefaultsFillWhatIsNotGivenInSchemaOrder) {
    auto packed = pack_params(friction_like(), ParamScope::instance, nlohmann::json::object(), "ctx");
    EXPECT_EQ(packed, (std::vector<double>{0.5, 0, 0, 0, 0, 10, 0}));
    auto item = pack_params(friction_like(), ParamScope::item, nlohmann::json::object(), "ctx");
    EXPECT_EQ(item, (std::vector<double>{1}));
}

TEST(Parameters, ValuesOfEveryTypeArePacked) {
    nlohmann::json v = {{"mu", 0.8}, {"direction", {1, 0, -1}}, {"law", "linear"}, {"iterations", 42}, {"sticky", true}};
    auto packed = pack_params(friction_like(), ParamScope::instance, v, "ctx");
    EXPECT_EQ(packed, (std::vector<double>{0.8, 1, 0, -1, 1, 42, 1}));
}

TEST(Parameters, RefusalsNameContextParameterAndRange) {
    EXPECT_EQ(error_of({{"mu", 12}}),
              "scene.json: materials.ice.friction.mu: 12 is outside the allowed range [0, 10]");
    EXPECT_EQ(error_of({{"mu", "high"}}),
              "scene.json: materials.ice.friction.mu: expected a number in [0, 10]");
    EXPECT_EQ(error_of({{"law", "cubic"}}),
              "scene.json: materials.ice.friction.law: 'cubic' is not one of tanh, linear");
    EXPECT_EQ(error_of({{"iterations", 2.5}}),
              "scene.json: materials.ice.friction.iterations: expected a whole number, got 2.5");
    EXPECT_EQ(error_of({{"direction", {1, 0}}}),
              "scene.json: materials.ice.friction.direction: expected an array of 3 real values");
    EXPECT_EQ(error_of({{"direction", {1, 0, 2}}}),
              "scene.json: materials.ice.friction.direction[2]: 2 is outside the allowed range [-1, 1]");
    EXPECT_EQ(error_of({{"slip", 0}}, ParamScope::item),
              "scene.json: materials.ice.friction.slip: 0 is outside the allowed range (0, inf)");
    EXPECT_EQ(error_of({{"nu", 1}}),
              "scene.json: materials.ice.friction.nu: 'nu' is not a parameter of plugin 'acme.friction.aniso' "
              "(its parameters: mu, direction, law, iterations, sticky)");
    // A per-item parameter given at instance level is not a parameter there.
    EXPECT_NE(error_of({{"slip", 1}}).find("'slip' is not a parameter"), std::string::npos);
}

TEST(Parameters, IgnoredKeysAreLeftToTheCaller) {
    auto packed = pack_params(friction_like(), ParamScope::instance, {{"model", "box"}, {"mu", 0.1}}, "ctx", {"model"});
    EXPECT_EQ(packed[0], 0.1);
}

TEST(Parameters, CommandLineTextBecomesJson) {
    EXPECT_EQ(parse_param_text("1e-8"), nlohmann::json(1e-8));
    EXPECT_EQ(parse_param_text("true"), nlohmann::json(true));
    EXPECT_EQ(parse_param_text("tanh"), nlohmann::json("tanh"));
    EXPECT_EQ(parse_param_text("[1,0,0]"), nlohmann::json({1, 0, 0}));
}

}  // namespace
}  // namespace pivot
