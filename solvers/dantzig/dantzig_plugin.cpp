// pivot.solver.dantzig: the plugin's ABI surface. Descriptor, parameters,
// instance life cycle, input checks and the report; the algorithm is in
// boxed_pivoting.cpp.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <new>
#include <stdexcept>

#include "boxed_pivoting.hpp"
#include "pivot/plugin_solver.h"
#include "pivot/solver_support.hpp"
#include "symmetric_matrix.hpp"

namespace pivot::dantzig {
namespace {

constexpr const char* kId = "pivot.solver.dantzig";

// Parameter schema, in the order the values are packed.
enum Param : uint32_t { kMaxIterations, kTolerance, kMaxPivotsPerRow, kSingularPivotRatio, kParamCount };

const pivot_param_info kParams[kParamCount] = {
    {sizeof(pivot_param_info), PIVOT_PARAM_INT, 1, 0, "max_iterations", "1",
     "pivoting passes, the first included: bounds the friction-consistency iteration", 200.0, 1.0, 1e6, nullptr, 0,
     0},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1, PIVOT_PARAM_MIN_EXCLUSIVE, "tolerance", "",
     "natural-map residual to reach (units of x)", 1e-10, 0.0, 1.0, nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1, 0, "max_pivots_per_row", "1",
     "cap on the pivots of one solve, per row of the problem", 50.0, 1.0, 1e6, nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1, PIVOT_PARAM_MIN_EXCLUSIVE, "singular_pivot_ratio", "1",
     "a pivot below this times A_ii counts as zero (the row is dependent and stays out of the factor)", 1e-10,
     0.0, 1e-2, nullptr, 0, 0},
};

class DantzigSolver {
public:
    // The host's services are not used: nothing is logged on the step path,
    // everything goes into the report.
    DantzigSolver(const pivot_host* /*host*/, const double* params, uint32_t count) { set_params(params, count); }
    DantzigSolver(const DantzigSolver&) = default;
    DantzigSolver& operator=(const DantzigSolver&) = delete;

    void set_params(const double* params, uint32_t count) {
        if (params == nullptr || count != kParamCount) throw std::invalid_argument("parameter count");
        // Values are validated by the host against the schema.
        max_iterations_ = static_cast<uint32_t>(params[kMaxIterations]);
        tolerance_ = params[kTolerance];
        max_pivots_per_row_ = params[kMaxPivotsPerRow];
        singular_pivot_ratio_ = params[kSingularPivotRatio];
    }

    // Nothing carries over between solves except workspace: warm starts
    // come in through x.
    void reset() {}

    void reserve(uint32_t n, uint32_t nnz) {
        matrix_.reserve(n, std::max<std::size_t>(nnz, n));
        pivoting_.reserve(n);
        w_.reserve(n);
    }

