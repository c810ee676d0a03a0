#include "progress.h"

#include <string.h>

/* Ten redraws a second are enough for a person and cost nothing. */
#define REPORT_INTERVAL 0.1

static double since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) +
	       (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

void pp_progress_init(struct pp_progress *p, pp_progress_fn fn, void *ctx)
{
	memset(p, 0, sizeof(*p));
	p->fn = fn;
	p->ctx = ctx;
	p->interval = REPORT_INTERVAL;
	clock_gettime(CLOCK_MONOTONIC, &p->begun);
	p->task_begun = p->last = p->begun;
	pthread_mutex_init(&p->lock, NULL);
}

/* Called with the lock held. */
static void report(struct pp_progress *p, const char *item, int final)
{
	struct pp_progress_report r;

	r.task = p->task;
	r.item = item;
	r.unit = p->unit;
	r.done = p->done;
	r.total = p->total;
	r.seconds = since(&p->task_begun);
	r.elapsed = since(&p->begun);
	/* the rate so far, once there is one worth the name */
	r.left = -1;
	if (p->total && p->done && p->done <= p->total && r.seconds > 0.5)
		r.left = r.seconds * (double)(p->total - p->done) /
			 (double)p->done;
	r.final = final;
	clock_gettime(CLOCK_MONOTONIC, &p->last);
	p->fn(p->ctx, &r);
}

void pp_progress_task(struct pp_progress *p, const char *task,
		      uint64_t total, const char *unit)
{
	if (!p || !p->fn)
		return;
	pthread_mutex_lock(&p->lock);
	p->task = task;
	p->unit = unit;
	p->total = total;
	p->done = 0;
	clock_gettime(CLOCK_MONOTONIC, &p->task_begun);
	report(p, NULL, 0);
	pthread_mutex_unlock(&p->lock);
}

void pp_progress_add(struct pp_progress *p, uint64_t n, const char *item)
{
	if (!p || !p->fn)
		return;
	pthread_mutex_lock(&p->lock);
	p->done += n;
	if (since(&p->last) >= p->interval)
		report(p, item, 0);
	pthread_mutex_unlock(&p->lock);
}

void pp_progress_end(struct pp_progress *p)
{
	if (!p || !p->fn)
		return;
	pthread_mutex_lock(&p->lock);
	report(p, NULL, 1);
	pthread_mutex_unlock(&p->lock);
}

double pp_progress_seconds(const struct pp_progress *p)
{
	return since(&p->begun);
}

void pp_progress_release(struct pp_progress *p)
{
	pthread_mutex_destroy(&p->lock);
}
