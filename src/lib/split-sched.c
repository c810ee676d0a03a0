/* padpack split: the order and the number of workers that build and
 * pack the packages side by side, as a pipeline (splitint.h). */
#include <stdlib.h>
#include <string.h>

#include "splitint.h"
#include "xalloc.h"

struct sized {
	size_t i;
	uint64_t size;
};

static int larger_first(const void *a, const void *b)
{
	const struct sized *x = a, *y = b;

	if (x->size != y->size)
		return x->size < y->size ? 1 : -1;
	return x->i < y->i ? -1 : x->i > y->i;
}

size_t *pp_split_largest_first(const uint64_t *sizes, size_t n)
{
	struct sized *by_size = xcalloc(n + 1, sizeof(*by_size));
	size_t *order = xcalloc(n + 1, sizeof(*order));

	for (size_t i = 0; i < n; i++)
		by_size[i] = (struct sized){ i, sizes[i] };
	qsort(by_size, n, sizeof(*by_size), larger_first);
	for (size_t i = 0; i < n; i++)
		order[i] = by_size[i].i;
	free(by_size);
	return order;
}

/* The bytes staged for a package: what it costs to strip and compress. */
static uint64_t staged_bytes(const struct pp_split *s, size_t pkg)
{
	const struct pp_split_pkg *p = &s->pkgs[pkg];
	uint64_t n = 0;

	for (size_t i = 0; i < p->nr_files; i++) {
		const struct pp_split_file *f = pp_split_at(s, p->files[i]);

		if (S_ISREG(f->st.st_mode))
			n += (uint64_t)f->st.st_size;
	}
	return n;
}

/* The trees to build (every package's but the -dbgsym ones, which their
 * packages' builds fill), largest first. */
static void build_order(struct pp_split_sched *sched)
{
	const struct pp_split *s = sched->s;
	uint64_t *bytes = xcalloc(s->nr_pkgs + 1, sizeof(*bytes));
	size_t *pkg = xcalloc(s->nr_pkgs + 1, sizeof(*pkg)), *order, n = 0;

	for (size_t i = 0; i < s->nr_pkgs; i++)
		if (s->pkgs[i].role != PP_ROLE_DBGSYM) {
			pkg[n] = i;
			bytes[n++] = staged_bytes(s, i);
		}
	order = pp_split_largest_first(bytes, n);
	for (size_t i = 0; i < n; i++)
		sched->order[i] = pkg[order[i]];
	sched->nr_builds = n;
	free(order);
	free(pkg);
	free(bytes);
}

void pp_split_sched_init(struct pp_split_sched *sched, struct pp_split *s)
{
	size_t n = s->nr_pkgs + 1;

	memset(sched, 0, sizeof(*sched));
	sched->s = s;
	sched->cpus = s->opts.comp.threads > 0 ? s->opts.comp.threads : 1;
	sched->mem_limit = s->opts.mem_limit;
	sched->order = xcalloc(n, sizeof(*sched->order));
	sched->waiting = xcalloc(n, sizeof(*sched->waiting));
	sched->weight = xcalloc(n, sizeof(*sched->weight));
	sched->taken = xcalloc(n, 1);
	build_order(sched);
	for (size_t i = 0; i < s->nr_pkgs; i++) {
		long parent = s->pkgs[i].parent;

		sched->waiting[i] = s->pkgs[i].role != PP_ROLE_DBGSYM ||
				    (parent >= 0 && (size_t)parent < s->nr_pkgs);
	}
	sched->workers = (size_t)sched->cpus < s->nr_pkgs ?
			 (size_t)sched->cpus : s->nr_pkgs;
	if (sched->workers < 1)
		sched->workers = 1;
	pthread_mutex_init(&sched->lock, NULL);
	pthread_cond_init(&sched->changed, NULL);
}

/* The largest package whose tree is built and whose pack has not
 * started; nr_pkgs if none. */
static size_t largest_ready(const struct pp_split_sched *sched)
{
	size_t best = sched->s->nr_pkgs;

	if (!sched->deps_done)
		return best;
	for (size_t i = 0; i < sched->s->nr_pkgs; i++)
		if (!sched->waiting[i] && !sched->taken[i] &&
		    (best == sched->s->nr_pkgs ||
		     sched->weight[i] > sched->weight[best]))
			best = i;
	return best;
}

