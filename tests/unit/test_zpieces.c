#include "../../src/lib/fsutil.h"
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
	CHECK(pp_zcache_close(&zc, 1, &err) == 0);
	CHECK(pp_remove_tree(dir, &err) == 0);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&z1);
	strbuf_release(&z2);
	strbuf_release(&z3);
	pp_err_release(&err);
}

/* Damage every cached file: cut it to n bytes (a disk that filled up,
 * say), or, with n < 0, flip the bits of its byte at -n. */
static void damage_all(const char *dir, off_t n)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	char path[4096];
	FILE *f;
	int c;

	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (n >= 0) {
			if (truncate(path, n) < 0)
				perror(path);
		} else if ((f = fopen(path, "r+"))) {
			fseek(f, -n, SEEK_SET);
			c = fgetc(f);
			fseek(f, -n, SEEK_SET);
			fputc(c ^ 0xff, f);
			fclose(f);
		}
	}
	if (d)
		closedir(d);
}

/* A damaged cached piece is made again, with gzip and xz on their threads:
 * the output is the same, and the next run finds whole pieces. */
static void damaged_cache(struct t_ctx *t)
{
	struct strbuf a = STRBUF_INIT, gz1 = STRBUF_INIT, xz1 = STRBUF_INIT,
		      gz2 = STRBUF_INIT, xz2 = STRBUF_INIT;
	char dir[] = "/tmp/padpack-zc.XXXXXX";
	struct pp_zcache zc;
	struct pp_err err;
	struct pp_zpieces_out o1[] = { { PP_COMP_GZIP, 9, &gz1 },
				       { PP_COMP_XZ, 6, &xz1 } };
	struct pp_zpieces_out o2[] = { { PP_COMP_GZIP, 9, &gz2 },
				       { PP_COMP_XZ, 6, &xz2 } };
	size_t misses;

	pp_err_init(&err);
	CHECK(mkdtemp(dir) != NULL);
	make_text(&a, 20000, -1);
	CHECK(pp_zpieces_compress_all(a.buf, a.len, o1, 2, NULL, &err) == 0);
	pp_zcache_open(&zc, dir);
	CHECK(pp_zpieces_compress_all(a.buf, a.len, o2, 2, &zc, &err) == 0);
	misses = zc.misses;
	CHECK(misses > 8 && zc.hits == 0);
	CHECK(pp_zcache_close(&zc, 1, &err) == 0);
	damage_all(dir, 7); /* shorter than the head */
	strbuf_reset(&gz2);
	strbuf_reset(&xz2);
	pp_zcache_open(&zc, dir);
	CHECK(pp_zpieces_compress_all(a.buf, a.len, o2, 2, &zc, &err) == 0);
	CHECK(gz1.len == gz2.len && !memcmp(gz1.buf, gz2.buf, gz1.len));
	CHECK(xz1.len == xz2.len && !memcmp(xz1.buf, xz2.buf, xz1.len));
	CHECK(zc.misses == misses && zc.hits == 0);
	CHECK(pp_zcache_close(&zc, 1, &err) == 0);
	pp_zcache_open(&zc, dir);
	strbuf_reset(&gz2);
	strbuf_reset(&xz2);
	CHECK(pp_zpieces_compress_all(a.buf, a.len, o2, 2, &zc, &err) == 0);
	CHECK(zc.misses == 0 && zc.hits == misses);
	CHECK(xz1.len == xz2.len && !memcmp(xz1.buf, xz2.buf, xz1.len));
	CHECK(pp_zcache_close(&zc, 1, &err) == 0);
	damage_all(dir, -100); /* a byte of the compressed data */
	pp_zcache_open(&zc, dir);
	strbuf_reset(&gz2);
	strbuf_reset(&xz2);
	CHECK(pp_zpieces_compress_all(a.buf, a.len, o2, 2, &zc, &err) == 0);
	CHECK(zc.misses == misses && zc.hits == 0);
	CHECK(gz1.len == gz2.len && !memcmp(gz1.buf, gz2.buf, gz1.len));
	CHECK(xz1.len == xz2.len && !memcmp(xz1.buf, xz2.buf, xz1.len));
	CHECK(pp_zcache_close(&zc, 1, &err) == 0);
	CHECK(pp_remove_tree(dir, &err) == 0);
	strbuf_release(&a);
	strbuf_release(&gz1);
	strbuf_release(&xz1);
	strbuf_release(&gz2);
	strbuf_release(&xz2);
	pp_err_release(&err);
}

T_SUITE(zpieces_tests) = {
	{ "zpieces: gzip and xz round trips", roundtrips },
	{ "zpieces: cache-independent output, local changes", cache_and_locality },
	{ "zpieces: damaged cached pieces are made again", damaged_cache },
	T_END,
};
