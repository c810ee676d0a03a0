/* Sorting a list kept sorted between runs. */
#ifndef PP_SORT_H
#define PP_SORT_H

#include <stddef.h>

/* Sorts an array that is sorted already but for a few elements (a list
 * saved sorted, then some appended): each element out of place is moved
 * to its place by a binary search and one memmove, so the usual case
 * costs n compares instead of n log n; past a few such elements, the
 * rest is qsort'ed and merged with the part in order before it. */
void pp_sort_nearly_sorted(void *base, size_t n, size_t size,
			   int (*cmp)(const void *, const void *));

#endif
