/* Packages stanzas of pool files, and the cache that spares re-reading a
 * pool file whose size, mtime and inode have not changed. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
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
#include "zpieces.h"

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

/* db/cache's size and mtime, in key (STAT_KEY_MAX bytes): "" if none.
 * Not its inode: a copy of db/ made with its times (cp -a, rsync -a) is
 * as padpack left it, pieces included. */
static void cache_stat_key(const char *path, char *key)
{
	struct pp_file_id id;
	struct stat st;

	key[0] = '\0';
	if (stat(path, &st) == 0) {
		pp_file_id_of(&st, &id);
		id.ino = 0;
		stat_key_fmt(&id, key);
	}
}

/* db/zcache/.stamp: db/cache's size and mtime when the pieces beside it
 * were last known to be of its text. In the piece cache, which a publish
 * checks as it reads it (and a name with a dot, which its pruning keeps). */
static void stamp_path(const char *root, struct strbuf *out)
{
	strbuf_addf(out, "%s/db/zcache/.stamp", root);
}

/* Whether the stamp holds db/cache's (path) size and mtime. */
static int stamp_matches(const char *root, const char *path)
{
	struct strbuf stamp = STRBUF_INIT, text = STRBUF_INIT;
	char key[STAT_KEY_MAX];
	struct pp_err err;
	int same = 0;

	pp_err_init(&err);
	stamp_path(root, &stamp);
	cache_stat_key(path, key);
	if (key[0] && pp_read_file(stamp.buf, &text, &err) == 0)
		same = text.len == strlen(key) + 1 &&
		       !memcmp(text.buf, key, text.len - 1);
	pp_err_release(&err);
	strbuf_release(&stamp);
	strbuf_release(&text);
	return same;
}

/* Records db/cache's (path) stat as padpack leaves it. Not synced: a
 * stamp lost or older than the cache (which is synced before) only costs
 * a publish that checks every piece. */
static int stamp_write(const char *root, const char *path, struct pp_err *err)
{
	struct strbuf stamp = STRBUF_INIT;
	char key[STAT_KEY_MAX + 1];
	char *dir;
	int rc;

	stamp_path(root, &stamp);
	cache_stat_key(path, key);
	strcat(key, "\n");
	dir = pp_dirname(stamp.buf);
	rc = pp_mkdir_p(dir, 0755, err);
	if (!rc)
		rc = pp_write_file(stamp.buf, key, strlen(key), 0644, err);
	free(dir);
	strbuf_release(&stamp);
	return rc;
}

/* Packages' order: by package, then by pool file. */
static int cmp_key(const char *package_a, const char *file_a,
		   const char *package_b, const char *file_b)
{
	int c = strcmp(package_a, package_b);

	return c ? c : strcmp(file_a, file_b);
}

static int cmp_entry(const void *a, const void *b)
{
	const struct pp_repo_entry *x = a, *y = b;

	return cmp_key(x->package, x->filename, y->package, y->filename);
}

