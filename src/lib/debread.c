/* Reading .deb files: the ar structure, and the tar members through
 * libarchive with the decompressor their names call for. */
#include "deb.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "debint.h"
#include "fsutil.h"
#include "xalloc.h"

/* ---- the ar structure ------------------------------------------------- */

static int check_debian_binary(struct pp_deb *deb, const struct pp_ar_member *m,
			       struct pp_err *err)
{
	char buf[64] = { 0 };
	size_t n = m->size < 63 ? (size_t)m->size : 63;
	char *end;
	long major;

	if (strcmp(m->name, "debian-binary"))
		return pp_err_set(err, PP_EXIT_INPUT, "'%s' is not a Debian "
				  "package: its first member is '%s', not "
				  "'debian-binary'", deb->ar.path, m->name);
	if (pp_ar_read(&deb->ar, m, 0, buf, n, err) < 0)
		return -1;
	if (!memchr(buf, '\n', n))
		return pp_err_set(err, PP_EXIT_INPUT, "'%s': debian-binary has no "
				  "newline; the package is corrupt", deb->ar.path);
	major = strtol(buf, &end, 10);
	if (end == buf || *end != '.' || !(end[1] >= '0' && end[1] <= '9'))
		return pp_err_set(err, PP_EXIT_INPUT, "'%s': debian-binary says "
				  "'%.*s', not a format version like '2.0'",
				  deb->ar.path, (int)strcspn(buf, "\n"), buf);
	if (major != 2)
		return pp_err_set(err, PP_EXIT_INPUT, "'%s' is format version "
				  "%ld.x; padpack reads version 2 packages",
				  deb->ar.path, major);
	deb->minor = (int)strtol(end + 1, NULL, 10);
	deb->binary = *m;
	return 0;
}

static int member_ext(const char *name, const char *prefix,
		      const char *const *exts)
{
	size_t n = strlen(prefix);

	if (strncmp(name, prefix, n))
		return -1;
	for (int i = 0; exts[i]; i++)
		if (!strcmp(name + n, exts[i]))
			return i;
	return -2;
}

static const char *const ctrl_exts[] = { "", ".gz", ".xz", ".zst", NULL };
static const char *const data_exts[] = { "", ".gz", ".xz", ".zst", ".bz2",
					 ".lzma", NULL };

/* state: 0 expects control.tar, 1 expects data.tar, 2 after data. */
static int classify(struct pp_deb *deb, const struct pp_ar_member *m,
		    int *state, struct pp_err *err)
{
	const char *want = *state == 0 ? "control.tar" : "data.tar";
	int ext;

	if (*state == 2 && (!strncmp(m->name, "data.tar", 8) ||
			    !strncmp(m->name, "control.tar", 11)))
		return pp_err_set(err, PP_EXIT_INPUT, "'%s' has a second '%.11s' "
				  "member, '%s', after '%s'; which one holds the "
				  "package is ambiguous, so it is refused",
				  deb->ar.path, m->name[0] == 'd' ? "data.tar" :
				  "control.tar", m->name, deb->data.name);
	if (m->name[0] == '_' || *state == 2) {
		if (m->name[0] == '_') {
			ARRAY_GROW(deb->extra, deb->alloc_extra, deb->nr_extra + 1);
			deb->extra[deb->nr_extra++] = *m;
		}
		return 0;
	}
	ext = member_ext(m->name, want, *state == 0 ? ctrl_exts : data_exts);
	if (ext == -2)
		return pp_err_set(err, PP_EXIT_INPUT, "'%s': member '%s' uses a "
				  "compression padpack (and dpkg) cannot read",
				  deb->ar.path, m->name);
	if (ext < 0)
		return pp_err_set(err, PP_EXIT_INPUT, "'%s' has premature member "
				  "'%s' before '%s'; the package is malformed",
				  deb->ar.path, m->name, want);
	if (*state == 0)
		deb->control = *m;
	else
		deb->data = *m;
	(*state)++;
	return 0;
}

/* The old format (dpkg before 0.93.76, 1995) starts with a version line
 * instead of the ar magic. */
static void name_old_format(const char *path, struct pp_err *err)
{
	char head[16] = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (pp_read_full(fd, head, sizeof(head) - 1) > 8 &&
	    !strncmp(head, "0.93", 4) && strchr(head, '\n'))
		pp_err_set(err, PP_EXIT_INPUT, "'%s' is an old-format Debian "
			   "package (format %.*s, which dpkg replaced in 1995), not an ar "
			   "archive; padpack reads only format 2.0 packages "
			   "(dpkg-deb still reads it: rebuild it from what "
			   "dpkg-deb -R extracts)", path,
			   (int)strcspn(head, "\n"), head);
	close(fd);
}

