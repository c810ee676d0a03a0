/* The repository's configuration, lock, and adding and removing
 * packages.
 * Layer: the top of the repository's state: calls down into
 * repo-members.c (suites' lists), repo-stat.c, repo-index.c and
 * repo-words.c. */
#include "repo.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "deb.h"
#include "fsutil.h"
#include "hash.h"
#include "hindex.h"
#include "repo-internal.h"
#include "sort.h"
#include "thread.h"
#include "version.h"
#include "xalloc.h"

/* ---- suites (conf/distributions) -------------------------------------- */

int pp_repo_check_name(const char *what, const char *v, struct pp_err *err)
{
	if (!v || !*v)
		return pp_err_set(err, PP_EXIT_INPUT, "%s is empty", what);
	/* a name is a file or directory name under dists/ or db/, where a
	 * leading dot is "." or "..", or hidden (and temporary names start
	 * with one) */
	if (*v == '.')
		return pp_err_set(err, PP_EXIT_INPUT, "%s '%s' starts with '.'; "
				  "start it with a letter or digit", what, v);
	for (const char *p = v; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (isalnum(c) || strchr("-_.+", c))
			continue;
		if (c >= ' ' && c < 0x7f)
			return pp_err_set(err, PP_EXIT_INPUT, "%s '%s' has "
					  "character '%c'; use letters, digits "
					  "and -_.+", what, v, c);
		return pp_err_set(err, PP_EXIT_INPUT, "%s '%s' has byte 0x%02x; "
				  "use letters, digits and -_.+ (ASCII)", what,
				  v, c);
	}
	return 0;
}

int pp_repo_suite_check(const struct pp_repo_suite *s, struct pp_err *err)
{
	if (pp_repo_check_name("suite", s->suite, err) < 0 ||
	    pp_repo_check_name("codename", s->codename, err) < 0)
		return -1;
	if (!s->nr_components || !s->nr_archs)
		return pp_err_set(err, PP_EXIT_INPUT, "suite '%s' needs at least "
				  "one component and one architecture", s->suite);
	for (size_t i = 0; i < s->nr_components; i++)
		if (pp_repo_check_name("component", s->components[i], err) < 0)
			return -1;
	if (s->keep_versions < 1)
		return pp_err_set(err, PP_EXIT_INPUT, "suite '%s': Keep-Versions "
				  "must be at least 1", s->suite);
	if (s->byhash_keep < 0)
		return pp_err_set(err, PP_EXIT_INPUT, "suite '%s': By-Hash-Keep "
				  "is negative", s->suite);
	if (!s->compression || (s->compression & ~PP_REPO_COMPRESSION))
		return pp_err_set(err, PP_EXIT_INPUT, "suite '%s': Compression "
				  "takes gz, xz or both ('gz xz')", s->suite);
	for (size_t i = 0; i < s->nr_archs; i++) {
		if (pp_check_arch_name(s->archs[i], err) < 0)
			return -1;
		if (!strcmp(s->archs[i], "all"))
			return pp_err_set(err, PP_EXIT_INPUT, "list real "
					  "architectures: 'all' packages go into "
					  "each of them");
	}
	return 0;
}

void pp_repo_suite_defaults(struct pp_repo_suite *s)
{
	s->byhash_keep = PP_REPO_BYHASH_KEEP;
	s->byhash_generations = PP_REPO_BYHASH_GENERATIONS;
	s->keep_versions = PP_REPO_KEEP_VERSIONS;
	s->compression = PP_REPO_COMPRESSION;
}

unsigned pp_repo_parse_compression(const char *v)
{
	unsigned set = 0;

	while (*v) {
		size_t n = strcspn(v, " ,");

		if (n == 2 && !strncmp(v, "gz", 2))
			set |= PP_REPO_GZ;
		else if (n == 2 && !strncmp(v, "xz", 2))
			set |= PP_REPO_XZ;
		else if (n)
			return 0;
		v += n + (v[n] != 0);
	}
	return set;
}

void pp_repo_suite_release(struct pp_repo_suite *s)
{
	free(s->suite);
	free(s->codename);
	free(s->origin);
	free(s->label);
	free(s->description);
	free(s->signing_key);
	free(s->uri);
	pp_free_words(s->components, s->nr_components);
	pp_free_words(s->archs, s->nr_archs);
	memset(s, 0, sizeof(*s));
}

static char *opt_dup(const struct pp_stanza *st, const char *name)
{
	const char *v = pp_stanza_get(st, name);

	return v ? xstrdup(v) : NULL;
}

static int suite_from_stanza(const struct pp_stanza *st, const char *file,
			     struct pp_repo_suite *s, struct pp_err *err)
{
	const char *v;

