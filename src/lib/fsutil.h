/* File-system helpers: whole-file reads, full writes, and output files that
 * appear under their final name only once complete. */
#ifndef PP_FSUTIL_H
#define PP_FSUTIL_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "error.h"
#include "strbuf.h"

/* An output file written under a temporary name in the same directory and
 * renamed into place by pp_outfile_commit; pp_outfile_abort removes it. */
struct pp_outfile {
	char *path;
	char *tmp;
	int fd;
	int sync; /* set after open: fsync'ed before the rename */
};

int pp_outfile_open(struct pp_outfile *of, const char *path, mode_t mode,
		    struct pp_err *err);
int pp_outfile_commit(struct pp_outfile *of, struct pp_err *err);
void pp_outfile_abort(struct pp_outfile *of);

int pp_read_file(const char *path, struct strbuf *out, struct pp_err *err);

/* A whole file mapped read-only: no copy and, where page faults are dear
 * (virtual machines), far fewer of them than reading into the heap.
 * What it shows stays valid while mapped as long as writers replace the
 * file (new file, then rename), as padpack's own files always are. */
struct pp_mapped {
	const char *data;
	size_t len;
};

int pp_map_file(const char *path, struct pp_mapped *m, struct pp_err *err);
void pp_unmap_file(struct pp_mapped *m);

/* An output file made of many small parts, written through a small buffer
 * instead of being built whole in memory first. */
struct pp_filebuf {
	struct pp_outfile of;
	size_t len;
	int failed; /* errno of the first failed write, or 0 */
	char buf[1 << 16];
};

int pp_filebuf_open(struct pp_filebuf *fb, const char *path, mode_t mode,
		    struct pp_err *err);
void pp_filebuf_add(struct pp_filebuf *fb, const void *data, size_t len);
void pp_filebuf_addstr(struct pp_filebuf *fb, const char *s);
/* Flushes and renames into place; on a failed write, removes it. */
int pp_filebuf_commit(struct pp_filebuf *fb, struct pp_err *err);
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

/* Opens PATH (created if missing) and waits for an exclusive flock on it:
 * the descriptor, which the caller closes to unlock, or -1. The kernel
 * drops the lock when its holder dies, so no lock is ever stale. */
int pp_lock_path(const char *path, struct pp_err *err);
/* Opens an anonymous temporary file (unlinked) in dir, or $TMPDIR. */
int pp_tmpfile(const char *dir, struct pp_err *err);
/* Durability, as dpkg writes its database: a file's data is fsync'ed
 * before it is renamed into place, and its directory after the rename;
 * then a power cut leaves the old file or the whole new one. PP_SYNC asks
 * pp_write_file_flags for the first half (pp_outfile's sync, and
 * pp_outbatch, do it too); pp_fsync_dir and pp_fsync_tree_dirs the
 * second. */
enum { PP_SYNC = 1 };
int pp_write_file_flags(const char *path, const void *data, size_t len,
			mode_t mode, int flags, struct pp_err *err);
/* Output files put in place together, as dpkg unpacks: each written
 * under a temporary name (its missing directories made), then at the
 * commit all synced (when sync) before any is renamed, then the
 * directories that got new entries. At most
 * PP_OUTBATCH_MAX files are open; adding one more commits the others. */
#define PP_OUTBATCH_MAX 256
/* From this many files on, one syncfs before the renames and one after
 * replace the fsyncs of each file and directory. */
#define PP_OUTBATCH_SYNCFS 8
struct pp_outbatch {
	struct pp_outfile *f;
	size_t nr, alloc;
	char **tops; /* each file's highest directory to sync */
	size_t alloc_tops;
	const char *root; /* for syncfs */
	int dir_fd;       /* root, while committing */
	int sync;
	int failed; /* a commit failed: every later one fails too */
};

void pp_outbatch_init(struct pp_outbatch *b, const char *root, int sync);
/* Whether a file of the batch will take the name path. */
int pp_outbatch_has(const struct pp_outbatch *b, const char *path);
/* Copies src into a file that takes dst's name at the commit, making its
 * missing directories; st: its stat (the same once renamed). */
int pp_outbatch_copy(struct pp_outbatch *b, const char *src, const char *dst,
		     mode_t mode,
		     void (*seen)(void *ctx, const void *buf, size_t len),
		     void *ctx, struct stat *st, struct pp_err *err);
/* On failure, the files not yet renamed are removed; after one, every
 * commit fails (the caller records none of the batch's files). */
int pp_outbatch_commit(struct pp_outbatch *b, struct pp_err *err);
/* Removes the files not committed. */
void pp_outbatch_abort(struct pp_outbatch *b);
void pp_outbatch_release(struct pp_outbatch *b);

/* fsyncs a directory: the names renamed or linked into it. */
int pp_fsync_dir(const char *path, struct pp_err *err);
/* fsyncs the directory that holds path (its name made durable). */
int pp_fsync_dir_of(const char *path, struct pp_err *err);
/* fsyncs every directory of a tree, the deepest first (its files were
 * synced as they were written). */
int pp_fsync_tree_dirs(const char *path, struct pp_err *err);

/* Directory part of path ("." when none), newly allocated. */
char *pp_dirname(const char *path);

struct pp_strlist;
/* Appends the names of a path to out: empty and "." ones left out, ".."
 * taking the last name away. A ".." at the root is dropped when clamp is
 * set (as the kernel and dh_link do); otherwise it is an error (-1), the
 * names appended so far left in out. */
int pp_path_names(const char *path, int clamp, struct pp_strlist *out);

/* Why a path read from untrusted input may not name a file below a
 * directory: it is empty, absolute, or has a ".." component; NULL when
 * it may. */
const char *pp_path_escapes(const char *rel);
/* Opens rel, a path below the directory whose real path is root_real,
 * for reading, and only a regular file: never through a symbolic link
 * that leads out of root_real, nor a FIFO (opened without blocking).
 * Returns the descriptor, its fstat in *st; or -1 with *why saying what
 * is wrong, or NULL when the file is missing or unreadable (errno says
 * why). */
int pp_open_inside(const char *root_real, const char *rel, const char **why,
		   struct stat *st);
/* The same, faster: root_fd is root_real opened (-1: not open). */
int pp_open_inside_at(int root_fd, const char *root_real, const char *rel,
		      const char **why, struct stat *st);

#endif
