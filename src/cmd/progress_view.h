/* How the commands show a pp_progress: one line on standard error,
 * redrawn in place, when standard error is a terminal, --quiet (or
 * --json) was not given and the work has taken half a second (quick
 * work stays as quiet as it was); then a summary line with the time
 * taken. Elsewhere the output is what it was without it.
 * PADPACK_PROGRESS=never shows none; =always shows it at once, also when
 * standard error is not a terminal (for logs, and tests). */
#ifndef PP_PROGRESS_VIEW_H
#define PP_PROGRESS_VIEW_H

#include "../lib/progress.h"

struct progress_view {
	const char *cmd;  /* "padpack split" */
	int active;       /* stderr is a terminal, not --quiet */
	int tty;          /* stderr is a terminal: redraw; else a line each */
	int width;        /* its columns */
	double delay;     /* seconds of work before the first line */
	int shown;        /* a line was drawn: the summary follows */
};

/* Sets up v and p (a reporter only when v is active). */
void progress_view_init(struct progress_view *v, struct pp_progress *p,
			const char *cmd, int quiet);
/* The pp_progress_fn. */
void progress_view_report(void *ctx, const struct pp_progress_report *r);
/* Clears the line drawn, before the command prints a line of its own
 * (the next report draws it again below). */
void progress_view_clear(struct progress_view *v);
/* The summary line, "CMD: WHAT in 1.2 s", when active and what is not
 * NULL (the work failed: the line is only cleared); releases p. */
void progress_view_finish(struct progress_view *v, struct pp_progress *p,
			  const char *what);

#endif