static void entry_release(struct pp_repo_entry *e)
{
	if (!e->borrowed) {
		free(e->filename);
		free(e->stat_key);
		free(e->package);
		free((char *)e->text); /* pp_repo_cache_put's */
	}
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

static void index_entries(struct pp_repo_cache *c)
{
	pp_hindex_clear(&c->by_name);
	pp_hindex_reserve(&c->by_name, c->nr);
	for (size_t i = 0; i < c->nr; i++)
		pp_hindex_add(&c->by_name,
			      pp_hindex_hash(c->e[i].filename, PP_HINDEX_SEED), i);
	c->indexed = 1;
}

/* The entries moved or taken out: positions are found again (the table
 * made again when next needed). */
static void entries_moved(struct pp_repo_cache *c, size_t sorted_nr)
{
	pp_hindex_clear(&c->by_name);
	c->indexed = 0;
	c->sorted_nr = sorted_nr;
	c->next = 0;
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

/* Past this many entries out of order, a lookup that next missed uses
 * the table of names rather than looking at each of them. */
#define UNSORTED_SCAN_MAX 64

/* The position of package's filename in e[0, n), which is in order, or
 * PP_HINDEX_NONE. */
static size_t search_sorted(const struct pp_repo_entry *e, size_t n,
			    const char *package, const char *filename)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_key(e[mid].package, e[mid].filename, package,
				filename);

		if (!c)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return PP_HINDEX_NONE;
}

/* Where filename's entry is: first where the last lookup ended (a
 * publish looks names up in the cache's order), then, given the package,
 * by a binary search of the entries in order and a look at the few
 * others; else in the table of names (made now if need be). */
static size_t find_pos(struct pp_repo_cache *c, const char *package,
		       const char *filename)
{
	struct name_key k = { c, filename };
	size_t at = c->next;

	if (at < c->nr && !strcmp(c->e[at].filename, filename))
		goto found;
	if (!c->indexed && package &&
	    c->nr - c->sorted_nr <= UNSORTED_SCAN_MAX) {
		at = search_sorted(c->e, c->sorted_nr, package, filename);
		for (size_t i = c->sorted_nr; at == PP_HINDEX_NONE && i < c->nr;
		     i++)
			if (!strcmp(c->e[i].filename, filename))
				at = i;
	} else {
		if (!c->indexed)
			index_entries(c);
		at = pp_hindex_find(&c->by_name,
				    pp_hindex_hash(filename, PP_HINDEX_SEED),
				    name_eq, &k);
	}
	if (at == PP_HINDEX_NONE)
		return at;
found:
	c->next = at + 1;
	return at;
}

/* Where a record of the file is, found in one pass over its lines (each
 * looked at by its first bytes: a load reads 100,000 of them): its last
 * line (the stat line), its first Package value and its last Filename
 * value (NULL: none). */
struct record_lines {
	const char *last;
	const char *package, *filename;
	size_t package_len, filename_len;
	size_t first_len; /* the first line's, without its newline */
	unsigned first_hash;
};

/* The length of the record at s (avail bytes left in the file): up to
 * and with the newline before the blank line that ends it, or to the end
 * of the file (as pp_stanza_end cuts stanzas). */
static size_t scan_record(const char *s, size_t avail, struct record_lines *r)
{
	const char *p = s, *end = s + avail;

	memset(r, 0, sizeof(*r));
	r->last = s;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		if (p == s) { /* while it is in the CPU's cache */
			r->first_len = n;
			r->first_hash = pp_zpieces_line_hash(p, n);
		}
		if (p[0] == 'P' && !r->package && n >= 9 &&
		    !memcmp(p, "Package: ", 9)) {
			r->package = p + 9;
			r->package_len = n - 9;
		} else if (p[0] == 'F' && n >= 10 &&
			   !memcmp(p, "Filename: ", 10)) {
			r->filename = p + 10;
			r->filename_len = n - 10;
		}
		r->last = p;
		if (!nl || nl + 1 == end)
			break;
		if (nl[1] == '\n')
			return (size_t)(nl - s) + 1;
		p = nl + 1;
	}
	return avail;
}

/* What a record that drops a file's entry has for its stat. */
#define DROPPED "-"

/* A record of the file out of Packages' order (appended since it was
 * written whole), kept aside until the load is done. */
/* Past this many records out of order (and a quarter of them all), the
 * file is written whole again at the next save. */
#define LATE_REWRITE_MIN 1024

struct late_record {
	struct pp_repo_entry e; /* text NULL: a later record replaced it */
	size_t before;          /* the records in order that precede it */
	int drop;
};

/* A load in progress: the records in order go to e (in order, so
 * that a later record of one of them is found by a binary search), the
 * others to late. In both, an entry a later record replaced or dropped
 * has its text set to NULL until the load is done. */
struct cache_load {
	struct pp_repo_cache *c;
	struct late_record *late;
	size_t nr_late, alloc_late;
	struct pp_hindex late_by_name; /* the late records not replaced */
};

/* One record of the cache file: a Packages stanza, then its stat line; or
 * a file's Package and Filename and a stat of DROPPED (or its Filename
 * alone, as padpack 0.x wrote it). A later record of a file replaces its
 * earlier one. Most records are in order, as the file was written whole
 * (a record in order cannot replace an earlier one); the others are
 * resolved at the end (resolve_late). */
