/* An .xz stream encoded block by block on the calling thread, byte for
 * byte what liblzma's multi-threaded encoder writes for the same preset
 * (CRC64 check, its default block size of three dictionaries), so that a
 * package's bytes do not depend on which of the two made them.
 *
 * Why not liblzma's encoder with one thread: it copies each block's input
 * (24 MiB at -6) into a buffer of its own and keeps its output in buffers
 * of the input's size, some 70 MiB beside the 94 MiB LZMA encoder. Here the
 * input goes straight into a block encoder and only the block's
 * compressed bytes are kept, until its header (which holds their size)
 * can be written before them; into a file that can seek, not even those
 * (pp_xzblocks_seekable). Packing several packages side by side, one
 * encoder each, then costs the encoders and little more.
 *
 * pp_xz_filters gives the chain of both, so that they cannot differ. */
#ifndef PP_XZBLOCKS_H
#define PP_XZBLOCKS_H

#include <lzma.h>
#include <stddef.h>

struct pp_xzblocks;

/* The filter chain of a stream: [x86 BCJ,] LZMA2 with opt, then the end
 * (room for three). Returns -1 if preset is not one liblzma knows. */
int pp_xz_filters(unsigned preset, int x86, lzma_options_lzma *opt,
		  lzma_filter filters[3]);

/* Output sink: returns 0, or -1 after an error of its own (which stands). */
typedef int (*pp_xzblocks_emit)(void *ctx, const void *buf, size_t len);

/* NULL if preset (0 to 9) is not one liblzma knows. x86: the filter chain
 * is xz's x86 BCJ filter, then LZMA2 (the same block size: the BCJ filter
 * adds none of its own); else LZMA2 alone. */
struct pp_xzblocks *pp_xzblocks_new(unsigned preset, int x86,
				    pp_xzblocks_emit emit, void *ctx);
/* Encodes len bytes; end: they are the last, the stream is closed.
 * Returns 0; -1 when emit failed; otherwise the failing lzma_ret. */
int pp_xzblocks_code(struct pp_xzblocks *x, const void *in, size_t len,
		     int end);
/* emit writes to fd, a file that can seek (before the first code): each
 * block's bytes then go out as they come, its header written back in
 * place, instead of the block kept whole until its end. The same bytes.
 * A failing read, write or seek of fd returns -1, errno set. */
void pp_xzblocks_seekable(struct pp_xzblocks *x, int fd);
void pp_xzblocks_free(struct pp_xzblocks *x);

#endif
