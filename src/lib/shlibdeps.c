/* Dependencies of a package's ELF files, as dpkg-shlibdeps computes them:
 * each NEEDED SONAME is found (in the packages of this run, in the spec's
 * mappings, or installed on the system), and the package providing it
 * gives the dependency: between packages of one run, what the library
 * package's shlibs says ("(>= upstream-version)", dh_makeshlibs' -V); the
 * symbols file of an installed package, raised to the newest symbol the
 * file uses; else its shlibs file. */
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control.h"
#include "fsutil.h"
#include "shlibs.h"
#include "splitint.h"
#include "version.h"
#include "xalloc.h"

/* A library found on the system, and what says which package gives it. */
struct sys_lib {
	char *soname;
	char *path;      /* NULL: not found */
	char *owner;     /* "" when no package owns it; NULL: not asked */
	const struct pp_symbols_object *symbols; /* or NULL */
	char *shlibs;    /* the shlibs dependency when no symbols; or NULL */
	char *failure;   /* why it gives no dependency, or NULL */
	int resolved;    /* owner and dependency information looked up */
};

struct symfile {
	char *path;
	struct pp_symbols_file sf;
};

struct pp_shlibs_ctx {
	const struct pp_split *s;
	struct pp_dpkgdb db;
	struct pp_strlist libdirs;
	struct sys_lib *libs;
	size_t nr_libs, alloc_libs;
	struct symfile *symfiles;
	size_t nr_symfiles, alloc_symfiles;
};

static int prefetch(struct pp_shlibs_ctx *ctx, const struct pp_split *s,
		    struct pp_err *err);

struct pp_shlibs_ctx *pp_shlibs_ctx_new(const struct pp_split *s,
					struct pp_err *err)
{
	struct pp_shlibs_ctx *ctx = xcalloc(1, sizeof(*ctx));

	ctx->s = s;
	pp_dpkgdb_init(&ctx->db, s->opts.admindir, s->arch, s->triplet);
	pp_ld_library_dirs(&ctx->db, &ctx->libdirs);
	if (prefetch(ctx, s, err) < 0) {
		pp_shlibs_ctx_free(ctx);
		return NULL;
	}
	return ctx;
}

void pp_shlibs_ctx_free(struct pp_shlibs_ctx *ctx)
{
	if (!ctx)
		return;
	for (size_t i = 0; i < ctx->nr_libs; i++) {
		free(ctx->libs[i].soname);
		free(ctx->libs[i].path);
		free(ctx->libs[i].owner);
		free(ctx->libs[i].shlibs);
		free(ctx->libs[i].failure);
	}
	free(ctx->libs);
	for (size_t i = 0; i < ctx->nr_symfiles; i++) {
		free(ctx->symfiles[i].path);
		pp_symbols_release(&ctx->symfiles[i].sf);
	}
	free(ctx->symfiles);
	pp_strlist_release(&ctx->libdirs);
	pp_dpkgdb_release(&ctx->db);
	free(ctx);
}

/* ---- the dependency set (dpkg-shlibdeps' %dependencies) ---------------- */

static int newer(const char *a, const char *b)
{
	struct pp_version va, vb;
	struct pp_err e;
	int gt = 0;

	pp_err_init(&e);
	if (pp_version_parse(&va, a, &e) == 0) {
		if (pp_version_parse(&vb, b, &e) == 0) {
			gt = pp_version_cmp(&va, &vb) > 0;
			pp_version_release(&vb);
		}
		pp_version_release(&va);
	}
	pp_err_release(&e);
	return gt;
}

