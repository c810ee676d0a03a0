/* padpack split, the naming and grouping rules learned from Debian 12's
 * packages (see README.md, "Splitting into packages"): pure functions of
 * names and sizes, so that each rule is tested on its own. */
#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shlibs.h"
#include "splitint.h"
#include "xalloc.h"

/* "libpng1.6" -> "libpng", "libfoo-2.1" -> "libfoo": a version with a dot
 * at the end of a name; "libxml2" and "libcap2" keep their digit, as
 * Debian's libxml2-utils and libcap2-bin do. */
static char *strip_dotted_version(const char *name)
{
	size_t n = strlen(name), k = n;

	while (k && (isdigit((unsigned char)name[k - 1]) || name[k - 1] == '.'))
		k--;
	if (k < n && memchr(name + k, '.', n - k) && k > 3) {
		if (name[k - 1] == '-')
			k--;
		return xstrndup(name, k);
	}
	return xstrdup(name);
}

static int is_package_word(const char *s)
{
	if (strlen(s) < 2 || !isalnum((unsigned char)*s))
		return 0;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) &&
		    !strchr("+-.", *s))
			return 0;
	return 1;
}

char *pp_split_tools_package(const char *source, const struct pp_strlist *programs,
			     struct strbuf *why)
{
	char *stem, *out;

	if (strncmp(source, "lib", 3)) {
		strbuf_addstr(why, "programs of a source not named lib* -> the "
			      "package named after the source (flac, zstd, "
			      "sqlite3)");
		return xstrdup(source);
	}
	if (programs->nr == 1 && is_package_word(programs->items[0]) &&
	    strcmp(programs->items[0], source)) {
		strbuf_addstr(why, "the one program of a lib* source -> the "
			      "package named after the program (xsltproc, "
			      "idn2, zipcmp)");
		return xstrdup(programs->items[0]);
	}
	stem = strip_dotted_version(source);
	out = xmalloc(strlen(stem) + 7);
	sprintf(out, "%s-tools", stem);
	free(stem);
	strbuf_addstr(why, "the programs of a lib* source -> lib*-tools "
		      "(libarchive-tools, libpng-tools, libtiff-tools), "
		      "never a name ending in a digit, which reads as a "
		      "library package");
	return out;
}

/* "libfoo" -> "foo", "foo" -> "foo". */
static const char *without_lib(const char *name)
{
	return strncmp(name, "lib", 3) || !name[3] ? name : name + 3;
}

char *pp_split_dev_package(const char *source, const struct pp_strlist *sonames)
{
	char *out, *dev;

	if (sonames->nr == 1 && (dev = pp_soname_dev_package(sonames->items[0])))
		return dev;
	out = xmalloc(strlen(source) + 8);
	sprintf(out, "lib%s-dev", without_lib(source));
	return out;
}

/* The library named like the source, libxslt.so.1 of libxslt: its
 * package names the group (libxslt1.1 holds libexslt.so.0 too). */
char *pp_split_runtime_group(const char *source, const struct pp_strlist *sonames)
{
	const char *best = NULL, *stem = without_lib(source);

	for (size_t i = 0; i < sonames->nr; i++) {
		const char *so = sonames->items[i], *name = without_lib(so);
		size_t n = strlen(stem);

		if (!strncmp(name, stem, n) && (name[n] == '.' || name[n] == '-'))
			return pp_soname_package(so);
		if (!best || strcmp(so, best) < 0)
			best = so;
	}
	return best ? pp_soname_package(best) : NULL;
}

int pp_split_is_dev_path(const char *path)
{
	static const char *const globs[] = {
		"usr/bin/*-config", "bin/*-config", /* pcre2-config ... */
		"usr/share/aclocal/*", "usr/share/gir-1.0/*",
		"usr/share/vala/vapi/*", "usr/share/pkgconfig/*",
		"usr/lib/*Conf.sh", "usr/lib/*Config.sh", /* xsltConf.sh */
		NULL,
	};

	for (const char *const *g = globs; *g; g++)
		if (!fnmatch(*g, path, FNM_PATHNAME) ||
		    (strncmp(*g, "usr/bin/", 8) && !fnmatch(*g, path, 0)))
			return 1;
	return 0;
}

char *pp_split_doc_package(const char *source, const char *dev)
{
	size_t n = dev ? strlen(dev) : 0;
	char *out;

	if (n > 4 && !strcmp(dev + n - 4, "-dev")) {
		out = xmalloc(n + 1);
		sprintf(out, "%.*s-doc", (int)(n - 4), dev);
		return out;
	}
	out = xmalloc(strlen(source) + 5);
	sprintf(out, "%s-doc", source);
	return out;
}

int pp_split_wants_doc_package(unsigned long long doc_bytes)
{
	return doc_bytes >= PP_SPLIT_DOC_PACKAGE_BYTES;
}
