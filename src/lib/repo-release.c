/* Publishing, the suite's top: Release (signed into InRelease and
 * Release.gpg when the suite has a key) over the indices repo-publish.c
 * wrote, and the files a client needs beside dists/ (the public key, a
 * deb822 .sources file). Layer: below repo-publish.c, which calls it. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "fsutil.h"
#include "repo-publish.h"
#include "xalloc.h"

/* "Sat, 01 Jan 2000 00:00:00 UTC", whatever the locale. */
static void rfc2822(time_t t, char *buf, size_t len)
{
	static const char days[][4] = { "Sun", "Mon", "Tue", "Wed", "Thu",
					 "Fri", "Sat" };
	static const char months[][4] = { "Jan", "Feb", "Mar", "Apr", "May",
					   "Jun", "Jul", "Aug", "Sep", "Oct",
					   "Nov", "Dec" };
	struct tm tm;

	gmtime_r(&t, &tm);
	snprintf(buf, len, "%s, %02d %s %04d %02d:%02d:%02d UTC",
		 days[tm.tm_wday], tm.tm_mday, months[tm.tm_mon],
		 tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

static void hash_list(const struct publish *p, struct strbuf *out)
{
	strbuf_addstr(out, "SHA256:\n");
	for (size_t i = 0; i < p->nr_files; i++) {
		const struct index_file *f = &p->files[i];

		strbuf_addf(out, " %s %16lld %s\n", f->sha256, f->size,
			    f->path);
	}
}

static void join(struct strbuf *out, const char *name, char **w, size_t n)
{
	strbuf_addf(out, "%s:", name);
	for (size_t i = 0; i < n; i++)
		strbuf_addf(out, " %s", w[i]);
	strbuf_addch(out, '\n');
}

/* In the order of Debian's archive (and dpkg's field table). */
static void release_text(const struct publish *p, struct strbuf *out)
{
	const struct pp_repo_suite *s = p->s;
	char date[64];

	if (s->origin)
		strbuf_addf(out, "Origin: %s\n", s->origin);
	if (s->label)
		strbuf_addf(out, "Label: %s\n", s->label);
	strbuf_addf(out, "Suite: %s\nCodename: %s\n", s->suite, s->codename);
	rfc2822(p->o->now, date, sizeof(date));
	strbuf_addf(out, "Date: %s\n", date);
	if (s->valid_for_days) {
		rfc2822(p->o->now + (time_t)s->valid_for_days * 86400, date,
			sizeof(date));
		strbuf_addf(out, "Valid-Until: %s\n", date);
	}
	strbuf_addstr(out, "Acquire-By-Hash: yes\n");
	join(out, "Architectures", s->archs, s->nr_archs);
	join(out, "Components", s->components, s->nr_components);
	if (s->description)
		strbuf_addf(out, "Description: %s\n", s->description);
	hash_list(p, out);
}

static int write_top(struct publish *p, const char *name,
		     const struct strbuf *data)
{
	struct strbuf path = STRBUF_INIT;
	int rc;

	strbuf_addf(&path, "%s/%s", p->tmp.buf, name);
	rc = pp_write_file_flags(path.buf, data->buf, data->len, 0644,
				 sync_flag(p), p->err);
	strbuf_release(&path);
	return rc;
}

/* The whole second after the served Release's (or InRelease's) mtime,
 * if the publish is in the second it was written, or before: else 0. An
 * HTTP server answers a client's If-Modified-Since by the second (apt
 * sends the Last-Modified it got), so a suite published twice within one
 * second, its InRelease fetched in between, would be "not modified" for
 * that client until the next publish; a later mtime makes it modified. */
static time_t later_mtime(const struct publish *p)
{
	static const char *const names[] = { "InRelease", "Release" };
	struct strbuf path = STRBUF_INIT;
	struct timespec now;
	time_t last = 0;
	struct stat st;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", p->cur.buf, names[i]);
		if (stat(path.buf, &st) == 0 && st.st_mtim.tv_sec > last)
			last = st.st_mtim.tv_sec;
	}
	strbuf_release(&path);
	clock_gettime(CLOCK_REALTIME, &now);
	return last && last >= now.tv_sec ? last + 1 : 0;
}

static int set_mtime(struct publish *p, const char *name, time_t t)
{
	struct timespec times[2] = { { 0, UTIME_OMIT }, { t, 0 } };
	struct strbuf path = STRBUF_INIT;
	int rc = 0;

	strbuf_addf(&path, "%s/%s", p->tmp.buf, name);
	if (utimensat(AT_FDCWD, path.buf, times, 0) < 0 && errno != ENOENT)
		rc = pp_err_errno(p->err, PP_EXIT_IO, "cannot set the time of "
				  "'%s'", path.buf);
	strbuf_release(&path);
	return rc;
}

/* Release, InRelease and Release.gpg dated after the served ones. */
static int date_after_served(struct publish *p)
{
	time_t t = later_mtime(p);
	int rc = 0;

	if (t) {
		rc = set_mtime(p, "Release", t);
		if (!rc)
			rc = set_mtime(p, "Release.gpg", t);
		if (!rc)
			rc = set_mtime(p, "InRelease", t);
	}
	return rc;
}

int pp_repo_write_release(struct publish *p)
{
	struct strbuf rel = STRBUF_INIT, inrel = STRBUF_INIT, gpg = STRBUF_INIT;
	int rc;

	release_text(p, &rel);
	rc = write_top(p, "Release", &rel);
	if (!rc && p->s->signing_key) {
		rc = p->o->sign ? p->o->sign(p->o->sign_ctx, p->s->signing_key,
					     &rel, &inrel, &gpg, p->err) :
			pp_err_set(p->err, PP_EXIT_USAGE, "suite '%s' has a "
				   "Signing-Key but no signer was given",
				   p->s->suite);
		if (!rc)
			rc = write_top(p, "Release.gpg", &gpg);
		if (!rc)
			rc = write_top(p, "InRelease", &inrel);
	}
	if (!rc)
		rc = date_after_served(p);
	strbuf_release(&rel);
	strbuf_release(&inrel);
	strbuf_release(&gpg);
	return rc;
}

/* "Paddle Release" -> "paddle-release", for the keyring's file name. */
static void keyring_name(const struct pp_repo_suite *s, struct strbuf *out)
{
	const char *from = s->origin ? s->origin : s->suite;

	for (const char *c = from; *c; c++)
		strbuf_addch(out, isalnum((unsigned char)*c) ?
			     tolower((unsigned char)*c) : '-');
	strbuf_addstr(out, "-archive-keyring.gpg");
}

/* Writes a file beside dists/ unless it holds that already: most
 * publishes change neither, and a synced write costs two flushes. */
static int put_client_file(struct publish *p, const char *path,
			   const struct strbuf *data, int *written)
{
	struct strbuf have = STRBUF_INIT;
	struct pp_err ignored;
	int rc = 0;

	pp_err_init(&ignored);
	if (pp_read_file(path, &have, &ignored) < 0 || have.len != data->len ||
	    memcmp(have.buf, data->buf, data->len)) {
		rc = pp_write_file_flags(path, data->buf, data->len, 0644,
					 sync_flag(p), p->err);
		*written += !rc;
	}
	pp_err_release(&ignored);
	strbuf_release(&have);
	return rc;
}

/* Appends the public key (public.gpg beside the secret key) of a suite
 * to the keyring, unless the keyring holds it already. */
static int add_public_key(const struct pp_repo_suite *s, struct strbuf *ring,
			  struct pp_err *err)
{
	struct strbuf src = STRBUF_INIT, key = STRBUF_INIT;
	struct stat st;
	char *dir = stat(s->signing_key, &st) == 0 && S_ISDIR(st.st_mode) ?
		xstrdup(s->signing_key) : pp_dirname(s->signing_key);
	int rc;

	strbuf_addf(&src, "%s/public.gpg", dir);
	rc = pp_read_file(src.buf, &key, err);
	if (!rc && !memmem(ring->buf, ring->len, key.buf, key.len))
		strbuf_add(ring, key.buf, key.len);
	free(dir);
	strbuf_release(&src);
	strbuf_release(&key);
	return rc;
}

/* The keyring a suite's clients install: the public keys of every suite
 * whose keyring has its name (suites of one Origin share it, and may be
 * signed by different keys, as Debian's archive keyring holds several),
 * each once, in the order of conf/distributions. */
static int suite_keyring(const struct publish *p, const char *name,
			 struct strbuf *ring)
{
	struct strbuf other = STRBUF_INIT;
	int rc = 0;

	for (size_t i = 0; i < p->r->nr_suites && !rc; i++) {
		const struct pp_repo_suite *s = &p->r->suites[i];

		strbuf_reset(&other);
		keyring_name(s, &other);
		if (s->signing_key && !strcmp(other.buf, name))
			rc = add_public_key(s, ring, p->err);
	}
	strbuf_release(&other);
	return rc;
}

/* The public key beside the repository and the deb822 source a client
 * adds to /etc/apt/sources.list.d/, pointing at the key once installed
 * in /usr/share/keyrings/. */
int pp_repo_client_files(struct publish *p)
{
	struct strbuf key = STRBUF_INIT, dst = STRBUF_INIT, text = STRBUF_INIT;
	int rc = 0, written = 0;

	keyring_name(p->s, &key);
	if (p->s->signing_key) {
		strbuf_addf(&dst, "%s/%s", p->r->root, key.buf);
		rc = suite_keyring(p, key.buf, &text);
		if (!rc)
			rc = put_client_file(p, dst.buf, &text, &written);
		strbuf_reset(&text);
	}
	if (p->s->uri) {
		strbuf_addf(&text, "Types: deb\nURIs: %s\n", p->s->uri);
	} else {
		char *abs = realpath(p->r->root, NULL);

		strbuf_addf(&text, "Types: deb\nURIs: file:%s\n",
			    abs ? abs : p->r->root);
		free(abs);
	}
	strbuf_addf(&text, "Suites: %s\nComponents:", p->s->suite);
	for (size_t i = 0; i < p->s->nr_components; i++)
		strbuf_addf(&text, " %s", p->s->components[i]);
	strbuf_addch(&text, '\n');
	if (p->s->signing_key)
		strbuf_addf(&text, "Signed-By: /usr/share/keyrings/%s\n", key.buf);
	strbuf_reset(&dst);
	strbuf_addf(&dst, "%s/%s.sources", p->r->root, p->s->suite);
	if (!rc)
		rc = put_client_file(p, dst.buf, &text, &written);
	if (!rc && written && !p->r->no_sync)
		rc = pp_fsync_dir(p->r->root, p->err);
	strbuf_release(&key);
	strbuf_release(&dst);
	strbuf_release(&text);
	return rc;
}
