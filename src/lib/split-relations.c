/* padpack split, the relations between the packages of one run: the
 * exact Depends of -dbgsym, variant, -common and -dev packages on each
 * other, with why (for --explain).
 * Layer: below split-build.c and split-plan.c, which both ask it; it
 * calls neither. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "splitint.h"
#include "xalloc.h"

static void add_rel_op(struct pp_strlist *rel, struct pp_strlist *why,
		       const char *name, const char *op, const char *ver,
		       const char *reason)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s (%s %s)", name, op, ver);
	if (pp_strlist_find(rel, sb.buf) < 0) {
		pp_strlist_push(rel, sb.buf);
		if (why)
			pp_strlist_push(why, reason);
	}
	strbuf_release(&sb);
}

static void add_rel(struct pp_strlist *rel, struct pp_strlist *why,
		    const char *name, const char *ver, const char *reason)
{
	add_rel_op(rel, why, name, "=", ver, reason);
}

/* What a runtime package's libraries read (pp_split_library_reads) that
 * a data package holds: the library depends on it. */
struct data_reads {
	const struct pp_split *s;
	const struct pp_split_stage *st;
	const struct pp_split_file *lib;
	size_t pkg;
	struct pp_strlist *rel, *why;
};

static void depend_on_data(size_t file, const char *string, void *ctx)
{
	struct data_reads *r = ctx;
	long q = r->st->files[file].pkg;
	struct strbuf sb = STRBUF_INIT;

	if (q < 0 || (size_t)q == r->pkg ||
	    r->s->pkgs[q].role != PP_ROLE_DATA)
		return;
	strbuf_addf(&sb, "its library %s reads \"%s\" (a string of it), "
		    "which %s holds: at least this version's data, as Debian's "
		    "libasound2 depends on libasound2-data (>= 1.2.8-1) "
		    "(library data: doc/split.md)", r->lib->c.soname, string,
		    r->s->pkgs[q].name);
	add_rel_op(r->rel, r->why, r->s->pkgs[q].name, ">=", r->s->version,
		   sb.buf);
	strbuf_release(&sb);
}

static void library_data(const struct pp_split *s, size_t pkg,
			 struct pp_strlist *rel, struct pp_strlist *why)
{
	const struct pp_split_pkg *p = &s->pkgs[pkg];
	struct data_reads r = { s, NULL, NULL, pkg, rel, why };

	for (size_t i = 0; i < p->nr_files; i++) {
		r.st = &s->stages[p->files[i].stage];
		r.lib = pp_split_at(s, p->files[i]);
		if (r.lib->c.cls == PP_CLASS_SHLIB && r.lib->c.elf &&
		    r.lib->c.elf->paths.nr)
			pp_split_library_reads(s, r.st, r.lib, depend_on_data,
					       &r);
	}
}

/* Whether q is the source's -data package (usr/share's data from 1 MiB,
 * made by the data rule), not a library's own LIBRARY-data (the library
 * data rule: only that library depends on it, library_data above). */
static int source_data(const struct pp_split *s, const struct pp_split_pkg *q)
{
	size_t n = strlen(q->base);

	if (q->role != PP_ROLE_DATA)
		return 0;
	for (size_t i = 0; i < s->nr_pkgs; i++) {
		const struct pp_split_pkg *r = &s->pkgs[i];
		size_t k = strlen(r->base);

		if (r->role == PP_ROLE_RUNTIME && k + 5 == n &&
		    !strncmp(q->base, r->base, k) &&
		    !strcmp(q->base + k, "-data"))
			return 0;
	}
	return 1;
}

/* The role whose packages would hold the source's data under 1 MiB, and
 * so depend on its -data package from 1 MiB: the data rule's order (a
 * lib* source's library first, else the programs, then -dev). */
static enum pp_role data_user(const struct pp_split *s,
			      const struct pp_variant *v)
{
	const enum pp_role *order = pp_split_variant_data_order(s, v);

	for (size_t r = 0; r < 3; r++)
		for (size_t i = 0; i < s->nr_pkgs; i++)
			if (s->pkgs[i].role == order[r])
				return order[r];
	return PP_ROLE_DATA; /* nothing else: no one depends */
}

/* Whether q ships a library one of p's .so links is for (with no such
 * link in p, any library: headers alone do not say whose they are). */
