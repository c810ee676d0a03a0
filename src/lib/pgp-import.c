/* Import of an existing key from gpg --export-secret-keys (RFC 4880 5.5.3,
 * unprotected secret-key packets): the public packets become public.gpg,
 * the signing key's secret becomes secret.pem. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/param_build.h>

#include "pgpint.h"
#include "xalloc.h"

/* The secret half of one secret-key packet. */
struct sec_key {
	unsigned char fpr[PP_PGP_FPR_LEN];
	EVP_PKEY *pkey;        /* NULL when its secret is not usable */
	const char *why;       /* why not */
};

struct import {
	const char *name;
	struct strbuf cert;    /* the public packets, in order */
	struct sec_key *keys;
	size_t nr, alloc, primaries;
};

static EVP_PKEY *ed25519_secret(struct pgp_in *in)
{
	unsigned char seed[32] = { 0 };
	const unsigned char *v;
	EVP_PKEY *pkey;
	size_t len;

	if (pgp_get_mpi(in, &v, &len) < 0 || len > 32)
		return NULL;
	memcpy(seed + 32 - len, v, len);
	pkey = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed, 32);
	OPENSSL_cleanse(seed, sizeof(seed));
	return pkey;
}

struct rsa_parts {
	BIGNUM *n, *e, *d, *p, *q, *dp, *dq, *qinv;
};

static void rsa_parts_free(struct rsa_parts *r)
{
	BN_free(r->n);
	BN_free(r->e);
	BN_clear_free(r->d);
	BN_clear_free(r->p);
	BN_clear_free(r->q);
	BN_clear_free(r->dp);
	BN_clear_free(r->dq);
	BN_clear_free(r->qinv);
}

/* OpenSSL wants d mod (p-1), d mod (q-1) and q^-1 mod p; OpenPGP stores
 * p^-1 mod q, so all three are computed afresh. */
static int rsa_crt(struct rsa_parts *r)
{
	BN_CTX *ctx = BN_CTX_new();
	BIGNUM *t = BN_new();
	int ok;

	r->dp = BN_new();
	r->dq = BN_new();
	ok = ctx && t && r->dp && r->dq &&
	     BN_sub(t, r->p, BN_value_one()) && BN_mod(r->dp, r->d, t, ctx) &&
	     BN_sub(t, r->q, BN_value_one()) && BN_mod(r->dq, r->d, t, ctx) &&
	     (r->qinv = BN_mod_inverse(NULL, r->q, r->p, ctx)) != NULL;
	BN_clear_free(t);
	BN_CTX_free(ctx);
	return ok ? 0 : -1;
}

static EVP_PKEY *rsa_from_parts(const struct rsa_parts *r)
{
	OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
	OSSL_PARAM *params = NULL;
	EVP_PKEY *pkey = NULL;

	if (b && c &&
	    OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_N, r->n) &&
	    OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_E, r->e) &&
	    OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_D, r->d) &&
	    OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_FACTOR1, r->p) &&
	    OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_FACTOR2, r->q) &&
	    OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_EXPONENT1, r->dp) &&
	    OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_EXPONENT2, r->dq) &&
	    OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
				   r->qinv) &&
	    (params = OSSL_PARAM_BLD_to_param(b)) &&
	    EVP_PKEY_fromdata_init(c) == 1 &&
	    EVP_PKEY_fromdata(c, &pkey, EVP_PKEY_KEYPAIR, params) != 1)
		pkey = NULL;
	OSSL_PARAM_free(params);
	EVP_PKEY_CTX_free(c);
	OSSL_PARAM_BLD_free(b);
	return pkey;
}

static BIGNUM *get_bn(struct pgp_in *in)
{
	const unsigned char *v;
	size_t len;

	if (pgp_get_mpi(in, &v, &len) < 0)
		return NULL;
	return BN_bin2bn(v, (int)len, NULL);
}

/* d, p, q, u: the RSA secret MPIs. */
static EVP_PKEY *rsa_secret(const struct pp_pgp_key *pub, struct pgp_in *in)
{
	struct rsa_parts r = { 0 };
	EVP_PKEY *pkey = NULL;
	BIGNUM *u = NULL;
	EVP_PKEY_CTX *c;

	r.d = get_bn(in);
	r.p = r.d ? get_bn(in) : NULL;
	r.q = r.p ? get_bn(in) : NULL;
	u = r.q ? get_bn(in) : NULL;
	if (u && EVP_PKEY_get_bn_param(pub->pkey, OSSL_PKEY_PARAM_RSA_N, &r.n) &&
	    EVP_PKEY_get_bn_param(pub->pkey, OSSL_PKEY_PARAM_RSA_E, &r.e) &&
	    !BN_is_zero(r.p) && !BN_is_zero(r.q) && !rsa_crt(&r))
		pkey = rsa_from_parts(&r);
	c = pkey ? EVP_PKEY_CTX_new(pkey, NULL) : NULL;
	if (pkey && (!c || EVP_PKEY_pairwise_check(c) != 1)) {
		EVP_PKEY_free(pkey);
		pkey = NULL;
	}
	EVP_PKEY_CTX_free(c);
	BN_clear_free(u);
	rsa_parts_free(&r);
	return pkey;
}

