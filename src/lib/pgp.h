/* OpenPGP (RFC 4880, version 4) keys and signatures as gpgv 2.2, sqv, apt
 * and debsig-verify read them, on OpenSSL's EVP interface. Format code
 * only: nothing printed, no command-line knowledge.
 *
 * Writing follows the strictest reader (sqv): v4 keys (RSA, or Ed25519 as
 * EdDSA-legacy, algorithm 22), minimal MPIs, SHA-256/512, key flags and
 * issuer subpackets on every self-signature, never a future time.
 *
 * Typical use:
 *   signing a Release file (InRelease and Release.gpg):
 *     pp_pgp_signer_load(&s, "keys/", NULL, &err);
 *     pp_pgp_clearsign(&s, release, len, NULL, &inrelease, &err);
 *     pp_pgp_detach_sign(&s, release, len, NULL, 1, &release_gpg, &err);
 *   checking one:
 *     pp_pgp_keyring_init(&kr);
 *     pp_pgp_keyring_load(&kr, "key.gpg", &err);
 *     pp_pgp_verify_clearsigned(&kr, data, len, time(NULL), &v, &text, &err);
 *   a package's origin signature: see debsig.h.
 * Every call returns 0, or -1 with err filled (exit code and message).
 */
#ifndef PP_PGP_H
#define PP_PGP_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <openssl/types.h>

#include "error.h"
#include "strbuf.h"

enum pp_pgp_pk {
	PP_PGP_PK_RSA = 1,
	PP_PGP_PK_RSA_E = 2,
	PP_PGP_PK_RSA_S = 3,
	PP_PGP_PK_ELGAMAL = 16,
	PP_PGP_PK_DSA = 17,
	PP_PGP_PK_ECDH = 18,
	PP_PGP_PK_ECDSA = 19,
	PP_PGP_PK_EDDSA = 22,   /* EdDSA "legacy": Ed25519 behind an OID */
	PP_PGP_PK_X25519 = 25,
	PP_PGP_PK_ED25519 = 27, /* RFC 9580; gpgv 2.2 and sqv 1.1 refuse it */
};

enum pp_pgp_md {
	PP_PGP_MD5 = 1,
	PP_PGP_SHA1 = 2,
	PP_PGP_RIPEMD160 = 3,
	PP_PGP_SHA256 = 8,
	PP_PGP_SHA384 = 9,
	PP_PGP_SHA512 = 10,
	PP_PGP_SHA224 = 11,
};

enum pp_pgp_sigtype {
	PP_PGP_SIG_BINARY = 0x00,
	PP_PGP_SIG_TEXT = 0x01,
	PP_PGP_SIG_CERT_GENERIC = 0x10,
	PP_PGP_SIG_CERT_POSITIVE = 0x13,
	PP_PGP_SIG_SUBKEY = 0x18,
	PP_PGP_SIG_PRIMARY_BACK = 0x19,
	PP_PGP_SIG_DIRECT = 0x1f,
	PP_PGP_SIG_KEY_REVOKE = 0x20,
	PP_PGP_SIG_SUBKEY_REVOKE = 0x28,
	PP_PGP_SIG_CERT_REVOKE = 0x30,
};

/* Key flags (subpacket 27). */
#define PP_PGP_CAN_CERTIFY 0x01
#define PP_PGP_CAN_SIGN 0x02
#define PP_PGP_CAN_ENCRYPT 0x0c
#define PP_PGP_CAN_AUTH 0x20

#define PP_PGP_FPR_LEN 20
#define PP_PGP_KEYID_LEN 8

/* What a valid self-signature says of a key. */
struct pp_pgp_binding {
	int valid;
	uint32_t at;              /* its creation time */
	int has_flags, has_expires;
	unsigned flags;           /* PP_PGP_CAN_* */
	uint32_t expires;         /* seconds after key creation */
};

/* A public key or subkey. Keys padpack cannot use (other versions or
 * algorithms) are still listed, with pkey NULL. */
struct pp_pgp_key {
	int version;
	uint32_t created;
	int algo;                 /* enum pp_pgp_pk */
	unsigned bits;            /* RSA/DSA modulus or curve size */
	const char *curve;        /* "ed25519", "cv25519", ...; NULL if none */
	unsigned char fpr[PP_PGP_FPR_LEN];   /* v4 only */
	unsigned char keyid[PP_PGP_KEYID_LEN];
	unsigned char *body;      /* the packet body, as hashed */
	size_t body_len;
	EVP_PKEY *pkey;           /* NULL when it cannot check signatures */
	const char *unusable;     /* why pkey is NULL */
	/* The newest valid user ID certification (subkey binding, for a
	 * subkey) and direct-key signature, and what they add up to: the
	 * direct-key signature's subpackets win where it has them. */
	struct pp_pgp_binding binding, direct;
	int bound;                /* some valid self-signature binds it */
	int has_flags;
	unsigned flags;           /* PP_PGP_CAN_* */
	uint32_t expires;         /* seconds after creation; 0: never */
	int revoked;              /* a valid revocation signature exists */
};

