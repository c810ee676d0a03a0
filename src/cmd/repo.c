/* padpack repo: publish and check an apt repository. */
#include <getopt.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../lib/debsig.h"
#include "../lib/repo.h"
#include "../lib/xalloc.h"
#include "cmds.h"
#include "pgpcmd.h"

static const char usage[] =
	"usage: padpack repo init DIR [--suite S] [--codename C] [--origin O]\n"
	"                     [--label L] [--description D] [--components C,...]\n"
	"                     [--architectures A,...] [--key SECRET] [--valid-for DAYS]\n"
	"                     [--uri URI]\n"
	"       padpack repo add DIR [--suite S] [--component C] [--publish]\n"
	"                     [--no-sync] X.deb...\n"
	"       padpack repo remove DIR [--suite S] [--no-sync] PACKAGE[:ARCH]...\n"
	"       padpack repo list DIR [--suite S]\n"
	"       padpack repo publish DIR [--full] [--unsigned] [--passphrase-file F]\n"
	"                     [--no-sync]\n"
	"       padpack repo verify DIR [--keyring KEYRING]... [--packages]\n\n"
	"init    creates the repository (or adds or changes a suite): suite\n"
	"        'stable', component 'main', architecture amd64 by default.\n"
	"add     copies packages into pool/<component>/<prefix>/<source>/ and\n"
	"        into the suite; a different file with the same name, version\n"
	"        and architecture is refused, never replaced. --publish\n"
	"        publishes right after, in the same run.\n"
	"remove  takes packages out of the suite (their pool files go at the\n"
	"        next publish if no suite holds them).\n"
	"list    prints the suite's packages: name, version, architecture,\n"
	"        component, pool file.\n"
	"publish writes dists/<suite>/: Packages (.gz, .xz) per component and\n"
	"        architecture, Release, InRelease and Release.gpg signed with\n"
	"        the suite's key, by-hash copies; each suite is replaced in one\n"
	"        atomic step, and only pool files changed since the last publish\n"
	"        are read again (--full reads them all). Beside dists/ it puts\n"
	"        the suite's public key and a <suite>.sources file: the lines a\n"
	"        client adds (with --uri as the address; default file:DIR).\n"
	"        add, remove and publish fsync each file before it is renamed\n"
	"        into place or named by another, and its directory after: a\n"
	"        power cut leaves the old state or the new one. --no-sync skips\n"
	"        that, for scratch repositories.\n"
	"verify  checks the InRelease signature against KEYRING, every index\n"
	"        against Release, every pool file against Packages (and with\n"
	"        --packages each package's own signature); prints each problem\n"
	"        with its path and exits 1 if there is any.\n";

struct repo_opts {
	struct pp_repo_suite suite;
	const char *suite_name, *component, *passfile;
	const char *keyrings[PGPCMD_MAX_KEYRINGS];
	size_t nr_keyrings;
	int full, unsigned_ok, packages, publish, no_sync;
};

enum { O_SUITE = 256, O_CODENAME, O_ORIGIN, O_LABEL, O_DESC, O_COMPONENTS,
       O_ARCHS, O_KEY, O_VALID, O_COMPONENT, O_FULL, O_UNSIGNED, O_KEYRING,
       O_PACKAGES, O_URI, O_PASSFILE, O_PUBLISH, O_NO_SYNC };

static const struct option long_opts[] = {
	{ "suite", required_argument, NULL, O_SUITE },
	{ "codename", required_argument, NULL, O_CODENAME },
	{ "origin", required_argument, NULL, O_ORIGIN },
	{ "label", required_argument, NULL, O_LABEL },
	{ "description", required_argument, NULL, O_DESC },
	{ "components", required_argument, NULL, O_COMPONENTS },
	{ "architectures", required_argument, NULL, O_ARCHS },
	{ "key", required_argument, NULL, O_KEY },
	{ "valid-for", required_argument, NULL, O_VALID },
	{ "component", required_argument, NULL, O_COMPONENT },
	{ "full", no_argument, NULL, O_FULL },
	{ "unsigned", no_argument, NULL, O_UNSIGNED },
	{ "keyring", required_argument, NULL, O_KEYRING },
	{ "packages", no_argument, NULL, O_PACKAGES },
	{ "uri", required_argument, NULL, O_URI },
	{ "passphrase-file", required_argument, NULL, O_PASSFILE },
	{ "publish", no_argument, NULL, O_PUBLISH },
	{ "no-sync", no_argument, NULL, O_NO_SYNC },
	{ NULL, 0, NULL, 0 },
};

