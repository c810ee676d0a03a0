/* Reading dpkg's database and the dynamic linker's configuration. */
#include "dpkgdb.h"

#include <dirent.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "control.h"
#include "fsutil.h"
#include "strbuf.h"
#include "xalloc.h"

void pp_dpkgdb_init(struct pp_dpkgdb *db, const char *admindir,
		    const char *arch, const char *triplet)
{
	const char *env = getenv("DPKG_ADMINDIR");

	memset(db, 0, sizeof(*db));
	db->admindir = xstrdup(admindir ? admindir :
			       env && *env ? env : "/var/lib/dpkg");
	db->confdir = xstrdup("/etc/dpkg");
	db->root = xstrdup("");
	db->arch = xstrdup(arch);
	db->triplet = xstrdup(triplet);
}

void pp_dpkgdb_release(struct pp_dpkgdb *db)
{
	free(db->admindir);
	free(db->confdir);
	free(db->root);
	free(db->arch);
	free(db->triplet);
	pp_strlist_release(&db->list_files);
	memset(db, 0, sizeof(*db));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_info(struct pp_dpkgdb *db, struct pp_err *err)
{
	struct strbuf dir = STRBUF_INIT;
	struct dirent *de;
	DIR *d;

	if (db->listed)
		return 0;
	strbuf_addf(&dir, "%s/info", db->admindir);
	d = opendir(dir.buf);
	if (!d) {
		pp_err_errno(err, PP_EXIT_IO, "cannot read dpkg's database '%s'",
			     dir.buf);
		strbuf_release(&dir);
		return -1;
	}
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n > 5 && !strcmp(de->d_name + n - 5, ".list"))
			pp_strlist_pushf(&db->list_files, "%s/%s", dir.buf,
					 de->d_name);
	}
	closedir(d);
	if (db->list_files.nr)
		qsort(db->list_files.items, db->list_files.nr,
		      sizeof(char *), cmp_str);
	db->listed = 1;
	strbuf_release(&dir);
	return 0;
}

/* The other spelling of a path under merged /usr, or NULL. */
static char *usrmerge_alias(const char *path)
{
	static const char *const dirs[] = { "/lib", "/lib32", "/lib64",
					    "/libx32", "/bin", "/sbin" };
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		size_t n = strlen(dirs[i]);

		if (!strncmp(path, dirs[i], n) && path[n] == '/') {
			strbuf_addf(&sb, "/usr%s", path);
			return strbuf_detach(&sb, NULL);
		}
		if (!strncmp(path, "/usr", 4) && !strncmp(path + 4, dirs[i], n) &&
		    path[4 + n] == '/')
			return xstrdup(path + 4);
	}
	return NULL;
}

/* "libc6:amd64" from ".../info/libc6:amd64.list" */
static char *package_of_list(const char *list)
{
	const char *base = strrchr(list, '/');
	size_t n;

	base = base ? base + 1 : list;
	n = strlen(base) - 5;
	return xstrndup(base, n);
}

static int has_line(const struct strbuf *text, const char *line)
{
	size_t n = strlen(line);
	const char *p = text->buf, *end = text->buf + text->len;

	while ((p = memmem(p, (size_t)(end - p), line, n))) {
		if ((p == text->buf || p[-1] == '\n') &&
		    (p + n == end || p[n] == '\n'))
			return 1;
		p++;
	}
	return 0;
}

int pp_dpkgdb_owners(struct pp_dpkgdb *db, const struct pp_strlist *paths,
		     struct pp_strlist *owners, struct pp_err *err)
{
	struct pp_strlist alias = PP_STRLIST_INIT;
	struct strbuf text = STRBUF_INIT;
	size_t left = paths->nr;
	int rc;

	for (size_t i = 0; i < paths->nr; i++) {
		char *a = usrmerge_alias(paths->items[i]);

		pp_strlist_push(owners, "");
		pp_strlist_push_owned(&alias, a ? a : xstrdup(""));
	}
	if (left && list_info(db, err) < 0) {
		pp_strlist_release(&alias);
		return -1;
	}
	for (size_t f = 0; f < db->list_files.nr && left; f++) {
		struct pp_err gone;

		strbuf_reset(&text);
		pp_err_init(&gone);
		/* a list removed while we read it owns nothing */
		rc = pp_read_file(db->list_files.items[f], &text, &gone);
		pp_err_release(&gone);
		if (rc < 0)
			continue;
		for (size_t i = 0; i < paths->nr; i++) {
			if (*owners->items[i])
				continue;
			if (has_line(&text, paths->items[i]) ||
			    (*alias.items[i] && has_line(&text, alias.items[i]))) {
				free(owners->items[i]);
				owners->items[i] = package_of_list(
					db->list_files.items[f]);
				left--;
			}
		}
	}
	strbuf_release(&text);
	pp_strlist_release(&alias);
	return 0;
}

char *pp_dpkgdb_control_file(const struct pp_dpkgdb *db, const char *package,
			     const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	const char *colon = strchr(package, ':');
	struct stat st;

	/* "pkg:arch" as owners gives, or plain names of arch: all packages */
	if (colon)
		strbuf_addf(&sb, "%s/info/%s.%s", db->admindir, package, name);
	else
		strbuf_addf(&sb, "%s/info/%s:%s.%s", db->admindir, package,
			    db->arch, name);
	if (stat(sb.buf, &st) == 0)
		return strbuf_detach(&sb, NULL);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s/info/%.*s.%s", db->admindir,
		    colon ? (int)(colon - package) : (int)strlen(package),
		    package, name);
	if (stat(sb.buf, &st) == 0)
		return strbuf_detach(&sb, NULL);
	strbuf_release(&sb);
	return NULL;
}

