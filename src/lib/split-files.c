/* padpack split, writing a package tree's files: parent directories,
 * the tools it runs, mtimes, gzip -9n, and the files of DEBIAN/.
 * Layer: the bottom of split's building (below split-build.c); it calls
 * nothing of split. */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "compress.h"
#include "deb.h"
#include "fsutil.h"
#include "hash.h"
#include "proc.h"
#include "progress.h"
#include "shlibs.h"
#include "splitint.h"
#include "tree.h"
#include "workpool.h"
#include "xalloc.h"

int pp_split_mkparent(const char *path, struct pp_err *err)
{
	char *dir = pp_dirname(path);
	int rc = pp_mkdir_p(dir, 0755, err);

	free(dir);
	return rc;
}

/* Runs a program; its output becomes part of the error when it fails. */
int pp_split_run_tool(char *const argv[], struct pp_err *err)
{
	struct pp_spawn sp = { argv, NULL, NULL, -1, -1, NULL, 0 };
	struct strbuf out = STRBUF_INIT;
	char buf[4096];
	int fds[2], ws, rc = 0;
	ssize_t n;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot create a pipe");
	sp.out_fd = fds[1];
	pid = pp_spawn(&sp, err);
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return -1;
	}
	while ((n = read(fds[0], buf, sizeof(buf))) != 0)
		if (n > 0)
			strbuf_add(&out, buf, (size_t)n);
		else if (errno != EINTR)
			break;
	close(fds[0]);
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	if (pp_exit_status(ws)) {
		struct strbuf cmd = STRBUF_INIT;

		for (size_t i = 0; argv[i]; i++) {
			if (i)
				strbuf_addch(&cmd, ' ');
			pp_shell_quote(&cmd, argv[i]);
		}
		strbuf_rtrim(&out);
		rc = pp_err_set(err, PP_EXIT_BUILD, "'%s' failed (exit status "
				"%d)%s%s", cmd.buf, pp_exit_status(ws),
				out.len ? ": " : "", out.buf);
		strbuf_release(&cmd);
	}
	strbuf_release(&out);
	return rc;
}

int pp_split_set_mtime(const char *path, time_t t, struct pp_err *err)
{
	struct timespec ts[2] = { { t, 0 }, { t, 0 } };

	if (utimensat(AT_FDCWD, path, ts, AT_SYMLINK_NOFOLLOW) < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot set the time of "
				    "'%s'", path);
	return 0;
}

int pp_split_hash_file(const char *path, enum pp_hash_algo algo,
		       unsigned char *out, struct pp_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *piece;
	struct pp_hash h;
	ssize_t n;

	if (fd < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot open '%s'", path);
	piece = xmalloc(PP_SPLIT_PIECE);
	pp_hash_init(&h, algo);
	while ((n = pp_read_full(fd, piece, PP_SPLIT_PIECE)) > 0)
		pp_hash_update(&h, piece, (size_t)n);
	pp_hash_final(&h, out);
	free(piece);
	close(fd);
	if (n < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot read '%s'", path);
	return 0;
}

/* Feeds what in reads to z, a piece at a time: src names it in errors. */
typedef int (*piece_feed)(void *in, const char *src, struct pp_zwriter *z,
			  struct pp_err *err);

/* The file open at *(int *)in, as it is. */
static int feed_plain(void *in, const char *src, struct pp_zwriter *z,
		      struct pp_err *err)
{
	char *piece = xmalloc(PP_SPLIT_PIECE);
	int fd = *(int *)in;
	ssize_t n;
	int rc = 0;

	while (rc == 0 && (n = pp_read_full(fd, piece, PP_SPLIT_PIECE)) > 0)
		rc = pp_zwriter_write(z, piece, (size_t)n, err);
	if (rc == 0 && n < 0)
		rc = pp_err_errno(err, PP_EXIT_IO, "cannot read '%s'", src);
	free(piece);
	return rc;
}

/* The gzip stream open at (gzFile)in, decompressed. */
static int feed_gunzip(void *in, const char *src, struct pp_zwriter *z,
		       struct pp_err *err)
{
	char *piece = xmalloc(PP_SPLIT_PIECE);
	gzFile gz = in;
	int n, rc = 0, zerr;

	while (rc == 0 && (n = gzread(gz, piece, PP_SPLIT_PIECE)) > 0)
		rc = gzdirect(gz) ?
		     pp_err_set(err, PP_EXIT_INPUT, "'%s': a manual page named "
				"*.gz that is not gzipped; gzip it, or drop the "
				".gz from its name", src) :
		     pp_zwriter_write(z, piece, (size_t)n, err);
	if (rc == 0 && n < 0)
		rc = pp_err_set(err, PP_EXIT_INPUT, "'%s': %s", src,
				gzerror(gz, &zerr));
	free(piece);
	return rc;
}

/* gzip -9n of what feed reads into dst: no name, no time, so the bytes
 * depend on the input only. Read in pieces: the memory taken is the same
 * for any size of file (and the bytes too: deflate's output does not
 * depend on how its input is cut). */
static int write_gzip9(const char *src, const char *dst, piece_feed feed,
		       void *in, struct pp_err *err)
{
	struct pp_compress_opts o = { PP_COMP_GZIP, 9, 1, PP_X86_OFF };
	struct pp_outfile of;
	struct pp_zwriter *z;
	int rc = -1;

	if (pp_outfile_open(&of, dst, 0644, err) < 0)
		return -1;
	z = pp_zwriter_new(&o, of.fd, err);
	if (z && feed(in, src, z, err) == 0)
		rc = pp_zwriter_finish(z, err);
	else if (z)
		pp_zwriter_abort(z);
	if (rc == 0)
		rc = pp_outfile_commit(&of, err);
	else
		pp_outfile_abort(&of);
	return rc;
}

int pp_split_gzip_file(const char *src, const char *dst, struct pp_err *err)
{
	int fd = open(src, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot open '%s'", src);
	rc = write_gzip9(src, dst, feed_plain, &fd, err);
	close(fd);
	return rc;
}

int pp_split_regzip_file(const char *src, const char *dst, struct pp_err *err)
{
	gzFile in = gzopen(src, "rb");
	int rc;

	if (!in)
		return pp_err_errno(err, PP_EXIT_IO, "cannot open '%s'", src);
	rc = write_gzip9(src, dst, feed_gunzip, in, err);
	gzclose(in);
	return rc;
}

int pp_split_write_at(const char *root, const char *rel, const void *data,
		      size_t len, mode_t mode, time_t t, struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT;
	int rc;

	strbuf_addf(&path, "%s/%s", root, rel);
	rc = pp_split_mkparent(path.buf, err);
	if (rc == 0)
		rc = pp_write_file(path.buf, data, len, mode, err);
	if (rc == 0)
		rc = pp_split_set_mtime(path.buf, t, err);
	strbuf_release(&path);
	return rc;
}

int pp_split_write_ctrl(const char *root, const char *name, const char *text,
			mode_t mode, time_t t, struct pp_err *err)
{
	struct strbuf rel = STRBUF_INIT;
	int rc;

	strbuf_addf(&rel, "DEBIAN/%s", name);
	rc = pp_split_write_at(root, rel.buf, text, strlen(text), mode, t, err);
	strbuf_release(&rel);
	return rc;
}
