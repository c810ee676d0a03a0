/* Progress of long work (packing, splitting, publishing, verifying),
 * told to a reporter the caller gives: the library says what it is doing
 * and how far it is, the caller decides whether and how to show it. A
 * NULL struct pp_progress, or one without a reporter, reports nothing.
 * Reports are rate-limited; the calls may come from several threads. */
#ifndef PP_PROGRESS_H
#define PP_PROGRESS_H

#include <pthread.h>
#include <stdint.h>
#include <time.h>

struct pp_progress_report {
	const char *task;  /* what is being done, e.g. "packing" */
	const char *item;  /* the item under way (a package), or NULL */
	const char *unit;  /* what done and total count: "packages", "bytes" */
	uint64_t done, total; /* total 0: not known */
	double seconds;    /* since the task began */
	double elapsed;    /* since the work began */
	double left;       /* estimated seconds left, or < 0: not known */
	int final;         /* the last report of the work: clear the line */
};

typedef void (*pp_progress_fn)(void *ctx,
			       const struct pp_progress_report *r);

struct pp_progress {
	pp_progress_fn fn;
	void *ctx;
	double interval;          /* least seconds between two reports */
	struct timespec begun;    /* of the whole work */
	struct timespec task_begun, last;
	const char *task, *unit;
	uint64_t done, total;
	pthread_mutex_t lock;
};

/* fn NULL: nothing is ever reported. */
void pp_progress_init(struct pp_progress *p, pp_progress_fn fn, void *ctx);
/* A new task of total units (0: not known); reported at once. */
void pp_progress_task(struct pp_progress *p, const char *task,
		      uint64_t total, const char *unit);
/* n more units done, item (may be NULL) under way. */
void pp_progress_add(struct pp_progress *p, uint64_t n, const char *item);
/* The work is over: a final report, so the reporter can clear its line. */
void pp_progress_end(struct pp_progress *p);
/* Seconds since pp_progress_init. */
double pp_progress_seconds(const struct pp_progress *p);
void pp_progress_release(struct pp_progress *p);

#endif
