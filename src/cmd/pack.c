/* padpack pack: build a .deb from a directory, like dpkg-deb --build. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/deb.h"
#include "../lib/strbuf.h"
#include "cmds.h"
#include "progress_view.h"

static const char usage[] =
	"usage: padpack pack [-Z gzip|xz|zstd|none] [-z LEVEL] [--threads N]\n"
	"                    [--x86-filter auto|off] DIR [OUT]\n\n"
	"Builds a Debian package from DIR, as dpkg-deb --build --root-owner-group\n"
	"does: DIR/DEBIAN holds control, maintainer scripts, conffiles and\n"
	"triggers; everything else is the payload, owned by root.\n\n"
	"OUT is a file name or an existing directory (the package is then named\n"
	"PACKAGE_VERSION_ARCH.deb); the default is DIR.deb. Everything is checked\n"
	"before anything is written, and OUT appears only once complete.\n"
	"DEBIAN/md5sums and the Installed-Size field are generated when absent.\n\n"
	"Options:\n"
	"  -Z, --compression=TYPE  gzip, xz (default), zstd or none\n"
	"  -z, --level=LEVEL       compression level (gzip 1-9, default 9;\n"
	"                          xz 0-9, default 6; zstd 1-19+, default 3)\n"
	"      --threads=N         compressor threads (default: one per CPU);\n"
	"                          the output is the same for any N\n"
	"      --x86-filter=WHEN   xz: put the x86 BCJ filter before LZMA2 in\n"
	"                          the data member: auto, when the files are\n"
	"                          x86 code it makes smaller (3 to 12%); off\n"
	"                          (default: dpkg-deb's bytes)\n"
	"  -q, --quiet             do not print what was built, nor, on a\n"
	"                          terminal, the progress\n\n"
	"Environment:\n"
	"  SOURCE_DATE_EPOCH       timestamp of the members; file times are\n"
	"                          clamped to it, so packs are reproducible\n"
	"  PADPACK_PROGRESS        never: no progress line on a terminal;\n"
	"                          always: also when stderr is not one\n";

static int parse(int argc, char **argv, struct pp_compress_opts *comp,
		 int *quiet, struct pp_err *err)
{
	static const struct option opts[] = {
		{ "compression", required_argument, NULL, 'Z' },
		{ "level", required_argument, NULL, 'z' },
		{ "threads", required_argument, NULL, 'T' },
		{ "x86-filter", required_argument, NULL, 'X' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	long v;
	int c;

	while ((c = getopt_long(argc, argv, "+Z:z:q", opts, NULL)) != -1) {
		switch (c) {
		case 'Z':
			if (pp_compressor_parse(optarg, &comp->type) < 0)
				return pp_usage_error(err, "unknown compression "
						      "'%s'; use gzip, xz, zstd "
						      "or none", optarg);
			break;
		case 'z':
			if (pp_parse_int(optarg, 0, 22, &v) < 0)
				return pp_usage_error(err, "level '%s' is not a "
						      "number from 0 to 22",
						      optarg);
			comp->level = (int)v;
			break;
		case 'T':
			if (pp_parse_int(optarg, 1, 1024, &v) < 0)
				return pp_usage_error(err, "--threads '%s' is not "
						      "a number from 1 to 1024",
						      optarg);
			comp->threads = (int)v;
			break;
		case 'X':
			if (pp_x86_filter_parse(optarg, &comp->x86) < 0)
				return pp_usage_error(err, "--x86-filter '%s': "
						      "use auto or off", optarg);
			break;
		case 'q':
			*quiet = 1;
			break;
		default:
			return pp_usage_error(err, "unknown option");
		}
	}
	return pp_compress_opts_check(comp, err);
}

static int run(int argc, char **argv, struct pp_err *err)
{
	struct pp_pack_opts o = { { PP_COMP_XZ, -1, 0, PP_X86_OFF }, 0, NULL };
	struct progress_view view;
	struct pp_progress progress;
	struct strbuf def = STRBUF_INIT;
	char *written = NULL;
	long long ts;
	int quiet = 0, rc;

	if (parse(argc, argv, &o.comp, &quiet, err) < 0)
		return -1;
	if (optind >= argc || argc - optind > 2)
		return pp_usage_error(err, "expected DIR and optionally OUT");
	if (pp_source_date(&ts, err) < 0)
		return -1;
	o.timestamp = (time_t)ts;
	if (argc - optind == 1) {
		strbuf_addstr(&def, argv[optind]);
		while (def.len > 1 && def.buf[def.len - 1] == '/')
			strbuf_setlen(&def, def.len - 1);
		strbuf_addstr(&def, ".deb");
	}
	progress_view_init(&view, &progress, "padpack pack", quiet);
	o.progress = &progress;
	rc = pp_deb_pack(argv[optind], def.len ? def.buf : argv[optind + 1],
			 &o, &written, err);
	progress_view_finish(&view, &progress, rc ? NULL : "packed");
	if (!rc && !quiet)
		printf("padpack: built '%s'\n", written);
	free(written);
	strbuf_release(&def);
	return rc;
}

const struct pp_cmd cmd_pack = {
	"pack", run, "build a .deb from a directory (dpkg-deb --build)", usage,
};
