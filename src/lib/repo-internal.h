/* Internal to the repository modules. */
#ifndef PP_REPO_INTERNAL_H
#define PP_REPO_INTERNAL_H

#include <sys/stat.h>

#include "control.h"
#include "repo.h"

/* A pool file's Packages stanza (Filename, Size and hashes included), as
 * text ready to be written, and the stat key it was made from. Kept as
 * text so that loading the cache of a large pool parses no field. */
struct pp_repo_entry {
	char *filename; /* relative to the repository root */
	char *stat_key; /* "size mtime-ns inode" of the pool file */
	char *package;
	const char *text; /* the stanza, each line ending with a newline: */
	size_t text_len;  /* in the cache's file buffer, or in owned */
	char *owned;
};

struct pp_repo_cache {
	struct pp_repo_entry *e; /* sorted by filename */
	size_t nr, alloc;
	int dirty;
	struct strbuf file; /* db/cache as read; entries point into it */
};

void pp_repo_stat_key(const struct stat *st, struct strbuf *out);
/* Reads a .deb once: its control fields and the hashes of the file, as a
 * Packages stanza with Filename set to filename. */
int pp_repo_read_deb(const char *path, const char *filename,
		     struct pp_stanza *out, struct pp_err *err);

int pp_repo_cache_load(const char *root, struct pp_repo_cache *c,
		       struct pp_err *err);
int pp_repo_cache_save(const char *root, struct pp_repo_cache *c,
		       struct pp_err *err);
void pp_repo_cache_release(struct pp_repo_cache *c);
struct pp_repo_entry *pp_repo_cache_find(struct pp_repo_cache *c,
					 const char *filename);
/* Adds or replaces the entry of a pool file. */
void pp_repo_cache_put(struct pp_repo_cache *c, const char *filename,
		       const char *stat_key, const struct pp_stanza *st);
/* Drops entries whose filename is not kept (keep returns 0). */
void pp_repo_cache_prune(struct pp_repo_cache *c,
			 int (*keep)(void *ctx, const char *filename),
			 void *ctx);
/* The fresh entry of a pool file: from the cache when its stat key still
 * matches, else read again. *was_read is set when read. */
int pp_repo_entry_get(const char *root, int root_fd, struct pp_repo_cache *c,
		      const char *filename, int *was_read,
		      struct pp_repo_entry **out, struct pp_err *err);


int pp_repo_members_save(struct pp_repo *r, const char *suite,
			 const struct pp_repo_members *ms, struct pp_err *err);


#endif
