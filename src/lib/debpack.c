/* Building a .deb from a directory tree, as dpkg-deb --build does. */
#include "deb.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "fsutil.h"
#include "hash.h"
#include "progress.h"
#include "tree.h"
#include "x86code.h"
#include "xalloc.h"

#define READ_CHUNK (256u * 1024)

struct ctrl_file {
	char *name;
	struct stat st;
	struct strbuf data;
};

/* Everything pp_deb_pack learns about the package before writing it. */
struct pack {
	const char *root;
	const struct pp_pack_opts *opts;
	struct strbuf ctrldir;
	struct stat ctrldir_st;
	struct ctrl_file *cf;
	size_t nr_cf, alloc_cf;
	struct pp_stanza control;
	struct pp_tree tree;
	struct strbuf md5sums;  /* generated while the data is archived */
	char **md5;             /* per tree entry: hex digest, or NULL */
	struct pp_err *err;
};

static const char *const maint_scripts[] = {
	"preinst", "postinst", "prerm", "postrm", "config",
};

static const char *const known_ctrl[] = {
	"control", "conffiles", "md5sums", "shlibs", "symbols", "triggers",
	"templates", "clilibs", "isinstallable", "preinst", "postinst",
	"prerm", "postrm", "config",
};

static int is_in(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name, list[i]))
			return 1;
	return 0;
}

static struct ctrl_file *find_cf(struct pack *p, const char *name)
{
	for (size_t i = 0; i < p->nr_cf; i++)
		if (!strcmp(p->cf[i].name, name))
			return &p->cf[i];
	return NULL;
}

/* ---- the control area ------------------------------------------------- */

static int check_script(struct pack *p, const struct ctrl_file *f)
{
	unsigned mode = f->st.st_mode & 07777;
	const char *d = f->data.buf;

	if ((mode & 07557) != 0555)
		return pp_err_set(p->err, PP_EXIT_INPUT, "%s/%s: maintainer "
				  "script has bad permissions %03o; use chmod "
				  "0755 (allowed: 0555 to 0775)", p->ctrldir.buf,
				  f->name, mode);
	if (f->data.len >= 4 && !memcmp(d, "\177ELF", 4))
		return 0;
	if (f->data.len < 3 || d[0] != '#' || d[1] != '!')
		return pp_err_set(p->err, PP_EXIT_INPUT, "%s/%s:1: maintainer "
				  "script does not start with '#!'; add an "
				  "interpreter line such as '#!/bin/sh'",
				  p->ctrldir.buf, f->name);
	return 0;
}

