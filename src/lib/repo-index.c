/* Packages stanzas of pool files, and the cache that spares re-reading a
 * pool file whose size, mtime and inode have not changed. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "deb.h"
#include "fsutil.h"
#include "hash.h"
#include "repo-internal.h"
#include "sort.h"
#include "xalloc.h"

#define STAT_FIELD "X-Padpack-Stat"

void pp_file_id_of(const struct stat *st, struct pp_file_id *id)
{
	id->size = (long long)st->st_size;
	id->mtime_sec = (long long)st->st_mtim.tv_sec;
	id->mtime_nsec = st->st_mtim.tv_nsec;
	id->ino = (unsigned long long)st->st_ino;
	id->errnum = 0;
}

/* "size mtime-ns inode": 84 bytes at most */
#define STAT_KEY_MAX 96

/* At least width decimal digits of v, zero-padded. */
static char *put_udec(char *p, unsigned long long v, int width)
{
	char d[24];
	int n = 0;

	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v || n < width);
	while (n)
		*p++ = d[--n];
	return p;
}

static char *put_dec(char *p, long long v, int width)
{
	if (v >= 0)
		return put_udec(p, (unsigned long long)v, width);
	*p++ = '-';
	return put_udec(p, 0ULL - (unsigned long long)v, width);
}

/* What snprintf's "%lld %lld.%09ld %llu" gives, made by hand: a publish
 * makes one for every pool file, and snprintf's were a tenth of it. */
static void stat_key_fmt(const struct pp_file_id *id, char *buf)
{
	char *p = put_dec(buf, id->size, 1);

	*p++ = ' ';
	p = put_dec(p, id->mtime_sec, 1);
	*p++ = '.';
	p = put_dec(p, id->mtime_nsec, 9);
	*p++ = ' ';
	p = put_udec(p, id->ino, 1);
	*p = '\0';
}

void pp_repo_stat_key(const struct pp_file_id *id, struct strbuf *out)
{
	char key[STAT_KEY_MAX];

	stat_key_fmt(id, key);
	strbuf_addstr(out, key);
}

/* dpkg-scanpackages' order: a binary package's control fields in dpkg's
 * order, with the index fields after Static-Built-Using. */
static size_t index_rank(const char *name)
{
	static const char *const index_fields[] = {
		"Filename", "Size", "MD5sum", "SHA256",
	};

	for (size_t i = 0; i < ARRAY_SIZE(index_fields); i++)
		if (!strcasecmp(index_fields[i], name))
			return (size_t)pp_field_rank("Static-Built-Using") * 8 + 1 + i;
	return (size_t)pp_field_rank(name) * 8;
}

/* Fields in index order; unknown ones after, in their own order. */
static void order_fields(struct pp_stanza *st)
{
	for (size_t i = 1; i < st->nr; i++) {
		struct pp_field f = st->fields[i];
		size_t r = index_rank(f.name), j = i;

		while (j && index_rank(st->fields[j - 1].name) > r) {
			st->fields[j] = st->fields[j - 1];
			j--;
		}
		st->fields[j] = f;
	}
}

void pp_repo_hashes_init(struct pp_repo_hashes *h)
{
	pp_hash_init(&h->md5, PP_MD5);
	pp_hash_init(&h->sha256, PP_SHA256);
	h->size = 0;
}

void pp_repo_hashes_update(struct pp_repo_hashes *h, const void *buf,
			   size_t n)
{
	pp_hash_update(&h->md5, buf, n);
	pp_hash_update(&h->sha256, buf, n);
	h->size += (long long)n;
}

/* What Debian's archive lists: SHA1 and SHA512 would add a third to the
 * size of a Packages file of small packages and no security. */
void pp_repo_hashes_finish(struct pp_repo_hashes *h, struct pp_stanza *st)
{
	char hex[2 * PP_HASH_MAX + 1], size[32];

	snprintf(size, sizeof(size), "%lld", h->size);
	pp_stanza_set(st, "Size", size);
	pp_hash_final_hex(&h->md5, hex);
	pp_stanza_set(st, "MD5sum", hex);
	pp_hash_final_hex(&h->sha256, hex);
	pp_stanza_set(st, "SHA256", hex);
	order_fields(st);
}

