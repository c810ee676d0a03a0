/* padpack split: what a -dev package needs of other projects' -dev
 * packages. pkg-config fails on a .pc file whose Requires or
 * Requires.private module is missing ("Package 'ogg', required by
 * 'flac', not found"), and a header that includes another project's
 * header does not compile without it; Debian's maintainers write these
 * by hand (libflac-dev: libogg-dev, libxslt1-dev: libxml2-dev (>=
 * 2.6.26), nettle-dev: libgmp-dev, libpng-dev: zlib1g-dev); so does ld
 * on a libNAME.so ld script naming a library not there ("cannot find
 * -lmd": libbsd-dev depends on libmd-dev). Read from the -dev package's
 * own .pc files, headers and ld scripts, resolved to the
 * installed package that ships the .pc file or header (dpkg-query
 * --search), as dpkg-shlibdeps resolves a library. */
#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fsutil.h"
#include "splitint.h"
#include "xalloc.h"

/* What pkg-config and the compiler find on their own: the toolchain's
 * headers, which build-essential brings (policy 4.2: no package needs
 * to depend on it). */
static int is_toolchain(const char *package)
{
	static const char *const globs[] = {
		"libc6-dev", "linux-libc-dev", "libcrypt-dev", "libnsl-dev",
		"libtirpc-dev", "rpcsvc-proto", "libc-dev-bin", "libstdc++*-dev",
		"libgcc*-dev", "gcc*", "g++*", "cpp*", NULL
	};

	for (const char *const *g = globs; *g; g++)
		if (!fnmatch(*g, package, 0))
			return 1;
	return 0;
}

/* Whether the run ships a file whose path ends in "/tail". */
static int run_ships(const struct pp_split *s, const char *tail)
{
	size_t n = strlen(tail);

	for (size_t i = 0; i < s->nr_stages; i++)
		for (size_t j = 0; j < s->stages[i].nr; j++) {
			const char *p = s->stages[i].files[j].path;
			size_t m = strlen(p);

			if (m > n && p[m - n - 1] == '/' && !strcmp(p + m - n, tail))
				return 1;
		}
	return 0;
}

struct wanted {
	struct pp_strlist paths;  /* where on the system it would be */
	struct pp_strlist rel;    /* per path: " (>= 2.6.26)" or "" */
	struct pp_strlist why;    /* per path: "usr/include/x.h includes <y.h>" */
	const char *file;         /* the staged file being read */
};

static void want(struct wanted *w, const char *path, const char *rel,
		 const char *what)
{
	pp_strlist_push(&w->paths, path);
	pp_strlist_push(&w->rel, rel);
	pp_strlist_pushf(&w->why, "%s %s", w->file, what);
}

/* Where each kind of file is looked for: a directory may name the
 * triplet once ("%s"). */
static const char *const pc_dirs[] = { "/usr/lib/%s/pkgconfig",
	"/usr/share/pkgconfig", "/usr/lib/pkgconfig", NULL };
static const char *const header_dirs[] = { "/usr/include",
	"/usr/include/%s", NULL };
static const char *const lib_dirs[] = { "/usr/lib/%s", "/lib/%s",
	"/usr/lib", NULL };

/* Wants "tail" in each of dirs, unless the run ships it. */
static void want_in(const struct pp_split *s, struct wanted *w,
		    const char *const *dirs, const char *tail,
		    const char *rel, const char *what)
{
	struct strbuf path = STRBUF_INIT;

	if (run_ships(s, tail))
		return;
	for (; *dirs; dirs++) {
		strbuf_reset(&path);
		strbuf_addf(&path, *dirs, s->triplet);
		strbuf_addf(&path, "/%s", tail);
		want(w, path.buf, rel, what);
	}
	strbuf_release(&path);
}

/* The .pc files of the modules a .pc file requires, but the run's own. */
static void pc_wanted(const struct pp_split *s, const char *text,
		      struct wanted *w)
{
	struct pp_strlist mods = PP_STRLIST_INIT, rels = PP_STRLIST_INIT;
	struct strbuf tail = STRBUF_INIT, what = STRBUF_INIT;

	pp_split_pc_requires(text, &mods, &rels);
	for (size_t i = 0; i < mods.nr; i++) {
		strbuf_reset(&tail);
		strbuf_reset(&what);
		strbuf_addf(&tail, "%s.pc", mods.items[i]);
		strbuf_addf(&what, "requires %s (pkg-config fails without it)",
			    mods.items[i]);
		want_in(s, w, pc_dirs, tail.buf, rels.items[i], what.buf);
	}
	strbuf_release(&tail);
	strbuf_release(&what);
	pp_strlist_release(&mods);
	pp_strlist_release(&rels);
}

/* The headers a header includes that the run does not ship. */
static void header_wanted(const struct pp_split *s, const char *text,
			  struct wanted *w)
{
	struct pp_strlist inc = PP_STRLIST_INIT;
	struct strbuf what = STRBUF_INIT;

