/* Keyrings: transferable public keys (RFC 4880 11.1) one after another,
 * binary or armored. Self-signatures are checked as they are read, so a
 * key counts as usable only when its certificate binds it. */
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "pgpint.h"
#include "xalloc.h"

/* SHA-1 self-signatures made after this are refused (as Sequoia does). */
#define SHA1_CUTOFF 1675209600u /* 2023-02-01 */

enum component { ON_KEY, ON_UID, ON_UATTR, ON_SUBKEY };

struct kr_reader {
	struct pp_pgp_keyring *kr;
	const char *name;
	enum component on;   /* what the next signature belongs to */
	size_t idx;          /* which user ID or subkey */
};

void pp_pgp_keyring_init(struct pp_pgp_keyring *kr)
{
	memset(kr, 0, sizeof(*kr));
}

static void cert_release(struct pp_pgp_cert *c)
{
	pgp_key_release(&c->primary);
	for (size_t i = 0; i < c->nr_uids; i++)
		free(c->uids[i].text);
	for (size_t i = 0; i < c->nr_subkeys; i++)
		pgp_key_release(&c->subkeys[i]);
	free(c->uids);
	free(c->subkeys);
}

void pp_pgp_keyring_release(struct pp_pgp_keyring *kr)
{
	for (size_t i = 0; i < kr->nr; i++)
		cert_release(&kr->certs[i]);
	free(kr->certs);
	pp_pgp_keyring_init(kr);
}

/* ---- self-signatures ------------------------------------------------------- */

/* Checks a signature by signer over the primary key and then a subkey or
 * a user ID (either may be NULL). */
static int check_key_sig(const struct pgp_sig *s, const struct pp_pgp_key *signer,
			 const struct pp_pgp_key *primary,
			 const struct pp_pgp_key *subkey,
			 const struct pp_pgp_uid *uid)
{
	unsigned char digest[EVP_MAX_MD_SIZE];
	struct pgp_digest d;
	const char *why;
	size_t dlen;

	if (!signer->pkey || s->created < signer->created || !pgp_md(s->md))
		return -1;
	if (!pgp_md_acceptable(s->md, &why) &&
	    !(s->md == PP_PGP_SHA1 && s->created < SHA1_CUTOFF))
		return -1;
	pgp_digest_init(&d, s->md, 0);
	pgp_digest_key(&d, primary);
	if (subkey)
		pgp_digest_key(&d, subkey);
	if (uid)
		pgp_digest_uid(&d, uid->text, uid->len);
	dlen = pgp_digest_finish(&d, s->hashed, s->hashed_len, digest);
	return pgp_sig_check(s, signer, digest, dlen);
}

static int by_key(const struct pgp_sig *s, const struct pp_pgp_key *k)
{
	if (s->has_issuer_fpr)
		return !memcmp(s->issuer_fpr, k->fpr, PP_PGP_FPR_LEN);
	return s->has_issuer && !memcmp(s->issuer, k->keyid, PP_PGP_KEYID_LEN);
}

/* The newest valid self-signature of each kind says what a key may do. */
static void apply_binding(struct pp_pgp_key *k, const struct pgp_sig *s,
			  int direct)
{
	struct pp_pgp_binding *b = direct ? &k->direct : &k->binding;
	const struct pp_pgp_binding *d = &k->direct, *u = &k->binding;

	if (b->valid && s->created < b->at)
		return;
	b->valid = 1;
	b->at = s->created;
	b->has_flags = s->has_key_flags;
	b->flags = s->key_flags;
	b->has_expires = s->has_key_expires;
	b->expires = s->key_expires;
	k->bound = 1;
	k->has_flags = (d->valid && d->has_flags) || (u->valid && u->has_flags);
	k->flags = d->valid && d->has_flags ? d->flags : u->flags;
	k->expires = d->valid && d->has_expires ? d->expires :
		u->valid && u->has_expires ? u->expires : 0;
}

/* A signing subkey must sign the primary back (0x19, embedded), or anyone
 * could claim someone else's signing key as a subkey. */
static int back_signed(const struct pgp_sig *s, const struct pp_pgp_key *pri,
		       const struct pp_pgp_key *sub)
{
	struct pgp_sig back;
	struct pp_err scratch;
	int ok;

	if (!s->embedded)
		return 0;
	pp_err_init(&scratch);
	ok = !pgp_sig_parse(&back, s->embedded, s->embedded_len, &scratch) &&
	     back.type == PP_PGP_SIG_PRIMARY_BACK &&
	     !check_key_sig(&back, sub, pri, sub, NULL);
	pp_err_release(&scratch);
	return ok;
}

