/* padpack split: the stage trees of padpack build -> Debian packages.
 * Options and presentation only; the work is in lib/split*.c. */
#include <getopt.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/fsutil.h"
#include "../lib/json-out.h"
#include "../lib/spec.h"
#include "../lib/split-plan.h"
#include "../lib/strbuf.h"
#include "../lib/xalloc.h"
#include "cmds.h"
#include "progress_view.h"

static const char usage[] =
	"usage: padpack split [-c SPEC] [-B BUILD_DIR] [-o DIR] [--variant NAME]...\n"
	"                     [--explain] [-Z gzip|xz|zstd|none] [-z LEVEL]\n"
	"                     [--x86-filter auto|off]\n"
	"                     [--admindir DIR] [-q | --json]\n"
	"   or: padpack split --stage DIR --name NAME --version VERSION\n"
	"                     [--maintainer 'NAME <EMAIL>'] [--summary TEXT]\n"
	"                     [--copyright FILE] [-o DIR] [--explain]\n"
	"                     [--scaffold FILE] ...\n\n"
	"Turns the stage trees that 'padpack build' left (BUILD_DIR/VARIANT/stage)\n"
	"into Debian packages: a runtime package per shared library (named from\n"
	"its SONAME), -dev, programs, Python, documentation and -dbgsym\n"
	"packages, with the variant in the name of each package whose files\n"
	"differ between variants; files the same in every variant are shipped\n"
	"once. Binaries are stripped, their debug information goes to -dbgsym\n"
	"packages by build-id; dependencies are computed as dpkg-shlibdeps\n"
	"does. Beside the packages: SHA256SUMS, a .buildinfo and a .changes.\n\n"
	"Options:\n"
	"  -c, --spec=FILE       the spec (default pkg/paddle.cfg)\n"
	"  -B, --build-dir=DIR   where padpack build put the variants (build)\n"
	"  -o, --output=DIR      where the packages go (default BUILD_DIR/debs)\n"
	"      --variant=NAME    split this variant (a glob; repeat for more;\n"
	"                        default: every variant that was built)\n"
	"      --explain         print, for each staged file, the package chosen\n"
	"                        and the rule that chose it; write nothing\n"
	"  -Z, --compression=T   gzip, xz (default), zstd or none\n"
	"  -z, --level=N         compression level\n"
	"      --x86-filter=W    xz: put the x86 BCJ filter before LZMA2 in\n"
	"                        the data member: auto (default), when the\n"
	"                        files are x86 code it makes smaller (3 to\n"
	"                        12%); off: never (an xz decoder without it)\n"
	"      --threads=N       CPUs to use: packages built and packed side by\n"
	"                        side (default: one per CPU; 1: one after the\n"
	"                        other); the packages' bytes are the same\n"
	"      --memory-limit=SIZE  the compressors' memory together stays\n"
	"                        under SIZE (512MiB, 1GiB): fewer packages\n"
	"                        packed at once, never smaller dictionaries,\n"
	"                        so the same bytes; one over it packs alone\n"
	"      --admindir=DIR    the dpkg database dpkg-query reads to find\n"
	"                        which package has a system library\n"
	"  -q, --quiet           print nothing but problems\n"
	"      --json            print the package table as one JSON object\n"
	"                        (name, version, variants, output, packages,\n"
	"                        other_files) instead of text\n"
	"      --stage=DIR       split this one staged tree (make install\n"
	"                        DESTDIR=DIR) instead of BUILD_DIR/VARIANT/stage\n"
	"      --name=NAME       with --stage and no -c: the source's name;\n"
	"      --version=V       its upstream version (EPOCH:V also sets the\n"
	"                        Debian epoch); the other settings\n"
	"                        take their defaults (padpack-split(1)):\n"
	"      --maintainer=M    (default: as dch: DEBFULLNAME <DEBEMAIL>,\n"
	"                        else guessed from the login and host)\n"
	"      --summary=TEXT    (default: software of the NAME project)\n"
	"      --copyright=FILE  a DEP-5 file (default: one made from the\n"
	"                        license file the tree ships, else the one\n"
	"                        of the current directory)\n"
	"                        packages go to -o DIR (default debs)\n"
	"      --scaffold=FILE   with --stage: write a spec of every setting's\n"
	"                        value and the packages it makes to FILE, and\n"
	"                        the copyright file beside it, as dh_make does;\n"
	"                        no package is made\n\n"
	"Environment:\n"
	"  SOURCE_DATE_EPOCH     the time of every file, the changelog and the\n"
	"                        .changes: the same stage trees give the same\n"
	"                        packages\n"
	"  PADPACK_DATADIR       where control-templates/ and scripts/ are\n"
	"  PADPACK_PROGRESS      never: no progress line on a terminal;\n"
	"                        always: also when stderr is not one\n\n"
	"Exit status: 0 done, 2 usage, 3 a spec, stage or dependency problem,\n"
	"4 I/O error, 5 a tool (strip, objcopy) failed.\n";

