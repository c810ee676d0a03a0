/* Extracting a tar member to disk without ever writing outside the target
 * directory, and refusing what is dangerous or ambiguous before writing
 * it: names that leave the target, paths given twice, absurd names,
 * devices, sizes past the limits (deb.h). */
#include "deb.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "debint.h"
#include "fsutil.h"
#include "hindex.h"
#include "xalloc.h"

#define NAME_MAX_BYTES 4095 /* PATH_MAX less its NUL: longer is absurd */
#define DEPTH_MAX 256       /* components of one name */

/* An entry already extracted: its name relative to the target and type. */
struct seen {
	char *name;
	mode_t type;
};

struct extract {
	struct pp_deb *deb;
	const struct pp_ar_member *m;
	const struct pp_extract_opts *opts;
	char *root;          /* canonical target directory */
	struct archive *disk;
	struct seen *seen;
	size_t nr, alloc;
	struct pp_hindex index; /* over seen, by name */
	int64_t total;       /* bytes of the regular files so far */
	struct strbuf full;
	struct pp_err *err;
};

/* A name fit for a one-line message: control characters escaped, an
 * absurdly long one abridged. */
static void quote_name(const char *name, struct strbuf *out)
{
	size_t len = strlen(name), show = len > 200 ? 100 : len;

	for (size_t i = 0; i < show; i++) {
		unsigned char c = (unsigned char)name[i];

		if (c == '\n')
			strbuf_addstr(out, "\\n");
		else if (c < 0x20 || c == 0x7f)
			strbuf_addf(out, "\\%03o", c);
		else
			strbuf_addch(out, (char)c);
	}
	if (show < len)
		strbuf_addf(out, "... (%zu bytes)", len);
}

static int refuse(struct extract *x, const char *name, const char *why)
{
	struct strbuf q = STRBUF_INIT;

	quote_name(name, &q);
	pp_err_set(x->err, PP_EXIT_INPUT, "'%s': member '%s': entry '%s' %s; "
		   "refusing to extract it (nothing was written for it)",
		   x->deb->ar.path, x->m->name, q.buf, why);
	strbuf_release(&q);
	return -1;
}

static const char *type_name(mode_t type)
{
	return S_ISDIR(type) ? "directory" : S_ISLNK(type) ? "symbolic link" :
	       S_ISFIFO(type) ? "FIFO" : "file";
}

struct seen_key {
	const struct extract *x;
	const char *name;
};

static int seen_eq(const void *ctx, size_t pos)
{
	const struct seen_key *k = ctx;

	return !strcmp(k->x->seen[pos].name, k->name);
}

static const struct seen *find_seen(const struct extract *x, const char *name)
{
	struct seen_key k = { x, name };
	size_t pos = pp_hindex_find(&x->index, pp_hindex_hash(name,
				    PP_HINDEX_SEED), seen_eq, &k);

	return pos == PP_HINDEX_NONE ? NULL : &x->seen[pos];
}

static void add_seen(struct extract *x, const char *name, mode_t type)
{
	ARRAY_GROW(x->seen, x->alloc, x->nr + 1);
	x->seen[x->nr].name = xstrdup(name);
	x->seen[x->nr].type = type;
	pp_hindex_add(&x->index, pp_hindex_hash(name, PP_HINDEX_SEED), x->nr);
	x->nr++;
}

/* The one spelling of a name: no empty or "." components, so that
 * "a//b", "a/./b" and "a/b/" are all "a/b" (new string). */
static char *path_key(const char *rel)
{
	struct strbuf key = STRBUF_INIT;

	for (const char *p = rel; *p; ) {
		size_t n = strcspn(p, "/");

		if (n && !(n == 1 && *p == '.')) {
			if (key.len)
				strbuf_addch(&key, '/');
			strbuf_add(&key, p, n);
		}
		p += n;
		while (*p == '/')
			p++;
	}
	return strbuf_detach(&key, NULL);
}

/* No component above the entry may be a symbolic link on disk. */
static int check_parents(struct extract *x, const char *orig,
			 const char *rel)
{
	struct stat st;

	strbuf_reset(&x->full);
	strbuf_addstr(&x->full, x->root);
	for (const char *p = rel; ; ) {
		const char *slash = strchr(p, '/');

		if (!slash || !slash[1])
			return 0;
		strbuf_addch(&x->full, '/');
		strbuf_add(&x->full, p, (size_t)(slash - p));
		if (lstat(x->full.buf, &st) == 0 && S_ISLNK(st.st_mode))
			return refuse(x, orig, "would be written through a "
				      "symbolic link");
		p = slash + 1;
	}
}

