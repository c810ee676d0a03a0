#include "../../src/lib/control.h"
#include "../../src/lib/fsutil.h"
#include "../../src/lib/hash.h"
#include "../../src/lib/sha256-state.h"
#include "../../src/lib/xalloc.h"
#include "../../src/lib/zpieces.h"
#include "test.h"

#include <dirent.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

static void make_text(struct strbuf *sb, int n, int changed)
{
	for (int i = 0; i < n; i++)
		strbuf_addf(sb, "%sPackage: pkg%05d\nVersion: 1.%d\nDescription: "
			    "package number %d of the test\n", i ? "\n" : "", i,
			    i == changed ? 2 : 1, i);
}

static int gunzip(const struct strbuf *in, struct strbuf *out)
{
	z_stream s = { 0 };
	int r;

	if (inflateInit2(&s, 31) != Z_OK)
		return -1;
	s.next_in = (Bytef *)in->buf;
	s.avail_in = (uInt)in->len;
	do {
		strbuf_grow(out, 65536);
		s.next_out = (Bytef *)out->buf + out->len;
		s.avail_out = 65536;
		r = inflate(&s, Z_NO_FLUSH);
		strbuf_setlen(out, out->len + 65536 - s.avail_out);
	} while (r == Z_OK);
	inflateEnd(&s);
	return r == Z_STREAM_END && s.avail_in == 0 ? 0 : -1;
}

static int unxz(const struct strbuf *in, struct strbuf *out, size_t size)
{
	uint64_t limit = UINT64_MAX;
	size_t in_pos = 0, out_pos = 0;

	strbuf_grow(out, size + 1);
	if (lzma_stream_buffer_decode(&limit, 0, NULL, (const uint8_t *)in->buf,
				      &in_pos, in->len, (uint8_t *)out->buf,
				      &out_pos, size + 1) != LZMA_OK)
		return -1;
	strbuf_setlen(out, out_pos);
	return 0;
}

static void roundtrip(struct t_ctx *t, int n)
{
	struct strbuf text = STRBUF_INIT, z = STRBUF_INIT, back = STRBUF_INIT;
	struct pp_err err;

	pp_err_init(&err);
	make_text(&text, n, -1);
	CHECK(pp_zpieces_compress(text.buf, text.len, PP_COMP_GZIP, 9, NULL, &z,
				  &err) == 0);
	CHECK(gunzip(&z, &back) == 0);
	CHECK(back.len == text.len && !memcmp(back.buf, text.buf, text.len));
	strbuf_reset(&z);
	strbuf_reset(&back);
	CHECK(pp_zpieces_compress(text.buf, text.len, PP_COMP_XZ, 6, NULL, &z,
				  &err) == 0);
	CHECK(unxz(&z, &back, text.len) == 0);
	CHECK(back.len == text.len && !memcmp(back.buf, text.buf, text.len));
	strbuf_release(&text);
	strbuf_release(&z);
	strbuf_release(&back);
	pp_err_release(&err);
}

static void roundtrips(struct t_ctx *t)
{
	roundtrip(t, 0);
	roundtrip(t, 1);
	roundtrip(t, 50);
	roundtrip(t, 20000); /* about 1.4 MB: many pieces */
}

/* The cache changes nothing in the output, and one changed stanza costs
 * one or two pieces. */
