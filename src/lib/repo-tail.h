/* The record of a Packages index's sorted base, so that an index whose
 * changes are all new stanzas is published as that base followed by a
 * tail of them: the base's bytes copied from the served .gz and .xz, and
 * only the tail hashed (from the SHA-256 states kept after the base) and
 * compressed. See doc/repo-scale.md. */
#ifndef PP_REPO_TAIL_H
#define PP_REPO_TAIL_H

#include <stdint.h>

#include "error.h"
#include "sha256-state.h"
#include "strbuf.h"

/* One compressed output of the base: the bytes of it that a later index
 * starts with, the SHA-256 state after them, and the stored file (in
 * db/indices/files, the inode the suite serves) they are copied from. */
struct pp_repo_base_out {
	uint64_t prefix;  /* gzip: the whole base file; xz: up to its index */
	unsigned char state[PP_SHA256_STATE_SIZE];
	char sha256[65];  /* the stored file's name */
	uint64_t size, ino;
	int64_t mtime_sec, mtime_nsec;
};

struct pp_repo_base {
	uint32_t compression;      /* PP_REPO_GZ | PP_REPO_XZ, as published */
	uint64_t nr;               /* stanzas in the base */
	uint64_t *fp;              /* a fingerprint of each one's ids */
	unsigned char key[32];     /* the index key of the base alone */
	uint64_t text_len;         /* of the base's text */
	unsigned char text_state[PP_SHA256_STATE_SIZE];
	struct pp_repo_base_out out[2]; /* .gz, .xz */
	uint64_t nr_blocks;        /* the base's xz blocks */
	uint64_t (*blocks)[2];
	struct strbuf pieces;      /* the cached pieces of the base, a line each */
};

/* 64 bits of a stanza's ids (its pool file's name and stat key). */
uint64_t pp_repo_base_fp(const char *id, const char *id2);
void pp_repo_base_path(const char *root, const char *suite, const char *comp,
		       const char *arch, struct strbuf *out);
/* 0, or -1 when there is none or it is damaged (then ignored). */
int pp_repo_base_load(const char *path, struct pp_repo_base *b);
int pp_repo_base_save(const char *path, const struct pp_repo_base *b,
		      struct pp_err *err);
void pp_repo_base_release(struct pp_repo_base *b);

#endif
