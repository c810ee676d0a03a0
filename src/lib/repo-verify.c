/* Verifying a published repository end to end: the signature, every index
 * against Release, every pool file against the Packages stanza naming it. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "fsutil.h"
#include "hash.h"
#include "repo-internal.h"
#include "xalloc.h"

struct verify {
	const char *root;
	struct pp_repo_verify_opts *o;
	int problems;
	struct strbuf msg;
};

static void problem(struct verify *v, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void problem(struct verify *v, const char *path, const char *fmt, ...)
{
	va_list ap;

	strbuf_reset(&v->msg);
	va_start(ap, fmt);
	strbuf_vaddf(&v->msg, fmt, ap);
	va_end(ap);
	v->problems++;
	if (v->o->problem)
		v->o->problem(v->o->problem_ctx, path, v->msg.buf);
}

/* Size and SHA-256 of a file, streamed. */
static int file_digest(const char *path, long long *size, char *hex)
{
	char *buf = xmalloc(1 << 17);
	struct pp_hash h;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		free(buf);
		return -1;
	}
	*size = 0;
	pp_hash_init(&h, PP_SHA256);
	while ((n = pp_read_full(fd, buf, 1 << 17)) > 0) {
		pp_hash_update(&h, buf, (size_t)n);
		*size += n;
	}
	pp_hash_final_hex(&h, hex);
	close(fd);
	free(buf);
	return n < 0 ? -1 : 0;
}

/* Checks a file against a size and SHA256; reports what differs. */
static void check_file(struct verify *v, const char *path, long long size,
		       const char *sha256)
{
	char hex[2 * PP_HASH_MAX + 1];
	long long have;

	v->o->files_checked++;
	if (file_digest(path, &have, hex) < 0)
		problem(v, path, "missing or unreadable");
	else if (have != size)
		problem(v, path, "size %lld, expected %lld", have, size);
	else if (strcmp(hex, sha256))
		problem(v, path, "SHA256 %s, expected %s", hex, sha256);
}

/* Reads a file through any compression libarchive knows. */
static int read_index(const char *path, struct strbuf *out)
{
	struct stat sb;
	struct archive *a;
	struct archive_entry *ae;
	char buf[65536];
	la_ssize_t n = 0;
	int rc = -1;

	/* An architecture without packages has an empty Packages, which
	 * libarchive's raw format does not read. */
	if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size == 0)
		return 0;
	a = archive_read_new();
	archive_read_support_filter_all(a);
	archive_read_support_format_raw(a);
	if (archive_read_open_filename(a, path, 65536) == ARCHIVE_OK &&
	    archive_read_next_header(a, &ae) == ARCHIVE_OK) {
		while ((n = archive_read_data(a, buf, sizeof(buf))) > 0)
			strbuf_add(out, buf, (size_t)n);
		rc = n < 0 ? -1 : 0;
	}
	archive_read_free(a);
	return rc;
}

static void check_packages(struct verify *v, const char *index)
{
	struct strbuf text = STRBUF_INIT, path = STRBUF_INIT;
	struct pp_err err;
	struct pp_deb822 p;
	struct pp_stanza st;
	int r;

	pp_err_init(&err);
	if (read_index(index, &text) < 0) {
		problem(v, index, "cannot be read or decompressed");
		goto out;
	}
	pp_deb822_init(&p, text.buf, text.len, index);
	while ((r = pp_deb822_next(&p, &st, &err)) > 0) {
		const char *fn = pp_stanza_get(&st, "Filename");
		const char *size = pp_stanza_get(&st, "Size");
		const char *sha = pp_stanza_get(&st, "SHA256");

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", v->root, fn ? fn : "?");
		if (!fn || !size || !sha)
			problem(v, index, "stanza at line %u lacks Filename, Size "
				"or SHA256", st.line);
		else if (strstr(fn, "..") || fn[0] == '/')
			problem(v, index, "Filename '%s' points outside the "
				"repository", fn);
		else
			check_file(v, path.buf, atoll(size), sha);
		if (fn && v->o->check_deb && v->o->check_deb(v->o->check_deb_ctx,
							     path.buf, &err) < 0)
			problem(v, path.buf, "%s", err.msg);
		pp_stanza_release(&st);
	}
	if (r < 0)
		problem(v, index, "%s", err.msg);
out:
	pp_err_release(&err);
	strbuf_release(&text);
	strbuf_release(&path);
}

/* The Release text of a suite: the signed text of InRelease when a
 * checker is given (and then InRelease must exist), else Release. */
static int suite_release(struct verify *v, const char *dir,
			 struct strbuf *release)
{
	struct strbuf path = STRBUF_INIT, inrel = STRBUF_INIT, plain = STRBUF_INIT;
	struct pp_err err;
	int rc = -1;

