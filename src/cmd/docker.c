/* padpack docker: Dockerfiles and build contexts from the spec (dev, prod,
 * app, all). Options and presentation only; the work is in lib/docker*.c. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../lib/docker-context.h"
#include "../lib/docker-scripts.h"
#include "../lib/fsutil.h"
#include "../lib/proc.h"
#include "../lib/spec.h"
#include "../lib/xalloc.h"
#include "cmds.h"

static const char usage[] =
	"usage: padpack docker dev  [-c SPEC] [-o DIR] [--device KIND]\n"
	"                           [--padpack-src DIR] [COMMON...]\n"
	"       padpack docker prod [-c SPEC] [-B BUILD_DIR] [--variant NAME]...\n"
	"                           [--debs DIR | --apt-sources FILE] [-o DIR]\n"
	"                           [--source DIR] [--records status.d|dpkg]\n"
	"                           [COMMON...]\n"
	"       padpack docker app  [-c SPEC] --from IMAGE:TAG [--app NAME] [-o DIR]\n"
	"                           [--name NAME] [--apt PKG]... [--pip ARG]...\n"
	"                           [--copy SRC:DEST]... [--expose PORT]...\n"
	"                           [--env NAME=VALUE]... [COMMON...] [-- CMD...]\n"
	"       padpack docker all  [-c SPEC] [-B BUILD_DIR] [--device KIND]\n"
	"                           [--debs DIR | --apt-sources FILE]\n"
	"                           [--records status.d|dpkg] [COMMON...]\n\n"
	"Writes Dockerfiles and their build contexts from the spec (default\n"
	"pkg/paddle.cfg), and prints the docker build command of each image.\n\n"
	"dev   the development image (default BUILD_DIR/image-dev): compilers,\n"
	"      CMake, Python, Sphinx, SSH (keys only), ccache, gdb and padpack\n"
	"      (built from its source, --padpack-src, default the checkout this\n"
	"      padpack was built in); its default command builds the source\n"
	"      mounted at image.mount with the variants GPU/AVX/TEST choose,\n"
	"      then splits and writes the production Dockerfiles, all under\n"
	"      build/. Its base is the dev_base of --device (default: the last\n"
	"      device value that has one, the CUDA devel base with GPUs).\n"
	"prod  per variant, BUILD_DIR/VARIANT/image: the variant's runtime\n"
	"      packages (image.runtime, found in --debs, default BUILD_DIR/debs,\n"
	"      with what they depend on there) installed with apt-get on the\n"
	"      device's base; or, with --apt-sources, installed by name from the\n"
	"      apt repository that .sources file names, through its Signed-By\n"
	"      key. A non-root user, OCI labels, image.entrypoint, and the smoke\n"
	"      test (image.smoke) run at build time. Without --variant, every\n"
	"      variant whose packages are there. --records (image.records):\n"
	"      dpkg (default) installs in the image itself, in dpkg's database\n"
	"      (apt and dpkg -l know them); status.d installs in a build stage\n"
	"      and gives the image only the files of the packages apt added,\n"
	"      with their records in /var/lib/dpkg/status.d (what scanners\n"
	"      read; apt and dpkg in the image do not know them).\n"
	"app   an application image on the production image IMAGE:TAG, tagged\n"
	"      REGISTRY/NAME:TAG: the spec's app (--app, or its only one) and/or\n"
	"      the packages, files (SRC relative to here), ports, environment\n"
	"      and command given here (default -o BUILD_DIR/app-NAME).\n"
	"all   dev, prod, every app of the spec on each of its variants, and\n"
	"      BUILD_DIR/build-images.sh (builds them all, in order), run.sh\n"
	"      (runs a variant with its device's flags) and, with image.helpers,\n"
	"      container.sh (start, into, stop a development container).\n\n"
	"COMMON options:\n"
	"  -c, --spec=FILE        the spec (default pkg/paddle.cfg)\n"
	"  -B, --build-dir=DIR    where the contexts go (default build)\n"
	"  -o, --output=DIR       dev, prod (with one --variant), app: the\n"
	"                         context's directory instead of the default\n"
	"      --registry=PREFIX  instead of image.registry, e.g. a mirror\n"
	"                         (\"\" for none)\n"
	"      --apt-mirror=EXPR  a sed expression for the images' apt sources\n"
	"      --revision=REV     the revision label (default: git rev-parse\n"
	"                         HEAD in the source tree)\n"
	"  -q, --quiet            print nothing but problems\n\n"
	"Exit status: 0 written, 2 usage, 3 a spec or package problem,\n"
	"4 I/O error.\n";

struct docker_cli {
	const char *spec_path, *build_dir, *out, *debs, *sources, *source;
	const char *device, *padpack_src, *from, *app_name;
	struct pp_strlist variants;
	struct pp_app app;           /* what app's options add */
	struct pp_docker_opts o;
	int quiet;
};

