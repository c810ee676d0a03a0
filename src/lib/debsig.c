/* Origin signatures of .deb files (debsig.h): signing rewrites the ar
 * container once; verifying reads the package once, hashing the signed
 * members' raw bytes while the data member's files are hashed for the
 * md5sums check. */
#include "debsig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "xalloc.h"

/* ---- signing --------------------------------------------------------------- */

struct rewrite {
	struct pp_deb *deb;
	struct pp_outfile *of;
	struct pp_pgp_signing *sg;
	struct pp_err *err;
};

static int write_out(struct rewrite *w, const void *buf, size_t len)
{
	if (pp_write_all(w->of->fd, buf, len) < 0)
		return pp_err_errno(w->err, PP_EXIT_IO, "cannot write '%s'",
				    w->of->tmp);
	return 0;
}

static int is_signed_member(const struct pp_deb *deb,
			    const struct pp_ar_member *m)
{
	return m->header == deb->binary.header ||
	       m->header == deb->control.header ||
	       m->header == deb->data.header;
}

/* Copies a member's header, data and padding as they are, feeding the
 * data of the signed members to the signature. */
static int copy_member(struct rewrite *w, const struct pp_ar_member *m)
{
	int sign = is_signed_member(w->deb, m);
	static const char pad = '\n';
	char buf[65536];
	off_t pos = 0;

	if (pread(w->deb->ar.fd, buf, PP_AR_HDR, m->header) != PP_AR_HDR)
		return pp_err_errno(w->err, PP_EXIT_IO, "cannot read '%s'",
				    w->deb->ar.path);
	if (write_out(w, buf, PP_AR_HDR) < 0)
		return -1;
	while (pos < m->size) {
		off_t left = m->size - pos;
		size_t n = left < (off_t)sizeof(buf) ? (size_t)left : sizeof(buf);

		if (pp_ar_read(&w->deb->ar, m, pos, buf, n, w->err) < 0 ||
		    write_out(w, buf, n) < 0)
			return -1;
		if (sign)
			pp_pgp_sign_update(w->sg, buf, n);
		pos += (off_t)n;
	}
	return m->size & 1 ? write_out(w, &pad, 1) : 0;
}

/* The new member: header as dpkg-deb writes one (the package's time,
 * root, 100644), the signature, padding. */
static int append_origin(struct rewrite *w, const struct strbuf *sig)
{
	char hdr[PP_AR_HDR + 1];

	snprintf(hdr, sizeof(hdr), "%-16s%-12lld%-6s%-6s%-8s%-10zu`\n",
		 PP_DEBSIG_ORIGIN, w->deb->binary.mtime, "0", "0", "100644",
		 sig->len);
	if (write_out(w, hdr, PP_AR_HDR) < 0 ||
	    write_out(w, sig->buf, sig->len) < 0)
		return -1;
	return sig->len & 1 ? write_out(w, "\n", 1) : 0;
}

static int rewrite_members(struct rewrite *w)
{
	struct pp_ar_member m;
	int r;

	if (write_out(w, PP_AR_MAGIC, 8) < 0)
		return -1;
	pp_ar_rewind(&w->deb->ar);
	while ((r = pp_ar_next(&w->deb->ar, &m, w->err)) > 0)
		if (strcmp(m.name, PP_DEBSIG_ORIGIN) && copy_member(w, &m) < 0)
			return -1;
	return r;
}

static int sign_into(struct pp_deb *deb, struct pp_outfile *of,
		     const struct pp_pgp_signer *s,
		     const struct pp_pgp_sign_opts *o, struct pp_err *err)
{
	struct strbuf sig = STRBUF_INIT;
	struct pp_pgp_signing sg;
	struct rewrite w = { deb, of, &sg, err };
	int rc;

	if (pp_pgp_sign_begin(&sg, s, PP_PGP_SIG_BINARY, o, err) < 0)
		return -1;
	rc = rewrite_members(&w);
	if (rc < 0)
		pp_pgp_sign_abort(&sg);
	else
		rc = pp_pgp_sign_finish(&sg, &sig, err);
	if (!rc)
		rc = append_origin(&w, &sig);
	strbuf_release(&sig);
	return rc;
}

int pp_debsig_sign(const char *in, const char *out,
		   const struct pp_pgp_signer *s,
		   const struct pp_pgp_sign_opts *o, struct pp_err *err)
{
	struct pp_outfile of;
	struct pp_deb deb;
	struct stat st;
	int rc;

	if (pp_deb_open(&deb, in, err) < 0)
		return -1;
	if (fstat(deb.ar.fd, &st) < 0) {
		pp_deb_close(&deb);
		return pp_err_errno(err, PP_EXIT_IO, "cannot stat '%s'", in);
	}
	rc = pp_outfile_open(&of, out, st.st_mode & 07777, err);
	if (!rc) {
		rc = sign_into(&deb, &of, s, o, err);
		if (rc)
			pp_outfile_abort(&of);
		else
			rc = pp_outfile_commit(&of, err);
	}
	pp_deb_close(&deb);
	return rc;
}
