/* The suites' membership lists (db/<suite>.list): loading, keeping one
 * loaded copy a suite, saving.
 * Layer: below repo.c, repo-stat.c, repo-snapshot.c and repo-publish.c,
 * which read the lists through here; it calls none of them. */
#include "repo.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "repo-internal.h"
#include "sort.h"
#include "xalloc.h"

static void list_path(const struct pp_repo *r, const char *suite,
		      struct strbuf *out)
{
	strbuf_addf(out, "%s/db/%s.list", r->root, suite);
}

static int cmp_member(const void *a, const void *b)
{
	const struct pp_repo_member *x = a, *y = b;
	int c = strcmp(x->package, y->package);

	if (!c)
		c = strcmp(x->arch, y->arch);
	return c ? c : strcmp(x->filename, y->filename);
}

void pp_repo_member_release(struct pp_repo_member *m)
{
	if (m->borrowed)
		return;
	free(m->package);
	free(m->version);
	free(m->arch);
	free(m->component);
	free(m->filename);
}

void pp_repo_members_release(struct pp_repo_members *ms)
{
	for (size_t i = 0; i < ms->nr; i++)
		pp_repo_member_release(&ms->m[i]);
	free(ms->m);
	free(ms->text);
	free(ms->log);
	free(ms->log_strings);
	free(ms->loaded);
	memset(ms, 0, sizeof(*ms));
}

/* The usual line, five words and a blank between each, cut by memchr
 * (a large suite's list is 100,000 lines): 0 when it is one. */
static int split_plain(char *line, size_t len, char *w[5])
{
	char *p = line, *end = line + len, *blank[4];

	if (!len || memchr(line, '\t', len))
		return -1;
	for (size_t n = 0; n < 4; n++) {
		char *sp = memchr(p, ' ', (size_t)(end - p));

		if (!sp || sp == p || sp + 1 == end || sp[1] == ' ')
			return -1;
		w[n] = p;
		blank[n] = sp;
		p = sp + 1;
	}
	if (memchr(p, ' ', (size_t)(end - p)))
		return -1;
	w[4] = p;
	for (size_t n = 0; n < 4; n++) /* the line is one: cut it */
		*blank[n] = '\0';
	*end = '\0';
	return 0;
}

/* One line of db/<suite>.list: "PACKAGE VERSION ARCH COMPONENT FILENAME"
 * (none of them can hold a blank), cut into its five words in place (line
 * is len bytes of the members' text): no allocation for thousands. */
static int member_from_line(char *line, size_t len, const char *file,
			    unsigned no, struct pp_repo_member *m,
			    struct pp_err *err)
{
	char *w[5], *p = line, *end = line + len;
	size_t n = 0;

	/* (split_plain leaves a line it refuses as it was) */
	if (split_plain(line, len, w) == 0) {
		*m = (struct pp_repo_member){ w[0], w[1], w[2], w[3], w[4], 1 };
		return 0;
	}
	while (p < end) {
		while (p < end && (*p == ' ' || *p == '\t'))
			*p++ = '\0';
		if (p == end)
			break;
		if (n == 5) {
			n++;
			break;
		}
		w[n++] = p;
		while (p < end && *p != ' ' && *p != '\t')
			p++;
	}
	*end = '\0';
	if (n != 5)
		return pp_err_set(err, PP_EXIT_INPUT, "%s:%u: not 'PACKAGE VERSION "
				  "ARCH COMPONENT FILENAME'; the repository "
				  "database is damaged", file, no);
	*m = (struct pp_repo_member){ w[0], w[1], w[2], w[3], w[4], 1 };
	return 0;
}

static size_t count_lines(const char *s, size_t len)
{
	size_t n = 0;

	for (const char *p = s; (p = memchr(p, '\n', len - (size_t)(p - s)));
	     p++)
		n++;
	return n + 1;
}

/* The list at path, with room for extra more members (those its log
 * adds: grown one by one, 100,000 members would be copied). */
