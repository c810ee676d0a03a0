/* Internal to the OpenPGP modules (pgp-*.c): packet framing, the parsed
 * signature, and hashing as signatures need it. */
#ifndef PP_PGPINT_H
#define PP_PGPINT_H

#include <openssl/evp.h>

#include "pgp.h"

/* ---- reading untrusted bytes (pgp-packet.c) ------------------------------ */

/* A cursor over untrusted bytes; every get checks the bounds first and
 * returns -1 (leaving the cursor alone) when too few bytes are left. */
struct pgp_in {
	const unsigned char *p;
	size_t n;
};

int pgp_get8(struct pgp_in *in, unsigned *v);
int pgp_get16(struct pgp_in *in, unsigned *v);
int pgp_get32(struct pgp_in *in, uint32_t *v);
int pgp_getn(struct pgp_in *in, size_t len, const unsigned char **out);
/* An MPI, which must be minimal (no leading zero octets, the bit count
 * equal to the value's bit length), as sqv requires. *val points at the
 * value octets. Returns -1 when truncated or not minimal, PGP_MPI_EMPTY
 * for an MPI of zero length (no key or signature value is 0). */
#define PGP_MPI_EMPTY (-2)
int pgp_get_mpi(struct pgp_in *in, const unsigned char **val, size_t *len);

struct pgp_packet {
	int tag;
	const unsigned char *body;
	size_t len;
	size_t offset;            /* of its first header octet */
};

/* The packet at *pos: 1 when read (*pos moves past it), 0 at the end of
 * buf, -1 when malformed (PP_EXIT_INPUT). Partial and indeterminate
 * lengths are refused: keys and signatures never use them. */
int pgp_packet_next(const unsigned char *buf, size_t len, size_t *pos,
		    struct pgp_packet *pkt, struct pp_err *err);

/* Subpackets of a signature (RFC 4880 5.2.3.1). */
enum {
	SP_CREATED = 2,
	SP_SIG_EXPIRES = 3,
	SP_KEY_EXPIRES = 9,
	SP_PREF_SYM = 11,
	SP_ISSUER = 16,
	SP_NOTATION = 20,
	SP_PREF_HASH = 21,
	SP_PREF_COMP = 22,
	SP_PRIMARY_UID = 25,
	SP_KEY_FLAGS = 27,
	SP_FEATURES = 30,
	SP_EMBEDDED = 32,
	SP_ISSUER_FPR = 33,
};

struct pgp_subpacket {
	int type;
	int critical;
	const unsigned char *data;
	size_t len;
};

/* The next subpacket of an area: 1, 0 at its end, -1 when malformed. */
int pgp_subpacket_next(struct pgp_in *area, struct pgp_subpacket *sp);

/* ---- writing --------------------------------------------------------------- */

void pgp_put16(struct strbuf *out, unsigned v);
void pgp_put32(struct strbuf *out, uint32_t v);
/* An old-format header (as gpg 2.2 writes) with the shortest length; a
 * new-format one for tags above 15. */
void pgp_put_packet(struct strbuf *out, int tag, const void *body,
		    size_t len);
/* A minimal MPI of a big-endian value (leading zeros are stripped). */
void pgp_put_mpi(struct strbuf *out, const unsigned char *val, size_t len);
void pgp_put_subpacket(struct strbuf *out, int type, const void *data,
		       size_t len);

/* ---- keys (pgp-key.c) ------------------------------------------------------ */

/* Parses a public-key (or subkey) packet body. -1 only when malformed;
 * a key of another version or algorithm is kept with pkey NULL. */
int pgp_key_parse(struct pp_pgp_key *k, const unsigned char *body,
		  size_t len, struct pp_err *err);
/* Parses the public part at the start of body (a secret-key packet has
 * secret material after it); *used gets its length. */
int pgp_key_parse_prefix(struct pp_pgp_key *k, const unsigned char *body,
			 size_t len, size_t *used, struct pp_err *err);
void pgp_key_release(struct pp_pgp_key *k);
/* The v4 public-key packet body of an Ed25519 or RSA key. */
int pgp_key_body(EVP_PKEY *pkey, uint32_t created, struct strbuf *body,
		 struct pp_err *err);
/* Whether a key may sign data at time t (bound, flags, expiry, revoked);
 * else why not, in why. */
int pgp_key_can_sign(const struct pp_pgp_key *k, uint32_t t,
		     const char **why);

/* Writes DIR/public.gpg, public.asc and (mode 0600) secret.pem; refuses
 * to replace a secret.pem (pgp-secret.c). */
