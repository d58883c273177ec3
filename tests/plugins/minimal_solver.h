/*
 * minimal_solver.h - shared by the broken_*.c test plugins (not a plugin).
 *
 * A minimal but valid solver implementation: instances that only keep the
 * host, and a solve() that returns x = 0 with an honest report. The broken
 * test plugins include this and then write their own tables, each with
 * exactly one defect, so that the defect is the only thing wrong with them.
 *
 * Everything here is static inline: a plugin that does not use a function
 * (broken_missing_function.c has no solve) gets no unused-function warning,
 * and nothing is exported.
 */
#ifndef PIVOT_TESTS_MINIMAL_SOLVER_H
#define PIVOT_TESTS_MINIMAL_SOLVER_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pivot/plugin_solver.h"

typedef struct minimal_instance {
    const pivot_host* host;
} minimal_instance;

/* Accepts the instance parameters of any schema (the host validated them). */
static inline pivot_status minimal_create(const pivot_host* host, const double* params,
                                          uint32_t param_count, void** out_instance)
{
    minimal_instance* self;
    (void)params;
    (void)param_count;
    if (out_instance == NULL) {
        return PIVOT_ERROR;
    }
    *out_instance = NULL;
    self = (minimal_instance*)malloc(sizeof *self);
    if (self == NULL) {
        return PIVOT_ERROR;
    }
    self->host = host;
    *out_instance = self;
    return PIVOT_OK;
}

static inline void minimal_destroy(void* instance)
{
    free(instance);
}

static inline pivot_status minimal_clone(const void* instance, void** out_copy)
{
    minimal_instance* copy;
    if (instance == NULL || out_copy == NULL) {
        return PIVOT_ERROR;
    }
    *out_copy = NULL;
    copy = (minimal_instance*)malloc(sizeof *copy);
    if (copy == NULL) {
        return PIVOT_ERROR;
    }
    memcpy(copy, instance, sizeof *copy);
    *out_copy = copy;
    return PIVOT_OK;
}

/* Log through the host kept in the instance, if there is one. */
static inline void minimal_log(const void* instance, pivot_log_level level, const char* category,
                               const char* message)
{
    const minimal_instance* self = (const minimal_instance*)instance;
    if (self != NULL && self->host != NULL && self->host->log != NULL) {
        self->host->log(self->host->context, level, category, message);
    }
}

static inline void minimal_report(pivot_solve_report* report, uint32_t status, double residual,
                                  const char* message)
{
    report->struct_size = (uint32_t)sizeof(pivot_solve_report);
    report->status = status;
    report->iterations = 0u;
    report->reserved = 0u;
    report->residual = residual;
    report->time_seconds = 0.0;
    snprintf(report->message, sizeof report->message, "%s", message);
}

/*
 * The natural-map residual at x = 0: |mid(l_i, u_i, -b_i)|, where rows with a
 * friction index have l_i = u_i = 0 (their reference force is 0).
 */
static inline double minimal_residual_at_zero(const pivot_lcp_problem* p)
{
    double res = 0.0;
    uint32_t i;
    for (i = 0; i < p->n; ++i) {
        const int scaled = p->findex != NULL && p->findex[i] >= 0;
        const double l = scaled ? 0.0 : p->lo[i];
        const double u = scaled ? 0.0 : p->hi[i];
        const double v = -p->b[i];
        const double m = v < l ? l : (v > u ? u : v);
        const double r = m < 0.0 ? -m : m;
        if (r > res) {
            res = r;
        }
    }
    return res;
}

/*
 * x = 0, w = b. Converged (PIVOT_OK) when that solves the problem, else
 * stopped (PIVOT_WARNING) with an honest residual.
 */
static inline pivot_status minimal_solve(void* instance, const pivot_lcp_problem* problem,
                                         const pivot_solve_options* options, double* x,
                                         double* w, pivot_solve_report* report)
{
    uint32_t i;
    double res;
    (void)instance;
    (void)options;
    if (report == NULL) {
        return PIVOT_ERROR;
    }
    if (problem == NULL || x == NULL || problem->b == NULL || problem->lo == NULL ||
        problem->hi == NULL) {
        minimal_report(report, PIVOT_SOLVE_INVALID_PROBLEM, 0.0, "no problem, x, b, lo or hi");
        return PIVOT_ERROR;
    }
    for (i = 0; i < problem->n; ++i) {
        x[i] = 0.0;
        if (w != NULL) {
            w[i] = problem->b[i];
        }
    }
    res = minimal_residual_at_zero(problem);
    if (res == 0.0) {
        minimal_report(report, PIVOT_SOLVE_CONVERGED, res, "");
        return PIVOT_OK;
    }
    minimal_report(report, PIVOT_SOLVE_MAX_ITERATIONS, res,
                   "minimal test solver: returns x = 0 without iterating");
    return PIVOT_WARNING;
}

#endif /* PIVOT_TESTS_MINIMAL_SOLVER_H */