/* Each comma-separated part of dep gets at least minver ("" none). */
static void update_dep(struct pp_shlibdeps *d, const char *dep,
		       const char *minver)
{
	char *copy = xstrdup(dep), *save = NULL, *part;

	for (part = strtok_r(copy, ",", &save); part;
	     part = strtok_r(NULL, ",", &save)) {
		long at;

		part += strspn(part, " \t");
		part[strcspn(part, "\n")] = '\0';
		for (size_t n = strlen(part); n && part[n - 1] == ' '; n--)
			part[n - 1] = '\0';
		if (!*part)
			continue;
		at = pp_strlist_find(&d->keys, part);
		if (at < 0) {
			pp_strlist_push(&d->keys, part);
			pp_strlist_push(&d->minver, minver);
		} else if (*minver && (!*d->minver.items[at] ||
				       newer(minver, d->minver.items[at]))) {
			free(d->minver.items[at]);
			d->minver.items[at] = xstrdup(minver);
		}
	}
	free(copy);
}

void pp_shlibdeps_release(struct pp_shlibdeps *d)
{
	pp_strlist_release(&d->keys);
	pp_strlist_release(&d->minver);
}

/* dpkg's order of relations in a sort: none, >=, >>, =, <<, <=. */
static int rel_rank(const struct pp_dep_atom *a)
{
	static const int rank[] = {
		[PP_REL_LT] = 4, [PP_REL_LE] = 5, [PP_REL_EQ] = 3,
		[PP_REL_GE] = 1, [PP_REL_GT] = 2,
	};

	return a->has_version ? rank[a->op] : 0;
}

static int cmp_group(const void *pa, const void *pb)
{
	const struct pp_dep_group *a = pa, *b = pb;

	for (size_t i = 0; i < a->nr || i < b->nr; i++) {
		int c;

		if (i >= a->nr)
			return -1;
		if (i >= b->nr)
			return 1;
		c = strcmp(a->alts[i].name, b->alts[i].name);
		if (!c)
			c = rel_rank(&a->alts[i]) - rel_rank(&b->alts[i]);
		if (!c)
			c = strcmp(a->alts[i].version ? a->alts[i].version : "",
				   b->alts[i].version ? b->alts[i].version : "");
		if (c)
			return c;
	}
	return 0;
}

void pp_shlibdeps_format(const struct pp_shlibdeps *d, struct strbuf *out)
{
	struct strbuf all = STRBUF_INIT;
	struct pp_deps deps = { 0 };
	struct pp_err e;

	for (size_t i = 0; i < d->keys.nr; i++) {
		const char *k = d->keys.items[i], *mv = strstr(k, "#MINVER#");

		if (all.len)
			strbuf_addstr(&all, ", ");
		if (!mv) {
			strbuf_addstr(&all, k);
			continue;
		}
		strbuf_add(&all, k, (size_t)(mv - k));
		/* a symbol of version 0 (in the library's first release, as
		 * symbols files say) asks for none: dpkg-shlibdeps writes
		 * "libnettle8", not "libnettle8 (>= 0)" */
		if (*d->minver.items[i] && strcmp(d->minver.items[i], "0"))
			strbuf_addf(&all, "(>= %s)", d->minver.items[i]);
		strbuf_addstr(&all, mv + 8);
	}
	pp_err_init(&e);
	if (all.len && pp_deps_parse(all.buf, PP_DEPS_DEPENDS, &deps, &e) == 0) {
		qsort(deps.groups, deps.nr, sizeof(*deps.groups), cmp_group);
		pp_deps_write(&deps, out);
		pp_deps_release(&deps);
	} else {
		strbuf_addstr(out, all.buf);
	}
	pp_err_release(&e);
	strbuf_release(&all);
}

/* ---- libraries of this run -------------------------------------------- */

static const struct pp_split_file *stage_find(const struct pp_split_stage *st,
					      const char *path)
{
	return pp_split_find(st, path);
}

/* The directories of the stage to look into for f's NEEDED libraries:
 * its run path ($ORIGIN is its own directory), then the linker's. */
static void stage_dirs(struct pp_shlibs_ctx *ctx, const struct pp_split_file *f,
		       struct pp_strlist *dirs)
{
	char *own = pp_dirname(f->path);

