// The problem's matrix A as this solver reads it: compressed columns with
// exact zeros dropped (contact problems are a few percent dense, and every
// product with A is a sum over the nonzeros of a few columns), plus the
// diagonal. A is symmetric, so column j is also row j.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "pivot/plugin_solver.h"

namespace pivot::dantzig {

class SymmetricMatrix {
public:
    // Room for n rows and nnz nonzeros. A problem with more nonzeros (a dense
    // one with more than reserved) grows the storage once, in solve().
    void reserve(uint32_t n, std::size_t nnz);

    // Copies A from the problem: its CSC when given (already sparse), else
    // its dense columns. Returns false, with the reason in `message`, when A
    // is not symmetric or has a negative diagonal entry (then it is not
    // positive semidefinite, which the pivoting needs).
    bool assign(const pivot_lcp_problem& problem, char (&message)[PIVOT_MESSAGE_CAPACITY]);

    uint32_t size() const { return n_; }
    uint32_t column_begin(uint32_t j) const { return start_[j]; }
    uint32_t column_end(uint32_t j) const { return start_[j + 1]; }
    uint32_t row(uint32_t k) const { return index_[k]; }
    double value(uint32_t k) const { return value_[k]; }
    double diagonal(uint32_t i) const { return diagonal_[i]; }
    std::size_t nonzeros() const { return value_.size(); }

    // (A x)_i = sum_j A_ij x_j over the nonzeros of row (= column) i. Four
    // partial sums in a fixed order: a single one would make every
    // multiply-add wait for the previous (this is the inner loop of the
    // ratio tests).
    double row_times(uint32_t i, const double* x) const {
        const uint32_t end = start_[i + 1];
        const uint32_t* index = index_.data();
        const double* value = value_.data();
        double s0 = 0.0;
        double s1 = 0.0;
        double s2 = 0.0;
        double s3 = 0.0;
        uint32_t k = start_[i];
        for (; k + 4 <= end; k += 4) {
            s0 += value[k] * x[index[k]];
            s1 += value[k + 1] * x[index[k + 1]];
            s2 += value[k + 2] * x[index[k + 2]];
            s3 += value[k + 3] * x[index[k + 3]];
        }
        for (; k < end; ++k) s0 += value[k] * x[index[k]];
        return (s0 + s1) + (s2 + s3);
    }

private:
    bool check_symmetry(char (&message)[PIVOT_MESSAGE_CAPACITY]) const;

    uint32_t n_ = 0;
    std::vector<uint32_t> start_;
    std::vector<uint32_t> index_;
    std::vector<double> value_;
    std::vector<double> diagonal_;
};

}  // namespace pivot::dantzig
