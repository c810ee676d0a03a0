#include "build_view.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "../lib/json-out.h"
#include "../lib/xalloc.h"

/* Lines of a failed variant's log shown in the report. */
#define TAIL_LINES 15

void build_view_init(struct build_view *v, enum build_view_mode mode,
		     const struct pp_build *b)
{
	struct winsize ws;

	memset(v, 0, sizeof(*v));
	v->mode = mode;
	v->out = stdout;
	v->width = 80;
	if (mode == VIEW_TTY && !ioctl(1, TIOCGWINSZ, &ws) && ws.ws_col > 20)
		v->width = ws.ws_col;
	v->shown = xcalloc(b->nr_jobs + 1, sizeof(*v->shown));
	v->cwd = getcwd(NULL, 0);
	clock_gettime(CLOCK_MONOTONIC, &v->begun);
}

void build_view_release(struct build_view *v)
{
	free(v->shown);
	free(v->cwd);
}

/* path relative to the current directory when it is under it. */
static const char *rel(const struct build_view *v, const char *path)
{
	size_t n = v->cwd ? strlen(v->cwd) : 0;

	if (n && !strncmp(path, v->cwd, n) && path[n] == '/')
		return path + n + 1;
	return path;
}

/* The most compile jobs a variant has. */
static int most_jobs(const struct pp_build *b)
{
	int most = b->compile_jobs;

	for (size_t i = 0; i < b->nr_jobs; i++)
		if (b->jobs[i].compile_jobs > most)
			most = b->jobs[i].compile_jobs;
	return most;
}

void build_view_header(struct build_view *v, const struct pp_build *b)
{
	if (v->mode == VIEW_QUIET || v->mode == VIEW_JSON)
		return;
	fprintf(v->out, "padpack build: %s %s (version from %s), source %s\n",
		b->spec->name, b->version,
		pp_version_origin_name(b->version_origin), rel(v, b->source));
	fprintf(v->out, "  %zu variant%s, up to %d at a time, ", b->nr_jobs,
		b->nr_jobs == 1 ? "" : "s", b->parallel);
	if (most_jobs(b) > b->compile_jobs) /* -j3, two variants: 2 and 1 */
		fprintf(v->out, "%d or %d compile jobs each", most_jobs(b),
			b->compile_jobs);
	else
		fprintf(v->out, "%d compile job%s each", b->compile_jobs,
			b->compile_jobs == 1 ? "" : "s");
	fprintf(v->out, "%s%s\n", b->image ? ", in image " : "",
		b->image ? b->image : "");
	fflush(v->out);
}

/* One variant's line: name, phase, time, and where it is or why not. */
static void job_line(const struct build_view *v, const struct pp_job *j,
		     struct strbuf *out)
{
	strbuf_addf(out, "  %-14s %-9s %6.1f s", j->variant->name,
		    pp_phase_name(j->phase), pp_job_seconds(j));
	if (v->mode == VIEW_TTY && j->nr_steps && j->phase != PP_PHASE_WAIT &&
	    j->phase < PP_PHASE_DONE) /* how far: the step of the steps */
		strbuf_addf(out, "  step %zu/%zu", j->current + 1, j->nr_steps);
	if (j->phase == PP_PHASE_DONE)
		strbuf_addf(out, "  %s", rel(v, j->stage));
	else if (j->phase == PP_PHASE_FAILED || j->phase == PP_PHASE_SKIPPED)
		strbuf_addf(out, "  %s", j->message);
	else if (j->phase != PP_PHASE_WAIT)
		strbuf_addf(out, "  log: %s", rel(v, j->log));
}

/* How far the whole build is, and the time left once it can be told: the
 * mean time of the variants done so far, for those not ended, spread over
 * the variants run at once, less what the running ones have had. */
static void total_line(const struct pp_build *b, struct strbuf *out)
{
	size_t ended = 0, done = 0, left = 0;
	double spent = 0, running = 0, mean, eta;

	for (size_t i = 0; i < b->nr_jobs; i++) {
		const struct pp_job *j = &b->jobs[i];

		if (j->phase == PP_PHASE_DONE) {
			done++;
			spent += pp_job_seconds(j);
		}
		if (j->phase >= PP_PHASE_DONE)
			ended++;
		else if (j->phase != PP_PHASE_WAIT)
			running += pp_job_seconds(j);
	}
	left = b->nr_jobs - ended;
	strbuf_addf(out, "  %zu of %zu variants ended", ended, b->nr_jobs);
	if (!done || !left)
		return;
	mean = spent / (double)done;
	eta = (mean * (double)left - running) /
	      (double)(b->parallel > 0 ? b->parallel : 1);
	strbuf_addf(out, ", about %.0f s left", eta > 1 ? eta : 1);
}

static void redraw(struct build_view *v, const struct pp_build *b)
{
	struct strbuf sb = STRBUF_INIT;

	if (v->drawn)
		fprintf(v->out, "\033[%zuA", v->drawn);
	for (size_t i = 0; i < b->nr_jobs; i++) {
		strbuf_reset(&sb);
		job_line(v, &b->jobs[i], &sb);
		if (sb.len >= (size_t)v->width) /* a wrapped line breaks \033[A */
			strbuf_setlen(&sb, (size_t)v->width - 1);
		fprintf(v->out, "\r\033[K%s\n", sb.buf);
	}
	strbuf_reset(&sb);
	total_line(b, &sb);
	if (sb.len >= (size_t)v->width)
		strbuf_setlen(&sb, (size_t)v->width - 1);
	fprintf(v->out, "\r\033[K%s\n", sb.buf);
	v->drawn = b->nr_jobs + 1;
	fflush(v->out);
	strbuf_release(&sb);
}