static int load_entry(struct cache_load *ld, const char *s, size_t len,
		      const struct record_lines *rl)
{
	static const char stat_line[] = STAT_FIELD ": ";
	const size_t n = sizeof(stat_line) - 1;
	const char *last = rl->last;
	struct pp_repo_cache *c = ld->c;
	const struct pp_repo_entry *max = c->nr ? &c->e[c->nr - 1] : NULL;
	struct pp_repo_entry e;
	int drop, in_order;

	/* the whole stat line, its newline included: the file's last one
	 * may be cut short (and the file is mapped: nothing follows it) */
	if ((size_t)(s + len - last) < n + 1 || s[len - 1] != '\n' ||
	    memcmp(last, stat_line, n) || !rl->filename)
		return -1;
	memset(&e, 0, sizeof(e));
	e.borrowed = 1;
	e.filename = strings_dup(c, rl->filename, rl->filename_len);
	e.stat_key = strings_dup(c, last + n, (size_t)(s + len - last) - n - 1);
	drop = !strcmp(e.stat_key, DROPPED);
	e.package = rl->package ? strings_dup(c, rl->package, rl->package_len) :
		NULL;
	if (!drop && !e.package)
		return -1; /* its strings stay in the block, unused */
	e.text = s;
	e.text_len = (size_t)(last - s);
	/* (as the cut would take it: the line is whole in the text) */
	e.has_cut_hash = rl->first_len < e.text_len;
	e.cut_hash = rl->first_hash;
	in_order = e.package && (!max || cmp_entry(max, &e) < 0);
	if (in_order && drop) { /* of nothing before it */
		c->stale++;
	} else if (in_order) {
		ARRAY_GROW(c->e, c->alloc, c->nr + 1);
		c->e[c->nr++] = e;
	} else {
		ARRAY_GROW(ld->late, ld->alloc_late, ld->nr_late + 1);
		ld->late[ld->nr_late++] = (struct late_record){ e, c->nr, drop };
	}
	return 0;
}

struct late_key {
	const struct cache_load *ld;
	const char *filename;
};

static int late_eq(const void *ctx, size_t pos)
{
	const struct late_key *k = ctx;
	const struct pp_repo_entry *e = &k->ld->late[pos].e;

	return e->text && !strcmp(e->filename, k->filename);
}

/* The entry a late record replaces, if any: an earlier late one, else
 * one of the records in order before it (found by a binary search, or
 * for a drop record without a Package by a look at each, once: the file
 * is then written whole at the next save). */
static struct pp_repo_entry *replaced_by(struct cache_load *ld,
					 const struct late_record *r)
{
	struct pp_repo_cache *c = ld->c;
	struct late_key k = { ld, r->e.filename };
	size_t at = pp_hindex_find(&ld->late_by_name,
				   pp_hindex_hash(r->e.filename, PP_HINDEX_SEED),
				   late_eq, &k);

	if (at != PP_HINDEX_NONE)
		return &ld->late[at].e;
	if (r->e.package) {
		at = search_sorted(c->e, r->before, r->e.package, r->e.filename);
	} else {
		c->rewrite = 1;
		for (size_t i = 0; i < r->before && at == PP_HINDEX_NONE; i++)
			if (!strcmp(c->e[i].filename, r->e.filename))
				at = i;
	}
	return at != PP_HINDEX_NONE && c->e[at].text ? &c->e[at] : NULL;
}

/* The late records applied in the file's order, then the entries left
 * put together: those in order first, then the late ones. */
static void resolve_late(struct cache_load *ld)
{
	struct pp_repo_cache *c = ld->c;
	size_t kept = 0;

	pp_hindex_init(&ld->late_by_name);
	for (size_t i = 0; i < ld->nr_late; i++) {
		struct late_record *r = &ld->late[i];
		struct pp_repo_entry *old = replaced_by(ld, r);

		if (old) {
			old->text = NULL;
			c->stale++;
		}
		if (r->drop) {
			r->e.text = NULL;
			c->stale++;
		} else {
			pp_hindex_add(&ld->late_by_name,
				      pp_hindex_hash(r->e.filename, PP_HINDEX_SEED),
				      i);
		}
	}
	for (size_t i = 0; i < c->nr; i++)
		if (c->e[i].text)
			c->e[kept++] = c->e[i];
	c->nr = kept;
	for (size_t i = 0; i < ld->nr_late; i++)
		if (ld->late[i].e.text) {
			ARRAY_GROW(c->e, c->alloc, c->nr + 1);
			c->e[c->nr++] = ld->late[i].e;
		}
	entries_moved(c, kept);
	pp_hindex_release(&ld->late_by_name);
	/* mostly out of order (sorted by file name, as an earlier padpack
	 * wrote it, or many appends): written whole at the next save */
	if (ld->nr_late > LATE_REWRITE_MIN && ld->nr_late > c->nr / 4)
		c->rewrite = 1;
}

