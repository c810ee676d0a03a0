/* Allocation that never returns NULL: out of memory ends the process,
 * as there is nothing sensible a packaging tool can do without memory. */
#ifndef PP_XALLOC_H
#define PP_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Grows *arr (of *alloc elements of size elsize) to hold at least n. */
void *xgrow(void *arr, size_t *alloc, size_t n, size_t elsize);

/* Maps the pages of a large buffer in one call before it is written:
 * page faults one at a time cost microseconds each on virtual machines,
 * milliseconds per megabyte. Only a hint: does nothing where unsupported. */
void xprefault(void *p, size_t len);

#define ARRAY_GROW(arr, alloc, n) \
	((arr) = xgrow((arr), &(alloc), (n), sizeof(*(arr))))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
