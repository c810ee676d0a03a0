#include "../../src/lib/repo-internal.h"
#include "test.h"
#include <stdio.h>
#include <string.h>

/* The stat key made by hand is what snprintf made before (the caches
 * written then must still match). */
static void stat_key_as_printf(struct t_ctx *t)
{
	const struct pp_file_id ids[] = {
		{ 0, 0, 0, 0, 0 },
		{ 1234, 1795679582, 170622000, 918273, 0 },
		{ 9223372036854775807LL, -1, 999999999, 18446744073709551615ULL, 0 },
		{ 7, -1795679582, 5, 1, 0 },
		{ 100, 86400, 0, 10, 0 },
	};

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		struct strbuf got = STRBUF_INIT;
		char want[128];

		snprintf(want, sizeof(want), "%lld %lld.%09ld %llu", ids[i].size,
			 ids[i].mtime_sec, ids[i].mtime_nsec, ids[i].ino);
		pp_repo_stat_key(&ids[i], &got);
		CHECK(!strcmp(got.buf, want));
		strbuf_release(&got);
	}
}

T_SUITE(repokey_tests) = {
	{ "repo: stat keys as printf wrote them", stat_key_as_printf },
	T_END,
};
