/* padpack split, the naming and grouping rules learned from Debian 12's
 * packages (see doc/split.md, "Classification and the package set"): pure functions of
 * names and sizes, so that each rule is tested on its own. */
#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fsutil.h"
#include "shlibs.h"
#include "splitint.h"
#include "xalloc.h"

/* The roles' names, as the spec and `padpack split` print them. */
static const char *const role_names[PP_ROLE_NR] = {
	[PP_ROLE_RUNTIME] = "runtime", [PP_ROLE_DEV] = "dev",
	[PP_ROLE_TOOLS] = "tools", [PP_ROLE_PYTHON] = "python",
	[PP_ROLE_DOC] = "doc", [PP_ROLE_DATA] = "data",
	[PP_ROLE_DBGSYM] = "dbgsym",
};

const char *pp_role_name(enum pp_role role)
{
	return role < PP_ROLE_NR ? role_names[role] : "?";
}

/* "libpng1.6" -> "libpng", "libfoo-2.1" -> "libfoo", "libtasn1-6" ->
 * "libtasn1": a version with a dot, or after a '-', at the end of a name;
 * "libxml2" and "libcap2" keep their digit, as Debian's libxml2-utils and
 * libcap2-bin do. */
static char *strip_version(const char *name, int after_dash)
{
	size_t n = strlen(name), k = n;

	while (k && (isdigit((unsigned char)name[k - 1]) || name[k - 1] == '.'))
		k--;
	if (k < n && k > 3 && (memchr(name + k, '.', n - k) ||
			       (after_dash && name[k - 1] == '-'))) {
		while (k > 3 && (name[k - 1] == '-' || name[k - 1] == '.'))
			k--;
		return xstrndup(name, k);
	}
	return xstrdup(name);
}

