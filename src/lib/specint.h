/* Internals of the spec loader shared by spec.c, spec_read.c and
 * spec_packages.c (reading the settings) and spec_schema.c (which
 * settings exist, and of which type). */
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
/* Whether s can be the name in @name@ (spec_setting.c). */
int pp_is_placeholder_name(const char *s);

/* ---- reading one setting (spec_setting.c), for spec_read.c and
 * spec_packages.c ---- */

/* What reading one spec's settings needs at hand. */
struct pp_spec_loader {
	const char *file;
	struct pp_err *err;
	struct pp_spec *spec;
	struct pp_strlist names; /* placeholders known everywhere */
};

/* Characters for pp_spec_is_word's sets. */
#define LOWER "abcdefghijklmnopqrstuvwxyz"
#define DIGIT "0123456789"
#define UPPER "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

/* s is one character of first followed by characters of rest. */
int pp_spec_is_word(const char *s, const char *first, const char *rest);
int pp_spec_is_package_name(const char *s);
int pp_spec_is_abs_path(const char *s);
int pp_spec_any_string(const char *s);
/* Whether s is in the NULL-ended list. */
int pp_spec_in_list(const char *const *list, const char *s);
/* Checks the @name@ placeholders of s against the names in scope. */
int pp_spec_check_template(struct pp_spec_loader *L,
			   const config_setting_t *at, const char *s,
			   const struct pp_strlist *local);
/* Reads the string setting key of g (NULL when absent) into *out, after
 * checking it with valid() (NULL: any non-empty string). */
int pp_spec_read_string(struct pp_spec_loader *L, const config_setting_t *g,
			const char *key, char **out,
			int (*valid)(const char *), const char *what);
/* Reads a list of strings; templates are checked when scope is given. */
int pp_spec_read_strings(struct pp_spec_loader *L, const config_setting_t *g,
			 const char *key, struct pp_strlist *out,
			 const struct pp_strlist *scope, int templates);
/* Reads a template setting, its placeholders checked. */
int pp_spec_read_template(struct pp_spec_loader *L, const config_setting_t *g,
			  const char *key, char **out);
/* The packages section (spec_packages.c). */
int pp_spec_read_packages(struct pp_spec_loader *L,
			  const config_setting_t *root);

#endif
