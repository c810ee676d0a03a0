/* Publishing: the indices of each suite are written into a new directory
 * beside the served one, then the two are exchanged in one atomic rename.
 * A client (or an interrupted publish) sees the old suite or the new one,
 * never a mix; by-hash copies of past indices are kept (repo-byhash.c) so
 * that a client holding an earlier Release still finds what it names.
 * Layer: the top of the repository module; the pool's garbage is
 * repo-garbage.c's. */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "compress.h"
#include "fsutil.h"
#include "hash.h"
#include "progress.h"
#include "repo-internal.h"
#include "repo-publish.h"
#include "repo-tail.h"
#include "sha256-state.h"
#include "sort.h"
#include "tree.h"
#include "zpieces.h"
#include "thread.h"
#include "xalloc.h"

/* Above this size the uncompressed Packages is listed in Release (apt
 * checks what the compressed one expands to against it) but not written,
 * as in Debian's archive: at 100,000 packages it is 70 MB, whose writing
 * and syncing cost more than the rest of an incremental publish. */
#define PLAIN_INDEX_MAX (16u << 20)

/* Release lists SHA256 only: apt (since 1.1) trusts no MD5 and needs
 * none, and MD5 of a large index cost twice its SHA-256 (which has the
 * CPU's instructions). */
struct index_hash {
	struct pp_sha256 sha256; /* its state can be kept (repo-tail.h) */
	long long size;
};

static void index_hash_init(struct index_hash *h)
{
	pp_sha256_init(&h->sha256);
	h->size = 0;
}

static void index_hash_update(struct index_hash *h, const void *data,
			      size_t len)
{
	pp_sha256_update(&h->sha256, data, len);
	h->size += (long long)len;
}

static void index_hash_final(struct index_hash *h, struct index_file *f)
{
	pp_sha256_final_hex(&h->sha256, f->sha256);
	f->size = h->size;
}

static void hash_data(const void *data, size_t len, struct index_file *f)
{
	struct index_hash h;

	index_hash_init(&h);
	index_hash_update(&h, data, len);
	index_hash_final(&h, f);
}

/* The hashes of a text of stanzas, gathered into chunks of about 64 KiB
 * first: thousands of small updates cost more than the copy. crc (NULL:
 * not made): its CRC-32, which the gzip trailer joined from cached pieces
 * must match. */
static void hash_stanzas(const struct pp_stanzas *t, struct index_file *f,
			 uint32_t *crc, const atomic_int *cancel,
			 const struct pp_repo_base *from, unsigned char *state)
{
	struct strbuf chunk = STRBUF_INIT;
	struct index_hash h;
	size_t first = 0, size = 0;
	uLong c = crc32(0, NULL, 0);

	index_hash_init(&h);
	if (from) { /* the base's text hashed before: the blank line after it */
		pp_sha256_load(&h.sha256, from->text_state);
		h.size = (long long)from->text_len;
		index_hash_update(&h, "\n", 1);
		first = (size_t)from->nr;
	}
	for (size_t i = first; i < t->nr && !atomic_load(cancel); i++) {
		size += t->s[i].len + 1;
		if (size < (64 << 10) && i + 1 < t->nr)
			continue;
		strbuf_reset(&chunk);
		pp_stanzas_add(t, first, i + 1, &chunk);
		index_hash_update(&h, chunk.buf, chunk.len);
		if (crc)
			c = crc32(c, (const Bytef *)chunk.buf, (uInt)chunk.len);
		first = i + 1;
		size = 0;
	}
	if (state) /* the state after the whole text: a base's */
		pp_sha256_save(&h.sha256, state);
	index_hash_final(&h, f);
	if (crc)
		*crc = (uint32_t)c;
	strbuf_release(&chunk);
}

/* The hashes of a large index, made on a thread of their own from the
 * moment its text is known: while its key is made and looked up, and
 * while the same text is compressed. cancel: not needed after all (the
 * index is linked from an earlier publish). */
struct hash_job {
	const struct pp_stanzas *text;
	const struct pp_repo_base *from; /* NULL: the whole text */
	unsigned char state[PP_SHA256_STATE_SIZE]; /* after it */
	struct index_file f;
	int with_crc;
	uint32_t crc;
	atomic_int cancel;
	pthread_t tid;
	int threaded, started;
};

static void *hash_job_run(void *arg)
{
	struct hash_job *j = arg;

	hash_stanzas(j->text, &j->f, j->with_crc ? &j->crc : NULL, &j->cancel,
		     j->from, j->from ? NULL : j->state);
	return NULL;
}

static void hash_job_start(struct hash_job *j, const struct pp_stanzas *text,
			   int with_crc, const struct pp_repo_base *from)
{
	j->text = text;
	j->from = from;
	j->with_crc = with_crc;
	atomic_init(&j->cancel, 0);
	j->threaded = pp_thread_start(&j->tid, hash_job_run, j) == 0;
	j->started = 1;
}

/* Its hashes (made here if no thread could be started), or none if
 * cancelled. */
static void hash_job_finish(struct hash_job *j, int cancel)
{
	if (!j->started)
		return;
	if (cancel)
		atomic_store(&j->cancel, 1);
	if (j->threaded)
		pthread_join(j->tid, NULL);
	else if (!cancel)
		hash_job_run(j);
	j->started = 0;
}

/* Writes an index file into the new suite (not served yet): data, or the
 * text of stanzas. */
static int write_index(struct publish *p, const char *rel,
		       const struct strbuf *data, const struct pp_stanzas *text)
{
	struct strbuf path = STRBUF_INIT;
	struct pp_filebuf *fb;
	int rc;

	strbuf_addf(&path, "%s/%s", p->tmp.buf, rel);
	if (data) {
		rc = pp_write_file_flags(path.buf, data->buf, data->len, 0644,
					 sync_flag(p), p->err);
		strbuf_release(&path);
		return rc;
	}
	fb = xmalloc(sizeof(*fb));
	rc = pp_filebuf_open(fb, path.buf, 0644, p->err);
	fb->of.sync = sync_flag(p);
	for (size_t i = 0; i < text->nr && !rc; i++) {
		pp_filebuf_add(fb, text->s[i].text, text->s[i].len);
		if (i + 1 < text->nr)
			pp_filebuf_add(fb, "\n", 1);
	}
	if (!rc)
		rc = pp_filebuf_commit(fb, p->err);
	free(fb);
	strbuf_release(&path);
	return rc;
}

/* Lists an index file written in the new suite, with its hashes, for
 * Release, and links its by-hash copy (written: 0 for an uncompressed
 * index that is listed only). */
