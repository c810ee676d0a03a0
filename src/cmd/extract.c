/* padpack extract: unpack a package's files, like dpkg-deb --extract. */
#include "../lib/deb.h"
#include "cmds.h"

static const char usage[] =
	"usage: padpack extract X.deb DIR\n\n"
	"Extracts the files of the package into DIR (created if missing), as\n"
	"dpkg-deb --extract does. Nothing is ever written outside DIR: entries\n"
	"with absolute names or '..', entries that would be written through a\n"
	"symbolic link, hard links to anything but an earlier file of the\n"
	"package, and device nodes are refused with an error naming the entry.\n";

static int run(int argc, char **argv, struct pp_err *err)
{
	struct pp_deb deb;
	int rc;

	if (argc != 3 || argv[1][0] == '-')
		return pp_usage_error(err, "expected a .deb file and a directory");
	if (pp_deb_open(&deb, argv[1], err) < 0)
		return -1;
	rc = pp_deb_extract(&deb, &deb.data, argv[2], err);
	pp_deb_close(&deb);
	return rc;
}

const struct pp_cmd cmd_extract = {
	"extract", run, "extract a package's files (dpkg-deb --extract)", usage,
};