/* RFC 4880 5.5.3: the sum of the secret MPI octets, modulo 65536. */
static unsigned checksum(const unsigned char *p, size_t n)
{
	unsigned sum = 0;

	while (n--)
		sum = (sum + *p++) & 0xffff;
	return sum;
}

static int secret_error(struct import *imp, const char *what,
			struct pp_err *err)
{
	return pp_err_set(err, PP_EXIT_INPUT, "%s: %s", imp->name, what);
}

static int secret_part(struct import *imp, const struct pp_pgp_key *pub,
		       struct pgp_in in, struct sec_key *sk, struct pp_err *err)
{
	int ed = pub->algo == PP_PGP_PK_EDDSA && pub->pkey;
	const unsigned char *start;
	EVP_PKEY *pkey;
	unsigned usage, sum;

	if (pgp_get8(&in, &usage) < 0)
		return secret_error(imp, "a truncated secret-key packet", err);
	sk->why = "its secret part is protected by a passphrase or absent (a "
		  "stub); export it without a passphrase";
	if (usage != 0)
		return 0;
	sk->why = "padpack signs with Ed25519 and RSA keys only";
	if (!ed && pub->algo != PP_PGP_PK_RSA && pub->algo != PP_PGP_PK_RSA_S)
		return 0;
	start = in.p;
	pkey = ed ? ed25519_secret(&in) : pub->pkey ? rsa_secret(pub, &in) :
		NULL;
	if (!pkey)
		return secret_error(imp, "malformed or inconsistent secret key "
				    "material", err);
	sum = checksum(start, (size_t)(in.p - start));
	if (pgp_get16(&in, &usage) < 0 || in.n || usage != sum ||
	    EVP_PKEY_eq(pkey, pub->pkey) != 1) {
		EVP_PKEY_free(pkey);
		return secret_error(imp, "the secret key material fails its "
				    "checksum or does not match the public "
				    "key; the export is damaged", err);
	}
	sk->pkey = pkey;
	sk->why = NULL;
	return 0;
}

static int secret_packet(struct import *imp, const struct pgp_packet *pkt,
			 struct pp_err *err)
{
	struct pp_pgp_key pub;
	struct sec_key *sk;
	struct pgp_in rest;
	size_t used;
	int rc;

	if (pgp_key_parse_prefix(&pub, pkt->body, pkt->len, &used, err) < 0)
		return pp_err_prefix(err, "%s: ", imp->name);
	pgp_put_packet(&imp->cert, pkt->tag == 5 ? 6 : 14, pkt->body, used);
	ARRAY_GROW(imp->keys, imp->alloc, imp->nr + 1);
	sk = &imp->keys[imp->nr++];
	memset(sk, 0, sizeof(*sk));
	memcpy(sk->fpr, pub.fpr, PP_PGP_FPR_LEN);
	rest.p = pkt->body + used;
	rest.n = pkt->len - used;
	rc = secret_part(imp, &pub, rest, sk, err);
	pgp_key_release(&pub);
	return rc;
}

static int import_packet(struct import *imp, const struct pgp_packet *pkt,
			 struct pp_err *err)
{
	switch (pkt->tag) {
	case 5:
		if (imp->primaries++)
			return secret_error(imp, "it holds more than one secret "
					    "key; export just one (gpg "
					    "--export-secret-keys KEYID)", err);
		return secret_packet(imp, pkt, err);
	case 7:
		if (!imp->primaries)
			break;
		return secret_packet(imp, pkt, err);
	case 2: case 13: case 17:
		if (!imp->primaries)
			break;
		pgp_put_packet(&imp->cert, pkt->tag, pkt->body, pkt->len);
		return 0;
	case 10: case 12:
		return 0;
	case 6: case 14:
		return secret_error(imp, "it holds a public key, no secret key "
				    "(give the output of gpg "
				    "--export-secret-keys)", err);
	}
	return pp_err_set(err, PP_EXIT_INPUT, "%s: packet at offset %zu (tag "
			  "%d) does not belong in gpg --export-secret-keys "
			  "output", imp->name, pkt->offset, pkt->tag);
}

