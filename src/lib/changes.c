/* The files beside a run's packages: SHA256SUMS (as sha256sum writes it),
 * a .buildinfo as dpkg-genbuildinfo writes it and a .changes as
 * dpkg-genchanges writes it for a binary-only build (deb-changes(5),
 * deb-buildinfo(5)); and the changelog every package ships, which they
 * quote.
 * Layer: below split-build.c, which calls in here; nothing here calls
 * back up into the build. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "control.h"
#include "dpkgdb.h"
#include "fsutil.h"
#include "hash.h"
#include "splitint.h"
#include "xalloc.h"

struct sums {
	char *name;
	unsigned long long size;
	char md5[33], sha1[41], sha256[65];
};

static int hash_file(const char *dir, const char *name, struct sums *out,
		     struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT;
	struct pp_hash h[3];
	unsigned char buf[65536];
	ssize_t n;
	int fd;

	strbuf_addf(&path, "%s/%s", dir, name);
	fd = open(path.buf, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		pp_err_errno(err, PP_EXIT_IO, "cannot read '%s'", path.buf);
		strbuf_release(&path);
		return -1;
	}
	strbuf_release(&path);
	pp_hash_init(&h[0], PP_MD5);
	pp_hash_init(&h[1], PP_SHA1);
	pp_hash_init(&h[2], PP_SHA256);
	out->name = xstrdup(name);
	out->size = 0;
	while ((n = pp_read_full(fd, buf, sizeof(buf))) > 0) {
		for (int i = 0; i < 3; i++)
			pp_hash_update(&h[i], buf, (size_t)n);
		out->size += (unsigned long long)n;
	}
	close(fd);
	pp_hash_final_hex(&h[0], out->md5);
	pp_hash_final_hex(&h[1], out->sha1);
	pp_hash_final_hex(&h[2], out->sha256);
	if (n < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot read '%s'", name);
	return 0;
}

static int cmp_sums(const void *a, const void *b)
{
	return strcmp(((const struct sums *)a)->name,
		      ((const struct sums *)b)->name);
}

static void free_sums(struct sums *s, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(s[i].name);
	free(s);
}

static void rfc2822_utc(time_t t, char *buf, size_t len)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%a, %d %b %Y %H:%M:%S +0000", &tm);
}

/* ---- the changelog every package ships ----------------------------- */

int pp_split_changelog(const struct pp_split *s, struct strbuf *out,
		       struct pp_err *err)
{
	const struct pp_spec *spec = s->spec;
	char date[64];

	if (spec->changelog)
		return pp_read_file(spec->changelog, out, err);
	rfc2822_utc(s->opts.timestamp, date, sizeof(date));
	strbuf_addf(out, "%s (%s) %s; urgency=%s\n\n"
		    "  * Built by padpack split from the staged build of %s %s"
		    "\n    (%zu variant%s).\n\n -- %s  %s\n", spec->name,
		    s->version, spec->distribution ? spec->distribution :
		    "unstable", spec->urgency ? spec->urgency : "medium",
		    spec->name, s->upstream, s->nr_stages,
		    s->nr_stages == 1 ? "" : "s", spec->maintainer, date);
	return 0;
}

/* ---- the changelog's top entry ----------------------------------------- */

struct entry {
	char *distribution, *urgency, *changed_by, *text;
};

static void parse_top_entry(const char *log, struct entry *e)
{
	const char *end = strstr(log, "\n -- "), *semi, *eol;
	struct strbuf text = STRBUF_INIT;
	const char *p;

	memset(e, 0, sizeof(*e));
	/* "name (version) dist; urgency=u" */
	p = strchr(log, ')');
	semi = p ? strchr(p, ';') : NULL;
	eol = strchr(log, '\n');
	if (p && semi && (!eol || semi < eol)) {
		p += 1 + strspn(p + 1, " ");
		e->distribution = xstrndup(p, strcspn(p, " ;"));
		p = strstr(semi, "urgency=");
		if (p && (!eol || p < eol))
			e->urgency = xstrndup(p + 8, strcspn(p + 8, " ,\n"));
	}
	if (end) {
		p = end + 5;
		e->changed_by = xstrndup(p, (size_t)(strstr(p, "  ") ?
			strstr(p, "  ") - p : (long)strcspn(p, "\n")));
	}
	/* the entry's lines, empty ones as " ." */
	for (p = log; *p && (!end || p <= end);) {
		size_t n = strcspn(p, "\n");

		while (n && p[n - 1] == ' ')
			n--;
		if (n)
			strbuf_addf(&text, "\n %.*s", (int)n, p);
		else if (p != log)
			strbuf_addstr(&text, "\n .");
		p += strcspn(p, "\n");
		if (*p)
			p++;
	}
	while (text.len >= 3 && !strcmp(text.buf + text.len - 3, "\n ."))
		strbuf_setlen(&text, text.len - 3);
	e->text = strbuf_detach(&text, NULL);
}

