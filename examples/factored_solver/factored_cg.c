/*
 * example.solver.factored_cg - a solver written outside Pivot's source tree,
 * against the installed SDK only (<pivot/plugin_solver.h>), that reads the
 * factored form of the step's problem (plugin ABI 1.4) instead of A.
 *
 * The problem of a step is A x + b = 0 on its bilateral rows, with
 *     A = J Mbar^-1 J^T + diag(d)
 * (docs/solvers.md "The factored form"). A is symmetric positive definite
 * for independent rows, so conjugate gradients solve it (Hestenes & Stiefel
 * 1952) without ever forming A: each iteration needs one product
 *     A p = J (Mbar^-1 (J^T p)) + d p,
 * which is a scatter of the rows' Jacobians onto the island's velocities
 * (J^T p), one call of the host's apply_inverse_mass (Mbar^-1, through the
 * host's own factorizations of the bodies' mass blocks), and a gather (J v).
 * That is O(nonzeros of J) per iteration with no matrix assembled: the
 * matrix-free form large islands use.
 *
 * Scope, as an example: rows without bounds only (joints; anything with a
 * finite bound is refused as UNSUPPORTED, and the host's solver chain moves
 * on to its next solver); the factored form is required.
 *
 * Parameters: tolerance (the largest |w_i| = |(A x + b)_i| accepted) and
 * max_iterations. Memory: the workspace grows to the largest problem met
 * (reserve() sizes the rows; the velocity vectors grow at the first solve
 * of a larger island), so after the first steps solve() does not allocate.
 */
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <pivot/plugin_solver.h>

enum { P_TOLERANCE = 0, P_MAX_ITERATIONS = 1, PARAM_COUNT = 2 };

typedef struct workspace {
    double* r; /* residual -(A x + b), n */
    double* p; /* search direction, n */
    double* q; /* A p, n */
    double* f; /* J^T p over the island's velocities */
    double* v; /* Mbar^-1 J^T p */
    uint32_t rows, velocities;
} workspace;

typedef struct factored_cg {
    double tolerance;
    uint32_t max_iterations;
    workspace work;
} factored_cg;

static pivot_status set_params(void* instance, const double* p, uint32_t count) {
    factored_cg* self = (factored_cg*)instance;
    if (self == NULL || p == NULL || count != PARAM_COUNT) return PIVOT_ERROR;
    self->tolerance = p[P_TOLERANCE];
    self->max_iterations = (uint32_t)p[P_MAX_ITERATIONS];
    return PIVOT_OK;
}

static pivot_status create(const pivot_host* host, const double* p, uint32_t count, void** out) {
    factored_cg* self = (factored_cg*)calloc(1, sizeof(factored_cg));
    (void)host;
    *out = NULL;
    if (self == NULL) return PIVOT_ERROR;
    if (set_params(self, p, count) != PIVOT_OK) {
        free(self);
        return PIVOT_ERROR;
    }
    *out = self;
    return PIVOT_OK;
}

static void release(workspace* w) {
    free(w->r);
    free(w->p);
    free(w->q);
    free(w->f);
    free(w->v);
    memset(w, 0, sizeof *w);
}

static void destroy(void* instance) {
    factored_cg* self = (factored_cg*)instance;
    if (self == NULL) return;
    release(&self->work);
    free(self);
}

/* A copy has its own (empty) workspace: it grows again on use. */
static pivot_status clone(const void* instance, void** out) {
    const factored_cg* self = (const factored_cg*)instance;
    factored_cg* copy = (factored_cg*)calloc(1, sizeof(factored_cg));
    *out = NULL;
    if (copy == NULL) return PIVOT_ERROR;
    copy->tolerance = self->tolerance;
    copy->max_iterations = self->max_iterations;
    *out = copy;
    return PIVOT_OK;
}

/* Grows the workspace to n rows and m velocities; 0 when out of memory. */
static int grow(workspace* w, uint32_t n, uint32_t m) {
    if (n > w->rows) {
        double* r = (double*)realloc(w->r, n * sizeof(double));
        double* p = r != NULL ? (double*)realloc(w->p, n * sizeof(double)) : NULL;
        double* q = p != NULL ? (double*)realloc(w->q, n * sizeof(double)) : NULL;
        if (r != NULL) w->r = r;
        if (p != NULL) w->p = p;
        if (q == NULL) return 0;
        w->q = q;
        w->rows = n;
    }
    if (m > w->velocities) {
        double* f = (double*)realloc(w->f, m * sizeof(double));
        double* v = f != NULL ? (double*)realloc(w->v, m * sizeof(double)) : NULL;
        if (f != NULL) w->f = f;
        if (v == NULL) return 0;
        w->v = v;
        w->velocities = m;
    }
    return 1;
}

