/*
 * test_solver_pgs_dense.c - test plugin (good): solver "test.solver.pgs_dense".
 *
 * Projected Gauss-Seidel on the dense matrix, for boxed problems with a
 * friction index (bounds l_i = lo_i |x_j|, u_i = hi_i |x_j| when findex_i = j) and
 * standard LCPs. A small, obviously correct reference solver for host tests:
 * warm start, set_params, reserve, the report, and the status/return-code
 * conventions of plugin_solver.h.
 *
 * Workspace: reserve(n, nnz) allocates one n-vector used to accumulate
 * w = A x + b column by column. solve() never allocates: for a problem larger
 * than the reserved size (or when reserve was never called) it computes w row
 * by row instead, with the same operations in the same order, so the results
 * are bitwise identical either way.
 *
 * Written in plain C99 against the public SDK headers only, to prove the
 * solver ABI is usable from C.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pivot/plugin_solver.h"

#define PGS_PARAM_COUNT 2u /* max_iterations, tolerance */

/* ------------------------------------------------------------------------ */
/* Instances                                                                 */
/* ------------------------------------------------------------------------ */

typedef struct pgs_instance {
    const pivot_host* host;
    uint32_t max_iterations;
    double tolerance;
    double* scratch;   /* capacity doubles, for w; NULL until reserve() */
    uint32_t capacity; /* rows reserved                                 */
} pgs_instance;

static void pgs_log(const pgs_instance* self, pivot_log_level level, const char* message)
{
    if (self->host != NULL && self->host->log != NULL) {
        self->host->log(self->host->context, level, "test.solver.pgs_dense", message);
    }
}

static pivot_status pgs_apply_params(pgs_instance* self, const double* params,
                                     uint32_t param_count)
{
    if (param_count != PGS_PARAM_COUNT || params == NULL) {
        return PIVOT_ERROR;
    }
    /* Validated by the host against the schema: integral, 1 <= v <= 1e9. */
    self->max_iterations = (uint32_t)params[0];
    self->tolerance = params[1];
    return PIVOT_OK;
}

static pivot_status pgs_create(const pivot_host* host, const double* params, uint32_t param_count,
                               void** out_instance)
{
    pgs_instance* self;
    if (out_instance == NULL) {
        return PIVOT_ERROR;
    }
    *out_instance = NULL;
    self = (pgs_instance*)malloc(sizeof *self);
    if (self == NULL) {
        return PIVOT_ERROR;
    }
    self->host = host;
    self->scratch = NULL;
    self->capacity = 0u;
    if (pgs_apply_params(self, params, param_count) != PIVOT_OK) {
        free(self);
        return PIVOT_ERROR;
    }
    *out_instance = self;
    return PIVOT_OK;
}

static void pgs_destroy(void* instance)
{
    pgs_instance* self = (pgs_instance*)instance;
    if (self != NULL) {
        free(self->scratch);
        free(self);
    }
}

static pivot_status pgs_clone(const void* instance, void** out_copy)
{
    const pgs_instance* self = (const pgs_instance*)instance;
    pgs_instance* copy;
    if (self == NULL || out_copy == NULL) {
        return PIVOT_ERROR;
    }
    *out_copy = NULL;
    copy = (pgs_instance*)malloc(sizeof *copy);
    if (copy == NULL) {
        return PIVOT_ERROR;
    }
    *copy = *self;
    copy->scratch = NULL;
    if (self->capacity > 0u) {
        /* The scratch holds no history; only its size is carried over, so the
           copy does not need reserve() again. */
        copy->scratch = (double*)calloc(self->capacity, sizeof(double));
        if (copy->scratch == NULL) {
            free(copy);
            return PIVOT_ERROR;
        }
    }
    *out_copy = copy;
    return PIVOT_OK;
}

static pivot_status pgs_set_params(void* instance, const double* params, uint32_t param_count)
{
    if (instance == NULL) {
        return PIVOT_ERROR;
    }
    return pgs_apply_params((pgs_instance*)instance, params, param_count);
}

