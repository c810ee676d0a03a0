#include "../../src/lib/strbuf.h"
#include "../../src/lib/x86code.h"
#include "../../src/lib/xzblocks.h"
#include "test.h"

#include <lzma.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* The block encoder must write what liblzma's multi-threaded encoder
 * writes, whatever its thread count: packages are byte-identical
 * whichever of the two compressed them. */

static int to_strbuf(void *ctx, const void *buf, size_t len)
{
	strbuf_add(ctx, buf, len);
	return 0;
}

/* x86: the chain [x86 BCJ, LZMA2 at preset], built here as xz --x86
 * --lzma2=preset=N does, not with pp_xz_filters. */
static int liblzma_mt(const uint8_t *in, size_t len, unsigned preset, int x86,
		      unsigned threads, struct strbuf *out)
{
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_options_lzma opt;
	lzma_filter chain[3] = {
		{ LZMA_FILTER_X86, NULL }, { LZMA_FILTER_LZMA2, &opt },
		{ LZMA_VLI_UNKNOWN, NULL },
	};
	lzma_mt mt = { 0 };
	lzma_ret r;

	mt.preset = preset;
	mt.check = LZMA_CHECK_CRC64;
	mt.threads = threads;
	if (x86) {
		if (lzma_lzma_preset(&opt, preset))
			return -1;
		mt.filters = chain;
	}
	if (lzma_stream_encoder_mt(&s, &mt) != LZMA_OK)
		return -1;
	s.next_in = in;
	s.avail_in = len;
	do {
		strbuf_grow(out, 65536);
		s.next_out = (uint8_t *)out->buf + out->len;
		s.avail_out = 65536;
		r = lzma_code(&s, LZMA_FINISH);
		strbuf_setlen(out, out->len + 65536 - s.avail_out);
	} while (r == LZMA_OK);
	lzma_end(&s);
	return r == LZMA_STREAM_END ? 0 : -1;
}

/* In pieces of odd sizes, as a tar stream arrives. */
static int blocks(const uint8_t *in, size_t len, unsigned preset, int x86,
		  struct strbuf *out)
{
	struct pp_xzblocks *x = pp_xzblocks_new(preset, x86, to_strbuf, out);
	size_t off = 0, piece = 1;
	int r = x ? 0 : -1;

	while (r == 0 && off < len) {
		size_t n = piece < len - off ? piece : len - off;

		r = pp_xzblocks_code(x, in + off, n, 0);
		off += n;
		piece = piece * 7 % 300007 + 1;
	}
	if (r == 0)
		r = pp_xzblocks_code(x, NULL, 0, 1);
	pp_xzblocks_free(x);
	return r;
}

static uint32_t next(uint32_t *state)
{
	*state = *state * 1664525u + 1013904223u;
	return *state >> 24; /* the low bits of an LCG repeat early */
}

/* Something like x86 code: calls (E8 rel32) to a few functions from
 * everywhere, between runs of other instructions' bytes. */
static void fill_code(uint8_t *p, size_t len, uint32_t *st)
{
	static const uint32_t callee[] = { 0x1000, 0x2340, 0x8000, 0x123450 };

	for (size_t i = 0; i < len;) {
		if (len - i >= 5 && next(st) < 64) {
			uint32_t rel = callee[next(st) & 3] - (uint32_t)(i + 5);

			p[i++] = 0xe8;
			for (int b = 0; b < 4; b++)
				p[i++] = (uint8_t)(rel >> (8 * b));
		} else {
			p[i] = (uint8_t)("\x48\x89\xe5\x8b\x45\xfc\x5d\xc3"[i % 8] ^
					 (next(st) & 1));
			i++;
		}
	}
}

/* kind 0: text; 1: random bytes; 2: random runs of text and noise;
 * 3: x86-like code */
static uint8_t *make_input(size_t len, int kind)
{
	uint8_t *p = malloc(len ? len : 1);
	uint32_t st = 12345;

	if (kind == 3) {
		fill_code(p, len, &st);
		return p;
	}
	for (size_t i = 0; i < len; i++) {
		int noise = kind == 1 || (kind == 2 && (i >> 15) % 3 == 1);

		p[i] = noise ? (uint8_t)next(&st) :
			(uint8_t)("package data "[i % 13] + (i / 4096) % 3);
	}
	return p;
}

static void same_chain(struct t_ctx *t, size_t len, int kind,
		       unsigned preset, int x86)
{
	uint8_t *in = make_input(len, kind);
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, c = STRBUF_INIT;

	CHECK(blocks(in, len, preset, x86, &a) == 0);
	CHECK(liblzma_mt(in, len, preset, x86, 1, &b) == 0);
	CHECK(liblzma_mt(in, len, preset, x86, 2, &c) == 0);
	CHECK(a.len == b.len && !memcmp(a.buf, b.buf, a.len));
	CHECK(b.len == c.len && !memcmp(b.buf, c.buf, b.len));
	if (a.len != b.len || memcmp(a.buf, b.buf, a.len))
		t_fail(t, __FILE__, __LINE__, "length %zu kind %d preset %u "
		       "x86 %d: %zu bytes, liblzma %zu", len, kind, preset, x86,
		       a.len, b.len);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&c);
	free(in);
}

