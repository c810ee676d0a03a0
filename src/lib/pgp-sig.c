/* Version 4 signature packets (RFC 4880 5.2): parsing, the hash they are
 * computed over, checking and making the value with OpenSSL. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/rsa.h>

#include "pgpint.h"

/* ---- algorithms ------------------------------------------------------------ */

static const struct {
	int md;
	const char *name, *alias;
} md_names[] = {
	{ PP_PGP_MD5, "MD5", "MD5" },
	{ PP_PGP_SHA1, "SHA1", "SHA-1" },
	{ PP_PGP_RIPEMD160, "RIPEMD160", "RIPEMD-160" },
	{ PP_PGP_SHA256, "SHA256", "SHA-256" },
	{ PP_PGP_SHA384, "SHA384", "SHA-384" },
	{ PP_PGP_SHA512, "SHA512", "SHA-512" },
	{ PP_PGP_SHA224, "SHA224", "SHA-224" },
};

const char *pp_pgp_md_name(int md)
{
	for (size_t i = 0; i < sizeof(md_names) / sizeof(md_names[0]); i++)
		if (md_names[i].md == md)
			return md_names[i].name;
	return "unknown";
}

int pp_pgp_md_parse(const char *name)
{
	for (size_t i = 0; i < sizeof(md_names) / sizeof(md_names[0]); i++)
		if (!strcasecmp(name, md_names[i].name) ||
		    !strcasecmp(name, md_names[i].alias))
			return md_names[i].md;
	return -1;
}

const EVP_MD *pgp_md(int md)
{
	switch (md) {
	case PP_PGP_MD5: return EVP_md5();
	case PP_PGP_SHA1: return EVP_sha1();
	case PP_PGP_SHA224: return EVP_sha224();
	case PP_PGP_SHA256: return EVP_sha256();
	case PP_PGP_SHA384: return EVP_sha384();
	case PP_PGP_SHA512: return EVP_sha512();
	}
	return NULL;
}

int pgp_md_acceptable(int md, const char **why)
{
	switch (md) {
	case PP_PGP_SHA224: case PP_PGP_SHA256:
	case PP_PGP_SHA384: case PP_PGP_SHA512:
		return 1;
	case PP_PGP_MD5:
		*why = "MD5, which is broken";
		break;
	case PP_PGP_SHA1:
		*why = "SHA-1, which is no longer collision resistant (sqv "
		       "refuses it too)";
		break;
	default:
		*why = "a hash algorithm padpack does not support";
	}
	return 0;
}

/* ---- parsing --------------------------------------------------------------- */

static int sig_error(struct pp_err *err, const char *what)
{
	return pp_err_set(err, PP_EXIT_BADSIG, "malformed signature packet: "
			  "%s", what);
}

/* Subpacket types padpack understands, so a critical one is fine. */
static int known_subpacket(int type)
{
	static const unsigned char known[] = { 2, 3, 4, 5, 6, 7, 9, 11, 12, 16,
		21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 37,
		38, 39 };

	return memchr(known, type, sizeof(known)) != NULL;
}

static int get_time(const struct pgp_subpacket *sp, uint32_t *t)
{
	struct pgp_in in = { sp->data, sp->len };

	return sp->len == 4 ? pgp_get32(&in, t) : -1;
}

/* Subpackets whose meaning needs the signature's protection. */
static int hashed_subpacket(struct pgp_sig *s, const struct pgp_subpacket *sp,
			    struct pp_err *err)
{
	switch (sp->type) {
	case SP_CREATED:
		if (s->has_created)
			return sig_error(err, "two creation times");
		s->has_created = 1;
		return get_time(sp, &s->created) < 0 ?
			sig_error(err, "bad creation time") : 0;
	case SP_SIG_EXPIRES:
		return get_time(sp, &s->expires) < 0 ?
			sig_error(err, "bad expiration time") : 0;
	case SP_KEY_EXPIRES:
		s->has_key_expires = 1;
		return get_time(sp, &s->key_expires) < 0 ?
			sig_error(err, "bad key expiration time") : 0;
	case SP_KEY_FLAGS:
		s->has_key_flags = 1;
		s->key_flags = sp->len ? sp->data[0] : 0;
		return 0;
	case SP_PRIMARY_UID:
		s->primary_uid = sp->len && sp->data[0];
		return 0;
	}
	if (sp->critical && !known_subpacket(sp->type))
		return pp_err_set(err, PP_EXIT_BADSIG, "signature packet: "
				  "critical subpacket %d is not understood, so "
				  "the signature cannot be trusted", sp->type);
	return 0;
}

