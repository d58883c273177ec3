/*
 * pivot/plugin_solver.h - complementarity solver plugins.
 *
 * The per-step problem (docs/engine.md, docs/cli.md "pivot-lcp/1"):
 * find x and w = A x + b such that for every row i, with bounds l_i, u_i
 * (l_i = lo_i |x_j|, u_i = hi_i |x_j| when findex_i = j >= 0, else lo_i, hi_i;
 * the host guarantees finite lo_i <= 0 <= hi_i on rows with a findex):
 *     x_i = l_i and w_i >= 0,  or  x_i = u_i and w_i <= 0,
 *     or  l_i < x_i < u_i and w_i = 0.
 * A standard LCP is lo = 0, hi = +inf, no findex.
 *
 * The accuracy measure every solver reports, and the host recomputes, is the
 * natural-map residual  max_i | x_i - mid(l_i, u_i, x_i - w_i) |.
 *
 * The host owns every array; the solver writes only x, w and the report.
 * It never retains pointers into the problem after solve() returns.
 * n = 0 is a valid (empty) problem, and then every array pointer
 * (matrix, b, lo, hi, findex, x, w) may be NULL. The host never passes a problem the
 * solver's capabilities exclude: it converts it (dense <-> CSC, or builds
 * either from the factored form) or refuses the pairing before the first
 * step.
 */
#ifndef PIVOT_PLUGIN_SOLVER_H
#define PIVOT_PLUGIN_SOLVER_H

#include "pivot/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pivot_plugin_descriptor.capabilities for solvers */
#define PIVOT_SOLVER_CAP_BOXED ((uint64_t)1 << 0)        /* lo/hi bounds        */
#define PIVOT_SOLVER_CAP_FRICTION_INDEX ((uint64_t)1 << 1) /* findex            */
#define PIVOT_SOLVER_CAP_STANDARD_LCP ((uint64_t)1 << 2) /* lo = 0, hi = inf    */
#define PIVOT_SOLVER_CAP_NONSYMMETRIC ((uint64_t)1 << 3) /* A need not be symmetric */
#define PIVOT_SOLVER_CAP_DENSE ((uint64_t)1 << 4)        /* reads the dense A   */
#define PIVOT_SOLVER_CAP_SPARSE ((uint64_t)1 << 5)       /* reads the CSC A     */
#define PIVOT_SOLVER_CAP_WARM_START ((uint64_t)1 << 6)   /* uses x on input     */
#define PIVOT_SOLVER_CAP_TIME_BUDGET ((uint64_t)1 << 7)  /* honours time_budget */
#define PIVOT_SOLVER_CAP_BLOCK_PROJECTION ((uint64_t)1 << 8) /* calls the
                                        problem's block projection (cones)      */
#define PIVOT_SOLVER_CAP_DETERMINISTIC ((uint64_t)1 << 9) /* same input, same
                                                             bits out           */
#define PIVOT_SOLVER_CAP_FACTORED ((uint64_t)1 << 10) /* reads problem->factored
                          (ABI 1.4); then A itself may be absent (see below)  */
#define PIVOT_SOLVER_CAP_MASS_BLOCKS ((uint64_t)1 << 11) /* reads
                          problem->factored->mass (ABI 1.5, see below); with
                          FACTORED                                           */

/* pivot_lcp_problem.matrix_properties: what the host knows about A */
#define PIVOT_MATRIX_SYMMETRIC 0x1u
#define PIVOT_MATRIX_POSITIVE_SEMIDEFINITE 0x2u
#define PIVOT_MATRIX_POSITIVE_DEFINITE 0x4u

typedef enum pivot_problem_class {
    PIVOT_PROBLEM_BOXED = 1,       /* lo/hi (and possibly findex)              */
    PIVOT_PROBLEM_STANDARD_LCP = 2 /* lo = 0, hi = +inf, no findex             */
} pivot_problem_class;

/*
 * Block projection: set by the host when friction models supply projections
 * (PIVOT_FRICTION_CAP_PROJECTION) and the solver declares
 * PIVOT_SOLVER_CAP_BLOCK_PROJECTION; otherwise block_count is 0. Rows [first_row[k], first_row[k+1]) form
 * block k; project(context, k0, count, x) projects blocks k0..k0+count-1 of
 * x in place. Rows outside any block keep the box rule.
 */
typedef pivot_status (*pivot_project_fn)(void* context, uint32_t first_block,
                                         uint32_t block_count, double* x);

