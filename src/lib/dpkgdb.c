/* Reading dpkg's database and the dynamic linker's configuration. */
#include "dpkgdb.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proc.h"
#include "fsutil.h"
#include "strbuf.h"
#include "xalloc.h"

void pp_dpkgdb_init(struct pp_dpkgdb *db, const char *admindir,
		    const char *arch, const char *triplet)
{
	memset(db, 0, sizeof(*db));
	db->admindir = admindir ? xstrdup(admindir) : NULL;
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
	memset(db, 0, sizeof(*db));
}

/* Runs dpkg-query with args; its output in out. Its exit status is not
 * an error (--search fails when one path has no owner); not running is. */
static int dpkg_query(const struct pp_dpkgdb *db, const struct pp_strlist *args,
		      struct strbuf *out, struct pp_err *err)
{
	struct pp_strlist argv = PP_STRLIST_INIT;
	int status, rc;

	pp_strlist_push(&argv, "dpkg-query");
	if (db->admindir)
		pp_strlist_pushf(&argv, "--admindir=%s", db->admindir);
	pp_strlist_extend(&argv, args);
	rc = pp_proc_capture(argv.items, NULL, out, &status, err);
	if (rc == 0 && status == 127)
		rc = pp_err_set(err, PP_EXIT_IO, "cannot run dpkg-query; padpack "
				"asks it which installed package has a library");
	pp_strlist_release(&argv);
	return rc;
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

/* One line of --search: "pkg1, pkg2: path" gives pkg1 for path. */
static void owner_line(const char *line, const struct pp_strlist *paths,
		       const struct pp_strlist *alias, struct pp_strlist *owners)
{
	const char *sep = strstr(line, ": ");

	if (!sep || !strncmp(line, "diversion by", 12))
		return;
	for (size_t i = 0; i < paths->nr; i++)
		if (!*owners->items[i] && (!strcmp(sep + 2, paths->items[i]) ||
		    !strcmp(sep + 2, alias->items[i]))) {
			free(owners->items[i]);
			owners->items[i] = xstrndup(line, strcspn(line, ",:"));
		}
}

int pp_dpkgdb_owners(struct pp_dpkgdb *db, const struct pp_strlist *paths,
		     struct pp_strlist *owners, struct pp_err *err)
{
	struct pp_strlist alias = PP_STRLIST_INIT, args = PP_STRLIST_INIT;
	struct strbuf out = STRBUF_INIT;
	char *save = NULL, *line;
	int rc = 0;

	pp_strlist_push(&args, "--search");
	for (size_t i = 0; i < paths->nr; i++) {
		char *a = usrmerge_alias(paths->items[i]);

		pp_strlist_push(owners, "");
		pp_strlist_push(&args, paths->items[i]);
		if (a)
			pp_strlist_push(&args, a);
		pp_strlist_push_owned(&alias, a ? a : xstrdup(""));
	}
	if (paths->nr)
		rc = dpkg_query(db, &args, &out, err);
	for (line = rc == 0 ? strtok_r(out.buf, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save))
		owner_line(line, paths, &alias, owners);
	strbuf_release(&out);
	pp_strlist_release(&args);
	pp_strlist_release(&alias);
	return rc;
}

char *pp_dpkgdb_control_file(const struct pp_dpkgdb *db, const char *package,
			     const char *name)
{
	struct pp_strlist args = PP_STRLIST_INIT;
	struct strbuf out = STRBUF_INIT;
	struct pp_err e;
	char *path = NULL;

	pp_err_init(&e);
	pp_strlist_push(&args, "--control-path");
	pp_strlist_push(&args, package);
	pp_strlist_push(&args, name);
	if (dpkg_query(db, &args, &out, &e) == 0) {
		strbuf_rtrim(&out);
		if (out.len && !strchr(out.buf, '\n'))
			path = strbuf_detach(&out, NULL);
	}
	pp_err_release(&e);
	strbuf_release(&out);
	pp_strlist_release(&args);
	return path;
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
	strbuf_reset(&sb);
	strbuf_addf(&sb, "/lib/%s", db->triplet);
	push_unique(dirs, sb.buf);
	strbuf_reset(&sb);
	strbuf_addf(&sb, "/usr/lib/%s", db->triplet);
	push_unique(dirs, sb.buf);
	push_unique(dirs, "/lib");
	push_unique(dirs, "/usr/lib");
	strbuf_release(&sb);
}

/* ---- installed packages ---------------------------------------------- */

static void add_installed(struct pp_installed_set *set, char *line)
{
	char *f[8], *rest = line;
	struct pp_installed *p;
	size_t n = 0;

	while (n < 8 && (f[n] = strsep(&rest, "\t")))
		n++;
	/* Package, Version, Architecture, Essential, Status, Pre-Depends,
	 * Depends, Provides */
	if (n < 8 || strcmp(f[4], "installed"))
		return;
	ARRAY_GROW(set->pkgs, set->alloc, set->nr + 1);
	p = &set->pkgs[set->nr++];
	p->name = xstrdup(f[0]);
	p->version = xstrdup(f[1]);
	p->arch = xstrdup(f[2]);
	p->essential = !strcmp(f[3], "yes");
	p->provides = xstrdup(f[7]);
	if (*f[5] && *f[6]) {
		p->depends = xmalloc(strlen(f[5]) + strlen(f[6]) + 3);
		sprintf(p->depends, "%s, %s", f[5], f[6]);
	} else {
		p->depends = xstrdup(*f[5] ? f[5] : f[6]);
	}
}

int pp_dpkgdb_installed(const struct pp_dpkgdb *db, struct pp_installed_set *out,
			struct pp_err *err)
{
	struct pp_strlist args = PP_STRLIST_INIT;
	struct strbuf text = STRBUF_INIT;
	char *save = NULL, *line;
	int rc;

	memset(out, 0, sizeof(*out));
	pp_strlist_push(&args, "--show");
	pp_strlist_push(&args, "--showformat=${Package}\t${Version}\t"
			"${Architecture}\t${Essential}\t${db:Status-Status}\t"
			"${Pre-Depends}\t${Depends}\t${Provides}\n");
	rc = dpkg_query(db, &args, &text, err);
	for (line = rc == 0 ? strtok_r(text.buf, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save))
		add_installed(out, line);
	pp_strlist_release(&args);
	strbuf_release(&text);
	return rc;
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
