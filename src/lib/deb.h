/* The .deb format: building a package from a directory tree (dpkg-deb
 * --build) and reading one (--info, --contents, --extract, --control).
 * Format code only: no command-line knowledge, nothing printed. */
#ifndef PP_DEB_H
#define PP_DEB_H

#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "ar.h"
#include "compress.h"
#include "control.h"
#include "error.h"
#include "strbuf.h"

struct pp_progress;

/* ---- building --------------------------------------------------------- */

struct pp_pack_opts {
	/* used for both members, as dpkg-deb; but comp.x86: PP_X86_AUTO
	 * gives the data member xz's x86 BCJ filter when x86code.h expects
	 * it to make the package smaller, OFF never, ON always; the control
	 * member never has it */
	struct pp_compress_opts comp;
	time_t timestamp; /* ar mtimes; tar mtimes are clamped to it */
	struct pp_progress *progress; /* told the bytes archived; or NULL */
};

/* Packs root (root/DEBIAN is the control area) into out, a file name or an
 * existing directory (then named PACKAGE_VERSION_ARCH.deb as dpkg-deb
 * does). Everything is checked before the output is created; the output
 * appears under its name only once complete. *written (may be NULL) gets
 * the path written, to be freed by the caller. */
int pp_deb_pack(const char *root, const char *out,
		const struct pp_pack_opts *opts, char **written,
		struct pp_err *err);

/* ---- reading ---------------------------------------------------------- */

struct pp_deb {
	struct pp_ar ar;
	int minor;                  /* of the format version 2.x */
	struct pp_ar_member binary; /* debian-binary */
	struct pp_ar_member control; /* control.tar[.ext] */
	struct pp_ar_member data;    /* data.tar[.ext] */
	struct pp_ar_member *extra; /* '_' members (signatures), in order */
	size_t nr_extra, alloc_extra;
};

/* Opens a .deb and checks its ar structure the way dpkg does: magic,
 * debian-binary first with major version 2, '_' members only before
 * control.tar or after data.tar, known compressions. */
int pp_deb_open(struct pp_deb *deb, const char *path, struct pp_err *err);
void pp_deb_close(struct pp_deb *deb);

/* One file of the control archive, read into memory. */
struct pp_ctrl_member {
	char *name;
	mode_t mode;
	int plain; /* a regular file at the top; else listed, not read */
	struct strbuf data;
};

struct pp_ctrl_members {
	struct pp_ctrl_member *m;
	size_t nr, alloc;
};

/* Reads the control archive's plain files (sorted by name). Anything
 * else at the top (a directory, a link) is listed with plain = 0 and no
 * data, as dpkg-deb --info lists it; what lies in subdirectories is
 * ignored. */
int pp_deb_read_control(struct pp_deb *deb, struct pp_ctrl_members *out,
			struct pp_err *err);
void pp_ctrl_members_release(struct pp_ctrl_members *cm);
/* The plain file called name, or NULL. */
const struct pp_ctrl_member *pp_ctrl_members_find(
	const struct pp_ctrl_members *cm, const char *name);
/* What dpkg-deb --info says of a control file: its lines, and the
 * interpreter of a "#!" first line (at most 210 bytes, else "") in
 * interp, counted the way dpkg-deb counts them so that the two agree. */
void pp_ctrl_member_shape(const struct pp_ctrl_member *m, int *lines,
			  char interp[256]);
/* Opens the .deb at path and parses its control file into out; a
 * package without one is malformed. */
int pp_deb_read_fields(const char *path, struct pp_stanza *out,
		       struct pp_err *err);

/* What a tar member says of one entry (as for a listing). */
struct pp_tar_entry {
	const char *path;     /* as stored, e.g. "./usr/bin/x" */
	mode_t mode;          /* type and permission bits */
	int64_t size;
	time_t mtime;
	const char *uname, *gname;
	int64_t uid, gid;
	const char *symlink;  /* target of a symbolic link, or NULL */
	const char *hardlink; /* target of a hard link, or NULL */
	unsigned devmajor, devminor;
};

typedef int (*pp_tar_visit_fn)(const struct pp_tar_entry *e, void *ctx,
			       struct pp_err *err);

/* Walks the entries of the data archive (member = &deb->data) or the
 * control archive (&deb->control). */
int pp_deb_list(struct pp_deb *deb, const struct pp_ar_member *member,
		pp_tar_visit_fn fn, void *ctx, struct pp_err *err);

/* A tap sees every raw (compressed) byte of a member exactly once, in
 * order, as it is read: signatures cover the raw bytes, and this lets one
 * read serve both. Bytes after the end of the tar archive, which the tar
 * reader never asks for, are fed when the member is closed. fed counts
 * the bytes fed; it stays short of the member's size when reading failed. */
struct pp_deb_tap {
	void (*fn)(const void *buf, size_t len, void *ctx);
	void *ctx;
	off_t fed;
};

/* Feeds a whole member to tap, unparsed (e.g. debian-binary). */
int pp_deb_tap_member(struct pp_deb *deb, const struct pp_ar_member *m,
		      struct pp_deb_tap *tap, struct pp_err *err);
/* pp_deb_read_control, with tap (may be NULL) on the member's bytes. */
int pp_deb_read_control_tap(struct pp_deb *deb, struct pp_ctrl_members *out,
			    struct pp_deb_tap *tap, struct pp_err *err);

/* Gets the data of a regular file in pieces, then once with buf NULL at
 * its end. */
typedef int (*pp_tar_data_fn)(const void *buf, size_t len, void *ctx,
			      struct pp_err *err);

/* Walks a tar member like pp_deb_list, also passing each regular file's
 * data (not that of hard links) to data_fn after its entry_fn; tap (may be
 * NULL) sees the member's raw bytes. */
int pp_deb_walk(struct pp_deb *deb, const struct pp_ar_member *member,
		struct pp_deb_tap *tap, pp_tar_visit_fn entry_fn,
		pp_tar_data_fn data_fn, void *ctx, struct pp_err *err);

struct pp_extract_opts {
	int preserve_special; /* keep setuid and setgid bits */
	int same_owner;       /* as root, give files the archive's owners */
	int64_t max_bytes;    /* most bytes of regular files; -1: no limit */
	const char *limit_why; /* where max_bytes comes from, for messages */
};

/* Extracts a tar member into dir (created if missing). Refuses, before
 * writing it, every entry that would land outside dir: absolute names,
 * '..' components, writing through a symbolic link, hard links to
 * anything but an earlier entry; device nodes and sockets; a path given
 * twice (but for a directory given again), names with a newline, longer
 * than 4095 bytes or more than 256 levels deep; a file past
 * opts->max_bytes or larger than the free space of dir's filesystem. A
 * file that cannot be written whole (EFBIG, ENOSPC) is removed and the
 * error names its entry. Set-id bits are dropped with a warning unless
 * opts->preserve_special. */
int pp_deb_extract(struct pp_deb *deb, const struct pp_ar_member *member,
		   const char *dir, const struct pp_extract_opts *opts,
		   struct pp_err *err);

/* The default limit of an extraction of the data member: twice the
 * package's Installed-Size plus 16 MiB, with *why saying so; -1 when the
 * package declares no readable Installed-Size. */
int64_t pp_deb_size_limit(struct pp_deb *deb, const char **why);

#endif
