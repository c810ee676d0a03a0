#include "xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Below this, the call costs more than the faults it saves. */
#define PREFAULT_MIN (64u << 10)

static void *oom(size_t n)
{
	fprintf(stderr, "padpack: out of memory (allocating %zu bytes)\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	return p ? p : oom(n);
}

void *xcalloc(size_t nmemb, size_t size)
{
	size_t n = (nmemb ? nmemb : 1) * (size ? size : 1);
	void *p;

	if (n < PREFAULT_MIN || (size && n / size != (nmemb ? nmemb : 1))) {
		p = calloc(nmemb ? nmemb : 1, size ? size : 1);
		return p ? p : oom(n);
	}
	/* large: mapped in one call, then cleared (calloc would fault each
	 * page in as it clears it) */
	p = xmalloc(n);
	xprefault(p, n);
	return memset(p, 0, n);
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	return q ? q : oom(n);
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void *xgrow(void *arr, size_t *alloc, size_t n, size_t elsize)
{
	size_t want;

	if (n <= *alloc)
		return arr;
	want = *alloc ? *alloc * 2 : 16;
	if (want < n)
		want = n;
	arr = xrealloc(arr, want * elsize);
	*alloc = want;
	return arr;
}

void xprefault(void *p, size_t len)
{
#ifdef MADV_POPULATE_WRITE
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = ((uintptr_t)p + page - 1) & ~(page - 1);
	uintptr_t end = ((uintptr_t)p + len) & ~(page - 1);

	if (len >= PREFAULT_MIN && end > start)
		madvise((void *)start, end - start, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)len;
#endif
}