static int list_index_as(struct publish *p, const char *rel,
			 const struct index_file *hashes, int written)
{
	struct strbuf path = STRBUF_INIT, byhash = STRBUF_INIT;
	struct index_file *f;
	char *dir;
	int rc = 0;

	ARRAY_GROW(p->files, p->alloc_files, p->nr_files + 1);
	f = &p->files[p->nr_files++];
	*f = *hashes;
	f->path = xstrdup(rel);
	strbuf_addf(&path, "%s/%s", p->tmp.buf, rel);
	dir = pp_dirname(path.buf);
	strbuf_addf(&byhash, "%s/by-hash/SHA256/%s", dir, f->sha256);
	if (written && link(path.buf, byhash.buf) < 0 && errno != EEXIST)
		rc = pp_err_errno(p->err, PP_EXIT_IO, "cannot link '%s'",
				  byhash.buf);
	free(dir);
	strbuf_release(&path);
	strbuf_release(&byhash);
	return rc;
}

static int list_index(struct publish *p, const char *rel,
		      const struct index_file *hashes)
{
	return list_index_as(p, rel, hashes, 1);
}

static int cmp_entry_ptr(const void *a, const void *b)
{
	const struct pp_repo_entry *x = *(const struct pp_repo_entry *const *)a;
	const struct pp_repo_entry *y = *(const struct pp_repo_entry *const *)b;
	int c = strcmp(x->package, y->package);

	return c ? c : strcmp(x->filename, y->filename);
}

static int selected(const struct pp_repo_member *m, const char *comp,
		    const char *arch)
{
	return !strcmp(m->component, comp) &&
	       (!strcmp(m->arch, arch) || !strcmp(m->arch, "all"));
}

/* Reads the pool files the cache has no entry for (found[i] NULL: added
 * since, or every one after --full), stat'ed first for their keys. An
 * entry the cache has is taken as it is, its file not even stat'ed: a
 * publish costs what changed, not the pool's size. A pool file replaced
 * behind the repository's back is what 'repo verify' reports and
 * 'publish --full' reads again. */
static int read_missing(struct publish *p, char **names, size_t n,
			struct pp_repo_entry *const *found)
{
	char **missing = xcalloc(n + 1, sizeof(*missing));
	struct pp_file_id *ids;
	struct pp_repo_entry *e;
	size_t nr = 0;
	int was_read, rc = 0;

	for (size_t i = 0; i < n; i++)
		if (!found[i])
			missing[nr++] = names[i];
	ids = xcalloc(nr + 1, sizeof(*ids));
	pp_repo_stats_of(p->r, missing, nr, ids);
	pp_progress_task(p->o->progress, "reading pool files", nr, "packages");
	for (size_t i = 0; i < nr && !rc; i++) {
		rc = pp_repo_entry_get(p->r->root, p->cache, missing[i], &ids[i],
				       &was_read, &e, p->err);
		p->o->read_debs += was_read;
		pp_progress_add(p->o->progress, 1, missing[i]);
	}
	free(ids);
	free(missing);
	return rc;
}

/* What an index is made from, for its reuse: each pool file's name and
 * stat key, in index order, and how it is compressed. */
static void index_key(const struct pp_stanza_ref *sel, size_t n,
		      unsigned compression, char *hex, size_t base_nr,
		      unsigned char *base_md)
{
	static const char *const tag[] = {
		[PP_REPO_GZ] = "padpack Packages 1: gzip -9\n",
		[PP_REPO_XZ] = "padpack Packages 1: xz -6\n",
		[PP_REPO_GZ | PP_REPO_XZ] = "padpack Packages 1: gzip -9, xz -6\n",
	};
	struct strbuf chunk = STRBUF_INIT;
	struct pp_sha256 h, base;

	/* gathered into chunks: 300,000 small updates cost more than the
	 * hashing */
	pp_sha256_init(&h);
	strbuf_addstr(&chunk, tag[compression & PP_REPO_COMPRESSION]);
	for (size_t i = 0; i < n; i++) {
		strbuf_add(&chunk, sel[i].id, strlen(sel[i].id) + 1);
		strbuf_addstr(&chunk, sel[i].id2);
		strbuf_addch(&chunk, '\n');
		if (chunk.len >= (64 << 10) || i + 1 == n || i + 1 == base_nr) {
			pp_sha256_update(&h, chunk.buf, chunk.len);
			strbuf_reset(&chunk);
		}
		if (i + 1 == base_nr) { /* the key of the first base_nr alone */
			base = h;
			pp_sha256_final(&base, base_md);
		}
	}
	if (chunk.len) /* the tag of an empty index */
		pp_sha256_update(&h, chunk.buf, chunk.len);
	if (!n)
		memset(base_md, 0, 32);
	pp_sha256_final_hex(&h, hex);
	strbuf_release(&chunk);
}

/* The Packages text of the named pool files (of the packages pkgs, in
 * Packages' order: the cache's, so that each entry is found where the
 * one before ends), as the cache's stanzas as it stands (refs, owned by
 * the caller, point into the cache, each with its pool file's name and
 * stat key as its ids); -1 when one of them has no entry yet. found (may
 * be NULL): each name's entry (NULL: none yet), in the names' order. */
static int cached_text(struct publish *p, char **names, char **pkgs, size_t n,
		       struct pp_stanzas *text, struct pp_stanza_ref **refs,
		       struct pp_repo_entry **found)
{
	struct pp_repo_entry **sel = xcalloc(n + 1, sizeof(*sel));
	int rc = 0;

	free(*refs);
	*refs = NULL;
	for (size_t i = 0; i < n; i++) {
		sel[i] = pp_repo_cache_find_pkg(p->cache, pkgs[i], names[i]);
		if (!sel[i])
			rc = -1;
	}
	if (found)
		memcpy(found, sel, n * sizeof(*sel));
	if (!rc) {
		pp_sort_nearly_sorted(sel, n, sizeof(*sel), cmp_entry_ptr);
		*refs = xcalloc(n + 1, sizeof(**refs));
		for (size_t i = 0; i < n; i++)
			sel[i]->listed = 1;
		for (size_t i = 0; i < n; i++)
			(*refs)[i] = (struct pp_stanza_ref){
				sel[i]->text, sel[i]->text_len,
				sel[i]->filename, sel[i]->stat_key,
				sel[i]->cut_hash, sel[i]->has_cut_hash };
		pp_stanzas_set(text, *refs, n);
	}
	free(sel);
	return rc;
}

/* A compressed index written as it is made, never whole in memory: each
 * part added to its file (in the new suite, under a temporary name until
 * committed) and hashed. */
