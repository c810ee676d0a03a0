/* padpack split, building: each package's tree as debhelper would leave
 * it (dh_fixperms, dh_compress, dh_strip with -dbgsym packages,
 * dh_installdocs' copyright and changelog, dh_makeshlibs' shlibs, symbols
 * and ldconfig trigger, dh_installdeb's conffiles and scripts), its
 * control file, then the .deb.
 * Layer: above changes.c (the changelog, .changes) and variant.c
 * (placeholders), which never call back up into the build. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "compress.h"
#include "deb.h"
#include "fsutil.h"
#include "hash.h"
#include "proc.h"
#include "progress.h"
#include "shlibs.h"
#include "splitint.h"
#include "tree.h"
#include "thread.h"
#include "xalloc.h"

/* ---- helpers ---------------------------------------------------------- */

static char *pkg_root(const struct pp_split *s, size_t pkg)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/%s", s->opts.work_dir, s->pkgs[pkg].name);
	return strbuf_detach(&sb, NULL);
}

/* ---- permissions, as dh_fixperms sets them ---------------------------- */

static mode_t fixed_mode(const struct pp_split_file *f)
{
	mode_t m = f->st.st_mode & 0777;

	switch (f->c.cls) {
	case PP_CLASS_EXEC:
	case PP_CLASS_SCRIPT:
		return 0755;
	case PP_CLASS_SHLIB:
	case PP_CLASS_MODULE:
	case PP_CLASS_OBJECT:
	case PP_CLASS_STATIC:
	case PP_CLASS_LIBTOOL:
	case PP_CLASS_HEADER:
	case PP_CLASS_PKGCONFIG:
	case PP_CLASS_CMAKE:
	case PP_CLASS_MAN:
	case PP_CLASS_DOC:
		return 0644;
	case PP_CLASS_PYTHON:
		return f->c.elf ? 0644 : (m & 0111 ? 0755 : 0644);
	default:
		return m & 0111 ? 0755 : 0644;
	}
}

/* ---- stripping, as dh_strip does -------------------------------------- */

static int has_debug_info(const struct pp_split_file *f)
{
	return f->c.elf && (f->c.elf->has_symtab || f->c.elf->has_debug) &&
	       f->c.cls != PP_CLASS_OBJECT;
}

static long dbgsym_of(const struct pp_split *s, size_t pkg)
{
	for (size_t i = 0; i < s->nr_pkgs; i++)
		if (s->pkgs[i].parent == (long)pkg)
			return (long)i;
	return -1;
}

static int strip_elf(struct pp_split *s, size_t pkg,
		     const struct pp_split_file *f, const char *dst,
		     struct pp_err *err)
{
	const char *id = f->c.elf->build_id;
	long dbg = dbgsym_of(s, pkg);
	struct strbuf debug = STRBUF_INIT, link = STRBUF_INIT;
	int unneeded = f->c.cls != PP_CLASS_EXEC;
	int rc = 0;

	if (id[0] && dbg >= 0) {
		char *droot = pkg_root(s, (size_t)dbg);

		strbuf_addf(&debug, "%s/usr/lib/debug/.build-id/%.2s/%s.debug",
			    droot, id, id + 2);
		free(droot);
		rc = pp_split_mkparent(debug.buf, err);
		if (rc == 0) {
			char *argv[] = { "objcopy", "--only-keep-debug",
					 "--compress-debug-sections",
					 (char *)dst, debug.buf, NULL };

			rc = pp_split_run_tool(argv, err);
		}
	}
	if (rc == 0) {
		char *argv[] = { "strip", "--remove-section=.comment",
				 "--remove-section=.note",
				 unneeded ? "--strip-unneeded" : (char *)dst,
				 unneeded ? (char *)dst : NULL, NULL };

		rc = pp_split_run_tool(argv, err);
	}
	if (rc == 0 && debug.len) {
		char *argv[] = { "objcopy", NULL, (char *)dst, NULL };

		strbuf_addf(&link, "--add-gnu-debuglink=%s", debug.buf);
		argv[1] = link.buf;
		rc = pp_split_run_tool(argv, err);
		if (rc == 0)
			rc = chmod(debug.buf, 0644) < 0 ?
			     pp_err_errno(err, PP_EXIT_IO, "chmod '%s'",
					  debug.buf) : 0;
		if (rc == 0)
			rc = pp_split_set_mtime(debug.buf, f->st.st_mtime, err);
	}
	strbuf_release(&debug);
	strbuf_release(&link);
	return rc;
}

static int strip_archive(const char *path, struct pp_err *err)
{
	char *argv[] = { "strip", "--strip-debug", "--remove-section=.comment",
			 "--remove-section=.note",
			 "--enable-deterministic-archives", "-R", ".gnu.lto_*",
			 "-R", ".gnu.debuglto_*", "-N", "__gnu_lto_slim", "-N",
			 "__gnu_lto_v1", (char *)path, NULL };

	return pp_split_run_tool(argv, err);
}

/* strip writes each member of an archive as a file beside it. On ext4 a
 * file made soon after many were deleted (the previous archive's
 * members, the previous run's trees) scans past each of them: OpenBLAS's
 * archive of 3,301 members took 1.9 s of kernel time so, 0.24 s on a
 * tmpfs. An archive is therefore stripped in a directory of /dev/shm
 * when that is a tmpfs with room for it, and copied back (the same
 * bytes: the archive is deterministic).
 * A padpack killed while stripping leaves its directory behind (there is
 * no global state for a signal handler to remove it with), so the
 * directory's name carries the PID that made it, which holds an flock on
 * it while it is used, and each new one first removes those of this user
 * whose process is gone and whose lock no one holds (a PID of another
 * PID namespace sharing /dev/shm looks gone, but its lock is held). */
#define SCRATCH_DIR "/dev/shm"
#define SCRATCH_PREFIX "padpack-strip."

struct scratch {
	char *dir;
	int lock; /* the directory, opened and flock'ed while in use */
};

/* The PID a scratch directory's name carries ("padpack-strip.PID.XXXXXX"),
 * or 0 when it is no such name. */
static pid_t scratch_owner(const char *name)
{
	size_t n = strlen(SCRATCH_PREFIX);
	char *end;
	long pid;

	if (strncmp(name, SCRATCH_PREFIX, n) || name[n] < '1' || name[n] > '9')
		return 0;
	errno = 0;
	pid = strtol(name + n, &end, 10);
	if (errno || *end != '.' || !end[1] || pid > INT_MAX)
		return 0;
	return (pid_t)pid;
}

/* Whether the entry name of the scratch directory (open at dfd) is a
 * directory this user's padpack left: its process gone, its lock free. */
static int scratch_stale(int dfd, const char *name)
{
	pid_t pid = scratch_owner(name);
	struct stat st;
	int fd, stale;

	if (!pid || kill(pid, 0) == 0 || errno != ESRCH)
		return 0;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
		return 0;
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0;
	stale = flock(fd, LOCK_EX | LOCK_NB) == 0;
	close(fd);
	return stale;
}

