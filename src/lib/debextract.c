/* Reading the control archive into memory, and extracting members to disk
 * without ever writing outside the target directory. */
#include "deb.h"

#include <errno.h>
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

#define CTRL_MAX (64u << 20) /* a control file larger than this is hostile */

/* Strips "./" prefixes; NULL when the name may not be extracted. */
static const char *relative_name(const char *name, const char **why)
{
	const char *p;

	if (name[0] == '/') {
		*why = "is an absolute path";
		return NULL;
	}
	while (name[0] == '.' && name[1] == '/')
		name += 2;
	for (p = name; *p; ) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.') {
			*why = "has a '..' component";
			return NULL;
		}
		p += n;
		while (*p == '/')
			p++;
	}
	return name;
}

/* ---- control archive into memory ------------------------------------- */

struct ctrl_read {
	struct pp_deb *deb;
	struct pp_ctrl_members *out;
};

static int cmp_member(const void *a, const void *b)
{
	return strcmp(((const struct pp_ctrl_member *)a)->name,
		      ((const struct pp_ctrl_member *)b)->name);
}

static int read_ctrl_data(struct archive *a, struct pp_ctrl_member *cm,
			  int64_t size)
{
	char buf[16384];
	la_ssize_t n;

	strbuf_grow(&cm->data, (size_t)size);
	while ((n = archive_read_data(a, buf, sizeof(buf))) > 0)
		strbuf_add(&cm->data, buf, (size_t)n);
	return n < 0 ? -1 : 0;
}

static int ctrl_entry(struct pp_deb *deb, struct archive *a,
		      struct archive_entry *ae, struct pp_ctrl_members *out,
		      struct pp_err *err)
{
	const char *why = "", *name = relative_name(archive_entry_pathname(ae),
						    &why);
	mode_t mode = archive_entry_mode(ae);
	struct pp_ctrl_member *cm;

	if (!name)
		return pp_err_set(err, PP_EXIT_INPUT, "'%s': control member "
				  "'%s' %s", deb->ar.path,
				  archive_entry_pathname(ae), why);
	if (S_ISDIR(mode) && (!*name || !strcmp(name, ".") || !strcmp(name, "./")))
		return 0;
	if (!S_ISREG(mode) || archive_entry_hardlink(ae) || strchr(name, '/'))
		return pp_err_set(err, PP_EXIT_INPUT, "'%s': control archive "
				  "entry '%s' is not a plain top-level file",
				  deb->ar.path, archive_entry_pathname(ae));
	if (archive_entry_size(ae) < 0 || archive_entry_size(ae) > CTRL_MAX)
		return pp_err_set(err, PP_EXIT_INPUT, "'%s': control file '%s' "
				  "declares %lld bytes; at most %u MiB is read",
				  deb->ar.path, name,
				  (long long)archive_entry_size(ae), CTRL_MAX >> 20);
	ARRAY_GROW(out->m, out->alloc, out->nr + 1);
	cm = &out->m[out->nr++];
	cm->name = xstrdup(name);
	cm->mode = mode;
	strbuf_init(&cm->data);
	if (read_ctrl_data(a, cm, archive_entry_size(ae)) < 0)
		return pp_err_set(err, PP_EXIT_INPUT, "'%s': control file '%s': "
				  "%s", deb->ar.path, name,
				  archive_error_string(a));
	return 0;
}

int pp_deb_read_fields(const char *path, struct pp_stanza *out,
		       struct pp_err *err)
{
	const struct pp_ctrl_member *control;
	struct pp_ctrl_members cm;
	struct pp_deb deb;
	int rc;

	pp_stanza_init(out);
	if (pp_deb_open(&deb, path, err) < 0)
		return -1;
	rc = pp_deb_read_control(&deb, &cm, err);
	pp_deb_close(&deb);
	if (rc < 0)
		return -1;
	control = pp_ctrl_members_find(&cm, "control");
	if (!control)
		rc = pp_err_set(err, PP_EXIT_INPUT, "'%s' has no control file",
				path);
	else
		rc = pp_control_parse(control->data.buf, control->data.len,
				      path, out, err);
	pp_ctrl_members_release(&cm);
	return rc;
}

int pp_deb_read_control(struct pp_deb *deb, struct pp_ctrl_members *out,
			struct pp_err *err)
{
	return pp_deb_read_control_tap(deb, out, NULL, err);
}

int pp_deb_read_control_tap(struct pp_deb *deb, struct pp_ctrl_members *out,
			    struct pp_deb_tap *tap, struct pp_err *err)
{
	struct archive_entry *ae;
	struct archive *a;
	int r, rc = 0;

	memset(out, 0, sizeof(*out));
	a = pp_deb_member_open_tap(deb, &deb->control, tap, err);
	if (!a)
		return -1;
	while (!rc && (r = archive_read_next_header(a, &ae)) == ARCHIVE_OK)
		rc = ctrl_entry(deb, a, ae, out, err);
	if (!rc && r != ARCHIVE_EOF)
		rc = pp_err_set(err, PP_EXIT_INPUT, "'%s': member '%s': %s",
				deb->ar.path, deb->control.name,
				archive_error_string(a));
	archive_read_free(a);
	if (rc)
		pp_ctrl_members_release(out);
	else if (out->nr)
		qsort(out->m, out->nr, sizeof(*out->m), cmp_member);
	return rc;
}

void pp_ctrl_members_release(struct pp_ctrl_members *cm)
{
	for (size_t i = 0; i < cm->nr; i++) {
		free(cm->m[i].name);
		strbuf_release(&cm->m[i].data);
	}
	free(cm->m);
	memset(cm, 0, sizeof(*cm));
}