static int load_path_room(const char *path, size_t extra,
			  struct pp_repo_members *out, struct pp_err *err)
{
	struct strbuf text = STRBUF_INIT;
	unsigned no = 0;
	size_t pos = 0;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (access(path, F_OK) == 0)
		rc = pp_read_file(path, &text, err);
	if (!rc) {
		ARRAY_GROW(out->m, out->alloc,
			   count_lines(text.buf, text.len) + extra + 64);
		xprefault(out->m, out->alloc * sizeof(*out->m));
	}
	while (!rc && pos < text.len) {
		char *eol = memchr(text.buf + pos, '\n', text.len - pos);
		size_t len = eol ? (size_t)(eol - text.buf) - pos : text.len - pos;

		no++;
		rc = member_from_line(text.buf + pos, len, path, no,
				      &out->m[out->nr], err);
		out->nr += !rc;
		pos += len + 1;
		ARRAY_GROW(out->m, out->alloc, out->nr + 1);
	}
	out->text = strbuf_detach(&text, NULL);
	if (rc < 0)
		pp_repo_members_release(out);
	return rc;
}

int pp_repo_members_load_path(const char *path, struct pp_repo_members *out,
			      struct pp_err *err)
{
	return load_path_room(path, 0, out, err);
}

/* ---- db/<suite>.list.log: the changes since the list was written whole */

/* A save writes the changes since the list was last written whole (the
 * log, replaced whole: temporary name, sync, rename) while they are few;
 * past these many, or a sixteenth of the list, the list whole again. */
#define LOG_MIN_OPS 1024

static int same_member(const struct pp_repo_member *a,
		       const struct pp_repo_member *b)
{
	return !cmp_member(a, b) && !strcmp(a->version, b->version) &&
	       !strcmp(a->component, b->component);
}

/* Applying a log: the members, those it dropped marked in dead, and how
 * many of the first are in cmp_member's order (found by a binary
 * search; the others, added by the log, by their file name's hash in
 * rest: a log of thousands of adds looked at each before it would be
 * quadratic). */
struct log_apply {
	struct pp_repo_members *ms;
	char *dead;
	size_t alloc_dead;
	size_t sorted;
	int sorted_known;
	struct pp_hindex rest;
};

struct rest_key {
	const struct log_apply *a;
	const struct pp_repo_member *m;
};

static int rest_eq(const void *ctx, size_t pos)
{
	const struct rest_key *k = ctx;

	return !k->a->dead[pos] && same_member(&k->a->ms->m[pos], k->m);
}

static void rest_add(struct log_apply *a, size_t pos)
{
	pp_hindex_add(&a->rest, pp_hindex_hash(a->ms->m[pos].filename,
					       PP_HINDEX_SEED), pos);
}

/* The live member with m's words, or SIZE_MAX. */
static size_t log_find(struct log_apply *a, const struct pp_repo_member *m)
{
	struct pp_repo_members *ms = a->ms;
	struct rest_key k = { a, m };
	size_t lo = 0, hi, at;

	if (!a->sorted_known) { /* the list as written whole: in order */
		a->sorted = ms->nr ? 1 : 0;
		while (a->sorted < ms->nr &&
		       cmp_member(&ms->m[a->sorted - 1], &ms->m[a->sorted]) <= 0)
			a->sorted++;
		a->sorted_known = 1;
		for (size_t i = a->sorted; i < ms->nr; i++)
			rest_add(a, i);
	}
	hi = a->sorted;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_member(&ms->m[mid], m) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < a->sorted && !cmp_member(&ms->m[lo], m); lo++)
		if (!a->dead[lo] && same_member(&ms->m[lo], m))
			return lo;
	at = pp_hindex_find(&a->rest, pp_hindex_hash(m->filename,
						     PP_HINDEX_SEED), rest_eq, &k);
	return at == PP_HINDEX_NONE ? SIZE_MAX : at;
}

/* One change: added (unless there: a log is applied again after a crash
 * between writing the list whole and removing the log) or dropped. */
static void log_op(struct log_apply *a, int add, const struct pp_repo_member *m)
{
	struct pp_repo_members *ms = a->ms;
	size_t at = log_find(a, m);

	if (!add && at != SIZE_MAX)
		a->dead[at] = 1;
	if (!add || at != SIZE_MAX)
		return;
	ARRAY_GROW(ms->m, ms->alloc, ms->nr + 1);
	ARRAY_GROW(a->dead, a->alloc_dead, ms->nr + 1);
	ms->m[ms->nr] = *m;
	a->dead[ms->nr] = 0;
	rest_add(a, ms->nr++);
}