struct split_cli {
	const char *spec, *build_dir, *out_dir, *admindir;
	const char *stage, *name, *version, *maintainer, *summary, *copyright;
	const char *scaffold;
	char *name_fixed;   /* --name made a package name, when it was not */
	long epoch;         /* --version's epoch (1 of 1:2.0), or 0 */
	struct pp_strlist variants;
	struct pp_compress_opts comp;
	uint64_t mem_limit;
	int explain, quiet, json;
	char *tmp;   /* --stage: the work directory, removed at the end */
};

enum { OPT_VARIANT = 256, OPT_EXPLAIN, OPT_ADMINDIR, OPT_STAGE, OPT_NAME,
       OPT_VERSION, OPT_MAINTAINER, OPT_SUMMARY, OPT_COPYRIGHT, OPT_SCAFFOLD,
       OPT_JSON, OPT_THREADS, OPT_X86, OPT_MEMORY };

static const struct option long_opts[] = {
	{ "spec", required_argument, NULL, 'c' },
	{ "build-dir", required_argument, NULL, 'B' },
	{ "output", required_argument, NULL, 'o' },
	{ "variant", required_argument, NULL, OPT_VARIANT },
	{ "explain", no_argument, NULL, OPT_EXPLAIN },
	{ "compression", required_argument, NULL, 'Z' },
	{ "level", required_argument, NULL, 'z' },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "x86-filter", required_argument, NULL, OPT_X86 },
	{ "memory-limit", required_argument, NULL, OPT_MEMORY },
	{ "admindir", required_argument, NULL, OPT_ADMINDIR },
	{ "quiet", no_argument, NULL, 'q' },
	{ "stage", required_argument, NULL, OPT_STAGE },
	{ "name", required_argument, NULL, OPT_NAME },
	{ "version", required_argument, NULL, OPT_VERSION },
	{ "maintainer", required_argument, NULL, OPT_MAINTAINER },
	{ "summary", required_argument, NULL, OPT_SUMMARY },
	{ "copyright", required_argument, NULL, OPT_COPYRIGHT },
	{ "scaffold", required_argument, NULL, OPT_SCAFFOLD },
	{ "json", no_argument, NULL, OPT_JSON },
	{ NULL, 0, NULL, 0 },
};

