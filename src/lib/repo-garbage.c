/* The repository's garbage: pool files no suite or snapshot holds,
 * removed after a publish.
 * Layer: below repo-publish.c; above repo-members.c, repo-snapshot.c and
 * repo-index.c; it calls nothing that calls it. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compress.h"
#include "fsutil.h"
#include "hash.h"
#include "progress.h"
#include "repo-internal.h"
#include "sort.h"
#include "tree.h"
#include "zpieces.h"
#include "thread.h"
#include "xalloc.h"

struct referenced {
	const char **names; /* the members' own, kept by the repository */
	size_t nr, alloc;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int is_referenced(void *ctx, const char *filename)
{
	struct referenced *ref = ctx;

	return ref->nr && bsearch(&filename, ref->names, ref->nr,
				  sizeof(*ref->names), cmp_str) != NULL;
}

static void add_refs(struct referenced *ref, const struct pp_repo_members *ms)
{
	for (size_t j = 0; j < ms->nr; j++) {
		ARRAY_GROW(ref->names, ref->alloc, ref->nr + 1);
		ref->names[ref->nr++] = ms->m[j].filename;
	}
}

static void sort_refs(struct referenced *ref)
{
	if (ref->nr)
		pp_sort_nearly_sorted(ref->names, ref->nr, sizeof(*ref->names),
				      cmp_str);
}

/* Whether a pool file the cache knows is held by no suite: only then are
 * the snapshots read (a publish that drops nothing never reads them). */
static int any_dropped(const struct pp_repo_cache *c, struct referenced *ref)
{
	for (size_t i = 0; i < c->nr; i++)
		if (!is_referenced(ref, c->e[i].filename))
			return 1;
	return 0;
}

/* The pool files suites and snapshots hold: 0, or 1 when the cache knows
 * none that no suite holds (nothing to drop, the snapshots left unread). */
static int collect_referenced(struct pp_repo *r, const struct pp_repo_cache *c,
			      int full, struct referenced *ref,
			      struct pp_err *err)
{
	for (size_t i = 0; i < r->nr_suites; i++) {
		struct pp_repo_members *ms;

		if (pp_repo_members_of(r, &r->suites[i], &ms, err) < 0)
			return -1;
		add_refs(ref, ms);
	}
	sort_refs(ref);
	if (!full && !any_dropped(c, ref))
		return 1;
	if (pp_repo_snapshots_of(r, err) < 0)
		return -1;
	for (size_t i = 0; i < r->nr_snapshots; i++)
		add_refs(ref, &r->snapshots[i]);
	sort_refs(ref);
	return 0;
}

/* Unlinks the pool files the cache knew that no suite holds any more
 * (a publish that is not --full: every added file went through the
 * cache). Runs after every suite was swapped in: nothing served names
 * them. */
static int remove_dropped(struct pp_repo *r, const struct pp_repo_cache *c,
			  struct referenced *ref, struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT;
	int rc = 0;

	for (size_t i = 0; i < c->nr && !rc; i++) {
		if (is_referenced(ref, c->e[i].filename))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", r->root, c->e[i].filename);
		if (unlinkat(r->root_fd, c->e[i].filename, 0) < 0 && errno != ENOENT)
			rc = pp_err_errno(err, PP_EXIT_IO, "cannot remove '%s'",
					  path.buf);
	}
	strbuf_release(&path);
	return rc;
}

/* With --full: every file under pool/ that no suite holds. */
static int remove_garbage(struct pp_repo *r, struct referenced *ref,
			  struct pp_err *err)
{
	struct strbuf pool = STRBUF_INIT, path = STRBUF_INIT, rel = STRBUF_INIT;
	struct pp_tree t;
	int rc;

	strbuf_addf(&pool, "%s/pool", r->root);
	rc = pp_tree_walk(pool.buf, NULL, &t, err);
	for (size_t i = 0; i < t.nr && !rc; i++) {
		strbuf_reset(&rel);
		strbuf_addf(&rel, "pool/%s", t.e[i].path);
		if (!S_ISREG(t.e[i].st.st_mode) || is_referenced(ref, rel.buf))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", r->root, rel.buf);
		if (unlink(path.buf) < 0)
			rc = pp_err_errno(err, PP_EXIT_IO, "cannot remove '%s'",
					  path.buf);
	}
	if (!rc)
		pp_tree_release(&t);
	strbuf_release(&pool);
	strbuf_release(&path);
	strbuf_release(&rel);
	return rc;
}

/* Whether every pool file the cache knows is listed by an index this
 * publish made (as after most publishes): then no suite dropped one, and
 * the suites' names need not be sorted and looked up to know it. */
static int all_listed(const struct pp_repo_cache *c)
{
	for (size_t i = 0; i < c->nr; i++)
		if (!c->e[i].listed)
			return 0;
	return 1;
}

/* Drops the pool files no suite or snapshot holds (all of them after a
 * full publish, else those the cache saw dropped), then the cache's
 * records of them, and saves the cache. */
int pp_repo_drop_garbage(struct pp_repo *r, struct pp_repo_cache *cache,
			 int full, struct pp_err *err)
{
	struct referenced ref = { NULL, 0, 0 };
	int rc;

	rc = !full && all_listed(cache) ? 1 :
		collect_referenced(r, cache, full, &ref, err);
	if (!rc) /* something to drop (two more passes over the cache) */
		rc = full ? remove_garbage(r, &ref, err) :
			remove_dropped(r, cache, &ref, err);
	if (!rc)
		pp_repo_cache_prune(cache, is_referenced, &ref);
	if (rc >= 0)
		rc = pp_repo_cache_save(r->root, cache, err);
	free(ref.names);
	return rc;
}
