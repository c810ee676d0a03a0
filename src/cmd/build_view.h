/* How padpack build shows its progress and result: a live line per
 * variant on a terminal, plain lines otherwise, nothing but problems with
 * --quiet, or one JSON document with --json. */
#ifndef PP_BUILD_VIEW_H
#define PP_BUILD_VIEW_H

#include <stdio.h>
#include <time.h>

#include "../lib/build.h"

enum build_view_mode {
	VIEW_TTY,    /* redrawn lines with phase and elapsed time */
	VIEW_PLAIN,  /* a line per phase change */
	VIEW_QUIET,  /* only failures and skips, on stderr */
	VIEW_JSON,   /* the result as JSON at the end */
};

struct build_view {
	enum build_view_mode mode;
	FILE *out;
	int width;            /* terminal columns (VIEW_TTY) */
	size_t drawn;         /* lines on screen to redraw (VIEW_TTY) */
	enum pp_phase *shown; /* phase last printed per job (VIEW_PLAIN) */
	char *cwd;            /* paths under it are shown relative */
	struct timespec begun; /* for the summary line's time (VIEW_TTY) */
};

void build_view_init(struct build_view *v, enum build_view_mode mode,
		     const struct pp_build *b);
void build_view_release(struct build_view *v);
/* What is built, before starting. */
void build_view_header(struct build_view *v, const struct pp_build *b);
/* The pp_build_events callback. */
void build_view_event(void *ctx, const struct pp_build *b,
		      const struct pp_job *job);
/* The result: summary, then each failure with the end of its log and the
 * command that reproduces it (stderr); or the JSON document. */
void build_view_result(struct build_view *v, const struct pp_build *b);
/* The commands of every step, for --dry-run. */
void build_view_dry_run(struct build_view *v, const struct pp_build *b);

#endif
