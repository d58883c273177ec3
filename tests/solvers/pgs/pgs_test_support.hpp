#pragma once
// Shared helpers of the pivot.solver.pgs tests.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lcp/lcp_problem.hpp"
#include "solver_test_support.hpp"

namespace pivot::test {

inline const char* const kPgs = "pivot.solver.pgs";

// A problem with the CSC matrix only (the solver reads no dense matrix), the
// symmetry hint set if A is exactly symmetric. dense: column-major n x n.
inline LcpProblem sparse_problem(uint32_t n, std::vector<double> dense, std::vector<double> b, std::vector<double> lo,
                                 std::vector<double> hi, std::vector<int32_t> findex = {}) {
    LcpProblem p;
    p.n = n;
    p.dense = std::move(dense);
    p.b = std::move(b);
    p.lo = std::move(lo);
    p.hi = std::move(hi);
    p.findex = findex.empty() ? std::vector<int32_t>(n, -1) : std::move(findex);
    p.make_sparse();
    p.detect_symmetry();
    p.dense.clear();
    return p;
}

// A file of tests/data, CSC only.
inline LcpProblem sparse_file_problem(const std::string& name) {
    LcpProblem p = read_lcp_file(data_dir() / name);
    p.make_sparse();
    p.dense.clear();
    return p;
}

// w = A x + b from the CSC matrix.
inline std::vector<double> affine(const LcpProblem& p, const std::vector<double>& x) {
    std::vector<double> w = p.b;
    for (uint32_t j = 0; j < p.n; ++j) {
        for (int32_t k = p.col_start[j]; k < p.col_start[j + 1]; ++k) w[p.row_index[k]] += p.values[k] * x[j];
    }
    return w;
}

inline double max_abs(const std::vector<double>& v) {
    double m = 0.0;
    for (double a : v) m = std::max(m, std::abs(a));
    return m;
}

}  // namespace pivot::test
