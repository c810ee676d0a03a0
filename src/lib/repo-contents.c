/* Contents indices (<component>/Contents-<arch>.gz): every file of the
 * suite's packages with the packages that ship it, one a line, sorted by
 * path ("usr/bin/paddle    devel/paddle,devel/paddle-noavx"), as Debian's
 * archive has them and apt-file reads them.
 *
 * Incremental: db/contents keeps each pool file's list of files, keyed by
 * its path and the stat key of its cache entry, so a publish lists only
 * the data archives of pool files added or changed. One entry a block:
 *   FILENAME STAT-KEY-WITH-BLANKS-AS-IS
 *   path
 *   ...
 *   (a blank line) */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "deb.h"
#include "repo-internal.h"
#include "xalloc.h"

struct contents_entry {
	char *filename, *stat_key;
	char **paths;
	size_t nr_paths;
	int used; /* listed by this publish: kept when saved */
};

struct pp_repo_contents {
	struct contents_entry *e;
	size_t nr, alloc;
	struct pp_hindex by_name;
	int dirty;
};

static int entry_eq(const void *ctx, size_t pos)
{
	const void *const *k = ctx;
	const struct pp_repo_contents *c = k[0];

	return !strcmp(c->e[pos].filename, k[1]);
}

static struct contents_entry *find(struct pp_repo_contents *c,
				   const char *filename)
{
	const void *k[] = { c, filename };
	size_t at = pp_hindex_find(&c->by_name,
				   pp_hindex_hash(filename, PP_HINDEX_SEED),
				   entry_eq, k);

	return at == PP_HINDEX_NONE ? NULL : &c->e[at];
}

static struct contents_entry *add_entry(struct pp_repo_contents *c,
					const char *filename,
					const char *stat_key)
{
	struct contents_entry *e;

	ARRAY_GROW(c->e, c->alloc, c->nr + 1);
	pp_hindex_add(&c->by_name, pp_hindex_hash(filename, PP_HINDEX_SEED),
		      c->nr);
	e = &c->e[c->nr++];
	memset(e, 0, sizeof(*e));
	e->filename = xstrdup(filename);
	e->stat_key = xstrdup(stat_key);
	return e;
}

static void add_path(struct contents_entry *e, const char *path, size_t *alloc)
{
	ARRAY_GROW(e->paths, *alloc, e->nr_paths + 1);
	e->paths[e->nr_paths++] = xstrdup(path);
}

static void entry_release(struct contents_entry *e)
{
	pp_free_words(e->paths, e->nr_paths);
	free(e->filename);
	free(e->stat_key);
}

/* Reads db/contents; one that cannot be read or parsed is as good as
 * none (every list is made again from the pool). */
static void load(const char *root, struct pp_repo_contents *c)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct contents_entry *e = NULL;
	struct pp_err ignored;
	size_t alloc = 0;

	pp_err_init(&ignored);
	strbuf_addf(&path, "%s/db/contents", root);
	if (access(path.buf, F_OK) == 0 &&
	    pp_read_file(path.buf, &text, &ignored) == 0) {
		for (char *line = text.buf, *eol; *line; line = eol) {
			eol = strchr(line, '\n');
			if (!eol)
				break; /* cut short: the last entry is dropped */
			*eol++ = '\0';
			if (!*line) {
				e = NULL;
			} else if (e) {
				add_path(e, line, &alloc);
			} else {
				char *blank = strchr(line, ' ');

				if (!blank || find(c, line))
					break;
				*blank = '\0';
				e = add_entry(c, line, blank + 1);
				alloc = 0;
			}
		}
	}
	pp_err_release(&ignored);
	strbuf_release(&path);
	strbuf_release(&text);
}

struct pp_repo_contents *pp_repo_contents_open(const char *root)
{
	struct pp_repo_contents *c = xcalloc(1, sizeof(*c));

	pp_hindex_init(&c->by_name);
	load(root, c);
	return c;
}

/* Writes db/contents with the entries this publish used. */
int pp_repo_contents_close(const char *root, struct pp_repo_contents *c,
			   int save, int sync, struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT;
	struct pp_filebuf *fb = NULL;
	size_t kept = 0;
	int rc = 0;

	for (size_t i = 0; i < c->nr; i++)
		kept += c->e[i].used;
	if (save && (c->dirty || kept != c->nr)) {
		fb = xmalloc(sizeof(*fb));
		strbuf_addf(&path, "%s/db/contents", root);
		rc = pp_filebuf_open(fb, path.buf, 0644, err);
		fb->of.sync = sync;
		for (size_t i = 0; i < c->nr && !rc; i++) {
			const struct contents_entry *e = &c->e[i];

			if (!e->used)
				continue;
			pp_filebuf_addstr(fb, e->filename);
			pp_filebuf_add(fb, " ", 1);
			pp_filebuf_addstr(fb, e->stat_key);
			pp_filebuf_add(fb, "\n", 1);
			for (size_t p = 0; p < e->nr_paths; p++) {
				pp_filebuf_addstr(fb, e->paths[p]);
				pp_filebuf_add(fb, "\n", 1);
			}
			pp_filebuf_add(fb, "\n", 1);
		}
		if (!rc)
			rc = pp_filebuf_commit(fb, err);
		if (!rc && sync)
			rc = pp_fsync_dir_of(path.buf, err);
	}
	free(fb);
	strbuf_release(&path);
	for (size_t i = 0; i < c->nr; i++)
		entry_release(&c->e[i]);
	free(c->e);
	pp_hindex_release(&c->by_name);
	free(c);
	return rc;
}

