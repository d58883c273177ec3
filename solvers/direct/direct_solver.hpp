#pragma once
// pivot.solver.direct: the step's problem solved by a sparse LDL^T of A in a
// fill-reducing order, exactly, in time linear in the rows for chains and
// trees of joints.
//
// A comes as the factored form of the ABI (plugin_solver.h: A = J W + diag,
// the rows' sparse Jacobians and responses) or as CSC (problem files). Its
// pattern is the rows' coupling graph: block tridiagonal for a chain,
// cliques of the rows at each body for a tree, so a minimum-degree order
// factors it with no fill beyond those cliques (Baraff 1996, "Linear-time
// dynamics using Lagrange multipliers", makes the same observation for the
// tree of bodies and joints). The order and the symbolic factorization are
// computed when the pattern changes (CouplingMatrix keeps it), so a step
// costs one numeric factorization and one solve.
//
// Bounds (joint limits, motors with a force bound; the step's bilateral rows
// have none) are handled by block principal pivoting (Judice & Pires 1994,
// "A block principal pivoting algorithm for large-scale strictly monotone
// linear complementarity problems", Comput. Oper. Res. 21(5)) on the boxed
// problem: each row is free, at its lower or at its upper bound; the free
// rows are solved exactly with the others held, A_FF x_F = -(b_F + A_FC x_C)
// (one numeric factorization of A with the held rows replaced by identity
// rows: the same pattern, no new analysis); every row that breaks its
// condition changes state at once, and when that stops reducing the count
// of broken rows for 3 rounds, only the one with the largest index does
// (Murty's rule), which terminates for symmetric positive definite A. The
// warm start's rows at a bound start held there, so a step whose limits do
// not change is one factorization.
//
// Not handled: friction indices (the chain iterates friction bounds for
// solvers without them, but a pivoting solver is better there) and
// singular A (redundant joints, closed loops): the factorization meets a
// zero pivot and the solve fails cleanly, leaving the problem to the next
// solver of the chain.
#include <cstdint>
#include <vector>

#include <pivot/plugin_solver.h>

#include "../sparse/minimum_degree_ordering.hpp"
#include "../sparse/sparse_ldu.hpp"
#include "coupling_matrix.hpp"

namespace pivot::direct {

struct Parameters {
    uint32_t max_exchanges = 100;  // principal pivoting rounds (factorizations) per solve
    double tolerance = 1e-10;      // natural-map residual per row at which a row's state is right
};

// Schema order of the instance parameters (direct_plugin.cpp).
constexpr uint32_t kParameterCount = 2;
Parameters parameters_from(const double* values, uint32_t count);

// One instance of the plugin (sdk::solver_functions<DirectSolver>()): the
// parameters, the kept pattern, order and factor.
class DirectSolver {
public:
    DirectSolver(const pivot_host* /*host: no logging on the step path*/, const double* params, uint32_t count)
        : parameters_(parameters_from(params, count)) {}

    void set_params(const double* params, uint32_t count) { parameters_ = parameters_from(params, count); }
    // Forgets the pattern (the next solve analyzes again).
    void reset() { analyzed_ = false; }
    void reserve(uint32_t n, uint32_t nnz);
    pivot_status solve(const pivot_lcp_problem* problem, const pivot_solve_options* options, double* x, double* w,
                       pivot_solve_report* report);

private:
    enum State : int8_t { kFree = 0, kLower = 1, kUpper = 2 };

    bool analyze();
    // x_F from A_FF x_F = -(b_F + A_FC x_C); false on a zero pivot.
    bool solve_free_rows(const pivot_lcp_problem& p, double* x);
    // w = A x + b; returns the largest natural-map residual.
    double residual(const pivot_lcp_problem& p, const double* x, double* w) const;

    Parameters parameters_;
    CouplingMatrix matrix_;
    sparse::MinimumDegreeOrdering ordering_;
    sparse::SparseLdu factor_;
    bool analyzed_ = false;
    std::vector<int32_t> order_;
    std::vector<double> held_values_;  // A with the held rows as identity rows
    std::vector<double> rhs_;
    std::vector<double> w_;
    std::vector<int8_t> state_;
};

}  // namespace pivot::direct