int pp_deb_open(struct pp_deb *deb, const char *path, struct pp_err *err)
{
	struct pp_ar_member m;
	int r, state = 0, first = 1;

	memset(deb, 0, sizeof(*deb));
	deb->ar.fd = -1;
	if (pp_ar_open(&deb->ar, path, err) < 0) {
		if (err->code == PP_EXIT_INPUT)
			name_old_format(path, err);
		return -1;
	}
	while ((r = pp_ar_next(&deb->ar, &m, err)) > 0) {
		if (first ? check_debian_binary(deb, &m, err) < 0 :
		    classify(deb, &m, &state, err) < 0)
			goto fail;
		first = 0;
	}
	if (r < 0)
		goto fail;
	if (first || state < 2) {
		pp_err_set(err, PP_EXIT_INPUT, "'%s' has no %s member; the "
			   "package is truncated or not a .deb", path,
			   first ? "debian-binary" :
			   state == 0 ? "control.tar" : "data.tar");
		goto fail;
	}
	return 0;
fail:
	pp_deb_close(deb);
	return -1;
}

void pp_deb_close(struct pp_deb *deb)
{
	pp_ar_close(&deb->ar);
	free(deb->extra);
	deb->extra = NULL;
	deb->nr_extra = deb->alloc_extra = 0;
}

/* ---- tar members through libarchive ----------------------------------- */

struct member_src {
	struct pp_deb *deb;
	const struct pp_ar_member *m;
	off_t pos;
	struct pp_deb_tap *tap;
	char buf[65536];
	struct pp_err *err;
};

static la_ssize_t member_read(struct archive *a, void *ctx, const void **out)
{
	struct member_src *s = ctx;
	off_t left = s->m->size - s->pos;
	size_t n = left < (off_t)sizeof(s->buf) ? (size_t)left : sizeof(s->buf);

	if (!n)
		return 0;
	if (pp_ar_read(&s->deb->ar, s->m, s->pos, s->buf, n, s->err) < 0) {
		archive_set_error(a, EIO, "%s", s->err->msg);
		return -1;
	}
	s->pos += (off_t)n;
	if (s->tap) {
		s->tap->fn(s->buf, n, s->tap->ctx);
		s->tap->fed += (off_t)n;
	}
	*out = s->buf;
	return (la_ssize_t)n;
}

/* Feeds what the tar reader left unread to the tap. */
static void drain(struct member_src *s)
{
	while (s->pos < s->m->size) {
		off_t left = s->m->size - s->pos;
		size_t n = left < (off_t)sizeof(s->buf) ? (size_t)left :
			sizeof(s->buf);

		if (pp_ar_read(&s->deb->ar, s->m, s->pos, s->buf, n, s->err) < 0)
			return;
		s->pos += (off_t)n;
		s->tap->fn(s->buf, n, s->tap->ctx);
		s->tap->fed += (off_t)n;
	}
}

static int member_close(struct archive *a, void *ctx)
{
	struct member_src *s = ctx;

	(void)a;
	if (s->tap)
		drain(s);
	free(s);
	return ARCHIVE_OK;
}

static void support_filter(struct archive *a, const char *member)
{
	const char *ext = strchr(member, '.');

	ext = ext ? strchr(ext + 1, '.') : NULL; /* after "x.tar" */
	if (!ext)
		return;
	if (!strcmp(ext, ".gz"))
		archive_read_support_filter_gzip(a);
	else if (!strcmp(ext, ".xz"))
		archive_read_support_filter_xz(a);
	else if (!strcmp(ext, ".zst"))
		archive_read_support_filter_zstd(a);
	else if (!strcmp(ext, ".bz2"))
		archive_read_support_filter_bzip2(a);
	else if (!strcmp(ext, ".lzma"))
		archive_read_support_filter_lzma(a);
}

struct archive *pp_deb_member_open(struct pp_deb *deb,
				   const struct pp_ar_member *m,
				   struct pp_err *err)
{
	return pp_deb_member_open_tap(deb, m, NULL, err);
}

struct archive *pp_deb_member_open_tap(struct pp_deb *deb,
				       const struct pp_ar_member *m,
				       struct pp_deb_tap *tap,
				       struct pp_err *err)
{
	struct member_src *src = xmalloc(sizeof(*src));
	struct archive *a = archive_read_new();

	/* Only the decompressor the member's name calls for, as dpkg. */
	support_filter(a, m->name);
	archive_read_support_format_tar(a);
	archive_read_support_format_gnutar(a);
	src->deb = deb;
	src->m = m;
	src->pos = 0;
	src->tap = tap;
	src->err = err;
	if (archive_read_open(a, src, NULL, member_read, member_close) !=
	    ARCHIVE_OK) {
		if (!err->code)
			pp_err_set(err, PP_EXIT_INPUT, "'%s': member '%s' is not a "
				   "tar archive compressed as its name says (%s); "
				   "the package is corrupt", deb->ar.path, m->name,
				   archive_error_string(a));
		archive_read_free(a);
		return NULL;
	}
	return a;
}

