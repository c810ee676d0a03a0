#include "hindex.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* Open addressing with linear probing; pos + 1 so that 0 is empty. */
struct pp_hindex_slot {
	uint32_t hash;
	uint32_t pos1; /* 8 bytes a slot: half the memory, half the faults */
};

uint32_t pp_hindex_hash(const char *s, uint32_t seed)
{
	uint32_t h = seed;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void put(struct pp_hindex_slot *slot, size_t cap, uint32_t hash,
		uint32_t pos1)
{
	size_t i = hash & (cap - 1);

	while (slot[i].pos1)
		i = (i + 1) & (cap - 1);
	slot[i].hash = hash;
	slot[i].pos1 = pos1;
}

/* Kept at most half full: probes stay short. */
static void grow_to(struct pp_hindex *x, size_t cap)
{
	struct pp_hindex_slot *slot = xcalloc(cap, sizeof(*slot));

	for (size_t i = 0; i < x->cap; i++)
		if (x->slot[i].pos1)
			put(slot, cap, x->slot[i].hash, x->slot[i].pos1);
	free(x->slot);
	x->slot = slot;
	x->cap = cap;
}

void pp_hindex_init(struct pp_hindex *x)
{
	x->slot = NULL;
	x->cap = x->nr = 0;
}

void pp_hindex_reserve(struct pp_hindex *x, size_t n)
{
	size_t cap = x->cap ? x->cap : 64;

	while (2 * n > cap)
		cap *= 2;
	if (cap > x->cap)
		grow_to(x, cap);
}

void pp_hindex_add(struct pp_hindex *x, uint32_t hash, size_t pos)
{
	if (pos >= UINT32_MAX) /* arrays of billions: not in a packaging tool */
		abort();
	if (2 * (x->nr + 1) > x->cap)
		grow_to(x, x->cap ? 2 * x->cap : 64);
	put(x->slot, x->cap, hash, (uint32_t)pos + 1);
	x->nr++;
}

size_t pp_hindex_find(const struct pp_hindex *x, uint32_t hash,
		      int (*eq)(const void *ctx, size_t pos), const void *ctx)
{
	if (!x->cap)
		return PP_HINDEX_NONE;
	for (size_t i = hash & (x->cap - 1); x->slot[i].pos1;
	     i = (i + 1) & (x->cap - 1))
		if (x->slot[i].hash == hash && eq(ctx, x->slot[i].pos1 - 1))
			return x->slot[i].pos1 - 1;
	return PP_HINDEX_NONE;
}

void pp_hindex_clear(struct pp_hindex *x)
{
	if (x->cap)
		memset(x->slot, 0, x->cap * sizeof(*x->slot));
	x->nr = 0;
}

void pp_hindex_release(struct pp_hindex *x)
{
	free(x->slot);
	pp_hindex_init(x);
}
