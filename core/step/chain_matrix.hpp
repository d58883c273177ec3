#pragma once
// The iteration matrix of one chain of elements (a cable), sparse and
// symmetric positive definite, factorized with CHOLMOD once per step:
//     Mbar = sum_e [ M_e + J_e^T diag(h gamma / c) J_e + h^2 K_e ]
// over elements that share nodes (element e: nodes e and e + 1). The
// pattern is banded (a node couples to its neighbours only), so the
// natural ordering has no fill outside the band: the symbolic analysis is
// done once, the numeric factorization (simplicial LDL^T, deterministic)
// every step into the same storage, and the solves below read the factor
// directly, allocating nothing.
#include <cstdint>
#include <vector>

#include <cholmod.h>

namespace pivot {

class ChainMatrix {
public:
    // A chain of `elements` elements with `node_nv` velocities per node.
    ChainMatrix(uint32_t elements, uint32_t node_nv);
    ~ChainMatrix();
    ChainMatrix(const ChainMatrix&) = delete;
    ChainMatrix& operator=(const ChainMatrix&) = delete;

    uint32_t size() const { return n_; }
    void clear();
    // Adds the element's nv x nv block (column-major, nv = 2 node_nv;
    // symmetric: its upper triangle is read).
    void add_element(uint32_t element, const double* block);
    // Numeric factorization; false if the matrix is not positive definite.
    bool factorize();
    // x <- Mbar^-1 x in place; entries of x before `first` are zero (the
    // forward substitution starts there).
    void solve(double* x, uint32_t first = 0) const;

private:
    void release();
    uint32_t node_nv_, n_;
    std::vector<int32_t> row_start_;  // per column: first row of the band (upper triangle)
    cholmod_common common_;
    cholmod_sparse* matrix_ = nullptr;  // upper triangle, CSC
    cholmod_factor* factor_ = nullptr;
};

}  // namespace pivot
