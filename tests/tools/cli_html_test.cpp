// `pivot run --html` (docs/viewer.md): the replay embedded in the page is
// the run (the scene's geometry, a frame per kept step with the world's
// state, the series and the summary), its text cannot end the page's
// script element early, and the options and a missing page fail as
// docs/cli.md says. A stand-in page (PIVOT_VIEWER_PAGE) keeps this test
// independent of the browser page's build; tests/viewer opens the real one.
#include <cmath>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run_command.hpp"

namespace pivot {
namespace {

using test::read_file;
using test::run_command;

const std::string kPivot = PIVOT_EXE;
const std::string kExamples = PIVOT_EXAMPLE_SCENES_DIR;
const std::string kOpen = R"(<script id="pivot-replay" type="application/json">)";

std::string temp(const std::string& name) { return ::testing::TempDir() + "cli_html_" + name; }

// A page with the marker, which its script also names (as the real one does).
std::string stand_in_page() {
    const std::string page = temp("page.html");
    std::ofstream(page) << "<html><script>const live = \"__PIVOT_REPLAY__\";</script>\n"
                        << kOpen << "__PIVOT_REPLAY__</script></html>\n";
    return page;
}

std::string run_html(const std::string& scene, const std::string& options, const std::string& out) {
    const auto r = run_command("PIVOT_VIEWER_PAGE=" + stand_in_page() + " " + kPivot + " run " + scene +
                               " --quiet --html " + out + " " + options);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return read_file(out);
}

nlohmann::json replay_of(const std::string& page) {
    const size_t at = page.find(kOpen);
    EXPECT_NE(at, std::string::npos);
    const size_t begin = at + kOpen.size();
    const size_t end = page.find("</script>", begin);
    return nlohmann::json::parse(page.substr(begin, end - begin));
}

TEST(CliHtml, TheReplayHoldsTheSceneAndAFramePerStep) {
    const std::string page = run_html(kExamples + "/crane.json", "--duration 1", temp("crane.html"));
    // The script's own mention of the marker is kept; the element's is replaced.
    EXPECT_NE(page.find("const live = \"__PIVOT_REPLAY__\""), std::string::npos);
    const nlohmann::json r = replay_of(page);
    EXPECT_EQ(r["format"], "pivot-replay/1");
    EXPECT_EQ(r["up"], nlohmann::json({0.0, 0.0, 1.0}));
    ASSERT_EQ(r["bodies"].size(), 3u);
    EXPECT_EQ(r["bodies"][0]["name"], "turret");
    ASSERT_EQ(r["bodies"][0]["shapes"].size(), 3u);
    EXPECT_EQ(r["bodies"][0]["shapes"][1]["size"], nlohmann::json({8.0, 0.4, 0.4}));
    EXPECT_EQ(r["static_shapes"][0]["type"], "plane");
    EXPECT_EQ(r["joints"][0]["name"], "slew");
    // h = 1/60 s and 60 frames per second: the initial state and every step.
    const nlohmann::json& frames = r["frames"];
    ASSERT_EQ(frames.size(), 61u);
    // Frame 0 is the scene as written (7 significant digits are kept).
    const std::vector<double> turret = {0.0516129, 0, 4.559677, 1, 0, 0, 0};
    for (size_t k = 0; k < 7; ++k) EXPECT_EQ(frames[0]["bodies"][k].get<double>(), turret[k]) << k;
    EXPECT_NEAR(frames[60]["t"].get<double>(), 1.0, 1e-12);
    // The slew motor turns the turret at 0.2 rad/s from rest (motor limit
    // 5000 N m against 11502 kg m^2 about z: it reaches the speed within
    // 0.5 s), so after 1 s the coordinate lies between 0.1 and 0.2 rad.
    const double slew = frames[60]["joints"][0].get<double>();
    EXPECT_GT(slew, 0.1);
    EXPECT_LE(slew, 0.2 + 1e-6);
    // The load rests on the ground: touching contacts with their normal forces.
    const nlohmann::json& contacts = frames[60]["contacts"];
    ASSERT_EQ(contacts.size() % 7, 0u);
    ASSERT_GE(contacts.size(), 7u);
    double normal_force = 0.0;
    for (size_t k = 6; k < contacts.size(); k += 7) normal_force += contacts[k].get<double>();
    EXPECT_NEAR(normal_force, 500 * 9.81, 0.01 * 500 * 9.81);  // the load's weight, within 1 % (it settles)
    for (const char* series : {"time", "energy", "joint_error", "penetration", "solver_iterations",
                               "solver_residual", "step_time_us"}) {
        EXPECT_EQ(r["series"][series].size(), frames.size()) << series;
    }
    EXPECT_EQ(r["summary"]["steps"], 60);
}

TEST(CliHtml, FramesPerSecondAndTheFrameCapThinTheFrames) {
    // 60 steps of 1/60 s: 10 per second keeps every 6th step; a cap of 5
    // frames (the first included) every 15th; the last step is always kept.
    EXPECT_EQ(replay_of(run_html(kExamples + "/crane.json", "--duration 1 --html-fps 10", temp("fps.html")))["frames"]
                  .size(),
              11u);
    const auto capped = replay_of(run_html(kExamples + "/crane.json", "--duration 1 --html-frames 5", temp("cap.html")));
    EXPECT_EQ(capped["frames"].size(), 5u);
    // 7 steps with a frame every 6th: steps 6 and 7.
    EXPECT_EQ(replay_of(run_html(kExamples + "/crane.json", "--steps 7 --html-fps 10", temp("last.html")))["frames"]
                  .size(),
              3u);
}

TEST(CliHtml, CablesAndNamesThatCouldEndTheScript) {
    // A body named "</script>" would end the element: every '<' is written \u003c.
    std::string scene = read_file(kExamples + "/cable_crane.json");
    const std::string hook = R"("name": "hook")";
    scene.replace(scene.find(hook), hook.size(), R"("name": "</script><b>hook")");
    const size_t rigging = scene.find(R"("body1": "hook")");
    scene.replace(rigging, std::string(R"("body1": "hook")").size(), R"("body1": "</script><b>hook")");
    const std::string attach = R"("body": "hook")";
    scene.replace(scene.find(attach), attach.size(), R"("body": "</script><b>hook")");
    const std::string file = temp("tricky.json");
    std::ofstream(file) << scene;
    const std::string page = run_html(file, "--steps 3", temp("tricky.html"));
    EXPECT_EQ(page.find("</script><b>"), std::string::npos);
    const nlohmann::json r = replay_of(page);
    EXPECT_EQ(r["bodies"][1]["name"], "</script><b>hook");
    ASSERT_EQ(r["cables"].size(), 1u);
    EXPECT_EQ(r["cables"][0]["radius"], 0.01);
    const auto nodes = r["cables"][0]["nodes"].get<size_t>();
    EXPECT_EQ(nodes, 17u);
    EXPECT_EQ(r["frames"][0]["cables"][0].size(), 3 * nodes);
    // The wire's first node hangs at its start (8, 0, 1.85).
    EXPECT_EQ(r["frames"][0]["cables"][0][2].get<double>(), 1.85);
}

TEST(CliHtml, OptionsAndAMissingPageFailAsDocumented) {
    auto r = run_command(kPivot + " run " + kExamples + "/crane.json --html-fps 10");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--html-fps and --html-frames need --html"), std::string::npos) << r.err;
    r = run_command(kPivot + " run " + kExamples + "/crane.json --html x.html --html-fps 0");
    EXPECT_EQ(r.exit_code, 2);
    r = run_command(kPivot + " run " + kExamples + "/crane.json --html x.html --html-frames 1");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--html-frames needs at least 2"), std::string::npos) << r.err;
    r = run_command("PIVOT_VIEWER_PAGE=" + temp("no_such_page.html") + " " + kPivot + " run " + kExamples +
                    "/crane.json --html " + temp("never.html"));
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("no_such_page.html: the viewer page is missing"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace pivot
