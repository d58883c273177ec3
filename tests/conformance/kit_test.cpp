// Tests of the conformance kit itself: the Siconos readers against known
// properties of each copied file (known solutions, block vs dense storage,
// infeasibility certificates), the generators against their stated
// properties, the independent residual, the verdicts and the expectation
// files. A kit that misreads a file or misjudges a solver would make every
// solver's conformance run meaningless.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "pivot/conformance/judge.hpp"
#include "pivot/conformance/kit.hpp"
#include "pivot/conformance/problems.hpp"
#include "pivot/conformance/random.hpp"
#include "pivot/conformance/siconos.hpp"

namespace pivot::conformance {
namespace {

const std::filesystem::path data_dir = PIVOT_TEST_DATA_DIR;
const std::filesystem::path siconos_lcp = data_dir / "siconos" / "lcp";
const std::filesystem::path siconos_fc = data_dir / "siconos" / "fc3d";

double a_at(const sdk::LcpData& p, uint32_t i, uint32_t j) { return p.dense[i + static_cast<size_t>(j) * p.n]; }

// Residual at a solution known in closed form (or to 16 digits): rounding
// of the products only, so 1e-12 relative to the data's magnitude.
void expect_solution(const sdk::LcpData& p, const std::vector<double>& x, double tolerance = 1e-12) {
    ASSERT_EQ(x.size(), p.n);
    EXPECT_LE(independent_residual(p, x), tolerance);
}

// Dense Cholesky: true when the symmetric matrix is positive definite.
bool cholesky_succeeds(const sdk::LcpData& p) {
    const uint32_t n = p.n;
    std::vector<double> l(static_cast<size_t>(n) * n, 0.0);
    for (uint32_t j = 0; j < n; ++j) {
        double d = a_at(p, j, j);
        for (uint32_t k = 0; k < j; ++k) d -= l[j + k * size_t{n}] * l[j + k * size_t{n}];
        if (!(d > 0)) return false;
        l[j + j * size_t{n}] = std::sqrt(d);
        for (uint32_t i = j + 1; i < n; ++i) {
            double s = a_at(p, i, j);
            for (uint32_t k = 0; k < j; ++k) s -= l[i + k * size_t{n}] * l[j + k * size_t{n}];
            l[i + j * size_t{n}] = s / l[j + j * size_t{n}];
        }
    }
    return true;
}

bool exactly_symmetric(const sdk::LcpData& p) {
    for (uint32_t i = 0; i < p.n; ++i) {
        for (uint32_t j = 0; j < i; ++j) {
            if (a_at(p, i, j) != a_at(p, j, i)) return false;
        }
    }
    return true;
}

// ================================================================ Siconos LCP files
// Solutions found by enumerating all 2^n complementary bases in exact
// rational arithmetic (n <= 9), read with the column-major convention of
// the Siconos README. Under the transposed (row-major) reading of these
// non-symmetric matrices the same vectors are not solutions (checked below).
const std::map<std::string, std::vector<double>> siconos_solutions = {
    {"lcp_CPS_1", {0, 1}},
    {"lcp_CPS_2", {0, 1, 3}},
    {"lcp_CPS_3", {0, 1.0 / 15, 0, 1.0 / 15}},
    {"lcp_CPS_4", {2, 2, 2, 92}},
    {"lcp_CPS_4bis", {3, 3, 0, 83}},
    {"lcp_CPS_5", {0, 1}},
    {"lcp_Pang_isolated_sol", {1, 0, 0}},
    {"lcp_inf_sol_perturbed", {1, 0, 1e-4}},
    {"lcp_deudeu", {4.0 / 3, 7.0 / 3}},
    {"lcp_deudeu_block", {4.0 / 3, 7.0 / 3}},
    {"lcp_exp_murty", {0, 0, 0, 0, 0, 1}},
    {"lcp_exp_murty2", {0, 0, 0, 0, 0, 64}},
    {"lcp_ortiz", {2.0 / 3, 0, 1.0 / 3, 0}},
    {"lcp_ortiz_block", {2.0 / 3, 0, 1.0 / 3, 0}},
    {"lcp_trivial", {1, 1.0 / 2, 1.0 / 3, 1.0 / 4, 1.0 / 5, 1.0 / 6, 1.0 / 7, 1.0 / 8, 1.0 / 9}},
    {"lcp_trivial_block", {1, 1.0 / 2, 1.0 / 3, 1.0 / 4, 1.0 / 5, 1.0 / 6, 1.0 / 7, 1.0 / 8, 1.0 / 9}},
    // Printed to 16 digits by the enumeration: residual ~1e-20 at x ~ 1e-4.
    {"lcp_enum_fails",
     {6.449878079890142e-05, 3.710898586599185e-06, 0, 8.016312625263467e-05, 1.6032625250526936e-05,
      5.211144946641854e-05, 0.000173101085987673, 1.7257625528895064e-05, 0}},
};

TEST(SiconosLcp, KnownSolutionsHaveZeroResidual) {
    for (const auto& [stem, x] : siconos_solutions) {
        SCOPED_TRACE(stem);
        const sdk::LcpData p = read_siconos_lcp(siconos_lcp / (stem + ".dat"));
        expect_solution(p, x, stem == "lcp_enum_fails" ? 1e-18 : 1e-12);
    }
}

TEST(SiconosLcp, TransposedReadingWouldNotSolve) {
    // The column-major claim of the README, checked: with A transposed the
    // known solutions of the non-symmetric problems are far from solutions.
    for (const char* stem : {"lcp_CPS_2", "lcp_CPS_4", "lcp_exp_murty", "lcp_Pang_isolated_sol"}) {
        SCOPED_TRACE(stem);
        sdk::LcpData p = read_siconos_lcp(siconos_lcp / (std::string(stem) + ".dat"));
        ASSERT_FALSE(exactly_symmetric(p));
        sdk::LcpData t = p;
        for (uint32_t i = 0; i < p.n; ++i) {
            for (uint32_t j = 0; j < p.n; ++j) t.dense[i + size_t{p.n} * j] = a_at(p, j, i);
        }
        EXPECT_GT(independent_residual(t, siconos_solutions.at(stem)), 0.1);
    }
}

TEST(SiconosLcp, BlockStorageReadsTheSameMatrixAsDense) {
    // lcp_ortiz_block's off-diagonal blocks fix their positions through the
    // block-row pointers: a row-major reading inside the blocks, or of the
    // dense file, would not match.
    for (const char* stem : {"lcp_ortiz", "lcp_deudeu", "lcp_trivial"}) {
        SCOPED_TRACE(stem);
        const sdk::LcpData dense = read_siconos_lcp(siconos_lcp / (std::string(stem) + ".dat"));
        const sdk::LcpData block = read_siconos_lcp(siconos_lcp / (std::string(stem) + "_block.dat"));
        EXPECT_EQ(dense.dense, block.dense);
        EXPECT_EQ(dense.b, block.b);
    }
    const sdk::LcpData ortiz = read_siconos_lcp(siconos_lcp / "lcp_ortiz.dat");
    EXPECT_EQ(a_at(ortiz, 1, 0), -1.0);  // first column (3, -1, 0, 0)
    EXPECT_EQ(a_at(ortiz, 0, 3), -1.0);  // last column (-1, 1, -1, 2)
}

TEST(SiconosLcp, PerturbedPangHasAFarkasCertificateOfInfeasibility) {
    // {x >= 0, A x + b >= 0} is empty iff some y >= 0 has A'y <= 0 and
    // b'y < 0 (Farkas). y = e0: row 0 of A is (0, -1, -1) and b0 = -1e-4.
    const sdk::LcpData p = read_siconos_lcp(siconos_lcp / "lcp_Pang_isolated_sol_perturbed.dat");
    ASSERT_EQ(p.n, 3u);
    EXPECT_EQ(a_at(p, 0, 0), 0.0);
    EXPECT_EQ(a_at(p, 0, 1), -1.0);
    EXPECT_EQ(a_at(p, 0, 2), -1.0);
    EXPECT_EQ(p.b[0], -1e-4);
}

TEST(SiconosLcp, MmcIsSymmetricPositiveDefinite) {
    // So its solution exists and is unique (a P-matrix).
    const sdk::LcpData p = read_siconos_lcp(siconos_lcp / "lcp_mmc.dat");
    ASSERT_EQ(p.n, 26u);
    EXPECT_TRUE(p.matrix_properties & PIVOT_MATRIX_SYMMETRIC);
    EXPECT_TRUE(cholesky_succeeds(p));
}

TEST(SiconosLcp, TobennaIsAGameLcpInColumnMajor) {
    // A game LCP [P -E'; E 0], b = (0, -1): rows 32..39 say that each block
    // of 4 strategies sums to >= 1, columns 32..39 subtract the payoff
    // variables. Read transposed, row 32 would be -sum - 1 >= 0: infeasible.
    const sdk::LcpData p = read_siconos_lcp(siconos_lcp / "lcp_tobenna.dat");
    ASSERT_EQ(p.n, 40u);
    for (uint32_t j = 0; j < 4; ++j) {
        EXPECT_EQ(a_at(p, 32, j), 1.0);
        EXPECT_EQ(a_at(p, j, 32), -1.0);
    }
    EXPECT_EQ(p.b[32], -1.0);
    EXPECT_EQ(p.b[0], 0.0);
}

TEST(SiconosLcp, EveryCopiedFileReads) {
    size_t count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(siconos_lcp)) {
        SCOPED_TRACE(entry.path().string());
        const sdk::LcpData p = read_siconos_lcp(entry.path());
        EXPECT_GT(p.n, 0u);
        EXPECT_EQ(p.dense.size(), size_t{p.n} * p.n);
        ++count;
    }
    EXPECT_EQ(count, 20u);
}

// ================================================================ Siconos frictional contact
TEST(SiconosFrictionContact, OneContactSolvedByHand) {
    // M = [15 -1 -2; -1 14 1; -2 1 16], q = (-1, 2, 3), mu = 0.1. Sliding
    // with both tangents at their lower bound -mu r_n: w_n = 15 r_n + 0.1 r_n
    // + 0.2 r_n - 1 = 0 gives r_n = 1/15.3; then w_t1 = 2 - 2.5 r_n > 0 and
    // w_t2 = 3 - 3.7 r_n > 0, as the lower bounds require.
    const auto fc = read_siconos_friction_contact(siconos_fc / "FrictionContact3D_1c.dat");
    ASSERT_EQ(fc.dimension, 3u);
    ASSERT_EQ(fc.contacts, 1u);
    EXPECT_EQ(fc.mu[0], 0.1);
    const sdk::LcpData p = friction_pyramid_problem(fc);
    const double rn = 1.0 / 15.3;
    expect_solution(p, {rn, -0.1 * rn, -0.1 * rn});
    EXPECT_EQ(p.findex, (std::vector<int32_t>{-1, 0, 0}));
    EXPECT_EQ(p.lo[1], -0.1);
    EXPECT_EQ(p.hi[2], 0.1);
}

TEST(SiconosFrictionContact, ThreeUnitContactsSolvedByHand) {
    // M = I, q = (-1, 1, 3) per contact, mu = 0.1: r_n = 1, each tangent at
    // mid(-0.1, 0.1, -q_t) = -0.1. Dense and sparse-block files agree.
    for (const char* file : {"FC3D_Example1.dat", "FC3D_Example1_SBM.dat"}) {
        SCOPED_TRACE(file);
        const sdk::LcpData p = friction_pyramid_problem(read_siconos_friction_contact(siconos_fc / file));
        ASSERT_EQ(p.n, 9u);
        expect_solution(p, {1, -0.1, -0.1, 1, -0.1, -0.1, 1, -0.1, -0.1});
    }
}

TEST(SiconosFrictionContact, EveryCopiedFileIsADelassusProblem) {
    // A local Delassus matrix W = H M^-1 H' is symmetric positive
    // semidefinite with a positive diagonal. Most files are symmetric to the
    // rounding of their assembly (~1e-16 relative); the Rover, OneObject and
    // Capsules scenes carry an asymmetry of 1e-5..6e-4. mu in [0, 1].
    size_t count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(siconos_fc)) {
        const std::string name = entry.path().filename().string();
        SCOPED_TRACE(name);
        const auto fc = read_siconos_friction_contact(entry.path());
        const sdk::LcpData p = friction_pyramid_problem(fc);
        ASSERT_EQ(p.n, fc.dimension * fc.contacts);
        double largest = 0.0;
        double asymmetry = 0.0;
        for (uint32_t i = 0; i < p.n; ++i) {
            EXPECT_GT(a_at(p, i, i), 0.0) << "row " << i;
            for (uint32_t j = 0; j < p.n; ++j) {
                largest = std::max(largest, std::abs(a_at(p, i, j)));
                asymmetry = std::max(asymmetry, std::abs(a_at(p, i, j) - a_at(p, j, i)));
            }
        }
        // The kit's list of non-symmetric files is exactly right.
        const std::string stem = entry.path().stem().string();
        if (siconos_friction_contact_is_nonsymmetric(stem)) {
            EXPECT_GT(asymmetry, 1e-12 * largest);
            EXPECT_LE(asymmetry, 1e-3 * largest);
        } else {
            EXPECT_LE(asymmetry, 1e-12 * largest);
        }
        for (double mu : fc.mu) {
            EXPECT_GE(mu, 0.0);
            EXPECT_LE(mu, 1.0);
        }
        ++count;
    }
    EXPECT_EQ(count, 29u);
}