/* Issuer and embedded signatures count in either area: they only help
 * find and check things that are checked anyway. */
static void hint_subpacket(struct pgp_sig *s, const struct pgp_subpacket *sp)
{
	if (sp->type == SP_ISSUER && sp->len == PP_PGP_KEYID_LEN) {
		memcpy(s->issuer, sp->data, PP_PGP_KEYID_LEN);
		s->has_issuer = 1;
	} else if (sp->type == SP_ISSUER_FPR && sp->len == 21 &&
		   sp->data[0] == 4) {
		memcpy(s->issuer_fpr, sp->data + 1, PP_PGP_FPR_LEN);
		s->has_issuer_fpr = 1;
	} else if (sp->type == SP_EMBEDDED && !s->embedded) {
		s->embedded = sp->data;
		s->embedded_len = sp->len;
	}
}

static int parse_area(struct pgp_sig *s, const unsigned char *p, size_t n,
		      int hashed, struct pp_err *err)
{
	struct pgp_in area = { p, n };
	struct pgp_subpacket sp;
	int r;

	while ((r = pgp_subpacket_next(&area, &sp)) > 0) {
		if (hashed && hashed_subpacket(s, &sp, err) < 0)
			return -1;
		hint_subpacket(s, &sp);
	}
	return r < 0 ? sig_error(err, "a subpacket runs past its area") : 0;
}

static int parse_value(struct pgp_sig *s, struct pgp_in *in,
		       struct pp_err *err)
{
	int n;

	switch (s->pk) {
	case PP_PGP_PK_RSA: case PP_PGP_PK_RSA_S:
		n = 1;
		break;
	case PP_PGP_PK_DSA: case PP_PGP_PK_ECDSA: case PP_PGP_PK_EDDSA:
		n = 2;
		break;
	default:
		return pp_err_set(err, PP_EXIT_BADSIG, "signature packet: "
				  "public-key algorithm %d is not supported; "
				  "padpack checks RSA and Ed25519", s->pk);
	}
	for (int i = 0; i < n; i++) {
		int rc = pgp_get_mpi(in, &s->mpi[i], &s->mpi_len[i]);

		if (rc == PGP_MPI_EMPTY)
			return sig_error(err, "an MPI of zero length in the "
					 "signature value");
		if (rc < 0)
			return sig_error(err, "a truncated or non-minimal MPI");
	}
	return in->n ? sig_error(err, "data after the signature value") : 0;
}

int pgp_sig_parse(struct pgp_sig *s, const unsigned char *body, size_t len,
		  struct pp_err *err)
{
	struct pgp_in in = { body, len };
	const unsigned char *area, *left;
	unsigned ver, type, pk, md, alen;