    pivot_status solve(const pivot_lcp_problem* problem, const pivot_solve_options* options, double* x, double* w,
                       pivot_solve_report* report) {
        const sdk::Stopwatch clock;
        if (problem == nullptr || options == nullptr || report == nullptr || (problem->n > 0 && x == nullptr)) {
            if (report != nullptr) sdk::set_message(report->message, "problem, options, x and report must be given");
            return sdk::finish(report, PIVOT_SOLVE_INVALID_PROBLEM, 0, 0.0, clock.seconds());
        }
        const pivot_lcp_problem& p = *problem;
        if (p.n > 0 && p.dense == nullptr && p.col_start == nullptr) {
            sdk::set_message(report->message, "neither the dense nor the sparse matrix is given");
            return sdk::finish(report, PIVOT_SOLVE_INVALID_PROBLEM, 0, 0.0, clock.seconds());
        }
        // The CSC matrix when given (it is already sparse), else the dense one.
        const bool reads_csc = p.col_start != nullptr && p.row_index != nullptr && p.values != nullptr;
        const pivot_solve_status valid = sdk::validate_problem(p, !reads_csc, reads_csc, report->message);
        if (valid != PIVOT_SOLVE_CONVERGED) return sdk::finish(report, valid, 0, 0.0, clock.seconds());
        if (p.findex != nullptr) {
            for (uint32_t i = 0; i < p.n; ++i) {
                const int32_t j = p.findex[i];
                if (j >= 0 && p.findex[j] >= 0) {
                    // The consistency iteration treats the referenced row's
                    // x as given by the pivoting, not as another scaled bound.
                    sdk::set_message(report->message,
                                     "row %u: friction index %d refers to a row that has a friction index itself "
                                     "(chains are not supported)",
                                     i, j);
                    return sdk::finish(report, PIVOT_SOLVE_UNSUPPORTED, 0, 0.0, clock.seconds());
                }
            }
        }
        if (p.n == 0) return sdk::finish(report, PIVOT_SOLVE_CONVERGED, 0, 0.0, clock.seconds());
        if (!matrix_.assign(p, report->message)) {
            return sdk::finish(report, PIVOT_SOLVE_UNSUPPORTED, 0, 0.0, clock.seconds());
        }
        // Within the reserved size nothing below allocates; a larger problem
        // grows the workspace here, once.
        w_.resize(p.n);

        PivotingSettings settings;
        settings.tolerance = tolerance_;
        settings.max_passes = max_iterations_;
        settings.max_pivots = static_cast<uint64_t>(std::ceil(max_pivots_per_row_ * p.n)) + 100;
        settings.singular_pivot_ratio = singular_pivot_ratio_;
        settings.time_budget_seconds = options->struct_size >= offsetof(pivot_solve_options, time_budget_seconds) +
                                                                      sizeof(options->time_budget_seconds)
                                           ? options->time_budget_seconds
                                           : 0.0;
        const bool warm = (options->flags & PIVOT_SOLVE_WARM_START) != 0u;
        if (warm) {
            for (uint32_t i = 0; i < p.n; ++i) {
                if (!std::isfinite(x[i])) {
                    sdk::set_message(report->message, "warm start x[%u] = %g is not finite", i, x[i]);
                    return sdk::finish(report, PIVOT_SOLVE_INVALID_PROBLEM, 0, 0.0, clock.seconds());
                }
            }
        }
        const BoxedProblem boxed{&matrix_, p.b, p.lo, p.hi, p.findex};
        const PivotingOutcome outcome = pivoting_.solve(boxed, settings, warm, x, w_.data(), clock);
        if (w != nullptr) std::copy(w_.begin(), w_.end(), w);
        if (outcome.status != PIVOT_SOLVE_CONVERGED) {
            std::memcpy(report->message, outcome.message, sizeof(outcome.message));
        }
        const uint32_t iterations = static_cast<uint32_t>(std::min<uint64_t>(outcome.pivots, UINT32_MAX));
        if (!std::isfinite(outcome.residual)) {
            sdk::set_message(report->message, "the pivoting broke down (non-finite result)");
            return sdk::finish(report, PIVOT_SOLVE_NUMERICAL_ERROR, iterations, 0.0, clock.seconds());
        }
        return sdk::finish(report, outcome.status, iterations, outcome.residual, clock.seconds());
    }

private:
    uint32_t max_iterations_ = 200;
    double tolerance_ = 1e-10;
    double max_pivots_per_row_ = 50.0;
    double singular_pivot_ratio_ = 1e-10;
    SymmetricMatrix matrix_;
    BoxedPivoting pivoting_;
    std::vector<double> w_;
};

pivot_status reserve(void* instance, uint32_t n, uint32_t nnz) {
    try {
        static_cast<DantzigSolver*>(instance)->reserve(n, nnz);
        return PIVOT_OK;
    } catch (...) {
        return PIVOT_ERROR;
    }
}

pivot_status solve(void* instance, const pivot_lcp_problem* problem, const pivot_solve_options* options, double* x,
                   double* w, pivot_solve_report* report) {
    try {
        return static_cast<DantzigSolver*>(instance)->solve(problem, options, x, w, report);
    } catch (const std::bad_alloc&) {
        // Only a problem larger than the reserved size allocates.
        if (report != nullptr) sdk::set_message(report->message, "out of memory growing the workspace");
        return sdk::finish(report, PIVOT_SOLVE_OUT_OF_MEMORY, 0, 0.0, 0.0);
    } catch (...) {
        if (report != nullptr) sdk::set_message(report->message, "internal error");
        return sdk::finish(report, PIVOT_SOLVE_NUMERICAL_ERROR, 0, 0.0, 0.0);
    }
}

const pivot_solver_functions kFunctions = [] {
    pivot_solver_functions f{};
    f.struct_size = sizeof(pivot_solver_functions);
    f.instance = sdk::instance_functions<DantzigSolver>();
    f.reserve = reserve;
    f.solve = solve;
    return f;
}();

const pivot_plugin_descriptor kDescriptor = {
    sizeof(pivot_plugin_descriptor),
    PIVOT_ABI_MAJOR,
    PIVOT_ABI_MINOR,
    PIVOT_KIND_SOLVER,
    kId,
    "Dantzig principal pivoting (boxed, friction index)",
    "Pivot",
    "1.0.0",
    "Dantzig/Baraff principal pivoting with LDL^T updates for boxed LCPs with friction index on symmetric PSD "
    "matrices; friction bounds made consistent (true solutions)",
    PIVOT_SOLVER_CAP_BOXED | PIVOT_SOLVER_CAP_FRICTION_INDEX | PIVOT_SOLVER_CAP_STANDARD_LCP | PIVOT_SOLVER_CAP_DENSE |
        PIVOT_SOLVER_CAP_SPARSE | PIVOT_SOLVER_CAP_WARM_START | PIVOT_SOLVER_CAP_TIME_BUDGET |
        PIVOT_SOLVER_CAP_DETERMINISTIC,
    kParams,
    kParamCount,
    0,
    &kFunctions,
};

const pivot_plugin_descriptor* const kPlugins[] = {&kDescriptor};

const pivot_plugin_library kLibrary = {
    sizeof(pivot_plugin_library), PIVOT_ABI_MAJOR, PIVOT_ABI_MINOR, 1, kPlugins, nullptr, nullptr,
};

}  // namespace
}  // namespace pivot::dantzig

PIVOT_PLUGIN_ENTRY {
    (void)host_abi_minor;
    return host_abi_major == PIVOT_ABI_MAJOR ? &pivot::dantzig::kLibrary : nullptr;
}
