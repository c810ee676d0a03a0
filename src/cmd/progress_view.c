#include "progress_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "../lib/strbuf.h"

void progress_view_init(struct progress_view *v, struct pp_progress *p,
			const char *cmd, int quiet)
{
	const char *term = getenv("TERM"), *mode = getenv("PADPACK_PROGRESS");
	int always = mode && !strcmp(mode, "always");
	struct winsize ws;

	memset(v, 0, sizeof(*v));
	v->cmd = cmd;
	v->tty = isatty(2) && !(term && !strcmp(term, "dumb"));
	v->active = !quiet && !(mode && !strcmp(mode, "never")) &&
		    (always || v->tty);
	v->delay = always ? 0 : 0.5;
	v->width = 80;
	if (v->active && !ioctl(2, TIOCGWINSZ, &ws) && ws.ws_col > 20)
		v->width = ws.ws_col;
	pp_progress_init(p, v->active ? progress_view_report : NULL, v);
}

/* "12 MB", "4" (the unit follows the total). */
static void amount(struct strbuf *sb, uint64_t n, const char *unit)
{
	if (strcmp(unit, "bytes"))
		strbuf_addf(sb, "%llu", (unsigned long long)n);
	else if (n < 1 << 20)
		strbuf_addf(sb, "%.0f kB", (double)n / 1024);
	else if (n >= 10 << 20)
		strbuf_addf(sb, "%.0f MB", (double)n / (1 << 20));
	else
		strbuf_addf(sb, "%.1f MB", (double)n / (1 << 20));
}

static void describe(struct strbuf *sb, const struct progress_view *v,
		     const struct pp_progress_report *r)
{
	strbuf_addf(sb, "%s: %s", v->cmd, r->task ? r->task : "working");
	if (r->item)
		strbuf_addf(sb, " %s", r->item);
	strbuf_addstr(sb, " (");
	if (r->done || r->total) {
		amount(sb, r->done, r->unit);
		if (r->total) {
			strbuf_addch(sb, '/');
			amount(sb, r->total, r->unit);
		}
		if (strcmp(r->unit, "bytes"))
			strbuf_addf(sb, " %s", r->unit);
		if (r->total)
			strbuf_addf(sb, ", %d%%", (int)(100.0 * (double)r->done
							/ (double)r->total));
		strbuf_addstr(sb, ", ");
	}
	strbuf_addf(sb, "%.0f s", r->seconds);
	if (r->left >= 0)
		strbuf_addf(sb, ", %.0f s left", r->left + 0.5);
	strbuf_addch(sb, ')');
}

void progress_view_report(void *ctx, const struct pp_progress_report *r)
{
	struct progress_view *v = ctx;
	struct strbuf sb = STRBUF_INIT;

	if ((r->elapsed < v->delay && !v->shown) || (r->final && !v->tty))
		return;
	if (!r->final) {
		describe(&sb, v, r);
		if (v->tty && sb.len >= (size_t)v->width) /* wrapped: no redraw */
			strbuf_setlen(&sb, (size_t)v->width - 1);
	}
	if (v->tty)
		fprintf(stderr, "\r\033[K%s", sb.buf);
	else
		fprintf(stderr, "%s\n", sb.buf);
	fflush(stderr);
	v->shown = 1;
	strbuf_release(&sb);
}

void progress_view_clear(struct progress_view *v)
{
	if (v->shown && v->tty) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
}

void progress_view_finish(struct progress_view *v, struct pp_progress *p,
			  const char *what)
{
	pp_progress_end(p);
	if (v->shown && what)
		fprintf(stderr, "%s: %s in %.1f s\n", v->cmd, what,
			pp_progress_seconds(p));
	pp_progress_release(p);
}