/* About how many records a cache file of len bytes holds (a stanza of
 * Debian's main is 700 bytes or so, its record 740 with its stat line):
 * a guess, not a count, which would be a pass over the whole file; the
 * arrays grow past it if need be. Pages prefaulted and not used cost as
 * much as used ones: 1/512 of the file was 45% too many at 100,000. */
static size_t records_guess(size_t len)
{
	return len / 640;
}

/* ---- db/cache's index (db/zcache/.cacheidx) ---------------------------- */

/* The entries of db/cache as its last whole write left them, ready to
 * map: a load of 100,000 reads 4 MB of them and maps their strings
 * rather than scanning 70 MB of text and copying 12 MB. It covers
 * db/cache's first covered bytes; its header holds db/cache's size and
 * mtime as padpack last left it (each append records them): with any
 * other, the index is not used and db/cache is read as text. The records
 * appended after the covered part are read as text. In the piece cache,
 * as the stamp is (a name with a dot, which its pruning keeps). */
#define CACHEIDX_MAGIC "PPCIDX1"

struct cacheidx_stat {
	uint64_t size;
	int64_t mtime_sec, mtime_nsec;
};

struct cacheidx_head {
	char magic[8];
	uint64_t covered;
	struct cacheidx_stat st; /* db/cache's when padpack last wrote it */
	uint64_t nr, strings_len;
};

/* An entry: its text in db/cache, its strings in the index's block */
struct cacheidx_rec {
	uint64_t text_off;
	uint32_t text_len, filename, stat_key, package, cut_hash;
	uint32_t has_cut_hash;
};

static void cacheidx_path(const char *root, struct strbuf *out)
{
	strbuf_addf(out, "%s/db/zcache/.cacheidx", root);
}

/* db/cache's (path) size and mtime; -1: no stat */
static int cacheidx_stat(const char *path, struct cacheidx_stat *out)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -1;
	memset(out, 0, sizeof(*out));
	out->size = (uint64_t)st.st_size;
	out->mtime_sec = (int64_t)st.st_mtim.tv_sec;
	out->mtime_nsec = (int64_t)st.st_mtim.tv_nsec;
	return 0;
}

/* The hash of text's first line that zpieces' cut needs, as a load
 * takes it: 0 if the line is the whole text. */
static int first_line_hash(const char *text, size_t len, uint32_t *hash)
{
	const char *nl = memchr(text, '\n', len);
	size_t n = nl ? (size_t)(nl - text) : len;

	*hash = pp_zpieces_line_hash(text, n);
	return n < len;
}

static uint32_t cacheidx_str(struct strbuf *strings, const char *s)
{
	uint32_t at = (uint32_t)strings->len;

	strbuf_add(strings, s, strlen(s) + 1);
	return at;
}

/* The index of db/cache (path) as cache_rewrite just wrote it from c's
 * entries. Best effort: without it a load reads the text. */
static void cacheidx_write(const char *root, const char *path,
			   struct pp_repo_cache *c)
{
	struct strbuf idx = STRBUF_INIT, recs = STRBUF_INIT,
		      strings = STRBUF_INIT;
	struct cacheidx_head h;
	uint64_t off = 0;
	struct pp_err err;
	char *dir;

