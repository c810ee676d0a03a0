#include "compress.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <lzma.h>
#include <zlib.h>
#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_estimateCCtxSize */
#include <zstd.h>

#include "fsutil.h"
#include "xalloc.h"
#include "xzblocks.h"

#define CHUNK (256u << 10) /* bytes handed to the compressor thread at once */
#define QUEUE 4           /* chunks in flight */

int pp_compressor_parse(const char *name, enum pp_compressor *type)
{
	static const struct {
		const char *name;
		enum pp_compressor type;
	} names[] = {
		{ "none", PP_COMP_NONE }, { "gzip", PP_COMP_GZIP },
		{ "gz", PP_COMP_GZIP }, { "xz", PP_COMP_XZ },
		{ "zstd", PP_COMP_ZSTD }, { "zst", PP_COMP_ZSTD },
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i].name)) {
			*type = names[i].type;
			return 0;
		}
	return -1;
}

int pp_x86_filter_parse(const char *name, enum pp_x86_filter *out)
{
	if (!strcmp(name, "auto"))
		*out = PP_X86_AUTO;
	else if (!strcmp(name, "off"))
		*out = PP_X86_OFF;
	else
		return -1;
	return 0;
}

const char *pp_compressor_ext(enum pp_compressor type)
{
	static const char *const ext[] = { "", ".gz", ".xz", ".zst" };

	return ext[type];
}

const char *pp_compressor_name(enum pp_compressor type)
{
	static const char *const name[] = { "none", "gzip", "xz", "zstd" };

	return name[type];
}

int pp_compress_opts_check(struct pp_compress_opts *o, struct pp_err *err)
{
	static const int deflt[] = { 0, 9, 6, 3 };
	int max = o->type == PP_COMP_ZSTD ? ZSTD_maxCLevel() : 9;
	int min = o->type == PP_COMP_NONE ? 0 : 1;

	if (o->type == PP_COMP_XZ)
		min = 0;
	if (o->level < 0)
		o->level = deflt[o->type];
	else if (o->type == PP_COMP_NONE)
		o->level = 0;
	else if (o->level < min || o->level > max)
		return pp_err_set(err, PP_EXIT_USAGE, "compression level %d is "
				  "out of range for %s; use %d to %d", o->level,
				  pp_compressor_name(o->type), min, max);
	if (o->threads < 0)
		return pp_err_set(err, PP_EXIT_USAGE, "thread count must not be "
				  "negative");
	if (o->threads == 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		o->threads = n > 0 ? (int)n : 1;
	}
	return 0;
}

static uint64_t xz_memusage(const struct pp_compress_opts *o, int threads)
{
	lzma_options_lzma opt;
	lzma_filter filters[3];
	lzma_mt mt = { 0 };
	uint64_t n;

	if (pp_xz_filters((uint32_t)o->level, o->x86 != PP_X86_OFF, &opt,
			  filters) < 0)
		return 0;
	if (threads <= 1) /* xzblocks: one block encoder */
		n = lzma_raw_encoder_memusage(filters);
	else {
		mt.filters = filters;
		mt.check = LZMA_CHECK_CRC64;
		mt.threads = (uint32_t)threads;
		n = lzma_stream_encoder_mt_memusage(&mt);
	}
	return n == UINT64_MAX ? 0 : n;
}

uint64_t pp_compress_memusage(const struct pp_compress_opts *o, int threads)
{
	switch (o->type) {
	case PP_COMP_GZIP: /* deflateInit2's window and hash, 15 and 8 */
		return (1u << 17) + (1u << 17);
	case PP_COMP_XZ:
		return xz_memusage(o, threads);
	case PP_COMP_ZSTD: /* a context a worker, and the caller's */
		return (uint64_t)ZSTD_estimateCCtxSize(o->level) *
		       (uint64_t)(threads < 1 ? 2 : threads + 1);
	case PP_COMP_NONE:
		break;
	}
	return 0;
}

/* ---- the compressor thread -------------------------------------------- */

struct chunk {
	unsigned char *data;
	size_t len;
	int last; /* the end of the stream follows this chunk */
};

struct pp_zwriter {
	struct pp_compress_opts opts;
	int fd;
	union {
		z_stream gz;
		lzma_stream xz;          /* more than one thread */
		struct pp_xzblocks *xzb; /* one thread */
		ZSTD_CCtx *zstd;
	} s;
	unsigned char *out;
	size_t out_size;

	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct chunk queue[QUEUE];
	unsigned head, count;  /* ring of filled chunks */
	int started;           /* the compressor has seen input */
	int xz_blocks;         /* xz on this thread: s.xzb */
	int stopped;           /* the thread has ended */
	int failed;            /* the thread hit an error: msg holds it */
	char msg[512];
	struct chunk cur;      /* the chunk the producer is filling */
	struct chunk spare[QUEUE + 1];
	unsigned nspare;
};

