/* padpack repo: publish and check an apt repository. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../lib/debsig.h"
#include "../lib/json-out.h"
#include "../lib/repo.h"
#include "../lib/version.h"
#include "../lib/xalloc.h"
#include "cmds.h"
#include "progress_view.h"
#include "pgpcmd.h"

static const char usage[] =
	"usage: padpack repo init DIR [--suite S] [--codename C] [--origin O]\n"
	"                     [--label L] [--description D] [--components C,...]\n"
	"                     [--architectures A,...] [--key SECRET] [--valid-for DAYS]\n"
	"                     [--uri URI] [--keep N] [--by-hash-keep TIME]\n"
	"                     [--by-hash-generations N] [--contents]\n"
	"                     [--compression gz,xz|xz|gz]\n"
	"       padpack repo add DIR [--suite S] [--component C] [--publish]\n"
	"                     [--no-sync] X.deb...\n"
	"       padpack repo remove DIR [--suite S] [--no-sync]\n"
	"                     PACKAGE[=VERSION][:ARCH]...\n"
	"       padpack repo list DIR [--suite S | --snapshot NAME] [--json]\n"
	"       padpack repo publish DIR [--full] [--unsigned] [--passphrase-file F]\n"
	"                     [--suite S [--from-snapshot NAME]] [--no-sync]\n"
	"       padpack repo snapshot DIR NAME [--suite S]\n"
	"       padpack repo diff DIR A B\n"
	"       padpack repo verify DIR [--keyring KEYRING]... [--packages]\n"
	"                     [--json]\n\n"
	"init    creates the repository (or adds or changes a suite): suite\n"
	"        'stable', component 'main', architecture amd64 by default.\n"
	"        A suite changed gets exactly the settings given (and the\n"
	"        defaults): give its key and the others again.\n"
	"        --contents: publish <component>/Contents-<arch>.gz too (what\n"
	"        apt-file searches).\n"
	"        --compression: which compressed Packages it publishes\n"
	"        (default gz,xz; xz alone is what Debian's archive serves, and\n"
	"        what any apt since 0.9 reads).\n"
	"        --keep: the versions of a package (and architecture) the\n"
	"        suite keeps (default 3), for rollbacks with apt-get install\n"
	"        NAME=VERSION.\n"
	"        --by-hash-keep (default 1h; a number with s, m, h or d) and\n"
	"        --by-hash-generations (default 3): how long a replaced\n"
	"        generation's indices stay under by-hash/, and how many of\n"
	"        the last replaced ones stay whatever their age, so that a\n"
	"        client that fetched an InRelease meanwhile finds them.\n"
	"add     copies packages into pool/<component>/<prefix>/<source>/ and\n"
	"        into the suite, beside its other versions (the oldest past\n"
	"        --keep dropped); a different file with the same name, version\n"
	"        and architecture is refused, never replaced. --publish\n"
	"        publishes that suite right after, in the same run (the\n"
	"        others stay served as they are; publish publishes them all).\n"
	"remove  takes packages out of the suite: every version, or the\n"
	"        version or architecture named; all or nothing (exit 1 when\n"
	"        one is not there). Their pool files go at the next publish\n"
	"        if no suite or snapshot holds them.\n"
	"list    prints the suite's packages, every version: name, version,\n"
	"        architecture, component, pool file. --json: one JSON\n"
	"        object (repository, suite, snapshot, packages[]).\n"
	"publish writes dists/<suite>/: Packages (.gz, .xz) per component and\n"
	"        architecture (over 16 MiB, Packages itself is listed in\n"
	"        Release but not written, as in Debian's archive; indices made\n"
	"        from the same pool files as before are linked, not made\n"
	"        again), Release, InRelease and Release.gpg signed with\n"
	"        the suite's key, by-hash copies (past generations' kept as\n"
	"        the suite says); each suite is replaced in one\n"
	"        atomic step. Only added pool files are read; the others' stanzas\n"
	"        come from db/cache, their files not even stat'ed (verify finds\n"
	"        one replaced by hand; --full reads them all). Beside dists/ it puts\n"
	"        the suite's public key and a <suite>.sources file: the lines a\n"
	"        client adds (with --uri as the address; default file:DIR).\n"
	"        --suite publishes that suite alone (the others served as\n"
	"        they are); with --from-snapshot it first holds exactly the\n"
	"        snapshot's packages (served in the same atomic step).\n"
	"        add, remove and publish fsync each file before it is renamed\n"
	"        into place or named by another, and its directory after: a\n"
	"        power cut leaves the old state or the new one. --no-sync skips\n"
	"        that, for scratch repositories.\n"
	"snapshot freezes the suite's packages under NAME: their names,\n"
	"        versions and pool files (no copies); a snapshot never\n"
	"        changes, and its pool files stay while it exists.\n"
	"diff    prints what changed from A to B (each a suite or a\n"
	"        snapshot): added, removed, upgraded, downgraded, with the\n"
	"        newest version of each package and architecture.\n"
	"verify  checks the InRelease signature against KEYRING, every index\n"
	"        against Release, every pool file against Packages (and with\n"
	"        --packages each package's own signature); prints each problem\n"
	"        with its path and exits 1 if there is any. --json: one JSON\n"
	"        object (repository, status, files_checked, problems[]).\n";

struct repo_opts {
	struct pp_repo_suite suite;
	const char *suite_name, *component, *passfile, *snapshot,
		*from_snapshot;
	const char *keyrings[PGPCMD_MAX_KEYRINGS];
	size_t nr_keyrings;
	int full, unsigned_ok, packages, publish, no_sync, json;
};

enum { O_SUITE = 256, O_CODENAME, O_ORIGIN, O_LABEL, O_DESC, O_COMPONENTS,
       O_ARCHS, O_KEY, O_VALID, O_COMPONENT, O_FULL, O_UNSIGNED, O_KEYRING,
       O_PACKAGES, O_URI, O_PASSFILE, O_PUBLISH, O_BYHASH_KEEP,
       O_BYHASH_GENS, O_KEEP, O_SNAPSHOT, O_FROM_SNAPSHOT, O_CONTENTS,
       O_NO_SYNC, O_JSON, O_COMPRESSION };

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
	{ "keep", required_argument, NULL, O_KEEP },
	{ "contents", no_argument, NULL, O_CONTENTS },
	{ "compression", required_argument, NULL, O_COMPRESSION },
	{ "snapshot", required_argument, NULL, O_SNAPSHOT },
	{ "from-snapshot", required_argument, NULL, O_FROM_SNAPSHOT },
	{ "by-hash-keep", required_argument, NULL, O_BYHASH_KEEP },
	{ "by-hash-generations", required_argument, NULL, O_BYHASH_GENS },
	{ "no-sync", no_argument, NULL, O_NO_SYNC },
	{ "json", no_argument, NULL, O_JSON },
	{ NULL, 0, NULL, 0 },
};

static void set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = xstrdup(v);
}

/* "90", "90s", "30m", "1h", "2d": seconds, at most a year. */
static int parse_duration(const char *v, long long *out)
{
	static const char units[] = "smhd";
	static const long long per[] = { 1, 60, 3600, 86400 };
	char *end;
	long long n;
	const char *u;

	errno = 0;
	n = strtoll(v, &end, 10);
	if (end == v || errno || n < 0 || n > 366LL * 86400)
		return -1;
	if (!*end) {
		*out = n;
		return 0;
	}
	u = strchr(units, *end);
	if (!u || end[1] || n * per[u - units] > 366LL * 86400)
		return -1;
	*out = n * per[u - units];
	return 0;
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
	case O_JSON: o->json = 1; break;
	case O_PACKAGES: o->packages = 1; break;
	case O_URI: set_str(&s->uri, optarg); break;
	case O_BYHASH_KEEP:
		if (parse_duration(optarg, &s->byhash_keep) < 0)
			return pp_usage_error(err, "--by-hash-keep takes a time: "
					      "seconds, or a number with s, m, h "
					      "or d (at most a year), not '%s'",
					      optarg);
		break;
	case O_SNAPSHOT: o->snapshot = optarg; break;
	case O_CONTENTS: s->contents = 1; break;
	case O_COMPRESSION:
		s->compression = pp_repo_parse_compression(optarg);
		if (!s->compression)
			return pp_usage_error(err, "--compression takes gz, xz "
					      "or both (gz,xz), not '%s'", optarg);
		break;
	case O_FROM_SNAPSHOT: o->from_snapshot = optarg; break;
	case O_KEEP:
		if (pp_parse_int(optarg, 1, 10000, &days) < 0)
			return pp_usage_error(err, "--keep takes a count of "
					      "versions, 1 to 10000");
		s->keep_versions = (unsigned)days;
		break;
	case O_BYHASH_GENS:
		if (pp_parse_int(optarg, 0, 10000, &days) < 0)
			return pp_usage_error(err, "--by-hash-generations takes "
					      "a count, 0 to 10000");
		s->byhash_generations = (unsigned)days;
		break;
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

/* The suite's own name for the one --suite names (it may name it by its
 * codename), or the only suite's. */
static const char *suite_named(struct pp_repo *r, const struct repo_opts *o,
			       struct pp_err *err)
{
	const char *name = pick_suite(r, o, err);
	const struct pp_repo_suite *s = name ? pp_repo_find_suite(r, name, err) :
		NULL;

	return s ? s->suite : NULL;
}

static int listed(char **words, size_t n, const char *word)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(words[i], word))
			return 1;
	return 0;
}

