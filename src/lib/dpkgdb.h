/* The installed system as dpkg knows it, asked through dpkg-query (its
 * database is dpkg's own business): which package owns a file (--search),
 * where a package's shlibs or symbols file is (--control-path), what is
 * installed (--show); and where the dynamic linker looks for libraries
 * (ld.so.conf). Read only. */
#ifndef PP_DPKGDB_H
#define PP_DPKGDB_H

#include <stddef.h>

#include "error.h"
#include "strlist.h"

struct pp_dpkgdb {
	char *admindir;   /* dpkg-query --admindir, or NULL: its default */
	char *confdir;    /* /etc/dpkg: shlibs.override, shlibs.default */
	char *root;       /* "" or a directory holding etc/ld.so.conf ... */
	char *arch;       /* host architecture */
	char *triplet;    /* its multiarch triplet */
};

/* admindir NULL: dpkg-query's own default ($DPKG_ADMINDIR or dpkg's). */
void pp_dpkgdb_init(struct pp_dpkgdb *db, const char *admindir,
		    const char *arch, const char *triplet);
void pp_dpkgdb_release(struct pp_dpkgdb *db);

/* For each path (absolute), the package owning it ("" when none), as
 * dpkg-query --search answers, in one call; /lib and /usr/lib (merged
 * /usr) are both tried. owners gets one item per path, in order. */
int pp_dpkgdb_owners(struct pp_dpkgdb *db, const struct pp_strlist *paths,
		     struct pp_strlist *owners, struct pp_err *err);

/* The path of a control file (symbols, shlibs ...) of an installed
 * package, newly allocated, or NULL when it has none. */
char *pp_dpkgdb_control_file(const struct pp_dpkgdb *db, const char *package,
			     const char *name);

/* The directories ld.so searches, in its order: those of
 * ROOT/etc/ld.so.conf (with its include lines) then the defaults for the
 * triplet; each listed once. */
void pp_ld_library_dirs(const struct pp_dpkgdb *db, struct pp_strlist *dirs);

/* An installed package of the status file. */
struct pp_installed {
	char *name, *version, *arch;
	char *depends;   /* Depends and Pre-Depends joined, or "" */
	char *provides;  /* or "" */
	int essential;
};

struct pp_installed_set {
	struct pp_installed *pkgs;
	size_t nr, alloc;
};

/* The packages whose status is "installed" (dpkg-query --show). */
int pp_dpkgdb_installed(const struct pp_dpkgdb *db, struct pp_installed_set *out,
			struct pp_err *err);
void pp_installed_release(struct pp_installed_set *set);

#endif
