#include "zpieces.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lzma.h>
#include <zlib.h>

#include "control.h"
#include "fsutil.h"
#include "hash.h"
#include "thread.h"
#include "xalloc.h"

/* A piece ends after a stanza whose first line hashes to 0 mod CUT_EVERY,
 * once it holds MIN_PIECE bytes; it never grows past MAX_PIECE. */
#define CUT_EVERY 128
#define MIN_PIECE (64u << 10)
#define MAX_PIECE (512u << 10)
#define XZ_DICT (1u << 20) /* >= MAX_PIECE: a larger one would buy nothing */
#define XZ_MIN_DICT 4096u  /* LZMA2's smallest */
#define SHA256_LEN 32

/* Stanzas [first, end) of the text, len bytes of it with the blank lines
 * that follow them (all but the text's last stanza are followed by one). */
struct piece {
	size_t first, end;
	size_t len;
	char hex[2 * PP_HASH_MAX + 1]; /* SHA-256 of the text: the cache key */
};

/* FNV-1a */
unsigned pp_zpieces_line_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static size_t joined_len(const struct pp_stanzas *t, size_t i)
{
	return t->s[i].len + (i + 1 < t->nr);
}

/* Whether a piece of size bytes ends after stanza i. */
static int piece_ends(const struct pp_stanzas *t, size_t i, size_t size)
{
	const char *first = t->s[i].text, *nl;
	uint32_t h;

	if (i + 1 == t->nr || size >= MAX_PIECE)
		return 1;
	if (size < MIN_PIECE)
		return 0;
	if (t->s[i].has_cut_hash) {
		h = t->s[i].cut_hash;
	} else {
		nl = memchr(first, '\n', t->s[i].len);
		h = pp_zpieces_line_hash(first, nl ? (size_t)(nl - first) :
						     t->s[i].len);
	}
	return h % CUT_EVERY == 0;
}

static size_t cut(const struct pp_stanzas *t, struct piece **out)
{
	size_t nr = 0, alloc = 0, first = 0, size = 0;

	*out = NULL;
	for (size_t i = 0; i < t->nr; i++) {
		size += joined_len(t, i);
		if (piece_ends(t, i, size)) {
			ARRAY_GROW(*out, alloc, nr + 1);
			(*out)[nr++] = (struct piece){ first, i + 1, size, "" };
			first = i + 1;
			size = 0;
		}
	}
	if (!nr) { /* empty text: one empty piece */
		ARRAY_GROW(*out, alloc, 1);
		(*out)[nr++] = (struct piece){ 0, 0, 0, "" };
	}
	return nr;
}

void pp_stanzas_set(struct pp_stanzas *t, const struct pp_stanza_ref *s,
		    size_t nr)
{
	*t = (struct pp_stanzas){ s, nr, 0 };
	for (size_t i = 0; i < nr; i++)
		t->len += joined_len(t, i);
}

void pp_stanzas_add(const struct pp_stanzas *t, size_t first, size_t end,
		    struct strbuf *out)
{
	size_t len = 0;

	for (size_t i = first; i < end; i++)
		len += joined_len(t, i);
	strbuf_grow(out, len);
	for (size_t i = first; i < end; i++) {
		strbuf_add(out, t->s[i].text, t->s[i].len);
		if (i + 1 < t->nr)
			strbuf_addch(out, '\n');
	}
}

/* The piece's text, in buf (reused from piece to piece). */
static void piece_text(const struct pp_stanzas *t, const struct piece *p,
		       struct strbuf *buf)
{
	strbuf_reset(buf);
	pp_stanzas_add(t, p->first, p->end, buf);
}

/* ---- compressing one piece --------------------------------------------- */

/* Raw deflate; all but the last piece end with a sync flush, which ends
 * the last block on a byte boundary without marking it final. */
static int deflate_piece(const char *in, size_t len, int level, int last,
			 struct strbuf *out)
{
	z_stream s;
	int r;