static int member_fail(struct pp_deb *deb, const struct pp_ar_member *m,
		       struct archive *a, struct pp_err *err)
{
	if (err->code)
		return -1;
	return pp_err_set(err, PP_EXIT_INPUT, "'%s': member '%s': %s; the "
			  "package is corrupt", deb->ar.path, m->name,
			  archive_error_string(a));
}

static void fill_entry(struct pp_tar_entry *te, struct archive_entry *ae)
{
	memset(te, 0, sizeof(*te));
	te->path = archive_entry_pathname(ae);
	te->mode = archive_entry_mode(ae);
	te->size = archive_entry_size(ae);
	te->mtime = archive_entry_mtime(ae);
	te->uname = archive_entry_uname(ae);
	te->gname = archive_entry_gname(ae);
	te->uid = archive_entry_uid(ae);
	te->gid = archive_entry_gid(ae);
	te->symlink = archive_entry_symlink(ae);
	te->hardlink = archive_entry_hardlink(ae);
	te->devmajor = (unsigned)archive_entry_rdevmajor(ae);
	te->devminor = (unsigned)archive_entry_rdevminor(ae);
	if (!te->path)
		te->path = "";
}

int pp_deb_list(struct pp_deb *deb, const struct pp_ar_member *member,
		pp_tar_visit_fn fn, void *ctx, struct pp_err *err)
{
	struct archive *a = pp_deb_member_open(deb, member, err);
	struct archive_entry *ae;
	struct pp_tar_entry te;
	int r, rc = 0;

	if (!a)
		return -1;
	while ((r = archive_read_next_header(a, &ae)) == ARCHIVE_OK) {
		fill_entry(&te, ae);
		if (fn(&te, ctx, err) < 0) {
			rc = -1;
			break;
		}
	}
	if (!rc && r != ARCHIVE_EOF)
		rc = member_fail(deb, member, a, err);
	archive_read_free(a);
	return rc;
}

int pp_deb_tap_member(struct pp_deb *deb, const struct pp_ar_member *m,
		      struct pp_deb_tap *tap, struct pp_err *err)
{
	char buf[65536];
	off_t pos = 0;

	while (pos < m->size) {
		off_t left = m->size - pos;
		size_t n = left < (off_t)sizeof(buf) ? (size_t)left : sizeof(buf);

		if (pp_ar_read(&deb->ar, m, pos, buf, n, err) < 0)
			return -1;
		tap->fn(buf, n, tap->ctx);
		tap->fed += (off_t)n;
		pos += (off_t)n;
	}
	return 0;
}

/* The holes of a sparse entry read as zeros, as they do once extracted. */
static int feed_zeros(pp_tar_data_fn data_fn, void *ctx, int64_t n,
		      struct pp_err *err)
{
	static const char zeros[4096];

	while (n > 0) {
		size_t k = n < (int64_t)sizeof(zeros) ? (size_t)n : sizeof(zeros);

		if (data_fn(zeros, k, ctx, err) < 0)
			return -1;
		n -= (int64_t)k;
	}
	return 0;
}

/* Passes an entry's data as one contiguous stream of size bytes. */
static int walk_data(struct archive *a, int64_t size, pp_tar_data_fn data_fn,
		     void *ctx, struct pp_err *err)
{
	const void *buf;
	size_t len;
	la_int64_t off;
	int64_t pos = 0;
	int r;

	while ((r = archive_read_data_block(a, &buf, &len, &off)) ==
	       ARCHIVE_OK) {
		if (off > pos && feed_zeros(data_fn, ctx, off - pos, err) < 0)
			return -1;
		if (len && data_fn(buf, len, ctx, err) < 0)
			return -1;
		pos = (off > pos ? off : pos) + (int64_t)len;
	}
	if (r != ARCHIVE_EOF)
		return 1; /* the tar reader failed; see member_fail */
	if (size > pos && feed_zeros(data_fn, ctx, size - pos, err) < 0)
		return -1;
	return data_fn(NULL, 0, ctx, err);
}

int pp_deb_walk(struct pp_deb *deb, const struct pp_ar_member *member,
		struct pp_deb_tap *tap, pp_tar_visit_fn entry_fn,
		pp_tar_data_fn data_fn, void *ctx, struct pp_err *err)
{
	struct archive *a = pp_deb_member_open_tap(deb, member, tap, err);
	struct archive_entry *ae;
	struct pp_tar_entry te;
	int r, rc = 0;

	if (!a)
		return -1;
	while ((r = archive_read_next_header(a, &ae)) == ARCHIVE_OK) {
		fill_entry(&te, ae);
		rc = entry_fn(&te, ctx, err);
		if (!rc && S_ISREG(te.mode) && !te.hardlink)
			rc = walk_data(a, te.size, data_fn, ctx, err);
		if (rc)
			break;
	}
	if (rc > 0 || (!rc && r != ARCHIVE_EOF))
		rc = member_fail(deb, member, a, err);
	archive_read_free(a);
	return rc;
}
