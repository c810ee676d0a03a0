/* How many distinct 32-bit values a stream holds, in bounded memory.
 *
 * Exact up to PP_DISTINCT_EXACT distinct values; past that an estimate
 * from the PP_DISTINCT_EXACT smallest hashes (the "k minimum values"
 * sketch: k / the k-th smallest hash as a share of the hash range),
 * within about 1% whatever the stream's length. The hash is a bijection
 * of the 32-bit values, so no two values collide, and the answer depends
 * on the values alone: not on their order, the machine or the threads.
 * Memory: 2 x PP_DISTINCT_EXACT x 4 bytes once the first value is added. */
#ifndef PP_DISTINCT_H
#define PP_DISTINCT_H

#include <stddef.h>
#include <stdint.h>

#define PP_DISTINCT_EXACT 16384

struct pp_distinct {
	uint32_t *hash; /* up to 2 x PP_DISTINCT_EXACT, unsorted past nr_kept */
	size_t nr;
	/* once more than PP_DISTINCT_EXACT distinct hashes were seen: the
	 * largest of the PP_DISTINCT_EXACT smallest, above which none is kept */
	int saturated;
	uint32_t ceiling;
};

void pp_distinct_add(struct pp_distinct *d, uint32_t value);
/* The number of distinct values added, exact or estimated (above). */
uint64_t pp_distinct_count(struct pp_distinct *d);
void pp_distinct_release(struct pp_distinct *d);

#endif