static int parse_one(int c, struct split_cli *cli, struct pp_err *err)
{
	long v;

	switch (c) {
	case 'c': cli->spec = optarg; break;
	case 'B': cli->build_dir = optarg; break;
	case 'o': cli->out_dir = optarg; break;
	case OPT_VARIANT: pp_strlist_push(&cli->variants, optarg); break;
	case OPT_EXPLAIN: cli->explain = 1; break;
	case OPT_ADMINDIR: cli->admindir = optarg; break;
	case 'q': cli->quiet = 1; break;
	case OPT_STAGE: cli->stage = optarg; break;
	case OPT_NAME: cli->name = optarg; break;
	case OPT_VERSION: cli->version = optarg; break;
	case OPT_MAINTAINER: cli->maintainer = optarg; break;
	case OPT_SUMMARY: cli->summary = optarg; break;
	case OPT_COPYRIGHT: cli->copyright = optarg; break;
	case OPT_SCAFFOLD: cli->scaffold = optarg; break;
	case OPT_JSON: cli->json = 1; break;
	case OPT_X86:
		if (pp_x86_filter_parse(optarg, &cli->comp.x86) < 0)
			return pp_usage_error(err, "--x86-filter '%s': use "
					      "auto or off", optarg);
		break;
	case 'Z':
		if (pp_compressor_parse(optarg, &cli->comp.type) < 0)
			return pp_usage_error(err, "unknown compression '%s'; "
					      "use gzip, xz, zstd or none",
					      optarg);
		break;
	case 'z':
		if (pp_parse_int(optarg, 0, 22, &v) < 0)
			return pp_usage_error(err, "level '%s' is not a number "
					      "from 0 to 22", optarg);
		cli->comp.level = (int)v;
		break;
	case OPT_THREADS:
		if (pp_parse_int(optarg, 1, 1024, &v) < 0)
			return pp_usage_error(err, "--threads '%s' is not a "
					      "number from 1 to 1024", optarg);
		cli->comp.threads = (int)v;
		break;
	case OPT_MEMORY:
		if (pp_parse_size(optarg, &cli->mem_limit) < 0 ||
		    !cli->mem_limit)
			return pp_usage_error(err, "--memory-limit '%s' is not "
					      "a size: give bytes, or a number "
					      "with KiB, MiB or GiB (512MiB)",
					      optarg);
		break;
	default:
		return pp_usage_error(err, "unknown option");
	}
	return 0;
}

static int parse(int argc, char **argv, struct split_cli *cli,
		 struct pp_err *err)
{
	int c;

	cli->build_dir = "build";
	cli->comp = (struct pp_compress_opts){ PP_COMP_XZ, -1, 0, PP_X86_AUTO };
	while ((c = getopt_long(argc, argv, "+c:B:o:Z:z:q", long_opts,
				NULL)) != -1)
		if (parse_one(c, cli, err) < 0)
			return -1;
	if (optind < argc)
		return pp_usage_error(err, "unexpected argument '%s'",
				      argv[optind]);
	if (cli->name && cli->spec)
		return pp_usage_error(err, "--name makes a spec; give either "
				      "it or -c SPEC");
	if (cli->name && (!cli->stage || !cli->version))
		return pp_usage_error(err, "--name needs --stage DIR and "
				      "--version VERSION");
	if (!cli->name && (cli->version || cli->maintainer || cli->summary ||
			   cli->copyright))
		return pp_usage_error(err, "--version, --maintainer, --summary "
				      "and --copyright go with --name");
	if (cli->scaffold && !cli->stage)
		return pp_usage_error(err, "--scaffold writes a spec from a "
				      "staged tree: give --stage DIR");
	if (cli->json && (cli->quiet || cli->explain || cli->scaffold))
		return pp_usage_error(err, "--json prints the packages made: "
				      "not with --quiet, --explain or "
				      "--scaffold");
	if (!cli->name && !cli->spec)
		cli->spec = "pkg/paddle.cfg";
	return pp_compress_opts_check(&cli->comp, err);
}

/* --version EPOCH:UPSTREAM, as dch -v takes it: the epoch goes to
 * packages.epoch, the rest is the upstream version. */
static int version_epoch(struct split_cli *cli, const char *colon,
			 struct pp_err *err)
{
	const char *v = cli->version;
	size_t n = (size_t)(colon - v);

	if (n < 1 || n > 5 || strspn(v, "0123456789") != n || *v == '0')
		return pp_err_set(err, PP_EXIT_INPUT, "--version '%s': '%.*s' "
				  "is no epoch (a number from 1, as in "
				  "1:2.0); give --version %s, or N:%s for "
				  "epoch N", v, (int)n, v, colon + 1,
				  colon + 1);
	cli->epoch = strtol(v, NULL, 10);
	cli->version = colon + 1;
	return 0;
}

/* --name and --version, read as dh_make and uscan would: a name that is
 * no package name is lowered and its '_' made '-' ("My_Lib" -> my-lib),
 * a tag's 'v' dropped ("v1.2" -> 1.2, as uscan's usual
 * uversionmangle), each with a warning; what cannot be read so is an
 * error naming the option. */
