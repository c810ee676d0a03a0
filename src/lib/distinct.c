#include "distinct.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#define CAPACITY (2 * PP_DISTINCT_EXACT)

/* MurmurHash3's 32-bit finaliser: each step (xor with a shift, multiply
 * by an odd number) can be undone, so distinct values hash apart. */
static uint32_t mix(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Sorts and dedupes the hashes, then keeps the PP_DISTINCT_EXACT
 * smallest. */
static void compact(struct pp_distinct *d)
{
	size_t n = d->nr ? 1 : 0;

	qsort(d->hash, d->nr, sizeof(*d->hash), cmp_u32);
	for (size_t i = 1; i < d->nr; i++)
		if (d->hash[i] != d->hash[n - 1])
			d->hash[n++] = d->hash[i];
	d->nr = n;
	if (d->nr > PP_DISTINCT_EXACT) {
		d->nr = PP_DISTINCT_EXACT;
		d->saturated = 1;
	}
	if (d->saturated)
		d->ceiling = d->hash[d->nr - 1];
}

void pp_distinct_add(struct pp_distinct *d, uint32_t value)
{
	uint32_t h = mix(value);

	if (d->saturated && h >= d->ceiling)
		return; /* not among the smallest, or the ceiling itself */
	if (!d->hash)
		d->hash = xmalloc(CAPACITY * sizeof(*d->hash));
	if (d->nr == CAPACITY)
		compact(d);
	d->hash[d->nr++] = h;
}

uint64_t pp_distinct_count(struct pp_distinct *d)
{
	if (!d->hash)
		return 0; /* nothing added */
	compact(d);
	if (!d->saturated)
		return d->nr;
	/* k - 1 over the k-th smallest hash's share of the range: the
	 * unbiased form of the estimate */
	return (uint64_t)((double)(PP_DISTINCT_EXACT - 1) * 4294967296.0 /
			  ((double)d->ceiling + 1.0));
}

void pp_distinct_release(struct pp_distinct *d)
{
	free(d->hash);
	memset(d, 0, sizeof(*d));
}