static pivot_status reserve(void* instance, uint32_t n, uint32_t nnz) {
    factored_cg* self = (factored_cg*)instance;
    (void)nnz;
    return self != NULL && grow(&self->work, n, 0) ? PIVOT_OK : PIVOT_ERROR;
}

/* q = A p = J (Mbar^-1 (J^T p)) + d p, through the factored form. */
static pivot_status multiply(const pivot_lcp_problem* problem, workspace* w, const double* p, double* q) {
    const pivot_factored_problem* f = problem->factored;
    const uint32_t velocities = f->block_start[f->block_count];
    uint32_t i, e, c;
    pivot_status status;
    memset(w->f, 0, velocities * sizeof(double));
    for (i = 0; i < problem->n; ++i) { /* f = J^T p */
        for (e = f->row_block_start[i]; e < f->row_block_start[i + 1]; ++e) {
            const pivot_row_block* b = &f->row_blocks[e];
            const double* jacobian = f->jacobian + b->jacobian_offset;
            double* at = w->f + f->block_start[b->block] + b->first;
            for (c = 0; c < b->count; ++c) at[c] += jacobian[c] * p[i];
        }
    }
    status = f->apply_inverse_mass(f->inverse_mass_context, w->f, w->v); /* v = Mbar^-1 f */
    if (status != PIVOT_OK && status != PIVOT_WARNING) return PIVOT_ERROR;
    for (i = 0; i < problem->n; ++i) { /* q = J v + d p */
        double sum = f->diagonal[i] * p[i];
        for (e = f->row_block_start[i]; e < f->row_block_start[i + 1]; ++e) {
            const pivot_row_block* b = &f->row_blocks[e];
            const double* jacobian = f->jacobian + b->jacobian_offset;
            const double* at = w->v + f->block_start[b->block] + b->first;
            for (c = 0; c < b->count; ++c) sum += jacobian[c] * at[c];
        }
        q[i] = sum;
    }
    return PIVOT_OK;
}

static double dot(const double* a, const double* b, uint32_t n) {
    double s = 0.0;
    uint32_t i;
    for (i = 0; i < n; ++i) s += a[i] * b[i];
    return s;
}

static double largest(const double* a, uint32_t n) {
    double m = 0.0;
    uint32_t i;
    for (i = 0; i < n; ++i) m = fabs(a[i]) > m ? fabs(a[i]) : m;
    return m;
}

static pivot_status finish(pivot_solve_report* report, uint32_t status, uint32_t iterations, double residual,
                           const char* message) {
    report->status = status;
    report->iterations = iterations;
    report->residual = residual;
    report->time_seconds = 0.0;
    strncpy(report->message, message, PIVOT_MESSAGE_CAPACITY - 1);
    report->message[PIVOT_MESSAGE_CAPACITY - 1] = '\0';
    if (status == PIVOT_SOLVE_CONVERGED) return PIVOT_OK;
    return status == PIVOT_SOLVE_MAX_ITERATIONS ? PIVOT_WARNING : PIVOT_ERROR;
}