static void same_as_liblzma(struct t_ctx *t, size_t len, int kind,
			    unsigned preset)
{
	same_chain(t, len, kind, preset, 0);
}

static void sizes_around_blocks(struct t_ctx *t)
{
	/* preset 0: 256 KiB dictionary, blocks of 1 MiB */
	static const size_t lens[] = { 0, 1, 4095, (1u << 20) - 1, 1u << 20,
				       (1u << 20) + 1, 2u << 20,
				       (5u << 20) / 2 };

	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
		same_as_liblzma(t, lens[i], 0, 0);
}

static void incompressible(struct t_ctx *t)
{
	same_as_liblzma(t, (5u << 20) / 2, 1, 0);
	same_as_liblzma(t, (5u << 20) / 2, 2, 0);
	same_as_liblzma(t, (5u << 20) / 2, 2, 1);
}

/* The x86 BCJ chain: block by block as liblzma writes it, the filter
 * started afresh in each block; the BCJ filter holds back the last bytes
 * of a block until its end. Stored blocks hold LZMA2 chunks alone. */
static void x86_chain(struct t_ctx *t)
{
	static const size_t lens[] = { 0, 1, 4, 5, 4095, (1u << 20) - 3,
				       1u << 20, (1u << 20) + 3,
				       (5u << 20) / 2 };

	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		same_chain(t, lens[i], 3, 0, 1);
		same_chain(t, lens[i], 0, 0, 1);
	}
	same_chain(t, (5u << 20) / 2, 1, 0, 1);
	same_chain(t, (5u << 20) / 2, 2, 1, 1);
}

/* On x86-like code the chain is what makes it smaller. */
static void x86_smaller(struct t_ctx *t)
{
	size_t len = 2u << 20;
	uint8_t *in = make_input(len, 3);
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	uint8_t *back = malloc(len);
	uint64_t limit = UINT64_MAX;
	size_t in_pos = 0, out_pos = 0;

	CHECK(blocks(in, len, 0, 0, &a) == 0);
	CHECK(blocks(in, len, 0, 1, &b) == 0);
	CHECK(b.len < a.len * 9 / 10);
	/* and liblzma reads it back */
	CHECK(lzma_stream_buffer_decode(&limit, 0, NULL, (uint8_t *)b.buf,
					&in_pos, b.len, back, &out_pos,
					len) == LZMA_OK);
	CHECK(out_pos == len && !memcmp(back, in, len));
	free(back);
	free(in);
	strbuf_release(&a);
	strbuf_release(&b);
}

static int to_fd(void *ctx, const void *buf, size_t len)
{
	return write(*(int *)ctx, buf, len) == (ssize_t)len ? 0 : -1;
}

/* As blocks, into a file that can seek (after a few bytes of its own, as
 * a member of a larger file): blocks written out as they come, each
 * header written back in place, an incompressible block taken back. */
static int blocks_seekable(const uint8_t *in, size_t len, int kind,
			   struct strbuf *out)
{
	char name[] = "/tmp/padpack-unit-xzb.XXXXXX";
	int fd = mkstemp(name);
	struct pp_xzblocks *x = pp_xzblocks_new(0, kind == 3, to_fd, &fd);
	int r = fd >= 0 && x && write(fd, "head", 4) == 4 ? 0 : -1;
	struct stat st;

	if (x && fd >= 0)
		pp_xzblocks_seekable(x, fd);
	for (size_t off = 0; r == 0 && off < len; off += 100003)
		r = pp_xzblocks_code(x, in + off,
				     len - off < 100003 ? len - off : 100003, 0);
	if (r == 0)
		r = pp_xzblocks_code(x, NULL, 0, 1);
	pp_xzblocks_free(x);
	if (r == 0 && fstat(fd, &st) == 0 && st.st_size >= 4) {
		strbuf_grow(out, (size_t)st.st_size);
		if (pread(fd, out->buf, (size_t)st.st_size - 4, 4) !=
		    st.st_size - 4)
			r = -1;
		strbuf_setlen(out, (size_t)st.st_size - 4);
	}
	if (fd >= 0)
		close(fd);
	unlink(name);
	return r;
}

static void seekable(struct t_ctx *t)
{
	static const size_t lens[] = { 0, 1, (1u << 20) + 1, (5u << 20) / 2 };

	for (int kind = 0; kind <= 3; kind++)
		for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
			uint8_t *in = make_input(lens[i], kind);
			struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

			CHECK(blocks(in, lens[i], 0, kind == 3, &a) == 0);
			CHECK(blocks_seekable(in, lens[i], kind, &b) == 0);
			if (a.len != b.len || memcmp(a.buf, b.buf, a.len))
				t_fail(t, __FILE__, __LINE__, "length %zu "
				       "kind %d: %zu bytes seekable, %zu not",
				       lens[i], kind, b.len, a.len);
			strbuf_release(&a);
			strbuf_release(&b);
			free(in);
		}
}