const struct pp_ctrl_member *pp_ctrl_members_find(
	const struct pp_ctrl_members *cm, const char *name)
{
	for (size_t i = 0; i < cm->nr; i++)
		if (!strcmp(cm->m[i].name, name))
			return &cm->m[i];
	return NULL;
}

/* ---- extraction to disk ----------------------------------------------- */

struct extract {
	struct pp_deb *deb;
	const struct pp_ar_member *m;
	char *root;          /* canonical target directory */
	struct archive *disk;
	char **files;        /* regular files written so far (for hard links) */
	size_t nr, alloc;
	struct strbuf full;
	struct pp_err *err;
};

static int refuse(struct extract *x, const char *name, const char *why)
{
	return pp_err_set(x->err, PP_EXIT_INPUT, "'%s': member '%s': entry "
			  "'%s' %s; refusing to extract it (nothing was written "
			  "for it)", x->deb->ar.path, x->m->name, name, why);
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

static int known_file(struct extract *x, const char *rel)
{
	for (size_t i = 0; i < x->nr; i++)
		if (!strcmp(x->files[i], rel))
			return 1;
	return 0;
}

static int check_hardlink(struct extract *x, struct archive_entry *ae,
			  const char *orig)
{
	const char *why = "", *target = archive_entry_hardlink(ae);
	const char *rel = relative_name(target, &why);

	if (!rel)
		return refuse(x, orig, "is a hard link to a path that "
			      "would lie outside the target");
	if (!known_file(x, rel))
		return refuse(x, orig, "is a hard link to something that is "
			      "not a file extracted before it");
	strbuf_reset(&x->full);
	strbuf_addf(&x->full, "%s/%s", x->root, rel);
	archive_entry_set_hardlink(ae, x->full.buf);
	return 0;
}

static int check_entry(struct extract *x, struct archive_entry *ae,
		       const char **relp)
{
	const char *orig = archive_entry_pathname(ae), *why = "";
	const char *rel = orig ? relative_name(orig, &why) : NULL;
	mode_t mode = archive_entry_mode(ae);

	if (!orig)
		return refuse(x, "", "has no name");
	if (!rel)
		return refuse(x, orig, why);
	if (archive_entry_hardlink(ae)) {
		if (check_hardlink(x, ae, orig) < 0)
			return -1;
	} else if (S_ISCHR(mode) || S_ISBLK(mode)) {
		return refuse(x, orig, "is a device node");
	} else if (!S_ISREG(mode) && !S_ISDIR(mode) && !S_ISLNK(mode)) {
		return refuse(x, orig, "is a FIFO, socket or unknown type");
	}
	if (check_parents(x, orig, rel) < 0)
		return -1;
	*relp = rel;
	return 0;
}

static int copy_data(struct extract *x, struct archive *in, const char *name)
{
	const void *buf;
	size_t len;
	la_int64_t off;
	int r;

	while ((r = archive_read_data_block(in, &buf, &len, &off)) == ARCHIVE_OK)
		if (archive_write_data_block(x->disk, buf, len, off) != ARCHIVE_OK)
			return pp_err_set(x->err, PP_EXIT_IO, "cannot write "
					  "'%s': %s", name,
					  archive_error_string(x->disk));
	if (r != ARCHIVE_EOF)
		return pp_err_set(x->err, PP_EXIT_INPUT, "'%s': member '%s': %s",
				  x->deb->ar.path, x->m->name,
				  archive_error_string(in));
	return 0;
}

static int extract_entry(struct extract *x, struct archive *in,
			 struct archive_entry *ae)
{
	const char *rel = NULL;
	char *name;
	int rc = 0;

	if (check_entry(x, ae, &rel) < 0)
		return -1;
	name = xstrdup(rel);
	strbuf_reset(&x->full);
	strbuf_addf(&x->full, "%s%s%s", x->root, *name ? "/" : "", name);
	while (x->full.len > 1 && x->full.buf[x->full.len - 1] == '/')
		strbuf_setlen(&x->full, x->full.len - 1);
	archive_entry_set_pathname(ae, x->full.buf);
	if (archive_write_header(x->disk, ae) != ARCHIVE_OK)
		rc = pp_err_set(x->err, PP_EXIT_IO, "cannot extract '%s': %s",
				x->full.buf, archive_error_string(x->disk));
	else if (S_ISREG(archive_entry_mode(ae)) && !archive_entry_hardlink(ae))
		rc = copy_data(x, in, x->full.buf);
	if (!rc && S_ISREG(archive_entry_mode(ae))) {
		ARRAY_GROW(x->files, x->alloc, x->nr + 1);
		x->files[x->nr++] = name;
		name = NULL;
	}
	free(name);
	return rc;
}

static struct archive *disk_writer(void)
{
	struct archive *disk = archive_write_disk_new();
	int flags = ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_PERM |
		    ARCHIVE_EXTRACT_UNLINK | ARCHIVE_EXTRACT_SECURE_SYMLINKS |
		    ARCHIVE_EXTRACT_SECURE_NODOTDOT;

	/* As root, restore ownership (and with it setuid bits) as tar does. */
	if (geteuid() == 0)
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
		   const char *dir, struct pp_err *err)
{
	struct extract x = { deb, member, NULL, NULL, NULL, 0, 0, STRBUF_INIT,
			     err };
	int rc;

	if (pp_mkdir_p(dir, 0755, err) < 0)
		return -1;
	x.root = realpath(dir, NULL);
	if (!x.root)
		return pp_err_errno(err, PP_EXIT_IO, "cannot resolve '%s'", dir);
	x.disk = disk_writer();
	rc = extract_all(&x);
	archive_write_free(x.disk);
	for (size_t i = 0; i < x.nr; i++)
		free(x.files[i]);
	free(x.files);
	free(x.root);
	strbuf_release(&x.full);
	return rc;
}
