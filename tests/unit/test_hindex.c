#include "../../src/lib/control.h"
#include "../../src/lib/hindex.h"
#include "../../src/lib/strbuf.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>

struct names {
	char **v;
	const char *key;
};

static int name_eq(const void *ctx, size_t pos)
{
	const struct names *n = ctx;

	return !strcmp(n->v[pos], n->key);
}

static size_t find(const struct pp_hindex *x, struct names *n, const char *key)
{
	n->key = key;
	return pp_hindex_find(x, pp_hindex_hash(key, PP_HINDEX_SEED), name_eq, n);
}

/* Thousands of names through several growths; every one found at its
 * position, an absent one not; colliding hashes told apart by eq. */
static void finds_every_name(struct t_ctx *t)
{
	enum { N = 5000 };
	struct pp_hindex x = PP_HINDEX_INIT;
	struct names n = { calloc(N, sizeof(char *)), NULL };
	int bad = 0;

	CHECK(find(&x, &n, "none") == PP_HINDEX_NONE);
	for (size_t i = 0; i < N; i++) {
		char buf[64];

		snprintf(buf, sizeof(buf), "pool/main/b/bench%05zu.deb", i);
		n.v[i] = strdup(buf);
		pp_hindex_add(&x, pp_hindex_hash(buf, PP_HINDEX_SEED), i);
	}
	for (size_t i = 0; i < N; i++)
		bad += find(&x, &n, n.v[i]) != i;
	CHECK(bad == 0);
	CHECK(x.nr == N && 2 * x.nr <= x.cap);
	CHECK(find(&x, &n, "pool/main/b/bench99999.deb") == PP_HINDEX_NONE);
	/* the same hash for two positions: eq decides */
	pp_hindex_add(&x, pp_hindex_hash(n.v[7], PP_HINDEX_SEED), 8);
	CHECK(find(&x, &n, n.v[7]) == 7);
	pp_hindex_clear(&x);
	CHECK(find(&x, &n, n.v[7]) == PP_HINDEX_NONE);
	pp_hindex_release(&x);
	for (size_t i = 0; i < N; i++)
		free(n.v[i]);
	free(n.v);
}

static void stanza_ends(struct t_ctx *t)
{
	const char *s = "A: 1\nB: 2\n\nC: 3\n";

	CHECK(pp_stanza_end(s, strlen(s)) == s + 9);
	CHECK(pp_stanza_end(s, 10) == NULL); /* the blank line cut off */
	CHECK(pp_stanza_end("x\n", 2) == NULL);
	CHECK(pp_stanza_end("\n\n", 2) != NULL);
	CHECK(pp_stanza_end("", 0) == NULL);
}

T_SUITE(hindex_tests) = {
	{ "hindex: 5,000 names found, absent ones not, collisions", finds_every_name },
	{ "stanza_end: the first blank line, or none", stanza_ends },
	T_END,
};
