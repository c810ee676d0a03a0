#include "../../src/lib/fsutil.h"
#include "../../src/lib/zpieces.h"
#include "test.h"

#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
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
	CHECK(pp_zcache_close(&zc, 1, &err) == 0);
	CHECK(pp_remove_tree(dir, &err) == 0);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&z1);
	strbuf_release(&z2);
	strbuf_release(&z3);
	pp_err_release(&err);
}

T_SUITE(zpieces_tests) = {
	{ "zpieces: gzip and xz round trips", roundtrips },
	{ "zpieces: cache-independent output, local changes", cache_and_locality },
	T_END,
};
