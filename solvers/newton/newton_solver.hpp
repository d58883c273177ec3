#pragma once
// pivot.solver.newton: large contact islands (piles, stacks, pyramids)
// solved exactly in a few Newton iterations, with linear algebra in the
// island's velocities (docs/solvers.md "The Newton solver").
//
// The step's problem (plugin_solver.h) with A = J Mbar^-1 J^T + diag(d),
// d > 0, and each row free (inside its bounds) or held at a bound is, for
// given row states, a linear system in the velocity change v (the
// optimality condition of MuJoCo's primal problem, Todorov 2014, "Convex
// and analytically-invertible dynamics with contacts and constraints",
// ICRA, restricted to those states):
//     Mbar v = J^T x,   x_i = -(J_i v + b_i) / d_i   (free rows),
//                       x_i = its bound              (held rows),
// i.e. H v = sum_free J_i^T (-b_i / d_i) + sum_held J_i^T x_i with
//     H = Mbar + sum over the free rows of J_i^T J_i / d_i,
// sparse in the island's blocks (velocity_hessian.hpp): a pile of 120
// boxes is a 720 x 720 block matrix, where A is 2700 x 2700. A friction
// row held at its bound mu_i |x_j| follows its normal row j, so when j is
// free x_i = -mu_i s_j (J_j v + b_j) / d_j enters H as (mu_i s_j / d_j)
// J_i^T J_j (s_j the normal impulse's sign): the friction index is exact
// in the linear system, not iterated.
//
// The states are found by block principal pivoting (Judice & Pires 1994,
// "A block principal pivoting algorithm for large-scale strictly monotone
// linear complementarity problems", Comput. Oper. Res. 21(5)), the
// semismooth Newton method on the natural map: every row whose state is
// wrong (a free row outside its bounds, a held row pulled away from its
// bound) changes at once while that reduces their count, else only the
// last one (Murty's rule). The first states are the natural map's at the
// warm start, so a resting pile takes one factorization. With the friction
// couplings, or from a warm start far from the answer, the pivoting can
// cycle; from a cold start (no normal impulse known), and once after such a
// stall, the friction bounds are frozen at zero: the frictionless problem,
// a boxed problem with a symmetric H where Murty's rule ends; once it is
// solved the couplings come back from its states.
//
// Rows with d_i = 0 (rigid joints) or tiny d_i get a proximal term
// rho_i (x_i - c_i)^2 / 2 with d_i + rho_i = proximal * A_ii, around a centre
// c moved to each iteration's answer (the proximal point method,
// Rockafellar 1976): iterative refinement towards the exact problem.
// Every answer is judged by the exact problem's natural-map residual, with
// the friction bounds at its own normal impulses.
//
// Needs the factored form with the mass blocks (ABI 1.5); islands with a
// cable's block, block projections (cone friction models) or problems read
// from files are refused (UNSUPPORTED) and go to the next solver of the
// chain. A time budget or the iteration cap gives the best answer so far.
#include <cstdint>
#include <vector>

#include <pivot/plugin_solver.h>

#include "velocity_hessian.hpp"

namespace pivot::newton {

struct Parameters {
    uint32_t max_iterations = 100;  // Newton iterations per solve, over all proximal rounds
    double tolerance = 1e-10;       // natural-map residual of an accepted answer
    double proximal = 1e-8;         // d_i + rho_i >= proximal * A_ii on every row
};

// Schema order of the instance parameters (newton_plugin.cpp).
constexpr uint32_t kParameterCount = 3;
Parameters parameters_from(const double* values, uint32_t count);

// One instance of the plugin (sdk::solver_functions<NewtonSolver>()).
class NewtonSolver {
public:
    NewtonSolver(const pivot_host* /*host: no logging on the step path*/, const double* params, uint32_t count)
        : parameters_(parameters_from(params, count)) {}

    void set_params(const double* params, uint32_t count) { parameters_ = parameters_from(params, count); }
    void reset() { hessian_.reset(); }
    void reserve(uint32_t n, uint32_t nnz);
    pivot_status solve(const pivot_lcp_problem* problem, const pivot_solve_options* options, double* x, double* w,
                       pivot_solve_report* report);

private:
    enum State : int8_t { kFree = 0, kLower = 1, kUpper = 2 };

    // The rows' x at the velocity correction dv from the centre, for their
    // states (a held friction row's from its normal row's x), and y_ =
    // this iteration's w of each row (0 on the free ones).
    void rows_at(const double* dv);
    // How many rows' states are wrong at row_x_ (the last in `last`); with
    // `change`, they change (all, or only the last when !all).
    uint32_t wrong_rows(bool change, bool all, uint32_t& last);
    // f += J^T x.
    void add_transpose(const double* x, double* f) const;
    // v = Mbar^-1 J^T x through the responses.
    void velocities_of(const double* x, double* v) const;
    // x within its own friction bounds (normal rows first), then v = W x,
    // w = A x + b and the natural-map residual.
    double finish_answer(double* x, double* w, double* v);
    // The multiplier of a held friction row (lo or hi by its state) times
    // the sign of its normal impulse at the centre.
    double held_friction(uint32_t i) const;

    Parameters parameters_;
    VelocityHessian hessian_;
    const pivot_lcp_problem* p_ = nullptr;  // during solve() only
    const pivot_factored_problem* f_ = nullptr;
    std::vector<double> diagonal_;   // d_i + rho_i
    std::vector<double> centre_;
    std::vector<double> row_x_;      // the rows' x at v
    std::vector<double> y_;          // this iteration's w
    std::vector<double> coefficient_;  // the right-hand side's J^T coefficients
    std::vector<double> weight_;     // 1 / d' of the free rows, 0 else
    bool frozen_ = false;            // friction bounds frozen (lower_, upper_ hold them)
    std::vector<double> lower_, upper_;  // the rows' bounds when frozen; lo, hi else
    std::vector<VelocityHessian::Coupling> couplings_, factored_couplings_;
    std::vector<int8_t> state_, factored_state_;
    std::vector<double> answer_;     // an iterate's x as an answer of the exact problem
    std::vector<double> w_, answer_w_;     // the centre's and the answer's w = A x + b
    std::vector<double> v_, answer_v_;     // their W x
    std::vector<double> step_;             // the velocity correction
};

}  // namespace pivot::newton
