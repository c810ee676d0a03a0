/* padpack split, assigning: the rules that choose each staged file's
 * package (and role) and the files every variant shares; the packages
 * they make are split-pkgs.c's. Writes nothing.
 * Layer: below split-plan.c, which calls pp_split_assign; above
 * split-alt.c, split-pkgs.c, split-rules.c and split-stage.c; calls
 * nothing above it. */
#include "split-plan.h"

#include <ctype.h>
#include <dirent.h>
#include <stdarg.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "control.h"
#include "fsutil.h"
#include "hash.h"
#include "progress.h"
#include "shlibs.h"
#include "split-choice.h"
#include "splitint.h"
#include "tree.h"
#include "xalloc.h"

/* ---- rules ------------------------------------------------------------ */

static int expand(const struct pp_split *s, const struct pp_variant *v,
		  const char *tmpl, struct strbuf *out, struct pp_err *err)
{
	struct pp_expand_ctx ctx = { s->spec, v, s->upstream, 1, 1, NULL };

	return pp_spec_expand(tmpl, &ctx, out, err);
}

/* Whether a template's value changes from one variant to another. */
static int names_variant(const struct pp_spec *spec, const char *tmpl)
{
	if (strstr(tmpl, "@variant@") || strstr(tmpl, "@suffix@"))
		return 1;
	for (size_t a = 0; a < spec->nr_axes; a++) {
		char key[80];

		snprintf(key, sizeof(key), "@%s@", spec->axes[a].name);
		if (strstr(tmpl, key))
			return 1;
	}
	return 0;
}

const enum pp_role *pp_split_variant_data_order(const struct pp_split *s,
						const struct pp_variant *v)
{
	struct strbuf name = STRBUF_INIT;
	struct pp_err err;
	const enum pp_role *order;

	pp_err_init(&err);
	/* a template the packages of no one variant (v NULL) cannot expand
	 * falls back to the spec's name; the variants' expand, as their
	 * stage names did */
	if (!s->spec->package || expand(s, v, s->spec->package, &name, &err))
		strbuf_reset(&name);
	order = pp_split_data_order(name.len ? name.buf : s->spec->name);
	strbuf_release(&name);
	pp_err_release(&err);
	return order;
}

/* The packages a stage's default rules name, worked out once. */
struct names {
	char *source;   /* packages.name (expanded), else the spec's name */
	char *tools;    /* the programs' package */
	char *tools_why;
	char *dev;      /* the one -dev package of the source */
	char *group;    /* packages.runtime = "one", or "auto" and the
			   libraries only used together: the runtime package */
	int group_auto; /* the group is "auto"'s */
	struct pp_split_devlibs devlibs; /* packages.dev = "library", or
					    "auto" with a C++ library */
	int dev_cxx;    /* "auto": C++ libraries' -dev apart from the C's */
	const struct pp_split_stage *st;
	char *doc;      /* the -doc package of a manual */
	char *python;   /* the one python3-* package of the Python modules */
	int has_library; /* a public shared library is staged */
	char *library;  /* the package of the library named like the source
			   (else the first): the library's, for what goes
			   with it */
	int has_programs;
	unsigned long long doc_bytes; /* documentation but manual pages */
	int generated_manual; /* Doxygen, gtk-doc or Sphinx made one */
	enum pp_split_doc_mode doc_mode; /* packages.doc */
	const struct choice *doc_home; /* where a few documents go, or NULL */
	unsigned long long data_bytes; /* usr/share, but documentation and
					 source for -dev */
	struct pp_strlist source_dirs; /* directories of usr/share with C
					  sources or headers */
	const struct choice *data_home; /* where a little data goes */
};

static void release_names(struct names *n)
{
	free(n->source);
	free(n->tools);
	free(n->tools_why);
	free(n->dev);
	free(n->group);
	free(n->doc);
	free(n->python);
	free(n->library);
	pp_split_devlibs_release(&n->devlibs);
	pp_strlist_release(&n->source_dirs);
}

static int in_bindir(const char *path)
{
	static const char *const bindirs[] = {
		"usr/bin/", "usr/sbin/", "bin/", "sbin/", "usr/games/", NULL,
	};

	for (const char *const *d = bindirs; *d; d++)
		if (!strncmp(path, *d, strlen(*d)) &&
		    !strchr(path + strlen(*d), '/'))
			return 1;
	return 0;
}

static int in_python_dir(const char *path)
{
	char *top = pp_python_top_module(path);

	free(top);
	return top != NULL;
}

/* A static archive whose NAME.so beside it is a staged ELF shared
 * object: a module, or one with a SONAME of its own name, as libtool's
 * -module -avoid-version gives (libnl's basic.so). */
static int module_twin(const struct pp_split_stage *st, const char *path)
{
	char *so = pp_split_module_twin(path);
	const struct pp_split_file *m = so ? pp_split_find(st, so) : NULL;

	free(so);
	return m && (m->c.cls == PP_CLASS_MODULE || m->c.cls == PP_CLASS_SHLIB);
}

static int is_shared_data(const struct pp_split_file *f)
{
	return f->c.cls == PP_CLASS_DATA && !strncmp(f->path, "usr/share/", 10) &&
	       !pp_split_is_dev_path(f->path);
}