static void remove_stale_scratch(void)
{
	DIR *d = opendir(SCRATCH_DIR);
	struct strbuf path = STRBUF_INIT;
	struct pp_err ignored;
	struct dirent *de;

	if (!d)
		return;
	pp_err_init(&ignored);
	while ((de = readdir(d))) {
		if (!scratch_stale(dirfd(d), de->d_name))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", SCRATCH_DIR, de->d_name);
		pp_remove_tree(path.buf, &ignored); /* another run's, maybe */
	}
	closedir(d);
	pp_err_release(&ignored);
	strbuf_release(&path);
}

static int tmpfs_room(uint64_t bytes)
{
	struct statfs fs;

	return statfs(SCRATCH_DIR, &fs) == 0 && fs.f_type == TMPFS_MAGIC &&
	       (uint64_t)fs.f_bavail * (uint64_t)fs.f_bsize >= bytes;
}

/* A scratch directory for an archive of size bytes, locked; -1: strip
 * the archive where it is. */
static int scratch_open(off_t size, struct scratch *s)
{
	struct strbuf dir = STRBUF_INIT;

	if (!tmpfs_room(0))
		return -1;
	remove_stale_scratch();
	if (!tmpfs_room(4 * (uint64_t)size))
		return -1;
	strbuf_addf(&dir, "%s/%s%ld.XXXXXX", SCRATCH_DIR, SCRATCH_PREFIX,
		    (long)getpid());
	s->dir = strbuf_detach(&dir, NULL);
	s->lock = -1;
	if (mkdtemp(s->dir)) {
		s->lock = open(s->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (s->lock >= 0 && flock(s->lock, LOCK_EX | LOCK_NB) == 0)
			return 0;
		if (s->lock >= 0)
			close(s->lock);
		rmdir(s->dir);
	}
	free(s->dir);
	return -1;
}

static void scratch_close(struct scratch *s)
{
	struct pp_err ignored;

	pp_err_init(&ignored);
	pp_remove_tree(s->dir, &ignored);
	pp_err_release(&ignored);
	close(s->lock); /* after the removal: no one takes it for stale */
	free(s->dir);
}

static int strip_static(const char *dst, off_t size, struct pp_err *err)
{
	const char *base = strrchr(dst, '/');
	struct strbuf tmp = STRBUF_INIT;
	struct scratch s;
	int rc;

	if (scratch_open(size, &s) < 0)
		return strip_archive(dst, err);
	strbuf_addf(&tmp, "%s/%s", s.dir, base ? base + 1 : dst);
	rc = pp_copy_file(dst, tmp.buf, 0644, err);
	if (rc == 0)
		rc = strip_archive(tmp.buf, err);
	if (rc == 0)
		rc = pp_copy_file(tmp.buf, dst, 0644, err);
	scratch_close(&s);
	strbuf_release(&tmp);
	return rc;
}

/* ---- copying the files ------------------------------------------------ */

/* A link in usr/share/doc names a file of its stage that is compressed:
 * dh_compress renames the link too. Outside it, a manual page's or info
 * document's link names one that is. */
static int is_compressed_doc(const struct pp_split_stage *st,
			     const struct pp_split_file *f)
{
	const struct pp_split_file *to;

	if (!S_ISLNK(f->st.st_mode))
		return pp_split_compressed_doc(f->path, (uint64_t)f->st.st_size);
	if (strncmp(f->path, "usr/share/doc/", 14))
		return pp_split_compressed_doc(f->path, 0);
	to = f->c.target ? pp_split_find(st, f->c.target) : NULL;
	return to && S_ISREG(to->st.st_mode) &&
	       pp_split_compressed_doc(to->path, (uint64_t)to->st.st_size);
}

/* Copies the rest of the file open at fd to out, a piece at a time:
 * 0, -1 (a read failed) or -2 (a write failed). */
static int copy_rest(int fd, int out, char *piece)
{
	ssize_t n;

	while ((n = pp_read_full(fd, piece, PP_SPLIT_PIECE)) > 0)
		if (pp_write_all(out, piece, (size_t)n) < 0)
			return -2;
	return n < 0 ? -1 : 0;
}

/* The old first line skipped, the new one written, then the rest from
 * the old line's '\n' on (one '\n' when it has none); read a piece at a
 * time, so a first line or a file of any length takes the same memory.
 * 0, -1 (a read failed) or -2 (a write failed). */
static int rewrite_shebang(int fd, int out, char *piece)
{
	static const char shebang[] = "#!/usr/bin/python3";
	const char *nl = NULL;
	ssize_t n;

	while ((n = pp_read_full(fd, piece, PP_SPLIT_PIECE)) > 0 &&
	       !(nl = memchr(piece, '\n', (size_t)n)))
		; /* still the old "#!" line */
	if (n < 0)
		return -1;
	if (pp_write_all(out, shebang, sizeof(shebang) - 1) < 0)
		return -2;
	if (!nl) /* one line, without its '\n' */
		return pp_write_all(out, "\n", 1) < 0 ? -2 : 0;
	if (pp_write_all(out, nl, (size_t)(piece + n - nl)) < 0)
		return -2;
	return copy_rest(fd, out, piece);
}

/* dh_python3: a script's unversioned python "#!" line becomes
 * /usr/bin/python3 (the package then depends on python3:any). */
static int copy_python3(const char *src, const char *dst, struct pp_err *err)
{
	struct pp_outfile of;
	char *piece;
	int fd = open(src, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot open '%s'", src);
	if (pp_outfile_open(&of, dst, 0644, err) < 0) {
		close(fd);
		return -1;
	}
	piece = xmalloc(PP_SPLIT_PIECE);
	rc = rewrite_shebang(fd, of.fd, piece);
	if (rc == -1)
		pp_err_errno(err, PP_EXIT_IO, "cannot read '%s'", src);
	else if (rc == -2)
		pp_err_errno(err, PP_EXIT_IO, "cannot write '%s'", dst);
	free(piece);
	close(fd);
	if (rc == 0)
		return pp_outfile_commit(&of, err);
	pp_outfile_abort(&of);
	return -1;
}

/* A run path of the linker's default directories only (libtool's, in
 * sqlite3's shell): dropped, as chrpath -d in debian/rules. */
int pp_split_default_runpath(const struct pp_split_file *f)
{
	struct strbuf sb = STRBUF_INIT;
	int yes;

	if (!f->c.elf || !f->c.elf->runpath.nr)
		return 0;
	for (size_t i = 0; i < f->c.elf->runpath.nr; i++)
		strbuf_addf(&sb, "%s%s", i ? ":" : "",
			    f->c.elf->runpath.items[i]);
	yes = pp_elf_default_runpath(sb.buf);
	strbuf_release(&sb);
	return yes;
}

static int copy_regular(struct pp_split *s, size_t pkg,
			const struct pp_split_file *f, const char *src,
			const char *dst, struct pp_err *err)
{
	int rc;

	if (pp_split_compressed_doc(f->path, (uint64_t)f->st.st_size)) {
		/* dh_compress */
		struct strbuf gz = STRBUF_INIT;

		strbuf_addf(&gz, "%s.gz", dst);
		rc = pp_split_gzip_file(src, gz.buf, err);
		if (rc == 0)
			rc = pp_split_set_mtime(gz.buf, f->st.st_mtime, err);
		strbuf_release(&gz);
		return rc;
	}
	if (pp_split_regzipped_man(f->path) && S_ISREG(f->st.st_mode)) {
		/* dh_installman, then dh_compress */
		rc = pp_split_regzip_file(src, dst, err);
		return rc ? rc : pp_split_set_mtime(dst, f->st.st_mtime, err);
	}
	rc = f->python_shebang ? copy_python3(src, dst, err) :
	     pp_copy_file(src, dst, fixed_mode(f), err);
	if (rc == 0 && f->c.cls == PP_CLASS_STATIC)
		rc = strip_static(dst, f->st.st_size, err);
	else if (rc == 0 && has_debug_info(f))
		rc = strip_elf(s, pkg, f, dst, err);
	if (rc == 0 && pp_split_default_runpath(f)) {
		int dropped;

		rc = pp_elf_drop_default_runpath(dst, &dropped, err);
	}
	if (rc == 0 && chmod(dst, fixed_mode(f)) < 0)
		rc = pp_err_errno(err, PP_EXIT_IO, "chmod '%s'", dst);
	if (rc == 0)
		rc = pp_split_set_mtime(dst, f->st.st_mtime, err);
	return rc;
}

/* A link is written as dh_link writes it (policy 10.5): relative within
 * one top-level directory, absolute between two (rel: its path in the
 * package, dst: on the disk). */
static int copy_link(const struct pp_split_stage *st,
		     const struct pp_split_file *f, const char *rel,
		     const char *dst, struct pp_err *err)
{
	struct strbuf name = STRBUF_INIT, target = STRBUF_INIT;
	char *to = pp_split_policy_link(rel, f->link);
	int rc = 0;

	strbuf_addstr(&name, dst);
	strbuf_addstr(&target, to);
	free(to);
	if (is_compressed_doc(st, f)) { /* what it names is compressed too */
		strbuf_addstr(&name, ".gz");
		strbuf_addstr(&target, ".gz");
	}
	if (symlink(target.buf, name.buf) < 0)
		rc = pp_err_errno(err, PP_EXIT_IO, "cannot create link '%s'",
				  name.buf);
	if (rc == 0)
		rc = pp_split_set_mtime(name.buf, f->st.st_mtime, err);
	strbuf_release(&name);
	strbuf_release(&target);
	return rc;
}

char *pp_split_so_page(const char *path, const char *text)
{
	const char *p = text, *end, *rest;
	struct strbuf sb = STRBUF_INIT;
	size_t slashes = 0;
	char *dir;

	if (strncmp(p, ".so", 3) || (p[3] != ' ' && p[3] != '\t'))
		return NULL;
	p += 3 + strspn(p + 3, " \t");
	end = p + strcspn(p, " \t\r\n");
	rest = end + strspn(end, " \t\r\n");
	for (const char *q = p; q < end; q++)
		slashes += *q == '/';
	if (end == p || *rest || *p == '/' || strstr(p, "..") || slashes > 1)
		return NULL;
	dir = pp_dirname(path);
	if (slashes) { /* man1/x.1: from the man root */
		char *up = pp_dirname(dir);

		free(dir);
		dir = up;
	}
	strbuf_addf(&sb, "%s/%.*s", dir, (int)(end - p), p);
	free(dir);
	return strbuf_detach(&sb, NULL);
}

/* Sets *to to the staged page a manual page that is one ".so" request
 * names, else NULL: dh_installman makes such a page a link (lintian:
 * bad-so-link-within-manual-page for ".so x.3" in a file). */
static int so_target(const struct pp_split_stage *st,
		     const struct pp_split_file *f, const char *src,
		     char **to, struct pp_err *err)
{
	struct strbuf text = STRBUF_INIT, gz = STRBUF_INIT;
	int rc = 0;

	*to = NULL;
	if (f->c.cls != PP_CLASS_MAN || f->st.st_size >= 256 ||
	    !pp_split_compressed_doc(f->path, (uint64_t)f->st.st_size))
		return 0;
	rc = pp_read_file(src, &text, err);
	if (rc == 0)
		*to = pp_split_so_page(f->path, text.buf);
	if (*to && !pp_split_find(st, *to)) {
		strbuf_addf(&gz, "%s.gz", *to);
		free(*to);
		*to = pp_split_find(st, gz.buf) ? strbuf_detach(&gz, NULL) : NULL;
	}
	strbuf_release(&gz);
	strbuf_release(&text);
	return rc;
}

/* A ".so" page shipped as dh_installman ships it: a link to the page it
 * names, both gzipped (rel: its path in the package, dst: on the disk). */
static int so_link(const struct pp_split_file *f, const char *to,
		   const char *rel, const char *dst, struct pp_err *err)
{
	struct strbuf name = STRBUF_INIT, abs = STRBUF_INIT;
	char *target;
	size_t n = strlen(to);
	int rc = 0;

	strbuf_addf(&name, "%s.gz", dst);
	strbuf_addf(&abs, "/%s%s", to, n > 3 && !strcmp(to + n - 3, ".gz") ?
		    "" : ".gz");
	target = pp_split_policy_link(rel, abs.buf);
	if (symlink(target, name.buf) < 0)
		rc = pp_err_errno(err, PP_EXIT_IO, "cannot create link '%s'",
				  name.buf);
	if (rc == 0)
		rc = pp_split_set_mtime(name.buf, f->st.st_mtime, err);
	free(target);
	strbuf_release(&name);
	strbuf_release(&abs);
	return rc;
}

static int copy_file(struct pp_split *s, size_t pkg, struct pp_split_ref ref,
		     const char *root, struct pp_err *err)
{
	const struct pp_split_file *f = pp_split_at(s, ref);
	struct strbuf src = STRBUF_INIT, dst = STRBUF_INIT;
	int rc;

	char *dest = pp_split_dest_path(s, pkg, f);

	pp_split_file_source(&s->stages[ref.stage], f, &src);
	strbuf_addf(&dst, "%s/%s", root, dest);
	rc = S_ISDIR(f->st.st_mode) ? pp_mkdir_p(dst.buf, 0755, err) :
	     pp_split_mkparent(dst.buf, err);
	if (rc == 0 && S_ISREG(f->st.st_mode)) {
		char *to;

		rc = so_target(&s->stages[ref.stage], f, src.buf, &to, err);
		if (rc == 0)
			rc = to ? so_link(f, to, dest, dst.buf, err) :
			     copy_regular(s, pkg, f, src.buf, dst.buf, err);
		free(to);
	} else if (rc == 0 && S_ISLNK(f->st.st_mode))
		rc = copy_link(&s->stages[ref.stage], f, dest, dst.buf, err);
	free(dest);
	strbuf_release(&src);
	strbuf_release(&dst);
	return rc;
}

/* Copied as it is: not gzipped anew (dh_compress, dh_installman). */
static int plain_copy(const struct pp_split_file *f)
{
	return !pp_split_compressed_doc(f->path, (uint64_t)f->st.st_size) &&
	       !pp_split_regzipped_man(f->path);
}

int pp_split_same_file(const struct pp_split_file *a,
		       const struct pp_split_file *b)
{
	return S_ISREG(a->st.st_mode) && S_ISREG(b->st.st_mode) &&
	       a->st.st_nlink > 1 && a->st.st_dev == b->st.st_dev &&
	       a->st.st_ino == b->st.st_ino && plain_copy(a) && plain_copy(b) &&
	       a->python_shebang == b->python_shebang &&
	       fixed_mode(a) == fixed_mode(b);
}

/* The package's file before the i-th that the i-th is a hard link of,
 * or -1. */
static long linked_earlier(const struct pp_split *s,
			   const struct pp_split_pkg *p, size_t i)
{
	const struct pp_split_file *f = pp_split_at(s, p->files[i]);

	if (!S_ISREG(f->st.st_mode) || f->st.st_nlink < 2)
		return -1;
	for (size_t j = 0; j < i; j++)
		if (pp_split_same_file(pp_split_at(s, p->files[j]), f))
			return (long)j;
	return -1;
}

/* Ships the file at ref as a hard link to the one at first, already in
 * the package. */
static int link_file(struct pp_split *s, size_t pkg, struct pp_split_ref first,
		     struct pp_split_ref ref, const char *root,
		     struct pp_err *err)
{
	char *to = pp_split_dest_path(s, pkg, pp_split_at(s, first));
	char *dest = pp_split_dest_path(s, pkg, pp_split_at(s, ref));
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	int rc;

	strbuf_addf(&a, "%s/%s", root, to);
	strbuf_addf(&b, "%s/%s", root, dest);
	rc = pp_split_mkparent(b.buf, err);
	if (rc == 0 && link(a.buf, b.buf) < 0)
		rc = pp_err_errno(err, PP_EXIT_IO, "cannot link '%s' to '%s'",
				  b.buf, a.buf);
	free(to);
	free(dest);
	strbuf_release(&a);
	strbuf_release(&b);
	return rc;
}

/* ---- documentation ---------------------------------------------------- */

static int add_docs(struct pp_split *s, size_t pkg, const char *root,
		    struct pp_err *err)
{
	const struct pp_split_pkg *p = &s->pkgs[pkg];
	struct strbuf rel = STRBUF_INIT, text = STRBUF_INIT, tmp = STRBUF_INIT;
	int rc;

	if (p->role == PP_ROLE_DBGSYM) { /* dh_strip: a link to the parent's */
		strbuf_addf(&rel, "%s/usr/share/doc/%s", root, p->name);
		rc = pp_split_mkparent(rel.buf, err);
		if (rc == 0 && symlink(s->pkgs[p->parent].name, rel.buf) < 0)
			rc = pp_err_errno(err, PP_EXIT_IO, "cannot create '%s'",
					  rel.buf);
		strbuf_release(&rel);
		return rc;
	}
	rc = 0;
	strbuf_addstr(&text, s->copyright);
	strbuf_addf(&rel, "usr/share/doc/%s/copyright", p->name);
	if (rc == 0)
		rc = pp_split_write_at(root, rel.buf, text.buf, text.len, 0644,
				       s->opts.timestamp, err);
	strbuf_reset(&text);
	if (rc == 0)
		rc = pp_split_changelog(s, &text, err);
	strbuf_reset(&rel);
	strbuf_addf(&rel, "%s/usr/share/doc/%s/changelog.Debian", root, p->name);
	strbuf_addf(&tmp, "%s.gz", rel.buf);
	if (rc == 0)
		rc = pp_write_file(rel.buf, text.buf, text.len, 0644, err);
	if (rc == 0)
		rc = pp_split_gzip_file(rel.buf, tmp.buf, err);
	if (rc == 0 && unlink(rel.buf) < 0)
		rc = pp_err_errno(err, PP_EXIT_IO, "cannot remove '%s'", rel.buf);
	if (rc == 0)
		rc = pp_split_set_mtime(tmp.buf, s->opts.timestamp, err);
	strbuf_release(&rel);
	strbuf_release(&text);
	strbuf_release(&tmp);
	return rc;
}

/* ---- control area ----------------------------------------------------- */

/* The upstream part of the version: dh_makeshlibs -VUpstream-Version. */
static char *upstream_version(const char *version)
{
	const char *dash = strrchr(version, '-');

	return xstrndup(version, dash ? (size_t)(dash - version) : strlen(version));
}

static const char *dev_package_of(const struct pp_split *s,
				  const struct pp_split_pkg *p)
{
	for (size_t i = 0; i < s->nr_pkgs; i++)
		if (s->pkgs[i].role == PP_ROLE_DEV &&
		    (!s->pkgs[i].variant || s->pkgs[i].variant == p->variant) &&
		    !s->pkgs[i].common)
			return s->pkgs[i].variant ? s->pkgs[i].base :
			       s->pkgs[i].name;
	return NULL;
}

/* What lintian says of a library package that a maintainer would
 * override, and why: a variant's package is not named from the SONAME
 * alone, on purpose (lintian names packages from the SONAMEs of the
 * linker's directories only, so not for a library behind an
 * alternative, where the override would be unused); and a library in a
 * directory of its own (an alternative's) needs the ldconfig trigger all
 * the same, for the generic link update-alternatives makes in the
 * linker's directory, which lintian does not see (Debian's
 * libopenblas0-* override it too). */
static void library_overrides(const struct pp_split *s,
			      const struct pp_split_pkg *p, int linker_lib,
			      int alt_lib, struct strbuf *text)
{
	if (linker_lib && p->variant && strcmp(p->name, p->base))
		strbuf_addf(text, "# %s is the %s variant of %s: the same "
			    "library built another\n# way, which %s.\npackage-"
			    "name-doesnt-match-sonames %s\n", p->name,
			    p->variant->name, p->base, s->spec->coinstallable ?
			    "Provides it, and installs beside the other variants" :
			    "Provides, Conflicts with and Replaces the other "
			    "variants", p->base);
	if (alt_lib)
		strbuf_addstr(text, "# ldconfig caches the generic name that "
			      "update-alternatives links to this\n# package's "
			      "library in the linker's directory\npackage-has-"
			      "unnecessary-activation-of-ldconfig-trigger\n");
}

/* The field of the ISA proof is padpack's own, on purpose: lintian,
 * which knows Debian's fields only, warns of it in every package with
 * code unless told why. */
static void isa_override(const struct pp_split *s,
			 const struct pp_split_pkg *p, struct strbuf *text)
{
	if (p->isa && pp_split_isa_asked(s->spec))
		strbuf_addstr(text, "# padpack's record of the x86-64 level "
			      "and extensions this package's\n# code needs "
			      "(padpack isa): a field Debian has no name for\n"
			      "unknown-field Isa-Level\n");
}

/* The lintian overrides the spec's control rules give the package
 * (dh_lintian's debian/PACKAGE.lintian-overrides), in their order. */
static int spec_overrides(const struct pp_split *s,
			  const struct pp_split_pkg *p, struct strbuf *text,
			  struct pp_err *err)
{
	struct pp_expand_ctx ec = { s->spec, p->variant, s->upstream, 1, 1,
				    NULL };
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < s->spec->nr_control; i++) {
		const struct pp_control_rule *r = &s->spec->control[i];
		int hit = r->lintian.nr ? pp_split_rule_names(s, p, r, err) : 0;

		rc = hit < 0 ? -1 : 0;
		for (size_t k = 0; hit > 0 && rc == 0 && k < r->lintian.nr; k++) {
			rc = pp_spec_expand(r->lintian.items[k], &ec, text, err);
			strbuf_addch(text, '\n');
		}
	}
	return rc;
}

static int write_overrides(const struct pp_split *s,
			   const struct pp_split_pkg *p, const char *root,
			   const struct strbuf *text, struct pp_err *err)
{
	struct strbuf rel = STRBUF_INIT;
	int rc;

	if (!text->len)
		return 0;
	strbuf_addf(&rel, "usr/share/lintian/overrides/%s", p->name);
	rc = pp_split_write_at(root, rel.buf, text->buf, text->len, 0644,
			       s->opts.timestamp, err);
	strbuf_release(&rel);
	return rc;
}

/* The shlibs dependency of the library soname in dir: the role's package
 * every variant provides; for the generic name of an alternative that
 * provides a virtual package, "or any provider of it", so that programs
 * linked -lblas take any BLAS, as Debian's hand-written shlibs of
 * openblas, lapack, atlas and blis say (libblas3 | libblas.so.3). */
static void shlibs_dep(const struct pp_split *s, const struct pp_split_pkg *p,
		       const char *up, const char *dir, const char *soname,
		       struct strbuf *dep)
{
	const char *virt = pp_split_alt_libdir_of(s, p->variant, dir) ?
			   pp_split_alt_virtual(s, p->variant, soname) : NULL;

	strbuf_reset(dep);
	strbuf_addf(dep, "%s (>= %s)", p->base, up);
	if (virt)
		strbuf_addf(dep, " | %s", virt);
}

/* A library in the linker's directory with no version in its SONAME
 * (libfoo.so), or no SONAME: no shlibs line can name it (dpkg-shlibdeps
 * reads none from libfoo.so), but ldconfig must still see it (returns 1).
 * With no SONAME, nothing for ldconfig; lintian's error is overridden,
 * saying why: the build linked it without -soname, and its users name it
 * by its file. */
static int unversioned_library(const struct pp_split *s,
			       const struct pp_split_file *f,
			       struct strbuf *overrides)
{
	char *dir = pp_dirname(f->path), *name, *ver;
	int yes = pp_split_public_libdir(s, dir) && !pp_split_alt_libdir(s, dir);

	if (yes && f->c.soname && pp_soname_split(f->c.soname, &name, &ver) == 0) {
		free(name);
		free(ver);
		yes = 0;
	}
	if (yes && !f->c.soname)
		strbuf_addf(overrides, "# linked without -Wl,-soname: its users "
			    "record NEEDED %s, its file's name\n"
			    "sharedobject-in-library-directory-missing-soname "
			    "[%s]\n", strrchr(f->path, '/') + 1, f->path);
	free(dir);
	return yes && f->c.soname; /* ldconfig caches by SONAME only */
}

/* dh_makeshlibs: shlibs, symbols and the ldconfig trigger of a package
 * with public shared libraries. No symbols file for a C++ library
 * (pp_symbols_mostly_cxx), nor for one reached through an alternative:
 * its users are to take any provider of the generic name. Three of the
 * four BLAS sources of Debian 12 do so (lapack's libblas3 and liblapack3,
 * atlas, openblas); blis ships one. */
static int library_files(const struct pp_split *s, size_t pkg,
			 const char *root, struct strbuf *overrides,
			 struct pp_err *err)
{
	const struct pp_split_pkg *p = &s->pkgs[pkg];
	struct strbuf shlibs = STRBUF_INIT, symbols = STRBUF_INIT,
		      dep = STRBUF_INIT;
	char *up = upstream_version(s->version);
	int rc = 0, alt_lib = 0, linker_lib = 0, unversioned = 0;

	for (size_t i = 0; i < p->nr_files; i++) {
		const struct pp_split_file *f = pp_split_at(s, p->files[i]);
		char *dir;

		if (p->role == PP_ROLE_RUNTIME && f->c.elf &&
		    (f->c.cls == PP_CLASS_MODULE || f->c.cls == PP_CLASS_SHLIB))
			unversioned |= unversioned_library(s, f, overrides);
		if (f->c.cls != PP_CLASS_SHLIB)
			continue;
		dir = pp_dirname(f->path);
		shlibs_dep(s, p, up, dir, f->c.soname, &dep);
		alt_lib |= pp_split_alt_libdir_of(s, p->variant, dir);
		linker_lib |= pp_is_public_libdir(dir);
		if (pp_split_public_libdir(s, dir) &&
		    pp_shlibs_line(f->c.soname, dep.buf, &shlibs) == 0 &&
		    !pp_split_alt_libdir(s, dir) &&
		    !pp_symbols_mostly_cxx(f->c.elf))
			pp_symbols_write(f->c.soname, p->base,
					 dev_package_of(s, p), f->c.elf, up,
					 &symbols);
		free(dir);
	}
	if (shlibs.len)
		library_overrides(s, p, linker_lib, alt_lib, overrides);
	if (shlibs.len && rc == 0)
		rc = pp_split_write_ctrl(root, "shlibs", shlibs.buf, 0644,
					 s->opts.timestamp, err);
	if (shlibs.len && rc == 0 && symbols.len)
		rc = pp_split_write_ctrl(root, "symbols", symbols.buf, 0644,
					 s->opts.timestamp, err);
	/* none for a library in a directory of its own whose variant
	 * registers no alternative: no link to cache */
	if (rc == 0 && ((shlibs.len && (linker_lib || alt_lib)) ||
			unversioned))
		rc = pp_split_write_ctrl(root, "triggers", "# Triggers added "
					 "by padpack split\nactivate-noawait "
					 "ldconfig\n", 0644, s->opts.timestamp,
					 err);
	free(up);
	strbuf_release(&shlibs);
	strbuf_release(&symbols);
	strbuf_release(&dep);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* dh_md5sums: every regular file but the conffiles (dpkg keeps their
 * sums in its database already), sorted by path. */
static int md5sums_without(const char *root, const struct pp_strlist *conf,
			   time_t t, struct pp_err *err)
{
	struct pp_tree tree = { 0 };
	struct pp_strlist lines = PP_STRLIST_INIT;
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	unsigned char md5[PP_HASH_MAX];
	char hex[2 * PP_HASH_MAX + 1];
	int rc = pp_tree_walk(root, "DEBIAN", &tree, err);

	for (size_t i = 0; rc == 0 && i < tree.nr; i++) {
		const struct pp_tree_entry *e = &tree.e[i];

		if (!S_ISREG(e->st.st_mode))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "/%s", e->path);
		if (pp_strlist_find(conf, path.buf) >= 0)
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", root, e->path);
		rc = pp_split_hash_file(path.buf, PP_MD5, md5, err);
		pp_hex(md5, 16, hex);
		if (rc == 0)
			pp_strlist_pushf(&lines, "%s  %s\n", hex, e->path);
	}
	if (lines.nr)
		qsort(lines.items, lines.nr, sizeof(char *), cmp_str);
	for (size_t i = 0; i < lines.nr; i++)
		strbuf_addstr(&text, lines.items[i]);
	if (rc == 0)
		rc = pp_split_write_ctrl(root, "md5sums", text.buf, 0644, t, err);
	pp_tree_release(&tree);
	pp_strlist_release(&lines);
	strbuf_release(&path);
	strbuf_release(&text);
	return rc;
}

/* dh_installdeb: every file under /etc is a conffile. */
static int conffiles(const struct pp_split *s, size_t pkg, const char *root,
		     struct pp_err *err)
{
	const struct pp_split_pkg *p = &s->pkgs[pkg];
	struct pp_strlist conf = PP_STRLIST_INIT;
	struct strbuf text = STRBUF_INIT;
	int rc = 0;

	for (size_t i = 0; i < p->nr_files; i++) {
		const struct pp_split_file *f = pp_split_at(s, p->files[i]);

		if (S_ISREG(f->st.st_mode) && !strncmp(f->path, "etc/", 4))
			pp_strlist_pushf(&conf, "/%s", f->path);
	}
	for (size_t i = 0; i < conf.nr; i++)
		strbuf_addf(&text, "%s\n", conf.items[i]);
	if (conf.nr) {
		rc = pp_split_write_ctrl(root, "conffiles", text.buf, 0644,
					 s->opts.timestamp, err);
		if (rc == 0)
			rc = md5sums_without(root, &conf, s->opts.timestamp,
					     err);
	}
	pp_strlist_release(&conf);
	strbuf_release(&text);
	return rc;
}

/* ---- one package ------------------------------------------------------ */

/* Every directory of the tree gets the run's time: dpkg-deb keeps older
 * times, so without this the packed bytes would depend on the clock. */
static int settle_dirs(const char *root, time_t t, struct pp_err *err)
{
	struct pp_tree tree = { 0 };
	struct strbuf path = STRBUF_INIT;
	int rc = pp_tree_walk(root, NULL, &tree, err);

	for (size_t i = 0; rc == 0 && i < tree.nr; i++) {
		if (!S_ISDIR(tree.e[i].st.st_mode))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s%s%s", root, *tree.e[i].path ? "/" : "",
			    tree.e[i].path);
		if (chmod(path.buf, 0755) < 0)
			rc = pp_err_errno(err, PP_EXIT_IO, "chmod '%s'", path.buf);
		else
			rc = pp_split_set_mtime(path.buf, t, err);
	}
	strbuf_release(&path);
	pp_tree_release(&tree);
	return rc;
}