/* Applies the log text (its lines "+ LINE" or "- LINE", cut in place). */
static int log_apply(struct pp_repo_members *ms, char *text, size_t len,
		     const char *path, struct pp_err *err)
{
	struct log_apply a = { ms, xcalloc(ms->nr + 1, 1), ms->nr + 1, 0, 0,
			       PP_HINDEX_INIT };
	unsigned no = 0;
	size_t pos = 0, kept = 0;
	int rc = 0;

	while (!rc && pos < len) {
		char *eol = memchr(text + pos, '\n', len - pos);
		size_t n = eol ? (size_t)(eol - text) - pos : len - pos;
		char *line = text + pos;
		struct pp_repo_member m;

		no++;
		pos += n + 1;
		if (n < 2 || (line[0] != '+' && line[0] != '-') || line[1] != ' ') {
			rc = pp_err_set(err, PP_EXIT_INPUT, "%s:%u: not '+ LINE' "
					"or '- LINE'; the repository database is "
					"damaged", path, no);
			break;
		}
		rc = member_from_line(line + 2, n - 2, path, no, &m, err);
		if (!rc) {
			log_op(&a, line[0] == '+', &m);
			ms->log_ops++;
		}
	}
	for (size_t i = 0; i < ms->nr; i++)
		if (!a.dead[i])
			ms->m[kept++] = ms->m[i];
	ms->nr = kept;
	free(a.dead);
	pp_hindex_release(&a.rest);
	/* in the order the list written whole would have */
	if (!rc && ms->nr)
		pp_sort_nearly_sorted(ms->m, ms->nr, sizeof(*ms->m), cmp_member);
	return rc;
}

/* The log read (log_path's text in log, if there is one) applied to ms. */
static int log_load(const char *path, struct strbuf *log,
		    struct pp_repo_members *ms, struct pp_err *err)
{
	ms->log_len = log->len;
	ms->log_strings = xstrndup(log->buf, log->len);
	ms->log = strbuf_detach(log, NULL);
	return log_apply(ms, ms->log_strings, ms->log_len, path, err);
}

/* The list at path and its log, as they are: the log read first, so
 * that the list is read with room for the members it adds. */
static int load_with_log(const char *path, struct pp_repo_members *out,
			 struct pp_err *err)
{
	struct strbuf log_path = STRBUF_INIT, log = STRBUF_INIT;
	int has_log, rc = 0;

	strbuf_addf(&log_path, "%s.log", path);
	has_log = access(log_path.buf, F_OK) == 0;
	if (has_log && pp_read_file(log_path.buf, &log, err) < 0) {
		memset(out, 0, sizeof(*out));
		rc = -1;
	}
	if (!rc)
		rc = load_path_room(path, has_log ?
				    count_lines(log.buf, log.len) : 0, out, err);
	out->journaled = !rc && access(path, F_OK) == 0;
	if (!rc && has_log && (rc = log_load(log_path.buf, &log, out, err)) < 0)
		pp_repo_members_release(out);
	strbuf_release(&log_path);
	strbuf_release(&log);
	return rc;
}