int pgp_write_key_dir(const char *dir, EVP_PKEY *pkey,
		      const struct strbuf *cert, const char *passphrase,
		      struct pp_err *err);

/* ---- signatures (pgp-sig.c) ------------------------------------------------ */

/* A parsed v4 signature; pointers go into the body it was parsed from. */
struct pgp_sig {
	int type, pk, md;
	const unsigned char *hashed;  /* version .. end of hashed subpackets */
	size_t hashed_len;
	unsigned char left16[2];
	const unsigned char *mpi[2];
	size_t mpi_len[2];
	int has_created, has_key_expires, has_key_flags;
	int has_issuer, has_issuer_fpr, primary_uid;
	uint32_t created;
	uint32_t expires;             /* seconds after created; 0: never */
	uint32_t key_expires;
	unsigned key_flags;
	unsigned char issuer[PP_PGP_KEYID_LEN];
	unsigned char issuer_fpr[PP_PGP_FPR_LEN];
	const unsigned char *embedded; /* a hashed embedded signature */
	size_t embedded_len;
};

/* Parses a signature packet body. Refuses (PP_EXIT_BADSIG) other versions,
 * a missing creation time, unknown critical subpackets, and MPIs that do
 * not fit the algorithm. */
int pgp_sig_parse(struct pgp_sig *s, const unsigned char *body, size_t len,
		  struct pp_err *err);

/* The running hash of a signature. text: make LF line ends CR LF. */
struct pgp_digest {
	EVP_MD_CTX *ctx;
	int text;
	int last_cr;
};

const EVP_MD *pgp_md(int md);
/* Whether padpack accepts md for a document signature; else why not. */
int pgp_md_acceptable(int md, const char **why);
void pgp_digest_init(struct pgp_digest *d, int md, int text);
void pgp_digest_update(struct pgp_digest *d, const void *data, size_t len);
/* Hashes a key as signatures over keys do: 0x99, 2-octet length, body. */
void pgp_digest_key(struct pgp_digest *d, const struct pp_pgp_key *k);
void pgp_digest_uid(struct pgp_digest *d, const char *uid, size_t len);
/* Adds the hashed part and v4 trailer, writes the digest, frees d. */
size_t pgp_digest_finish(struct pgp_digest *d, const unsigned char *hashed,
			 size_t hashed_len, unsigned char *out);
void pgp_digest_free(struct pgp_digest *d);

/* Checks the signature value over a finished digest: 0 good, -1 bad. */
int pgp_sig_check(const struct pgp_sig *s, const struct pp_pgp_key *k,
		  const unsigned char *digest, size_t dlen);
/* The hashed part of a new v4 signature: issuer fingerprint and creation
 * time, then the subpackets in extra (may be NULL). */
void pgp_sig_hashed_part(struct strbuf *out, const struct pp_pgp_key *key,
			 int type, int md, uint32_t when,
			 const struct strbuf *extra);
/* Signs the digest d has collected (which it frees), appending the
 * signature packet for hashed to out. */
int pgp_sig_make(EVP_PKEY *pkey, const struct pp_pgp_key *key,
		 struct pgp_digest *d, const struct strbuf *hashed,
		 struct strbuf *out, struct pp_err *err);

/* ---- armor (pgp-armor.c) --------------------------------------------------- */

/* Space, tab or CR: what may trail a line of armor. */
static inline int pgp_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

void pgp_base64(struct strbuf *out, const void *data, size_t len,
		size_t line);

/* A cleartext-signed message taken apart. */
struct pgp_cleartext {
	unsigned mds;             /* 1 << md for each digest a Hash names */
	struct strbuf text;       /* the signed text, un-escaped, LF ends */
	struct strbuf canonical;  /* what its signature covers */
	struct strbuf sig;        /* the signature packets */
};

/* 1 when parsed, 0 when data is not a cleartext-signed message, -1 when
 * malformed (PP_EXIT_INPUT). */
int pgp_cleartext_parse(const void *data, size_t len,
			struct pgp_cleartext *ct, struct pp_err *err);
/* What a cleartext signature of text covers (RFC 4880 7.1). */
void pgp_cleartext_canonical(const void *text, size_t len,
			     struct strbuf *out);
/* Writes the cleartext-signed form: header, dash-escaped text, the
 * armored signature. */
void pgp_cleartext_write(struct strbuf *out, int md, const void *text,
			 size_t len, const struct strbuf *sig);

#endif