static void entry_release(struct entry *e)
{
	free(e->distribution);
	free(e->urgency);
	free(e->changed_by);
	free(e->text);
}

/* ---- .buildinfo -------------------------------------------------------- */

static void add_names(struct pp_strlist *todo, const char *deps)
{
	char *copy = xstrdup(deps), *save = NULL, *part;

	for (part = strtok_r(copy, ",|", &save); part;
	     part = strtok_r(NULL, ",|", &save)) {
		part += strspn(part, " \t\n");
		part[strcspn(part, " \t\n(:")] = '\0';
		if (*part)
			pp_strlist_push(todo, part);
	}
	free(copy);
}

static const struct pp_installed *installed(const struct pp_installed_set *set,
					    const char *name)
{
	for (size_t i = 0; i < set->nr; i++)
		if (!strcmp(set->pkgs[i].name, name))
			return &set->pkgs[i];
	return NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* dpkg-genbuildinfo's closure: the essential packages, build-essential
 * and the build dependencies, with everything they depend on, as
 * installed ("pkg (= version)"); a virtual name brings its providers. */
static int installed_build_depends(const struct pp_split *s, struct strbuf *out,
				   struct pp_err *err)
{
	struct pp_dpkgdb db;
	struct pp_installed_set set;
	struct pp_strlist todo = PP_STRLIST_INIT, seen = PP_STRLIST_INIT;
	int rc;

	pp_dpkgdb_init(&db, s->opts.admindir, s->arch, s->triplet);
	rc = pp_dpkgdb_installed(&db, &set, err);
	pp_dpkgdb_release(&db);
	if (rc < 0)
		return -1;
	for (size_t i = 0; i < set.nr; i++)
		if (set.pkgs[i].essential)
			pp_strlist_push(&todo, set.pkgs[i].name);
	pp_strlist_push(&todo, "build-essential");
	pp_strlist_extend(&todo, &s->spec->build_depends);
	for (size_t t = 0; t < todo.nr; t++) {
		const struct pp_installed *p = installed(&set, todo.items[t]);

		if (pp_strlist_find(&seen, todo.items[t]) >= 0)
			continue;
		pp_strlist_push(&seen, todo.items[t]);
		if (p) {
			add_names(&todo, p->depends);
			continue;
		}
		for (size_t i = 0; i < set.nr; i++) { /* a virtual package */
			struct pp_strlist prov = PP_STRLIST_INIT;

			add_names(&prov, set.pkgs[i].provides);
			if (pp_strlist_find(&prov, todo.items[t]) >= 0)
				pp_strlist_push(&todo, set.pkgs[i].name);
			pp_strlist_release(&prov);
		}
	}
	if (seen.nr)
		qsort(seen.items, seen.nr, sizeof(char *), cmp_str);
	for (size_t i = 0, n = 0; i < seen.nr; i++) {
		const struct pp_installed *p = installed(&set, seen.items[i]);

		if (p)
			strbuf_addf(out, "%s\n %s (= %s)", n++ ? "," : "",
				    p->name, p->version);
	}
	pp_strlist_release(&todo);
	pp_strlist_release(&seen);
	pp_installed_release(&set);
	return 0;
}

/* Dpkg::BuildInfo's allowed variables that are set, as NAME="value". */
static void environment(struct strbuf *out)
{
	static const char *const allowed[] = {
		"AR", "ARFLAGS", "AS", "ASFLAGS", "AWK", "CC", "CFLAGS", "CPP",
		"CPPFLAGS", "CXX", "CXXFLAGS", "DEB_BUILD_OPTIONS",
		"DEB_BUILD_PROFILES", "DEB_VENDOR", "DPKG_ADMINDIR",
		"DPKG_DEB_COMPRESSOR_LEVEL", "DPKG_DEB_COMPRESSOR_TYPE", "FC",
		"FFLAGS", "GNUMAKEFLAGS", "LANG", "LANGUAGE", "LC_ADDRESS",
		"LC_ALL", "LC_COLLATE", "LC_CTYPE", "LC_IDENTIFICATION",
		"LC_MEASUREMENT", "LC_MESSAGES", "LC_MONETARY", "LC_NAME",
		"LC_NUMERIC", "LC_PAPER", "LC_TELEPHONE", "LC_TIME", "LD",
		"LDFLAGS", "LD_LIBRARY_PATH", "LD_PRELOAD", "MAKE", "MAKEFLAGS",
		"OBJC", "OBJCXX", "RANLIB", "SOURCE_DATE_EPOCH", "TZ", NULL,
	};

	for (const char *const *a = allowed; *a; a++) {
		const char *v = getenv(*a);

		if (!v)
			continue;
		strbuf_addf(out, "\n %s=\"", *a);
		for (; *v; v++) {
			if (*v == '"')
				strbuf_addch(out, '\\');
			strbuf_addch(out, *v);
		}
		strbuf_addch(out, '"');
	}
}

static int has_regular_file(const char *dir, int depth)
{
	struct dirent *de;
	DIR *d = depth < 16 ? opendir(dir) : NULL;
	int found = 0;

	while (d && !found && (de = readdir(d))) {
		struct strbuf p = STRBUF_INIT;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		strbuf_addf(&p, "%s/%s", dir, de->d_name);
		if (lstat(p.buf, &st) == 0)
			found = S_ISREG(st.st_mode) ||
				(S_ISDIR(st.st_mode) &&
				 has_regular_file(p.buf, depth + 1));
		strbuf_release(&p);
	}
	if (d)
		closedir(d);
	return found;
}

/* Debian's build-tainted-by: files under /usr/local. */
static void tainted_by(struct strbuf *out)
{
	static const char *const kinds[][3] = {
		{ "configs", "/usr/local/etc", NULL },
		{ "includes", "/usr/local/include", NULL },
		{ "libraries", "/usr/local/lib", NULL },
		{ "programs", "/usr/local/bin", "/usr/local/sbin" },
	};

	for (size_t i = 0; i < 4; i++)
		if (has_regular_file(kinds[i][1], 0) ||
		    (kinds[i][2] && has_regular_file(kinds[i][2], 0)))
			strbuf_addf(out, "\n usr-local-has-%s", kinds[i][0]);
}

static void checksums(struct strbuf *out, const char *field,
		      const struct sums *f, size_t nr, int which)
{
	strbuf_addf(out, "%s:", field);
	for (size_t i = 0; i < nr; i++)
		strbuf_addf(out, "\n %s %llu %s", which == 0 ? f[i].md5 :
			    which == 1 ? f[i].sha1 : f[i].sha256, f[i].size,
			    f[i].name);
	strbuf_addch(out, '\n');
}

static void binary_list(const struct pp_split *s, struct strbuf *out)
{
	struct pp_strlist names = PP_STRLIST_INIT;

	for (size_t i = 0; i < s->nr_pkgs; i++)
		pp_strlist_push(&names, s->pkgs[i].name);
	qsort(names.items, names.nr, sizeof(char *), cmp_str);
	for (size_t i = 0; i < names.nr; i++)
		strbuf_addf(out, "%s%s", i ? " " : "", names.items[i]);
	pp_strlist_release(&names);
}

/* Architectures in order of first appearance among the sorted files. */
static void arch_list(const struct pp_split *s, const struct sums *f,
		      size_t nr, int sorted, struct strbuf *out)
{
	struct pp_strlist archs = PP_STRLIST_INIT;

	for (size_t i = 0; i < nr; i++)
		for (size_t k = 0; k < s->nr_pkgs; k++)
			if (s->pkgs[k].deb && !strcmp(s->pkgs[k].deb, f[i].name)) {
				const char *a = s->pkgs[k].arch_all ? "all" :
						s->arch;

				if (pp_strlist_find(&archs, a) < 0)
					pp_strlist_push(&archs, a);
			}
	if (sorted && archs.nr)
		qsort(archs.items, archs.nr, sizeof(char *), cmp_str);
	for (size_t i = 0; i < archs.nr; i++)
		strbuf_addf(out, "%s%s", i ? " " : "", archs.items[i]);
	pp_strlist_release(&archs);
}

static int write_buildinfo(struct pp_split *s, const char *name,
			   const struct sums *debs, size_t nr,
			   struct pp_err *err)
{
	struct strbuf out = STRBUF_INIT, path = STRBUF_INIT;
	char date[64], cwd[4096];
	time_t now = time(NULL);
	struct tm tm;
	int rc;

	localtime_r(&now, &tm);
	strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S %z", &tm);
	strbuf_addf(&out, "Format: 1.0\nSource: %s\nBinary: ", s->spec->name);
	binary_list(s, &out);
	strbuf_addstr(&out, "\nArchitecture: ");
	arch_list(s, debs, nr, 1, &out);
	strbuf_addf(&out, "\nVersion: %s\n", s->version);
	checksums(&out, "Checksums-Md5", debs, nr, 0);
	checksums(&out, "Checksums-Sha1", debs, nr, 1);
	checksums(&out, "Checksums-Sha256", debs, nr, 2);
	strbuf_addf(&out, "Build-Origin: Debian\nBuild-Architecture: %s\n"
		    "Build-Date: %s\n", s->arch, date);
	if (getcwd(cwd, sizeof(cwd)) && !strncmp(cwd, "/build/", 7))
		strbuf_addf(&out, "Build-Path: %s\n", cwd);
	{
		struct strbuf t = STRBUF_INIT;

		tainted_by(&t);
		if (t.len)
			strbuf_addf(&out, "Build-Tainted-By:%s\n", t.buf);
		strbuf_release(&t);
	}
	strbuf_addstr(&out, "Installed-Build-Depends:");
	rc = installed_build_depends(s, &out, err);
	strbuf_addstr(&out, "\nEnvironment:");
	environment(&out);
	strbuf_addch(&out, '\n');
	strbuf_addf(&path, "%s/%s", s->opts.out_dir, name);
	if (rc == 0)
		rc = pp_write_file(path.buf, out.buf, out.len, 0644, err);
	strbuf_release(&out);
	strbuf_release(&path);
	return rc;
}

/* ---- .changes ---------------------------------------------------------- */

static void descriptions(const struct pp_split *s, struct strbuf *out)
{
	struct pp_strlist lines = PP_STRLIST_INIT;

	for (size_t i = 0; i < s->nr_pkgs; i++) {
		const struct pp_split_pkg *p = &s->pkgs[i];

		if (!p->auto_built) /* dbgsym packages are not listed */
			pp_strlist_pushf(&lines, "%-10s - %.65s", p->name,
					 p->synopsis ? p->synopsis : "");
	}
	qsort(lines.items, lines.nr, sizeof(char *), cmp_str);
	strbuf_addstr(out, "Description:");
	for (size_t i = 0; i < lines.nr; i++)
		strbuf_addf(out, "\n %s", lines.items[i]);
	strbuf_addch(out, '\n');
	pp_strlist_release(&lines);
}

static void files_field(const struct pp_split *s, const struct sums *f,
			size_t nr, struct strbuf *out)
{
	strbuf_addstr(out, "Files:");
	for (size_t i = 0; i < nr; i++) {
		const char *sec = s->spec->section ? s->spec->section : "misc";
		const char *pri = "optional";

		for (size_t k = 0; k < s->nr_pkgs; k++)
			if (s->pkgs[k].deb && !strcmp(s->pkgs[k].deb, f[i].name)) {
				sec = s->pkgs[k].section;
				pri = s->pkgs[k].priority;
			}
		strbuf_addf(out, "\n %s %llu %s %s %s", f[i].md5, f[i].size,
			    sec, pri, f[i].name);
	}
	strbuf_addch(out, '\n');
}

static int write_changes(struct pp_split *s, const char *name,
			 const struct sums *all, size_t nr, struct pp_err *err)
{
	struct strbuf out = STRBUF_INIT, path = STRBUF_INIT, log = STRBUF_INIT;
	struct entry e;
	char date[64];
	int rc = pp_split_changelog(s, &log, err);

	if (rc < 0)
		return -1;
	parse_top_entry(log.buf, &e);
	rfc2822_utc(s->opts.timestamp, date, sizeof(date));
	strbuf_addf(&out, "Format: 1.8\nDate: %s\nSource: %s\nBinary: ", date,
		    s->spec->name);
	binary_list(s, &out);
	strbuf_addstr(&out, "\nArchitecture: ");
	arch_list(s, all, nr, 0, &out);
	strbuf_addf(&out, "\nVersion: %s\nDistribution: %s\nUrgency: %s\n"
		    "Maintainer: %s\nChanged-By: %s\n", s->version,
		    e.distribution ? e.distribution : "unstable",
		    e.urgency ? e.urgency : "medium", s->spec->maintainer,
		    e.changed_by ? e.changed_by : s->spec->maintainer);
	descriptions(s, &out);
	strbuf_addf(&out, "Changes:%s\n", e.text);
	checksums(&out, "Checksums-Sha1", all, nr, 1);
	checksums(&out, "Checksums-Sha256", all, nr, 2);
	files_field(s, all, nr, &out);
	strbuf_addf(&path, "%s/%s", s->opts.out_dir, name);
	rc = pp_write_file(path.buf, out.buf, out.len, 0644, err);
	entry_release(&e);
	strbuf_release(&out);
	strbuf_release(&path);
	strbuf_release(&log);
	return rc;
}

/* sha256sum's format, sorted: what a user checks with sha256sum -c. */
static int write_sha256sums(struct pp_split *s, const struct sums *f,
			    size_t nr, const char *changes, struct pp_err *err)
{
	struct strbuf out = STRBUF_INIT, path = STRBUF_INIT;
	struct sums *all = xcalloc(nr + 2, sizeof(*all));
	int rc = hash_file(s->opts.out_dir, changes, &all[nr], err);

	for (size_t i = 0; i < nr; i++) {
		all[i] = f[i];
		all[i].name = xstrdup(f[i].name);
	}
	if (rc == 0) {
		qsort(all, nr + 1, sizeof(*all), cmp_sums);
		for (size_t i = 0; i <= nr; i++)
			strbuf_addf(&out, "%s  %s\n", all[i].sha256, all[i].name);
		strbuf_addf(&path, "%s/SHA256SUMS", s->opts.out_dir);
		rc = pp_write_file(path.buf, out.buf, out.len, 0644, err);
	}
	free_sums(all, all[nr].name ? nr + 1 : nr);
	strbuf_release(&out);
	strbuf_release(&path);
	return rc;
}

/* The architecture in the .buildinfo's and .changes' names, as
 * dpkg-buildpackage gives it: the host's when a package is
 * architecture-dependent, "all" when every one is arch all. */
static const char *upload_arch(const struct pp_split *s)
{
	for (size_t k = 0; k < s->nr_pkgs; k++)
		if (s->pkgs[k].deb && !s->pkgs[k].arch_all)
			return s->arch;
	return "all";
}

int pp_split_write_changes(struct pp_split *s, struct pp_err *err)
{
	struct strbuf bi = STRBUF_INIT, ch = STRBUF_INIT;
	const char *ver = strchr(s->version, ':'), *arch = upload_arch(s);
	size_t nr = s->written.nr;
	struct sums *f = xcalloc(nr + 2, sizeof(*f));
	int rc = 0;

	ver = ver ? ver + 1 : s->version;
	strbuf_addf(&bi, "%s_%s_%s.buildinfo", s->spec->name, ver, arch);
	strbuf_addf(&ch, "%s_%s_%s.changes", s->spec->name, ver, arch);
	for (size_t i = 0; rc == 0 && i < nr; i++)
		rc = hash_file(s->opts.out_dir, s->written.items[i], &f[i], err);
	if (rc == 0) {
		qsort(f, nr, sizeof(*f), cmp_sums);
		rc = write_buildinfo(s, bi.buf, f, nr, err);
	}
	if (rc == 0)
		rc = hash_file(s->opts.out_dir, bi.buf, &f[nr], err);
	if (rc == 0) {
		pp_strlist_push(&s->written, bi.buf);
		qsort(f, nr + 1, sizeof(*f), cmp_sums);
		rc = write_changes(s, ch.buf, f, nr + 1, err);
	}
	if (rc == 0) {
		pp_strlist_push(&s->written, ch.buf);
		rc = write_sha256sums(s, f, nr + 1, ch.buf, err);
	}
	if (rc == 0)
		pp_strlist_push(&s->written, "SHA256SUMS");
	free_sums(f, nr + 1);
	strbuf_release(&bi);
	strbuf_release(&ch);
	return rc;
}