struct index_sink {
	char *path;
	int sync;
	struct pp_filebuf *fb; /* NULL: not open */
	struct index_hash h;
	struct index_file *f;  /* its hashes, once done */
	uint32_t trailer_crc;  /* a gzip file's, once done */
	long long kicked;      /* bytes written when writeback was last started */
	/* committed (synced and named) on the thread that made it, once
	 * whole: its sync then waits beside the other outputs' work, not
	 * after it; done_rc and done_err, what that commit gave */
	int committed, done_rc;
	struct pp_err done_err;
	int is_xz;
	/* set: the file starts with the base's bytes, copied from the
	 * served file, and its hash goes on from the state after them */
	const struct pp_repo_base_out *from;
	const char *root;
	/* else, once done: where a later file may go on from (a base) */
	struct pp_repo_base_out made;
	uint64_t (*blocks)[2]; /* an xz file's blocks */
	size_t nr_blocks;
	int captured;
};

/* A synced file's writeback started every few megabytes as it is
 * written, so that its sync at the end waits for little. */
#define WRITEBACK_EVERY (4ll << 20)

static void sink_part(void *ctx, const struct strbuf *out)
{
	struct index_sink *s = ctx;

	pp_filebuf_add(s->fb, out->buf, out->len);
	index_hash_update(&s->h, out->buf, out->len);
	if (s->sync && s->h.size - s->kicked >= WRITEBACK_EVERY) {
		sync_file_range(s->fb->of.fd, 0, 0, SYNC_FILE_RANGE_WRITE);
		s->kicked = s->h.size;
	}
}

/* The state a later file goes on from: after the whole .gz (a tail is a
 * gzip member of its own), after the .xz's blocks (before its index). */
static void sink_capture(struct index_sink *s, const struct strbuf *out)
{
	uint64_t index_at = out->len;

	free(s->blocks);
	s->blocks = NULL;
	if (s->is_xz && pp_zpieces_xz_blocks(out->buf, out->len, &s->blocks,
					     &s->nr_blocks, &index_at) < 0) {
		index_hash_update(&s->h, out->buf, out->len); /* no base */
		return;
	}
	index_hash_update(&s->h, out->buf, (size_t)index_at);
	s->made.prefix = (uint64_t)s->h.size;
	pp_sha256_save(&s->h.sha256, s->made.state);
	index_hash_update(&s->h, out->buf + index_at,
			  out->len - (size_t)index_at);
	s->captured = 1;
}

static void sink_done(void *ctx, const struct strbuf *out)
{
	struct index_sink *s = ctx;

	pp_filebuf_add(s->fb, out->buf, out->len);
	if (s->from)
		index_hash_update(&s->h, out->buf, out->len);
	else
		sink_capture(s, out);
	index_hash_final(&s->h, s->f);
	if (out->len >= 8) /* the trailer's CRC-32 and size, little-endian */
		s->trailer_crc = (uint32_t)(unsigned char)out->buf[out->len - 8] |
			(uint32_t)(unsigned char)out->buf[out->len - 7] << 8 |
			(uint32_t)(unsigned char)out->buf[out->len - 6] << 16 |
			(uint32_t)(unsigned char)out->buf[out->len - 5] << 24;
	s->done_rc = pp_filebuf_commit(s->fb, &s->done_err);
	free(s->fb);
	s->fb = NULL;
	s->committed = 1;
}

static void sink_abort(struct index_sink *s)
{
	if (!s->fb)
		return;
	pp_outfile_abort(&s->fb->of);
	free(s->fb);
	s->fb = NULL;
}

/* The served file's first bytes, the base's, copied into the new one
 * (copy_file_range: no read into memory; a reflink where the file system
 * has them), once the stored file is checked to be the one recorded. */
static int sink_copy_base(struct index_sink *s, struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT;
	loff_t off = 0;
	struct stat st;
	int fd, rc = 0;

	strbuf_addf(&path, "%s/db/indices/files/%s", s->root, s->from->sha256);
	fd = open(path.buf, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 ||
	    (uint64_t)st.st_size != s->from->size ||
	    (uint64_t)st.st_ino != s->from->ino ||
	    st.st_mtim.tv_sec != s->from->mtime_sec ||
	    st.st_mtim.tv_nsec != s->from->mtime_nsec ||
	    s->from->prefix > s->from->size) {
		rc = pp_err_set(err, PP_EXIT_IO, "'%s' changed while it was "
				"published from; publish again", path.buf);
		goto out;
	}
	while (!rc && (uint64_t)off < s->from->prefix) {
		ssize_t n = copy_file_range(fd, &off, s->fb->of.fd, NULL,
					    (size_t)(s->from->prefix - (uint64_t)off),
					    0);
		if (n <= 0)
			rc = pp_err_errno(err, PP_EXIT_IO, "cannot copy '%s'",
					  path.buf);
	}
	if (!rc && pp_sha256_load(&s->h.sha256, s->from->state) < 0)
		rc = pp_err_set(err, PP_EXIT_IO, "a damaged hash state");
	s->h.size = (long long)s->from->prefix;
	s->kicked = 0;
out:
	if (fd >= 0)
		close(fd);
	strbuf_release(&path);
	return rc;
}

/* Opened anew: a text compressed again starts the file over. */
static int sink_open(struct index_sink *s, struct pp_err *err)
{
	sink_abort(s);
	s->committed = 0;
	s->kicked = 0;
	pp_err_release(&s->done_err);
	pp_err_init(&s->done_err);
	s->fb = xmalloc(sizeof(*s->fb));
	if (pp_filebuf_open(s->fb, s->path, 0644, err) < 0) {
		free(s->fb);
		s->fb = NULL;
		return -1;
	}
	s->fb->of.sync = s->sync;
	index_hash_init(&s->h);
	s->captured = 0;
	return s->from ? sink_copy_base(s, err) : 0;
}

static int sink_commit(struct index_sink *s, struct pp_err *err)
{
	int rc;

	if (s->committed) /* when it was done */
		return s->done_rc ? pp_err_move(err, &s->done_err) : 0;
	rc = pp_filebuf_commit(s->fb, err);

	free(s->fb);
	s->fb = NULL;
	return rc;
}

/* A Packages text compressed (gzip and xz on threads of their own, each
 * writing and hashing its output as it goes) while its hashes are made on
 * another. */
