/* An apt repository: a pool of .debs, the suites that list them, and the
 * indices apt reads (Packages, Release, InRelease, Release.gpg, by-hash).
 * Format code only; signing and signature checks come in as callbacks so
 * that this module knows nothing of keys.
 *
 * On disk, below the repository root:
 *   conf/distributions   one deb822 stanza per suite (Suite, Codename,
 *                        Origin, Label, Description, Components,
 *                        Architectures, Valid-For, Signing-Key,
 *                        Keep-Versions, By-Hash-Keep, By-Hash-Generations,
 *                        Contents, Compression)
 *   db/contents          the files of each pool file, for Contents
 *   db/<suite>.list      which pool files each suite holds, one per line:
 *                        package version architecture component file
 *   db/<suite>.list.log  the changes to it since it was written whole:
 *                        "+ LINE" (added) or "- LINE" (dropped), in order
 *   db/cache             the Packages stanza and hashes of every pool file,
 *                        keyed by its path, size, mtime and inode
 *   db/<suite>.byhash    the suite's past generations whose by-hash files
 *                        are still served (repo-byhash.c)
 *   db/snapshots/<name>.list
 *                        a snapshot: a suite's members, frozen
 *   db/lock              serialises add, remove and publish
 *   pool/<component>/<prefix>/<source>/<file>.deb
 *   dists/<suite>/...    what apt reads; replaced atomically by publish
 *   <name>-archive-keyring.gpg, <suite>.sources
 *                        the public key and the deb822 lines a client adds */
#ifndef PP_REPO_H
#define PP_REPO_H

#include <stddef.h>
#include <time.h>

#include "control.h"
#include "error.h"
#include "strbuf.h"

struct pp_repo_suite {
	char *suite, *codename, *origin, *label, *description;
	char **components;
	size_t nr_components;
	char **archs;
	size_t nr_archs;
	unsigned valid_for_days; /* 0: no Valid-Until */
	char *signing_key;       /* NULL: publish refuses unless unsigned */
	char *uri;               /* where clients find it; default file:ROOT */
	/* By-hash retention: a replaced generation's by-hash files stay
	 * served byhash_keep seconds, and those of the last
	 * byhash_generations replaced ones whatever their age. */
	long long byhash_keep;
	unsigned byhash_generations;
	/* versions of a package (and architecture) the suite keeps */
	unsigned keep_versions;
	int contents; /* publish <component>/Contents-<arch>.gz */
	/* which compressed Packages it publishes (PP_REPO_GZ, PP_REPO_XZ):
	 * apt needs one; Debian's archive serves .xz alone */
	unsigned compression;
};

#define PP_REPO_GZ 1u
#define PP_REPO_XZ 2u
#define PP_REPO_COMPRESSION (PP_REPO_GZ | PP_REPO_XZ)
/* The set a Compression value names ("gz xz", "xz", "gz"; words
 * separated by spaces or commas); 0 if it names another. */
unsigned pp_repo_parse_compression(const char *v);

#define PP_REPO_BYHASH_KEEP 3600
#define PP_REPO_BYHASH_GENERATIONS 3
#define PP_REPO_KEEP_VERSIONS 3

/* A suite's member: one pool file. */
struct pp_repo_member {
	char *package, *version, *arch, *component, *filename;
	int borrowed; /* the strings are in the members' text */
};

struct pp_repo_cache;

struct pp_repo {
	char *root;
	int root_fd;     /* the root, for paths relative to it */
	struct pp_repo_suite *suites;
	size_t nr_suites;
	int lock_fd;
	/* db/cache, read once for the run (add then publish share it) */
	struct pp_repo_cache *cache;
	/* each suite's members (by the suite's position), read once too */
	struct pp_repo_members **members;
	/* every snapshot's members, when read (to keep their pool files) */
	struct pp_repo_members *snapshots;
	size_t nr_snapshots;
	int snapshots_read;
	/* set: nothing fsync'ed (a scratch repository); else every file is
	 * synced before it is renamed into place and named by another,
	 * its directory after (a power cut leaves the old state or the new) */
	int no_sync;
};