static int served(const struct pp_repo_suite *s, const struct pp_repo_member *m)
{
	return listed(s->components, s->nr_components, m->component) &&
	       (!strcmp(m->arch, "all") || listed(s->archs, s->nr_archs, m->arch));
}

/* A suite changed to serve fewer architectures or components keeps the
 * packages it held of them, unpublished: said, since nothing else would
 * show it (they come back if the architecture is listed again). */
static void note_unserved(const char *dir, const struct pp_repo_suite *s)
{
	struct pp_repo_members ms;
	struct pp_repo r;
	struct pp_err ignored;
	const struct pp_repo_member *first = NULL;
	size_t n = 0;

	pp_err_init(&ignored);
	if (pp_repo_open(&r, dir, 0, &ignored) < 0) {
		pp_err_release(&ignored);
		return;
	}
	if (pp_repo_members_load(&r, s->suite, &ms, &ignored) == 0) {
		for (size_t i = 0; i < ms.nr; i++)
			if (!served(s, &ms.m[i]) && !n++)
				first = &ms.m[i];
		if (n)
			fprintf(stderr, "padpack repo: note: suite '%s' holds "
				"%zu package%s of an architecture or component "
				"it no longer serves (%s %s %s, component %s%s): "
				"kept in its list, not published; 'padpack repo "
				"remove %s %s:%s' takes one out\n", s->suite, n,
				n == 1 ? "" : "s", first->package,
				first->version, first->arch, first->component,
				n > 1 ? ", ..." : "", dir, first->package,
				first->arch);
		pp_repo_members_release(&ms);
	}
	pp_repo_close(&r);
	pp_err_release(&ignored);
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
	note_unserved(dir, s);
	return 0;
}

