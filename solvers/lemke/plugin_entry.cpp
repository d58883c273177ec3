// The library entry of pivot.solver.lemke: descriptor, parameter schema and
// the solver function table. The only exported symbol is pivot_plugin_entry.
#include <cmath>

#include <pivot/solver_support.hpp>

#include "lemke_solver.hpp"

namespace {

using pivot::lemke::LemkeSolver;

// refactor_interval = 200 by measurement on lcp-bench (2-core machine, CPU
// time per solve for intervals 40 / 200 / 400): n = 333 normal 1.8 / 1.3 /
// 1.2 ms; the 999-row friction problem with fixed bounds (a 1029-row
// standard LCP, 732 pivots) 88 / 53 / 51 ms. Below ~100 the O(k^3)
// refactorizations dominate; above ~200 nothing is gained and the eta
// storage (2 n x interval numbers) grows.
const pivot_param_info kParams[pivot::lemke::kParamCount] = {
    {sizeof(pivot_param_info), PIVOT_PARAM_INT, 1, 0, "max_iterations", "",
     "pivot cap; 0 = automatic, 50 n + 1000 for the n-row standard LCP solved", 0.0, 0.0, 1e9, nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1, 0, "tolerance", "",
     "natural-map residual up to which the final solution is accepted", 1e-10, 0.0, HUGE_VAL, nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1, PIVOT_PARAM_MIN_EXCLUSIVE, "pivot_tolerance", "1",
     "entries of the entering column below this fraction of its largest entry cannot be pivots", 1e-11, 0.0, 1e-2,
     nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_INT, 1, 0, "refactor_interval", "",
     "pivots between fresh factorizations of the basis (product-form updates in between)", 200.0, 1.0, 10000.0,
     nullptr, 0, 0},
    {sizeof(pivot_param_info), PIVOT_PARAM_INT, 1, 0, "crash_sweeps", "",
     "fewest projected Gauss-Seidel sweeps (from the warm start, else 0) before a starting basis (crash) is "
     "guessed, for standard LCPs of 64 or more variables; then sweeps until no row changed its active bound for a "
     "quarter of them, at most 50 times this; a second guess after twice as many; 0 = always start from B = I",
     100.0, 0.0, 10000.0, nullptr, 0, 0},
};

pivot_status reserve(void* instance, uint32_t n, uint32_t /*nnz: dense only*/) {
    try {
        static_cast<LemkeSolver*>(instance)->reserve(n);
        return PIVOT_OK;
    } catch (...) {
        return PIVOT_ERROR;
    }
}

pivot_status solve(void* instance, const pivot_lcp_problem* problem, const pivot_solve_options* options, double* x,
                   double* w, pivot_solve_report* report) {
    if (instance == nullptr || problem == nullptr || options == nullptr || report == nullptr) return PIVOT_ERROR;
    try {
        return static_cast<LemkeSolver*>(instance)->solve(*problem, *options, x, w, report);
    } catch (...) {
        // Nothing in solve() throws for a problem within the reserved size;
        // growing the workspace is caught there. Defensive only.
        pivot::sdk::set_message(report->message, "internal error");
        return pivot::sdk::finish(report, PIVOT_SOLVE_NUMERICAL_ERROR, 0, 0.0, 0.0);
    }
}

pivot_solver_functions make_functions() {
    pivot_solver_functions f{};
    f.struct_size = sizeof(pivot_solver_functions);
    f.instance = pivot::sdk::instance_functions<LemkeSolver>();
    f.reserve = &reserve;
    f.solve = &solve;
    return f;
}

}  // namespace

PIVOT_PLUGIN_ENTRY {
    (void)host_abi_minor;
    if (host_abi_major != PIVOT_ABI_MAJOR) return nullptr;
    // Function-local statics: built on the first call, no allocation, no
    // constructor running at load time.
    static const pivot_solver_functions functions = make_functions();
    static const pivot_plugin_descriptor descriptor = {
        sizeof(pivot_plugin_descriptor),
        PIVOT_ABI_MAJOR,
        PIVOT_ABI_MINOR,
        PIVOT_KIND_SOLVER,
        "pivot.solver.lemke",
        "Lemke (lexicographic)",
        "Pivot",
        "1.3.0",
        "Lemke's complementary pivoting with lexicographic degeneracy resolution; dense, non-symmetric, boxed; "
        "friction index as the polyhedral (Stewart-Trinkle / Anitescu-Potra) LCP",
        PIVOT_SOLVER_CAP_STANDARD_LCP | PIVOT_SOLVER_CAP_BOXED | PIVOT_SOLVER_CAP_FRICTION_INDEX |
            PIVOT_SOLVER_CAP_NONSYMMETRIC | PIVOT_SOLVER_CAP_DENSE | PIVOT_SOLVER_CAP_WARM_START |
            PIVOT_SOLVER_CAP_TIME_BUDGET | PIVOT_SOLVER_CAP_DETERMINISTIC,
        kParams,
        pivot::lemke::kParamCount,
        0,
        &functions,
    };
    static const pivot_plugin_descriptor* const plugins[] = {&descriptor};
    static const pivot_plugin_library library = {
        sizeof(pivot_plugin_library), PIVOT_ABI_MAJOR, PIVOT_ABI_MINOR, 1, plugins, nullptr, nullptr,
    };
    return &library;
}
