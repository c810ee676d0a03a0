#include "sort.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#define MAX_MOVED 32 /* elements out of place before it is all qsort'ed */

/* The first position in a[0, end) whose element is greater than x (a
 * sorted; a[end - 1] is known to be greater). */
static size_t upper_bound(const char *a, size_t end, size_t size,
			  const void *x, int (*cmp)(const void *, const void *))
{
	size_t lo = 0, hi = end - 1;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp(a + mid * size, x) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* a[0, i) sorted, a[i, n) not: the rest sorted on its own, then the two
 * runs merged from their ends (the rest copied out first), so that a
 * long sorted list with many appended costs a pass, not a whole qsort. */
static void sort_rest_and_merge(char *a, size_t i, size_t n, size_t size,
				int (*cmp)(const void *, const void *))
{
	size_t nr_rest = n - i, x = i, y = nr_rest, to = n;
	char *rest = xmalloc(nr_rest * size);

	qsort(a + i * size, nr_rest, size, cmp);
	memcpy(rest, a + i * size, nr_rest * size);
	while (y > 0) {
		to--;
		if (x > 0 && cmp(a + (x - 1) * size, rest + (y - 1) * size) > 0) {
			x--;
			memcpy(a + to * size, a + x * size, size);
		} else {
			y--;
			memcpy(a + to * size, rest + y * size, size);
		}
	}
	free(rest);
}

void pp_sort_nearly_sorted(void *base, size_t n, size_t size,
			   int (*cmp)(const void *, const void *))
{
	char *a = base, small[128];
	char *tmp = size <= sizeof(small) ? small : xmalloc(size);
	size_t moved = 0;

	/* a[0, i) is sorted at each step */
	for (size_t i = 1; i < n; i++) {
		char *x = a + i * size;
		size_t at;

		if (cmp(x - size, x) <= 0)
			continue;
		if (++moved > MAX_MOVED) {
			sort_rest_and_merge(a, i, n, size, cmp);
			break;
		}
		at = upper_bound(a, i, size, x, cmp);
		memcpy(tmp, x, size);
		memmove(a + (at + 1) * size, a + at * size, (i - at) * size);
		memcpy(a + at * size, tmp, size);
	}
	if (tmp != small)
		free(tmp);
}