static int links_to(const struct pp_split *s, const struct pp_split_pkg *p,
		    const struct pp_split_pkg *q)
{
	int any = 0;

	for (size_t i = 0; i < p->nr_files; i++) {
		const struct pp_split_file *f = pp_split_at(s, p->files[i]);

		if (f->c.cls != PP_CLASS_DEV_LINK || !f->c.soname)
			continue;
		any = 1;
		for (size_t j = 0; j < q->nr_files; j++) {
			const struct pp_split_file *g = pp_split_at(s, q->files[j]);

			if (g->c.cls == PP_CLASS_SHLIB &&
			    !strcmp(g->c.soname, f->c.soname))
				return 1;
		}
	}
	return !any;
}

/* The ELF facts of the run's library of that SONAME, or NULL. */
static const struct pp_elf_info *library_of(const struct pp_split *s,
					    const char *soname)
{
	for (size_t k = 0; k < s->nr_stages; k++)
		for (size_t i = 0; i < s->stages[k].nr; i++) {
			const struct pp_split_file *f = &s->stages[k].files[i];

			if (f->c.cls == PP_CLASS_SHLIB && f->c.soname &&
			    !strcmp(f->c.soname, soname))
				return f->c.elf;
		}
	return NULL;
}

/* Whether a library p's .so links are for needs one q's are for
 * (libFLAC++ needs libFLAC: libflac++-dev needs libflac-dev). */
static int dev_needs_dev(const struct pp_split *s, const struct pp_split_pkg *p,
			 const struct pp_split_pkg *q)
{
	for (size_t i = 0; i < p->nr_files; i++) {
		const struct pp_split_file *f = pp_split_at(s, p->files[i]);
		const struct pp_elf_info *lib;

		if (f->c.cls != PP_CLASS_DEV_LINK || !f->c.soname ||
		    !(lib = library_of(s, f->c.soname)))
			continue;
		for (size_t j = 0; j < q->nr_files; j++) {
			const struct pp_split_file *g = pp_split_at(s, q->files[j]);

			if (g->c.cls == PP_CLASS_DEV_LINK && g->c.soname &&
			    pp_strlist_find(&lib->needed, g->c.soname) >= 0)
				return 1;
		}
	}
	return 0;
}

static const char why_dbgsym[] = "exact: debug files match one build's "
	"binaries (${binary:Version}, as debhelper's -dbgsym)";
static const char why_common[] = "exact: a variant set's -common part "
	"holds files split out of the same build as the variant's own, so "
	"the two must be one build";
static const char why_dev_dev[] = "exact: its library needs the other's, "
	"so linking with it (statically above all) needs the other's .so "
	"link or .a and headers of this build (packages.dev = \"library\"; "
	"Debian's libflac++-dev depends on libflac-dev)";
static const char why_data[] = "the source's data, 1 MiB or more of "
	"usr/share, which this package would hold were it smaller (the data "
	"rule: a lib* source's library first, else the programs): at least "
	"this version's, as Debian's programs and libraries depend on their "
	"-data, -common or -l10n package (libgphoto2-6 -> libgphoto2-l10n; "
	"without it, apt installs the package without its data)";
static const char why_dev[] = "exact: the -dev package's headers and .so "
	"link are for this build of the library (${binary:Version}, as "
	"Debian's -dev packages)";

void pp_split_run_relations(const struct pp_split *s, size_t pkg,
			    struct pp_strlist *rel, struct pp_strlist *why)
{
	const struct pp_split_pkg *p = &s->pkgs[pkg];
	enum pp_role user = data_user(s, p->variant);

	if (p->role == PP_ROLE_DBGSYM) {
		add_rel(rel, why, s->pkgs[p->parent].name, s->version,
			why_dbgsym);
		return;
	}
	if (p->role == PP_ROLE_RUNTIME)
		library_data(s, pkg, rel, why);
	for (size_t i = 0; i < s->nr_pkgs; i++) {
		const struct pp_split_pkg *q = &s->pkgs[i];

		if (i == pkg || q->role == PP_ROLE_DBGSYM)
			continue;
		if (p->role == user && source_data(s, q) &&
		    (!q->variant || q->variant == p->variant || !p->variant))
			add_rel_op(rel, why, q->name, ">=", s->version,
				   why_data);
		if (q->common && !p->common && p->variant &&
		    !strcmp(q->base, p->base))
			add_rel(rel, why, q->name, s->version, why_common);
		if (p->role == PP_ROLE_DEV && q->role == PP_ROLE_RUNTIME &&
		    !q->common && (!q->variant || q->variant == p->variant ||
				   !p->variant) && links_to(s, p, q))
			add_rel(rel, why, q->variant && !p->variant ? q->base :
				q->name, s->version, why_dev);
		if (p->role == PP_ROLE_DEV && q->role == PP_ROLE_DEV &&
		    q->variant == p->variant && dev_needs_dev(s, p, q))
			add_rel(rel, why, q->name, s->version, why_dev_dev);
	}
}