	memset(s, 0, sizeof(*s));
	if (pgp_get8(&in, &ver) < 0)
		return sig_error(err, "it is empty");
	if (ver != 4)
		return pp_err_set(err, PP_EXIT_BADSIG, "version %u signature "
				  "packet; padpack reads version 4, as gpg 2.2 "
				  "and sqv do", ver);
	if (pgp_get8(&in, &type) < 0 || pgp_get8(&in, &pk) < 0 ||
	    pgp_get8(&in, &md) < 0 || pgp_get16(&in, &alen) < 0 ||
	    pgp_getn(&in, alen, &area) < 0)
		return sig_error(err, "it is truncated");
	s->type = (int)type;
	s->pk = (int)pk;
	s->md = (int)md;
	s->hashed = body;
	s->hashed_len = 6 + alen;
	if (parse_area(s, area, alen, 1, err) < 0)
		return -1;
	if (pgp_get16(&in, &alen) < 0 || pgp_getn(&in, alen, &area) < 0 ||
	    parse_area(s, area, alen, 0, err) < 0 || pgp_getn(&in, 2, &left))
		return err->code ? -1 : sig_error(err, "it is truncated");
	memcpy(s->left16, left, 2);
	if (parse_value(s, &in, err) < 0)
		return -1;
	if (!s->has_created)
		return sig_error(err, "it has no creation time");
	return 0;
}

/* ---- hashing --------------------------------------------------------------- */

void pgp_digest_init(struct pgp_digest *d, int md, int text)
{
	d->ctx = EVP_MD_CTX_new();
	d->text = text;
	d->last_cr = 0;
	if (!d->ctx || !pgp_md(md) ||
	    !EVP_DigestInit_ex(d->ctx, pgp_md(md), NULL)) {
		fprintf(stderr, "padpack: OpenSSL cannot start a digest\n");
		abort();
	}
}

/* Text mode: a LF not preceded by CR becomes CR LF. */
static void update_text(struct pgp_digest *d, const unsigned char *p,
			size_t len)
{
	size_t start = 0;

	for (size_t i = 0; i < len; i++) {
		int prev_cr = i ? p[i - 1] == '\r' : d->last_cr;

		if (p[i] != '\n' || prev_cr)
			continue;
		EVP_DigestUpdate(d->ctx, p + start, i - start);
		EVP_DigestUpdate(d->ctx, "\r", 1);
		start = i;
	}
	EVP_DigestUpdate(d->ctx, p + start, len - start);
	if (len)
		d->last_cr = p[len - 1] == '\r';
}

void pgp_digest_update(struct pgp_digest *d, const void *data, size_t len)
{
	if (d->text)
		update_text(d, data, len);
	else
		EVP_DigestUpdate(d->ctx, data, len);
}

void pgp_digest_key(struct pgp_digest *d, const struct pp_pgp_key *k)
{
	unsigned char h[3] = { 0x99, (unsigned char)(k->body_len >> 8),
			       (unsigned char)k->body_len };

	EVP_DigestUpdate(d->ctx, h, 3);
	EVP_DigestUpdate(d->ctx, k->body, k->body_len);
}

void pgp_digest_uid(struct pgp_digest *d, const char *uid, size_t len)
{
	unsigned char h[5] = { 0xb4, (unsigned char)(len >> 24),
			       (unsigned char)(len >> 16),
			       (unsigned char)(len >> 8), (unsigned char)len };

	EVP_DigestUpdate(d->ctx, h, 5);
	EVP_DigestUpdate(d->ctx, uid, len);
}

size_t pgp_digest_finish(struct pgp_digest *d, const unsigned char *hashed,
			 size_t hashed_len, unsigned char *out)
{
	unsigned char trailer[6] = { 0x04, 0xff,
				     (unsigned char)(hashed_len >> 24),
				     (unsigned char)(hashed_len >> 16),
				     (unsigned char)(hashed_len >> 8),
				     (unsigned char)hashed_len };
	unsigned n = 0;

	EVP_DigestUpdate(d->ctx, hashed, hashed_len);
	EVP_DigestUpdate(d->ctx, trailer, sizeof(trailer));
	EVP_DigestFinal_ex(d->ctx, out, &n);
	pgp_digest_free(d);
	return n;
}

void pgp_digest_free(struct pgp_digest *d)
{
	EVP_MD_CTX_free(d->ctx);
	d->ctx = NULL;
}

/* ---- signature values ------------------------------------------------------ */