/* Names no package needs and that tools downstream would misread. */
static int check_name(struct extract *x, struct archive_entry *ae,
		      const char *orig, const char *rel)
{
	const char *target = archive_entry_symlink(ae);
	size_t depth = 1;

	if (strchr(orig, '\n'))
		return refuse(x, orig, "has a newline in its name");
	if (strlen(orig) > NAME_MAX_BYTES)
		return refuse(x, orig, "has a name longer than 4095 bytes");
	if (target && strlen(target) > NAME_MAX_BYTES)
		return refuse(x, orig, "is a symbolic link to a name longer "
			      "than 4095 bytes");
	for (const char *p = rel; *p; p++)
		depth += *p == '/' && p[1] && p[1] != '/';
	if (depth > DEPTH_MAX)
		return refuse(x, orig, "is nested more than 256 directories "
			      "deep");
	return 0;
}

/* One name, one entry: a second entry for a path (other than a directory
 * given again) makes what is extracted depend on the order. */
static int check_unique(struct extract *x, const char *orig, const char *key,
			mode_t type)
{
	const struct seen *s = find_seen(x, key);
	char why[128];

	if (!s || (S_ISDIR(s->type) && S_ISDIR(type)))
		return 0;
	snprintf(why, sizeof(why), "names a path given earlier in the archive "
		 "(first as a %s, now as a %s)", type_name(s->type),
		 type_name(type));
	return refuse(x, orig, why);
}

/* Nothing may lie under a path the archive gave as other than a
 * directory (a symbolic link is also refused on disk: check_parents). */
static int check_under(struct extract *x, const char *orig, const char *key)
{
	struct strbuf parent = STRBUF_INIT;
	char why[96];
	int rc = 0;

	for (const char *slash = strchr(key, '/'); slash && !rc;
	     slash = strchr(slash + 1, '/')) {
		const struct seen *s;

		strbuf_reset(&parent);
		strbuf_add(&parent, key, (size_t)(slash - key));
		s = find_seen(x, parent.buf);
		if (s && !S_ISDIR(s->type)) {
			snprintf(why, sizeof(why), "lies under a path the "
				 "archive gave as a %s", type_name(s->type));
			rc = refuse(x, orig, why);
		}
	}
	strbuf_release(&parent);
	return rc;
}

static int check_hardlink(struct extract *x, struct archive_entry *ae,
			  const char *orig)
{
	const char *why = "", *target = archive_entry_hardlink(ae);
	const char *rel = pp_deb_relative_name(target, &why);
	const struct seen *s;
	char *key;

	if (!rel)
		return refuse(x, orig, "is a hard link to a path that "
			      "would lie outside the target");
	key = path_key(rel);
	s = find_seen(x, key);
	strbuf_reset(&x->full);
	strbuf_addf(&x->full, "%s/%s", x->root, key);
	free(key);
	if (!s || !S_ISREG(s->type))
		return refuse(x, orig, "is a hard link to something that is "
			      "not a file extracted before it");
	archive_entry_set_hardlink(ae, x->full.buf);
	return 0;
}

static int check_type(struct extract *x, struct archive_entry *ae,
		      const char *orig)
{
	mode_t mode = archive_entry_mode(ae);

	if (archive_entry_hardlink(ae))
		return check_hardlink(x, ae, orig);
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return refuse(x, orig, "is a device node");
	if (!S_ISREG(mode) && !S_ISDIR(mode) && !S_ISLNK(mode) &&
	    !S_ISFIFO(mode))
		return refuse(x, orig, "is a socket or of an unknown type");
	return 0;
}

static int64_t free_bytes(const char *dir)
{
	struct statvfs vfs;

	if (statvfs(dir, &vfs) < 0)
		return -1;
	return (int64_t)vfs.f_bavail * (int64_t)vfs.f_frsize;
}

/* Before a file is written: within the package's limit and the free
 * space of the target's filesystem. */