static void push_unique(struct pp_strlist *dirs, const char *d)
{
	size_t n = strlen(d);

	while (n > 1 && d[n - 1] == '/')
		n--;
	for (size_t i = 0; i < dirs->nr; i++)
		if (strlen(dirs->items[i]) == n && !strncmp(dirs->items[i], d, n))
			return;
	pp_strlist_push_owned(dirs, xstrndup(d, n));
}

static void read_ld_conf(const struct pp_dpkgdb *db, const char *file,
			 struct pp_strlist *dirs, int depth);

static void ld_include(const struct pp_dpkgdb *db, const char *pattern,
		       const char *from, struct pp_strlist *dirs, int depth)
{
	struct strbuf pat = STRBUF_INIT;
	glob_t g;

	if (*pattern == '/') {
		strbuf_addf(&pat, "%s%s", db->root, pattern);
	} else {
		char *dir = pp_dirname(from);

		strbuf_addf(&pat, "%s/%s", dir, pattern);
		free(dir);
	}
	if (glob(pat.buf, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++)
			read_ld_conf(db, g.gl_pathv[i], dirs, depth + 1);
		globfree(&g);
	}
	strbuf_release(&pat);
}

static void read_ld_conf(const struct pp_dpkgdb *db, const char *file,
			 struct pp_strlist *dirs, int depth)
{
	struct strbuf text = STRBUF_INIT;
	struct pp_err e;
	char *save = NULL, *line;

	pp_err_init(&e);
	if (depth > 8 || pp_read_file(file, &text, &e) < 0) {
		pp_err_release(&e);
		strbuf_release(&text);
		return;
	}
	pp_err_release(&e);
	for (line = strtok_r(text.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *hash = strchr(line, '#'), *w;

		if (hash)
			*hash = '\0';
		w = line + strspn(line, " \t");
		w[strcspn(w, " \t\r")] = '\0';
		if (!strcmp(w, "include")) {
			char *arg = w + strlen(w) + 1;

			arg += strspn(arg, " \t");
			arg[strcspn(arg, " \t\r")] = '\0';
			if (*arg)
				ld_include(db, arg, file, dirs, depth);
		} else if (*w == '/') {
			push_unique(dirs, w);
		}
	}
	strbuf_release(&text);
}

void pp_ld_library_dirs(const struct pp_dpkgdb *db, struct pp_strlist *dirs)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s/etc/ld.so.conf", db->root);
	read_ld_conf(db, sb.buf, dirs, 0);
	strbuf_release(&sb);
	pp_strlist_pushf(dirs, "/lib/%s", db->triplet);
	pp_strlist_pushf(dirs, "/usr/lib/%s", db->triplet);
	push_unique(dirs, "/lib");
	push_unique(dirs, "/usr/lib");
}

/* ---- status ----------------------------------------------------------- */

static char *field_or_empty(const struct pp_stanza *st, const char *name)
{
	const char *v = pp_stanza_get(st, name);

	return xstrdup(v ? v : "");
}

static void add_installed(struct pp_installed_set *set,
			  const struct pp_stanza *st)
{
	const char *status = pp_stanza_get(st, "Status");
	const char *pre = pp_stanza_get(st, "Pre-Depends");
	const char *dep = pp_stanza_get(st, "Depends");
	const char *ess = pp_stanza_get(st, "Essential");
	struct pp_installed *p;

	if (!status || !strstr(status, " installed") ||
	    !pp_stanza_get(st, "Package") || !pp_stanza_get(st, "Version"))
		return;
	ARRAY_GROW(set->pkgs, set->alloc, set->nr + 1);
	p = &set->pkgs[set->nr++];
	p->name = field_or_empty(st, "Package");
	p->version = field_or_empty(st, "Version");
	p->arch = field_or_empty(st, "Architecture");
	p->provides = field_or_empty(st, "Provides");
	if (pre && dep) {
		p->depends = xmalloc(strlen(pre) + strlen(dep) + 3);
		sprintf(p->depends, "%s, %s", pre, dep);
	} else {
		p->depends = xstrdup(pre ? pre : dep ? dep : "");
	}
	p->essential = ess && !strcmp(ess, "yes");
}

int pp_dpkgdb_installed(const struct pp_dpkgdb *db, struct pp_installed_set *out,
			struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct pp_deb822 p;
	struct pp_stanza st;
	int rc;

	memset(out, 0, sizeof(*out));
	strbuf_addf(&path, "%s/status", db->admindir);
	rc = pp_read_file(path.buf, &text, err);
	if (rc == 0) {
		pp_deb822_init(&p, text.buf, text.len, path.buf);
		pp_stanza_init(&st);
		while ((rc = pp_deb822_next(&p, &st, err)) > 0) {
			add_installed(out, &st);
			pp_stanza_release(&st);
			pp_stanza_init(&st);
		}
		pp_stanza_release(&st);
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return rc < 0 ? -1 : 0;
}

void pp_installed_release(struct pp_installed_set *set)
{
	for (size_t i = 0; i < set->nr; i++) {
		free(set->pkgs[i].name);
		free(set->pkgs[i].version);
		free(set->pkgs[i].arch);
		free(set->pkgs[i].depends);
		free(set->pkgs[i].provides);
	}
	free(set->pkgs);
	memset(set, 0, sizeof(*set));
}
