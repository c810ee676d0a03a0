#include "../../src/lib/version.h"
#include "test.h"

static int cmp(const char *a, const char *b)
{
	struct pp_version va, vb;
	struct pp_err err;
	int r;

	pp_err_init(&err);
	if (pp_version_parse(&va, a, &err) < 0)
		return 99;
	if (pp_version_parse(&vb, b, &err) < 0) {
		pp_version_release(&va);
		return 99;
	}
	r = pp_version_cmp(&va, &vb);
	pp_version_release(&va);
	pp_version_release(&vb);
	pp_err_release(&err);
	return r < 0 ? -1 : r > 0;
}

/* The table of formats.md §2.5, observed with dpkg --compare-versions. */
static void ordering(struct t_ctx *t)
{
	CHECK_INT(cmp("1.0~rc1", "1.0"), -1);
	CHECK_INT(cmp("1.0~~", "1.0~"), -1);
	CHECK_INT(cmp("1.0", "1.0+b1"), -1);
	CHECK_INT(cmp("1.0a", "1.0.1"), -1);
	CHECK_INT(cmp("2.0a", "2.0+"), -1);
	CHECK_INT(cmp("1.0-1~bpo1", "1.0-1"), -1);
	CHECK_INT(cmp("1.0-9", "1.0-10"), -1);
	CHECK_INT(cmp("1:0.1", "2.0"), 1);
	CHECK_INT(cmp("1.01", "1.1"), 0);
	CHECK_INT(cmp("1.0", "1.0-0"), 0);
	CHECK_INT(cmp("0:1.0", "1.0"), 0);
}

static const char *parse_error(const char *v)
{
	static struct pp_err err;
	struct pp_version pv;

	pp_err_init(&err);
	if (pp_version_parse(&pv, v, &err) == 0) {
		pp_version_release(&pv);
		return "";
	}
	pp_err_release(&err);
	return err.msg;
}

static void invalid(struct t_ctx *t)
{
	CHECK_STR(parse_error("1.0"), "");
	CHECK_STR(parse_error("1:2:3-4"), "");
	CHECK_STR(parse_error("abc"), "version number does not start with digit");
	CHECK_STR(parse_error("1.0-"), "revision number is empty");
	CHECK_STR(parse_error("1.0_1"), "invalid character in version number");
	CHECK_STR(parse_error("1-a_b"), "invalid character in revision number");
	CHECK_STR(parse_error("a:1.0"), "epoch in version is not number");
	CHECK_STR(parse_error(":1"), "epoch in version is empty");
	CHECK_STR(parse_error("1:"), "nothing after colon in version number");
	CHECK_STR(parse_error("1.0 1"), "version string has embedded spaces");
	CHECK_STR(parse_error(""), "version string is empty");
	CHECK_STR(parse_error("99999999999:1"), "epoch in version is too big");
}

T_SUITE(version_tests) = {
	{ "version ordering (deb-version)", ordering },
	{ "version syntax errors", invalid },
	T_END,
};