int pp_repo_hash_file(const char *path, struct pp_stanza *st,
		      struct pp_err *err)
{
	char *buf = xmalloc(1 << 17);
	struct pp_repo_hashes h;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		free(buf);
		return pp_err_errno(err, PP_EXIT_IO, "cannot open '%s'", path);
	}
	pp_repo_hashes_init(&h);
	while ((n = pp_read_full(fd, buf, 1 << 17)) > 0)
		pp_repo_hashes_update(&h, buf, (size_t)n);
	close(fd);
	free(buf);
	pp_repo_hashes_finish(&h, st);
	return n < 0 ? pp_err_errno(err, PP_EXIT_IO, "cannot read '%s'", path) : 0;
}

int pp_repo_read_control(const char *path, const char *filename,
			 struct pp_stanza *out, struct pp_err *err)
{
	if (pp_deb_read_fields(path, out, err) < 0 ||
	    pp_control_check_binary(out, path, err) < 0) {
		pp_stanza_release(out);
		return -1;
	}
	pp_stanza_set(out, "Filename", filename);
	return 0;
}

int pp_repo_read_deb(const char *path, const char *filename,
		     struct pp_stanza *out, struct pp_err *err)
{
	if (pp_repo_read_control(path, filename, out, err) < 0)
		return -1;
	if (pp_repo_hash_file(path, out, err) < 0) {
		pp_stanza_release(out);
		return -1;
	}
	return 0;
}

/* ---- the cache (db/cache) ---------------------------------------------- */

static void cache_path(const char *root, struct strbuf *out)
{
	strbuf_addf(out, "%s/db/cache", root);
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct pp_repo_entry *)a)->filename,
		      ((const struct pp_repo_entry *)b)->filename);
}

static void entry_release(struct pp_repo_entry *e)
{
	if (!e->borrowed) {
		free(e->filename);
		free(e->stat_key);
		free(e->package);
	}
	free(e->owned);
}

/* A copy of s (n bytes) in the cache's block of strings, which the file's
 * size bounds: each string is part of a line of its own. */
static char *strings_dup(struct pp_repo_cache *c, const char *s, size_t n)
{
	char *p = c->strings + c->strings_len;

	memcpy(p, s, n);
	p[n] = '\0';
	c->strings_len += n + 1;
	return p;
}

/* The value of a one-line field of stanza text, in the cache's strings,
 * or NULL. */
static char *field_value(struct pp_repo_cache *c, const char *text,
			 size_t len, const char *name)
{
	size_t n = strlen(name);

	for (const char *l = text; l && l < text + len; ) {
		const char *eol = memchr(l, '\n', (size_t)(text + len - l));

		if (!eol)
			break;
		if ((size_t)(eol - l) > n + 1 && !strncmp(l, name, n) &&
		    l[n] == ':' && l[n + 1] == ' ')
			return strings_dup(c, l + n + 2, (size_t)(eol - l) - n - 2);
		l = eol + 1;
	}
	return NULL;
}

static void index_entries(struct pp_repo_cache *c)
{
	pp_hindex_clear(&c->by_name);
	pp_hindex_reserve(&c->by_name, c->nr);
	for (size_t i = 0; i < c->nr; i++)
		pp_hindex_add(&c->by_name,
			      pp_hindex_hash(c->e[i].filename, PP_HINDEX_SEED), i);
}

struct name_key {
	const struct pp_repo_cache *c;
	const char *filename;
};

static int name_eq(const void *ctx, size_t pos)
{
	const struct name_key *k = ctx;

	return !strcmp(k->c->e[pos].filename, k->filename);
}

static size_t find_pos(const struct pp_repo_cache *c, const char *filename)
{
	struct name_key k = { c, filename };

	return pp_hindex_find(&c->by_name,
			      pp_hindex_hash(filename, PP_HINDEX_SEED),
			      name_eq, &k);
}

/* The value of a one-line field of stanza text, in the cache's strings,
 * or NULL; looked for from the last line up: Filename is among a
 * stanza's last lines (index order), and the cache's 100,000 stanzas are
 * scanned at each load. */
