#include "ar.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "xalloc.h"

int pp_ar_open(struct pp_ar *ar, const char *path, struct pp_err *err)
{
	char magic[8];
	struct stat st;

	ar->path = xstrdup(path);
	ar->lax_warned = 0;
	ar->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (ar->fd < 0) {
		pp_err_errno(err, PP_EXIT_IO, "cannot open '%s'", path);
		goto fail;
	}
	if (fstat(ar->fd, &st) < 0) {
		pp_err_errno(err, PP_EXIT_IO, "cannot stat '%s'", path);
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		pp_err_set(err, PP_EXIT_INPUT, "'%s' is not a regular file", path);
		goto fail;
	}
	ar->size = st.st_size;
	if (pp_read_full(ar->fd, magic, 8) != 8 || memcmp(magic, PP_AR_MAGIC, 8)) {
		pp_err_set(err, PP_EXIT_INPUT, "'%s' is not a Debian package: it "
			   "does not start with the ar magic '!<arch>'", path);
		goto fail;
	}
	ar->next = 8;
	return 0;
fail:
	pp_ar_close(ar);
	return -1;
}

void pp_ar_close(struct pp_ar *ar)
{
	if (ar->fd >= 0)
		close(ar->fd);
	ar->fd = -1;
	free(ar->path);
	ar->path = NULL;
}

/* A decimal (base 10) or octal (base 8) field: digits, then only spaces. */
static int parse_num(const char *f, size_t len, int base, long long *out)
{
	long long v = 0;
	size_t i = 0;

	while (i < len && f[i] >= '0' && f[i] < '0' + base) {
		if (v > (0x7fffffffffffffffLL - 9) / base)
			return -1;
		v = v * base + (f[i++] - '0');
	}
	if (i == 0)
		return -1;
	for (; i < len; i++)
		if (f[i] != ' ')
			return -1;
	*out = v;
	return 0;
}

static int bad_header(struct pp_ar *ar, off_t at, const char *name,
		      const char *what, struct pp_err *err)
{
	return pp_err_set(err, PP_EXIT_INPUT, "'%s': ar member header at "
			  "offset %lld%s%s%s: %s; the file is corrupt",
			  ar->path, (long long)at, *name ? " ('" : "", name,
			  *name ? "')" : "", what);
}

static int parse_name(const char *h, char *name)
{
	size_t n = 16;

	while (n && h[n - 1] == ' ')
		n--;
	if (n && h[n - 1] == '/' && n > 1)
		n--;
	memcpy(name, h, n);
	name[n] = '\0';
	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!isgraph((unsigned char)name[i]) || name[i] == '/')
			return -1;
	return 0;
}

/* The date, owner and mode of a member say nothing dpkg reads (it checks
 * only the name, size and end magic), so a malformed one is taken as 0
 * with a warning (once a file), as forgiving as dpkg-deb. */
static long long lax_field(struct pp_ar *ar, const struct pp_ar_member *m,
			   const char *f, size_t len, int base,
			   const char *what, struct pp_err *err)
{
	long long v;

	if (parse_num(f, len, base, &v) == 0)
		return v;
	if (!ar->lax_warned++)
		pp_warn(err, "padpack: warning: '%s': ar member '%s' has a "
			"malformed %s field '%.*s'; ignored, as dpkg does",
			ar->path, m->name, what, (int)len, f);
	return 0;
}

static int parse_header(struct pp_ar *ar, const char *h,
			struct pp_ar_member *m, struct pp_err *err)
{
	long long v;

	m->name[0] = '\0';
	if (h[58] != '`' || h[59] != '\n')
		return bad_header(ar, m->header, "", "bad end magic", err);
	if (parse_name(h, m->name) < 0)
		return bad_header(ar, m->header, "", "invalid member name", err);
	m->mtime = lax_field(ar, m, h + 16, 12, 10, "date", err);
	lax_field(ar, m, h + 28, 6, 10, "owner", err);
	lax_field(ar, m, h + 34, 6, 10, "group", err);
	m->mode = (unsigned)lax_field(ar, m, h + 40, 8, 8, "mode", err);
	if (parse_num(h + 48, 10, 10, &v) < 0)
		return bad_header(ar, m->header, m->name, "bad size", err);
	m->size = (off_t)v;
	return 0;
}

static int check_bounds(struct pp_ar *ar, const struct pp_ar_member *m,
			struct pp_err *err)
{
	off_t left = ar->size - m->offset;
	char pad;

	if (m->size > left)
		return pp_err_set(err, PP_EXIT_INPUT, "'%s': member '%s' declares "
				  "%lld bytes but only %lld remain in the file; "
				  "the package is truncated or corrupt", ar->path,
				  m->name, (long long)m->size, (long long)left);
	if (!(m->size & 1))
		return 0;
	if (m->size == left)
		return pp_err_set(err, PP_EXIT_INPUT, "'%s': member '%s' lacks "
				  "its padding byte; the package is truncated",
				  ar->path, m->name);
	if (pread(ar->fd, &pad, 1, m->offset + m->size) != 1)
		return pp_err_errno(err, PP_EXIT_IO, "cannot read '%s'", ar->path);
	if (pad != '\n')
		return pp_err_set(err, PP_EXIT_INPUT, "'%s': member '%s' has a "
				  "padding byte 0x%02x instead of a newline; the "
				  "package is corrupt", ar->path, m->name,
				  (unsigned char)pad);
	return 0;
}

int pp_ar_next(struct pp_ar *ar, struct pp_ar_member *m, struct pp_err *err)
{
	char h[PP_AR_HDR];
	ssize_t n;

	if (ar->next == ar->size)
		return 0;
	m->header = ar->next;
	n = pread(ar->fd, h, PP_AR_HDR, ar->next);
	if (n < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot read '%s'", ar->path);
	if (n < PP_AR_HDR)
		return pp_err_set(err, PP_EXIT_INPUT, "'%s': truncated ar member "
				  "header at offset %lld (%zd of 60 bytes)",
				  ar->path, (long long)ar->next, n);
	if (parse_header(ar, h, m, err) < 0)
		return -1;
	m->offset = m->header + PP_AR_HDR;
	if (check_bounds(ar, m, err) < 0)
		return -1;
	ar->next = m->offset + m->size + (m->size & 1);
	return 1;
}

void pp_ar_rewind(struct pp_ar *ar)
{
	ar->next = 8;
}

int pp_ar_read(struct pp_ar *ar, const struct pp_ar_member *m, off_t off,
	       void *buf, size_t len, struct pp_err *err)
{
	ssize_t n;

	if (off < 0 || off + (off_t)len > m->size)
		return pp_err_set(err, PP_EXIT_INPUT, "'%s': read past the end of "
				  "member '%s'", ar->path, m->name);
	while (len) {
		n = pread(ar->fd, buf, len, m->offset + off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return pp_err_errno(err, PP_EXIT_IO, "cannot read '%s'",
					    ar->path);
		buf = (char *)buf + n;
		len -= (size_t)n;
		off += n;
	}
	return 0;
}
