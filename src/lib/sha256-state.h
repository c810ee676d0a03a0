/* SHA-256 whose state can be saved and taken up again later (by another
 * process): a text's hash resumed after a prefix whose state was kept,
 * instead of hashing the prefix again. OpenSSL 3's EVP interface has no
 * call that exports a digest's state (EVP_MD_CTX_copy copies it within
 * the process only); its low-level SHA256_CTX, deprecated since 3.0 but
 * still there (and as fast: the same CPU instructions), is a plain
 * struct. This one module uses it. */
#ifndef PP_SHA256_STATE_H
#define PP_SHA256_STATE_H

#include <stddef.h>

/* Room for the state: large enough for OpenSSL's SHA256_CTX (checked). */
#define PP_SHA256_STATE_SIZE 112

struct pp_sha256 {
	union {
		unsigned char bytes[PP_SHA256_STATE_SIZE];
		long long align;
	} ctx;
};

void pp_sha256_init(struct pp_sha256 *h);
void pp_sha256_update(struct pp_sha256 *h, const void *data, size_t len);
/* The digest as lowercase hex (65 bytes room); h is left unusable. */
void pp_sha256_final_hex(struct pp_sha256 *h, char *hex);
/* The digest (32 bytes); h is left unusable. */
void pp_sha256_final(struct pp_sha256 *h, unsigned char *out);
/* The state as bytes (a cache of this machine only: native layout). */
void pp_sha256_save(const struct pp_sha256 *h,
		    unsigned char out[PP_SHA256_STATE_SIZE]);
/* 0, or -1 when the bytes cannot be a state (then h is not set). */
int pp_sha256_load(struct pp_sha256 *h,
		   const unsigned char in[PP_SHA256_STATE_SIZE]);

#endif