static char *field_value_from_end(struct pp_repo_cache *c, const char *text,
				  size_t len, const char *name)
{
	size_t n = strlen(name);
	const char *end = text + len; /* just past a line's newline */

	while (end > text) {
		const char *nl = end - 1 > text ?
			memrchr(text, '\n', (size_t)(end - 1 - text)) : NULL;
		const char *l = nl ? nl + 1 : text;

		if ((size_t)(end - 1 - l) > n + 1 && !strncmp(l, name, n) &&
		    l[n] == ':' && l[n + 1] == ' ')
			return strings_dup(c, l + n + 2,
					   (size_t)(end - 1 - l) - n - 2);
		end = l;
	}
	return NULL;
}

/* What a record that drops a file's entry has for its stat. */
#define DROPPED "-"

/* One record of the cache file: a Packages stanza, then its stat line; or
 * a file's Filename and a stat of DROPPED. A later record of a file
 * replaces its earlier one (a dropped entry is kept, without a package,
 * until the load is done). *max: the greatest filename loaded so far. */
static int load_entry(struct pp_repo_cache *c, const char *s, size_t len,
		      const char **max)
{
	static const char stat_line[] = STAT_FIELD ": ";
	const size_t n = sizeof(stat_line) - 1;
	const char *last = len > 1 ? memrchr(s, '\n', len - 1) : NULL;
	struct pp_repo_entry e;
	size_t at;
	int drop;

	last = last ? last + 1 : s;
	/* the whole stat line, its newline included: the file's last one
	 * may be cut short (and the file is mapped: nothing follows it) */
	if ((size_t)(s + len - last) < n + 1 || s[len - 1] != '\n' ||
	    memcmp(last, stat_line, n))
		return -1;
	memset(&e, 0, sizeof(e));
	e.borrowed = 1;
	e.filename = field_value_from_end(c, s, (size_t)(last - s), "Filename");
	e.stat_key = strings_dup(c, last + n, (size_t)(s + len - last) - n - 1);
	drop = !strcmp(e.stat_key, DROPPED);
	if (!drop)
		e.package = field_value(c, s, len, "Package");
	if (!e.filename || (!drop && !e.package))
		return -1; /* its strings stay in the block, unused */
	e.text = s;
	e.text_len = (size_t)(last - s);
	/* A name greater than any loaded so far cannot be there already, and
	 * most are: a file written whole is sorted, and appends add names
	 * mostly in order too. */
	if (!*max || strcmp(*max, e.filename) < 0) {
		at = PP_HINDEX_NONE;
		*max = e.filename;
	} else {
		at = find_pos(c, e.filename);
	}
	if (at != PP_HINDEX_NONE) {
		c->e[at] = e;
		c->stale += 1 + drop;
		return 0;
	}
	if (drop) {
		c->stale++;
		return 0;
	}
	ARRAY_GROW(c->e, c->alloc, c->nr + 1);
	pp_hindex_add(&c->by_name, pp_hindex_hash(e.filename, PP_HINDEX_SEED),
		      c->nr);
	c->e[c->nr++] = e;
	return 0;
}

/* Takes out the entries a later record dropped. */
static void compact_dropped(struct pp_repo_cache *c)
{
	size_t kept = 0;

	for (size_t i = 0; i < c->nr; i++)
		if (c->e[i].package)
			c->e[kept++] = c->e[i];
	if (kept != c->nr) {
		c->nr = kept;
		index_entries(c);
	}
}

/* About how many records a cache file of len bytes holds (a stanza of
 * Debian's main is 700 bytes or so): a guess, not a count, which would be
 * a pass over the whole file; the arrays grow past it if need be. */
static size_t records_guess(size_t len)
{
	return len / 512;
}

int pp_repo_cache_load(const char *root, struct pp_repo_cache *c,
		       struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT;
	const struct pp_mapped *f = &c->file;
	const char *max = NULL;
	size_t pos = 0, records;

	memset(c, 0, sizeof(*c));
	c->file.data = "";
	cache_path(root, &path);
	if (access(path.buf, F_OK) < 0)
		c->rewrite = 1; /* made whole, under a temporary name */
	else if (pp_map_file(path.buf, &c->file, err) < 0) {
		strbuf_release(&path);
		return -1;
	}
	strbuf_release(&path);
	/* Sized once: arrays and tables grown step by step touch twice the
	 * memory, and each new page is a fault. */
	c->strings = xmalloc(f->len + 1);
	xprefault(c->strings, f->len / 4); /* about what the strings take */
	records = records_guess(f->len);
	ARRAY_GROW(c->e, c->alloc, records + 64);
	xprefault(c->e, c->alloc * sizeof(*c->e));
	pp_hindex_init(&c->by_name);
	pp_hindex_reserve(&c->by_name, records + 64);
	while (pos < f->len) {
		const char *end = pp_stanza_end(f->data + pos, f->len - pos);
		size_t len = end ? (size_t)(end - f->data) + 1 - pos :
			f->len - pos;

		/* An entry that does not parse is dropped: it is rebuilt from
		 * its pool file at the next publish, and the file is written
		 * whole then (an append cut short leaves such a tail). */
		if (load_entry(c, f->data + pos, len, &max) < 0)
			c->rewrite = 1;
		pos += len + 1;
	}
	compact_dropped(c);
	return 0;
}

