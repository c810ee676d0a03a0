#include "../../src/lib/fsutil.h"
#include "../../src/lib/strlist.h"
#include "../../src/lib/xalloc.h"
#include "test.h"
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

static size_t entries(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	size_t n = 0;

	while (d && (de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

/* Many small parts through the buffer, a large one straight through; the
 * file appears only at commit, and maps back the same. */
static void filebuf_and_map(struct t_ctx *t)
{
	char dir[] = "/tmp/padpack-fs.XXXXXX", path[256];
	static char big[300000];
	struct pp_filebuf *fb = malloc(sizeof(*fb));
	struct pp_mapped m;
	struct pp_err err;
	size_t want = 0;

	pp_err_init(&err);
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/out", dir);
	memset(big, 'x', sizeof(big));
	CHECK(pp_filebuf_open(fb, path, 0644, &err) == 0);
	for (int i = 0; i < 20000; i++, want += 6)
		pp_filebuf_addstr(fb, "part\n\n");
	pp_filebuf_add(fb, big, sizeof(big));
	want += sizeof(big);
	CHECK(access(path, F_OK) < 0);
	CHECK(pp_filebuf_commit(fb, &err) == 0);
	CHECK(pp_map_file(path, &m, &err) == 0);
	CHECK_INT(m.len, want);
	CHECK(!memcmp(m.data, "part\n\npart\n\n", 12));
	CHECK(m.data[want - 1] == 'x' && m.data[want - sizeof(big) - 1] == '\n');
	pp_unmap_file(&m);
	CHECK(entries(dir) == 1);
	/* an empty file maps as empty; a directory is refused */
	CHECK(pp_filebuf_open(fb, path, 0644, &err) == 0);
	CHECK(pp_filebuf_commit(fb, &err) == 0);
	CHECK(pp_map_file(path, &m, &err) == 0 && m.len == 0);
	pp_unmap_file(&m);
	CHECK(pp_map_file(dir, &m, &err) < 0 && err.code == PP_EXIT_INPUT);
	CHECK(pp_remove_tree(dir, &err) == 0);
	free(fb);
	pp_err_release(&err);
}

/* A write that fails (the file-size limit here, a full disk elsewhere):
 * commit says so, and neither the file nor its temporary is left. */
static void filebuf_write_fails(struct t_ctx *t)
{
	char dir[] = "/tmp/padpack-fs.XXXXXX", path[256];
	struct pp_filebuf *fb = malloc(sizeof(*fb));
	struct rlimit old, small = { 100000, 0 };
	void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
	struct pp_err err;

	pp_err_init(&err);
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/out", dir);
	CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0);
	small.rlim_max = old.rlim_max;
	CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0);
	CHECK(pp_filebuf_open(fb, path, 0644, &err) == 0);
	for (int i = 0; i < 50000; i++)
		pp_filebuf_addstr(fb, "0123456789");
	CHECK(pp_filebuf_commit(fb, &err) < 0);
	CHECK(setrlimit(RLIMIT_FSIZE, &old) == 0);
	signal(SIGXFSZ, was);
	CHECK(err.code == PP_EXIT_IO && strstr(err.msg, "cannot write"));
	CHECK(entries(dir) == 0);
	CHECK(pp_remove_tree(dir, &err) == 0);
	free(fb);
	pp_err_release(&err);
}

/* A batch of copies appears only at the commit, whole, in directories
 * made for it; abort leaves nothing; a batch of many (synced by syncfs)
 * and one of few (an fsync each) alike. Paths out of a tree are told. */
static void batch_and_paths(struct t_ctx *t)
{
	char dir[] = "/tmp/padpack-fs.XXXXXX", src[256], dst[300], sub[256];
	struct pp_outbatch b;
	struct pp_err err;
	struct stat st;
	FILE *f;

	pp_err_init(&err);
	CHECK(mkdtemp(dir) != NULL);
	snprintf(src, sizeof(src), "%s/src", dir);
	f = fopen(src, "w");
	fputs("payload\n", f);
	fclose(f);
	for (int many = 0; many < 2; many++) {
		int n = many ? PP_OUTBATCH_SYNCFS + 2 : 2;

		pp_outbatch_init(&b, dir, 1);
		for (int i = 0; i < n; i++) {
			snprintf(sub, sizeof(sub), "%s/p%d/d%d", dir, many, i);
			CHECK(pp_mkdir_p(sub, 0755, &err) == 0);
			snprintf(dst, sizeof(dst), "%s/f", sub);
			CHECK(pp_outbatch_copy(&b, src, dst, 0644, NULL, NULL,
					       &st, &err) == 0);
			CHECK(st.st_size == 8 && access(dst, F_OK) < 0);
			CHECK(pp_outbatch_has(&b, dst));
		}
		CHECK(pp_outbatch_commit(&b, &err) == 0);
		CHECK(access(dst, F_OK) == 0 && entries(sub) == 1);
		pp_outbatch_release(&b);
	}
	pp_outbatch_init(&b, dir, 1);
	snprintf(dst, sizeof(dst), "%s/gone", dir);
	CHECK(pp_outbatch_copy(&b, src, dst, 0644, NULL, NULL, &st, &err) == 0);
	pp_outbatch_release(&b);
	CHECK(entries(dir) == 3); /* src, p0, p1: nothing of the aborted */
	CHECK(pp_path_escapes("a/../b") && pp_path_escapes("/a") &&
	      pp_path_escapes("..") && pp_path_escapes(""));
	CHECK(!pp_path_escapes("a..b/c") && !pp_path_escapes("a/b.."));
	CHECK(pp_remove_tree(dir, &err) == 0);
	pp_err_release(&err);
}

/* The names of PATH, joined by "/"; "FAIL" when it climbs above the root
 * and clamp is off. */
static char *names(const char *path, int clamp)
{
	struct pp_strlist sl = PP_STRLIST_INIT;
	char *out;

	out = pp_path_names(path, clamp, &sl) ? xstrdup("FAIL") :
						pp_strlist_join(&sl, "/");
	pp_strlist_release(&sl);
	return out;
}

static void path_names(struct t_ctx *t)
{
	static const struct {
		const char *path, *clamped, *strict;
	} cases[] = {
		{ "/usr//lib/./x/", "usr/lib/x", "usr/lib/x" },
		{ "a/b/../c", "a/c", "a/c" },
		{ "/../etc", "etc", "FAIL" },
		{ "a/../../b", "b", "FAIL" },
		{ "./", "", "" },
		{ "..foo/.x", "..foo/.x", "..foo/.x" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *c = names(cases[i].path, 1), *s = names(cases[i].path, 0);

		CHECK(!strcmp(c, cases[i].clamped));
		CHECK(!strcmp(s, cases[i].strict));
		free(c);
		free(s);
	}
}

T_SUITE(fsutil_tests) = {
	{ "fsutil: buffered file written whole, mapped back", filebuf_and_map },
	{ "fsutil: a failed write leaves nothing", filebuf_write_fails },
	{ "fsutil: batches of copies; paths out of a tree", batch_and_paths },
	{ "fsutil: the names of a path, \"..\" at the root dropped or refused", path_names },
	T_END,
};