static pivot_status solve(void* instance, const pivot_lcp_problem* problem, const pivot_solve_options* options,
                          double* x, double* w, pivot_solve_report* report) {
    factored_cg* self = (factored_cg*)instance;
    workspace* work;
    const pivot_factored_problem* f;
    uint32_t n, i, k;
    double rr, residual;
    if (self == NULL || problem == NULL || options == NULL || report == NULL) return PIVOT_ERROR;
    n = problem->n;
    if (n == 0) return finish(report, PIVOT_SOLVE_CONVERGED, 0, 0.0, "");
    /* The factored form is a 1.4 tail field: check the host filled it (its
       1.4 fields: the struct grew in 1.5, and this solver needs none of that). */
    f = problem->struct_size >= sizeof(pivot_lcp_problem) ? problem->factored : NULL;
    if (f == NULL || f->struct_size < offsetof(pivot_factored_problem, mass) || f->apply_inverse_mass == NULL) {
        return finish(report, PIVOT_SOLVE_UNSUPPORTED, 0, HUGE_VAL, "this solver reads the factored form only");
    }
    for (i = 0; i < n; ++i) {
        if (isfinite(problem->lo[i]) || isfinite(problem->hi[i]) || (problem->findex && problem->findex[i] >= 0)) {
            return finish(report, PIVOT_SOLVE_UNSUPPORTED, 0, HUGE_VAL, "rows with bounds are not supported");
        }
        if (!isfinite(problem->b[i])) return finish(report, PIVOT_SOLVE_INVALID_PROBLEM, 0, HUGE_VAL, "b not finite");
    }
    work = &self->work;
    if (!grow(work, n, f->block_start[f->block_count])) {
        return finish(report, PIVOT_SOLVE_OUT_OF_MEMORY, 0, HUGE_VAL, "workspace");
    }
    if ((options->flags & PIVOT_SOLVE_WARM_START) == 0) memset(x, 0, n * sizeof(double));
    /* r = -(A x + b), p = r */
    if (multiply(problem, work, x, work->q) != PIVOT_OK) {
        return finish(report, PIVOT_SOLVE_NUMERICAL_ERROR, 0, HUGE_VAL, "apply_inverse_mass failed");
    }
    for (i = 0; i < n; ++i) work->p[i] = work->r[i] = -(work->q[i] + problem->b[i]);
    rr = dot(work->r, work->r, n);
    for (k = 0; k < self->max_iterations && largest(work->r, n) > self->tolerance; ++k) {
        double pq, alpha, rr_next;
        if (multiply(problem, work, work->p, work->q) != PIVOT_OK) {
            return finish(report, PIVOT_SOLVE_NUMERICAL_ERROR, k, HUGE_VAL, "apply_inverse_mass failed");
        }
        pq = dot(work->p, work->q, n);
        if (!(pq > 0.0)) break; /* A is not positive definite along p (dependent rows) */
        alpha = rr / pq;
        for (i = 0; i < n; ++i) {
            x[i] += alpha * work->p[i];
            work->r[i] -= alpha * work->q[i];
        }
        rr_next = dot(work->r, work->r, n);
        for (i = 0; i < n; ++i) work->p[i] = work->r[i] + (rr_next / rr) * work->p[i];
        rr = rr_next;
    }
    /* w = A x + b = -r (up to the recurrence's rounding: recomputed). */
    if (multiply(problem, work, x, work->q) != PIVOT_OK) {
        return finish(report, PIVOT_SOLVE_NUMERICAL_ERROR, k, HUGE_VAL, "apply_inverse_mass failed");
    }
    for (i = 0; i < n; ++i) work->q[i] += problem->b[i];
    if (w != NULL) memcpy(w, work->q, n * sizeof(double));
    residual = largest(work->q, n); /* unbounded rows: the natural-map residual is |w| */
    if (residual <= self->tolerance) return finish(report, PIVOT_SOLVE_CONVERGED, k, residual, "");
    return finish(report, PIVOT_SOLVE_MAX_ITERATIONS, k, residual, "tolerance not reached");
}

static const pivot_param_info params[] = {
    {sizeof(pivot_param_info), PIVOT_PARAM_REAL, 1u, PIVOT_PARAM_MIN_EXCLUSIVE, "tolerance", "N s",
     "largest |A x + b| accepted", 1e-12, 0.0, HUGE_VAL, NULL, 0u, 0u},
    {sizeof(pivot_param_info), PIVOT_PARAM_INT, 1u, 0u, "max_iterations", "", "conjugate-gradient iterations per solve",
     1000.0, 1.0, 1e6, NULL, 0u, 0u},
};

static const pivot_solver_functions functions = {
    sizeof(pivot_solver_functions), 0u, {create, destroy, clone, NULL, set_params, NULL, NULL, NULL},
    reserve, solve,
};

static const pivot_plugin_descriptor descriptor = {
    sizeof(pivot_plugin_descriptor),
    PIVOT_ABI_MAJOR,
    PIVOT_ABI_MINOR,
    PIVOT_KIND_SOLVER,
    "example.solver.factored_cg",
    "Conjugate gradients on the factored form",
    "Pivot examples",
    "1.0.0",
    "matrix-free CG for bilateral rows: A p = J Mbar^-1 J^T p + d p through the factored form (ABI 1.4)",
    PIVOT_SOLVER_CAP_BOXED | PIVOT_SOLVER_CAP_FACTORED | PIVOT_SOLVER_CAP_WARM_START |
        PIVOT_SOLVER_CAP_DETERMINISTIC,
    params,
    (uint32_t)(sizeof params / sizeof params[0]),
    0u,
    &functions,
};

static const pivot_plugin_descriptor* const plugins[] = {&descriptor};

static const pivot_plugin_library library = {
    sizeof(pivot_plugin_library), PIVOT_ABI_MAJOR, PIVOT_ABI_MINOR, 1u, plugins, NULL, NULL,
};

PIVOT_PLUGIN_ENTRY {
    /* The factored form needs a 1.4 host. */
    return host_abi_major == PIVOT_ABI_MAJOR && host_abi_minor >= 4u ? &library : NULL;
}
