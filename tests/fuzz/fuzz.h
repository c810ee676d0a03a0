/* What the libFuzzer targets of tests/fuzz share: a scratch directory of
 * their own (on a tmpfs when there is one) and writing an input to a file
 * there, for the readers that take a path. Header-only: each target is
 * one file. */
#ifndef PP_FUZZ_H
#define PP_FUZZ_H

#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static inline int fuzz_rm_one(const char *path, const struct stat *st,
			      int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_DP)
		return rmdir(path);
	return unlink(path);
}

/* Removes a tree that a run wrote (an extraction); a directory left
 * read-only is made writable first so that it can be emptied. */
static inline int fuzz_chmod_one(const char *path, const struct stat *st,
				 int type, struct FTW *ftw)
{
	(void)ftw;
	if (type == FTW_D)
		chmod(path, (st->st_mode & 07777) | 0700);
	return 0;
}

static inline void fuzz_rm_tree(const char *path)
{
	if (access(path, F_OK) < 0)
		return;
	nftw(path, fuzz_chmod_one, 16, FTW_PHYS);
	nftw(path, fuzz_rm_one, 16, FTW_PHYS | FTW_DEPTH);
}

static char fuzz_scratch[64];

static inline void fuzz_cleanup(void)
{
	fuzz_rm_tree(fuzz_scratch);
}

/* Creates the scratch directory once (removed at exit); aborts when it
 * cannot (a broken machine, not a finding). It goes in FUZZ_SCRATCH when
 * set (tests/fuzz/run.sh sets it and removes it, since a fuzzer stopped
 * by a signal or a finding never runs its atexit handlers). */
static inline const char *fuzz_dir(void)
{
	char *dir = fuzz_scratch;

	if (!dir[0]) {
		const char *base = getenv("FUZZ_SCRATCH");

		if (!base || !*base || strlen(base) > sizeof(fuzz_scratch) - 24)
			base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" :
				"/tmp";

		snprintf(dir, sizeof(fuzz_scratch), "%s/padpack-fuzz.XXXXXX",
			 base);
		if (!mkdtemp(dir))
			abort();
		atexit(fuzz_cleanup);
	}
	return dir;
}

/* "DIR/name" in a buffer of the caller's. */
static inline const char *fuzz_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", fuzz_dir(), name);
	return buf;
}

static inline void fuzz_write(const char *path, const void *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	const char *p = data;

	if (fd < 0)
		abort();
	while (size) {
		ssize_t n = write(fd, p, size);

		if (n <= 0)
			abort();
		p += n;
		size -= (size_t)n;
	}
	close(fd);
}

#endif
