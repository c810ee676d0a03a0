/* Running a planned build: a pool of at most b->parallel variants, each
 * running its steps one after the other as child processes with their
 * output in the variant's log. One thread: SIGCHLD is blocked and waited
 * for with a timeout, which also paces the progress callbacks. */
#include "build.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fsutil.h"
#include "proc.h"
#include "xalloc.h"

#define TICK_NS 250000000L

static double since(const struct timespec *from, const struct timespec *to)
{
	return (double)(to->tv_sec - from->tv_sec) +
	       (double)(to->tv_nsec - from->tv_nsec) / 1e9;
}

static struct timespec now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t;
}

double pp_job_seconds(const struct pp_job *job)
{
	struct timespec t = now();

	switch (job->phase) {
	case PP_PHASE_WAIT:
	case PP_PHASE_SKIPPED:
		return 0.0;
	case PP_PHASE_DONE:
	case PP_PHASE_FAILED:
		return since(&job->started, &job->ended);
	default:
		return since(&job->started, &t);
	}
}

static int job_active(const struct pp_job *j)
{
	return j->phase >= PP_PHASE_COPY && j->phase <= PP_PHASE_INSTALL;
}

void pp_step_command(const struct pp_step *step, struct strbuf *out)
{
	if (step->cwd) {
		strbuf_addstr(out, "cd ");
		pp_shell_quote(out, step->cwd);
		strbuf_addstr(out, " && ");
	}
	if (step->env.nr)
		strbuf_addstr(out, "env ");
	for (size_t i = 0; i < step->env.nr; i++) {
		pp_shell_quote(out, step->env.items[i]);
		strbuf_addch(out, ' ');
	}
	for (size_t i = 0; i < step->argv.nr; i++) {
		if (i)
			strbuf_addch(out, ' ');
		pp_shell_quote(out, step->argv.items[i]);
	}
}

int pp_job_log_tail(const struct pp_job *job, int n, struct strbuf *out,
		    struct pp_err *err)
{
	struct strbuf log = STRBUF_INIT;
	size_t start;