struct pp_pgp_uid {
	char *text;               /* as stored (UTF-8), NUL added */
	size_t len;
	int valid;                /* carries a valid self-certification */
	int primary;              /* marked primary by its self-signature */
};

/* A transferable public key: primary key, user IDs and subkeys. */
struct pp_pgp_cert {
	struct pp_pgp_key primary;
	struct pp_pgp_uid *uids;
	size_t nr_uids, alloc_uids;
	struct pp_pgp_key *subkeys;
	size_t nr_subkeys, alloc_subkeys;
};

/* Any number of certificates, as in a keyring file. */
struct pp_pgp_keyring {
	struct pp_pgp_cert *certs;
	size_t nr, alloc;
};

/* ---- keyrings ----------------------------------------------------------- */

void pp_pgp_keyring_init(struct pp_pgp_keyring *kr);
void pp_pgp_keyring_release(struct pp_pgp_keyring *kr);
/* Adds the certificates in data: binary packets, or one or more ASCII-armored
 * PUBLIC KEY BLOCKs. name says where they came from in error messages.
 * Self-signatures are checked here; keys without one stay unusable. */
int pp_pgp_keyring_add(struct pp_pgp_keyring *kr, const void *data,
		       size_t len, const char *name, struct pp_err *err);
int pp_pgp_keyring_load(struct pp_pgp_keyring *kr, const char *path,
			struct pp_err *err);
/* The key (primary or subkey) with this fingerprint, else this key ID
 * (either may be NULL); *cert (may be NULL) gets its certificate. */
const struct pp_pgp_key *pp_pgp_keyring_find(const struct pp_pgp_keyring *kr,
					     const unsigned char *fpr,
					     const unsigned char *keyid,
					     const struct pp_pgp_cert **cert);
/* The user ID to name a certificate by: its primary, else the first valid
 * one, else the first; NULL when it has none. */
const char *pp_pgp_cert_uid(const struct pp_pgp_cert *c);
const char *pp_pgp_algo_name(int algo);
const char *pp_pgp_md_name(int md);
/* enum pp_pgp_md for "sha256", "SHA512", ...; -1 when unknown. */
int pp_pgp_md_parse(const char *name);
/* Upper-case hex of a fingerprint or key ID (out: 2 * len + 1 bytes). */
void pp_pgp_hex(const unsigned char *bin, size_t len, char *out);

/* ---- signing keys --------------------------------------------------------- */

/* A secret key in a PKCS#8 PEM file plus the certificate naming it. A v4
 * fingerprint covers the key's creation time, which PKCS#8 cannot hold, so
 * the certificate (public.gpg, written beside secret.pem by
 * pp_pgp_key_generate and pp_pgp_key_import) is part of the signing key. */
struct pp_pgp_signer {
	EVP_PKEY *pkey;
	struct pp_pgp_keyring cert;       /* public.gpg */
	const struct pp_pgp_cert *c;      /* the certificate in it */
	const struct pp_pgp_key *key;     /* the key in c matching pkey */
};

#define PP_PGP_SECRET_FILE "secret.pem"
#define PP_PGP_PUBLIC_FILE "public.gpg"
#define PP_PGP_ARMORED_FILE "public.asc"

/* path: a key directory (DIR/secret.pem and DIR/public.gpg), or the
 * secret.pem file itself (public.gpg is read from its directory). Refuses
 * a secret key file that group or others may read, as ssh does. passphrase
 * may be NULL for an unencrypted key. */
int pp_pgp_signer_load(struct pp_pgp_signer *s, const char *path,
		       const char *passphrase, struct pp_err *err);
void pp_pgp_signer_release(struct pp_pgp_signer *s);

/* Creates DIR (if missing) with secret.pem (mode 0600, encrypted with
 * AES-256 when passphrase is not NULL), public.gpg and public.asc. algo:
 * "ed25519", "rsa2048", "rsa3072" or "rsa4096". Refuses to replace an
 * existing secret.pem. */
int pp_pgp_key_generate(const char *dir, const char *uid, const char *algo,
			const char *passphrase, time_t now, struct pp_err *err);
/* Builds the transferable public key of pkey (Ed25519 or RSA): key packet,
 * user ID and a positive self-certification made at 'created'. */
int pp_pgp_cert_build(EVP_PKEY *pkey, const char *uid, uint32_t created,
		      struct strbuf *out, struct pp_err *err);
/* Turns the output of gpg --export-secret-keys (binary or armored,
 * unprotected; Ed25519 or RSA) into DIR as pp_pgp_key_generate writes it.
 * The signing key is the primary key when it may sign, else the newest
 * signing subkey. *fpr (may be NULL) gets its fingerprint. */
int pp_pgp_key_import(const void *data, size_t len, const char *name,
		      const char *dir, const char *passphrase,
		      unsigned char *fpr, struct pp_err *err);

/* ---- signatures ----------------------------------------------------------- */

struct pp_pgp_sign_opts {
	int md;          /* PP_PGP_SHA256 (default when 0) or PP_PGP_SHA512 */
	uint32_t time;   /* signature creation time; 0: now */
};