static int check_name_version(struct split_cli *cli, struct pp_err *err)
{
	const char *v = cli->version, *colon = strchr(v, ':');

	if (!(cli->name_fixed = pp_spec_package_name_from(cli->name)))
		return pp_err_set(err, PP_EXIT_INPUT, "--name '%s' is not a "
				  "Debian package name: lower-case letters, "
				  "digits, '+', '-' and '.', a letter or digit "
				  "first, at least 2 characters (e.g. libfoo)",
				  cli->name);
	if (strcmp(cli->name_fixed, cli->name))
		pp_warn(err, "padpack split: --name '%s' is no Debian package "
			"name (lower-case letters, digits, '+', '-', '.'); "
			"using '%s'", cli->name, cli->name_fixed);
	cli->name = cli->name_fixed;
	if ((v[0] == 'v' || v[0] == 'V') && v[1] >= '0' && v[1] <= '9' &&
	    pp_version_is_upstream(v + 1)) {
		pp_warn(err, "padpack split: --version '%s': a tag's 'v' is no "
			"part of the upstream version (as uscan drops it); "
			"using '%s'", v, v + 1);
		cli->version = v + 1;
	} else if (colon && pp_version_is_upstream(colon + 1)) {
		return version_epoch(cli, colon, err);
	} else if (!pp_version_is_upstream(v)) {
		return pp_err_set(err, PP_EXIT_INPUT, "--version '%s' is not an "
				  "upstream version: a digit first, then "
				  "letters, digits, '.', '+', '~' or '-' (e.g. "
				  "1.4.2, 1.0~rc1, 2024.01.15)", v);
	}
	return 0;
}

static void add_setting(struct strbuf *out, const char *name, const char *value)
{
	if (!value)
		return;
	strbuf_addf(out, "%s = \"", name);
	for (const char *p = value; *p; p++)
		strbuf_addf(out, "%s%c", *p == '"' || *p == '\\' ? "\\" : "",
			    *p);
	strbuf_addstr(out, "\";\n");
}

/* The spec of --name: what the options say, defaults for the rest; it is
 * written to a file of tmp and read back, so it is checked as any spec. */
static int write_spec(const struct split_cli *cli, const char *tmp,
		      struct strbuf *path, struct pp_err *err)
{
	struct strbuf text = STRBUF_INIT;
	char *copyright = NULL;
	int rc;

	if (cli->copyright && !(copyright = realpath(cli->copyright, NULL)))
		return pp_err_errno(err, PP_EXIT_INPUT, "--copyright '%s'",
				    cli->copyright);
	add_setting(&text, "name", cli->name);
	add_setting(&text, "version", cli->version);
	add_setting(&text, "maintainer", cli->maintainer);
	add_setting(&text, "summary", cli->summary);
	strbuf_addstr(&text, "packages = {\n");
	add_setting(&text, "copyright", copyright);
	if (cli->epoch)
		strbuf_addf(&text, "epoch = %ld;\n", cli->epoch);
	strbuf_addstr(&text, "};\n");
	strbuf_addf(path, "%s/%s.cfg", tmp, cli->name);
	rc = pp_write_file(path->buf, text.buf, text.len, 0644, err);
	free(copyright);
	strbuf_release(&text);
	return rc;
}

/* --scaffold: FILE and NAME.copyright beside it, neither overwritten. */
static int scaffold(const struct split_cli *cli, const struct pp_split *s,
		    struct pp_err *err)
{
	struct strbuf text = STRBUF_INIT, cpath = STRBUF_INIT, cname = STRBUF_INIT;
	char *dir = pp_dirname(cli->scaffold);
	struct stat st;
	int rc = 0;

	strbuf_addf(&cname, "%s.copyright", s->spec->name);
	strbuf_addf(&cpath, "%s/%s", dir, cname.buf);
	if (lstat(cli->scaffold, &st) == 0 || lstat(cpath.buf, &st) == 0)
		rc = pp_err_set(err, PP_EXIT_INPUT, "--scaffold: '%s' is there "
				"already; padpack overwrites no spec (remove it, "
				"or write elsewhere)", lstat(cli->scaffold, &st)
				== 0 ? cli->scaffold : cpath.buf);
	if (rc == 0)
		rc = pp_write_file(cpath.buf, s->copyright, strlen(s->copyright),
				   0644, err);
	pp_split_scaffold(s, cli->stage, cname.buf, &text);
	if (rc == 0)
		rc = pp_write_file(cli->scaffold, text.buf, text.len, 0644, err);
	if (rc == 0)
		printf("padpack split: wrote %s and %s (%zu packages)\n",
		       cli->scaffold, cpath.buf, s->nr_pkgs);
	free(dir);
	strbuf_release(&text);
	strbuf_release(&cpath);
	strbuf_release(&cname);
	return rc;
}