	memset(s, 0, sizeof(*s));
	pp_repo_suite_defaults(s);
	s->suite = opt_dup(st, "Suite");
	s->codename = opt_dup(st, "Codename");
	if (!s->codename && s->suite)
		s->codename = xstrdup(s->suite);
	s->origin = opt_dup(st, "Origin");
	s->label = opt_dup(st, "Label");
	s->description = opt_dup(st, "Description");
	s->signing_key = opt_dup(st, "Signing-Key");
	s->uri = opt_dup(st, "URI");
	if ((v = pp_stanza_get(st, "Components")))
		s->nr_components = pp_split_words(v, &s->components);
	if ((v = pp_stanza_get(st, "Architectures")))
		s->nr_archs = pp_split_words(v, &s->archs);
	if ((v = pp_stanza_get(st, "Valid-For")))
		s->valid_for_days = (unsigned)strtoul(v, NULL, 10);
	if ((v = pp_stanza_get(st, "Contents")))
		s->contents = !strcmp(v, "yes");
	if ((v = pp_stanza_get(st, "Compression")))
		s->compression = pp_repo_parse_compression(v);
	if ((v = pp_stanza_get(st, "Keep-Versions")))
		s->keep_versions = (unsigned)strtoul(v, NULL, 10);
	if ((v = pp_stanza_get(st, "By-Hash-Keep")))
		s->byhash_keep = strtoll(v, NULL, 10);
	if ((v = pp_stanza_get(st, "By-Hash-Generations")))
		s->byhash_generations = (unsigned)strtoul(v, NULL, 10);
	if (pp_repo_suite_check(s, err) < 0) {
		pp_err_prefix(err, "%s:%u: ", file, st->line);
		pp_repo_suite_release(s);
		return -1;
	}
	return 0;
}

static void join_words(struct strbuf *sb, char **w, size_t n, const char *sep)
{
	for (size_t i = 0; i < n; i++)
		strbuf_addf(sb, "%s%s", i ? sep : "", w[i]);
}

static void write_suite(const struct pp_repo_suite *s, struct strbuf *out)
{
	strbuf_addf(out, "Suite: %s\nCodename: %s\n", s->suite, s->codename);
	if (s->origin)
		strbuf_addf(out, "Origin: %s\n", s->origin);
	if (s->label)
		strbuf_addf(out, "Label: %s\n", s->label);
	if (s->description)
		strbuf_addf(out, "Description: %s\n", s->description);
	strbuf_addstr(out, "Components: ");
	join_words(out, s->components, s->nr_components, " ");
	strbuf_addstr(out, "\nArchitectures: ");
	join_words(out, s->archs, s->nr_archs, " ");
	strbuf_addch(out, '\n');
	if (s->valid_for_days)
		strbuf_addf(out, "Valid-For: %u\n", s->valid_for_days);
	if (s->signing_key)
		strbuf_addf(out, "Signing-Key: %s\n", s->signing_key);
	if (s->uri)
		strbuf_addf(out, "URI: %s\n", s->uri);
	/* Settings left at their default are not written: they follow it. */
	if (s->contents)
		strbuf_addstr(out, "Contents: yes\n");
	if (s->compression != PP_REPO_COMPRESSION)
		strbuf_addf(out, "Compression: %s\n",
			    s->compression == PP_REPO_XZ ? "xz" : "gz");
	if (s->keep_versions != PP_REPO_KEEP_VERSIONS)
		strbuf_addf(out, "Keep-Versions: %u\n", s->keep_versions);
	if (s->byhash_keep != PP_REPO_BYHASH_KEEP)
		strbuf_addf(out, "By-Hash-Keep: %lld\n", s->byhash_keep);
	if (s->byhash_generations != PP_REPO_BYHASH_GENERATIONS)
		strbuf_addf(out, "By-Hash-Generations: %u\n",
			    s->byhash_generations);
}

static int load_suites(struct pp_repo *r, struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct pp_deb822 p;
	struct pp_stanza st;
	size_t alloc = 0;
	int rc;

	strbuf_addf(&path, "%s/conf/distributions", r->root);
	rc = pp_read_file(path.buf, &text, err);
	if (rc < 0)
		pp_err_prefix(err, "not a padpack repository (run 'padpack repo "
			      "init' first): ");
	pp_deb822_init(&p, text.buf, text.len, path.buf);
	while (!rc && (rc = pp_deb822_next(&p, &st, err)) > 0) {
		ARRAY_GROW(r->suites, alloc, r->nr_suites + 1);
		rc = suite_from_stanza(&st, path.buf, &r->suites[r->nr_suites],
				       err);
		if (!rc)
			r->nr_suites++;
		pp_stanza_release(&st);
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return rc;
}

static int save_suites(const char *root, const struct pp_repo_suite *s,
		       size_t n, struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int rc;

	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_addch(&text, '\n');
		write_suite(&s[i], &text);
	}
	strbuf_addf(&path, "%s/conf/distributions", root);
	rc = pp_write_file(path.buf, text.buf, text.len, 0644, err);
	strbuf_release(&path);
	strbuf_release(&text);
	return rc;
}

