/* Verifying a published repository end to end: the signature, every index
 * against Release, every pool file against the Packages stanza naming it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "fsutil.h"
#include "hash.h"
#include "repo-internal.h"
#include "thread.h"
#include "xalloc.h"

/* The most an uncompressed Packages may hold, whatever Release says
 * (Debian's largest is under 100 MiB), and a Release (Debian's are a few
 * hundred KiB). */
#define MAX_INDEX (1LL << 30)
#define MAX_RELEASE (64LL << 20)
/* Pool files checked at a time (on several threads) */
#define POOL_BATCH 1024

/* A Packages index read and found clean (every stanza's pool file whole):
 * the same file listed for the same text again (a suite a snapshot
 * serves, linked to another's) would give the same stanzas, each found
 * whole already, so it is not read again. */
struct clean_index {
	char file_sha256[65], text_sha256[65];
	long long file_size, text_size;
};

/* An index file (an inode) found to have the size and SHA256 a Release
 * lists: a suite linked to another's index lists the same inode. */
struct whole_index {
	dev_t dev;
	ino_t ino;
	long long size;
	char sha256[65];
};

struct verify {
	const char *root;
	char *root_real; /* its real path: nothing outside it is read */
	struct pp_repo_verify_opts *o;
	int problems;
	struct strbuf msg;
	/* pool files found whole ("FILENAME SIZE SHA256"): a file several
	 * suites (a snapshot served) list is read once */
	char **whole;
	size_t nr_whole, alloc_whole;
	struct pp_hindex by_whole;
	int root_fd; /* root_real opened: files are opened below it */
	struct clean_index *clean;
	size_t nr_clean, alloc_clean;
	struct whole_index *whole_idx;
	size_t nr_whole_idx, alloc_whole_idx;
};

/* A pool file as a stanza names it, looked up among those found whole. */
struct whole_key {
	const struct verify *v;
	const char *fn, *size, *sha;
};

static uint32_t whole_hash(const char *fn, const char *size, const char *sha)
{
	return pp_hindex_hash(sha, pp_hindex_hash(size,
			      pp_hindex_hash(fn, PP_HINDEX_SEED)));
}

/* Whether s starts with part, then c. */
static int part_is(const char **s, const char *part, char c)
{
	size_t n = strlen(part);

	if (strncmp(*s, part, n) || (*s)[n] != c)
		return 0;
	*s += n + 1;
	return 1;
}

static int whole_eq(const void *ctx, size_t pos)
{
	const struct whole_key *k = ctx;
	const char *s = k->v->whole[pos];

	return part_is(&s, k->fn, ' ') && part_is(&s, k->size, ' ') &&
	       part_is(&s, k->sha, '\0');
}

/* Whether the pool file (fn, size, sha; h: whole_hash of them) was found
 * whole already; if not and record, it is recorded as such. */
static int seen_whole(struct verify *v, uint32_t h, const char *fn,
		      const char *size, const char *sha, int record)
{
	struct whole_key k = { v, fn, size, sha };

	if (pp_hindex_find(&v->by_whole, h, whole_eq, &k) != PP_HINDEX_NONE)
		return 1;
	if (record) {
		ARRAY_GROW(v->whole, v->alloc_whole, v->nr_whole + 1);
		pp_hindex_add(&v->by_whole, h, v->nr_whole);
		strbuf_reset(&v->msg);
		strbuf_addf(&v->msg, "%s %s %s", fn, size, sha);
		v->whole[v->nr_whole++] = xstrdup(v->msg.buf);
	}
	return 0;
}