static int check_size(struct extract *x, const char *orig, int64_t size)
{
	int64_t avail = free_bytes(x->root);
	char why[256];

	/* a tar header's size field can say anything, a negative size or
	 * one that would overflow the running total included */
	if (size < 0)
		return refuse(x, orig, "declares a negative size");
	x->total = size > INT64_MAX - x->total ? INT64_MAX : x->total + size;
	if (x->opts->max_bytes >= 0 && x->total > x->opts->max_bytes) {
		snprintf(why, sizeof(why), "declares %lld bytes, which brings "
			 "the files to %lld bytes, past the limit of %lld (%s)",
			 (long long)size, (long long)x->total,
			 (long long)x->opts->max_bytes, x->opts->limit_why);
		return refuse(x, orig, why);
	}
	if (avail >= 0 && size > avail) {
		snprintf(why, sizeof(why), "declares %lld bytes but the "
			 "filesystem of the target has %lld free",
			 (long long)size, (long long)avail);
		return refuse(x, orig, why);
	}
	return 0;
}

static int check_entry(struct extract *x, struct archive_entry *ae,
		       const char **relp)
{
	const char *orig = archive_entry_pathname(ae), *why = "";
	const char *rel = orig ? pp_deb_relative_name(orig, &why) : NULL;
	mode_t mode = archive_entry_mode(ae);

	if (!orig)
		return refuse(x, "", "has no name");
	if (!rel)
		return refuse(x, orig, why);
	if (check_name(x, ae, orig, rel) < 0 || check_type(x, ae, orig) < 0 ||
	    check_parents(x, orig, rel) < 0)
		return -1;
	if (S_ISREG(mode) && !archive_entry_hardlink(ae) &&
	    check_size(x, orig, archive_entry_size(ae)) < 0)
		return -1;
	*relp = rel;
	return 0;
}

/* Set-id bits would hand the package's privileges to whoever runs the
 * file; kept only when asked, and each drop is said. */
static void drop_setid(struct extract *x, struct archive_entry *ae,
		       const char *orig)
{
	mode_t mode = archive_entry_mode(ae);

	if (x->opts->preserve_special || !(mode & (S_ISUID | S_ISGID)) ||
	    archive_entry_hardlink(ae))
		return;
	archive_entry_set_mode(ae, mode & ~(mode_t)(S_ISUID | S_ISGID));
	pp_warn(x->err, "padpack: warning: '%s': dropped the %s bit%s of '%s' "
		"(mode %04o, extracted as %04o); --preserve-special keeps "
		"them", x->deb->ar.path,
		(mode & S_ISUID) && (mode & S_ISGID) ? "setuid and setgid" :
		(mode & S_ISUID) ? "setuid" : "setgid",
		(mode & S_ISUID) && (mode & S_ISGID) ? "s" : "",
		orig, (unsigned)(mode & 07777),
		(unsigned)(mode & 01777));
}

/* A write that failed for lack of room says which limit it met. */
static int write_failed(struct extract *x, const char *orig, const char *path)
{
	int e = archive_errno(x->disk);
	struct rlimit rl;
	char limit[96] = "";

	if (unlink(path) < 0 && errno != ENOENT)
		pp_warn(x->err, "padpack: warning: cannot remove the partly "
			"written '%s'", path);
	if (e == EFBIG && getrlimit(RLIMIT_FSIZE, &rl) == 0 &&
	    rl.rlim_cur != RLIM_INFINITY)
		snprintf(limit, sizeof(limit), " (the file size limit, ulimit "
			 "-f, is %llu bytes)", (unsigned long long)rl.rlim_cur);
	return pp_err_set(x->err, PP_EXIT_IO, "'%s': member '%s': cannot "
			  "write entry '%s' to '%s': %s%s; the partly written "
			  "file was removed", x->deb->ar.path, x->m->name, orig,
			  path, e ? strerror(e) : archive_error_string(x->disk),
			  limit);
}

static int copy_data(struct extract *x, struct archive *in, const char *orig,
		     const char *path)
{
	const void *buf;
	size_t len;
	la_int64_t off;
	int r;

	while ((r = archive_read_data_block(in, &buf, &len, &off)) == ARCHIVE_OK)
		if (archive_write_data_block(x->disk, buf, len, off) != ARCHIVE_OK)
			return write_failed(x, orig, path);
	if (r != ARCHIVE_EOF) {
		unlink(path);
		return pp_err_set(x->err, PP_EXIT_INPUT, "'%s': member '%s': "
				  "entry '%s': %s; the package is corrupt (the "
				  "partly written file was removed)",
				  x->deb->ar.path, x->m->name, orig,
				  archive_error_string(in));
	}
	/* The file is complete on disk only once its header is finished. */
	if (archive_write_finish_entry(x->disk) != ARCHIVE_OK)
		return write_failed(x, orig, path);
	return 0;
}

static int write_entry(struct extract *x, struct archive *in,
		       struct archive_entry *ae, const char *orig)
{
	const char *path = x->full.buf;

