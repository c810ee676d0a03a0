/* Making document signatures: streaming, detached (binary or armored) and
 * cleartext (InRelease). The profile is sqv's: hashed issuer fingerprint
 * and creation time, unhashed issuer key ID, SHA-256 or SHA-512. */
#include <string.h>

#include "pgpint.h"

static int sign_md(const struct pp_pgp_sign_opts *o, struct pp_err *err)
{
	int md = o && o->md ? o->md : PP_PGP_SHA256;
	const char *why;

	if (!pgp_md_acceptable(md, &why))
		return pp_err_set(err, PP_EXIT_USAGE, "padpack does not sign "
				  "with %s", why);
	return md;
}

int pp_pgp_sign_begin(struct pp_pgp_signing *sg, const struct pp_pgp_signer *s,
		      int type, const struct pp_pgp_sign_opts *o,
		      struct pp_err *err)
{
	struct pgp_digest d;
	const char *why;
	char fpr[41];

	memset(sg, 0, sizeof(*sg));
	sg->md_algo = sign_md(o, err);
	if (sg->md_algo < 0)
		return -1;
	sg->time = o && o->time ? o->time : (uint32_t)time(NULL);
	pp_pgp_hex(s->key->fpr, PP_PGP_FPR_LEN, fpr);
	if (sg->time < s->key->created)
		return pp_err_set(err, PP_EXIT_INPUT, "key %s was created after "
				  "the signature time; check the clock", fpr);
	if (!pgp_key_can_sign(s->key, sg->time, &why))
		return pp_err_set(err, PP_EXIT_INPUT, "key %s cannot sign: %s",
				  fpr, why);
	pgp_digest_init(&d, sg->md_algo, type == PP_PGP_SIG_TEXT);
	sg->md = d.ctx;
	sg->s = s;
	sg->type = type;
	return 0;
}

static struct pgp_digest digest_of(struct pp_pgp_signing *sg)
{
	struct pgp_digest d = { sg->md, sg->type == PP_PGP_SIG_TEXT,
				sg->last_cr };

	return d;
}

void pp_pgp_sign_update(struct pp_pgp_signing *sg, const void *data,
			size_t len)
{
	struct pgp_digest d = digest_of(sg);

	pgp_digest_update(&d, data, len);
	sg->last_cr = d.last_cr;
}

int pp_pgp_sign_finish(struct pp_pgp_signing *sg, struct strbuf *out,
		       struct pp_err *err)
{
	struct pgp_digest d = digest_of(sg);
	struct strbuf hashed = STRBUF_INIT;
	int rc;

	pgp_sig_hashed_part(&hashed, sg->s->key, sg->type, sg->md_algo,
			    sg->time, NULL);
	rc = pgp_sig_make(sg->s->pkey, sg->s->key, &d, &hashed, out, err);
	strbuf_release(&hashed);
	sg->md = NULL;
	return rc;
}

void pp_pgp_sign_abort(struct pp_pgp_signing *sg)
{
	struct pgp_digest d = digest_of(sg);

	pgp_digest_free(&d);
	sg->md = NULL;
}

int pp_pgp_detach_sign(const struct pp_pgp_signer *s, const void *data,
		       size_t len, const struct pp_pgp_sign_opts *o, int armor,
		       struct strbuf *out, struct pp_err *err)
{
	struct strbuf sig = STRBUF_INIT;
	struct pp_pgp_signing sg;
	int rc;

	if (pp_pgp_sign_begin(&sg, s, PP_PGP_SIG_BINARY, o, err) < 0)
		return -1;
	pp_pgp_sign_update(&sg, data, len);
	rc = pp_pgp_sign_finish(&sg, &sig, err);
	if (!rc && armor)
		pp_pgp_armor(out, "SIGNATURE", sig.buf, sig.len);
	else if (!rc)
		strbuf_add(out, sig.buf, sig.len);
	strbuf_release(&sig);
	return rc;
}

int pp_pgp_clearsign(const struct pp_pgp_signer *s, const void *text,
		     size_t len, const struct pp_pgp_sign_opts *o,
		     struct strbuf *out, struct pp_err *err)
{
	struct strbuf canonical = STRBUF_INIT, sig = STRBUF_INIT;
	struct pp_pgp_signing sg;
	int rc;

	if (memchr(text, '\0', len))
		return pp_err_set(err, PP_EXIT_INPUT, "the text holds a NUL "
				  "byte; cleartext signatures are for text, use "
				  "a detached signature");
	if (pp_pgp_sign_begin(&sg, s, PP_PGP_SIG_TEXT, o, err) < 0)
		return -1;
	pgp_cleartext_canonical(text, len, &canonical);
	pp_pgp_sign_update(&sg, canonical.buf, canonical.len);
	rc = pp_pgp_sign_finish(&sg, &sig, err);
	if (!rc)
		pgp_cleartext_write(out, sg.md_algo, text, len, &sig);
	strbuf_release(&canonical);
	strbuf_release(&sig);
	return rc;
}