static pivot_status pgs_reserve(void* instance, uint32_t n, uint32_t nnz)
{
    pgs_instance* self = (pgs_instance*)instance;
    double* grown;
    (void)nnz; /* dense only */
    if (self == NULL) {
        return PIVOT_ERROR;
    }
    if (n <= self->capacity) {
        return PIVOT_OK;
    }
    grown = (double*)realloc(self->scratch, (size_t)n * sizeof(double));
    if (grown == NULL) {
        pgs_log(self, PIVOT_LOG_ERROR, "reserve: out of memory");
        return PIVOT_ERROR; /* the old, smaller scratch stays valid */
    }
    self->scratch = grown;
    self->capacity = n;
    return PIVOT_OK;
}

/* ------------------------------------------------------------------------ */
/* The algorithm                                                             */
/* ------------------------------------------------------------------------ */

/* m * x, with 0 * inf taken as 0 (an unbounded multiplier of a zero force). */
static double scaled_bound(double multiplier, double x)
{
    return x == 0.0 ? 0.0 : multiplier * x;
}

/*
 * Bounds of row i at the current x. With findex_i = j the bounds are
 * lo_i |x_j| and hi_i |x_j| (plugin_solver.h, the ODE convention).
 */
static void row_bounds(const pivot_lcp_problem* p, uint32_t i, const double* x, double* l,
                       double* u)
{
    const int32_t j = p->findex != NULL ? p->findex[i] : -1;
    if (j >= 0) {
        const double magnitude = fabs(x[j]);
        *l = scaled_bound(p->lo[i], magnitude);
        *u = scaled_bound(p->hi[i], magnitude);
    } else {
        *l = p->lo[i];
        *u = p->hi[i];
    }
}

static double mid(double l, double u, double v)
{
    return v < l ? l : (v > u ? u : v);
}

/* (A x + b)_i, row i of the column-major dense matrix. */
static double row_value(const pivot_lcp_problem* p, uint32_t i, const double* x)
{
    const double* a = p->dense;
    const size_t lda = p->lda;
    double s = p->b[i];
    uint32_t j;
    for (j = 0; j < p->n; ++j) {
        s += a[i + j * lda] * x[j];
    }
    return s;
}

/*
 * w = A x + b into wbuf (when not NULL; column by column, same operation
 * order per entry as row_value), then the natural-map residual
 * max_i |x_i - mid(l_i, u_i, x_i - w_i)|. A non-finite residual is returned
 * as soon as it appears.
 */
static double natural_residual(const pivot_lcp_problem* p, const double* x, double* wbuf)
{
    const size_t lda = p->lda;
    double res = 0.0;
    uint32_t i, j;
    if (wbuf != NULL) {
        for (i = 0; i < p->n; ++i) {
            wbuf[i] = p->b[i];
        }
        for (j = 0; j < p->n; ++j) {
            const double* col = p->dense + j * lda;
            const double xj = x[j];
            for (i = 0; i < p->n; ++i) {
                wbuf[i] += col[i] * xj;
            }
        }
    }
    for (i = 0; i < p->n; ++i) {
        const double wi = wbuf != NULL ? wbuf[i] : row_value(p, i, x);
        double l, u, r;
        row_bounds(p, i, x, &l, &u);
        r = fabs(x[i] - mid(l, u, x[i] - wi));
        if (!isfinite(r)) {
            return r;
        }
        if (r > res) {
            res = r;
        }
    }
    return res;
}

static void one_sweep(const pivot_lcp_problem* p, double* x)
{
    const size_t lda = p->lda;
    uint32_t i;
    for (i = 0; i < p->n; ++i) {
        const double r = row_value(p, i, x);
        double l, u;
        row_bounds(p, i, x, &l, &u);
        x[i] = mid(l, u, x[i] - r / p->dense[i + i * lda]);
    }
}

/* Returns 1 and writes a message when the problem cannot be solved here. */
static int invalid_problem(const pivot_lcp_problem* p, const double* x, char* message,
                           size_t capacity)
{
    uint32_t i;
    if (p == NULL || x == NULL) {
        snprintf(message, capacity, "no problem or no x given");
        return 1;
    }
    if (p->n == 0u) {
        snprintf(message, capacity, "empty problem (n = 0)");
        return 1;
    }
    if (p->dense == NULL) {
        snprintf(message, capacity, "no dense matrix given (this solver reads only the dense A)");
        return 1;
    }
    if (p->lda < p->n) {
        snprintf(message, capacity, "lda %u is smaller than n %u", (unsigned)p->lda,
                 (unsigned)p->n);
        return 1;
    }
    if (p->b == NULL || p->lo == NULL || p->hi == NULL) {
        snprintf(message, capacity, "b, lo or hi missing");
        return 1;
    }
    for (i = 0; i < p->n; ++i) {
        const double d = p->dense[i + (size_t)i * p->lda];
        const int32_t j = p->findex != NULL ? p->findex[i] : -1;
        if (!(d > 0.0)) {
            snprintf(message, capacity, "diagonal A(%u,%u) = %g is not positive", (unsigned)i,
                     (unsigned)i, d);
            return 1;
        }
        if (!(p->lo[i] <= p->hi[i])) {
            snprintf(message, capacity, "row %u: lo %g > hi %g", (unsigned)i, p->lo[i], p->hi[i]);
            return 1;
        }
        if (j < -1 || j >= (int64_t)p->n || j == (int64_t)i) {
            snprintf(message, capacity, "row %u: invalid findex %d", (unsigned)i, (int)j);
            return 1;
        }
    }
    return 0;
}

