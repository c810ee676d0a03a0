/* A few worker threads that run numbered jobs side by side. */
#ifndef PP_WORKPOOL_H
#define PP_WORKPOOL_H

#include <stddef.h>

#include "error.h"

/* One job: returns 0, or -1 with its own err filled. */
typedef int pp_job_fn(void *ctx, size_t job, struct pp_err *err);

/* Runs jobs order[0..n-1] (order NULL: 0..n-1, in that order) on up to
 * WORKERS threads (0 or 1: one after the other, on the caller's thread),
 * each job started as a worker is free. After a failure no new job is
 * started. Warnings and the error come back in job order, the error of
 * the failed job with the smallest number, so what is printed does not
 * depend on the workers. Returns 0 or -1. */
int pp_pool_run(size_t n, const size_t *order, size_t workers, pp_job_fn *fn,
		void *ctx, struct pp_err *err);

#endif
