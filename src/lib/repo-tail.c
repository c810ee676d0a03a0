#include "repo-tail.h"

#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "xalloc.h"

/* A cache of this machine (native byte order and SHA256_CTX layout),
 * checked by the SHA-256 of everything before it at its end: a torn or
 * edited record is ignored, and the index made anew. */
static const char magic[16] = "padpack base 2\n";

/* Eight bytes at a time: 100,000 names and stat keys (9 MB) a publish;
 * a match only says which stanzas to take as the base, and the base's
 * SHA-256 key is checked after. */
static uint64_t fp_mix(const char *s, uint64_t h)
{
	const uint64_t k = 0x9e3779b97f4a7c15ull;
	size_t n = strlen(s);
	uint64_t w;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * k;
		h ^= h >> 29;
	}
	w = 0;
	memcpy(&w, s, n);
	h = (h ^ w ^ ((uint64_t)n << 56)) * k;
	return h ^ (h >> 32);
}

uint64_t pp_repo_base_fp(const char *id, const char *id2)
{
	return fp_mix(id2, fp_mix(id, 14695981039346656037ull));
}

void pp_repo_base_path(const char *root, const char *suite, const char *comp,
		       const char *arch, struct strbuf *out)
{
	size_t at;

	strbuf_addf(out, "%s/db/zcache/.base,", root);
	at = out->len;
	strbuf_addf(out, "%s,%s,%s", suite, comp, arch);
	for (size_t i = at; i < out->len; i++)
		if (out->buf[i] == '/')
			out->buf[i] = '+';
}

void pp_repo_base_release(struct pp_repo_base *b)
{
	free(b->fp);
	free(b->blocks);
	strbuf_release(&b->pieces);
	memset(b, 0, sizeof(*b));
	strbuf_init(&b->pieces);
}

/* The fixed part, as written. */
struct base_head {
	char magic[16];
	uint32_t compression, pad;
	uint64_t nr, text_len, nr_blocks, pieces_len;
	unsigned char key[32];
	unsigned char text_state[PP_SHA256_STATE_SIZE];
	struct pp_repo_base_out out[2];
};

int pp_repo_base_save(const char *path, const struct pp_repo_base *b,
		      struct pp_err *err)
{
	struct strbuf buf = STRBUF_INIT;
	struct base_head h;
	struct pp_sha256 sum;
	unsigned char md[32];
	int rc;

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, magic, sizeof(magic));
	h.compression = b->compression;
	h.nr = b->nr;
	h.text_len = b->text_len;
	h.nr_blocks = b->nr_blocks;
	h.pieces_len = b->pieces.len;
	memcpy(h.key, b->key, sizeof(h.key));
	memcpy(h.text_state, b->text_state, sizeof(h.text_state));
	memcpy(h.out, b->out, sizeof(h.out));
	strbuf_add(&buf, &h, sizeof(h));
	strbuf_add(&buf, b->fp, b->nr * sizeof(*b->fp));
	strbuf_add(&buf, b->blocks, b->nr_blocks * sizeof(*b->blocks));
	strbuf_add(&buf, b->pieces.buf, b->pieces.len);
	pp_sha256_init(&sum);
	pp_sha256_update(&sum, buf.buf, buf.len);
	pp_sha256_final(&sum, md);
	strbuf_add(&buf, md, sizeof(md));
	/* not synced: a record lost or torn by a crash is ignored (its
	 * checksum), costing one index made whole */
	rc = pp_write_file(path, buf.buf, buf.len, 0644, err);
	strbuf_release(&buf);
	return rc;
}

int pp_repo_base_load(const char *path, struct pp_repo_base *b)
{
	struct strbuf buf = STRBUF_INIT;
	struct pp_err err;
	struct base_head h;
	struct pp_sha256 sum;
	unsigned char md[32];
	size_t want;
	const char *at;
	int rc = -1;

	pp_err_init(&err);
	memset(b, 0, sizeof(*b));
	strbuf_init(&b->pieces);
	if (pp_read_file(path, &buf, &err) < 0 || buf.len < sizeof(h) + 32)
		goto out;
	pp_sha256_init(&sum);
	pp_sha256_update(&sum, buf.buf, buf.len - 32);
	pp_sha256_final(&sum, md);
	memcpy(&h, buf.buf, sizeof(h));
	if (memcmp(md, buf.buf + buf.len - 32, 32) ||
	    memcmp(h.magic, magic, sizeof(magic)) || h.nr > buf.len ||
	    h.nr_blocks > buf.len || h.pieces_len > buf.len)
		goto out;
	want = sizeof(h) + h.nr * sizeof(*b->fp) +
	       h.nr_blocks * sizeof(*b->blocks) + h.pieces_len + 32;
	if (want != buf.len)
		goto out;
	b->compression = h.compression;
	b->nr = h.nr;
	b->text_len = h.text_len;
	b->nr_blocks = h.nr_blocks;
	memcpy(b->key, h.key, sizeof(h.key));
	memcpy(b->text_state, h.text_state, sizeof(h.text_state));
	memcpy(b->out, h.out, sizeof(h.out));
	for (size_t i = 0; i < 2; i++)
		b->out[i].sha256[64] = 0;
	at = buf.buf + sizeof(h);
	b->fp = xcalloc(h.nr + 1, sizeof(*b->fp));
	memcpy(b->fp, at, h.nr * sizeof(*b->fp));
	at += h.nr * sizeof(*b->fp);
	b->blocks = xcalloc(h.nr_blocks + 1, sizeof(*b->blocks));
	memcpy(b->blocks, at, h.nr_blocks * sizeof(*b->blocks));
	at += h.nr_blocks * sizeof(*b->blocks);
	strbuf_add(&b->pieces, at, h.pieces_len);
	rc = 0;
out:
	strbuf_release(&buf);
	pp_err_release(&err);
	if (rc)
		pp_repo_base_release(b);
	return rc;
}