static double seconds_since(clock_t start)
{
    const clock_t now = clock();
    if (start == (clock_t)-1 || now == (clock_t)-1) {
        return 0.0;
    }
    return (double)(now - start) / (double)CLOCKS_PER_SEC;
}

/*
 * Block projections (problem->block_count > 0) are ignored: this solver does
 * not declare PIVOT_SOLVER_CAP_BLOCK_PROJECTION, so every row keeps its box.
 */
static pivot_status pgs_solve(void* instance, const pivot_lcp_problem* problem,
                              const pivot_solve_options* options, double* x, double* w,
                              pivot_solve_report* report)
{
    const clock_t start = clock();
    const pgs_instance* self = (const pgs_instance*)instance;
    double* wbuf;
    double res = HUGE_VAL;
    uint32_t it = 0u;
    uint32_t i;

    if (report == NULL) {
        return PIVOT_ERROR;
    }
    report->struct_size = (uint32_t)sizeof(pivot_solve_report);
    report->status = PIVOT_SOLVE_INVALID_PROBLEM;
    report->iterations = 0u;
    report->reserved = 0u;
    report->residual = 0.0;
    report->time_seconds = 0.0;
    report->message[0] = '\0';

    if (self == NULL) {
        snprintf(report->message, sizeof report->message, "no instance");
        return PIVOT_ERROR;
    }
    if (invalid_problem(problem, x, report->message, sizeof report->message)) {
        report->time_seconds = seconds_since(start);
        return PIVOT_ERROR;
    }

    /* w given by the host doubles as the accumulator; else the scratch if
       reserve() made it large enough; else row by row (no allocation). */
    wbuf = w != NULL ? w : (problem->n <= self->capacity ? self->scratch : NULL);

    if (options == NULL || (options->flags & PIVOT_SOLVE_WARM_START) == 0u) {
        for (i = 0; i < problem->n; ++i) {
            x[i] = 0.0;
        }
    }

    while (it < self->max_iterations) {
        one_sweep(problem, x);
        ++it;
        res = natural_residual(problem, x, wbuf);
        if (!isfinite(res) || res <= self->tolerance) {
            break;
        }
    }

    report->iterations = it;
    report->residual = res;
    if (!isfinite(res)) {
        report->status = PIVOT_SOLVE_NUMERICAL_ERROR;
        snprintf(report->message, sizeof report->message,
                 "non-finite residual after %u sweeps (NaN or Inf in the problem, or divergence)",
                 (unsigned)it);
        report->time_seconds = seconds_since(start);
        return PIVOT_ERROR;
    }
    /* w (when given) already holds A x + b at the returned x: it was the
       accumulator of the last residual. */
    report->time_seconds = seconds_since(start);
    if (res <= self->tolerance) {
        report->status = PIVOT_SOLVE_CONVERGED;
        return PIVOT_OK;
    }
    report->status = PIVOT_SOLVE_MAX_ITERATIONS;
    snprintf(report->message, sizeof report->message,
             "no convergence after %u sweeps: residual %.3g > tolerance %.3g", (unsigned)it, res,
             self->tolerance);
    return PIVOT_WARNING;
}

/* ------------------------------------------------------------------------ */
/* Tables                                                                    */
/* ------------------------------------------------------------------------ */