static int has_templates(const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	int ok;

	strbuf_addf(&sb, "%s/control-templates/runtime.control", dir);
	ok = stat(sb.buf, &st) == 0;
	strbuf_release(&sb);
	return ok;
}

/* padpack's control-templates/ and scripts/: $PADPACK_DATADIR, else
 * beside the program (a checkout: ./padpack, build-asan/padpack), else
 * where make install puts them. */
static char *find_datadir(void)
{
	const char *env = getenv("PADPACK_DATADIR");
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	static const char *const rel[] = { "", "/..", "/../share/padpack" };

	if (env && *env)
		return xstrdup(env);
	if (n > 0) {
		char *dir;

		exe[n] = '\0';
		dir = pp_dirname(exe);
		for (size_t i = 0; i < 3; i++) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_addf(&sb, "%s%s", dir, rel[i]);
			if (has_templates(sb.buf)) {
				free(dir);
				return strbuf_detach(&sb, NULL);
			}
			strbuf_release(&sb);
		}
		free(dir);
	}
	return xstrdup("/usr/share/padpack");
}

static void print_result(const struct pp_split *s)
{
	printf("padpack split: %s %s, %zu variant%s, %zu packages in %s\n",
	       s->spec->name, s->version, s->nr_stages,
	       s->nr_stages == 1 ? "" : "s", s->nr_pkgs, s->opts.out_dir);
	for (size_t i = 0; i < s->nr_pkgs; i++) {
		const struct pp_split_pkg *p = &s->pkgs[i];
		struct strbuf path = STRBUF_INIT;
		struct stat st;

		strbuf_addf(&path, "%s/%s", s->opts.out_dir, p->deb);
		printf("  %-32s %-8s %-10s %8lld  %s\n", p->name,
		       pp_role_name(p->role), p->common ? "common" :
		       p->variant ? p->variant->name : "shared",
		       stat(path.buf, &st) == 0 ? (long long)st.st_size : 0LL,
		       p->deb);
		strbuf_release(&path);
	}
	for (size_t i = 0; i < s->written.nr; i++)
		if (!strstr(s->written.items[i], ".deb"))
			printf("  %s\n", s->written.items[i]);
}

/* On a terminal: "padpack split: 12 packages of x 1.0-1 in 3.4 s" on
 * stderr, when done (the split that was run and succeeded). */
static void progress_summary(struct progress_view *view,
			     struct pp_progress *progress,
			     const struct pp_split *done)
{
	struct strbuf what = STRBUF_INIT;

	if (done)
		strbuf_addf(&what, "%zu package%s of %s %s", done->nr_pkgs,
			    done->nr_pkgs == 1 ? "" : "s", done->spec->name,
			    done->version);
	progress_view_finish(view, progress, done ? what.buf : NULL);
	strbuf_release(&what);
}