static void problem(struct verify *v, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void problem(struct verify *v, const char *path, const char *fmt, ...)
{
	va_list ap;

	strbuf_reset(&v->msg);
	va_start(ap, fmt);
	strbuf_vaddf(&v->msg, fmt, ap);
	va_end(ap);
	v->problems++;
	if (v->o->problem)
		v->o->problem(v->o->problem_ctx, path, v->msg.buf);
}

/* A deb822 text (a Release, a Packages index) that does not parse,
 * reported under path once: the parser, given path as the text's name,
 * begins its message "PATH:LINE: " (or "PATH: "), which becomes "line
 * LINE: " (of is what the line is counted in, "" for the file). Such a
 * file is not as publish writes it: publishing again writes it anew. */
static void parse_problem(struct verify *v, const char *path, const char *of,
			  const struct pp_err *err)
{
	size_t n = strlen(path);
	const char *what = err->msg, *colon;

	if (!strncmp(what, path, n) && what[n] == ':') {
		what += n + 1;
		colon = strchr(what, ':');
		if (what[0] >= '0' && what[0] <= '9' && colon) {
			problem(v, path, "line %.*s%s:%s; the file is damaged: "
				"publish the repository again ('padpack repo "
				"publish %s')", (int)(colon - what),
				what, of, colon + 1, v->root);
			return;
		}
		what += what[0] == ' ';
	}
	problem(v, path, "%s; the file is damaged: publish the repository "
		"again ('padpack repo publish %s')", what, v->root);
}

/* Opens a file below the root (rel), its fstat in *st, reporting under
 * shown why not. */
static int open_file(struct verify *v, const char *rel, const char *shown,
		     struct stat *st)
{
	const char *why;
	int fd = pp_open_inside_at(v->root_fd, v->root_real, rel, &why, st);

	if (fd < 0 && why)
		problem(v, shown, "refused: the path %s", why);
	else if (fd < 0)
		problem(v, shown, "missing or unreadable");
	return fd;
}

#define DIGEST_BUF (1 << 17)

/* What a thread reads and hashes pool files with. */
struct digester {
	char *buf; /* DIGEST_BUF octets */
	struct pp_hash sha256; /* started, restarted after each file */
};

static void digester_init(struct digester *d)
{
	d->buf = xmalloc(DIGEST_BUF);
	pp_hash_init(&d->sha256, PP_SHA256);
}

static void digester_release(struct digester *d)
{
	free(d->buf);
	pp_hash_release(&d->sha256);
}

/* Size and SHA-256 of an open file's first want octets (its size as
 * fstat gave it: a small file is one read). */
static int fd_digest(int fd, struct digester *d, long long want,
		     long long *size, char *hex)
{
	ssize_t n = 0;

	*size = 0;
	while (*size < want) {
		size_t ask = want - *size > DIGEST_BUF ? DIGEST_BUF
						       : (size_t)(want - *size);

		n = pp_read_full(fd, d->buf, ask);
		if (n <= 0)
			break;
		pp_hash_update(&d->sha256, d->buf, (size_t)n);
		*size += n;
		if ((size_t)n < ask) /* it read to the end */
			break;
	}
	pp_hash_final_hex_restart(&d->sha256, hex);
	return n < 0 ? -1 : 0;
}

/* Whether the file st was found to have that size and sha256 already;
 * if not and record, it is recorded as such. */
static int seen_whole_index(struct verify *v, const struct stat *st,
			    long long size, const char *sha256, int record)
{
	struct whole_index *w;

	for (size_t i = 0; i < v->nr_whole_idx; i++) {
		w = &v->whole_idx[i];
		if (w->dev == st->st_dev && w->ino == st->st_ino &&
		    w->size == size && !strcmp(w->sha256, sha256))
			return 1;
	}
	if (record && strlen(sha256) < sizeof(w->sha256)) {
		ARRAY_GROW(v->whole_idx, v->alloc_whole_idx,
			   v->nr_whole_idx + 1);
		w = &v->whole_idx[v->nr_whole_idx++];
		w->dev = st->st_dev;
		w->ino = st->st_ino;
		w->size = size;
		strcpy(w->sha256, sha256);
	}
	return 0;
}

/* Checks a file below the root against a size (before reading it) and
 * a SHA256 (not again for the same inode: an index linked into another
 * suite); reports what differs. Returns 0 when it matches, 1 when it
 * differs, -1 when it was not opened. */
static int check_file(struct verify *v, const char *rel, const char *shown,
		      long long size, const char *sha256)
{
	char hex[2 * PP_HASH_MAX + 1];
	struct digester d;
	long long have;
	struct stat st;
	int fd, rc = 1;

	v->o->files_checked++;
	fd = open_file(v, rel, shown, &st);
	if (fd < 0)
		return -1;
	if (seen_whole_index(v, &st, size, sha256, 0)) {
		close(fd);
		return 0;
	}
	digester_init(&d);
	if (st.st_size != size)
		problem(v, shown, "size %lld, expected %lld",
			(long long)st.st_size, size);
	else if (fd_digest(fd, &d, st.st_size, &have, hex) < 0)
		problem(v, shown, "unreadable");
	else if (have != size)
		problem(v, shown, "size %lld, expected %lld", have, size);
	else if (strcmp(hex, sha256))
		problem(v, shown, "SHA256 %s, expected %s", hex, sha256);
	else
		rc = 0;
	if (rc == 0)
		seen_whole_index(v, &st, size, sha256, 1);
	digester_release(&d);
	close(fd);
	return rc;
}

/* Reads an open file through any compression libarchive knows, stopping
 * past limit octets of output: -2 then, -1 when it cannot be read. */
static int read_index(int fd, const struct stat *sb, long long limit,
		      struct strbuf *out)
{
	struct archive *a;
	struct archive_entry *ae;
	char buf[65536];
	la_ssize_t n = 0;
	int rc = -1;

	/* An architecture without packages has an empty Packages, which
	 * libarchive's raw format does not read. */
	if (sb->st_size == 0)
		return 0;
	a = archive_read_new();
	archive_read_support_filter_all(a);
	archive_read_support_format_raw(a);
	if (archive_read_open_fd(a, fd, 65536) == ARCHIVE_OK &&
	    archive_read_next_header(a, &ae) == ARCHIVE_OK) {
		while ((n = archive_read_data(a, buf, sizeof(buf))) > 0 &&
		       (long long)out->len + n <= limit)
			strbuf_add(out, buf, (size_t)n);
		rc = n < 0 ? -1 : n > 0 ? -2 : 0;
	}
	archive_read_free(a);
	return rc;
}

/* A Packages index as Release lists it: the file read, and the
 * uncompressed text Release lists, which bounds what it may expand to. */
struct listed {
	char sha256[65];
	long long size;
	char rel[4096]; /* relative to the suite */
	int ok;         /* matches its size and SHA256 */
	int absent;     /* uncompressed, not there: a compressed one is */
};

/* A pool file a stanza names, checked on one of several threads (the
 * pool is most of verify's reading; on several CPUs it is read beside
 * itself), then reported in the stanzas' order on the calling thread. */
enum pool_result { POOL_SKIP, POOL_BAD_STANZA, POOL_ESCAPES, POOL_REFUSED,
		   POOL_MISSING, POOL_SIZE, POOL_UNREADABLE, POOL_SHA256,
		   POOL_OK, POOL_TODO };

struct pool_check {
	/* in the index's text, ended there, or with continuation lines
	 * copied into owned[]; fn is "?" when there is none */
	const char *fn, *size, *sha;
	char *owned[3];
	uint32_t hash; /* whole_hash of them */
	unsigned line;
	const char *why; /* POOL_ESCAPES, POOL_REFUSED */
	long long have;  /* POOL_SIZE: the size found */
	char hex[2 * PP_HASH_MAX + 1]; /* POOL_SHA256: the hash found */
	enum pool_result result;
};

/* The file opened below the root and compared with its size (before
 * reading it) and SHA256. */
static void pool_check_run(const struct verify *v, struct pool_check *c,
			   struct digester *d)
{
	long long size = atoll(c->size), have;
	struct stat st;
	int fd = pp_open_inside_at(v->root_fd, v->root_real, c->fn, &c->why,
				   &st);

	if (fd < 0) {
		c->result = c->why ? POOL_REFUSED : POOL_MISSING;
		return;
	}
	if (st.st_size != size) {
		c->result = POOL_SIZE;
		c->have = (long long)st.st_size;
	} else if (fd_digest(fd, d, st.st_size, &have, c->hex) < 0) {
		c->result = POOL_UNREADABLE;
	} else if (have != size) {
		c->result = POOL_SIZE;
		c->have = have;
	} else {
		c->result = strcmp(c->hex, c->sha) ? POOL_SHA256 : POOL_OK;
	}
	close(fd);
}

/* A batch of checks, taken one at a time by up to MAX_THREADS threads:
 * started while the caller parses the next batch, which it then joins. */
#define MAX_THREADS 4
struct pool_batch {
	const struct verify *v;
	struct pool_check *c;
	size_t n;
	size_t next; /* the next check to take: taken atomically */
	pthread_t tid[MAX_THREADS];
	int started[MAX_THREADS];
};

static void *pool_batch_run(void *arg)
{
	struct pool_batch *b = arg;
	struct digester d = { NULL, { NULL, PP_SHA256 } };
	size_t i;

	while ((i = __atomic_fetch_add(&b->next, 1, __ATOMIC_RELAXED)) < b->n)
		if (b->c[i].result == POOL_TODO) {
			if (!d.buf)
				digester_init(&d);
			pool_check_run(b->v, &b->c[i], &d);
		}
	if (d.buf)
		digester_release(&d);
	return NULL;
}

static void pool_batch_start(struct pool_batch *b, const struct verify *v,
			     struct pool_check *c, size_t n)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t threads = cpus > 1 ? (size_t)cpus : 1;

	*b = (struct pool_batch){ .v = v, .c = c, .n = n };
	if (threads > MAX_THREADS)
		threads = MAX_THREADS;
	for (size_t t = 0; t < threads && n > 1; t++)
		b->started[t] = pp_thread_start(&b->tid[t], pool_batch_run,
						b) == 0;
}

