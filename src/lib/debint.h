/* Internal to the .deb modules. */
#ifndef PP_DEBINT_H
#define PP_DEBINT_H

#include <archive.h>

#include "deb.h"

/* A libarchive reader over one tar member, with the decompressor its
 * name calls for; archive_read_free releases everything. */
struct archive *pp_deb_member_open(struct pp_deb *deb,
				   const struct pp_ar_member *m,
				   struct pp_err *err);
/* The same, with a tap (may be NULL) on the raw bytes (deb.h). */
struct archive *pp_deb_member_open_tap(struct pp_deb *deb,
				       const struct pp_ar_member *m,
				       struct pp_deb_tap *tap,
				       struct pp_err *err);

/* Strips "./" prefixes; NULL (and *why says why) when the name is
 * absolute or has a '..' component. */
const char *pp_deb_relative_name(const char *name, const char **why);

#endif