struct index_job {
	struct pp_stanzas text;
	struct pp_stanza_ref *refs;
	struct strbuf gz, xz; /* the part of each not written yet */
	struct pp_zcache *zcache;
	struct index_file hashes[3]; /* the text, .gz, .xz */
	struct index_sink sink[2];   /* .gz, .xz */
	unsigned compression;        /* which of them (the suite's) */
	int with_crc; /* the text's CRC made (and compared with the .gz's) */
	uint32_t text_crc;
	struct hash_job hasher;      /* the text's hashes */
	struct pp_err err;
	int rc;
	/* set: the text is the base's then a tail (tail: its stanzas, after
	 * an empty one: the blank line after the base) */
	struct pp_repo_base *from;
	struct pp_stanzas tail;
	struct pp_stanza_ref *tail_refs;
};

static void hash_output(void *ctx, const struct strbuf *out)
{
	hash_data(out->buf, out->len, ctx);
}

static void *index_job_run(void *arg)
{
	struct index_job *j = arg;
	const struct pp_zpieces_out all[] = {
		{ PP_COMP_GZIP, 9, &j->gz, sink_done, &j->sink[0], sink_part },
		{ PP_COMP_XZ, 6, &j->xz, sink_done, &j->sink[1], sink_part },
	};
	struct pp_zpieces_out outs[ARRAY_SIZE(all)];
	size_t nr_outs = 0;

	strbuf_reset(&j->gz);
	strbuf_reset(&j->xz);
	j->rc = 0;
	for (size_t i = 0; i < ARRAY_SIZE(all) && !j->rc; i++) {
		if (!(j->compression & (i ? PP_REPO_XZ : PP_REPO_GZ)))
			continue;
		outs[nr_outs++] = all[i];
		j->sink[i].from = j->from ? &j->from->out[i] : NULL;
		j->rc = sink_open(&j->sink[i], &j->err);
	}
	if (j->rc)
		return NULL;
	if (j->from)
		j->rc = pp_zpieces_compress_tail(&j->tail, outs, nr_outs,
						 j->zcache,
						 (const uint64_t (*)[2])j->from->blocks,
						 (size_t)j->from->nr_blocks,
						 &j->err);
	else
		j->rc = pp_zpieces_compress_stanzas(&j->text, outs, nr_outs,
						    j->zcache, &j->err);
	return NULL;
}

/* Where the job writes the .gz and .xz of comp and arch. */
static void index_job_init(struct index_job *j, const struct publish *p,
			   const char *comp, const char *arch)
{
	memset(j, 0, sizeof(*j));
	strbuf_init(&j->gz);
	strbuf_init(&j->xz);
	j->zcache = p->zcache;
	j->compression = p->s->compression;
	/* A cache as padpack wrote it has the text its pieces were made
	 * from; another has every piece checked against its text (below),
	 * and a .gz's trailer against the text's CRC. */
	j->with_crc = !p->cache->trusted && (j->compression & PP_REPO_GZ);
	pp_err_init(&j->err);
	for (size_t i = 0; i < 2; i++) {
		struct strbuf path = STRBUF_INIT;

		strbuf_addf(&path, "%s/%s/binary-%s/Packages.%s", p->tmp.buf,
			    comp, arch, i ? "xz" : "gz");
		j->sink[i].path = strbuf_detach(&path, NULL);
		j->sink[i].sync = p->r->no_sync ? 0 : PP_SYNC;
		j->sink[i].f = &j->hashes[i + 1];
		j->sink[i].is_xz = i;
		j->sink[i].root = p->r->root;
		pp_err_init(&j->sink[i].done_err);
	}
}

static void index_job_release(struct index_job *j)
{
	hash_job_finish(&j->hasher, 1);
	free(j->refs);
	strbuf_release(&j->gz);
	strbuf_release(&j->xz);
	for (size_t i = 0; i < 2; i++) {
		sink_abort(&j->sink[i]);
		free(j->sink[i].path);
		free(j->sink[i].blocks);
		pp_err_release(&j->sink[i].done_err);
	}
	free(j->tail_refs);
	pp_err_release(&j->err);
}

/* Whether the index file of pp_repo_index_ext[i] is published (the
 * uncompressed one always is, if only listed in Release). */
static int index_published(unsigned compression, size_t i)
{
	return !i || (compression & (i == 1 ? PP_REPO_GZ : PP_REPO_XZ));
}

/* The indices of one component and architecture, written and listed. */
static int put_packages(struct publish *p, struct index_job *j,
			const char *comp, const char *arch)
{
	static const char *const ext[] = { "", ".gz", ".xz" };
	const int plain = j->text.len <= PLAIN_INDEX_MAX;
	struct strbuf rel = STRBUF_INIT;
	int rc = 0;

	for (size_t i = 0; i < ARRAY_SIZE(ext) && !rc; i++) {
		if (!index_published(j->compression, i))
			continue;
		strbuf_reset(&rel);
		strbuf_addf(&rel, "%s/binary-%s/Packages%s", comp, arch, ext[i]);
		if (i) /* written as compressed: now named */
			rc = sink_commit(&j->sink[i - 1], p->err);
		if (!rc)
			rc = list_index_as(p, rel.buf, &j->hashes[i], i || plain);
	}
	strbuf_release(&rel);
	return rc;
}

static void index_dir(const struct publish *p, const char *comp,
		      const char *arch, struct strbuf *out)
{
	strbuf_addf(out, "%s/%s/binary-%s", p->tmp.buf, comp, arch);
}

/* Records the files just written under the key they were made from. */
static int keep_for_reuse(struct publish *p, const struct index_job *j,
			  const char *key, const char *comp, const char *arch,
			  size_t pieces_from)
{
	struct pp_repo_index_file f[PP_REPO_INDEX_FILES];
	struct strbuf dir = STRBUF_INIT;
	int rc;

	for (size_t i = 0; i < PP_REPO_INDEX_FILES; i++) {
		f[i].size = j->hashes[i].size;
		strcpy(f[i].md5, "-");
		memcpy(f[i].sha256, j->hashes[i].sha256, sizeof(f[i].sha256));
		f[i].written = i || j->text.len <= PLAIN_INDEX_MAX;
		if (!index_published(j->compression, i)) { /* no hashes */
			f[i].written = -1;
			memset(f[i].sha256, '0', 64);
			f[i].sha256[64] = 0;
		}
	}
	index_dir(p, comp, arch, &dir);
	rc = pp_repo_reuse_put(p->r->root, key, dir.buf, f,
			       p->zcache->used + pieces_from,
			       p->zcache->nr_used - pieces_from, !p->r->no_sync,
			       p->err);
	strbuf_release(&dir);
	return rc;
}

/* A tail of at most so many stanzas or bytes follows a base; past it,
 * the index is made whole again, sorted, and becomes the new base. */
#define TAIL_MAX_STANZAS 256
#define TAIL_MAX_BYTES (1u << 20)