/* Source under usr/share to build into one's own program: -dev's. */
static int embedded_source(const struct names *n, const struct pp_split_file *f)
{
	return is_shared_data(f) &&
	       pp_split_embedded_source(f->path, &n->source_dirs,
					n->has_programs, n->has_library);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The programs of a stage (not the *-config scripts, which go to -dev),
 * the SONAMEs of its public libraries and the size of its documentation. */
static void stage_facts(const struct pp_split *s,
			const struct pp_split_stage *st,
			struct pp_strlist *programs, struct pp_strlist *sonames,
			struct pp_strlist *modules,
			unsigned long long *doc_bytes, int *generated,
			unsigned long long *data_bytes,
			struct pp_strlist *source_dirs)
{
	for (size_t i = 0; i < st->nr; i++) {
		const struct pp_split_file *f = &st->files[i];
		char *dir;

		if (f->c.cls == PP_CLASS_PYTHON) {
			char *top = pp_python_top_module(f->path);

			if (top && pp_strlist_find(modules, top) < 0)
				pp_strlist_push(modules, top);
			free(top);
		}

		if (in_bindir(f->path) && !S_ISDIR(f->st.st_mode) &&
		    !pp_split_is_dev_path(f->path))
			pp_strlist_push(programs, strrchr(f->path, '/') + 1);
		if (f->c.cls == PP_CLASS_DOC && S_ISREG(f->st.st_mode)) {
			*doc_bytes += (unsigned long long)f->st.st_size;
			*generated |= pp_split_is_generated_manual(f->path);
		}
		if (is_shared_data(f) && S_ISREG(f->st.st_mode))
			*data_bytes += (unsigned long long)f->st.st_size;
		if (is_shared_data(f) && S_ISREG(f->st.st_mode) &&
		    pp_split_is_c_source(f->path)) {
			dir = pp_dirname(f->path);
			if (pp_strlist_find(source_dirs, dir) < 0)
				pp_strlist_push(source_dirs, dir);
			free(dir);
		}
		if (f->c.cls != PP_CLASS_SHLIB || !f->c.soname)
			continue;
		dir = pp_dirname(f->path);
		if (pp_split_public_libdir(s, dir) &&
		    pp_strlist_find(sonames, f->c.soname) < 0)
			pp_strlist_push(sonames, f->c.soname);
		free(dir);
	}
	if (sonames->nr > 1)
		qsort(sonames->items, sonames->nr, sizeof(*sonames->items),
		      cmp_str);
}

/* Whether the stage's public libraries are only used together by its
 * other ELF files (pp_split_libraries_together). */
static int used_together(const struct pp_split_stage *st,
			 const struct pp_strlist *sonames)
{
	const struct pp_strlist **users;
	size_t nr_users = 0;
	int yes;

	if (sonames->nr < 2)
		return 0;
	users = xcalloc(st->nr, sizeof(*users));
	for (size_t i = 0; i < st->nr; i++) {
		const struct pp_split_file *f = &st->files[i];

		if (f->c.elf && S_ISREG(f->st.st_mode) &&
		    !(f->c.soname && pp_strlist_find(sonames, f->c.soname) >= 0))
			users[nr_users++] = &f->c.elf->needed;
	}
	yes = pp_split_libraries_together(sonames, users, nr_users);
	free(users);
	return yes;
}

static int stage_names(const struct pp_split *s, const struct pp_split_stage *st,
		       struct names *n, struct pp_err *err)
{
	struct pp_strlist programs = PP_STRLIST_INIT, sonames = PP_STRLIST_INIT,
			  modules = PP_STRLIST_INIT;
	struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;
	int rc = 0;

	memset(n, 0, sizeof(*n));
	stage_facts(s, st, &programs, &sonames, &modules, &n->doc_bytes,
		    &n->generated_manual, &n->data_bytes, &n->source_dirs);
	if (s->spec->package) {
		rc = expand(s, st->variant, s->spec->package, &sb, err);
		n->tools = strbuf_detach(&sb, NULL);
		n->source = xstrdup(n->tools);
		n->tools_why = xstrdup("programs -> packages.name");
	} else {
		n->source = xstrdup(s->spec->name);
		n->tools = pp_split_tools_package(n->source, sonames.nr > 0,
						  &programs, &why);
		n->tools_why = strbuf_detach(&why, NULL);
	}
	n->dev = pp_split_dev_package(n->source, &sonames);
	n->st = st;
	if (!s->spec->dev_one && sonames.nr > 1) {
		pp_split_devlibs_init(&n->devlibs, st, &sonames);
		if (s->spec->dev_per_library) {
			free(n->dev);
			n->dev = xstrdup(n->devlibs.dev[n->devlibs.main]);
		} else if (pp_split_devlibs_cxx_apart(&n->devlibs, n->dev))
			n->dev_cxx = 1;
		else
			pp_split_devlibs_release(&n->devlibs);
	}
	n->has_library = sonames.nr > 0;
	if (sonames.nr)
		n->library = n->group ? xstrdup(n->group) :
			     pp_split_runtime_group(n->source, &sonames);
	n->has_programs = programs.nr > 0;
	for (size_t i = 0; i < st->nr; i++) /* what goes to -dev is no data */
		if (S_ISREG(st->files[i].st.st_mode) &&
		    embedded_source(n, &st->files[i]))
			n->data_bytes -= (unsigned long long)st->files[i].st.st_size;
	n->doc = pp_split_doc_package(n->source, sonames.nr ? n->dev : NULL);
	n->doc_mode = s->spec->doc_package ? PP_SPLIT_DOC_PACKAGE :
		      s->spec->doc_none ? PP_SPLIT_DOC_NONE : PP_SPLIT_DOC_AUTO;
	n->python = pp_split_python_package(s->spec->name, &modules);
	pp_strlist_release(&modules);
	if (s->spec->runtime_one ||
	    (!s->spec->runtime_soname && used_together(st, &sonames))) {
		n->group = pp_split_runtime_group(n->source, &sonames);
		n->group_auto = !s->spec->runtime_one;
	}
	pp_strlist_release(&programs);
	pp_strlist_release(&sonames);
	strbuf_release(&why);
	return rc;
}

static void choose(struct choice *c, char *base, enum pp_role role,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void choose(struct choice *c, char *base, enum pp_role role,
		   const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	c->base = base;
	c->role = role;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	c->why = strbuf_detach(&sb, NULL);
}

/* What no other rule takes (modules, helpers, private libraries, files
 * outside usr/share): the programs' package, or, in a source without
 * programs, its library's, as Debian keeps a library's helpers, plugins
 * and configuration with it. */
static void choose_rest(struct choice *c, const struct names *n,
			const char *what)
{
	if (n->library && !n->has_programs)
		choose(c, xstrdup(n->library), PP_ROLE_RUNTIME, "default: %s "
		       "of a source without programs -> its library's package",
		       what);
	else
		choose(c, xstrdup(n->tools), PP_ROLE_TOOLS, "default: %s -> "
		       "the program package", what);
}

static char *python_name(const char *path)
{
	char *top = pp_python_top_module(path);
	char *out = xmalloc(strlen(top) + 9);

	/* _tdb_text.py is module tdb_text's: python3-tdb-text */
	sprintf(out, "python3-%s", top + strspn(top, "_"));
	for (char *p = out; *p; p++)
		*p = *p == '_' ? '-' : (char)tolower((unsigned char)*p);
	free(top);
	return out;
}

/* A shared object in the linker's directory whose SONAME has no version
 * (CMake's add_library without SOVERSION: libfoo.so), or that has no
 * SONAME at all but a library's name: "libfoo", as its users' NEEDED
 * libfoo.so names it; NULL for anything else. */
static char *unversioned_package(const struct pp_split_file *f)
{
	const char *base = strrchr(f->path, '/') ? strrchr(f->path, '/') + 1 :
			   f->path;
	const char *so = f->c.cls == PP_CLASS_SHLIB ? f->c.soname : base;
	size_t n = so ? strlen(so) : 0;
	char *stem, *out;

	if (f->c.cls == PP_CLASS_MODULE && strncmp(base, "lib", 3))
		return NULL;
	if (n < 6 || strcmp(so + n - 3, ".so") || strchr(so, '/'))
		return NULL;
	stem = xstrndup(so, n - 3);
	out = pp_spec_package_name_from(stem);
	free(stem);
	return out;
}

/* library_rule's choice for a library in a public directory with an
 * unversioned SONAME or none (unversioned_package gave pkg). */
static void unversioned_rule(const struct pp_split_file *f, char *pkg,
			     struct choice *c)
{
	const char *why = "(link it with -Wl,-soname,NAME.so.N, or CMake's "
			  "SOVERSION, for a versioned one)";

	if (f->c.soname)
		choose(c, pkg, PP_ROLE_RUNTIME, "default: shared library with "
		       "the unversioned SONAME %s in a public library "
		       "directory, so users link it as NEEDED %s -> runtime "
		       "package named from it, with the ldconfig trigger and "
		       "no shlibs (lintian warns shared-library-lacks-version) "
		       "%s", f->c.soname, f->c.soname, why);
	else
		choose(c, pkg, PP_ROLE_RUNTIME, "default: shared library "
		       "without a SONAME in a public library directory, so "
		       "users link it as NEEDED %s -> runtime package named "
		       "from it, with no ldconfig trigger and lintian's "
		       "sharedobject-in-library-directory-missing-soname "
		       "overridden %s", strrchr(f->path, '/') + 1, why);
}

/* A shared library (or a link to one) in a public directory goes to the
 * runtime package named from its SONAME (or the one runtime package of
 * packages.runtime = "one"); elsewhere it is private. */
static int library_rule(const struct pp_split *s, const struct pp_split_file *f,
			const struct names *n, struct choice *c)
{
	const char *lib = f->c.cls == PP_CLASS_SHLIB ||
			  f->c.cls == PP_CLASS_MODULE ? f->path : f->c.target;
	char *libdir = lib ? pp_dirname(lib) : NULL;
	char *pkg = f->c.soname ? pp_soname_package(f->c.soname) : NULL;
	int pub = libdir && pp_split_public_libdir(s, libdir);
	const char *what = f->c.cls == PP_CLASS_SHLIB ?
			   "shared library with SONAME" : "link to the library";

	if (pkg && pub && n->group && n->group_auto) {
		free(pkg);
		choose(c, xstrdup(n->group), PP_ROLE_RUNTIME, "default: %s %s "
		       "-> the one runtime package of the source's libraries, "
		       "named from the library named like the source: every "
		       "program or module of the build that needs one of them "
		       "needs them all itself, a family used together (as "
		       "libxslt1.1 holds libxslt and libexslt, which xsltproc "
		       "both needs; "
		       "packages.runtime = \"soname\" splits them)", what,
		       f->c.soname);
	} else if (pkg && pub && n->group) {
		free(pkg);
		choose(c, xstrdup(n->group), PP_ROLE_RUNTIME, "%s: "
		       "packages.runtime = \"one\": %s %s -> the one runtime "
		       "package, named from the library named like the source "
		       "(as libxslt1.1 holds libxslt and libexslt)",
		       s->spec->path, what, f->c.soname);
	} else if (!pkg && pub && f->c.cls != PP_CLASS_SHLIB_LINK &&
		   (pkg = unversioned_package(f))) {
		unversioned_rule(f, pkg, c);
	} else if (pkg && pub) {
		choose(c, pkg, PP_ROLE_RUNTIME, "default: %s %s in a public "
		       "library directory -> runtime package named from the "
		       "SONAME (policy 8.1; as Debian splits nettle, libevent, "
		       "pcre2, libwebp: a program uses one without the other, "
		       "or none uses them; packages.runtime = \"one\" groups "
		       "them)", what, f->c.soname);
	} else {
		free(pkg);
		choose_rest(c, n, "private shared library (outside the "
			    "linker's path)");
	}
	free(libdir);
	return 0;
}

/* A module (no SONAME) named lib*.so right in the linker's directory:
 * a library whose build left out -soname, not a plugin. */
static int unversioned_lib_in(const struct pp_split *s,
			      const struct pp_split_file *f)
{
	char *dir = pp_dirname(f->path), *pkg = unversioned_package(f);
	int yes = pkg && pp_split_public_libdir(s, dir);

	free(dir);
	free(pkg);
	return yes;
}

/* padpack's defaults, by class; man pages, documentation and other links
 * come later, once what they document or point to is placed. */
static int default_rule(const struct pp_split *s, const struct pp_split_file *f,
			const struct names *n, struct choice *c)
{
	static const char one_dev_why[] = "one -dev package per source, as "
		"Debian's nearly always is (libevent-dev, libpcre2-dev, "
		"nettle-dev: headers, .so links, .a, .pc, CMake files, "
		"*-config)";
	static const char lib_dev_why[] = "packages.dev = \"library\": the "
		"-dev package of its library (its .so link, .a, the -l of a "
		".pc that its name names, else its first, a header's directory or the functions it declares; else "
		"the library the others need), as flac's libflac-dev and "
		"libflac++-dev";
	static const char cxx_dev_why[] = "one -dev package per source, "
		"but a C++ library beside C ones gets its own (its .so link, "
		".a, the -l of a .pc that its name names, else its first, a "
		"header's directory or the functions "
		"it declares, a C++ header's among the C++ libraries, a C "
		"header's among the C ones), as Debian 12 does for 49 of the "
		"78 sources with both: libflac++-dev, libconfig++-dev, libgpgmepp-dev; "
		"packages.dev = \"one\" keeps one";
	const char *one_dev = n->dev_cxx ? cxx_dev_why :
			      n->devlibs.nr ? lib_dev_why : one_dev_why;
	const char *dev = n->devlibs.nr ?
			  pp_split_devlib_of(&n->devlibs, n->st, f) : n->dev;

	if (pp_split_is_dev_path(f->path) && f->c.cls != PP_CLASS_DIR) {
		choose(c, xstrdup(dev), PP_ROLE_DEV, "default: a file for "
		       "building (*-config, aclocal, gir, vapi) -> %s", one_dev);
		return 0;
	}
	switch (f->c.cls) {
	case PP_CLASS_LIBTOOL:
		choose(c, NULL, PP_ROLE_DEV, "default: libtool archive; "
		       "Debian ships none (policy 10.2)");
		return 0;
	case PP_CLASS_MODULE:
		if (!in_python_dir(f->path) && unversioned_lib_in(s, f))
			return library_rule(s, f, n, c);
		break;
	case PP_CLASS_SHLIB:
	case PP_CLASS_SHLIB_LINK:
		return library_rule(s, f, n, c);
	case PP_CLASS_DEV_LINK:
		if (f->c.ld_script)
			choose(c, xstrdup(dev), PP_ROLE_DEV, "default: GNU ld "
			       "script for linking with %s: only ld reads it, "
			       "for -l, as the .so link it stands for (libc6-dev's "
			       "libc.so, libncurses-dev's libncurses.so, "
			       "libbsd-dev's libbsd.so) -> %s", f->c.soname ?
			       f->c.soname : "the libraries it names", one_dev);
		else
			choose(c, xstrdup(dev), PP_ROLE_DEV, "default: link "
			       "for linking with %s -> %s", f->c.soname, one_dev);
		return 0;
	case PP_CLASS_STATIC:
		if (in_python_dir(f->path)) {
			choose(c, NULL, PP_ROLE_DEV, "default: static archive "
			       "in a Python module directory (libtool's "
			       "by-product of a -module); Debian ships none, "
			       "nothing links against it");
			return 0;
		}
		if (module_twin(n->st, f->path)) {
			choose(c, NULL, PP_ROLE_DEV, "default: static archive "
			       "beside a loadable module of its name (libtool's "
			       "by-product of a -module); Debian ships none but "
			       "in 13 of the 1,368 sources with modules (as "
			       "libnl-cli-3-200 ships cli/cls/basic.so, not "
			       "basic.a): no -l finds it");
			return 0;
		}
		choose(c, xstrdup(dev), PP_ROLE_DEV, "default: static "
		       "library -> the -dev package of the headers (%s; never "
		       "a *-static-dev)", one_dev);
		return 0;
	case PP_CLASS_HEADER:
	case PP_CLASS_PKGCONFIG:
	case PP_CLASS_CMAKE:
		choose(c, xstrdup(dev), PP_ROLE_DEV, "default: %s -> %s",
		       pp_class_name(f->c.cls), one_dev);
		return 0;
	case PP_CLASS_PYTHON:
		choose(c, n->python ? xstrdup(n->python) :
		       python_name(f->path), PP_ROLE_PYTHON, "default: "
		       "Python module -> python3-<module> (Python policy), one "
		       "package for every module of the source (as "
		       "python3-libxml2 holds libxml2.py, drv_libxml2.py and "
		       "libxml2mod)");
		return 0;
	case PP_CLASS_EXEC:
	case PP_CLASS_SCRIPT:
		if (in_bindir(f->path)) {
			choose(c, xstrdup(n->tools), PP_ROLE_TOOLS, "default: "
			       "%s -> %s", pp_class_name(f->c.cls),
			       n->tools_why);
			return 0;
		}
		break;
	default:
		break;
	}
	choose_rest(c, n, pp_class_name(f->c.cls));
	return 0;
}

static enum pp_role role_of_name(const char *name, const char *given,
				 const struct pp_split_file *f)
{
	size_t n = strlen(name);

	if (given)
		for (int r = 0; r < PP_ROLE_DBGSYM; r++)
			if (!strcmp(given, pp_role_name((enum pp_role)r)))
				return (enum pp_role)r;
	if (n > 4 && !strcmp(name + n - 4, "-dev"))
		return PP_ROLE_DEV;
	if (n > 4 && !strcmp(name + n - 4, "-doc"))
		return PP_ROLE_DOC;
	if (!strncmp(name, "python3-", 8))
		return PP_ROLE_PYTHON;
	if ((n > 5 && !strcmp(name + n - 5, "-data")) ||
	    (n > 7 && !strcmp(name + n - 7, "-common")))
		return PP_ROLE_DATA;
	if (f->c.cls == PP_CLASS_SHLIB || f->c.cls == PP_CLASS_SHLIB_LINK)
		return PP_ROLE_RUNTIME;
	return PP_ROLE_TOOLS;
}

/* The spec's files rules: the first whose glob matches the path. */
static int spec_rule(const struct pp_split *s, const struct pp_split_stage *st,
		     const struct pp_split_file *f, struct choice *c, int *hit,
		     struct pp_err *err)
{
	const struct pp_spec *spec = s->spec;

	*hit = 0;
	for (size_t i = 0; i < spec->nr_files; i++) {
		const struct pp_file_rule *r = &spec->files[i];
		struct strbuf name = STRBUF_INIT;

		if (fnmatch(r->path, f->path, 0))
			continue;
		*hit = 1;
		if (r->drop) {
			choose(c, NULL, PP_ROLE_TOOLS, "%s:%u: files[%zu] "
			       "\"%s\": dropped: %s", spec->path, r->line, i,
			       r->path, r->drop);
			return 0;
		}
		if (expand(s, st->variant, r->package, &name, err) < 0 ||
		    pp_check_package_name(name.buf, err) < 0) {
			strbuf_release(&name);
			return pp_err_prefix(err, "%s:%u: files[%zu]: ",
					     spec->path, r->line, i);
		}
		choose(c, strbuf_detach(&name, NULL), PP_ROLE_TOOLS,
		       "%s:%u: files[%zu] \"%s\"", spec->path, r->line, i,
		       r->path);
		c->role = role_of_name(c->base, r->role, f);
		c->explicit_variant = names_variant(spec, r->package);
		c->from_spec = 1;
		return 0;
	}
	return 0;
}

/* Where a man page's program is, or NULL: the longest program whose
 * page it is (pp_split_page_of), so key.dns_resolver.conf.5 is
 * key.dns_resolver's, not a program key's. */
static const struct pp_split_file *program_of_man(const struct pp_split_stage *st,
						  const char *path)
{
	static const char *const bindirs[] = {
		"usr/bin/", "usr/sbin/", "bin/", "sbin/", "usr/games/", NULL,
	};
	const struct pp_split_file *best = NULL;
	size_t best_len = 0;

	for (size_t i = 0; i < st->nr; i++)
		for (const char *const *d = bindirs; *d; d++) {
			size_t dl = strlen(*d);
			const char *p = st->files[i].path;

			if (!strncmp(p, *d, dl) && !strchr(p + dl, '/') &&
			    strlen(p + dl) > best_len &&
			    pp_split_page_of(path, p + dl)) {
				best = &st->files[i];
				best_len = strlen(p + dl);
			}
		}
	return best;
}

int pp_split_page_of(const char *page, const char *program)
{
	const char *base = strrchr(page, '/');
	size_t n = strlen(program);

	base = base ? base + 1 : page;
	return n && !strncmp(base, program, n) && base[n] == '.';
}

static const struct pp_split_file *find_file(const struct pp_split_stage *st,
					     const char *path)
{
	return pp_split_find(st, path);
}

struct assignment {
	struct choice *c; /* per file of the stage */
};

static int is_follower(const struct pp_split_file *f)
{
	return f->c.cls == PP_CLASS_MAN || f->c.cls == PP_CLASS_SYMLINK ||
	       f->c.cls == PP_CLASS_DOC || is_shared_data(f);
}

/* Where a few files of a role with no package of its own go: the first
 * package of these roles that holds files placed by class. */
static const struct choice *home_of(const struct pp_split_stage *st,
				    const struct choice *all,
				    const enum pp_role order[3])
{
	for (size_t r = 0; r < 3; r++)
		for (size_t i = 0; i < st->nr; i++)
			if (all[i].base && all[i].role == order[r] &&
			    !is_follower(&st->files[i]))
				return &all[i];
	return NULL;
}

/* A runtime home is the library named like the source, not whichever
 * library came first; a -dev home, of several -dev packages, the main
 * library's (libconfig-dev, not libconfig++-dev, whose header sorts
 * first), where section-3 pages go too. */
static const char *home_name(const struct names *n, const struct choice *home)
{
	if (home->explicit_variant)
		return home->base;
	if (home->role == PP_ROLE_RUNTIME && n->library)
		return n->library;
	if (home->role == PP_ROLE_DEV && n->devlibs.nr)
		return n->dev;
	return home->base;
}

/* Too little of WHAT for a package of its own (under LIMIT bytes): it
 * goes to HOME, the package that holds most else of the stage. */
static void to_home(const struct names *n, const struct choice *home,
		    struct choice *c, const char *what, unsigned long long kib,
		    unsigned long long limit, const char *why)
{
	choose(c, xstrdup(home_name(n, home)), home->role, "default: %s, %llu "
	       "KiB in all (under %llu KiB: %s) -> the %s package", what, kib,
	       limit / 1024, why, pp_role_name(home->role));
	c->explicit_variant = home->explicit_variant;
}

/* Architecture-independent data under usr/share (locales, data files):
 * with the programs, else the library, else -dev (a lib* source: the
 * library first), as Debian keeps it (popt's locales in libpopt0, acl's
 * in acl); a -data package only from PP_SPLIT_DATA_PACKAGE_BYTES. */
static int data_rule(const struct names *n, struct choice *c)
{
	const struct choice *home = n->data_home;
	unsigned long long kib = (n->data_bytes + 1023) / 1024;
	size_t len = strlen(n->source);

	if (n->data_bytes >= PP_SPLIT_DATA_PACKAGE_BYTES || !home) {
		/* a source named foo-data makes foo-data, not foo-data-data */
		choose(c, len > 5 && !strcmp(n->source + len - 5, "-data") ?
		       xstrdup(n->source) : pp_split_with_suffix(n->source,
								 "data"),
		       PP_ROLE_DATA,
		       "default: architecture-independent data (usr/share), "
		       "%llu KiB in all (%llu KiB or more, or nothing else to "
		       "hold it) -> the -data package", kib,
		       PP_SPLIT_DATA_PACKAGE_BYTES / 1024);
		return 0;
	}
	to_home(n, home, c, "architecture-independent data (usr/share)", kib,
		PP_SPLIT_DATA_PACKAGE_BYTES, "no -data package, as Debian keeps "
		"locales and small data with the programs or the library");
	return 0;
}

/* packages.doc = "package" or "none": the user's choice, said so. */
static int doc_rule_set(const struct names *n, struct choice *c,
			unsigned long long kib)
{
	const struct choice *home = n->doc_home;

	if (n->doc_mode == PP_SPLIT_DOC_PACKAGE || !home) {
		choose(c, xstrdup(n->doc), PP_ROLE_DOC, "packages.doc = \"%s\": "
		       "documentation, %llu KiB in all -> the -doc package%s",
		       n->doc_mode == PP_SPLIT_DOC_PACKAGE ? "package" : "none",
		       kib, home ? "" : " (nothing else to hold it)");
		return 0;
	}
	choose(c, xstrdup(home_name(n, home)), home->role, "packages.doc = "
	       "\"none\": documentation, %llu KiB in all -> the %s package, "
	       "as Debian keeps libvorbis's and libxslt's manuals in -dev",
	       kib, pp_role_name(home->role));
	c->explicit_variant = home->explicit_variant;
	return 0;
}

static int doc_rule(const struct names *n, struct choice *c)
{
	const struct choice *home = n->doc_home;
	unsigned long long kib = (n->doc_bytes + 1023) / 1024;

	if (n->doc_mode != PP_SPLIT_DOC_AUTO)
		return doc_rule_set(n, c, kib);
	if (pp_split_wants_doc_package(n->doc_mode, n->doc_bytes,
				       n->generated_manual) || !home) {
		choose(c, xstrdup(n->doc), PP_ROLE_DOC, "default: "
		       "documentation, %llu KiB in all (a manual: %llu KiB or "
		       "more, or one Doxygen, gtk-doc or Sphinx made, which "
		       "Debian 12 ships in a -doc package for 65 of 81 library "
		       "sources even under 512 KiB; or nothing else to hold "
		       "it) -> the -doc package, "
		       "named as the -dev package (libjansson-doc, "
		       "libjson-c-doc) or else the source (sqlite3-doc); "
		       "Debian 12 ships a manual of 10 HTML pages or more in "
		       "a -doc package for 846 of 1026 library sources, from "
		       "50 pages for 661 of 753 (libxslt1-dev is of the "
		       "others; doc/split-corpus.md)",
		       kib, PP_SPLIT_DOC_PACKAGE_BYTES / 1024);
		return 0;
	}
	to_home(n, home, c, "documentation", kib, PP_SPLIT_DOC_PACKAGE_BYTES,
		"a README and a few pages, which Debian keeps in -dev or the "
		"programs' package; no -doc package");
	return 0;
}

/* A link to a directory of the stage goes where the first file under it
 * goes (the directory is no entry of its own). */
static const struct pp_split_file *first_under(const struct pp_split_stage *st,
					       const char *dir)
{
	size_t n = strlen(dir), lo = 0, hi = st->nr;

	while (lo < hi) { /* the first path after "dir/" */
		size_t mid = lo + (hi - lo) / 2;
		const char *p = st->files[st->by_path[mid]].path;
		int c = strncmp(p, dir, n);

		if (c < 0 || (c == 0 && p[n] < '/'))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < st->nr) {
		const struct pp_split_file *f = &st->files[st->by_path[lo]];

		if (!strncmp(f->path, dir, n) && f->path[n] == '/')
			return f;
	}
	return NULL;
}

/* Whether a link that leaves the stage reaches a file of this system. */
static int on_system(const struct pp_split_file *f)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	char *dir = pp_dirname(f->path);
	int ok;

	if (f->link[0] == '/')
		strbuf_addstr(&sb, f->link);
	else
		strbuf_addf(&sb, "/%s/%s", strcmp(dir, ".") ? dir : "", f->link);
	ok = stat(sb.buf, &st) == 0;
	free(dir);
	strbuf_release(&sb);
	return ok;
}

/* Whether a link points where the running system, not a package, puts
 * files (/run/NAME.sock, /etc/alternatives/NAME, /var/lib/NAME/...,
 * /proc/self/mounts): shipped as it is, as dh ships it. */
static int runtime_target(const struct pp_split_file *f)
{
	static const char *const dirs[] = {
		"run/", "var/", "etc/", "proc/", "sys/", "dev/", "tmp/",
		"home/", "srv/", "mnt/", "media/",
	};
	const char *t = f->link[0] == '/' ? f->link + strspn(f->link, "/") :
			f->c.target;

	for (size_t i = 0; t && i < sizeof(dirs) / sizeof(*dirs); i++)
		if (!strncmp(t, dirs[i], strlen(dirs[i])))
			return 1;
	return 0;
}


/* The error for a link whose target no package holds: dropped (its
 * choice given) or neither staged nor on this system; the rule to give
 * goes in the spec, or in one of the user's own when --name made it. */
static int dangling_link(const struct pp_split *s,
			 const struct pp_split_stage *st,
			 const struct pp_split_file *f,
			 const struct choice *dropped, struct pp_err *err)
{
	int own = s->opts.spec_from_options;

	return pp_err_set(err, PP_EXIT_INPUT, "%s/%s: symbolic link to '%s', "
			  "which %s%s%s; ship its target, or give the link a "
			  "rule in %s: packages.files = ( { path = \"%s\"; "
			  "drop = \"why\"; } ) (or package = \"NAME\")%s",
			  st->dir, f->path, f->link, dropped ? "is dropped (" :
			  "", dropped ? dropped->why : "is in no package of "
			  "this run and not on this system", dropped ? ")" : "",
			  own ? "a spec (-c FILE)" : s->spec->path, f->path,
			  own ? "; or remove the link from the tree" : "");
}

/* The section of a manual page, by its directory (usr/share/man/man3/x.3,
 * usr/share/man/de/man1/x.1): '3', '1'; 0 when none. */
static char man_section(const char *path)
{
	const char *sec = strstr(path, "/man");

	while (sec && !isdigit((unsigned char)sec[4]))
		sec = strstr(sec + 1, "/man");
	return sec ? sec[4] : 0;
}

int pp_split_orphan_page(const char *path, const char *source,
			 int has_programs, int has_library, const char **why)
{
	char sec = man_section(path);
	int lib_source = !strncmp(source, "lib", 3);

	*why = NULL;
	if (has_programs && sec && strchr("168", sec)) {
		*why = "(commands) of no program staged -> the programs' "
		       "package, as Debian's giflib-tools holds giflib.1 and "
		       "gifecho.1, sqlite3 sqldiff.1, libtiff-tools "
		       "thumbnail.1 (every such page of the 47 corpus sources)";
		return PP_ROLE_TOOLS;
	}
	if (has_programs && sec && strchr("57", sec) && !lib_source) {
		*why = "(file formats, overviews) of no program, in a source "
		       "not named lib* with programs -> the programs' package, "
		       "as Debian's acl holds acl.5, keyutils keyutils.7 "
		       "(Debian 12: of 142 such library sources with such "
		       "pages, 101 keep most of them with the programs, 16 in "
		       "-dev)";
		return PP_ROLE_TOOLS;
	}
	if (!has_library)
		return -1;
	*why = "of no program, of a library source -> the -dev package, as "
	       "libarchive-dev holds tar.5 (of the 20 Debian 12 sources "
	       "named lib* with programs and section 5 or 7 pages of none, "
	       "6 keep most in -dev, 8 with the programs: no majority)";
	return PP_ROLE_DEV;
}

/* A manual page (not of section 3) of no staged program. */
static int orphan_page(const struct pp_split_file *f, const struct names *n,
		       struct choice *c)
{
	const char *why;
	int role = pp_split_orphan_page(f->path, n->source, n->has_programs,
					n->has_library, &why);
	char sec = man_section(f->path);

	if (role < 0)
		choose_rest(c, n, pp_class_name(f->c.cls));
	else
		choose(c, xstrdup(role == PP_ROLE_TOOLS ? n->tools : n->dev),
		       role, "default: manual page of section %c %s",
		       sec ? sec : '?', why);
	return 0;
}

/* Man pages, documentation and links go where what they describe or
 * reach goes; a link that reaches nothing is an error. */
static int follow_rule(const struct pp_split *s, const struct pp_split_stage *st,
		       const struct pp_split_file *f, const struct choice *all,
		       const struct names *n, struct choice *c, struct pp_err *err)
{
	const struct pp_split_file *to;
	const char *what;

	if (f->c.cls == PP_CLASS_DOC && (!strcmp(f->path, "usr/share/info/dir") ||
					 !strcmp(f->path, "usr/share/info/dir.old"))) {
		choose(c, NULL, PP_ROLE_DOC, "default: the info directory, "
		       "which install-info keeps on each system (Debian ships "
		       "none; lintian: package-contains-info-dir-file)");
		return 0;
	}
	if (f->c.cls == PP_CLASS_DOC && pp_split_is_license_path(f->path)) {
		choose(c, NULL, PP_ROLE_DOC, "default: a license file: its text "
		       "is in each package's copyright, and Debian ships no "
		       "other copy (lintian: extra-license-file)");
		return 0;
	}
	if (f->c.cls == PP_CLASS_DOC)
		return doc_rule(n, c);
	if (embedded_source(n, f)) {
		choose(c, xstrdup(n->dev), PP_ROLE_DEV, "default: %s under "
		       "usr/share, in a library source without programs: "
		       "source to build into one's own program -> the -dev "
		       "package, as liblzo2-dev holds /usr/share/lzo/minilzo "
		       "(Debian 12: of 20 such library sources, 13 ship these "
		       "files in -dev, 1 in the library's package, 6 in -doc, "
		       "-data, -src or -examples packages)",
		       pp_split_is_c_source(f->path) ? "C or C++ source or "
		       "header" : "a file beside C or C++ sources or headers");
		return 0;
	}
	if (is_shared_data(f))
		return data_rule(n, c);
	if (f->c.cls == PP_CLASS_MAN) {
		char sec = man_section(f->path);

		if (sec == '3') {
			choose(c, xstrdup(n->dev), PP_ROLE_DEV, "default: manual "
			       "page of section 3 (library calls) -> the -dev "
			       "package");
			return 0;
		}
		to = program_of_man(st, f->path);
		what = "manual page -> the package of its program";
		if (!to)
			return orphan_page(f, n, c);
	} else {
		to = find_file(st, f->c.target);
		if (!to && f->c.target)
			to = first_under(st, f->c.target);
		what = "link -> the package of what it points to";
		if ((!to && !on_system(f) && !runtime_target(f)) ||
		    (to && !all[to - st->files].base))
			return dangling_link(s, st, f, to ? &all[to - st->files]
					     : NULL, err);
	}
	if (to && all[to - st->files].base) {
		const struct choice *t = &all[to - st->files];

		choose(c, xstrdup(t->base), t->role, "default: %s (%s)", what,
		       to->path);
		c->explicit_variant = t->explicit_variant;
		return 0;
	}
	choose_rest(c, n, pp_class_name(f->c.cls));
	return 0;
}

/* A glibc-hwcaps build's library goes where the baseline's goes: its path
 * less the glibc-hwcaps/LEVEL/ part. */
static void follow_baseline(const struct pp_split_stage *st,
			    const struct pp_split_file *f,
			    const struct choice *all, struct choice *c)
{
	struct strbuf base = STRBUF_INIT;
	const char *at = strstr(f->path, "/glibc-hwcaps/");
	const struct pp_split_file *lib;
	const struct choice *from;

	strbuf_add(&base, f->path, (size_t)(at - f->path));
	strbuf_addstr(&base, strrchr(f->path, '/'));
	lib = find_file(st, base.buf);
	from = &all[lib - st->files];
	if (from->base)
		choose(c, xstrdup(from->base), from->role, "glibc-hwcaps: the "
		       "%s build (%s) of %s, with it", f->hwcaps, f->built->name,
		       base.buf);
	else
		choose(c, NULL, from->role, "glibc-hwcaps: dropped with %s",
		       base.buf);
	c->explicit_variant = from->explicit_variant;
	strbuf_release(&base);
}

/* ---- a library's data ------------------------------------------------ */

/* A public library of the stage and what was chosen for it. */
struct lib_reads {
	const struct pp_split *s;
	const struct pp_split_stage *st;
	const struct pp_split_file *lib;
	struct choice *all;
	const struct choice *home;  /* the library's own choice */
	struct pp_strlist needed;   /* the packages of the libraries it needs */
};

/* The packages of the stage's libraries that r->lib needs (NEEDED). */
static void needed_packages(struct lib_reads *r)
{
	for (size_t i = 0; i < r->st->nr; i++) {
		const struct pp_split_file *g = &r->st->files[i];

		if (g->c.cls == PP_CLASS_SHLIB && g->c.soname &&
		    r->all[i].base && r->all[i].role == PP_ROLE_RUNTIME &&
		    pp_strlist_find(&r->lib->c.elf->needed, g->c.soname) >= 0 &&
		    pp_strlist_find(&r->needed, r->all[i].base) < 0)
			pp_strlist_push(&r->needed, r->all[i].base);
	}
}

/* Whether the library's package has what c places, or will depend on
 * it: its own package, a data package (split-relations.c makes it
 * depend on that), or the runtime package of a library it needs. */
static int reaches(const struct lib_reads *r, const struct choice *c)
{
	return !strcmp(c->base, r->home->base) || c->role == PP_ROLE_DATA ||
	       (c->role == PP_ROLE_RUNTIME &&
		pp_strlist_find(&r->needed, c->base) >= 0);
}

/* A data file the library names that its package would neither hold nor
 * depend on goes to LIBRARY-data, which it depends on; configuration
 * another library's package holds already goes to the library's package
 * itself (a data package both depend on, not back and forth). */
static void move_read(size_t file, const char *string, void *ctx)
{
	struct lib_reads *r = ctx;
	struct choice *c = &r->all[file];
	const char *path = r->st->files[file].path;
	int conf = !strncmp(path, "etc/", 4) && c->role != PP_ROLE_RUNTIME;
	struct strbuf to = STRBUF_INIT;
	char *was;

	if (!c->base || c->from_spec || reaches(r, c))
		return;
	if (conf)
		strbuf_addstr(&to, "configuration: the library's package, as "
			      "Debian's libattr1 holds /etc/xattr.conf, "
			      "libmagic1 /etc/magic and libnl-3-200 "
			      "/etc/libnl-3 (libsensors5's libsensors-config "
			      "is the other way; doc/split.md)");
	else
		strbuf_addf(&to, "an architecture-independent package of its "
			    "own that %s depends on, as Debian's "
			    "libasound2-data, libx11-data, libthai-data (of 21 "
			    "Debian 12 libraries that read data of their "
			    "source, 9 depend on its package, 7 of those an "
			    "arch-all -data, -common or -config; 3 hold it; 9, "
			    "mostly reading a daemon's configuration, neither; "
			    "doc/split.md)", r->home->base);
	was = c->base;
	free(c->why);
	choose(c, conf ? xstrdup(r->home->base) :
		      pp_split_with_suffix(r->home->base, "data"),
	       conf ? r->home->role : PP_ROLE_DATA, "default: library data: "
	       "the library %s names \"%s\" in its read-only strings, and "
	       "%s, its package, would neither hold nor depend on %s (the %s "
	       "package) -> %s", r->lib->c.soname, string, r->home->base,
	       path, was, to.buf);
	c->explicit_variant = r->home->explicit_variant;
	free(was);
	strbuf_release(&to);
}

/* Every public library's data within its reach (pp_split_library_reads),
 * after the data rules and before the links that follow them. */
static void library_data_rule(const struct pp_split *s,
			      const struct pp_split_stage *st, struct choice *all)
{
	for (size_t i = 0; i < st->nr; i++) {
		struct lib_reads r = { s, st, &st->files[i], all, &all[i],
				       PP_STRLIST_INIT };

		if (r.lib->c.cls != PP_CLASS_SHLIB || !r.lib->c.elf ||
		    !r.lib->c.elf->paths.nr || !r.home->base ||
		    r.home->role != PP_ROLE_RUNTIME)
			continue;
		needed_packages(&r);
		pp_split_library_reads(s, st, r.lib, move_read, &r);
		pp_strlist_release(&r.needed);
	}
}

static int assign_stage(const struct pp_split *s, const struct pp_split_stage *st,
			struct choice *all, struct pp_err *err)
{
	struct names n;
	int rc = stage_names(s, st, &n, err), hit;

	/* pass 0: the spec's rules, then the defaults by class; 1: manual
	 * pages and documents, which follow what they document; 2: links,
	 * which follow what they reach (never a link: those are resolved) */
	for (int pass = 0; pass < 3 && !rc; pass++) {
		if (pass == 1) {
			static const enum pp_role doc[3] = { PP_ROLE_DEV,
				PP_ROLE_TOOLS, PP_ROLE_RUNTIME };

			n.doc_home = home_of(st, all, doc);
			n.data_home = home_of(st, all,
				pp_split_variant_data_order(s, st->variant));
		}
		for (size_t i = 0; i < st->nr && !rc; i++) {
			const struct pp_split_file *f = &st->files[i];

			if (f->hwcaps)
				continue; /* follow_baseline, below */
			if (pass == 0)
				rc = spec_rule(s, st, f, &all[i], &hit, err);
			if (rc || all[i].why)
				continue;
			if (pass == 0 && !is_follower(f))
				rc = default_rule(s, f, &n, &all[i]);
			else if (pass > 0 && (pass == 2) ==
				 (f->c.cls == PP_CLASS_SYMLINK))
				rc = follow_rule(s, st, f, all, &n, &all[i], err);
		}
		if (pass == 1 && !rc)
			library_data_rule(s, st, all);
	}
	release_names(&n);
	for (size_t i = 0; i < st->nr && !rc; i++)
		if (st->files[i].hwcaps)
			follow_baseline(st, &st->files[i], all, &all[i]);
	return rc;
}

/* ---- sharing ---------------------------------------------------------- */

static struct pp_split_file *same_path(const struct pp_split_stage *st,
				       const char *path)
{
	return (struct pp_split_file *)find_file(st, path);
}

/* Regular files and empty directories: the same everywhere. Links: the
 * same target, reaching a shared file (or outside the stage). */
static void find_shared(struct pp_split *s, struct choice **choices,
			struct pp_err *err)
{
	/* a variant not here may differ: sharing needs them all, so that a
	 * package's name means the same files in every run */
	size_t nr = 0; /* glibc-hwcaps builds are part of their baseline's */

	for (size_t i = 0; i < s->spec->nr_variants; i++)
		nr += !pp_spec_hwcaps_higher(s->spec, &s->spec->variants[i]);
	if (s->nr_stages < nr) {
		if (nr > 1)
			pp_warn(err, "padpack split: %zu of the %zu variants %s "
				"here: files the same in every variant cannot be "
				"told apart, so each variant's packages hold all "
				"of its files", s->nr_stages, nr,
				s->nr_stages == 1 ? "is" : "are");
		return;
	}
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < s->stages[0].nr; i++) {
			struct pp_split_file *f = &s->stages[0].files[i];
			int shared = 1;

			if (S_ISLNK(f->st.st_mode) != pass)
				continue;
			for (size_t k = 1; k < s->nr_stages && shared; k++) {
				struct pp_split_file *g = same_path(&s->stages[k],
								    f->path);
				struct choice *cg = g ? &choices[k][g -
						s->stages[k].files] : NULL;

				shared = g && (g->st.st_mode & 07777) ==
					 (f->st.st_mode & 07777) &&
					 (g->st.st_mode & S_IFMT) ==
					 (f->st.st_mode & S_IFMT) &&
					 !memcmp(g->sum, f->sum, sizeof(f->sum)) &&
					 !cg->explicit_variant &&
					 !strcmp(g->link ? g->link : "",
						 f->link ? f->link : "");
			}
			if (shared && pass == 1 && f->c.target) {
				const struct pp_split_file *t =
					find_file(&s->stages[0], f->c.target);

				shared = !t || t->shared;
			}
			if (choices[0][i].explicit_variant)
				shared = 0;
			f->shared = shared;
			for (size_t k = 1; k < s->nr_stages && shared; k++)
				same_path(&s->stages[k], f->path)->shared = 1;
		}
}

int pp_split_assign(struct pp_split *s, struct pp_err *err)
{
	struct choice **choices = xcalloc(s->nr_stages + 1, sizeof(*choices));
	int rc = 0;

	for (size_t k = 0; k < s->nr_stages && !rc; k++) {
		choices[k] = xcalloc(s->stages[k].nr + 1, sizeof(**choices));
		rc = assign_stage(s, &s->stages[k], choices[k], err);
	}
	if (!rc) {
		find_shared(s, choices, err);
		rc = pp_split_make_packages(s, choices, err);
	}
	pp_split_free_choices(s, choices);
	return rc;
}
