/* Internal to the repository modules. */
#ifndef PP_REPO_INTERNAL_H
#define PP_REPO_INTERNAL_H

#include <sys/stat.h>

#include "control.h"
#include "fsutil.h"
#include "hash.h"
#include "hindex.h"
#include "repo.h"

/* A pool file's Packages stanza (Filename, Size and hashes included), as
 * text ready to be written, and the stat key it was made from. Kept as
 * text so that loading the cache of a large pool parses no field. */
struct pp_repo_entry {
	char *filename; /* relative to the repository root */
	char *stat_key; /* "size mtime-ns inode" of the pool file */
	char *package;
	const char *text; /* the stanza, each line ending with a newline: */
	size_t text_len;  /* in the cache's file buffer, or owned (borrowed
			   * unset) */
	/* the hash of text's first line that zpieces' cut needs, taken as
	 * the load reads that line (has_cut_hash) */
	unsigned cut_hash;
	/* Bits: a load of 100,000 entries zeroes and writes the array's
	 * megabytes, 48 bytes an entry rather than 72. */
	unsigned borrowed : 1;     /* the three strings are in the cache's
				    * strings, text in its file */
	unsigned pending : 1;      /* new or changed since loaded: not in
				    * the file yet */
	unsigned listed : 1;       /* an index this publish made or linked
				    * lists it */
	unsigned has_cut_hash : 1;
};

/* db/cache is appended to: a save adds the entries new or changed since
 * the load, and a record dropping each pruned one; a later record of a
 * file replaces an earlier one. It is written whole (sorted) only when
 * rewrite is set: its tail was damaged, a --full publish, or more of its
 * records are superseded than live. */
struct pp_repo_cache {
	/* e[0, sorted_nr) in Packages' order (package, then filename), as
	 * a cache written whole is: a publish looks its index's names up in
	 * that order, each where the last one found ends (next), with no
	 * table of 100,000 names made. The others (appended since, out of
	 * that order) after them, in no order. */
	struct pp_repo_entry *e;
	size_t nr, alloc;
	size_t sorted_nr;
	size_t next; /* where a lookup looks first */
	/* positions in e by filename, made at the first lookup that needs
	 * it (one by filename alone that next missed, or many entries out
	 * of order) and kept from then on (indexed set) */
	struct pp_hindex by_name;
	int indexed;
	int dirty;
	int rewrite;
	size_t stale;   /* records in the file that later ones replaced */
	char **dropped; /* pruned since the load: a drop record's Package
			 * and Filename lines each */
	size_t nr_dropped, alloc_dropped;
	int sync; /* saved durably (pp_repo's no_sync unset) */
	/* db/cache is as padpack last wrote it: its stat is the one
	 * db/cache.stamp records. Else (edited by hand, restored, or made
	 * before stamps) a cached index piece, named by its stanzas' pool
	 * files and stat keys, may not be of the text at hand: a publish
	 * checks every piece against its text (checked), and the stamp is
	 * written again only then. */
	int trusted;
	int checked;
	struct pp_mapped file; /* db/cache as read; entries point into it */
	char *strings;   /* the loaded entries' strings, in one block */
	size_t strings_len;
	/* db/zcache/.cacheidx as read (the entries of db/cache's whole
	 * part point into it), and whether it is of db/cache as padpack
	 * left it (an append then records db/cache's new stat in it) */
	struct pp_mapped idx;
	int idx_live;
};

/* What the cache keeps of a pool file's stat to see that it changed, or
 * the errno of a stat that failed (errnum). */
struct pp_file_id {
	long long size, mtime_sec;
	long mtime_nsec;
	unsigned long long ino;
	int errnum;
};

void pp_file_id_of(const struct stat *st, struct pp_file_id *id);
void pp_repo_stat_key(const struct pp_file_id *id, struct strbuf *out);
/* The hashes Packages lists (Size, MD5sum, SHA256) of a file read once,
 * in pieces. finish sets them in st and puts st's fields in index order. */
struct pp_repo_hashes {
	struct pp_hash md5, sha256;
	long long size;
};

void pp_repo_hashes_init(struct pp_repo_hashes *h);
void pp_repo_hashes_update(struct pp_repo_hashes *h, const void *buf,
			   size_t n);
void pp_repo_hashes_finish(struct pp_repo_hashes *h, struct pp_stanza *st);
int pp_repo_hash_file(const char *path, struct pp_stanza *st,
		      struct pp_err *err);
/* The checked control fields of a .deb with Filename set; no hashes. */
int pp_repo_read_control(const char *path, const char *filename,
			 struct pp_stanza *out, struct pp_err *err);
/* Both: a Packages stanza. */
int pp_repo_read_deb(const char *path, const char *filename,
		     struct pp_stanza *out, struct pp_err *err);

int pp_repo_cache_load(const char *root, struct pp_repo_cache *c,
		       struct pp_err *err);
/* The repository's cache, loaded at the first call. */
int pp_repo_cache_of(struct pp_repo *r, struct pp_repo_cache **out,
		     struct pp_err *err);
int pp_repo_cache_save(const char *root, struct pp_repo_cache *c,
		       struct pp_err *err);
void pp_repo_cache_release(struct pp_repo_cache *c);
struct pp_repo_entry *pp_repo_cache_find(struct pp_repo_cache *c,
					 const char *filename);
/* The same, given the package too: found without the table of names
 * (a binary search) when next misses. */
