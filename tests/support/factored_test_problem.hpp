#pragma once
// A step-like problem in the factored form of the solver ABI (plugin ABI
// 1.4, plugin_solver.h: A = J Mbar^-1 J^T + diag(d), with the mass blocks
// of 1.5) built from random
// symmetric positive definite mass blocks and random row Jacobians, with
// the responses Mbar^-1 J^T computed here, and the same A dense for
// reference. For the tests of the host's factored form (tests/lcp) and of
// the solvers that read it (tests/solvers/direct, tests/solvers/newton).
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include <Eigen/Dense>

#include "lcp/lcp_problem.hpp"

namespace pivot::test {

// One row's part on one block: its Jacobian (count values from `first`).
struct TestRowBlock {
    uint32_t block;
    uint32_t first;
    std::vector<double> jacobian;
};

class FactoredTestProblem {
public:
    // block_sizes: the mass blocks' sizes; rows: each row's blocks (0 to 2);
    // diagonal: d (one per row); seed: for the mass matrices.
    FactoredTestProblem(const std::vector<uint32_t>& block_sizes, const std::vector<std::vector<TestRowBlock>>& rows,
                        const std::vector<double>& diagonal, uint32_t seed) {
        std::mt19937 random(seed);
        std::uniform_real_distribution<double> uniform(-1.0, 1.0);
        for (uint32_t size : block_sizes) {
            Eigen::MatrixXd r(size, size);
            for (uint32_t i = 0; i < size; ++i) {
                for (uint32_t j = 0; j < size; ++j) r(i, j) = uniform(random);
            }
            mass_.push_back(r * r.transpose() + Eigen::MatrixXd::Identity(size, size));
        }
        const auto n = static_cast<uint32_t>(rows.size());
        p.n = n;
        p.factored = true;
        p.block_start.assign(1, 0);
        for (uint32_t size : block_sizes) p.block_start.push_back(p.block_start.back() + size);
        p.row_block_start.assign(1, 0);
        p.diagonal = diagonal;
        const uint32_t velocities = p.block_start.back();
        Eigen::MatrixXd j_full = Eigen::MatrixXd::Zero(n, velocities);
        for (uint32_t i = 0; i < n; ++i) {
            for (const TestRowBlock& rb : rows[i]) {
                const uint32_t size = block_sizes[rb.block];
                Eigen::VectorXd padded = Eigen::VectorXd::Zero(size);
                for (size_t c = 0; c < rb.jacobian.size(); ++c) padded[static_cast<Eigen::Index>(rb.first + c)] = rb.jacobian[c];
                const Eigen::VectorXd w = mass_[rb.block].ldlt().solve(padded);
                pivot_row_block entry{rb.block, rb.first, static_cast<uint32_t>(rb.jacobian.size()), 0,
                                      jacobian_.size(), response_.size()};
                p.row_blocks.push_back(entry);
                jacobian_.insert(jacobian_.end(), rb.jacobian.begin(), rb.jacobian.end());
                response_.insert(response_.end(), w.data(), w.data() + w.size());
                j_full.block(i, p.block_start[rb.block], 1, size) += padded.transpose();
            }
            p.row_block_start.push_back(static_cast<uint32_t>(p.row_blocks.size()));
        }
        p.jacobian = jacobian_.data();
        p.response = response_.data();
        // ABI 1.5: the mass blocks themselves (column-major).
        for (const Eigen::MatrixXd& m : mass_) {
            p.mass_offset.push_back(p.mass.size());
            p.mass.insert(p.mass.end(), m.data(), m.data() + m.size());
        }
        p.apply_inverse_mass = &FactoredTestProblem::apply_inverse_mass;
        p.inverse_mass_context = this;
        Eigen::MatrixXd m_inverse = Eigen::MatrixXd::Zero(velocities, velocities);
        for (size_t k = 0; k < mass_.size(); ++k) {
            const auto at = static_cast<Eigen::Index>(p.block_start[k]);
            const auto size = static_cast<Eigen::Index>(block_sizes[k]);
            m_inverse.block(at, at, size, size) = mass_[k].inverse();
        }
        dense_a = j_full * m_inverse * j_full.transpose();
        for (uint32_t i = 0; i < n; ++i) dense_a(i, i) += diagonal[i];
        p.b.assign(n, 0.0);
        p.lo.assign(n, -HUGE_VAL);
        p.hi.assign(n, HUGE_VAL);
        p.findex.assign(n, -1);
        p.matrix_properties = PIVOT_MATRIX_SYMMETRIC | PIVOT_MATRIX_POSITIVE_SEMIDEFINITE;
    }
    FactoredTestProblem(const FactoredTestProblem&) = delete;
    FactoredTestProblem& operator=(const FactoredTestProblem&) = delete;