static int emit(struct pp_zwriter *z, size_t n)
{
	if (pp_write_all(z->fd, z->out, n) < 0) {
		snprintf(z->msg, sizeof(z->msg),
			 "cannot write compressed data: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int code_gzip(struct pp_zwriter *z, const void *in, size_t len, int end)
{
	z_stream *s = &z->s.gz;
	int r;

	s->next_in = (Bytef *)in;
	s->avail_in = (uInt)len;
	do {
		s->next_out = z->out;
		s->avail_out = (uInt)z->out_size;
		r = deflate(s, end ? Z_FINISH : Z_NO_FLUSH);
		if (r == Z_STREAM_ERROR) {
			snprintf(z->msg, sizeof(z->msg), "zlib deflate failed");
			return -1;
		}
		if (emit(z, z->out_size - s->avail_out) < 0)
			return -1;
	} while (s->avail_out == 0 || (end && r != Z_STREAM_END));
	return 0;
}

static int emit_xzb(void *ctx, const void *buf, size_t len)
{
	struct pp_zwriter *z = ctx;

	if (pp_write_all(z->fd, buf, len) < 0) {
		snprintf(z->msg, sizeof(z->msg),
			 "cannot write compressed data: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int code_xzb(struct pp_zwriter *z, const void *in, size_t len, int end)
{
	int r = pp_xzblocks_code(z->s.xzb, in, len, end);

	if (r > 0)
		snprintf(z->msg, sizeof(z->msg), "liblzma failed (error %d)", r);
	else if (r < 0 && !z->msg[0]) /* a seek or read of the output */
		snprintf(z->msg, sizeof(z->msg),
			 "cannot write compressed data: %s", strerror(errno));
	return r ? -1 : 0;
}

static int code_xz(struct pp_zwriter *z, const void *in, size_t len, int end)
{
	lzma_stream *s = &z->s.xz;
	lzma_ret r;

	if (z->xz_blocks)
		return code_xzb(z, in, len, end);

	s->next_in = in;
	s->avail_in = len;
	do {
		s->next_out = z->out;
		s->avail_out = z->out_size;
		r = lzma_code(s, end ? LZMA_FINISH : LZMA_RUN);
		if (r != LZMA_OK && r != LZMA_STREAM_END) {
			snprintf(z->msg, sizeof(z->msg),
				 "liblzma failed (error %d)", (int)r);
			return -1;
		}
		if (emit(z, z->out_size - s->avail_out) < 0)
			return -1;
	} while (s->avail_in || s->avail_out == 0 ||
		 (end && r != LZMA_STREAM_END));
	return 0;
}

static int code_zstd(struct pp_zwriter *z, const void *in, size_t len, int end)
{
	ZSTD_inBuffer ib = { in, len, 0 };
	size_t left;

	/* dpkg-deb hands zstd its input in ZSTD_CStreamInSize() pieces and
	 * says "end" with the piece that reaches the end of the file: a
	 * stream shorter than one piece becomes a single-pass frame that
	 * records its size, a longer one is streamed. Do the same, so that
	 * the frames are dpkg-deb's (and never depend on the threads). */
	if (end && !z->started && len >= ZSTD_CStreamInSize()) {
		if (code_zstd(z, in, len, 0) < 0)
			return -1;
		return code_zstd(z, NULL, 0, 1);
	}
	z->started = 1;

	do {
		ZSTD_outBuffer ob = { z->out, z->out_size, 0 };

		left = ZSTD_compressStream2(z->s.zstd, &ob, &ib,
					    end ? ZSTD_e_end : ZSTD_e_continue);
		if (ZSTD_isError(left)) {
			snprintf(z->msg, sizeof(z->msg), "libzstd failed: %s",
				 ZSTD_getErrorName(left));
			return -1;
		}
		if (emit(z, ob.pos) < 0)
			return -1;
	} while (ib.pos < ib.size || (end && left));
	return 0;
}

static int code(struct pp_zwriter *z, const void *in, size_t len, int end)
{
	switch (z->opts.type) {
	case PP_COMP_GZIP: return code_gzip(z, in, len, end);
	case PP_COMP_XZ: return code_xz(z, in, len, end);
	case PP_COMP_ZSTD: return code_zstd(z, in, len, end);
	case PP_COMP_NONE: break;
	}
	if (pp_write_all(z->fd, in, len) < 0) {
		snprintf(z->msg, sizeof(z->msg), "cannot write data: %s",
			 strerror(errno));
		return -1;
	}
	return 0;
}

static void *compress_thread(void *arg)
{
	struct pp_zwriter *z = arg;

	for (;;) {
		struct chunk c;
		int rc;

		pthread_mutex_lock(&z->lock);
		while (!z->count)
			pthread_cond_wait(&z->cond, &z->lock);
		c = z->queue[z->head];
		z->head = (z->head + 1) % QUEUE;
		z->count--;
		pthread_mutex_unlock(&z->lock);
		rc = z->failed ? 0 : code(z, c.data, c.len, c.last);
		pthread_mutex_lock(&z->lock);
		z->spare[z->nspare++] = c;
		if (rc < 0)
			z->failed = 1;
		if (c.last)
			z->stopped = 1;
		pthread_cond_broadcast(&z->cond);
		pthread_mutex_unlock(&z->lock);
		if (c.last)
			return NULL;
	}
}

/* ---- set-up ----------------------------------------------------------- */

/* A regular file, where a block's header can be written back in place. */
static int is_seekable(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	       lseek(fd, 0, SEEK_CUR) >= 0;
}

static int init_xz(struct pp_zwriter *z, struct pp_err *err)
{
	uint64_t limit = lzma_physmem() / 2;
	int x86 = z->opts.x86 == PP_X86_ON;
	lzma_options_lzma opt;
	lzma_filter filters[3];
	lzma_mt mt = { 0 };

	z->s.xz = (lzma_stream)LZMA_STREAM_INIT;
	mt.preset = (uint32_t)z->opts.level;
	/* the chain xzblocks uses, also when it is LZMA2 alone */
	if (pp_xz_filters(mt.preset, x86, &opt, filters) < 0)
		return pp_err_set(err, PP_EXIT_IO, "cannot start the xz "
				  "encoder (preset %d)", z->opts.level);
	mt.filters = filters;
	mt.check = LZMA_CHECK_CRC64;
	mt.block_size = 0; /* liblzma's default: 3 x the dictionary size */
	/* Fewer threads when memory is short; the output stays the same. */
	for (mt.threads = (uint32_t)z->opts.threads; mt.threads > 1; mt.threads--)
		if (lzma_stream_encoder_mt_memusage(&mt) < limit)
			break;
	/* One thread: the same stream from a block encoder on this thread,
	 * without liblzma's copies of each block (xzblocks.h). */
	if (mt.threads <= 1) {
		z->s.xzb = pp_xzblocks_new(mt.preset, x86, emit_xzb, z);
		z->xz_blocks = 1;
		if (!z->s.xzb)
			return pp_err_set(err, PP_EXIT_IO, "cannot start the "
					  "xz encoder (preset %d)",
					  z->opts.level);
		if (is_seekable(z->fd))
			pp_xzblocks_seekable(z->s.xzb, z->fd);
		return 0;
	}
	if (lzma_stream_encoder_mt(&z->s.xz, &mt) != LZMA_OK)
		return pp_err_set(err, PP_EXIT_IO, "cannot start the xz "
				  "encoder (preset %d)", z->opts.level);
	return 0;
}

static int init_zstd(struct pp_zwriter *z, struct pp_err *err)
{
	ZSTD_bounds workers = ZSTD_cParam_getBounds(ZSTD_c_nbWorkers);
	int n = z->opts.threads;

	z->s.zstd = ZSTD_createCCtx();
	if (!z->s.zstd)
		return pp_err_set(err, PP_EXIT_IO, "cannot create a zstd context");
	if (workers.upperBound < 1)
		return pp_err_set(err, PP_EXIT_IO, "this libzstd has no "
				  "multi-threading; padpack needs it for "
				  "reproducible zstd output");
	if (n > workers.upperBound)
		n = workers.upperBound;
	ZSTD_CCtx_setParameter(z->s.zstd, ZSTD_c_compressionLevel, z->opts.level);
	ZSTD_CCtx_setParameter(z->s.zstd, ZSTD_c_checksumFlag, 1);
	/* Worker mode even for one thread: its output does not depend on n. */
	ZSTD_CCtx_setParameter(z->s.zstd, ZSTD_c_nbWorkers, n < 1 ? 1 : n);
	return 0;
}

static int init_codec(struct pp_zwriter *z, struct pp_err *err)
{
	switch (z->opts.type) {
	case PP_COMP_GZIP:
		memset(&z->s.gz, 0, sizeof(z->s.gz));
		/* windowBits 15+16: a gzip header with no name and mtime 0,
		 * as gzip -n and dpkg-deb write it. */
		if (deflateInit2(&z->s.gz, z->opts.level, Z_DEFLATED, 31, 8,
				 Z_DEFAULT_STRATEGY) != Z_OK)
			return pp_err_set(err, PP_EXIT_IO, "cannot start zlib");
		return 0;
	case PP_COMP_XZ:
		return init_xz(z, err);
	case PP_COMP_ZSTD:
		return init_zstd(z, err);
	case PP_COMP_NONE:
		return 0;
	}
	return 0;
}

static void free_codec(struct pp_zwriter *z)
{
	switch (z->opts.type) {
	case PP_COMP_GZIP: deflateEnd(&z->s.gz); break;
	case PP_COMP_XZ:
		if (z->xz_blocks)
			pp_xzblocks_free(z->s.xzb);
		else
			lzma_end(&z->s.xz);
		break;
	case PP_COMP_ZSTD: ZSTD_freeCCtx(z->s.zstd); break;
	case PP_COMP_NONE: break;
	}
}

struct pp_zwriter *pp_zwriter_new(const struct pp_compress_opts *o, int fd,
				  struct pp_err *err)
{
	struct pp_zwriter *z = xcalloc(1, sizeof(*z));

	z->opts = *o;
	z->fd = fd;
	if (init_codec(z, err) < 0) {
		free_codec(z);
		free(z);
		return NULL;
	}
	z->out_size = CHUNK;
	z->out = xmalloc(z->out_size);
	for (z->nspare = 0; z->nspare < QUEUE + 1; z->nspare++)
		z->spare[z->nspare].data = xmalloc(CHUNK);
	z->cur = z->spare[--z->nspare];
	z->cur.len = 0;
	z->cur.last = 0;
	pthread_mutex_init(&z->lock, NULL);
	pthread_cond_init(&z->cond, NULL);
	if (pthread_create(&z->thread, NULL, compress_thread, z)) {
		pp_err_set(err, PP_EXIT_IO, "cannot start a compressor thread");
		z->stopped = 1;
		pp_zwriter_abort(z);
		return NULL;
	}
	return z;
}

static int thread_error(struct pp_zwriter *z, struct pp_err *err)
{
	return pp_err_set(err, PP_EXIT_IO, "%s compression: %s",
			  pp_compressor_name(z->opts.type), z->msg);
}

/* Hands the current chunk to the thread and takes a spare one. After a
 * failure only the last chunk goes (force), so that the thread ends. */
static int push_chunk(struct pp_zwriter *z, int force, struct pp_err *err)
{
	pthread_mutex_lock(&z->lock);
	while ((z->count == QUEUE || (!z->nspare && !force)) &&
	       (force || !z->failed))
		pthread_cond_wait(&z->cond, &z->lock);
	if (z->failed && !force) {
		pthread_mutex_unlock(&z->lock);
		return thread_error(z, err);
	}
	z->queue[(z->head + z->count) % QUEUE] = z->cur;
	z->count++;
	if (z->nspare) {
		z->cur = z->spare[--z->nspare];
		z->cur.len = 0;
		z->cur.last = 0;
	} else {
		z->cur.data = NULL;
	}
	pthread_cond_broadcast(&z->cond);
	pthread_mutex_unlock(&z->lock);
	return 0;
}

int pp_zwriter_write(struct pp_zwriter *z, const void *buf, size_t len,
		     struct pp_err *err)
{
	const unsigned char *p = buf;

	while (len) {
		size_t n = CHUNK - z->cur.len;

		if (n > len)
			n = len;
		memcpy(z->cur.data + z->cur.len, p, n);
		z->cur.len += n;
		p += n;
		len -= n;
		if (z->cur.len == CHUNK && push_chunk(z, 0, err) < 0)
			return -1;
	}
	return 0;
}

static void destroy(struct pp_zwriter *z)
{
	pthread_mutex_destroy(&z->lock);
	pthread_cond_destroy(&z->cond);
	free_codec(z);
	for (unsigned i = 0; i < z->count; i++)
		free(z->queue[(z->head + i) % QUEUE].data);
	for (unsigned i = 0; i < z->nspare; i++)
		free(z->spare[i].data);
	free(z->cur.data);
	free(z->out);
	free(z);
}

/* Sends the last chunk and waits for the thread to end. */
static void stop_thread(struct pp_zwriter *z)
{
	struct pp_err ignored;

	pp_err_init(&ignored);
	z->cur.last = 1;
	push_chunk(z, 1, &ignored);
	pp_err_release(&ignored);
	pthread_join(z->thread, NULL);
}

int pp_zwriter_finish(struct pp_zwriter *z, struct pp_err *err)
{
	int rc = 0;

	stop_thread(z);
	if (z->failed)
		rc = thread_error(z, err);
	destroy(z);
	return rc;
}

void pp_zwriter_abort(struct pp_zwriter *z)
{
	if (!z)
		return;
	if (!z->stopped) {
		z->failed = 1;
		stop_thread(z);
	}
	destroy(z);
}