	memset(&s, 0, sizeof(s));
	if (deflateInit2(&s, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	s.next_in = (Bytef *)in;
	s.avail_in = (uInt)len;
	do {
		strbuf_grow(out, deflateBound(&s, len) + 64);
		s.next_out = (Bytef *)out->buf + out->len;
		s.avail_out = (uInt)(out->alloc - out->len - 1);
		r = deflate(&s, last ? Z_FINISH : Z_SYNC_FLUSH);
		strbuf_setlen(out, out->alloc - 1 - s.avail_out);
	} while (r == Z_OK && s.avail_out == 0);
	deflateEnd(&s);
	return (last ? r == Z_STREAM_END : r == Z_OK) ? 0 : -1;
}

/* The encoder's match finder is a megabyte or so of tables it clears:
 * mapped in one call rather than faulted in page by page. */
static void *prefaulted_alloc(void *opaque, size_t nmemb, size_t size)
{
	void *p = malloc(nmemb * size);

	(void)opaque;
	if (p)
		xprefault(p, nmemb * size);
	return p;
}

static void plain_free(void *opaque, void *ptr)
{
	(void)opaque;
	free(ptr);
}

/* One xz block, appended to out; sizes gets its unpadded and uncompressed
 * sizes, which the stream's index lists. */
static int xz_piece(const char *in, size_t len, int level, struct strbuf *out,
		    uint64_t sizes[2])
{
	lzma_options_lzma opt;
	lzma_filter filters[2];
	lzma_block block;
	size_t bound = lzma_block_buffer_bound(len), pos = out->len;
	const lzma_allocator alloc = { prefaulted_alloc, plain_free, NULL };

	if (lzma_lzma_preset(&opt, (uint32_t)level))
		return -1;
	/* A dictionary as large as the piece compresses it as well as any
	 * larger one, and the encoder's match finder, sized from it, is then
	 * small: clearing a megabyte-sized one cost more than the piece. */
	opt.dict_size = XZ_MIN_DICT;
	while (opt.dict_size < len && opt.dict_size < XZ_DICT)
		opt.dict_size *= 2;
	/* Index text is stanzas of the same fields: short matches are most
	 * of it. The HC4 match finder with a nice length of 16 compresses a
	 * Packages file of 5,000 stanzas 0.2% smaller than -6's BT4 and 64,
	 * in 60% of the time (the one piece an added package changes is most
	 * of what an incremental publish computes). */
	if (level >= 4) {
		opt.mf = LZMA_MF_HC4;
		opt.nice_len = 16;
	}
	filters[0] = (lzma_filter){ LZMA_FILTER_LZMA2, &opt };
	filters[1] = (lzma_filter){ LZMA_VLI_UNKNOWN, NULL };
	memset(&block, 0, sizeof(block));
	block.check = LZMA_CHECK_CRC64;
	block.filters = filters;
	strbuf_grow(out, bound);
	if (lzma_block_buffer_encode(&block, &alloc, (const uint8_t *)in, len,
				     (uint8_t *)out->buf, &pos,
				     out->len + bound) != LZMA_OK)
		return -1;
	sizes[0] = lzma_block_unpadded_size(&block);
	sizes[1] = block.uncompressed_size;
	strbuf_setlen(out, pos);
	return 0;
}

/* Appends the piece compressed to out; sizes gets what an xz index lists
 * (for gzip: the compressed and uncompressed sizes). */
static int compress_piece(const char *in, size_t len, enum pp_compressor type,
			  int level, int last, struct strbuf *out,
			  uint64_t sizes[2])
{
	size_t was = out->len;

	if (type == PP_COMP_XZ)
		return xz_piece(in, len, level, out, sizes);
	if (deflate_piece(in, len, level, last, out) < 0)
		return -1;
	sizes[0] = out->len - was;
	sizes[1] = len;
	return 0;
}

/* ---- the cache of compressed pieces ------------------------------------ */

void pp_zcache_open(struct pp_zcache *zc, const char *dir)
{
	memset(zc, 0, sizeof(zc[0]));
	zc->dir = dir ? xstrdup(dir) : NULL;
}

static void text_sha256(const char *text, size_t len,
			unsigned char sha[SHA256_LEN])
{
	unsigned char digest[PP_HASH_MAX];
	struct pp_hash h;

	pp_hash_init(&h, PP_SHA256);
	pp_hash_update(&h, text, len);
	pp_hash_final(&h, digest);
	memcpy(sha, digest, SHA256_LEN);
}

/* A piece of stanzas with ids is named by them (and its length, which
 * says whether the text's last blank line is in it): a tenth of the
 * bytes of its text to hash. The tag changes with what a stanza's id
 * stands for (repo-publish.c's index key). */
static void name_by_ids(const struct pp_stanzas *t, struct piece *p,
			struct strbuf *buf)
{
	static const char tag[] = "padpack piece 1: Packages stanzas\n";
	uint64_t len = p->len;
	struct pp_hash h;

	/* the ids gathered first (in buf, reused): hundreds of small
	 * updates a piece cost more than the hashing */
	strbuf_reset(buf);
	strbuf_add(buf, tag, sizeof(tag) - 1);
	for (size_t i = p->first; i < p->end; i++) {
		strbuf_add(buf, t->s[i].id, strlen(t->s[i].id) + 1);
		strbuf_add(buf, t->s[i].id2, strlen(t->s[i].id2) + 1);
	}
	strbuf_add(buf, &len, sizeof(len));
	pp_hash_init(&h, PP_SHA256);
	pp_hash_update(&h, buf->buf, buf->len);
	pp_hash_final_hex(&h, p->hex);
}

static void name_pieces(const struct pp_stanzas *t, struct piece *p,
			size_t n)
{
	struct strbuf buf = STRBUF_INIT;
	unsigned char sha[SHA256_LEN];

	for (size_t i = 0; i < n; i++) {
		if (t->nr && t->s[0].id) {
			name_by_ids(t, &p[i], &buf);
			continue;
		}
		piece_text(t, &p[i], &buf);
		text_sha256(buf.buf, buf.len, sha);
		pp_hex(sha, SHA256_LEN, p[i].hex);
	}
	strbuf_release(&buf);
}

/* A cached piece is this head, then the compressed bytes (a cache of this
 * machine only: native byte order). The CRC and the sizes catch a file
 * that was cut short or damaged: it is then made again. The text's CRC
 * is what a gzip trailer needs (combined piece by piece: the text is not
 * read again); its SHA-256, what check_text compares. */
struct cached_head {
	uint64_t payload_len;
	uint64_t sizes[2]; /* as compress_piece gives them */
	uint32_t crc;      /* CRC-32 of the compressed bytes */
	uint32_t text_crc; /* CRC-32 of the text */
	unsigned char text_sha256[SHA256_LEN];
};

static uint32_t crc_of(const char *buf, size_t len)
{
	return (uint32_t)crc32(crc32(0, NULL, 0), (const Bytef *)buf, (uInt)len);
}

/* Appends the cached piece at path to out (read straight into it) and
 * gives its head, if the file is whole and is of a piece of len bytes. */
static int read_cached(const char *path, size_t len, struct cached_head *head,
		       struct strbuf *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct cached_head h;
	struct stat st;
	size_t n;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || (size_t)st.st_size < sizeof(h) ||
	    pp_read_full(fd, &h, sizeof(h)) != (ssize_t)sizeof(h) ||
	    h.payload_len != (uint64_t)st.st_size - sizeof(h) ||
	    h.sizes[1] != len) {
		close(fd);
		return -1;
	}
	n = (size_t)h.payload_len;
	strbuf_grow(out, n);
	if (pp_read_full(fd, out->buf + out->len, n) != (ssize_t)n ||
	    crc_of(out->buf + out->len, n) != h.crc) {
		close(fd);
		return -1;
	}
	close(fd);
	strbuf_setlen(out, out->len + n);
	*head = h;
	return 0;
}

/* Compresses the piece into made, after room for its head, and fills the
 * head in (a copy in *head). */
static int make_piece(const char *in, size_t len, enum pp_compressor type,
		      int level, int last, struct strbuf *made,
		      struct cached_head *head)
{
	struct cached_head h;

