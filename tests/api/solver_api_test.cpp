// The embedding API's solvers on their own (pivot.h 0.11): an engine with
// only the plugins a tool loads, their descriptions, solver instances solved
// through the host's checked call, and pivot-lcp/1 files. Used as a tool or
// the conformance kit uses them: through <pivot/pivot.h> and libpivot only.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <pivot/lcp_data.hpp>
#include <pivot/pivot.h>

namespace {

struct Engine {
    pivot_engine* engine = nullptr;
    Engine() { EXPECT_EQ(pivot_engine_create_empty(&engine), PIVOT_OK) << pivot_last_error(); }
    ~Engine() { pivot_engine_destroy(engine); }
    void load(const char* file) { ASSERT_EQ(pivot_engine_load_plugins(engine, file), PIVOT_OK) << pivot_last_error(); }
};

struct Solver {
    pivot_solver* solver = nullptr;
    ~Solver() { pivot_solver_destroy(solver); }
};

struct Solve {
    pivot_status status = PIVOT_OK;
    std::vector<double> x, w;
    pivot_solve_report report{};
    pivot_solve_check check{};
};

Solve solve(pivot_solver* solver, const pivot::sdk::LcpData& problem) {
    Solve s;
    s.x.assign(problem.n, 0.0);
    s.w.assign(problem.n, 0.0);
    s.report.struct_size = sizeof(s.report);
    s.check.struct_size = sizeof(s.check);
    const pivot_lcp_problem view = problem.view();
    s.status = pivot_solver_solve(solver, &view, nullptr, s.x.data(), s.w.data(), &s.report, &s.check);
    return s;
}

// A = [2 1; 1 2], b = (-1, -1): both rows active, x = A^-1 (1, 1) = (1/3, 1/3).
pivot::sdk::LcpData two_by_two() {
    pivot::sdk::LcpData p = pivot::sdk::LcpData::standard(2, {2.0, 1.0, 1.0, 2.0}, {-1.0, -1.0});
    p.matrix_properties = PIVOT_MATRIX_SYMMETRIC;
    return p;
}

TEST(SolverApi, an_empty_engine_has_only_the_plugins_it_loads) {
    Engine e;
    EXPECT_EQ(pivot_engine_plugin_count(e.engine), 0u);
    e.load(PIVOT_DANTZIG_PLUGIN);
    ASSERT_EQ(pivot_engine_plugin_count(e.engine), 1u);
    pivot_plugin_info info{};
    ASSERT_EQ(pivot_engine_plugin_info(e.engine, 0, &info), PIVOT_OK) << pivot_last_error();
    EXPECT_EQ(info.struct_size, sizeof(info));
    EXPECT_EQ(info.kind, static_cast<uint32_t>(PIVOT_KIND_SOLVER));
    EXPECT_STREQ(info.id, "pivot.solver.dantzig");
    EXPECT_NE(info.capabilities & PIVOT_SOLVER_CAP_FRICTION_INDEX, 0u);
    EXPECT_NE(std::string(info.file).find("pivot_solver_dantzig"), std::string::npos);
    // The JSON is `pivot plugins --json`'s object: the schema with ranges.
    const char* json = pivot_engine_plugin_json(e.engine, 0);
    ASSERT_NE(json, nullptr) << pivot_last_error();
    const auto description = nlohmann::json::parse(json);
    EXPECT_EQ(description.at("id"), "pivot.solver.dantzig");
    EXPECT_EQ(description.at("parameters").size(), info.param_count);
    EXPECT_EQ(pivot_engine_plugin_json(e.engine, 0), json) << "the same text while the engine lives";

    uint32_t index = 99;
    ASSERT_EQ(pivot_engine_find_plugin(e.engine, PIVOT_KIND_SOLVER, "dantzig", &index), PIVOT_OK);
    EXPECT_EQ(index, 0u);
    // Wrong kind, unknown name, bad index: errors that say what is loaded.
    EXPECT_EQ(pivot_engine_find_plugin(e.engine, PIVOT_KIND_FRICTION, "dantzig", &index), PIVOT_ERROR);
    EXPECT_NE(std::string(pivot_last_error()).find("unknown friction plugin 'dantzig'"), std::string::npos)
        << pivot_last_error();
    EXPECT_EQ(pivot_engine_find_plugin(e.engine, 7, "dantzig", &index), PIVOT_ERROR);
    EXPECT_EQ(pivot_engine_plugin_info(e.engine, 1, &info), PIVOT_ERROR);
    EXPECT_NE(std::string(pivot_last_error()).find("plugin 1 does not exist (1 loaded)"), std::string::npos);
    EXPECT_EQ(pivot_engine_plugin_json(e.engine, 1), nullptr);
    EXPECT_EQ(pivot_engine_plugin_count(nullptr), 0u);
}

TEST(SolverApi, a_solver_solves_through_the_checked_call) {
    Engine e;
    e.load(PIVOT_DANTZIG_PLUGIN);
    Solver s;
    ASSERT_EQ(pivot_solver_create(e.engine, "dantzig", nullptr, &s.solver), PIVOT_OK) << pivot_last_error();
    const Solve r = solve(s.solver, two_by_two());
    ASSERT_EQ(r.status, PIVOT_OK) << pivot_last_error();
    EXPECT_EQ(r.check.returned, PIVOT_OK);
    EXPECT_EQ(r.check.usable, 1u) << r.check.message;
    EXPECT_STREQ(r.check.message, "");
    EXPECT_EQ(r.report.status, static_cast<uint32_t>(PIVOT_SOLVE_CONVERGED));
    // Two pivots of a 2x2 system: exact to a few ulps of 1/3.
    EXPECT_NEAR(r.x[0], 1.0 / 3.0, 1e-15);
    EXPECT_NEAR(r.x[1], 1.0 / 3.0, 1e-15);
    EXPECT_LE(r.check.residual, 1e-15);
    EXPECT_NEAR(r.w[0], 0.0, 1e-15);  // the host's A x + b

    // A clone solves alike; reset is accepted.
    Solver copy;
    ASSERT_EQ(pivot_solver_clone(s.solver, &copy.solver), PIVOT_OK) << pivot_last_error();
    const Solve c = solve(copy.solver, two_by_two());
    EXPECT_EQ(std::memcmp(c.x.data(), r.x.data(), 2 * sizeof(double)), 0);
    EXPECT_EQ(pivot_solver_reset(copy.solver), PIVOT_OK);
    EXPECT_NE(pivot_solver_instance(s.solver), nullptr);
    ASSERT_NE(pivot_solver_plugin_functions(s.solver), nullptr);
    EXPECT_NE(pivot_solver_plugin_functions(s.solver)->solve, nullptr);
}

TEST(SolverApi, bad_parameters_are_refused_naming_the_solver_and_the_parameter) {
    Engine e;
    e.load(PIVOT_DANTZIG_PLUGIN);
    Solver s;
    EXPECT_EQ(pivot_solver_create(e.engine, "dantzig", R"({"no_such_parameter": 1})", &s.solver), PIVOT_ERROR);
    EXPECT_EQ(s.solver, nullptr);
    const std::string message = pivot_last_error();
    EXPECT_NE(message.find("pivot.solver.dantzig"), std::string::npos) << message;
    EXPECT_NE(message.find("no_such_parameter"), std::string::npos) << message;
    EXPECT_EQ(pivot_solver_create(e.engine, "dantzig", "[1, 2]", &s.solver), PIVOT_ERROR);
    EXPECT_NE(std::string(pivot_last_error()).find("not a JSON object"), std::string::npos) << pivot_last_error();
    EXPECT_EQ(pivot_solver_create(e.engine, "dantzig", "{", &s.solver), PIVOT_ERROR);
    EXPECT_EQ(pivot_solver_create(e.engine, "lemke", nullptr, &s.solver), PIVOT_ERROR) << "not loaded";
}

TEST(SolverApi, an_invalid_problem_reaches_the_plugin_which_must_refuse_it) {
    Engine e;
    e.load(PIVOT_DANTZIG_PLUGIN);
    e.load(PIVOT_TEST_PGS_DENSE_PLUGIN);
    pivot::sdk::LcpData nan_b = two_by_two();
    nan_b.b[1] = std::nan("");
    // Dantzig refuses it: the call is made, the answer is not usable.
    Solver dantzig;
    ASSERT_EQ(pivot_solver_create(e.engine, "dantzig", nullptr, &dantzig.solver), PIVOT_OK);
    const Solve refused = solve(dantzig.solver, nan_b);
    EXPECT_EQ(refused.status, PIVOT_OK) << pivot_last_error();
    EXPECT_EQ(refused.check.returned, PIVOT_ERROR);
    EXPECT_EQ(refused.report.status, static_cast<uint32_t>(PIVOT_SOLVE_INVALID_PROBLEM));
    EXPECT_EQ(refused.check.usable, 0u);
    EXPECT_TRUE(std::isinf(refused.check.residual));
    // The test solver accepts b = +inf (tests/conformance/test_pgs_dense.expect):
    // what it returned is told, and the answer is not usable.
    pivot::sdk::LcpData inf_b = two_by_two();
    inf_b.b[0] = HUGE_VAL;
    Solver pgs;
    ASSERT_EQ(pivot_solver_create(e.engine, "test.solver.pgs_dense", nullptr, &pgs.solver), PIVOT_OK);
    const Solve accepted = solve(pgs.solver, inf_b);
    EXPECT_EQ(accepted.status, PIVOT_OK) << pivot_last_error();
    EXPECT_NE(accepted.check.returned, PIVOT_ERROR);
    EXPECT_EQ(accepted.check.usable, 0u);
    EXPECT_NE(std::string(accepted.check.message).find("for an invalid problem (b[0] = inf is not finite)"),
              std::string::npos)
        << accepted.check.message;
}

TEST(SolverApi, a_broken_answer_is_not_usable_and_says_why) {
    Engine e;
    e.load(PIVOT_BROKEN_SOLVER_NAN_PLUGIN);
    Solver s;
    ASSERT_EQ(pivot_solver_create(e.engine, "test.solver.nan", nullptr, &s.solver), PIVOT_OK) << pivot_last_error();
    const Solve r = solve(s.solver, two_by_two());
    EXPECT_EQ(r.status, PIVOT_OK) << pivot_last_error();
    EXPECT_EQ(r.check.returned, PIVOT_OK) << "the plugin claims success";
    EXPECT_EQ(r.check.usable, 0u);
    EXPECT_NE(std::string(r.check.message).find("test.solver.nan"), std::string::npos) << r.check.message;
}

TEST(SolverApi, incomplete_calls_are_errors_not_crashes) {
    Engine e;
    e.load(PIVOT_DANTZIG_PLUGIN);
    Solver s;
    ASSERT_EQ(pivot_solver_create(e.engine, "dantzig", nullptr, &s.solver), PIVOT_OK);
    const pivot::sdk::LcpData p = two_by_two();
    pivot_lcp_problem view = p.view();
    std::vector<double> x(2);
    pivot_solve_report report{};
    report.struct_size = sizeof(report);
    pivot_solve_check check{};
    check.struct_size = sizeof(check);
    view.b = nullptr;
    EXPECT_EQ(pivot_solver_solve(s.solver, &view, nullptr, x.data(), nullptr, &report, &check), PIVOT_ERROR);
    EXPECT_NE(std::string(pivot_last_error()).find("b, lo and hi must be given"), std::string::npos);
    view = p.view();
    view.dense = nullptr;
    EXPECT_EQ(pivot_solver_solve(s.solver, &view, nullptr, x.data(), nullptr, &report, &check), PIVOT_ERROR);
    view = p.view();
    view.struct_size = 8;
    EXPECT_EQ(pivot_solver_solve(s.solver, &view, nullptr, x.data(), nullptr, &report, &check), PIVOT_ERROR);
    view = p.view();
    EXPECT_EQ(pivot_solver_solve(s.solver, &view, nullptr, nullptr, nullptr, &report, &check), PIVOT_ERROR);
    check.struct_size = 0;
    EXPECT_EQ(pivot_solver_solve(s.solver, &view, nullptr, x.data(), nullptr, &report, &check), PIVOT_ERROR);
    EXPECT_EQ(pivot_solver_solve(nullptr, &view, nullptr, x.data(), nullptr, &report, &check), PIVOT_ERROR);
    pivot_solver* none = nullptr;
    EXPECT_EQ(pivot_solver_create(nullptr, "dantzig", nullptr, &none), PIVOT_ERROR);
    EXPECT_EQ(pivot_solver_clone(nullptr, &none), PIVOT_ERROR);
    EXPECT_EQ(none, nullptr);
    EXPECT_EQ(pivot_solver_reset(nullptr), PIVOT_ERROR);
    pivot_solver_destroy(nullptr);
    EXPECT_EQ(pivot_solver_instance(nullptr), nullptr);
}

TEST(SolverApi, an_engine_is_kept_while_its_solvers_live) {
    pivot_engine* engine = nullptr;
    ASSERT_EQ(pivot_engine_create_empty(&engine), PIVOT_OK);
    ASSERT_EQ(pivot_engine_load_plugins(engine, PIVOT_DANTZIG_PLUGIN), PIVOT_OK);
    pivot_solver* solver = nullptr;
    ASSERT_EQ(pivot_solver_create(engine, "dantzig", nullptr, &solver), PIVOT_OK);
    pivot_engine_destroy(engine);  // logged and kept: the solver still works
    const Solve r = solve(solver, two_by_two());
    EXPECT_EQ(r.check.usable, 1u);
    pivot_solver_destroy(solver);
    pivot_engine_destroy(engine);
}

TEST(SolverApi, a_problem_file_reads_as_the_cli_reads_it) {
    pivot_lcp* lcp = nullptr;
    ASSERT_EQ(pivot_lcp_read_file(PIVOT_TEST_DATA_DIR "/lcp-bench/lcp_nc010_fric.txt", &lcp), PIVOT_OK)
        << pivot_last_error();
    const pivot_lcp_problem* p = pivot_lcp_problem_of(lcp);
    ASSERT_NE(p, nullptr);
    // 10 contacts: a normal row and two friction rows each.
    EXPECT_EQ(p->n, 30u);
    ASSERT_NE(p->findex, nullptr);
    EXPECT_EQ(p->findex[1], 0);
    const pivot::sdk::LcpData copy = pivot::sdk::LcpData::copy_of(*p);
    EXPECT_EQ(copy.dense.size(), 900u);
    EXPECT_EQ(copy.b[29], p->b[29]);
    pivot_lcp_destroy(lcp);
    pivot_lcp_destroy(nullptr);

    EXPECT_EQ(pivot_lcp_read_file(PIVOT_TEST_DATA_DIR "/no_such_file.txt", &lcp), PIVOT_ERROR);
    EXPECT_NE(std::string(pivot_last_error()).find("no_such_file.txt"), std::string::npos) << pivot_last_error();
    EXPECT_EQ(lcp, nullptr);
}

}  // namespace