static void subkey_sig(struct pp_pgp_cert *c, struct pp_pgp_key *sub,
		       const struct pgp_sig *s)
{
	if (s->type == PP_PGP_SIG_SUBKEY_REVOKE) {
		if (!check_key_sig(s, &c->primary, &c->primary, sub, NULL))
			sub->revoked = 1;
		return;
	}
	if (s->type != PP_PGP_SIG_SUBKEY ||
	    check_key_sig(s, &c->primary, &c->primary, sub, NULL))
		return;
	if (s->has_key_flags && (s->key_flags & PP_PGP_CAN_SIGN) &&
	    !back_signed(s, &c->primary, sub))
		return;
	apply_binding(sub, s, 0);
}

static void self_sig(struct kr_reader *r, struct pp_pgp_cert *c,
		     const struct pgp_sig *s)
{
	struct pp_pgp_uid *uid = r->on == ON_UID ? &c->uids[r->idx] : NULL;

	if (r->on == ON_SUBKEY) {
		subkey_sig(c, &c->subkeys[r->idx], s);
	} else if (r->on == ON_KEY && s->type == PP_PGP_SIG_KEY_REVOKE) {
		if (!check_key_sig(s, &c->primary, &c->primary, NULL, NULL))
			c->primary.revoked = 1;
	} else if (r->on == ON_KEY && s->type == PP_PGP_SIG_DIRECT) {
		if (!check_key_sig(s, &c->primary, &c->primary, NULL, NULL))
			apply_binding(&c->primary, s, 1);
	} else if (uid && s->type >= PP_PGP_SIG_CERT_GENERIC &&
		   s->type <= PP_PGP_SIG_CERT_POSITIVE &&
		   !check_key_sig(s, &c->primary, &c->primary, NULL, uid)) {
		uid->valid = 1;
		uid->primary |= s->primary_uid;
		apply_binding(&c->primary, s, 0);
	}
}

/* Signatures that do not parse or are by other keys are skipped, as gpg
 * skips them: they cannot make a key usable. */
static void add_sig(struct kr_reader *r, const struct pgp_packet *pkt)
{
	struct pp_pgp_cert *c = &r->kr->certs[r->kr->nr - 1];
	struct pp_err scratch;
	struct pgp_sig s;

	if (r->on == ON_UATTR)
		return;
	pp_err_init(&scratch);
	if (!pgp_sig_parse(&s, pkt->body, pkt->len, &scratch) &&
	    by_key(&s, &c->primary))
		self_sig(r, c, &s);
	pp_err_release(&scratch);
}

/* ---- packets --------------------------------------------------------------- */

static int kr_error(struct kr_reader *r, const struct pgp_packet *pkt,
		    const char *what, struct pp_err *err)
{
	return pp_err_set(err, PP_EXIT_INPUT, "%s: packet at offset %zu: %s",
			  r->name, pkt->offset, what);
}

static int add_key(struct kr_reader *r, const struct pgp_packet *pkt,
		   struct pp_err *err)
{
	struct pp_pgp_keyring *kr = r->kr;
	struct pp_pgp_cert *c;
	struct pp_pgp_key *k;

	if (pkt->tag == 6) {
		ARRAY_GROW(kr->certs, kr->alloc, kr->nr + 1);
		c = &kr->certs[kr->nr];
		memset(c, 0, sizeof(*c));
		k = &c->primary;
		r->on = ON_KEY;
	} else {
		c = &kr->certs[kr->nr - 1];
		ARRAY_GROW(c->subkeys, c->alloc_subkeys, c->nr_subkeys + 1);
		k = &c->subkeys[c->nr_subkeys];
		r->on = ON_SUBKEY;
		r->idx = c->nr_subkeys;
	}
	if (pgp_key_parse(k, pkt->body, pkt->len, err) < 0)
		return pp_err_prefix(err, "%s: packet at offset %zu: ",
				     r->name, pkt->offset);
	if (pkt->tag == 6)
		kr->nr++;
	else
		c->nr_subkeys++;
	return 0;
}

static void add_uid(struct kr_reader *r, const struct pgp_packet *pkt)
{
	struct pp_pgp_cert *c = &r->kr->certs[r->kr->nr - 1];
	struct pp_pgp_uid *u;

	ARRAY_GROW(c->uids, c->alloc_uids, c->nr_uids + 1);
	u = &c->uids[c->nr_uids];
	memset(u, 0, sizeof(*u));
	u->text = xstrndup((const char *)pkt->body, pkt->len);
	u->len = pkt->len;
	r->on = ON_UID;
	r->idx = c->nr_uids++;
}

