// A block (a point mass m) on a plane, pushed tangentially by a force F for
// one step h: the rows of box friction solved by pivot.solver.dantzig and
// those of the polyhedral cone by pivot.solver.lemke. The problem is built
// by hand as the host would: body 1 is the ground (infinite mass), the row
// velocity is d . v2, so with M = m I
//   A = J M^-1 J^T (+ the cone's coupling block),  b = J v_free,
//   v_free = v + h (g + F/m),  v+ = v_free + M^-1 J^T z.
// Expected (Coulomb): the normal impulse is m g h (the normal velocity
// after the step is 0; friction rows are orthogonal to n, so they do not
// couple for a point mass). If the tangential momentum m|v_t,free| is at most
// mu m g h the block sticks (v+ tangential = 0, friction impulse -m v_t,free);
// otherwise it slides with friction impulse mu m g h against the motion.
// Pivoting solvers finish in a few pivots on 3 to 10 rows; 1e-9 is far above
// their rounding (values ~1) and far below the tested effects (~1e-2).
#include <cmath>
#include <vector>

#include "friction_test_support.hpp"

namespace pivot::friction_test {
namespace {

constexpr double kM = 2.0, kG = 9.81, kH = 0.01, kMu = 0.5;
constexpr double kTol = 1e-9;

struct Outcome {
    V3 friction;  // friction impulse on the block (N s)
    double normal = 0;
    V3 v_after;
    double residual = 0;
    bool ok = false;
    std::vector<double> x;  // the solution
};

// Solves the single-contact problem of `built` with `solver_id`.
// The host's block projection for one contact: forwards to the friction
// model's project() with the contact's block (as the host does per build).
struct Projection {
    const Model* model = nullptr;
    pivot_contact_point contact{};
    pivot_contact_block block{};
    uint32_t calls = 0;
};
pivot_status project_blocks(void* context, uint32_t first_block, uint32_t block_count, double* x) {
    auto* p = static_cast<Projection*>(context);
    ++p->calls;
    if (first_block != 0 || block_count > 1) return PIVOT_ERROR;
    return p->model->plugin().friction.project(p->model->instance().handle(), &p->contact, &p->block, block_count,
                                               x);
}

Outcome solve(const Built& built, const char* solver_id, pivot_problem_class cls, V3 v, V3 force,
              Projection* projection = nullptr) {
    const uint32_t n = built.count;
    const V3 v_free = v + kH * (V3{0, 0, -kG} + (1.0 / kM) * force);
    std::vector<double> a(static_cast<size_t>(n) * n), b(n), lo(n), hi(n), x(n, 0.0), w(n, 0.0);
    std::vector<int32_t> findex(n);
    for (uint32_t i = 0; i < n; ++i) {
        for (uint32_t j = 0; j < n; ++j) {
            double v_ij = dot(built.linear(i), built.linear(j)) / kM;
            if (cls == PIVOT_PROBLEM_STANDARD_LCP) v_ij += built.c(i, j);
            a[i + static_cast<size_t>(j) * n] = v_ij;
        }
        b[i] = dot(built.linear(i), v_free);  // violation and target velocity are 0 here
        lo[i] = built.rows[i].lower;
        hi[i] = built.rows[i].upper;
        findex[i] = built.rows[i].findex;
    }
    pivot_lcp_problem p{};
    p.struct_size = sizeof(p);
    p.problem_class = cls;
    p.n = n;
    p.matrix_properties =
        cls == PIVOT_PROBLEM_BOXED ? PIVOT_MATRIX_SYMMETRIC | PIVOT_MATRIX_POSITIVE_SEMIDEFINITE : 0u;
    p.dense = a.data();
    p.lda = n;
    p.b = b.data();
    p.lo = lo.data();
    p.hi = hi.data();
    p.findex = findex.data();
    // CSC of the same matrix (every entry, rows ascending), for sparse-only solvers.
    std::vector<int32_t> col_start(n + 1), row_index;
    std::vector<double> values;
    for (uint32_t j = 0; j < n; ++j) {
        col_start[j] = static_cast<int32_t>(values.size());
        for (uint32_t i = 0; i < n; ++i) {
            const double v_ij = a[i + static_cast<size_t>(j) * n];
            if (v_ij == 0.0) continue;
            row_index.push_back(static_cast<int32_t>(i));
            values.push_back(v_ij);
        }
    }
    col_start[n] = static_cast<int32_t>(values.size());
    p.nnz = static_cast<uint32_t>(values.size());
    p.col_start = col_start.data();
    p.row_index = row_index.data();
    p.values = values.data();
    const uint32_t block_rows[2] = {0, n};
    if (projection != nullptr) {
        projection->block = pivot_contact_block{0, 0, n, 0};
        p.block_count = 1;
        p.block_first_row = block_rows;
        p.project = project_blocks;
        p.project_context = projection;
    }
    pivot_solve_options options{};
    options.struct_size = sizeof(options);
    pivot_solve_report report{};
    const PluginInstance solver = make_instance(PIVOT_KIND_SOLVER, solver_id);
    const SolveResult r = checked_solve(solver, p, options, unguarded(x.data()), unguarded(w.data()), report);
    Outcome out;
    out.ok = r.ok() && report.status == PIVOT_SOLVE_CONVERGED;
    EXPECT_TRUE(out.ok) << r.message << " " << report.message;
    // The host's residual is the box rule's; with a cone projection the
    // solution satisfies the cone's (x = P(x - w)) instead, checked here.
    out.residual = r.residual;
    if (projection != nullptr) {
        std::vector<double> y(n);
        for (uint32_t i = 0; i < n; ++i) y[i] = x[i] - w[i];
        EXPECT_EQ(project_blocks(projection, 0, 1, y.data()), PIVOT_OK);
        out.residual = 0;
        for (uint32_t i = 0; i < n; ++i) out.residual = std::fmax(out.residual, std::fabs(x[i] - y[i]));
    }
    V3 impulse;
    for (uint32_t i = 0; i < n; ++i) impulse = impulse + x[i] * built.linear(i);
    out.normal = x[0];
    out.x = x;
    out.friction = impulse - x[0] * built.linear(0);
    out.v_after = v_free + (1.0 / kM) * impulse;
    return out;
}

void expect_coulomb(const Outcome& o, V3 v, V3 force, const char* where) {
    ASSERT_TRUE(o.ok) << where;
    EXPECT_LT(o.residual, kTol) << where;
    EXPECT_NEAR(o.normal, kM * kG * kH, kTol) << where;
    EXPECT_NEAR(o.v_after.z, 0.0, kTol) << where;
    const V3 vt{v.x + kH * force.x / kM, v.y + kH * force.y / kM, 0};  // tangential v_free
    const double p = kM * length(vt);
    const double limit = kMu * kM * kG * kH;
    if (p <= limit) {  // sticks
        EXPECT_NEAR(o.v_after.x, 0.0, kTol) << where;
        EXPECT_NEAR(o.v_after.y, 0.0, kTol) << where;
        EXPECT_NEAR(o.friction.x, -kM * vt.x, kTol) << where;
        EXPECT_NEAR(o.friction.y, -kM * vt.y, kTol) << where;
    } else {  // slides: mu m g h against the motion
        const V3 dir = (1.0 / length(vt)) * vt;
        EXPECT_NEAR(o.friction.x, -limit * dir.x, kTol) << where;
        EXPECT_NEAR(o.friction.y, -limit * dir.y, kTol) << where;
        EXPECT_NEAR(o.v_after.x, vt.x - limit / kM * dir.x, kTol) << where;
        EXPECT_NEAR(o.v_after.y, vt.y - limit / kM * dir.y, kTol) << where;
    }
}

// Pushed from rest along the host's tangent1 (x), below and above mu m g.
TEST(FrictionSolve, BoxWithDantzigSticksBelowAndSlidesAboveMuMg) {
    const Model model("pivot.friction.box", {{"mu", kMu}});
    for (double ratio : {0.0, 0.5, 0.99, 1.01, 2.0, 10.0}) {
        const V3 force{ratio * kMu * kM * kG, 0, 0};
        const Built b = model.build(plane_contact(), kH);
        expect_coulomb(solve(b, "pivot.solver.dantzig", PIVOT_PROBLEM_BOXED, {}, force), {}, force, "box");
    }
}

// Already sliding along phi = 20 degrees and pushed along it, with the host's
// frame at 0, 30, 45 degrees: the force is mu m g h against the motion in
// every frame (t1 follows the sliding direction). The same with the
// alignment disabled (slip_threshold huge) shows the pyramid's corner at
// 45 degrees: the friction reaches sqrt(2) mu m g h, off the motion.
TEST(FrictionSolve, BoxSlidingForceDoesNotDependOnTheHostFrame) {
    const Model model("pivot.friction.box", {{"mu", kMu}});
    const double phi = 20 * kPi / 180;
    const V3 dir{std::cos(phi), std::sin(phi), 0};
    const V3 v = 0.1 * dir;
    const V3 force = (1.5 * kMu * kM * kG) * dir;
    for (double deg : {0.0, 30.0, 45.0}) {
        const Built b = model.build(plane_contact(v, deg * kPi / 180), kH);
        expect_coulomb(solve(b, "pivot.solver.dantzig", PIVOT_PROBLEM_BOXED, v, force), v, force, "aligned");
    }
    const Model fixed("pivot.friction.box", {{"mu", kMu}, {"slip_threshold", 1e9}});
    const Built b = fixed.build(plane_contact(v, phi + kPi / 4), kH);
    const Outcome o = solve(b, "pivot.solver.dantzig", PIVOT_PROBLEM_BOXED, v, force);
    ASSERT_TRUE(o.ok);
    EXPECT_NEAR(length(o.friction), std::sqrt(2.0) * kMu * kM * kG * kH, 1e-9);
}

// The Anitescu-Potra cone (k = 8) with Lemke: d_4 = -x carries the full
// force when sliding along +x, and sticking is exact along a facet.
TEST(FrictionSolve, ConeWithLemkeSticksBelowAndSlidesAboveMuMg) {
    const Model model("pivot.friction.cone", {{"mu", kMu}, {"facets", 8}});
    for (double ratio : {0.0, 0.5, 0.99, 1.01, 2.0, 10.0}) {
        const V3 force{ratio * kMu * kM * kG, 0, 0};
        const Built b = model.build(plane_contact(), kH);
        expect_coulomb(solve(b, "pivot.solver.lemke", PIVOT_PROBLEM_STANDARD_LCP, {}, force), {}, force, "cone");
    }
    // Already sliding along 20 degrees: the facets follow the sliding direction.
    const double phi = 20 * kPi / 180;
    const V3 dir{std::cos(phi), std::sin(phi), 0};
    const V3 v = 0.1 * dir;
    const V3 force = (1.5 * kMu * kM * kG) * dir;
    const Built b = model.build(plane_contact(v, 0.4), kH);
    const Outcome o = solve(b, "pivot.solver.lemke", PIVOT_PROBLEM_STANDARD_LCP, v, force);
    expect_coulomb(o, v, force, "cone sliding");
    // The auxiliary unknown (row k + 1 = 9) is the sliding speed after the step.
    ASSERT_EQ(o.x.size(), 10u);
    EXPECT_NEAR(o.x[9], std::hypot(o.v_after.x, o.v_after.y), kTol);
}

// The circular cone with a projecting solver (pivot.solver.pgs calls the
// model's project() through the problem's block projection): pushed from
// rest at 45 degrees to the host's frame with 1.2 mu m g, the block slides
// with friction mu m g h exactly against the push, whereas the same rows
// solved as a box by Dantzig stick (each component 0.85 mu m g is inside
// the box): the pyramid's corner. PGS converges here in a few sweeps (A is
// diagonal); its tolerance is below 1e-10 on values ~0.1.
TEST(FrictionSolve, CircularConeWithProjectingPgsSlidesWhereTheBoxSticks) {
    const Model model("pivot.friction.circular", {{"mu", kMu}});
    const V3 dir{std::sqrt(0.5), std::sqrt(0.5), 0};
    for (double ratio : {0.5, 0.9, 1.2, 3.0}) {
        const V3 force = (ratio * kMu * kM * kG) * dir;
        const pivot_contact_point c = plane_contact();
        const Built b = model.build(c, kH);
        Projection projection{&model, c, {}, 0};
        const Outcome o = solve(b, "pivot.solver.pgs", PIVOT_PROBLEM_BOXED, {}, force, &projection);
        EXPECT_GT(projection.calls, 0u);
        expect_coulomb(o, {}, force, "circular + pgs");
        if (ratio == 1.2) {
            const Outcome box = solve(b, "pivot.solver.dantzig", PIVOT_PROBLEM_BOXED, {}, force);
            ASSERT_TRUE(box.ok);
            EXPECT_NEAR(length(box.v_after), 0.0, kTol) << "the box sticks";
        }
    }
}

}  // namespace
}  // namespace pivot::friction_test
