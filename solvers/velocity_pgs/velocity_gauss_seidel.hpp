#pragma once
// pivot.solver.velocity_pgs: projected Gauss-Seidel on the step's problem
// in its factored form (plugin_solver.h, ABI 1.4), for islands too large to
// factorize in the step's time: piles of hundreds of bodies and thousands
// of contacts (docs/solvers.md "Projected Gauss-Seidel in velocities").
//
// The iteration is projected Gauss-Seidel on A = J W + diag(d), W = Mbar^-1
// J^T, row by row (in the order below; Cottle, Pang & Stone 1992, "The
// Linear Complementarity Problem", 5.2), with A never formed: the solver
// keeps u = W x over the island's velocities, so row i's
//     w_i = b_i + d_i x_i + J_i u
// costs one dot product over the row's blocks (12 values for a contact
// between two rigid bodies) and its update x_i += dx one axpy of its
// responses, u += W_i dx. A sweep is O(rows x block size) where forming A
// is O(sum over blocks of rows on it squared) and a factorization of the
// velocity Hessian of a 3-D pile fills in far more (the Newton solver's).
// This is the sequential-impulse scheme of Bullet and Box2D and ODE's
// QuickStep written as what it is mathematically, so it converges to the
// same answer as pivot.solver.pgs on the assembled A (rows in the same
// order), with the same linear rate, sweep for sweep (up to rounding).
//
// Friction indices: row i's bounds are lo_i |x_j|, hi_i |x_j| at the
// current x_j (a contact's normal row comes before its friction rows, so
// within a contact the bounds are those of the normal impulse just
// updated). Block projections (cone friction models): the rows of a block
// take one projected gradient step together, x_B <- P_B(x_B - w_B / rho_B)
// with rho_B >= the largest eigenvalue of A_BB (Gershgorin over A_BB), the
// scheme of pivot.solver.pgs (whose fixed points are x_B = P_B(x_B - w_B)).
//
// Sweep order (packed rows; the general layout keeps the problem's order):
// contacts on disjoint bodies are swept together. Rows on the
// same blocks (a contact's normal and friction rows) form a group; each
// group not yet swept takes with it up to interleave - 1 of the next
// kLookahead groups that share no body with it or with each other, and
// their rows run in lockstep, lane by lane. Such groups touch disjoint
// velocities, so the lockstep does exactly what sweeping them one after
// the other would: the sweep is Gauss-Seidel over the groups in the order
// of these units (each group's rows in their own order). The CPU then
// overlaps their dependent chains (a row waits for the row before it on
// the same bodies: a contact's three rows form one chain). interleave = 1
// keeps the problem's order, which is pivot.solver.pgs's sweep for sweep.
//
// Stops at a natural-map residual below the tolerance (computed, O(rows),
// when the sweep's own estimate falls below it, and every check_interval
// sweeps when there are block projections), at max_iterations sweeps or when
// the time budget is spent; the last iterate is the answer, within its own
// bounds. Refuses (UNSUPPORTED) problems without the factored form: the
// host's chain then hands them to its next solver.
#include <cstdint>
#include <vector>

#include <pivot/plugin_solver.h>

namespace pivot::velocity_pgs {

struct Parameters {
    uint32_t max_iterations = 1000;  // sweeps per solve
    double tolerance = 1e-8;         // natural-map residual at which a solve stops
    double relaxation = 1.0;         // omega: 1 is Gauss-Seidel
    double time_budget = 0.0;        // s per solve when the options give none; 0 = none
    uint32_t check_interval = 4;     // sweeps between two residual checks with block projections
    uint32_t interleave = 3;         // groups swept together (1 = the problem's order)
};

// Schema order of the instance parameters (velocity_pgs_plugin.cpp).
constexpr uint32_t kParameterCount = 6;
// The most groups swept together, and how far ahead a group looks for
// partners (groups, in the problem's order).
constexpr uint32_t kMostInterleaved = 4;
constexpr uint32_t kLookahead = 32;
Parameters parameters_from(const double* values, uint32_t count);

// One instance of the plugin (sdk::solver_functions<VelocityGaussSeidel>()).
class VelocityGaussSeidel {
public:
    VelocityGaussSeidel(const pivot_host* /*host: no logging on the step path*/, const double* params, uint32_t count)
        : parameters_(parameters_from(params, count)) {}

