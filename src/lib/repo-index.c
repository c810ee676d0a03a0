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

/* dpkg-scanpackages' order, with SHA512 after SHA256 as apt-ftparchive. */
static const char *const index_order[] = {
	"Package", "Package-Type", "Source", "Version", "Kernel-Version",
	"Built-For-Profiles", "Auto-Built-Package", "Architecture",
	"Subarchitecture", "Installer-Menu-Item", "Build-Essential",
	"Essential", "Protected", "Origin", "Bugs", "Maintainer",
	"Installed-Size", "Pre-Depends", "Depends", "Recommends", "Suggests",
	"Enhances", "Conflicts", "Breaks", "Replaces", "Provides",
	"Built-Using", "Static-Built-Using", "Filename", "Size", "MD5sum",
	"SHA1", "SHA256", "SHA512", "Section", "Priority", "Multi-Arch",
	"Homepage", "Description", "Tag", "Task",
};

static size_t index_rank(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(index_order); i++)
		if (!strcasecmp(index_order[i], name))
			return i;
	return ARRAY_SIZE(index_order);
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
	static const enum pp_hash_algo algo[] = {
		PP_MD5, PP_SHA1, PP_SHA256, PP_SHA512,
	};
	static const char *const name[] = { "MD5sum", "SHA1", "SHA256", "SHA512" };
	char *buf = xmalloc(1 << 17), hex[2 * PP_HASH_MAX + 1], size[32];
	struct pp_hash h[4];
	long long total = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		free(buf);
		return pp_err_errno(err, PP_EXIT_IO, "cannot open '%s'", path);
	}
	for (int i = 0; i < 4; i++)
		pp_hash_init(&h[i], algo[i]);
	while ((n = pp_read_full(fd, buf, 1 << 17)) > 0) {
		for (int i = 0; i < 4; i++)
			pp_hash_update(&h[i], buf, (size_t)n);
		total += n;
	}
	close(fd);
	free(buf);
	snprintf(size, sizeof(size), "%lld", total);
	pp_stanza_set(st, "Size", size);
	for (int i = 0; i < 4; i++) {
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

void pp_repo_write_packages_stanza(const struct pp_stanza *st,
				   struct strbuf *out)
{
	for (size_t i = 0; i < st->nr; i++) {
		const char *v = st->fields[i].value;

		if (!strcasecmp(st->fields[i].name, STAT_FIELD))
			continue;
		strbuf_addf(out, "%s:%s%s\n", st->fields[i].name,
			    (*v && *v != '\n') ? " " : "", v);
	}
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
	pp_stanza_release(&e->st);
}

int pp_repo_cache_load(const char *root, struct pp_repo_cache *c,
		       struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct pp_deb822 p;
	struct pp_stanza st;
	int rc = 0;

	memset(c, 0, sizeof(*c));
	cache_path(root, &path);
	if (access(path.buf, F_OK) == 0 && pp_read_file(path.buf, &text, err) < 0)
		rc = -1;
	pp_deb822_init(&p, text.buf, text.len, path.buf);
	while (rc == 0 && (rc = pp_deb822_next(&p, &st, err)) > 0) {
		const char *fn = pp_stanza_get(&st, "Filename");
		const char *key = pp_stanza_get(&st, STAT_FIELD);

		if (!fn || !key) { /* not ours: drop it, it will be rebuilt */
			pp_stanza_release(&st);
			rc = 0;
			continue;
		}
		ARRAY_GROW(c->e, c->alloc, c->nr + 1);
		c->e[c->nr].filename = xstrdup(fn);
		c->e[c->nr].stat_key = xstrdup(key);
		c->e[c->nr++].st = st;
		rc = 0;
	}
	strbuf_release(&path);
	strbuf_release(&text);
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
	for (size_t i = 0; i < c->nr; i++) {
		if (i)
			strbuf_addch(&text, '\n');
		pp_stanza_write(&c->e[i].st, &text);
	}
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
	memset(c, 0, sizeof(*c));
}

struct pp_repo_entry *pp_repo_cache_find(struct pp_repo_cache *c,
					 const char *filename)
{
	struct pp_repo_entry key = { (char *)filename, NULL, { 0 } };

	if (!c->nr)
		return NULL;
	return bsearch(&key, c->e, c->nr, sizeof(*c->e), cmp_entry);
}

void pp_repo_cache_put(struct pp_repo_cache *c, const char *filename,
		       const char *stat_key, struct pp_stanza *st)
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
	e->st = *st;
	pp_stanza_init(st); /* moved */
	pp_stanza_set(&e->st, STAT_FIELD, stat_key);
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

int pp_repo_entry_get(const char *root, struct pp_repo_cache *c,
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
	if (stat(path.buf, &sb) < 0) {
		rc = pp_err_errno(err, PP_EXIT_IO, "pool file '%s'", path.buf);
		goto out;
	}
	pp_repo_stat_key(&sb, &key);
	if (e && !strcmp(e->stat_key, key.buf))
		goto out;
	rc = pp_repo_read_deb(path.buf, filename, &st, err);
	if (!rc) {
		pp_repo_cache_put(c, filename, key.buf, &st);
		e = pp_repo_cache_find(c, filename);
		*was_read = 1;
	}
out:
	*out = rc ? NULL : e;
	strbuf_release(&path);
	strbuf_release(&key);
	return rc;
}