static int add_packet(struct kr_reader *r, const struct pgp_packet *pkt,
		      struct pp_err *err)
{
	if (pkt->tag == 12 || pkt->tag == 10) /* trust, marker */
		return 0;
	if (pkt->tag == 5 || pkt->tag == 7)
		return kr_error(r, pkt, "a secret key; give the public key "
				"(gpg --export) instead", err);
	if (pkt->tag == 6)
		return add_key(r, pkt, err);
	if (!r->kr->nr)
		return kr_error(r, pkt, "the keyring does not start with a "
				"public-key packet", err);
	switch (pkt->tag) {
	case 14:
		return add_key(r, pkt, err);
	case 13:
		add_uid(r, pkt);
		return 0;
	case 17:
		r->on = ON_UATTR;
		return 0;
	case 2:
		add_sig(r, pkt);
		return 0;
	}
	return pp_err_set(err, PP_EXIT_INPUT, "%s: packet at offset %zu: a "
			  "kind of packet keyrings do not hold (tag %d)",
			  r->name, pkt->offset, pkt->tag);
}

/* gpg 2.1+ keeps its keys in a "keybox", which is not OpenPGP. */
static int is_keybox(const unsigned char *p, size_t len)
{
	return len >= 12 && !memcmp(p + 8, "KBXf", 4);
}

static int add_binary(struct pp_pgp_keyring *kr, const unsigned char *p,
		      size_t len, const char *name, struct pp_err *err)
{
	struct kr_reader r = { kr, name, ON_KEY, 0 };
	struct pgp_packet pkt;
	size_t pos = 0;
	int rc;

	if (is_keybox(p, len))
		return pp_err_set(err, PP_EXIT_INPUT, "%s is a GnuPG keybox "
				  "(pubring.kbx), not an OpenPGP keyring; use "
				  "the output of gpg --export", name);
	while ((rc = pgp_packet_next(p, len, &pos, &pkt, err)) > 0)
		if (add_packet(&r, &pkt, err) < 0)
			return -1;
	return rc < 0 ? pp_err_prefix(err, "%s: ", name) : 0;
}

static int add_armored(struct pp_pgp_keyring *kr, const void *data,
		       size_t len, const char *name, struct pp_err *err)
{
	struct strbuf bin = STRBUF_INIT;
	size_t pos = 0;
	char label[64];
	int r, rc = 0;

	while (!rc && (r = pp_pgp_dearmor(data, len, &pos, label, &bin,
					  err)) > 0) {
		if (strcmp(label, "PUBLIC KEY BLOCK"))
			rc = pp_err_set(err, PP_EXIT_INPUT, "%s: an armored %s "
					"where a PUBLIC KEY BLOCK belongs", name,
					label);
		else
			rc = add_binary(kr, (unsigned char *)bin.buf, bin.len,
					name, err);
		strbuf_reset(&bin);
	}
	strbuf_release(&bin);
	if (!rc && r < 0)
		rc = pp_err_prefix(err, "%s: ", name);
	return rc;
}

int pp_pgp_keyring_add(struct pp_pgp_keyring *kr, const void *data,
		       size_t len, const char *name, struct pp_err *err)
{
	size_t before = kr->nr;
	int rc = pp_pgp_is_armored(data, len) ?
		add_armored(kr, data, len, name, err) :
		add_binary(kr, data, len, name, err);

	if (!rc && kr->nr == before)
		return pp_err_set(err, PP_EXIT_INPUT, "%s holds no OpenPGP "
				  "public key", name);
	return rc;
}

int pp_pgp_keyring_load(struct pp_pgp_keyring *kr, const char *path,
			struct pp_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = pp_read_file(path, &sb, err);

	if (!rc)
		rc = pp_pgp_keyring_add(kr, sb.buf, sb.len, path, err);
	strbuf_release(&sb);
	return rc;
}

static int key_matches(const struct pp_pgp_key *k, const unsigned char *fpr,
		       const unsigned char *keyid)
{
	if (fpr)
		return !memcmp(k->fpr, fpr, PP_PGP_FPR_LEN);
	return keyid && !memcmp(k->keyid, keyid, PP_PGP_KEYID_LEN);
}

const struct pp_pgp_key *pp_pgp_keyring_find(const struct pp_pgp_keyring *kr,
					     const unsigned char *fpr,
					     const unsigned char *keyid,
					     const struct pp_pgp_cert **cert)
{
	for (size_t i = 0; i < kr->nr; i++) {
		const struct pp_pgp_cert *c = &kr->certs[i];
		const struct pp_pgp_key *k = NULL;

		if (key_matches(&c->primary, fpr, keyid))
			k = &c->primary;
		for (size_t j = 0; !k && j < c->nr_subkeys; j++)
			if (key_matches(&c->subkeys[j], fpr, keyid))
				k = &c->subkeys[j];
		if (k) {
			if (cert)
				*cert = c;
			return k;
		}
	}
	return NULL;
}

const char *pp_pgp_cert_uid(const struct pp_pgp_cert *c)
{
	for (size_t i = 0; i < c->nr_uids; i++)
		if (c->uids[i].valid && c->uids[i].primary)
			return c->uids[i].text;
	for (size_t i = 0; i < c->nr_uids; i++)
		if (c->uids[i].valid)
			return c->uids[i].text;
	return c->nr_uids ? c->uids[0].text : NULL;
}
