#include "workpool.h"

#include <pthread.h>
#include <stdlib.h>

#include "thread.h"
#include "xalloc.h"

struct pool {
	size_t n, next;
	const size_t *order;
	pp_job_fn *fn;
	void *ctx;
	struct pp_err *errs; /* one a job */
	int failed;
	pthread_mutex_t lock;
};

/* The next job to start, or n when there is none (or one failed). */
static size_t take(struct pool *p)
{
	size_t job = p->n;

	pthread_mutex_lock(&p->lock);
	if (!p->failed && p->next < p->n) {
		job = p->order ? p->order[p->next] : p->next;
		p->next++;
	}
	pthread_mutex_unlock(&p->lock);
	return job;
}

static void *worker(void *arg)
{
	struct pool *p = arg;
	size_t job;

	while ((job = take(p)) < p->n)
		if (p->fn(p->ctx, job, &p->errs[job]) < 0) {
			pthread_mutex_lock(&p->lock);
			p->failed = 1;
			pthread_mutex_unlock(&p->lock);
		}
	return NULL;
}

/* Warnings of every job, then the first error, into err. */
static int gather(struct pool *p, struct pp_err *err)
{
	int rc = 0;

	for (size_t i = 0; i < p->n; i++) {
		struct pp_err *e = &p->errs[i];

		if (e->code != PP_EXIT_OK && rc == 0) {
			rc = pp_err_move(err, e); /* its warnings too */
		} else {
			strbuf_add(&err->warnings, e->warnings.buf,
				   e->warnings.len);
		}
		pp_err_release(e);
	}
	return rc;
}

int pp_pool_run(size_t n, const size_t *order, size_t workers, pp_job_fn *fn,
		void *ctx, struct pp_err *err)
{
	struct pool p = { n, 0, order, fn, ctx, NULL, 0,
			  PTHREAD_MUTEX_INITIALIZER };
	pthread_t *tids;
	size_t started = 0;
	int rc;

	p.errs = xcalloc(n ? n : 1, sizeof(*p.errs));
	for (size_t i = 0; i < n; i++)
		pp_err_init(&p.errs[i]);
	if (workers > n)
		workers = n;
	tids = xcalloc(workers ? workers : 1, sizeof(*tids));
	/* the caller is a worker too; the others are threads */
	for (size_t i = 1; i < workers; i++)
		if (pp_thread_start(&tids[started], worker, &p) == 0)
			started++;
	worker(&p);
	for (size_t i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	rc = gather(&p, err);
	free(tids);
	free(p.errs);
	pthread_mutex_destroy(&p.lock);
	return rc;
}