    LcpProblem p;              // the factored form only (dense and CSC empty)
    Eigen::MatrixXd dense_a;   // the same A, for reference
    uint32_t apply_calls = 0;  // apply_inverse_mass calls seen

private:
    static pivot_status apply_inverse_mass(void* context, const double* force, double* velocity) {
        auto& self = *static_cast<FactoredTestProblem*>(context);
        ++self.apply_calls;
        for (size_t k = 0; k < self.mass_.size(); ++k) {
            const auto at = self.p.block_start[k];
            const auto size = static_cast<Eigen::Index>(self.p.block_start[k + 1] - at);
            Eigen::Map<Eigen::VectorXd>(velocity + at, size) =
                self.mass_[k].ldlt().solve(Eigen::Map<const Eigen::VectorXd>(force + at, size));
        }
        return PIVOT_OK;
    }

    std::vector<Eigen::MatrixXd> mass_;
    std::vector<double> jacobian_, response_;
};

// n values uniform in [-1, 1] (right-hand sides b).
inline std::vector<double> random_values(uint32_t n, uint32_t seed) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::vector<double> values(n);
    for (double& v : values) v = uniform(random);
    return values;
}

// Bounds of joint limits and force-bounded motors on tree_rows' 15 rows:
// boxes [-0.2, 0.2] on every third row, one-sided [0, inf) on rows 1, 6,
// 11, and row 14 fixed at 0.1.
inline void set_limits_and_motors(LcpProblem& p) {
    for (uint32_t i = 0; i < p.n; ++i) {
        if (i % 3 == 0) p.lo[i] = -0.2, p.hi[i] = 0.2;
        if (i % 5 == 1) p.lo[i] = 0.0;
        if (i == 14) p.lo[i] = p.hi[i] = 0.1;
    }
}

// The rows of a tree of 5 rigid bodies (blocks of 6) on ball joints, 3 rows
// per joint with random Jacobians: body 0 hangs from the world, bodies 1, 2
// and 3 from body 0, body 4 from body 1 (so body 0 carries a clique of 12
// rows). 15 rows.
inline std::vector<std::vector<TestRowBlock>> tree_rows(uint32_t seed) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    auto side = [&](uint32_t block) {
        TestRowBlock rb{block, 0, std::vector<double>(6)};
        for (double& v : rb.jacobian) v = uniform(random);
        return rb;
    };
    const int parent[5] = {-1, 0, 0, 0, 1};
    std::vector<std::vector<TestRowBlock>> rows;
    for (uint32_t body = 0; body < 5; ++body) {
        for (int k = 0; k < 3; ++k) {
            std::vector<TestRowBlock> row;
            if (parent[body] >= 0) row.push_back(side(static_cast<uint32_t>(parent[body])));
            row.push_back(side(body));
            rows.push_back(row);
        }
    }
    return rows;
}

// Contacts between 6 bodies (blocks of 6) and the world: per contact a
// normal row (x >= 0) and two friction rows bounded by mu = 0.5 times its
// impulse, with random unit-scale Jacobians, a small diagonal (the
// step's contact regularization) and b < 0 on most normal rows (bodies
// pressed together), so that rows are free, at zero and at their
// friction bounds.
struct ContactTestProblem {
    explicit ContactTestProblem(uint32_t seed) : t({6, 6, 6, 6, 6, 6}, rows(seed), std::vector<double>(36, 1e-5), seed) {
        std::mt19937 random(seed + 7);
        std::uniform_real_distribution<double> uniform(-1.0, 1.0);
        for (uint32_t c = 0; c < 12; ++c) {
            const uint32_t normal = 3 * c;
            t.p.lo[normal] = 0.0;
            t.p.b[normal] = c % 4 == 3 ? 0.3 : -std::abs(uniform(random));
            for (uint32_t k = 1; k <= 2; ++k) {
                t.p.lo[normal + k] = -0.5;
                t.p.hi[normal + k] = 0.5;
                t.p.findex[normal + k] = static_cast<int32_t>(normal);
                t.p.b[normal + k] = uniform(random);
            }
        }
        t.p.matrix_properties = PIVOT_MATRIX_SYMMETRIC | PIVOT_MATRIX_POSITIVE_SEMIDEFINITE;
    }
    static std::vector<std::vector<TestRowBlock>> rows(uint32_t seed) {
        std::mt19937 random(seed);
        std::uniform_real_distribution<double> uniform(-1.0, 1.0);
        const auto side = [&](uint32_t block) {
            TestRowBlock rb{block, 0, std::vector<double>(6)};
            for (double& v : rb.jacobian) v = uniform(random);
            return rb;
        };
        std::vector<std::vector<TestRowBlock>> out;
        for (uint32_t c = 0; c < 12; ++c) {
            const uint32_t a = c % 6, b = (c * 5 + 1) % 6;
            for (int k = 0; k < 3; ++k) {
                std::vector<TestRowBlock> row{side(a)};
                if (c % 3 != 0 && b != a) row.push_back(side(b));  // every third contact is with the world
                out.push_back(row);
            }
        }
        return out;
    }
    FactoredTestProblem t;
};

}  // namespace pivot::test