/* Whether the stored file of a base's output is there as recorded. */
static int base_out_intact(const char *root, const struct pp_repo_base_out *o)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	int ok;

	strbuf_addf(&path, "%s/db/indices/files/%s", root, o->sha256);
	ok = stat(path.buf, &st) == 0 && (uint64_t)st.st_size == o->size &&
	     (uint64_t)st.st_ino == o->ino &&
	     st.st_mtim.tv_sec == o->mtime_sec &&
	     st.st_mtim.tv_nsec == o->mtime_nsec && o->prefix <= o->size;
	strbuf_release(&path);
	return ok;
}

/* The stanzas of the base b, in their order (refs sorted: those of the
 * base are in its order among them), then the others (a tail of new
 * stanzas, sorted among themselves) into *out; -1 when the text is not
 * b's base and a short tail (a stanza of the base gone or changed, or
 * too many new ones). */
static int split_tail(const struct pp_repo_base *b,
		      const struct pp_stanza_ref *refs, size_t n,
		      struct pp_stanza_ref **out)
{
	struct pp_stanza_ref *tail = xcalloc(TAIL_MAX_STANZAS + 1,
					     sizeof(*tail));
	size_t nb = 0, nt = 0, bytes = 0;

	*out = xcalloc(n + 1, sizeof(**out));
	for (size_t i = 0; i < n; i++) {
		if (nb < b->nr &&
		    pp_repo_base_fp(refs[i].id, refs[i].id2) == b->fp[nb]) {
			(*out)[nb++] = refs[i];
			continue;
		}
		bytes += refs[i].len + 1;
		if (nt == TAIL_MAX_STANZAS || bytes > TAIL_MAX_BYTES)
			break;
		tail[nt++] = refs[i];
	}
	if (nb != b->nr || !nt || nb + nt != n) {
		free(tail);
		free(*out);
		*out = NULL;
		return -1;
	}
	memcpy(*out + nb, tail, nt * sizeof(*tail));
	free(tail);
	return 0;
}

/* The text of j as the base recorded at path followed by a tail, when
 * it is one (j->refs then in that order, j->from set, *sorted the refs as
 * they were); -1 when not. The base's key is checked once the index key
 * is made. */
static int plan_tail_from(struct publish *p, struct index_job *j,
			  const char *path, struct pp_repo_base *b,
			  struct pp_stanza_ref **sorted)
{
	struct pp_stanza_ref *order;
	int rc = -1;

	if (pp_repo_base_load(path, b) < 0)
		goto out;
	for (size_t i = 0; i < 2; i++)
		if ((b->compression & (i ? PP_REPO_XZ : PP_REPO_GZ)) &&
		    !base_out_intact(p->r->root, &b->out[i]))
			goto out;
	if (b->compression != p->s->compression || !b->nr ||
	    split_tail(b, j->refs, j->text.nr, &order) < 0)
		goto out;
	*sorted = j->refs;
	j->refs = order;
	pp_stanzas_set(&j->text, order, j->text.nr);
	j->tail_refs = xcalloc(j->text.nr - b->nr + 2, sizeof(*j->tail_refs));
	j->tail_refs[0] = (struct pp_stanza_ref){ "", 0, "", "", 0, 0 };
	memcpy(j->tail_refs + 1, order + b->nr,
	       (j->text.nr - b->nr) * sizeof(*order));
	pp_stanzas_set(&j->tail, j->tail_refs, j->text.nr - b->nr + 1);
	j->from = b;
	rc = 0;
out:
	if (rc)
		pp_repo_base_release(b);
	return rc;
}

/* The same, from the suite's own record, else from another suite's of
 * the same component and architecture (a suite switched to a snapshot
 * of one whose index has a tail: then its index is that one's, linked). */
static int plan_tail(struct publish *p, struct index_job *j, const char *comp,
		     const char *arch, struct pp_repo_base *b,
		     struct pp_stanza_ref **sorted)
{
	struct strbuf own = STRBUF_INIT, pattern = STRBUF_INIT;
	glob_t g;
	int rc;

	if (p->o->full || !p->cache->trusted)
		return -1;
	pp_repo_base_path(p->r->root, p->s->suite, comp, arch, &own);
	rc = plan_tail_from(p, j, own.buf, b, sorted);
	if (!rc)
		goto out;
	pp_repo_base_path(p->r->root, "*", comp, arch, &pattern);
	if (glob(pattern.buf, GLOB_NOSORT, NULL, &g) != 0)
		goto out;
	for (size_t i = 0; i < g.gl_pathc && rc; i++)
		if (strcmp(g.gl_pathv[i], own.buf))
			rc = plan_tail_from(p, j, g.gl_pathv[i], b, sorted);
	globfree(&g);
out:
	strbuf_release(&own);
	strbuf_release(&pattern);
	return rc;
}

/* The text back in sorted order (the base was not the one recorded). */
static void plan_undo(struct index_job *j, struct pp_stanza_ref *sorted)
{
	size_t n = j->text.nr;

	free(j->refs);
	j->refs = sorted;
	pp_stanzas_set(&j->text, sorted, n);
	free(j->tail_refs);
	j->tail_refs = NULL;
	pp_repo_base_release(j->from);
	j->from = NULL;
}

/* Fills o's stored file's name and stat in. */
static int base_out_stat(const char *root, const char *sha256,
			 struct pp_repo_base_out *o)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	int rc;

	memcpy(o->sha256, sha256, 65);
	strbuf_addf(&path, "%s/db/indices/files/%s", root, sha256);
	rc = stat(path.buf, &st);
	if (!rc) {
		o->size = (uint64_t)st.st_size;
		o->ino = (uint64_t)st.st_ino;
		o->mtime_sec = st.st_mtim.tv_sec;
		o->mtime_nsec = st.st_mtim.tv_nsec;
	}
	strbuf_release(&path);
	return rc;
}

/* Records the index just made as its suite's base (made whole), or the
 * base it went on from with the files now served (a tail added). A
 * record that cannot be written is no error: the next index is made
 * whole. */
