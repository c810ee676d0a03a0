#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "xalloc.h"

static int is_executable(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

static char *find_in(const char *name, const char *dir, size_t len)
{
	char *path = xmalloc(len + strlen(name) + 2);

	if (!len) /* an empty PATH entry means the current directory */
		sprintf(path, "%s", name);
	else
		sprintf(path, "%.*s/%s", (int)len, dir, name);
	if (is_executable(path))
		return path;
	free(path);
	return NULL;
}

char *pp_find_program(const char *name, const struct pp_strlist *dirs)
{
	const char *p = getenv("PATH"), *colon;
	char *found = NULL;

	if (strchr(name, '/'))
		return is_executable(name) ? xstrdup(name) : NULL;
	for (; p && !found; p = colon ? colon + 1 : NULL) {
		colon = strchr(p, ':');
		found = find_in(name, p, colon ? (size_t)(colon - p) : strlen(p));
	}
	for (size_t i = 0; dirs && !found && i < dirs->nr; i++)
		found = find_in(name, dirs->items[i], strlen(dirs->items[i]));
	return found;
}

int pp_exit_status(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return 255;
}

/* In the child: killed when the thread that forked it ends (padpack
 * killed, even by SIGKILL, which no handler sees: a strip would run on
 * orphaned); then stdin from /dev/null, output to out_fd, the
 * environment, the directory and the signal mask; then exec. Never
 * returns. */
static void exec_child(const struct pp_spawn *sp, pid_t parent)
{
	int null;

	/* (a parent gone before the prctl: reparented, never signalled) */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == 0 && getppid() != parent)
		_exit(127);
	null = open("/dev/null", O_RDONLY);

	if (null >= 0 && null != 0) {
		dup2(null, 0);
		close(null);
	}
	dup2(sp->out_fd, 1);
	dup2(sp->err_fd >= 0 ? sp->err_fd : sp->out_fd, 2);
	for (size_t i = 0; sp->env && i < sp->env->nr; i++)
		putenv(sp->env->items[i]); /* the child's own copy */
	if (sp->own_group)
		setpgid(0, 0);
	if (sp->mask)
		sigprocmask(SIG_SETMASK, sp->mask, NULL);
	if (sp->cwd && chdir(sp->cwd) < 0) {
		dprintf(2, "padpack: cannot enter '%s': %s\n", sp->cwd,
			strerror(errno));
		_exit(127);
	}
	execvp(sp->argv[0], sp->argv);
	dprintf(2, "padpack: cannot run '%s': %s\n", sp->argv[0],
		strerror(errno));
	_exit(127);
}

pid_t pp_spawn(const struct pp_spawn *sp, struct pp_err *err)
{
	pid_t parent = getpid(), pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot start '%s'",
				    sp->argv[0]);
	if (pid == 0)
		exec_child(sp, parent);
	if (sp->own_group)
		setpgid(pid, pid); /* also here: no race with a kill(-pid) */
	return pid;
}

static int read_all(int fd, struct strbuf *out)
{
	char buf[4096];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		strbuf_add(out, buf, (size_t)n);
	}
	return 0;
}

int pp_proc_capture(char *const argv[], const char *cwd, struct strbuf *out,
		    int *status, struct pp_err *err)
{
	struct pp_spawn sp = { argv, cwd, NULL, -1, -1, NULL, 0 };
	int fds[2], ws;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot create a pipe");
	sp.out_fd = fds[1];
	sp.err_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	pid = pp_spawn(&sp, err);
	close(fds[1]);
	if (sp.err_fd >= 0)
		close(sp.err_fd);
	if (pid < 0) {
		close(fds[0]);
		return -1;
	}
	read_all(fds[0], out);
	close(fds[0]);
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	*status = pp_exit_status(ws);
	return 0;
}

void pp_shell_quote(struct strbuf *out, const char *s)
{
	if (*s && !s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRS"
			      "TUVWXYZ0123456789_-+=./:,@%^")]) {
		strbuf_addstr(out, s);
		return;
	}
	strbuf_addch(out, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_addstr(out, "'\\''");
		else
			strbuf_addch(out, *s);
	}
	strbuf_addch(out, '\'');
}