struct add_view {
	struct progress_view view;
	struct pp_progress progress;
	unsigned keep; /* the suite's Keep-Versions */
};

static void print_added(void *ctx, const char *pool_path, int held)
{
	struct add_view *a = ctx;

	progress_view_clear(&a->view); /* the line goes below what is added */
	printf(held ? "unchanged %s (the suite holds it already)\n" :
	       "added %s\n", pool_path);
	fflush(stdout);
	pp_progress_add(&a->progress, 1, pool_path);
}

/* An older version past the suite's retention: said, since an older
 * version added can drop a newer one. */
static void print_dropped(void *ctx, const struct pp_repo_member *m)
{
	struct add_view *a = ctx;

	progress_view_clear(&a->view);
	printf("dropped %s %s %s (the suite keeps %u version%s of each "
	       "package; --keep)\n", m->package, m->version, m->arch, a->keep,
	       a->keep == 1 ? "" : "s");
	fflush(stdout);
}

static int do_add(struct pp_repo *r, struct repo_opts *o, int argc,
		  char **argv, struct pp_err *err)
{
	const char *suite = pick_suite(r, o, err);
	const struct pp_repo_suite *s;
	struct strbuf what = STRBUF_INIT;
	struct add_view a;
	int rc;

	if (!suite || !(s = pp_repo_find_suite(r, suite, err)))
		return -1;
	if (argc == 0)
		return pp_usage_error(err, "expected .deb files to add");
	a.keep = s->keep_versions;
	progress_view_init(&a.view, &a.progress, "padpack repo add", 0);
	pp_progress_task(&a.progress, "adding", (uint64_t)argc, "packages");
	rc = pp_repo_add(r, suite, o->component, (const char *const *)argv,
			 (size_t)argc, print_added, print_dropped, &a, err);
	strbuf_addf(&what, "%d package%s added", argc, argc == 1 ? "" : "s");
	progress_view_finish(&a.view, &a.progress, rc ? NULL : what.buf);
	strbuf_release(&what);
	return rc;
}