TEST(SiconosFrictionContact, StorageTypeTwoIsRefusedAsUnsupported) {
    const auto file = std::filesystem::temp_directory_path() / "pivot_conformance_storage2.dat";
    {
        std::ofstream out(file);
        out << "3 1\n2 3 3\n";
    }
    EXPECT_THROW(read_siconos_friction_contact(file), UnsupportedSiconosStorage);
    std::filesystem::remove(file);
}

TEST(SiconosFrictionContact, TruncatedFileIsAnErrorNamingTheField) {
    const auto file = std::filesystem::temp_directory_path() / "pivot_conformance_truncated.dat";
    {
        std::ofstream out(file);
        out << "3 1\n0 3 3\n3 3\n1 0 0 0 1 0 0 0 1\n-1 2\n";
    }
    try {
        (void)read_siconos_friction_contact(file);
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("q[2]"), std::string::npos) << e.what();
    }
    std::filesystem::remove(file);
}

// ================================================================ generators
TEST(Random, FollowsTheStandardSequence) {
    // The first output of std::mt19937_64 with the default seed 5489 is
    // 14514284786278117030 (C++ standard, [rand.predef]: the 10000th is
    // 9981545732273789042); uniform() keeps its top 53 bits.
    Random r(5489);
    EXPECT_EQ(r.uniform(), static_cast<double>(14514284786278117030ull >> 11) * 0x1.0p-53);
}

