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
 * can be written before them. Packing several packages side by side, one
 * encoder each, then costs the encoders and little more. */
#ifndef PP_XZBLOCKS_H
#define PP_XZBLOCKS_H

#include <stddef.h>

struct pp_xzblocks;

/* Output sink: returns 0, or -1 after an error of its own (which stands). */
typedef int (*pp_xzblocks_emit)(void *ctx, const void *buf, size_t len);

/* NULL if preset (0 to 9) is not one liblzma knows. */
struct pp_xzblocks *pp_xzblocks_new(unsigned preset, pp_xzblocks_emit emit,
				    void *ctx);
/* Encodes len bytes; end: they are the last, the stream is closed.
 * Returns 0; -1 when emit failed; otherwise the failing lzma_ret. */
int pp_xzblocks_code(struct pp_xzblocks *x, const void *in, size_t len,
		     int end);
void pp_xzblocks_free(struct pp_xzblocks *x);

#endif