static int check_rsa(const struct pgp_sig *s, EVP_PKEY *pkey,
		     const unsigned char *digest, size_t dlen)
{
	size_t n = (size_t)EVP_PKEY_get_size(pkey);
	unsigned char *sig;
	EVP_PKEY_CTX *c;
	int ok = 0;

	if (s->mpi_len[0] > n)
		return -1;
	sig = calloc(1, n);
	c = EVP_PKEY_CTX_new(pkey, NULL);
	if (sig && c) {
		memcpy(sig + n - s->mpi_len[0], s->mpi[0], s->mpi_len[0]);
		ok = EVP_PKEY_verify_init(c) == 1 &&
		     EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PADDING) == 1 &&
		     EVP_PKEY_CTX_set_signature_md(c, pgp_md(s->md)) == 1 &&
		     EVP_PKEY_verify(c, sig, n, digest, dlen) == 1;
	}
	EVP_PKEY_CTX_free(c);
	free(sig);
	return ok ? 0 : -1;
}

/* EdDSA legacy: R and S as MPIs; Ed25519 signs the digest itself. */
static int check_eddsa(const struct pgp_sig *s, EVP_PKEY *pkey,
		       const unsigned char *digest, size_t dlen)
{
	unsigned char rs[64] = { 0 };
	EVP_MD_CTX *c;
	int ok;

	if (s->mpi_len[0] > 32 || s->mpi_len[1] > 32)
		return -1;
	memcpy(rs + 32 - s->mpi_len[0], s->mpi[0], s->mpi_len[0]);
	memcpy(rs + 64 - s->mpi_len[1], s->mpi[1], s->mpi_len[1]);
	c = EVP_MD_CTX_new();
	ok = c && EVP_DigestVerifyInit(c, NULL, NULL, NULL, pkey) == 1 &&
	     EVP_DigestVerify(c, rs, 64, digest, dlen) == 1;
	EVP_MD_CTX_free(c);
	return ok ? 0 : -1;
}

int pgp_sig_check(const struct pgp_sig *s, const struct pp_pgp_key *k,
		  const unsigned char *digest, size_t dlen)
{
	int rsa = s->pk == PP_PGP_PK_RSA || s->pk == PP_PGP_PK_RSA_S;

	if (!k->pkey || memcmp(digest, s->left16, 2))
		return -1;
	if (rsa && (k->algo == PP_PGP_PK_RSA || k->algo == PP_PGP_PK_RSA_S))
		return check_rsa(s, k->pkey, digest, dlen);
	if (s->pk == PP_PGP_PK_EDDSA && k->algo == PP_PGP_PK_EDDSA)
		return check_eddsa(s, k->pkey, digest, dlen);
	return -1;
}

/* ---- making signatures ----------------------------------------------------- */

void pgp_sig_hashed_part(struct strbuf *out, const struct pp_pgp_key *key,
			 int type, int md, uint32_t when,
			 const struct strbuf *extra)
{
	unsigned char fpr[1 + PP_PGP_FPR_LEN] = { 4 };
	unsigned char t[4] = { (unsigned char)(when >> 24),
			       (unsigned char)(when >> 16),
			       (unsigned char)(when >> 8), (unsigned char)when };
	size_t start = out->len, area;

	strbuf_addch(out, 4);
	strbuf_addch(out, type);
	strbuf_addch(out, key->algo);
	strbuf_addch(out, md);
	pgp_put16(out, 0);
	memcpy(fpr + 1, key->fpr, PP_PGP_FPR_LEN);
	pgp_put_subpacket(out, SP_ISSUER_FPR, fpr, sizeof(fpr));
	pgp_put_subpacket(out, SP_CREATED, t, 4);
	if (extra)
		strbuf_add(out, extra->buf, extra->len);
	area = out->len - start - 6;
	out->buf[start + 4] = (char)(area >> 8);
	out->buf[start + 5] = (char)area;
}