	pp_split_header_includes(text, &inc);
	for (size_t i = 0; i < inc.nr; i++) {
		strbuf_reset(&what);
		strbuf_addf(&what, "includes <%s>", inc.items[i]);
		want_in(s, w, header_dirs, inc.items[i], "", what.buf);
	}
	strbuf_release(&what);
	pp_strlist_release(&inc);
}

/* The libraries an ld script names that the run does not ship: ld
 * fails without them ("cannot find -lmd"), as libbsd-dev's libbsd.so
 * names -lmd and Debian's libbsd-dev depends on libmd-dev. An input
 * is -lNAME (libNAME.so in the library path), an absolute path, or a
 * file name searched for in the library path. */
static void ld_script_wanted(const struct pp_split *s, const char *text,
			     struct wanted *w)
{
	struct pp_strlist in = PP_STRLIST_INIT;
	struct strbuf tail = STRBUF_INIT, what = STRBUF_INIT;

	pp_ld_script_inputs(text, &in);
	for (size_t i = 0; i < in.nr; i++) {
		const char *name = in.items[i], *base = strrchr(name, '/');

		strbuf_reset(&tail);
		strbuf_reset(&what);
		if (!strncmp(name, "-l", 2) && name[2])
			strbuf_addf(&tail, "lib%s.so", name + 2);
		else if (name[0] != '-')
			strbuf_addstr(&tail, base ? base + 1 : name);
		else
			continue;
		strbuf_addf(&what, "names %s (ld fails without it)", name);
		if (name[0] != '/')
			want_in(s, w, lib_dirs, tail.buf, "", what.buf);
		else if (!run_ships(s, tail.buf))
			want(w, name, "", what.buf);
	}
	strbuf_release(&tail);
	strbuf_release(&what);
	pp_strlist_release(&in);
}

/* Reads the package's .pc files, headers and ld scripts into w. */
static int read_wanted(const struct pp_split *s, const struct pp_split_pkg *p,
		       struct wanted *w, struct pp_err *err)
{
	struct strbuf text = STRBUF_INIT, path = STRBUF_INIT;
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < p->nr_files; i++) {
		const struct pp_split_file *f = pp_split_at(s, p->files[i]);

		if ((f->c.cls != PP_CLASS_PKGCONFIG && f->c.cls != PP_CLASS_HEADER &&
		     !f->c.ld_script) || !S_ISREG(f->st.st_mode))
			continue;
		strbuf_reset(&text);
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", s->stages[p->files[i].stage].dir, f->path);
		w->file = f->path;
		rc = pp_read_file(path.buf, &text, err);
		if (rc == 0 && f->c.ld_script)
			ld_script_wanted(s, text.buf, w);
		else if (rc == 0 && f->c.cls == PP_CLASS_HEADER)
			header_wanted(s, text.buf, w);
		else if (rc == 0)
			pc_wanted(s, text.buf, w);
	}
	strbuf_release(&text);
	strbuf_release(&path);
	return rc;
}

int pp_split_dev_depends(const struct pp_split *s, size_t pkg,
			 struct pp_strlist *rel, struct pp_strlist *why,
			 struct pp_err *err)
{
	struct wanted w = { PP_STRLIST_INIT, PP_STRLIST_INIT, PP_STRLIST_INIT, NULL };
	struct pp_strlist owners = PP_STRLIST_INIT, names = PP_STRLIST_INIT;
	struct pp_dpkgdb db;
	int rc;

	pp_dpkgdb_init(&db, s->opts.admindir, s->arch, s->triplet);
	rc = read_wanted(s, &s->pkgs[pkg], &w, err);
	if (rc == 0 && w.paths.nr)
		rc = pp_dpkgdb_owners(&db, &w.paths, &owners, err);
	for (size_t i = 0; rc == 0 && i < owners.nr; i++) {
		const char *o = owners.items[i];
		long k = pp_strlist_find(&names, o);

		if (!*o || is_toolchain(o))
			continue;
		if (k < 0) {
			pp_strlist_push(&names, o);
			pp_strlist_pushf(rel, "%s%s", o, w.rel.items[i]);
			if (why)
				pp_strlist_pushf(why, "%s, shipped by %s", w.why.items[i],
						 o);
		} else if (*w.rel.items[i]) {
			/* a version asked for wins over none */
			char **item = &rel->items[rel->nr - names.nr + k];
			struct strbuf sb = STRBUF_INIT;

			if (strchr(*item, '('))
				continue;
			strbuf_addf(&sb, "%s%s", o, w.rel.items[i]);
			free(*item);
			*item = strbuf_detach(&sb, NULL);
		}
	}
	pp_strlist_release(&names);
	pp_strlist_release(&owners);
	pp_strlist_release(&w.paths);
	pp_strlist_release(&w.rel);
	pp_strlist_release(&w.why);
	pp_dpkgdb_release(&db);
	return rc;
}