static int same_file(const struct stat *a, const struct stat *b)
{
	return a->st_ino == b->st_ino && a->st_dev == b->st_dev &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

int pp_repo_members_load(struct pp_repo *r, const char *suite,
			 struct pp_repo_members *out, struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT;
	struct stat before, after;
	int rc;

	list_path(r, suite, &path);
	/* list and diff read without the lock: a list written whole (then
	 * its log removed) between reading the list and its log would show
	 * the old list without its changes; read both again then. */
	for (int tries = 0;; tries++) {
		int had = stat(path.buf, &before) == 0;

		rc = load_with_log(path.buf, out, err);
		if (rc || !had || tries == 3 || (stat(path.buf, &after) == 0 &&
						  same_file(&before, &after)))
			break;
		pp_repo_members_release(out);
	}
	if (!rc) { /* each member as loaded: what a save compares with */
		out->loaded = xcalloc(out->nr + 1, sizeof(*out->loaded));
		memcpy(out->loaded, out->m, out->nr * sizeof(*out->m));
		out->nr_loaded = out->nr;
	}
	strbuf_release(&path);
	return rc;
}

int pp_repo_members_of(struct pp_repo *r, const struct pp_repo_suite *s,
		       struct pp_repo_members **out, struct pp_err *err)
{
	size_t i = (size_t)(s - r->suites);

	if (!r->members)
		r->members = xcalloc(r->nr_suites, sizeof(*r->members));
	if (!r->members[i]) {
		struct pp_repo_members *ms = xmalloc(sizeof(*ms));

		if (pp_repo_members_load(r, s->suite, ms, err) < 0) {
			free(ms);
			return -1;
		}
		r->members[i] = ms;
	}
	*out = r->members[i];
	return 0;
}

int pp_repo_members_save_path(const char *path, struct pp_repo_members *ms,
			      int sync, struct pp_err *err)
{
	struct pp_filebuf *fb = xmalloc(sizeof(*fb));
	int rc;

	if (ms->nr)
		pp_sort_nearly_sorted(ms->m, ms->nr, sizeof(*ms->m), cmp_member);
	rc = pp_filebuf_open(fb, path, 0644, err);
	fb->of.sync = sync;
	for (size_t i = 0; i < ms->nr && !rc; i++) {
		const struct pp_repo_member *m = &ms->m[i];
		const char *words[] = { m->package, m->version, m->arch,
					m->component, m->filename };

		for (size_t w = 0; w < ARRAY_SIZE(words); w++) {
			pp_filebuf_addstr(fb, words[w]);
			pp_filebuf_add(fb, w + 1 < ARRAY_SIZE(words) ? " " : "\n", 1);
		}
	}
	if (!rc)
		rc = pp_filebuf_commit(fb, err);
	if (!rc && sync)
		rc = pp_fsync_dir_of(path, err);
	free(fb);
	return rc;
}

static void add_op(struct strbuf *out, char op, const struct pp_repo_member *m)
{
	strbuf_addf(out, "%c %s %s %s %s %s\n", op, m->package, m->version,
		    m->arch, m->component, m->filename);
}

static int cmp_ptr(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;

	return x < y ? -1 : x > y;
}

/* Loaded members by their package string's address. */
static int cmp_loaded(const void *a, const void *b)
{
	const struct pp_repo_member *x = a, *y = b;

	return cmp_ptr(&x->package, &y->package);
}

/* Writes a drop for each loaded member that is not among ms's now: each
 * one still there is one of ms's borrowed members. An add or a remove
 * keeps their loaded order; after another change both lists are
 * compared by address. */
static size_t log_drops(struct pp_repo_members *ms, struct strbuf *out)
{
	const char **now = xcalloc(ms->nr + 1, sizeof(*now));
	size_t nr_now = 0, j = 0, ops = 0;

	for (size_t i = 0; i < ms->nr; i++)
		if (ms->m[i].borrowed)
			now[nr_now++] = ms->m[i].package;
	for (size_t i = 0; i < ms->nr_loaded && j < nr_now; i++)
		j += now[j] == ms->loaded[i].package;
	if (j < nr_now) { /* not in the loaded order */
		qsort(now, nr_now, sizeof(*now), cmp_ptr);
		qsort(ms->loaded, ms->nr_loaded, sizeof(*ms->loaded), cmp_loaded);
	}
	j = 0;
	for (size_t i = 0; i < ms->nr_loaded; i++) {
		if (j < nr_now && now[j] == ms->loaded[i].package) {
			j++;
			continue;
		}
		add_op(out, '-', &ms->loaded[i]);
		ops++;
	}
	free(now);
	return ops;
}

/* Members in cmp_member's order (copies of them). */
static struct pp_repo_member *sorted_copy(const struct pp_repo_members *ms)
{
	struct pp_repo_member *c = xcalloc(ms->nr + 1, sizeof(*c));

	memcpy(c, ms->m, ms->nr * sizeof(*c));
	if (ms->nr)
		pp_sort_nearly_sorted(c, ms->nr, sizeof(*c), cmp_member);
	return c;
}

/* The changes from the members cur to those of ms, by their words. */
static size_t diff_words(const struct pp_repo_members *cur,
			 const struct pp_repo_members *ms, struct strbuf *out)
{
	struct pp_repo_member *a = sorted_copy(cur), *b = sorted_copy(ms);
	size_t i = 0, j = 0, ops = 0;

	while (i < cur->nr || j < ms->nr) {
		int c = i == cur->nr ? 1 : j == ms->nr ? -1 :
			cmp_member(&a[i], &b[j]);

		if (!c && same_member(&a[i], &b[j])) {
			i++;
			j++;
			continue;
		}
		if (c <= 0) {
			add_op(out, '-', &a[i++]);
			ops++;
		}
		if (c >= 0) {
			add_op(out, '+', &b[j++]);
			ops++;
		}
	}
	free(a);
	free(b);
	return ops;
}

/* The log that takes the list on disk to ms's members: the log read
 * with the list, then the changes since. Its count of changes. */
static int log_for(struct pp_repo *r, const char *suite,
		   struct pp_repo_members *ms, struct strbuf *log,
		   size_t *ops, struct pp_err *err)
{
	struct pp_repo_members cur;

	if (ms->journaled) { /* loaded from the list and its log */
		strbuf_add(log, ms->log, ms->log_len);
		*ops = log_drops(ms, log);
		for (size_t i = 0; i < ms->nr; i++)
			if (!ms->m[i].borrowed) {
				add_op(log, '+', &ms->m[i]);
				(*ops)++;
			}
		*ops += ms->log_ops;
		return 0;
	}
	/* another set (a snapshot's): compared with the suite's by words */
	if (pp_repo_members_load(r, suite, &cur, err) < 0)
		return -1;
	strbuf_add(log, cur.log, cur.log_len);
	*ops = cur.log_ops + diff_words(&cur, ms, log);
	pp_repo_members_release(&cur);
	return 0;
}

static int write_log(const char *path, const struct strbuf *log, int sync,
		     struct pp_err *err)
{
	int rc = pp_write_file_flags(path, log->buf, log->len, 0644,
				     sync ? PP_SYNC : 0, err);

	return !rc && sync ? pp_fsync_dir_of(path, err) : rc;
}

/* The list written whole, then its log removed. The log, written first,
 * takes the old list to the new members and is a no-op on the new list
 * (each member it names last added or dropped as the new list has it):
 * a crash anywhere leaves the old state or the new one. */
static int save_whole(const char *list, const char *log_path,
		      const struct strbuf *log, struct pp_repo_members *ms,
		      int sync, struct pp_err *err)
{
	int rc = 0;

	if (log->len)
		rc = write_log(log_path, log, sync, err);
	if (!rc)
		rc = pp_repo_members_save_path(list, ms, sync, err);
	if (rc || access(log_path, F_OK) < 0)
		return rc;
	if (unlink(log_path) < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot remove '%s'",
				    log_path);
	return sync ? pp_fsync_dir_of(log_path, err) : 0;
}

int pp_repo_members_save(struct pp_repo *r, const char *suite,
			 struct pp_repo_members *ms, struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT, log_path = STRBUF_INIT;
	struct strbuf log = STRBUF_INIT;
	size_t ops = 0, max = ms->nr / 16 > LOG_MIN_OPS ? ms->nr / 16 :
						     LOG_MIN_OPS;
	int rc = 0, sync = !r->no_sync;

	list_path(r, suite, &path);
	strbuf_addf(&log_path, "%s.log", path.buf);
	/* (a suite's first list, or one with no log: just written whole) */
	if (ms->journaled || access(log_path.buf, F_OK) == 0)
		rc = log_for(r, suite, ms, &log, &ops, err);
	if (!rc && (!ms->journaled || ops > max))
		rc = save_whole(path.buf, log_path.buf, &log, ms, sync, err);
	else if (!rc && log.len != ms->log_len) /* (else nothing changed) */
		rc = write_log(log_path.buf, &log, sync, err);
	strbuf_release(&path);
	strbuf_release(&log_path);
	strbuf_release(&log);
	return rc;
}