static void set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = xstrdup(v);
}

static int parse_one(int c, struct repo_opts *o, struct pp_err *err)
{
	struct pp_repo_suite *s = &o->suite;
	long days;

	switch (c) {
	case O_SUITE: o->suite_name = optarg; set_str(&s->suite, optarg); break;
	case O_CODENAME: set_str(&s->codename, optarg); break;
	case O_ORIGIN: set_str(&s->origin, optarg); break;
	case O_LABEL: set_str(&s->label, optarg); break;
	case O_DESC: set_str(&s->description, optarg); break;
	case O_COMPONENTS:
		pp_free_words(s->components, s->nr_components);
		s->nr_components = pp_split_words(optarg, &s->components);
		break;
	case O_ARCHS:
		pp_free_words(s->archs, s->nr_archs);
		s->nr_archs = pp_split_words(optarg, &s->archs);
		break;
	case O_KEY: s->signing_key = realpath(optarg, NULL);
		if (!s->signing_key)
			return pp_err_errno(err, PP_EXIT_IO, "--key '%s'", optarg);
		break;
	case O_VALID:
		if (pp_parse_int(optarg, 1, 3650, &days) < 0)
			return pp_usage_error(err, "--valid-for takes days, 1 to "
					      "3650");
		s->valid_for_days = (unsigned)days;
		break;
	case O_COMPONENT: o->component = optarg; break;
	case O_FULL: o->full = 1; break;
	case O_UNSIGNED: o->unsigned_ok = 1; break;
	case O_KEYRING:
		if (o->nr_keyrings == PGPCMD_MAX_KEYRINGS)
			return pp_usage_error(err, "at most %d --keyring",
					      PGPCMD_MAX_KEYRINGS);
		o->keyrings[o->nr_keyrings++] = optarg;
		break;
	case O_PASSFILE: o->passfile = optarg; break;
	case O_PUBLISH: o->publish = 1; break;
	case O_NO_SYNC: o->no_sync = 1; break;
	case O_PACKAGES: o->packages = 1; break;
	case O_URI: set_str(&s->uri, optarg); break;
	default: return pp_usage_error(err, "unknown option");
	}
	return 0;
}

static int parse(int argc, char **argv, struct repo_opts *o, struct pp_err *err)
{
	int c;

	optind = 2; /* after "repo SUBCOMMAND" */
	while ((c = getopt_long(argc, argv, "", long_opts, NULL)) != -1)
		if (parse_one(c, o, err) < 0)
			return -1;
	if (optind >= argc)
		return pp_usage_error(err, "expected the repository directory");
	return 0;
}

/* The suite named by --suite, or the repository's only suite. */
static const char *pick_suite(struct pp_repo *r, const struct repo_opts *o,
			      struct pp_err *err)
{
	if (o->suite_name)
		return o->suite_name;
	if (r->nr_suites == 1)
		return r->suites[0].suite;
	pp_usage_error(err, "%s has several suites; say which with --suite",
		       r->root);
	return NULL;
}

static int do_init(const char *dir, struct repo_opts *o, struct pp_err *err)
{
	struct pp_repo_suite *s = &o->suite;

	if (!s->suite)
		s->suite = xstrdup("stable");
	if (!s->codename)
		s->codename = xstrdup(s->suite);
	if (!s->nr_components)
		s->nr_components = pp_split_words("main", &s->components);
	if (!s->nr_archs)
		s->nr_archs = pp_split_words("amd64", &s->archs);
	if (pp_repo_init(dir, s, err) < 0)
		return -1;
	printf("padpack: repository %s: suite %s ready\n", dir, s->suite);
	return 0;
}