TEST(Generators, AreDeterministic) {
    const sdk::LcpData a = random_contact_problem({});
    const sdk::LcpData b = random_contact_problem({});
    EXPECT_EQ(a.dense, b.dense);
    EXPECT_EQ(a.b, b.b);
    EXPECT_EQ(random_spd_lcp(16, 3).dense, random_spd_lcp(16, 3).dense);
}

TEST(Generators, SpdIsSymmetricPositiveDefinite) {
    for (uint32_t n : {4u, 16u, 64u}) {
        const sdk::LcpData p = random_spd_lcp(n, n);
        EXPECT_TRUE(exactly_symmetric(p));
        EXPECT_TRUE(cholesky_succeeds(p));
        EXPECT_TRUE(p.is_standard_lcp());
    }
}

TEST(Generators, DiagonallyDominantIsAPMatrix) {
    // All 15 principal minors of the 4x4 matrix are positive.
    const sdk::LcpData p = random_diagonally_dominant_lcp(4, 104);
    EXPECT_FALSE(p.matrix_properties & PIVOT_MATRIX_SYMMETRIC);
    for (uint32_t mask = 1; mask < 16; ++mask) {
        std::vector<uint32_t> idx;
        for (uint32_t i = 0; i < 4; ++i) {
            if (mask & (1u << i)) idx.push_back(i);
        }
        // Determinant by Gaussian elimination without pivoting (diagonally
        // dominant: the pivots stay positive).
        const size_t m = idx.size();
        std::vector<double> s(m * m);
        for (size_t i = 0; i < m; ++i) {
            for (size_t j = 0; j < m; ++j) s[i * m + j] = a_at(p, idx[i], idx[j]);
        }
        double det = 1.0;
        for (size_t k = 0; k < m; ++k) {
            det *= s[k * m + k];
            for (size_t i = k + 1; i < m; ++i) {
                const double f = s[i * m + k] / s[k * m + k];
                for (size_t j = k; j < m; ++j) s[i * m + j] -= f * s[k * m + j];
            }
        }
        EXPECT_GT(det, 0.0) << "minor " << mask;
    }
}