/* Signs Release: fills the clearsigned InRelease and the armored detached
 * Release.gpg. key is the suite's Signing-Key. */
typedef int (*pp_repo_sign_fn)(void *ctx, const char *key,
			       const struct strbuf *release,
			       struct strbuf *inrelease,
			       struct strbuf *release_gpg, struct pp_err *err);

/* Checks InRelease; on success fills the signed text (the Release). */
typedef int (*pp_repo_check_fn)(void *ctx, const struct strbuf *inrelease,
				struct strbuf *release, struct pp_err *err);

/* Checks a pool file's own signature (optional in verify). */
typedef int (*pp_repo_check_deb_fn)(void *ctx, const char *path,
				    struct pp_err *err);

/* Sets the settings that have a default (by-hash retention) to it. */
void pp_repo_suite_defaults(struct pp_repo_suite *s);
int pp_repo_suite_check(const struct pp_repo_suite *s, struct pp_err *err);
void pp_repo_suite_release(struct pp_repo_suite *s);

/* Creates a repository with one suite, or adds a suite to an existing one. */
int pp_repo_init(const char *root, const struct pp_repo_suite *s,
		 struct pp_err *err);
/* Opens a repository; with lock, waits for and holds its lock. */
int pp_repo_open(struct pp_repo *r, const char *root, int lock,
		 struct pp_err *err);
/* Told, before waiting, that another process holds the lock. */
typedef void (*pp_repo_wait_fn)(void *ctx, const char *lock_path);
/* Opens a repository with its lock, telling waiting (may be NULL) when it
 * has to wait for it. */
int pp_repo_open_locked(struct pp_repo *r, const char *root,
			pp_repo_wait_fn waiting, void *ctx, struct pp_err *err);
void pp_repo_close(struct pp_repo *r);
struct pp_repo_suite *pp_repo_find_suite(struct pp_repo *r, const char *name,
					 struct pp_err *err);

/* A package added; held: the suite held that very pool file already
 * (the same file added again changes nothing). */
typedef void (*pp_repo_added_fn)(void *ctx, const char *pool_path, int held);
/* A member taken out of a suite: by remove, or past its keep_versions. */
typedef void (*pp_repo_dropped_fn)(void *ctx, const struct pp_repo_member *m);

/* Copies .debs into the pool and into the suite, reading each once. The
 * suite keeps the suite's keep_versions versions of each package and
 * architecture: the one added and the newest others.
 * A different file already in the pool under the same name is refused;
 * the packages added before a failure stay added. added (may be NULL) is
 * told each pool path, dropped (may be NULL) each member the retention
 * took out. */
int pp_repo_add(struct pp_repo *r, const char *suite, const char *component,
		const char *const *debs, size_t n, pp_repo_added_fn added,
		pp_repo_dropped_fn dropped, void *ctx, struct pp_err *err);
/* What repo remove takes out: a package's every version and
 * architecture, or only version (NULL: any), only arch (NULL: any). */
struct pp_repo_removal {
	const char *package, *version, *arch;
};

/* Removes each package named from a suite, all or nothing: when one
 * names nothing the suite holds, the suite is left as it was. removed
 * (may be NULL) is told each member taken out. A pool file goes at the
 * next publish if no suite or snapshot holds it. */
int pp_repo_remove(struct pp_repo *r, const char *suite,
		   const struct pp_repo_removal *what, size_t n,
		   pp_repo_dropped_fn removed, void *ctx, struct pp_err *err);

struct pp_repo_members {
	struct pp_repo_member *m;
	size_t nr, alloc;
	char *text; /* the file as read, cut into the members' strings */
	/* A suite's list (repo-members.c): its changes since it was last
	 * written whole, as db/<suite>.list.log held them (log: that text;
	 * log_strings: a copy cut into the strings of the members it adds),
	 * and the members as loaded (copies: their strings are the text's or
	 * the log's), so that a save writes what changed since, not 100,000
	 * lines. */
	int journaled;
	char *log, *log_strings;
	size_t log_len, log_ops;
	struct pp_repo_member *loaded;
	size_t nr_loaded;
};

