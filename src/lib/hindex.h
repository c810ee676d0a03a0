/* An index from hashes to positions in an array its owner keeps: find
 * visits the positions whose hash matches and the owner's eq callback
 * says which one is the key. Lookups and additions are O(1), so code that
 * adds thousands of entries one by one stays linear. */
#ifndef PP_HINDEX_H
#define PP_HINDEX_H

#include <stddef.h>
#include <stdint.h>

#define PP_HINDEX_NONE ((size_t)-1)

struct pp_hindex {
	struct pp_hindex_slot *slot;
	size_t cap, nr;
};

#define PP_HINDEX_INIT { NULL, 0, 0 }

/* FNV-1a of a string, to combine or to use as it is. */
uint32_t pp_hindex_hash(const char *s, uint32_t seed);
#define PP_HINDEX_SEED 2166136261u

void pp_hindex_init(struct pp_hindex *x);
void pp_hindex_add(struct pp_hindex *x, uint32_t hash, size_t pos);
/* Room for n positions without growing (a table grown step by step
 * touches twice the memory of one sized once). */
void pp_hindex_reserve(struct pp_hindex *x, size_t n);
/* The position whose hash is hash and for which eq(ctx, pos) is true, or
 * PP_HINDEX_NONE. */
size_t pp_hindex_find(const struct pp_hindex *x, uint32_t hash,
		      int (*eq)(const void *ctx, size_t pos), const void *ctx);
void pp_hindex_clear(struct pp_hindex *x);
void pp_hindex_release(struct pp_hindex *x);

#endif
