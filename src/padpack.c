/* padpack: the command table and the one place errors are printed. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/cmds.h"

#ifndef PADPACK_VERSION
#define PADPACK_VERSION "unknown"
#endif

static const struct pp_cmd *const commands[] = {
	&cmd_pack, &cmd_info, &cmd_contents, &cmd_field, &cmd_extract,
	&cmd_control, &cmd_compare_versions,
	&cmd_build,
	&cmd_split,
	&cmd_repo,
	&cmd_key, &cmd_sign, &cmd_verify, &cmd_clearsign, &cmd_detach_sign,
	&cmd_verify_sig,
	&cmd_isa,
	&cmd_docker,
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const char exit_codes[] =
	"Exit codes:\n"
	"  0   success\n"
	"  1   the check asked for failed (e.g. compare-versions is false)\n"
	"  2   usage error: unknown command or option, missing argument\n"
	"  3   invalid input: a control file, package or spec is malformed\n"
	"  4   I/O error: a file could not be read or written\n"
	"  5   an external build step failed\n"
	"  10  verify, verify-sig: the package or file is not signed\n"
	"  11  verify, verify-sig: the signature is bad (or malformed)\n"
	"  12  verify, verify-sig: the signing key is not in the keyring\n"
	"  13  verify: signed, but a file does not match its md5sums\n";

static void print_help(FILE *f)
{
	fprintf(f, "usage: padpack COMMAND [ARGS...]\n"
		"       padpack COMMAND --help\n"
		"       padpack help [COMMAND | spec]   (the manual page)\n"
		"       padpack --version\n\n"
		"padpack builds, inspects and checks Debian packages.\n\n"
		"Commands:\n");
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "  %-18s %s\n", commands[i]->name,
			commands[i]->summary);
	fprintf(f, "\n%s", exit_codes);
}

static const struct pp_cmd *find_command(const char *name)
{
	for (size_t i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

/* Shows the manual page PAGE with man(1), as git help does. Where man
 * or the page is missing, says so and prints the short form, if any. */
static int show_manual(const char *page, const char *section,
		       const char *short_form)
{
	int status = -1;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execlp("man", "man", section, page, (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	if (pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	fprintf(stderr, "padpack: could not show the manual page %s(%s); "
		"install padpack's manual pages and man-db\n", page, section);
	if (short_form)
		printf("%s", short_form);
	return 0;
}

static int help_command(const char *name)
{
	const struct pp_cmd *cmd;
	char page[64];

	if (!strcmp(name, "spec"))
		return show_manual("padpack-spec", "5", NULL);
	cmd = find_command(name);
	if (!cmd) {
		fprintf(stderr, "padpack: '%s' is not a command; see "
			"'padpack --help'\n", name);
		return PP_EXIT_USAGE;
	}
	snprintf(page, sizeof(page), "padpack-%s", cmd->name);
	return show_manual(page, "1", cmd->usage);
}

static int wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help"))
			return 1;
	return 0;
}

static int report(const struct pp_cmd *cmd, struct pp_err *err, int rc)
{
	/* what the command printed comes first, whole: with both streams on
	 * one pipe, a warning must not land inside a buffered line */
	fflush(stdout);
	if (err->warnings.len)
		fprintf(stderr, "%s", err->warnings.buf);
	if (rc == 0)
		return 0;
	if (err->code == PP_EXIT_OK)
		err->code = PP_EXIT_FAIL;
	if (err->msg[0])
		fprintf(stderr, "padpack %s: %s\n", cmd->name, err->msg);
	if (err->code == PP_EXIT_USAGE)
		fprintf(stderr, "Try 'padpack %s --help'.\n", cmd->name);
	return err->code;
}

int main(int argc, char **argv)
{
	const struct pp_cmd *cmd;
	struct pp_err err;
	int rc;

	if (argc < 2) {
		print_help(stderr);
		return PP_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help") && argc > 2)
		return help_command(argv[2]);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		print_help(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("padpack %s\n", PADPACK_VERSION);
		return 0;
	}
	cmd = find_command(argv[1]);
	if (!cmd) {
		fprintf(stderr, "padpack: '%s' is not a command; see "
			"'padpack --help'\n", argv[1]);
		return PP_EXIT_USAGE;
	}
	if (wants_help(argc - 1, argv + 1)) {
		printf("%s", cmd->usage);
		return 0;
	}
	pp_err_init(&err);
	rc = report(cmd, &err, cmd->run(argc - 1, argv + 1, &err));
	pp_err_release(&err);
	return rc;
}
