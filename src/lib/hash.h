/* Message digests, all through OpenSSL's EVP interface. */
#ifndef PP_HASH_H
#define PP_HASH_H

#include <stddef.h>

enum pp_hash_algo { PP_MD5, PP_SHA1, PP_SHA256, PP_SHA512 };

#define PP_HASH_MAX 64 /* bytes in the largest digest (SHA-512) */

struct pp_hash {
	void *ctx; /* EVP_MD_CTX */
	enum pp_hash_algo algo;
};

void pp_hash_init(struct pp_hash *h, enum pp_hash_algo algo);
void pp_hash_update(struct pp_hash *h, const void *data, size_t len);
/* Writes the digest to out (PP_HASH_MAX bytes room); returns its length.
 * The context is released and must be initialised again before reuse. */
size_t pp_hash_final(struct pp_hash *h, unsigned char *out);
/* Like pp_hash_final, as lowercase hex (2 * PP_HASH_MAX + 1 room). */
void pp_hash_final_hex(struct pp_hash *h, char *hex);
/* Like pp_hash_final_hex, but the context is started again for the next
 * input (cheaper than a new one for each of many small files); free it
 * with pp_hash_release. */
void pp_hash_final_hex_restart(struct pp_hash *h, char *hex);
void pp_hash_release(struct pp_hash *h);
size_t pp_hash_size(enum pp_hash_algo algo);
const char *pp_hash_name(enum pp_hash_algo algo);
void pp_hex(const unsigned char *bin, size_t len, char *hex);

#endif