static int build_tree(struct pp_split *s, size_t pkg, struct pp_err *err)
{
	const struct pp_split_pkg *p = &s->pkgs[pkg];
	char *root = pkg_root(s, pkg);
	struct strbuf debian = STRBUF_INIT, overrides = STRBUF_INIT;
	int rc;

	strbuf_addf(&debian, "%s/DEBIAN", root);
	rc = pp_mkdir_p(debian.buf, 0755, err);
	for (size_t i = 0; rc == 0 && i < p->nr_files; i++) {
		long first = linked_earlier(s, p, i);

		rc = first >= 0 ? link_file(s, pkg, p->files[first],
					    p->files[i], root, err) :
		     copy_file(s, pkg, p->files[i], root, err);
	}
	for (size_t i = 0; rc == 0 && i < p->alt_dirs.nr; i++) {
		struct strbuf dir = STRBUF_INIT;

		strbuf_addf(&dir, "%s/%s", root, p->alt_dirs.items[i]);
		rc = pp_mkdir_p(dir.buf, 0755, err);
		strbuf_release(&dir);
	}
	if (rc == 0)
		rc = add_docs(s, pkg, root, err);
	if (rc == 0 && p->role != PP_ROLE_DBGSYM)
		rc = library_files(s, pkg, root, &overrides, err);
	if (rc == 0) {
		isa_override(s, p, &overrides);
		rc = spec_overrides(s, p, &overrides, err);
	}
	if (rc == 0)
		rc = write_overrides(s, p, root, &overrides, err);
	if (rc == 0)
		rc = conffiles(s, pkg, root, err);
	strbuf_release(&overrides);
	strbuf_release(&debian);
	free(root);
	return rc;
}

