/* Checking document signatures: detached (binary or armored), cleartext
 * (InRelease), and over data fed in pieces (a .deb's members). Each
 * signature packet is checked on its own; the data is read once. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgpint.h"
#include "xalloc.h"

/* One signature packet being checked. */
struct pgp_check {
	unsigned char *body;            /* a copy of the packet body */
	struct pgp_sig sig;
	const struct pp_pgp_cert *cert;
	const struct pp_pgp_key *key;
	struct pgp_digest d;            /* ctx NULL when not hashing */
	int code;                       /* PP_EXIT_OK, or why it fails */
	char why[600];
};

static void fmt_time(uint32_t t, char buf[32])
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, 32, "%Y-%m-%d %H:%M:%S UTC", &tm);
}

/* How a signature names its key: the fingerprint if it has one. */
static void issuer_hex(const struct pgp_sig *s, char out[41])
{
	if (s->has_issuer_fpr)
		pp_pgp_hex(s->issuer_fpr, PP_PGP_FPR_LEN, out);
	else
		pp_pgp_hex(s->issuer, PP_PGP_KEYID_LEN, out);
}

static void fail(struct pgp_check *c, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(struct pgp_check *c, int code, const char *fmt, ...)
{
	va_list ap;

	c->code = code;
	va_start(ap, fmt);
	vsnprintf(c->why, sizeof(c->why), fmt, ap);
	va_end(ap);
	pgp_digest_free(&c->d);
}

/* Finds the key and starts hashing, or records why the signature cannot
 * be good. */
static void prepare(struct pgp_check *c, const struct pp_pgp_keyring *kr,
		    int text)
{
	const struct pgp_sig *s = &c->sig;
	const char *why;
	char id[41];

	issuer_hex(s, id);
	if (!s->has_issuer && !s->has_issuer_fpr)
		return fail(c, PP_EXIT_NOKEY, "the signature does not say which "
			    "key made it (no issuer subpacket)");
	if (s->has_issuer && s->has_issuer_fpr &&
	    memcmp(s->issuer, s->issuer_fpr + 12, PP_PGP_KEYID_LEN))
		return fail(c, PP_EXIT_BADSIG, "the signature's issuer key ID "
			    "and issuer fingerprint disagree; it was altered");
	c->key = pp_pgp_keyring_find(kr, s->has_issuer_fpr ? s->issuer_fpr :
				     NULL, s->issuer, &c->cert);
	if (!c->key)
		return fail(c, PP_EXIT_NOKEY, "signed by key %s, which is not "
			    "in the keyring", id);
	if (!pgp_md_acceptable(s->md, &why))
		return fail(c, PP_EXIT_BADSIG, "the signature by key %s uses "
			    "%s; sign with SHA-256 or SHA-512", id, why);
	pgp_digest_init(&c->d, s->md, text && s->type == PP_PGP_SIG_TEXT);
}

static int add_check(struct pp_pgp_verify *v, const struct pgp_packet *pkt,
		     const struct pp_pgp_keyring *kr, int allow_text,
		     struct pp_err *err)
{
	struct pgp_check *c;

	if (pkt->tag != 2)
		return pp_err_set(err, PP_EXIT_BADSIG, "expected a signature "
				  "packet, found a packet with tag %d",
				  pkt->tag);
	/* Other versions are skipped, as RFC 9580 asks: a v6 signature may
	 * stand beside a v4 one during a transition. */
	if (pkt->len && pkt->body[0] != 4 && pkt->body[0] != 3) {
		v->skipped++;
		return 0;
	}
	v->sigs = xrealloc(v->sigs, (v->nr + 1) * sizeof(*v->sigs));
	c = &v->sigs[v->nr];
	memset(c, 0, sizeof(*c));
	c->body = xmalloc(pkt->len ? pkt->len : 1);
	memcpy(c->body, pkt->body, pkt->len);
	v->nr++;
	if (pgp_sig_parse(&c->sig, c->body, pkt->len, err) < 0)
		return -1;
	if (c->sig.type != PP_PGP_SIG_BINARY &&
	    !(allow_text && c->sig.type == PP_PGP_SIG_TEXT))
		return pp_err_set(err, PP_EXIT_BADSIG, "a signature of type "
				  "0x%02x is not a %sdocument signature",
				  (unsigned)c->sig.type,
				  allow_text ? "" : "binary ");
	prepare(c, kr, allow_text);
	v->have_key |= c->key != NULL;
	return 0;
}

static int add_packets(struct pp_pgp_verify *v, const unsigned char *p,
		       size_t len, const struct pp_pgp_keyring *kr,
		       int allow_text, struct pp_err *err)
{
	struct pgp_packet pkt;
	size_t pos = 0;
	int r;

	while ((r = pgp_packet_next(p, len, &pos, &pkt, err)) > 0)
		if (add_check(v, &pkt, kr, allow_text, err) < 0)
			return -1;
	if (r < 0) {
		err->code = PP_EXIT_BADSIG;
		return pp_err_prefix(err, "malformed signature: ");
	}
	if (!v->nr)
		return pp_err_set(err, PP_EXIT_BADSIG, "the signature data "
				  "holds no %ssignature", v->skipped ?
				  "version 4 " : "");
	return 0;
}

static int dearmor_sig(const void *sig, size_t len, struct strbuf *bin,
		       struct pp_err *err)
{
	const char *text = sig;
	size_t pos = 0;
	char label[64];
	int r = pp_pgp_dearmor(sig, len, &pos, label, bin, err);

	if (r <= 0) {
		err->code = PP_EXIT_BADSIG;
		return r ? -1 : pp_err_set(err, PP_EXIT_BADSIG, "no armored "
					   "signature found");
	}
	if (strcmp(label, "SIGNATURE"))
		return pp_err_set(err, PP_EXIT_BADSIG, "an armored %s where a "
				  "SIGNATURE belongs", label);
	for (; pos < len; pos++)
		if (!pgp_blank(text[pos]) && text[pos] != '\n')
			return pp_err_set(err, PP_EXIT_BADSIG, "data after the "
					  "armored signature");
	return 0;
}

int pp_pgp_verify_begin(struct pp_pgp_verify *v, const void *sig, size_t len,
			const struct pp_pgp_keyring *kr, int allow_text,
			struct pp_err *err)
{
	struct strbuf bin = STRBUF_INIT;
	int rc;

	memset(v, 0, sizeof(*v));
	if (pp_pgp_is_armored(sig, len)) {
		rc = dearmor_sig(sig, len, &bin, err);
		if (!rc)
			rc = add_packets(v, (unsigned char *)bin.buf, bin.len,
					 kr, allow_text, err);
	} else {
		rc = add_packets(v, sig, len, kr, allow_text, err);
	}
	strbuf_release(&bin);
	if (rc)
		pp_pgp_verify_release(v);
	return rc;
}

void pp_pgp_verify_update(struct pp_pgp_verify *v, const void *data,
			  size_t len)
{
	for (size_t i = 0; i < v->nr; i++)
		if (v->sigs[i].d.ctx)
			pgp_digest_update(&v->sigs[i].d, data, len);
}

void pp_pgp_verify_release(struct pp_pgp_verify *v)
{
	for (size_t i = 0; i < v->nr; i++) {
		pgp_digest_free(&v->sigs[i].d);
		free(v->sigs[i].body);
	}
	free(v->sigs);
	memset(v, 0, sizeof(*v));
}

/* ---- deciding -------------------------------------------------------------- */

/* A subkey is only as good as its primary key. */
static int primary_valid(const struct pp_pgp_cert *c, time_t now)
{
	const struct pp_pgp_key *p = &c->primary;

	return p->bound && !p->revoked &&
	       (!p->expires || (time_t)p->created + p->expires > now);
}

/* What does not depend on the data: times, and whether the key (and its
 * primary) may sign. */
static void check_validity(struct pgp_check *c, time_t now)
{
	const struct pgp_sig *s = &c->sig;
	const char *why;
	char id[41], when[32];

	pp_pgp_hex(c->key->fpr, PP_PGP_FPR_LEN, id);
	fmt_time(s->created, when);
	if (s->created < c->key->created)
		fail(c, PP_EXIT_BADSIG, "the signature (%s) predates key %s",
		     when, id);
	else if ((time_t)s->created > now)
		fail(c, PP_EXIT_BADSIG, "the signature is dated %s, in the "
		     "future; check the signer's clock", when);
	else if (s->expires && (time_t)s->created + s->expires <= now)
		fail(c, PP_EXIT_BADSIG, "the signature made %s has expired",
		     when);
	else if (!pgp_key_can_sign(c->key, s->created, &why) ||
		 !pgp_key_can_sign(c->key, (uint32_t)now, &why))
		fail(c, PP_EXIT_BADSIG, "key %s cannot be trusted for this "
		     "signature: %s", id, why);
	else if (c->key != &c->cert->primary && !primary_valid(c->cert, now))
		fail(c, PP_EXIT_BADSIG, "the primary key of subkey %s is "
		     "revoked, expired or unbound", id);
}

static void evaluate(struct pgp_check *c, time_t now)
{
	unsigned char digest[EVP_MAX_MD_SIZE];
	size_t dlen;
	char id[41];

	if (c->code)
		return;
	check_validity(c, now);
	if (c->code)
		return;
	dlen = pgp_digest_finish(&c->d, c->sig.hashed, c->sig.hashed_len,
				 digest);
	pp_pgp_hex(c->key->fpr, PP_PGP_FPR_LEN, id);
	if (pgp_sig_check(&c->sig, c->key, digest, dlen) < 0)
		fail(c, PP_EXIT_BADSIG, "BAD signature: the data or the "
		     "signature was changed after signing (key %s)", id);
}

static void describe(const struct pgp_check *c, struct pp_pgp_verdict *out)
{
	memset(out, 0, sizeof(*out));
	out->cert = c->key ? c->cert : NULL;
	out->key = c->key;
	if (c->sig.has_issuer)
		memcpy(out->issuer, c->sig.issuer, PP_PGP_KEYID_LEN);
	else
		memcpy(out->issuer, c->sig.issuer_fpr + 12, PP_PGP_KEYID_LEN);
	out->created = c->sig.created;
	out->md = c->sig.md;
	out->algo = c->sig.pk;
}

/* A bad signature by a known key outweighs a good one; a good one
 * outweighs signatures by keys not in the keyring. */
static const struct pgp_check *pick(const struct pp_pgp_verify *v)
{
	const struct pgp_check *good = NULL;

	for (size_t i = 0; i < v->nr; i++) {
		if (v->sigs[i].code == PP_EXIT_BADSIG)
			return &v->sigs[i];
		if (!v->sigs[i].code && !good)
			good = &v->sigs[i];
	}
	return good ? good : &v->sigs[0];
}

int pp_pgp_verify_finish(struct pp_pgp_verify *v, time_t now,
			 struct pp_pgp_verdict *out, struct pp_err *err)
{
	const struct pgp_check *c;
	int rc = 0;

	for (size_t i = 0; i < v->nr; i++)
		evaluate(&v->sigs[i], now);
	c = pick(v);
	describe(c, out);
	if (c->code)
		rc = pp_err_set(err, c->code, "%s", c->why);
	pp_pgp_verify_release(v);
	return rc;
}

/* ---- whole documents ------------------------------------------------------- */

int pp_pgp_verify_detached(const struct pp_pgp_keyring *kr, const void *data,
			   size_t len, const void *sig, size_t sig_len,
			   time_t now, struct pp_pgp_verdict *out,
			   struct pp_err *err)
{
	struct pp_pgp_verify v;

	if (pp_pgp_verify_begin(&v, sig, sig_len, kr, 1, err) < 0)
		return -1;
	pp_pgp_verify_update(&v, data, len);
	return pp_pgp_verify_finish(&v, now, out, err);
}

/* Cleartext signatures are text signatures over the canonical text, with
 * a digest the Hash header names. */
static int check_clear_sigs(struct pp_pgp_verify *v, unsigned mds,
			    struct pp_err *err)
{
	for (size_t i = 0; i < v->nr; i++) {
		struct pgp_check *c = &v->sigs[i];

		if (c->sig.type != PP_PGP_SIG_TEXT)
			return pp_err_set(err, PP_EXIT_BADSIG, "a cleartext "
					  "signature of type 0x%02x, not a text "
					  "signature", (unsigned)c->sig.type);
		if (c->sig.md > 31 || !(mds & 1u << c->sig.md))
			return pp_err_set(err, PP_EXIT_BADSIG, "signature digest "
					  "conflict: the signature uses %s, which "
					  "the Hash header does not name",
					  pp_pgp_md_name(c->sig.md));
		c->d.text = 0; /* the canonical text is CR LF already */
	}
	return 0;
}

int pp_pgp_verify_clearsigned(const struct pp_pgp_keyring *kr,
			      const void *data, size_t len, time_t now,
			      struct pp_pgp_verdict *out, struct strbuf *text,
			      struct pp_err *err)
{
	struct pgp_cleartext ct = { 0, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	struct pp_pgp_verify v;
	int rc = pgp_cleartext_parse(data, len, &ct, err);

	if (!rc)
		rc = pp_err_set(err, PP_EXIT_UNSIGNED, "not a cleartext-signed "
				"message (no BEGIN PGP SIGNED MESSAGE line)");
	else if (rc > 0)
		rc = pp_pgp_verify_begin(&v, ct.sig.buf, ct.sig.len, kr, 1, err);
	if (!rc && check_clear_sigs(&v, ct.mds, err) < 0) {
		pp_pgp_verify_release(&v);
		rc = -1;
	}
	if (!rc) {
		pp_pgp_verify_update(&v, ct.canonical.buf, ct.canonical.len);
		rc = pp_pgp_verify_finish(&v, now, out, err);
	}
	if (!rc && text)
		strbuf_add(text, ct.text.buf, ct.text.len);
	strbuf_release(&ct.text);
	strbuf_release(&ct.canonical);
	strbuf_release(&ct.sig);
	return rc;
}
