/* A strict reader of the common ar format used by .deb files. Strict
 * because signatures cover member contents and names: the names, sizes,
 * end magic and padding bytes are checked, and a member that runs past
 * the end of the file is refused with its name. A malformed date, owner
 * or mode, which dpkg ignores, is read as 0 with a warning. */
#ifndef PP_AR_H
#define PP_AR_H

#include <stdint.h>
#include <sys/types.h>

#include "error.h"

#define PP_AR_MAGIC "!<arch>\n"
#define PP_AR_HDR 60

struct pp_ar {
	int fd;
	char *path;
	off_t size; /* of the whole file */
	off_t next; /* offset of the next member header */
	int lax_warned; /* a malformed date, owner or mode was warned of */
};

struct pp_ar_member {
	char name[17];   /* without padding or a GNU trailing '/' */
	off_t header;    /* offset of the 60-byte header */
	off_t offset;    /* offset of the data */
	off_t size;      /* of the data */
	long long mtime;
	unsigned mode;
};

int pp_ar_open(struct pp_ar *ar, const char *path, struct pp_err *err);
void pp_ar_close(struct pp_ar *ar);
/* Reads the next header: 1 when read, 0 at the end, -1 on error. */
int pp_ar_next(struct pp_ar *ar, struct pp_ar_member *m, struct pp_err *err);
/* Goes back to the first member, for another pass with pp_ar_next. */
void pp_ar_rewind(struct pp_ar *ar);
/* Reads len bytes of a member's data starting at off (pread). */
int pp_ar_read(struct pp_ar *ar, const struct pp_ar_member *m, off_t off,
	       void *buf, size_t len, struct pp_err *err);

#endif
