// pivot/solver_support.hpp - header-only helpers for writing a solver plugin
// in C++ against <pivot/plugin_solver.h>. Optional: the ABI is the C header;
// this only saves every solver from re-writing the same checks. First-party
// solvers use it exactly as a third-party one would.
//
//  - validate_problem(): the input checks every solver must make (sizes,
//    pointers, NaN/Inf, ordered bounds, valid friction indices).
//  - row_bounds(), multiply(), natural_map_residual(): the problem's meaning.
//  - finish(): fills the report and returns the status the ABI asks for.
//  - instance_functions<Solver>(): the C life-cycle table for a C++ class,
//    with no exception ever crossing the ABI; solver_functions<Solver>():
//    the whole solver table (life cycle, reserve, solve).
#ifndef PIVOT_SOLVER_SUPPORT_HPP
#define PIVOT_SOLVER_SUPPORT_HPP

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <new>

#include "pivot/plugin_solver.h"

namespace pivot::sdk {

// Message buffer of a report (PIVOT_MESSAGE_CAPACITY bytes, NUL included).
inline void set_message(char (&message)[PIVOT_MESSAGE_CAPACITY], const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
inline void set_message(char (&message)[PIVOT_MESSAGE_CAPACITY], const char* format, ...) {
    va_list args;
    va_start(args, format);
    std::vsnprintf(message, PIVOT_MESSAGE_CAPACITY, format, args);
    va_end(args);
}

// Whether the problem carries the factored form of A (ABI 1.4,
// plugin_solver.h): a host of 1.4 or later that filled it (its 1.4 fields:
// a 1.4 host's struct ends before the 1.5 mass fields).
inline bool has_factored_form(const pivot_lcp_problem& p) {
    return p.struct_size >= sizeof(pivot_lcp_problem) && p.factored != nullptr &&
           p.factored->struct_size >= offsetof(pivot_factored_problem, mass);
}

// Whether the factored form also carries the mass blocks (ABI 1.5): a host
// of 1.5 or later that filled them (for PIVOT_SOLVER_CAP_MASS_BLOCKS).
inline bool has_mass_blocks(const pivot_lcp_problem& p) {
    return has_factored_form(p) && p.factored->struct_size >= sizeof(pivot_factored_problem) &&
           p.factored->mass != nullptr && p.factored->mass_offset != nullptr;
}

// Checks what the ABI says a problem is. Returns PIVOT_SOLVE_CONVERGED when
// fine, else PIVOT_SOLVE_INVALID_PROBLEM / UNSUPPORTED with the reason in
// `message`. need_dense / need_sparse: which matrix the solver reads.
inline pivot_solve_status validate_problem(const pivot_lcp_problem& p, bool need_dense, bool need_sparse,
                                           char (&message)[PIVOT_MESSAGE_CAPACITY]) {
    if (p.n > 0 && (p.b == nullptr || p.lo == nullptr || p.hi == nullptr)) {
        set_message(message, "b, lo and hi must be given");
        return PIVOT_SOLVE_INVALID_PROBLEM;
    }
    if (need_dense && p.n > 0 && (p.dense == nullptr || p.lda < p.n)) {
        set_message(message, "this solver reads the dense matrix, which is missing (or lda < n)");
        return PIVOT_SOLVE_UNSUPPORTED;
    }
    if (p.n > 0 && p.dense != nullptr && p.lda < p.n) {
        set_message(message, "the dense matrix has lda = %u < n = %u", p.lda, p.n);
        return PIVOT_SOLVE_INVALID_PROBLEM;
    }
    if (p.n > 0 && p.dense == nullptr && p.col_start == nullptr && !has_factored_form(p)) {
        set_message(message, "the problem has neither a dense nor a sparse matrix nor a factored form");
        return PIVOT_SOLVE_INVALID_PROBLEM;
    }
    if (need_sparse && p.n > 0 && (p.col_start == nullptr || p.row_index == nullptr || p.values == nullptr)) {
        set_message(message, "this solver reads the sparse (CSC) matrix, which is missing");
        return PIVOT_SOLVE_UNSUPPORTED;
    }
    for (uint32_t i = 0; i < p.n; ++i) {
        if (!std::isfinite(p.b[i])) {
            set_message(message, "b[%u] = %g is not finite", i, p.b[i]);
            return PIVOT_SOLVE_INVALID_PROBLEM;
        }
        if (std::isnan(p.lo[i]) || std::isnan(p.hi[i]) || p.lo[i] > p.hi[i] || p.lo[i] == HUGE_VAL ||
            p.hi[i] == -HUGE_VAL) {
            set_message(message, "row %u: bounds [%g, %g] are not an interval", i, p.lo[i], p.hi[i]);
            return PIVOT_SOLVE_INVALID_PROBLEM;
        }
        const int32_t j = p.findex != nullptr ? p.findex[i] : -1;
        if (j != -1) {
            if (j < 0 || static_cast<uint32_t>(j) >= p.n || static_cast<uint32_t>(j) == i) {
                set_message(message, "row %u: findex %d is not another row", i, j);
                return PIVOT_SOLVE_INVALID_PROBLEM;
            }
            if (p.findex[j] >= 0) {
                set_message(message, "row %u: findex %d points at a row that has a friction index itself", i, j);
                return PIVOT_SOLVE_INVALID_PROBLEM;
            }
            if (!std::isfinite(p.lo[i]) || !std::isfinite(p.hi[i]) || p.lo[i] > 0 || p.hi[i] < 0) {
                set_message(message, "row %u: friction multipliers [%g, %g] must be finite with lo <= 0 <= hi", i,
                            p.lo[i], p.hi[i]);
                return PIVOT_SOLVE_INVALID_PROBLEM;
            }
        }
    }
    // Only the matrix the solver reads is scanned (O(n^2) for a dense one).
    const bool scan_dense = p.dense != nullptr && (need_dense || !need_sparse);
    const bool scan_sparse = p.col_start != nullptr && p.row_index != nullptr && p.values != nullptr &&
                             (need_sparse || !need_dense);
    if (scan_dense) {
        for (uint32_t j = 0; j < p.n; ++j) {
            for (uint32_t i = 0; i < p.n; ++i) {
                const double a = p.dense[i + static_cast<size_t>(j) * p.lda];
                if (!std::isfinite(a)) {
                    set_message(message, "A(%u, %u) = %g is not finite", i, j, a);
                    return PIVOT_SOLVE_INVALID_PROBLEM;
                }
            }
        }
    }
    if (scan_sparse) {
        if (p.col_start[0] != 0 || p.col_start[p.n] != static_cast<int32_t>(p.nnz)) {
            set_message(message, "CSC column pointers do not span the %u nonzeros", p.nnz);
            return PIVOT_SOLVE_INVALID_PROBLEM;
        }
        for (uint32_t j = 0; j < p.n; ++j) {
            if (p.col_start[j + 1] < p.col_start[j]) {
                set_message(message, "CSC column pointers decrease at column %u", j);
                return PIVOT_SOLVE_INVALID_PROBLEM;
            }
            for (int32_t k = p.col_start[j]; k < p.col_start[j + 1]; ++k) {
                if (p.row_index[k] < 0 || static_cast<uint32_t>(p.row_index[k]) >= p.n ||
                    (k > p.col_start[j] && p.row_index[k] <= p.row_index[k - 1])) {
                    set_message(message, "CSC column %u: row indices must be ascending within 0..%u", j, p.n - 1);
                    return PIVOT_SOLVE_INVALID_PROBLEM;
                }
                if (!std::isfinite(p.values[k])) {
                    set_message(message, "A(%d, %u) = %g is not finite", p.row_index[k], j, p.values[k]);
                    return PIVOT_SOLVE_INVALID_PROBLEM;
                }
            }
        }
    }
    return PIVOT_SOLVE_CONVERGED;
}

// The rows of a problem's block projections (plugin_solver.h): [begin, end)
// = [block_first_row[0], block_first_row[block_count]), or n, n without
// blocks. False (the reason in `message`) when the blocks lack a project
// function or their first rows are not ascending within 0..n.
inline bool projection_rows(const pivot_lcp_problem& p, uint32_t& begin, uint32_t& end,
                            char (&message)[PIVOT_MESSAGE_CAPACITY]) {
    begin = end = p.n;
    if (p.block_count == 0) return true;
    const uint32_t* first = p.block_first_row;
    bool ordered = first != nullptr && p.project != nullptr && first[p.block_count] <= p.n;
    for (uint32_t k = 0; ordered && k < p.block_count; ++k) ordered = first[k] < first[k + 1];
    if (!ordered) {
        set_message(message, "block projection: %u blocks need a project function and ascending first rows within 0..%u",
                    p.block_count, p.n);
        return false;
    }
    begin = first[0];
    end = first[p.block_count];
    return true;
}

// True when the problem has no finite bounds other than lo = 0, hi = inf and
// no friction index: a standard LCP.
inline bool is_standard_lcp(const pivot_lcp_problem& p) {
    for (uint32_t i = 0; i < p.n; ++i) {
        if (p.lo[i] != 0.0 || p.hi[i] != HUGE_VAL) return false;
        if (p.findex != nullptr && p.findex[i] >= 0) return false;
    }
    return true;
}

// Bounds of row i at x (friction index: multipliers of |x_j|).
inline void row_bounds(const pivot_lcp_problem& p, const double* x, uint32_t i, double& lower, double& upper) {
    lower = p.lo[i];
    upper = p.hi[i];
    if (p.findex != nullptr && p.findex[i] >= 0) {
        const double scale = std::abs(x[p.findex[i]]);
        lower *= scale;
        upper *= scale;
    }
}

// x within its own bounds: rows without a friction index first, then the
// friction rows within lo_i |x_j| .. hi_i |x_j| of the normal impulses just
// clamped (the answer a solver may hand back as usable).
inline void clamp_to_own_bounds(const pivot_lcp_problem& p, double* x) {
    for (int pass = 0; pass < 2; ++pass) {
        for (uint32_t i = 0; i < p.n; ++i) {
            const bool indexed = p.findex != nullptr && p.findex[i] >= 0;
            if (indexed != (pass == 1)) continue;
            double lower = 0.0, upper = 0.0;
            row_bounds(p, x, i, lower, upper);
            x[i] = std::min(upper, std::max(lower, x[i]));
        }
    }
}

// w = A x + b (dense if given, else CSC).
inline void multiply(const pivot_lcp_problem& p, const double* x, double* w) {
    std::copy(p.b, p.b + p.n, w);
    if (p.dense != nullptr) {
        for (uint32_t j = 0; j < p.n; ++j) {
            const double* column = p.dense + static_cast<size_t>(j) * p.lda;
            const double xj = x[j];
            if (xj == 0.0) continue;
            for (uint32_t i = 0; i < p.n; ++i) w[i] += column[i] * xj;
        }
        return;
    }
    for (uint32_t j = 0; j < p.n; ++j) {
        const double xj = x[j];
        if (xj == 0.0) continue;
        for (int32_t k = p.col_start[j]; k < p.col_start[j + 1]; ++k) w[p.row_index[k]] += p.values[k] * xj;
    }
}

// max_i |x_i - mid(l_i, u_i, x_i - w_i)|, w = A x + b given.
inline double natural_map_residual(const pivot_lcp_problem& p, const double* x, const double* w) {
    double r = 0.0;
    for (uint32_t i = 0; i < p.n; ++i) {
        double l = 0.0;
        double u = 0.0;
        row_bounds(p, x, i, l, u);
        r = std::max(r, std::abs(x[i] - std::min(u, std::max(l, x[i] - w[i]))));
    }
    return r;
}

// max over rows [begin, end) of |x_i - mid(l_i, u_i, x_i - w_i)|, w = A x + b
// given (bounds with the friction index at x); a NaN passes through.
inline double natural_map_residual(const pivot_lcp_problem& p, const double* x, const double* w, uint32_t begin,
                                   uint32_t end) {
    double r = 0.0;
    for (uint32_t i = begin; i < end; ++i) {
        double lower = 0.0, upper = 0.0;
        row_bounds(p, x, i, lower, upper);
        const double d = std::abs(x[i] - std::min(upper, std::max(lower, x[i] - w[i])));
        if (!(d <= r)) r = d;  // NaN included
    }
    return r;
}

// The natural-map residual of a problem with block projections (rows
// [block_begin, block_end), projection_rows()): the box rows' as above and
// each block's |x_B - P_B(x_B - w_B)| through the problem's projection
// (scratch: n values). A NaN passes through. False when the projection
// fails.
inline bool natural_map_residual_with_blocks(const pivot_lcp_problem& p, const double* x, const double* w,
                                             uint32_t block_begin, uint32_t block_end, double* scratch,
                                             double& value) {
    value = natural_map_residual(p, x, w, 0, block_begin);
    const double after_blocks = natural_map_residual(p, x, w, block_end, p.n);
    if (!(after_blocks <= value)) value = after_blocks;
    if (p.block_count == 0) return true;
    for (uint32_t i = block_begin; i < block_end; ++i) scratch[i] = x[i] - w[i];
    const pivot_status status = p.project(p.project_context, 0, p.block_count, scratch);
    if (status != PIVOT_OK && status != PIVOT_WARNING) return false;
    for (uint32_t i = block_begin; i < block_end; ++i) {
        const double d = std::abs(x[i] - scratch[i]);
        if (!(d <= value)) value = d;
    }
    return true;
}

// Wall-clock time since construction.
class Stopwatch {
public:
    Stopwatch() : start_(std::chrono::steady_clock::now()) {}
    double seconds() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }

private:
    std::chrono::steady_clock::time_point start_;
};

// Fills the report (respecting the host's struct_size) and returns the ABI
// status for it: OK when converged, WARNING when stopped early by iterations
// or time with a usable x, ERROR otherwise. A finite method that ends with a
// usable but conditioning-limited x reports NUMERICAL_ERROR and returns
// PIVOT_WARNING itself (plugin_solver.h; see the Lemke plugin).
inline pivot_status finish(pivot_solve_report* report, pivot_solve_status status, uint32_t iterations,
                           double residual, double seconds) {
    if (report != nullptr) {
        report->status = status;
        report->iterations = iterations;
        report->residual = residual;
        report->time_seconds = seconds;
        if (status == PIVOT_SOLVE_CONVERGED) report->message[0] = '\0';
    }
    switch (status) {
        case PIVOT_SOLVE_CONVERGED: return PIVOT_OK;
        case PIVOT_SOLVE_MAX_ITERATIONS:
        case PIVOT_SOLVE_TIME_BUDGET: return PIVOT_WARNING;
        default: return PIVOT_ERROR;
    }
}

// The checks a solve() begins with (plugin_solver.h): the report reset; a
// problem, options and (for n > 0) x given; a warm start's values finite.
// Returns true when the solve goes on; otherwise the report is finished
// (an empty problem is solved, bad arguments are INVALID_PROBLEM) and
// `result` holds what solve() returns.
inline bool begin_solve(const pivot_lcp_problem* problem, const pivot_solve_options* options, const double* x,
                        pivot_solve_report* report, const Stopwatch& clock, pivot_status& result) {
    result = PIVOT_ERROR;
    if (report == nullptr) return false;
    report->status = PIVOT_SOLVE_INVALID_PROBLEM;
    report->iterations = 0;
    report->reserved = 0;
    report->residual = 0.0;
    report->time_seconds = 0.0;
    report->message[0] = '\0';
    if (problem == nullptr || options == nullptr || (problem->n > 0 && x == nullptr)) {
        set_message(report->message, "no problem, options or x given");
        result = finish(report, PIVOT_SOLVE_INVALID_PROBLEM, 0, 0.0, clock.seconds());
        return false;
    }
    if (problem->n == 0) {
        result = finish(report, PIVOT_SOLVE_CONVERGED, 0, 0.0, clock.seconds());
        return false;
    }
    if ((options->flags & PIVOT_SOLVE_WARM_START) != 0) {
        for (uint32_t i = 0; i < problem->n; ++i) {
            if (!std::isfinite(x[i])) {
                set_message(report->message, "warm start x[%u] = %g is not finite", i, x[i]);
                result = finish(report, PIVOT_SOLVE_INVALID_PROBLEM, 0, 0.0, clock.seconds());
                return false;
            }
        }
    }
    return true;
}

// The pivot_instance_functions of a C++ solver class. Solver must provide:
//   Solver(const pivot_host* host, const double* params, uint32_t count)  (may throw)
//   Solver(const Solver&)                                                (clone)
//   void set_params(const double* params, uint32_t count)
//   void reset()
// Exceptions become PIVOT_ERROR (std::bad_alloc included); nothing escapes.
template <class Solver>
pivot_instance_functions instance_functions() {
    pivot_instance_functions f{};
    f.create = [](const pivot_host* host, const double* params, uint32_t count, void** out) -> pivot_status {
        try {
            *out = new Solver(host, params, count);
            return PIVOT_OK;
        } catch (...) {
            *out = nullptr;
            return PIVOT_ERROR;
        }
    };
    f.destroy = [](void* instance) { delete static_cast<Solver*>(instance); };
    f.clone = [](const void* instance, void** out) -> pivot_status {
        try {
            *out = new Solver(*static_cast<const Solver*>(instance));
            return PIVOT_OK;
        } catch (...) {
            *out = nullptr;
            return PIVOT_ERROR;
        }
    };
    f.reset = [](void* instance) -> pivot_status {
        static_cast<Solver*>(instance)->reset();
        return PIVOT_OK;
    };
    f.set_params = [](void* instance, const double* params, uint32_t count) -> pivot_status {
        try {
            static_cast<Solver*>(instance)->set_params(params, count);
            return PIVOT_OK;
        } catch (...) {
            return PIVOT_ERROR;
        }
    };
    return f;
}

// The pivot_solver_functions of a C++ solver class: instance_functions<Solver>()
// and reserve() and solve() forwarded to
//   void reserve(uint32_t n, uint32_t nnz)                                   (may throw)
//   pivot_status solve(const pivot_lcp_problem* problem, const pivot_solve_options* options,
//                      double* x, double* w, pivot_solve_report* report)
// No exception crosses the ABI: from reserve() it becomes PIVOT_ERROR; from
// solve() the report says OUT_OF_MEMORY (std::bad_alloc) or NUMERICAL_ERROR
// ("internal error") and PIVOT_ERROR is returned.
template <class Solver>
pivot_solver_functions solver_functions() {
    pivot_solver_functions f{};
    f.struct_size = sizeof(f);
    f.instance = instance_functions<Solver>();
    f.reserve = [](void* instance, uint32_t n, uint32_t nnz) -> pivot_status {
        if (instance == nullptr) return PIVOT_ERROR;
        try {
            static_cast<Solver*>(instance)->reserve(n, nnz);
            return PIVOT_OK;
        } catch (...) {
            return PIVOT_ERROR;
        }
    };
    f.solve = [](void* instance, const pivot_lcp_problem* problem, const pivot_solve_options* options, double* x,
                 double* w, pivot_solve_report* report) -> pivot_status {
        if (instance == nullptr) return PIVOT_ERROR;
        const auto fail = [report](pivot_solve_status status, const char* why) {
            if (report == nullptr) return PIVOT_ERROR;
            set_message(report->message, "%s", why);
            return finish(report, status, 0, HUGE_VAL, 0.0);
        };
        try {
            return static_cast<Solver*>(instance)->solve(problem, options, x, w, report);
        } catch (const std::bad_alloc&) {
            return fail(PIVOT_SOLVE_OUT_OF_MEMORY, "out of memory");
        } catch (...) {
            return fail(PIVOT_SOLVE_NUMERICAL_ERROR, "internal error");
        }
    };
    return f;
}

}  // namespace pivot::sdk

#endif  // PIVOT_SOLVER_SUPPORT_HPP
