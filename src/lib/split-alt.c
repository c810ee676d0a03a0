/* padpack split, co-installable variant sets (packages.variants =
 * "coinstallable"): every variant's files in paths of their own, and the
 * generic names (libblas.so.3 ...) managed by update-alternatives, as
 * Debian's libopenblas0-pthread/-openmp/-serial are. Each package that
 * holds an alternative's path registers it in postinst and unregisters
 * it in prerm (scripts/alternatives.postinst, .prerm). */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "classify.h"
#include "fsutil.h"
#include "splitint.h"
#include "xalloc.h"

/* The variant packages holding path in two variants would overwrite
 * each other's file when installed together. */
static int check_own_paths(const struct pp_split *s, struct pp_err *err)
{
	for (size_t a = 0; a < s->nr_stages; a++)
		for (size_t i = 0; i < s->stages[a].nr; i++) {
			const struct pp_split_file *f = &s->stages[a].files[i];

			if (S_ISDIR(f->st.st_mode) || f->shared || f->pkg < 0)
				continue;
			for (size_t b = a + 1; b < s->nr_stages; b++) {
				const struct pp_split_file *g =
					pp_split_find(&s->stages[b], f->path);

				if (g && !S_ISDIR(g->st.st_mode) && g->pkg >= 0)
					return pp_err_set(err, PP_EXIT_INPUT,
						"%s: the variants are "
						"co-installable (packages."
						"variants), but /%s differs in "
						"%s (%s) and %s (%s): install "
						"each variant's files in paths "
						"of their own, e.g. a directory "
						"named with @suffix@",
						s->spec->path, f->path,
						s->pkgs[f->pkg].name,
						s->stages[a].variant->name,
						s->pkgs[g->pkg].name,
						s->stages[b].variant->name);
			}
		}
	return 0;
}