	for (size_t i = 0; i < f->c.elf->runpath.nr; i++) {
		const char *r = f->c.elf->runpath.items[i];
		struct strbuf sb = STRBUF_INIT;

		if (!strncmp(r, "$ORIGIN", 7) || !strncmp(r, "${ORIGIN}", 9)) {
			strbuf_addstr(&sb, own);
			strbuf_addstr(&sb, r + (r[1] == '{' ? 9 : 7));
		} else if (*r == '/') {
			strbuf_addstr(&sb, r + 1);
		}
		if (sb.len)
			pp_strlist_push(dirs, sb.buf);
		strbuf_release(&sb);
	}
	for (size_t i = 0; i < ctx->libdirs.nr; i++)
		pp_strlist_push(dirs, ctx->libdirs.items[i] + 1);
	free(own);
}

/* The staged library a NEEDED soname resolves to, or NULL. */
static const struct pp_split_file *in_run(struct pp_shlibs_ctx *ctx,
					  const struct pp_split_stage *st,
					  const struct pp_split_file *f,
					  const char *soname)
{
	struct pp_strlist dirs = PP_STRLIST_INIT;
	const struct pp_split_file *hit = NULL;

	stage_dirs(ctx, f, &dirs);
	for (size_t i = 0; i < dirs.nr && !hit; i++) {
		struct strbuf path = STRBUF_INIT;
		const struct pp_split_file *g;

		strbuf_addf(&path, "%s/%s", dirs.items[i], soname);
		g = stage_find(st, path.buf);
		if (!g) { /* a generic link update-alternatives makes */
			char *alt = pp_split_alt_target(ctx->s, st->variant,
							path.buf);

			g = alt ? stage_find(st, alt) : NULL;
			free(alt);
		}
		if (g && S_ISLNK(g->st.st_mode))
			g = g->c.target ? stage_find(st, g->c.target) : NULL;
		if (g && g->c.elf && pp_elf_compatible(g->c.elf, f->c.elf))
			hit = g;
		strbuf_release(&path);
	}
	pp_strlist_release(&dirs);
	return hit;
}

/* The dependency the shlibs of the run's package that ships the library
 * gives, as dpkg-shlibdeps reads it: "(>= upstream-version)", not the
 * exact version (a program works with a newer build of its library); a
 * package for every variant depending on a variant's library names what
 * every variant provides. */
static int in_run_dep(const struct pp_split *s, size_t pkg,
		      const struct pp_split_file *lib, const struct pp_split_file *f,
		      const char *soname, struct pp_shlibdeps *out,
		      struct pp_err *err)
{
	const struct pp_split_pkg *p = &s->pkgs[pkg], *q;
	struct strbuf dep = STRBUF_INIT;
	const char *virt;

	if (lib->pkg < 0)
		return pp_err_set(err, PP_EXIT_INPUT, "%s: NEEDED %s is %s, "
				  "which a files rule drops; ship it or drop "
				  "what needs it", f->path, soname, lib->path);
	if ((size_t)lib->pkg == pkg)
		return 0;
	q = &s->pkgs[lib->pkg];
	/* the shlibs' version: this one without its Debian revision */
	strbuf_addf(&dep, "%s (>= %.*s)", q->variant && !p->variant ? q->base :
		    q->name, (int)(strrchr(s->version, '-') - s->version),
		    s->version);
	virt = s->spec->coinstallable ?
	       pp_split_alt_virtual(s, q->variant, soname) : NULL;
	if (virt)
		strbuf_addf(&dep, " | %s", virt);
	update_dep(out, dep.buf, "");
	strbuf_release(&dep);
	return 0;
}

static const char *mapped(const struct pp_spec *spec, const char *soname);

/* ---- libraries of the system ------------------------------------------ */

static const struct pp_symbols_file *load_symfile(struct pp_shlibs_ctx *ctx,
						  const char *path,
						  struct pp_err *err)
{
	struct strbuf text = STRBUF_INIT;
	struct symfile *sf;

