/* The one user of OpenSSL's deprecated low-level SHA-256: see the header. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include "sha256-state.h"

#include <string.h>

#include <openssl/sha.h>

#include "hash.h"

_Static_assert(sizeof(SHA256_CTX) <= PP_SHA256_STATE_SIZE,
	       "PP_SHA256_STATE_SIZE too small for SHA256_CTX");

static SHA256_CTX *ctx_of(struct pp_sha256 *h)
{
	return (SHA256_CTX *)(void *)h->ctx.bytes;
}

void pp_sha256_init(struct pp_sha256 *h)
{
	memset(h, 0, sizeof(*h));
	SHA256_Init(ctx_of(h));
}

void pp_sha256_update(struct pp_sha256 *h, const void *data, size_t len)
{
	SHA256_Update(ctx_of(h), data, len);
}

void pp_sha256_final(struct pp_sha256 *h, unsigned char *out)
{
	SHA256_Final(out, ctx_of(h));
}

void pp_sha256_final_hex(struct pp_sha256 *h, char *hex)
{
	unsigned char md[SHA256_DIGEST_LENGTH];

	pp_sha256_final(h, md);
	pp_hex(md, sizeof(md), hex);
}

void pp_sha256_save(const struct pp_sha256 *h,
		    unsigned char out[PP_SHA256_STATE_SIZE])
{
	memcpy(out, h->ctx.bytes, PP_SHA256_STATE_SIZE);
}

int pp_sha256_load(struct pp_sha256 *h,
		   const unsigned char in[PP_SHA256_STATE_SIZE])
{
	SHA256_CTX c;

	memcpy(&c, in, sizeof(c));
	/* a state OpenSSL made: its leftover within one block, a SHA-256
	 * digest length */
	if (c.num >= SHA_CBLOCK || c.md_len != SHA256_DIGEST_LENGTH)
		return -1;
	memset(h, 0, sizeof(*h));
	memcpy(h->ctx.bytes, in, PP_SHA256_STATE_SIZE);
	return 0;
}