/* Takes the checks no thread has taken, then waits for the threads. */
static void pool_batch_finish(struct pool_batch *b)
{
	pool_batch_run(b);
	for (size_t t = 0; t < MAX_THREADS; t++)
		if (b->started[t])
			pthread_join(b->tid[t], NULL);
}

/* A field's value as a C string: ended in place in the index's text
 * (its stanza has been read; text is that text, writable), or with its
 * continuation lines, copied into *owned. NULL when there is none. */
static const char *span_cstr(const struct pp_field_span *f, char *text,
			     char **owned)
{
	struct strbuf value = STRBUF_INIT;
	size_t at;

	if (!f)
		return NULL;
	if (f->more) {
		pp_field_span_value(f, &value);
		*owned = strbuf_detach(&value, NULL);
		return *owned;
	}
	at = (size_t)(f->value - text);
	text[at + f->vlen] = '\0';
	return text + at;
}

#define FIELD(name) name, sizeof(name) - 1

/* A stanza's pool file, to be checked unless the stanza is wrong or the
 * file was found whole already (for another suite). */
static void pool_check_init(struct verify *v, const struct pp_stanza_spans *st,
			    char *text, struct pool_check *c)
{
	memset(c, 0, sizeof(*c));
	c->line = st->line;
	c->fn = span_cstr(pp_spans_find(st, FIELD("Filename")), text,
			  &c->owned[0]);
	c->size = span_cstr(pp_spans_find(st, FIELD("Size")), text,
			    &c->owned[1]);
	c->sha = span_cstr(pp_spans_find(st, FIELD("SHA256")), text,
			   &c->owned[2]);
	c->why = c->fn ? pp_path_escapes(c->fn) : NULL;
	if (!c->fn || !c->size || !c->sha) {
		c->fn = c->fn ? c->fn : "?";
		c->result = POOL_BAD_STANZA;
		return;
	}
	c->hash = whole_hash(c->fn, c->size, c->sha);
	if (c->why)
		c->result = POOL_ESCAPES;
	else if (seen_whole(v, c->hash, c->fn, c->size, c->sha, 0))
		c->result = POOL_SKIP;
	else
		c->result = POOL_TODO;
}

