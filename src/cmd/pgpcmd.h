/* What the signing commands (key, sign, verify, clearsign, detach-sign,
 * verify-sig) share: loading keys, and saying who signed. */
#ifndef PP_PGPCMD_H
#define PP_PGPCMD_H

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../lib/pgp.h"
#include "cmds.h"

#define PGPCMD_MAX_KEYRINGS 16

/* The options of the signing commands. */
struct sign_args {
	const char *key, *passfile, *out;
	int armor;                   /* --armor, where allowed */
	struct pp_pgp_sign_opts opts; /* --digest */
	int quiet;
};

/* Parses --key, --passphrase-file, -o/--output, --digest, -q (and --armor
 * when allow_armor); leaves optind at the first operand. */
int pgpcmd_sign_args(int argc, char **argv, struct sign_args *a,
		     int allow_armor, struct pp_err *err);
/* Loads the signing key K (a key directory or its secret.pem), reading
 * the passphrase from the first line of passfile when it is not NULL. */
int pgpcmd_load_signer(struct pp_pgp_signer *s, const char *key,
		       const char *passfile, struct pp_err *err);
/* Reads a passphrase: the first line of file, without its newline. The
 * caller frees (and should clear) it. */
int pgpcmd_passphrase(const char *file, char **out, struct pp_err *err);
/* Loads every keyring into kr, which the caller releases either way. */
int pgpcmd_load_keyrings(struct pp_pgp_keyring *kr, const char *const *paths,
			 size_t n, struct pp_err *err);
/* --digest NAME: sha256 or sha512 (also sha384, sha224). */
int pgpcmd_digest(const char *name, int *md, struct pp_err *err);
void pgpcmd_time(uint32_t t, char buf[32]);
/* Prints s with control characters as \xNN (user IDs are untrusted). */
void pgpcmd_print_safe(FILE *f, const char *s);
/* "signed by", key, time and digest of a verdict, as text. */
void pgpcmd_print_verdict(FILE *f, const struct pp_pgp_verdict *v);
/* Writes data to path atomically, or to standard output for "-". */
int pgpcmd_write(const char *path, const void *data, size_t len,
		 struct pp_err *err);
/* pgpcmd_write, then (unless quiet or to standard output) "padpack:
 * wrote 'PATH', signed with ..." on standard output. */
int pgpcmd_write_signed(const char *path, const struct strbuf *data,
			const struct pp_pgp_signer *s, int quiet,
			struct pp_err *err);
/* The signer's fingerprint and user ID, for "signed with ..." lines. */
void pgpcmd_print_signer(FILE *f, const struct pp_pgp_signer *s);

#endif