static void add_record(struct strbuf *out, int *sep, const char *text,
		       size_t len, const char *stat_key)
{
	if (*sep)
		strbuf_addch(out, '\n');
	*sep = 1;
	strbuf_add(out, text, len);
	strbuf_addf(out, "%s: %s\n", STAT_FIELD, stat_key);
}

/* The records of what changed since the load, appended to the file (and
 * synced): drops first, so that a file dropped and added again in one
 * run stays. */
static int cache_append(const char *path, struct pp_repo_cache *c,
			struct pp_err *err)
{
	struct strbuf text = STRBUF_INIT, line = STRBUF_INIT;
	int sep = c->file.len > 0, fd, rc = 0;

	for (size_t i = 0; i < c->nr_dropped; i++) {
		strbuf_reset(&line);
		strbuf_addf(&line, "Filename: %s\n", c->dropped[i]);
		add_record(&text, &sep, line.buf, line.len, DROPPED);
	}
	for (size_t i = 0; i < c->nr; i++)
		if (c->e[i].pending)
			add_record(&text, &sep, c->e[i].text, c->e[i].text_len,
				   c->e[i].stat_key);
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0 || pp_write_all(fd, text.buf, text.len) < 0 ||
	    (c->sync && fsync(fd) < 0))
		rc = pp_err_errno(err, PP_EXIT_IO, "cannot append to '%s'", path);
	if (fd >= 0 && close(fd) < 0 && !rc)
		rc = pp_err_errno(err, PP_EXIT_IO, "cannot write '%s'", path);
	c->stale += c->nr_dropped;
	strbuf_release(&text);
	strbuf_release(&line);
	return rc;
}

static int cache_rewrite(const char *path, struct pp_repo_cache *c,
			 struct pp_err *err)
{
	struct pp_filebuf *fb;
	int rc;

	if (c->nr) { /* sorted, so that the file does not depend on history */
		pp_sort_nearly_sorted(c->e, c->nr, sizeof(*c->e), cmp_entry);
		index_entries(c);
	}
	/* Megabytes of small parts: streamed, not built in memory first
	 * (the entries may point into the file being replaced: its mapping
	 * outlives the rename). Its data is synced before the rename (a
	 * damaged entry could parse); its name is not: the old cache and the
	 * new one are both right, and an add syncs db/ after the list. */
	fb = xmalloc(sizeof(*fb));
	rc = pp_filebuf_open(fb, path, 0644, err);
	fb->of.sync = c->sync;
	for (size_t i = 0; i < c->nr && !rc; i++) {
		if (i)
			pp_filebuf_add(fb, "\n", 1);
		pp_filebuf_add(fb, c->e[i].text, c->e[i].text_len);
		pp_filebuf_addstr(fb, STAT_FIELD ": ");
		pp_filebuf_addstr(fb, c->e[i].stat_key);
		pp_filebuf_add(fb, "\n", 1);
	}
	if (!rc)
		rc = pp_filebuf_commit(fb, err);
	if (!rc) {
		c->stale = 0;
		c->rewrite = 0;
	}
	free(fb);
	return rc;
}

int pp_repo_cache_save(const char *root, struct pp_repo_cache *c,
		       struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT;
	int rc;

	if (!c->dirty)
		return 0;
	cache_path(root, &path);
	/* A few changes into a large cache: appended, not the megabytes of
	 * every entry written again. */
	rc = c->rewrite || c->stale > c->nr ? cache_rewrite(path.buf, c, err) :
		cache_append(path.buf, c, err);
	if (!rc) {
		c->dirty = 0;
		for (size_t i = 0; i < c->nr; i++)
			c->e[i].pending = 0;
		pp_free_words(c->dropped, c->nr_dropped);
		c->dropped = NULL;
		c->nr_dropped = c->alloc_dropped = 0;
	}
	strbuf_release(&path);
	return rc;
}