/* A checked pool file reported as one check at a time did (the same
 * problems in the same order), and its signature checked if asked. */
static void pool_check_report(struct verify *v, const char *index,
			      const struct pool_check *c, struct strbuf *path,
			      struct pp_err *err)
{
	strbuf_reset(path);
	strbuf_addf(path, "%s/%s", v->root, c->fn);
	if (c->result == POOL_BAD_STANZA) {
		problem(v, index, "stanza at line %u lacks Filename, Size or "
			"SHA256", c->line);
		return;
	}
	if (c->result == POOL_ESCAPES) {
		problem(v, index, "stanza at line %u: Filename '%s' points "
			"outside the repository (the path %s); not read",
			c->line, c->fn, c->why);
		return;
	}
	/* listed twice in one index: reported once, as before */
	if (c->result == POOL_SKIP ||
	    seen_whole(v, c->hash, c->fn, c->size, c->sha, 0))
		return;
	v->o->files_checked++;
	if (c->result == POOL_REFUSED)
		problem(v, path->buf, "refused: the path %s", c->why);
	else if (c->result == POOL_MISSING)
		problem(v, path->buf, "missing or unreadable");
	else if (c->result == POOL_SIZE)
		problem(v, path->buf, "size %lld, expected %lld", c->have,
			atoll(c->size));
	else if (c->result == POOL_UNREADABLE)
		problem(v, path->buf, "unreadable");
	else if (c->result == POOL_SHA256)
		problem(v, path->buf, "SHA256 %s, expected %s", c->hex, c->sha);
	if (c->result != POOL_OK)
		return;
	if (v->o->check_deb &&
	    v->o->check_deb(v->o->check_deb_ctx, path->buf, err) < 0) {
		problem(v, path->buf, "%s", err->msg);
		return;
	}
	seen_whole(v, c->hash, c->fn, c->size, c->sha, 1);
}

static void pool_checks_report(struct verify *v, const char *index,
			       struct pool_check *c, size_t n,
			       struct strbuf *path, struct pp_err *err)
{
	for (size_t i = 0; i < n; i++) {
		pool_check_report(v, index, &c[i], path, err);
		for (size_t k = 0; k < ARRAY_SIZE(c[i].owned); k++)
			free(c[i].owned[k]);
	}
}

/* The pool files of an index's stanzas, checked in batches: a batch is
 * checked on threads while the next is parsed, and reported in order. */
