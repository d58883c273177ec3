#include "velocity_gauss_seidel.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include <pivot/solver_support.hpp>

namespace pivot::velocity_pgs {

namespace {

using sdk::set_message;

// Two doubles in one register (SSE2 on x86-64, NEON on arm64; GCC and
// Clang vector extensions): a row's 12 products and 12 updates as 6 vector
// operations each instead of 12 scalar ones. Once the lanes of a unit
// overlap their chains (schedule()), the scalar sweep is bound by the
// floating-point units' throughput; on one lane the pairs gain nothing,
// the chain's latency bounds it (docs/benchmarks.md).
typedef double Pair __attribute__((vector_size(16)));

inline Pair load(const double* p) {
    Pair v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

inline void store(double* p, Pair v) { std::memcpy(p, &v, sizeof v); }

// J_i u over a packed row's two blocks (r: J_a, W_a, J_b, W_b): three
// independent pairs of partial sums, added as a tree (a chain of 12
// dependent additions would make each row wait ~12 add latencies for its
// w_i, and Gauss-Seidel's rows wait on each other through u).
inline double packed_dot(const double* r, const double* ua, const double* ub) {
    const Pair s01 = load(r) * load(ua) + load(r + 12) * load(ub);
    const Pair s23 = load(r + 2) * load(ua + 2) + load(r + 14) * load(ub + 2);
    const Pair s45 = load(r + 4) * load(ua + 4) + load(r + 16) * load(ub + 4);
    const Pair s = (s01 + s23) + s45;
    return s[0] + s[1];
}

// u_a += W_a delta, u_b += W_b delta.
inline void packed_update(const double* r, double* ua, double* ub, double delta) {
    const Pair d = {delta, delta};
    for (uint32_t c = 0; c < 6; c += 2) {
        store(ua + c, load(ua + c) + load(r + 6 + c) * d);
        store(ub + c, load(ub + c) + load(r + 18 + c) * d);
    }
}

}  // namespace

Parameters parameters_from(const double* values, uint32_t count) {
    Parameters p;
    if (count > 0) p.max_iterations = static_cast<uint32_t>(values[0]);
    if (count > 1) p.tolerance = values[1];
    if (count > 2) p.relaxation = values[2];
    if (count > 3) p.time_budget = values[3];
    if (count > 4) p.check_interval = std::max<uint32_t>(1, static_cast<uint32_t>(values[4]));
    if (count > 5) p.interleave = std::clamp<uint32_t>(static_cast<uint32_t>(values[5]), 1, kMostInterleaved);
    return p;
}

void VelocityGaussSeidel::reserve(uint32_t n, uint32_t /*nnz: A is never formed*/) {
    inverse_diagonal_.reserve(n);
    block_step_.reserve(n);
    w_.reserve(n);
    before_.reserve(n);
    packed_rows_.reserve(24 * static_cast<size_t>(n));
    packed_blocks_.reserve(2 * static_cast<size_t>(n));
    row_blocks_.reserve(2 * static_cast<size_t>(n));
    slot_row_.reserve(n);
    row_slot_.reserve(n);
    groups_.reserve(n);
    group_taken_.reserve(n);
    units_.reserve(n);
}

double VelocityGaussSeidel::row_w(const pivot_lcp_problem& p, uint32_t i, const double* x) const {
    const pivot_factored_problem& f = *f_;
    double s = p.b[i] + f.diagonal[i] * x[i];
    if (packed_) {
        const uint32_t k = row_slot_[i];
        const double* r = packed_rows_.data() + 24 * static_cast<size_t>(k);
        const double* ua = u_.data() + packed_blocks_[2 * k];
        const double* ub = u_.data() + packed_blocks_[2 * k + 1];
        return s + packed_dot(r, ua, ub);
    }
    for (uint32_t e = f.row_block_start[i]; e < f.row_block_start[i + 1]; ++e) {
        const pivot_row_block& rb = f.row_blocks[e];
        const double* j = f.jacobian + rb.jacobian_offset;
        const double* u = u_.data() + f.block_start[rb.block] + rb.first;
        for (uint32_t c = 0; c < rb.count; ++c) s += j[c] * u[c];
    }
    return s;
}

void VelocityGaussSeidel::add_response(uint32_t i, double delta) {
    const pivot_factored_problem& f = *f_;
    if (packed_) {
        const uint32_t k = row_slot_[i];
        const double* r = packed_rows_.data() + 24 * static_cast<size_t>(k);
        packed_update(r, u_.data() + packed_blocks_[2 * k], u_.data() + packed_blocks_[2 * k + 1], delta);
        return;
    }
    for (uint32_t e = f.row_block_start[i]; e < f.row_block_start[i + 1]; ++e) {
        const pivot_row_block& rb = f.row_blocks[e];
        const double* r = f.response + rb.response_offset;
        double* u = u_.data() + f.block_start[rb.block];
        const uint32_t size = f.block_start[rb.block + 1] - f.block_start[rb.block];
        for (uint32_t c = 0; c < size; ++c) u[c] += r[c] * delta;
    }
}

bool VelocityGaussSeidel::prepare(const pivot_lcp_problem& p, pivot_solve_report& report) {
    const pivot_solve_status valid = sdk::validate_problem(p, false, false, report.message);
    if (valid != PIVOT_SOLVE_CONVERGED) {
        report.status = valid;
        return false;
    }
    if (!sdk::has_factored_form(p)) {
        set_message(report.message, "this solver reads the factored form (ABI 1.4), which the problem does not have");
        report.status = PIVOT_SOLVE_UNSUPPORTED;
        return false;
    }
    const pivot_factored_problem& f = *p.factored;
    f_ = &f;
    const uint32_t n = p.n;
    for (uint32_t e = 0; e < f.row_block_start[n]; ++e) {
        const pivot_row_block& rb = f.row_blocks[e];
        if (rb.block >= f.block_count ||
            rb.first + rb.count > f.block_start[rb.block + 1] - f.block_start[rb.block]) {
            set_message(report.message, "factored form: row block %u acts on velocities %u..%u of block %u of %u", e,
                        rb.first, rb.first + rb.count, rb.block, f.block_count);
            report.status = PIVOT_SOLVE_INVALID_PROBLEM;
            return false;
        }
    }
    if (!sdk::projection_rows(p, block_begin_, block_end_, report.message)) {
        report.status = PIVOT_SOLVE_INVALID_PROBLEM;
        return false;
    }
    // The workspace grows only for a problem larger than any before (the
    // velocities are not known to reserve()).
    inverse_diagonal_.resize(n);
    w_.resize(n);
    before_.resize(n);
    block_step_.resize(p.block_count);
    u_.resize(f.block_start[f.block_count] + 6);  // + the zeros of packed rows on one block
    packed_ = pack(p);
    // A(i, j) = d_i [i = j] + sum over the blocks rows i and j share of
    // J_i,k . W_j,k (plugin_solver.h), for the block steps below.
    const auto a = [&](uint32_t i, uint32_t j) {
        double s = i == j ? f.diagonal[i] : 0.0;
        for (uint32_t e = f.row_block_start[i]; e < f.row_block_start[i + 1]; ++e) {
            const pivot_row_block& ri = f.row_blocks[e];
            for (uint32_t g = f.row_block_start[j]; g < f.row_block_start[j + 1]; ++g) {
                const pivot_row_block& rj = f.row_blocks[g];
                if (rj.block != ri.block) continue;
                const double* jac = f.jacobian + ri.jacobian_offset;
                const double* r = f.response + rj.response_offset + ri.first;
                for (uint32_t c = 0; c < ri.count; ++c) s += jac[c] * r[c];
            }
        }
        return s;
    };
    for (uint32_t i = 0; i < n; ++i) {
        // A_ii = d_i + sum over the row's blocks of J_i,k . W_i,k.
        double a_ii = f.diagonal[i];
        for (uint32_t e = f.row_block_start[i]; e < f.row_block_start[i + 1]; ++e) {
            const pivot_row_block& rb = f.row_blocks[e];
            const double* jac = f.jacobian + rb.jacobian_offset;
            const double* r = f.response + rb.response_offset + rb.first;
            for (uint32_t c = 0; c < rb.count; ++c) a_ii += jac[c] * r[c];
        }
        if (!(a_ii > 0.0)) {
            set_message(report.message,
                        "row %u: diagonal A(%u,%u) = %g is not positive (Gauss-Seidel divides by it)", i, i, i, a_ii);
            report.status = PIVOT_SOLVE_INVALID_PROBLEM;
            return false;
        }
        inverse_diagonal_[i] = parameters_.relaxation / a_ii;
    }
    // Block k moves as a whole with step 1 / rho_k, rho_k >= the largest
    // eigenvalue of A_BB (Gershgorin), as in pivot.solver.pgs.
    for (uint32_t k = 0; k < p.block_count; ++k) {
        double rho = 0.0;
        for (uint32_t i = p.block_first_row[k]; i < p.block_first_row[k + 1]; ++i) {
            double row_sum = 0.0;
            for (uint32_t j = p.block_first_row[k]; j < p.block_first_row[k + 1]; ++j) row_sum += std::abs(a(i, j));
            rho = std::max(rho, row_sum);
        }
        block_step_[k] = parameters_.relaxation / rho;  // rho >= the positive diagonal
    }
    return true;
}

bool VelocityGaussSeidel::pack(const pivot_lcp_problem& p) {
    const pivot_factored_problem& f = *f_;
    // Each row's blocks (one pass: every block must be a whole rigid body's),
    // then the order of the sweep (schedule()), then the rows' values in
    // that order.
    const uint32_t zero = f.block_start[f.block_count];
    row_blocks_.assign(2 * static_cast<size_t>(p.n), zero);
    for (uint32_t i = 0; i < p.n; ++i) {
        const uint32_t blocks = f.row_block_start[i + 1] - f.row_block_start[i];
        if (blocks < 1 || blocks > 2) return false;
        for (uint32_t e = f.row_block_start[i], side = 0; e < f.row_block_start[i + 1]; ++e, ++side) {
            const pivot_row_block& rb = f.row_blocks[e];
            if (rb.first != 0 || rb.count != 6 || f.block_start[rb.block + 1] - f.block_start[rb.block] != 6) {
                return false;
            }
            row_blocks_[2 * i + side] = f.block_start[rb.block];
        }
    }
    slot_row_.resize(p.n);
    row_slot_.resize(p.n);
    units_.clear();
    for (uint32_t i = block_begin_; i < block_end_; ++i) slot_row_[i] = i;
    schedule(p, 0, block_begin_, zero);
    units_split_ = static_cast<uint32_t>(units_.size());
    schedule(p, block_end_, p.n, zero);
    packed_rows_.assign(24 * static_cast<size_t>(p.n), 0.0);
    packed_blocks_.resize(2 * static_cast<size_t>(p.n));
    for (uint32_t k = 0; k < p.n; ++k) {
        const uint32_t i = slot_row_[k];
        row_slot_[i] = k;
        double* r = packed_rows_.data() + 24 * static_cast<size_t>(k);
        for (uint32_t e = f.row_block_start[i], side = 0; e < f.row_block_start[i + 1]; ++e, ++side) {
            const pivot_row_block& rb = f.row_blocks[e];
            std::copy(f.jacobian + rb.jacobian_offset, f.jacobian + rb.jacobian_offset + 6, r + 12 * side);
            std::copy(f.response + rb.response_offset, f.response + rb.response_offset + 6, r + 12 * side + 6);
        }
        packed_blocks_[2 * k] = row_blocks_[2 * i];
        packed_blocks_[2 * k + 1] = row_blocks_[2 * i + 1];
    }
    return true;
}

void VelocityGaussSeidel::schedule(const pivot_lcp_problem& p, uint32_t begin, uint32_t end, uint32_t zero) {
    // Groups: runs of rows on the same blocks (a contact's normal and
    // friction rows, or several contacts between the same two bodies). A
    // group may share a unit only when its rows' friction indices point to
    // earlier rows of the group itself (a contact's normal row).
    groups_.clear();
    for (uint32_t i = begin; i < end;) {
        Group g{i, 0, true};
        const auto same_blocks = [&](uint32_t r) {
            return row_blocks_[2 * r] == row_blocks_[2 * i] && row_blocks_[2 * r + 1] == row_blocks_[2 * i + 1];
        };
        for (uint32_t r = i; r < end && same_blocks(r); ++r, ++g.count) {
            const int32_t j = p.findex != nullptr ? p.findex[r] : -1;
            if (j >= 0 && !(static_cast<uint32_t>(j) >= i && static_cast<uint32_t>(j) < r)) g.shares = false;
        }
        groups_.push_back(g);
        i += g.count;
    }
    // Units: each group not yet taken, with the first later groups (within
    // kLookahead) that share no block with it or with each other, up to
    // `interleave` groups. The zero block of rows on one block never
    // changes (their W_b is 0), so it is shared by no one.
    const auto independent = [&](const Group& g, const Group& h) {
        for (uint32_t side = 0; side < 2; ++side) {
            const uint32_t block = row_blocks_[2 * g.first + side];
            if (block != zero && (block == row_blocks_[2 * h.first] || block == row_blocks_[2 * h.first + 1])) {
                return false;
            }
        }
        return true;
    };
    group_taken_.assign(groups_.size(), 0);
    const auto group_count = static_cast<uint32_t>(groups_.size());
    uint32_t slot = begin;
    for (uint32_t gi = 0; gi < group_count; ++gi) {
        if (group_taken_[gi]) continue;
        uint32_t lane[kMostInterleaved] = {gi};
        uint32_t lanes = 1;
        if (groups_[gi].shares) {
            const uint32_t last = std::min(group_count, gi + 1 + kLookahead);
            for (uint32_t hi = gi + 1; hi < last && lanes < parameters_.interleave; ++hi) {
                if (group_taken_[hi] || !groups_[hi].shares) continue;
                bool free = true;
                for (uint32_t l = 0; l < lanes && free; ++l) free = independent(groups_[lane[l]], groups_[hi]);
                if (free) lane[lanes++] = hi;
            }
        }
        // The groups' first rows in lockstep, lane by lane, then the rest
        // of each group in turn.
        uint32_t lockstep = lanes > 1 ? groups_[gi].count : 0, rows = 0;
        for (uint32_t l = 0; l < lanes; ++l) {
            group_taken_[lane[l]] = 1;
            lockstep = std::min(lockstep, groups_[lane[l]].count);
            rows += groups_[lane[l]].count;
        }
        for (uint32_t k = 0; k < lockstep; ++k) {
            for (uint32_t l = 0; l < lanes; ++l) slot_row_[slot++] = groups_[lane[l]].first + k;
        }
        for (uint32_t l = 0; l < lanes; ++l) {
            const Group& g = groups_[lane[l]];
            for (uint32_t k = lockstep; k < g.count; ++k) slot_row_[slot++] = g.first + k;
        }
        units_.push_back({lanes, lockstep, rows - lanes * lockstep});
    }
}

double VelocityGaussSeidel::sweep(const pivot_lcp_problem& p, double* x) {
    // The natural map of each box row at the point the sweep meets it,
    // |x_i - mid(l_i, u_i, x_i - w_i)|: free with the update, and at the
    // answer the residual itself (the rows change by nothing there).
    double seen = 0.0;
    const auto update_row = [&](uint32_t i) {
        double lower = 0.0, upper = 0.0;
        sdk::row_bounds(p, x, i, lower, upper);
        const double xi = x[i];
        const double wi = row_w(p, i, x);
        const double natural = std::abs(xi - std::min(upper, std::max(lower, xi - wi)));
        if (!(natural <= seen)) seen = natural;  // NaN included
        const double target = std::min(upper, std::max(lower, xi - wi * inverse_diagonal_[i]));
        if (target != xi) {
            x[i] = target;
            add_response(i, target - xi);
        }
    };
    if (packed_) {
        seen = sweep_packed(p, x, 0, 0, units_split_, seen);
    } else {
        for (uint32_t i = 0; i < block_begin_; ++i) update_row(i);
    }
    for (uint32_t k = 0; k < p.block_count; ++k) {
        const uint32_t begin = p.block_first_row[k];
        const uint32_t end = p.block_first_row[k + 1];
        for (uint32_t i = begin; i < end; ++i) w_[i] = row_w(p, i, x);
        for (uint32_t i = begin; i < end; ++i) {
            before_[i] = x[i];
            x[i] -= block_step_[k] * w_[i];
        }
        // A failed projection shows in residual(), which projects again.
        p.project(p.project_context, k, 1, x);
        for (uint32_t i = begin; i < end; ++i) {
            if (x[i] != before_[i]) add_response(i, x[i] - before_[i]);
        }
    }
    if (packed_) return sweep_packed(p, x, block_end_, units_split_, static_cast<uint32_t>(units_.size()), seen);
    for (uint32_t i = block_end_; i < p.n; ++i) update_row(i);
    return seen;
}

double VelocityGaussSeidel::sweep_packed(const pivot_lcp_problem& p, double* x, uint32_t slot, uint32_t unit_begin,
                                         uint32_t unit_end, double seen) {
    // update_row() of sweep() with row_w() and add_response() on the packed
    // rows written out (the same arithmetic, no branch on the layout and no
    // call per row), unit by unit: the lanes of a unit in lockstep (their
    // w first, then their updates: they touch disjoint velocities).
    const double* diagonal = f_->diagonal;
    const double* inverse_diagonal = inverse_diagonal_.data();
    const uint32_t* blocks = packed_blocks_.data();
    const uint32_t* rows = slot_row_.data();
    const double* packed = packed_rows_.data();
    double* u = u_.data();
    const auto target_of = [&](uint32_t k, double& xi, double& target) {
        const uint32_t i = rows[k];
        double lower = 0.0, upper = 0.0;
        sdk::row_bounds(p, x, i, lower, upper);
        xi = x[i];
        const double* r = packed + 24 * static_cast<size_t>(k);
        const double wi = p.b[i] + diagonal[i] * xi + packed_dot(r, u + blocks[2 * k], u + blocks[2 * k + 1]);
        const double natural = std::abs(xi - std::min(upper, std::max(lower, xi - wi)));
        if (!(natural <= seen)) seen = natural;  // NaN included
        target = std::min(upper, std::max(lower, xi - wi * inverse_diagonal[i]));
    };
    const auto apply = [&](uint32_t k, double xi, double target) {
        if (target == xi) return;
        x[rows[k]] = target;
        packed_update(packed + 24 * static_cast<size_t>(k), u + blocks[2 * k], u + blocks[2 * k + 1], target - xi);
    };
    const auto lockstep = [&](auto lanes_constant, uint32_t count) {
        constexpr uint32_t L = decltype(lanes_constant)::value;
        for (uint32_t k = 0; k < count; ++k, slot += L) {
            double xs[L], ts[L];
            for (uint32_t l = 0; l < L; ++l) target_of(slot + l, xs[l], ts[l]);
            for (uint32_t l = 0; l < L; ++l) apply(slot + l, xs[l], ts[l]);
        }
    };
    for (uint32_t unit = unit_begin; unit < unit_end; ++unit) {
        const Unit& un = units_[unit];
        switch (un.lanes) {
            case 2: lockstep(std::integral_constant<uint32_t, 2>{}, un.lockstep); break;
            case 3: lockstep(std::integral_constant<uint32_t, 3>{}, un.lockstep); break;
            case 4: lockstep(std::integral_constant<uint32_t, 4>{}, un.lockstep); break;
            default: break;
        }
        for (uint32_t k = 0; k < un.singles; ++k, ++slot) {
            double xa, ta;
            target_of(slot, xa, ta);
            apply(slot, xa, ta);
        }
    }
    return seen;
}

bool VelocityGaussSeidel::residual(const pivot_lcp_problem& p, const double* x, double& value) {
    for (uint32_t i = 0; i < p.n; ++i) w_[i] = row_w(p, i, x);
    return sdk::natural_map_residual_with_blocks(p, x, w_.data(), block_begin_, block_end_, before_.data(), value);
}

pivot_status VelocityGaussSeidel::solve(const pivot_lcp_problem* problem, const pivot_solve_options* options,
                                        double* x, double* w, pivot_solve_report* report) {
    const sdk::Stopwatch clock;
    pivot_status early = PIVOT_ERROR;
    if (!sdk::begin_solve(problem, options, x, report, clock, early)) return early;
    const pivot_lcp_problem& p = *problem;
    if ((options->flags & PIVOT_SOLVE_WARM_START) == 0) std::fill(x, x + p.n, 0.0);
    if (!prepare(p, *report)) return sdk::finish(report, static_cast<pivot_solve_status>(report->status), 0, 0.0,
                                                 clock.seconds());
    // The warm start within its own bounds, and u = W x.
    sdk::clamp_to_own_bounds(p, x);
    std::fill(u_.begin(), u_.end(), 0.0);  // the packed rows' 6 zeros at the end stay 0 (W_b = 0)
    for (uint32_t i = 0; i < p.n; ++i) {
        if (x[i] != 0.0) add_response(i, x[i]);
    }
    const double budget = options->time_budget_seconds > 0.0 ? options->time_budget_seconds : parameters_.time_budget;
    double r = HUGE_VAL;
    if (!residual(p, x, r)) {
        set_message(report->message, "the block projection failed");
        return sdk::finish(report, PIVOT_SOLVE_NUMERICAL_ERROR, 0, HUGE_VAL, clock.seconds());
    }
    pivot_solve_status status = PIVOT_SOLVE_CONVERGED;
    uint32_t sweeps = 0;
    while (r > parameters_.tolerance) {
        if (sweeps >= parameters_.max_iterations) {
            status = PIVOT_SOLVE_MAX_ITERATIONS;
            break;
        }
        // At least one sweep: a spent budget still gets the answer one
        // sweep improves (a sweep is O(rows), far below any step's budget
        // that holds the rows' assembly), never the bare warm start.
        if (budget > 0.0 && sweeps > 0 && clock.seconds() >= budget) {
            status = PIVOT_SOLVE_TIME_BUDGET;
            break;
        }
        const double seen = sweep(p, x);
        ++sweeps;
        // The residual itself (a pass over the rows) when the sweep's own
        // estimate says it may be converged, and every check_interval
        // sweeps when blocks (which the estimate does not see) are present.
        const bool maybe = p.block_count == 0 && seen <= parameters_.tolerance;
        const bool periodic = p.block_count > 0 && sweeps % parameters_.check_interval == 0;
        if (maybe || periodic || !std::isfinite(seen)) {
            if (!residual(p, x, r)) {
                set_message(report->message, "the block projection failed");
                return sdk::finish(report, PIVOT_SOLVE_NUMERICAL_ERROR, sweeps, HUGE_VAL, clock.seconds());
            }
            if (!std::isfinite(r)) {
                set_message(report->message, "the iterate diverged (residual %g after %u sweeps)", r, sweeps);
                return sdk::finish(report, PIVOT_SOLVE_NUMERICAL_ERROR, sweeps, r, clock.seconds());
            }
        }
    }
    if (status != PIVOT_SOLVE_CONVERGED) {
        // The answer: x within its own bounds (a friction row ahead of its
        // normal row may lag its bound by one update), judged as it is.
        for (uint32_t i = 0; i < p.n; ++i) before_[i] = x[i];
        sdk::clamp_to_own_bounds(p, x);
        for (uint32_t i = 0; i < p.n; ++i) {
            if (x[i] != before_[i]) add_response(i, x[i] - before_[i]);
        }
        if (!residual(p, x, r)) r = HUGE_VAL;
        set_message(report->message, "%s after %u sweeps, natural-map residual %.3g",
                    status == PIVOT_SOLVE_MAX_ITERATIONS ? "stopped at max_iterations" : "time budget spent", sweeps,
                    r);
    }
    if (w != nullptr) std::copy(w_.begin(), w_.begin() + p.n, w);
    f_ = nullptr;
    return sdk::finish(report, status, sweeps, r, clock.seconds());
}

}  // namespace pivot::velocity_pgs