/* A tally of code bytes and n call sites whose relative targets take
 * nrel distinct values and absolute ones nabs. */
static int gains(uint64_t code, uint64_t reloc, uint64_t all, size_t n,
		 uint32_t nrel, uint32_t nabs)
{
	struct pp_x86_tally t = { 0 };
	int r;

	t.code = code;
	t.reloc = reloc;
	for (size_t i = 0; i < n; i++) {
		pp_distinct_add(&t.rel, (uint32_t)(i % nrel) * 7919);
		pp_distinct_add(&t.abs, (uint32_t)(i % nabs) * 104729);
	}
	t.sites = n;
	r = pp_x86_tally_gains(&t, all);
	pp_x86_tally_release(&t);
	return r;
}

/* The rule of x86code.h: a tenth of code, net of relocatable bytes, and
 * at most 4/5 as many distinct absolute targets as relative ones. */
static void x86_rule(struct t_ctx *t)
{
	(void)t;
	CHECK(gains(20, 0, 100, 1000, 500, 100));   /* calls to shared targets */
	CHECK(gains(10, 0, 100, 1000, 500, 400));   /* the edges: 10%, 4/5 */
	CHECK(!gains(10, 0, 100, 1000, 500, 401));
	CHECK(!gains(9, 0, 100, 1000, 500, 100));   /* too little code */
	CHECK(!gains(60, 55, 100, 1000, 500, 100)); /* archives beside it */
	CHECK(!gains(50, 0, 100, 1000, 7, 300));    /* copies side by side */
	CHECK(!gains(0, 0, 0, 0, 1, 1));            /* an empty package */
	/* a package the size of LLVM's library: millions of sites, counted
	 * in bounded memory, the estimate on the right side of the edge */
	CHECK(gains(20, 0, 100, 3000000, 1000000, 760000));
	CHECK(!gains(20, 0, 100, 3000000, 1000000, 840000));
}

static uint64_t distinct_of(uint32_t n, uint32_t stride, int twice, int down)
{
	struct pp_distinct d = { 0 };
	uint64_t r;

	for (int k = 0; k <= twice; k++)
		for (uint32_t i = 0; i < n; i++)
			pp_distinct_add(&d, (down ? n - 1 - i : i) * stride);
	r = pp_distinct_count(&d);
	pp_distinct_release(&d);
	return r;
}

/* distinct.h: exact up to PP_DISTINCT_EXACT values, within a few percent
 * past it, the same whatever the order and however often a value comes. */
static void distinct_counts(struct t_ctx *t)
{
	uint64_t big = distinct_of(1000000, 2654435761u, 0, 0);

	(void)t;
	CHECK(distinct_of(0, 1, 0, 0) == 0);
	CHECK(distinct_of(1, 1, 1, 0) == 1);
	CHECK(distinct_of(PP_DISTINCT_EXACT, 3, 1, 0) == PP_DISTINCT_EXACT);
	CHECK(distinct_of(PP_DISTINCT_EXACT, 3, 0, 1) == PP_DISTINCT_EXACT);
	CHECK(big > 970000 && big < 1030000);
	CHECK(distinct_of(1000000, 2654435761u, 1, 1) == big);
	big = distinct_of(100000, 1, 0, 0);
	CHECK(big > 97000 && big < 103000);
}

/* This program is an x86-64 ELF file with code; a text file tallies
 * nothing. */
static void x86_tally_files(struct t_ctx *t)
{
	struct pp_x86_tally a = { 0 };
	char text[] = "/tmp/padpack-unit-x86.XXXXXX";
	int fd = mkstemp(text);

	CHECK(fd >= 0 && write(fd, "\xe8\0\0\0\0 text\n", 11) == 11);
	if (fd >= 0)
		close(fd);
	pp_x86_tally_file(&a, text, 11);
	CHECK(a.code == 0 && a.reloc == 0 && a.sites == 0 && a.base == 11);
	unlink(text);
#if defined(__x86_64__)
	{
		char *self = realpath("/proc/self/exe", NULL);
		struct stat st;

		CHECK(self && stat(self, &st) == 0);
		if (self)
			pp_x86_tally_file(&a, self, (uint64_t)st.st_size);
		CHECK(a.code > 0 && a.sites > 0 && a.reloc == 0);
		free(self);
	}
#endif
	pp_x86_tally_release(&a);
}

T_SUITE(xzblocks_tests) = {
	{ "xzblocks: liblzma's stream at block boundaries", sizes_around_blocks },
	{ "xzblocks: liblzma's stream for incompressible data", incompressible },
	{ "xzblocks: liblzma's stream with the x86 BCJ filter", x86_chain },
	{ "xzblocks: the x86 filter shrinks x86 code", x86_smaller },
	{ "xzblocks: the same stream into a seekable file, headers written back", seekable },
	{ "x86code: when the filter is used", x86_rule },
	{ "distinct: exact to 16,384 values, then estimated in bounded memory", distinct_counts },
	{ "x86code: an ELF program's code is tallied, text is not", x86_tally_files },
	T_END,
};
