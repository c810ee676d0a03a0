/* padpack: the command table and the one place errors are printed. */
#include <stdio.h>
#include <string.h>

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

static int wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help"))
			return 1;
	return 0;
}

static int report(const struct pp_cmd *cmd, struct pp_err *err, int rc)
{
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
