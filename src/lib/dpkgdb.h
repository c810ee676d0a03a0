/* The installed system as dpkg knows it: which package owns a file (the
 * info/PKG.list files dpkg -S reads), a package's shlibs and symbols
 * control files, the installed packages (status), and where the dynamic
 * linker looks for libraries (ld.so.conf). Read only. */
#ifndef PP_DPKGDB_H
#define PP_DPKGDB_H

#include <stddef.h>

#include "error.h"
#include "strlist.h"

struct pp_dpkgdb {
	char *admindir;   /* /var/lib/dpkg, or $DPKG_ADMINDIR */
	char *confdir;    /* /etc/dpkg: shlibs.override, shlibs.default */
	char *root;       /* "" or a directory holding etc/ld.so.conf ... */
	char *arch;       /* host architecture, for PKG:ARCH file names */
	char *triplet;    /* its multiarch triplet */
	struct pp_strlist list_files; /* info/ *.list, sorted; read lazily */
	int listed;
};

/* admindir NULL: $DPKG_ADMINDIR, else /var/lib/dpkg. */
void pp_dpkgdb_init(struct pp_dpkgdb *db, const char *admindir,
		    const char *arch, const char *triplet);
void pp_dpkgdb_release(struct pp_dpkgdb *db);

/* For each path (absolute), the package owning it ("" when none), as
 * "dpkg -S" answers; /lib and /usr/lib (merged /usr) are both tried.
 * owners gets one item per path, in order. */
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

/* Reads ADMINDIR/status: the packages whose status is "installed". */
int pp_dpkgdb_installed(const struct pp_dpkgdb *db, struct pp_installed_set *out,
			struct pp_err *err);
void pp_installed_release(struct pp_installed_set *set);

#endif