/* "NAME[=VERSION][:ARCH]" cut in place. A version's upstream part starts
 * with a digit and an architecture with a letter, so the last colon
 * starts an architecture only when a letter follows it ("p=1:2.0" is an
 * epoch, "p=1:2.0:arm64" an architecture; "p:" an empty one). */
static void split_remove_arg(char *arg, char **version, char **arch)
{
	char *colon = strrchr(arg, ':');

	*version = *arch = NULL;
	if (colon && (isalpha((unsigned char)colon[1]) || !colon[1])) {
		*colon = '\0';
		*arch = colon + 1;
	}
	if ((*version = strchr(arg, '=')))
		*(*version)++ = '\0';
}

static void print_removed(void *ctx, const struct pp_repo_member *m)
{
	(void)ctx;
	printf("removed %s %s %s\n", m->package, m->version, m->arch);
}

static int do_remove(struct pp_repo *r, struct repo_opts *o, int argc,
		     char **argv, struct pp_err *err)
{
	const char *suite = pick_suite(r, o, err);
	struct pp_repo_removal *what;
	char **args;
	int rc = 0;

	if (!suite)
		return -1;
	if (argc == 0)
		return pp_usage_error(err, "expected NAME[=VERSION][:ARCH] to "
				      "remove");
	what = xcalloc((size_t)argc, sizeof(*what));
	args = xcalloc((size_t)argc, sizeof(*args));
	for (int i = 0; i < argc && !rc; i++) {
		char *version, *arch;

		args[i] = xstrdup(argv[i]);
		split_remove_arg(args[i], &version, &arch);
		if (!*args[i] || strchr(args[i], ':') ||
		    (version && !*version) || (arch && !*arch))
			rc = pp_usage_error(err, "'%s': expected NAME[=VERSION]"
					    "[:ARCH], such as tool, tool=1.0-1 "
					    "or tool=1.0-1:arm64", argv[i]);
		what[i] = (struct pp_repo_removal){ args[i], version, arch };
	}
	if (!rc)
		rc = pp_repo_remove(r, suite, what, (size_t)argc, print_removed,
				    NULL, err);
	for (int i = 0; i < argc; i++)
		free(args[i]);
	free(args);
	free(what);
	return rc;
}

/* Debian's order of two versions; one that does not parse after any
 * that does, then as text. */
static int cmp_version_text(const char *a, const char *b)
{
	struct pp_version va, vb;
	struct pp_err ignored;
	int ok_a, ok_b, c;

	pp_err_init(&ignored);
	ok_a = pp_version_parse(&va, a, &ignored) == 0;
	ok_b = pp_version_parse(&vb, b, &ignored) == 0;
	c = ok_a && ok_b ? pp_version_cmp(&va, &vb) : ok_b - ok_a;
	if (ok_a)
		pp_version_release(&va);
	if (ok_b)
		pp_version_release(&vb);
	pp_err_release(&ignored);
	return c ? c : strcmp(a, b);
}

/* By package, architecture, then version as Debian orders them (0.9
 * before 0.10, 2.0~rc1 before 2.0), not as the list stores them. */
static int cmp_listed(const void *x, const void *y)
{
	const struct pp_repo_member *a = x, *b = y;
	int c = strcmp(a->package, b->package);

	if (!c)
		c = strcmp(a->arch, b->arch);
	return c ? c : cmp_version_text(a->version, b->version);
}

static int do_list(struct pp_repo *r, struct repo_opts *o, struct pp_err *err)
{
	const char *suite = o->snapshot ? NULL : pick_suite(r, o, err);
	struct pp_repo_members ms;
	int rc = 0;

	if (!o->snapshot && !suite)
		return -1;
	if ((o->snapshot ? pp_repo_snapshot_load(r, o->snapshot, &ms, err) :
	     pp_repo_members_load(r, suite, &ms, err)) < 0)
		return -1;
	if (ms.nr)
		qsort(ms.m, ms.nr, sizeof(*ms.m), cmp_listed);
	if (o->json) {
		rc = pp_json_write(stdout, pp_json_repo_list(r->root, suite,
							     o->snapshot, &ms),
				   err);
	}
	for (size_t i = 0; !o->json && i < ms.nr; i++)
		printf("%s %s %s %s %s\n", ms.m[i].package, ms.m[i].version,
		       ms.m[i].arch, ms.m[i].component, ms.m[i].filename);
	pp_repo_members_release(&ms);
	return rc;
}

