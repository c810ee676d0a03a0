#include "xzblocks.h"

#include <lzma.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "xalloc.h"

#define OUT_MIN (1u << 20)    /* first size of the block's output buffer */
#define OUT_ROOM (64u << 10)  /* free output space for each lzma_code */
#define OUT_FLUSH (256u << 10) /* seekable output: written out from here */

struct pp_xzblocks {
	pp_xzblocks_emit emit;
	void *ctx;
	lzma_options_lzma opt;
	lzma_filter filters[3];
	lzma_stream strm;     /* the block encoder, reused from block to block */
	lzma_block block;
	lzma_index *index;
	uint64_t block_size;  /* input of every block but the last */
	size_t bound;         /* liblzma's output buffer for one block */
	uint64_t in_block;    /* input in the current block */
	int started;          /* the stream header is out */
	int open;             /* a block is begun */
	uint8_t *out;         /* the current block: room for its header, data */
	size_t out_len, out_alloc;
	int fd;               /* seekable output, or -1 (pp_xzblocks_seekable) */
	off_t block_at;       /* fd: where the current block's header goes */
	size_t flushed;       /* fd: its bytes written out of out already */
};

int pp_xz_filters(unsigned preset, int x86, lzma_options_lzma *opt,
		  lzma_filter filters[3])
{
	size_t n = 0;

	if (lzma_lzma_preset(opt, preset))
		return -1;
	/* no options: start offset 0, which writes no properties */
	if (x86)
		filters[n++] = (lzma_filter){ LZMA_FILTER_X86, NULL };
	filters[n++] = (lzma_filter){ LZMA_FILTER_LZMA2, opt };
	filters[n] = (lzma_filter){ LZMA_VLI_UNKNOWN, NULL };
	return 0;
}

struct pp_xzblocks *pp_xzblocks_new(unsigned preset, int x86,
				    pp_xzblocks_emit emit, void *ctx)
{
	struct pp_xzblocks *x = xcalloc(1, sizeof(*x));

	if (pp_xz_filters(preset, x86, &x->opt, x->filters) < 0) {
		free(x);
		return NULL;
	}
	x->emit = emit;
	x->ctx = ctx;
	x->fd = -1;
	x->strm = (lzma_stream)LZMA_STREAM_INIT;
	/* liblzma's multi-threaded default: three dictionaries, >= 1 MiB */
	x->block_size = 3 * (uint64_t)x->opt.dict_size;
	if (x->block_size < OUT_MIN)
		x->block_size = OUT_MIN;
	x->bound = lzma_block_buffer_bound((size_t)x->block_size);
	x->index = lzma_index_init(NULL);
	if (!x->index) {
		free(x);
		return NULL;
	}
	return x;
}

void pp_xzblocks_seekable(struct pp_xzblocks *x, int fd)
{
	x->fd = fd;
}

void pp_xzblocks_free(struct pp_xzblocks *x)
{
	if (!x)
		return;
	lzma_end(&x->strm);
	lzma_index_end(x->index, NULL);
	free(x->out);
	free(x);
}

static void out_room(struct pp_xzblocks *x, size_t need)
{
	size_t n = x->out_alloc ? x->out_alloc : OUT_MIN;

	if (x->out_alloc >= x->out_len && x->out_alloc - x->out_len >= need)
		return;
	while (n - x->out_len < need)
		n *= 2;
	x->out = xrealloc(x->out, n);
	x->out_alloc = n;
}

/* Options as liblzma's encoder gives a block: the header's room is what
 * the largest sizes (a full block, a full output buffer) would need. */
static int block_options(struct pp_xzblocks *x, lzma_block *b)
{
	memset(b, 0, sizeof(*b));
	b->version = 0;
	b->check = LZMA_CHECK_CRC64;
	b->filters = x->filters;
	b->compressed_size = x->bound;
	b->uncompressed_size = x->block_size;
	return (int)lzma_block_header_size(b);
}

static int begin_block(struct pp_xzblocks *x)
{
	int r = block_options(x, &x->block);

	if (r == LZMA_OK)
		r = (int)lzma_block_encoder(&x->strm, &x->block);
	if (r != LZMA_OK)
		return r;
	if (x->fd >= 0) {
		x->block_at = lseek(x->fd, 0, SEEK_CUR);
		if (x->block_at < 0)
			return -1;
	}
	x->out_len = 0;
	out_room(x, x->block.header_size);
	memset(x->out, 0, x->block.header_size); /* written over at the end */
	x->out_len = x->block.header_size;
	x->flushed = 0;
	x->in_block = 0;
	x->open = 1;
	return 0;
}

/* Seekable output: the block's bytes so far go out, its header's room
 * first, so that out stays small (it was some 8 MiB at -6). */
static int flush_out(struct pp_xzblocks *x)
{
	if (x->fd < 0 || x->out_len < OUT_FLUSH)
		return 0;
	if (x->emit(x->ctx, x->out, x->out_len) < 0)
		return -1;
	x->flushed += x->out_len;
	x->out_len = 0;
	return 0;
}

static int run(struct pp_xzblocks *x, const uint8_t *in, size_t len,
	       lzma_action action)
{
	lzma_ret r;

	x->strm.next_in = in;
	x->strm.avail_in = len;
	do {
		out_room(x, OUT_ROOM);
		x->strm.next_out = x->out + x->out_len;
		x->strm.avail_out = x->out_alloc - x->out_len;
		r = lzma_code(&x->strm, action);
		x->out_len = x->out_alloc - x->strm.avail_out;
		if (flush_out(x) < 0)
			return -1;
	} while (r == LZMA_OK && (x->strm.avail_in || action == LZMA_FINISH));
	return r == LZMA_OK || r == LZMA_STREAM_END ? 0 : (int)r;
}

