#include "../../src/lib/strbuf.h"
#include "test.h"

#include <stdlib.h>

static void grow_and_format(struct t_ctx *t)
{
	struct strbuf sb = STRBUF_INIT;

	CHECK_STR(sb.buf, "");
	for (int i = 0; i < 1000; i++)
		strbuf_addf(&sb, "%d,", i);
	CHECK(sb.len == strlen(sb.buf));
	CHECK(!strncmp(sb.buf, "0,1,2,", 6));
	strbuf_setlen(&sb, 2);
	CHECK_STR(sb.buf, "0,");
	strbuf_release(&sb);
	CHECK_STR(sb.buf, "");
}

static void detach_and_trim(struct t_ctx *t)
{
	struct strbuf sb = STRBUF_INIT;
	char *s;

	strbuf_addstr(&sb, "abc \t\n");
	strbuf_rtrim(&sb);
	CHECK_STR(sb.buf, "abc");
	s = strbuf_detach(&sb, NULL);
	CHECK_STR(s, "abc");
	CHECK_STR(sb.buf, "");
	free(s);
}

T_SUITE(strbuf_tests) = {
	{ "strbuf grows and formats", grow_and_format },
	{ "strbuf detach and rtrim", detach_and_trim },
	T_END,
};