/*
 * The factored form of A (ABI 1.4). The step's problem is
 *     A = J W + diag(diagonal),   W = Mbar^-1 J^T,
 * J the rows' Jacobians over the island's velocities and Mbar the island's
 * mass blocks (docs/engine.md "The per-island problem"). The velocities
 * are split into blocks: a rigid body is a block of 6, a cable one block of
 * all its nodes' velocities; block k is velocities [block_start[k],
 * block_start[k+1]) of the island. Row i acts on the blocks
 * row_blocks[row_block_start[i] .. row_block_start[i+1]) (one or two for
 * joints and contacts; none for an auxiliary row), each with
 *   - its Jacobian values on that block: count values at
 *     jacobian[jacobian_offset], acting on the block's velocities
 *     first .. first + count - 1;
 *   - its response W over the whole block: block_start[k+1] - block_start[k]
 *     values at response[response_offset] (Mbar^-1 J_i^T restricted to the
 *     block; for a rigid body count = 6 = the block's size, first = 0).
 * So A(i, j) = diagonal[i] [i = j] + sum over the blocks k that rows i and j
 * share of  J_i,k . W_j,k[first_i .. first_i + count_i).
 * Rows never share more than two blocks; two rows on different blocks do
 * not couple. A is symmetric positive semidefinite.
 *
 * apply_inverse_mass(context, force, velocity): velocity = Mbar^-1 force
 * over the island's velocities (block_start[block_count] values each), for
 * solvers that keep v = W x instead of A (one call per iteration, never per
 * row). Thread rules: [step], on the solve()'s thread, only during solve().
 *
 * The host gives the factored form to solvers that declare
 * PIVOT_SOLVER_CAP_FACTORED, for every step problem it can describe this
 * way (not for problems with coupling blocks, e.g. the polyhedral cone's,
 * nor for problems read from files); it then builds the dense or CSC A only
 * if the solver also declares DENSE or SPARSE, or for a fallback that
 * needs it. A solver that declares FACTORED must check problem->factored
 * for NULL (and struct_size) and use A, or return UNSUPPORTED, without it.
 * All pointers are valid during solve() only.
 *
 * The mass blocks (ABI 1.5), for solvers that work in velocities (e.g. a
 * Newton method on H = Mbar + J^T D^-1 J): block k's matrix Mbar_k,
 * symmetric positive definite, dense column-major, n_k x n_k values at
 * mass[mass_offset[k]] (n_k = block_start[k+1] - block_start[k]); the
 * same matrix whose inverse the responses and apply_inverse_mass apply.
 * mass_offset[k] = PIVOT_NO_MASS_BLOCK for a block the host keeps only
 * factored (a cable's block: its nodes with the strain rows eliminated).
 * The host fills them for solvers that declare PIVOT_SOLVER_CAP_MASS_BLOCKS
 * (with FACTORED); mass is NULL otherwise, and always from a host older
 * than 1.5 (struct_size without these fields). A solver that needs them
 * returns UNSUPPORTED when they are absent.
 */
#define PIVOT_NO_MASS_BLOCK UINT64_MAX
typedef struct pivot_row_block {
    uint32_t block;           /* the island's block, < block_count              */
    uint32_t first;           /* first block velocity the Jacobian acts on      */
    uint32_t count;           /* Jacobian values                                */
    uint32_t reserved;        /* zero                                           */
    uint64_t jacobian_offset; /* into pivot_factored_problem.jacobian           */
    uint64_t response_offset; /* into pivot_factored_problem.response           */
} pivot_row_block;

typedef pivot_status (*pivot_inverse_mass_fn)(void* context, const double* force, double* velocity);

typedef struct pivot_factored_problem {
    uint32_t struct_size;           /* sizeof(pivot_factored_problem)          */
    uint32_t block_count;
    const uint32_t* block_start;     /* block_count + 1                         */
    const uint32_t* row_block_start; /* n + 1                                   */
    const pivot_row_block* row_blocks;
    const double* jacobian;
    const double* response;
    const double* diagonal;          /* n: compliance / (h g) + regularization  */
    pivot_inverse_mass_fn apply_inverse_mass;
    void* inverse_mass_context;
    /* ABI 1.5 (see above); NULL when absent */
    const double* mass;
    const uint64_t* mass_offset; /* block_count                             */
} pivot_factored_problem;

