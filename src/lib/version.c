#include "version.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static int bad(struct pp_err *err, const char *what)
{
	return pp_err_set(err, PP_EXIT_INPUT, "%s", what);
}

static int parse_epoch(const char *s, size_t len, unsigned long *epoch,
		       struct pp_err *err)
{
	char *end;
	long n;

	if (len == 0)
		return bad(err, "epoch in version is empty");
	errno = 0;
	n = strtol(s, &end, 10);
	if (end != s + len)
		return bad(err, "epoch in version is not number");
	if (n < 0)
		return bad(err, "epoch in version is negative");
	if (errno == ERANGE || n > INT_MAX)
		return bad(err, "epoch in version is too big");
	*epoch = (unsigned long)n;
	return 0;
}

static int check_chars(const char *s, const char *extra, const char *what,
		       struct pp_err *err)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) || !isascii(*s))
			if (!strchr(extra, *s))
				return pp_err_set(err, PP_EXIT_INPUT,
						  "invalid character in %s", what);
	return 0;
}

static int split_version(struct pp_version *v, const char *s, size_t len,
			 struct pp_err *err)
{
	const char *colon = memchr(s, ':', len), *hyphen, *up = s;
	size_t uplen = len;

	v->epoch = 0;
	if (colon) {
		if (parse_epoch(s, (size_t)(colon - s), &v->epoch, err) < 0)
			return -1;
		if (colon + 1 == s + len)
			return bad(err, "nothing after colon in version number");
		up = colon + 1;
		uplen = len - (size_t)(up - s);
	}
	hyphen = NULL;
	for (const char *p = up; p < up + uplen; p++)
		if (*p == '-')
			hyphen = p;
	if (hyphen) {
		if (hyphen + 1 == up + uplen)
			return bad(err, "revision number is empty");
		v->revision = xstrndup(hyphen + 1, (size_t)(up + uplen - hyphen - 1));
		uplen = (size_t)(hyphen - up);
	} else {
		v->revision = xstrdup("");
	}
	v->upstream = xstrndup(up, uplen);
	return 0;
}

int pp_version_parse(struct pp_version *v, const char *s, struct pp_err *err)
{
	size_t len;

	v->upstream = v->revision = NULL;
	while (isspace((unsigned char)*s))
		s++;
	len = strlen(s);
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	if (len == 0)
		return bad(err, "version string is empty");
	for (size_t i = 0; i < len; i++)
		if (isspace((unsigned char)s[i]))
			return bad(err, "version string has embedded spaces");
	if (split_version(v, s, len, err) < 0)
		goto fail;
	if (!*v->upstream) {
		bad(err, "version number is empty");
		goto fail;
	}
	if (!isdigit((unsigned char)v->upstream[0])) {
		bad(err, "version number does not start with digit");
		goto fail;
	}
	if (check_chars(v->upstream, ".-+~:", "version number", err) < 0 ||
	    check_chars(v->revision, ".+~", "revision number", err) < 0)
		goto fail;
	return 0;
fail:
	pp_version_release(v);
	return -1;
}

void pp_version_release(struct pp_version *v)
{
	free(v->upstream);
	free(v->revision);
	v->upstream = v->revision = NULL;
}

/* The weight of a character in the non-digit part: '~' sorts before
 * everything, even the end of the string; letters before other chars. */
static int order(int c)
{
	if (isdigit(c))
		return 0;
	if (isalpha(c))
		return c;
	if (c == '~')
		return -1;
	if (c)
		return c + 256;
	return 0;
}

static int verrevcmp(const char *a, const char *b)
{
	while (*a || *b) {
		int first_diff = 0;

		while ((*a && !isdigit((unsigned char)*a)) ||
		       (*b && !isdigit((unsigned char)*b))) {
			int ac = order((unsigned char)*a);
			int bc = order((unsigned char)*b);

			if (ac != bc)
				return ac - bc;
			a++;
			b++;
		}
		while (*a == '0')
			a++;
		while (*b == '0')
			b++;
		while (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			if (!first_diff)
				first_diff = *a - *b;
			a++;
			b++;
		}
		if (isdigit((unsigned char)*a))
			return 1;
		if (isdigit((unsigned char)*b))
			return -1;
		if (first_diff)
			return first_diff;
	}
	return 0;
}

int pp_version_cmp(const struct pp_version *a, const struct pp_version *b)
{
	int r;

	if (a->epoch != b->epoch)
		return a->epoch > b->epoch ? 1 : -1;
	r = verrevcmp(a->upstream, b->upstream);
	if (r)
		return r;
	return verrevcmp(a->revision, b->revision);
}

int pp_relop_parse(const char *s, enum pp_relop *op)
{
	static const struct {
		const char *name;
		enum pp_relop op;
	} ops[] = {
		{ "<<", PP_REL_LT }, { "lt", PP_REL_LT }, { "<=", PP_REL_LE },
		{ "le", PP_REL_LE }, { "<", PP_REL_LE }, { "=", PP_REL_EQ },
		{ "eq", PP_REL_EQ }, { ">=", PP_REL_GE }, { "ge", PP_REL_GE },
		{ ">", PP_REL_GE }, { ">>", PP_REL_GT }, { "gt", PP_REL_GT },
	};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(s, ops[i].name)) {
			*op = ops[i].op;
			return 0;
		}
	return -1;
}

int pp_relop_holds(int cmp, enum pp_relop op)
{
	switch (op) {
	case PP_REL_LT: return cmp < 0;
	case PP_REL_LE: return cmp <= 0;
	case PP_REL_EQ: return cmp == 0;
	case PP_REL_GE: return cmp >= 0;
	case PP_REL_GT: return cmp > 0;
	}
	return 0;
}
