/* padpack extract: unpack a package's files, like dpkg-deb --extract. */
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/deb.h"
#include "cmds.h"

static const char usage[] =
	"usage: padpack extract [OPTIONS] X.deb DIR\n\n"
	"Extracts the files of the package into DIR (created if missing), as\n"
	"dpkg-deb --extract does. Nothing is ever written outside DIR: entries\n"
	"with absolute names or '..', entries that would be written through a\n"
	"symbolic link, hard links to anything but an earlier file of the\n"
	"package, device nodes, a path given twice, names with a newline,\n"
	"longer than 4095 bytes or deeper than 256 levels are refused with an\n"
	"error naming the entry. Files are given to the caller, as dpkg-deb\n"
	"does, and lose their setuid and setgid bits (each drop is said).\n"
	"The files may total at most twice the package's Installed-Size plus\n"
	"16 MiB, and each must fit in the free space of DIR's filesystem; a\n"
	"file that cannot be written whole is removed and named.\n\n"
	"Options:\n"
	"      --preserve-special  keep setuid and setgid bits\n"
	"      --same-owner        as root, give files the archive's owners\n"
	"      --max-size=SIZE     the most the files may total, in bytes or\n"
	"                          with K, M, G or T; 'none' for no limit but\n"
	"                          the free space\n";

/* A size (pp_parse_size), or "none": -1. */
static int parse_max_size(const char *s, int64_t *out)
{
	uint64_t v;

	if (!strcmp(s, "none")) {
		*out = -1;
		return 0;
	}
	if (pp_parse_size(s, &v) < 0)
		return -1;
	*out = (int64_t)v;
	return 0;
}

int pp_extract_parse(int argc, char **argv, struct pp_extract_opts *o,
		     int *max_set, struct pp_err *err)
{
	static const struct option opts[] = {
		{ "preserve-special", no_argument, NULL, 'p' },
		{ "same-owner", no_argument, NULL, 'o' },
		{ "max-size", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*max_set = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'p') {
			o->preserve_special = 1;
		} else if (c == 'o') {
			o->same_owner = 1;
		} else if (c == 'm' && max_set) {
			if (parse_max_size(optarg, &o->max_bytes) < 0)
				return pp_usage_error(err, "--max-size '%s' is "
						      "not a size like 500M or "
						      "'none'", optarg);
			o->limit_why = "--max-size";
			*max_set = 1;
		} else {
			return pp_usage_error(err, "unknown option");
		}
	}
	if (o->same_owner && geteuid() != 0)
		pp_warn(err, "padpack: warning: --same-owner needs root; the "
			"files will be yours");
	/* A write past `ulimit -f` fails with EFBIG, said as an error,
	 * instead of killing padpack without a word. */
	signal(SIGXFSZ, SIG_IGN);
	return optind;
}

static int run(int argc, char **argv, struct pp_err *err)
{
	struct pp_extract_opts o = { 0, 0, -1, "" };
	struct pp_deb deb;
	int rc, max_set, at = pp_extract_parse(argc, argv, &o, &max_set, err);

	if (at < 0)
		return -1;
	if (argc - at != 2)
		return pp_usage_error(err, "expected a .deb file and a directory");
	if (pp_deb_open(&deb, argv[at], err) < 0)
		return -1;
	if (!max_set)
		o.max_bytes = pp_deb_size_limit(&deb, &o.limit_why);
	rc = pp_deb_extract(&deb, &deb.data, argv[at + 1], &o, err);
	pp_deb_close(&deb);
	return rc;
}

const struct pp_cmd cmd_extract = {
	"extract", run, "extract a package's files (dpkg-deb --extract)", usage,
};