static int make_dirs(const char *root, struct pp_err *err)
{
	static const char *const dirs[] = { "conf", "db", "pool", "dists" };
	struct strbuf path = STRBUF_INIT;
	int rc = 0;

	for (size_t i = 0; i < ARRAY_SIZE(dirs) && !rc; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", root, dirs[i]);
		rc = pp_mkdir_p(path.buf, 0755, err);
	}
	strbuf_release(&path);
	return rc;
}

/* The name is another suite's name or codename, or a snapshot's. */
static int name_taken(const struct pp_repo *r, const struct pp_repo_suite *s,
		      const char *name, struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT;
	int taken;

	for (size_t i = 0; i < r->nr_suites; i++) {
		const struct pp_repo_suite *o = &r->suites[i];

		if (!strcmp(o->suite, s->suite))
			continue; /* the suite being changed */
		if (!strcmp(o->suite, name) || !strcmp(o->codename, name))
			return pp_err_set(err, PP_EXIT_USAGE, "suite '%s': '%s' "
					  "is already suite '%s''s %s; a name "
					  "or codename names one suite", s->suite,
					  name, o->suite, strcmp(o->suite, name) ?
					  "codename" : "name");
	}
	strbuf_addf(&path, "%s/db/snapshots/%s.list", r->root, name);
	taken = access(path.buf, F_OK) == 0;
	strbuf_release(&path);
	if (taken)
		return pp_err_set(err, PP_EXIT_USAGE, "suite '%s': a snapshot is "
				  "named '%s'; give the suite another name",
				  s->suite, name);
	return 0;
}

/* Writes the suites of r with s in place of its namesake, or added. */
static int save_with(const struct pp_repo *r, const struct pp_repo_suite *s,
		     struct pp_err *err)
{
	struct pp_repo_suite *all;
	size_t n = 0;
	int replaced = 0, rc;

	if (name_taken(r, s, s->suite, err) < 0 ||
	    name_taken(r, s, s->codename, err) < 0)
		return -1;
	all = xcalloc(r->nr_suites + 1, sizeof(*all));
	for (size_t i = 0; i < r->nr_suites; i++) {
		int same = !strcmp(r->suites[i].suite, s->suite);

		all[n++] = same ? *s : r->suites[i];
		replaced |= same;
	}
	if (!replaced)
		all[n++] = *s;
	rc = save_suites(r->root, all, n, err);
	free(all); /* the suites themselves stay with their owners */
	return rc;
}

int pp_repo_init(const char *root, const struct pp_repo_suite *s,
		 struct pp_err *err)
{
	struct strbuf conf = STRBUF_INIT;
	struct pp_repo r;
	int exists, rc;

	if (pp_repo_suite_check(s, err) < 0 || make_dirs(root, err) < 0)
		return -1;
	strbuf_addf(&conf, "%s/conf/distributions", root);
	exists = access(conf.buf, F_OK) == 0;
	strbuf_release(&conf);
	if (!exists)
		return save_suites(root, s, 1, err);
	if (pp_repo_open(&r, root, 1, err) < 0)
		return -1;
	rc = save_with(&r, s, err);
	pp_repo_close(&r);
	return rc;
}

/* db/lock, held until the repository is closed; waiting (may be NULL)
 * is told once when another process holds it, before this one waits. */