	if (archive_write_header(x->disk, ae) != ARCHIVE_OK) {
		if (archive_errno(x->disk) == EFBIG ||
		    archive_errno(x->disk) == ENOSPC)
			return write_failed(x, orig, path);
		return pp_err_set(x->err, PP_EXIT_IO, "'%s': member '%s': "
				  "cannot extract entry '%s' to '%s': %s",
				  x->deb->ar.path, x->m->name, orig, path,
				  archive_error_string(x->disk));
	}
	if (S_ISREG(archive_entry_mode(ae)) && !archive_entry_hardlink(ae))
		return copy_data(x, in, orig, path);
	return 0;
}

static int extract_entry(struct extract *x, struct archive *in,
			 struct archive_entry *ae)
{
	const char *rel = NULL, *orig;
	mode_t type = archive_entry_filetype(ae);
	char *name, *pathname;
	int rc;

	if (check_entry(x, ae, &rel) < 0)
		return -1;
	orig = archive_entry_pathname(ae);
	name = path_key(rel);
	pathname = xstrdup(orig);
	if (archive_entry_hardlink(ae))
		type = S_IFREG;
	rc = *name ? check_unique(x, pathname, name, type) :
		!S_ISDIR(type) ? refuse(x, pathname, "stands for the target "
					"directory itself but is not a "
					"directory") : 0;
	if (!rc)
		rc = check_under(x, pathname, name);
	if (!rc) {
		drop_setid(x, ae, pathname);
		strbuf_reset(&x->full);
		strbuf_addf(&x->full, "%s%s%s", x->root, *name ? "/" : "",
			    name);
		archive_entry_set_pathname(ae, x->full.buf);
		rc = write_entry(x, in, ae, pathname);
	}
	if (!rc && *name)
		add_seen(x, name, type);
	free(name);
	free(pathname);
	return rc;
}

static struct archive *disk_writer(const struct pp_extract_opts *opts)
{
	struct archive *disk = archive_write_disk_new();
	int flags = ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_PERM |
		    ARCHIVE_EXTRACT_UNLINK | ARCHIVE_EXTRACT_SECURE_SYMLINKS |
		    ARCHIVE_EXTRACT_SECURE_NODOTDOT;

	/* As dpkg-deb -x: the files belong to whoever extracts them, unless
	 * asked (and allowed) to restore the archive's owners. */
	if (opts->same_owner && geteuid() == 0)
		flags |= ARCHIVE_EXTRACT_OWNER;
	archive_write_disk_set_options(disk, flags);
	return disk;
}

static int extract_all(struct extract *x)
{
	struct archive *in = pp_deb_member_open(x->deb, x->m, x->err);
	struct archive_entry *ae;
	int r = ARCHIVE_OK, rc = 0;

	if (!in)
		return -1;
	while (!rc && (r = archive_read_next_header(in, &ae)) == ARCHIVE_OK)
		rc = extract_entry(x, in, ae);
	if (!rc && r != ARCHIVE_EOF)
		rc = pp_err_set(x->err, PP_EXIT_INPUT, "'%s': member '%s': %s; "
				"the package is corrupt", x->deb->ar.path,
				x->m->name, archive_error_string(in));
	if (archive_write_close(x->disk) != ARCHIVE_OK && !rc)
		rc = pp_err_set(x->err, PP_EXIT_IO, "extracting into '%s': %s",
				x->root, archive_error_string(x->disk));
	archive_read_free(in);
	return rc;
}

int pp_deb_extract(struct pp_deb *deb, const struct pp_ar_member *member,
		   const char *dir, const struct pp_extract_opts *opts,
		   struct pp_err *err)
{
	struct extract x;
	int rc;

	memset(&x, 0, sizeof(x));
	x.deb = deb;
	x.m = member;
	x.opts = opts;
	x.err = err;
	strbuf_init(&x.full);
	pp_hindex_init(&x.index);
	if (pp_mkdir_p(dir, 0755, err) < 0)
		return -1;
	x.root = realpath(dir, NULL);
	if (!x.root)
		return pp_err_errno(err, PP_EXIT_IO, "cannot resolve '%s'", dir);
	x.disk = disk_writer(opts);
	rc = extract_all(&x);
	archive_write_free(x.disk);
	for (size_t i = 0; i < x.nr; i++)
		free(x.seen[i].name);
	free(x.seen);
	pp_hindex_release(&x.index);
	free(x.root);
	strbuf_release(&x.full);
	return rc;
}