static int split(struct split_cli *cli, const struct pp_spec *spec,
		 const unsigned char *selected, struct pp_err *err)
{
	struct pp_split_opts o = { 0 };
	struct strbuf out = STRBUF_INIT, work = STRBUF_INIT, text = STRBUF_INIT;
	char *datadir = find_datadir();
	struct progress_view view;
	struct pp_progress progress;
	struct pp_split s;
	long long ts;
	int rc, finished = 0;

	if (pp_source_date(&ts, err) < 0) {
		free(datadir);
		return -1;
	}
	/* Each package's compressor threads allocate the same large buffers
	 * (xz's dictionary and match finder): from the heap they are reused,
	 * whereas glibc's default maps and unmaps them every time, which
	 * doubled the time of packing a few dozen small packages. */
	mallopt(M_MMAP_THRESHOLD, 256 << 20);
	if (cli->out_dir)
		strbuf_addstr(&out, cli->out_dir);
	else if (cli->stage)
		strbuf_addstr(&out, "debs");
	else
		strbuf_addf(&out, "%s/debs", cli->build_dir);
	if (cli->tmp)
		strbuf_addf(&work, "%s/split", cli->tmp);
	else
		strbuf_addf(&work, "%s/split", cli->build_dir);
	o.build_dir = cli->build_dir;
	o.stage_dir = cli->stage;
	o.out_dir = out.buf;
	o.work_dir = work.buf;
	o.datadir = datadir;
	o.admindir = cli->admindir;
	o.selected = selected;
	o.explicit_selection = cli->variants.nr > 0;
	o.timestamp = (time_t)ts;
	o.comp = cli->comp;
	o.mem_limit = cli->mem_limit;
	progress_view_init(&view, &progress, "padpack split",
			   cli->quiet || cli->json || cli->explain ||
			   cli->scaffold);
	o.progress = &progress;
	o.spec_from_options = cli->name != NULL;
	rc = pp_split_plan(&s, spec, &o, err);
	if (rc == 0 && cli->scaffold) {
		rc = scaffold(cli, &s, err);
	} else if (rc == 0 && cli->explain) {
		pp_split_explain(&s, &text);
		fputs(text.buf, stdout);
	} else if (rc == 0) {
		rc = pp_split_check_packages(&s, err);
		if (rc == 0)
			rc = pp_split_run(&s, err);
		progress_summary(&view, &progress, rc == 0 ? &s : NULL);
		finished = 1;
		if (rc == 0 && cli->json)
			rc = pp_json_write(stdout, pp_json_split(&s), err);
		else if (rc == 0 && !cli->quiet)
			print_result(&s);
	}
	if (!finished)
		progress_summary(&view, &progress, NULL);
	pp_split_release(&s);
	free(datadir);
	strbuf_release(&out);
	strbuf_release(&work);
	strbuf_release(&text);
	return rc;
}

static int run_spec(struct split_cli *cli, const char *path,
		    struct pp_err *err)
{
	struct pp_spec spec;
	unsigned char *selected;
	int rc = pp_load_spec_variants(path, &cli->variants, &spec, &selected,
				       err);

	if (rc == 0 && cli->name) {
		free(spec.path); /* say where the settings came from */
		spec.path = xstrdup("padpack split --name");
	}
	if (rc == 0) {
		rc = split(cli, &spec, selected, err);
		free(selected);
		pp_spec_release(&spec);
	}
	return rc;
}

static int run(int argc, char **argv, struct pp_err *err)
{
	struct split_cli cli = { 0 };
	struct strbuf path = STRBUF_INIT;
	char tmpl[] = "/tmp/padpack-split.XXXXXX";
	int rc;

	rc = parse(argc, argv, &cli, err);
	if (rc == 0 && cli.stage) {
		const char *dir = getenv("TMPDIR");
		struct strbuf t = STRBUF_INIT;

		strbuf_addf(&t, "%s/padpack-split.XXXXXX", dir && *dir ? dir :
			    "/tmp");
		cli.tmp = mkdtemp(t.buf) ? strbuf_detach(&t, NULL) : NULL;
		strbuf_release(&t);
		if (!cli.tmp)
			rc = pp_err_errno(err, PP_EXIT_IO, "cannot make a work "
					  "directory like %s", tmpl);
	}
	if (rc == 0 && cli.name)
		rc = check_name_version(&cli, err);
	if (rc == 0 && cli.name)
		rc = write_spec(&cli, cli.tmp, &path, err);
	if (rc == 0)
		rc = run_spec(&cli, cli.name ? path.buf : cli.spec, err);
	if (cli.tmp) {
		struct pp_err ignored;

		pp_err_init(&ignored);
		pp_remove_tree(cli.tmp, &ignored);
		pp_err_release(&ignored);
		free(cli.tmp);
	}
	strbuf_release(&path);
	pp_strlist_release(&cli.variants);
	free(cli.name_fixed);
	return rc;
}

const struct pp_cmd cmd_split = {
	"split", run, "turn the staged variants into Debian packages", usage,
};
