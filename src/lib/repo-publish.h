/* A publish in progress, shared by its parts: repo-publish.c (the
 * indices, the exchange) and repo-release.c (Release, InRelease and the
 * files for clients beside dists/). Internal to the repository module. */
#ifndef PP_REPO_PUBLISH_H
#define PP_REPO_PUBLISH_H

#include "repo-internal.h"
#include "strbuf.h"

/* An index file written into the new suite directory. */
struct index_file {
	char *path; /* relative to dists/<suite>/ */
	long long size;
	char sha256[65];
};

struct publish {
	struct pp_repo *r;
	const struct pp_repo_suite *s;
	struct pp_repo_publish_opts *o;
	struct pp_repo_cache *cache;
	struct pp_zcache *zcache;
	struct pp_repo_contents *contents; /* NULL: no suite has Contents */
	struct strbuf cur, tmp; /* dists/<suite> and its replacement */
	struct index_file *files;
	size_t nr_files, alloc_files;
	struct pp_err *err;
};

/* Each file written is synced before it is renamed into place (and so
 * before Release names it); the directories before the exchange. */
static inline int sync_flag(const struct publish *p)
{
	return p->r->no_sync ? 0 : PP_SYNC;
}

/* Writes Release (and, for a suite with a Signing-Key, InRelease and
 * Release.gpg) into the new suite directory, listing p->files. */
int pp_repo_write_release(struct publish *p);
/* Puts the public key and the deb822 .sources file beside dists/, each
 * only when it changed. */
int pp_repo_client_files(struct publish *p);

#endif
