// Parameter roles and joint frames (plugin ABI 1.6) as the host reads them
// from a descriptor (descriptor_validation.cpp): a role from bits 16..23 of
// the flags for a 1.6 plugin, from the old first-party names for an older
// one; what a role needs (per item, length 1, BOOL for the two switches,
// ENUM for the motor mode, REAL for the rest; one parameter per role); a
// frames value that is a
// pivot_joint_frames. The descriptors are built here; nothing is called.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "plugin_host/descriptor_validation.hpp"

namespace pivot {
namespace {

pivot_status create(const pivot_host*, const double*, uint32_t, void** out) {
    *out = nullptr;
    return PIVOT_ERROR;
}
void destroy(void*) {}
pivot_status rows(const void*, const pivot_joint_batch*, const pivot_step_info*, pivot_row*, double*, uint32_t*) {
    return PIVOT_ERROR;
}

pivot_param_info param(const char* name, uint32_t type, uint32_t flags) {
    return pivot_param_info{sizeof(pivot_param_info), type, 1, flags, name, "", "test", 0.0, -HUGE_VAL, HUGE_VAL,
                            nullptr, 0, 0};
}

// A joint plugin "test.joint.schema" declared for ABI 1.`minor` with `params`
// and `frames`, validated as a library of its own.
ValidatedLibrary validate_joint(uint32_t minor, const std::vector<pivot_param_info>& params, uint32_t frames = 0) {
    static pivot_joint_functions functions{};
    functions = pivot_joint_functions{};
    functions.struct_size = sizeof(functions);
    functions.max_rows_per_joint = 1;
    functions.instance.create = create;
    functions.instance.destroy = destroy;
    functions.rows = rows;
    functions.frames = frames;
    static pivot_plugin_descriptor descriptor{};
    descriptor = pivot_plugin_descriptor{sizeof(pivot_plugin_descriptor),
                                         PIVOT_ABI_MAJOR,
                                         minor,
                                         PIVOT_KIND_JOINT,
                                         "test.joint.schema",
                                         "schema test",
                                         "Pivot tests",
                                         "1.0.0",
                                         "a joint whose schema is under test",
                                         0,
                                         params.data(),
                                         static_cast<uint32_t>(params.size()),
                                         0,
                                         &functions};
    static const pivot_plugin_descriptor* list[1];
    list[0] = &descriptor;
    static pivot_plugin_library library{};
    library = pivot_plugin_library{sizeof(pivot_plugin_library), PIVOT_ABI_MAJOR, PIVOT_ABI_MINOR, 1, list,
                                   nullptr, nullptr};
    return validate_library(&library);
}

bool has_problem(const ValidatedLibrary& v, const std::string& part) {
    for (const std::string& p : v.problems) {
        if (p.find(part) != std::string::npos) return true;
    }
    return false;
}

constexpr uint32_t kItem = PIVOT_PARAM_PER_ITEM;

TEST(ParameterRoles, AreReadFromTheFlagsWhateverTheNames) {
    const ValidatedLibrary v = validate_joint(
        6, {param("softness", PIVOT_PARAM_REAL, kItem | PIVOT_PARAM_ROLE(PIVOT_ROLE_COMPLIANCE)),
            param("use_drive", PIVOT_PARAM_BOOL, kItem | PIVOT_PARAM_ROLE(PIVOT_ROLE_MOTOR_ENABLED)),
            param("compliance", PIVOT_PARAM_REAL, kItem)},  // the old name, no role bits: no role in 1.6
        PIVOT_JOINT_FRAMES_AXIS);
    ASSERT_TRUE(v.problems.empty()) << v.problems.front();
    const std::vector<ParamSpec>& params = v.plugins.at(0).params;
    EXPECT_EQ(param_with_role(params, PIVOT_ROLE_COMPLIANCE)->name, "softness");
    EXPECT_EQ(param_with_role(params, PIVOT_ROLE_MOTOR_ENABLED)->name, "use_drive");
    EXPECT_EQ(item_offset_of_role(params, PIVOT_ROLE_MOTOR_ENABLED), 1u);
    EXPECT_EQ(params[2].role, static_cast<uint32_t>(PIVOT_ROLE_NONE));
    EXPECT_EQ(v.plugins.at(0).joint.frames, static_cast<uint32_t>(PIVOT_JOINT_FRAMES_AXIS));
}

TEST(ParameterRoles, BeforeABI16TheyComeFromTheOldNames) {
    const ValidatedLibrary v = validate_joint(5, {param("motor_velocity", PIVOT_PARAM_REAL, kItem),
                                                  param("lower", PIVOT_PARAM_BOOL, kItem),  // not a REAL: no role
                                                  param("length", PIVOT_PARAM_REAL, kItem)});
    ASSERT_TRUE(v.problems.empty()) << v.problems.front();
    const std::vector<ParamSpec>& params = v.plugins.at(0).params;
    EXPECT_EQ(params[0].role, static_cast<uint32_t>(PIVOT_ROLE_MOTOR_VELOCITY));
    EXPECT_EQ(params[1].role, static_cast<uint32_t>(PIVOT_ROLE_NONE));
    EXPECT_EQ(params[2].role, static_cast<uint32_t>(PIVOT_ROLE_REST_LENGTH));
}

TEST(ParameterRoles, AreRefusedWhenTheyCannotBeMet) {
    EXPECT_TRUE(has_problem(validate_joint(6, {param("x", PIVOT_PARAM_REAL, kItem | PIVOT_PARAM_ROLE(42))}),
                            "parameter #0: role 42 is not a pivot_param_role"));
    EXPECT_TRUE(has_problem(
        validate_joint(6, {param("on", PIVOT_PARAM_REAL, kItem | PIVOT_PARAM_ROLE(PIVOT_ROLE_MOTOR_ENABLED))}),
        "role 6 needs a per-item BOOL parameter of length 1"));
    EXPECT_TRUE(has_problem(
        validate_joint(6, {param("c", PIVOT_PARAM_REAL, PIVOT_PARAM_ROLE(PIVOT_ROLE_COMPLIANCE))}),  // per instance
        "role 1 needs a per-item REAL parameter of length 1"));
    EXPECT_TRUE(has_problem(
        validate_joint(6, {param("a", PIVOT_PARAM_REAL, kItem | PIVOT_PARAM_ROLE(PIVOT_ROLE_DAMPING)),
                           param("b", PIVOT_PARAM_REAL, kItem | PIVOT_PARAM_ROLE(PIVOT_ROLE_DAMPING))}),
        "parameter 'b': another parameter has role 2"));
    EXPECT_TRUE(has_problem(validate_joint(6, {}, 9), "frames 9 is not a pivot_joint_frames"));
}

// ABI 1.7: the drive roles. The mode is an ENUM (its choices in
// pivot_motor_mode order); the others are REAL. A 1.6 plugin cannot have
// them (they did not exist); a plugin newer than the host may have roles
// the host does not know, which it ignores.
TEST(ParameterRoles, DriveRolesOfABI17) {
    static const char* const modes[] = {"velocity", "position"};
    pivot_param_info mode = param("drive", PIVOT_PARAM_ENUM, kItem | PIVOT_PARAM_ROLE(PIVOT_ROLE_MOTOR_MODE));
    mode.choices = modes;
    mode.choice_count = 2;
    mode.max_value = 1;
    const ValidatedLibrary v = validate_joint(
        7, {mode, param("goal", PIVOT_PARAM_REAL, kItem | PIVOT_PARAM_ROLE(PIVOT_ROLE_MOTOR_POSITION)),
            param("k", PIVOT_PARAM_REAL, kItem | PIVOT_PARAM_ROLE(PIVOT_ROLE_MOTOR_STIFFNESS)),
            param("d", PIVOT_PARAM_REAL, kItem | PIVOT_PARAM_ROLE(PIVOT_ROLE_MOTOR_DAMPING)),
            param("push", PIVOT_PARAM_REAL, kItem | PIVOT_PARAM_ROLE(PIVOT_ROLE_MOTOR_FORCE))});
    ASSERT_TRUE(v.problems.empty()) << v.problems.front();
    const std::vector<ParamSpec>& params = v.plugins.at(0).params;
    EXPECT_EQ(param_with_role(params, PIVOT_ROLE_MOTOR_MODE)->name, "drive");
    EXPECT_EQ(param_with_role(params, PIVOT_ROLE_MOTOR_FORCE)->name, "push");
    EXPECT_TRUE(has_problem(
        validate_joint(7, {param("m", PIVOT_PARAM_REAL, kItem | PIVOT_PARAM_ROLE(PIVOT_ROLE_MOTOR_MODE))}),
        "role 10 needs a per-item ENUM parameter of length 1"));
    EXPECT_TRUE(has_problem(
        validate_joint(6, {param("k", PIVOT_PARAM_REAL, kItem | PIVOT_PARAM_ROLE(PIVOT_ROLE_MOTOR_STIFFNESS))}),
        "role 12 is not a pivot_param_role of ABI 1.6"));
    const ValidatedLibrary newer =
        validate_joint(PIVOT_ABI_MINOR + 1, {param("x", PIVOT_PARAM_REAL, kItem | PIVOT_PARAM_ROLE(200))});
    ASSERT_TRUE(newer.problems.empty()) << newer.problems.front();
    EXPECT_EQ(newer.plugins.at(0).params[0].role, static_cast<uint32_t>(PIVOT_ROLE_NONE));
}

}  // namespace
}  // namespace pivot