	pp_err_init(&err);
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, CACHEIDX_MAGIC, sizeof(h.magic));
	cacheidx_path(root, &idx);
	c->idx_live = 0;
	for (size_t i = 0; i < c->nr; i++) {
		const struct pp_repo_entry *e = &c->e[i];
		struct cacheidx_rec r;

		memset(&r, 0, sizeof(r));
		off += i > 0; /* the blank line before it */
		r.text_off = off;
		r.text_len = (uint32_t)e->text_len;
		r.filename = cacheidx_str(&strings, e->filename);
		r.stat_key = cacheidx_str(&strings, e->stat_key);
		r.package = cacheidx_str(&strings, e->package);
		r.cut_hash = e->cut_hash;
		r.has_cut_hash = e->has_cut_hash;
		if (!e->has_cut_hash) /* as a load would take it */
			r.has_cut_hash = first_line_hash(e->text, e->text_len,
							 &r.cut_hash);
		strbuf_add(&recs, &r, sizeof(r));
		off += e->text_len + strlen(STAT_FIELD ": ") +
		       strlen(e->stat_key) + 1;
		if (e->text_len > UINT32_MAX || strings.len > UINT32_MAX)
			goto out;
	}
	h.covered = off;
	h.nr = c->nr;
	h.strings_len = strings.len;
	if (cacheidx_stat(path, &h.st) < 0 || h.st.size != off)
		goto out;
	strbuf_add(&recs, strings.buf, strings.len);
	strbuf_reset(&strings);
	strbuf_add(&strings, &h, sizeof(h));
	strbuf_add(&strings, recs.buf, recs.len);
	dir = pp_dirname(idx.buf);
	if (!pp_mkdir_p(dir, 0755, &err) &&
	    !pp_write_file_flags(idx.buf, strings.buf, strings.len, 0644,
				 c->sync ? PP_SYNC : 0, &err))
		c->idx_live = 1;
	free(dir);
out:
	if (!c->idx_live)
		unlink(idx.buf);
	pp_err_release(&err);
	strbuf_release(&idx);
	strbuf_release(&recs);
	strbuf_release(&strings);
}

/* After an append to db/cache (path): its new stat in the index. Not
 * synced: an index left with the stat before only costs a load of the
 * text. */
static void cacheidx_appended(const char *root, const char *path,
			      struct pp_repo_cache *c)
{
	struct strbuf idx = STRBUF_INIT;
	struct cacheidx_stat st;
	int fd;

	cacheidx_path(root, &idx);
	fd = open(idx.buf, O_WRONLY | O_CLOEXEC);
	c->idx_live = fd >= 0 && cacheidx_stat(path, &st) == 0 &&
		pwrite(fd, &st, sizeof(st),
		       offsetof(struct cacheidx_head, st)) ==
			(ssize_t)sizeof(st);
	if (fd >= 0)
		close(fd);
	if (!c->idx_live)
		unlink(idx.buf);
	strbuf_release(&idx);
}

/* The entries of db/cache's (path, mapped in c->file) covered part from
 * its index, if it is of db/cache as it is now and sound: *pos then
 * where the records appended after it start. 0 if not used. */
static int cacheidx_load(const char *root, const char *path,
			 struct pp_repo_cache *c, size_t *pos)
{
	const struct pp_mapped *f = &c->file;
	struct strbuf idx = STRBUF_INIT;
	struct cacheidx_head h;
	struct cacheidx_stat now;
	const struct cacheidx_rec *r;
	const char *strings;
	struct pp_err err;
	size_t tail;