/* A signature being computed over data fed in pieces. */
struct pp_pgp_signing {
	const struct pp_pgp_signer *s;
	void *md;        /* EVP_MD_CTX */
	int md_algo, type;
	uint32_t time;
	int last_cr;     /* text signatures: previous byte was CR */
};

/* type: PP_PGP_SIG_BINARY, or PP_PGP_SIG_TEXT (line ends made CR LF). */
int pp_pgp_sign_begin(struct pp_pgp_signing *sg, const struct pp_pgp_signer *s,
		      int type, const struct pp_pgp_sign_opts *o,
		      struct pp_err *err);
void pp_pgp_sign_update(struct pp_pgp_signing *sg, const void *data,
			size_t len);
/* Appends the signature packet (binary) to out and releases sg. */
int pp_pgp_sign_finish(struct pp_pgp_signing *sg, struct strbuf *out,
		       struct pp_err *err);
void pp_pgp_sign_abort(struct pp_pgp_signing *sg);

/* A detached binary-document signature of data (Release.gpg, SHA256SUMS.gpg)
 * appended to out, ASCII-armored when armor is set. o may be NULL. */
int pp_pgp_detach_sign(const struct pp_pgp_signer *s, const void *data,
		       size_t len, const struct pp_pgp_sign_opts *o, int armor,
		       struct strbuf *out, struct pp_err *err);
/* The cleartext-signed form of text (InRelease), appended to out. */
int pp_pgp_clearsign(const struct pp_pgp_signer *s, const void *text,
		     size_t len, const struct pp_pgp_sign_opts *o,
		     struct strbuf *out, struct pp_err *err);

/* ---- verification --------------------------------------------------------- */

/* Who made a good signature (or the one that failed, when known). */
struct pp_pgp_verdict {
	const struct pp_pgp_cert *cert;   /* in the keyring; NULL if unknown */
	const struct pp_pgp_key *key;     /* the key that signed */
	unsigned char issuer[PP_PGP_KEYID_LEN]; /* key ID the signature names */
	uint32_t created;                 /* signature time */
	int md, algo;
};

/* Signatures being checked over data fed in pieces. */
struct pp_pgp_verify {
	struct pgp_check *sigs;   /* one per signature packet */
	size_t nr;
	size_t skipped;           /* signatures of other versions */
	int have_key;             /* some signature names a keyring key */
};

/* Parses one or more signature packets (binary or ASCII-armored) and finds
 * their keys. Fails with PP_EXIT_BADSIG when the signature data is
 * malformed or of another kind. allow_text accepts type 0x01 signatures
 * (canonical text) as well as 0x00. */
int pp_pgp_verify_begin(struct pp_pgp_verify *v, const void *sig, size_t len,
			const struct pp_pgp_keyring *kr, int allow_text,
			struct pp_err *err);
void pp_pgp_verify_update(struct pp_pgp_verify *v, const void *data,
			  size_t len);
/* Decides: 0 when a signature by a keyring key is good and none is bad;
 * else -1 with err->code PP_EXIT_BADSIG or PP_EXIT_NOKEY and a message
 * that says why. out describes the good signature (or the failing one).
 * now: signatures dated later are refused, and so are keys expired by
 * then. Releases v either way. */
int pp_pgp_verify_finish(struct pp_pgp_verify *v, time_t now,
			 struct pp_pgp_verdict *out, struct pp_err *err);
void pp_pgp_verify_release(struct pp_pgp_verify *v);

/* Checks a detached signature over data in memory. */
int pp_pgp_verify_detached(const struct pp_pgp_keyring *kr, const void *data,
			   size_t len, const void *sig, size_t sig_len,
			   time_t now, struct pp_pgp_verdict *out,
			   struct pp_err *err);
/* Checks a cleartext-signed text (InRelease). Refuses anything before the
 * BEGIN line or after the END line (as apt does), a missing or wrong Hash
 * header, and undashed lines that start with '-'. text (may be NULL) gets
 * the signed text, un-escaped, as it stands in the message (gpgv -o also
 * drops trailing blanks, which the signature does not cover). Fails with
 * PP_EXIT_UNSIGNED when data is not cleartext-signed at all. */
int pp_pgp_verify_clearsigned(const struct pp_pgp_keyring *kr,
			      const void *data, size_t len, time_t now,
			      struct pp_pgp_verdict *out, struct strbuf *text,
			      struct pp_err *err);

/* ---- ASCII armor ---------------------------------------------------------- */

/* CRC-24 of RFC 4880 section 6.1. */
uint32_t pp_pgp_crc24(const void *data, size_t len);
/* Appends an armored block ("-----BEGIN PGP <label>-----"). */
void pp_pgp_armor(struct strbuf *out, const char *label, const void *data,
		  size_t len);
/* Whether data starts (after blank space) with an armor BEGIN line. */
int pp_pgp_is_armored(const void *data, size_t len);
/* Decodes the next armored block at or after *pos: 1 decoded (label gets
 * what follows "BEGIN PGP ", *pos moves past the END line), 0 when no
 * block is left, -1 on a malformed block or a wrong checksum. */
int pp_pgp_dearmor(const void *data, size_t len, size_t *pos,
		   char label[64], struct strbuf *out, struct pp_err *err);

#endif
