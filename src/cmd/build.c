/* padpack build: compile every variant of a spec into its stage tree.
 * Options and presentation only; the work is in lib/build.c. */
#include <getopt.h>
#include <stdlib.h>
#include <unistd.h>

#include "../lib/build.h"
#include "../lib/spec.h"
#include "../lib/strbuf.h"
#include "../lib/strlist.h"
#include "build_view.h"
#include "cmds.h"

static const char usage[] =
	"usage: padpack build [-c SPEC] [--source DIR] [--variant NAME]...\n"
	"                     [-j N] [-B DIR] [--fresh] [--no-test] [--require-all]\n"
	"                     [--in-image[=IMAGE]] [--engine NAME] [--dry-run]\n"
	"                     [--quiet | --json]\n\n"
	"Builds each variant of the spec (default pkg/paddle.cfg) the way the\n"
	"project's development image would: CMake configure, build, the\n"
	"project's tests (ctest), and install with DESTDIR into\n"
	"BUILD_DIR/VARIANT/stage. Build trees are BUILD_DIR/VARIANT/obj, out of\n"
	"the source tree and kept, so a second run only redoes what changed;\n"
	"ccache is used when installed. Each variant's full log is\n"
	"BUILD_DIR/VARIANT/build.log. The spec's build.system may choose make\n"
	"(in a copy of the source), autotools, meson or its own commands\n"
	"instead of CMake; see padpack-build(1).\n\n"
	"A variant that fails is shown with the end of its log and the command\n"
	"that reproduces it; the others finish. A variant whose tools are not\n"
	"installed (nvcc for GPU variants) is skipped, saying so.\n\n"
	"Options:\n"
	"  -c, --spec=FILE       the spec (default pkg/paddle.cfg)\n"
	"      --source=DIR      build this source tree (e.g. a Paddle\n"
	"                        checkout) instead of the spec's\n"
	"      --variant=NAME    build this variant; a glob such as 'gpu-*'\n"
	"                        is allowed; repeat for more (default: all)\n"
	"  -j, --jobs=N          compile jobs in all (default: CPUs); up to N\n"
	"                        variants build at once\n"
	"  -B, --build-dir=DIR   where the variants' trees go (default build)\n"
	"      --fresh           remove each variant's build tree first and\n"
	"                        build it from nothing\n"
	"      --no-test         do not build or run the project's tests\n"
	"      --require-all     a variant that cannot be built here is an\n"
	"                        error, not skipped\n"
	"      --no-ccache       do not use ccache\n"
	"      --in-image[=IMAGE]  build in a container of IMAGE (default: the\n"
	"                        spec's image.dev) with the source mounted at\n"
	"                        image.mount (/paddle), the variant's settings\n"
	"                        as -e flags; docker, else podman\n"
	"      --engine=NAME     the container engine: docker or podman\n"
	"  -n, --dry-run         print the commands, run nothing\n"
	"  -q, --quiet           print only failures and skipped variants\n"
	"      --json            print the result as JSON on stdout\n\n"
	"Exit status: 0 when every variant built (or was skipped), 5 when one\n"
	"failed or --require-all found one that cannot be built, 2 usage,\n"
	"3 invalid spec, 4 I/O error.\n";

struct build_cli {
	const char *spec;
	struct pp_strlist variants;
	struct pp_build_opts opts;
	const char *image_arg; /* --in-image's IMAGE; "" for the spec's */
	int quiet, json;
};

enum { OPT_SOURCE = 256, OPT_VARIANT, OPT_NO_TEST, OPT_REQUIRE_ALL,
       OPT_NO_CCACHE, OPT_IN_IMAGE, OPT_ENGINE, OPT_JSON, OPT_FRESH };

static const struct option long_opts[] = {
	{ "spec", required_argument, NULL, 'c' },
	{ "source", required_argument, NULL, OPT_SOURCE },
	{ "variant", required_argument, NULL, OPT_VARIANT },
	{ "jobs", required_argument, NULL, 'j' },
	{ "build-dir", required_argument, NULL, 'B' },
	{ "fresh", no_argument, NULL, OPT_FRESH },
	{ "no-test", no_argument, NULL, OPT_NO_TEST },
	{ "require-all", no_argument, NULL, OPT_REQUIRE_ALL },
	{ "no-ccache", no_argument, NULL, OPT_NO_CCACHE },
	{ "in-image", optional_argument, NULL, OPT_IN_IMAGE },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ NULL, 0, NULL, 0 },
};