TEST(Generators, ContactProblemHasTheEngineStructure) {
    ContactScene scene;
    scene.contacts = 10;
    scene.ball_joints = 2;
    scene.motors = 3;
    const sdk::LcpData p = random_contact_problem(scene);
    ASSERT_EQ(p.n, 10u * 3 + 6 + 3);
    EXPECT_TRUE(exactly_symmetric(p));
    EXPECT_TRUE(cholesky_succeeds(p));  // + eps I
    for (uint32_t k = 0; k < 10; ++k) {
        EXPECT_EQ(p.findex[3 * k], -1);
        EXPECT_EQ(p.lo[3 * k], 0.0);
        EXPECT_EQ(p.hi[3 * k], HUGE_VAL);
        for (uint32_t t = 1; t < 3; ++t) {
            EXPECT_EQ(p.findex[3 * k + t], static_cast<int32_t>(3 * k));
            EXPECT_EQ(p.lo[3 * k + t], -p.hi[3 * k + t]);
            EXPECT_GE(p.hi[3 * k + t], 0.1);
            EXPECT_LE(p.hi[3 * k + t], 1.0);
        }
    }
    for (uint32_t i = 30; i < 36; ++i) {
        EXPECT_EQ(p.lo[i], -HUGE_VAL);
        EXPECT_EQ(p.hi[i], HUGE_VAL);
    }
    for (uint32_t i = 36; i < 39; ++i) {
        EXPECT_TRUE(std::isfinite(p.lo[i]) && std::isfinite(p.hi[i]) && p.lo[i] == -p.hi[i]);
        EXPECT_EQ(p.findex[i], -1);
    }
}

