/* Snapshots: a suite's exact package set frozen under a name (its members
 * list, copied: names, versions and pool files, never the files), served
 * later by any suite, and compared with suites or other snapshots. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "repo-internal.h"
#include "sort.h"
#include "version.h"
#include "xalloc.h"

static void snapshot_dir(const struct pp_repo *r, struct strbuf *out)
{
	strbuf_addf(out, "%s/db/snapshots", r->root);
}

static void snapshot_path(const struct pp_repo *r, const char *name,
			  struct strbuf *out)
{
	snapshot_dir(r, out);
	strbuf_addf(out, "/%s.list", name);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The snapshots' names, sorted. */
static size_t snapshot_names(const struct pp_repo *r, char ***out)
{
	struct strbuf dir = STRBUF_INIT;
	struct dirent *de;
	size_t nr = 0, alloc = 0;
	DIR *d;

	*out = NULL;
	snapshot_dir(r, &dir);
	d = opendir(dir.buf);
	strbuf_release(&dir);
	while (d && (de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (de->d_name[0] == '.' || len < 6 ||
		    strcmp(de->d_name + len - 5, ".list"))
			continue;
		ARRAY_GROW(*out, alloc, nr + 1);
		(*out)[nr++] = xstrndup(de->d_name, len - 5);
	}
	if (d)
		closedir(d);
	if (nr)
		qsort(*out, nr, sizeof(**out), cmp_str);
	return nr;
}

static int no_snapshot(const struct pp_repo *r, const char *name,
		       struct pp_err *err)
{
	struct strbuf known = STRBUF_INIT;
	char **names;
	size_t n = snapshot_names(r, &names);

	for (size_t i = 0; i < n; i++)
		strbuf_addf(&known, "%s%s", i ? ", " : ": ", names[i]);
	pp_err_set(err, PP_EXIT_USAGE, "no snapshot '%s' in %s (it has%s%s); "
		   "make one with 'padpack repo snapshot %s %s --suite S'",
		   name, r->root, n ? "" : " none", n ? known.buf : "", r->root,
		   name);
	pp_free_words(names, n);
	strbuf_release(&known);
	return -1;
}

int pp_repo_snapshot_load(struct pp_repo *r, const char *name,
			  struct pp_repo_members *out, struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT;
	int rc;

	if (pp_repo_check_name("snapshot", name, err) < 0)
		return -1;
	snapshot_path(r, name, &path);
	rc = access(path.buf, F_OK) < 0 ? no_snapshot(r, name, err) :
		pp_repo_members_load_path(path.buf, out, err);
	strbuf_release(&path);
	return rc;
}

static const struct pp_repo_suite *suite_named(const struct pp_repo *r,
					       const char *name)
{
	for (size_t i = 0; i < r->nr_suites; i++)
		if (!strcmp(r->suites[i].suite, name) ||
		    !strcmp(r->suites[i].codename, name))
			return &r->suites[i];
	return NULL;
}

int pp_repo_snapshot(struct pp_repo *r, const char *suite, const char *name,
		     size_t *nr_packages, struct pp_err *err)
{
	struct pp_repo_suite *s = pp_repo_find_suite(r, suite, err);
	struct strbuf path = STRBUF_INIT;
	struct pp_repo_members *ms;
	int rc = 0;

	if (!s || pp_repo_check_name("snapshot", name, err) < 0 ||
	    pp_repo_members_of(r, s, &ms, err) < 0)
		return -1;
	if (suite_named(r, name))
		return pp_err_set(err, PP_EXIT_USAGE, "a suite is named '%s': "
				  "give the snapshot another name", name);
	snapshot_path(r, name, &path);
	if (access(path.buf, F_OK) == 0)
		rc = pp_err_set(err, PP_EXIT_USAGE, "snapshot '%s' exists and "
				"never changes: give the new one another name",
				name);
	if (!rc) {
		char *dir = pp_dirname(path.buf);

		rc = pp_mkdir_p(dir, 0755, err);
		free(dir);
	}
	if (!rc)
		rc = pp_repo_members_save_path(path.buf, ms, !r->no_sync, err);
	*nr_packages = ms->nr;
	strbuf_release(&path);
	return rc;
}

int pp_repo_snapshots_of(struct pp_repo *r, struct pp_err *err)
{
	char **names;
	size_t n, alloc = 0;
	int rc = 0;

	if (r->snapshots_read)
		return 0;
	n = snapshot_names(r, &names);
	for (size_t i = 0; i < n && !rc; i++) {
		ARRAY_GROW(r->snapshots, alloc, r->nr_snapshots + 1);
		rc = pp_repo_snapshot_load(r, names[i],
					   &r->snapshots[r->nr_snapshots], err);
		r->nr_snapshots += !rc;
	}
	pp_free_words(names, n);
	r->snapshots_read = !rc;
	return rc;
}

/* Each member fits the suite: its component and architecture are the
 * suite's. */
static int check_fit(const struct pp_repo_suite *s, const char *name,
		     const struct pp_repo_members *ms, struct pp_err *err)
{
	for (size_t i = 0; i < ms->nr; i++) {
		const struct pp_repo_member *m = &ms->m[i];

		if (!pp_repo_has_word(s->components, s->nr_components,
				      m->component) ||
		    (strcmp(m->arch, "all") &&
		     !pp_repo_has_word(s->archs, s->nr_archs, m->arch)))
			return pp_err_set(err, PP_EXIT_INPUT, "snapshot '%s' "
					  "holds %s %s (%s, component %s), which "
					  "suite '%s' cannot serve: add the "
					  "architecture or component with "
					  "'padpack repo init --suite %s'", name,
					  m->package, m->version, m->arch,
					  m->component, s->suite, s->suite);
	}
	return 0;
}

int pp_repo_use_snapshot(struct pp_repo *r, const char *suite,
			 const char *name, struct pp_err *err)
{
	struct pp_repo_suite *s = pp_repo_find_suite(r, suite, err);
	struct pp_repo_members *ms, *cur;
	size_t i;

	if (!s || pp_repo_members_of(r, s, &cur, err) < 0)
		return -1;
	ms = xcalloc(1, sizeof(*ms));
	if (pp_repo_snapshot_load(r, name, ms, err) < 0 ||
	    check_fit(s, name, ms, err) < 0 ||
	    pp_repo_members_save(r, s->suite, ms, err) < 0) {
		pp_repo_members_release(ms);
		free(ms);
		return -1;
	}
	i = (size_t)(s - r->suites);
	pp_repo_members_release(r->members[i]);
	free(r->members[i]);
	r->members[i] = ms;
	return 0;
}

/* ---- diff ------------------------------------------------------------- */

/* The members of a suite, or else of a snapshot (owned is set then). */
static int side(struct pp_repo *r, const char *name,
		struct pp_repo_members **out, int *owned, struct pp_err *err)
{
	const struct pp_repo_suite *s = suite_named(r, name);

	*owned = !s;
	if (s)
		return pp_repo_members_of(r, s, out, err);
	*out = xcalloc(1, sizeof(**out));
	if (pp_repo_snapshot_load(r, name, *out, err) < 0) {
		pp_err_prefix(err, "neither a suite nor a snapshot: ");
		free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

/* A package and architecture with its newest version. */
struct newest {
	const char *package, *arch, *version;
};

static int cmp_key(const struct newest *a, const struct newest *b)
{
	int c = strcmp(a->package, b->package);

	return c ? c : strcmp(a->arch, b->arch);
}

static int cmp_newest(const void *a, const void *b)
{
	return cmp_key(a, b);
}

static int version_cmp(const char *a, const char *b)
{
	struct pp_version va, vb;
	struct pp_err ignored;
	int c;

	pp_err_init(&ignored);
	if (pp_version_parse(&va, a, &ignored) < 0) {
		pp_err_release(&ignored);
		return strcmp(a, b);
	}
	if (pp_version_parse(&vb, b, &ignored) < 0) {
		pp_version_release(&va);
		pp_err_release(&ignored);
		return strcmp(a, b);
	}
	c = pp_version_cmp(&va, &vb);
	pp_version_release(&va);
	pp_version_release(&vb);
	pp_err_release(&ignored);
	return c;
}

/* One entry per package and architecture, its newest version, sorted. */
static size_t newest_of(const struct pp_repo_members *ms, struct newest **out)
{
	struct newest *n = xcalloc(ms->nr + 1, sizeof(*n));
	size_t nr = 0;

	for (size_t i = 0; i < ms->nr; i++)
		n[i] = (struct newest){ ms->m[i].package, ms->m[i].arch,
					ms->m[i].version };
	if (ms->nr)
		qsort(n, ms->nr, sizeof(*n), cmp_newest);
	for (size_t i = 0; i < ms->nr; i++) {
		if (nr && !cmp_key(&n[nr - 1], &n[i])) {
			if (version_cmp(n[i].version, n[nr - 1].version) > 0)
				n[nr - 1].version = n[i].version;
			continue;
		}
		n[nr++] = n[i];
	}
	*out = n;
	return nr;
}

static void compare(const struct newest *a, size_t na, const struct newest *b,
		    size_t nb, pp_repo_diff_fn fn, void *ctx)
{
	size_t i = 0, j = 0;

	while (i < na || j < nb) {
		int c = i == na ? 1 : j == nb ? -1 : cmp_key(&a[i], &b[j]);

		if (c < 0) {
			fn(ctx, PP_REPO_REMOVED, a[i].package, a[i].arch,
			   a[i].version, NULL);
			i++;
		} else if (c > 0) {
			fn(ctx, PP_REPO_ADDED, b[j].package, b[j].arch, NULL,
			   b[j].version);
			j++;
		} else {
			int v = version_cmp(a[i].version, b[j].version);

			if (v)
				fn(ctx, v < 0 ? PP_REPO_UPGRADED :
				   PP_REPO_DOWNGRADED, a[i].package, a[i].arch,
				   a[i].version, b[j].version);
			i++;
			j++;
		}
	}
}

int pp_repo_diff(struct pp_repo *r, const char *a, const char *b,
		 pp_repo_diff_fn fn, void *ctx, struct pp_err *err)
{
	struct pp_repo_members *ma = NULL, *mb = NULL;
	struct newest *na = NULL, *nb = NULL;
	int owned_a = 0, owned_b = 0, rc;
	size_t nra, nrb;

	rc = side(r, a, &ma, &owned_a, err);
	if (!rc)
		rc = side(r, b, &mb, &owned_b, err);
	if (!rc) {
		nra = newest_of(ma, &na);
		nrb = newest_of(mb, &nb);
		compare(na, nra, nb, nrb, fn, ctx);
	}
	free(na);
	free(nb);
	if (owned_a && ma) {
		pp_repo_members_release(ma);
		free(ma);
	}
	if (owned_b && mb) {
		pp_repo_members_release(mb);
		free(mb);
	}
	return rc;
}