static const pivot_param_info pgs_params[] = {
    {
        .struct_size = sizeof(pivot_param_info),
        .type = PIVOT_PARAM_INT,
        .length = 1u,
        .flags = 0u,
        .name = "max_iterations",
        .unit = "",
        .doc = "maximum number of Gauss-Seidel sweeps",
        .default_value = 1000.0,
        .min_value = 1.0,
        .max_value = 1e9,
        .choices = NULL,
        .choice_count = 0u,
        .reserved = 0u,
    },
    {
        .struct_size = sizeof(pivot_param_info),
        .type = PIVOT_PARAM_REAL,
        .length = 1u,
        .flags = 0u,
        .name = "tolerance",
        .unit = "1",
        .doc = "natural-map residual at which the solve stops",
        .default_value = 1e-10,
        .min_value = 0.0,
        .max_value = HUGE_VAL,
        .choices = NULL,
        .choice_count = 0u,
        .reserved = 0u,
    },
};

static const pivot_solver_functions pgs_functions = {
    .struct_size = sizeof(pivot_solver_functions),
    .reserved = 0u,
    .instance =
        {
            .create = pgs_create,
            .destroy = pgs_destroy,
            .clone = pgs_clone,
            .reset = NULL, /* no history: x is the host's warm start */
            .set_params = pgs_set_params,
            .state_size = NULL,
            .save_state = NULL,
            .load_state = NULL,
        },
    .reserve = pgs_reserve,
    .solve = pgs_solve,
};

static const pivot_plugin_descriptor pgs_descriptor = {
    .struct_size = sizeof(pivot_plugin_descriptor),
    .abi_major = PIVOT_ABI_MAJOR,
    .abi_minor = PIVOT_ABI_MINOR,
    .kind = PIVOT_KIND_SOLVER,
    .id = "test.solver.pgs_dense",
    .name = "Projected Gauss-Seidel, dense (test)",
    .vendor = "Pivot tests",
    .version = "1.0.0",
    .description = "Projected Gauss-Seidel on the dense matrix, boxed with friction index",
    .capabilities = PIVOT_SOLVER_CAP_BOXED | PIVOT_SOLVER_CAP_FRICTION_INDEX |
                    PIVOT_SOLVER_CAP_STANDARD_LCP | PIVOT_SOLVER_CAP_DENSE |
                    PIVOT_SOLVER_CAP_WARM_START | PIVOT_SOLVER_CAP_DETERMINISTIC,
    .params = pgs_params,
    .param_count = (uint32_t)(sizeof pgs_params / sizeof pgs_params[0]),
    .reserved = 0u,
    .functions = &pgs_functions,
};

/* The same solver without FRICTION_INDEX: the host iterates the friction
 * bounds around it (the path a third-party solver without the capability
 * takes; every first-party solver now declares it). */
static const pivot_plugin_descriptor pgs_fixed_bounds_descriptor = {
    .struct_size = sizeof(pivot_plugin_descriptor),
    .abi_major = PIVOT_ABI_MAJOR,
    .abi_minor = PIVOT_ABI_MINOR,
    .kind = PIVOT_KIND_SOLVER,
    .id = "test.solver.pgs_dense_fixed_bounds",
    .name = "Projected Gauss-Seidel, dense, fixed bounds only (test)",
    .vendor = "Pivot tests",
    .version = "1.0.0",
    .description = "Projected Gauss-Seidel on the dense matrix, boxed without friction index",
    .capabilities = PIVOT_SOLVER_CAP_BOXED | PIVOT_SOLVER_CAP_STANDARD_LCP | PIVOT_SOLVER_CAP_DENSE |
                    PIVOT_SOLVER_CAP_WARM_START | PIVOT_SOLVER_CAP_DETERMINISTIC,
    .params = pgs_params,
    .param_count = (uint32_t)(sizeof pgs_params / sizeof pgs_params[0]),
    .reserved = 0u,
    .functions = &pgs_functions,
};

static const pivot_plugin_descriptor* const pgs_plugins[] = {&pgs_descriptor, &pgs_fixed_bounds_descriptor};

static const pivot_plugin_library pgs_library = {
    .struct_size = sizeof(pivot_plugin_library),
    .abi_major = PIVOT_ABI_MAJOR,
    .abi_minor = PIVOT_ABI_MINOR,
    .plugin_count = 2u,
    .plugins = pgs_plugins,
    .init = NULL,
    .deinit = NULL,
};

PIVOT_PLUGIN_ENTRY
{
    (void)host_abi_minor;
    return host_abi_major == PIVOT_ABI_MAJOR ? &pgs_library : NULL;
}