	pp_err_init(&err);
	strbuf_addf(&path, "%s/InRelease", dir);
	if (!v->o->check) {
		strbuf_setlen(&path, path.len - strlen("InRelease"));
		strbuf_addstr(&path, "Release");
		if (pp_read_file(path.buf, release, &err) == 0)
			rc = 0;
		else
			problem(v, path.buf, "missing or unreadable");
	} else if (pp_read_file(path.buf, &inrel, &err) < 0) {
		problem(v, path.buf, "missing: the suite is not signed");
	} else if (v->o->check(v->o->check_ctx, &inrel, release, &err) < 0) {
		problem(v, path.buf, "%s", err.msg);
	} else {
		rc = 0;
		strbuf_setlen(&path, path.len - strlen("InRelease"));
		strbuf_addstr(&path, "Release");
		if (access(path.buf, F_OK) == 0 &&
		    (pp_read_file(path.buf, &plain, &err) < 0 ||
		     plain.len != release->len ||
		     memcmp(plain.buf, release->buf, plain.len)))
			problem(v, path.buf, "differs from the text signed in "
				"InRelease");
	}
	pp_err_release(&err);
	strbuf_release(&path);
	strbuf_release(&inrel);
	strbuf_release(&plain);
	return rc;
}

static int parse_date(const char *s, time_t *out)
{
	struct tm tm;
	const char *end;

	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%a, %d %b %Y %H:%M:%S", &tm);
	if (!end || (strcmp(end, " UTC") && strcmp(end, " +0000") &&
		     strcmp(end, " GMT")))
		return -1;
	*out = timegm(&tm);
	return 0;
}

static void check_dates(struct verify *v, const char *path,
			const struct pp_stanza *st)
{
	const char *date = pp_stanza_get(st, "Date");
	const char *until = pp_stanza_get(st, "Valid-Until");
	time_t t, now = time(NULL);

	if (!date || parse_date(date, &t) < 0)
		problem(v, path, "no valid UTC Date field");
	else if (t > now + 60)
		problem(v, path, "Date %s is in the future", date);
	if (until && (parse_date(until, &t) < 0 || t < now))
		problem(v, path, "expired or invalid Valid-Until: %s", until);
}

static int is_packages(const char *rel)
{
	const char *base = strrchr(rel, '/');

	base = base ? base + 1 : rel;
	return !strncmp(base, "Packages", 8);
}

/* Whether dir is already in the list; adds it when not. */
static int seen_before(struct strbuf *seen, const char *dir)
{
	struct strbuf key = STRBUF_INIT;
	int found;

	strbuf_addf(&key, "\n%s\n", dir);
	found = seen->len && memmem(seen->buf, seen->len, key.buf, key.len);
	if (!found) {
		if (!seen->len)
			strbuf_addch(seen, '\n');
		strbuf_addf(seen, "%s\n", dir);
	}
	strbuf_release(&key);
	return found;
}

/* Every index against Release; pool files once per index directory. */
static void check_indices(struct verify *v, const char *dir,
			  const char *list)
{
	struct strbuf path = STRBUF_INIT, seen = STRBUF_INIT;
	char hex[65], rel[4096];
	long long size;

	for (const char *l = list; l && *l; l = strchr(l, '\n')) {
		l += *l == '\n';
		if (sscanf(l, " %64s %lld %4095s", hex, &size, rel) != 3)
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir, rel);
		check_file(v, path.buf, size, hex);
		if (!is_packages(rel) || access(path.buf, R_OK) < 0)
			continue;
		if (strrchr(rel, '/'))
			*strrchr(rel, '/') = '\0';
		/* the same Packages in another compression: checked once */
		if (!seen_before(&seen, rel))
			check_packages(v, path.buf);
	}
	strbuf_release(&path);
	strbuf_release(&seen);
}

static void verify_suite(struct verify *v, const char *dir)
{
	struct strbuf release = STRBUF_INIT;
	struct pp_stanza st;
	struct pp_err err;

	pp_err_init(&err);
	if (suite_release(v, dir, &release) < 0)
		goto out;
	if (pp_control_parse(release.buf, release.len, dir, &st, &err) < 0) {
		problem(v, dir, "Release: %s", err.msg);
		goto out;
	}
	check_dates(v, dir, &st);
	if (!pp_stanza_get(&st, "SHA256"))
		problem(v, dir, "Release has no SHA256 list");
	check_indices(v, dir, pp_stanza_get(&st, "SHA256"));
	pp_stanza_release(&st);
out:
	pp_err_release(&err);
	strbuf_release(&release);
}

int pp_repo_verify(const char *root, struct pp_repo_verify_opts *o,
		   struct pp_err *err)
{
	struct verify v = { root, o, 0, STRBUF_INIT };
	struct strbuf dists = STRBUF_INIT, dir = STRBUF_INIT;
	struct dirent *de;
	int suites = 0;
	DIR *d;

	strbuf_addf(&dists, "%s/dists", root);
	d = opendir(dists.buf);
	if (!d) {
		pp_err_errno(err, PP_EXIT_IO, "cannot open '%s'", dists.buf);
		strbuf_release(&dists);
		return -1;
	}
	while ((de = readdir(d))) {
		struct stat st;

		strbuf_reset(&dir);
		strbuf_addf(&dir, "%s/%s", dists.buf, de->d_name);
		/* dot entries: an interrupted publish; links: codename aliases */
		if (de->d_name[0] == '.' || lstat(dir.buf, &st) < 0 ||
		    !S_ISDIR(st.st_mode))
			continue;
		verify_suite(&v, dir.buf);
		suites++;
	}
	closedir(d);
	if (!suites)
		problem(&v, dists.buf, "no suite published");
	strbuf_release(&dists);
	strbuf_release(&dir);
	strbuf_release(&v.msg);
	return v.problems;
}