typedef struct pivot_lcp_problem {
    uint32_t struct_size;       /* sizeof(pivot_lcp_problem)                   */
    uint32_t problem_class;     /* pivot_problem_class                         */
    uint32_t n;                 /* rows (= unknowns)                           */
    uint32_t matrix_properties; /* PIVOT_MATRIX_* hints                        */

    /* Dense A, column-major, A(i,j) = dense[i + j*lda]; NULL if not given. */
    const double* dense;
    uint32_t lda; /* >= n */
    /* Sparse A in CSC: column j holds rows row_index[col_start[j] ..
       col_start[j+1]) with values values[...]; NULL if not given. Row indices
       ascending within a column, no duplicates. At least one of dense and
       sparse is given; the host converts to what the solver's capabilities
       accept. */
    uint32_t nnz;             /* <= INT32_MAX                                  */
    const int32_t* col_start; /* n + 1 */
    const int32_t* row_index; /* nnz   */
    const double* values;     /* nnz   */

    const double* b;      /* n                                                   */
    const double* lo;     /* n, may be -HUGE_VAL                                 */
    const double* hi;     /* n, may be +HUGE_VAL                                 */
    const int32_t* findex; /* n entries of -1 or a row index; NULL = all -1      */

    /* Optional block projection (see above); block_count = 0 when unused. */
    uint32_t block_count;
    uint32_t reserved; /* zero */
    const uint32_t* block_first_row; /* block_count + 1 */
    pivot_project_fn project;
    void* project_context;

    /* ABI 1.4: the factored form of A (see above); NULL when absent. When
       dense and sparse are both NULL (n > 0), it is given. */
    const pivot_factored_problem* factored;
} pivot_lcp_problem;

/* pivot_solve_options.flags */
#define PIVOT_SOLVE_WARM_START 0x1u /* x holds a guess on input               */

/* Per-solve settings that change from call to call (the persistent ones,
   iterations, tolerance, relaxation, are the instance's parameters). */
typedef struct pivot_solve_options {
    uint32_t struct_size;
    uint32_t flags;             /* PIVOT_SOLVE_*                               */
    double time_budget_seconds; /* wall-clock budget for this solve; 0 = none  */
} pivot_solve_options;

typedef enum pivot_solve_status {
    PIVOT_SOLVE_CONVERGED = 0,        /* residual within tolerance           */
    PIVOT_SOLVE_MAX_ITERATIONS = 1,   /* stopped by the iteration cap        */
    PIVOT_SOLVE_TIME_BUDGET = 2,      /* stopped by the time budget          */
    PIVOT_SOLVE_RAY_TERMINATION = 3,  /* Lemke: secondary ray, no solution
                                         found (infeasible or not solvable by
                                         this method)                         */
    PIVOT_SOLVE_INFEASIBLE = 4,       /* proven to have no solution          */
    PIVOT_SOLVE_UNBOUNDED = 5,        /* solution set unbounded / no finite x */
    PIVOT_SOLVE_NUMERICAL_ERROR = 6,  /* singular pivot, breakdown           */
    PIVOT_SOLVE_INVALID_PROBLEM = 7,  /* malformed input (NaN, lo > hi, ...) */
    PIVOT_SOLVE_UNSUPPORTED = 8,      /* outside the declared capabilities   */
    PIVOT_SOLVE_OUT_OF_MEMORY = 9     /* the workspace could not grow        */
} pivot_solve_status;

typedef struct pivot_solve_report {
    uint32_t struct_size;
    uint32_t status;      /* pivot_solve_status                              */
    uint32_t iterations;  /* sweeps (iterative) or pivots (pivoting)         */
    uint32_t reserved;    /* zero                                            */
    double residual;      /* natural-map residual at the returned x          */
    double time_seconds;  /* the solver's own timing of the solve (any clock);
                             the host also measures wall time itself          */
    char message[PIVOT_MESSAGE_CAPACITY]; /* why, when not converged; "" else */
} pivot_solve_report;

typedef struct pivot_solver_functions {
    uint32_t struct_size; /* sizeof(pivot_solver_functions)                   */
    uint32_t reserved;    /* zero                                             */

    pivot_instance_functions instance;

    /*
     * Size the workspace for problems up to n rows and nnz nonzeros so that
     * solve() does not allocate for such problems. May allocate. Called when
     * the host's problem grows; optional.
     */
    pivot_status (*reserve)(void* instance, uint32_t n, uint32_t nnz);

    /*
     * [step] Solve. options is never NULL.
     * x: n doubles, a guess on input if PIVOT_SOLVE_WARM_START,
     * the solution on output. w: n doubles, w = A x + b on output (may be
     * NULL). report: always filled, also on failure. Returns PIVOT_OK when
     * report->status is CONVERGED; PIVOT_WARNING with a usable x (finite,
     * within the bounds) when stopped early (MAX_ITERATIONS, TIME_BUDGET) or
     * when a finite method ended with an answer whose accuracy the problem's
     * conditioning limits (NUMERICAL_ERROR); PIVOT_ERROR otherwise (x is
     * then not used by the host). The host judges a usable x by its own
     * residual (it may still be the best answer a step gets).
     * report->struct_size is set by the host (see plugin.h, output structs).
     * Required.
     */
    pivot_status (*solve)(void* instance, const pivot_lcp_problem* problem,
                          const pivot_solve_options* options, double* x, double* w,
                          pivot_solve_report* report);
} pivot_solver_functions;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PIVOT_PLUGIN_SOLVER_H */
