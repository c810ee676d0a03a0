#include "../../src/lib/sort.h"
#include "test.h"
#include <stdlib.h>
#include <string.h>

struct rec {
	int key;
	char pad[200]; /* larger than the sort's stack buffer */
};

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int cmp_rec(const void *a, const void *b)
{
	return cmp_int(&((const struct rec *)a)->key,
		       &((const struct rec *)b)->key);
}

/* A sorted list with k random elements appended (0 to past the point
 * where it gives up moving them one by one), and with k swapped pairs:
 * the same as qsort's. */
static void nearly_sorted(struct t_ctx *t)
{
	enum { N = 2000 };
	static int a[N + 64], want[N + 64];

	srand(7);
	for (int k = 0; k <= 40; k++) {
		for (int i = 0; i < N; i++)
			a[i] = 3 * i;
		for (int i = 0; i < k; i++) /* duplicates of listed keys too */
			a[N + i] = rand() % (3 * N + 10) - 5;
		if (k % 2) /* and out-of-place ones in the middle */
			for (int i = 0; i < k; i++) {
				int x = rand() % N, y = rand() % N, v = a[x];

				a[x] = a[y];
				a[y] = v;
			}
		memcpy(want, a, sizeof(a));
		qsort(want, N + k, sizeof(int), cmp_int);
		pp_sort_nearly_sorted(a, N + k, sizeof(int), cmp_int);
		CHECK(!memcmp(a, want, (N + k) * sizeof(int)));
	}
}

/* Many appended (the rest sorted and merged with the part in order):
 * fewer than the list, and more. */
static void many_appended(struct t_ctx *t)
{
	enum { N = 1000, MAX_K = 3000 };
	static int a[N + MAX_K], want[N + MAX_K];
	const int ks[] = { 33, 100, 999, MAX_K };

	srand(11);
	for (size_t c = 0; c < sizeof(ks) / sizeof(ks[0]); c++) {
		int k = ks[c];

		for (int i = 0; i < N; i++)
			a[i] = 3 * i;
		for (int i = 0; i < k; i++)
			a[N + i] = rand() % (3 * N + 10) - 5;
		memcpy(want, a, (N + k) * sizeof(int));
		qsort(want, N + k, sizeof(int), cmp_int);
		pp_sort_nearly_sorted(a, N + k, sizeof(int), cmp_int);
		CHECK(!memcmp(a, want, (N + k) * sizeof(int)));
	}
}

static void edge_cases(struct t_ctx *t)
{
	int one = 5, two[2] = { 9, 1 }, same[4] = { 2, 2, 2, 1 };
	struct rec *r = calloc(50, sizeof(*r));

	pp_sort_nearly_sorted(NULL, 0, sizeof(int), cmp_int);
	pp_sort_nearly_sorted(&one, 1, sizeof(int), cmp_int);
	CHECK(one == 5);
	pp_sort_nearly_sorted(two, 2, sizeof(int), cmp_int);
	CHECK(two[0] == 1 && two[1] == 9);
	pp_sort_nearly_sorted(same, 4, sizeof(int), cmp_int);
	CHECK(same[0] == 1 && same[3] == 2);
	for (int i = 0; i < 50; i++) {
		r[i].key = (i * 37) % 50;
		memset(r[i].pad, r[i].key, sizeof(r[i].pad));
	}
	pp_sort_nearly_sorted(r, 50, sizeof(*r), cmp_rec);
	for (int i = 0; i < 50; i++)
		CHECK(r[i].key == i && r[i].pad[199] == (char)i);
	free(r);
}

T_SUITE(sort_tests) = {
	{ "sort: nearly sorted lists come out as qsort's", nearly_sorted },
	{ "sort: many appended come out as qsort's", many_appended },
	{ "sort: empty, one, two, equal keys, large elements", edge_cases },
	T_END,
};
