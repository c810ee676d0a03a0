/* debsigs-compatible package signatures (formats.md 6): an ar member
 * _gpgorigin holding a binary OpenPGP detached signature over the contents
 * of debian-binary, control.tar.* and data.tar.*, in that order, as
 * debsigs --sign=origin writes and debsig-verify checks. */
#ifndef PP_DEBSIG_H
#define PP_DEBSIG_H

#include "deb.h"
#include "pgp.h"

#define PP_DEBSIG_ORIGIN "_gpgorigin"

/* Writes the package in to out (may be the same path) with an origin
 * signature by s after data.tar, in place of any earlier one (never a
 * second). The input is read once; out appears only when complete, so a
 * failure leaves the input as it was. o may be NULL. */
int pp_debsig_sign(const char *in, const char *out,
		   const struct pp_pgp_signer *s,
		   const struct pp_pgp_sign_opts *o, struct pp_err *err);

/* What pp_debsig_verify found; filled as far as it got. */
struct pp_debsig_report {
	int signed_;                  /* has a _gpgorigin member */
	int sig_checked;              /* sig describes a checked signature */
	struct pp_pgp_verdict sig;
	int has_md5sums;
	size_t files;                 /* regular files in data.tar */
	size_t checked;               /* of them compared with md5sums */
	size_t unlisted;              /* of them not in md5sums */
	char **bad;                   /* paths that differ or are missing */
	size_t nr_bad, alloc_bad;
};

/* Checks the origin signature against kr and, in the same read, every
 * file of data.tar against the package's md5sums (a package without
 * md5sums is checked by its signature alone; has_md5sums says so).
 * Returns 0 when both hold; else -1 with err->code:
 *   PP_EXIT_INPUT     the package (or its md5sums) is malformed
 *   PP_EXIT_IO        it could not be read
 *   PP_EXIT_UNSIGNED  it has no _gpgorigin member
 *   PP_EXIT_BADSIG    the signature is bad, malformed, or unacceptable
 *   PP_EXIT_NOKEY     it was made by a key not in kr
 *   PP_EXIT_MISMATCH  signed, but files differ from md5sums (rep->bad) */
int pp_debsig_verify(const char *path, const struct pp_pgp_keyring *kr,
		     time_t now, struct pp_debsig_report *rep,
		     struct pp_err *err);
/* The same, telling progress (may be NULL) the bytes read. */
struct pp_progress;
int pp_debsig_verify_progress(const char *path,
			      const struct pp_pgp_keyring *kr, time_t now,
			      struct pp_progress *progress,
			      struct pp_debsig_report *rep, struct pp_err *err);
void pp_debsig_report_release(struct pp_debsig_report *rep);

#endif