int pp_repo_members_load(struct pp_repo *r, const char *suite,
			 struct pp_repo_members *out, struct pp_err *err);
void pp_repo_members_release(struct pp_repo_members *ms);
/* The suite's members, read at the first call and kept by r for the run:
 * add and remove change them in place, publish reads them. */
int pp_repo_members_of(struct pp_repo *r, const struct pp_repo_suite *s,
		       struct pp_repo_members **out, struct pp_err *err);

/* Freezes a suite's members as snapshot name (db/snapshots/<name>.list:
 * names and pool files, no copies); a snapshot never changes. */
int pp_repo_snapshot(struct pp_repo *r, const char *suite, const char *name,
		     size_t *nr_packages, struct pp_err *err);
/* A snapshot's members. */
int pp_repo_snapshot_load(struct pp_repo *r, const char *name,
			  struct pp_repo_members *out, struct pp_err *err);
/* Makes a suite hold exactly a snapshot's members (served at the next
 * publish). */
int pp_repo_use_snapshot(struct pp_repo *r, const char *suite,
			 const char *name, struct pp_err *err);

enum pp_repo_change { PP_REPO_ADDED, PP_REPO_REMOVED, PP_REPO_UPGRADED,
		      PP_REPO_DOWNGRADED };
/* Told each package (and architecture) whose newest version differs
 * between a and b: old is NULL when added, new when removed. */
typedef void (*pp_repo_diff_fn)(void *ctx, enum pp_repo_change what,
				const char *package, const char *arch,
				const char *old, const char *new);
/* Compares two suites or snapshots (a suite's name first, else a
 * snapshot's). */
int pp_repo_diff(struct pp_repo *r, const char *a, const char *b,
		 pp_repo_diff_fn fn, void *ctx, struct pp_err *err);

struct pp_progress;

struct pp_repo_publish_opts {
	int full;         /* ignore the cache: re-read every pool file */
	int unsigned_ok;  /* publish suites that have no Signing-Key */
	/* NULL: every suite; else that one alone (what an add changed: the
	 * others stay served as they are) */
	const char *suite;
	time_t now;       /* the Date; Valid-Until is counted from it */
	pp_repo_sign_fn sign;
	void *sign_ctx;
	struct pp_progress *progress; /* told the pool files checked; NULL */
	/* filled: pool files read (not taken from the cache), and index
	 * pieces compressed or taken from the cache */
	size_t read_debs, pieces_compressed, pieces_cached;
	/* filled: Packages files linked from an earlier publish made from
	 * the same pool files (one per component and architecture) */
	size_t indices_reused;
};

int pp_repo_publish(struct pp_repo *r, struct pp_repo_publish_opts *o,
		    struct pp_err *err);

/* One problem found by verify: the path and what is wrong. */
typedef void (*pp_repo_problem_fn)(void *ctx, const char *path,
				   const char *what);

struct pp_repo_verify_opts {
	pp_repo_check_fn check;        /* NULL: InRelease not checked */
	void *check_ctx;
	pp_repo_check_deb_fn check_deb; /* NULL: packages' signatures not checked */
	void *check_deb_ctx;
	pp_repo_problem_fn problem;
	void *problem_ctx;
	size_t files_checked;           /* filled */
};

/* Checks every suite under dists/: the signature, every index against
 * Release, every pool file listed in Packages against its Size and
 * SHA256. Returns the number of problems (each reported), or -1 when the
 * repository cannot be read at all. */
int pp_repo_verify(const char *root, struct pp_repo_verify_opts *o,
		   struct pp_err *err);

/* Splits a list separated by blanks or commas ("main,contrib"). */
size_t pp_split_words(const char *s, char ***out);
void pp_free_words(char **w, size_t n);

/* The pool path of a package: pool/<component>/<prefix>/<source>/<file>. */
void pp_repo_pool_path(const char *component, const char *source,
		       const char *package, const char *version,
		       const char *arch, struct strbuf *out);

#endif
