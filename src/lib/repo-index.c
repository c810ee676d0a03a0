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
#include "xalloc.h"

#define STAT_FIELD "X-Padpack-Stat"

void pp_repo_stat_key(const struct stat *st, struct strbuf *out)
{
	strbuf_addf(out, "%lld %lld.%09ld %llu", (long long)st->st_size,
		    (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec,
		    (unsigned long long)st->st_ino);
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

static int hash_file(const char *path, struct pp_stanza *st,
		     struct pp_err *err)
{
	/* What Debian's archive lists: SHA1 and SHA512 would add a third to
	 * the size of a Packages file of small packages and no security. */
	static const enum pp_hash_algo algo[] = { PP_MD5, PP_SHA256 };
	static const char *const name[] = { "MD5sum", "SHA256" };
	char *buf = xmalloc(1 << 17), hex[2 * PP_HASH_MAX + 1], size[32];
	struct pp_hash h[2];
	long long total = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		free(buf);
		return pp_err_errno(err, PP_EXIT_IO, "cannot open '%s'", path);
	}
	for (int i = 0; i < 2; i++)
		pp_hash_init(&h[i], algo[i]);
	while ((n = pp_read_full(fd, buf, 1 << 17)) > 0) {
		for (int i = 0; i < 2; i++)
			pp_hash_update(&h[i], buf, (size_t)n);
		total += n;
	}
	close(fd);
	free(buf);
	snprintf(size, sizeof(size), "%lld", total);
	pp_stanza_set(st, "Size", size);
	for (int i = 0; i < 2; i++) {
		pp_hash_final_hex(&h[i], hex);
		pp_stanza_set(st, name[i], hex);
	}
	return n < 0 ? pp_err_errno(err, PP_EXIT_IO, "cannot read '%s'", path) : 0;
}

int pp_repo_read_deb(const char *path, const char *filename,
		     struct pp_stanza *out, struct pp_err *err)
{
	const struct pp_ctrl_member *control;
	struct pp_ctrl_members cm;
	struct pp_deb deb;
	int rc;

	pp_stanza_init(out);
	if (pp_deb_open(&deb, path, err) < 0)
		return -1;
	rc = pp_deb_read_control(&deb, &cm, err);
	pp_deb_close(&deb);
	if (rc < 0)
		return -1;
	control = pp_ctrl_members_find(&cm, "control");
	if (!control)
		rc = pp_err_set(err, PP_EXIT_INPUT, "'%s' has no control file",
				path);
	else if (pp_control_parse(control->data.buf, control->data.len, path,
				  out, err) < 0 ||
		 pp_control_check_binary(out, path, err) < 0)
		rc = -1;
	pp_ctrl_members_release(&cm);
	if (!rc) {
		pp_stanza_set(out, "Filename", filename);
		rc = hash_file(path, out, err);
	}
	if (rc)
		pp_stanza_release(out);
	else
		order_fields(out);
	return rc;
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
	free(e->filename);
	free(e->stat_key);
	free(e->package);
	free(e->owned);
}

/* The value of a one-line field of stanza text, or NULL. */
static char *field_value(const char *text, size_t len, const char *name)
{
	size_t n = strlen(name);

	for (const char *l = text; l && l < text + len; ) {
		const char *eol = memchr(l, '\n', (size_t)(text + len - l));

		if (!eol)
			break;
		if ((size_t)(eol - l) > n + 1 && !strncmp(l, name, n) &&
		    l[n] == ':' && l[n + 1] == ' ')
			return xstrndup(l + n + 2, (size_t)(eol - l) - n - 2);
		l = eol + 1;
	}
	return NULL;
}

/* One stanza of the cache file: the Packages stanza, then its stat line. */
static int load_entry(struct pp_repo_cache *c, const char *s, size_t len)
{
	static const char stat_line[] = STAT_FIELD ": ";
	const char *last = len > 1 ? memrchr(s, '\n', len - 1) : NULL;
	struct pp_repo_entry e;

	last = last ? last + 1 : s;
	if (strncmp(last, stat_line, sizeof(stat_line) - 1))
		return -1;
	memset(&e, 0, sizeof(e));
	e.filename = field_value(s, len, "Filename");
	e.package = field_value(s, len, "Package");
	e.stat_key = xstrndup(last + sizeof(stat_line) - 1,
			      (size_t)(s + len - last) - sizeof(stat_line));
	if (!e.filename || !e.package) {
		entry_release(&e);
		return -1;
	}
	e.text = s;
	e.text_len = (size_t)(last - s);
	ARRAY_GROW(c->e, c->alloc, c->nr + 1);
	c->e[c->nr++] = e;
	return 0;
}

int pp_repo_cache_load(const char *root, struct pp_repo_cache *c,
		       struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT, *text = &c->file;
	size_t pos = 0;
	int rc = 0;

	memset(c, 0, sizeof(*c));
	strbuf_init(&c->file);
	cache_path(root, &path);
	if (access(path.buf, F_OK) == 0 && pp_read_file(path.buf, text, err) < 0)
		rc = -1;
	while (!rc && pos < text->len) {
		const char *end = memmem(text->buf + pos, text->len - pos, "\n\n", 2);
		size_t len = end ? (size_t)(end - text->buf) + 1 - pos :
			text->len - pos;

		/* An entry that does not parse is dropped: it is rebuilt from
		 * its pool file at the next publish. */
		load_entry(c, text->buf + pos, len);
		pos += len + 1;
	}
	strbuf_release(&path);
	if (rc < 0) {
		pp_repo_cache_release(c);
		return -1;
	}
	if (c->nr)
		qsort(c->e, c->nr, sizeof(*c->e), cmp_entry);
	return 0;
}

int pp_repo_cache_save(const char *root, struct pp_repo_cache *c,
		       struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int rc;

	if (!c->dirty)
		return 0;
	for (size_t i = 0; i < c->nr; i++)
		strbuf_addf(&text, "%s%.*s" STAT_FIELD ": %s\n", i ? "\n" : "",
			    (int)c->e[i].text_len, c->e[i].text,
			    c->e[i].stat_key);
	cache_path(root, &path);
	rc = pp_write_file(path.buf, text.buf, text.len, 0644, err);
	if (!rc)
		c->dirty = 0;
	strbuf_release(&path);
	strbuf_release(&text);
	return rc;
}

void pp_repo_cache_release(struct pp_repo_cache *c)
{
	for (size_t i = 0; i < c->nr; i++)
		entry_release(&c->e[i]);
	free(c->e);
	strbuf_release(&c->file);
	memset(c, 0, sizeof(*c));
	strbuf_init(&c->file);
}

struct pp_repo_entry *pp_repo_cache_find(struct pp_repo_cache *c,
					 const char *filename)
{
	struct pp_repo_entry key = { (char *)filename, NULL, NULL, NULL, 0, NULL };

	if (!c->nr)
		return NULL;
	return bsearch(&key, c->e, c->nr, sizeof(*c->e), cmp_entry);
}

void pp_repo_cache_put(struct pp_repo_cache *c, const char *filename,
		       const char *stat_key, const struct pp_stanza *st)
{
	struct pp_repo_entry *e = pp_repo_cache_find(c, filename);
	size_t at;

	if (e) {
		entry_release(e);
	} else {
		for (at = 0; at < c->nr && strcmp(c->e[at].filename, filename) < 0;
		     at++)
			;
		ARRAY_GROW(c->e, c->alloc, c->nr + 1);
		memmove(&c->e[at + 1], &c->e[at], (c->nr - at) * sizeof(*c->e));
		c->nr++;
		e = &c->e[at];
	}
	e->filename = xstrdup(filename);
	e->stat_key = xstrdup(stat_key);
	e->package = xstrdup(pp_stanza_get(st, "Package"));
	{
		struct strbuf text = STRBUF_INIT;

		pp_stanza_write(st, &text);
		e->owned = strbuf_detach(&text, &e->text_len);
		e->text = e->owned;
	}
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
			entry_release(&c->e[i]);
			c->dirty = 1;
		}
	}
	c->nr = kept;
}

int pp_repo_entry_get(const char *root, int root_fd, struct pp_repo_cache *c,
		      const char *filename, int *was_read,
		      struct pp_repo_entry **out, struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT, key = STRBUF_INIT;
	struct pp_repo_entry *e = pp_repo_cache_find(c, filename);
	struct pp_stanza st;
	struct stat sb;
	int rc = 0;

	*was_read = 0;
	strbuf_addf(&path, "%s/%s", root, filename);
	/* Relative to the root: a large pool is thousands of stats. */
	if (fstatat(root_fd, filename, &sb, 0) < 0) {
		rc = pp_err_errno(err, PP_EXIT_IO, "pool file '%s'", path.buf);
		goto out;
	}
	pp_repo_stat_key(&sb, &key);
	if (e && !strcmp(e->stat_key, key.buf))
		goto out;
	rc = pp_repo_read_deb(path.buf, filename, &st, err);
	if (!rc) {
		pp_repo_cache_put(c, filename, key.buf, &st);
		pp_stanza_release(&st);
		e = pp_repo_cache_find(c, filename);
		*was_read = 1;
	}
out:
	*out = rc ? NULL : e;
	strbuf_release(&path);
	strbuf_release(&key);
	return rc;
}