struct pool_checks {
	struct pool_check *c[2]; /* the batch being parsed, the other */
	size_t n[2];
	int cur, running;
	struct pool_batch batch;
};

static void pool_checks_add(struct verify *v, struct pool_checks *pc,
			    const struct pp_stanza_spans *st, char *text,
			    const char *index, struct strbuf *path,
			    struct pp_err *err)
{
	const int cur = pc->cur, other = !cur;

	pool_check_init(v, st, text, &pc->c[cur][pc->n[cur]++]);
	if (pc->n[cur] < POOL_BATCH)
		return;
	if (pc->running) {
		pool_batch_finish(&pc->batch);
		pool_checks_report(v, index, pc->c[other], pc->n[other], path,
				   err);
		pc->n[other] = 0;
	}
	pool_batch_start(&pc->batch, v, pc->c[cur], pc->n[cur]);
	pc->running = 1;
	pc->cur = other;
}

/* The batch running and the one parsed, checked and reported. */
static void pool_checks_end(struct verify *v, struct pool_checks *pc,
			    const char *index, struct strbuf *path,
			    struct pp_err *err)
{
	const int cur = pc->cur, other = !cur;

	if (pc->running) {
		pool_batch_finish(&pc->batch);
		pool_checks_report(v, index, pc->c[other], pc->n[other], path,
				   err);
	}
	pool_batch_start(&pc->batch, v, pc->c[cur], pc->n[cur]);
	pool_batch_finish(&pc->batch);
	pool_checks_report(v, index, pc->c[cur], pc->n[cur], path, err);
	free(pc->c[0]);
	free(pc->c[1]);
}

static int same_clean(const struct clean_index *c, const struct listed *file,
		      const struct listed *text)
{
	return c->file_size == file->size && c->text_size == text->size &&
	       !strcmp(c->file_sha256, file->sha256) &&
	       !strcmp(c->text_sha256, text->sha256);
}

/* Whether the index file (as Release lists it, for the text it lists)
 * was read and found clean already. */
static int seen_clean(const struct verify *v, const struct listed *file,
		      const struct listed *text)
{
	for (size_t i = 0; i < v->nr_clean; i++)
		if (same_clean(&v->clean[i], file, text))
			return 1;
	return 0;
}

static void record_clean(struct verify *v, const struct listed *file,
			 const struct listed *text)
{
	struct clean_index *c;

	ARRAY_GROW(v->clean, v->alloc_clean, v->nr_clean + 1);
	c = &v->clean[v->nr_clean++];
	memcpy(c->file_sha256, file->sha256, sizeof(c->file_sha256));
	memcpy(c->text_sha256, text->sha256, sizeof(c->text_sha256));
	c->file_size = file->size;
	c->text_size = text->size;
}

/* Every stanza of a Packages text (writable: each value taken is ended
 * in place) read as spans, and the pool file it names checked. */
static void check_stanzas(struct verify *v, struct strbuf *all,
			  const char *index)
{
	struct pool_checks pc = { { NULL, NULL }, { 0, 0 }, 0, 0, { 0 } };
	struct pp_stanza_spans st = { NULL, 0, 0, 0 };
	struct strbuf path = STRBUF_INIT;
	struct pp_deb822 p;
	struct pp_err err;
	int r;

	pp_err_init(&err);
	pp_deb822_init(&p, all->buf, all->len, index);
	p.kind = PP_DEB822_PACKAGES;
	pc.c[0] = xmalloc(POOL_BATCH * sizeof(*pc.c[0]));
	pc.c[1] = xmalloc(POOL_BATCH * sizeof(*pc.c[1]));
	while ((r = pp_deb822_scan(&p, &st, &err)) > 0)
		pool_checks_add(v, &pc, &st, all->buf, index, &path, &err);
	pool_checks_end(v, &pc, index, &path, &err);
	if (r < 0)
		parse_problem(v, index, "", &err);
	pp_stanza_spans_release(&st);
	pp_err_release(&err);
	strbuf_release(&path);
}

/* Reads an index (already checked against Release) no further than the
 * uncompressed size Release lists, checks that text against its listed
 * SHA256, then every pool file it names, unless the same index was found
 * clean already. */