static void cache_and_locality(struct t_ctx *t)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, z1 = STRBUF_INIT,
		      z2 = STRBUF_INIT, z3 = STRBUF_INIT;
	char dir[] = "/tmp/padpack-zc.XXXXXX";
	struct pp_zcache zc;
	struct pp_err err;

	pp_err_init(&err);
	CHECK(mkdtemp(dir) != NULL);
	make_text(&a, 20000, -1);
	make_text(&b, 20000, 12345);
	CHECK(pp_zpieces_compress(a.buf, a.len, PP_COMP_XZ, 6, NULL, &z1, &err) == 0);
	pp_zcache_open(&zc, dir);
	CHECK(pp_zpieces_compress(a.buf, a.len, PP_COMP_XZ, 6, &zc, &z2, &err) == 0);
	CHECK(z1.len == z2.len && !memcmp(z1.buf, z2.buf, z1.len));
	CHECK(zc.misses > 4);
	zc.misses = zc.hits = 0;
	CHECK(pp_zpieces_compress(b.buf, b.len, PP_COMP_XZ, 6, &zc, &z3, &err) == 0);
	CHECK(zc.misses >= 1 && zc.misses <= 2);
	CHECK(zc.hits > 4);
	/* the changed pieces, made ahead on threads of their own, are where
	 * a compress without the cache puts them; gzip's too */
	strbuf_reset(&z1);
	CHECK(pp_zpieces_compress(b.buf, b.len, PP_COMP_XZ, 6, NULL, &z1, &err) == 0);
	CHECK(z1.len == z3.len && !memcmp(z1.buf, z3.buf, z1.len));
	strbuf_reset(&z2);
	strbuf_reset(&z3);
	CHECK(pp_zpieces_compress(a.buf, a.len, PP_COMP_GZIP, 9, &zc, &z2, &err) == 0);
	zc.misses = zc.hits = 0;
	CHECK(pp_zpieces_compress(b.buf, b.len, PP_COMP_GZIP, 9, &zc, &z3, &err) == 0);
	CHECK(zc.misses >= 1 && zc.misses <= 2 && zc.hits > 4);
	strbuf_reset(&z1);
	CHECK(pp_zpieces_compress(b.buf, b.len, PP_COMP_GZIP, 9, NULL, &z1, &err) == 0);
	CHECK(z1.len == z3.len && !memcmp(z1.buf, z3.buf, z1.len));
	CHECK(pp_zcache_close(&zc, 1, &err) == 0);
	CHECK(pp_remove_tree(dir, &err) == 0);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&z1);
	strbuf_release(&z2);
	strbuf_release(&z3);
	pp_err_release(&err);
}

/* A damage done to every cached file: cut it to cut bytes (a disk that
 * filled up, say), or, with cut < 0, set 8 of its bytes from at on to all
 * ones. */
struct damage {
	off_t cut, at;
};

static void damage_all(const char *dir, struct damage how)
{
	static const unsigned char ones[8] = { 255, 255, 255, 255, 255, 255,
					       255, 255 };
	struct dirent *de;
	DIR *d = opendir(dir);
	char path[4096];
	FILE *f;

	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (how.cut >= 0) {
			if (truncate(path, how.cut) < 0)
				perror(path);
		} else if ((f = fopen(path, "r+"))) {
			fseek(f, how.at, SEEK_SET);
			fwrite(ones, 1, sizeof(ones), f);
			fclose(f);
		}
	}
	if (d)
		closedir(d);
}

/* Compresses text with the cache in dir into o's outputs (reset first);
 * gives the cache's misses and hits. */
static void compress_cached(struct t_ctx *t, const struct strbuf *text,
			    const char *dir, const struct pp_zpieces_out *o,
			    size_t *misses, size_t *hits)
{
	struct pp_zcache zc;
	struct pp_err err;

	pp_err_init(&err);
	strbuf_reset(o[0].out);
	strbuf_reset(o[1].out);
	pp_zcache_open(&zc, dir);
	CHECK(pp_zpieces_compress_all(text->buf, text->len, o, 2, &zc, &err) == 0);
	*misses = zc.misses;
	*hits = zc.hits;
	CHECK(pp_zcache_close(&zc, 1, &err) == 0);
	pp_err_release(&err);
}

static void release_all(struct strbuf *const *sb, size_t n)
{
	for (size_t i = 0; i < n; i++)
		strbuf_release(sb[i]);
}

#define SAME(x, y) CHECK((x).len == (y).len && !memcmp((x).buf, (y).buf, (x).len))

/* A damaged cached piece is made again, with gzip and xz on their threads:
 * the output is the same, and the next run finds whole pieces. */
