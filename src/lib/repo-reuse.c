/* Index files kept by what they were made from, so that a publish whose
 * Packages would be the same as one made before (a suite switched to a
 * snapshot of another, a suite nothing changed in) links those files
 * instead of compressing and hashing tens of megabytes again.
 *
 * db/indices/<KEY>       one line per file: EXT WRITTEN SIZE MD5 SHA256
 *                        [INO MTIME NSEC] (MD5 "-" since Release lists
 *                        none; WRITTEN 1, 0 for a file listed in Release
 *                        only, -1 for one the suite does not publish: its
 *                        .gz or .xz; INO MTIME NSEC: the stored file's
 *                        inode and mtime when stored, absent from an older
 *                        padpack's records, whose files are checked by
 *                        size alone; an older padpack skips them),
 *                        EXT "." for the uncompressed Packages, then the
 *                        names of the compressed pieces (db/zcache) they
 *                        were joined from, one a line: a publish that links
 *                        the files keeps those pieces for the next change;
 *                        KEY is the SHA-256 of the pool files' names and
 *                        stat keys the index was made from (repo-publish.c)
 * db/indices/files/<SHA256>
 *                        a hard link to each file written, so that it
 *                        outlives the suite directory it was published in
 * A file only the store still links is deleted after each publish, and a
 * record whose files are gone with it.
 *
 * A stored file is the very inode the suites serve: a served index
 * edited in place is edited in the store too. Before it is linked again
 * its size, inode and mtime are checked against the record (a stat, not
 * a hash: a snapshot switch links tens of megabytes of indices); one
 * that differs is dropped and the index made anew. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "repo-internal.h"
#include "xalloc.h"
#include "zpieces.h"

const char *const pp_repo_index_ext[PP_REPO_INDEX_FILES] = { "", ".gz", ".xz" };

static void store_path(const char *root, const char *name, struct strbuf *out)
{
	strbuf_addf(out, "%s/db/indices/%s", root, name);
}

/* The stat fields after a file's hashes, on the same line: 1 when they
 * are there (a record of an older padpack has none). */
static int parse_stat(const char *s, struct pp_repo_index_file *f)
{
	const char *eol = strchr(s, '\n');
	char line[80];
	size_t len = eol ? (size_t)(eol - s) : strlen(s);

	if (len >= sizeof(line))
		return 0;
	memcpy(line, s, len);
	line[len] = '\0';
	return sscanf(line, " %llu %lld %ld", &f->ino, &f->mtime_sec,
		      &f->mtime_nsec) == 3;
}

/* The files' lines of a record; *rest is where the pieces' names begin. */
static int parse_record(const char *text, struct pp_repo_index_file *f,
			const char **rest)
{
	const char *l = text;

	for (size_t i = 0; i < PP_REPO_INDEX_FILES; i++) {
		char ext[8];
		int n = 0;

		if (!l || sscanf(l, "%7s %d %lld %32s %64s%n", ext, &f[i].written,
				 &f[i].size, f[i].md5, f[i].sha256, &n) != 5 ||
		    strcmp(ext, i ? pp_repo_index_ext[i] : ".") ||
		    strlen(f[i].sha256) != 64)
			return -1;
		f[i].has_stat = parse_stat(l + n, &f[i]);
		l = strchr(l + n, '\n');
		l = l ? l + 1 : NULL;
	}
	*rest = l ? l : "";
	return 0;
}

/* The pieces a record names are used by this publish: kept in the cache. */
static void use_pieces(const char *names, struct pp_zcache *zc)
{
	while (*names) {
		size_t n = strcspn(names, "\n");

		if (n) {
			ARRAY_GROW(zc->used, zc->alloc_used, zc->nr_used + 1);
			zc->used[zc->nr_used++] = xstrndup(names, n);
		}
		names += n + (names[n] == '\n');
	}
}

static void stored_path(const char *root, const struct pp_repo_index_file *f,
			struct strbuf *out)
{
	strbuf_addf(out, "%s/db/indices/files/%s", root, f->sha256);
}

/* Whether a stored file is as it was stored: a regular file of the size
 * Release lists for it and, where the record has them, the inode and
 * mtime it had then. */
static int stored_intact(const struct stat *st,
			 const struct pp_repo_index_file *f)
{
	return S_ISREG(st->st_mode) && st->st_size == f->size &&
	       (!f->has_stat ||
		((unsigned long long)st->st_ino == f->ino &&
		 (long long)st->st_mtim.tv_sec == f->mtime_sec &&
		 st->st_mtim.tv_nsec == f->mtime_nsec));
}

