/* libFuzzer target: a repository's own database (repo.c, repo-index.c):
 * conf/distributions, db/<suite>.list (the members of a suite) and its
 * log (db/<suite>.list.log, the changes since it was written whole) and
 * db/cache (the Packages stanzas of the pool files). The input is written
 * as each of the three files of a scratch repository, which is then
 * opened, its members and cache loaded, looked up, changed and saved as
 * add and publish do. */
#include <stdint.h>

#include "../../src/lib/repo-internal.h"
#include "../../src/lib/xalloc.h"
#include "fuzz.h"

static char root[128];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char dir[160];

	(void)argc;
	(void)argv;
	fuzz_path(root, sizeof(root), "repo");
	if (mkdir(root, 0755) < 0)
		abort();
	snprintf(dir, sizeof(dir), "%s/conf", root);
	if (mkdir(dir, 0755) < 0)
		abort();
	snprintf(dir, sizeof(dir), "%s/db", root);
	if (mkdir(dir, 0755) < 0)
		abort();
	return 0;
}

static void put(const char *name, const uint8_t *data, size_t size)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", root, name);
	fuzz_write(path, data, size);
}

static int keep_odd(void *ctx, const char *filename)
{
	(void)ctx;
	return strlen(filename) & 1;
}

static void use_cache(void)
{
	struct pp_repo_cache c;
	struct pp_stanza st;
	struct pp_err err;

	pp_err_init(&err);
	if (pp_repo_cache_load(root, &c, &err) == 0) {
		for (size_t i = 0; i < c.nr; i++)
			if (pp_repo_cache_find(&c, c.e[i].filename) == NULL)
				abort(); /* a loaded entry that cannot be found */
		pp_stanza_init(&st);
		pp_stanza_set(&st, "Package", "fuzz");
		pp_repo_cache_put(&c, "pool/main/f/fuzz/fuzz_1_all.deb",
				  "1 2 3", &st);
		pp_stanza_release(&st);
		pp_repo_cache_prune(&c, keep_odd, NULL);
		(void)pp_repo_cache_save(root, &c, &err);
		pp_repo_cache_release(&c);
	}
	pp_err_release(&err);
}

/* Loads the suite's list (and its log), changes it as an add does (one
 * member dropped, one added) and saves it: the change goes to the log. */
static void use_members(struct pp_repo *r, const char *suite)
{
	struct pp_repo_members ms;
	struct pp_err err;

	pp_err_init(&err);
	if (pp_repo_members_load(r, suite, &ms, &err) == 0) {
		if (ms.nr) {
			pp_repo_member_release(&ms.m[0]);
			ms.m[0] = ms.m[--ms.nr];
		}
		ARRAY_GROW(ms.m, ms.alloc, ms.nr + 1);
		ms.m[ms.nr++] = (struct pp_repo_member){ xstrdup("fuzz"),
			xstrdup("1"), xstrdup("all"), xstrdup("main"),
			xstrdup("pool/main/f/fuzz/fuzz_1_all.deb"), 0 };
		(void)pp_repo_members_save(r, suite, &ms, &err);
		pp_repo_members_release(&ms);
	}
	pp_err_release(&err);
}

static void remove_log(void)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/db/s.list.log", root);
	unlink(path);
}

static void use_repo(void)
{
	struct pp_repo_members *ms;
	struct pp_repo r;
	struct pp_err err;

	pp_err_init(&err);
	if (pp_repo_open(&r, root, 0, &err) == 0) {
		for (size_t i = 0; i < r.nr_suites; i++)
			(void)pp_repo_members_of(&r, &r.suites[i], &ms, &err);
		(void)pp_repo_find_suite(&r, "s", &err);
		pp_repo_close(&r);
	}
	pp_err_release(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pp_repo bare;

	put("conf/distributions", data, size);
	put("db/s.list", data, size);
	put("db/cache", data, size);
	use_repo();
	put("db/s.list", data, size);
	memset(&bare, 0, sizeof(bare));
	bare.root = root;
	remove_log();
	use_members(&bare, "s"); /* the list, then the log it wrote */
	use_members(&bare, "s");
	put("db/s.list.log", data, size); /* the input as a log */
	use_members(&bare, "s");
	remove_log();
	use_cache();
	return 0;
}