/* ---- the control file and the .deb (relations: split-relations.c) -- */

/* The Python 3 versions an extension module is built for, as dh_python3
 * records them: _x.cpython-311-x86_64-linux-gnu.so -> 3.11; and
 * python3:any for modules in Python (python3-libxml2 has both). */
static void python_deps(const struct pp_split *s, const struct pp_split_pkg *p,
			struct pp_strlist *rel)
{
	int ext = 0, source = 0;

	for (size_t i = 0; i < p->nr_files; i++) {
		const struct pp_split_file *f = pp_split_at(s, p->files[i]);
		const char *tag = strstr(f->path, ".cpython-3");
		size_t n = strlen(f->path);
		unsigned minor;

		if (!ext && tag && sscanf(tag, ".cpython-3%u", &minor) == 1) {
			pp_strlist_pushf(rel, "python3 (<< 3.%u)", minor + 1);
			pp_strlist_pushf(rel, "python3 (>= 3.%u~)", minor);
			ext = 1;
		}
		if (!f->c.elf && n > 3 && !strcmp(f->path + n - 3, ".py"))
			source = 1;
	}
	if (source || !ext)
		pp_strlist_push(rel, "python3:any");
}

static int has_python_script(const struct pp_split *s,
			     const struct pp_split_pkg *p)
{
	for (size_t i = 0; i < p->nr_files; i++)
		if (pp_split_at(s, p->files[i])->python_shebang)
			return 1;
	return 0;
}

