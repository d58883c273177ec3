// throwaway timing harness for pivot.solver.pgs
#include <chrono>
#include <cstdio>
#include "solver_test_support.hpp"
using namespace pivot;
int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    nlohmann::json params = nlohmann::json::object();
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) { std::string a = argv[i]; auto eq = a.find('='); if (eq != std::string::npos) params[a.substr(0, eq)] = nlohmann::json::parse(a.substr(eq + 1)); else files.push_back(a); }
    for (auto& f : files) {
        LcpProblem p = read_lcp_file(f); p.make_sparse(); p.dense.clear();
        PluginInstance s = test::make_solver("pivot.solver.pgs", params);
        double best = 1e9; test::Solution sol;
        for (int rep = 0; rep < (getenv("REPS")?atoi(getenv("REPS")):7); ++rep) { auto t0 = std::chrono::steady_clock::now(); sol = test::solve(s, p); double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); best = std::min(best, t); }
        std::printf("%-40s n=%4u status %u sweeps %5u residual %.3g host %.3g  best %.3f ms  %s\n", f.substr(f.rfind('/') + 1).c_str(), p.n, sol.report.status, sol.report.iterations, sol.report.residual, sol.result.residual, best * 1e3, sol.result.message.c_str());
    }
}