static const struct sec_key *secret_of(const struct import *imp,
				       const struct pp_pgp_key *k)
{
	for (size_t i = 0; i < imp->nr; i++)
		if (!memcmp(imp->keys[i].fpr, k->fpr, PP_PGP_FPR_LEN))
			return &imp->keys[i];
	return NULL;
}

/* Whether k may sign now and its secret is at hand; else why not. */
static int usable(const struct import *imp, const struct pp_pgp_key *k,
		  const char **why)
{
	const struct sec_key *sk = secret_of(imp, k);

	if (!pgp_key_can_sign(k, (uint32_t)time(NULL), why))
		return 0;
	if (!sk || !sk->pkey) {
		*why = sk ? sk->why : "its secret part is missing";
		return 0;
	}
	return 1;
}

/* The primary key when it may sign, else the newest signing subkey. */
static const struct pp_pgp_key *signing_key(const struct import *imp,
					    const struct pp_pgp_cert *c,
					    struct pp_err *err)
{
	const struct pp_pgp_key *best = NULL;
	const char *why = "", *why_sub;

	if (usable(imp, &c->primary, &why))
		return &c->primary;
	for (size_t i = 0; i < c->nr_subkeys; i++)
		if (usable(imp, &c->subkeys[i], &why_sub) &&
		    (!best || c->subkeys[i].created >= best->created))
			best = &c->subkeys[i];
	if (!best)
		pp_err_set(err, PP_EXIT_INPUT, "%s: no key in it can sign: the "
			   "primary key cannot, as %s; and no subkey can",
			   imp->name, why);
	return best;
}

static int import_write(struct import *imp, const char *dir,
			const char *passphrase, unsigned char *fpr,
			struct pp_err *err)
{
	struct pp_pgp_keyring kr;
	const struct pp_pgp_key *k;
	int rc = -1;

	pp_pgp_keyring_init(&kr);
	if (pp_pgp_keyring_add(&kr, imp->cert.buf, imp->cert.len, imp->name,
			       err) < 0)
		goto out;
	k = signing_key(imp, &kr.certs[0], err);
	if (!k)
		goto out;
	rc = pgp_write_key_dir(dir, secret_of(imp, k)->pkey, &imp->cert,
			       passphrase, err);
	if (!rc && fpr)
		memcpy(fpr, k->fpr, PP_PGP_FPR_LEN);
out:
	pp_pgp_keyring_release(&kr);
	return rc;
}

static int import_binary(struct import *imp, const unsigned char *p,
			 size_t len, struct pp_err *err)
{
	struct pgp_packet pkt;
	size_t pos = 0;
	int r;

	while ((r = pgp_packet_next(p, len, &pos, &pkt, err)) > 0)
		if (import_packet(imp, &pkt, err) < 0)
			return -1;
	if (r < 0)
		return pp_err_prefix(err, "%s: ", imp->name);
	if (!imp->primaries)
		return secret_error(imp, "it holds no secret key (give the "
				    "output of gpg --export-secret-keys)", err);
	return 0;
}

static int dearmor_secret(struct import *imp, const void *data, size_t len,
			  struct strbuf *bin, struct pp_err *err)
{
	size_t pos = 0;
	char label[64];
	int r = pp_pgp_dearmor(data, len, &pos, label, bin, err);

	if (r < 0)
		return pp_err_prefix(err, "%s: ", imp->name);
	if (!r || strcmp(label, "PRIVATE KEY BLOCK"))
		return secret_error(imp, "no armored PRIVATE KEY BLOCK in it",
				    err);
	return 0;
}

int pp_pgp_key_import(const void *data, size_t len, const char *name,
		      const char *dir, const char *passphrase,
		      unsigned char *fpr, struct pp_err *err)
{
	struct import imp = { name, STRBUF_INIT, NULL, 0, 0, 0 };
	struct strbuf bin = STRBUF_INIT;
	int rc = 0;

	if (pp_pgp_is_armored(data, len)) {
		rc = dearmor_secret(&imp, data, len, &bin, err);
		data = bin.buf;
		len = bin.len;
	}
	if (!rc)
		rc = import_binary(&imp, data, len, err);
	if (!rc)
		rc = import_write(&imp, dir, passphrase, fpr, err);
	for (size_t i = 0; i < imp.nr; i++)
		EVP_PKEY_free(imp.keys[i].pkey);
	free(imp.keys);
	strbuf_release(&imp.cert);
	OPENSSL_cleanse(bin.buf, bin.len);
	strbuf_release(&bin);
	return rc;
}