TEST(Generators, DuplicatedContactsMakeASingular) {
    ContactScene scene;
    scene.contacts = 6;
    scene.duplicated_contacts = 3;
    scene.regularization = 0.0;
    const sdk::LcpData p = random_contact_problem(scene);
    ASSERT_EQ(p.n, 27u);
    // Contact k + 6 repeats contact k: identical rows and b.
    for (uint32_t r = 0; r < 9; ++r) {
        for (uint32_t j = 0; j < p.n; ++j) EXPECT_EQ(a_at(p, r, j), a_at(p, 18 + r, j));
        EXPECT_EQ(p.b[r], p.b[18 + r]);
    }
    EXPECT_FALSE(cholesky_succeeds(p));
}

TEST(Generators, RedundantContactsAreSingular) {
    ContactScene scene;
    scene.contacts = 40;
    scene.bodies = 4;
    scene.friction = false;
    scene.regularization = 0.0;
    scene.penetration_bias = false;
    const sdk::LcpData p = random_contact_problem(scene);
    ASSERT_EQ(p.n, 40u);
    EXPECT_TRUE(p.is_standard_lcp());
    EXPECT_TRUE(exactly_symmetric(p));
    EXPECT_FALSE(cholesky_succeeds(p));  // rank <= 24
}

TEST(Generators, InconsistentJointRowsDifferOnlyInB) {
    ContactScene scene;
    scene.contacts = 4;
    scene.friction = false;
    scene.ball_joints = 1;
    scene.regularization = 0.0;
    scene.inconsistent_duplicate_joint = true;
    const sdk::LcpData p = random_contact_problem(scene);
    ASSERT_EQ(p.n, 4u + 3 + 3);
    // Rows 4 and 7: the same free row, b differing by 1, so w4 - w7 = -1.
    for (uint32_t j = 0; j < p.n; ++j) EXPECT_EQ(a_at(p, 4, j), a_at(p, 7, j));
    EXPECT_EQ(p.b[7] - p.b[4], 1.0);
    EXPECT_EQ(p.lo[7], -HUGE_VAL);
}

