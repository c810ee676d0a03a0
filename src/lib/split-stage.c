/* padpack split, a stage's files: the index by path (sorted once after
 * reading, then every part of the split looks files up in it), where a
 * file's bytes are read from and where its package puts it, and freeing
 * one.
 * Layer: the bottom of split (below split-plan.c, split-assign.c,
 * split-hwcaps.c, split-isa.c, split-alt.c, shlibdeps.c, split-build.c);
 * it calls none of them. */
#include <stdlib.h>
#include <string.h>

#include "split-plan.h"
#include "xalloc.h"

/* ---- the stages' index by path, which the rules look files up in ---- */

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