static int do_snapshot(struct pp_repo *r, struct repo_opts *o, int argc,
		       char **argv, struct pp_err *err)
{
	const char *suite = pick_suite(r, o, err);
	size_t n;

	if (!suite)
		return -1;
	if (argc != 1)
		return pp_usage_error(err, "expected the snapshot's NAME");
	if (pp_repo_snapshot(r, suite, argv[0], &n, err) < 0)
		return -1;
	printf("snapshot %s: suite %s, %zu package%s\n", argv[0], suite, n,
	       n == 1 ? "" : "s");
	return 0;
}

struct diff_count {
	size_t n[4];
};

static void print_change(void *ctx, enum pp_repo_change what,
			 const char *package, const char *arch, const char *old,
			 const char *new)
{
	static const char *const words[] = { "added", "removed", "upgraded",
					     "downgraded" };
	struct diff_count *c = ctx;

	c->n[what]++;
	if (old && new)
		printf("%-10s %s %s %s -> %s\n", words[what], package, arch, old,
		       new);
	else
		printf("%-10s %s %s %s\n", words[what], package, arch,
		       old ? old : new);
}

static int do_diff(struct pp_repo *r, int argc, char **argv,
		   struct pp_err *err)
{
	struct diff_count c = { { 0 } };

	if (argc != 2)
		return pp_usage_error(err, "expected two suites or snapshots "
				      "to compare");
	if (pp_repo_diff(r, argv[0], argv[1], print_change, &c, err) < 0)
		return -1;
	printf("(%zu added, %zu removed, %zu upgraded, %zu downgraded)\n",
	       c.n[PP_REPO_ADDED], c.n[PP_REPO_REMOVED], c.n[PP_REPO_UPGRADED],
	       c.n[PP_REPO_DOWNGRADED]);
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

/* only: the suite an add changed, published alone (NULL: every suite). */
static int do_publish(struct pp_repo *r, struct repo_opts *o, const char *only,
		      struct pp_err *err)
{
	struct pp_repo_publish_opts po = { 0 };
	struct progress_view view;
	struct pp_progress progress;
	int rc;

	if (o->from_snapshot) {
		const char *suite = o->suite_name;

		if (!suite)
			return pp_usage_error(err, "--from-snapshot: say which "
					      "suite serves it with --suite");
		if (pp_repo_use_snapshot(r, suite, o->from_snapshot, err) < 0)
			return -1;
	}
	po.full = o->full;
	po.unsigned_ok = o->unsigned_ok;
	po.suite = only;
	/* The real time, not SOURCE_DATE_EPOCH: apt refuses a Release whose
	 * Valid-Until has passed, and a Date is when the suite was served. */
	po.now = time(NULL);
	po.sign = sign_release;
	po.sign_ctx = o;
	progress_view_init(&view, &progress, "padpack repo publish", 0);
	po.progress = &progress;
	rc = pp_repo_publish(r, &po, err);
	progress_view_finish(&view, &progress, rc ? NULL : "published");
	if (rc < 0)
		return -1;
	for (size_t i = 0; i < r->nr_suites; i++)
		if (!only || !strcmp(only, r->suites[i].suite))
			printf("published %s/dists/%s\n", r->root,
			       r->suites[i].suite);
	printf("(%zu package file%s read, the others from the cache)\n",
	       po.read_debs, po.read_debs == 1 ? "" : "s");
	if (po.indices_reused)
		printf("(%zu Packages index%s as published before, linked)\n",
		       po.indices_reused, po.indices_reused == 1 ? "" : "es");
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

/* The summary of a verification, as text or (--json) one document. */
static int report_verify(const char *dir, const struct repo_opts *o,
			 int problems, json_t *found, size_t files,
			 struct pp_err *err)
{
	if (o->json && pp_json_write(stdout, pp_json_repo_verify(dir,
				     json_incref(found), files,
				     o->nr_keyrings > 0, o->packages, err),
				     err) < 0)
		return -1;
	if (problems < 0)
		return -1;
	if (problems)
		return pp_err_set(err, PP_EXIT_FAIL, "%s: %d problem%s (%zu files "
				  "checked)", dir, problems, problems == 1 ? "" : "s",
				  files);
	if (!o->json)
		printf("%s: verified, %zu files checked%s\n", dir, files,
		       o->nr_keyrings ? "" : " (signatures not checked: no "
		       "--keyring)");
	return 0;
}

/* Verifies dir, the problems going to found (--json) or standard output;
 * returns their number, or -1 when the repository cannot be read. */
static int verify_repo(const char *dir, const struct repo_opts *o,
		       struct pp_pgp_keyring *kr, json_t *found, size_t *files,
		       struct pp_err *err)
{
	struct pp_repo_verify_opts vo = { 0 };
	int problems;