/* DEPS: the package's shared-library dependencies (dpkg-shlibdeps'). */
static int control(struct pp_split *s, const struct pp_shlibdeps *deps,
		   size_t pkg, struct pp_err *err)
{
	struct pp_strlist rel = PP_STRLIST_INIT;
	struct strbuf depends = STRBUF_INIT;
	char *root = pkg_root(s, pkg), *joined;
	int rc = 0;

	pp_shlibdeps_format(deps, &depends);
	pp_split_run_relations(s, pkg, &rel, NULL);
	if (s->pkgs[pkg].role == PP_ROLE_DEV)
		rc = pp_split_dev_depends(s, pkg, &rel, NULL, err);
	if (s->pkgs[pkg].role == PP_ROLE_PYTHON)
		python_deps(s, &s->pkgs[pkg], &rel);
	else if (has_python_script(s, &s->pkgs[pkg]))
		pp_strlist_push(&rel, "python3:any");
	joined = pp_strlist_join(&rel, ", ");
	if (*joined)
		strbuf_addf(&depends, "%s%s", depends.len ? ", " : "", joined);
	free(joined);
	if (rc == 0)
		rc = pp_split_control(s, pkg, depends.buf, root, err);
	if (rc == 0)
		rc = pp_split_maint_scripts(s, pkg, root, err);
	if (rc == 0)
		rc = settle_dirs(root, s->opts.timestamp, err);
	pp_strlist_release(&rel);
	strbuf_release(&depends);
	free(root);
	return rc;
}