static void plain_event(struct build_view *v, const struct pp_build *b,
			const struct pp_job *j)
{
	size_t i = (size_t)(j - b->jobs);
	struct strbuf sb = STRBUF_INIT;

	if (v->shown[i] == j->phase && j->phase != PP_PHASE_WAIT)
		return;
	v->shown[i] = j->phase;
	if (v->mode == VIEW_PLAIN) {
		job_line(v, j, &sb);
		fprintf(v->out, "%s\n", sb.buf + 2);
		fflush(v->out);
	} else if (j->phase == PP_PHASE_SKIPPED) {
		fprintf(stderr, "padpack build: %s skipped: %s\n",
			j->variant->name, j->message);
	}
	strbuf_release(&sb);
}

void build_view_event(void *ctx, const struct pp_build *b,
		      const struct pp_job *job)
{
	struct build_view *v = ctx;

	if (v->mode == VIEW_TTY)
		redraw(v, b);
	else if (job && v->mode != VIEW_JSON)
		plain_event(v, b, job);
}

static void report_failure(const struct build_view *v, const struct pp_job *j)
{
	struct strbuf tail = STRBUF_INIT, cmd = STRBUF_INIT;
	struct pp_err err;
	const char *p, *nl;

	pp_err_init(&err);
	fprintf(stderr, "\npadpack build: variant %s: %s after %.1f s\n",
		j->variant->name, j->message, pp_job_seconds(j));
	if (pp_job_log_tail(j, TAIL_LINES, &tail, &err) == 0) {
		fprintf(stderr, "  last lines of %s:\n", rel(v, j->log));
		for (p = tail.buf; *p; p = nl + 1) {
			nl = strchr(p, '\n');
			fprintf(stderr, "  | %.*s\n", (int)(nl - p), p);
		}
	}
	pp_step_command(&j->steps[j->current], &cmd);
	fprintf(stderr, "  to reproduce:\n    %s\n", cmd.buf);
	strbuf_release(&tail);
	strbuf_release(&cmd);
	pp_err_release(&err);
}

/* On a terminal, the last line: how many variants ended how, and the
 * time the build took. */
static void tty_total(struct build_view *v, const struct pp_build *b)
{
	size_t n[3] = { 0, 0, 0 }; /* done, failed, skipped */
	struct timespec now;

	for (size_t i = 0; i < b->nr_jobs; i++)
		n[b->jobs[i].phase == PP_PHASE_DONE ? 0 :
		  b->jobs[i].phase == PP_PHASE_FAILED ? 1 : 2]++;
	clock_gettime(CLOCK_MONOTONIC, &now);
	fprintf(v->out, "padpack build: %zu done, %zu failed, %zu skipped in "
		"%.1f s\n", n[0], n[1], n[2], (double)(now.tv_sec -
		v->begun.tv_sec) + (double)(now.tv_nsec - v->begun.tv_nsec) / 1e9);
}

static void summary(struct build_view *v, const struct pp_build *b)
{
	struct strbuf sb = STRBUF_INIT;

	if (v->mode == VIEW_TTY) {
		redraw(v, b); /* the final state stays on screen ... */
		for (size_t i = 0; i < b->nr_jobs; i++) /* ... lines cut */
			if (b->jobs[i].phase == PP_PHASE_SKIPPED)
				fprintf(stderr, "padpack build: %s skipped: %s\n",
					b->jobs[i].variant->name,
					b->jobs[i].message);
		tty_total(v, b);
		return;
	}
	fprintf(v->out, "result:\n");
	for (size_t i = 0; i < b->nr_jobs; i++) {
		strbuf_reset(&sb);
		job_line(v, &b->jobs[i], &sb);
		fprintf(v->out, "%s\n", sb.buf);
	}
	strbuf_release(&sb);
}

void build_view_result(struct build_view *v, const struct pp_build *b)
{
	struct pp_err err;

	pp_err_init(&err);
	if (v->mode == VIEW_JSON) {
		if (pp_json_write(v->out, pp_json_build(b), &err) < 0)
			fprintf(stderr, "padpack build: %s\n", err.msg);
	} else if (v->mode != VIEW_QUIET) {
		summary(v, b);
	}
	fflush(v->out);
	for (size_t i = 0; i < b->nr_jobs; i++)
		if (b->jobs[i].phase == PP_PHASE_FAILED)
			report_failure(v, &b->jobs[i]);
	pp_err_release(&err);
}

void build_view_dry_run(struct build_view *v, const struct pp_build *b)
{
	struct strbuf cmd = STRBUF_INIT;

	for (size_t i = 0; i < b->nr_jobs; i++) {
		const struct pp_job *j = &b->jobs[i];

		fprintf(v->out, "# %s%s%s\n", j->variant->name,
			j->message ? ": skipped: " : "",
			j->message ? j->message : "");
		for (size_t s = 0; s < j->nr_steps; s++) {
			strbuf_reset(&cmd);
			pp_step_command(&j->steps[s], &cmd);
			fprintf(v->out, "%s\n", cmd.buf);
		}
	}
	strbuf_release(&cmd);
}
