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

/* Control archives hold a few small files; more is hostile (and would
 * all be read into memory). */
#define CTRL_MAX (64u << 20)     /* bytes of all the control files */
#define CTRL_ENTRIES_MAX 10000

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
	size_t entries;
	uint64_t bytes;
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
	ARRAY_GROW(out->m, out->alloc, out->nr + 1);
	cm = &out->m[out->nr++];
	cm->name = xstrndup(name, n);
	cm->mode = mode;
	cm->plain = 0;
	strbuf_init(&cm->data);
}

static int ctrl_limits(struct ctrl_read *cr, const char *name, int64_t size,
		       struct pp_err *err)
{
	if (++cr->entries > CTRL_ENTRIES_MAX)
		return pp_err_set(err, PP_EXIT_INPUT, "'%s': member '%s' has "
				  "more than %d entries; a control archive holds "
				  "a few files", cr->deb->ar.path,
				  cr->deb->control.name, CTRL_ENTRIES_MAX);
	if (size < 0)
		return pp_err_set(err, PP_EXIT_INPUT, "'%s': control file '%s' "
				  "declares a negative size (%lld) in its tar "
				  "header", cr->deb->ar.path, name,
				  (long long)size);
	if ((cr->bytes += (uint64_t)size) > CTRL_MAX)
		return pp_err_set(err, PP_EXIT_INPUT, "'%s': control file '%s' "
				  "brings the control files past %u MiB",
				  cr->deb->ar.path, name, CTRL_MAX >> 20);
	return 0;
}

static int ctrl_entry(struct ctrl_read *cr, struct archive *a,
		      struct archive_entry *ae, struct pp_err *err)
{
	const char *why = "", *name = pp_deb_relative_name(
		archive_entry_pathname(ae), &why);
	mode_t mode = archive_entry_mode(ae);
	struct pp_ctrl_members *out = cr->out;
	struct pp_ctrl_member *cm;
	int plain = S_ISREG(mode) && !archive_entry_hardlink(ae);

	if (!name)
		return pp_err_set(err, PP_EXIT_INPUT, "'%s': control member "
				  "'%s' %s", cr->deb->ar.path,
				  archive_entry_pathname(ae), why);
	while (*name == '/')
		name++;
	if (ctrl_limits(cr, name, plain ? archive_entry_size(ae) : 0,
			err) < 0)
		return -1;
	if (!*name || !strcmp(name, "."))
		return 0;
	if (!plain || strchr(name, '/')) {
		ctrl_other(out, name, mode);
		return 0;
	}
	ARRAY_GROW(out->m, out->alloc, out->nr + 1);
	cm = &out->m[out->nr++];
	cm->name = xstrdup(name);
	cm->mode = mode;
	cm->plain = 1;
	strbuf_init(&cm->data);
	if (read_ctrl_data(a, cm, archive_entry_size(ae)) < 0)
		return pp_err_set(err, PP_EXIT_INPUT, "'%s': control file '%s': "
				  "%s", cr->deb->ar.path, name,
				  archive_error_string(a));
	return 0;
}

/* Sorted; a name given twice is ambiguous (which control file is the
 * package's?) unless both are directories. */
static int ctrl_sort(struct pp_deb *deb, struct pp_ctrl_members *cm,
		     struct pp_err *err)
{
	size_t kept = 0;

	if (cm->nr)
		qsort(cm->m, cm->nr, sizeof(*cm->m), cmp_member);
	for (size_t i = 0; i < cm->nr; i++) {
		struct pp_ctrl_member *m = &cm->m[i];

		if (kept && !strcmp(cm->m[kept - 1].name, m->name)) {
			if (m->plain || cm->m[kept - 1].plain ||
			    !S_ISDIR(m->mode) || !S_ISDIR(cm->m[kept - 1].mode)) {
				pp_err_set(err, PP_EXIT_INPUT, "'%s': the control "
					   "archive names '%s' twice; which one "
					   "is meant is ambiguous", deb->ar.path,
					   m->name);
				memmove(&cm->m[kept], m, (cm->nr - i) *
					sizeof(*m));
				cm->nr = kept + (cm->nr - i);
				return -1;
			}
			free(m->name);
			strbuf_release(&m->data);
			continue;
		}
		cm->m[kept++] = *m;
	}
	cm->nr = kept;
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
	struct ctrl_read cr = { deb, out, 0, 0 };
	struct archive_entry *ae;
	struct archive *a;
	int r, rc = 0;

	memset(out, 0, sizeof(*out));
	a = pp_deb_member_open_tap(deb, &deb->control, tap, err);
	if (!a)
		return -1;
	while (!rc && (r = archive_read_next_header(a, &ae)) == ARCHIVE_OK)
		rc = ctrl_entry(&cr, a, ae, err);
	if (!rc && r != ARCHIVE_EOF)
		rc = pp_err_set(err, PP_EXIT_INPUT, "'%s': member '%s': %s",
				deb->ar.path, deb->control.name,
				archive_error_string(a));
	archive_read_free(a);
	if (!rc)
		rc = ctrl_sort(deb, out, err);
	if (rc)
		pp_ctrl_members_release(out);
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

void pp_ctrl_member_shape(const struct pp_ctrl_member *m, int *lines,
			  char interp[256])
{
	const char *d = m->data.buf, *end = d + m->data.len, *p;

	*lines = 0;
	interp[0] = '\0';
	/* dpkg-deb consumes the first one or two bytes unseen by the line
	 * count while it looks for "#!"; do the same so the counts agree. */
	p = d < end ? d + 1 : d;
	if (p < end && d[0] == '#')
		p++;
	if (m->data.len >= 2 && d[0] == '#' && d[1] == '!') {
		size_t n = 2;

		while (p < end && *p == ' ')
			p++;
		strcpy(interp, "#!");
		while (p < end && n < 210 && !strchr(" \t\n\v\f\r", *p))
			interp[n++] = *p++;
		interp[n] = '\0';
	}
	for (; p < end; p++)
		*lines += *p == '\n';
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