/* Links the stored file named by its SHA-256 to path, once checked: -1
 * with errno ENOENT when it is gone or was changed since it was stored
 * (then dropped from the store, so that the index is made again). */
static int link_stored(const char *root, const struct pp_repo_index_file *f,
		       const char *path)
{
	struct strbuf from = STRBUF_INIT;
	struct stat st;
	int rc;

	stored_path(root, f, &from);
	rc = lstat(from.buf, &st);
	if (!rc && !stored_intact(&st, f)) {
		unlink(from.buf);
		errno = ENOENT;
		rc = -1;
	}
	if (!rc)
		rc = link(from.buf, path);
	strbuf_release(&from);
	return rc;
}

int pp_repo_reuse_has(const char *root, const char *key)
{
	struct strbuf path = STRBUF_INIT;
	int has;

	store_path(root, key, &path);
	has = access(path.buf, F_OK) == 0;
	strbuf_release(&path);
	return has;
}

int pp_repo_reuse_get(const char *root, const char *key, const char *dir,
		      struct pp_repo_index_file *f, struct pp_zcache *zc,
		      struct pp_err *err)
{
	struct strbuf rec = STRBUF_INIT, path = STRBUF_INIT;
	struct pp_err ignored;
	const char *pieces;
	size_t made = 0;
	int rc = 1;

	pp_err_init(&ignored);
	store_path(root, key, &path);
	if (access(path.buf, F_OK) < 0 ||
	    pp_read_file(path.buf, &rec, &ignored) < 0 ||
	    parse_record(rec.buf, f, &pieces) < 0)
		goto out;
	for (rc = 0; made < PP_REPO_INDEX_FILES && !rc; made++) {
		if (f[made].written <= 0)
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/Packages%s", dir, pp_repo_index_ext[made]);
		if (link_stored(root, &f[made], path.buf) == 0)
			continue;
		/* gone since (pruned by hand) or changed: made again */
		rc = errno == ENOENT ? 1 :
			pp_err_errno(err, PP_EXIT_IO, "cannot link '%s'", path.buf);
	}
	for (size_t i = 0; rc == 1 && i + 1 < made; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/Packages%s", dir, pp_repo_index_ext[i]);
		unlink(path.buf);
	}
	if (!rc && zc)
		use_pieces(pieces, zc);
out:
	pp_err_release(&ignored);
	strbuf_release(&rec);
	strbuf_release(&path);
	return rc;
}

/* db/indices/files, made (and its name and db/indices's synced) at the
 * first record. */
static int mkdirs(const char *root, int sync, struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT;
	int rc = 0;

	store_path(root, "files", &path);
	if (access(path.buf, F_OK) < 0) {
		rc = pp_mkdir_p(path.buf, 0755, err);
		if (!rc && sync)
			rc = pp_fsync_dir_of(path.buf, err);
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/db/indices", root);
		if (!rc && sync)
			rc = pp_fsync_dir_of(path.buf, err);
	}
	strbuf_release(&path);
	return rc;
}

/* Links the file just written in dir as the store's copy of f, and
 * appends to its record line the stat it is checked against when reused. */
static int store_file(const char *root, const char *dir, size_t i,
		      const struct pp_repo_index_file *f, struct strbuf *rec,
		      struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT, to = STRBUF_INIT;
	struct stat st;
	int rc = 0;

	strbuf_addf(&path, "%s/Packages%s", dir, pp_repo_index_ext[i]);
	stored_path(root, f, &to);
	/* The same bytes stored from an earlier publish: replaced by this
	 * one's, which the suite directory links (a crash in between leaves
	 * no stored file: the record is not used). */
	if (link(path.buf, to.buf) < 0 &&
	    (errno != EEXIST || unlink(to.buf) < 0 ||
	     link(path.buf, to.buf) < 0))
		rc = pp_err_errno(err, PP_EXIT_IO, "cannot link '%s'", to.buf);
	else if (lstat(to.buf, &st) == 0) /* (none: checked by size alone) */
		strbuf_addf(rec, " %llu %lld %ld",
			    (unsigned long long)st.st_ino,
			    (long long)st.st_mtim.tv_sec,
			    (long)st.st_mtim.tv_nsec);
	strbuf_release(&path);
	strbuf_release(&to);
	return rc;
}