/* Where the packs write: a directory in the output directory, so that
 * no package takes its name there before every package is made (a split
 * that fails leaves none behind, nor half of the set). */
static char *packed_dir(const struct pp_split *s)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/.padpack-split.tmp", s->opts.out_dir);
	return strbuf_detach(&sb, NULL);
}

static int pack(struct pp_split *s, size_t pkg, int threads,
		struct pp_err *err)
{
	struct pp_pack_opts o = { s->opts.comp, s->opts.timestamp, NULL };
	char *root = pkg_root(s, pkg), *dir = packed_dir(s), *written = NULL;
	const char *base;
	int rc;

	o.comp.threads = threads; /* the bytes do not depend on it */
	rc = pp_deb_pack(root, dir, &o, &written, err);

	if (rc == 0) {
		base = strrchr(written, '/');
		s->pkgs[pkg].deb = xstrdup(base ? base + 1 : written);
	} else {
		pp_err_prefix(err, "package %s: ", s->pkgs[pkg].name);
	}
	free(written);
	free(root);
	free(dir);
	return rc;
}

/* A failed run: the packages made go. */
static void drop_packed(const struct pp_split *s)
{
	char *dir = packed_dir(s);
	struct pp_err ignored;

	pp_err_init(&ignored);
	pp_remove_tree(dir, &ignored);
	pp_err_release(&ignored);
	free(dir);
}

