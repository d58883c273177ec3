// `pivot plugins`, `--json` and `--probe` as docs/cli.md fixes
// them: exit 0 on success, 1 on a user error with a one-line message naming
// the file, 2 on a usage error.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run_command.hpp"

namespace pivot {
namespace {

using test::run_command;

const std::string kPivot = PIVOT_EXE;
const std::string kGood = PIVOT_TEST_GOOD_DIR;
const std::string kBroken = PIVOT_TEST_BROKEN_DIR;
const std::string kCrash = PIVOT_TEST_CRASH_DIR;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(CliPlugins, JsonListsEveryPluginWithTheContractKeys) {
    auto r = run_command(kPivot + " plugins --json --plugins " + kGood);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto list = nlohmann::json::parse(r.out);
    ASSERT_TRUE(list.is_array());
    int test_plugins = 0;
    for (const auto& p : list) {
        for (const char* key : {"kind", "id", "version", "abi", "file", "parameters"}) {
            EXPECT_TRUE(p.contains(key)) << key << " missing in " << p.dump();
        }
        if (p["id"].get<std::string>().rfind("test.", 0) == 0) ++test_plugins;
    }
    EXPECT_EQ(test_plugins, 7);
    // A parameter schema as the user sees it.
    for (const auto& p : list) {
        if (p["id"] != "test.friction.box") continue;
        ASSERT_EQ(p["parameters"].size(), 1u);
        const auto& mu = p["parameters"][0];
        EXPECT_EQ(mu["name"], "mu");
        EXPECT_EQ(mu["default"], 0.5);
        EXPECT_EQ(mu["min"], 0.0);
        EXPECT_EQ(mu["max"], 10.0);
        EXPECT_EQ(p["kind"], "friction");
        EXPECT_EQ(p["abi"].get<std::string>().rfind("1.", 0), 0u) << p["abi"];  // major 1, any minor
    }
}

TEST(CliPlugins, EnvironmentPluginPathIsSearched) {
    auto r = run_command("PIVOT_PLUGIN_PATH=/nonexistent:" + kGood + " " + kPivot + " plugins --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "\"test.solver.pgs_dense\"")) << r.out;
}

TEST(CliPlugins, TextListingShowsKindIdVersionAbiAndParameters) {
    auto r = run_command(kPivot + " plugins --plugins " + kGood);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "friction  test.friction.box")) << r.out;
    EXPECT_TRUE(contains(r.out, "abi 1.")) << r.out;
    EXPECT_TRUE(contains(r.out, "mu = 0.5")) << r.out;
}

TEST(CliPlugins, ProbeOfAGoodFileSucceeds) {
    auto r = run_command(kPivot + " plugins --probe " + kGood + "/test_friction_box.so");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "provides 3 plugin(s)")) << r.out;
}

TEST(CliPlugins, ProbeReportsAnAbiMismatchOnOneLine) {
    const std::string file = kBroken + "/broken_wrong_major.so";
    auto r = run_command(kPivot + " plugins --probe " + file);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_TRUE(contains(r.err, "plugin file '" + file + "': it was built for plugin ABI 2.")) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line expected: " << r.err;
}

TEST(CliPlugins, ProbeReportsAMissingEntrySymbolAsJson) {
    auto r = run_command(kPivot + " plugins --probe " + kBroken + "/broken_no_entry.so --json");
    EXPECT_EQ(r.exit_code, 1);
    const auto report = nlohmann::json::parse(r.out);
    EXPECT_EQ(report["ok"], false);
    ASSERT_EQ(report["problems"].size(), 1u);
    EXPECT_TRUE(contains(report["problems"][0], "does not export the entry symbol 'pivot_plugin_entry'"));
}

TEST(CliPlugins, ProbeSurvivesAPluginThatCrashesWhileLoading) {
    const std::string file = kCrash + "/broken_entry_crashes.so";
    auto r = run_command(kPivot + " plugins --probe " + file);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_TRUE(contains(r.err, "plugin file '" + file + "': crashed while being loaded")) << r.err;
}

TEST(CliPlugins, ProbeGivesUpOnAPluginThatNeverFinishesLoading) {
    const std::string file = kCrash + "/broken_entry_hangs.so";
    auto r = run_command(kPivot + " plugins --probe " + file + " --timeout 0.5");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_TRUE(contains(r.err, "plugin file '" + file + "': did not finish loading within 0.5 s")) << r.err;
    EXPECT_EQ(run_command(kPivot + " plugins --probe " + file + " --timeout 0").exit_code, 2);
    EXPECT_EQ(run_command(kPivot + " plugins --probe " + file + " --timeout x").exit_code, 2);
}

TEST(CliPlugins, AnExplicitBrokenPluginPathIsAUserError) {
    auto r = run_command(kPivot + " plugins --plugins " + kBroken + "/broken_bad_id.so");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_TRUE(contains(r.err, "id 'Bad Id!' is not a dotted lowercase name")) << r.err;
}

TEST(CliPlugins, UsageErrorsExitWithTwo) {
    EXPECT_EQ(run_command(kPivot + " plugins --frobnicate").exit_code, 2);
    EXPECT_EQ(run_command(kPivot + " plugins --log-level loud").exit_code, 2);
    EXPECT_EQ(run_command(kPivot + " plugins --probe").exit_code, 2);
    EXPECT_EQ(run_command(kPivot + " no-such-command").exit_code, 2);
    EXPECT_EQ(run_command(kPivot).exit_code, 2);
}

TEST(CliPlugins, HelpExitsWithZero) {
    auto r = run_command(kPivot + " plugins --help");
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_TRUE(contains(r.out, "usage: pivot plugins")) << r.out;
}

}  // namespace
}  // namespace pivot
