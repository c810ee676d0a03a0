/* padpack split, the packages: each staged file placed in the package
 * its rule chose (split-assign.c), shared files in the package without
 * the variant's suffix, -dbgsym packages, all sorted by name.
 * Layer: below split-assign.c; calls nothing above it. */
#include "split-choice.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "control.h"
#include "splitint.h"
#include "xalloc.h"

char *pp_split_with_suffix(const char *base, const char *suffix)
{
	char *out = xmalloc(strlen(base) + strlen(suffix) + 2);

	sprintf(out, "%s%s%s", base, *suffix ? "-" : "", suffix);
	return out;
}

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
		at = add_pkg(s, pp_split_with_suffix(c->base, v->suffix), c->base,
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
		d = add_pkg(s, pp_split_with_suffix(s->pkgs[i].name, "dbgsym"),
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

int pp_split_make_packages(struct pp_split *s, struct choice **choices,
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

void pp_split_free_choices(struct pp_split *s, struct choice **choices)
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