static void keep_base(struct publish *p, struct index_job *j, const char *comp,
		      const char *arch, const unsigned char *md,
		      size_t pieces_from)
{
	struct strbuf path = STRBUF_INIT;
	struct pp_repo_base made, *b = j->from;
	struct pp_err err;

	pp_err_init(&err);
	memset(&made, 0, sizeof(made));
	strbuf_init(&made.pieces);
	if (!b) {
		b = &made;
		b->compression = j->compression;
		b->nr = j->text.nr;
		b->fp = xcalloc(b->nr + 1, sizeof(*b->fp));
		for (size_t i = 0; i < b->nr; i++)
			b->fp[i] = pp_repo_base_fp(j->refs[i].id,
						   j->refs[i].id2);
		memcpy(b->key, md, 32);
		b->text_len = (uint64_t)j->hashes[0].size;
		memcpy(b->text_state, j->hasher.state, sizeof(b->text_state));
		for (size_t i = 0; i < 2; i++)
			b->out[i] = j->sink[i].made;
		b->blocks = j->sink[1].blocks;
		b->nr_blocks = j->sink[1].nr_blocks;
		for (size_t i = pieces_from; i < p->zcache->nr_used; i++) {
			strbuf_addstr(&b->pieces, p->zcache->used[i]);
			strbuf_addch(&b->pieces, '\n');
		}
	}
	for (size_t i = 0; i < 2; i++) {
		if (!(j->compression & (i ? PP_REPO_XZ : PP_REPO_GZ)))
			continue;
		if ((b == &made && !j->sink[i].captured) ||
		    base_out_stat(p->r->root, j->hashes[i + 1].sha256,
				  &b->out[i]) < 0)
			goto out;
	}
	pp_repo_base_path(p->r->root, p->s->suite, comp, arch, &path);
	strbuf_setlen(&path, path.len - strlen(strrchr(path.buf, '/')));
	if (pp_mkdir_p(path.buf, 0755, &err) == 0) {
		strbuf_reset(&path);
		pp_repo_base_path(p->r->root, p->s->suite, comp, arch, &path);
		pp_repo_base_save(path.buf, b, &err);
	}
out:
	if (b == &made) {
		made.blocks = NULL; /* the sink's */
		pp_repo_base_release(&made);
	}
	strbuf_release(&path);
	pp_err_release(&err);
}

/* The cached pieces of the base that the index goes on from: used by
 * this publish (kept in the cache, named by its record). */
static void use_base_pieces(struct publish *p, const struct pp_repo_base *b)
{
	const char *s = b->pieces.buf, *nl;
	struct pp_zcache *zc = p->zcache;

	for (; s && *s && (nl = strchr(s, '\n')); s = nl + 1) {
		ARRAY_GROW(zc->used, zc->alloc_used, zc->nr_used + 1);
		zc->used[zc->nr_used++] = xstrndup(s, (size_t)(nl - s));
	}
}

/* The files recorded under key, linked into the new suite and listed: 0
 * when done, 1 when there are none. */
static int reuse_packages(struct publish *p, const char *key,
			  const char *comp, const char *arch)
{
	struct pp_repo_index_file f[PP_REPO_INDEX_FILES];
	struct strbuf dir = STRBUF_INIT, rel = STRBUF_INIT;
	int rc;

	index_dir(p, comp, arch, &dir);
	rc = pp_repo_reuse_get(p->r->root, key, dir.buf, f, p->zcache, p->err);
	for (size_t i = 0; i < PP_REPO_INDEX_FILES && !rc; i++) {
		struct index_file h = { NULL, f[i].size, "" };

		if (f[i].written < 0)
			continue;
		memcpy(h.sha256, f[i].sha256, sizeof(h.sha256));
		strbuf_reset(&rel);
		strbuf_addf(&rel, "%s/binary-%s/Packages%s", comp, arch,
			    pp_repo_index_ext[i]);
		rc = list_index_as(p, rel.buf, &h, f[i].written);
	}
	p->o->indices_reused += !rc;
	strbuf_release(&dir);
	strbuf_release(&rel);
	return rc;
}

/* The indices of one component and architecture, made from the text in
 * j: compressed (on a thread, with its hashes) while the uncompressed
 * Packages, when small enough to be written, is written on this one. */
static int make_packages(struct publish *p, struct index_job *j,
			 const char *comp, const char *arch, const char *key,
			 const unsigned char *md)
{
	size_t pieces_from = p->zcache->nr_used;
	const int plain = j->text.len <= PLAIN_INDEX_MAX;
	struct strbuf rel = STRBUF_INIT;
	pthread_t job;
	int threaded, rc = 0;

	threaded = pp_thread_start(&job, index_job_run, j) == 0;
	if (!threaded)
		index_job_run(j);
	if (plain) {
		strbuf_addf(&rel, "%s/binary-%s/Packages", comp, arch);
		rc = write_index(p, rel.buf, NULL, &j->text);
	}
	if (threaded)
		pthread_join(job, NULL);
	hash_job_finish(&j->hasher, 0);
	j->hashes[0] = j->hasher.f;
	j->text_crc = j->hasher.crc;
	/* Cached pieces are named by their pool files' names and stat keys,
	 * not by their text: one whose text is not the text at hand (db/cache
	 * changed by hand, or by a padpack whose stanzas differ) shows in the
	 * gzip trailer's CRC, joined from the pieces'. Then every piece is
	 * checked against its text, and the stale ones made again. */
	if (!rc && !j->rc && j->with_crc &&
	    j->sink[0].trailer_crc != j->text_crc && !p->zcache->check_text) {
		p->zcache->check_text = 1;
		index_job_run(j);
	}
	if (!rc && !j->rc && j->with_crc &&
	    j->sink[0].trailer_crc != j->text_crc)
		rc = pp_err_set(p->err, PP_EXIT_IO, "%s/binary-%s/Packages.gz: "
				"its CRC is not its text's", comp, arch);
	if (!rc && j->rc)
		rc = pp_err_move(p->err, &j->err);
	if (!rc)
		rc = put_packages(p, j, comp, arch);
	if (!rc && j->from)
		use_base_pieces(p, j->from);
	if (!rc)
		rc = keep_for_reuse(p, j, key, comp, arch, pieces_from);
	if (!rc)
		keep_base(p, j, comp, arch, md, pieces_from);
	strbuf_release(&rel);
	return rc;
}

/* The indices of one component and architecture: linked from an earlier
 * publish's when they were made from the same pool files (a snapshot
 * served, a suite nothing changed in), else made. */
