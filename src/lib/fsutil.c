#include "fsutil.h"
#include "strlist.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/openat2.h>

#include "xalloc.h"

char *pp_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

int pp_path_names(const char *path, int clamp, struct pp_strlist *out)
{
	while (*path) {
		size_t n = strcspn(path, "/");

		if (n == 2 && !strncmp(path, "..", 2)) {
			if (!out->nr && !clamp)
				return -1;
			if (out->nr) {
				free(out->items[--out->nr]);
				out->items[out->nr] = NULL;
			}
		} else if (n && !(n == 1 && *path == '.')) {
			pp_strlist_push_owned(out, xstrndup(path, n));
		}
		path += n + strspn(path + n, "/");
	}
	return 0;
}

const char *pp_path_escapes(const char *rel)
{
	size_t len;

	if (!*rel)
		return "is empty";
	if (rel[0] == '/')
		return "is absolute";
	for (const char *c = rel; *c; c += len + (c[len] == '/')) {
		len = strcspn(c, "/");
		if (len == 2 && c[0] == '.' && c[1] == '.')
			return "has a '..' component";
	}
	return NULL;
}

/* Whether path (a real path) is root_real or below it. */
static int is_below(const char *root_real, const char *path)
{
	size_t n = strlen(root_real);

	if (n == 1 && root_real[0] == '/')
		return 1;
	return !strncmp(path, root_real, n) && (!path[n] || path[n] == '/');
}

int pp_open_inside(const char *root_real, const char *rel, const char **why,
		   struct stat *st)
{
	struct strbuf full = STRBUF_INIT;
	char *real = NULL;
	int fd = -1;

	*why = pp_path_escapes(rel);
	if (*why)
		return -1;
	strbuf_addf(&full, "%s/%s", root_real, rel);
	real = realpath(full.buf, NULL);
	if (real && !is_below(root_real, real))
		*why = "is a symbolic link leading out of the repository";
	else if (real)
		fd = open(real, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd >= 0 && (fstat(fd, st) < 0 || !S_ISREG(st->st_mode))) {
		*why = "is not a regular file";
		close(fd);
		fd = -1;
	}
	free(real);
	strbuf_release(&full);
	return fd;
}

/* rel opened below root_fd by the kernel, which refuses a path (or a
 * symbolic link in it) leading out: one syscall where realpath takes a
 * readlink a component. -1 for any failure, the caller then looks again
 * the slow way (for why; and an absolute link inside, which this refuses). */
static int open_beneath(int root_fd, const char *rel, struct stat *st)
{
#ifdef SYS_openat2
	struct open_how how = { .flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW |
					 O_NONBLOCK,
				.resolve = RESOLVE_BENEATH |
					   RESOLVE_NO_MAGICLINKS };
	int fd = (int)syscall(SYS_openat2, root_fd, rel, &how, sizeof(how));

	if (fd >= 0 && (fstat(fd, st) < 0 || !S_ISREG(st->st_mode))) {
		close(fd);
		fd = -1;
	}
	return fd;
#else
	(void)root_fd;
	(void)rel;
	(void)st;
	return -1;
#endif
}

int pp_open_inside_at(int root_fd, const char *root_real, const char *rel,
		      const char **why, struct stat *st)
{
	int fd;

	*why = pp_path_escapes(rel);
	if (*why)
		return -1;
	fd = root_fd >= 0 ? open_beneath(root_fd, rel, st) : -1;
	return fd >= 0 ? fd : pp_open_inside(root_real, rel, why, st);
}

int pp_outfile_open(struct pp_outfile *of, const char *path, mode_t mode,
		    struct pp_err *err)
{
	struct strbuf tmp = STRBUF_INIT;
	const char *base = strrchr(path, '/');
	char *dir = pp_dirname(path);
	mode_t mask;

	base = base ? base + 1 : path;
	strbuf_addf(&tmp, "%s/.%s.XXXXXX", dir, base);
	free(dir);
	of->fd = mkstemp(tmp.buf);
	if (of->fd < 0) {
		pp_err_errno(err, PP_EXIT_IO, "cannot create '%s'", path);
		strbuf_release(&tmp);
		return -1;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(of->fd, mode & ~mask) < 0) {
		pp_err_errno(err, PP_EXIT_IO, "cannot set mode of '%s'", tmp.buf);
		close(of->fd);
		unlink(tmp.buf);
		strbuf_release(&tmp);
		return -1;
	}
	of->tmp = strbuf_detach(&tmp, NULL);
	of->path = xstrdup(path);
	of->sync = 0;
	return 0;
}