static int take_lock(struct pp_repo *r, pp_repo_wait_fn waiting, void *ctx,
		     struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT;
	int rc = 0;

	strbuf_addf(&path, "%s/db/lock", r->root);
	r->lock_fd = open(path.buf, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (r->lock_fd < 0)
		rc = pp_err_errno(err, PP_EXIT_IO, "cannot open the lock '%s'",
				  path.buf);
	if (!rc && flock(r->lock_fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno == EWOULDBLOCK && waiting)
			waiting(ctx, path.buf);
		while (flock(r->lock_fd, LOCK_EX) < 0) {
			if (errno == EINTR)
				continue;
			rc = pp_err_errno(err, PP_EXIT_IO, "cannot lock '%s'",
					  path.buf);
			break;
		}
	}
	strbuf_release(&path);
	return rc;
}

static int open_repo(struct pp_repo *r, const char *root, int lock,
		     pp_repo_wait_fn waiting, void *ctx, struct pp_err *err)
{
	memset(r, 0, sizeof(*r));
	r->lock_fd = -1;
	r->root = xstrdup(root);
	r->root_fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (r->root_fd < 0) {
		pp_err_errno(err, PP_EXIT_IO, "cannot open the repository '%s'",
			     root);
		pp_repo_close(r);
		return -1;
	}
	if ((lock && take_lock(r, waiting, ctx, err) < 0) ||
	    load_suites(r, err) < 0) {
		pp_repo_close(r);
		return -1;
	}
	return 0;
}

int pp_repo_open(struct pp_repo *r, const char *root, int lock,
		 struct pp_err *err)
{
	return open_repo(r, root, lock, NULL, NULL, err);
}

int pp_repo_open_locked(struct pp_repo *r, const char *root,
			pp_repo_wait_fn waiting, void *ctx, struct pp_err *err)
{
	return open_repo(r, root, 1, waiting, ctx, err);
}

/* db/cache loaded on a thread of its own (see cache_and_members). */
struct cache_job {
	const char *root;
	struct pp_repo_cache *c;
	struct pp_err err;
	int rc;
};

static void *cache_job_run(void *arg)
{
	struct cache_job *j = arg;

	j->rc = pp_repo_cache_load(j->root, j->c, &j->err);
	return NULL;
}

/* The cache and a suite's members, both loaded at once when neither is
 * yet: at 100,000 packages each is tens of milliseconds of reading,
 * scanning and faulting memory in, and they share nothing. */
static int cache_and_members(struct pp_repo *r, const struct pp_repo_suite *s,
			     struct pp_repo_cache **cache,
			     struct pp_repo_members **ms, struct pp_err *err)
{
	struct cache_job j = { r->root, xmalloc(sizeof(*j.c)), { 0 }, 0 };
	pthread_t tid;
	int rc;

	pp_err_init(&j.err);
	if (r->cache || pp_thread_start(&tid, cache_job_run, &j) != 0)
		goto one_by_one;
	rc = pp_repo_members_of(r, s, ms, err);
	pthread_join(tid, NULL);
	if (!j.rc) {
		j.c->sync = !r->no_sync;
		r->cache = j.c;
		*cache = j.c;
	} else {
		free(j.c);
	}
	if (j.rc && !rc)
		rc = pp_err_move(err, &j.err);
	pp_err_release(&j.err);
	return rc;
one_by_one:
	free(j.c);
	pp_err_release(&j.err);
	if (pp_repo_cache_of(r, cache, err) < 0)
		return -1;
	return pp_repo_members_of(r, s, ms, err);
}

int pp_repo_cache_of(struct pp_repo *r, struct pp_repo_cache **out,
		     struct pp_err *err)
{
	if (!r->cache) {
		struct pp_repo_cache *c = xmalloc(sizeof(*c));

		if (pp_repo_cache_load(r->root, c, err) < 0) {
			free(c);
			return -1;
		}
		c->sync = !r->no_sync;
		r->cache = c;
	}
	*out = r->cache;
	return 0;
}

void pp_repo_close(struct pp_repo *r)
{
	if (r->cache) {
		pp_repo_cache_release(r->cache);
		free(r->cache);
	}
	for (size_t i = 0; r->members && i < r->nr_suites; i++)
		if (r->members[i]) {
			pp_repo_members_release(r->members[i]);
			free(r->members[i]);
		}
	free(r->members);
	for (size_t i = 0; i < r->nr_snapshots; i++)
		pp_repo_members_release(&r->snapshots[i]);
	free(r->snapshots);
	for (size_t i = 0; i < r->nr_suites; i++)
		pp_repo_suite_release(&r->suites[i]);
	free(r->suites);
	if (r->lock_fd >= 0)
		close(r->lock_fd);
	if (r->root_fd >= 0)
		close(r->root_fd);
	free(r->root);
	memset(r, 0, sizeof(*r));
	r->lock_fd = r->root_fd = -1;
}

struct pp_repo_suite *pp_repo_find_suite(struct pp_repo *r, const char *name,
					 struct pp_err *err)
{
	struct strbuf known = STRBUF_INIT;

	for (size_t i = 0; i < r->nr_suites; i++)
		if (!strcmp(r->suites[i].suite, name) ||
		    !strcmp(r->suites[i].codename, name))
			return &r->suites[i];
	for (size_t i = 0; i < r->nr_suites; i++)
		strbuf_addf(&known, "%s%s", i ? ", " : "", r->suites[i].suite);
	pp_err_set(err, PP_EXIT_USAGE, "no suite '%s' in %s (it has: %s); add "
		   "one with 'padpack repo init %s --suite %s'", name, r->root,
		   known.buf, r->root, name);
	strbuf_release(&known);
	return NULL;
}

/* ---- adding and removing ---------------------------------------------- */

void pp_repo_pool_path(const char *component, const char *source,
		       const char *package, const char *version,
		       const char *arch, struct strbuf *out)
{
	const char *colon = strchr(version, ':');
	int lib = !strncmp(source, "lib", 3) && source[3];

	strbuf_addf(out, "pool/%s/%.*s/%s/%s_%s_%s.deb", component, lib ? 4 : 1,
		    source, source, package, colon ? colon + 1 : version, arch);
}

static char *source_name(const struct pp_stanza *st)
{
	const char *src = pp_stanza_get(st, "Source");

	if (!src)
		return xstrdup(pp_stanza_get(st, "Package"));
	return xstrndup(src, strcspn(src, " ("));
}

int pp_repo_has_word(char **w, size_t n, const char *word)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(w[i], word))
			return 1;
	return 0;
}

