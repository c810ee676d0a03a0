/* Internals of the spec loader shared by spec.c (reading the settings)
 * and spec_schema.c (which settings exist, and of which type). */
#ifndef PP_SPECINT_H
#define PP_SPECINT_H

#include <libconfig.h>

#include "error.h"
#include "spec.h"
#include "strbuf.h"

enum pp_stype {
	PP_ST_STRING,
	PP_ST_BOOL,
	PP_ST_INT,
	PP_ST_STRINGS,  /* [ "a", "b" ] or ( "a", "b" ) */
	PP_ST_GROUP,    /* { known keys } */
	PP_ST_GROUPS,   /* ( { known keys }, ... ) */
	PP_ST_MAP,      /* { ANY_NAME = "string"; ... } */
};

#define PP_SK_REQUIRED 1u

struct pp_skey {
	const char *name;
	enum pp_stype type;
	unsigned flags;
	const struct pp_skey *sub; /* keys of a group, or of each group */
	const char *what;          /* what is allowed, for messages */
};

/* The keys of the top level of a spec. */
extern const struct pp_skey pp_spec_schema[];

/* Checks that every setting of the file is known and has its type, and
 * that required ones are there. */
int pp_spec_check_schema(const config_setting_t *root, const char *file,
			 struct pp_err *err);

/* "FILE:LINE: setting 'PATH': " for messages about s. */
void pp_setting_where(const config_setting_t *s, const char *file,
		      struct strbuf *out);
/* Records "WHERE problem" as an invalid-input error; returns -1. */
int pp_setting_error(const config_setting_t *s, const char *file,
		     struct pp_err *err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Reads every setting but exclude into spec (spec_read.c); the schema
 * must have been checked. */
int pp_spec_read(const config_setting_t *root, const char *file,
		 struct pp_spec *spec, struct pp_err *err);
/* Frees what pp_spec_read filled in the build section and the axes. */
void pp_spec_release_settings(struct pp_spec *spec);
/* Whether s can be the name in @name@. */
int pp_is_placeholder_name(const char *s);

#endif