TEST(Generators, ClassicsHaveTheirKnownSolutions) {
    expect_solution(murty_lcp(10), murty_solution(10));
    expect_solution(chvatal_cycling_lcp(), chvatal_cycling_solution());
    std::vector<double> x;
    const sdk::LcpData d = degenerate_constructed_lcp(18, 18, &x);
    expect_solution(d, x);
    size_t degenerate_rows = 0;
    std::vector<double> w(d.n);
    for (uint32_t i = 0; i < d.n; ++i) {
        double s = d.b[i];
        for (uint32_t j = 0; j < d.n; ++j) s += a_at(d, i, j) * x[j];
        if (x[i] == 0.0 && std::abs(s) < 1e-12) ++degenerate_rows;
    }
    EXPECT_EQ(degenerate_rows, 6u);
    expect_solution(degenerate_zero_b_lcp(8, 8), std::vector<double>(8, 0.0), 0.0);
}

TEST(Generators, InfeasibleProblemsHaveFarkasCertificates) {
    // y >= 0 with A'y <= 0 and b'y < 0 proves {x >= 0, A x + b >= 0} empty.
    const auto certify = [](const sdk::LcpData& p, const std::vector<double>& y) {
        double by = 0.0;
        for (uint32_t i = 0; i < p.n; ++i) by += p.b[i] * y[i];
        EXPECT_LT(by, 0.0);
        for (uint32_t j = 0; j < p.n; ++j) {
            double aty = 0.0;
            for (uint32_t i = 0; i < p.n; ++i) aty += a_at(p, i, j) * y[i];
            EXPECT_LE(aty, 0.0);
        }
    };
    certify(infeasible_psd_lcp(), {1, 1});
    certify(infeasible_indefinite_lcp(), {1, 0});
    certify(infeasible_skew_lcp(), {0, 1});
    // Free rows: A x + b = 0 has no solution: y = (1, -1), A'y = 0, b'y = 2.
    const sdk::LcpData f = inconsistent_free_rows_problem();
    EXPECT_EQ(a_at(f, 0, 0) - a_at(f, 1, 0), 0.0);
    EXPECT_EQ(a_at(f, 0, 1) - a_at(f, 1, 1), 0.0);
    EXPECT_EQ(f.b[0] - f.b[1], 2.0);
}

// ================================================================ residual
TEST(Residual, IsTheNaturalMapResidual) {
    // A = I, b = (-1, 1, 0), bounds [0, inf), [0, inf), [-1, 1].
    sdk::LcpData p = sdk::LcpData::standard(3, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {-1, 1, 0});
    p.lo[2] = -1;
    p.hi[2] = 1;
    EXPECT_EQ(independent_residual(p, {1, 0, 0}), 0.0);
    // x0 = 0.5: w0 = -0.5, mid(0, inf, 1) = 1, |0.5 - 1| = 0.5.
    EXPECT_EQ(independent_residual(p, {0.5, 0, 0}), 0.5);
    // x2 = 2 (outside [-1, 1]): w2 = 2, mid(-1, 1, 0) = 0: residual 2.
    EXPECT_EQ(independent_residual(p, {1, 0, 2}), 2.0);
}

TEST(Residual, AppliesTheFrictionIndex) {
    // Row 1: |x1| <= 0.5 |x0|. x = (2, 1): bounds [-1, 1], w1 = x1 + 3 = 4 >
    // 0 pushes x1 to its lower bound -1: residual |1 - (-1)| = 2.
    sdk::LcpData p = sdk::LcpData::standard(2, {1, 0, 0, 1}, {-2, 3});
    p.lo[1] = -0.5;
    p.hi[1] = 0.5;
    p.findex[1] = 0;
    EXPECT_EQ(independent_residual(p, {2, -1}), 0.0);
    EXPECT_EQ(independent_residual(p, {2, 1}), 2.0);
}

TEST(Residual, NanAndInfAreInfiniteNeverHidden) {
    sdk::LcpData p = sdk::LcpData::standard(2, {1, 0, 0, 1}, {-1, -1});
    EXPECT_EQ(independent_residual(p, {NAN, 1}), HUGE_VAL);
    EXPECT_EQ(independent_residual(p, {HUGE_VAL, 1}), HUGE_VAL);
    p.dense[2] = NAN;  // A(0, 1), multiplied by x1 = 0: NaN * 0 is NaN
    EXPECT_EQ(independent_residual(p, {1, 0}), HUGE_VAL);
}

