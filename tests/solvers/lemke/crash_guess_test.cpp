// The crash guess's projected Gauss-Seidel sweeps on a sparse copy of A
// (solvers/lemke/crash_guess.hpp) against the same sweeps on the dense A, as
// pivot.solver.lemke made them up to 1.2: the same bits.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "crash_guess.hpp"
#include "solver_test_support.hpp"

namespace pivot {
namespace {

// The dense sweeps of pivot.solver.lemke 1.2 (lemke_solver.cpp,
// guess_crash_basis): single precision, w updated by whole columns.
class DenseSweeps {
public:
    DenseSweeps(const pivot_lcp_problem& p, const double* start) : p_(p), a_(size_t{p.n} * p.n), x_(p.n), w_(p.n) {
        const uint32_t n = p.n;
        for (uint32_t j = 0; j < n; ++j) {
            for (uint32_t i = 0; i < n; ++i) a_[i + size_t{j} * n] = static_cast<float>(p.dense[i + size_t{j} * p.lda]);
        }
        for (uint32_t i = 0; i < n; ++i) {
            x_[i] = start != nullptr ? static_cast<float>(start[i]) : 0.0f;
            w_[i] = static_cast<float>(p.b[i]);
        }
        for (uint32_t j = 0; j < n; ++j) {
            if (x_[j] == 0.0f) continue;
            for (uint32_t i = 0; i < n; ++i) w_[i] += x_[j] * a_[i + size_t{j} * n];
        }
    }
    void sweep() {
        const uint32_t n = p_.n;
        for (uint32_t i = 0; i < n; ++i) {
            auto lower = static_cast<float>(p_.lo[i]);
            auto upper = static_cast<float>(p_.hi[i]);
            if (p_.findex != nullptr && p_.findex[i] >= 0) {
                const float scale = std::abs(x_[p_.findex[i]]);
                lower *= scale;
                upper *= scale;
            }
            const float updated = std::min(upper, std::max(lower, x_[i] - w_[i] / a_[i + size_t{i} * n]));
            const float step = updated - x_[i];
            if (step == 0.0f) continue;
            x_[i] = updated;
            for (uint32_t r = 0; r < n; ++r) w_[r] += step * a_[r + size_t{i} * n];
        }
    }
    std::vector<double> x() const { return std::vector<double>(x_.begin(), x_.end()); }

private:
    pivot_lcp_problem p_;
    std::vector<float> a_;
    std::vector<float> x_;
    std::vector<float> w_;
};

void expect_same_sweeps(const LcpProblem& problem, const std::vector<double>* start, const char* what) {
    const pivot_lcp_problem p = problem.view();
    lemke::CrashGuess sparse;
    sparse.reserve(p.n);
    ASSERT_TRUE(sparse.start(p, start != nullptr ? start->data() : nullptr)) << what;
    // The reference starts from the start as the sparse guess clamped it.
    std::vector<double> first(p.n);
    ASSERT_TRUE(sparse.point(p, first.data())) << what;
    DenseSweeps dense(p, start != nullptr ? first.data() : nullptr);
    std::vector<double> x(p.n);
    for (int sweep = 1; sweep <= 200; ++sweep) {
        sparse.sweep(p);
        dense.sweep();
        if (sweep % 50 != 1) continue;
        ASSERT_TRUE(sparse.point(p, x.data())) << what;
        const std::vector<double> reference = dense.x();
        ASSERT_EQ(0, std::memcmp(x.data(), reference.data(), x.size() * sizeof(double))) << what << ", sweep " << sweep;
    }
}

TEST(LemkeCrashGuess, SparseSweepsAreTheDenseSweepsBitForBit) {
    for (const char* name : {"lcp_nc050_fric.txt", "lcp_nc050_normal.txt", "lcp_nc200_fric.txt"}) {
        const LcpProblem p = read_lcp_file(test::data_dir() / "lcp-bench" / name);
        expect_same_sweeps(p, nullptr, name);
        // From a start: the cold sweeps' x after 7 sweeps, perturbed.
        lemke::CrashGuess guess;
        guess.reserve(p.n);
        ASSERT_TRUE(guess.start(p.view(), nullptr));
        for (int s = 0; s < 7; ++s) guess.sweep(p.view());
        std::vector<double> start(p.n);
        ASSERT_TRUE(guess.point(p.view(), start.data()));
        for (uint32_t i = 0; i < p.n; ++i) start[i] = 1.1 * start[i] + 1e-3 * ((i % 7) - 3.0);
        expect_same_sweeps(p, &start, name);
    }
}

TEST(LemkeCrashGuess, SkipsTheZerosOfA) {
    const LcpProblem p = read_lcp_file(test::data_dir() / "lcp-bench" / "lcp_nc333_fric.txt");
    lemke::CrashGuess guess;
    guess.reserve(p.n);
    ASSERT_TRUE(guess.start(p.view(), nullptr));
    size_t nonzeros = 0;
    for (double a : p.dense) nonzeros += static_cast<float>(a) != 0.0f ? 1 : 0;
    EXPECT_EQ(guess.nonzeros(), nonzeros);
    EXPECT_LT(guess.nonzeros(), p.dense.size() / 10);  // 39 of 999 per column
}

TEST(LemkeCrashGuess, StartIsClampedIntoTheBoundsFrictionRowsLast) {
    // Rows: a normal [0, inf), its friction row within +-0.5 x_0, and a box [-1, 2].
    LcpProblem p = LcpProblem::standard(3, {2.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 2.0}, {0.0, 0.0, 0.0});
    p.lo = {0.0, -0.5, -1.0};
    p.hi = {HUGE_VAL, 0.5, 2.0};
    p.findex = {-1, 0, -1};
    lemke::CrashGuess guess;
    guess.reserve(3);
    const std::vector<double> start = {-3.0, 4.0, 5.0};
    ASSERT_TRUE(guess.start(p.view(), start.data()));
    std::vector<double> x(3);
    ASSERT_TRUE(guess.point(p.view(), x.data()));
    EXPECT_EQ(x, (std::vector<double>{0.0, 0.0, 2.0}));  // x_0 = 0 bounds x_1 to [0, 0]
    const std::vector<double> start2 = {2.0, -4.0, std::nan("")};
    ASSERT_TRUE(guess.start(p.view(), start2.data()));
    ASSERT_TRUE(guess.point(p.view(), x.data()));
    EXPECT_EQ(x, (std::vector<double>{2.0, -1.0, 0.0}));  // NaN: 0
}

TEST(LemkeCrashGuess, NoSweepsWithoutAPositiveDiagonal) {
    const LcpProblem p = LcpProblem::standard(2, {1.0, 0.5, 0.5, 0.0}, {-1.0, -1.0});
    lemke::CrashGuess guess;
    guess.reserve(2);
    EXPECT_FALSE(guess.start(p.view(), nullptr));
}

}  // namespace
}  // namespace pivot
