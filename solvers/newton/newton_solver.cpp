#include "newton_solver.hpp"

#include <algorithm>
#include <cmath>

#include <pivot/solver_support.hpp>

namespace pivot::newton {

Parameters parameters_from(const double* values, uint32_t count) {
    Parameters p;
    if (count > 0) p.max_iterations = static_cast<uint32_t>(values[0]);
    if (count > 1) p.tolerance = values[1];
    if (count > 2) p.proximal = values[2];
    return p;
}

namespace {

// J_i v over the row's blocks.
double row_dot(const pivot_factored_problem& f, uint32_t i, const double* v) {
    double s = 0.0;
    for (uint32_t e = f.row_block_start[i]; e < f.row_block_start[i + 1]; ++e) {
        const pivot_row_block& rb = f.row_blocks[e];
        const double* j = f.jacobian + rb.jacobian_offset;
        const double* vb = v + f.block_start[rb.block] + rb.first;
        for (uint32_t c = 0; c < rb.count; ++c) s += j[c] * vb[c];
    }
    return s;
}

}  // namespace

void NewtonSolver::reserve(uint32_t n, uint32_t /*nnz*/) {
    for (auto* v : {&diagonal_, &centre_, &row_x_, &y_, &coefficient_, &weight_, &answer_, &w_, &answer_w_, &lower_, &upper_}) {
        v->reserve(n);
    }
    state_.reserve(n);
    factored_state_.reserve(n);
    couplings_.reserve(n);
    factored_couplings_.reserve(n);
}

double NewtonSolver::held_friction(uint32_t i) const {
    const auto j = static_cast<uint32_t>(p_->findex[i]);
    const double mu = state_[i] == kLower ? p_->lo[i] : p_->hi[i];
    return centre_[j] < 0.0 ? -mu : mu;
}

void NewtonSolver::rows_at(const double* dv) {
    const pivot_lcp_problem& p = *p_;
    // y_ = the round's w at x: w_c + J dv + d' (x - c) (held rows; 0 on free ones).
    for (uint32_t i = 0; i < p.n; ++i) y_[i] = row_dot(*f_, i, dv);
    for (int pass = 0; pass < 2; ++pass) {  // normal rows first: held friction rows follow them
        for (uint32_t i = 0; i < p.n; ++i) {
            const bool indexed = p.findex != nullptr && p.findex[i] >= 0;
            if (indexed != (pass == 1)) continue;
            if (state_[i] == kFree) {
                row_x_[i] = centre_[i] - (w_[i] + y_[i]) / diagonal_[i];
            } else if (!indexed || frozen_) {
                row_x_[i] = state_[i] == kLower ? lower_[i] : upper_[i];
            } else {
                const auto j = static_cast<uint32_t>(p.findex[i]);
                row_x_[i] = state_[j] == kFree ? held_friction(i) * row_x_[j]
                                               : (state_[i] == kLower ? p.lo[i] : p.hi[i]) * std::abs(row_x_[j]);
            }
            y_[i] += w_[i] + diagonal_[i] * (row_x_[i] - centre_[i]);
        }
    }
}

uint32_t NewtonSolver::wrong_rows(bool change, bool all, uint32_t& last) {
    const pivot_lcp_problem& p = *p_;
    const double tolerance = parameters_.tolerance;
    uint32_t wrong = 0;
    const uint32_t only = last;
    for (uint32_t i = 0; i < p.n; ++i) {
        double lower = lower_[i], upper = upper_[i];
        if (!frozen_) sdk::row_bounds(p, row_x_.data(), i, lower, upper);
        const double x = row_x_[i];
        const double w = y_[i];  // this iteration's w (0 on a free row)
        int8_t next = state_[i];
        if (state_[i] == kFree) {
            if (x < lower - tolerance) next = kLower;
            else if (x > upper + tolerance) next = kUpper;
        } else if (lower != upper && (state_[i] == kLower ? w < -tolerance : w > tolerance)) {
            next = kFree;
        }
        if (next == state_[i]) continue;
        ++wrong;
        if (!change) {
            last = i;
        } else if (all || i == only) {
            state_[i] = next;
        }
    }
    return wrong;
}

void NewtonSolver::add_transpose(const double* x, double* f) const {
    for (uint32_t i = 0; i < p_->n; ++i) {
        if (x[i] == 0.0) continue;
        for (uint32_t e = f_->row_block_start[i]; e < f_->row_block_start[i + 1]; ++e) {
            const pivot_row_block& rb = f_->row_blocks[e];
            const double* j = f_->jacobian + rb.jacobian_offset;
            double* fb = f + f_->block_start[rb.block] + rb.first;
            for (uint32_t c = 0; c < rb.count; ++c) fb[c] += j[c] * x[i];
        }
    }
}

void NewtonSolver::velocities_of(const double* x, double* v) const {
    std::fill(v, v + f_->block_start[f_->block_count], 0.0);
    for (uint32_t i = 0; i < p_->n; ++i) {
        if (x[i] == 0.0) continue;
        for (uint32_t e = f_->row_block_start[i]; e < f_->row_block_start[i + 1]; ++e) {
            const pivot_row_block& rb = f_->row_blocks[e];
            const uint32_t first = f_->block_start[rb.block], nv = f_->block_start[rb.block + 1] - first;
            const double* response = f_->response + rb.response_offset;
            for (uint32_t r = 0; r < nv; ++r) v[first + r] += response[r] * x[i];
        }
    }
}

double NewtonSolver::finish_answer(double* x, double* w, double* v) {
    const pivot_lcp_problem& p = *p_;
    const uint32_t n = p.n;
    sdk::clamp_to_own_bounds(p, x);
    velocities_of(x, v);
    for (uint32_t i = 0; i < n; ++i) w[i] = row_dot(*f_, i, v) + f_->diagonal[i] * x[i] + p.b[i];
    return sdk::natural_map_residual(p, x, w);
}

pivot_status NewtonSolver::solve(const pivot_lcp_problem* problem, const pivot_solve_options* options, double* x,
                                 double* w, pivot_solve_report* report) {
    const sdk::Stopwatch clock;
    if (problem == nullptr || options == nullptr || report == nullptr || (problem->n > 0 && x == nullptr)) {
        return PIVOT_ERROR;
    }
    const pivot_lcp_problem& p = *problem;
    const pivot_solve_status valid = sdk::validate_problem(p, false, false, report->message);
    if (valid != PIVOT_SOLVE_CONVERGED) return sdk::finish(report, valid, 0, HUGE_VAL, clock.seconds());
    const auto refuse = [&](const char* why) {
        sdk::set_message(report->message, "%s", why);
        return sdk::finish(report, PIVOT_SOLVE_UNSUPPORTED, 0, HUGE_VAL, clock.seconds());
    };
    const uint32_t n = p.n;
    if (n == 0) return sdk::finish(report, PIVOT_SOLVE_CONVERGED, 0, 0.0, clock.seconds());
    if (!sdk::has_mass_blocks(p)) {
        return refuse("this solver reads the factored form with the mass blocks (a step's problem, ABI 1.5)");
    }
    if (p.block_count > 0 && p.project != nullptr) {
        return refuse("block projections (cone friction models) are not handled by this solver");
    }
    const pivot_factored_problem& f = *p.factored;
    for (uint32_t k = 0; k < f.block_count; ++k) {
        if (f.mass_offset[k] == PIVOT_NO_MASS_BLOCK) {
            sdk::set_message(report->message, "block %u has no mass matrix (a cable's block)", k);
            return sdk::finish(report, PIVOT_SOLVE_UNSUPPORTED, 0, HUGE_VAL, clock.seconds());
        }
    }
    p_ = &p;
    f_ = &f;
    const uint32_t velocities = f.block_start[f.block_count];
    for (auto* v : {&diagonal_, &centre_, &row_x_, &y_, &coefficient_, &weight_, &answer_, &w_, &answer_w_, &lower_, &upper_}) {
        v->resize(n);
    }
    state_.resize(n);
    answer_w_.resize(n);
    for (auto* v : {&v_, &answer_v_, &step_}) v->resize(velocities);

    // d'_i = d_i + rho_i >= proximal A_ii (A_ii = J_i W_i + d_i).
    for (uint32_t i = 0; i < n; ++i) {
        double a = 0.0;
        for (uint32_t e = f.row_block_start[i]; e < f.row_block_start[i + 1]; ++e) {
            const pivot_row_block& rb = f.row_blocks[e];
            const double* j = f.jacobian + rb.jacobian_offset;
            const double* response = f.response + rb.response_offset + rb.first;
            for (uint32_t c = 0; c < rb.count; ++c) a += j[c] * response[c];
        }
        const double d = std::max(f.diagonal[i], 0.0);
        const double least = parameters_.proximal * (a + d);
        diagonal_[i] = std::max(d, least > 0.0 ? least : parameters_.proximal);
    }
    if (!hessian_.set_pattern(f, n, p.findex)) {
        sdk::set_message(report->message, "the ordering workspace could not be sized");
        return sdk::finish(report, PIVOT_SOLVE_OUT_OF_MEMORY, 0, HUGE_VAL, clock.seconds());
    }

    // The first centre: the warm start within its bounds (or zero).
    const bool warm = (options->flags & PIVOT_SOLVE_WARM_START) != 0;
    for (uint32_t i = 0; i < n; ++i) centre_[i] = warm && std::isfinite(x[i]) ? x[i] : 0.0;
    double residual = finish_answer(centre_.data(), w_.data(), v_.data());
    const auto keep = [&](const std::vector<double>& answer, const std::vector<double>& answer_w) {
        std::copy(answer.begin(), answer.end(), x);  // the best answer so far, with its w
        if (w != nullptr) std::copy(answer_w.begin(), answer_w.end(), w);
    };
    keep(centre_, w_);
    uint32_t iterations = 0;
    const double budget = options->time_budget_seconds;
    const auto stop = [&](pivot_solve_status status, const char* why) {
        sdk::set_message(report->message, "%s at residual %.3g after %u iterations", why, residual, iterations);
        sdk::finish(report, status, iterations, residual, clock.seconds());
        return PIVOT_WARNING;  // x: the best answer so far, usable (finite, within its bounds)
    };
    // Friction bounds frozen at the centre's normal impulses: a boxed
    // problem with a symmetric H, where block pivoting with Murty's rule
    // ends (A positive definite). From a cold start (no normal impulse
    // known) that is the frictionless problem, solved first; once solved,
    // the couplings come back from its states.
    const auto freeze = [&] {
        frozen_ = true;
        for (uint32_t i = 0; i < n; ++i) sdk::row_bounds(p, centre_.data(), i, lower_[i], upper_[i]);
    };
    // The rows' states from the natural map at the centre (x - w against
    // the bounds): a resting pile keeps them from step to step. A friction
    // row whose normal row carries nothing yet starts sticking (free) when
    // its normal row starts free: at its bound it would slide.
    const auto start_states = [&] {
        bool any_normal = false;
        for (uint32_t i = 0; i < n && p.findex != nullptr; ++i) {
            if (p.findex[i] >= 0) any_normal = any_normal || centre_[static_cast<uint32_t>(p.findex[i])] != 0.0;
        }
        frozen_ = false;
        for (uint32_t i = 0; i < n; ++i) lower_[i] = p.lo[i], upper_[i] = p.hi[i];
        if (p.findex != nullptr && !any_normal) freeze();
        for (int pass = 0; pass < 2; ++pass) {
            for (uint32_t i = 0; i < n; ++i) {
                const bool indexed = p.findex != nullptr && p.findex[i] >= 0;
                if (indexed != (pass == 1)) continue;
                double lower = lower_[i], upper = upper_[i];
                if (!frozen_) sdk::row_bounds(p, centre_.data(), i, lower, upper);
                // A row at a bound whose w is zero to the tolerance (friction
                // at its limit without slipping, a contact touching with
                // no force) stays held: the natural map alone would free it
                // by the rounding of w, and pivoting would hold it again.
                const double xi = centre_[i], wi = w_[i], z = xi - wi, tol = parameters_.tolerance;
                state_[i] = lower == upper || z <= lower || (xi <= lower && wi >= -tol) ? kLower
                            : z >= upper || (xi >= upper && wi <= tol)                   ? kUpper
                                                                                         : kFree;
                if (indexed && !frozen_ && lower == upper && state_[static_cast<uint32_t>(p.findex[i])] == kFree) {
                    state_[i] = kFree;
                }
            }
        }
    };
    start_states();
    bool restarted = false;
    factored_state_.assign(n, -1);  // nothing factored yet
    factored_couplings_.clear();
    uint32_t best_wrong = UINT32_MAX, grace = 3, no_gain = 0;
    while (residual > parameters_.tolerance) {
        if (iterations >= parameters_.max_iterations) return stop(PIVOT_SOLVE_MAX_ITERATIONS, "stopped");
        if (budget > 0.0 && clock.seconds() > budget) return stop(PIVOT_SOLVE_TIME_BUDGET, "out of time");
        // H and the right-hand side for the states, as a correction dv, dx
        // from the centre c (v_c = W c in v_, its w in w_): Mbar dv = J^T dx
        // with dx_i = -(w_i + J_i dv) / d'_i on the free rows, so the
        // right-hand side is of the size of the residual (iterative
        // refinement: rounding does not grow with the proximal weights).
        couplings_.clear();
        for (uint32_t i = 0; i < n; ++i) weight_[i] = state_[i] == kFree ? 1.0 / diagonal_[i] : 0.0;
        for (uint32_t i = 0; i < n; ++i) {
            const bool indexed = p.findex != nullptr && p.findex[i] >= 0;
            if (state_[i] == kFree) {
                coefficient_[i] = -w_[i] / diagonal_[i];
            } else if (!indexed || frozen_) {
                coefficient_[i] = (state_[i] == kLower ? lower_[i] : upper_[i]) - centre_[i];
            } else {
                const auto j = static_cast<uint32_t>(p.findex[i]);
                if (state_[j] == kFree) {
                    // x_i = mu s x_j, x_j = c_j - (w_j + J_j dv) / d'_j
                    const double mu = held_friction(i);
                    couplings_.push_back({i, j, mu / diagonal_[j]});
                    coefficient_[i] = mu * (centre_[j] - w_[j] / diagonal_[j]) - centre_[i];
                } else {
                    coefficient_[i] = (state_[i] == kLower ? p.lo[i] : p.hi[i]) *
                                          std::abs(state_[j] == kLower ? p.lo[j] : p.hi[j]) -
                                      centre_[i];
                }
            }
        }
        if (state_ != factored_state_ || couplings_ != factored_couplings_) {
            if (!hessian_.factor(f, n, weight_.data(), couplings_)) {
                if (iterations > 0) return stop(PIVOT_SOLVE_NUMERICAL_ERROR, "the matrix met a zero pivot");
                sdk::set_message(report->message, "the matrix's factorization met a zero pivot");
                return sdk::finish(report, PIVOT_SOLVE_NUMERICAL_ERROR, 0, HUGE_VAL, clock.seconds());
            }
            factored_state_ = state_;
            factored_couplings_ = couplings_;
        }
        std::fill(step_.begin(), step_.end(), 0.0);
        add_transpose(coefficient_.data(), step_.data());
        hessian_.solve(step_.data());
        ++iterations;
        rows_at(step_.data());
        std::copy(row_x_.begin(), row_x_.end(), answer_.begin());
        const double r = finish_answer(answer_.data(), answer_w_.data(), answer_v_.data());
        if (!std::isfinite(r)) {
            sdk::set_message(report->message, "the answer is not finite");
            return sdk::finish(report, PIVOT_SOLVE_NUMERICAL_ERROR, iterations, HUGE_VAL, clock.seconds());
        }
        no_gain = r < residual ? 0 : no_gain + 1;
        if (r < residual) {
            residual = r;
            keep(answer_, answer_w_);
        }
        if (residual <= parameters_.tolerance) break;
        // Exchange every wrong row while that reduces their count (3
        // iterations of grace), else only the last one (Murty's rule).
        uint32_t last = 0;
        const uint32_t wrong = wrong_rows(false, true, last);
        if (wrong < best_wrong) no_gain = 0;
        if (frozen_ && wrong == 0) {
            // The frozen problem is solved: back to the exact friction
            // index from its states; a friction row that was held at a
            // zero bound (its normal carried nothing) starts sticking.
            frozen_ = false;
            for (uint32_t i = 0; i < n && p.findex != nullptr; ++i) {
                if (p.findex[i] >= 0 && lower_[i] == upper_[i] &&
                    state_[static_cast<uint32_t>(p.findex[i])] == kFree) {
                    state_[i] = kFree;
                }
            }
            for (uint32_t i = 0; i < n; ++i) lower_[i] = p.lo[i], upper_[i] = p.hi[i];
            best_wrong = UINT32_MAX, grace = 3, no_gain = 0;
            std::swap(centre_, answer_);
            std::swap(w_, answer_w_);
            std::swap(v_, answer_v_);
            continue;
        }
        // Neither the residual nor the count of wrong rows improved for 16
        // iterations: the pivoting cycles (the friction couplings, or a warm
        // start far from the answer: contacts that changed their ids). Once,
        // it starts again cold: the frictionless problem first (frozen zero
        // friction bounds), which does not cycle, then the couplings.
        if (no_gain >= 16 && !restarted) {
            restarted = true;
            std::fill(centre_.begin(), centre_.end(), 0.0);
            finish_answer(centre_.data(), w_.data(), v_.data());
            start_states();
            best_wrong = UINT32_MAX, grace = 3, no_gain = 0;
            continue;
        }
        if (no_gain >= 48) return stop(PIVOT_SOLVE_NUMERICAL_ERROR, "the iterations stall");
        const bool all = wrong < best_wrong || grace > 0;
        if (wrong < best_wrong) {
            best_wrong = wrong;
            grace = 3;
        } else if (grace > 0) {
            --grace;
        }
        wrong_rows(true, all, last);
        // In a block exchange, the friction rows of a normal row that just
        // became free start sticking (held at a bound they would slide;
        // not in Murty's single exchanges, whose termination it would break).
        for (uint32_t i = 0; i < n && all && !frozen_ && p.findex != nullptr; ++i) {
            const int32_t j = p.findex[i];
            if (j >= 0 && state_[static_cast<uint32_t>(j)] == kFree &&
                factored_state_[static_cast<uint32_t>(j)] != kFree) {
                state_[i] = kFree;
            }
        }
        // The next centre: this answer (the proximal rows refined around it).
        std::swap(centre_, answer_);
        std::swap(w_, answer_w_);
        std::swap(v_, answer_v_);
    }
    return sdk::finish(report, PIVOT_SOLVE_CONVERGED, iterations, residual, clock.seconds());
}

}  // namespace pivot::newton
