/* Public keys (RFC 4880 5.5.2, 12.2): key packets, fingerprints, and the
 * OpenSSL key that checks signatures. Keys of other algorithms are read for
 * listing and left unusable; keys of other versions are refused. */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/param_build.h>

#include "pgpint.h"
#include "xalloc.h"

static const struct curve {
	const char *name;
	unsigned bits;
	unsigned char len;
	unsigned char oid[10];
} curves[] = {
	{ "ed25519", 255, 9, { 0x2b, 0x06, 0x01, 0x04, 0x01, 0xda, 0x47, 0x0f,
			       0x01 } },
	{ "cv25519", 255, 10, { 0x2b, 0x06, 0x01, 0x04, 0x01, 0x97, 0x55, 0x01,
				0x05, 0x01 } },
	{ "nistp256", 256, 8, { 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01,
				0x07 } },
	{ "nistp384", 384, 5, { 0x2b, 0x81, 0x04, 0x00, 0x22 } },
	{ "nistp521", 521, 5, { 0x2b, 0x81, 0x04, 0x00, 0x23 } },
	{ "brainpoolP256r1", 256, 9, { 0x2b, 0x24, 0x03, 0x03, 0x02, 0x08,
				       0x01, 0x01, 0x07 } },
	{ "brainpoolP384r1", 384, 9, { 0x2b, 0x24, 0x03, 0x03, 0x02, 0x08,
				       0x01, 0x01, 0x0b } },
	{ "brainpoolP512r1", 512, 9, { 0x2b, 0x24, 0x03, 0x03, 0x02, 0x08,
				       0x01, 0x01, 0x0d } },
};

static const struct curve *find_curve(const unsigned char *oid, size_t len)
{
	for (size_t i = 0; i < sizeof(curves) / sizeof(curves[0]); i++)
		if (curves[i].len == len && !memcmp(curves[i].oid, oid, len))
			return &curves[i];
	return NULL;
}

const char *pp_pgp_algo_name(int algo)
{
	switch (algo) {
	case PP_PGP_PK_RSA: case PP_PGP_PK_RSA_E: case PP_PGP_PK_RSA_S:
		return "RSA";
	case PP_PGP_PK_ELGAMAL: return "Elgamal";
	case PP_PGP_PK_DSA: return "DSA";
	case PP_PGP_PK_ECDH: return "ECDH";
	case PP_PGP_PK_ECDSA: return "ECDSA";
	case PP_PGP_PK_EDDSA: return "EdDSA";
	case PP_PGP_PK_X25519: return "X25519";
	case PP_PGP_PK_ED25519: return "Ed25519";
	}
	return "unknown";
}

void pp_pgp_hex(const unsigned char *bin, size_t len, char *out)
{
	static const char digits[] = "0123456789ABCDEF";

	for (size_t i = 0; i < len; i++) {
		out[2 * i] = digits[bin[i] >> 4];
		out[2 * i + 1] = digits[bin[i] & 15];
	}
	out[2 * len] = '\0';
}

/* ---- key material ---------------------------------------------------------- */

static EVP_PKEY *rsa_pkey(const unsigned char *n, size_t nlen,
			  const unsigned char *e, size_t elen)
{
	OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
	BIGNUM *bn = BN_bin2bn(n, (int)nlen, NULL);
	BIGNUM *be = BN_bin2bn(e, (int)elen, NULL);
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
	OSSL_PARAM *params = NULL;
	EVP_PKEY *pkey = NULL;

	if (b && bn && be && c &&
	    OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_N, bn) &&
	    OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_E, be) &&
	    (params = OSSL_PARAM_BLD_to_param(b)) &&
	    EVP_PKEY_fromdata_init(c) == 1 &&
	    EVP_PKEY_fromdata(c, &pkey, EVP_PKEY_PUBLIC_KEY, params) != 1)
		pkey = NULL;
	OSSL_PARAM_free(params);
	EVP_PKEY_CTX_free(c);
	BN_free(bn);
	BN_free(be);
	OSSL_PARAM_BLD_free(b);
	return pkey;
}

/* Counts the significant bits of a big-endian value. */
static unsigned value_bits(const unsigned char *v, size_t len)
{
	unsigned bits = (unsigned)len * 8;

	for (unsigned char m = 0x80; len && m && !(v[0] & m); m >>= 1)
		bits--;
	return len ? bits : 0;
}

static int parse_rsa(struct pp_pgp_key *k, struct pgp_in *in)
{
	const unsigned char *n, *e;
	size_t nlen, elen;
	int rc;

	if ((rc = pgp_get_mpi(in, &n, &nlen)) < 0 ||
	    (rc = pgp_get_mpi(in, &e, &elen)) < 0)
		return rc;
	k->bits = value_bits(n, nlen);
	k->pkey = rsa_pkey(n, nlen, e, elen);
	if (!k->pkey)
		k->unusable = "OpenSSL refuses its RSA parameters";
	return 0;
}