static void outfile_free(struct pp_outfile *of)
{
	free(of->path);
	free(of->tmp);
	of->path = of->tmp = NULL;
	of->fd = -1;
}

int pp_outfile_commit(struct pp_outfile *of, struct pp_err *err)
{
	int rc = 0;

	if (of->sync && fsync(of->fd) < 0) {
		rc = pp_err_errno(err, PP_EXIT_IO, "cannot sync '%s'", of->path);
		close(of->fd);
		unlink(of->tmp);
	} else if (close(of->fd) < 0) {
		rc = pp_err_errno(err, PP_EXIT_IO, "cannot write '%s'", of->path);
		unlink(of->tmp);
	} else if (rename(of->tmp, of->path) < 0) {
		rc = pp_err_errno(err, PP_EXIT_IO, "cannot rename '%s' to '%s'",
				  of->tmp, of->path);
		unlink(of->tmp);
	}
	outfile_free(of);
	return rc;
}

void pp_outfile_abort(struct pp_outfile *of)
{
	if (!of->tmp)
		return;
	close(of->fd);
	unlink(of->tmp);
	outfile_free(of);
}

int pp_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

ssize_t pp_read_full(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, p + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

int pp_read_file(const char *path, struct strbuf *out, struct pp_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	ssize_t n;

	if (fd < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot open '%s'", path);
	/* Read straight into the buffer, sized once from the file's size with
	 * a byte to spare, so that reading the end needs no second buffer. */
	strbuf_grow(out, fstat(fd, &st) == 0 && st.st_size > 0 ?
		    (size_t)st.st_size + 1 : 65536);
	do {
		if (out->alloc - out->len - 1 == 0)
			strbuf_grow(out, 65536);
		n = pp_read_full(fd, out->buf + out->len, out->alloc - out->len - 1);
		if (n > 0)
			strbuf_setlen(out, out->len + (size_t)n);
	} while (n > 0);
	close(fd);
	if (n < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot read '%s'", path);
	return 0;
}

int pp_map_file(const char *path, struct pp_mapped *m, struct pp_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *addr;

	m->data = "";
	m->len = 0;
	if (fd < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot open '%s'", path);
	if (fstat(fd, &st) < 0) {
		pp_err_errno(err, PP_EXIT_IO, "cannot read '%s'", path);
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return pp_err_set(err, PP_EXIT_INPUT, "'%s' is not a regular "
				  "file", path);
	}
	if (st.st_size == 0) { /* mmap refuses a length of 0 */
		close(fd);
		return 0;
	}
	addr = mmap(NULL, (size_t)st.st_size, PROT_READ,
		    MAP_PRIVATE | MAP_POPULATE, fd, 0);
	close(fd);
	if (addr == MAP_FAILED)
		return pp_err_errno(err, PP_EXIT_IO, "cannot map '%s'", path);
	m->data = addr;
	m->len = (size_t)st.st_size;
	return 0;
}

void pp_unmap_file(struct pp_mapped *m)
{
	if (m->len)
		munmap((void *)m->data, m->len);
	m->data = "";
	m->len = 0;
}

int pp_filebuf_open(struct pp_filebuf *fb, const char *path, mode_t mode,
		    struct pp_err *err)
{
	fb->len = 0;
	fb->failed = 0;
	return pp_outfile_open(&fb->of, path, mode, err);
}

static void filebuf_flush(struct pp_filebuf *fb)
{
	if (!fb->failed && fb->len && pp_write_all(fb->of.fd, fb->buf, fb->len) < 0)
		fb->failed = errno ? errno : EIO;
	fb->len = 0;
}

void pp_filebuf_add(struct pp_filebuf *fb, const void *data, size_t len)
{
	if (fb->len + len > sizeof(fb->buf))
		filebuf_flush(fb);
	if (len >= sizeof(fb->buf)) { /* large: straight through */
		if (!fb->failed && pp_write_all(fb->of.fd, data, len) < 0)
			fb->failed = errno ? errno : EIO;
		return;
	}
	memcpy(fb->buf + fb->len, data, len);
	fb->len += len;
}

void pp_filebuf_addstr(struct pp_filebuf *fb, const char *s)
{
	pp_filebuf_add(fb, s, strlen(s));
}

int pp_filebuf_commit(struct pp_filebuf *fb, struct pp_err *err)
{
	filebuf_flush(fb);
	if (fb->failed) {
		errno = fb->failed;
		pp_err_errno(err, PP_EXIT_IO, "cannot write '%s'", fb->of.tmp);
		pp_outfile_abort(&fb->of);
		return -1;
	}
	return pp_outfile_commit(&fb->of, err);
}

int pp_write_file(const char *path, const void *data, size_t len,
		  mode_t mode, struct pp_err *err)
{
	return pp_write_file_flags(path, data, len, mode, 0, err);
}

int pp_write_file_flags(const char *path, const void *data, size_t len,
			mode_t mode, int flags, struct pp_err *err)
{
	struct pp_outfile of;

	if (pp_outfile_open(&of, path, mode, err) < 0)
		return -1;
	of.sync = flags & PP_SYNC;
	if (pp_write_all(of.fd, data, len) < 0) {
		pp_err_errno(err, PP_EXIT_IO, "cannot write '%s'", of.tmp);
		pp_outfile_abort(&of);
		return -1;
	}
	return pp_outfile_commit(&of, err);
}

int pp_mkdir_p(const char *path, mode_t mode, struct pp_err *err)
{
	char *p, *s;
	int rc = 0;

	/* Most often the parent exists: one call instead of one a level. */
	if (mkdir(path, mode) == 0 || errno == EEXIST)
		return 0;
	p = xstrdup(path);

	for (s = p + 1; ; s++) {
		char c = *s;

		if (c != '/' && c != '\0')
			continue;
		*s = '\0';
		if (mkdir(p, mode) < 0 && errno != EEXIST) {
			rc = pp_err_errno(err, PP_EXIT_IO,
					  "cannot create directory '%s'", p);
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return rc;
}

int pp_tmpfile(const char *dir, struct pp_err *err)
{
	struct strbuf tmpl = STRBUF_INIT;
	int fd;

	if (!dir)
		dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	strbuf_addf(&tmpl, "%s/.padpack.XXXXXX", dir);
	fd = mkstemp(tmpl.buf);
	if (fd < 0)
		pp_err_errno(err, PP_EXIT_IO,
			     "cannot create a temporary file in '%s'", dir);
	else
		unlink(tmpl.buf);
	strbuf_release(&tmpl);
	return fd;
}

int pp_copy_file(const char *src, const char *dst, mode_t mode,
		 struct pp_err *err)
{
	return pp_copy_file_seen(src, dst, mode, NULL, NULL, err);
}

/* Copies src into an open output file (not committed). */
static int copy_into(const char *src, struct pp_outfile *of,
		     void (*seen)(void *ctx, const void *buf, size_t len),
		     void *ctx, struct pp_err *err)
{
	char *buf = xmalloc(1 << 16);
	ssize_t n = 0;
	int fd = open(src, O_RDONLY | O_CLOEXEC), rc = 0;

	if (fd < 0) {
		free(buf);
		return pp_err_errno(err, PP_EXIT_IO, "cannot open '%s'", src);
	}
	while (!rc && (n = pp_read_full(fd, buf, 1 << 16)) > 0) {
		if (seen)
			seen(ctx, buf, (size_t)n);
		if (pp_write_all(of->fd, buf, (size_t)n) < 0)
			rc = pp_err_errno(err, PP_EXIT_IO, "cannot write '%s'",
					  of->path);
	}
	if (!rc && n < 0)
		rc = pp_err_errno(err, PP_EXIT_IO, "cannot read '%s'", src);
	close(fd);
	free(buf);
	return rc;
}

int pp_copy_file_seen(const char *src, const char *dst, mode_t mode,
		      void (*seen)(void *ctx, const void *buf, size_t len),
		      void *ctx, struct pp_err *err)
{
	struct pp_outfile of;

	if (pp_outfile_open(&of, dst, mode, err) < 0)
		return -1;
	if (copy_into(src, &of, seen, ctx, err) < 0) {
		pp_outfile_abort(&of);
		return -1;
	}
	return pp_outfile_commit(&of, err);
}

/* ---- files put in place together ---------------------------------------- */

/* The deepest directory of path (itself included) that exists: the one
 * whose new entry must be synced when the rest is made. */
static char *existing_ancestor(const char *path)
{
	char *d = xstrdup(path);
	struct stat st;

	while (stat(d, &st) < 0 && strcmp(d, "/") && strcmp(d, ".")) {
		char *up = pp_dirname(d);

		free(d);
		d = up;
	}
	return d;
}

void pp_outbatch_init(struct pp_outbatch *b, const char *root, int sync)
{
	memset(b, 0, sizeof(*b));
	b->root = root;
	b->sync = sync;
}

int pp_outbatch_has(const struct pp_outbatch *b, const char *path)
{
	for (size_t i = 0; i < b->nr; i++)
		if (!strcmp(b->f[i].path, path))
			return 1;
	return 0;
}

int pp_outbatch_copy(struct pp_outbatch *b, const char *src, const char *dst,
		     mode_t mode,
		     void (*seen)(void *ctx, const void *buf, size_t len),
		     void *ctx, struct stat *st, struct pp_err *err)
{
	struct pp_outfile *of;
	char *dir;
	int rc;

	if (b->nr == PP_OUTBATCH_MAX && pp_outbatch_commit(b, err) < 0)
		return -1;
	ARRAY_GROW(b->f, b->alloc, b->nr + 1);
	ARRAY_GROW(b->tops, b->alloc_tops, b->nr + 1);
	of = &b->f[b->nr];
	dir = pp_dirname(dst);
	b->tops[b->nr] = existing_ancestor(dir);
	rc = pp_mkdir_p(dir, 0755, err);
	free(dir);
	if (rc < 0 || pp_outfile_open(of, dst, mode, err) < 0) {
		free(b->tops[b->nr]);
		return -1;
	}
	if (copy_into(src, of, seen, ctx, err) < 0 || fstat(of->fd, st) < 0) {
		if (!err->code)
			pp_err_errno(err, PP_EXIT_IO, "cannot stat '%s'", of->tmp);
		pp_outfile_abort(of);
		free(b->tops[b->nr]);
		return -1;
	}
	/* Writing starts now, as dpkg does: the fsyncs at the commit find
	 * the data on its way or written, and the blocks' allocation in one
	 * journal commit. */
	if (b->sync)
		sync_file_range(of->fd, 0, 0, SYNC_FILE_RANGE_WRITE);
	b->nr++;
	return 0;
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int deeper_first(const void *a, const void *b)
{
	size_t x = strlen(*(char *const *)a), y = strlen(*(char *const *)b);

	return x < y ? 1 : x > y ? -1 : cmp_path(a, b);
}

/* The directories whose entries the batch changes (each file's, and
 * those made for it up to the one that existed), each once, the deepest
 * first. */
static size_t batch_dirs(const struct pp_outbatch *b, char ***out)
{
	char **dirs = NULL;
	size_t nr = 0, alloc = 0, kept = 0;

	for (size_t i = 0; i < b->nr; i++) {
		char *d = pp_dirname(b->f[i].path);
		int last = 0;

		while (!last) {
			last = !strcmp(d, b->tops[i]) || strlen(d) <= strlen(b->tops[i]);
			ARRAY_GROW(dirs, alloc, nr + 1);
			dirs[nr++] = d;
			if (!last)
				d = pp_dirname(d);
		}
	}
	if (nr)
		qsort(dirs, nr, sizeof(*dirs), cmp_path);
	for (size_t i = 0; i < nr; i++) { /* unique */
		if (kept && !strcmp(dirs[kept - 1], dirs[i]))
			free(dirs[i]);
		else
			dirs[kept++] = dirs[i];
	}
	if (kept)
		qsort(dirs, kept, sizeof(*dirs), deeper_first);
	*out = dirs;
	return kept;
}

/* The batch's data (or, after the renames, its names) on disk: each file
 * or directory fsync'ed, or for a batch of many, the file system synced
 * once (syncfs): each fsync costs a flush of the disk's cache, and a
 * large import would pay thousands. */
static int sync_batch(struct pp_outbatch *b, int renamed, char **dirs,
		      size_t nr_dirs, struct pp_err *err)
{
	int rc = 0;

	if (b->nr >= PP_OUTBATCH_SYNCFS) {
		if (syncfs(b->dir_fd) < 0)
			rc = pp_err_errno(err, PP_EXIT_IO, "cannot sync the file "
					  "system of '%s'", b->root);
		return rc;
	}
	for (size_t i = 0; i < b->nr && !renamed && !rc; i++)
		if (fsync(b->f[i].fd) < 0)
			rc = pp_err_errno(err, PP_EXIT_IO, "cannot sync '%s'",
					  b->f[i].path);
	for (size_t i = 0; i < nr_dirs && renamed && !rc; i++)
		rc = pp_fsync_dir(dirs[i], err);
	return rc;
}

/* Each file synced before any is renamed (sync_file_range started the
 * writing of each as it was written), then renamed, then their
 * directories synced. */
int pp_outbatch_commit(struct pp_outbatch *b, struct pp_err *err)
{
	char **dirs = NULL;
	size_t nr_dirs = b->sync ? batch_dirs(b, &dirs) : 0;
	int rc = 0;

	if (b->sync && b->nr) {
		b->dir_fd = open(b->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		rc = b->dir_fd < 0 ?
			pp_err_errno(err, PP_EXIT_IO, "cannot open '%s'", b->root) :
			sync_batch(b, 0, NULL, 0, err);
	}
	for (size_t i = 0; i < b->nr && !rc; i++)
		rc = pp_outfile_commit(&b->f[i], err);
	for (size_t i = 0; i < b->nr; i++) {
		pp_outfile_abort(&b->f[i]); /* what was not committed */
		free(b->tops[i]);
	}
	if (!rc && b->sync && b->nr)
		rc = sync_batch(b, 1, dirs, nr_dirs, err);
	for (size_t i = 0; i < nr_dirs; i++)
		free(dirs[i]);
	free(dirs);
	if (b->sync && b->nr && b->dir_fd >= 0)
		close(b->dir_fd);
	b->nr = 0;
	b->failed |= rc < 0;
	return b->failed ? -1 : 0;
}

void pp_outbatch_abort(struct pp_outbatch *b)
{
	for (size_t i = 0; i < b->nr; i++) {
		pp_outfile_abort(&b->f[i]);
		free(b->tops[i]);
	}
	b->nr = 0;
}

void pp_outbatch_release(struct pp_outbatch *b)
{
	pp_outbatch_abort(b);
	free(b->f);
	free(b->tops);
	b->f = NULL;
	b->tops = NULL;
	b->alloc = b->alloc_tops = 0;
}

static int remove_one(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return (type == FTW_DP ? rmdir(path) : unlink(path)) < 0 ? -1 : 0;
}

int pp_remove_tree(const char *path, struct pp_err *err)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 :
			pp_err_errno(err, PP_EXIT_IO, "cannot stat '%s'", path);
	if (nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS) < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot remove '%s'", path);
	return 0;
}

int pp_fsync_dir(const char *path, struct pp_err *err)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = 0;

	if (fd < 0 || fsync(fd) < 0)
		rc = pp_err_errno(err, PP_EXIT_IO, "cannot sync the directory "
				  "'%s'", path);
	if (fd >= 0)
		close(fd);
	return rc;
}

int pp_fsync_dir_of(const char *path, struct pp_err *err)
{
	char *dir = pp_dirname(path);
	int rc = pp_fsync_dir(dir, err);

	free(dir);
	return rc;
}

static int sync_one_dir(const char *path, const struct stat *st, int type,
			struct FTW *ftw)
{
	int fd, rc = 0;

	(void)st;
	(void)ftw;
	if (type != FTW_DP)
		return 0;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fsync(fd) < 0)
		rc = -1;
	if (fd >= 0)
		close(fd);
	return rc;
}

int pp_fsync_tree_dirs(const char *path, struct pp_err *err)
{
	if (nftw(path, sync_one_dir, 16, FTW_DEPTH | FTW_PHYS) != 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot sync the "
				    "directories of '%s'", path);
	return 0;
}

int pp_lock_path(const char *path, struct pp_err *err)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot open the lock '%s'",
				    path);
	while (flock(fd, LOCK_EX) < 0)
		if (errno != EINTR) {
			pp_err_errno(err, PP_EXIT_IO, "cannot lock '%s'", path);
			close(fd);
			return -1;
		}
	return fd;
}