/* liblzma's encoder stores a block whose output outgrew its buffer in
 * uncompressed LZMA2 chunks (with LZMA2 alone as the block's chain, BCJ
 * or not); the input, not kept here, is decoded back from the compressed
 * data through the whole chain. Only for data LZMA2 cannot compress. */
static int store_block(struct pp_xzblocks *x)
{
	size_t n = (size_t)x->in_block, in_pos = 0, out_pos = 0, pos = 0;
	uint8_t *in = xmalloc(n ? n : 1);
	lzma_block b;
	int r = block_options(x, &b);

	if (r == LZMA_OK)
		r = (int)lzma_raw_buffer_decode(x->filters, NULL,
						x->out + x->block.header_size,
						&in_pos, x->block.compressed_size,
						in, &out_pos, n);
	if (r == LZMA_OK && out_pos != n)
		r = LZMA_PROG_ERROR;
	x->out_len = 0;
	out_room(x, x->bound);
	if (r == LZMA_OK)
		r = (int)lzma_block_uncomp_encode(&b, in, n, x->out, &pos,
						  x->bound);
	free(in);
	if (r != LZMA_OK)
		return r;
	x->block = b;
	x->out_len = pos;
	return 0;
}

/* A block written out in part that outgrew its buffer: back into out,
 * and off the output, to be stored as if it had never left. */
static int take_back(struct pp_xzblocks *x)
{
	size_t n = x->flushed + x->out_len;
	uint8_t *all = xmalloc(n);

	memcpy(all + x->flushed, x->out, x->out_len);
	free(x->out);
	x->out = all;
	x->out_len = x->out_alloc = n;
	if (pread(x->fd, all, x->flushed, x->block_at) != (ssize_t)x->flushed ||
	    ftruncate(x->fd, x->block_at) < 0 ||
	    lseek(x->fd, x->block_at, SEEK_SET) < 0)
		return -1;
	x->flushed = 0;
	return 0;
}

/* The header, once its sizes are known: in place when its room is out. */
static int write_header(struct pp_xzblocks *x)
{
	uint8_t head[LZMA_BLOCK_HEADER_SIZE_MAX];
	int r;

	if (!x->flushed)
		return (int)lzma_block_header_encode(&x->block, x->out);
	r = (int)lzma_block_header_encode(&x->block, head);
	if (r == LZMA_OK && pwrite(x->fd, head, x->block.header_size,
				   x->block_at) != (ssize_t)x->block.header_size)
		return -1;
	return r;
}

static int finish_block(struct pp_xzblocks *x)
{
	int r = run(x, NULL, 0, LZMA_FINISH);

	x->open = 0;
	if (r == 0 && x->flushed + x->out_len > x->bound && x->flushed)
		r = take_back(x);
	if (r == 0)
		r = x->out_len > x->bound ? store_block(x) : write_header(x);
	if (r != 0)
		return r;
	if (x->emit(x->ctx, x->out, x->out_len) < 0)
		return -1;
	return (int)lzma_index_append(x->index, NULL,
				      lzma_block_unpadded_size(&x->block),
				      x->block.uncompressed_size);
}

static int stream_header(struct pp_xzblocks *x)
{
	lzma_stream_flags f = { .version = 0, .check = LZMA_CHECK_CRC64 };
	uint8_t head[LZMA_STREAM_HEADER_SIZE];
	int r = (int)lzma_stream_header_encode(&f, head);

	if (r != LZMA_OK)
		return r;
	x->started = 1;
	return x->emit(x->ctx, head, sizeof(head));
}

/* The index of the blocks' sizes, then the stream footer. */
static int stream_trailer(struct pp_xzblocks *x)
{
	lzma_stream_flags f = { .version = 0, .check = LZMA_CHECK_CRC64 };
	uint8_t foot[LZMA_STREAM_HEADER_SIZE];
	size_t n = (size_t)lzma_index_size(x->index), pos = 0;
	int r;

	x->out_len = 0;
	out_room(x, n);
	r = (int)lzma_index_buffer_encode(x->index, x->out, &pos, n);
	f.backward_size = n;
	if (r == LZMA_OK)
		r = (int)lzma_stream_footer_encode(&f, foot);
	if (r != LZMA_OK)
		return r;
	if (x->emit(x->ctx, x->out, pos) < 0)
		return -1;
	return x->emit(x->ctx, foot, sizeof(foot));
}

int pp_xzblocks_code(struct pp_xzblocks *x, const void *in, size_t len,
		     int end)
{
	const uint8_t *p = in;
	int r = x->started ? 0 : stream_header(x);

	while (r == 0 && len) {
		size_t n = len;

		if (!x->open && (r = begin_block(x)) != 0)
			break;
		if (n > x->block_size - x->in_block)
			n = (size_t)(x->block_size - x->in_block);
		r = run(x, p, n, LZMA_RUN);
		p += n;
		len -= n;
		x->in_block += n;
		if (r == 0 && x->in_block == x->block_size)
			r = finish_block(x);
	}
	if (r == 0 && end && x->open)
		r = finish_block(x);
	if (r == 0 && end)
		r = stream_trailer(x);
	return r;
}