/* Every package made: each to its name in the output directory. */
static int publish_packed(struct pp_split *s, struct pp_err *err)
{
	char *dir = packed_dir(s);
	struct strbuf from = STRBUF_INIT, to = STRBUF_INIT;
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < s->nr_pkgs; i++) {
		strbuf_reset(&from);
		strbuf_reset(&to);
		strbuf_addf(&from, "%s/%s", dir, s->pkgs[i].deb);
		strbuf_addf(&to, "%s/%s", s->opts.out_dir, s->pkgs[i].deb);
		if (rename(from.buf, to.buf) < 0)
			rc = pp_err_errno(err, PP_EXIT_IO, "cannot rename '%s' "
					  "to '%s'", from.buf, to.buf);
	}
	if (rc == 0 && rmdir(dir) < 0)
		rc = pp_err_errno(err, PP_EXIT_IO, "cannot remove '%s'", dir);
	strbuf_release(&from);
	strbuf_release(&to);
	free(dir);
	return rc;
}

/* ---- the run ---------------------------------------------------------- */

/* Removes what the previous run wrote: the files its SHA256SUMS lists. */
static int remove_previous(const struct pp_split *s, struct pp_err *err)
{
	struct strbuf sums = STRBUF_INIT, path = STRBUF_INIT;
	struct pp_err none;
	char *save = NULL, *line;

	pp_err_init(&none);
	strbuf_addf(&path, "%s/SHA256SUMS", s->opts.out_dir);
	if (pp_read_file(path.buf, &sums, &none) < 0) {
		pp_err_release(&none);
		strbuf_release(&path);
		return 0;
	}
	pp_err_release(&none);
	for (line = strtok_r(sums.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *name = strstr(line, "  ");

		if (!name || strchr(name + 2, '/') || !name[2])
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", s->opts.out_dir, name + 2);
		if (unlink(path.buf) < 0 && errno != ENOENT) {
			pp_err_errno(err, PP_EXIT_IO, "cannot remove '%s'",
				     path.buf);
			strbuf_release(&sums);
			strbuf_release(&path);
			return -1;
		}
	}
	strbuf_release(&sums);
	strbuf_release(&path);
	return 0;
}

static int prepare_dirs(const struct pp_split *s, struct pp_err *err)
{
	char *packed = packed_dir(s);
	int rc = 0;

	if (pp_remove_tree(s->opts.work_dir, err) < 0 ||
	    pp_mkdir_p(s->opts.work_dir, 0755, err) < 0 ||
	    pp_remove_tree(packed, err) < 0 ||
	    pp_mkdir_p(packed, 0755, err) < 0)
		rc = -1;
	free(packed);
	return rc < 0 ? -1 : remove_previous(s, err);
}

/* The -dbgsym packages' Build-Ids, in the order of their packages'
 * files (from the staged files' ELF data: known before any tree is
 * built). */
static void collect_build_ids(struct pp_split *s)
{
	for (size_t i = 0; i < s->nr_pkgs; i++) {
		const struct pp_split_pkg *p = &s->pkgs[i];
		long dbg = dbgsym_of(s, i);

		for (size_t j = 0; dbg >= 0 && j < p->nr_files; j++) {
			const struct pp_split_file *f = pp_split_at(s, p->files[j]);
			struct pp_strlist *ids = &s->pkgs[dbg].build_ids;

			if (S_ISREG(f->st.st_mode) &&
			    !pp_split_compressed_doc(f->path,
						     (uint64_t)f->st.st_size) &&
			    f->c.cls != PP_CLASS_STATIC && has_debug_info(f) &&
			    f->c.elf->build_id[0] &&
			    pp_strlist_find(ids, f->c.elf->build_id) < 0)
				pp_strlist_push(ids, f->c.elf->build_id);
		}
	}
}

/* The bytes of a built tree: what its pack will compress. */
static unsigned long long tree_bytes(const struct pp_split *s, size_t pkg)
{
	struct pp_tree tree = { 0 };
	struct pp_err ignored;
	char *root = pkg_root(s, pkg);
	unsigned long long n = 0;

	pp_err_init(&ignored);
	if (pp_tree_walk(root, NULL, &tree, &ignored) == 0)
		for (size_t i = 0; i < tree.nr; i++)
			if (S_ISREG(tree.e[i].st.st_mode))
				n += (unsigned long long)tree.e[i].st.st_size;
	pp_err_release(&ignored);
	pp_tree_release(&tree);
	free(root);
	return n;
}

/* The pipeline: each worker takes the steps the schedule gives, a
 * package's tree or its control data and .deb; what each step reports
 * is kept by package and phase, and gathered in that order after, so
 * that what is printed depends on neither the workers nor the timing. */
struct pipeline {
	struct pp_split_sched sched;
	pthread_mutex_t control_lock; /* control data, one package at a time */
	struct pp_shlibdeps *deps;    /* a package: its shared libraries' */
	struct pp_err deps_err;
	struct pp_err *build_errs, *control_errs, *pack_errs; /* a package */
};

static int build_step(struct pipeline *pl, size_t pkg)
{
	struct pp_split *s = pl->sched.s;
	long dbg = dbgsym_of(s, pkg);
	int rc;

	pp_progress_add(s->opts.progress, 0, s->pkgs[pkg].name);
	rc = build_tree(s, pkg, &pl->build_errs[pkg]);
	if (rc == 0)
		pl->sched.weight[pkg] = tree_bytes(s, pkg);
	if (rc == 0 && dbg >= 0)
		pl->sched.weight[dbg] = tree_bytes(s, (size_t)dbg);
	return rc;
}

/* Every package's shared-library dependencies, in package order (the
 * first that cannot be resolved is the error, whatever the timing),
 * while the first trees are built. */
static int deps_step(struct pipeline *pl)
{
	struct pp_split *s = pl->sched.s;
	struct pp_shlibs_ctx *ctx = pp_shlibs_ctx_new(s, &pl->deps_err);
	int rc = ctx ? 0 : -1;

	for (size_t i = 0; rc == 0 && i < s->nr_pkgs; i++)
		rc = pp_shlibdeps_package(ctx, s, i, &pl->deps[i],
					  &pl->deps_err);
	pp_shlibs_ctx_free(ctx);
	return rc;
}

static int control_step(struct pipeline *pl, size_t pkg)
{
	struct pp_split *s = pl->sched.s;
	int rc;

	pthread_mutex_lock(&pl->control_lock);
	rc = control(s, &pl->deps[pkg], pkg, &pl->control_errs[pkg]);
	pthread_mutex_unlock(&pl->control_lock);
	return rc;
}

static int pack_step(struct pipeline *pl, const struct pp_split_step *step)
{
	struct pp_split *s = pl->sched.s;
	struct pp_err *err = &pl->pack_errs[step->pkg];
	int rc = control_step(pl, step->pkg);

	if (rc == 0)
		rc = pack(s, step->pkg, step->threads, err);
	if (rc == 0)
		pp_progress_add(s->opts.progress, 1, s->pkgs[step->pkg].name);
	return rc;
}

static void *pipeline_worker(void *arg)
{
	struct pipeline *pl = arg;
	struct pp_split_step step;

	while (pp_split_sched_next(&pl->sched, &step)) {
		int rc = step.kind == PP_SPLIT_DEPS ? deps_step(pl) :
			 step.kind == PP_SPLIT_BUILD ?
			 build_step(pl, step.pkg) : pack_step(pl, &step);

		pp_split_sched_done(&pl->sched, &step, rc);
	}
	return NULL;
}

/* Warnings of every step, then the first error, into err. */
static int gather(struct pp_err *errs, size_t n, int rc, struct pp_err *err)
{
	for (size_t i = 0; i < n; i++) {
		struct pp_err *e = &errs[i];

		if (e->code != PP_EXIT_OK && rc == 0)
			rc = pp_err_move(err, e); /* its warnings too */
		else
			strbuf_add(&err->warnings, e->warnings.buf,
				   e->warnings.len);
		pp_err_release(e);
	}
	return rc;
}

static struct pp_err *new_errs(size_t n)
{
	struct pp_err *errs = xcalloc(n ? n : 1, sizeof(*errs));

	for (size_t i = 0; i < n; i++)
		pp_err_init(&errs[i]);
	return errs;
}

/* Every package built and packed; the builds' warnings and first error
 * come first, then the dependencies' and control data's, then the
 * packs'. */
static int run_pipeline(struct pp_split *s, struct pp_err *err)
{
	struct pipeline pl = { .deps = NULL };
	pthread_t *tids;
	size_t started = 0;
	int rc;

	pp_split_sched_init(&pl.sched, s);
	pthread_mutex_init(&pl.control_lock, NULL);
	pl.deps = xcalloc(s->nr_pkgs + 1, sizeof(*pl.deps));
	pp_err_init(&pl.deps_err);
	pl.build_errs = new_errs(s->nr_pkgs);
	pl.control_errs = new_errs(s->nr_pkgs);
	pl.pack_errs = new_errs(s->nr_pkgs);
	tids = xcalloc(pl.sched.workers, sizeof(*tids));
	/* the caller is a worker too; the others are threads */
	for (size_t i = 1; i < pl.sched.workers; i++)
		if (pp_thread_start(&tids[started], pipeline_worker, &pl) == 0)
			started++;
	pipeline_worker(&pl);
	for (size_t i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	rc = gather(pl.build_errs, s->nr_pkgs, 0, err);
	rc = gather(&pl.deps_err, 1, rc, err);
	rc = gather(pl.control_errs, s->nr_pkgs, rc, err);
	rc = gather(pl.pack_errs, s->nr_pkgs, rc, err);
	free(pl.build_errs);
	free(pl.control_errs);
	free(pl.pack_errs);
	if (pl.sched.nr_alone)
		pp_warn(err, "padpack split: the compressor of %zu package%s "
			"takes %.1f MiB, over the memory limit of %.1f MiB: "
			"each was packed with no other beside it",
			pl.sched.nr_alone, pl.sched.nr_alone == 1 ? "" : "s",
			(double)pl.sched.alone_memory / (1 << 20),
			(double)s->opts.mem_limit / (1 << 20));
	for (size_t i = 0; i < s->nr_pkgs; i++)
		pp_shlibdeps_release(&pl.deps[i]);
	free(pl.deps);
	pthread_mutex_destroy(&pl.control_lock);
	pp_split_sched_release(&pl.sched);
	free(tids);
	return rc;
}

static int split_run_locked(struct pp_split *s, struct pp_err *err);

/* Two splits into one work directory would pack each other's files:
 * the second waits for the first (WORK.lock beside it). */
int pp_split_run(struct pp_split *s, struct pp_err *err)
{
	struct strbuf lock = STRBUF_INIT;
	char *parent = xstrdup(s->opts.work_dir), *slash = strrchr(parent, '/');
	int fd = -1, rc;

	if (slash && slash != parent)
		*slash = '\0';
	strbuf_addf(&lock, "%s.lock", s->opts.work_dir);
	rc = slash && slash != parent ? pp_mkdir_p(parent, 0755, err) : 0;
	if (rc == 0)
		rc = (fd = pp_lock_path(lock.buf, err)) < 0 ? -1 : 0;
	if (rc == 0)
		rc = split_run_locked(s, err);
	if (fd >= 0)
		close(fd);
	strbuf_release(&lock);
	free(parent);
	return rc;
}

static int split_run_locked(struct pp_split *s, struct pp_err *err)
{
	int rc = pp_split_isa_check(s, err);

	int prepared;

	/* nothing is written, nor removed, when the proof fails */
	if (rc == 0)
		rc = prepare_dirs(s, err);
	prepared = rc == 0;

	/* -dbgsym trees fill while their packages' binaries are stripped */
	for (size_t i = 0; rc == 0 && i < s->nr_pkgs; i++)
		if (s->pkgs[i].role == PP_ROLE_DBGSYM) {
			char *root = pkg_root(s, i);
			struct strbuf d = STRBUF_INIT;

			strbuf_addf(&d, "%s/DEBIAN", root);
			rc = pp_mkdir_p(d.buf, 0755, err);
			if (rc == 0)
				rc = add_docs(s, i, root, err);
			strbuf_release(&d);
			free(root);
		}
	if (rc == 0)
		collect_build_ids(s);
	pp_progress_task(s->opts.progress, "building and packing", s->nr_pkgs,
			 "packages");
	if (rc == 0)
		rc = run_pipeline(s, err);
	if (rc == 0)
		rc = publish_packed(s, err);
	else if (prepared)
		drop_packed(s);
	for (size_t i = 0; rc == 0 && i < s->nr_pkgs; i++)
		pp_strlist_push(&s->written, s->pkgs[i].deb);
	if (rc == 0)
		rc = pp_split_write_changes(s, err);
	return rc;
}