    void set_params(const double* params, uint32_t count) { parameters_ = parameters_from(params, count); }
    void reset() {}
    void reserve(uint32_t n, uint32_t nnz);
    pivot_status solve(const pivot_lcp_problem* problem, const pivot_solve_options* options, double* x, double* w,
                       pivot_solve_report* report);

private:
    // 1 / A_ii of the box rows and the block steps; false (with the reason
    // in the report) when a diagonal is not positive.
    bool prepare(const pivot_lcp_problem& p, pivot_solve_report& report);
    // w_i = b_i + d_i x_i + J_i u.
    double row_w(const pivot_lcp_problem& p, uint32_t i, const double* x) const;
    // u += W_i delta over the blocks of row i.
    void add_response(uint32_t i, double delta);
    // One sweep; returns the largest natural map of the box rows as the
    // sweep met them (an estimate of the residual, exact at convergence).
    double sweep(const pivot_lcp_problem& p, double* x);
    // The units unit_begin..unit_end of a sweep on the packed layout, from
    // slot `slot`; returns the larger of seen and their rows' natural maps.
    double sweep_packed(const pivot_lcp_problem& p, double* x, uint32_t slot, uint32_t unit_begin, uint32_t unit_end,
                        double seen);
    // The sweep order (above) of the box rows begin..end: units_ and
    // slot_row_[begin..end). zero: the offset of the zero block in u_.
    void schedule(const pivot_lcp_problem& p, uint32_t begin, uint32_t end, uint32_t zero);
    // The rows in the packed layout (below), when every block is a rigid
    // body's.
    bool pack(const pivot_lcp_problem& p);
    // w_ = A x + b for every row and the natural-map residual (the block
    // projection's for block rows); false when a projection failed.
    bool residual(const pivot_lcp_problem& p, const double* x, double& value);

    Parameters parameters_;
    const pivot_factored_problem* f_ = nullptr;  // during solve() only
    uint32_t block_begin_ = 0, block_end_ = 0;   // the rows of the block projections
    std::vector<double> u_;                      // W x over the island's velocities
    std::vector<double> inverse_diagonal_;       // omega / A_ii
    std::vector<double> block_step_;             // omega / rho_B per projection block
    std::vector<double> w_;
    std::vector<double> before_;                 // a block's x before its projection
    // Packed rows (every row on one or two blocks of 6 velocities, each
    // Jacobian over its whole block: rigid bodies), in the sweep's order
    // (slots): per slot 24 contiguous values J_a, W_a, J_b, W_b and the
    // offsets of blocks a and b in u_ (a row on one block has b = the 6
    // zeros after the island's velocities and J_b = W_b = 0), so w_i and the
    // update are fixed-size loops over one cache-friendly stream.
    bool packed_ = false;
    std::vector<double> packed_rows_;
    std::vector<uint32_t> packed_blocks_;          // 2 per slot
    std::vector<uint32_t> row_blocks_;             // 2 per row: its blocks' offsets in u_
    std::vector<uint32_t> slot_row_, row_slot_;    // the row in a slot, the slot of a row
    struct Group {
        uint32_t first, count;  // rows
        bool shares;            // friction indices within the group: may share a unit
    };
    struct Unit {
        uint32_t lanes;     // groups
        uint32_t lockstep;  // rows of each group run in lockstep (lanes x lockstep slots)
        uint32_t singles;   // then the groups' other rows, one after another
    };
    std::vector<Group> groups_;
    std::vector<uint8_t> group_taken_;
    std::vector<Unit> units_;  // the box rows before the block projections, then those after
    uint32_t units_split_ = 0;
};

}  // namespace pivot::velocity_pgs