/* Counts n MPIs of a DSA or Elgamal key; bits from the first. */
static int parse_mpis(struct pp_pgp_key *k, struct pgp_in *in, int n)
{
	const unsigned char *v;
	size_t len;
	int rc;

	for (int i = 0; i < n; i++) {
		if ((rc = pgp_get_mpi(in, &v, &len)) < 0)
			return rc;
		if (!i)
			k->bits = value_bits(v, len);
	}
	k->unusable = "padpack checks RSA and Ed25519 signatures only";
	return 0;
}

/* ECDSA, EdDSA and ECDH: curve OID, point, and for ECDH KDF parameters. */
static int parse_ecc(struct pp_pgp_key *k, struct pgp_in *in)
{
	const unsigned char *oid, *pt, *kdf;
	const struct curve *c;
	unsigned olen, klen;
	size_t plen;
	int rc;

	if (pgp_get8(in, &olen) < 0 || olen == 0 || olen == 0xff ||
	    pgp_getn(in, olen, &oid) < 0)
		return -1;
	if ((rc = pgp_get_mpi(in, &pt, &plen)) < 0)
		return rc;
	if (k->algo == PP_PGP_PK_ECDH &&
	    (pgp_get8(in, &klen) < 0 || pgp_getn(in, klen, &kdf) < 0))
		return -1;
	c = find_curve(oid, olen);
	k->curve = c ? c->name : "unknown curve";
	k->bits = c ? c->bits : 0;
	k->unusable = "padpack checks RSA and Ed25519 signatures only";
	if (k->algo != PP_PGP_PK_EDDSA || !c || strcmp(c->name, "ed25519"))
		return 0;
	if (plen != 33 || pt[0] != 0x40)
		return -1;
	k->pkey = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, pt + 1,
					      32);
	k->unusable = k->pkey ? NULL : "OpenSSL refuses its Ed25519 point";
	return 0;
}

static int parse_material(struct pp_pgp_key *k, struct pgp_in *in)
{
	const unsigned char *raw;

	switch (k->algo) {
	case PP_PGP_PK_RSA: case PP_PGP_PK_RSA_E: case PP_PGP_PK_RSA_S:
		return parse_rsa(k, in);
	case PP_PGP_PK_DSA:
		return parse_mpis(k, in, 4);
	case PP_PGP_PK_ELGAMAL:
		return parse_mpis(k, in, 3);
	case PP_PGP_PK_ECDSA: case PP_PGP_PK_EDDSA: case PP_PGP_PK_ECDH:
		return parse_ecc(k, in);
	case PP_PGP_PK_X25519: case PP_PGP_PK_ED25519:
		k->curve = k->algo == PP_PGP_PK_X25519 ? "cv25519" : "ed25519";
		k->bits = 255;
		k->unusable = "gpgv 2.2 and sqv 1.1 cannot use algorithm 25/27 "
			      "keys, and neither does padpack";
		return pgp_getn(in, 32, &raw);
	}
	k->unusable = "its public-key algorithm is unknown";
	in->n = 0;
	return 0;
}

static void fingerprint(struct pp_pgp_key *k)
{
	unsigned char h[3] = { 0x99, (unsigned char)(k->body_len >> 8),
			       (unsigned char)k->body_len };
	EVP_MD_CTX *c = EVP_MD_CTX_new();

	EVP_DigestInit_ex(c, EVP_sha1(), NULL);
	EVP_DigestUpdate(c, h, 3);
	EVP_DigestUpdate(c, k->body, k->body_len);
	EVP_DigestFinal_ex(c, k->fpr, NULL);
	EVP_MD_CTX_free(c);
	memcpy(k->keyid, k->fpr + 12, PP_PGP_KEYID_LEN);
}

/* Why padpack refuses a key packet of another version than 4. */
static const char *version_why(unsigned v)
{
	if (v == 2 || v == 3)
		return "v3 keys have MD5 fingerprints, deprecated since RFC 4880";
	if (v == 5)
		return "v5 keys come from a draft that was never standardised";
	if (v == 6)
		return "v6 keys (RFC 9580) are not read by gpgv 2.2 or padpack";
	return "no OpenPGP standard defines it";
}