/* Whether the pack of pkg is the last step there is to start. */
static int last_to_start(const struct pp_split_sched *sched, size_t pkg)
{
	if (sched->next_build < sched->nr_builds)
		return 0;
	for (size_t i = 0; i < sched->s->nr_pkgs; i++)
		if (i != pkg && !sched->taken[i])
			return 0;
	return 1;
}

/* The threads and memory of pkg's pack: the CPUs no other step uses when
 * it is the last to start, as many as fit under the limit; 0 threads
 * when even one does not fit beside the packs under way. */
static void size_pack(const struct pp_split_sched *sched, size_t pkg,
		      struct pp_split_step *step)
{
	int idle = sched->cpus - (int)sched->busy;

	step->threads = last_to_start(sched, pkg) && idle > 1 ? idle : 1;
	for (;;) {
		step->memory = pp_split_pack_memory(sched->s, step->threads);
		if (!sched->mem_limit || sched->mem_used + step->memory <=
		    sched->mem_limit)
			return;
		if (step->threads == 1)
			break;
		step->threads--;
	}
	if (sched->packing) /* it waits for memory */
		step->threads = 0;
}

/* A step to start now, if there is one: 1 and step filled. */
static int take(struct pp_split_sched *sched, struct pp_split_step *step)
{
	size_t pkg = largest_ready(sched);

	if (!sched->deps_taken) {
		*step = (struct pp_split_step){ PP_SPLIT_DEPS, 0, 1, 0 };
		sched->deps_taken = 1;
		return 1;
	}
	if (pkg < sched->s->nr_pkgs) {
		size_pack(sched, pkg, step);
		if (step->threads > 0) {
			step->kind = PP_SPLIT_PACK;
			step->pkg = pkg;
			sched->taken[pkg] = 1;
			sched->packing++;
			sched->mem_used += step->memory;
			if (sched->mem_limit && step->memory > sched->mem_limit) {
				sched->nr_alone++; /* alone, over the limit */
				if (step->memory > sched->alone_memory)
					sched->alone_memory = step->memory;
			}
			return 1;
		}
	}
	if (sched->next_build < sched->nr_builds) {
		step->kind = PP_SPLIT_BUILD;
		step->pkg = sched->order[sched->next_build++];
		step->threads = 1;
		step->memory = 0;
		return 1;
	}
	return 0;
}

int pp_split_sched_next(struct pp_split_sched *sched,
			struct pp_split_step *step)
{
	int found = 0;

	pthread_mutex_lock(&sched->lock);
	while (!sched->failed && !(found = take(sched, step)) && sched->busy)
		pthread_cond_wait(&sched->changed, &sched->lock);
	if (found)
		sched->busy++;
	pthread_mutex_unlock(&sched->lock);
	return found;
}

void pp_split_sched_done(struct pp_split_sched *sched,
			 const struct pp_split_step *step, int rc)
{
	const struct pp_split *s = sched->s;

	pthread_mutex_lock(&sched->lock);
	sched->busy--;
	if (rc < 0)
		sched->failed = 1;
	if (step->kind == PP_SPLIT_DEPS) {
		sched->deps_done = 1;
	} else if (step->kind == PP_SPLIT_PACK) {
		sched->packing--;
		sched->mem_used -= step->memory;
	} else {
		sched->waiting[step->pkg] = 0;
		for (size_t i = 0; i < s->nr_pkgs; i++)
			if (s->pkgs[i].role == PP_ROLE_DBGSYM &&
			    s->pkgs[i].parent == (long)step->pkg)
				sched->waiting[i] = 0;
	}
	pthread_cond_broadcast(&sched->changed);
	pthread_mutex_unlock(&sched->lock);
}

uint64_t pp_split_pack_memory(const struct pp_split *s, int threads)
{
	return pp_compress_memusage(&s->opts.comp, threads);
}

void pp_split_sched_release(struct pp_split_sched *sched)
{
	free(sched->order);
	free(sched->waiting);
	free(sched->weight);
	free(sched->taken);
	pthread_mutex_destroy(&sched->lock);
	pthread_cond_destroy(&sched->changed);
	memset(sched, 0, sizeof(*sched));
}