	vo.problem = o->json ? pp_json_repo_problem : print_problem;
	vo.problem_ctx = found;
	if (o->nr_keyrings) {
		vo.check = check_inrelease;
		vo.check_ctx = kr;
	}
	if (o->packages) {
		vo.check_deb = check_deb;
		vo.check_deb_ctx = kr;
	}
	problems = pp_repo_verify(dir, &vo, err);
	*files = vo.files_checked;
	return problems;
}

static int do_verify(const char *dir, struct repo_opts *o, struct pp_err *err)
{
	struct pp_pgp_keyring kr;
	json_t *found;
	size_t files = 0;
	int problems, rc;

	if (o->packages && !o->nr_keyrings)
		return pp_usage_error(err, "--packages checks signatures: give "
				      "--keyring");
	pp_pgp_keyring_init(&kr);
	found = json_array();
	/* a keyring that cannot be read is reported like the rest */
	if (o->nr_keyrings &&
	    pgpcmd_load_keyrings(&kr, o->keyrings, o->nr_keyrings, err) < 0)
		problems = -1;
	else
		problems = verify_repo(dir, o, &kr, found, &files, err);
	pp_pgp_keyring_release(&kr);
	rc = report_verify(dir, o, problems, found, files, err);
	json_decref(found);
	return rc;
}

static int on_open_repo(const char *sub, struct pp_repo *r,
			struct repo_opts *o, int argc, char **argv,
			struct pp_err *err)
{
	const char *only = NULL;
	int rc;

	if (!strcmp(sub, "add")) {
		if (o->full) /* its publish is of one suite */
			return pp_usage_error(err, "--full is an option of "
					      "'repo publish' (of every suite), "
					      "not of add --publish");
		rc = do_add(r, o, argc, argv, err);
		if (rc || !o->publish)
			return rc;
		return (only = suite_named(r, o, err)) ?
			do_publish(r, o, only, err) : -1;
	}
	if (!strcmp(sub, "remove"))
		return do_remove(r, o, argc, argv, err);
	if (!strcmp(sub, "list"))
		return do_list(r, o, err);
	if (!strcmp(sub, "snapshot"))
		return do_snapshot(r, o, argc, argv, err);
	if (!strcmp(sub, "diff"))
		return do_diff(r, argc, argv, err);
	if (argc)
		return pp_usage_error(err, "publish takes no argument after the "
				      "directory, not '%s'", argv[0]);
	/* --suite: that suite alone, the others served as they are */
	if (o->suite_name && o->full)
		return pp_usage_error(err, "--full reads every pool file again "
				      "and publishes every suite: give it "
				      "without --suite");
	if (o->suite_name && !(only = suite_named(r, o, err)))
		return -1;
	return do_publish(r, o, only, err);
}

/* Another add, remove or publish holds the lock: this one waits, and
 * says so (it would look hung). */
static void print_waiting(void *ctx, const char *lock_path)
{
	(void)ctx;
	fprintf(stderr, "padpack repo: waiting for %s: another padpack repo "
		"add, remove, publish or snapshot holds it\n", lock_path);
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
	    strcmp(sub, "publish") && strcmp(sub, "snapshot") &&
	    strcmp(sub, "diff"))
		return pp_usage_error(err, "unknown repo command '%s'", sub);
	/* list and diff only read: they take no lock */
	if ((!strcmp(sub, "list") || !strcmp(sub, "diff") ?
	     pp_repo_open(&r, dir, 0, err) :
	     pp_repo_open_locked(&r, dir, print_waiting, NULL, err)) < 0)
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
	pp_repo_suite_defaults(&o.suite);
	/* The indices and the cache are megabytes each, allocated and freed
	 * several times a run: from the heap, freed memory is reused instead
	 * of being mapped (and page-faulted) again each time. */
	mallopt(M_MMAP_THRESHOLD, 256 << 20);
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
	if (argc < 2)
		return pp_usage_error(err, "expected init, add, remove, list, "
				      "publish, snapshot, diff or verify");
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