struct listing {
	struct contents_entry *e;
	size_t alloc;
};

/* Files, links and the like; directories are not listed (as in Debian's
 * Contents). A newline in a name would break the format: such a file is
 * left out. */
static int list_entry(const struct pp_tar_entry *te, void *ctx,
		      struct pp_err *err)
{
	struct listing *l = ctx;
	const char *p = te->path;

	(void)err;
	while (*p == '.' && p[1] == '/')
		p += 2;
	while (*p == '/')
		p++;
	if (!*p || S_ISDIR(te->mode) || strchr(p, '\n'))
		return 0;
	add_path(l->e, p, &l->alloc);
	return 0;
}

/* The entry of a pool file, its data archive listed again when it is new
 * or changed. */
static int entry_of(const char *root, struct pp_repo_contents *c,
		    const struct pp_repo_entry *ce, struct contents_entry **out,
		    struct pp_err *err)
{
	struct contents_entry *e = find(c, ce->filename);
	struct strbuf path = STRBUF_INIT;
	struct listing l = { NULL, 0 };
	struct pp_deb deb;
	int rc;

	if (e && !strcmp(e->stat_key, ce->stat_key)) {
		*out = e;
		return 0;
	}
	if (!e)
		e = add_entry(c, ce->filename, ce->stat_key);
	pp_free_words(e->paths, e->nr_paths);
	e->paths = NULL;
	e->nr_paths = 0;
	free(e->stat_key);
	e->stat_key = xstrdup(ce->stat_key);
	c->dirty = 1;
	l.e = e;
	strbuf_addf(&path, "%s/%s", root, ce->filename);
	rc = pp_deb_open(&deb, path.buf, err);
	if (!rc) {
		rc = pp_deb_list(&deb, &deb.data, list_entry, &l, err);
		pp_deb_close(&deb);
	}
	if (rc < 0)
		pp_err_prefix(err, "%s: ", path.buf);
	strbuf_release(&path);
	*out = e;
	return rc;
}

/* "section/package", or "package" without a Section, from the stanza. */
static char *location(const struct pp_repo_entry *ce)
{
	const char *t = ce->text, *end = t + ce->text_len, *s = NULL;

	for (const char *line = t; line < end;) {
		const char *eol = memchr(line, '\n', (size_t)(end - line));

		if (!eol)
			eol = end;
		if (eol - line > 9 && !strncmp(line, "Section: ", 9)) {
			struct strbuf loc = STRBUF_INIT;

			s = line + 9;
			strbuf_addf(&loc, "%.*s/%s", (int)(eol - s), s,
				    ce->package);
			return strbuf_detach(&loc, NULL);
		}
		line = eol + 1;
	}
	return xstrdup(ce->package);
}

struct contents_line {
	const char *path;
	size_t loc; /* index into the locations */
};

static int cmp_line(const void *a, const void *b)
{
	const struct contents_line *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	return c ? c : (x->loc > y->loc) - (x->loc < y->loc);
}

/* Whether l[j]'s location is one of l[from, j)'s: several versions of a
 * package (or its "all" and its own architecture's) ship the same path,
 * and a line names each package once, as Debian's do. */
static int named_before(const struct contents_line *l, size_t from, size_t j,
			char **locs)
{
	for (size_t k = from; k < j; k++)
		if (!strcmp(locs[l[k].loc], locs[l[j].loc]))
			return 1;
	return 0;
}

static void format(const struct contents_line *l, size_t n, char **locs,
		   struct strbuf *out)
{
	for (size_t i = 0; i < n;) {
		size_t len = strlen(l[i].path), j = i;

		strbuf_addstr(out, l[i].path);
		/* the locations in a column, as Debian's files have them */
		do
			strbuf_addch(out, ' ');
		while (++len < 56);
		for (; j < n && !strcmp(l[j].path, l[i].path); j++)
			if (!named_before(l, i, j, locs))
				strbuf_addf(out, "%s%s", j > i ? "," : "",
					    locs[l[j].loc]);
		strbuf_addch(out, '\n');
		i = j;
	}
}

int pp_repo_contents_text(const char *root, struct pp_repo_contents *c,
			  struct pp_repo_cache *cache, char *const *names,
			  size_t n, struct strbuf *out, struct pp_err *err)
{
	struct contents_line *lines = NULL;
	size_t nr = 0, alloc = 0;
	char **locs = xcalloc(n + 1, sizeof(*locs));
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		struct pp_repo_entry *ce = pp_repo_cache_find(cache, names[i]);
		struct contents_entry *e;

		if (!ce)
			continue; /* refresh_entries made every one */
		locs[i] = location(ce);
		rc = entry_of(root, c, ce, &e, err);
		e->used = 1;
		ARRAY_GROW(lines, alloc, nr + e->nr_paths + 1);
		for (size_t p = 0; p < e->nr_paths && !rc; p++)
			lines[nr++] = (struct contents_line){ e->paths[p], i };
	}
	if (!rc && nr) {
		qsort(lines, nr, sizeof(*lines), cmp_line);
		format(lines, nr, locs, out);
	}
	for (size_t i = 0; i < n; i++)
		free(locs[i]);
	free(locs);
	free(lines);
	return rc;
}