enum { O_VARIANT = 256, O_DEBS, O_SOURCES, O_SOURCE, O_DEVICE, O_PSRC,
       O_FROM, O_APP, O_NAME, O_APT, O_PIP, O_COPY, O_EXPOSE, O_ENV,
       O_REGISTRY, O_MIRROR, O_REVISION, O_RECORDS };

static const struct option long_opts[] = {
	{ "spec", required_argument, NULL, 'c' },
	{ "build-dir", required_argument, NULL, 'B' },
	{ "output", required_argument, NULL, 'o' },
	{ "variant", required_argument, NULL, O_VARIANT },
	{ "debs", required_argument, NULL, O_DEBS },
	{ "apt-sources", required_argument, NULL, O_SOURCES },
	{ "source", required_argument, NULL, O_SOURCE },
	{ "device", required_argument, NULL, O_DEVICE },
	{ "padpack-src", required_argument, NULL, O_PSRC },
	{ "from", required_argument, NULL, O_FROM },
	{ "app", required_argument, NULL, O_APP },
	{ "name", required_argument, NULL, O_NAME },
	{ "apt", required_argument, NULL, O_APT },
	{ "pip", required_argument, NULL, O_PIP },
	{ "copy", required_argument, NULL, O_COPY },
	{ "expose", required_argument, NULL, O_EXPOSE },
	{ "env", required_argument, NULL, O_ENV },
	{ "registry", required_argument, NULL, O_REGISTRY },
	{ "apt-mirror", required_argument, NULL, O_MIRROR },
	{ "revision", required_argument, NULL, O_REVISION },
	{ "records", required_argument, NULL, O_RECORDS },
	{ "quiet", no_argument, NULL, 'q' },
	{ NULL, 0, NULL, 0 },
};

/* --copy SRC:DEST with SRC made absolute: it is relative to here. */
static int add_copy(struct docker_cli *cli, const char *arg,
		    struct pp_err *err)
{
	const char *colon = strchr(arg, ':');
	char *src, *abs;

	if (!colon || colon == arg || colon[1] != '/')
		return pp_usage_error(err, "--copy '%s': write SRC:DEST with an "
				      "absolute DEST, e.g. book:/book", arg);
	src = xstrndup(arg, (size_t)(colon - arg));
	abs = realpath(src, NULL);
	if (abs)
		pp_strlist_pushf(&cli->app.copy, "%s%s", abs, colon);
	free(src);
	free(abs);
	return abs ? 0 : pp_usage_error(err, "--copy '%s': no such file", arg);
}

static int parse_app_opt(int c, struct docker_cli *cli, struct pp_err *err)
{
	switch (c) {
	case O_FROM: cli->from = optarg; break;
	case O_APP: cli->app_name = optarg; break;
	case O_NAME: free(cli->app.name); cli->app.name = xstrdup(optarg); break;
	case O_APT: pp_strlist_push(&cli->app.apt, optarg); break;
	case O_PIP: pp_strlist_push(&cli->app.pip, optarg); break;
	case O_COPY: return add_copy(cli, optarg, err);
	case O_EXPOSE: pp_strlist_push(&cli->app.expose, optarg); break;
	case O_ENV:
		if (!strchr(optarg, '=') || *optarg == '=')
			return pp_usage_error(err, "--env '%s': write "
					      "NAME=VALUE", optarg);
		pp_strlist_push(&cli->app.env, optarg);
		break;
	default: return pp_usage_error(err, "unknown option");
	}
	return 0;
}