static char *expand(const struct pp_split *s, const struct pp_variant *v,
		    const char *tmpl, struct pp_err *err)
{
	struct pp_expand_ctx ctx = { s->spec, v, s->upstream, 1, 1, NULL };
	struct strbuf sb = STRBUF_INIT;

	if (pp_spec_expand(tmpl, &ctx, &sb, err) < 0) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

/* The package of variant v that ships path (absolute), or -1. */
static long holder(const struct pp_split *s, const struct pp_variant *v,
		   const char *path)
{
	for (size_t i = 0; i < s->nr_pkgs; i++) {
		const struct pp_split_pkg *p = &s->pkgs[i];

		if (p->role == PP_ROLE_DBGSYM || (p->variant && p->variant != v))
			continue;
		for (size_t k = 0; k < p->nr_files; k++) {
			char *dest = pp_split_dest_path(s, i,
						pp_split_at(s, p->files[k]));
			int same = !strcmp(dest, path + 1);

			free(dest);
			if (same)
				return (long)i;
		}
	}
	return -1;
}

/* Whether variant v registers alternative a (its variants globs). */
static int registers(const struct pp_alternative *a, const struct pp_variant *v)
{
	for (size_t i = 0; i < a->variants.nr; i++)
		if (!fnmatch(a->variants.items[i], v->name, 0))
			return 1;
	return !a->variants.nr;
}

/* Each glob of an alternative's variants names a variant of the spec. */
static int check_variant_globs(const struct pp_split *s, struct pp_err *err)
{
	const struct pp_spec *spec = s->spec;

	for (size_t k = 0; k < spec->nr_alternatives; k++) {
		const struct pp_alternative *a = &spec->alternatives[k];

		for (size_t i = 0; i < a->variants.nr; i++) {
			size_t n = 0;

			while (n < spec->nr_variants &&
			       fnmatch(a->variants.items[i],
				       spec->variants[n].name, 0))
				n++;
			if (n == spec->nr_variants) {
				char *all = pp_spec_variant_list(spec);

				pp_err_set(err, PP_EXIT_INPUT, "%s:%u: "
					   "alternative '%s': '%s' names no "
					   "variant; the variants are %s",
					   spec->path, a->variants_line,
					   a->master.name, a->variants.items[i],
					   all);
				free(all);
				return -1;
			}
		}
	}
	return 0;
}

/* Whether variants v and w register an alternative both. */
static int share_alternative(const struct pp_spec *spec,
			     const struct pp_variant *v,
			     const struct pp_variant *w)
{
	for (size_t k = 0; k < spec->nr_alternatives; k++)
		if (registers(&spec->alternatives[k], v) &&
		    registers(&spec->alternatives[k], w))
			return 1;
	return 0;
}

static long priority_of(const struct pp_spec *spec, const struct pp_variant *v)
{
	long sum = 0;

	for (size_t a = 0; a < spec->nr_axes; a++)
		sum += v->values[a]->priority;
	return sum;
}

/* " LINK NAME PATH" of one link, expanded for v, to out, and the
 * link's directory (without its leading '/') to dirs; -1 on error. */
static int link_words(const struct pp_split *s, const struct pp_variant *v,
		      const struct pp_alt_link *l, char **path,
		      struct strbuf *out, struct pp_strlist *dirs,
		      struct pp_err *err)
{
	char *link = expand(s, v, l->link, err);
	char *name = link ? expand(s, v, l->name, err) : NULL;

	*path = name ? expand(s, v, l->path, err) : NULL;
	if (*path && holder(s, v, link) >= 0) {
		pp_err_set(err, PP_EXIT_INPUT, "%s:%u: alternative '%s': %s "
			   "is its link, but %s ships a file there, which "
			   "update-alternatives would not replace; install "
			   "each variant's file under a path of its own",
			   s->spec->path, l->line, name, link,
			   s->pkgs[holder(s, v, link)].name);
		free(*path);
		*path = NULL;
	}
	if (*path) {
		char *dir = pp_dirname(link + 1);

		strbuf_addf(out, " %s %s %s", link, name, *path);
		if (pp_strlist_find(dirs, dir) < 0)
			pp_strlist_push(dirs, dir);
		free(dir);
	}
	free(link);
	free(name);
	return *path ? 0 : -1;
}

static int not_held(const struct pp_split *s, const struct pp_variant *v,
		    const struct pp_alt_link *l, const char *path,
		    const char *pkg, struct pp_err *err)
{
	if (pkg)
		return pp_err_set(err, PP_EXIT_INPUT, "%s:%u: alternative "
				  "'%s': %s is not in %s, the package of its "
				  "master link: a slave's file must be in the "
				  "same package", s->spec->path, l->line,
				  l->name, path, pkg);
	const char *stage = "the stage";

	for (size_t i = 0; i < s->nr_stages; i++)
		if (s->stages[i].variant == v)
			stage = s->stages[i].dir;
	return pp_err_set(err, PP_EXIT_INPUT, "%s:%u: alternative '%s': no "
			  "package of variant %s holds %s; its staged files "
			  "are in %s (see padpack split --explain)",
			  s->spec->path, l->line, l->name, v->name, path, stage);
}

/* *dst, then sep and what (just what when *dst is NULL). */
static void append(char **dst, const char *sep, const char *what)
{
	char *old = *dst;

	*dst = xmalloc((old ? strlen(old) + strlen(sep) : 0) + strlen(what) + 1);
	sprintf(*dst, "%s%s%s", old ? old : "", old ? sep : "", what);
	free(old);
}

/* Adds alternative a of variant v to the package holding its path. */
static int add_alternative(struct pp_split *s, const struct pp_variant *v,
			   const struct pp_alternative *a, struct pp_err *err)
{
	struct strbuf install = STRBUF_INIT, remove = STRBUF_INIT;
	struct pp_strlist dirs = PP_STRLIST_INIT;
	struct pp_split_pkg *p = NULL;
	char *path = NULL, *name = expand(s, v, a->master.name, err);
	long pkg = -1;
	int rc = name ? 0 : -1;

	strbuf_addstr(&install, "\tupdate-alternatives --install");
	if (rc == 0)
		rc = link_words(s, v, &a->master, &path, &install, &dirs,
				err);
	if (rc == 0 && (pkg = holder(s, v, path)) < 0)
		rc = not_held(s, v, &a->master, path, NULL, err);
	if (rc == 0) {
		p = &s->pkgs[pkg];
		p->alt_priority = priority_of(s->spec, v);
		strbuf_addf(&install, " %ld", p->alt_priority);
		strbuf_addf(&remove, "\tupdate-alternatives --remove %s %s",
			    name, path);
	}
	for (size_t i = 0; rc == 0 && i < a->nr_slaves; i++) {
		free(path);
		strbuf_addstr(&install, " \\\n\t\t--slave");
		rc = link_words(s, v, &a->slaves[i], &path, &install,
				&dirs, err);
		if (rc == 0 && holder(s, v, path) != pkg)
			rc = not_held(s, v, &a->slaves[i], path,
				      holder(s, v, path) < 0 ? NULL : p->name,
				      err);
	}
	if (rc == 0) {
		append(&p->alt_install, "\n", install.buf);
		append(&p->alt_remove, "\n", remove.buf);
		append(&p->alt_names, " ", name);
		if (a->provides && pp_strlist_find(&p->alt_provides,
						   a->provides) < 0)
			pp_strlist_push(&p->alt_provides, a->provides);
		for (size_t i = 0; i < dirs.nr; i++)
			if (pp_strlist_find(&p->alt_dirs, dirs.items[i]) < 0)
				pp_strlist_push(&p->alt_dirs, dirs.items[i]);
	}
	pp_strlist_release(&dirs);
	free(path);
	free(name);
	strbuf_release(&install);
	strbuf_release(&remove);
	return rc;
}

/* update-alternatives' auto mode takes the highest priority; two
 * variants of one priority leave the choice to the order of install. */
static int check_priorities(const struct pp_split *s, struct pp_err *err)
{
	for (size_t a = 0; s->spec->nr_alternatives && a < s->nr_stages; a++)
		for (size_t b = a + 1; b < s->nr_stages; b++) {
			const struct pp_variant *v = s->stages[a].variant,
						*w = s->stages[b].variant;
			size_t k = 0;

			if (priority_of(s->spec, v) != priority_of(s->spec, w) ||
			    !share_alternative(s->spec, v, w))
				continue;
			while (k + 1 < s->spec->nr_axes &&
			       v->values[k] == w->values[k])
				k++;
			return pp_err_set(err, PP_EXIT_INPUT, "%s:%u: variants "
					  "%s and %s both have the "
					  "update-alternatives priority %ld, "
					  "and which one auto mode picks would "
					  "depend on the order they were "
					  "installed in; give their axis values "
					  "(here %s, line %u, and %s, line %u) "
					  "priorities that add up differently",
					  s->spec->path, w->values[k]->line,
					  v->name, w->name,
					  priority_of(s->spec, v),
					  v->values[k]->name,
					  v->values[k]->line,
					  w->values[k]->name,
					  w->values[k]->line);
		}
	return 0;
}

int pp_split_alternatives(struct pp_split *s, struct pp_err *err)
{
	int rc;

	if (!s->spec->coinstallable)
		return 0;
	rc = check_own_paths(s, err);
	if (rc == 0)
		rc = check_variant_globs(s, err);
	if (rc == 0)
		rc = check_priorities(s, err);
	for (size_t i = 0; rc == 0 && i < s->nr_stages; i++)
		for (size_t k = 0; rc == 0 && k < s->spec->nr_alternatives; k++)
			if (registers(&s->spec->alternatives[k],
				      s->stages[i].variant))
				rc = add_alternative(s, s->stages[i].variant,
						     &s->spec->alternatives[k],
						     err);
	return rc;
}

/* Whether dir is the directory of an alternative's path in variant v,
 * of any alternative (all) or of one v registers. */
static int alt_dir_in(const struct pp_split *s, const struct pp_variant *v,
		      const char *dir, int all)
{
	struct pp_err ignored;
	int found = 0;

	pp_err_init(&ignored);
	for (size_t k = 0; !found && k < s->spec->nr_alternatives; k++) {
		const struct pp_alternative *a = &s->spec->alternatives[k];
		char *path = all || registers(a, v) ?
			     expand(s, v, a->master.path, &ignored) : NULL;
		char *d = path ? pp_dirname(path + 1) : NULL;

		found = d && !strcmp(d, dir);
		free(d);
		free(path);
	}
	pp_err_release(&ignored);
	return found;
}

int pp_split_alt_libdir(const struct pp_split *s, const char *dir)
{
	int found = 0;

	for (size_t i = 0; !found && i < s->nr_stages; i++)
		found = alt_dir_in(s, s->stages[i].variant, dir, 1);
	return found;
}

int pp_split_alt_libdir_of(const struct pp_split *s, const struct pp_variant *v,
			   const char *dir)
{
	if (!v)
		return pp_split_alt_libdir(s, dir);
	return alt_dir_in(s, v, dir, 0);
}

const char *pp_split_alt_virtual(const struct pp_split *s,
				 const struct pp_variant *v, const char *soname)
{
	for (size_t k = 0; k < s->spec->nr_alternatives; k++) {
		const struct pp_alternative *a = &s->spec->alternatives[k];
		const char *base = strrchr(a->master.link, '/');

		if (a->provides && base && soname &&
		    !strcmp(base + 1, soname) && (!v || registers(a, v)))
			return a->provides;
	}
	return NULL;
}

char *pp_split_alt_target(const struct pp_split *s, const struct pp_variant *v,
			  const char *link)
{
	char *found = NULL;

	for (size_t k = 0; !found && k < s->spec->nr_alternatives; k++) {
		const struct pp_alternative *a = &s->spec->alternatives[k];
		struct pp_err ignored;
		char *l, *path;

		if (!registers(a, v))
			continue;
		pp_err_init(&ignored);
		l = expand(s, v, a->master.link, &ignored);
		path = l && !strcmp(l + 1, link) ?
			expand(s, v, a->master.path, &ignored) : NULL;
		if (path)
			found = xstrdup(path + 1);
		free(path);
		free(l);
		pp_err_release(&ignored);
	}
	return found;
}

const struct pp_alternative *pp_split_alt_unregistered(
	const struct pp_split *s, const struct pp_variant *v, const char *soname)
{
	for (size_t k = 0; s->spec->coinstallable &&
			   k < s->spec->nr_alternatives; k++) {
		const struct pp_alternative *a = &s->spec->alternatives[k];
		const char *base = strrchr(a->master.link, '/');

		if (base && !strcmp(base + 1, soname) && !registers(a, v))
			return a;
	}
	return NULL;
}

int pp_split_public_libdir(const struct pp_split *s, const char *dir)
{
	return pp_is_public_libdir(dir) || pp_split_alt_libdir(s, dir);
}

void pp_split_alt_explain(const struct pp_split *s, struct strbuf *out)
{
	for (size_t i = 0; i < s->nr_pkgs; i++) {
		const struct pp_split_pkg *p = &s->pkgs[i];

		if (p->alt_names)
			strbuf_addf(out, "alternatives of %s (priority %ld): "
				    "%s\n", p->name, p->alt_priority,
				    p->alt_names);
	}
}