struct pp_repo_entry *pp_repo_cache_find_pkg(struct pp_repo_cache *c,
					     const char *package,
					     const char *filename);
/* Adds or replaces the entry of a pool file. */
void pp_repo_cache_put(struct pp_repo_cache *c, const char *filename,
		       const char *stat_key, const struct pp_stanza *st);
/* Drops entries whose filename is not kept (keep returns 0). */
void pp_repo_cache_prune(struct pp_repo_cache *c,
			 int (*keep)(void *ctx, const char *filename),
			 void *ctx);
/* The stats of the named pool files (fstatat relative to the root, on a
 * few threads when they are many: the pool files a publish --full reads). */
void pp_repo_stats_of(struct pp_repo *r, char *const *names, size_t n,
		      struct pp_file_id *ids);
/* Whether an entry was made from the file of that stat. */
int pp_repo_entry_fresh(const struct pp_repo_entry *e,
			const struct pp_file_id *id);
/* The fresh entry of a pool file, given its stat (or the errno of the
 * stat that failed): from the cache when its stat key still matches, else
 * read again. *was_read is set when read. */
int pp_repo_entry_get(const char *root, struct pp_repo_cache *c,
		      const char *filename, const struct pp_file_id *id,
		      int *was_read, struct pp_repo_entry **out,
		      struct pp_err *err);


/* Links into the new suite directory tmp the by-hash files of the past
 * generations still within the suite's retention, the served one (in
 * cur) retired now, and records them in db/<suite>.byhash. */
int pp_repo_byhash_keep(struct pp_repo *r, const struct pp_repo_suite *s,
			const char *cur, const char *tmp, time_t now,
			struct pp_err *err);

/* The files of pool files' data archives, for Contents (repo-contents.c):
 * db/contents read at open, written at close (when save) with the entries
 * used in between. */
struct pp_repo_contents;
struct pp_repo_contents *pp_repo_contents_open(const char *root);
int pp_repo_contents_close(const char *root, struct pp_repo_contents *c,
			   int save, int sync, struct pp_err *err);
/* The Contents text of the named pool files (their cache entries fresh). */
int pp_repo_contents_text(const char *root, struct pp_repo_contents *c,
			  struct pp_repo_cache *cache, char *const *names,
			  size_t n, struct strbuf *out, struct pp_err *err);

/* Packages files kept by the key of what they were made from
 * (repo-reuse.c): "", ".gz", ".xz". */
#define PP_REPO_INDEX_FILES 3
extern const char *const pp_repo_index_ext[PP_REPO_INDEX_FILES];

struct pp_repo_index_file {
	long long size;
	char md5[33]; /* "-": Release lists none (a record's field, kept) */
	char sha256[65];
	int written; /* 0: listed in Release only; -1: not published */
	/* the stored file's inode and mtime when it was stored (has_stat
	 * 0: a record written before they were kept) */
	unsigned long long ino;
	long long mtime_sec;
	long mtime_nsec;
	int has_stat;
};

int pp_repo_reuse_has(const char *root, const char *key);
/* Links the files recorded under key into dir (the new suite's
 * binary-<arch>/) and fills f: 0 when done, 1 when there is no (whole)
 * record (nothing linked then), -1 on error. A stored file whose size,
 * inode or mtime is not the record's (a served index edited in place,
 * which the store links) is dropped, and 1 returned: made again. */
struct pp_zcache;
/* ... and marks the compressed pieces they were joined from used in zc
 * (kept for the next change). */
int pp_repo_reuse_get(const char *root, const char *key, const char *dir,
		      struct pp_repo_index_file *f, struct pp_zcache *zc,
		      struct pp_err *err);
/* Records the files just written in dir under key, with the names of the
 * pieces (in the piece cache) they were joined from. */
int pp_repo_reuse_put(const char *root, const char *key, const char *dir,
		      const struct pp_repo_index_file *f, char *const *pieces,
		      size_t nr_pieces, int sync, struct pp_err *err);
/* Drops the files no suite directory links any more, and their records. */
int pp_repo_reuse_prune(const char *root, struct pp_err *err);
/* Marks the pieces every record left names used in zc (a publish of one
 * suite keeps the pieces of the others, which it did not make again). */
int pp_repo_reuse_use_all(const char *root, struct pp_zcache *zc,
			  struct pp_err *err);

/* ---- the pool's garbage (repo-garbage.c) ---- */
int pp_repo_drop_garbage(struct pp_repo *r, struct pp_repo_cache *cache,
			 int full, struct pp_err *err);

/* ---- suites' lists (repo-members.c) ---- */
/* Frees one member's strings (none if it borrows them). */
void pp_repo_member_release(struct pp_repo_member *m);
/* Save sorts the members. */
int pp_repo_members_save(struct pp_repo *r, const char *suite,
			 struct pp_repo_members *ms, struct pp_err *err);
int pp_repo_members_save_path(const char *path, struct pp_repo_members *ms,
			      int sync, struct pp_err *err);
int pp_repo_members_load_path(const char *path, struct pp_repo_members *out,
			      struct pp_err *err);
/* A name (suite, component, snapshot): letters, digits and -_.+ only. */
int pp_repo_check_name(const char *what, const char *v, struct pp_err *err);
int pp_repo_has_word(char **w, size_t n, const char *word);
/* Every snapshot's members, read at the first call and kept by r. */
int pp_repo_snapshots_of(struct pp_repo *r, struct pp_err *err);


#endif