	pp_err_init(&err);
	cacheidx_path(root, &idx);
	if (access(idx.buf, F_OK) < 0 ||
	    pp_map_file(idx.buf, &c->idx, &err) < 0)
		goto not_used;
	if (c->idx.len < sizeof(h))
		goto not_used;
	memcpy(&h, c->idx.data, sizeof(h));
	if (memcmp(h.magic, CACHEIDX_MAGIC, sizeof(h.magic)) ||
	    cacheidx_stat(path, &now) < 0 || memcmp(&now, &h.st, sizeof(now)) ||
	    h.st.size != f->len || h.covered > f->len ||
	    h.nr > c->idx.len / sizeof(*r) || !h.strings_len ||
	    c->idx.len != sizeof(h) + h.nr * sizeof(*r) + h.strings_len)
		goto not_used;
	/* where a load of the text would go on: past the blank line */
	if (h.covered < f->len && f->data[h.covered] != '\n')
		goto not_used;
	r = (const void *)(c->idx.data + sizeof(h));
	strings = c->idx.data + sizeof(h) + h.nr * sizeof(*r);
	if (strings[h.strings_len - 1] != '\0')
		goto not_used;
	tail = f->len - h.covered;
	ARRAY_GROW(c->e, c->alloc, h.nr + records_guess(tail) + 64);
	xprefault(c->e, c->alloc * sizeof(*c->e));
	for (size_t i = 0; i < h.nr; i++) {
		struct pp_repo_entry *e = &c->e[i];

		if (r[i].text_off > h.covered ||
		    r[i].text_len > h.covered - r[i].text_off ||
		    r[i].filename >= h.strings_len ||
		    r[i].stat_key >= h.strings_len ||
		    r[i].package >= h.strings_len)
			goto damaged;
		memset(e, 0, sizeof(*e));
		e->borrowed = 1;
		e->filename = (char *)strings + r[i].filename;
		e->stat_key = (char *)strings + r[i].stat_key;
		e->package = (char *)strings + r[i].package;
		e->text = f->data + r[i].text_off;
		e->text_len = r[i].text_len;
		e->cut_hash = r[i].cut_hash;
		e->has_cut_hash = !!r[i].has_cut_hash;
		/* in order, as a load finds a whole file's records */
		if (i && cmp_entry(&c->e[i - 1], e) >= 0)
			goto damaged;
	}
	c->nr = h.nr;
	*pos = h.covered < f->len ? h.covered + 1 : h.covered;
	c->idx_live = 1;
	strbuf_release(&idx);
	pp_err_release(&err);
	return 1;
damaged:
	c->nr = 0;
not_used:
	pp_unmap_file(&c->idx);
	c->idx.data = "";
	strbuf_release(&idx);
	pp_err_release(&err);
	return 0;
}