static int parse_one(int c, struct docker_cli *cli, struct pp_err *err)
{
	switch (c) {
	case 'c': cli->spec_path = optarg; break;
	case 'B': cli->build_dir = optarg; break;
	case 'o': cli->out = optarg; break;
	case 'q': cli->quiet = 1; break;
	case O_VARIANT: pp_strlist_push(&cli->variants, optarg); break;
	case O_DEBS: cli->debs = optarg; break;
	case O_SOURCES: cli->sources = optarg; break;
	case O_SOURCE: cli->source = optarg; break;
	case O_DEVICE: cli->device = optarg; break;
	case O_PSRC: cli->padpack_src = optarg; break;
	case O_REGISTRY: cli->o.registry = optarg; break;
	case O_MIRROR: cli->o.apt_mirror = optarg; break;
	case O_REVISION: cli->o.revision = optarg; break;
	case O_RECORDS:
		cli->o.records = pp_records_parse(optarg);
		if (cli->o.records == PP_RECORDS_UNSET)
			return pp_usage_error(err, "--records '%s': say status.d "
					      "or dpkg", optarg);
		break;
	default: return parse_app_opt(c, cli, err);
	}
	return 0;
}

static int parse(int argc, char **argv, struct docker_cli *cli,
		 struct pp_err *err)
{
	int c;

	cli->spec_path = "pkg/paddle.cfg";
	cli->build_dir = "build";
	while ((c = getopt_long(argc, argv, "+c:B:o:q", long_opts, NULL)) != -1)
		if (parse_one(c, cli, err) < 0)
			return -1;
	if (cli->debs && cli->sources)
		return pp_usage_error(err, "--debs and --apt-sources exclude "
				      "each other");
	if ((!strcmp(argv[0], "dev") || !strcmp(argv[0], "app")) &&
	    cli->o.records != PP_RECORDS_UNSET)
		return pp_usage_error(err, "--records is an option of 'padpack "
				      "docker prod' and 'all'");
	if (strcmp(argv[0], "app") && (cli->from || cli->app_name ||
	    cli->app.name || cli->app.apt.nr || cli->app.pip.nr ||
	    cli->app.copy.nr || cli->app.expose.nr || cli->app.env.nr))
		return pp_usage_error(err, "--from, --app, --name, --apt, --pip, "
				      "--copy, --expose and --env are options "
				      "of 'padpack docker app'");
	for (; optind < argc; optind++)
		if (!strcmp(argv[0], "app"))
			pp_strlist_push(&cli->app.cmd, argv[optind]);
		else
			return pp_usage_error(err, "unexpected argument '%s'",
					      argv[optind]);
	return 0;
}

/* ---- what every image shares: version, revision, time ------------------- */

struct run_ctx {
	struct docker_cli *cli;
	struct pp_spec spec;
	char *version, *revision, *created;
	const char *source;
	struct pp_image_jobs jobs;  /* for build-images.sh */
	char *spec_dir;
	struct pp_err *err;
};

static char *git_revision(const char *dir)
{
	char *argv[] = { "git", "-c", "safe.directory=*", "-C", (char *)dir,
			 "rev-parse", "HEAD", NULL };
	struct strbuf out = STRBUF_INIT;
	struct pp_err ignored;
	int status = 1;

	pp_err_init(&ignored);
	if (pp_proc_capture(argv, NULL, &out, &status, &ignored) < 0 ||
	    status != 0 || out.len < 7)
		strbuf_reset(&out);
	pp_err_release(&ignored);
	strbuf_rtrim(&out);
	return out.len ? strbuf_detach(&out, NULL) : (strbuf_release(&out), NULL);
}

/* org.opencontainers.image.created, only when SOURCE_DATE_EPOCH says:
 * a label that changed at every run would change every image. */