	for (size_t i = 0; i < ctx->nr_symfiles; i++)
		if (!strcmp(ctx->symfiles[i].path, path))
			return &ctx->symfiles[i].sf;
	if (pp_read_file(path, &text, err) < 0)
		return NULL;
	ARRAY_GROW(ctx->symfiles, ctx->alloc_symfiles, ctx->nr_symfiles + 1);
	sf = &ctx->symfiles[ctx->nr_symfiles];
	if (pp_symbols_parse(text.buf, text.len, path, ctx->s->arch, &sf->sf,
			     err) < 0) {
		strbuf_release(&text);
		return NULL;
	}
	sf->path = xstrdup(path);
	ctx->nr_symfiles++;
	strbuf_release(&text);
	return &sf->sf;
}

/* The shlibs dependency of soname from a file, or NULL. */
static char *shlibs_from(const char *path, const char *soname)
{
	struct strbuf text = STRBUF_INIT;
	struct pp_err e;
	char *dep = NULL;

	pp_err_init(&e);
	if (path && pp_read_file(path, &text, &e) == 0)
		pp_shlibs_lookup(text.buf, text.len, soname, "deb", &dep);
	pp_err_release(&e);
	strbuf_release(&text);
	return dep;
}

/* Where the system has a library f can load, or NULL. */
static char *find_on_system(struct pp_shlibs_ctx *ctx,
			    const struct pp_split_file *f, const char *soname)
{
	struct pp_strlist dirs = PP_STRLIST_INIT;
	char *found = NULL;

	for (size_t i = 0; i < f->c.elf->runpath.nr; i++)
		if (f->c.elf->runpath.items[i][0] == '/')
			pp_strlist_push(&dirs, f->c.elf->runpath.items[i]);
	pp_strlist_extend(&dirs, &ctx->libdirs);
	for (size_t i = 0; i < dirs.nr && !found; i++) {
		struct strbuf path = STRBUF_INIT;
		struct pp_elf_info info;
		struct pp_err e;

		strbuf_addf(&path, "%s/%s", dirs.items[i], soname);
		pp_err_init(&e);
		if (access(path.buf, F_OK) == 0 &&
		    pp_elf_read(path.buf, &info, &e) == 0) {
			if (pp_elf_compatible(&info, f->c.elf))
				found = strbuf_detach(&path, NULL);
			pp_elf_release(&info);
		}
		pp_err_release(&e);
		strbuf_release(&path);
	}
	pp_strlist_release(&dirs);
	return found;
}

static int owner_of(struct pp_shlibs_ctx *ctx, const char *path, char **owner,
		    struct pp_err *err)
{
	struct pp_strlist paths = PP_STRLIST_INIT, owners = PP_STRLIST_INIT;
	char real[PATH_MAX];
	int rc;

	pp_strlist_push(&paths, path);
	if (realpath(path, real) && strcmp(real, path))
		pp_strlist_push(&paths, real);
	rc = pp_dpkgdb_owners(&ctx->db, &paths, &owners, err);
	*owner = xstrdup("");
	for (size_t i = 0; rc == 0 && i < owners.nr; i++)
		if (*owners.items[i]) {
			free(*owner);
			*owner = xstrdup(owners.items[i]);
			break;
		}
	pp_strlist_release(&paths);
	pp_strlist_release(&owners);
	return rc;
}

/* Which file gives the dependency on an installed library: the package's
 * symbols file (or /etc/dpkg/symbols/), else shlibs (after
 * shlibs.override, before shlibs.default), as dpkg-shlibdeps looks. */
static int dependency_info(struct pp_shlibs_ctx *ctx, struct sys_lib *l,
			   struct pp_err *err)
{
	struct strbuf alt = STRBUF_INIT;
	char *sym = NULL, *pkg = xstrndup(l->owner, strcspn(l->owner, ":"));
	const char *candidates[3];
	int rc = 0;

