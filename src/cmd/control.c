/* padpack control: unpack the control archive, like dpkg-deb --control. */
#include "../lib/deb.h"
#include "cmds.h"

static const char usage[] =
	"usage: padpack control X.deb [DIR]\n\n"
	"Extracts the control files (control, md5sums, maintainer scripts, ...)\n"
	"into DIR, by default ./DEBIAN, as dpkg-deb --control does, with the\n"
	"same protection against hostile entries as padpack extract.\n";

static int run(int argc, char **argv, struct pp_err *err)
{
	struct pp_deb deb;
	int rc;

	if (argc < 2 || argc > 3 || argv[1][0] == '-')
		return pp_usage_error(err, "expected a .deb file and optionally "
				      "a directory");
	if (pp_deb_open(&deb, argv[1], err) < 0)
		return -1;
	rc = pp_deb_extract(&deb, &deb.control, argc == 3 ? argv[2] : "DEBIAN",
			    err);
	pp_deb_close(&deb);
	return rc;
}

const struct pp_cmd cmd_control = {
	"control", run, "extract a package's control files (dpkg-deb --control)",
	usage,
};