	if (pp_read_file(job->log, &log, err) < 0)
		return -1;
	strbuf_rtrim(&log);
	start = log.len;
	while (start > 0 && n > 0)
		if (log.buf[--start] == '\n')
			n--;
	if (log.buf[start] == '\n')
		start++;
	strbuf_add(out, log.buf + start, log.len - start);
	if (log.len)
		strbuf_addch(out, '\n');
	strbuf_release(&log);
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int type,
			struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

/* Removes a directory tree; one that is not there is fine. */
static int remove_tree(const char *path, struct pp_err *err)
{
	if (access(path, F_OK) < 0)
		return 0;
	if (nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot remove '%s'", path);
	return 0;
}

static void fail_job(struct pp_job *j, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail_job(struct pp_job *j, int status, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	free(j->message);
	j->message = strbuf_detach(&sb, NULL);
	j->exit_status = status;
	j->phase = PP_PHASE_FAILED;
	j->ended = now();
	j->pid = -1;
	if (j->log_fd >= 0) {
		dprintf(j->log_fd, "==> padpack: %s\n", j->message);
		close(j->log_fd);
		j->log_fd = -1;
	}
}

static void log_step(struct pp_job *j, const struct pp_step *st,
		     const char *note)
{
	struct strbuf cmd = STRBUF_INIT;

	pp_step_command(st, &cmd);
	dprintf(j->log_fd, "==> padpack: %s%s: %s\n", pp_phase_name(st->phase),
		note, cmd.buf);
	strbuf_release(&cmd);
}

/* What must happen before a step: a tree set up afresh starts from
 * nothing (with CMake, from no cache), so it holds the spec's options and
 * nothing older; an install starts from an empty stage, so nothing stale
 * is staged (its after_install lines then add to it); every other step
 * finds the build tree there. */
static int prepare_step(struct pp_job *j, const struct pp_step *st,
			struct pp_err *err)
{
	if (st->phase == PP_PHASE_INSTALL &&
	    (st == &j->steps[0] || st[-1].phase != PP_PHASE_INSTALL))
		return remove_tree(j->stage, err);
	if (st->phase == PP_PHASE_INSTALL)
		return 0;
	if (st == &j->steps[0] && j->fresh) {
		int cmake = j->keep_objects;

		if (cmake && unlink(j->tree_mark) < 0 && errno != ENOENT)
			return pp_err_errno(err, PP_EXIT_IO, "cannot remove "
					    "'%s'", j->tree_mark);
		if (!cmake && remove_tree(j->obj, err) < 0)
			return -1;
		unlink(j->stamp);
	}
	return pp_mkdir_p(j->obj, 0755, err);
}

/* Starts the job's next step that has something to do. */
static void start_step(struct pp_job *j, const sigset_t *mask)
{
	struct pp_step *st;
	struct pp_spawn sp;
	struct pp_err err;

	/* only a configure can be up to date, and a build always follows */
	while (j->current < j->nr_steps && j->steps[j->current].up_to_date)
		log_step(j, &j->steps[j->current++], " (up to date, skipped)");
	st = &j->steps[j->current];
	j->phase = st->phase;
	j->step_started = now();
	log_step(j, st, "");
	pp_err_init(&err);
	sp = (struct pp_spawn){ st->argv.items, st->cwd, &st->env, j->log_fd,
				-1, mask, 1 };
	if (prepare_step(j, st, &err) < 0 || (j->pid = pp_spawn(&sp, &err)) < 0)
		fail_job(j, -1, "%s failed: %s", pp_phase_name(st->phase),
			 err.msg);
	pp_err_release(&err);
}

static int begin_job(struct pp_job *j, const sigset_t *mask)
{
	struct pp_err err;

	pp_err_init(&err);
	j->started = now();
	j->phase = j->steps[0].phase;
	if (pp_mkdir_p(j->dir, 0755, &err) < 0 ||
	    (j->log_fd = open(j->log, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND |
			      O_CLOEXEC, 0644)) < 0) {
		if (!err.msg[0])
			pp_err_errno(&err, PP_EXIT_IO, "cannot write '%s'",
				     j->log);
		fail_job(j, -1, "%s", err.msg);
	} else {
		start_step(j, mask);
	}
	pp_err_release(&err);
	return 0;
}

/* Records the configuration that was just set up (see build.c). */
static void write_stamp(const struct pp_job *j)
{
	struct pp_err ignored;

	if (!j->stamp_text)
		return;
	pp_err_init(&ignored);
	pp_write_file(j->stamp, j->stamp_text, strlen(j->stamp_text), 0644,
		      &ignored);
	pp_err_release(&ignored);
}

static void finish_step(struct pp_job *j, int status, const sigset_t *mask)
{
	struct pp_step *st = &j->steps[j->current];
	struct timespec t = now();

	st->seconds = since(&j->step_started, &t);
	j->pid = -1;
	if (status != 0) {
		fail_job(j, status, "%s failed (exit status %d)",
			 pp_phase_name(st->phase), status);
		return;
	}
	if (j->current == 0)
		write_stamp(j);
	if (++j->current < j->nr_steps) {
		start_step(j, mask);
		return;
	}
	j->phase = PP_PHASE_DONE;
	j->ended = t;
	dprintf(j->log_fd, "==> padpack: done in %.1f s\n",
		since(&j->started, &t));
	close(j->log_fd);
	j->log_fd = -1;
}

static void notify(const struct pp_build_events *ev, const struct pp_build *b,
		   const struct pp_job *j)
{
	if (ev && ev->changed)
		ev->changed(ev->ctx, b, j);
}

/* Starts waiting jobs while fewer than b->parallel are running. */
static void start_jobs(struct pp_build *b, const sigset_t *mask,
		       const struct pp_build_events *ev)
{
	int active = 0;

	for (size_t i = 0; i < b->nr_jobs; i++)
		active += job_active(&b->jobs[i]);
	for (size_t i = 0; i < b->nr_jobs && active < b->parallel; i++) {
		struct pp_job *j = &b->jobs[i];

		if (j->phase != PP_PHASE_WAIT)
			continue;
		begin_job(j, mask);
		active += job_active(j);
		notify(ev, b, j);
	}
}

static struct pp_job *job_of(struct pp_build *b, pid_t pid)
{
	for (size_t i = 0; i < b->nr_jobs; i++)
		if (b->jobs[i].pid == pid)
			return &b->jobs[i];
	return NULL;
}

/* Collects every child that ended and moves its job on. */
static void reap(struct pp_build *b, const sigset_t *mask,
		 const struct pp_build_events *ev)
{
	pid_t pid;
	int ws;

	while ((pid = waitpid(-1, &ws, WNOHANG)) > 0) {
		struct pp_job *j = job_of(b, pid);

		if (!j)
			continue;
		finish_step(j, pp_exit_status(ws), mask);
		notify(ev, b, j);
	}
}

static int any_active(const struct pp_build *b)
{
	for (size_t i = 0; i < b->nr_jobs; i++)
		if (job_active(&b->jobs[i]) || b->jobs[i].phase == PP_PHASE_WAIT)
			return 1;
	return 0;
}

static int summarize(const struct pp_build *b, struct pp_err *err)
{
	struct strbuf failed = STRBUF_INIT;
	size_t nr_failed = 0, nr_built = 0;

	for (size_t i = 0; i < b->nr_jobs; i++) {
		const struct pp_job *j = &b->jobs[i];

		nr_built += j->phase != PP_PHASE_SKIPPED;
		if (j->phase == PP_PHASE_FAILED)
			strbuf_addf(&failed, "%s%s", nr_failed++ ? ", " : "",
				    j->variant->name);
	}
	if (nr_failed)
		pp_err_set(err, PP_EXIT_BUILD, "%zu of %zu variant%s failed: %s",
			   nr_failed, nr_built, nr_built == 1 ? "" : "s",
			   failed.buf);
	strbuf_release(&failed);
	return nr_failed ? -1 : 0;
}

/* Stops every running step (its whole process group) and waits for it. */
static void interrupt(struct pp_build *b, int sig,
		      const struct pp_build_events *ev)
{
	int ws;

	for (size_t i = 0; i < b->nr_jobs; i++)
		if (b->jobs[i].pid > 0)
			kill(-b->jobs[i].pid, SIGTERM);
	for (size_t i = 0; i < b->nr_jobs; i++) {
		struct pp_job *j = &b->jobs[i];

		if (j->pid <= 0)
			continue;
		while (waitpid(j->pid, &ws, 0) < 0 && errno == EINTR)
			;
		fail_job(j, 128 + sig, "%s interrupted by %s",
			 pp_phase_name(j->phase), strsignal(sig));
		notify(ev, b, j);
	}
}

int pp_build_run(struct pp_build *b, const struct pp_build_events *ev,
		 struct pp_err *err)
{
	struct timespec tick = { 0, TICK_NS };
	sigset_t wait_for, old;
	int sig = 0;

	sigemptyset(&wait_for);
	sigaddset(&wait_for, SIGCHLD);
	sigaddset(&wait_for, SIGINT);
	sigaddset(&wait_for, SIGTERM);
	sigaddset(&wait_for, SIGHUP);
	sigprocmask(SIG_BLOCK, &wait_for, &old);
	for (size_t i = 0; i < b->nr_jobs; i++)
		if (b->jobs[i].phase == PP_PHASE_SKIPPED)
			notify(ev, b, &b->jobs[i]);
	for (start_jobs(b, &old, ev); any_active(b); start_jobs(b, &old, ev)) {
		sig = sigtimedwait(&wait_for, NULL, &tick);
		if (sig > 0 && sig != SIGCHLD)
			break;
		reap(b, &old, ev);
		notify(ev, b, NULL);
	}
	if (sig > 0 && sig != SIGCHLD)
		interrupt(b, sig, ev);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (sig > 0 && sig != SIGCHLD)
		return pp_err_set(err, PP_EXIT_BUILD, "interrupted by %s; the "
				  "variants not done are not built",
				  strsignal(sig));
	return summarize(b, err);
}