TEST(Residual, CaseToleranceScalesWithB) {
    const sdk::LcpData p = sdk::LcpData::standard(2, {1, 0, 0, 1}, {-300, 2});
    EXPECT_DOUBLE_EQ(case_tolerance(p, 1e-8), 3e-6);
    const sdk::LcpData small = sdk::LcpData::standard(1, {1}, {0.01});
    EXPECT_DOUBLE_EQ(case_tolerance(small, 1e-8), 1e-8);
    // A compliant-free light contact: A = 1e-4, b = -10, x = 1e5; 1e-8
    // relative to that impulse.
    sdk::LcpData light = sdk::LcpData::standard(1, {1e-4}, {-10});
    EXPECT_DOUBLE_EQ(case_tolerance(light, 1e-8), 1e-3);
    light.make_sparse();
    light.dense.clear();
    EXPECT_DOUBLE_EQ(case_tolerance(light, 1e-8), 1e-3);
}

// ================================================================ verdicts
Attempt attempt(bool usable, uint32_t status, double reported, double independent, const char* message = "") {
    Attempt a;
    a.usable = usable;
    a.returned = usable ? (status == PIVOT_SOLVE_CONVERGED ? PIVOT_OK : PIVOT_WARNING) : PIVOT_ERROR;
    a.report.status = status;
    a.report.residual = reported;
    std::snprintf(a.report.message, sizeof a.report.message, "%s", message);
    a.residual = usable ? independent : HUGE_VAL;
    return a;
}

TEST(Verdicts, Solvable) {
    EXPECT_EQ(judge_solvable(attempt(true, PIVOT_SOLVE_CONVERGED, 1e-10, 1e-10), 1e-8, 2e-8).verdict, Verdict::pass);
    // Stopped by the iteration cap but accurate enough: solved.
    EXPECT_EQ(judge_solvable(attempt(true, PIVOT_SOLVE_MAX_ITERATIONS, 5e-9, 5e-9, "cap"), 1e-8, 2e-8).verdict,
              Verdict::pass);
    EXPECT_EQ(judge_solvable(attempt(true, PIVOT_SOLVE_MAX_ITERATIONS, 1e-3, 1e-3, "cap"), 1e-8, 2e-8).verdict,
              Verdict::fail);
    EXPECT_EQ(judge_solvable(attempt(false, PIVOT_SOLVE_RAY_TERMINATION, 0, 0, "ray"), 1e-8, 2e-8).verdict,
              Verdict::fail);
    // CONVERGED with a residual above the claim limit: a fake.
    EXPECT_EQ(judge_solvable(attempt(true, PIVOT_SOLVE_CONVERGED, 1e-10, 1e-3), 1e-8, 2e-8).verdict, Verdict::fake);
    // A report residual that is not the residual at x: a fake too.
    EXPECT_EQ(judge_solvable(attempt(true, PIVOT_SOLVE_MAX_ITERATIONS, 0.0, 1e-3, "cap"), 1e-8, 2e-8).verdict,
              Verdict::fake);
    // Rounding between the solver's residual and ours: not a fake.
    EXPECT_EQ(judge_solvable(attempt(true, PIVOT_SOLVE_CONVERGED, 1e-8, 1.5e-8), 1e-8, 2e-8).verdict, Verdict::fail);
}

TEST(Verdicts, NoSolution) {
    EXPECT_EQ(judge_no_solution(attempt(false, PIVOT_SOLVE_RAY_TERMINATION, 0, 0, "ray")).verdict, Verdict::pass);
    EXPECT_EQ(judge_no_solution(attempt(true, PIVOT_SOLVE_MAX_ITERATIONS, 1, 1, "cap")).verdict, Verdict::pass);
    EXPECT_EQ(judge_no_solution(attempt(true, PIVOT_SOLVE_CONVERGED, 0, 1)).verdict, Verdict::fake);
    EXPECT_EQ(judge_no_solution(attempt(false, PIVOT_SOLVE_INFEASIBLE, 0, 0, "")).verdict, Verdict::fail);
}

