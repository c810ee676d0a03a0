/* padpack split: the order and the number of workers that build and
 * pack the packages side by side. */
#include <stdlib.h>

#include "splitint.h"
#include "xalloc.h"

struct sized {
	size_t pkg;
	unsigned long long bytes;
};

static int larger_first(const void *a, const void *b)
{
	const struct sized *x = a, *y = b;

	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? 1 : -1;
	return x->pkg < y->pkg ? -1 : x->pkg > y->pkg;
}

/* The bytes staged for a package: what it costs to strip and compress. */
static unsigned long long staged_bytes(const struct pp_split *s, size_t pkg)
{
	const struct pp_split_pkg *p = &s->pkgs[pkg];
	unsigned long long n = 0;

	for (size_t i = 0; i < p->nr_files; i++) {
		const struct pp_split_file *f = pp_split_at(s, p->files[i]);

		if (S_ISREG(f->st.st_mode))
			n += (unsigned long long)f->st.st_size;
	}
	return n;
}

void pp_split_sched_init(struct pp_split_sched *sched, struct pp_split *s)
{
	struct sized *by_size = xcalloc(s->nr_pkgs + 1, sizeof(*by_size));
	int cpus = s->opts.comp.threads > 0 ? s->opts.comp.threads : 1;

	sched->s = s;
	sched->order = xcalloc(s->nr_pkgs + 1, sizeof(*sched->order));
	for (size_t i = 0; i < s->nr_pkgs; i++)
		by_size[i] = (struct sized){ i, staged_bytes(s, i) };
	qsort(by_size, s->nr_pkgs, sizeof(*by_size), larger_first);
	for (size_t i = 0; i < s->nr_pkgs; i++)
		sched->order[i] = by_size[i].pkg;
	/* One compressor thread a package when packages go side by side:
	 * as many encoders at once (and as much memory) as one package
	 * compressed with every thread. */
	sched->workers = (size_t)cpus < s->nr_pkgs ? (size_t)cpus : s->nr_pkgs;
	if (sched->workers < 1)
		sched->workers = 1;
	sched->pack_threads = sched->workers > 1 ? 1 : cpus;
	free(by_size);
}

void pp_split_sched_release(struct pp_split_sched *sched)
{
	free(sched->order);
	sched->order = NULL;
}