static int load_ctrl_file(struct pack *p, const char *name)
{
	struct ctrl_file *f;
	struct strbuf path = STRBUF_INIT;
	int rc = 0;

	strbuf_addf(&path, "%s/%s", p->ctrldir.buf, name);
	ARRAY_GROW(p->cf, p->alloc_cf, p->nr_cf + 1);
	f = &p->cf[p->nr_cf++];
	f->name = xstrdup(name);
	strbuf_init(&f->data);
	if (lstat(path.buf, &f->st) < 0)
		rc = pp_err_errno(p->err, PP_EXIT_IO, "cannot stat '%s'", path.buf);
	else if (!S_ISREG(f->st.st_mode))
		rc = pp_err_set(p->err, PP_EXIT_INPUT, "'%s' is not a plain "
				"file; the control area holds only plain files",
				path.buf);
	else
		rc = pp_read_file(path.buf, &f->data, p->err);
	strbuf_release(&path);
	if (!rc && !is_in(name, known_ctrl, ARRAY_SIZE(known_ctrl)))
		pp_warn(p->err, "%s/%s: unknown control file; dpkg ignores it",
			p->ctrldir.buf, name);
	if (!rc && is_in(name, maint_scripts, ARRAY_SIZE(maint_scripts)))
		rc = check_script(p, f);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int load_ctrl_area(struct pack *p)
{
	char **names = NULL;
	size_t nr = 0, alloc = 0, i;
	struct dirent *de;
	DIR *d;
	int rc = 0;

	strbuf_addf(&p->ctrldir, "%s/DEBIAN", p->root);
	if (stat(p->ctrldir.buf, &p->ctrldir_st) < 0)
		return pp_err_errno(p->err, PP_EXIT_INPUT, "'%s' has no control "
				    "area: create %s with a control file",
				    p->root, p->ctrldir.buf);
	if ((p->ctrldir_st.st_mode & 07757) != 0755)
		return pp_err_set(p->err, PP_EXIT_INPUT, "%s: control directory "
				  "has bad permissions %03o; use chmod 0755 "
				  "(allowed: 0755 to 0775)", p->ctrldir.buf,
				  (unsigned)p->ctrldir_st.st_mode & 07777);
	d = opendir(p->ctrldir.buf);
	if (!d)
		return pp_err_errno(p->err, PP_EXIT_IO, "cannot open '%s'",
				    p->ctrldir.buf);
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		ARRAY_GROW(names, alloc, nr + 1);
		names[nr++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (nr)
		qsort(names, nr, sizeof(*names), cmp_str);
	for (i = 0; i < nr; i++) {
		if (!rc)
			rc = load_ctrl_file(p, names[i]);
		free(names[i]);
	}
	free(names);
	return rc;
}

static int parse_control(struct pack *p)
{
	struct ctrl_file *f = find_cf(p, "control");
	struct strbuf name = STRBUF_INIT;
	int rc;

	if (!f)
		return pp_err_set(p->err, PP_EXIT_INPUT, "%s/control is missing; "
				  "write one with at least Package, Version, "
				  "Architecture, Maintainer and Description",
				  p->ctrldir.buf);
	strbuf_addf(&name, "%s/control", p->ctrldir.buf);
	rc = pp_control_parse(f->data.buf, f->data.len, name.buf, &p->control,
			      p->err);
	if (!rc)
		rc = pp_control_check_binary(&p->control, name.buf, p->err);
	strbuf_release(&name);
	return rc;
}

static const struct pp_tree_entry *tree_find(const struct pp_tree *t,
					     const char *path)
{
	for (size_t i = 0; i < t->nr; i++)
		if (!strcmp(t->e[i].path, path))
			return &t->e[i];
	return NULL;
}

static int check_conffile_line(struct pack *p, const char *line, unsigned no)
{
	const char *path = line;
	int remove = 0;
	const struct pp_tree_entry *e;

	if (!strncmp(line, "remove-on-upgrade ", 18)) {
		remove = 1;
		path = line + 18;
	}
	if (path[0] != '/')
		return pp_err_set(p->err, PP_EXIT_INPUT, "%s/conffiles:%u: "
				  "conffile name '%s' is not an absolute path; "
				  "write '/%s'", p->ctrldir.buf, no, path, path);
	e = tree_find(&p->tree, path + 1);
	if (remove && e)
		return pp_err_set(p->err, PP_EXIT_INPUT, "%s/conffiles:%u: '%s' "
				  "is marked remove-on-upgrade but the package "
				  "ships it; remove it from the tree or the flag",
				  p->ctrldir.buf, no, path);
	if (!remove && !e)
		return pp_err_set(p->err, PP_EXIT_INPUT, "%s/conffiles:%u: "
				  "conffile '%s' does not appear in the package; "
				  "add it to the tree or remove the line",
				  p->ctrldir.buf, no, path);
	if (e && !S_ISREG(e->st.st_mode))
		pp_warn(p->err, "%s/conffiles:%u: conffile '%s' is not a plain "
			"file", p->ctrldir.buf, no, path);
	return 0;
}

static int check_conffiles(struct pack *p)
{
	struct ctrl_file *f = find_cf(p, "conffiles");
	char *copy, *line, *save = NULL;
	unsigned no = 0;
	int rc = 0;

	if (!f)
		return 0;
	if (f->data.len && f->data.buf[f->data.len - 1] != '\n')
		return pp_err_set(p->err, PP_EXIT_INPUT, "%s/conffiles: missing "
				  "newline at the end of the file; add one",
				  p->ctrldir.buf);
	copy = xstrndup(f->data.buf, f->data.len);
	for (line = copy; line && !rc; line = save) {
		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		no++;
		if (*line)
			rc = check_conffile_line(p, line, no);
	}
	free(copy);
	return rc;
}

/* Installed-Size as dpkg-gencontrol computes it: KiB of every file and
 * symlink (hard-linked inodes once), 1 for every other object; the control
 * area counts too, except the control and md5sums files padpack writes. */
static unsigned long long installed_size(const struct pack *p)
{
	unsigned long long kib = 1; /* DEBIAN itself */

	for (size_t i = 0; i < p->tree.nr; i++) {
		const struct pp_tree_entry *e = &p->tree.e[i];

		if (S_ISREG(e->st.st_mode) || S_ISLNK(e->st.st_mode))
			kib += e->first >= 0 ? 0 :
				((unsigned long long)e->st.st_size + 1023) / 1024;
		else
			kib += 1;
	}
	for (size_t i = 0; i < p->nr_cf; i++)
		if (strcmp(p->cf[i].name, "control") &&
		    strcmp(p->cf[i].name, "md5sums"))
			kib += (p->cf[i].data.len + 1023) / 1024;
	return kib;
}

/* ---- archives --------------------------------------------------------- */

/* libarchive's GNU tar writer gives its ././@LongLink pseudo-entries mode
 * 0, group "wheel" and a copy of the link target; GNU tar (so dpkg-deb)
 * writes 0644, "root" and no link name. The
 * sink follows the stream entry by entry, headers and data apart, and
 * gives those pseudo-headers GNU tar's values, so that padpack's archives
 * are byte for byte the ones dpkg-deb writes. */
struct tar_sink {
	struct pp_zwriter *z;
	struct pp_err *err;
	uint64_t data_left;     /* bytes of entry data before the next header */
	int at_end;             /* past the end-of-archive marker */
};

static uint64_t header_size(const unsigned char *h)
{
	uint64_t v = 0;

	if (h[124] & 0x80) { /* GNU base-256 for large files */
		for (int i = 125; i < 136; i++)
			v = (v << 8) | h[i];
		return v;
	}
	for (int i = 124; i < 136 && h[i] >= '0' && h[i] <= '7'; i++)
		v = v * 8 + (uint64_t)(h[i] - '0');
	return v;
}

static void fix_longlink(unsigned char *h)
{
	unsigned sum = 0;

	if (strcmp((const char *)h, "././@LongLink") ||
	    (h[156] != 'L' && h[156] != 'K'))
		return;
	memcpy(h + 100, "0000644", 8);
	memset(h + 157, 0, 100);
	memset(h + 297, 0, 32);
	memcpy(h + 297, "root", 4);
	memset(h + 148, ' ', 8);
	for (int i = 0; i < 512; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
	h[155] = ' ';
}

static int sink_header(struct tar_sink *s, const unsigned char *in)
{
	unsigned char h[512];
	uint64_t size;
	int zero = 1;

	for (int i = 0; i < 512 && zero; i++)
		zero = !in[i];
	if (zero) {
		s->at_end = 1;
		return pp_zwriter_write(s->z, in, 512, s->err);
	}
	memcpy(h, in, 512);
	fix_longlink(h);
	size = strchr("12345", h[156]) && h[156] ? 0 : header_size(h);
	s->data_left = (size + 511) / 512 * 512;
	return pp_zwriter_write(s->z, h, 512, s->err);
}

/* libarchive writes whole 10240-byte blocks, so headers arrive whole. */
static int sink_write(struct tar_sink *s, const unsigned char *p, size_t len)
{
	while (len) {
		size_t n = len;

		if (s->at_end || s->data_left) {
			if (!s->at_end && n > s->data_left)
				n = (size_t)s->data_left;
			if (pp_zwriter_write(s->z, p, n, s->err) < 0)
				return -1;
			if (!s->at_end)
				s->data_left -= n;
		} else {
			if (len < 512)
				return pp_err_set(s->err, PP_EXIT_IO, "tar "
						  "writer split a header");
			n = 512;
			if (sink_header(s, p) < 0)
				return -1;
		}
		p += n;
		len -= n;
	}
	return 0;
}

static la_ssize_t tar_write_cb(struct archive *a, void *ctx, const void *buf,
			       size_t len)
{
	struct tar_sink *s = ctx;

	if (sink_write(s, buf, len) < 0) {
		archive_set_error(a, EIO, "%s", s->err->msg);
		return -1;
	}
	return (la_ssize_t)len;
}

static struct archive *tar_open(struct tar_sink *sink)
{
	struct archive *a = archive_write_new();

	archive_write_set_format_gnutar(a);
	archive_write_set_bytes_per_block(a, 10240);
	if (archive_write_open(a, sink, NULL, tar_write_cb, NULL) != ARCHIVE_OK) {
		archive_write_free(a);
		return NULL;
	}
	return a;
}

static int archive_fail(struct archive *a, struct pp_err *err,
			const char *what)
{
	if (err->code)
		return pp_err_prefix(err, "%s: ", what);
	return pp_err_set(err, PP_EXIT_IO, "%s: %s", what,
			  archive_error_string(a));
}

static void entry_common(struct archive_entry *ae, const struct pack *p,
			 mode_t mode, time_t mtime)
{
	archive_entry_clear(ae);
	archive_entry_set_mode(ae, mode);
	archive_entry_set_uid(ae, 0);
	archive_entry_set_gid(ae, 0);
	archive_entry_set_uname(ae, "root");
	archive_entry_set_gname(ae, "root");
	if (mtime > p->opts->timestamp)
		mtime = p->opts->timestamp;
	archive_entry_set_mtime(ae, mtime, 0);
}

static int copy_file(struct pack *p, struct archive *a, const char *path,
		     const struct stat *st, char *hex)
{
	unsigned char *buf = xmalloc(READ_CHUNK);
	struct pp_hash h;
	off_t total = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW), rc = 0;

	if (fd < 0) {
		free(buf);
		return pp_err_errno(p->err, PP_EXIT_IO, "cannot open '%s'", path);
	}
	pp_hash_init(&h, PP_MD5);
	while ((n = pp_read_full(fd, buf, READ_CHUNK)) > 0 && total < st->st_size) {
		if (total + n > st->st_size)
			n = st->st_size - total;
		pp_hash_update(&h, buf, (size_t)n);
		if (archive_write_data(a, buf, (size_t)n) != n) {
			rc = archive_fail(a, p->err, path);
			break;
		}
		total += n;
		pp_progress_add(p->opts->progress, (uint64_t)n, NULL);
	}
	if (!rc && n < 0)
		rc = pp_err_errno(p->err, PP_EXIT_IO, "cannot read '%s'", path);
	else if (!rc && total != st->st_size)
		rc = pp_err_set(p->err, PP_EXIT_IO, "'%s' changed size while "
				"being packed; pack a tree nothing writes to",
				path);
	pp_hash_final_hex(&h, hex);
	close(fd);
	free(buf);
	return rc;
}

static int data_entry(struct pack *p, struct archive *a,
		      struct archive_entry *ae, size_t i, struct strbuf *full)
{
	const struct pp_tree_entry *e = &p->tree.e[i];
	struct strbuf name = STRBUF_INIT;
	char hex[2 * PP_HASH_MAX + 1];
	int rc = 0;

	strbuf_addf(&name, "./%s%s", e->path,
		    S_ISDIR(e->st.st_mode) && *e->path ? "/" : "");
	entry_common(ae, p, e->st.st_mode, e->st.st_mtime);
	archive_entry_set_pathname(ae, name.buf);
	if (S_ISLNK(e->st.st_mode))
		archive_entry_set_symlink(ae, e->link_target);
	else if (S_ISCHR(e->st.st_mode) || S_ISBLK(e->st.st_mode))
		archive_entry_set_rdev(ae, e->st.st_rdev);
	if (e->first >= 0) {
		strbuf_reset(&name);
		strbuf_addf(&name, "./%s", p->tree.e[e->first].path);
		archive_entry_set_hardlink(ae, name.buf);
	} else if (S_ISREG(e->st.st_mode)) {
		archive_entry_set_size(ae, e->st.st_size);
	}
	strbuf_release(&name);
	strbuf_reset(full);
	strbuf_addf(full, "%s/%s", p->root, e->path);
	if (archive_write_header(a, ae) != ARCHIVE_OK)
		return archive_fail(a, p->err, full->buf);
	if (S_ISREG(e->st.st_mode) && e->first < 0) {
		rc = copy_file(p, a, full->buf, &e->st, hex);
		if (!rc)
			p->md5[i] = xstrdup(hex);
	}
	return rc;
}

static int write_tar_stream(struct pack *p, int fd,
			    const struct pp_compress_opts *comp,
			    int (*fill)(struct pack *, struct archive *))
{
	struct tar_sink sink = { NULL, p->err, 0, 0 };
	struct archive *a;
	int rc;

	sink.z = pp_zwriter_new(comp, fd, p->err);
	if (!sink.z)
		return -1;
	a = tar_open(&sink);
	if (!a) {
		pp_zwriter_abort(sink.z);
		return pp_err_set(p->err, PP_EXIT_IO, "cannot start a tar writer");
	}
	rc = fill(p, a);
	if (!rc && archive_write_close(a) != ARCHIVE_OK)
		rc = archive_fail(a, p->err, "tar");
	archive_write_free(a);
	if (rc)
		pp_zwriter_abort(sink.z);
	else
		rc = pp_zwriter_finish(sink.z, p->err);
	return rc;
}

static int fill_data(struct pack *p, struct archive *a)
{
	struct archive_entry *ae = archive_entry_new();
	struct strbuf full = STRBUF_INIT;
	int rc = 0;

	p->md5 = xcalloc(p->tree.nr, sizeof(*p->md5));
	for (size_t i = 0; i < p->tree.nr && !rc; i++)
		rc = data_entry(p, a, ae, i, &full);
	archive_entry_free(ae);
	strbuf_release(&full);
	return rc;
}

static mode_t ctrl_mode(mode_t mode)
{
	/* dpkg-deb's --mode u+rw,go=rX for the control archive */
	mode_t x = (mode & 0111) ? 0111 : 0;

	return (mode & 0700) | 0600 | 0044 | x;
}

static int ctrl_entry(struct pack *p, struct archive *a,
		      struct archive_entry *ae, const char *name,
		      const struct strbuf *data, mode_t mode, time_t mtime)
{
	struct strbuf path = STRBUF_INIT;
	int rc = 0;

	strbuf_addf(&path, "./%s", name);
	entry_common(ae, p, AE_IFREG | ctrl_mode(mode), mtime);
	archive_entry_set_pathname(ae, path.buf);
	archive_entry_set_size(ae, (la_int64_t)data->len);
	if (archive_write_header(a, ae) != ARCHIVE_OK ||
	    (data->len && archive_write_data(a, data->buf, data->len) !=
	     (la_ssize_t)data->len))
		rc = archive_fail(a, p->err, path.buf);
	strbuf_release(&path);
	return rc;
}

static int fill_control(struct pack *p, struct archive *a)
{
	struct archive_entry *ae = archive_entry_new();
	struct strbuf control = STRBUF_INIT;
	int rc = 0, wrote_md5 = 0;

	pp_stanza_write(&p->control, &control);
	entry_common(ae, p, AE_IFDIR | 0755, p->ctrldir_st.st_mtime);
	archive_entry_set_pathname(ae, "./");
	if (archive_write_header(a, ae) != ARCHIVE_OK)
		rc = archive_fail(a, p->err, "./");
	for (size_t i = 0; i < p->nr_cf && !rc; i++) {
		const struct ctrl_file *f = &p->cf[i];

		if (!wrote_md5 && p->md5sums.len && strcmp(f->name, "md5sums") > 0) {
			rc = ctrl_entry(p, a, ae, "md5sums", &p->md5sums, 0644,
					p->opts->timestamp);
			wrote_md5 = 1;
		}
		if (!rc)
			rc = ctrl_entry(p, a, ae, f->name,
					strcmp(f->name, "control") ? &f->data :
					&control, f->st.st_mode, f->st.st_mtime);
	}
	if (!rc && !wrote_md5 && p->md5sums.len)
		rc = ctrl_entry(p, a, ae, "md5sums", &p->md5sums, 0644,
				p->opts->timestamp);
	archive_entry_free(ae);
	strbuf_release(&control);
	return rc;
}

/* ---- md5sums ---------------------------------------------------------- */

struct md5_line {
	const char *path, *hex;
};

static int cmp_md5_line(const void *a, const void *b)
{
	return strcmp(((const struct md5_line *)a)->path,
		      ((const struct md5_line *)b)->path);
}

/* Sorted by path, as dh_md5sums writes it; hard links listed by each name. */
static void generate_md5sums(struct pack *p)
{
	struct md5_line *lines = xcalloc(p->tree.nr, sizeof(*lines));
	size_t nr = 0;

	for (size_t i = 0; i < p->tree.nr; i++) {
		const struct pp_tree_entry *e = &p->tree.e[i];
		const char *hex = p->md5[e->first >= 0 ? (size_t)e->first : i];

		if (S_ISREG(e->st.st_mode) && hex)
			lines[nr++] = (struct md5_line){ e->path, hex };
	}
	qsort(lines, nr, sizeof(*lines), cmp_md5_line);
	for (size_t i = 0; i < nr; i++)
		strbuf_addf(&p->md5sums, "%s  %s\n", lines[i].hex, lines[i].path);
	free(lines);
}

static ssize_t tree_index(const struct pp_tree *t, const char *path)
{
	for (size_t i = 0; i < t->nr; i++)
		if (!strcmp(t->e[i].path, path))
			return (ssize_t)i;
	return -1;
}

static int check_md5_line(struct pack *p, const char *line, unsigned no)
{
	const char *path = line + 34;
	ssize_t i;
	size_t first;

	if (strlen(line) < 35 || line[32] != ' ' || line[33] != ' ' ||
	    strspn(line, "0123456789abcdef") != 32)
		return pp_err_set(p->err, PP_EXIT_INPUT, "%s/md5sums:%u: not "
				  "'<32 lowercase hex digits>  <path>'; fix the "
				  "line or remove the file to have it generated",
				  p->ctrldir.buf, no);
	if (!strncmp(path, "./", 2))
		path += 2;
	else if (*path == '/')
		path++;
	i = tree_index(&p->tree, path);
	if (i < 0 || !S_ISREG(p->tree.e[i].st.st_mode))
		return pp_err_set(p->err, PP_EXIT_INPUT, "%s/md5sums:%u: '%s' "
				  "is not a file of the package; remove the "
				  "line", p->ctrldir.buf, no, path);
	first = p->tree.e[i].first >= 0 ? (size_t)p->tree.e[i].first : (size_t)i;
	if (strncmp(line, p->md5[first], 32))
		return pp_err_set(p->err, PP_EXIT_INPUT, "%s/md5sums:%u: '%s' "
				  "has MD5 %.32s, the file's is %s; remove "
				  "md5sums to have it generated", p->ctrldir.buf,
				  no, path, line, p->md5[first]);
	return 0;
}

/* A DEBIAN/md5sums given by the packager must describe the payload. */
static int check_given_md5sums(struct pack *p, const struct ctrl_file *f)
{
	char *copy = xstrndup(f->data.buf, f->data.len), *line, *save;
	unsigned no = 0;
	int rc = 0;

	for (line = copy; line && *line && !rc; line = save) {
		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		no++;
		rc = check_md5_line(p, line, no);
	}
	free(copy);
	return rc;
}

/* ---- the ar container ------------------------------------------------- */

static int ar_member_from_fd(struct pack *p, struct archive *a,
			     const char *name, int fd)
{
	struct archive_entry *ae = archive_entry_new();
	char *buf = xmalloc(READ_CHUNK);
	off_t size = lseek(fd, 0, SEEK_END);
	ssize_t n = 0;
	int rc = 0;

	archive_entry_set_pathname(ae, name);
	archive_entry_set_mode(ae, AE_IFREG | 0644);
	archive_entry_set_mtime(ae, p->opts->timestamp, 0);
	archive_entry_set_size(ae, size);
	if (size < 0 || lseek(fd, 0, SEEK_SET) < 0)
		rc = pp_err_errno(p->err, PP_EXIT_IO, "temporary file for '%s'",
				  name);
	else if (archive_write_header(a, ae) != ARCHIVE_OK)
		rc = archive_fail(a, p->err, name);
	while (!rc && (n = pp_read_full(fd, buf, READ_CHUNK)) > 0)
		if (archive_write_data(a, buf, (size_t)n) != n)
			rc = archive_fail(a, p->err, name);
	if (!rc && n < 0)
		rc = pp_err_errno(p->err, PP_EXIT_IO, "temporary file for '%s'",
				  name);
	free(buf);
	archive_entry_free(ae);
	return rc;
}

static int write_ar(struct pack *p, int out, int ctrl_fd, int data_fd)
{
	const char *ext = pp_compressor_ext(p->opts->comp.type);
	struct archive *a = archive_write_new();
	struct strbuf name = STRBUF_INIT;
	int rc = 0;

	archive_write_set_format_ar_bsd(a);
	archive_write_set_bytes_per_block(a, 0);
	if (archive_write_open_fd(a, out) != ARCHIVE_OK)
		rc = archive_fail(a, p->err, "ar");
	if (!rc) {
		int fd = pp_tmpfile(NULL, p->err);

		rc = fd < 0 || pp_write_all(fd, "2.0\n", 4) < 0 ? -1 :
			ar_member_from_fd(p, a, "debian-binary", fd);
		if (fd >= 0)
			close(fd);
	}
	strbuf_addf(&name, "control.tar%s", ext);
	if (!rc)
		rc = ar_member_from_fd(p, a, name.buf, ctrl_fd);
	strbuf_reset(&name);
	strbuf_addf(&name, "data.tar%s", ext);
	if (!rc)
		rc = ar_member_from_fd(p, a, name.buf, data_fd);
	if (!rc && archive_write_close(a) != ARCHIVE_OK)
		rc = archive_fail(a, p->err, "ar");
	archive_write_free(a);
	strbuf_release(&name);
	return rc;
}

/* ---- putting it together ---------------------------------------------- */

static char *output_path(struct pack *p, const char *out)
{
	struct strbuf path = STRBUF_INIT;
	const char *ver = pp_stanza_get(&p->control, "Version");
	const char *colon = strchr(ver, ':');
	struct stat st;

	if (stat(out, &st) < 0 || !S_ISDIR(st.st_mode))
		return xstrdup(out);
	strbuf_addf(&path, "%s/%s_%s_%s.deb", out,
		    pp_stanza_get(&p->control, "Package"), colon ? colon + 1 : ver,
		    pp_stanza_get(&p->control, "Architecture"));
	return strbuf_detach(&path, NULL);
}

static int check_all(struct pack *p)
{
	char size[32];

	if (load_ctrl_area(p) < 0 || parse_control(p) < 0)
		return -1;
	if (pp_tree_walk(p->root, "DEBIAN", &p->tree, p->err) < 0)
		return -1;
	if (check_conffiles(p) < 0)
		return -1;
	if (!pp_stanza_get(&p->control, "Installed-Size")) {
		snprintf(size, sizeof(size), "%llu", installed_size(p));
		pp_stanza_set(&p->control, "Installed-Size", size);
	}
	return 0;
}

/* What copy_file will read: the regular files, each inode once. */
static uint64_t data_bytes(const struct pack *p)
{
	uint64_t n = 0;

	for (size_t i = 0; i < p->tree.nr; i++)
		if (S_ISREG(p->tree.e[i].st.st_mode) && p->tree.e[i].first < 0)
			n += (uint64_t)p->tree.e[i].st.st_size;
	return n;
}

/* Whether the data member gets xz's x86 BCJ filter (PP_X86_AUTO): when
 * x86code.h expects it to make the package smaller, from its files alone
 * (never the threads or the machine). The control member, text, never
 * gets it. */
static enum pp_x86_filter data_x86(const struct pack *p)
{
	struct strbuf path = STRBUF_INIT;
	struct pp_x86_tally t = { 0 };
	int gains;

	if (p->opts->comp.type != PP_COMP_XZ)
		return PP_X86_OFF;
	if (p->opts->comp.x86 != PP_X86_AUTO)
		return p->opts->comp.x86;
	for (size_t i = 0; i < p->tree.nr; i++) {
		const struct pp_tree_entry *e = &p->tree.e[i];

		if (!S_ISREG(e->st.st_mode) || e->first >= 0)
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", p->root, e->path);
		pp_x86_tally_file(&t, path.buf, (uint64_t)e->st.st_size);
	}
	strbuf_release(&path);
	gains = pp_x86_tally_gains(&t, data_bytes(p));
	pp_x86_tally_release(&t);
	return gains ? PP_X86_ON : PP_X86_OFF;
}

static int write_members(struct pack *p, int out_fd, const char *dir)
{
	const struct ctrl_file *given = find_cf(p, "md5sums");
	struct pp_compress_opts data = p->opts->comp, ctrl = p->opts->comp;
	int data_fd = pp_tmpfile(dir, p->err), ctrl_fd = -1, rc = -1;

	if (data_fd < 0)
		return -1;
	data.x86 = data_x86(p);
	ctrl.x86 = PP_X86_OFF;
	pp_progress_task(p->opts->progress, "archiving and compressing",
			 data_bytes(p), "bytes");
	if (write_tar_stream(p, data_fd, &data, fill_data) < 0)
		goto out;
	if (given ? check_given_md5sums(p, given) < 0 : (generate_md5sums(p), 0))
		goto out;
	ctrl_fd = pp_tmpfile(dir, p->err);
	if (ctrl_fd < 0 ||
	    write_tar_stream(p, ctrl_fd, &ctrl, fill_control) < 0)
		goto out;
	rc = write_ar(p, out_fd, ctrl_fd, data_fd);
out:
	close(data_fd);
	if (ctrl_fd >= 0)
		close(ctrl_fd);
	return rc;
}

static void pack_release(struct pack *p)
{
	for (size_t i = 0; i < p->nr_cf; i++) {
		free(p->cf[i].name);
		strbuf_release(&p->cf[i].data);
	}
	free(p->cf);
	if (p->md5)
		for (size_t i = 0; i < p->tree.nr; i++)
			free(p->md5[i]);
	free(p->md5);
	pp_tree_release(&p->tree);
	pp_stanza_release(&p->control);
	strbuf_release(&p->ctrldir);
	strbuf_release(&p->md5sums);
}

int pp_deb_pack(const char *root, const char *out,
		const struct pp_pack_opts *opts, char **written,
		struct pp_err *err)
{
	struct pack p = { 0 };
	struct pp_outfile of;
	char *path = NULL, *dir = NULL;
	int rc = -1;

	p.root = root;
	p.opts = opts;
	p.err = err;
	strbuf_init(&p.ctrldir);
	strbuf_init(&p.md5sums);
	if (check_all(&p) < 0)
		goto out;
	path = output_path(&p, out);
	dir = pp_dirname(path);
	if (pp_outfile_open(&of, path, 0644, err) < 0)
		goto out;
	if (write_members(&p, of.fd, dir) < 0) {
		pp_outfile_abort(&of);
		goto out;
	}
	rc = pp_outfile_commit(&of, err);
out:
	if (!rc && written)
		*written = path;
	else
		free(path);
	free(dir);
	pack_release(&p);
	return rc;
}
