/* Streaming compressors for .deb members, over zlib, liblzma and libzstd.
 *
 * The bytes written depend only on the input, the compressor and its level,
 * never on the thread count: xz streams are always those of liblzma's
 * multi-threaded block encoder (written, for one thread, by xzblocks.h
 * with less memory) and zstd always runs in worker mode (nbWorkers >= 1),
 * whose output is the same for 1 or N threads. With the defaults the streams are the
 * ones dpkg-deb writes on a multi-core machine. Compression runs in its own
 * thread, so reading and archiving the input overlap with it. */
#ifndef PP_COMPRESS_H
#define PP_COMPRESS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "error.h"

enum pp_compressor { PP_COMP_NONE, PP_COMP_GZIP, PP_COMP_XZ, PP_COMP_ZSTD };

/* xz's x86 BCJ filter (before LZMA2): it turns the relative addresses of
 * x86 calls and jumps into absolute ones, which repeat where many places
 * call the same functions: such code compresses 3 to 12% smaller (and
 * faster). AUTO: the writer of a .deb decides per data member (deb.h,
 * x86code.h); a compressor reads it as OFF. */
enum pp_x86_filter { PP_X86_AUTO, PP_X86_OFF, PP_X86_ON };

struct pp_compress_opts {
	enum pp_compressor type;
	int level;   /* -1: the compressor's default (gzip 9, xz 6, zstd 3) */
	int threads; /* 0: one per online CPU */
	enum pp_x86_filter x86; /* xz only */
};

/* "gzip"/"gz", "xz", "zstd"/"zst", "none"; -1 if unknown. */
int pp_compressor_parse(const char *name, enum pp_compressor *type);
/* "auto", "off" (what a user may choose); -1 if neither. */
int pp_x86_filter_parse(const char *name, enum pp_x86_filter *out);
/* Member name suffix: "", ".gz", ".xz", ".zst". */
const char *pp_compressor_ext(enum pp_compressor type);
const char *pp_compressor_name(enum pp_compressor type);
/* Checks the level for the compressor; fills the default for -1. */
int pp_compress_opts_check(struct pp_compress_opts *o, struct pp_err *err);

/* The memory the compressor of o takes with THREADS threads, as liblzma
 * (lzma_raw_encoder_memusage, or its multi-threaded encoder's), zlib and
 * libzstd count it; an xz chain is counted with the x86 filter unless o
 * turns it off. */
uint64_t pp_compress_memusage(const struct pp_compress_opts *o, int threads);

struct pp_zwriter;

/* Compresses everything written into fd. */
struct pp_zwriter *pp_zwriter_new(const struct pp_compress_opts *o, int fd,
				  struct pp_err *err);
int pp_zwriter_write(struct pp_zwriter *z, const void *buf, size_t len,
		     struct pp_err *err);
/* Flushes, ends the stream and frees z; returns -1 on any error. */
int pp_zwriter_finish(struct pp_zwriter *z, struct pp_err *err);
/* Frees z after an error elsewhere; the output is incomplete. */
void pp_zwriter_abort(struct pp_zwriter *z);

#endif