	strbuf_addf(&alt, "%s/symbols/%s.symbols", ctx->db.confdir, pkg);
	sym = pp_dpkgdb_control_file(&ctx->db, l->owner, "symbols");
	candidates[0] = sym;
	candidates[1] = alt.buf;
	candidates[2] = NULL;
	for (int i = 0; i < 2 && !l->symbols && rc == 0; i++) {
		const struct pp_symbols_file *sf;

		if (!candidates[i] || access(candidates[i], R_OK))
			continue;
		sf = load_symfile(ctx, candidates[i], err);
		if (!sf)
			rc = -1;
		else
			l->symbols = pp_symbols_find(sf, l->soname);
	}
	free(sym);
	strbuf_release(&alt);
	if (!l->symbols && rc == 0) {
		char *shl = pp_dpkgdb_control_file(&ctx->db, l->owner, "shlibs");
		struct strbuf over = STRBUF_INIT, def = STRBUF_INIT;

		strbuf_addf(&over, "%s/shlibs.override", ctx->db.confdir);
		strbuf_addf(&def, "%s/shlibs.default", ctx->db.confdir);
		l->shlibs = shlibs_from(over.buf, l->soname);
		if (!l->shlibs)
			l->shlibs = shlibs_from(shl, l->soname);
		if (!l->shlibs)
			l->shlibs = shlibs_from(def.buf, l->soname);
		free(shl);
		strbuf_release(&over);
		strbuf_release(&def);
	}
	free(pkg);
	return rc;
}

static struct sys_lib *find_lib(struct pp_shlibs_ctx *ctx, const char *soname)
{
	for (size_t i = 0; i < ctx->nr_libs; i++)
		if (!strcmp(ctx->libs[i].soname, soname))
			return &ctx->libs[i];
	return NULL;
}

static struct sys_lib *new_lib(struct pp_shlibs_ctx *ctx, const char *soname,
			       char *path)
{
	struct sys_lib *l;

	ARRAY_GROW(ctx->libs, ctx->alloc_libs, ctx->nr_libs + 1);
	l = &ctx->libs[ctx->nr_libs++];
	memset(l, 0, sizeof(*l));
	l->soname = xstrdup(soname);
	l->path = path;
	return l;
}

/* What gives the dependency on a library found (or not) on the system. */
static int resolve_lib(struct pp_shlibs_ctx *ctx, struct sys_lib *l,
		       struct pp_err *err)
{
	struct strbuf why = STRBUF_INIT;

	if (!l->path) {
		char *dirs = pp_strlist_join(&ctx->libdirs, ":");

		strbuf_addf(&why, "it is in no package of this run, and not on "
			    "this system either (searched its run path and %s)",
			    dirs);
		free(dirs);
	} else if (!l->owner && owner_of(ctx, l->path, &l->owner, err) < 0) {
		strbuf_release(&why);
		return -1;
	} else if (!*l->owner) {
		strbuf_addf(&why, "%s has it, but no installed package owns "
			    "that file (dpkg-query --search)", l->path);
	} else if (dependency_info(ctx, l, err) < 0) {
		strbuf_release(&why);
		return -1;
	} else if (!l->symbols && !l->shlibs) {
		strbuf_addf(&why, "%s of package %s has it, but that package "
			    "has no symbols or shlibs file that names it",
			    l->path, l->owner);
	}
	if (why.len)
		l->failure = strbuf_detach(&why, NULL);
	strbuf_release(&why);
	l->resolved = 1;
	return 0;
}

static struct sys_lib *system_lib(struct pp_shlibs_ctx *ctx,
				  const struct pp_split_file *f,
				  const char *soname, struct pp_err *err)
{
	struct sys_lib *l = find_lib(ctx, soname);

	if (!l)
		l = new_lib(ctx, soname, find_on_system(ctx, f, soname));
	if (!l->resolved && resolve_lib(ctx, l, err) < 0)
		return NULL;
	return l;
}

/* Finds every library the run's files need from the system and asks
 * dpkg-query once which packages own them all. */
