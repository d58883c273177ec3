// `pivot lcp solve` as docs/cli.md fixes it: the solution one number per line, the
// report JSON with status/iterations/residual/time_us, exit codes.
#include <cmath>
#include <iterator>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run_command.hpp"

namespace pivot {
namespace {

using test::run_command;

const std::string kPivot = PIVOT_EXE;
const std::string kGood = PIVOT_TEST_GOOD_DIR;

std::string write_temp(const std::string& name, const std::string& text) {
    const std::string path = ::testing::TempDir() + name;
    std::ofstream(path) << text;
    return path;
}

// 3 rows: a normal row and two friction rows (mu = 0.5), SPD.
const char* kProblem =
    "pivot-lcp/1\n3\n4 1 0\n1 3 0.5\n0 0.5 2\n-2 1 -3\n0 -0.5 -0.5\ninf 0.5 0.5\n-1 0 0\n";

TEST(CliLcp, SolvesAndWritesSolutionAndReport) {
    const std::string problem = write_temp("p.txt", kProblem);
    const std::string out = ::testing::TempDir() + "x.txt";
    const std::string report = ::testing::TempDir() + "r.json";
    auto r = run_command(kPivot + " lcp solve " + problem + " --solver test.solver.pgs_dense --plugins " + kGood +
                         " --tolerance 1e-13 --accept 1e-12 --out " + out + " --report " + report);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::ifstream xin(out);
    std::vector<double> x((std::istream_iterator<double>(xin)), std::istream_iterator<double>());
    ASSERT_EQ(x.size(), 3u);
    // The normal row is active with friction at its bound: w0 = 0.
    EXPECT_NEAR(4 * x[0] + x[1] - 2, 0.0, 1e-12);
    EXPECT_LE(std::abs(x[1]), 0.5 * x[0] + 1e-12);
    std::ifstream rin(report);
    const auto j = nlohmann::json::parse(rin);
    EXPECT_EQ(j["status"], "converged");
    EXPECT_LE(j["residual"].get<double>(), 1e-12);
    EXPECT_GT(j["iterations"].get<int>(), 0);
    EXPECT_TRUE(j.contains("time_us"));
}

TEST(CliLcp, UnsolvedProblemExitsWithOneAndSaysWhy) {
    const std::string problem = write_temp("p2.txt", kProblem);
    const std::string report = ::testing::TempDir() + "r2.json";
    auto r = run_command(kPivot + " lcp solve " + problem + " --solver test.solver.pgs_dense --plugins " + kGood +
                         " --max-iterations 1 --accept 1e-12 --report " + report);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("not solved: solver 'test.solver.pgs_dense' stopped (max_iterations)"), std::string::npos)
        << r.err;
    std::ifstream rin(report);
    EXPECT_EQ(nlohmann::json::parse(rin)["status"], "failed");
}

TEST(CliLcp, BadFileNamesLineAndField) {
    const std::string problem = write_temp("bad.txt", "pivot-lcp/1\n1\nabc\n");
    auto r = run_command(kPivot + " lcp solve " + problem + " --solver test.solver.pgs_dense --plugins " + kGood);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find(problem + ":3: A(0, 0): 'abc' is not a finite number"), std::string::npos) << r.err;
}

TEST(CliLcp, UnknownSolverAndOptionAreUserErrors) {
    const std::string problem = write_temp("p3.txt", kProblem);
    auto r = run_command(kPivot + " lcp solve " + problem + " --solver nope --plugins " + kGood);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("unknown solver plugin 'nope'"), std::string::npos) << r.err;
    r = run_command(kPivot + " lcp solve " + problem + " --solver test.solver.pgs_dense --plugins " + kGood +
                    " --option omega=1.2");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("'omega' is not a parameter of plugin 'test.solver.pgs_dense'"), std::string::npos) << r.err;
}

TEST(CliLcp, UsageErrorsExitWithTwo) {
    EXPECT_EQ(run_command(kPivot + " lcp").exit_code, 2);
    EXPECT_EQ(run_command(kPivot + " lcp solve").exit_code, 2);
    EXPECT_EQ(run_command(kPivot + " lcp solve p.txt").exit_code, 2);  // no --solver
    EXPECT_EQ(run_command(kPivot + " lcp solve p.txt --solver pgs --tolerance abc").exit_code, 2);
}

}  // namespace
}  // namespace pivot
