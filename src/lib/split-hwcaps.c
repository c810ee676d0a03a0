/* padpack split, glibc-hwcaps builds: the values of a pack = "hwcaps" axis
 * are builds of the same libraries for several x86-64 levels. The dynamic
 * loader (glibc 2.33 and later) looks in DIR/glibc-hwcaps/x86-64-v4/, -v3/,
 * -v2/ before DIR and takes the first level the CPU supports, so one
 * package can hold them all: the baseline build's library in DIR, each
 * higher build's under glibc-hwcaps/LEVEL/, all with the same SONAME.
 * Everything else (programs, modules, -dev files) comes from the baseline
 * build: it links the SONAME, and the loader does the rest. */
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "splitint.h"
#include "xalloc.h"

static const char *level_of(const struct pp_split *s,
			    const struct pp_variant *v)
{
	long h = pp_spec_hwcaps_axis(s->spec);

	return pp_isa_level_name((enum pp_isa_level)v->values[h]->hwcaps_level);
}

static struct pp_split_stage *base_stage(struct pp_split *s,
					 const struct pp_variant *v)
{
	const struct pp_variant *base = pp_spec_hwcaps_base(s->spec, v);

	for (size_t k = 0; k < s->nr_stages; k++)
		if (s->stages[k].variant == base)
			return &s->stages[k];
	return NULL;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* A public shared library, or the SONAME link to one. */
static int carried(const struct pp_split_stage *st, const struct pp_split_file *f)
{
	char *dir = pp_dirname(f->path);
	int pub = pp_is_public_libdir(dir), yes = 0;

	free(dir);
	if (!pub)
		return 0;
	if (S_ISREG(f->st.st_mode))
		yes = f->c.cls == PP_CLASS_SHLIB;
	else if (S_ISLNK(f->st.st_mode) && f->c.soname && f->c.target)
		yes = !strcmp(base_name(f->path), f->c.soname) &&
		      pp_split_find(st, f->c.target);
	return yes;
}

static char *hwcaps_path(const char *path, const char *level)
{
	char *dir = pp_dirname(path);
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/glibc-hwcaps/%s/%s", dir, level, base_name(path));
	free(dir);
	return strbuf_detach(&sb, NULL);
}

static int has_sym(const struct pp_elf_info *e, const struct pp_elf_sym *sym)
{
	for (size_t i = 0; i < e->nr_defined; i++)
		if (!strcmp(e->defined[i].name, sym->name) &&
		    !strcmp(e->defined[i].version ? e->defined[i].version : "",
			    sym->version ? sym->version : ""))
			return 1;
	return 0;
}

/* The first symbol one exports and the other does not. */
static const struct pp_elf_sym *first_extra(const struct pp_elf_info *a,
					    const struct pp_elf_info *b)
{
	for (size_t i = 0; i < a->nr_defined; i++)
		if (!has_sym(b, &a->defined[i]))
			return &a->defined[i];
	return NULL;
}

static int same_exports(const struct pp_split_stage *base,
			const struct pp_split_file *lib,
			const struct pp_split_stage *higher,
			const struct pp_split_file *f, const char *level,
			struct pp_err *err)
{
	const struct pp_elf_sym *extra = first_extra(f->c.elf, lib->c.elf);
	const struct pp_elf_sym *lacks = first_extra(lib->c.elf, f->c.elf);
	const struct pp_elf_sym *sym = extra ? extra : lacks;

	if (!sym)
		return 0;
	return pp_err_set(err, PP_EXIT_FAIL, "%s/%s: the %s build (%s) %s "
			  "%s%s%s, which %s/%s (the baseline build, %s) %s; "
			  "glibc-hwcaps builds of a library must export the "
			  "same symbols, since the loader may give a program "
			  "either", higher->dir, f->path, level,
			  higher->variant->name, extra ? "exports" : "lacks",
			  sym->name, sym->version ? "@" : "",
			  sym->version ? sym->version : "", base->dir, lib->path,
			  base->variant->name, extra ? "does not" : "exports");
}

static int carry_one(struct pp_split_stage *base,
		     const struct pp_split_stage *higher,
		     struct pp_split_file *f, const char *level,
		     struct pp_err *err)
{
	const struct pp_split_file *lib = pp_split_find(base, f->path);
	struct strbuf src = STRBUF_INIT;
	struct pp_split_file *to;
	char *old;

	if (!lib || (lib->st.st_mode & S_IFMT) != (f->st.st_mode & S_IFMT))
		return pp_err_set(err, PP_EXIT_INPUT, "%s/%s: the %s build (%s)"
				  " has this library, which the baseline build "
				  "(%s) lacks; a glibc-hwcaps build only "
				  "replaces the baseline's libraries: build it "
				  "in %s too", higher->dir, f->path, level,
				  higher->variant->name, base->variant->name,
				  base->dir);
	if (S_ISREG(f->st.st_mode) &&
	    same_exports(base, lib, higher, f, level, err) < 0)
		return -1;
	ARRAY_GROW(base->files, base->alloc, base->nr + 1);
	to = &base->files[base->nr++];
	*to = *f;
	memset(f, 0, sizeof(*f));
	strbuf_addf(&src, "%s/%s", higher->dir, to->path);
	to->src = strbuf_detach(&src, NULL);
	old = to->path;
	to->path = hwcaps_path(old, level);
	free(old);
	if (to->c.target) {
		char *t = hwcaps_path(to->c.target, level);

		free(to->c.target);
		to->c.target = t;
	}
	to->built = higher->variant;
	to->hwcaps = level;
	return 0;
}

int pp_split_hwcaps_carry(struct pp_split *s, struct pp_split_stage *higher,
			  struct pp_err *err)
{
	struct pp_split_stage *base = base_stage(s, higher->variant);
	const char *level = level_of(s, higher->variant);
	unsigned char *take;
	int rc = 0;

	if (!base) {
		const struct pp_variant *b = pp_spec_hwcaps_base(s->spec,
								 higher->variant);

		rc = pp_err_set(err, PP_EXIT_INPUT, "variant %s is the %s "
				"glibc-hwcaps build of %s, which is not in this "
				"run: split them together (build it, or add it "
				"to --variant)", higher->variant->name, level,
				b ? b->name : "a baseline variant");
	}
	take = xcalloc(higher->nr + 1, 1);
	for (size_t i = 0; i < higher->nr; i++)
		take[i] = carried(higher, &higher->files[i]);
	/* the libraries first, so that a SONAME link finds its target */
	for (int pass = 0; pass < 2 && !rc; pass++)
		for (size_t i = 0; i < higher->nr && !rc; i++)
			if (take[i] && S_ISLNK(higher->files[i].st.st_mode) == pass)
				rc = carry_one(base, higher, &higher->files[i],
					       level, err);
	free(take);
	for (size_t i = 0; i < higher->nr; i++)
		pp_split_file_release(&higher->files[i]);
	higher->nr = 0;
	if (base)
		pp_split_index_stage(base);
	return rc;
}