static void damaged_cache(struct t_ctx *t)
{
	struct strbuf a = STRBUF_INIT, gz1 = STRBUF_INIT, xz1 = STRBUF_INIT,
		      gz2 = STRBUF_INIT, xz2 = STRBUF_INIT;
	char dir[] = "/tmp/padpack-zc.XXXXXX";
	struct pp_err err;
	struct pp_zpieces_out o1[] = {
		{ PP_COMP_GZIP, 9, &gz1, NULL, NULL, NULL },
		{ PP_COMP_XZ, 6, &xz1, NULL, NULL, NULL },
	};
	struct pp_zpieces_out o2[] = {
		{ PP_COMP_GZIP, 9, &gz2, NULL, NULL, NULL },
		{ PP_COMP_XZ, 6, &xz2, NULL, NULL, NULL },
	};
	/* cut shorter than the head; compressed bytes changed; the head's
	 * payload length all ones */
	static const struct damage damage[] = { { 7, 0 }, { -1, 100 },
						{ -1, 0 } };
	size_t pieces, misses, hits;

	pp_err_init(&err);
	CHECK(mkdtemp(dir) != NULL);
	make_text(&a, 20000, -1);
	CHECK(pp_zpieces_compress_all(a.buf, a.len, o1, 2, NULL, &err) == 0);
	compress_cached(t, &a, dir, o2, &pieces, &hits);
	CHECK(pieces > 8 && hits == 0);
	for (size_t i = 0; i < ARRAY_SIZE(damage); i++) {
		damage_all(dir, damage[i]);
		compress_cached(t, &a, dir, o2, &misses, &hits);
		SAME(gz1, gz2);
		SAME(xz1, xz2);
		CHECK(misses == pieces && hits == 0);
		compress_cached(t, &a, dir, o2, &misses, &hits);
		CHECK(misses == 0 && hits == pieces);
		SAME(xz1, xz2);
	}
	CHECK(pp_remove_tree(dir, &err) == 0);
	release_all((struct strbuf *[]){ &a, &gz1, &xz1, &gz2, &xz2 }, 5);
	pp_err_release(&err);
}

static void count_done(void *ctx, const struct strbuf *out)
{
	size_t *calls = ctx;

	calls[0]++;
	calls[1] = out->len;
}

/* A text given as stanzas (here the stanzas of one made in memory, each
 * elsewhere) compresses as the same text in one buffer; done is called
 * once with each whole output. */
static void stanzas_as_text(struct t_ctx *t)
{
	struct strbuf a = STRBUF_INIT, gz1 = STRBUF_INIT, xz1 = STRBUF_INIT,
		      gz2 = STRBUF_INIT, xz2 = STRBUF_INIT, gz3 = STRBUF_INIT,
		      xz3 = STRBUF_INIT;
	size_t done_gz[2] = { 0, 0 }, done_xz[2] = { 0, 0 }, nr = 0;
	struct pp_zpieces_out o1[] = {
		{ PP_COMP_GZIP, 9, &gz1, NULL, NULL, NULL },
		{ PP_COMP_XZ, 6, &xz1, NULL, NULL, NULL },
	};
	struct pp_zpieces_out o2[] = {
		{ PP_COMP_GZIP, 9, &gz2, count_done, done_gz, NULL },
		{ PP_COMP_XZ, 6, &xz2, count_done, done_xz, NULL },
	};
	struct pp_stanza_ref *refs = xcalloc(20001, sizeof(*refs));
	char **copies = xcalloc(20001, sizeof(*copies));
	struct pp_stanzas st;
	struct pp_err err;
	const char *p, *end;

	pp_err_init(&err);
	make_text(&a, 20000, -1);
	CHECK(pp_zpieces_compress_all(a.buf, a.len, o1, 2, NULL, &err) == 0);
	for (p = a.buf; p < a.buf + a.len; p = end + 2) { /* copied apart */
		end = pp_stanza_end(p, (size_t)(a.buf + a.len - p));
		if (!end)
			end = a.buf + a.len - 1;
		copies[nr] = xmalloc((size_t)(end + 1 - p));
		memcpy(copies[nr], p, (size_t)(end + 1 - p));
		refs[nr] = (struct pp_stanza_ref){ copies[nr],
						   (size_t)(end + 1 - p),
						   NULL, NULL, 0, 0 };
		nr++;
	}
	pp_stanzas_set(&st, refs, nr);
	CHECK(nr == 20000 && st.len == a.len);
	CHECK(pp_zpieces_compress_stanzas(&st, o2, 2, NULL, &err) == 0);
	SAME(gz1, gz2);
	SAME(xz1, xz2);
	CHECK(done_gz[0] == 1 && done_gz[1] == gz2.len);
	CHECK(done_xz[0] == 1 && done_xz[1] == xz2.len);
	/* the first lines' hashes given (as db/cache's load takes them):
	 * the same cut, the same output */
	for (size_t i = 0; i < nr; i++) {
		const char *nl = memchr(refs[i].text, '\n', refs[i].len);

		refs[i].cut_hash = pp_zpieces_line_hash(refs[i].text,
						(size_t)(nl - refs[i].text));
		refs[i].has_cut_hash = 1;
	}
	o1[0].out = &gz3;
	o1[1].out = &xz3;
	CHECK(pp_zpieces_compress_stanzas(&st, o1, 2, NULL, &err) == 0);
	SAME(gz1, gz3);
	SAME(xz1, xz3);
	/* and they are what the cut reads: hashes that all say "cut" make
	 * more pieces */
	for (size_t i = 0; i < nr; i++)
		refs[i].cut_hash = 0;
	strbuf_reset(&xz3);
	CHECK(pp_zpieces_compress_stanzas(&st, &o1[1], 1, NULL, &err) == 0);
	CHECK(xz3.len != xz1.len || memcmp(xz3.buf, xz1.buf, xz1.len));
	for (size_t i = 0; i < nr; i++)
		free(copies[i]);
	free(copies);
	free(refs);
	release_all((struct strbuf *[]){ &a, &gz1, &xz1, &gz2, &xz2, &gz3,
					 &xz3 }, 7);
	pp_err_release(&err);
}