TEST(Verdicts, InvalidInput) {
    pivot_solve_report r{};
    r.status = PIVOT_SOLVE_INVALID_PROBLEM;
    std::snprintf(r.message, sizeof r.message, "b[2] = nan is not finite");
    EXPECT_EQ(judge_invalid_input(PIVOT_ERROR, r, {0, 0}).verdict, Verdict::pass);
    r.status = PIVOT_SOLVE_NUMERICAL_ERROR;
    EXPECT_EQ(judge_invalid_input(PIVOT_ERROR, r, {0, 0}).verdict, Verdict::fail);
    r.status = PIVOT_SOLVE_CONVERGED;
    EXPECT_EQ(judge_invalid_input(PIVOT_OK, r, {0, 0}).verdict, Verdict::fake);
    EXPECT_EQ(judge_invalid_input(PIVOT_OK, r, {NAN, 0}).verdict, Verdict::fail);
    r.status = PIVOT_SOLVE_INVALID_PROBLEM;
    r.message[0] = '\0';
    EXPECT_EQ(judge_invalid_input(PIVOT_ERROR, r, {0, 0}).verdict, Verdict::fail);
}

// ================================================================ expectation files
std::filesystem::path write_temp(const char* name, const std::string& text) {
    const auto file = std::filesystem::temp_directory_path() / name;
    std::ofstream(file) << text;
    return file;
}

TEST(Expectations, ReadsNamesAndReasons) {
    const auto file = write_temp("pivot_conformance_ok.expect",
                                 "# comment\n\nmurty_n10   too many pivots: 1023 > max_iterations\n"
                                 "  infeasible_psd\tdiverges, reported as MAX_ITERATIONS  \n");
    const Expectations e = read_expectations(file);
    ASSERT_EQ(e.reasons.size(), 2u);
    ASSERT_NE(e.reason("murty_n10"), nullptr);
    EXPECT_EQ(*e.reason("murty_n10"), "too many pivots: 1023 > max_iterations");
    EXPECT_EQ(*e.reason("infeasible_psd"), "diverges, reported as MAX_ITERATIONS");
    EXPECT_EQ(e.reason("spd_n4"), nullptr);
    std::filesystem::remove(file);
}

TEST(Expectations, ReasonIsRequiredAndNamesAreUnique) {
    const auto no_reason = write_temp("pivot_conformance_bad1.expect", "murty_n10\n");
    EXPECT_THROW(read_expectations(no_reason), Error);
    const auto twice = write_temp("pivot_conformance_bad2.expect", "a why\na why again\n");
    EXPECT_THROW(read_expectations(twice), Error);
    std::filesystem::remove(no_reason);
    std::filesystem::remove(twice);
}

// ================================================================ the case list
TEST(Cases, NamesAreUniqueAndValidTestNames) {
    std::vector<std::string> notes;
    const auto cases = conformance_cases(data_dir, &notes);
    EXPECT_TRUE(notes.empty());
    std::set<std::string> names;
    for (const Case& c : cases) {
        EXPECT_TRUE(names.insert(c.name).second) << c.name;
        for (char ch : c.name) EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_') << c.name;
        EXPECT_FALSE(c.summary.empty()) << c.name;
    }
    // lcp-bench (8 files), Siconos LCP (20), frictional contact (29, of which
    // 18 non-symmetric ones also symmetrized).
    const auto count = [&](const std::string& prefix) {
        return std::count_if(cases.begin(), cases.end(), [&](const Case& c) { return c.name.rfind(prefix, 0) == 0; });
    };
    EXPECT_EQ(count("bench_"), 8);
    EXPECT_EQ(count("siconos_lcp_"), 20);
    EXPECT_EQ(count("siconos_fc_"), 29 + 18);
}

TEST(Cases, EveryProblemIsWellFormed) {
    for (const Case& c : conformance_cases(data_dir)) {
        if (c.kind == CaseKind::behaviour || c.kind == CaseKind::invalid_input) continue;
        SCOPED_TRACE(c.name);
        const sdk::LcpData p = c.problem();
        ASSERT_EQ(p.dense.size(), size_t{p.n} * p.n);
        ASSERT_EQ(p.b.size(), p.n);
        ASSERT_EQ(p.findex.size(), p.n);
        for (uint32_t i = 0; i < p.n; ++i) {
            EXPECT_TRUE(std::isfinite(p.b[i]));
            EXPECT_LE(p.lo[i], p.hi[i]);
        }
        // The SYMMETRIC hint is set exactly when A is symmetric.
        EXPECT_EQ((p.matrix_properties & PIVOT_MATRIX_SYMMETRIC) != 0, exactly_symmetric(p));
    }
}

}  // namespace
}  // namespace pivot::conformance
