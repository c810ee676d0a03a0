/* Running other programs: finding them, capturing what they print, and
 * spawning them with their output sent to a file (build steps). */
#ifndef PP_PROC_H
#define PP_PROC_H

#include <signal.h>
#include <sys/types.h>

#include "error.h"
#include "strbuf.h"
#include "strlist.h"

/* Where name is found: in PATH, then in dirs (may be NULL); a new string,
 * or NULL when it is nowhere executable. A name with '/' is checked as is. */
char *pp_find_program(const char *name, const struct pp_strlist *dirs);

/* Runs argv in cwd (NULL: here) with stdin from /dev/null, appending its
 * standard output to out and discarding its errors; *status gets its exit
 * status (128+N when killed by signal N). Fails only when it cannot run. */
int pp_proc_capture(char *const argv[], const char *cwd, struct strbuf *out,
		    int *status, struct pp_err *err);

/* How a step is started. */
struct pp_spawn {
	char *const *argv;
	const char *cwd;            /* NULL: the current directory */
	const struct pp_strlist *env; /* NAME=VALUE added to the environment */
	int out_fd;                 /* stdout goes here ... */
	int err_fd;                 /* ... and stderr here (-1: to out_fd) */
	const sigset_t *mask;       /* the child's signal mask, NULL: as now */
	int own_group;              /* in a process group of its own, which
				       kill(-pid, sig) reaches as a whole */
};

/* Starts a child; returns its pid, or -1 (err filled) when fork fails.
 * When exec fails, the child writes why to out_fd and exits with 127.
 * The child is killed (SIGKILL) when the calling *thread* ends
 * (PR_SET_PDEATHSIG), so that none outlives a killed padpack: the thread
 * that starts a child must wait for it before it ends. (Every caller
 * does: pp_proc_capture and pp_split_run_tool wait before they return,
 * on workers' threads too; pp_build_run returns once every step ended.) */
pid_t pp_spawn(const struct pp_spawn *sp, struct pp_err *err);

/* The exit status of a waitpid() status: 128+N when killed by signal N. */
int pp_exit_status(int wstatus);

/* Appends s quoted for a POSIX shell when it needs quoting. */
void pp_shell_quote(struct strbuf *out, const char *s);

#endif