const enum pp_role *pp_split_data_order(const char *source)
{
	static const enum pp_role lib[3] = { PP_ROLE_RUNTIME, PP_ROLE_TOOLS,
					     PP_ROLE_DEV };
	static const enum pp_role other[3] = { PP_ROLE_TOOLS, PP_ROLE_RUNTIME,
					       PP_ROLE_DEV };

	return strncmp(source, "lib", 3) ? other : lib;
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

/* Whether a source's name reads as a library's: lib*, or *lib of a
 * build with a public library (giflib, zziplib, m17n-lib, json-glib). */
static int library_named(const char *source, int has_library)
{
	size_t n = strlen(source);

	return !strncmp(source, "lib", 3) ||
	       (has_library && n > 3 && !strcmp(source + n - 3, "lib"));
}

char *pp_split_tools_package(const char *source, int has_library,
			     const struct pp_strlist *programs,
			     struct strbuf *why)
{
	const char *kind = strncmp(source, "lib", 3) ? "*lib" : "lib*";
	char *stem, *out;

	if (!library_named(source, has_library)) {
		strbuf_addstr(why, "programs of a source not named lib* (nor "
			      "*lib, with a library) -> the package named "
			      "after the source (flac, zstd, sqlite3)");
		return xstrdup(source);
	}
	if (programs->nr == 1 && is_package_word(programs->items[0]) &&
	    strcmp(programs->items[0], source)) {
		strbuf_addf(why, "the one program of a %s source -> the "
			    "package named after the program (xsltproc, "
			    "idn2, zipcmp; lzlib's minilzip)", kind);
		return xstrdup(programs->items[0]);
	}
	stem = strip_version(source, 1);
	out = xmalloc(strlen(stem) + 7);
	sprintf(out, "%s-tools", stem);
	free(stem);
	strbuf_addf(why, "the programs of a %s source -> %s-tools "
		    "(libarchive-tools, libpng-tools, libtiff-tools; "
		    "giflib-tools, afflib-tools: 28 of the 30 Debian 12 "
		    "sources named *lib with a library and programs do not "
		    "give them the source's name), never a name that reads "
		    "as a library package", kind, kind);
	return out;
}

/* "libfoo" -> "foo", "foo" -> "foo". */
static const char *without_lib(const char *name)
{
	return strncmp(name, "lib", 3) || !name[3] ? name : name + 3;
}

/* Whether a (its first n characters) and b have the same letters and
 * digits, punctuation aside. */
static int same_letters(const char *a, const char *b, size_t n)
{
	const char *end = a + n;

	for (;;) {
		while (a < end && !isalnum((unsigned char)*a))
			a++;
		while (*b && !isalnum((unsigned char)*b))
			b++;
		if (a == end || !*b)
			return a == end && !*b;
		if (tolower((unsigned char)*a++) != tolower((unsigned char)*b++))
			return 0;
	}
}

char *pp_split_dev_package(const char *source, const struct pp_strlist *sonames)
{
	char *out, *dev, *stem;

	/* a lib* source names its -dev (libuv1-dev, libyaml-dev,
	 * libgcrypt20-dev, libtasn1-6-dev; libpng1.6: libpng-dev) */
	if (!strncmp(source, "lib", 3) && source[3]) {
		stem = strip_version(source, 0);
		out = xmalloc(strlen(stem) + 5);
		sprintf(out, "%s-dev", stem);
		free(stem);
		return out;
	}
	/* the library named as the source but for punctuation (libcares of
	 * c-ares): the source's spelling, as libc-ares-dev */
	if (sonames->nr == 1 && (dev = pp_soname_dev_package(sonames->items[0]))) {
		if (strncmp(dev, "lib", 3) || strlen(dev) <= 7 ||
		    !same_letters(dev + 3, source, strlen(dev) - 7))
			return dev;
		free(dev);
	}
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

/* a top-level module's import name: _tdb_text -> tdb_text, an
 * egg-info or dist-info directory's distribution (foo-1.0.dist-info ->
 * foo), lowercase with '-' for '_' as Debian's package names */
static char *python_import_name(const char *top)
{
	char *out = xstrdup(top + strspn(top, "_"));

	out[strcspn(out, "-")] = '\0';
	for (char *p = out; *p; p++)
		*p = *p == '_' ? '-' : (char)tolower((unsigned char)*p);
	return out;
}

char *pp_split_module_twin(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n = strlen(path), b;
	char *out;

	base = base ? base + 1 : path;
	b = strlen(base);
	if (b < 3 || strcmp(base + b - 2, ".a") || !strncmp(base, "lib", 3))
		return NULL;
	out = xmalloc(n + 2);
	memcpy(out, path, n - 1);
	strcpy(out + n - 1, "so");
	return out;
}

char *pp_split_python_package(const char *source,
			      const struct pp_strlist *modules)
{
	struct pp_strlist names = PP_STRLIST_INIT;
	const char *src = !strncmp(source, "python3-", 8) ? source + 8 :
			  !strncmp(source, "python-", 7) ? source + 7 : source;
	char *want = python_import_name(src), *out;
	const char *best = NULL;
	size_t best_in = 0;

	for (size_t i = 0; i < modules->nr; i++) {
		char *n = python_import_name(modules->items[i]);

		if (*n && pp_strlist_find(&names, n) < 0)
			pp_strlist_push(&names, n);
		free(n);
	}
	for (size_t i = 0; i < names.nr && strcmp(best ? best : "", want); i++) {
		const char *n = names.items[i];
		size_t in = 0;

		for (size_t k = 0; k < names.nr; k++)
			in += k != i && strstr(names.items[k], n);
		if (!strcmp(n, want) || !best || in > best_in ||
		    (in == best_in && strlen(n) < strlen(best)) ||
		    (in == best_in && strlen(n) == strlen(best) &&
		     strcmp(n, best) < 0)) {
			best = n;
			best_in = in;
		}
	}
	out = NULL;
	if (best) {
		out = xmalloc(strlen(best) + 9);
		sprintf(out, "python3-%s", best);
	}
	pp_strlist_release(&names);
	free(want);
	return out;
}

int pp_split_libraries_together(const struct pp_strlist *sonames,
				const struct pp_strlist *const *user_needed,
				size_t nr_users)
{
	size_t users = 0, apart = 0;

	if (sonames->nr < 2)
		return 0;
	for (size_t k = 0; k < nr_users && !apart; k++) {
		size_t n = 0;

		for (size_t j = 0; j < sonames->nr; j++)
			n += pp_strlist_find(user_needed[k], sonames->items[j]) >= 0;
		users += n > 0;
		apart += n > 0 && n < sonames->nr;
	}
	return users > 0 && !apart;
}

int pp_split_cxx_library(const struct pp_strlist *needed)
{
	return pp_strlist_find(needed, "libstdc++.so.6") >= 0 ||
	       pp_strlist_find(needed, "libc++.so.1") >= 0;
}

/* Whether the line at p starts with the word w (then a blank, '<', '{'
 * or the end of the line). */
static int line_word(const char *p, const char *w)
{
	size_t n = strlen(w);

	return !strncmp(p, w, n) &&
	       (!p[n] || strchr(" \t<{\n", p[n]));
}

int pp_split_cxx_header(const char *path, const char *text)
{
	static const char *const exts[] = { "hpp", "hh", "hxx", "h++", "H",
		"tcc", "ipp", "inl", NULL };
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	const char *dot = strrchr(base, '.');

	if (!dot)
		return 1;
	for (const char *const *e = exts; *e; e++)
		if (!strcmp(dot + 1, *e))
			return 1;
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *p = l + strspn(l, " \t");

		if (line_word(p, "namespace") || line_word(p, "template") ||
		    (line_word(p, "class") &&
		     isalpha((unsigned char)p[5 + strspn(p + 5, " \t")])))
			return 1;
	}
	return 0;
}

int pp_split_cxx_beside_c(const struct pp_strlist *const *lib_needed,
			  size_t nr)
{
	size_t cxx = 0, c = 0;

	for (size_t j = 0; j < nr; j++) {
		if (!lib_needed[j])
			continue;
		if (pp_split_cxx_library(lib_needed[j]))
			cxx++;
		else
			c++;
	}
	return cxx > 0 && c > 0;
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

/* Whether name ends in one of the suffixes (case ignored). */
static int has_suffix(const char *name, const char *const *suffixes)
{
	size_t n = strlen(name);

	for (const char *const *k = suffixes; *k; k++)
		if (n > strlen(*k) && !strcasecmp(name + n - strlen(*k), *k))
			return 1;
	return 0;
}

/* A C or C++ source file or header, by its name. */
int pp_split_is_c_source(const char *path)
{
	static const char *const suffixes[] = {
		".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx", NULL,
	};
	const char *base = strrchr(path, '/');

	return has_suffix(base ? base + 1 : path, suffixes);
}

int pp_split_embedded_source(const char *path,
			     const struct pp_strlist *source_dirs,
			     int has_programs, int has_library)
{
	char *dir;
	int beside;

	if (has_programs || !has_library || strncmp(path, "usr/share/", 10) ||
	    !strncmp(path, "usr/share/doc/", 14))
		return 0;
	if (pp_split_is_c_source(path))
		return 1;
	dir = pp_dirname(path);
	beside = pp_strlist_find(source_dirs, dir) >= 0;
	free(dir);
	return beside;
}

/* dh_compress's rule for usr/share/doc: files over 4 KiB and every
 * changelog and NEWS file, but the copyright, web pages and their parts
 * (a changelog.html is compressed all the same), images, what is
 * compressed already (and what gzip takes for it), fonts, and the
 * examples and Sphinx _sources directories, which are kept as they are
 * to be read or run in place. */
static int doc_compressed(const char *path, uint64_t size)
{
	static const char *const kept[] = {
		".htm", ".html", ".xhtml", ".css", ".js", ".svg", ".svgz",
		".gif", ".png", ".jpg", ".jpeg", ".gz", ".taz", ".tgz", ".z",
		"-gz", "-z", "_z", ".bz2", ".xz", ".lz", ".lzma", ".epub",
		".jar", ".zip", ".odg", ".odp", ".odt", ".haddock", ".hs",
		".woff", ".woff2", ".map", ".devhelp2", NULL,
	};
	static const char *const whole[] = {
		"copyright", ".htaccess", "index.sgml", "objects.inv",
		"search_index.json", NULL,
	};
	const char *base = strrchr(path, '/') + 1;

	if (strstr(path, "/examples/") || strstr(path, "/_sources/"))
		return 0;
	for (const char *const *w = whole; *w; w++)
		if (!strcasecmp(base, *w))
			return 0;
	if (!strcasecmp(base, "changelog.html"))
		return 1;
	if (has_suffix(base, kept))
		return 0;
	return size > 4096 || !strncmp(base, "changelog", 9) ||
	       !strncmp(base, "NEWS", 4);
}

int pp_split_compressed_doc(const char *path, uint64_t size)
{
	static const char *const kept[] = { ".gz", ".gif", ".png", ".jpg",
					     ".jpeg", NULL };

	if (!strncmp(path, "usr/share/doc/", 14) && strchr(path + 14, '/'))
		return doc_compressed(path, size);
	if (strncmp(path, "usr/share/man/", 14) &&
	    strncmp(path, "usr/share/info/", 15))
		return 0;
	return !has_suffix(path, kept);
}

int pp_split_regzipped_man(const char *path)
{
	static const char *const gz[] = { ".gz", NULL };

	return !strncmp(path, "usr/share/man/", 14) && has_suffix(path, gz);
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

/* Debian 12's library sources with a manual of 10 HTML pages or more:
 * under 512 KiB (the package holding it smaller), a manual Doxygen,
 * gtk-doc or Sphinx made is in a -doc package in 65 of 81, one written
 * by hand in 11 of 25; a gtk-doc book of any size in 137 of the 186
 * sources shipping one (libidn2-doc: 17 pages; doc/split-corpus.md). */
int pp_split_wants_doc_package(enum pp_split_doc_mode mode,
			       unsigned long long doc_bytes, int generated)
{
	if (mode != PP_SPLIT_DOC_AUTO)
		return mode == PP_SPLIT_DOC_PACKAGE;
	return doc_bytes >= PP_SPLIT_DOC_PACKAGE_BYTES || generated;
}

int pp_split_is_generated_manual(const char *path)
{
	static const char *const globs[] = {
		"usr/share/gtk-doc/html/*/*", "usr/share/doc/*/doxygen.css",
		"usr/share/doc/*/doxygen.svg", "usr/share/doc/*/doxygen.png",
		"usr/share/doc/*/searchindex.js", "usr/share/doc/*/_static/*",
		NULL,
	};

	for (const char *const *g = globs; *g; g++)
		if (!fnmatch(*g, path, 0))
			return 1;
	return 0;
}

/* The license a full license text is, when Debian ships it in
 * /usr/share/common-licenses (lintian: a copyright file does not copy
 * those), else NULL. */
const char *pp_split_common_license(const char *text)
{
	static const struct { const char *title, *version, *name; } known[] = {
		{ "Apache License", "Version 2.0", "Apache-2.0" },
		{ "GNU LESSER GENERAL PUBLIC LICENSE", "Version 3", "LGPL-3" },
		{ "GNU LESSER GENERAL PUBLIC LICENSE", "Version 2.1", "LGPL-2.1" },
		{ "GNU LIBRARY GENERAL PUBLIC LICENSE", "Version 2", "LGPL-2" },
		{ "GNU GENERAL PUBLIC LICENSE", "Version 3", "GPL-3" },
		{ "GNU GENERAL PUBLIC LICENSE", "Version 2", "GPL-2" },
		{ "Mozilla Public License Version 2.0", "", "MPL-2.0" },
	};

	if (strlen(text) < 5000) /* a notice, not the license itself */
		return NULL;
	for (size_t i = 0; i < sizeof(known) / sizeof(*known); i++) {
		const char *t = strstr(text, known[i].title);

		if (t && t - text < 2000 && strstr(t, known[i].version))
			return known[i].name;
	}
	return NULL;
}

/* The copyright notices of a license file: its lines that say
 * "Copyright (C) 2009 ..." (a year after the word). */
static void notices(const char *text, struct strbuf *out)
{
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n"), lead = strspn(p, " \t");
		const char *c = p + lead;

		if (n - lead > 12 && n - lead < 200 &&
		    !strncasecmp(c, "copyright", 9) &&
		    strpbrk(c, "0123456789") && strpbrk(c, "0123456789") < p + n)
			strbuf_addf(out, "%s%.*s", out->len ? "\n " : "",
				    (int)(n - lead), c);
		p += n + (p[n] == '\n');
	}
}

int pp_split_has_copyright_notice(const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	int found;

	notices(text, &sb);
	found = sb.len > 0;
	strbuf_release(&sb);
	return found;
}

/* The first lines of a machine-readable copyright file (DEP-5). */
static void dep5_head(const char *name, const char *homepage,
		      struct strbuf *out)
{
	strbuf_addf(out, "Format: https://www.debian.org/doc/packaging-manuals/"
		    "copyright-format/1.0/\nUpstream-Name: %s\n", name);
	if (homepage)
		strbuf_addf(out, "Source: %s\n", homepage);
}

void pp_split_dep5(const char *name, const char *homepage, const char *from,
		   const char *license, struct strbuf *out)
{
	const char *common = pp_split_common_license(license), *p = license;
	struct strbuf who = STRBUF_INIT;

	notices(license, &who);
	dep5_head(name, homepage, out);
	strbuf_addf(out, "Comment: made by padpack split from %s, the license "
		    "the upstream\n installation ships; give packages.copyright "
		    "for a reviewed one\n\nFiles: *\nCopyright: %s\n", from,
		    who.len ? who.buf : "the authors named in the license text");
	strbuf_release(&who);
	if (common) {
		strbuf_addf(out, "License: %s\n On Debian systems, the complete "
			    "text of the license is in\n "
			    "/usr/share/common-licenses/%s.\n", common, common);
		return;
	}
	strbuf_addf(out, "License: %s-license\n\nLicense: %s-license\n", name,
		    name);
	while (*p) {
		size_t n = strcspn(p, "\n");
		size_t blank = strspn(p, " \t\r");

		if (blank >= n)
			strbuf_addstr(out, " .\n");
		else
			strbuf_addf(out, " %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
}

void pp_split_dep5_unknown(const char *name, const char *homepage,
			   struct strbuf *out)
{
	dep5_head(name, homepage, out);
	strbuf_addf(out, "Comment: made by padpack split, which found no "
		    "license file in the staged\n tree nor in the directory it "
		    "ran in; give packages.copyright\n\nFiles: *\nCopyright: "
		    "the %s authors\nLicense: not-known\n The license of %s "
		    "was not given to padpack split.\n", name, name);
}

int pp_split_is_license_path(const char *path)
{
	static const char *const globs[] = {
		"usr/share/doc/*/COPYING*", "usr/share/doc/*/LICENSE*",
		"usr/share/doc/*/LICENCE*", "usr/share/doc/*/COPYRIGHT*",
		"usr/share/licenses/*/*", NULL,
	};

	for (const char *const *g = globs; *g; g++)
		if (!fnmatch(*g, path, FNM_PATHNAME | FNM_CASEFOLD))
			return 1;
	return 0;
}

/* The Section of a programs' package from the words of the project's
 * summary, as Debian's sections are described (policy 2.4: sound,
 * graphics, database, text processing ...): flac "Free Lossless Audio
 * Codec" -> sound, libjpeg-turbo's "JPEG" -> graphics, lmdb "Lightning
 * Memory-Mapped Database" and sqlite3 -> database, libxslt's "XSLT" ->
 * text; the first word of the summary that names one wins; none: utils,
 * the section of most of Debian's programs' packages (libarchive-tools,
 * libpng-tools, zstd, xz-utils). */
const char *pp_split_tools_section(const char *summary, struct strbuf *why)
{
	static const struct { const char *word, *section; } words[] = {
		{ "audio", "sound" }, { "sound", "sound" }, { "music", "sound" },
		{ "speech", "sound" }, { "video", "video" }, { "image", "graphics" },
		{ "images", "graphics" }, { "graphics", "graphics" },
		{ "jpeg", "graphics" }, { "png", "graphics" }, { "tiff", "graphics" },
		{ "gif", "graphics" }, { "webp", "graphics" }, { "svg", "graphics" },
		{ "database", "database" }, { "databases", "database" },
		{ "sql", "database" }, { "sqlite", "database" }, { "xml", "text" },
		{ "xslt", "text" }, { "text", "text" }, { "mail", "mail" },
		{ "email", "mail" }, { "web", "web" }, { "http", "web" },
		{ "url", "web" }, { "network", "net" }, { "dns", "net" },
		{ "compiler", "devel" }, { "debugger", "devel" },
		{ "mathematics", "math" }, { "numerical", "math" },
	};
	const char *p = summary ? summary : "";

	while (*p) {
		size_t n = 0;

		while (*p && !isalnum((unsigned char)*p))
			p++;
		while (isalnum((unsigned char)p[n]))
			n++;
		for (size_t i = 0; n && i < sizeof(words) / sizeof(*words); i++)
			if (strlen(words[i].word) == n && !strncasecmp(p, words[i].word, n)) {
				if (why)
					strbuf_addf(why, "'%.*s' in the summary: Section %s",
						    (int)n, p, words[i].section);
				return words[i].section;
			}
		p += n;
	}
	if (why)
		strbuf_addstr(why, "no word of the summary names a section: utils");
	return "utils";
}

/* The Section of a data package (-data, -common): a library's
 * (libasound2-data, libtiny1-data) in libs, as 111 of Debian 12's 153
 * lib*-data packages and 80 of its 134 lib*-common are (misc: 11 and
 * 8); a program's (foo-data) in its programs' section, as 453 of the
 * 468 foo-data packages beside a package foo are in foo's (and 295 of
 * 316 foo-common). */
const char *pp_split_data_section(const char *package, const char *programs)
{
	return strncmp(package, "lib", 3) ? programs : "libs";
}

/* The modules of a Requires or Requires.private value, "a >= 1.0, b c":
 * each name, with " (>= V)" for ">= V" and "= V" (a Depends asks no
 * more), else "". Names with a variable (${...}) are left out. */
static void pc_requires_value(char *value, struct pp_strlist *mods,
			      struct pp_strlist *rels)
{
	char *save = NULL, *tok, *prev = NULL, *op = NULL;

	value[strcspn(value, "#")] = 0;
	for (tok = strtok_r(value, ", \t", &save); ; tok = strtok_r(NULL, ", \t", &save)) {
		if (tok && strchr("<>=!", *tok)) {
			op = tok;
			continue;
		}
		if (prev && !strchr(prev, '$')) {
			pp_strlist_push(mods, prev);
			if (op && tok && (!strcmp(op, ">=") || !strcmp(op, "=")))
				pp_strlist_pushf(rels, " (>= %s)", tok);
			else
				pp_strlist_push(rels, "");
		}
		if (!tok)
			break;
		prev = op ? NULL : tok;
		op = NULL;
	}
}

void pp_split_pc_requires(const char *pc_text, struct pp_strlist *mods,
			  struct pp_strlist *rels)
{
	char *text = xstrdup(pc_text), *save = NULL, *line;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (!strncmp(line, "Requires:", 9))
			pc_requires_value(line + 9, mods, rels);
		else if (!strncmp(line, "Requires.private:", 17))
			pc_requires_value(line + 17, mods, rels);
	free(text);
}

void pp_split_header_includes(const char *text, struct pp_strlist *out)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *p = l + strspn(l, " \t"), *end;

		if (*p++ != '#')
			continue;
		p += strspn(p, " \t");
		if (strncmp(p, "include", 7))
			continue;
		p += 7;
		p += strspn(p, " \t");
		if (*p++ != '<' || !(end = strchr(p, '>')) || memchr(p, '\n', end - p))
			continue;
		pp_strlist_push_owned(out, xstrndup(p, end - p));
	}
}

static int same_names(const struct pp_strlist *a, const struct pp_strlist *b)
{
	for (size_t i = 0; i < a->nr && a->nr == b->nr; i++)
		if (strcmp(a->items[i], b->items[i]))
			return 0;
	return a->nr == b->nr;
}

char *pp_split_policy_link(const char *path, const char *target)
{
	struct pp_strlist to = PP_STRLIST_INIT, at = PP_STRLIST_INIT;
	struct strbuf out = STRBUF_INIT;
	size_t x = 0;

	if (*target != '/') { /* from the link's directory */
		char *dir = pp_dirname(path);

		pp_path_names(dir, 1, &to);
		free(dir);
	}
	pp_path_names(target, 1, &to); /* dh_link's _expand_path */
	pp_path_names(path, 1, &at);
	if (same_names(&to, &at)) /* a link to itself: left as it is */
		strbuf_addstr(&out, target);
	else if (!to.nr || !at.nr || strcmp(to.items[0], at.items[0])) {
		for (size_t i = 0; i < to.nr; i++)
			strbuf_addf(&out, "/%s", to.items[i]);
		if (!to.nr)
			strbuf_addch(&out, '/');
	} else {
		while (x < to.nr && x + 1 < at.nr &&
		       !strcmp(to.items[x], at.items[x]))
			x++; /* the directories both are in */
		for (size_t i = x + 1; i < at.nr; i++)
			strbuf_addstr(&out, "../");
		for (size_t i = x; i < to.nr; i++)
			strbuf_addf(&out, "%s/", to.items[i]);
		if (!out.len)
			strbuf_addch(&out, '.');
		else if (out.buf[out.len - 1] == '/')
			strbuf_setlen(&out, out.len - 1);
	}
	pp_strlist_release(&to);
	pp_strlist_release(&at);
	return strbuf_detach(&out, NULL);
}