void pp_repo_cache_release(struct pp_repo_cache *c)
{
	for (size_t i = 0; i < c->nr; i++)
		entry_release(&c->e[i]);
	free(c->e);
	pp_hindex_release(&c->by_name);
	pp_unmap_file(&c->file);
	free(c->strings);
	pp_free_words(c->dropped, c->nr_dropped);
	memset(c, 0, sizeof(*c));
	c->file.data = "";
}

struct pp_repo_entry *pp_repo_cache_find(struct pp_repo_cache *c,
					 const char *filename)
{
	size_t at = find_pos(c, filename);

	return at == PP_HINDEX_NONE ? NULL : &c->e[at];
}

void pp_repo_cache_put(struct pp_repo_cache *c, const char *filename,
		       const char *stat_key, const struct pp_stanza *st)
{
	struct pp_repo_entry *e = pp_repo_cache_find(c, filename);

	if (e) {
		entry_release(e);
	} else {
		ARRAY_GROW(c->e, c->alloc, c->nr + 1);
		pp_hindex_add(&c->by_name,
			      pp_hindex_hash(filename, PP_HINDEX_SEED), c->nr);
		e = &c->e[c->nr++];
	}
	e->borrowed = 0;
	e->filename = xstrdup(filename);
	e->stat_key = xstrdup(stat_key);
	e->package = xstrdup(pp_stanza_get(st, "Package"));
	{
		struct strbuf text = STRBUF_INIT;

		pp_stanza_write(st, &text);
		e->owned = strbuf_detach(&text, &e->text_len);
		e->text = e->owned;
	}
	e->pending = 1;
	e->listed = 0;
	c->dirty = 1;
}

void pp_repo_cache_prune(struct pp_repo_cache *c,
			 int (*keep)(void *ctx, const char *filename),
			 void *ctx)
{
	size_t kept = 0;

	for (size_t i = 0; i < c->nr; i++) {
		if (keep(ctx, c->e[i].filename)) {
			c->e[kept++] = c->e[i];
		} else {
			ARRAY_GROW(c->dropped, c->alloc_dropped,
				   c->nr_dropped + 1);
			c->dropped[c->nr_dropped++] = xstrdup(c->e[i].filename);
			entry_release(&c->e[i]);
			c->dirty = 1;
		}
	}
	if (kept != c->nr) {
		c->nr = kept;
		index_entries(c);
	}
}

int pp_repo_entry_fresh(const struct pp_repo_entry *e,
			const struct pp_file_id *id)
{
	char key[STAT_KEY_MAX];

	if (id->errnum)
		return 0;
	stat_key_fmt(id, key);
	return !strcmp(e->stat_key, key);
}

int pp_repo_entry_get(const char *root, struct pp_repo_cache *c,
		      const char *filename, const struct pp_file_id *id,
		      int *was_read, struct pp_repo_entry **out,
		      struct pp_err *err)
{
	struct pp_repo_entry *e = pp_repo_cache_find(c, filename);
	struct strbuf path = STRBUF_INIT;
	char key[STAT_KEY_MAX];
	struct pp_stanza st;
	int rc = 0;

	*was_read = 0;
	*out = e;
	/* Called for every pool file of a publish: nothing allocated
	 * unless the file changed. */
	if (!id->errnum) {
		stat_key_fmt(id, key);
		if (e && !strcmp(e->stat_key, key))
			return 0;
	}
	strbuf_addf(&path, "%s/%s", root, filename);
	if (id->errnum) {
		rc = pp_err_set(err, PP_EXIT_IO, "cannot stat pool file '%s' "
				"(%s), which a suite lists: put it back, or drop "
				"its package with 'padpack repo remove'",
				path.buf, strerror(id->errnum));
	} else if (!(rc = pp_repo_read_deb(path.buf, filename, &st, err))) {
		pp_repo_cache_put(c, filename, key, &st);
		pp_stanza_release(&st);
		*was_read = 1;
	}
	*out = rc ? NULL : pp_repo_cache_find(c, filename);
	strbuf_release(&path);
	return rc;
}