static int prefetch(struct pp_shlibs_ctx *ctx, const struct pp_split *s,
		    struct pp_err *err)
{
	struct pp_strlist paths = PP_STRLIST_INIT, owners = PP_STRLIST_INIT;
	int rc;

	for (size_t k = 0; k < s->nr_stages; k++)
		for (size_t i = 0; i < s->stages[k].nr; i++) {
			const struct pp_split_file *f = &s->stages[k].files[i];

			if (!f->c.elf || S_ISLNK(f->st.st_mode) || f->pkg < 0)
				continue;
			for (size_t n = 0; n < f->c.elf->needed.nr; n++) {
				const char *so = f->c.elf->needed.items[n];

				if (find_lib(ctx, so) || mapped(s->spec, so) ||
				    in_run(ctx, &s->stages[k], f, so))
					continue;
				new_lib(ctx, so, find_on_system(ctx, f, so));
			}
		}
	/* each found library, and where its links lead */
	for (size_t i = 0; i < ctx->nr_libs; i++) {
		char real[PATH_MAX];
		const char *p = ctx->libs[i].path;

		if (!p)
			continue;
		pp_strlist_push(&paths, p);
		pp_strlist_push(&paths, realpath(p, real) ? real : p);
	}
	rc = pp_dpkgdb_owners(&ctx->db, &paths, &owners, err);
	for (size_t i = 0, k = 0; rc == 0 && i < ctx->nr_libs; i++) {
		if (!ctx->libs[i].path)
			continue;
		ctx->libs[i].owner = xstrdup(*owners.items[k] ?
			owners.items[k] : owners.items[k + 1]);
		k += 2;
	}
	pp_strlist_release(&paths);
	pp_strlist_release(&owners);
	return rc;
}

/* ---- one package ------------------------------------------------------ */

static const char *mapped(const struct pp_spec *spec, const char *soname)
{
	for (size_t i = 0; i < spec->nr_needed; i++)
		if (!fnmatch(spec->needed[i].soname, soname, 0))
			return spec->needed[i].depends;
	return NULL;
}

static int resolve_mapped(const struct pp_split *s, const struct pp_split_stage *st,
			  const char *tmpl, struct pp_shlibdeps *out,
			  struct pp_err *err)
{
	struct pp_expand_ctx ec = { s->spec, st->variant, s->upstream, 1, 1,
				    NULL };
	struct strbuf dep = STRBUF_INIT;

	if (pp_spec_expand(tmpl, &ec, &dep, err) < 0) {
		strbuf_release(&dep);
		return -1;
	}
	update_dep(out, dep.buf, "");
	strbuf_release(&dep);
	return 0;
}

static int unresolved(const struct pp_split *s, const struct pp_split_stage *st,
		      const struct pp_split_file *f, const char *soname,
		      const char *why, struct pp_err *err)
{
	const struct pp_alternative *alt =
		pp_split_alt_unregistered(s, st->variant, soname);

	if (alt)
		return pp_err_set(err, PP_EXIT_INPUT, "%s/%s: NEEDED %s is the "
				  "generic name of alternative '%s', which "
				  "variant %s does not register (%s:%u, its "
				  "variants): give the variant's programs a run "
				  "path to its own library (-Wl,-rpath,DIR), or "
				  "let it register the alternative", st->dir,
				  f->path, soname, alt->master.name,
				  st->variant->name, s->spec->path,
				  alt->variants_line);
	return pp_err_set(err, PP_EXIT_INPUT, "%s/%s: NEEDED %s cannot be "
			  "resolved to a package: %s; install the package that "
			  "provides it, or map it in %s: packages.needed = ( { "
			  "soname = \"%s\"; depends = \"PACKAGE\"; } )",
			  st->dir, f->path, soname, why, s->spec->path, soname);
}

/* The symbols the file takes from libraries known by symbols files raise
 * the minimal versions, as each symbol's minver says. */
static void raise_by_symbols(const struct pp_split_file *f,
			     const struct pp_symbols_object **objs, size_t nr,
			     struct pp_shlibdeps *out)
{
	struct strbuf name = STRBUF_INIT;

