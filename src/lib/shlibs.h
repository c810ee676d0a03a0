/* Shared-library metadata of Debian packages: SONAME -> package name (as
 * Debian policy names runtime packages), shlibs files (deb-shlibs(5)) and
 * symbols files (deb-symbols(5)): reading them as dpkg-shlibdeps does, and
 * writing them as dh_makeshlibs and dpkg-gensymbols do. */
#ifndef PP_SHLIBS_H
#define PP_SHLIBS_H

#include <stddef.h>

#include "elfinfo.h"
#include "error.h"
#include "strbuf.h"
#include "strlist.h"

/* Splits NAME.so.VER into NAME and VER, or NAME-VER.so into NAME and VER;
 * returns 0, or -1 (nothing allocated) when the SONAME has neither form. */
int pp_soname_split(const char *soname, char **name, char **version);
/* The runtime package of a SONAME by Debian policy 8.1: libfoo.so.1 ->
 * libfoo1, libfoo2.so.0 -> libfoo2-0, libfoo-1.2.so -> libfoo-1.2,
 * lower-cased and '_' made '-'. NULL when the SONAME has neither form. */
char *pp_soname_package(const char *soname);
/* The -dev package of a SONAME: libfoo.so.1 -> libfoo-dev. */
char *pp_soname_dev_package(const char *soname);

/* One symbol of a symbols file. */
struct pp_symbol_entry {
	char *name;     /* name@version, as looked up */
	char *minver;   /* the minimal version providing it */
	unsigned dep_id; /* which dependency template: 0 the main one */
};

/* The symbols file's part about one SONAME. */
struct pp_symbols_object {
	char *soname;
	struct pp_strlist deps;   /* [0] the template, then '|' alternatives */
	struct pp_strlist fields; /* "Name: value" of '*' lines */
	struct pp_symbol_entry *syms; /* sorted by name */
	size_t nr_syms, alloc_syms;
};

struct pp_symbols_file {
	struct pp_symbols_object *objs;
	size_t nr, alloc;
};

/* Parses a symbols file. Symbols restricted to other architectures (the
 * arch= tag) and pattern entries (c++, regex, symver tags) are left out:
 * dpkg-shlibdeps looks plain names up. arch may be NULL (no filtering). */
int pp_symbols_parse(const char *buf, size_t len, const char *file,
		     const char *arch, struct pp_symbols_file *out,
		     struct pp_err *err);
void pp_symbols_release(struct pp_symbols_file *sf);
const struct pp_symbols_object *pp_symbols_find(const struct pp_symbols_file *sf,
						const char *soname);
/* The entry for "name@version" (version "Base" when the symbol has none). */
const struct pp_symbol_entry *pp_symbols_lookup(
	const struct pp_symbols_object *obj, const char *name_at_version);
/* The smallest minimal version of the symbols of dependency 0, or NULL. */
const char *pp_symbols_smallest(const struct pp_symbols_object *obj);
/* A '*' field of the object, e.g. Build-Depends-Package; NULL if none. */
const char *pp_symbols_field(const struct pp_symbols_object *obj,
			     const char *name);

/* Looks soname up in shlibs text; type is "deb" or "udeb". Returns 1 and
 * the dependency (may be "") in *dep when found, 0 when not. */
int pp_shlibs_lookup(const char *buf, size_t len, const char *soname,
		     const char *type, char **dep);

/* The shlibs line of a library: "libfoo 1 libfoo1 (>= 1.0)". */
int pp_shlibs_line(const char *soname, const char *depends,
		   struct strbuf *out);
/* Whether most of a library's exported symbols are C++ (mangled "_Z"
 * names): such a library gets a shlibs file only, as dh_makeshlibs gives
 * it without a hand-kept template. A symbols file of every symbol at
 * the first version yields the same dependency as the shlibs line, and
 * for C++ it is megabytes of mangled names (2.9 MB for clang-cpp 14). */
int pp_symbols_mostly_cxx(const struct pp_elf_info *lib);
/* A symbols file for one library as dpkg-gensymbols writes it for a first
 * release: every exported symbol with minver (header, optional
 * Build-Depends-Package field, symbols sorted). */
void pp_symbols_write(const char *soname, const char *package,
		      const char *build_depends_package,
		      const struct pp_elf_info *lib, const char *minver,
		      struct strbuf *out);

#endif
