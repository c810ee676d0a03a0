/* Debian version numbers, as deb-version(7) defines them. */
#ifndef PP_VERSION_H
#define PP_VERSION_H

#include "error.h"

struct pp_version {
	unsigned long epoch;
	char *upstream;
	char *revision; /* "" when the version has none */
};

/* Parses and validates s. On error returns -1 with a message that names
 * the problem (as dpkg words it) but not where the version came from. */
int pp_version_parse(struct pp_version *v, const char *s, struct pp_err *err);
void pp_version_release(struct pp_version *v);
/* <0, 0, >0 as a sorts before, equal to or after b. */
int pp_version_cmp(const struct pp_version *a, const struct pp_version *b);

enum pp_relop { PP_REL_LT, PP_REL_LE, PP_REL_EQ, PP_REL_GE, PP_REL_GT };

/* Parses "<<", "<=", "=", ">=", ">>" (and dpkg's lt, le, eq, ge, gt, and
 * the obsolete "<" / ">", meaning <= and >=); -1 when not an operator. */
int pp_relop_parse(const char *s, enum pp_relop *op);
int pp_relop_holds(int cmp, enum pp_relop op);

#endif
