/* Compressing an index (Packages) so that a small change costs little.
 *
 * The text is cut into pieces at stanza boundaries chosen by the content
 * itself (a boundary follows a stanza whose first line hashes to 0 modulo
 * a constant, within size limits), so inserting or changing one stanza
 * changes one piece and leaves the others, and their boundaries, alone.
 * Each piece is compressed on its own and its compressed form cached under
 * its SHA-256; the pieces are then joined into one ordinary file:
 *  - gzip: one member whose deflate stream is the pieces' raw deflate
 *    streams, each but the last ended by a sync flush (as pigz does);
 *  - xz: one stream whose blocks are the pieces, with its index.
 * Any gzip or xz reader (apt, zcat, xzcat) reads the result. The output
 * depends only on the text and the level, never on the cache.
 * pp_zpieces_compress_tail makes what follows such a file when a text
 * is continued: a second gzip member, more blocks of the xz stream. */
#ifndef PP_ZPIECES_H
#define PP_ZPIECES_H

#include <stddef.h>
#include <stdint.h>

#include "compress.h"
#include "error.h"
#include "strbuf.h"

struct pp_zcache {
	char *dir;       /* where compressed pieces are kept; NULL: none */
	/* set: a cached piece named by its stanzas' ids (below) is used only
	 * if the SHA-256 of its text, kept with it, is the text's at hand */
	int check_text;
	char **used;     /* file names used since pp_zcache_open */
	size_t nr_used, alloc_used;
	size_t hits, misses;
};

void pp_zcache_open(struct pp_zcache *zc, const char *dir);
/* Deletes cached pieces not used since opened; closes. */
int pp_zcache_close(struct pp_zcache *zc, int prune, struct pp_err *err);

int pp_zpieces_compress(const char *text, size_t len, enum pp_compressor type,
			int level, struct pp_zcache *zc, struct strbuf *out,
			struct pp_err *err);

/* The same text compressed several ways: cut and hashed once. done, if
 * set, is called with the output once it is whole, on the thread that
 * made it (the others may still be at work). part, if set, is given the
 * output each time it passes PP_ZPIECES_PART bytes, which is then
 * emptied: done then gets only the rest (a large index is written as it
 * is made, never whole in memory). */
struct pp_zpieces_out {
	enum pp_compressor type;
	int level;
	struct strbuf *out;
	void (*done)(void *ctx, const struct strbuf *out);
	void *ctx;
	void (*part)(void *ctx, const struct strbuf *out);
};

#define PP_ZPIECES_PART (64u << 10)

int pp_zpieces_compress_all(const char *text, size_t len,
			    const struct pp_zpieces_out *outs, size_t nr_outs,
			    struct pp_zcache *zc, struct pp_err *err);

/* A text given as its stanzas, joined by a newline each: stanza i runs up
 * to and including its last newline, and a blank line separates it from
 * the next. A large index need not be copied into one buffer first. */
struct pp_stanza_ref {
	const char *text;
	size_t len;
	/* What the text is made from, when the caller knows (an index's
	 * stanza: its pool file's name and stat key), so that a piece is
	 * named by its stanzas' ids, not by hashing its text: set in all of
	 * a text's stanzas or in none. */
	const char *id, *id2;
	/* The hash of the text's first line that the cut looks at
	 * (pp_zpieces_line_hash), when the caller has it (has_cut_hash):
	 * the cut then touches no stanza's text. */
	unsigned cut_hash;
	int has_cut_hash;
};

/* The hash of a stanza's first line (n bytes at s, without its newline)
 * that the cut looks at. */
unsigned pp_zpieces_line_hash(const char *s, size_t n);

struct pp_stanzas {
	const struct pp_stanza_ref *s;
	size_t nr;
	size_t len; /* of the joined text */
};

/* The text of the nr stanzas s (len counted from them). */
void pp_stanzas_set(struct pp_stanzas *t, const struct pp_stanza_ref *s,
		    size_t nr);
/* Appends the joined text of stanzas [first, end) to out, with the blank
 * line after each that has one. */
void pp_stanzas_add(const struct pp_stanzas *t, size_t first, size_t end,
		    struct strbuf *out);

int pp_zpieces_compress_stanzas(const struct pp_stanzas *t,
				const struct pp_zpieces_out *outs,
				size_t nr_outs, struct pp_zcache *zc,
				struct pp_err *err);

/* A text continuing one already published: t's text follows it (t's
 * first stanza empty, so that its text starts with the blank line after
 * the earlier text's last stanza). gzip: a member of its own (a gzip file
 * may hold several, read one after the other). xz: blocks, the index of
 * the earlier blocks xz_before (unpadded and uncompressed sizes) and
 * these, and the footer: what follows the earlier stream's blocks, with
 * no header. */
int pp_zpieces_compress_tail(const struct pp_stanzas *t,
			     const struct pp_zpieces_out *outs, size_t nr_outs,
			     struct pp_zcache *zc, const uint64_t (*xz_before)[2],
			     size_t xz_nr_before, struct pp_err *err);
/* The blocks of an xz stream, from its end (the last len bytes of the
 * stream, which hold its index and footer): their sizes in *blocks
 * (freed by the caller), and where, in those len bytes, the index
 * starts. */
int pp_zpieces_xz_blocks(const char *tail, size_t len, uint64_t (**blocks)[2],
			 size_t *nr, uint64_t *index_at);

#endif