static int check_fits(const struct pp_repo *r, const struct pp_repo_suite *s,
		      const char *component, const char *arch, const char *deb,
		      struct pp_err *err)
{
	if (!pp_repo_has_word(s->components, s->nr_components, component))
		return pp_err_set(err, PP_EXIT_USAGE, "suite '%s' has no "
				  "component '%s'", s->suite, component);
	if (strcmp(arch, "all") && !pp_repo_has_word(s->archs, s->nr_archs, arch)) {
		struct strbuf archs = STRBUF_INIT, list = STRBUF_INIT;

		join_words(&archs, s->archs, s->nr_archs, ", ");
		join_words(&list, s->archs, s->nr_archs, ",");
		pp_err_set(err, PP_EXIT_INPUT, "%s: architecture '%s' is not one "
			   "of suite '%s''s (%s); add it to the suite's list "
			   "with 'padpack repo init %s --suite %s --architectures "
			   "%s,%s' (with its other settings)", deb, arch,
			   s->suite, archs.buf, r->root, s->suite, list.buf, arch);
		strbuf_release(&archs);
		strbuf_release(&list);
		return -1;
	}
	return 0;
}

static int file_sha256(const char *path, char *hex, struct pp_err *err)
{
	char buf[65536];
	struct pp_hash h;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot open '%s'", path);
	pp_hash_init(&h, PP_SHA256);
	while ((n = pp_read_full(fd, buf, sizeof(buf))) > 0)
		pp_hash_update(&h, buf, (size_t)n);
	pp_hash_final_hex(&h, hex);
	close(fd);
	return n < 0 ? pp_err_errno(err, PP_EXIT_IO, "cannot read '%s'", path) : 0;
}

static void hash_block(void *ctx, const void *buf, size_t len)
{
	pp_repo_hashes_update(ctx, buf, len);
}

/* Copies the .deb towards its pool path, hashing it on the way: each
 * added file is read once. It takes its name when the batch is committed
 * (synced, unless no_sync, its directories too), before anything names
 * it. */
static int copy_to_pool(struct pp_outbatch *pool, const char *src,
			const char *dst, struct pp_stanza *st, struct stat *sb,
			struct pp_err *err)
{
	struct pp_repo_hashes h;
	int rc;

	pp_repo_hashes_init(&h);
	rc = pp_outbatch_copy(pool, src, dst, 0644, hash_block, &h, sb, err);
	pp_repo_hashes_finish(&h, st);
	return rc;
}

/* A different file is in the pool under the name of the one added (st):
 * the same name, version and architecture, or versions that differ by
 * their epoch alone (a pool file's name leaves it out). */
static int refuse_other(const char *deb, const char *path, const char *rel,
			const struct pp_stanza *st, struct pp_err *err)
{
	const char *version = pp_stanza_get(st, "Version");
	struct pp_stanza have;
	struct pp_err ignored;
	struct strbuf why = STRBUF_INIT;

	pp_err_init(&ignored);
	if (pp_repo_read_control(path, "", &have, &ignored) == 0) {
		const char *v = pp_stanza_get(&have, "Version");

		if (v && strcmp(v, version))
			strbuf_addf(&why, "version %s there, %s here: pool file "
				    "names leave the epoch out", v, version);
		pp_stanza_release(&have);
	}
	pp_err_release(&ignored);
	if (!why.len)
		strbuf_addstr(&why, "same name, version and architecture");
	pp_err_set(err, PP_EXIT_INPUT, "%s: refused: the pool already has a "
		   "different %s (%s); give the new build a new version", deb,
		   rel, why.buf);
	strbuf_release(&why);
	return -1;
}

/* Puts the .deb in the pool and its hashes in st, its stat in sb; an
 * existing, different file is refused. */
static int place_in_pool(const struct pp_repo *r, struct pp_outbatch *pool,
			 const char *deb, const char *rel, struct pp_stanza *st,
			 struct stat *sb, struct pp_err *err)
{
	struct strbuf dst = STRBUF_INIT;
	char have[2 * PP_HASH_MAX + 1];
	int rc = 0;

	strbuf_addf(&dst, "%s/%s", r->root, rel);
	/* the same name twice in one add: the first one in place first */
	if (pp_outbatch_has(pool, dst.buf))
		rc = pp_outbatch_commit(pool, err);
	if (!rc && stat(dst.buf, sb) == 0) {
		rc = pp_repo_hash_file(deb, st, err);
		if (!rc)
			rc = file_sha256(dst.buf, have, err);
		if (!rc && strcmp(have, pp_stanza_get(st, "SHA256")))
			rc = refuse_other(deb, dst.buf, rel, st, err);
	} else if (!rc) {
		rc = copy_to_pool(pool, deb, dst.buf, st, sb, err);
	}
	strbuf_release(&dst);
	return rc;
}