/* What the part callback is given, gathered; and how many times. */
struct parts {
	struct strbuf all;
	size_t calls;
};

static void gather_part(void *ctx, const struct strbuf *out)
{
	struct parts *g = ctx;

	strbuf_add(&g->all, out->buf, out->len);
	g->calls++;
}

/* done then gets the rest of it */
static void gather_rest(void *ctx, const struct strbuf *out)
{
	struct parts *g = ctx;

	strbuf_add(&g->all, out->buf, out->len);
}

/* An output handed on in parts as it is made (each at least
 * PP_ZPIECES_PART bytes), the rest to done, is the output made whole. */
static void output_in_parts(struct t_ctx *t)
{
	struct strbuf a = STRBUF_INIT, gz1 = STRBUF_INIT, xz1 = STRBUF_INIT,
		      gz2 = STRBUF_INIT, xz2 = STRBUF_INIT;
	struct parts pg = { STRBUF_INIT, 0 }, px = { STRBUF_INIT, 0 };
	struct pp_zpieces_out o1[] = {
		{ PP_COMP_GZIP, 9, &gz1, NULL, NULL, NULL },
		{ PP_COMP_XZ, 6, &xz1, NULL, NULL, NULL },
	};
	struct pp_zpieces_out o2[] = {
		{ PP_COMP_GZIP, 9, &gz2, gather_rest, &pg, gather_part },
		{ PP_COMP_XZ, 6, &xz2, gather_rest, &px, gather_part },
	};
	char hex[2 * PP_HASH_MAX + 1];
	struct pp_hash h;
	struct pp_err err;

	pp_err_init(&err);
	/* hashes as descriptions: text that compresses to megabytes */
	for (int i = 0; i < 2000; i++) {
		strbuf_addf(&a, "%sPackage: p%d\nDescription:", i ? "\n" : "", i);
		for (int k = 0; k < 4; k++) {
			pp_hash_init(&h, PP_SHA256);
			pp_hash_update(&h, &i, sizeof(i));
			pp_hash_update(&h, &k, sizeof(k));
			pp_hash_final_hex(&h, hex);
			strbuf_addf(&a, " %s", hex);
		}
		strbuf_addch(&a, '\n');
	}
	CHECK(pp_zpieces_compress_all(a.buf, a.len, o1, 2, NULL, &err) == 0);
	CHECK(pp_zpieces_compress_all(a.buf, a.len, o2, 2, NULL, &err) == 0);
	CHECK(gz1.len > 2 * PP_ZPIECES_PART && xz1.len > 2 * PP_ZPIECES_PART);
	CHECK(pg.calls >= 2 && px.calls >= 2);
	CHECK(gz2.len < PP_ZPIECES_PART + (512u << 10) &&
	      xz2.len < PP_ZPIECES_PART + (512u << 10));
	SAME(gz1, pg.all);
	SAME(xz1, px.all);
	release_all((struct strbuf *[]){ &a, &gz1, &xz1, &gz2, &xz2, &pg.all,
					 &px.all }, 7);
	pp_err_release(&err);
}