int pgp_key_parse_prefix(struct pp_pgp_key *k, const unsigned char *body,
			 size_t len, size_t *used, struct pp_err *err)
{
	struct pgp_in in = { body, len };
	unsigned v, algo = 0;
	int rc;

	memset(k, 0, sizeof(*k));
	if (pgp_get8(&in, &v) < 0)
		return pp_err_set(err, PP_EXIT_INPUT, "empty public-key packet");
	k->version = (int)v;
	if (v != 4)
		return pp_err_set(err, PP_EXIT_INPUT, "key version %u is not "
				  "supported (only v4): %s", v, version_why(v));
	if (pgp_get32(&in, &k->created) < 0 || pgp_get8(&in, &algo) < 0)
		return pp_err_set(err, PP_EXIT_INPUT, "truncated public-key "
				  "packet");
	k->algo = (int)algo;
	rc = parse_material(k, &in);
	if (rc < 0) {
		EVP_PKEY_free(k->pkey);
		k->pkey = NULL;
		return pp_err_set(err, PP_EXIT_INPUT, rc == PGP_MPI_EMPTY ?
				  "MPI of zero length in the %s key material of a "
				  "public-key packet" : "malformed %s key material "
				  "in a public-key packet",
				  pp_pgp_algo_name(k->algo));
	}
	*used = len - in.n;
	if (*used > 0xffff) {
		EVP_PKEY_free(k->pkey);
		k->pkey = NULL;
		return pp_err_set(err, PP_EXIT_INPUT, "public-key packet of "
				  "%zu octets; v4 keys hold at most 65535", *used);
	}
	k->body = xmalloc(*used);
	memcpy(k->body, body, *used);
	k->body_len = *used;
	fingerprint(k);
	return 0;
}

int pgp_key_parse(struct pp_pgp_key *k, const unsigned char *body,
		  size_t len, struct pp_err *err)
{
	size_t used;

	if (pgp_key_parse_prefix(k, body, len, &used, err) < 0)
		return -1;
	if (used == len)
		return 0;
	pgp_key_release(k);
	return pp_err_set(err, PP_EXIT_INPUT, "%zu unexpected octets after the "
			  "key material of a public-key packet", len - used);
}

void pgp_key_release(struct pp_pgp_key *k)
{
	EVP_PKEY_free(k->pkey);
	free(k->body);
	k->pkey = NULL;
	k->body = NULL;
}

int pgp_key_can_sign(const struct pp_pgp_key *k, uint32_t t,
		     const char **why)
{
	if (!k->pkey)
		*why = k->unusable ? k->unusable :
			"padpack cannot check signatures with it";
	else if (!k->bound)
		*why = "it has no valid self-signature binding it";
	else if (k->revoked)
		*why = "it has been revoked";
	else if (k->has_flags && !(k->flags & PP_PGP_CAN_SIGN))
		*why = "its key flags do not allow signing";
	else if (k->expires && (uint64_t)k->created + k->expires <= t)
		*why = "it had expired";
	else if (k->algo != PP_PGP_PK_EDDSA && k->bits < 2048)
		*why = "RSA keys shorter than 2048 bits are too weak";
	else
		return 1;
	return 0;
}

/* ---- keys for signing ------------------------------------------------------ */

static int bn_param(EVP_PKEY *pkey, const char *name, struct strbuf *out)
{
	BIGNUM *bn = NULL;
	size_t start = out->len;
	int n;

	if (!EVP_PKEY_get_bn_param(pkey, name, &bn))
		return -1;
	n = BN_num_bytes(bn);
	strbuf_grow(out, (size_t)n);
	BN_bn2bin(bn, (unsigned char *)out->buf + start);
	strbuf_setlen(out, start + (size_t)n);
	BN_free(bn);
	return 0;
}

static int rsa_material(EVP_PKEY *pkey, struct strbuf *body)
{
	struct strbuf n = STRBUF_INIT, e = STRBUF_INIT;
	int rc = -1;

	if (!bn_param(pkey, OSSL_PKEY_PARAM_RSA_N, &n) &&
	    !bn_param(pkey, OSSL_PKEY_PARAM_RSA_E, &e)) {
		pgp_put_mpi(body, (unsigned char *)n.buf, n.len);
		pgp_put_mpi(body, (unsigned char *)e.buf, e.len);
		rc = 0;
	}
	strbuf_release(&n);
	strbuf_release(&e);
	return rc;
}

static int ed25519_material(EVP_PKEY *pkey, struct strbuf *body)
{
	unsigned char pt[33] = { 0x40 };
	size_t len = 32;

	if (EVP_PKEY_get_raw_public_key(pkey, pt + 1, &len) != 1 || len != 32)
		return -1;
	strbuf_addch(body, curves[0].len);
	strbuf_add(body, curves[0].oid, curves[0].len);
	pgp_put_mpi(body, pt, sizeof(pt));
	return 0;
}

int pgp_key_body(EVP_PKEY *pkey, uint32_t created, struct strbuf *body,
		 struct pp_err *err)
{
	int ed = EVP_PKEY_is_a(pkey, "ED25519");
	int rsa = EVP_PKEY_is_a(pkey, "RSA");

	if (!ed && !rsa)
		return pp_err_set(err, PP_EXIT_INPUT, "the secret key is a %s "
				  "key; padpack signs with Ed25519 and RSA keys",
				  EVP_PKEY_get0_type_name(pkey));
	strbuf_addch(body, 4);
	pgp_put32(body, created);
	strbuf_addch(body, ed ? PP_PGP_PK_EDDSA : PP_PGP_PK_RSA);
	if ((ed ? ed25519_material(pkey, body) : rsa_material(pkey, body)) < 0)
		return pp_err_set(err, PP_EXIT_INPUT, "OpenSSL cannot give the "
				  "public part of the secret key");
	return 0;
}
