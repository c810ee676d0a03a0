#include <stdarg.h>
#include <stdio.h>

#include "test.h"

/* One line per suite, so that branches adding suites do not collide. */
extern const struct t_case strbuf_tests[];
extern const struct t_case hindex_tests[];
extern const struct t_case version_tests[];
extern const struct t_case control_tests[];
extern const struct t_case deps_tests[];
extern const struct t_case lenient_tests[];
extern const struct t_case zpieces_tests[];
extern const struct t_case spec_tests[];
extern const struct t_case shlibs_tests[];
extern const struct t_case splitspec_tests[];
extern const struct t_case pgp_tests[];
extern const struct t_case isa_tests[];
extern const struct t_case docker_tests[];
extern const struct t_case fsutil_tests[];
extern const struct t_case sort_tests[];
extern const struct t_case repokey_tests[];
extern const struct t_case json_tests[];
extern const struct t_case splitrules_tests[];
extern const struct t_case fuzzfound_tests[];
extern const struct t_case xzblocks_tests[];
extern const struct t_case repocache_tests[];
extern const struct t_case libdata_tests[];

static const struct t_case *const suites[] = {
	strbuf_tests,
	hindex_tests,
	version_tests,
	control_tests,
	deps_tests,
	lenient_tests,
	zpieces_tests,
	spec_tests,
	shlibs_tests,
	splitspec_tests,
	pgp_tests,
	isa_tests,
	docker_tests,
	fsutil_tests,
	sort_tests,
	repokey_tests,
	json_tests,
	splitrules_tests,
	xzblocks_tests,
	repocache_tests,
	libdata_tests,
	fuzzfound_tests,
};

void t_fail(struct t_ctx *t, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	printf("# %s: %s:%d: ", t->name, file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	t->failed = 1;
}

int main(void)
{
	int passed = 0, failed = 0;

	for (size_t s = 0; s < sizeof(suites) / sizeof(suites[0]); s++)
		for (const struct t_case *c = suites[s]; c->name; c++) {
			struct t_ctx t = { c->name, 0 };

			c->fn(&t);
			printf("%s - unit: %s\n", t.failed ? "not ok" : "ok",
			       c->name);
			if (t.failed)
				failed++;
			else
				passed++;
		}
	printf("# unit: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