static int write_packages(struct publish *p, const struct pp_repo_members *ms,
			  const char *comp, const char *arch)
{
	struct index_job j;
	char **names = xcalloc(ms->nr + 1, sizeof(*names));
	char **pkgs = xcalloc(ms->nr + 1, sizeof(*pkgs));
	struct pp_repo_entry **found = xcalloc(ms->nr + 1, sizeof(*found));
	struct strbuf dir = STRBUF_INIT;
	char key[2 * PP_HASH_MAX + 1];
	unsigned char md[32];
	struct pp_repo_base base;
	struct pp_stanza_ref *sorted = NULL;
	size_t n = 0;
	int rc;

	memset(&base, 0, sizeof(base));
	strbuf_init(&base.pieces);
	index_job_init(&j, p, comp, arch);
	for (size_t i = 0; i < ms->nr; i++)
		if (selected(&ms->m[i], comp, arch)) {
			pkgs[n] = ms->m[i].package;
			names[n++] = ms->m[i].filename;
		}
	index_dir(p, comp, arch, &dir);
	strbuf_addstr(&dir, "/by-hash/SHA256");
	rc = pp_mkdir_p(dir.buf, 0755, p->err);
	if (!rc &&
	    cached_text(p, names, pkgs, n, &j.text, &j.refs, found) < 0) {
		rc = read_missing(p, names, n, found);
		if (!rc)
			rc = cached_text(p, names, pkgs, n, &j.text, &j.refs,
					 NULL);
	}
	if (!rc) { /* the text's hashes begin as its key is made */
		int tail = plan_tail(p, &j, comp, arch, &base, &sorted) == 0;

		hash_job_start(&j.hasher, &j.text, j.with_crc, j.from);
		index_key(j.refs, n, p->s->compression, key,
			  tail ? (size_t)base.nr : n, md);
		if (tail && memcmp(md, base.key, sizeof(md))) {
			/* not the base recorded after all: made whole */
			hash_job_finish(&j.hasher, 1);
			plan_undo(&j, sorted);
			sorted = NULL;
			hash_job_start(&j.hasher, &j.text, j.with_crc, NULL);
			index_key(j.refs, n, p->s->compression, key, n, md);
		}
	}
	/* (not from a cache that is not as padpack wrote it: its indices are
	 * made, every piece checked against its text) */
	if (!rc && !p->o->full && p->cache->trusted &&
	    pp_repo_reuse_has(p->r->root, key)) {
		hash_job_finish(&j.hasher, 1);
		rc = reuse_packages(p, key, comp, arch);
		if (rc <= 0)
			goto out;
		rc = 0; /* no whole record after all: made, hashes again */
		hash_job_start(&j.hasher, &j.text, j.with_crc, j.from);
	}
	if (!rc)
		rc = make_packages(p, &j, comp, arch, key, md);
out:
	index_job_release(&j);
	free(sorted);
	pp_repo_base_release(&base);
	strbuf_release(&dir);
	free(found);
	free(pkgs);
	free(names);
	return rc;
}

/* A text of lines given as "stanzas" of one line each (the last with its
 * newline), so that zpieces cuts it between lines, by their content. */
static struct pp_stanza_ref *line_refs(const struct strbuf *text, size_t *nr)
{
	struct pp_stanza_ref *refs = NULL;
	size_t alloc = 0;
	const char *p = text->buf, *end = text->buf + text->len;

	*nr = 0;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t len = eol ? (size_t)(eol - p) : (size_t)(end - p);

		ARRAY_GROW(refs, alloc, *nr + 1);
		refs[(*nr)++] = (struct pp_stanza_ref){ p, len, NULL, NULL, 0, 0 };
		p += len + 1;
	}
	if (*nr && text->buf[text->len - 1] == '\n')
		refs[*nr - 1].len++;
	return refs;
}

/* <comp>/Contents-<arch>(.gz): the files of the packages write_packages
 * listed (their cache entries fresh), compressed in content-defined
 * pieces like Packages. */
static int write_contents(struct publish *p, const struct pp_repo_members *ms,
			  const char *comp, const char *arch)
{
	char **names = xcalloc(ms->nr + 1, sizeof(*names));
	struct strbuf text = STRBUF_INIT, gz = STRBUF_INIT, rel = STRBUF_INIT;
	struct index_file f = { 0 }, plain = { 0 };
	struct pp_stanza_ref *refs = NULL;
	struct pp_stanzas lines;
	size_t n = 0, nr_refs;
	int rc;

	for (size_t i = 0; i < ms->nr; i++)
		if (selected(&ms->m[i], comp, arch))
			names[n++] = ms->m[i].filename;
	strbuf_addf(&rel, "%s/%s/by-hash/SHA256", p->tmp.buf, comp);
	rc = pp_mkdir_p(rel.buf, 0755, p->err);
	if (!rc)
		rc = pp_repo_contents_text(p->r->root, p->contents, p->cache,
					   names, n, &text, p->err);
	if (!rc) {
		const struct pp_zpieces_out out = { PP_COMP_GZIP, 9, &gz,
						    hash_output, &f, NULL };

		refs = line_refs(&text, &nr_refs);
		pp_stanzas_set(&lines, refs, nr_refs);
		rc = nr_refs ? pp_zpieces_compress_stanzas(&lines, &out, 1,
							   p->zcache, p->err) :
			pp_zpieces_compress("", 0, PP_COMP_GZIP, 9, p->zcache,
					    &gz, p->err);
		if (!rc && !nr_refs)
			hash_data(gz.buf, gz.len, &f);
	}
	/* The plain file too: apt fetches an index only when Release lists
	 * its plain name. */
	strbuf_reset(&rel);
	strbuf_addf(&rel, "%s/Contents-%s", comp, arch);
	hash_data(text.buf, text.len, &plain);
	if (!rc)
		rc = write_index(p, rel.buf, &text, NULL);
	if (!rc)
		rc = list_index(p, rel.buf, &plain);
	strbuf_addstr(&rel, ".gz");
	if (!rc)
		rc = write_index(p, rel.buf, &gz, NULL);
	if (!rc)
		rc = list_index(p, rel.buf, &f);
	free(refs);
	free(names);
	strbuf_release(&text);
	strbuf_release(&gz);
	strbuf_release(&rel);
	return rc;
}

/* The new directory replaces the served one in one step: its
 * directories synced before (its files were as they were written),
 * dists/ after. */
static int swap_in(struct publish *p)
{
	char *dists = pp_dirname(p->cur.buf);
	int first = access(p->cur.buf, F_OK) < 0, rc = 0;

	if (!p->r->no_sync)
		rc = pp_fsync_tree_dirs(p->tmp.buf, p->err);
	if (!rc && first && rename(p->tmp.buf, p->cur.buf) < 0)
		rc = pp_err_errno(p->err, PP_EXIT_IO, "cannot rename '%s' to "
				  "'%s'", p->tmp.buf, p->cur.buf);
	else if (!rc && !first && renameat2(AT_FDCWD, p->tmp.buf, AT_FDCWD,
					    p->cur.buf, RENAME_EXCHANGE) < 0)
		rc = pp_err_errno(p->err, PP_EXIT_IO, "cannot exchange '%s' "
				  "and '%s'", p->tmp.buf, p->cur.buf);
	if (!rc && !p->r->no_sync)
		rc = pp_fsync_dir(dists, p->err);
	if (!rc && !first) /* now the old suite */
		rc = pp_remove_tree(p->tmp.buf, p->err);
	free(dists);
	return rc;
}

