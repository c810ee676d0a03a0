/* padpack split, a stage's index by path: sorted once after reading,
 * then every part of the split looks files up in it.
 * Layer: the bottom of split (below split-plan.c, split-assign.c,
 * split-hwcaps.c, split-alt.c, shlibdeps.c); it calls none of them. */
#include <stdlib.h>
#include <string.h>

#include "split.h"
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