/* Texts that are not a clean list of stanzas still come back whole. */
static void odd_texts(struct t_ctx *t)
{
	static const char *const texts[] = {
		"A: 1\n\n", "A: 1\n\n\n", "\nA: 1\n", "A: 1\n\n\nB: 2\n",
		"\n", "\n\n", "A: 1", "A: 1\n\nB: 2\n\n",
	};

	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		struct strbuf z = STRBUF_INIT, back = STRBUF_INIT;
		size_t len = strlen(texts[i]);
		struct pp_err err;

		pp_err_init(&err);
		CHECK(pp_zpieces_compress(texts[i], len, PP_COMP_GZIP, 9, NULL,
					  &z, &err) == 0);
		CHECK(gunzip(&z, &back) == 0);
		CHECK(back.len == len && !memcmp(back.buf, texts[i], len));
		strbuf_reset(&z);
		strbuf_reset(&back);
		CHECK(pp_zpieces_compress(texts[i], len, PP_COMP_XZ, 6, NULL,
					  &z, &err) == 0);
		CHECK(unxz(&z, &back, len) == 0);
		CHECK(back.len == len && !memcmp(back.buf, texts[i], len));
		strbuf_release(&z);
		strbuf_release(&back);
		pp_err_release(&err);
	}
}

static void hash_restarted(struct t_ctx *t)
{
	static const char abc[] =
		"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
	char hex[2 * PP_HASH_MAX + 1];
	struct pp_hash h;

	pp_hash_init(&h, PP_SHA256);
	pp_hash_update(&h, "abc", 3);
	pp_hash_final_hex_restart(&h, hex);
	CHECK_STR(hex, abc);
	pp_hash_update(&h, "ab", 2);
	pp_hash_update(&h, "c", 1);
	pp_hash_final_hex_restart(&h, hex);
	CHECK_STR(hex, abc);
	pp_hash_final_hex_restart(&h, hex); /* nothing: the empty input's */
	CHECK_STR(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	pp_hash_release(&h);
}

/* Every gzip member of in, one after the other (as zcat and gzread read
 * them). */
static int gunzip_members(const struct strbuf *in, struct strbuf *out)
{
	z_stream s = { 0 };
	int r = Z_OK;

	if (inflateInit2(&s, 31) != Z_OK)
		return -1;
	s.next_in = (Bytef *)in->buf;
	s.avail_in = (uInt)in->len;
	while (s.avail_in && (r == Z_OK || r == Z_STREAM_END)) {
		if (r == Z_STREAM_END)
			inflateReset(&s);
		strbuf_grow(out, 65536);
		s.next_out = (Bytef *)out->buf + out->len;
		s.avail_out = 65536;
		r = inflate(&s, Z_NO_FLUSH);
		strbuf_setlen(out, out->len + 65536 - s.avail_out);
	}
	inflateEnd(&s);
	return r == Z_STREAM_END ? 0 : -1;
}

/* A text continued: the base's .gz then the tail's member expand to the
 * whole text; the base's .xz up to its blocks' end, then what
 * pp_zpieces_compress_tail made, is one stream of it; and a SHA-256
 * state saved after the base and loaded goes on to the whole text's. */
static void tail_continues(struct t_ctx *t)
{
	struct strbuf base = STRBUF_INIT, tail = STRBUF_INIT, all = STRBUF_INIT;
	struct strbuf gz = STRBUF_INIT, xz = STRBUF_INIT, back = STRBUF_INIT;
	struct strbuf gz2 = STRBUF_INIT, xz2 = STRBUF_INIT;
	struct pp_stanza_ref *refs;
	struct pp_stanzas st;
	uint64_t (*blocks)[2], index_at;
	size_t nr_blocks, nr = 0;
	unsigned char state[PP_SHA256_STATE_SIZE];
	char hex1[65], hex2[65];
	struct pp_sha256 h;
	struct pp_err err;

	pp_err_init(&err);
	make_text(&base, 3000, -1);
	strbuf_addstr(&tail, "Package: zz-new\nDescription: a\n");
	strbuf_add(&all, base.buf, base.len);
	strbuf_addf(&all, "\n%s", tail.buf);
	CHECK(pp_zpieces_compress(base.buf, base.len, PP_COMP_GZIP, 9, NULL,
				  &gz, &err) == 0);
	CHECK(pp_zpieces_compress(base.buf, base.len, PP_COMP_XZ, 6, NULL,
				  &xz, &err) == 0);
	CHECK(pp_zpieces_xz_blocks(xz.buf, xz.len, &blocks, &nr_blocks,
				   &index_at) == 0);
	CHECK(nr_blocks >= 2 && index_at < xz.len);
	/* the tail: an empty stanza (the blank line), then its own */
	refs = xcalloc(2, sizeof(*refs));
	refs[nr++] = (struct pp_stanza_ref){ "", 0, NULL, NULL, 0, 0 };
	refs[nr++] = (struct pp_stanza_ref){ tail.buf, tail.len, NULL, NULL,
					      0, 0 };
	pp_stanzas_set(&st, refs, nr);
	{
		const struct pp_zpieces_out o[] = {
			{ PP_COMP_GZIP, 9, &gz2, NULL, NULL, NULL },
			{ PP_COMP_XZ, 6, &xz2, NULL, NULL, NULL },
		};

		CHECK(pp_zpieces_compress_tail(&st, o, 2, NULL,
					       (const uint64_t (*)[2])blocks,
					       nr_blocks, &err) == 0);
	}
	strbuf_add(&gz, gz2.buf, gz2.len);
	CHECK(gunzip_members(&gz, &back) == 0);
	CHECK(back.len == all.len && !memcmp(back.buf, all.buf, all.len));
	strbuf_setlen(&xz, (size_t)index_at);
	strbuf_add(&xz, xz2.buf, xz2.len);
	strbuf_reset(&back);
	CHECK(unxz(&xz, &back, all.len) == 0);
	CHECK(back.len == all.len && !memcmp(back.buf, all.buf, all.len));

	pp_sha256_init(&h);
	pp_sha256_update(&h, all.buf, all.len);
	pp_sha256_final_hex(&h, hex1);
	pp_sha256_init(&h);
	pp_sha256_update(&h, base.buf, base.len);
	pp_sha256_save(&h, state);
	memset(&h, 0, sizeof(h));
	CHECK(pp_sha256_load(&h, state) == 0);
	pp_sha256_update(&h, all.buf + base.len, all.len - base.len);
	pp_sha256_final_hex(&h, hex2);
	CHECK_STR(hex2, hex1);
	memset(state, 0xff, sizeof(state)); /* not a state OpenSSL made */
	CHECK(pp_sha256_load(&h, state) < 0);

	free(refs);
	free(blocks);
	release_all((struct strbuf *const[]){ &base, &tail, &all, &gz, &xz,
					      &back, &gz2, &xz2 }, 8);
	pp_err_release(&err);
}

T_SUITE(zpieces_tests) = {
	{ "zpieces: a tail continues a text (gzip member, xz blocks, hash state)",
	  tail_continues },
	{ "hash: a digest restarted gives each input's", hash_restarted },
	{ "zpieces: gzip and xz round trips", roundtrips },
	{ "zpieces: cache-independent output, local changes", cache_and_locality },
	{ "zpieces: damaged cached pieces are made again", damaged_cache },
	{ "zpieces: a text given as stanzas, as in one buffer", stanzas_as_text },
	{ "zpieces: texts with blank lines at either end", odd_texts },
	{ "zpieces: an output handed on in parts as it is made",
	  output_in_parts },
	T_END,
};
