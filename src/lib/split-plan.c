/* padpack split, planning: read the stage trees, classify, find the files
 * every variant shares, assign each file to a package. Writes nothing. */
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
#include "splitint.h"
#include "tree.h"
#include "xalloc.h"

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

char *pp_split_debian_version(const char *upstream, const char *revision)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = upstream;

	/* X.Y.Z then aN, bN or rcN: a pre-release sorts before X.Y.Z; any
	 * other upstream version (1.4.2+ds, 2.1.12-stable) is kept as is */
	while (*p && (isdigit((unsigned char)*p) || *p == '.'))
		p++;
	if (*p && pp_version_is_release(upstream)) {
		strbuf_add(&sb, upstream, (size_t)(p - upstream));
		strbuf_addf(&sb, "~%s", p);
	} else {
		strbuf_addstr(&sb, upstream);
	}
	strbuf_addf(&sb, "-%s", revision);
	return strbuf_detach(&sb, NULL);
}

/* ---- reading the stages ----------------------------------------------- */

static int sha256_file(const char *path, unsigned char *out, struct pp_err *err)
{
	unsigned char buf[65536];
	struct pp_hash h;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot read '%s'", path);
	pp_hash_init(&h, PP_SHA256);
	while ((n = pp_read_full(fd, buf, sizeof(buf))) > 0)
		pp_hash_update(&h, buf, (size_t)n);
	pp_hash_final(&h, out);
	close(fd);
	if (n < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot read '%s'", path);
	return 0;
}

struct dir_ref {
	const char *path;
	size_t index;
};

static int cmp_dir_ref(const void *a, const void *b)
{
	return strcmp(((const struct dir_ref *)a)->path,
		      ((const struct dir_ref *)b)->path);
}

/* Marks in nonempty[] the directories of t that hold anything. */
static void find_nonempty_dirs(const struct pp_tree *t, unsigned char *nonempty)
{
	struct dir_ref *dirs = xcalloc(t->nr + 1, sizeof(*dirs));
	size_t nr = 0;

	for (size_t i = 0; i < t->nr; i++)
		if (S_ISDIR(t->e[i].st.st_mode)) {
			dirs[nr].path = t->e[i].path;
			dirs[nr++].index = i;
		}
	qsort(dirs, nr, sizeof(*dirs), cmp_dir_ref);
	for (size_t i = 0; i < t->nr; i++) {
		char *parent = pp_dirname(t->e[i].path);
		struct dir_ref key = { strcmp(parent, ".") ? parent : "", 0 };
		const struct dir_ref *hit = *t->e[i].path ?
			bsearch(&key, dirs, nr, sizeof(*dirs), cmp_dir_ref) : NULL;

		if (hit)
			nonempty[hit->index] = 1;
		free(parent);
	}
	free(dirs);
}

/* An unversioned python interpreter line, which dh_python3 rewrites to
 * /usr/bin/python3 (Debian has no /usr/bin/python). */
int pp_split_python_shebang(const char *head)
{
	static const char *const lines[] = { "#!/usr/bin/python",
					     "#!/usr/bin/env python" };

	for (size_t i = 0; i < 2; i++) {
		size_t n = strlen(lines[i]);

		if (!strncmp(head, lines[i], n) &&
		    (head[n] == '\n' || head[n] == ' ' || head[n] == '\t' ||
		     head[n] == '\r' || !head[n]))
			return 1;
	}
	return 0;
}

static int read_head(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	buf[0] = 0;
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	return 0;
}

/* A manual page of no bytes (upstream writes pages with a tool the build
 * did not run): lintian's empty-manual-page; never shipped. */
static int is_empty_man_page(const struct pp_tree_entry *e)
{
	return S_ISREG(e->st.st_mode) && e->st.st_size == 0 &&
	       !strncmp(e->path, "usr/share/man/", 14);
}

/* An empty directory of the file system's own layout (usr/bin, usr/lib,
 * usr/include ...), which install rules create whether or not they put
 * anything there: shipped, it would be a package of nothing (an empty
 * usr/bin made an empty program package) or lintian's
 * package-contains-empty-directory; dh_install ships none either. Other
 * empty directories (var/lib/NAME) are a package's own and are kept. */
static int is_empty_standard_dir(const struct pp_tree_entry *e)
{
	static const char *const dirs[] = {
		"bin", "sbin", "lib", "lib64", "etc", "usr", "usr/bin",
		"usr/sbin", "usr/games", "usr/lib", "usr/lib64", "usr/libexec",
		"usr/lib/*-linux-gnu*", "usr/lib/*-linux-gnu*/pkgconfig",
		"usr/lib/*-linux-gnu*/cmake", "usr/lib/pkgconfig",
		"usr/lib/cmake", "usr/include", "usr/include/*-linux-gnu*",
		"usr/share", "usr/share/doc", "usr/share/info",
		"usr/share/locale", "usr/share/man", "usr/share/man/man*",
		"usr/share/pkgconfig", NULL,
	};

	for (const char *const *d = dirs; S_ISDIR(e->st.st_mode) && *d; d++)
		if (!fnmatch(*d, e->path, FNM_PATHNAME))
			return 1;
	return 0;
}

static int add_file(struct pp_split_stage *st, const struct pp_tree_entry *e,
		    struct pp_err *err)
{
	struct pp_split_file *f;
	struct strbuf full = STRBUF_INIT;
	int rc = 0;

	if (!S_ISREG(e->st.st_mode) && !S_ISDIR(e->st.st_mode) &&
	    !S_ISLNK(e->st.st_mode))
		return pp_err_set(err, PP_EXIT_INPUT, "%s/%s: a device, FIFO or "
				  "socket; a package cannot ship one (create it "
				  "in a maintainer script)", st->dir, e->path);
	ARRAY_GROW(st->files, st->alloc, st->nr + 1);
	f = &st->files[st->nr++];
	memset(f, 0, sizeof(*f));
	f->path = xstrdup(e->path);
	f->st = e->st;
	f->link = e->link_target ? xstrdup(e->link_target) : NULL;
	f->pkg = -1;
	if (pp_classify(st->dir, f->path, &f->st, f->link, &f->c, err) < 0)
		return -1;
	if (S_ISREG(f->st.st_mode)) {
		char head[64];

		strbuf_addf(&full, "%s/%s", st->dir, f->path);
		rc = sha256_file(full.buf, f->sum, err);
		if (rc == 0 && f->c.cls != PP_CLASS_SHLIB && !f->c.elf &&
		    !read_head(full.buf, head, sizeof(head)))
			f->python_shebang = pp_split_python_shebang(head);
		strbuf_release(&full);
	}
	return rc;
}

static int cmp_by_path(const void *a, const void *b, void *arg)
{
	const struct pp_split_stage *st = arg;

	return strcmp(st->files[*(const size_t *)a].path,
		      st->files[*(const size_t *)b].path);
}

void pp_split_index_stage(struct pp_split_stage *st)
{
	free(st->by_path);
	st->by_path = xcalloc(st->nr + 1, sizeof(*st->by_path));
	for (size_t i = 0; i < st->nr; i++)
		st->by_path[i] = i;
	qsort_r(st->by_path, st->nr, sizeof(*st->by_path), cmp_by_path, st);
}

struct pp_split_file *pp_split_find(const struct pp_split_stage *st,
				    const char *path)
{
	size_t lo = 0, hi = st->nr;

	while (path && lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(path, st->files[st->by_path[mid]].path);

		if (!c)
			return &st->files[st->by_path[mid]];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static int read_stage(struct pp_split_stage *st, struct pp_err *err)
{
	struct pp_tree t = { 0 };
	unsigned char *nonempty;
	int rc = 0;

	if (pp_tree_walk(st->dir, NULL, &t, err) < 0)
		return -1;
	nonempty = xcalloc(t.nr + 1, 1);
	find_nonempty_dirs(&t, nonempty);
	for (size_t i = 0; i < t.nr && !rc; i++) {
		if (!*t.e[i].path || (S_ISDIR(t.e[i].st.st_mode) && nonempty[i]))
			continue; /* the root, and directories with content */
		if (is_empty_standard_dir(&t.e[i])) {
			pp_warn(err, "padpack split: %s/%s: an empty directory "
				"of the system's layout; not shipped", st->dir,
				t.e[i].path);
			continue;
		}
		if (is_empty_man_page(&t.e[i])) {
			pp_warn(err, "padpack split: %s/%s: an empty manual page; "
				"not shipped (build the page, or remove it)",
				st->dir, t.e[i].path);
			continue;
		}
		rc = add_file(st, &t.e[i], err);
	}
	if (!rc)
		pp_split_index_stage(st);
	free(nonempty);
	pp_tree_release(&t);
	return rc;
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A glibc-hwcaps build left out by --variant while its baseline is in:
 * the package then lacks that level, which deserves a word. */
static void unselected_hwcaps(const struct pp_split *s,
			      const struct pp_variant *v, struct pp_err *err)
{
	const struct pp_variant *base = pp_spec_hwcaps_base(s->spec, v);

	if (base && base != v &&
	    s->opts.selected[base - s->spec->variants])
		pp_warn(err, "padpack split: %s, a glibc-hwcaps build of %s, is "
			"not selected: %s's packages carry no build of its "
			"level", v->name, base->name, base->name);
}

static int carry_hwcaps(struct pp_split *s, struct pp_strlist *higher,
			struct pp_err *err)
{
	int rc = 0;

	for (size_t i = 0; i < higher->nr && !rc; i++) {
		struct pp_split_stage st = { 0 };

		char *tab = strchr(higher->items[i], '\t'); /* NAME\tDIR */

		st.dir = xstrdup(tab + 1);
		*tab = 0;
		st.variant = pp_spec_find_variant(s->spec, higher->items[i]);
		rc = read_stage(&st, err);
		if (!rc)
			rc = pp_split_hwcaps_carry(s, &st, err);
		for (size_t j = 0; j < st.nr; j++)
			pp_split_file_release(&st.files[j]);
		free(st.files);
		free(st.by_path);
		free(st.dir);
	}
	return rc;
}

static int load_stages(struct pp_split *s, struct pp_err *err)
{
	const struct pp_spec *spec = s->spec;
	struct pp_strlist missing = PP_STRLIST_INIT, higher = PP_STRLIST_INIT;
	int rc;

	s->stages = xcalloc(spec->nr_variants + 1, sizeof(*s->stages));
	for (size_t i = 0; i < spec->nr_variants; i++) {
		struct pp_split_stage *st = &s->stages[s->nr_stages];
		struct strbuf dir = STRBUF_INIT;

		if (s->opts.selected && !s->opts.selected[i]) {
			unselected_hwcaps(s, &spec->variants[i], err);
			continue;
		}
		if (s->opts.stage_dir && s->nr_stages) {
			pp_strlist_release(&missing);
			return pp_err_set(err, PP_EXIT_INPUT, "%s has %zu "
					  "variants; one staged tree (--stage) "
					  "is one of them: choose it with "
					  "--variant", spec->path,
					  spec->nr_variants);
		}
		if (s->opts.stage_dir)
			strbuf_addstr(&dir, s->opts.stage_dir);
		else
			strbuf_addf(&dir, "%s/%s/stage", s->opts.build_dir,
				    spec->variants[i].name);
		if (!is_dir(dir.buf)) {
			pp_strlist_push(&missing, dir.buf);
			strbuf_release(&dir);
			continue;
		}
		if (pp_spec_hwcaps_higher(spec, &spec->variants[i])) {
			pp_strlist_pushf(&higher, "%s\t%s",
					 spec->variants[i].name, dir.buf);
			strbuf_release(&dir);
			continue;
		}
		st->variant = &spec->variants[i];
		st->dir = strbuf_detach(&dir, NULL);
		s->nr_stages++;
		if (read_stage(st, err) < 0) {
			pp_strlist_release(&missing);
			pp_strlist_release(&higher);
			return -1;
		}
	}
	rc = carry_hwcaps(s, &higher, err);
	pp_strlist_release(&higher);
	if (rc < 0) {
		pp_strlist_release(&missing);
		return -1;
	}
	if (missing.nr && (s->opts.explicit_selection || !s->nr_stages)) {
		char *all = pp_strlist_join(&missing, ", ");

		pp_err_set(err, PP_EXIT_INPUT, "no stage tree %s; run 'padpack "
			   "build' first (with -B if the build went elsewhere)",
			   all);
		free(all);
		pp_strlist_release(&missing);
		return -1;
	}
	for (size_t i = 0; i < missing.nr; i++)
		pp_warn(err, "padpack split: %s is missing (the variant was not "
			"built here); its packages are left out",
			missing.items[i]);
	pp_strlist_release(&missing);
	return 0;
}

/* The architecture of the run: that of its ELF files, which must agree. */
static int find_arch(struct pp_split *s, struct pp_err *err)
{
	const char *where = NULL;

	for (size_t i = 0; i < s->nr_stages; i++)
		for (size_t j = 0; j < s->stages[i].nr; j++) {
			const struct pp_split_file *f = &s->stages[i].files[j];
			const char *a;

			/* machine 0: not code of a machine (Guile's .go) */
			if (!f->c.elf || f->c.cls == PP_CLASS_OBJECT ||
			    !f->c.elf->machine)
				continue;
			a = pp_elf_debian_arch(f->c.elf);
			if (!a)
				return pp_err_set(err, PP_EXIT_INPUT, "%s/%s: ELF "
						  "machine %u is not one padpack "
						  "knows a Debian architecture "
						  "of", s->stages[i].dir, f->path,
						  f->c.elf->machine);
			if (!s->arch) {
				s->arch = xstrdup(a);
				s->triplet = xstrdup(pp_elf_multiarch(f->c.elf));
				where = f->path;
			} else if (strcmp(s->arch, a)) {
				return pp_err_set(err, PP_EXIT_INPUT, "%s/%s is "
						  "built for %s but %s for %s; "
						  "one run packages one "
						  "architecture", s->stages[i].dir,
						  f->path, a, where, s->arch);
			}
		}
	if (!s->arch) {
		s->arch = xstrdup("amd64"); /* nothing built for a machine */
		s->triplet = xstrdup("x86_64-linux-gnu");
	}
	return 0;
}

/* ---- rules ------------------------------------------------------------ */

/* What a rule decided for one file. */
struct choice {
	char *base;      /* package name, NULL when dropped */
	enum pp_role role;
	int explicit_variant; /* the name already names the variant */
	char *why;
};

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

static char *with_suffix(const char *base, const char *suffix)
{
	char *out = xmalloc(strlen(base) + strlen(suffix) + 2);

	sprintf(out, "%s%s%s", base, *suffix ? "-" : "", suffix);
	return out;
}

/* The packages a stage's default rules name, worked out once. */
struct names {
	char *source;   /* packages.name (expanded), else the spec's name */
	char *tools;    /* the programs' package */
	char *tools_why;
	char *dev;      /* the one -dev package of the source */
	char *group;    /* packages.runtime = "one": the runtime package */
	char *doc;      /* the -doc package of a manual */
	int has_library; /* a public shared library is staged */
	char *library;  /* the package of the library named like the source
			   (else the first): the library's, for what goes
			   with it */
	int has_programs;
	unsigned long long doc_bytes; /* documentation but manual pages */
	const struct choice *doc_home; /* where a few documents go, or NULL */
	unsigned long long data_bytes; /* usr/share, but documentation */
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
	free(n->library);
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

static int is_shared_data(const struct pp_split_file *f)
{
	return f->c.cls == PP_CLASS_DATA && !strncmp(f->path, "usr/share/", 10) &&
	       !pp_split_is_dev_path(f->path);
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
			unsigned long long *doc_bytes,
			unsigned long long *data_bytes)
{
	for (size_t i = 0; i < st->nr; i++) {
		const struct pp_split_file *f = &st->files[i];
		char *dir;

		if (in_bindir(f->path) && !S_ISDIR(f->st.st_mode) &&
		    !pp_split_is_dev_path(f->path))
			pp_strlist_push(programs, strrchr(f->path, '/') + 1);
		if (f->c.cls == PP_CLASS_DOC && S_ISREG(f->st.st_mode))
			*doc_bytes += (unsigned long long)f->st.st_size;
		if (is_shared_data(f) && S_ISREG(f->st.st_mode))
			*data_bytes += (unsigned long long)f->st.st_size;
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

static int stage_names(const struct pp_split *s, const struct pp_split_stage *st,
		       struct names *n, struct pp_err *err)
{
	struct pp_strlist programs = PP_STRLIST_INIT, sonames = PP_STRLIST_INIT;
	struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;
	int rc = 0;

	memset(n, 0, sizeof(*n));
	stage_facts(s, st, &programs, &sonames, &n->doc_bytes, &n->data_bytes);
	if (s->spec->package) {
		rc = expand(s, st->variant, s->spec->package, &sb, err);
		n->tools = strbuf_detach(&sb, NULL);
		n->source = xstrdup(n->tools);
		n->tools_why = xstrdup("programs -> packages.name");
	} else {
		n->source = xstrdup(s->spec->name);
		n->tools = pp_split_tools_package(n->source, &programs, &why);
		n->tools_why = strbuf_detach(&why, NULL);
	}
	n->dev = pp_split_dev_package(n->source, &sonames);
	n->has_library = sonames.nr > 0;
	if (sonames.nr)
		n->library = n->group ? xstrdup(n->group) :
			     pp_split_runtime_group(n->source, &sonames);
	n->has_programs = programs.nr > 0;
	n->doc = pp_split_doc_package(n->source, sonames.nr ? n->dev : NULL);
	if (s->spec->runtime_one)
		n->group = pp_split_runtime_group(n->source, &sonames);
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

/* A shared library (or a link to one) in a public directory goes to the
 * runtime package named from its SONAME (or the one runtime package of
 * packages.runtime = "one"); elsewhere it is private. */
static int library_rule(const struct pp_split *s, const struct pp_split_file *f,
			const struct names *n, struct choice *c)
{
	const char *lib = f->c.cls == PP_CLASS_SHLIB ? f->path : f->c.target;
	char *libdir = lib ? pp_dirname(lib) : NULL;
	char *pkg = f->c.soname ? pp_soname_package(f->c.soname) : NULL;
	int pub = libdir && pp_split_public_libdir(s, libdir);
	const char *what = f->c.cls == PP_CLASS_SHLIB ?
			   "shared library with SONAME" : "link to the library";

	if (pkg && pub && n->group) {
		free(pkg);
		choose(c, xstrdup(n->group), PP_ROLE_RUNTIME, "%s: "
		       "packages.runtime = \"one\": %s %s -> the one runtime "
		       "package, named from the library named like the source "
		       "(as libxslt1.1 holds libxslt and libexslt)",
		       s->spec->path, what, f->c.soname);
	} else if (pkg && pub) {
		choose(c, pkg, PP_ROLE_RUNTIME, "default: %s %s in a public "
		       "library directory -> runtime package named from the "
		       "SONAME (policy 8.1; as Debian splits nettle, libevent, "
		       "pcre2, libwebp; packages.runtime = \"one\" groups "
		       "them)", what, f->c.soname);
	} else {
		free(pkg);
		choose_rest(c, n, "private shared library (outside the "
			    "linker's path)");
	}
	free(libdir);
	return 0;
}

/* padpack's defaults, by class; man pages, documentation and other links
 * come later, once what they document or point to is placed. */
static int default_rule(const struct pp_split *s, const struct pp_split_file *f,
			const struct names *n, struct choice *c)
{
	static const char one_dev[] = "one -dev package per source, as "
		"Debian's nearly always is (libevent-dev, libpcre2-dev, "
		"nettle-dev: headers, .so links, .a, .pc, CMake files, "
		"*-config)";

	if (pp_split_is_dev_path(f->path) && f->c.cls != PP_CLASS_DIR) {
		choose(c, xstrdup(n->dev), PP_ROLE_DEV, "default: a file for "
		       "building (*-config, aclocal, gir, vapi) -> %s", one_dev);
		return 0;
	}
	switch (f->c.cls) {
	case PP_CLASS_LIBTOOL:
		choose(c, NULL, PP_ROLE_DEV, "default: libtool archive; "
		       "Debian ships none (policy 10.2)");
		return 0;
	case PP_CLASS_SHLIB:
	case PP_CLASS_SHLIB_LINK:
		return library_rule(s, f, n, c);
	case PP_CLASS_DEV_LINK:
		choose(c, xstrdup(n->dev), PP_ROLE_DEV, "default: link for "
		       "linking with %s -> %s", f->c.soname, one_dev);
		return 0;
	case PP_CLASS_STATIC:
		choose(c, xstrdup(n->dev), PP_ROLE_DEV, "default: static "
		       "library -> the -dev package of the headers (%s; never "
		       "a *-static-dev)", one_dev);
		return 0;
	case PP_CLASS_HEADER:
	case PP_CLASS_PKGCONFIG:
	case PP_CLASS_CMAKE:
		choose(c, xstrdup(n->dev), PP_ROLE_DEV, "default: %s -> %s",
		       pp_class_name(f->c.cls), one_dev);
		return 0;
	case PP_CLASS_PYTHON:
		choose(c, python_name(f->path), PP_ROLE_PYTHON, "default: "
		       "Python module -> python3-<module> (Python policy)");
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
			if (!strcmp(given, role_names[r]))
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
		return 0;
	}
	return 0;
}

/* Where a man page's program is, or NULL. */
static const struct pp_split_file *program_of_man(const struct pp_split_stage *st,
						  const char *path)
{
	static const char *const bindirs[] = {
		"usr/bin/", "usr/sbin/", "bin/", "sbin/", "usr/games/", NULL,
	};
	const char *base = strrchr(path, '/') + 1;
	size_t n = strcspn(base, ".");

	for (size_t i = 0; i < st->nr; i++)
		for (const char *const *d = bindirs; *d; d++) {
			size_t dl = strlen(*d);
			const char *p = st->files[i].path;

			if (!strncmp(p, *d, dl) && strlen(p + dl) == n &&
			    !strncmp(p + dl, base, n))
				return &st->files[i];
		}
	return NULL;
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
 * library came first. */
static const char *home_name(const struct names *n, const struct choice *home)
{
	return home->role == PP_ROLE_RUNTIME && n->library && !home->explicit_variant
	       ? n->library : home->base;
}

/* Architecture-independent data under usr/share (locales, data files):
 * with the programs, else the library, else -dev (a lib* source: the
 * library first), as Debian keeps it (popt's locales in libpopt0, acl's
 * in acl); a -data package only from PP_SPLIT_DATA_PACKAGE_BYTES. */
static int data_rule(const struct names *n, struct choice *c)
{
	const struct choice *home = n->data_home;
	unsigned long long kib = (n->data_bytes + 1023) / 1024;

	if (n->data_bytes >= PP_SPLIT_DATA_PACKAGE_BYTES || !home) {
		choose(c, with_suffix(n->source, "data"), PP_ROLE_DATA,
		       "default: architecture-independent data (usr/share), "
		       "%llu KiB in all (%llu KiB or more, or nothing else to "
		       "hold it) -> the -data package", kib,
		       PP_SPLIT_DATA_PACKAGE_BYTES / 1024);
		return 0;
	}
	choose(c, xstrdup(home_name(n, home)), home->role, "default: architecture-"
	       "independent data (usr/share), %llu KiB in all (under %llu KiB: "
	       "no -data package, as Debian keeps locales and small data with "
	       "the programs or the library) -> the %s package", kib,
	       PP_SPLIT_DATA_PACKAGE_BYTES / 1024, pp_role_name(home->role));
	c->explicit_variant = home->explicit_variant;
	return 0;
}

static int doc_rule(const struct names *n, struct choice *c)
{
	const struct choice *home = n->doc_home;
	unsigned long long kib = (n->doc_bytes + 1023) / 1024;

	if (pp_split_wants_doc_package(n->doc_bytes) || !home) {
		choose(c, xstrdup(n->doc), PP_ROLE_DOC, "default: "
		       "documentation, %llu KiB in all (a manual: %llu KiB or "
		       "more, or nothing else to hold it) -> the -doc package, "
		       "named as the -dev package (libjansson-doc, "
		       "libjson-c-doc) or else the source (sqlite3-doc)",
		       kib, PP_SPLIT_DOC_PACKAGE_BYTES / 1024);
		return 0;
	}
	choose(c, xstrdup(home_name(n, home)), home->role, "default: documentation, "
	       "%llu KiB in all (under %llu KiB: a README and a few pages, "
	       "which Debian keeps in -dev or the programs' package; no -doc "
	       "package) -> the %s package", kib,
	       PP_SPLIT_DOC_PACKAGE_BYTES / 1024, pp_role_name(home->role));
	c->explicit_variant = home->explicit_variant;
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
	if (is_shared_data(f))
		return data_rule(n, c);
	if (f->c.cls == PP_CLASS_MAN) {
		const char *sec = strstr(f->path, "/man");

		/* usr/share/man/man3/x.3: the directory manN names it */
		while (sec && !isdigit((unsigned char)sec[4]))
			sec = strstr(sec + 1, "/man");
		if (sec && sec[4] == '3') {
			choose(c, xstrdup(n->dev), PP_ROLE_DEV, "default: manual "
			       "page of section 3 (library calls) -> the -dev "
			       "package");
			return 0;
		}
		to = program_of_man(st, f->path);
		what = "manual page -> the package of its program";
		if (!to && n->has_library) {
			choose(c, xstrdup(n->dev), PP_ROLE_DEV, "default: manual "
			       "page of no program of a library source (file "
			       "formats, overviews) -> the -dev package, as "
			       "libarchive-dev holds tar.5");
			return 0;
		}
	} else {
		to = find_file(st, f->c.target);
		if (!to && f->c.target)
			to = first_under(st, f->c.target);
		what = "link -> the package of what it points to";
		if ((!to && !on_system(f)) || (to && !all[to - st->files].base))
			return pp_err_set(err, PP_EXIT_INPUT, "%s/%s: symbolic "
					  "link to '%s', which %s; ship its "
					  "target, or give the link a rule in "
					  "%s: packages.files = ( { path = "
					  "\"%s\"; drop = \"why\"; } ) (or "
					  "package = \"NAME\")", st->dir,
					  f->path, f->link, to ? "a files rule "
					  "drops" : "is in no package of this "
					  "run and not on this system",
					  s->spec->path, f->path);
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
			/* a library's messages are the library's (libidn2-0,
			 * libpopt0); else the programs' (acl, xz-utils) */
			static const enum pp_role lib_data[3] = {
				PP_ROLE_RUNTIME, PP_ROLE_TOOLS, PP_ROLE_DEV };
			static const enum pp_role data[3] = { PP_ROLE_TOOLS,
				PP_ROLE_RUNTIME, PP_ROLE_DEV };

			n.doc_home = home_of(st, all, doc);
			n.data_home = home_of(st, all, strncmp(n.source, "lib", 3)
					      ? data : lib_data);
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
			pp_warn(err, "padpack split: %zu of the %zu variants are "
				"here: files the same in every variant cannot be "
				"told apart, so each variant's packages hold all "
				"of its files", s->nr_stages, nr);
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

/* ---- packages --------------------------------------------------------- */

static long find_pkg(const struct pp_split *s, const char *name)
{
	for (size_t i = 0; i < s->nr_pkgs; i++)
		if (!strcmp(s->pkgs[i].name, name))
			return (long)i;
	return -1;
}

static long add_pkg(struct pp_split *s, char *name, const char *base,
		    enum pp_role role, const struct pp_variant *v, int common)
{
	struct pp_split_pkg *p;
	long at = find_pkg(s, name);

	if (at >= 0) {
		free(name);
		return at;
	}
	ARRAY_GROW(s->pkgs, s->alloc_pkgs, s->nr_pkgs + 1);
	p = &s->pkgs[s->nr_pkgs];
	memset(p, 0, sizeof(*p));
	p->name = name;
	p->base = xstrdup(base);
	p->role = role;
	p->variant = v;
	p->common = common;
	p->parent = -1;
	return (long)s->nr_pkgs++;
}

static void add_ref(struct pp_split_pkg *p, size_t stage, size_t file)
{
	ARRAY_GROW(p->files, p->alloc_files, p->nr_files + 1);
	p->files[p->nr_files].stage = stage;
	p->files[p->nr_files].file = file;
	p->nr_files++;
}

/* The package of the shared files of a role whose other files differ
 * per variant: libfoo-dev -> libfoo-common-dev, foo -> foo-common. */
static char *common_name(const char *base)
{
	size_t n = strlen(base);
	char *out = xmalloc(n + 8);

	if (n > 4 && !strcmp(base + n - 4, "-dev"))
		sprintf(out, "%.*s-common-dev", (int)(n - 4), base);
	else
		sprintf(out, "%s-common", base);
	return out;
}

/* Whether any variant's copy of a file of this base differs. */
static int base_has_variant_files(const struct pp_split *s,
				  struct choice **choices, const char *base)
{
	for (size_t k = 0; k < s->nr_stages; k++)
		for (size_t i = 0; i < s->stages[k].nr; i++)
			if (choices[k][i].base &&
			    !strcmp(choices[k][i].base, base) &&
			    !s->stages[k].files[i].shared &&
			    !choices[k][i].explicit_variant)
				return 1;
	return 0;
}

static void place_file(struct pp_split *s, struct choice **choices,
		       size_t k, size_t i)
{
	struct pp_split_file *f = &s->stages[k].files[i];
	const struct choice *c = &choices[k][i];
	const struct pp_variant *v = s->stages[k].variant;
	long at;

	if (!c->base)
		return;
	if (c->explicit_variant) {
		at = add_pkg(s, xstrdup(c->base), c->base, c->role, v, 0);
	} else if (!base_has_variant_files(s, choices, c->base)) {
		at = add_pkg(s, xstrdup(c->base), c->base, c->role, NULL, 0);
	} else if (f->shared) {
		at = add_pkg(s, common_name(c->base), c->base, c->role, NULL, 1);
	} else {
		at = add_pkg(s, with_suffix(c->base, v->suffix), c->base,
			     c->role, v, 0);
	}
	f->pkg = at;
	if (f->shared && k > 0)
		return; /* stage 0's copy is the one shipped */
	add_ref(&s->pkgs[at], k, i);
}

static int needs_arch(const struct pp_split *s, const struct pp_split_pkg *p)
{
	for (size_t i = 0; i < p->nr_files; i++) {
		const struct pp_split_file *f = pp_split_at(s, p->files[i]);

		if (f->c.elf || f->c.cls == PP_CLASS_STATIC ||
		    strstr(f->path, s->triplet))
			return 1;
	}
	return 0;
}

char *pp_split_dest_path(const struct pp_split *s, size_t pkg,
			 const struct pp_split_file *f)
{
	const char *dir = "usr/lib/pkgconfig/";
	size_t n = strlen(f->path), d = strlen(dir);
	struct strbuf sb = STRBUF_INIT;

	if (s->pkgs[pkg].arch_all || strncmp(f->path, dir, d) ||
	    strchr(f->path + d, '/') || n < d + 4 ||
	    strcmp(f->path + n - 3, ".pc"))
		return xstrdup(f->path);
	strbuf_addf(&sb, "usr/lib/%s/pkgconfig/%s", s->triplet, f->path + d);
	return strbuf_detach(&sb, NULL);
}

static int has_debug_info(const struct pp_split_file *f)
{
	return f->c.elf && f->c.elf->build_id[0] &&
	       (f->c.elf->has_symtab || f->c.elf->has_debug) &&
	       f->c.cls != PP_CLASS_OBJECT;
}

static void add_dbgsym(struct pp_split *s)
{
	size_t nr = s->nr_pkgs;

	for (size_t i = 0; i < nr; i++) {
		int any = 0;
		long d;

		for (size_t j = 0; j < s->pkgs[i].nr_files && !any; j++)
			any = has_debug_info(pp_split_at(s, s->pkgs[i].files[j]));
		if (!any)
			continue;
		d = add_pkg(s, with_suffix(s->pkgs[i].name, "dbgsym"),
			    s->pkgs[i].name, PP_ROLE_DBGSYM,
			    s->pkgs[i].variant, s->pkgs[i].common);
		s->pkgs[d].parent = (long)i;
		s->pkgs[d].auto_built = 1;
	}
}

static int cmp_pkg_name(const void *a, const void *b, void *arg)
{
	const struct pp_split *s = arg;

	return strcmp(s->pkgs[*(const size_t *)a].name,
		      s->pkgs[*(const size_t *)b].name);
}

/* Orders the packages by name, for output that does not depend on the
 * order files were found in. */
static void sort_pkgs(struct pp_split *s)
{
	size_t *order = xcalloc(s->nr_pkgs + 1, sizeof(*order));
	long *newpos = xcalloc(s->nr_pkgs + 1, sizeof(*newpos));
	struct pp_split_pkg *sorted = xcalloc(s->nr_pkgs + 1, sizeof(*sorted));

	for (size_t i = 0; i < s->nr_pkgs; i++)
		order[i] = i;
	qsort_r(order, s->nr_pkgs, sizeof(*order), cmp_pkg_name, s);
	for (size_t i = 0; i < s->nr_pkgs; i++) {
		sorted[i] = s->pkgs[order[i]];
		newpos[order[i]] = (long)i;
	}
	for (size_t i = 0; i < s->nr_pkgs; i++)
		if (sorted[i].parent >= 0)
			sorted[i].parent = newpos[sorted[i].parent];
	for (size_t k = 0; k < s->nr_stages; k++)
		for (size_t i = 0; i < s->stages[k].nr; i++)
			if (s->stages[k].files[i].pkg >= 0)
				s->stages[k].files[i].pkg =
					newpos[s->stages[k].files[i].pkg];
	free(s->pkgs);
	s->pkgs = sorted;
	s->alloc_pkgs = s->nr_pkgs + 1;
	free(order);
	free(newpos);
}

static int make_packages(struct pp_split *s, struct choice **choices,
			 struct pp_err *err)
{
	for (size_t k = 0; k < s->nr_stages; k++)
		for (size_t i = 0; i < s->stages[k].nr; i++) {
			struct pp_split_file *f = &s->stages[k].files[i];

			place_file(s, choices, k, i);
			f->rule = choices[k][i].why;
			choices[k][i].why = NULL;
		}
	for (size_t i = 0; i < s->nr_pkgs; i++) {
		if (pp_check_package_name(s->pkgs[i].name, err) < 0)
			return pp_err_prefix(err, "package '%s': ",
					     s->pkgs[i].name);
		s->pkgs[i].arch_all = !needs_arch(s, &s->pkgs[i]);
	}
	add_dbgsym(s);
	sort_pkgs(s);
	return 0;
}

static void free_choices(struct pp_split *s, struct choice **choices)
{
	for (size_t k = 0; k < s->nr_stages; k++) {
		for (size_t i = 0; choices[k] && i < s->stages[k].nr; i++) {
			free(choices[k][i].base);
			free(choices[k][i].why);
		}
		free(choices[k]);
	}
	free(choices);
}

static int assign(struct pp_split *s, struct pp_err *err)
{
	struct choice **choices = xcalloc(s->nr_stages + 1, sizeof(*choices));
	int rc = 0;

	for (size_t k = 0; k < s->nr_stages && !rc; k++) {
		choices[k] = xcalloc(s->stages[k].nr + 1, sizeof(**choices));
		rc = assign_stage(s, &s->stages[k], choices[k], err);
	}
	if (!rc) {
		find_shared(s, choices, err);
		rc = make_packages(s, choices, err);
	}
	free_choices(s, choices);
	return rc;
}

/* ---- the plan --------------------------------------------------------- */

static int spec_file(const struct pp_spec *spec, const char *setting,
		     const char *path, int want_dir, struct pp_err *err)
{
	struct stat st;

	if (!path || (stat(path, &st) == 0 && !S_ISDIR(st.st_mode) == !want_dir))
		return 0;
	return pp_err_set(err, PP_EXIT_INPUT, "%s: setting '%s': '%s' is not "
			  "%s; paths are relative to the spec's directory",
			  spec->path, setting, path, want_dir ? "a directory" :
			  "a file");
}

/* The files the spec names, which only split reads. */
static int check_spec_files(const struct pp_spec *spec, struct pp_err *err)
{
	static const char *const names[PP_NR_SCRIPTS] = {
		"preinst", "postinst", "prerm", "postrm",
	};

	if (spec_file(spec, "packages.copyright", spec->copyright, 0, err) ||
	    spec_file(spec, "packages.changelog", spec->changelog, 0, err) ||
	    spec_file(spec, "packages.templates", spec->templates, 1, err))
		return -1;
	for (size_t i = 0; i < spec->nr_control; i++)
		for (int k = 0; k < PP_NR_SCRIPTS; k++) {
			char setting[64];

			snprintf(setting, sizeof(setting),
				 "packages.control[%zu].%s", i, names[k]);
			if (spec_file(spec, setting, spec->control[i].scripts[k],
				      0, err) < 0)
				return -1;
		}
	return 0;
}

static int has_notice(const struct pp_split_stage *st,
		      const struct pp_split_file *f)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct pp_err ignored;
	int found = 0;

	pp_err_init(&ignored);
	strbuf_addf(&path, "%s/%s", st->dir, f->path);
	if (pp_read_file(path.buf, &text, &ignored) == 0)
		found = pp_split_has_copyright_notice(text.buf);
	pp_err_release(&ignored);
	strbuf_release(&path);
	strbuf_release(&text);
	return found;
}

/* The license file of the stage: the first with a copyright notice
 * (pcre2's COPYING only points to LICENCE), else the first; or NULL. */
static const struct pp_split_file *license_file(const struct pp_split_stage *st)
{
	const struct pp_split_file *first = NULL;

	for (size_t i = 0; i < st->nr; i++) {
		const struct pp_split_file *f = &st->files[st->by_path[i]];

		if (!S_ISREG(f->st.st_mode) || !pp_split_is_license_path(f->path))
			continue;
		if (has_notice(st, f))
			return f;
		if (!first)
			first = f;
	}
	return first;
}

/* A license file in the working directory, the source tree a staged tree
 * is usually split from (COPYING, LICENSE ...): the first with a
 * copyright notice, else the first, in name order; NULL if none. */
static char *license_in_cwd(void)
{
	DIR *d = opendir(".");
	struct pp_strlist names = PP_STRLIST_INIT;
	struct dirent *e;
	char *found = NULL;

	while (d && (e = readdir(d))) {
		struct strbuf path = STRBUF_INIT;
		struct stat st;

		strbuf_addf(&path, "usr/share/doc/x/%s", e->d_name);
		if (pp_split_is_license_path(path.buf) &&
		    stat(e->d_name, &st) == 0 && S_ISREG(st.st_mode))
			pp_strlist_push(&names, e->d_name);
		strbuf_release(&path);
	}
	if (d)
		closedir(d);
	if (names.nr > 1)
		qsort(names.items, names.nr, sizeof(*names.items), cmp_str);
	for (int pass = 0; pass < 2 && !found; pass++)
		for (size_t i = 0; i < names.nr && !found; i++) {
			struct strbuf text = STRBUF_INIT;
			struct pp_err ignored;

			pp_err_init(&ignored);
			if (pp_read_file(names.items[i], &text, &ignored) == 0 &&
			    (pass || pp_split_has_copyright_notice(text.buf)))
				found = xstrdup(names.items[i]);
			pp_err_release(&ignored);
			strbuf_release(&text);
		}
	pp_strlist_release(&names);
	return found;
}

/* The copyright file: the spec's, else one made from the license file
 * the stage ships, else from one in the working directory, else one that
 * says the license is not known (with a warning): a default is never an
 * error. */
static int find_copyright(struct pp_split *s, struct pp_err *err)
{
	const struct pp_split_stage *st = &s->stages[0];
	struct strbuf text = STRBUF_INIT, out = STRBUF_INIT, path = STRBUF_INIT;
	const struct pp_split_file *f;
	char *cwd_file = NULL;
	int rc = 0;

	if (s->spec->copyright) {
		if (pp_read_file(s->spec->copyright, &text, err) < 0)
			return -1;
		s->copyright = strbuf_detach(&text, NULL);
		return 0;
	}
	f = license_file(st);
	if (f)
		strbuf_addf(&path, "%s/%s", st->dir, f->path);
	else if ((cwd_file = license_in_cwd()))
		strbuf_addstr(&path, cwd_file);
	if (path.len) {
		rc = pp_read_file(path.buf, &text, err);
		if (rc == 0)
			pp_split_dep5(s->spec->name, s->spec->homepage,
				      f ? f->path : cwd_file, text.buf, &out);
	} else {
		pp_warn(err, "padpack split: no license file in the staged tree "
			"(usr/share/doc/*/COPYING, LICENSE ...) nor here: each "
			"package's copyright says the license is not known; give "
			"a DEP-5 file as packages.copyright (or --copyright FILE)");
		pp_split_dep5_unknown(s->spec->name, s->spec->homepage, &out);
	}
	if (rc == 0)
		s->copyright = strbuf_detach(&out, NULL);
	free(cwd_file);
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&out);
	return rc;
}

int pp_split_plan(struct pp_split *s, const struct pp_spec *spec,
		  const struct pp_split_opts *opts, struct pp_err *err)
{
	enum pp_version_origin origin;
	int rc;

	memset(s, 0, sizeof(*s));
	s->spec = spec;
	s->opts = *opts;
	if (check_spec_files(spec, err) < 0)
		return -1;
	if (pp_spec_version(spec, spec->source, &s->upstream, &origin, err) < 0)
		return -1;
	s->version = pp_split_debian_version(s->upstream,
					     spec->revision ? spec->revision : "1");
	pp_progress_task(opts->progress, "reading the stage trees", 0, "files");
	rc = load_stages(s, err);
	if (!rc)
		rc = find_copyright(s, err);
	if (!rc)
		rc = find_arch(s, err);
	pp_progress_task(opts->progress, "assigning files to packages", 0,
			 "files");
	if (!rc)
		rc = assign(s, err);
	if (!rc)
		rc = pp_split_alternatives(s, err);
	if (!rc)
		rc = pp_split_isa_scan(s, err);
	return rc;
}

void pp_split_file_release(struct pp_split_file *f)
{
	free(f->path);
	free(f->link);
	free(f->rule);
	free(f->src);
	pp_classified_release(&f->c);
	if (f->isa)
		pp_isa_report_release(f->isa);
	free(f->isa);
}

void pp_split_file_source(const struct pp_split_stage *st,
			  const struct pp_split_file *f, struct strbuf *out)
{
	if (f->src)
		strbuf_addstr(out, f->src);
	else
		strbuf_addf(out, "%s/%s", st->dir, f->path);
}

void pp_split_release(struct pp_split *s)
{
	for (size_t k = 0; k < s->nr_stages; k++) {
		struct pp_split_stage *st = &s->stages[k];

		for (size_t i = 0; i < st->nr; i++)
			pp_split_file_release(&st->files[i]);
		free(st->files);
		free(st->by_path);
		free(st->dir);
	}
	free(s->stages);
	for (size_t i = 0; i < s->nr_pkgs; i++) {
		struct pp_split_pkg *p = &s->pkgs[i];

		free(p->name);
		free(p->base);
		free(p->files);
		pp_strlist_release(&p->build_ids);
		free(p->isa);
		free(p->isa_flags);
		free(p->isa_names);
		free(p->isa_alternative);
		free(p->alt_install);
		free(p->alt_remove);
		free(p->alt_names);
		pp_strlist_release(&p->alt_provides);
		free(p->deb);
		free(p->synopsis);
		free(p->section);
		free(p->priority);
	}
	free(s->pkgs);
	pp_strlist_release(&s->written);
	free(s->copyright);
	free(s->upstream);
	free(s->version);
	free(s->arch);
	free(s->triplet);
	memset(s, 0, sizeof(*s));
}

/* ---- --explain -------------------------------------------------------- */

static void explain_file(const struct pp_split *s, size_t k,
			 const struct pp_split_file *f, struct strbuf *out)
{
	const char *where = f->shared && s->spec->nr_variants > 1 ? "(all)" :
			    s->stages[k].variant->name;

	strbuf_addf(out, "%-10s %s%s\n", where, f->path,
		    S_ISDIR(f->st.st_mode) ? "/" : "");
	strbuf_addf(out, "           %s -> %s\n", pp_class_name(f->c.cls),
		    f->pkg >= 0 ? s->pkgs[f->pkg].name : "(dropped)");
	strbuf_addf(out, "           rule: %s\n", f->rule ? f->rule : "?");
	if (f->python_shebang)
		strbuf_addstr(out, "           its unversioned python \"#!\" line "
			      "becomes #!/usr/bin/python3 (dh_python3; Debian has "
			      "no /usr/bin/python), and its package depends on "
			      "python3:any\n");
	if (f->pkg >= 0) {
		char *dest = pp_split_dest_path(s, (size_t)f->pkg, f);

		if (strcmp(dest, f->path))
			strbuf_addf(out, "           shipped as %s: a pkg-config "
				    "file of an arch-dependent package goes to the "
				    "multiarch directory, as Debian's\n", dest);
		free(dest);
	}
	pp_split_isa_explain(f, out);
}

/* The packages of the run a package's ELF files need, as dpkg-shlibdeps
 * finds them: the package shipping a public library of that SONAME. */
static void explain_needed(const struct pp_split *s, size_t pkg,
			   struct pp_strlist *seen, struct strbuf *out)
{
	const struct pp_split_pkg *p = &s->pkgs[pkg];

	for (size_t i = 0; i < p->nr_files; i++) {
		const struct pp_split_file *f = pp_split_at(s, p->files[i]);
		const struct pp_split_stage *st = &s->stages[p->files[i].stage];

		for (size_t k = 0; f->c.elf && k < f->c.elf->needed.nr; k++)
			for (size_t j = 0; j < st->nr; j++) {
				const struct pp_split_file *g = &st->files[j];
				const struct pp_split_pkg *q;

				if (g->c.cls != PP_CLASS_SHLIB || g->pkg < 0 ||
				    (size_t)g->pkg == pkg || !g->c.soname ||
				    strcmp(g->c.soname, f->c.elf->needed.items[k]))
					continue;
				q = &s->pkgs[g->pkg];
				if (pp_strlist_find(seen, q->name) >= 0)
					continue;
				pp_strlist_push(seen, q->name);
				strbuf_addf(out, "  %s -> %s (>= %.*s): NEEDED %s, "
					    "shipped by %s; the upstream version, "
					    "as its shlibs says and "
					    "dpkg-shlibdeps copies it (a program "
					    "works with a newer build of its "
					    "library)\n", p->name, q->variant &&
					    !p->variant ? q->base : q->name,
					    (int)(strrchr(s->version, '-') -
						  s->version), s->version,
					    g->c.soname, q->name);
			}
	}
}

/* What a -dev package needs of other projects' -dev packages, and why. */
static void explain_dev_depends(const struct pp_split *s, size_t pkg,
				struct strbuf *out)
{
	struct pp_strlist rel = PP_STRLIST_INIT, why = PP_STRLIST_INIT;
	struct pp_err err;

	pp_err_init(&err);
	if (pp_split_dev_depends(s, pkg, &rel, &why, &err) < 0)
		strbuf_addf(out, "  %s: its -dev Depends not resolved: %s\n",
			    s->pkgs[pkg].name, err.msg);
	for (size_t k = 0; k < rel.nr; k++)
		strbuf_addf(out, "  %s -> %s: %s (a -dev package needs what "
			    "its .pc files require and its headers include)\n",
			    s->pkgs[pkg].name, rel.items[k], why.items[k]);
	pp_err_release(&err);
	pp_strlist_release(&rel);
	pp_strlist_release(&why);
}

static void explain_relations(const struct pp_split *s, struct strbuf *out)
{
	strbuf_addstr(out, "relations between them:\n");
	for (size_t i = 0; i < s->nr_pkgs; i++) {
		struct pp_strlist rel = PP_STRLIST_INIT, why = PP_STRLIST_INIT,
				  seen = PP_STRLIST_INIT;

		explain_needed(s, i, &seen, out);
		pp_split_run_relations(s, i, &rel, &why);
		for (size_t k = 0; k < rel.nr; k++)
			strbuf_addf(out, "  %s -> %s: %s\n", s->pkgs[i].name,
				    rel.items[k], why.items[k]);
		if (s->pkgs[i].role == PP_ROLE_DEV)
			explain_dev_depends(s, i, out);
		pp_strlist_release(&rel);
		pp_strlist_release(&why);
		pp_strlist_release(&seen);
	}
}

void pp_split_explain(const struct pp_split *s, struct strbuf *out)
{
	size_t files = 0;

	for (size_t k = 0; k < s->nr_stages; k++)
		for (size_t i = 0; i < s->stages[k].nr; i++) {
			const struct pp_split_file *f = &s->stages[k].files[i];

			if (f->shared && k > 0)
				continue;
			explain_file(s, k, f, out);
			files++;
		}
	strbuf_addf(out, "%zu files of %zu variants in %zu packages:\n", files,
		    s->nr_stages, s->nr_pkgs);
	for (size_t i = 0; i < s->nr_pkgs; i++) {
		const struct pp_split_pkg *p = &s->pkgs[i];

		strbuf_addf(out, "  %-28s %-8s %-7s %s\n", p->name,
			    pp_role_name(p->role), p->arch_all ? "all" : s->arch,
			    p->common ? "files the same in every variant" :
			    p->variant ? p->variant->name : "every variant");
	}
	explain_relations(s, out);
	pp_split_alt_explain(s, out);
}