static void check_packages(struct verify *v, const char *suite,
			   const struct listed *file, const struct listed *text)
{
	struct strbuf index = STRBUF_INIT, rel = STRBUF_INIT, all = STRBUF_INIT;
	char hex[2 * PP_HASH_MAX + 1];
	struct pp_hash h;
	struct stat st;
	int fd, r, problems = v->problems;

	if (seen_clean(v, file, text))
		return;
	strbuf_addf(&index, "%s/%s/%s", v->root, suite, file->rel);
	strbuf_addf(&rel, "%s/%s", suite, file->rel);
	fd = open_file(v, rel.buf, index.buf, &st);
	r = fd < 0 ? 0 : read_index(fd, &st, text->size, &all);
	if (fd >= 0)
		close(fd);
	if (fd < 0)
		goto out;
	if (r == -2) {
		problem(v, index.buf, "expands past the %lld bytes Release lists "
			"for %s; not decompressed further", text->size,
			text->rel);
		goto out;
	}
	if (r < 0) {
		problem(v, index.buf, "cannot be read or decompressed");
		goto out;
	}
	pp_hash_init(&h, PP_SHA256);
	pp_hash_update(&h, all.buf, all.len);
	pp_hash_final_hex(&h, hex);
	if (all.len != (size_t)text->size || strcmp(hex, text->sha256)) {
		problem(v, index.buf, "expands to %zu bytes with SHA256 %s; "
			"Release lists %lld bytes, %s for %s", all.len, hex,
			text->size, text->sha256, text->rel);
		goto out;
	}
	check_stanzas(v, &all, index.buf);
	if (v->problems == problems)
		record_clean(v, file, text);
out:
	strbuf_release(&index);
	strbuf_release(&rel);
	strbuf_release(&all);
}

/* Reads a Release below the root, refusing one larger than
 * MAX_RELEASE; reports why not under shown. */
static int read_small(struct verify *v, const char *rel, const char *shown,
		      struct strbuf *out)
{
	struct stat st;
	int fd = open_file(v, rel, shown, &st);
	ssize_t n;

	if (fd < 0)
		return -1;
	if (st.st_size > MAX_RELEASE) {
		problem(v, shown, "larger than padpack reads (%lld bytes)",
			MAX_RELEASE);
		close(fd);
		return -1;
	}
	strbuf_grow(out, (size_t)st.st_size + 1);
	n = pp_read_full(fd, out->buf, (size_t)st.st_size);
	close(fd);
	if (n < 0) {
		problem(v, shown, "unreadable");
		return -1;
	}
	strbuf_setlen(out, (size_t)n);
	return 0;
}

/* The Release text of a suite (dists/NAME, relative to the root): the
 * signed text of InRelease when a checker is given (and then InRelease
 * must exist), else Release. */
static int suite_release(struct verify *v, const char *suite,
			 struct strbuf *release)
{
	struct strbuf rel = STRBUF_INIT, shown = STRBUF_INIT,
		      inrel = STRBUF_INIT, plain = STRBUF_INIT;
	struct pp_err err;
	struct stat st;
	int rc = -1;

	pp_err_init(&err);
	strbuf_addf(&rel, "%s/%s", suite, v->o->check ? "InRelease" : "Release");
	strbuf_addf(&shown, "%s/%s", v->root, rel.buf);
	if (!v->o->check) {
		rc = read_small(v, rel.buf, shown.buf, release);
	} else if (read_small(v, rel.buf, shown.buf, &inrel) < 0) {
		problem(v, shown.buf, "the suite is not signed");
	} else if (v->o->check(v->o->check_ctx, &inrel, release, &err) < 0) {
		problem(v, shown.buf, "%s", err.msg);
	} else {
		rc = 0;
		strbuf_setlen(&rel, rel.len - strlen("InRelease"));
		strbuf_addstr(&rel, "Release");
		strbuf_setlen(&shown, shown.len - strlen("InRelease"));
		strbuf_addstr(&shown, "Release");
		if (lstat(shown.buf, &st) == 0 &&
		    (read_small(v, rel.buf, shown.buf, &plain) < 0 ||
		     plain.len != release->len ||
		     memcmp(plain.buf, release->buf, plain.len)))
			problem(v, shown.buf, "differs from the text signed in "
				"InRelease");
	}
	pp_err_release(&err);
	strbuf_release(&rel);
	strbuf_release(&shown);
	strbuf_release(&inrel);
	strbuf_release(&plain);
	return rc;
}

static int parse_date(const char *s, time_t *out)
{
	struct tm tm;
	const char *end;

	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%a, %d %b %Y %H:%M:%S", &tm);
	if (!end || (strcmp(end, " UTC") && strcmp(end, " +0000") &&
		     strcmp(end, " GMT")))
		return -1;
	*out = timegm(&tm);
	return 0;
}