/* --in-image IMAGE as well as --in-image=IMAGE: a following word that is
 * not an option is the image. */
static const char *image_arg(int argc, char **argv)
{
	if (optarg)
		return optarg;
	if (optind < argc && argv[optind][0] != '-')
		return argv[optind++];
	return "";
}

static int parse_one(int c, int argc, char **argv, struct build_cli *cli,
		     struct pp_err *err)
{
	long v;

	switch (c) {
	case 'c': cli->spec = optarg; break;
	case OPT_SOURCE: cli->opts.source = optarg; break;
	case OPT_VARIANT: pp_strlist_push(&cli->variants, optarg); break;
	case 'j':
		if (pp_parse_int(optarg, 1, 1024, &v) < 0)
			return pp_usage_error(err, "-j '%s' is not a number "
					      "from 1 to 1024", optarg);
		cli->opts.jobs = (int)v;
		break;
	case 'B': cli->opts.build_dir = optarg; break;
	case OPT_FRESH: cli->opts.fresh = 1; break;
	case OPT_NO_TEST: cli->opts.test = 0; break;
	case OPT_REQUIRE_ALL: cli->opts.require_all = 1; break;
	case OPT_NO_CCACHE: cli->opts.ccache = 0; break;
	case OPT_IN_IMAGE: cli->image_arg = image_arg(argc, argv); break;
	case OPT_ENGINE: cli->opts.engine = optarg; break;
	case 'n': cli->opts.dry_run = 1; break;
	case 'q': cli->quiet = 1; break;
	case OPT_JSON: cli->json = 1; break;
	default: return pp_usage_error(err, "unknown option");
	}
	return 0;
}

static int parse(int argc, char **argv, struct build_cli *cli,
		 struct pp_err *err)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int c;

	cli->spec = "pkg/paddle.cfg";
	cli->opts = (struct pp_build_opts){
		.build_dir = "build",
		.jobs = cpus > 0 ? (int)cpus : 1,
		.test = -1, /* as the spec says */
		.ccache = 1,
	};
	while ((c = getopt_long(argc, argv, "+c:j:B:nq", long_opts, NULL)) != -1)
		if (parse_one(c, argc, argv, cli, err) < 0)
			return -1;
	if (optind < argc)
		return pp_usage_error(err, "unexpected argument '%s'",
				      argv[optind]);
	if (cli->quiet && cli->json)
		return pp_usage_error(err, "--quiet and --json exclude each "
				      "other");
	if (cli->opts.engine && !cli->image_arg)
		return pp_usage_error(err, "--engine needs --in-image");
	return 0;
}

static enum build_view_mode view_mode(const struct build_cli *cli)
{
	if (cli->json)
		return VIEW_JSON;
	if (cli->quiet)
		return VIEW_QUIET;
	return isatty(1) ? VIEW_TTY : VIEW_PLAIN;
}

static int build(struct build_cli *cli, const struct pp_spec *spec,
		 const unsigned char *selected, struct pp_err *err)
{
	struct build_view view;
	struct pp_build b;
	struct pp_build_events ev = { build_view_event, &view };
	int rc;

	cli->opts.image = cli->image_arg;
	rc = pp_build_plan(&b, spec, selected, &cli->opts, err);
	build_view_init(&view, view_mode(cli), &b);
	if (rc == 0 && cli->opts.dry_run) {
		build_view_dry_run(&view, &b);
	} else if (rc == 0) {
		build_view_header(&view, &b);
		rc = pp_build_run(&b, &ev, err);
		build_view_result(&view, &b);
	}
	build_view_release(&view);
	pp_build_release(&b);
	return rc;
}

static int run(int argc, char **argv, struct pp_err *err)
{
	struct build_cli cli = { 0 };
	struct pp_spec spec;
	unsigned char *selected;
	int rc;

	rc = parse(argc, argv, &cli, err);
	if (rc == 0)
		rc = pp_load_spec_variants(cli.spec, &cli.variants, &spec,
					   &selected, err);
	if (rc == 0) {
		rc = build(&cli, &spec, selected, err);
		free(selected);
		pp_spec_release(&spec);
	}
	pp_strlist_release(&cli.variants);
	return rc;
}

const struct pp_cmd cmd_build = {
	"build", run, "compile every variant of a spec into its stage tree",
	usage,
};
