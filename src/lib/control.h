/* deb822 control data: parse, validate, edit and write stanzas
 * (deb-control(5), Debian Policy ch. 5). No knowledge of files or CLI. */
#ifndef PP_CONTROL_H
#define PP_CONTROL_H

#include <stddef.h>

#include "error.h"
#include "strbuf.h"
#include "version.h"

struct pp_field {
	char *name;
	/* First line without surrounding blanks; each continuation line
	 * follows after "\n" with its leading space kept. */
	char *value;
	unsigned line;
};

struct pp_stanza {
	struct pp_field *fields;
	size_t nr, alloc;
	unsigned line; /* line of the first field */
};

/* What a deb822 text is, for the wording of its errors: a control file
 * (or another file people write: conf/distributions, a .sources), told
 * what to write instead; or an index a tool wrote, named as what it is
 * and given no advice to edit it (its reader says what to do). */
enum pp_deb822_kind {
	PP_DEB822_CONTROL,
	PP_DEB822_RELEASE,
	PP_DEB822_PACKAGES,
};

struct pp_deb822 {
	const char *buf, *file;
	size_t len, pos;
	unsigned line;
	int allow_comments; /* '#' lines are comments (not in binary control) */
	enum pp_deb822_kind kind; /* PP_DEB822_CONTROL unless set */
};

void pp_deb822_init(struct pp_deb822 *p, const char *buf, size_t len,
		    const char *file);
/* Reads the next stanza: 1 when one was read, 0 at the end, -1 on error. */
int pp_deb822_next(struct pp_deb822 *p, struct pp_stanza *st,
		   struct pp_err *err);

/* A field as it lies in the text read, nothing copied: for a reader that
 * takes a few fields of many stanzas (repo verify of a Packages index). */
struct pp_field_span {
	const char *name, *value; /* value: its first line, without the
				   * blanks around it */
	size_t nlen, vlen;
	/* its continuation lines (with any comment lines between them),
	 * from the first one's start to the last one's end; NULL: none */
	const char *more;
	size_t mlen;
	unsigned line;
};

struct pp_stanza_spans {
	struct pp_field_span *fields;
	size_t nr, alloc; /* kept from stanza to stanza */
	unsigned line;    /* line of the first field */
};

/* Reads the next stanza as pp_deb822_next does (the same checks, the same
 * messages), as spans into p's text: 1, 0 at the end, -1 on error. */
int pp_deb822_scan(struct pp_deb822 *p, struct pp_stanza_spans *st,
		   struct pp_err *err);
void pp_stanza_spans_release(struct pp_stanza_spans *st);
/* The field named name (nlen octets, any case), or NULL. */
const struct pp_field_span *pp_spans_find(const struct pp_stanza_spans *st,
					  const char *name, size_t nlen);
/* Appends f's value as pp_deb822_next gives it (continuation lines after
 * "\n", each without the blanks at its end). */
void pp_field_span_value(const struct pp_field_span *f, struct strbuf *out);

/* Parses text that must hold exactly one stanza (a DEBIAN/control file). */
int pp_control_parse(const char *buf, size_t len, const char *file,
		     struct pp_stanza *st, struct pp_err *err);
/* The same for a text of the given kind (a Release file), its errors
 * worded for it. */
int pp_deb822_parse_one(const char *buf, size_t len, const char *file,
			enum pp_deb822_kind kind, struct pp_stanza *st,
			struct pp_err *err);
/* Reads one stanza as forgivingly as dpkg-deb's readers, for looking
 * into broken packages: lines that are not fields, continuation lines
 * without a field, duplicate fields, a missing final newline and text
 * after the stanza are skipped or taken with a warning each (to
 * err->warnings); never fails. */
void pp_control_parse_lenient(const char *buf, size_t len, const char *file,
			      struct pp_stanza *st, struct pp_err *err);

void pp_stanza_init(struct pp_stanza *st);
void pp_stanza_release(struct pp_stanza *st);
struct pp_field *pp_stanza_find(const struct pp_stanza *st, const char *name);
const char *pp_stanza_get(const struct pp_stanza *st, const char *name);
/* Sets a field, replacing its value or adding it where dpkg-gencontrol
 * would put it in a binary package's control file. */
void pp_stanza_set(struct pp_stanza *st, const char *name, const char *value);
void pp_stanza_remove(struct pp_stanza *st, const char *name);
void pp_stanza_write(const struct pp_stanza *st, struct strbuf *out);
/* Where the stanza at s ends: the first "\n\n" in s[0..len), or NULL.
 * (memchr is vectorised; memmem with a two-byte needle is not.) */
const char *pp_stanza_end(const char *s, size_t len);

/* Appends the value of field name as dpkg-deb --field shows it (the
 * field's name as dpkg spells it in *shown_name): relationship fields in
 * dpkg's canonical form on one line, Version without a zero epoch and with
 * the obsolete Revision fields folded in, Essential and Protected as yes
 * or no, nothing for fields dpkg does not show from a package file.
 * header: several fields are shown, and "no" values are left out, as
 * dpkg-deb does. Returns 1 when there is a value to show. Warnings (a
 * field dpkg would warn about or refuse) go to err. */
int pp_field_show(const struct pp_stanza *st, const char *name, int header,
		  const char **shown_name, struct strbuf *out,
		  struct pp_err *err);

/* Rank of a field in dpkg's binary-control order (unknown fields last). */
int pp_field_rank(const char *name);

/* Checks a binary package's control stanza the way dpkg-deb --build does,
 * and more strictly where Debian Policy requires. file names the origin
 * for messages; warnings go to err->warnings. */
int pp_control_check_binary(const struct pp_stanza *st, const char *file,
			    struct pp_err *err);
int pp_check_package_name(const char *name, struct pp_err *err);
int pp_check_arch_name(const char *arch, struct pp_err *err);

/* One package reference of a relationship field. */
struct pp_dep_atom {
	char *name;
	char *arch;     /* after ':', or NULL */
	int has_version;
	enum pp_relop op;
	char *version;
};

struct pp_dep_group { /* alternatives: a | b | c */
	struct pp_dep_atom *alts;
	size_t nr, alloc;
};

struct pp_deps {
	struct pp_dep_group *groups;
	size_t nr, alloc;
};

enum pp_deps_kind {
	PP_DEPS_DEPENDS,  /* Depends and friends: alternatives allowed */
	PP_DEPS_PROVIDES, /* only "=" versions, no alternatives */
	PP_DEPS_CONFLICTS /* Conflicts, Breaks, Replaces: no alternatives */
};

int pp_deps_parse(const char *value, enum pp_deps_kind kind,
		  struct pp_deps *out, struct pp_err *err);
void pp_deps_release(struct pp_deps *deps);
void pp_deps_write(const struct pp_deps *deps, struct strbuf *out);

#endif
