/* Reading the control archive into memory. */
#include "deb.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "control.h"
#include "debint.h"
#include "fsutil.h"
#include "xalloc.h"

#define CTRL_MAX (64u << 20) /* a control file larger than this is hostile */

const char *pp_deb_relative_name(const char *name, const char **why)
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

/* An entry that is not a plain file at the top: listed, not read (as
 * dpkg-deb --info says "not a plain file"); what lies below is ignored. */
static void ctrl_other(struct pp_ctrl_members *out, const char *name,
		       mode_t mode)
{
	struct pp_ctrl_member *cm;
	size_t n = strcspn(name, "/");

	if (name[n] && name[n + 1])
		return;
	for (size_t i = 0; i < out->nr; i++)
		if (strlen(out->m[i].name) == n &&
		    !strncmp(out->m[i].name, name, n))
			return;
	ARRAY_GROW(out->m, out->alloc, out->nr + 1);
	cm = &out->m[out->nr++];
	cm->name = xstrndup(name, n);
	cm->mode = mode;
	cm->plain = 0;
	strbuf_init(&cm->data);
}

static int ctrl_entry(struct pp_deb *deb, struct archive *a,
		      struct archive_entry *ae, struct pp_ctrl_members *out,
		      struct pp_err *err)
{
	const char *why = "", *name = pp_deb_relative_name(
		archive_entry_pathname(ae), &why);
	mode_t mode = archive_entry_mode(ae);
	struct pp_ctrl_member *cm;

	if (!name)
		return pp_err_set(err, PP_EXIT_INPUT, "'%s': control member "
				  "'%s' %s", deb->ar.path,
				  archive_entry_pathname(ae), why);
	while (*name == '/')
		name++;
	if (!*name || !strcmp(name, "."))
		return 0;
	if (!S_ISREG(mode) || archive_entry_hardlink(ae) || strchr(name, '/')) {
		ctrl_other(out, name, mode);
		return 0;
	}
	if (archive_entry_size(ae) > CTRL_MAX)
		return pp_err_set(err, PP_EXIT_INPUT, "'%s': control file '%s' "
				  "is larger than %u MiB", deb->ar.path, name,
				  CTRL_MAX >> 20);
	ARRAY_GROW(out->m, out->alloc, out->nr + 1);
	cm = &out->m[out->nr++];
	cm->name = xstrdup(name);
	cm->mode = mode;
	cm->plain = 1;
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
		if (cm->m[i].plain && !strcmp(cm->m[i].name, name))
			return &cm->m[i];
	return NULL;
}

#define LIMIT_SLACK ((int64_t)16 << 20)

int64_t pp_deb_size_limit(struct pp_deb *deb, const char **why)
{
	struct pp_err quiet;
	struct pp_ctrl_members cm;
	const struct pp_ctrl_member *control;
	struct pp_stanza st;
	const char *size = NULL, *p;
	int64_t kib = 0;

	*why = "twice the package's Installed-Size, plus 16 MiB";
	pp_err_init(&quiet);
	if (pp_deb_read_control(deb, &cm, &quiet) < 0) {
		pp_err_release(&quiet);
		return -1;
	}
	pp_err_release(&quiet);
	control = pp_ctrl_members_find(&cm, "control");
	pp_stanza_init(&st);
	if (control) {
		pp_err_init(&quiet);
		pp_control_parse_lenient(control->data.buf, control->data.len,
					 "control", &st, &quiet);
		pp_err_release(&quiet);
		size = pp_stanza_get(&st, "Installed-Size");
	}
	for (p = size; p && *p >= '0' && *p <= '9' && kib < (1LL << 40); p++)
		kib = kib * 10 + (*p - '0');
	if (!size || p == size || *p || kib >= (1LL << 40))
		kib = -1; /* many packages do not say; free space still limits */
	pp_stanza_release(&st);
	pp_ctrl_members_release(&cm);
	return kib < 0 ? -1 : kib * 2048 + LIMIT_SLACK;
}

