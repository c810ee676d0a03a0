/* padpack control: unpack the control archive, like dpkg-deb --control. */
#include "../lib/deb.h"
#include "cmds.h"

static const char usage[] =
	"usage: padpack control [OPTIONS] X.deb [DIR]\n\n"
	"Extracts the control files (control, md5sums, maintainer scripts, ...)\n"
	"into DIR, by default ./DEBIAN, as dpkg-deb --control does, with the\n"
	"same protection against hostile entries as padpack extract; the files\n"
	"may total at most 256 MiB.\n\n"
	"Options:\n"
	"      --preserve-special  keep setuid and setgid bits\n"
	"      --same-owner        as root, give files the archive's owners\n"
	"      --max-size=SIZE     the most the files may total (as for\n"
	"                          padpack extract)\n";

static int run(int argc, char **argv, struct pp_err *err)
{
	struct pp_extract_opts o = { 0, 0, (int64_t)256 << 20,
				     "padpack's limit for control archives" };
	struct pp_deb deb;
	int rc, max_set, at = pp_extract_parse(argc, argv, &o, &max_set, err);

	if (at < 0)
		return -1;
	if (argc - at < 1 || argc - at > 2)
		return pp_usage_error(err, "expected a .deb file and optionally "
				      "a directory");
	if (pp_deb_open(&deb, argv[at], err) < 0)
		return -1;
	rc = pp_deb_extract(&deb, &deb.control,
			    argc - at == 2 ? argv[at + 1] : "DEBIAN", &o, err);
	pp_deb_close(&deb);
	return rc;
}

const struct pp_cmd cmd_control = {
	"control", run, "extract a package's control files (dpkg-deb --control)",
	usage,
};
