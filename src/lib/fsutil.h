/* File-system helpers: whole-file reads, full writes, and output files that
 * appear under their final name only once complete. */
#ifndef PP_FSUTIL_H
#define PP_FSUTIL_H

#include <stddef.h>
#include <sys/types.h>

#include "error.h"
#include "strbuf.h"

/* An output file written under a temporary name in the same directory and
 * renamed into place by pp_outfile_commit; pp_outfile_abort removes it. */
struct pp_outfile {
	char *path;
	char *tmp;
	int fd;
};

int pp_outfile_open(struct pp_outfile *of, const char *path, mode_t mode,
		    struct pp_err *err);
int pp_outfile_commit(struct pp_outfile *of, struct pp_err *err);
void pp_outfile_abort(struct pp_outfile *of);

int pp_read_file(const char *path, struct strbuf *out, struct pp_err *err);
/* Writes data to a new file atomically (temporary name, then rename). */
int pp_write_file(const char *path, const void *data, size_t len,
		  mode_t mode, struct pp_err *err);
int pp_write_all(int fd, const void *buf, size_t len);
/* Reads exactly len bytes; returns bytes read (< len at end of file), or -1. */
ssize_t pp_read_full(int fd, void *buf, size_t len);
/* Copies src to dst atomically (temporary name, then rename). */
int pp_copy_file(const char *src, const char *dst, mode_t mode,
		 struct pp_err *err);
/* The same, showing each block copied to seen(ctx, ...) (to hash it). */
int pp_copy_file_seen(const char *src, const char *dst, mode_t mode,
		      void (*seen)(void *ctx, const void *buf, size_t len),
		      void *ctx, struct pp_err *err);
/* Removes a file or a whole directory tree (like rm -rf); a missing path
 * is not an error. Never follows symbolic links. */
int pp_remove_tree(const char *path, struct pp_err *err);
/* Creates a directory and its missing parents. */
int pp_mkdir_p(const char *path, mode_t mode, struct pp_err *err);
/* Opens an anonymous temporary file (unlinked) in dir, or $TMPDIR. */
int pp_tmpfile(const char *dir, struct pp_err *err);
/* Directory part of path ("." when none), newly allocated. */
char *pp_dirname(const char *path);

#endif