/* The suite's members by package and architecture. The list is saved
 * sorted: a key is found by a binary search among the members loaded and
 * a look at the few added since, with no table of a large suite's
 * 100,000 names made for an add of one. Past a few added (or a list not
 * in order), a table indexes them all (indexed): adding thousands of
 * packages in one run stays linear. A member dropped during the run (an
 * older version past the suite's retention) has no package until the
 * members are compacted. */
struct member_index {
	struct pp_repo_members *ms;
	size_t sorted_nr; /* ms->m[0, sorted_nr) is in order */
	int indexed;
	struct pp_hindex x;
	const char *package, *arch; /* the key being looked up */
	size_t *same, nr_same, alloc_same; /* what a lookup found */
	/* told each pool file added, then each member it put past the
	 * retention */
	pp_repo_added_fn added;
	pp_repo_dropped_fn dropped;
	void *ctx;
};

/* Past this many members added, a table indexes them all. */
#define MEMBERS_SCAN_MAX 64

static uint32_t member_hash(const char *package, const char *arch)
{
	return pp_hindex_hash(package, pp_hindex_hash(arch, PP_HINDEX_SEED));
}

/* Gathers every member of the key and answers no, so that the lookup
 * visits them all: a package has several versions. */
static int member_gather(const void *ctx, size_t pos)
{
	struct member_index *mi = (struct member_index *)ctx;
	const struct pp_repo_member *m = &mi->ms->m[pos];

	if (m->package && !strcmp(m->package, mi->package) &&
	    !strcmp(m->arch, mi->arch)) {
		ARRAY_GROW(mi->same, mi->alloc_same, mi->nr_same + 1);
		mi->same[mi->nr_same++] = pos;
	}
	return 0;
}

static int cmp_key(const struct pp_repo_member *m, const char *package,
		   const char *arch)
{
	int c = strcmp(m->package, package);

	return c ? c : strcmp(m->arch, arch);
}

static void member_index_build(struct member_index *mi)
{
	const struct pp_repo_members *ms = mi->ms;

	pp_hindex_reserve(&mi->x, ms->nr + 64);
	for (size_t i = 0; i < ms->nr; i++)
		if (ms->m[i].package)
			pp_hindex_add(&mi->x, member_hash(ms->m[i].package,
							  ms->m[i].arch), i);
	mi->indexed = 1;
}

static void member_index_init(struct member_index *mi,
			      struct pp_repo_members *ms)
{
	memset(mi, 0, sizeof(*mi));
	mi->ms = ms;
	pp_hindex_init(&mi->x);
	mi->sorted_nr = ms->nr;
	for (size_t i = 1; i < ms->nr; i++)
		if (cmp_key(&ms->m[i - 1], ms->m[i].package, ms->m[i].arch) > 0) {
			member_index_build(mi); /* a list not in order */
			break;
		}
}

/* The first member in order at or past i that is not dropped, or end. */
static size_t next_kept(const struct pp_repo_members *ms, size_t i,
			size_t end)
{
	while (i < end && !ms->m[i].package)
		i++;
	return i;
}

/* Gathers the members of mi's key into mi->same, without the table:
 * the first in order by a binary search (stepping over dropped ones),
 * the ones after it, then the members added since. */
static void member_search(struct member_index *mi)
{
	const struct pp_repo_members *ms = mi->ms;
	size_t lo = 0, hi = mi->sorted_nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, at = next_kept(ms, mid, hi);

		if (at == hi)
			hi = mid;
		else if (cmp_key(&ms->m[at], mi->package, mi->arch) < 0)
			lo = at + 1;
		else
			hi = mid;
	}
	for (size_t i = next_kept(ms, lo, mi->sorted_nr); i < mi->sorted_nr &&
	     !cmp_key(&ms->m[i], mi->package, mi->arch);
	     i = next_kept(ms, i + 1, mi->sorted_nr))
		member_gather(mi, i);
	for (size_t i = mi->sorted_nr; i < ms->nr; i++)
		member_gather(mi, i);
}

static void member_index_release(struct member_index *mi)
{
	pp_hindex_release(&mi->x);
	free(mi->same);
}

static void member_drop(struct pp_repo_member *m)
{
	pp_repo_member_release(m);
	memset(m, 0, sizeof(*m));
}

/* Takes out the members dropped during the run. */
static void members_compact(struct pp_repo_members *ms)
{
	size_t kept = 0;

	for (size_t i = 0; i < ms->nr; i++)
		if (ms->m[i].package)
			ms->m[kept++] = ms->m[i];
	ms->nr = kept;
}