static int created_time(char **out, struct pp_err *err)
{
	char buf[32];
	long long t;
	time_t tt;
	struct tm tm;

	*out = NULL;
	if (!getenv("SOURCE_DATE_EPOCH"))
		return 0;
	if (pp_source_date(&t, err) < 0)
		return -1;
	tt = (time_t)t;
	gmtime_r(&tt, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	*out = xstrdup(buf);
	return 0;
}

static int ctx_init(struct run_ctx *r, struct docker_cli *cli,
		    struct pp_err *err)
{
	enum pp_version_origin origin;

	memset(r, 0, sizeof(*r));
	r->cli = cli;
	r->err = err;
	if (pp_spec_load(cli->spec_path, &r->spec, err) < 0)
		return -1;
	r->source = cli->source ? cli->source : r->spec.source;
	r->spec_dir = pp_dirname(cli->spec_path);
	if (pp_spec_version(&r->spec, r->source, &r->version, &origin, err) < 0 ||
	    created_time(&r->created, err) < 0)
		return -1;
	if (!cli->o.revision) {
		r->revision = git_revision(r->source);
		if (!r->revision)
			pp_warn(err, "padpack docker: warning: %s is not a git "
				"tree (or git is missing): no revision label; "
				"give one with --revision", r->source);
	}
	cli->o.version = r->version;
	cli->o.revision = cli->o.revision ? cli->o.revision : r->revision;
	cli->o.created = r->created;
	return 0;
}

static void ctx_release(struct run_ctx *r)
{
	pp_spec_release(&r->spec);
	free(r->version);
	free(r->revision);
	free(r->created);
	free(r->spec_dir);
	pp_image_jobs_release(&r->jobs);
}

static char *path_join(const char *a, const char *b)
{
	char *p = xmalloc(strlen(a) + strlen(b) + 2);

	sprintf(p, "%s/%s", a, b);
	return p;
}

/* Prints the build command and keeps the image for build-images.sh. */
static void wrote(struct run_ctx *r, const char *what, const char *dir,
		  struct pp_strlist *tags)
{
	char *rel = NULL;
	size_t blen = strlen(r->cli->build_dir);

	if (!r->cli->quiet) {
		printf("wrote %s/Dockerfile (%s)\n  docker build", dir, what);
		for (size_t i = 0; i < tags->nr; i++)
			printf(" -t %s", tags->items[i]);
		printf(" %s\n", dir);
	}
	if (!strncmp(dir, r->cli->build_dir, blen) && dir[blen] == '/')
		rel = xstrdup(dir + blen + 1);
	pp_image_jobs_add(&r->jobs, what, tags, rel ? rel : dir);
	free(rel);
}

/* ---- dev ---------------------------------------------------------------- */

/* padpack's source: --padpack-src, else the checkout this binary was
 * built in (it, or its parent for build-asan/padpack). */
static char *padpack_source(const char *given, struct pp_err *err)
{
	char exe[PATH_MAX], *dir;
	ssize_t n;

	if (given)
		return xstrdup(given);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	dir = pp_dirname(exe);
	for (int up = 0; up < 2; up++) {
		char *probe = path_join(dir, "src/padpack.c");
		int found = access(probe, R_OK) == 0;

		free(probe);
		if (found)
			return dir;
		probe = pp_dirname(dir);
		free(dir);
		dir = probe;
	}
	free(dir);
	pp_err_set(err, PP_EXIT_USAGE, "padpack's source tree is not beside "
		   "this padpack (%s); the development image builds padpack "
		   "from it: give it with --padpack-src DIR", exe);
	return NULL;
}

static void padpack_entries(const char *src, struct pp_strlist *out)
{
	static const char *const names[] = {
		"Makefile", "src", "doc", "control-templates", "scripts", NULL,
	};

	for (const char *const *n = names; *n; n++) {
		char *p = path_join(src, *n);

		if (access(p, F_OK) == 0)
			pp_strlist_push(out, *n);
		free(p);
	}
}

/* The spec's source tree, when it is a top-level entry of the spec's
 * directory, stays out of the copy of that directory. */
static char *source_entry(const struct run_ctx *r)
{
	size_t len = strlen(r->spec_dir);
	const char *s = r->spec.source;

	if (!strcmp(r->spec_dir, "."))
		return strchr(s, '/') ? NULL : xstrdup(s);
	if (strncmp(s, r->spec_dir, len) || s[len] != '/' ||
	    strchr(s + len + 1, '/'))
		return NULL;
	return xstrdup(s + len + 1);
}

static int do_dev(struct run_ctx *r, const char *dir)
{
	struct pp_strlist files = PP_STRLIST_INIT, tags = PP_STRLIST_INIT;
	const char *slash = strrchr(r->cli->spec_path, '/');
	struct pp_dev_input in = { 0 };
	char *psrc = padpack_source(r->cli->padpack_src, r->err);
	char *skip = source_entry(r);
	int rc = psrc ? 0 : -1;

	if (rc == 0)
		rc = pp_docker_dev_base(&r->spec, r->cli->device, &in.base,
					r->err);
	if (rc == 0)
		rc = pp_docker_tags(&r->spec, &r->cli->o, NULL, &tags, r->err);
	if (rc == 0) {
		padpack_entries(psrc, &files);
		in.padpack_src = psrc;
		in.padpack_files = &files;
		in.spec_dir = r->spec_dir;
		in.skip = skip;
		in.spec_file = slash ? slash + 1 : r->cli->spec_path;
		rc = pp_docker_write_dev(&r->spec, &r->cli->o, &in, dir, r->err);
	}
	if (rc == 0)
		wrote(r, "development", dir, &tags);
	pp_strlist_release(&files);
	pp_strlist_release(&tags);
	free(psrc);
	free(skip);
	return rc;
}

/* ---- prod --------------------------------------------------------------- */

static int prod_input(struct run_ctx *r, const struct pp_variant *v,
		      struct pp_prod_input *in)
{
	char *debs;
	int rc;

	if (r->cli->sources)
		return pp_docker_use_repo(&r->spec, r->version, v,
					  r->cli->sources, in, r->err);
	debs = r->cli->debs ? xstrdup(r->cli->debs) :
	       path_join(r->cli->build_dir, "debs");
	rc = pp_docker_find_debs(&r->spec, r->version, v, debs, in, r->err);
	free(debs);
	return rc;
}

static int prod_one(struct run_ctx *r, const struct pp_variant *v,
		    const char *out)
{
	struct pp_strlist tags = PP_STRLIST_INIT;
	struct pp_prod_input in = { 0 };
	char *dir = NULL;
	int rc = prod_input(r, v, &in);

	if (rc == 0)
		rc = pp_docker_tags(&r->spec, &r->cli->o, v, &tags, r->err);
	if (rc == 0) {
		char *vdir = path_join(r->cli->build_dir, v->name);

		dir = out ? xstrdup(out) : path_join(vdir, "image");
		free(vdir);
		rc = pp_docker_write_prod(&r->spec, &r->cli->o, &in, dir, r->err);
	}
	if (rc == 0)
		wrote(r, v->name, dir, &tags);
	pp_prod_input_release(&in);
	pp_strlist_release(&tags);
	free(dir);
	return rc;
}

/* Writes the selected variants (none: all whose packages are there; then
 * a variant without them is skipped, saying so). done[] marks those
 * written. */
static int do_prod(struct run_ctx *r, unsigned char *done)
{
	struct docker_cli *cli = r->cli;
	unsigned char *sel = xcalloc(r->spec.nr_variants + 1, 1);
	int explicit = cli->variants.nr > 0, rc, any = 0;

	if (cli->out && cli->variants.nr != 1)
		rc = pp_usage_error(r->err, "-o names one context: give one "
				    "--variant with it");
	else
		rc = pp_spec_select(&r->spec, cli->variants.items,
				    cli->variants.nr, sel, r->err);
	for (size_t i = 0; rc == 0 && i < r->spec.nr_variants; i++) {
		const struct pp_variant *v = &r->spec.variants[i];

		if (!sel[i])
			continue;
		if (pp_spec_hwcaps_higher(&r->spec, v)) {
			/* one image runs on every CPU: the baseline's */
			const struct pp_variant *base =
				pp_spec_hwcaps_base(&r->spec, v);

			if (explicit && !sel[base - r->spec.variants])
				rc = pp_usage_error(r->err, "variant %s is a "
						    "glibc-hwcaps build shipped "
						    "in the packages of %s: its "
						    "image is that one; give "
						    "--variant %s", v->name,
						    base->name, base->name);
			continue;
		}
		rc = prod_one(r, v, cli->out);
		if (rc < 0 && !explicit && r->err->code == PP_EXIT_INPUT &&
		    !cli->sources) {
			pp_warn(r->err, "padpack docker: %s skipped: %s",
				r->spec.variants[i].name, r->err->msg);
			r->err->code = PP_EXIT_OK;
			r->err->msg[0] = '\0';
			rc = 0;
			continue;
		}
		done[i] = rc == 0;
		any |= rc == 0;
	}
	if (rc == 0 && !any)
		rc = pp_err_set(r->err, PP_EXIT_INPUT, "no variant has its "
				"runtime packages in %s/debs; run padpack "
				"split first (or give --debs DIR)",
				cli->build_dir);
	free(sel);
	return rc;
}

/* ---- app ---------------------------------------------------------------- */

static void app_merge(struct pp_app *into, const struct pp_app *from)
{
	if (from->name) {
		free(into->name);
		into->name = xstrdup(from->name);
	}
	pp_strlist_extend(&into->apt, &from->apt);
	pp_strlist_extend(&into->pip, &from->pip);
	pp_strlist_extend(&into->copy, &from->copy);
	pp_strlist_extend(&into->expose, &from->expose);
	pp_strlist_extend(&into->env, &from->env);
	if (from->cmd.nr) {
		pp_strlist_release(&into->cmd);
		pp_strlist_extend(&into->cmd, &from->cmd);
	}
}

static int write_app(struct run_ctx *r, const struct pp_app *app,
		     const char *from, const char *dir, const char *what)
{
	struct pp_strlist tags = PP_STRLIST_INIT;
	int rc = pp_docker_app_tags(&r->spec, &r->cli->o, app, from, &tags,
				    r->err);

	if (rc == 0)
		rc = pp_docker_write_app(&r->spec, &r->cli->o, app, from,
					 r->spec_dir, dir, r->err);
	if (rc == 0)
		wrote(r, what, dir, &tags);
	pp_strlist_release(&tags);
	return rc;
}

/* The spec's app named, or its only one, or none; then the options. */
static int cli_app(struct run_ctx *r, struct pp_app *app)
{
	const struct pp_spec *s = &r->spec;
	const struct pp_app *base = NULL;

	for (size_t i = 0; i < s->nr_apps; i++)
		if (r->cli->app_name ? !strcmp(s->apps[i].name, r->cli->app_name)
				     : s->nr_apps == 1 && !r->cli->app.name)
			base = &s->apps[i];
	if (r->cli->app_name && !base)
		return pp_usage_error(r->err, "--app '%s': no such app in %s",
				      r->cli->app_name, s->path);
	if (base)
		app_merge(app, base);
	app_merge(app, &r->cli->app);
	if (!app->name)
		return pp_usage_error(r->err, "the app needs a name: --name NAME "
				      "(or --app NAME of an app in %s)", s->path);
	return 0;
}

static int do_app(struct run_ctx *r)
{
	struct pp_app app = { 0 };
	char *dir = NULL, *name;
	int rc;

	if (!r->cli->from)
		return pp_usage_error(r->err, "padpack docker app needs --from "
				      "IMAGE:TAG, the production image");
	rc = cli_app(r, &app);
	if (rc == 0) {
		name = xmalloc(strlen(app.name) + 5);
		sprintf(name, "app-%s", app.name);
		dir = r->cli->out ? xstrdup(r->cli->out) :
		      path_join(r->cli->build_dir, name);
		free(name);
		rc = write_app(r, &app, r->cli->from, dir, app.name);
	}
	free(dir);
	pp_app_release(&app);
	return rc;
}

/* Each app of the spec on each production image written that it is for. */
static int all_apps(struct run_ctx *r, const unsigned char *done)
{
	int rc = 0;

	for (size_t a = 0; rc == 0 && a < r->spec.nr_apps; a++) {
		const struct pp_app *app = &r->spec.apps[a];
		unsigned char *sel = xcalloc(r->spec.nr_variants + 1, 1);

		rc = pp_spec_select(&r->spec, app->variants.items,
				    app->variants.nr, sel, r->err);
		for (size_t i = 0; rc == 0 && i < r->spec.nr_variants; i++) {
			const struct pp_variant *v = &r->spec.variants[i];
			struct pp_strlist tags = PP_STRLIST_INIT;
			struct strbuf dir = STRBUF_INIT, what = STRBUF_INIT;

			if (!sel[i] || !done[i])
				continue;
			rc = pp_docker_tags(&r->spec, &r->cli->o, v, &tags, r->err);
			strbuf_addf(&dir, "%s/%s/app-%s", r->cli->build_dir,
				    v->name, app->name);
			strbuf_addf(&what, "%s %s", app->name, v->name);
			if (rc == 0)
				rc = write_app(r, app, tags.items[0], dir.buf,
					       what.buf);
			pp_strlist_release(&tags);
			strbuf_release(&dir);
			strbuf_release(&what);
		}
		free(sel);
	}
	return rc;
}

/* ---- all ---------------------------------------------------------------- */

static int write_script(struct run_ctx *r, const char *name,
			const struct strbuf *text)
{
	char *path = path_join(r->cli->build_dir, name);
	int rc = pp_write_file(path, text->buf, text->len, 0755, r->err);

	if (rc == 0 && !r->cli->quiet)
		printf("wrote %s\n", path);
	free(path);
	return rc;
}

static int all_scripts(struct run_ctx *r)
{
	struct strbuf build = STRBUF_INIT, run = STRBUF_INIT, ctr = STRBUF_INIT;
	int rc;

	pp_script_build_images(&r->spec, &r->jobs, &build);
	rc = pp_script_run(&r->spec, &r->cli->o, &run, r->err);
	if (rc == 0 && r->spec.image.helpers)
		rc = pp_script_container(&r->spec, &r->cli->o, &ctr, r->err);
	if (rc == 0)
		rc = write_script(r, "build-images.sh", &build);
	if (rc == 0)
		rc = write_script(r, "run.sh", &run);
	if (rc == 0 && r->spec.image.helpers)
		rc = write_script(r, "container.sh", &ctr);
	strbuf_release(&build);
	strbuf_release(&run);
	strbuf_release(&ctr);
	return rc;
}

static int do_all(struct run_ctx *r)
{
	unsigned char *done = xcalloc(r->spec.nr_variants + 1, 1);
	char *dev = path_join(r->cli->build_dir, "image-dev");
	int rc;

	if (r->cli->out || r->cli->variants.nr)
		rc = pp_usage_error(r->err, "padpack docker all writes every "
				    "image: no -o, no --variant");
	else
		rc = do_dev(r, dev);
	if (rc == 0)
		rc = do_prod(r, done);
	if (rc == 0)
		rc = all_apps(r, done);
	if (rc == 0)
		rc = all_scripts(r);
	free(done);
	free(dev);
	return rc;
}

static int dispatch(const char *sub, struct run_ctx *r)
{
	if (!strcmp(sub, "dev")) {
		char *dir = r->cli->out ? xstrdup(r->cli->out) :
			    path_join(r->cli->build_dir, "image-dev");
		int rc = do_dev(r, dir);

		free(dir);
		return rc;
	}
	if (!strcmp(sub, "prod")) {
		unsigned char *done = xcalloc(r->spec.nr_variants + 1, 1);
		int rc = do_prod(r, done);

		free(done);
		return rc;
	}
	if (!strcmp(sub, "app"))
		return do_app(r);
	return do_all(r);
}

static int run(int argc, char **argv, struct pp_err *err)
{
	static const char *const subs[] = { "dev", "prod", "app", "all", NULL };
	struct docker_cli cli = { 0 };
	struct run_ctx r;
	int rc = -1, known = 0;

	for (const char *const *s = subs; argc > 1 && *s; s++)
		known |= !strcmp(argv[1], *s);
	if (!known)
		return pp_usage_error(err, "say dev, prod, app or all");
	if (parse(argc - 1, argv + 1, &cli, err) == 0) {
		if (ctx_init(&r, &cli, err) == 0)
			rc = dispatch(argv[1], &r);
		ctx_release(&r);
	}
	pp_strlist_release(&cli.variants);
	pp_app_release(&cli.app);
	return rc;
}

const struct pp_cmd cmd_docker = {
	"docker", run,
	"Dockerfiles of the development, production and app images",
	usage,
};
