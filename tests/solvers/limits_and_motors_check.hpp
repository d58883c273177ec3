#pragma once
// The check the solvers that read the factored form share (direct, newton,
// velocity_pgs): a tree of joints with limits and motors
// (set_limits_and_motors) solved by the solver under test and by Dantzig
// on the same A assembled dense. A is positive definite (random mass
// blocks, FactoredTestProblem), so the problem has one solution; both
// answers within 1e-10 of it in the natural map are within cond(A) * 1e-10
// <= 1e-7 of each other (`tolerance`: at most that).
#include <cstdint>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "factored_test_problem.hpp"
#include "solver_test_support.hpp"

namespace pivot::test {

// The problem of `seed` (15 rows on 5 bodies, diagonal d on every row) with
// its bounds: a FactoredTestProblem the caller keeps (warm starts).
inline std::unique_ptr<FactoredTestProblem> limits_and_motors_problem(uint32_t seed, double d) {
    auto t = std::make_unique<FactoredTestProblem>(std::vector<uint32_t>{6, 6, 6, 6, 6}, tree_rows(seed),
                                                   std::vector<double>(15, d), seed);
    t->p.b = random_values(15, seed + 50);
    set_limits_and_motors(t->p);  // boxes, one-sided bounds, a fixed row
    return t;
}

// Solves `t` with `solver` (natural-map residual <= 1e-10) and checks it
// against Dantzig's answer within `tolerance`; returns the solver's answer.
inline Solution expect_the_answer_of_dantzig(const PluginInstance& solver, const FactoredTestProblem& t,
                                             double tolerance, uint32_t seed) {
    const Solution s = solve(solver, t.p);
    EXPECT_TRUE(s.result.ok()) << s.result.message;
    EXPECT_LE(s.result.residual, 1e-10) << "seed " << seed;
    LcpProblem dense = t.p;
    dense.make_dense();
    dense.factored = false;
    const Solution reference = solve(make_solver("pivot.solver.dantzig", {{"tolerance", 1e-12}}), dense);
    EXPECT_TRUE(reference.result.ok()) << reference.result.message;
    if (!s.result.ok() || !reference.result.ok()) return s;
    for (uint32_t i = 0; i < t.p.n; ++i) {
        EXPECT_NEAR(s.x[i], reference.x[i], tolerance) << "seed " << seed << " row " << i;
    }
    return s;
}

}  // namespace pivot::test