static int sign_rsa(EVP_PKEY *pkey, int md, const unsigned char *digest,
		    size_t dlen, struct strbuf *value)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(pkey, NULL);
	size_t n = (size_t)EVP_PKEY_get_size(pkey);
	unsigned char *sig = malloc(n);
	int ok = sig && c && EVP_PKEY_sign_init(c) == 1 &&
		 EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PADDING) == 1 &&
		 EVP_PKEY_CTX_set_signature_md(c, pgp_md(md)) == 1 &&
		 EVP_PKEY_sign(c, sig, &n, digest, dlen) == 1;

	if (ok)
		pgp_put_mpi(value, sig, n);
	free(sig);
	EVP_PKEY_CTX_free(c);
	return ok ? 0 : -1;
}

static int sign_eddsa(EVP_PKEY *pkey, const unsigned char *digest,
		      size_t dlen, struct strbuf *value)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	unsigned char rs[64];
	size_t n = sizeof(rs);
	int ok = c && EVP_DigestSignInit(c, NULL, NULL, NULL, pkey) == 1 &&
		 EVP_DigestSign(c, rs, &n, digest, dlen) == 1 && n == 64;

	if (ok) {
		pgp_put_mpi(value, rs, 32);
		pgp_put_mpi(value, rs + 32, 32);
	}
	EVP_MD_CTX_free(c);
	return ok ? 0 : -1;
}

/* The signature packet body: hashed part, issuer key ID unhashed (as gpg
 * writes it), left 16 bits of the digest, value. */
static void assemble(struct strbuf *out, const struct pp_pgp_key *key,
		     const struct strbuf *hashed, const unsigned char *digest,
		     const struct strbuf *value)
{
	struct strbuf body = STRBUF_INIT;

	strbuf_add(&body, hashed->buf, hashed->len);
	pgp_put16(&body, 2 + PP_PGP_KEYID_LEN);
	pgp_put_subpacket(&body, SP_ISSUER, key->keyid, PP_PGP_KEYID_LEN);
	strbuf_add(&body, digest, 2);
	strbuf_add(&body, value->buf, value->len);
	pgp_put_packet(out, 2, body.buf, body.len);
	strbuf_release(&body);
}

/* A signature that does not verify (a fault, a key mismatch) must never
 * leave padpack. */
static int self_check(const struct strbuf *out, size_t start,
		      const struct pp_pgp_key *key, const unsigned char *digest,
		      size_t dlen, struct pp_err *err)
{
	const unsigned char *p = (const unsigned char *)out->buf + start;
	struct pgp_packet pkt;
	struct pgp_sig s;
	size_t pos = 0;

	if (pgp_packet_next(p, out->len - start, &pos, &pkt, err) != 1 ||
	    pgp_sig_parse(&s, pkt.body, pkt.len, err) < 0 ||
	    pgp_sig_check(&s, key, digest, dlen) < 0)
		return pp_err_set(err, PP_EXIT_INPUT, "the signature just made "
				  "does not verify with the public key of the "
				  "certificate; the secret key does not match "
				  "it, or the signing went wrong");
	return 0;
}

int pgp_sig_make(EVP_PKEY *pkey, const struct pp_pgp_key *key,
		 struct pgp_digest *d, const struct strbuf *hashed,
		 struct strbuf *out, struct pp_err *err)
{
	const unsigned char *h = (const unsigned char *)hashed->buf;
	unsigned char digest[EVP_MAX_MD_SIZE];
	struct strbuf value = STRBUF_INIT;
	size_t dlen = pgp_digest_finish(d, h, hashed->len, digest);
	int rc = key->algo == PP_PGP_PK_EDDSA ?
		sign_eddsa(pkey, digest, dlen, &value) :
		sign_rsa(pkey, h[3], digest, dlen, &value);

	size_t start = out->len;

	if (rc < 0) {
		pp_err_set(err, PP_EXIT_INPUT, "OpenSSL could not sign with "
			   "the %s key", pp_pgp_algo_name(key->algo));
	} else {
		assemble(out, key, hashed, digest, &value);
		rc = self_check(out, start, key, digest, dlen, err);
		if (rc < 0)
			strbuf_setlen(out, start);
	}
	strbuf_release(&value);
	return rc;
}
