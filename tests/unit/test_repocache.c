/* db/cache as a load reads it: records in Packages' order kept as they
 * are, the ones appended out of that order (later records of a file,
 * drop records with and without their Package) resolved at the end, and
 * every entry found by its name afterwards. */
#include "../../src/lib/fsutil.h"
#include "../../src/lib/repo-internal.h"
#include "../../src/lib/xalloc.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define REC(pkg, file, stat) \
	"Package: " pkg "\nDescription: " stat "\nFilename: " file \
	"\nX-Padpack-Stat: " stat "\n"

/* a, c, e written whole; then b (new, out of order), a dropped, a again,
 * c replaced, f (in order), b dropped, e dropped the old way (no
 * Package) and x (new, in order). */
static const char cache_text[] =
	REC("a", "pool/a.deb", "1") "\n"
	REC("c", "pool/c.deb", "1") "\n"
	REC("e", "pool/e.deb", "1") "\n"
	REC("b", "pool/b.deb", "1") "\n"
	"Package: a\nFilename: pool/a.deb\nX-Padpack-Stat: -\n\n"
	REC("a", "pool/a.deb", "2") "\n"
	REC("c", "pool/c.deb", "2") "\n"
	REC("f", "pool/f.deb", "1") "\n"
	"Package: b\nFilename: pool/b.deb\nX-Padpack-Stat: -\n\n"
	"Filename: pool/e.deb\nX-Padpack-Stat: -\n\n"
	REC("x", "pool/x.deb", "1");

static void write_cache(struct t_ctx *t, const char *root, const char *text)
{
	char path[128];
	struct pp_err err;

	pp_err_init(&err);
	snprintf(path, sizeof(path), "%s/db", root);
	CHECK(pp_mkdir_p(path, 0755, &err) == 0);
	strcat(path, "/cache");
	CHECK(pp_write_file(path, text, strlen(text), 0644, &err) == 0);
	pp_err_release(&err);
}

static void load_resolves_appended_records(struct t_ctx *t)
{
	static const char *const want[][2] = {
		{ "pool/a.deb", "2" }, { "pool/c.deb", "2" },
		{ "pool/f.deb", "1" }, { "pool/x.deb", "1" },
	};
	char root[] = "/tmp/padpack-unit-repocache.XXXXXX", cmd[96];
	struct pp_repo_cache c;
	struct pp_err err;

	pp_err_init(&err);
	CHECK(mkdtemp(root) != NULL);
	write_cache(t, root, cache_text);
	CHECK_INT(pp_repo_cache_load(root, &c, &err), 0);
	CHECK_INT(c.nr, 4);
	for (size_t i = 0; i < 4; i++) {
		struct pp_repo_entry *e = pp_repo_cache_find(&c, want[i][0]);

		CHECK(e != NULL);
		if (e)
			CHECK_STR(e->stat_key, want[i][1]);
	}
	CHECK(pp_repo_cache_find(&c, "pool/b.deb") == NULL);
	CHECK(pp_repo_cache_find(&c, "pool/e.deb") == NULL);
	CHECK(pp_repo_cache_find_pkg(&c, "b", "pool/b.deb") == NULL);
	CHECK(pp_repo_cache_find_pkg(&c, "c", "pool/c.deb") != NULL);
	/* a, c, b, e replaced or dropped; three drop records */
	CHECK_INT((int)c.stale, 7);
	/* the drop record without a Package: written whole at the next save */
	CHECK_INT(c.rewrite, 1);
	c.dirty = 1;
	CHECK_INT(pp_repo_cache_save(root, &c, &err), 0);
	pp_repo_cache_release(&c);
	/* written whole, in Packages' order: every record in order */
	CHECK_INT(pp_repo_cache_load(root, &c, &err), 0);
	CHECK_INT(c.nr, 4);
	CHECK_INT(c.sorted_nr, 4);
	CHECK_INT((int)c.stale, 0);
	for (size_t i = 0; i < 4; i++)
		CHECK_STR(c.e[i].filename, want[i][0]);
	pp_repo_cache_release(&c);
	pp_err_release(&err);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
}

static int not_p005(void *ctx, const char *filename)
{
	(void)ctx;
	return strcmp(filename, "pool/p005.deb") != 0;
}

/* An entry found by its package and name where the last lookup ended,
 * by a binary search, among the ones added since, and (by name alone) in
 * the table of names; a drop and an add appended read back. */
