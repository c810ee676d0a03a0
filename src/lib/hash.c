#include "hash.h"

#include <stdio.h>
#include <stdlib.h>

#include <openssl/evp.h>

static const EVP_MD *md_of(enum pp_hash_algo algo)
{
	switch (algo) {
	case PP_MD5: return EVP_md5();
	case PP_SHA1: return EVP_sha1();
	case PP_SHA256: return EVP_sha256();
	case PP_SHA512: return EVP_sha512();
	}
	abort();
}

void pp_hash_init(struct pp_hash *h, enum pp_hash_algo algo)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();

	if (!ctx || !EVP_DigestInit_ex(ctx, md_of(algo), NULL)) {
		fprintf(stderr, "padpack: OpenSSL cannot start a digest\n");
		abort();
	}
	h->ctx = ctx;
	h->algo = algo;
}

void pp_hash_update(struct pp_hash *h, const void *data, size_t len)
{
	EVP_DigestUpdate(h->ctx, data, len);
}

size_t pp_hash_final(struct pp_hash *h, unsigned char *out)
{
	unsigned int n = 0;

	EVP_DigestFinal_ex(h->ctx, out, &n);
	EVP_MD_CTX_free(h->ctx);
	h->ctx = NULL;
	return n;
}

void pp_hex(const unsigned char *bin, size_t len, char *hex)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		hex[2 * i] = digits[bin[i] >> 4];
		hex[2 * i + 1] = digits[bin[i] & 15];
	}
	hex[2 * len] = '\0';
}

void pp_hash_final_hex(struct pp_hash *h, char *hex)
{
	unsigned char bin[PP_HASH_MAX];
	size_t n = pp_hash_final(h, bin);

	pp_hex(bin, n, hex);
}

void pp_hash_final_hex_restart(struct pp_hash *h, char *hex)
{
	unsigned char bin[PP_HASH_MAX];
	unsigned int n = 0;

	EVP_DigestFinal_ex(h->ctx, bin, &n);
	/* NULL: the digest already set, not looked up again */
	if (!EVP_DigestInit_ex(h->ctx, NULL, NULL)) {
		fprintf(stderr, "padpack: OpenSSL cannot start a digest\n");
		abort();
	}
	pp_hex(bin, n, hex);
}

void pp_hash_release(struct pp_hash *h)
{
	EVP_MD_CTX_free(h->ctx);
	h->ctx = NULL;
}

size_t pp_hash_size(enum pp_hash_algo algo)
{
	return (size_t)EVP_MD_get_size(md_of(algo));
}

const char *pp_hash_name(enum pp_hash_algo algo)
{
	switch (algo) {
	case PP_MD5: return "MD5";
	case PP_SHA1: return "SHA1";
	case PP_SHA256: return "SHA256";
	case PP_SHA512: return "SHA512";
	}
	return "?";
}