int pp_repo_cache_load(const char *root, struct pp_repo_cache *c,
		       struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT;
	const struct pp_mapped *f = &c->file;
	struct cache_load ld = { c, NULL, 0, 0, PP_HINDEX_INIT };
	size_t pos = 0;
	int indexed = 0;

	memset(c, 0, sizeof(*c));
	c->file.data = "";
	c->idx.data = "";
	cache_path(root, &path);
	if (access(path.buf, F_OK) < 0) {
		c->rewrite = 1; /* made whole, under a temporary name */
		c->trusted = 1; /* its entries all read from pool files */
	} else if (pp_map_file(path.buf, &c->file, err) < 0) {
		strbuf_release(&path);
		return -1;
	} else {
		c->trusted = stamp_matches(root, path.buf);
		indexed = cacheidx_load(root, path.buf, c, &pos);
	}
	strbuf_release(&path);
	/* Sized once: arrays grown step by step touch twice the memory, and
	 * each new page is a fault. */
	c->strings = xmalloc(f->len - pos + 1);
	/* about what the strings take: a sixth of the file at 100,000
	 * packages shaped like Debian's (more is faulted in as it is used) */
	xprefault(c->strings, (f->len - pos) / 6);
	if (!indexed) {
		ARRAY_GROW(c->e, c->alloc, records_guess(f->len) + 64);
		xprefault(c->e, c->alloc * sizeof(*c->e));
	}
	pp_hindex_init(&c->by_name);
	while (pos < f->len) {
		struct record_lines rl;
		size_t len = scan_record(f->data + pos, f->len - pos, &rl);

		/* An entry that does not parse is dropped: it is rebuilt from
		 * its pool file at the next publish, and the file is written
		 * whole then (an append cut short leaves such a tail). */
		if (load_entry(&ld, f->data + pos, len, &rl) < 0)
			c->rewrite = 1;
		pos += len + 1;
	}
	resolve_late(&ld);
	free(ld.late);
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
static int cache_append(const char *root, const char *path,
			struct pp_repo_cache *c, struct pp_err *err)
{
	struct strbuf text = STRBUF_INIT;
	int sep = c->file.len > 0, fd, rc = 0;

	for (size_t i = 0; i < c->nr_dropped; i++)
		add_record(&text, &sep, c->dropped[i], strlen(c->dropped[i]),
			   DROPPED);
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
	if (!rc && c->idx_live)
		cacheidx_appended(root, path, c);
	strbuf_release(&text);
	return rc;
}

static int cache_rewrite(const char *root, const char *path,
			 struct pp_repo_cache *c, struct pp_err *err)
{
	struct pp_filebuf *fb;
	int rc;

	/* In Packages' order: the file does not depend on history, and a
	 * publish finds its index's entries one after the other. */
	if (c->nr) {
		pp_sort_nearly_sorted(c->e, c->nr, sizeof(*c->e), cmp_entry);
		entries_moved(c, c->nr);
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
		cacheidx_write(root, path, c);
	}
	free(fb);
	return rc;
}

int pp_repo_cache_save(const char *root, struct pp_repo_cache *c,
		       struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT;
	int rc = 0;

	if (!c->dirty && (c->trusted || !c->checked))
		return 0;
	cache_path(root, &path);
	/* A few changes into a large cache: appended, not the megabytes of
	 * every entry written again. */
	if (c->dirty)
		rc = c->rewrite || c->stale > c->nr ?
			cache_rewrite(root, path.buf, c, err) :
			cache_append(root, path.buf, c, err);
	if (!rc && (c->trusted || c->checked)) {
		rc = stamp_write(root, path.buf, err);
		c->trusted = !rc;
	}
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
	pp_unmap_file(&c->idx);
	free(c->strings);
	pp_free_words(c->dropped, c->nr_dropped);
	memset(c, 0, sizeof(*c));
	c->file.data = "";
	c->idx.data = "";
}

struct pp_repo_entry *pp_repo_cache_find(struct pp_repo_cache *c,
					 const char *filename)
{
	size_t at = find_pos(c, NULL, filename);

	return at == PP_HINDEX_NONE ? NULL : &c->e[at];
}

struct pp_repo_entry *pp_repo_cache_find_pkg(struct pp_repo_cache *c,
					     const char *package,
					     const char *filename)
{
	size_t at = find_pos(c, package, filename);

	return at == PP_HINDEX_NONE ? NULL : &c->e[at];
}

void pp_repo_cache_put(struct pp_repo_cache *c, const char *filename,
		       const char *stat_key, const struct pp_stanza *st)
{
	const char *package = pp_stanza_get(st, "Package");
	size_t at = find_pos(c, package, filename);
	struct pp_repo_entry *e;

	if (at != PP_HINDEX_NONE) {
		e = &c->e[at];
		/* the same file of another package (a cache edited by hand):
		 * the entries after it are no longer known to be in order */
		if (at < c->sorted_nr && strcmp(e->package, package))
			entries_moved(c, at);
		entry_release(e);
	} else {
		ARRAY_GROW(c->e, c->alloc, c->nr + 1);
		if (c->indexed)
			pp_hindex_add(&c->by_name,
				      pp_hindex_hash(filename, PP_HINDEX_SEED),
				      c->nr);
		e = &c->e[c->nr++];
	}
	e->borrowed = 0;
	e->has_cut_hash = 0;
	e->filename = xstrdup(filename);
	e->stat_key = xstrdup(stat_key);
	e->package = xstrdup(package);
	{
		struct strbuf text = STRBUF_INIT;

		pp_stanza_write(st, &text);
		e->text = strbuf_detach(&text, &e->text_len);
	}
	e->pending = 1;
	e->listed = 0;
	c->dirty = 1;
}

void pp_repo_cache_prune(struct pp_repo_cache *c,
			 int (*keep)(void *ctx, const char *filename),
			 void *ctx)
{
	struct strbuf record = STRBUF_INIT;
	size_t kept = 0, sorted_kept = 0;

	for (size_t i = 0; i < c->nr; i++) {
		if (keep(ctx, c->e[i].filename)) {
			sorted_kept += i < c->sorted_nr;
			c->e[kept++] = c->e[i];
			continue;
		}
		/* its package too: a load finds what it drops in order */
		strbuf_reset(&record);
		strbuf_addf(&record, "Package: %s\nFilename: %s\n",
			    c->e[i].package, c->e[i].filename);
		ARRAY_GROW(c->dropped, c->alloc_dropped, c->nr_dropped + 1);
		c->dropped[c->nr_dropped++] = strbuf_detach(&record, NULL);
		entry_release(&c->e[i]);
		c->dirty = 1;
	}
	if (kept != c->nr) {
		c->nr = kept;
		entries_moved(c, sorted_kept);
	}
	strbuf_release(&record);
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