/* The lowest version among the members at same[], but the one at keep. */
static size_t lowest_version(const struct pp_repo_members *ms,
			     const size_t *same, size_t n, size_t keep)
{
	struct pp_version low = { 0 }, v;
	struct pp_err ignored;
	size_t at = PP_HINDEX_NONE;

	pp_err_init(&ignored);
	for (size_t i = 0; i < n; i++) {
		if (same[i] == keep ||
		    pp_version_parse(&v, ms->m[same[i]].version, &ignored) < 0)
			continue;
		if (at == PP_HINDEX_NONE || pp_version_cmp(&v, &low) < 0) {
			pp_version_release(&low);
			low = v;
			at = i;
		} else {
			pp_version_release(&v);
		}
	}
	pp_version_release(&low);
	pp_err_release(&ignored);
	return at;
}

/* Drops the lowest versions of the key gathered in mi->same (the member
 * just added at added excepted) until keep are left. */
static void keep_newest(struct member_index *mi, size_t added, unsigned keep)
{
	while (mi->nr_same > keep) {
		size_t i = lowest_version(mi->ms, mi->same, mi->nr_same, added);

		if (i == PP_HINDEX_NONE)
			break;
		if (mi->dropped)
			mi->dropped(mi->ctx, &mi->ms->m[mi->same[i]]);
		member_drop(&mi->ms->m[mi->same[i]]);
		mi->same[i] = mi->same[--mi->nr_same];
	}
}

/* Puts the package in the suite: in place of the same version, or beside
 * the others, the oldest dropped past the suite's Keep-Versions. Tells
 * mi->added first (whether the suite held that very pool file already),
 * then mi->dropped of each member the retention takes out. */
static void set_member(struct member_index *mi, const struct pp_stanza *st,
		       const char *component, const char *filename,
		       unsigned keep)
{
	struct pp_repo_members *ms = mi->ms;
	const char *pkg = pp_stanza_get(st, "Package");
	const char *arch = pp_stanza_get(st, "Architecture");
	const char *version = pp_stanza_get(st, "Version");
	uint32_t h = member_hash(pkg, arch);
	size_t at = PP_HINDEX_NONE;
	struct pp_repo_member *m;

	mi->package = pkg;
	mi->arch = arch;
	mi->nr_same = 0;
	if (!mi->indexed && ms->nr - mi->sorted_nr > MEMBERS_SCAN_MAX)
		member_index_build(mi);
	if (mi->indexed)
		pp_hindex_find(&mi->x, h, member_gather, mi);
	else
		member_search(mi);
	for (size_t i = 0; i < mi->nr_same && at == PP_HINDEX_NONE; i++)
		if (!strcmp(ms->m[mi->same[i]].version, version))
			at = mi->same[i];
	if (mi->added)
		mi->added(mi->ctx, filename, at != PP_HINDEX_NONE &&
			  !strcmp(ms->m[at].filename, filename));
	if (at != PP_HINDEX_NONE) {
		pp_repo_member_release(&ms->m[at]);
	} else {
		ARRAY_GROW(ms->m, ms->alloc, ms->nr + 1);
		if (mi->indexed)
			pp_hindex_add(&mi->x, h, ms->nr);
		at = ms->nr++;
		ARRAY_GROW(mi->same, mi->alloc_same, mi->nr_same + 1);
		mi->same[mi->nr_same++] = at;
	}
	m = &ms->m[at];
	m->borrowed = 0;
	m->package = xstrdup(pkg);
	m->version = xstrdup(version);
	m->arch = xstrdup(arch);
	m->component = xstrdup(component);
	m->filename = xstrdup(filename);
	keep_newest(mi, at, keep);
}

static void cache_entry(struct pp_repo_cache *cache, const char *rel,
			const struct stat *sb, struct pp_stanza *st)
{
	struct strbuf key = STRBUF_INIT;
	struct pp_file_id id;

	pp_file_id_of(sb, &id);
	pp_repo_stat_key(&id, &key);
	pp_repo_cache_put(cache, rel, key.buf, st);
	strbuf_release(&key);
}

/* Reads one .deb, puts it in the pool, the suite and the cache. */
static int add_one(struct pp_repo *r, const struct pp_repo_suite *s,
		   const char *component, const char *deb,
		   struct member_index *mi, struct pp_repo_cache *cache,
		   struct pp_outbatch *pool, struct strbuf *rel,
		   struct pp_err *err)
{
	struct pp_stanza st;
	struct stat sb;
	char *source;
	int rc;