	memset(&h, 0, sizeof(h));
	strbuf_add(made, &h, sizeof(h));
	if (compress_piece(in, len, type, level, last, made, h.sizes) < 0)
		return -1;
	h.payload_len = made->len - sizeof(h);
	h.crc = crc_of(made->buf + sizeof(h), made->len - sizeof(h));
	h.text_crc = crc_of(in, len);
	text_sha256(in, len, h.text_sha256);
	memcpy(made->buf, &h, sizeof(h));
	*head = h;
	return 0;
}

/* One output's join: the text, where the pieces are cached, the output,
 * and room for a piece's text. */
struct join {
	const struct pp_stanzas *t;
	const struct piece *p;
	size_t n;
	enum pp_compressor type;
	int level;
	struct pp_zcache *zc;
	struct strbuf *out;
	struct strbuf ptext; /* the text of the piece at hand, when needed */
	struct pp_err *err;
	const struct pp_zpieces_out *o; /* its part callback */
	struct ahead *ahead; /* pieces made on threads of their own, or NULL */
	size_t nr_ahead;
	/* xz: a stream continued after blocks already written (their
	 * unpadded and uncompressed sizes), without its header */
	const uint64_t (*xz_before)[2];
	size_t xz_nr_before;
};

/* A piece missing from the cache, made on a thread of its own while the
 * join reads the cached pieces before it (one added package: one piece
 * of each output, whose compressing would otherwise wait its turn). */
struct ahead {
	const struct join *j;
	size_t piece;
	char *path;           /* in the cache */
	struct strbuf made;   /* head, then the compressed bytes */
	struct strbuf ptext;
	struct cached_head head;
	struct pp_err err;
	pthread_t tid;
	int rc, threaded;
};

/* Hands the output so far to the part callback once it is large. */
static void pass_part(struct join *j)
{
	if (j->o->part && j->out->len >= PP_ZPIECES_PART) {
		j->o->part(j->o->ctx, j->out);
		strbuf_reset(j->out);
	}
}

/* Whether a cached piece's head says it was made from the piece's text
 * (check_text: the text hashed again, as a piece named by its stanzas'
 * ids is trusted otherwise). */
static int text_matches(struct join *j, const struct piece *p,
			const struct cached_head *h)
{
	unsigned char sha[SHA256_LEN];

	if (!j->zc->check_text)
		return 1;
	piece_text(j->t, p, &j->ptext);
	text_sha256(j->ptext.buf, j->ptext.len, sha);
	return !memcmp(sha, h->text_sha256, SHA256_LEN);
}

/* The cache's name of piece i of the join's output, with its directory
 * in path (if set). */
static void piece_name(const struct join *j, size_t i, struct strbuf *name,
		       struct strbuf *path)
{
	const int last = i + 1 == j->n;