static void finds_in_order_and_after(struct t_ctx *t)
{
	char root[] = "/tmp/padpack-unit-repocache.XXXXXX", cmd[96];
	struct strbuf text = STRBUF_INIT;
	struct pp_repo_cache c;
	struct pp_stanza st;
	struct pp_err err;
	int bad = 0;

	pp_err_init(&err);
	CHECK(mkdtemp(root) != NULL);
	for (int i = 0; i < 300; i++)
		strbuf_addf(&text, "%sPackage: p%03d\nFilename: pool/p%03d.deb\n"
			    "X-Padpack-Stat: %d\n", i ? "\n" : "", i, i, i);
	write_cache(t, root, text.buf);
	CHECK_INT(pp_repo_cache_load(root, &c, &err), 0);
	CHECK_INT(c.sorted_nr, 300);
	for (int i = 299; i >= 0; i -= 7) { /* no lookup where the last ended */
		char pkg[16], file[32];

		snprintf(pkg, sizeof(pkg), "p%03d", i);
		snprintf(file, sizeof(file), "pool/p%03d.deb", i);
		bad += pp_repo_cache_find_pkg(&c, pkg, file) != &c.e[i];
	}
	CHECK_INT(bad, 0);
	CHECK(!c.indexed);
	pp_stanza_init(&st);
	pp_stanza_set(&st, "Package", "a0");
	pp_stanza_set(&st, "Filename", "pool/a0.deb");
	pp_repo_cache_put(&c, "pool/a0.deb", "7", &st);
	pp_stanza_release(&st);
	CHECK(pp_repo_cache_find_pkg(&c, "a0", "pool/a0.deb") == &c.e[300]);
	CHECK(pp_repo_cache_find_pkg(&c, "p150", "pool/p150.deb") == &c.e[150]);
	CHECK(!c.indexed);
	CHECK(pp_repo_cache_find(&c, "pool/p007.deb") == &c.e[7]);
	CHECK(c.indexed); /* by name alone, next missing: the table made */
	CHECK(pp_repo_cache_find(&c, "pool/a0.deb") == &c.e[300]);
	pp_repo_cache_prune(&c, not_p005, NULL);
	CHECK_INT(pp_repo_cache_save(root, &c, &err), 0);
	pp_repo_cache_release(&c);
	/* appended: a drop record (in order) and a0's (not) */
	CHECK_INT(pp_repo_cache_load(root, &c, &err), 0);
	CHECK_INT(c.nr, 300);
	CHECK_INT(c.sorted_nr, 299);
	CHECK(pp_repo_cache_find_pkg(&c, "a0", "pool/a0.deb") == &c.e[299]);
	CHECK(pp_repo_cache_find_pkg(&c, "p005", "pool/p005.deb") == NULL);
	CHECK(pp_repo_cache_find_pkg(&c, "p006", "pool/p006.deb") == &c.e[5]);
	pp_repo_cache_release(&c);
	pp_err_release(&err);
	strbuf_release(&text);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
}

/* db/s.list and its log (repo-members.c): a load applies the log in
 * order (an addition already there and a drop of a member not there
 * change nothing, so a log applied twice gives what it gave once); a
 * save after members were reordered, dropped and added writes just those
 * changes, after the log's. */
#define LINE(p) p " 1 all main pool/" p ".deb\n"

static void put_file(struct t_ctx *t, const char *root, const char *name,
		     const char *text)
{
	char path[128];
	struct pp_err err;

	pp_err_init(&err);
	snprintf(path, sizeof(path), "%s/db", root);
	CHECK(pp_mkdir_p(path, 0755, &err) == 0);
	snprintf(path, sizeof(path), "%s/db/%s", root, name);
	CHECK(pp_write_file(path, text, strlen(text), 0644, &err) == 0);
	pp_err_release(&err);
}

static void check_members(struct t_ctx *t, struct pp_repo *r, const char *want)
{
	struct pp_repo_members ms;
	struct pp_err err;
	char got[256] = "";

	pp_err_init(&err);
	CHECK(pp_repo_members_load(r, "s", &ms, &err) == 0);
	for (size_t i = 0; i < ms.nr; i++)
		strcat(got, ms.m[i].package);
	CHECK_STR(got, want);
	pp_repo_members_release(&ms);
	pp_err_release(&err);
}

static void members_log_applied_and_written(struct t_ctx *t)
{
	static const char log[] = "+ " LINE("b") "- " LINE("c") "+ " LINE("a")
				  "- " LINE("z");
	char root[] = "/tmp/padpack-unit-memberslog.XXXXXX", cmd[96], path[128];
	struct pp_repo_members ms;
	struct pp_repo_member tmp;
	struct pp_repo r;
	struct strbuf text = STRBUF_INIT;
	struct pp_err err;

	pp_err_init(&err);
	CHECK(mkdtemp(root) != NULL);
	memset(&r, 0, sizeof(r));
	r.root = root;
	r.no_sync = 1;
	put_file(t, root, "s.list", LINE("a") LINE("c") LINE("e"));
	put_file(t, root, "s.list.log", log);
	check_members(t, &r, "abe");

	CHECK(pp_repo_members_load(&r, "s", &ms, &err) == 0);
	CHECK(ms.nr == 3 && ms.log_ops == 4);
	tmp = ms.m[0]; /* out of the loaded order: e b a */
	ms.m[0] = ms.m[2];
	ms.m[2] = tmp;
	pp_repo_member_release(&ms.m[1]); /* b dropped, d added */
	ms.m[1] = (struct pp_repo_member){ xstrdup("d"), xstrdup("1"),
		xstrdup("all"), xstrdup("main"), xstrdup("pool/d.deb"), 0 };
	CHECK(pp_repo_members_save(&r, "s", &ms, &err) == 0);
	pp_repo_members_release(&ms);
	snprintf(path, sizeof(path), "%s/db/s.list.log", root);
	CHECK(pp_read_file(path, &text, &err) == 0);
	CHECK_STR(text.buf, "+ b 1 all main pool/b.deb\n- c 1 all main pool/c.deb\n"
		  "+ a 1 all main pool/a.deb\n- z 1 all main pool/z.deb\n"
		  "- b 1 all main pool/b.deb\n+ d 1 all main pool/d.deb\n");
	check_members(t, &r, "ade");
	/* the list written whole, its log left (a crash before it went) */
	put_file(t, root, "s.list", LINE("a") LINE("d") LINE("e"));
	check_members(t, &r, "ade");

	strbuf_release(&text);
	pp_err_release(&err);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	CHECK(system(cmd) == 0);
}

T_SUITE(repocache_tests) = {
	{ "repo cache: appended records resolved at the load",
	  load_resolves_appended_records },
	{ "repo cache: found in order, by a binary search and by name",
	  finds_in_order_and_after },
	{ "repo members: a list's log applied, changes written to it",
	  members_log_applied_and_written },
	{ NULL, NULL },
};