	if (pp_repo_read_control(deb, "", &st, err) < 0)
		return -1;
	rc = check_fits(r, s, component, pp_stanza_get(&st, "Architecture"), deb, err);
	source = source_name(&st);
	strbuf_reset(rel);
	pp_repo_pool_path(component, source, pp_stanza_get(&st, "Package"),
			  pp_stanza_get(&st, "Version"),
			  pp_stanza_get(&st, "Architecture"), rel);
	free(source);
	pp_stanza_set(&st, "Filename", rel->buf);
	if (!rc)
		rc = place_in_pool(r, pool, deb, rel->buf, &st, &sb, err);
	if (!rc) {
		set_member(mi, &st, component, rel->buf, s->keep_versions);
		cache_entry(cache, rel->buf, &sb, &st);
	}
	pp_stanza_release(&st);
	return rc;
}

int pp_repo_add(struct pp_repo *r, const char *suite, const char *component,
		const char *const *debs, size_t n, pp_repo_added_fn added,
		pp_repo_dropped_fn dropped, void *ctx, struct pp_err *err)
{
	struct pp_repo_suite *s = pp_repo_find_suite(r, suite, err);
	struct strbuf rel = STRBUF_INIT;
	struct pp_repo_members *ms;
	struct member_index mi;
	struct pp_repo_cache *cache = NULL;
	struct pp_outbatch pool;
	struct pp_err later;
	int rc = 0;

	if (!s || cache_and_members(r, s, &cache, &ms, err) < 0)
		return -1;
	member_index_init(&mi, ms);
	mi.added = added;
	mi.dropped = dropped;
	mi.ctx = ctx;
	pp_outbatch_init(&pool, r->root, !r->no_sync);
	if (!component)
		component = s->components[0];
	for (size_t i = 0; i < n && !rc; i++)
		rc = add_one(r, s, component, debs[i], &mi, cache, &pool, &rel,
			     err);
	/* What was added before a failure stays recorded (its pool files in
	 * place before the list names them; if they cannot be, nothing is
	 * recorded); the first error is the one reported. */
	members_compact(ms);
	pp_err_init(&later);
	if (pp_outbatch_commit(&pool, rc ? &later : err) < 0)
		rc = -1;
	else if (pp_repo_cache_save(r->root, cache, rc ? &later : err) < 0 ||
		 pp_repo_members_save(r, s->suite, ms, rc ? &later : err) < 0)
		rc = -1;
	pp_outbatch_release(&pool);
	pp_err_release(&later);
	member_index_release(&mi);
	strbuf_release(&rel);
	return rc;
}

static int removal_matches(const struct pp_repo_removal *w,
			   const struct pp_repo_member *m)
{
	return !strcmp(m->package, w->package) &&
	       (!w->version || !strcmp(m->version, w->version)) &&
	       (!w->arch || !strcmp(m->arch, w->arch));
}

/* Nothing matches w: says so, with the versions and architectures the
 * package has, if any. */
static int no_match(const struct pp_repo_suite *s,
		    const struct pp_repo_members *ms,
		    const struct pp_repo_removal *w, struct pp_err *err)
{
	struct strbuf has = STRBUF_INIT;
	size_t n = 0;

	for (size_t i = 0; i < ms->nr; i++) {
		if (strcmp(ms->m[i].package, w->package))
			continue;
		if (n++ < 8)
			strbuf_addf(&has, "%s%s %s", n > 1 ? ", " : " (it has ",
				    ms->m[i].version, ms->m[i].arch);
	}
	if (n > 8)
		strbuf_addf(&has, " and %zu more", n - 8);
	if (n)
		strbuf_addch(&has, ')');
	pp_err_set(err, PP_EXIT_FAIL, "suite '%s' has no package '%s'%s%s%s%s%s; "
		   "nothing removed", s->suite, w->package,
		   w->version ? " version " : "", w->version ? w->version : "",
		   w->arch ? " for " : "", w->arch ? w->arch : "", has.buf);
	strbuf_release(&has);
	return -1;
}

int pp_repo_remove(struct pp_repo *r, const char *suite,
		   const struct pp_repo_removal *what, size_t n,
		   pp_repo_dropped_fn removed, void *ctx, struct pp_err *err)
{
	struct pp_repo_suite *s = pp_repo_find_suite(r, suite, err);
	struct pp_repo_members *ms;
	size_t kept = 0;

	if (!s || pp_repo_members_of(r, s, &ms, err) < 0)
		return -1;
	/* every one found before any is taken out: all or nothing */
	for (size_t w = 0; w < n; w++) {
		size_t i = 0;

		while (i < ms->nr && !removal_matches(&what[w], &ms->m[i]))
			i++;
		if (i == ms->nr)
			return no_match(s, ms, &what[w], err);
	}
	for (size_t i = 0; i < ms->nr; i++) {
		size_t w = 0;

		while (w < n && !removal_matches(&what[w], &ms->m[i]))
			w++;
		if (w == n) {
			ms->m[kept++] = ms->m[i];
			continue;
		}
		if (removed)
			removed(ctx, &ms->m[i]);
		pp_repo_member_release(&ms->m[i]);
	}
	ms->nr = kept;
	return pp_repo_members_save(r, s->suite, ms, err);
}