	/* ".5": pieces with a head holding their text's CRC and SHA-256;
	 * xz ones made with a dictionary sized from the piece, HC4 and nice
	 * length 16 */
	strbuf_addf(name, "%s.%s%d%s.5", j->p[i].hex,
		    j->type == PP_COMP_GZIP ? "gz" : "xz", j->level,
		    j->type == PP_COMP_GZIP && last ? "L" : "");
	if (path)
		strbuf_addf(path, "%s/%s", j->zc->dir, name->buf);
}

/* Compresses piece i into made (after room for its head) and caches it
 * at path (NULL: no cache). */
static int make_and_cache(const struct join *j, size_t i, const char *path,
			  struct strbuf *ptext, struct strbuf *made,
			  struct cached_head *head, struct pp_err *err)
{
	piece_text(j->t, &j->p[i], ptext);
	if (make_piece(ptext->buf, ptext->len, j->type, j->level,
		       i + 1 == j->n, made, head) < 0)
		return pp_err_set(err, PP_EXIT_IO, "compression failed");
	if (path && (pp_mkdir_p(j->zc->dir, 0755, err) < 0 ||
		     pp_write_file(path, made->buf, made->len, 0644, err) < 0))
		return -1;
	return 0;
}

static void *ahead_run(void *arg)
{
	struct ahead *a = arg;

	a->rc = make_and_cache(a->j, a->piece, a->path, &a->ptext, &a->made,
			       &a->head, &a->err);
	return NULL;
}

/* The piece made ahead for piece i, once it is done; NULL if none was. */
static struct ahead *ahead_of(struct join *j, size_t i)
{
	for (size_t k = 0; k < j->nr_ahead; k++) {
		struct ahead *a = &j->ahead[k];

		if (a->piece != i)
			continue;
		if (a->threaded) {
			pthread_join(a->tid, NULL);
			a->threaded = 0;
		}
		return a;
	}
	return NULL;
}

/* Appends piece i compressed to out, from the cache or made (and cached);
 * head gets its sizes (an xz piece's go to the index) and its text's
 * CRC (a gzip trailer's). */
static int get_piece(struct join *j, size_t i, struct cached_head *head)
{
	const size_t hsize = sizeof(struct cached_head);
	const struct piece *p = &j->p[i];
	struct strbuf name = STRBUF_INIT, path = STRBUF_INIT, made = STRBUF_INIT;
	struct pp_zcache *zc = j->zc;
	struct strbuf *out = j->out;
	struct ahead *a = ahead_of(j, i);
	size_t was = out->len;
	int rc = 0;

	if (zc && zc->dir) {
		piece_name(j, i, &name, &path);
		ARRAY_GROW(zc->used, zc->alloc_used, zc->nr_used + 1);
		zc->used[zc->nr_used++] = strbuf_detach(&name, NULL);
		if (!a && read_cached(path.buf, p->len, head, out) == 0 &&
		    text_matches(j, p, head)) {
			zc->hits++;
			goto out;
		}
		strbuf_setlen(out, was);
		zc->misses++;
	}
	if (a) { /* made ahead (and cached): its result */
		rc = a->rc ? pp_err_move(j->err, &a->err) : 0;
		*head = a->head;
		made = a->made; /* taken: released here */
		strbuf_init(&a->made);
	} else {
		rc = make_and_cache(j, i, zc && zc->dir ? path.buf : NULL,
				    &j->ptext, &made, head, j->err);
	}
	if (!rc)
		strbuf_add(out, made.buf + hsize, made.len - hsize);
out:
	strbuf_release(&path);
	strbuf_release(&made);
	return rc;
}

/* At most this many pieces of an output are made ahead: past it (a
 * first publish, a --full one) the outputs' own threads are enough. */
#define MAX_AHEAD 4

/* Starts making the pieces of the join's output that the cache lacks,
 * when they are few, each on a thread of its own. */
static void start_ahead(struct join *j)
{
	struct strbuf name = STRBUF_INIT, path = STRBUF_INIT;
	size_t missing[MAX_AHEAD], nr = 0;

	j->ahead = NULL;
	j->nr_ahead = 0;
	if (!j->zc || !j->zc->dir || j->zc->check_text)
		return;
	for (size_t i = 0; i < j->n && nr <= MAX_AHEAD; i++) {
		if (!j->p[i].len)
			continue;
		strbuf_reset(&name);
		strbuf_reset(&path);
		piece_name(j, i, &name, &path);
		if (access(path.buf, F_OK) < 0 && nr++ < MAX_AHEAD)
			missing[nr - 1] = i;
	}
	if (nr && nr <= MAX_AHEAD) {
		j->ahead = xcalloc(nr, sizeof(*j->ahead));
		j->nr_ahead = nr;
	}
	for (size_t k = 0; k < j->nr_ahead; k++) {
		struct ahead *a = &j->ahead[k];

		strbuf_reset(&name);
		strbuf_reset(&path);
		piece_name(j, missing[k], &name, &path);
		*a = (struct ahead){ j, missing[k], strbuf_detach(&path, NULL),
				     STRBUF_INIT, STRBUF_INIT, { 0 }, { 0 }, 0,
				     0, 0 };
		pp_err_init(&a->err);
		a->threaded = pp_thread_start(&a->tid, ahead_run, a) == 0;
		if (!a->threaded)
			ahead_run(a);
	}
	strbuf_release(&name);
	strbuf_release(&path);
}

/* Waits for the pieces made ahead (a join that failed before it reached
 * them) and frees them. */
static void release_ahead(struct join *j)
{
	for (size_t k = 0; k < j->nr_ahead; k++) {
		struct ahead *a = &j->ahead[k];

		if (a->threaded)
			pthread_join(a->tid, NULL);
		free(a->path);
		strbuf_release(&a->made);
		strbuf_release(&a->ptext);
		pp_err_release(&a->err);
	}
	free(j->ahead);
	j->ahead = NULL;
	j->nr_ahead = 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int pp_zcache_close(struct pp_zcache *zc, int prune, struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT;
	struct dirent *de;
	DIR *d = zc->dir && prune ? opendir(zc->dir) : NULL;
	int rc = 0;

	if (zc->nr_used)
		qsort(zc->used, zc->nr_used, sizeof(*zc->used), cmp_str);
	while (d && (de = readdir(d))) {
		const char *name = de->d_name;

		if (name[0] == '.' || (zc->nr_used && bsearch(&name, zc->used,
			zc->nr_used, sizeof(*zc->used), cmp_str)))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", zc->dir, name);
		if (unlink(path.buf) < 0 && !rc)
			rc = pp_err_errno(err, PP_EXIT_IO, "cannot remove '%s'",
					  path.buf);
	}
	if (d)
		closedir(d);
	for (size_t i = 0; i < zc->nr_used; i++)
		free(zc->used[i]);
	free(zc->used);
	free(zc->dir);
	strbuf_release(&path);
	memset(zc, 0, sizeof(*zc));
	return rc;
}

/* ---- joining the pieces ----------------------------------------------- */

static void put_le32(struct strbuf *out, uint32_t v)
{
	unsigned char b[4] = { v & 255, (v >> 8) & 255, (v >> 16) & 255, v >> 24 };

	strbuf_add(out, b, 4);
}

/* The CRC-32 of the whole text, which the gzip trailer holds, is made
 * from the pieces' (kept with them), not from the text. */
static int gzip_join(struct join *j)
{
	/* no name, no mtime, XFL as gzip sets it, OS Unix */
	const unsigned char head[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0,
					 j->level == 9 ? 2 : j->level == 1 ? 4 : 0,
					 3 };
	uLong crc = crc32(0, NULL, 0);
	struct cached_head h;
	int rc = 0;

	/* about what Packages compresses to (a part, when passed on) */
	strbuf_grow(j->out, (j->o->part ? PP_ZPIECES_PART : j->t->len / 5) +
			    4096);
	strbuf_add(j->out, head, sizeof(head));
	for (size_t i = 0; i < j->n && !rc; i++) {
		rc = get_piece(j, i, &h);
		crc = crc32_combine(crc, h.text_crc, (z_off_t)j->p[i].len);
		pass_part(j);
	}
	put_le32(j->out, (uint32_t)crc);
	put_le32(j->out, (uint32_t)j->t->len);
	return rc;
}

static int xz_trailer(lzma_index *idx, struct strbuf *out, struct pp_err *err)
{
	lzma_stream_flags flags = { .version = 0, .check = LZMA_CHECK_CRC64 };
	size_t size = (size_t)lzma_index_size(idx), pos = out->len;
	uint8_t footer[LZMA_STREAM_HEADER_SIZE];

	strbuf_grow(out, size);
	if (lzma_index_buffer_encode(idx, (uint8_t *)out->buf, &pos,
				     out->alloc - 1) != LZMA_OK)
		return pp_err_set(err, PP_EXIT_IO, "cannot write the xz index");
	strbuf_setlen(out, pos);
	flags.backward_size = size;
	if (lzma_stream_footer_encode(&flags, footer) != LZMA_OK)
		return pp_err_set(err, PP_EXIT_IO, "cannot write the xz footer");
	strbuf_add(out, footer, sizeof(footer));
	return 0;
}

static int xz_join(struct join *j)
{
	lzma_stream_flags flags = { .version = 0, .check = LZMA_CHECK_CRC64 };
	uint8_t head[LZMA_STREAM_HEADER_SIZE];
	lzma_index *idx = lzma_index_init(NULL);
	struct cached_head h;
	int rc = 0;

	if (lzma_stream_header_encode(&flags, head) != LZMA_OK) {
		lzma_index_end(idx, NULL);
		return pp_err_set(j->err, PP_EXIT_IO, "cannot write the xz header");
	}
	/* about what Packages compresses to (a part, when passed on) */
	strbuf_grow(j->out, (j->o->part ? PP_ZPIECES_PART : j->t->len / 6) +
			    4096);
	if (!j->xz_before)
		strbuf_add(j->out, head, sizeof(head));
	for (size_t i = 0; i < j->xz_nr_before && !rc; i++)
		if (lzma_index_append(idx, NULL, j->xz_before[i][0],
				      j->xz_before[i][1]) != LZMA_OK)
			rc = pp_err_set(j->err, PP_EXIT_IO, "xz index overflow");
	for (size_t i = 0; i < j->n && !rc; i++) {
		if (!j->p[i].len)
			continue; /* an empty stream has no block */
		rc = get_piece(j, i, &h);
		if (!rc && lzma_index_append(idx, NULL, h.sizes[0], h.sizes[1]) !=
			   LZMA_OK)
			rc = pp_err_set(j->err, PP_EXIT_IO, "xz index overflow");
		pass_part(j);
	}
	if (!rc)
		rc = xz_trailer(idx, j->out, j->err);
	lzma_index_end(idx, NULL);
	return rc;
}

/* One output's join, on a thread of its own: with its own record of the
 * pieces it used and its own error, merged into the caller's afterwards. */
struct join_job {
	struct join j;
	const struct pp_zpieces_out *o;
	struct pp_zcache zc; /* shares the caller's dir */
	struct pp_err err;
	int rc;
};

static void *run_join(void *arg)
{
	struct join_job *job = arg;
	const struct pp_zpieces_out *o = job->o;

	start_ahead(&job->j);
	if (o->type == PP_COMP_GZIP)
		job->rc = gzip_join(&job->j);
	else if (o->type == PP_COMP_XZ)
		job->rc = xz_join(&job->j);
	else
		job->rc = pp_err_set(&job->err, PP_EXIT_USAGE,
				     "pieces need gzip or xz");
	release_ahead(&job->j);
	if (!job->rc && o->done)
		o->done(o->ctx, o->out);
	strbuf_release(&job->j.ptext);
	return NULL;
}

/* The job's record of used pieces goes to zc (if any); its error, if it is
 * the first, to err. */
static int merge_job(struct join_job *j, struct pp_zcache *zc, int rc,
		     struct pp_err *err)
{
	for (size_t k = 0; zc && k < j->zc.nr_used; k++) {
		ARRAY_GROW(zc->used, zc->alloc_used, zc->nr_used + 1);
		zc->used[zc->nr_used++] = j->zc.used[k];
	}
	free(j->zc.used);
	if (zc) {
		zc->hits += j->zc.hits;
		zc->misses += j->zc.misses;
	}
	if (j->rc && !rc)
		rc = pp_err_move(err, &j->err);
	pp_err_release(&j->err);
	return rc;
}

static int compress_stanzas(const struct pp_stanzas *t,
			    const struct pp_zpieces_out *outs, size_t nr_outs,
			    struct pp_zcache *zc, const uint64_t (*xz_before)[2],
			    size_t xz_nr_before, struct pp_err *err)
{
	enum { MAX_OUTS = 4 };
	struct join_job job[MAX_OUTS];
	pthread_t tid[MAX_OUTS];
	int started[MAX_OUTS] = { 0 }, rc = 0;
	struct piece *p;
	size_t n;

	if (nr_outs > MAX_OUTS)
		return pp_err_set(err, PP_EXIT_USAGE, "at most %d outputs",
				  MAX_OUTS);
	n = cut(t, &p);
	if (zc && zc->dir)
		name_pieces(t, p, n);
	/* Each output on its own thread (the first on this one): adding one
	 * package to a large index recompresses one piece of each, and the
	 * xz piece costs several times the gzip one. */
	for (size_t i = 0; i < nr_outs; i++) {
		memset(&job[i], 0, sizeof(job[i]));
		job[i].o = &outs[i];
		job[i].zc.dir = zc ? zc->dir : NULL;
		job[i].zc.check_text = zc ? zc->check_text : 0;
		pp_err_init(&job[i].err);
		job[i].j = (struct join){ t, p, n, outs[i].type, outs[i].level,
					  &job[i].zc, outs[i].out, STRBUF_INIT,
					  &job[i].err, &outs[i], NULL, 0,
					  xz_before, xz_nr_before };
		if (i && pp_thread_start(&tid[i], run_join, &job[i]) == 0)
			started[i] = 1;
		else if (i)
			run_join(&job[i]);
	}
	if (nr_outs)
		run_join(&job[0]);
	for (size_t i = 0; i < nr_outs; i++) {
		if (started[i])
			pthread_join(tid[i], NULL);
		rc = merge_job(&job[i], zc, rc, err);
	}
	free(p);
	return rc;
}

int pp_zpieces_compress_stanzas(const struct pp_stanzas *t,
				const struct pp_zpieces_out *outs,
				size_t nr_outs, struct pp_zcache *zc,
				struct pp_err *err)
{
	return compress_stanzas(t, outs, nr_outs, zc, NULL, 0, err);
}

int pp_zpieces_compress_tail(const struct pp_stanzas *t,
			     const struct pp_zpieces_out *outs, size_t nr_outs,
			     struct pp_zcache *zc, const uint64_t (*xz_before)[2],
			     size_t xz_nr_before, struct pp_err *err)
{
	static const uint64_t none[1][2];

	return compress_stanzas(t, outs, nr_outs, zc,
				xz_before ? xz_before : none, xz_nr_before, err);
}

int pp_zpieces_xz_blocks(const char *tail, size_t len, uint64_t (**blocks)[2],
			 size_t *nr, uint64_t *index_at)
{
	lzma_stream_flags flags;
	lzma_index *idx = NULL;
	lzma_index_iter it;
	uint64_t memlimit = UINT64_MAX;
	size_t pos, at;

	*blocks = NULL;
	*nr = 0;
	if (len < LZMA_STREAM_HEADER_SIZE ||
	    lzma_stream_footer_decode(&flags, (const uint8_t *)tail + len -
					      LZMA_STREAM_HEADER_SIZE) != LZMA_OK ||
	    flags.backward_size > len - LZMA_STREAM_HEADER_SIZE)
		return -1;
	at = len - LZMA_STREAM_HEADER_SIZE - (size_t)flags.backward_size;
	pos = at;
	if (lzma_index_buffer_decode(&idx, &memlimit, NULL,
				     (const uint8_t *)tail, &pos,
				     len - LZMA_STREAM_HEADER_SIZE) != LZMA_OK)
		return -1;
	*blocks = xcalloc(lzma_index_block_count(idx) + 1, sizeof(**blocks));
	lzma_index_iter_init(&it, idx);
	while (!lzma_index_iter_next(&it, LZMA_INDEX_ITER_BLOCK)) {
		(*blocks)[*nr][0] = it.block.unpadded_size;
		(*blocks)[*nr][1] = it.block.uncompressed_size;
		(*nr)++;
	}
	*index_at = at;
	lzma_index_end(idx, NULL);
	return 0;
}

/* The stanzas of a text, as pp_stanza_end finds them. */
static void split_stanzas(const char *text, size_t len, struct pp_stanzas *t,
			  struct pp_stanza_ref **refs)
{
	size_t nr = 0, alloc = 0, at = 0;

	*refs = NULL;
	while (at < len) {
		const char *end = pp_stanza_end(text + at, len - at);
		size_t stop = end ? (size_t)(end - text) + 1 : len;

		if (stop + 1 >= len) /* the last, with a blank line after it */
			stop = len;
		ARRAY_GROW(*refs, alloc, nr + 1);
		(*refs)[nr++] = (struct pp_stanza_ref){ text + at, stop - at,
							 NULL, NULL, 0, 0 };
		at = stop + 1;
	}
	pp_stanzas_set(t, *refs, nr);
}

int pp_zpieces_compress_all(const char *text, size_t len,
			    const struct pp_zpieces_out *outs, size_t nr_outs,
			    struct pp_zcache *zc, struct pp_err *err)
{
	struct pp_stanza_ref *refs;
	struct pp_stanzas t;
	int rc;

	split_stanzas(text, len, &t, &refs);
	rc = pp_zpieces_compress_stanzas(&t, outs, nr_outs, zc, err);
	free(refs);
	return rc;
}

int pp_zpieces_compress(const char *text, size_t len, enum pp_compressor type,
			int level, struct pp_zcache *zc, struct strbuf *out,
			struct pp_err *err)
{
	struct pp_zpieces_out o = { type, level, out, NULL, NULL, NULL };

	return pp_zpieces_compress_all(text, len, &o, 1, zc, err);
}
