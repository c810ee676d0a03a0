/* Errors travel up as a struct pp_err filled where the problem is found and
 * printed in one place (padpack.c). Library code never prints. */
#ifndef PP_ERROR_H
#define PP_ERROR_H

#include "strbuf.h"

/* Exit codes of padpack; documented in doc/hardening.md, padpack(1) and
 * --help. */
enum pp_exit {
	PP_EXIT_OK = 0,
	PP_EXIT_FAIL = 1,      /* ran, and the answer is no (a check failed) */
	PP_EXIT_USAGE = 2,     /* bad command line */
	PP_EXIT_INPUT = 3,     /* invalid input: control file, package, spec */
	PP_EXIT_IO = 4,        /* a file could not be read or written */
	PP_EXIT_BUILD = 5,     /* an external build step failed */
	PP_EXIT_UNSIGNED = 10, /* verify: the package carries no signature */
	PP_EXIT_BADSIG = 11,   /* verify: the signature does not match */
	PP_EXIT_NOKEY = 12,    /* verify: signed by a key not in the keyring */
	PP_EXIT_MISMATCH = 13, /* verify: a file differs from its checksum */
};

struct pp_err {
	int code;              /* enum pp_exit; PP_EXIT_OK while no error */
	char msg[4096];
	struct strbuf warnings; /* one warning per line, printed by the caller */
};

void pp_err_init(struct pp_err *err);
void pp_err_release(struct pp_err *err);
/* Records an error; returns -1 so callers can `return pp_err_set(...)`. */
int pp_err_set(struct pp_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Like pp_err_set, appending ": strerror(errno)". */
int pp_err_errno(struct pp_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Puts context in front of an error already recorded ("x.deb: " + msg). */
int pp_err_prefix(struct pp_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Takes over src's error and warnings (from a thread's own pp_err); src
 * is left empty. Returns -1. */
int pp_err_move(struct pp_err *dst, struct pp_err *src);
void pp_warn(struct pp_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