static void print_added(void *ctx, const char *pool_path)
{
	(void)ctx;
	printf("added %s\n", pool_path);
}

static int do_add(struct pp_repo *r, struct repo_opts *o, int argc,
		  char **argv, struct pp_err *err)
{
	const char *suite = pick_suite(r, o, err);

	if (!suite)
		return -1;
	if (argc == 0)
		return pp_usage_error(err, "expected .deb files to add");
	return pp_repo_add(r, suite, o->component, (const char *const *)argv,
			   (size_t)argc, print_added, NULL, err);
}

static int do_remove(struct pp_repo *r, struct repo_opts *o, int argc,
		     char **argv, struct pp_err *err)
{
	const char *suite = pick_suite(r, o, err);

	if (!suite)
		return -1;
	for (int i = 0; i < argc; i++) {
		char *name = xstrdup(argv[i]), *arch = strchr(name, ':');
		int rc;

		if (arch)
			*arch++ = '\0';
		rc = pp_repo_remove(r, suite, name, arch, err);
		free(name);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static int do_list(struct pp_repo *r, struct repo_opts *o, struct pp_err *err)
{
	const char *suite = pick_suite(r, o, err);
	struct pp_repo_members ms;

	if (!suite || pp_repo_members_load(r, suite, &ms, err) < 0)
		return -1;
	for (size_t i = 0; i < ms.nr; i++)
		printf("%s %s %s %s %s\n", ms.m[i].package, ms.m[i].version,
		       ms.m[i].arch, ms.m[i].component, ms.m[i].filename);
	pp_repo_members_release(&ms);
	return 0;
}

/* InRelease and Release.gpg, with the suite's key. */
static int sign_release(void *ctx, const char *key,
			const struct strbuf *release, struct strbuf *inrelease,
			struct strbuf *release_gpg, struct pp_err *err)
{
	const struct repo_opts *o = ctx;
	struct pp_pgp_signer s;
	int rc;

	if (pgpcmd_load_signer(&s, key, o->passfile, err) < 0)
		return pp_err_prefix(err, "Signing-Key %s: ", key);
	rc = pp_pgp_clearsign(&s, release->buf, release->len, NULL, inrelease,
			      err);
	if (!rc)
		rc = pp_pgp_detach_sign(&s, release->buf, release->len, NULL, 1,
					release_gpg, err);
	pp_pgp_signer_release(&s);
	return rc;
}

static int do_publish(struct pp_repo *r, struct repo_opts *o,
		      struct pp_err *err)
{
	struct pp_repo_publish_opts po = { 0 };

	po.full = o->full;
	po.unsigned_ok = o->unsigned_ok;
	/* The real time, not SOURCE_DATE_EPOCH: apt refuses a Release whose
	 * Valid-Until has passed, and a Date is when the suite was served. */
	po.now = time(NULL);
	po.sign = sign_release;
	po.sign_ctx = o;
	if (pp_repo_publish(r, &po, err) < 0)
		return -1;
	for (size_t i = 0; i < r->nr_suites; i++)
		printf("published %s/dists/%s\n", r->root, r->suites[i].suite);
	printf("(%zu package file%s read, the others from the cache)\n",
	       po.read_debs, po.read_debs == 1 ? "" : "s");
	return 0;
}

static void print_problem(void *ctx, const char *path, const char *what)
{
	(void)ctx;
	printf("%s: %s\n", path, what);
}

static int check_inrelease(void *ctx, const struct strbuf *inrelease,
			   struct strbuf *release, struct pp_err *err)
{
	struct pp_pgp_verdict v;

	return pp_pgp_verify_clearsigned(ctx, inrelease->buf, inrelease->len,
					 time(NULL), &v, release, err);
}

static int check_deb(void *ctx, const char *path, struct pp_err *err)
{
	struct pp_debsig_report rep;
	int rc;

	memset(&rep, 0, sizeof(rep));
	rc = pp_debsig_verify(path, ctx, time(NULL), &rep, err);
	pp_debsig_report_release(&rep);
	return rc;
}

static int do_verify(const char *dir, struct repo_opts *o, struct pp_err *err)
{
	struct pp_repo_verify_opts vo = { 0 };
	struct pp_pgp_keyring kr;
	int problems;

	if (o->packages && !o->nr_keyrings)
		return pp_usage_error(err, "--packages checks signatures: give "
				      "--keyring");
	pp_pgp_keyring_init(&kr);
	if (o->nr_keyrings &&
	    pgpcmd_load_keyrings(&kr, o->keyrings, o->nr_keyrings, err) < 0) {
		pp_pgp_keyring_release(&kr);
		return -1;
	}
	vo.problem = print_problem;
	if (o->nr_keyrings) {
		vo.check = check_inrelease;
		vo.check_ctx = &kr;
	}
	if (o->packages) {
		vo.check_deb = check_deb;
		vo.check_deb_ctx = &kr;
	}
	problems = pp_repo_verify(dir, &vo, err);
	pp_pgp_keyring_release(&kr);
	if (problems < 0)
		return -1;
	if (problems)
		return pp_err_set(err, PP_EXIT_FAIL, "%s: %d problem%s (%zu files "
				  "checked)", dir, problems, problems == 1 ? "" : "s",
				  vo.files_checked);
	printf("%s: verified, %zu files checked%s\n", dir, vo.files_checked,
	       o->nr_keyrings ? "" : " (signatures not checked: no --keyring)");
	return 0;
}

static int on_open_repo(const char *sub, struct pp_repo *r,
			struct repo_opts *o, int argc, char **argv,
			struct pp_err *err)
{
	int rc;

	/* A publish stats every pool file: started now, on a thread, the
	 * stats overlap the loading of the cache and the add. */
	if ((!strcmp(sub, "publish") || (!strcmp(sub, "add") && o->publish)) &&
	    pp_repo_stat_ahead(r, err) < 0)
		return -1;
	if (!strcmp(sub, "add")) {
		rc = do_add(r, o, argc, argv, err);
		return !rc && o->publish ? do_publish(r, o, err) : rc;
	}
	if (!strcmp(sub, "remove"))
		return do_remove(r, o, argc, argv, err);
	if (!strcmp(sub, "list"))
		return do_list(r, o, err);
	return do_publish(r, o, err);
}

static int dispatch(const char *sub, const char *dir, struct repo_opts *o,
		    int argc, char **argv, struct pp_err *err)
{
	struct pp_repo r;
	int rc;

	if (!strcmp(sub, "init"))
		return do_init(dir, o, err);
	if (!strcmp(sub, "verify"))
		return do_verify(dir, o, err);
	if (strcmp(sub, "add") && strcmp(sub, "remove") && strcmp(sub, "list") &&
	    strcmp(sub, "publish"))
		return pp_usage_error(err, "unknown repo command '%s'", sub);
	if (pp_repo_open(&r, dir, strcmp(sub, "list") != 0, err) < 0)
		return -1;
	r.no_sync = o->no_sync;
	rc = on_open_repo(sub, &r, o, argc, argv, err);
	pp_repo_close(&r);
	return rc;
}

static int run(int argc, char **argv, struct pp_err *err)
{
	struct repo_opts o;
	int rc;

	memset(&o, 0, sizeof(o));
	/* The indices and the cache are megabytes each, allocated and freed
	 * several times a run: from the heap, freed memory is reused instead
	 * of being mapped (and page-faulted) again each time. */
	mallopt(M_MMAP_THRESHOLD, 256 << 20);
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
	if (argc < 2)
		return pp_usage_error(err, "expected init, add, remove, list, "
				      "publish or verify");
	rc = parse(argc, argv, &o, err);
	if (!rc)
		rc = dispatch(argv[1], argv[optind], &o, argc - optind - 1,
			      argv + optind + 1, err);
	pp_repo_suite_release(&o.suite);
	return rc;
}

const struct pp_cmd cmd_repo = {
	"repo", run, "publish and verify a signed apt repository", usage,
};