static void check_dates(struct verify *v, const char *path,
			const struct pp_stanza *st)
{
	const char *date = pp_stanza_get(st, "Date");
	const char *until = pp_stanza_get(st, "Valid-Until");
	time_t t, now = time(NULL);

	if (!date || parse_date(date, &t) < 0)
		problem(v, path, "no valid UTC Date field");
	else if (t > now + 60)
		problem(v, path, "Date %s is in the future", date);
	if (until && (parse_date(until, &t) < 0 || t < now))
		problem(v, path, "expired or invalid Valid-Until: %s", until);
}

static int is_packages(const char *rel)
{
	const char *base = strrchr(rel, '/');

	base = base ? base + 1 : rel;
	return !strncmp(base, "Packages", 8);
}

/* The length of rel's directory part (0: none). */
static size_t dir_len(const char *rel)
{
	const char *slash = strrchr(rel, '/');

	return slash ? (size_t)(slash - rel) : 0;
}

static int same_dir(const char *a, const char *b)
{
	return dir_len(a) == dir_len(b) && !strncmp(a, b, dir_len(a));
}

/* Whether Release's list names rel with a compressor's suffix. */
static int lists_compressed(const char *list, const char *rel)
{
	static const char *const ext[] = { ".xz", ".gz" };
	char want[4200];

	for (size_t i = 0; i < ARRAY_SIZE(ext); i++) {
		const char *at = list;
		size_t n = (size_t)snprintf(want, sizeof(want), " %s%s", rel,
					    ext[i]);

		while ((at = strstr(at, want)))
			if (at[n] == '\n' || !at[n])
				return 1;
			else
				at += n;
	}
	return 0;
}

/* An uncompressed index that is not there while a compressed one is
 * listed: as in Debian's archive (and a large padpack suite's), Release
 * lists its hashes for the text the compressed one expands to. */
static int absent_text(const char *list, const char *rel, const char *path)
{
	return access(path, F_OK) < 0 && errno == ENOENT &&
	       lists_compressed(list, rel);
}

/* Release's SHA256 list, each entry checked against its file. */
static size_t list_indices(struct verify *v, const char *suite,
			   const char *list, struct listed **out)
{
	struct strbuf rel = STRBUF_INIT, shown = STRBUF_INIT;
	struct listed *files = NULL;
	size_t nr = 0, alloc = 0;

	for (const char *l = list; l && *l; l = strchr(l, '\n')) {
		struct listed f = { { 0 }, 0, { 0 }, 0, 0 };
		const char *why;

		l += *l == '\n';
		if (sscanf(l, " %64s %lld %4095s", f.sha256, &f.size, f.rel) != 3)
			continue;
		strbuf_reset(&rel);
		strbuf_reset(&shown);
		strbuf_addf(&rel, "%s/%s", suite, f.rel);
		strbuf_addf(&shown, "%s/%s", v->root, rel.buf);
		why = pp_path_escapes(f.rel);
		if (why)
			problem(v, shown.buf, "listed in Release, but the path "
				"%s; not read", why);
		else if (absent_text(list, f.rel, shown.buf))
			f.absent = 1;
		else
			f.ok = check_file(v, rel.buf, shown.buf, f.size,
					  f.sha256) == 0;
		ARRAY_GROW(files, alloc, nr + 1);
		files[nr++] = f;
	}
	strbuf_release(&rel);
	strbuf_release(&shown);
	*out = files;
	return nr;
}

/* The uncompressed Packages Release lists beside f, or NULL. */
static const struct listed *text_of(const struct listed *files, size_t nr,
				    const struct listed *f)
{
	for (size_t i = 0; i < nr; i++)
		if (same_dir(files[i].rel, f->rel) &&
		    !strcmp(files[i].rel + dir_len(f->rel) + !!dir_len(f->rel),
			    "Packages"))
			return &files[i];
	return NULL;
}

/* One Packages of a directory read (the uncompressed one when it checks
 * out, else the first compressed one that does), once per directory. */
static void check_directory(struct verify *v, const char *suite,
			    const struct listed *files, size_t nr, size_t first)
{
	const struct listed *text = text_of(files, nr, &files[first]);
	const struct listed *pick = text && text->ok ? text : NULL;
	struct strbuf shown = STRBUF_INIT;

	for (size_t i = first; i < nr && !pick; i++)
		if (files[i].ok && is_packages(files[i].rel) &&
		    same_dir(files[i].rel, files[first].rel))
			pick = &files[i];
	if (!pick)
		return; /* each was reported */
	strbuf_addf(&shown, "%s/%s/%s", v->root, suite, pick->rel);
	if (!text)
		problem(v, shown.buf, "Release lists no uncompressed Packages "
			"beside it, so no size bounds what it expands to; not "
			"decompressed");
	else if (text->size < 0 || text->size > MAX_INDEX)
		problem(v, shown.buf, "Release lists %lld bytes for %s, more "
			"than padpack reads (%lld); not decompressed", text->size,
			text->rel, MAX_INDEX);
	else
		check_packages(v, suite, pick, text);
	strbuf_release(&shown);
}