int pp_repo_reuse_put(const char *root, const char *key, const char *dir,
		      const struct pp_repo_index_file *f, char *const *pieces,
		      size_t nr_pieces, int sync, struct pp_err *err)
{
	struct strbuf rec = STRBUF_INIT, path = STRBUF_INIT, to = STRBUF_INIT;
	int rc = mkdirs(root, sync, err);

	for (size_t i = 0; i < PP_REPO_INDEX_FILES && !rc; i++) {
		strbuf_addf(&rec, "%s %d %lld %s %s",
			    i ? pp_repo_index_ext[i] : ".", f[i].written,
			    f[i].size, f[i].md5, f[i].sha256);
		if (f[i].written > 0)
			rc = store_file(root, dir, i, &f[i], &rec, err);
		strbuf_addch(&rec, '\n');
	}
	for (size_t i = 0; i < nr_pieces; i++)
		strbuf_addf(&rec, "%s\n", pieces[i]);
	/* The record names its files only once their links are durable
	 * (the files themselves were synced when written). */
	strbuf_reset(&to);
	store_path(root, "files", &to);
	if (!rc && sync)
		rc = pp_fsync_dir(to.buf, err);
	strbuf_reset(&path);
	store_path(root, key, &path);
	if (!rc)
		rc = pp_write_file_flags(path.buf, rec.buf, rec.len, 0644,
					 sync ? PP_SYNC : 0, err);
	if (!rc && sync)
		rc = pp_fsync_dir_of(path.buf, err);
	strbuf_release(&rec);
	strbuf_release(&path);
	strbuf_release(&to);
	return rc;
}

/* Whether every file a record names is in the store. */
static int record_whole(const char *root, const char *path)
{
	struct pp_repo_index_file f[PP_REPO_INDEX_FILES];
	struct strbuf rec = STRBUF_INIT, file = STRBUF_INIT;
	struct pp_err ignored;
	const char *pieces;
	int whole;

	pp_err_init(&ignored);
	whole = pp_read_file(path, &rec, &ignored) == 0 &&
		parse_record(rec.buf, f, &pieces) == 0;
	for (size_t i = 0; whole && i < PP_REPO_INDEX_FILES; i++) {
		strbuf_reset(&file);
		strbuf_addf(&file, "%s/db/indices/files/%s", root, f[i].sha256);
		whole = f[i].written <= 0 || access(file.buf, F_OK) == 0;
	}
	pp_err_release(&ignored);
	strbuf_release(&rec);
	strbuf_release(&file);
	return whole;
}

/* Unlinks the entries of a store directory that keep (given each
 * entry's path) says to drop. */
static int prune_dir(const char *root, const char *name,
		     int (*keep)(const char *root, const char *path),
		     struct pp_err *err)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT;
	struct dirent *de;
	DIR *d;
	int rc = 0;

	store_path(root, name, &dir);
	d = opendir(dir.buf);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "files"))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir.buf, de->d_name);
		if (!keep(root, path.buf) && unlink(path.buf) < 0 &&
		    errno != ENOENT && !rc)
			rc = pp_err_errno(err, PP_EXIT_IO, "cannot remove '%s'",
					  path.buf);
	}
	if (d)
		closedir(d);
	strbuf_release(&dir);
	strbuf_release(&path);
	return rc;
}

/* A stored file is kept while a suite directory (or its by-hash
 * retention) links it too. */
static int file_linked(const char *root, const char *path)
{
	struct stat st;

	(void)root;
	return lstat(path, &st) == 0 && st.st_nlink > 1;
}

int pp_repo_reuse_prune(const char *root, struct pp_err *err)
{
	if (prune_dir(root, "files", file_linked, err) < 0)
		return -1;
	return prune_dir(root, ".", record_whole, err);
}

int pp_repo_reuse_use_all(const char *root, struct pp_zcache *zc,
			  struct pp_err *err)
{
	struct pp_repo_index_file f[PP_REPO_INDEX_FILES];
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT, rec = STRBUF_INIT;
	struct pp_err ignored;
	const char *pieces;
	struct dirent *de;
	DIR *d;

	(void)err; /* a record that cannot be read keeps nothing */
	pp_err_init(&ignored);
	store_path(root, ".", &dir);
	d = opendir(dir.buf);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "files"))
			continue;
		strbuf_reset(&path);
		strbuf_reset(&rec);
		strbuf_addf(&path, "%s/%s", dir.buf, de->d_name);
		if (pp_read_file(path.buf, &rec, &ignored) == 0 &&
		    parse_record(rec.buf, f, &pieces) == 0)
			use_pieces(pieces, zc);
	}
	if (d)
		closedir(d);
	pp_err_release(&ignored);
	strbuf_release(&dir);
	strbuf_release(&path);
	strbuf_release(&rec);
	return 0;
}