	for (size_t i = 0; i < f->c.elf->nr_undefined; i++) {
		const struct pp_elf_sym *u = &f->c.elf->undefined[i];

		strbuf_reset(&name);
		strbuf_addf(&name, "%s@%s", u->name,
			    u->version ? u->version : "Base");
		for (size_t k = 0; k < nr; k++) {
			const struct pp_symbol_entry *e;

			if (!objs[k])
				continue;
			e = pp_symbols_lookup(objs[k], name.buf);
			if (!e)
				continue;
			if (e->dep_id < objs[k]->deps.nr)
				update_dep(out, objs[k]->deps.items[e->dep_id],
					   e->minver);
			break;
		}
	}
	strbuf_release(&name);
}

static int file_deps(struct pp_shlibs_ctx *ctx, const struct pp_split *s,
		     size_t pkg, struct pp_split_ref ref,
		     struct pp_shlibdeps *out, struct pp_err *err)
{
	const struct pp_split_stage *st = &s->stages[ref.stage];
	const struct pp_split_file *f = pp_split_at(s, ref);
	const struct pp_strlist *needed = &f->c.elf->needed;
	const struct pp_symbols_object **objs = xcalloc(needed->nr + 1,
							sizeof(*objs));
	int rc = 0;

	for (size_t i = 0; i < needed->nr && !rc; i++) {
		const char *so = needed->items[i], *map;
		const struct pp_split_file *lib = in_run(ctx, st, f, so);
		struct sys_lib *sys;

		if (lib) {
			rc = in_run_dep(s, pkg, lib, f, so, out, err);
			continue;
		}
		map = mapped(s->spec, so);
		if (map) {
			rc = resolve_mapped(s, st, map, out, err);
			continue;
		}
		sys = system_lib(ctx, f, so, err);
		if (!sys)
			rc = -1;
		else if (sys->failure)
			rc = unresolved(s, st, f, so, sys->failure, err);
		else if (sys->symbols)
			update_dep(out, sys->symbols->deps.items[0],
				   pp_symbols_smallest(sys->symbols) ?
				   pp_symbols_smallest(sys->symbols) : "");
		else
			update_dep(out, sys->shlibs, "");
		objs[i] = sys && sys->symbols ? sys->symbols : NULL;
	}
	if (!rc)
		raise_by_symbols(f, objs, needed->nr, out);
	free(objs);
	return rc;
}

/* A package never depends on itself (dpkg-shlibdeps -x). */
static void drop_self(struct pp_shlibdeps *d, const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < d->keys.nr;) {
		const char *k = d->keys.items[i];

		if (!strncmp(k, name, n) && (!k[n] || k[n] == ' ' ||
					      k[n] == ':' || k[n] == '(')) {
			free(d->keys.items[i]);
			free(d->minver.items[i]);
			memmove(d->keys.items + i, d->keys.items + i + 1,
				(d->keys.nr - i) * sizeof(char *));
			memmove(d->minver.items + i, d->minver.items + i + 1,
				(d->minver.nr - i) * sizeof(char *));
			d->keys.nr--;
			d->minver.nr--;
		} else {
			i++;
		}
	}
}

int pp_shlibdeps_package(struct pp_shlibs_ctx *ctx, const struct pp_split *s,
			 size_t pkg, struct pp_shlibdeps *out, struct pp_err *err)
{
	const struct pp_split_pkg *p = &s->pkgs[pkg];

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < p->nr_files; i++) {
		const struct pp_split_file *f = pp_split_at(s, p->files[i]);

		if (!f->c.elf || S_ISLNK(f->st.st_mode) ||
		    f->c.cls == PP_CLASS_OBJECT || !f->c.elf->needed.nr)
			continue;
		if (file_deps(ctx, s, pkg, p->files[i], out, err) < 0)
			return -1;
	}
	drop_self(out, p->name);
	return 0;
}