/* Every index against Release (its size before its content); pool files
 * once per index directory. */
static void check_indices(struct verify *v, const char *suite,
			  const char *list)
{
	struct listed *files;
	size_t nr = list_indices(v, suite, list, &files);

	for (size_t i = 0; i < nr; i++) {
		size_t j = 0;

		if (!is_packages(files[i].rel) || pp_path_escapes(files[i].rel))
			continue;
		while (j < i && !(is_packages(files[j].rel) &&
				  same_dir(files[j].rel, files[i].rel)))
			j++;
		if (j == i) /* the first of its directory */
			check_directory(v, suite, files, nr, i);
	}
	free(files);
}

static void verify_suite(struct verify *v, const char *suite)
{
	struct strbuf release = STRBUF_INIT, shown = STRBUF_INIT,
		      file = STRBUF_INIT;
	struct pp_stanza st;
	struct pp_err err;

	pp_err_init(&err);
	strbuf_addf(&shown, "%s/%s", v->root, suite);
	strbuf_addf(&file, "%s/%s", shown.buf, v->o->check ? "InRelease" :
		    "Release");
	if (suite_release(v, suite, &release) < 0)
		goto out;
	if (pp_deb822_parse_one(release.buf, release.len, file.buf,
				PP_DEB822_RELEASE, &st, &err) < 0) {
		parse_problem(v, file.buf, v->o->check ? " of its signed text" :
			      "", &err);
		goto out;
	}
	check_dates(v, shown.buf, &st);
	if (!pp_stanza_get(&st, "SHA256"))
		problem(v, shown.buf, "Release has no SHA256 list");
	check_indices(v, suite, pp_stanza_get(&st, "SHA256"));
	pp_stanza_release(&st);
out:
	pp_err_release(&err);
	strbuf_release(&release);
	strbuf_release(&shown);
	strbuf_release(&file);
}

/* Each suite: a directory under dists/ (dot entries are an interrupted
 * publish, links are codename aliases). */
static int verify_suites(struct verify *v, DIR *d)
{
	struct strbuf suite = STRBUF_INIT, path = STRBUF_INIT;
	struct dirent *de;
	int suites = 0;

	while ((de = readdir(d))) {
		struct stat st;

		strbuf_reset(&suite);
		strbuf_reset(&path);
		strbuf_addf(&suite, "dists/%s", de->d_name);
		strbuf_addf(&path, "%s/%s", v->root, suite.buf);
		if (de->d_name[0] == '.' || lstat(path.buf, &st) < 0 ||
		    !S_ISDIR(st.st_mode))
			continue;
		verify_suite(v, suite.buf);
		suites++;
	}
	strbuf_release(&suite);
	strbuf_release(&path);
	return suites;
}

int pp_repo_verify(const char *root, struct pp_repo_verify_opts *o,
		   struct pp_err *err)
{
	struct verify v = { root, NULL, o, 0, STRBUF_INIT, NULL, 0, 0,
			    PP_HINDEX_INIT, -1, NULL, 0, 0, NULL, 0, 0 };
	struct strbuf dists = STRBUF_INIT;
	struct stat st;
	DIR *d = NULL;
	int rc = -1;

	strbuf_addf(&dists, "%s/dists", root);
	v.root_real = realpath(root, NULL);
	v.root_fd = v.root_real ? open(v.root_real, O_RDONLY | O_DIRECTORY |
				      O_CLOEXEC) : -1;
	if (!v.root_real || lstat(dists.buf, &st) < 0 ||
	    !(d = opendir(dists.buf)))
		rc = pp_err_errno(err, PP_EXIT_IO, "cannot open '%s'", dists.buf);
	else if (!S_ISDIR(st.st_mode))
		rc = pp_err_set(err, PP_EXIT_INPUT, "'%s' is a symbolic link; "
				"padpack reads nothing outside the repository",
				dists.buf);
	else if (!verify_suites(&v, d))
		problem(&v, dists.buf, "no suite published");
	if (d)
		closedir(d);
	if (!err->code)
		rc = v.problems;
	free(v.root_real);
	if (v.root_fd >= 0)
		close(v.root_fd);
	strbuf_release(&dists);
	strbuf_release(&v.msg);
	pp_free_words(v.whole, v.nr_whole);
	pp_hindex_release(&v.by_whole);
	free(v.clean);
	free(v.whole_idx);
	return rc;
}
