// Deliberately broken plugins (tests/plugins/broken_*.c) are each refused
// with a message that names the file, the plugin and what is wrong, in words
// a person who has never seen the code can act on. Nothing crashes.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "plugin_host/plugin_registry.hpp"
#include "test_plugins.hpp"

namespace pivot {
namespace {

struct BrokenCase {
    const char* file;                        // in the broken folder, without ".so"
    std::vector<std::string> message_parts;  // all must appear in the one problem
};

std::ostream& operator<<(std::ostream& os, const BrokenCase& c) { return os << c.file; }

class BrokenPlugin : public ::testing::TestWithParam<BrokenCase> {};

TEST_P(BrokenPlugin, IsRefusedWithAReadableMessage) {
    const BrokenCase& c = GetParam();
    const auto path = test::broken_plugin(c.file);
    PluginRegistry registry;
    LoadReport report = registry.load(path);
    EXPECT_EQ(report.plugins_loaded, 0u);
    EXPECT_TRUE(registry.plugins().empty());
    ASSERT_FALSE(report.problems.empty());
    const std::string& message = report.problems.front();
    EXPECT_NE(message.find("plugin file '" + path.string() + "'"), std::string::npos) << message;
    for (const auto& part : c.message_parts) {
        EXPECT_NE(message.find(part), std::string::npos) << "missing \"" << part << "\" in: " << message;
    }
}

INSTANTIATE_TEST_SUITE_P(
    Refused, BrokenPlugin,
    ::testing::Values(
        BrokenCase{"broken_wrong_major", {"built for plugin ABI 2.", "this Pivot uses plugin ABI 1.", "rebuild"}},
        BrokenCase{"broken_descriptor_major",
                   {"plugin 'test.broken.descriptor_major'", "built for plugin ABI 2.", "uses plugin ABI 1."}},
        BrokenCase{"broken_small_struct", {"descriptor #0", "struct_size is 16 bytes", "pivot_plugin_descriptor"}},
        BrokenCase{"broken_small_functions",
                   {"plugin 'test.broken.small_functions'", "pivot_solver_functions.struct_size is 8 bytes"}},
        BrokenCase{"broken_no_entry", {"does not export the entry symbol 'pivot_plugin_entry'", "PIVOT_PLUGIN_ENTRY"}},
        BrokenCase{"broken_entry_null", {"entry function returned NULL", "plugin ABI 1."}},
        BrokenCase{"broken_duplicate_in_library", {"plugin 'test.broken.twice'", "appears twice in this library"}},
        BrokenCase{"broken_bad_id", {"id 'Bad Id!' is not a dotted lowercase name"}},
        BrokenCase{"broken_bad_schema",
                   {"plugin 'test.broken.bad_schema'", "parameter #0 'tolerance'", "min_value 1 is greater than max_value 0"}},
        BrokenCase{"broken_missing_function", {"plugin 'test.broken.missing_solve'", "required function 'solve' is NULL"}},
        BrokenCase{"broken_init_fails", {"its init function failed"}},
        BrokenCase{"not_a_library", {"cannot be loaded as a shared library"}}),
    [](const ::testing::TestParamInfo<BrokenCase>& param) { return std::string(param.param.file); });

TEST(BrokenPlugins, DuplicateIdNamesTheIdBothFilesAndBothVersions) {
    PluginRegistry registry;
    ASSERT_TRUE(registry.load(test::good_plugin("test_solver_pgs_dense")).ok());
    LoadReport report = registry.load(test::broken_plugin("broken_duplicate_id"));
    ASSERT_EQ(report.problems.size(), 1u);
    const std::string& m = report.problems[0];
    const std::vector<std::string> parts = {
        "plugin 'test.solver.pgs_dense' version 9.9.9 was not loaded", "version 1.0.0",
        test::good_plugin("test_solver_pgs_dense").string(), test::broken_plugin("broken_duplicate_id").string()};
    for (const std::string& part : parts) {
        EXPECT_NE(m.find(part), std::string::npos) << "missing \"" << part << "\" in: " << m;
    }
    // The first one stays, untouched.
    ASSERT_NE(registry.find("test.solver.pgs_dense"), nullptr);
    EXPECT_EQ(registry.find("test.solver.pgs_dense")->version, "1.0.0");
}

TEST(BrokenPlugins, AFolderOfBrokenFilesLoadsWhatIsValidAndReportsTheRest) {
    PluginRegistry registry;
    LoadReport report = registry.load(test::broken_plugin_dir());
    // The plugins whose defect shows only when called load fine here.
    for (const char* id : {"test.solver.nan", "test.solver.error", "test.joint.nan", "test.friction.bad_bounds",
                           "test.friction.overflow", "test.element.error"}) {
        EXPECT_NE(registry.find(id), nullptr) << id;
    }
    // Every refused file is reported once, naming itself.
    EXPECT_EQ(report.problems.size(), 12u);
    for (const auto& p : report.problems) EXPECT_EQ(p.rfind("plugin file '", 0), 0u) << p;
}

}  // namespace
}  // namespace pivot