static int codename_link(struct publish *p)
{
	struct strbuf link_path = STRBUF_INIT;
	struct stat st;
	int rc = 0;

	if (!strcmp(p->s->codename, p->s->suite))
		return 0;
	strbuf_addf(&link_path, "%s/dists/%s", p->r->root, p->s->codename);
	if (lstat(link_path.buf, &st) < 0) {
		if (symlink(p->s->suite, link_path.buf) < 0)
			rc = pp_err_errno(p->err, PP_EXIT_IO, "cannot link '%s'",
					  link_path.buf);
		else if (!p->r->no_sync) { /* its name in dists/ */
			strbuf_setlen(&link_path, link_path.len -
				      strlen(p->s->codename) - 1);
			rc = pp_fsync_dir(link_path.buf, p->err);
		}
	}
	strbuf_release(&link_path);
	return rc;
}

/* A suite directory that failed before it was swapped in was never
 * served, and one that failed after (syncing dists/, removing the old
 * suite) is the old suite, served no more: it goes now, not at the next
 * publish (its error is the one the user sees; one in removing it would
 * only hide that). */
static void drop_unserved(struct publish *p)
{
	struct pp_err scratch;

	pp_err_init(&scratch);
	pp_remove_tree(p->tmp.buf, &scratch);
	pp_err_release(&scratch);
}

static int publish_suite(struct publish *p)
{
	struct pp_repo_members *ms;
	int rc;

	strbuf_addf(&p->cur, "%s/dists/%s", p->r->root, p->s->suite);
	strbuf_addf(&p->tmp, "%s/dists/.%s.new", p->r->root, p->s->suite);
	/* Left by an interrupted publish: never served, safe to drop. */
	if (pp_remove_tree(p->tmp.buf, p->err) < 0 ||
	    pp_repo_members_of(p->r, p->s, &ms, p->err) < 0)
		return -1;
	rc = pp_mkdir_p(p->tmp.buf, 0755, p->err);
	for (size_t c = 0; c < p->s->nr_components && !rc; c++)
		for (size_t a = 0; a < p->s->nr_archs && !rc; a++)
			rc = write_packages(p, ms, p->s->components[c],
					    p->s->archs[a]);
	for (size_t c = 0; c < p->s->nr_components && !rc && p->contents; c++)
		for (size_t a = 0; a < p->s->nr_archs && !rc; a++)
			rc = write_contents(p, ms, p->s->components[c],
					    p->s->archs[a]);
	if (!rc)
		rc = pp_repo_byhash_keep(p->r, p->s, p->cur.buf, p->tmp.buf,
					 p->o->now, p->err);
	if (!rc)
		rc = pp_repo_write_release(p);
	if (!rc)
		rc = swap_in(p);
	if (rc)
		drop_unserved(p);
	if (!rc)
		rc = codename_link(p);
	if (!rc)
		rc = pp_repo_client_files(p);
	return rc;
}

static void publish_release(struct publish *p)
{
	for (size_t i = 0; i < p->nr_files; i++)
		free(p->files[i].path);
	free(p->files);
	strbuf_release(&p->cur);
	strbuf_release(&p->tmp);
}

static int publish_one(struct pp_repo *r, const struct pp_repo_suite *s,
		       struct pp_repo_publish_opts *o,
		       struct pp_repo_cache *cache, struct pp_zcache *zc,
		       struct pp_repo_contents *contents, struct pp_err *err)
{
	struct publish p = { r, s, o, cache, zc,
			     s->contents ? contents : NULL, STRBUF_INIT,
			     STRBUF_INIT, NULL, 0, 0, err };
	int rc;

	pp_progress_task(o->progress, "writing the indices", 0, "suites");
	pp_progress_add(o->progress, 0, s->suite);
	if (!s->signing_key && !o->unsigned_ok)
		return pp_err_set(err, PP_EXIT_USAGE, "suite '%s' has no "
				  "Signing-Key: set one with 'padpack repo init "
				  "%s --suite %s --key SECRET', or publish with "
				  "--unsigned for a repository trusted another "
				  "way", s->suite, r->root, s->suite);
	rc = publish_suite(&p);
	publish_release(&p);
	return rc;
}

int pp_repo_publish(struct pp_repo *r, struct pp_repo_publish_opts *o,
		    struct pp_err *err)
{
	struct strbuf zdir = STRBUF_INIT;
	struct pp_repo_cache *cache;
	struct pp_repo_contents *contents = NULL;
	struct pp_zcache zc;
	int rc = 0, skipped = 0;

	if (pp_repo_cache_of(r, &cache, err) < 0)
		return -1;
	strbuf_addf(&zdir, "%s/db/zcache", r->root);
	pp_zcache_open(&zc, zdir.buf);
	strbuf_release(&zdir);
	if (o->full) { /* every pool file read again, once */
		/* and every cached piece checked against the text */
		zc.check_text = 1;
		pp_repo_cache_release(cache);
		cache->dirty = 1;
		cache->rewrite = 1;
		cache->sync = !r->no_sync;
	}
	if (!cache->trusted)
		zc.check_text = 1;
	for (size_t i = 0; i < r->nr_suites && !contents; i++)
		if (r->suites[i].contents)
			contents = pp_repo_contents_open(r->root);
	for (size_t i = 0; i < r->nr_suites && !rc; i++)
		if (!o->suite || !strcmp(o->suite, r->suites[i].suite))
			rc = publish_one(r, &r->suites[i], o, cache, &zc,
					 contents, err);
		else /* served as it is: its pieces kept for its next change */
			skipped = 1;
	/* every index made, every piece checked: the cache can be trusted */
	cache->checked = !rc && zc.check_text;
	/* A suite left out still serves its index as it was: the pool files
	 * it names may be ones its list dropped since. They go at the next
	 * publish of every suite. */
	if (!rc && skipped)
		rc = pp_repo_cache_save(r->root, cache, err);
	else if (!rc)
		rc = pp_repo_drop_garbage(r, cache, o->full, err);
	if (!rc)
		rc = pp_repo_reuse_prune(r->root, err);
	if (!rc && skipped)
		rc = pp_repo_reuse_use_all(r->root, &zc, err);
	if (contents && pp_repo_contents_close(r->root, contents, !rc,
					       !r->no_sync, rc ? NULL : err) < 0)
		rc = -1;
	o->pieces_compressed = zc.misses;
	o->pieces_cached = zc.hits;
	if (pp_zcache_close(&zc, !rc, err) < 0)
		rc = -1;
	return rc;
}
