/* libFuzzer target: Release and Packages as repo verify reads them
 * (repo-verify.c, control.c, libarchive's decompressors). The input is a
 * Release file, then optionally a NUL byte and the bytes of a Packages
 * index (plain or compressed; without a NUL the Release text is used
 * again). Both are written into a scratch repository next to one pool
 * file, and the repository is verified (unsigned: no InRelease check). */
#include <stdint.h>

#include "../../src/lib/repo.h"
#include "fuzz.h"

static char root[128];

static void make_dir(const char *rel)
{
	char dir[256];

	snprintf(dir, sizeof(dir), "%s/%s", root, rel);
	if (mkdir(dir, 0755) < 0)
		abort();
}

static void put(const char *rel, const void *data, size_t size)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	fuzz_write(path, data, size);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char *const dirs[] = {
		"", "pool", "pool/main", "dists", "dists/s", "dists/s/main",
		"dists/s/main/binary-amd64",
	};

	(void)argc;
	(void)argv;
	fuzz_path(root, sizeof(root), "repo");
	for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++)
		make_dir(dirs[i]);
	put("pool/main/a_1_all.deb", "!<arch>\n", 8);
	return 0;
}

static void problem(void *ctx, const char *path, const char *what)
{
	*(size_t *)ctx += strlen(path) + strlen(what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t release_len = nul ? (size_t)(nul - data) : size;
	size_t said = 0;
	struct pp_repo_verify_opts o = { NULL, NULL, NULL, NULL, problem,
					 &said, 0 };
	struct pp_err err;

	put("dists/s/Release", data, release_len);
	if (nul)
		put("dists/s/main/binary-amd64/Packages", nul + 1,
		    size - release_len - 1);
	else
		put("dists/s/main/binary-amd64/Packages", data, size);
	pp_err_init(&err);
	(void)pp_repo_verify(root, &o, &err);
	pp_err_release(&err);
	return 0;
}
