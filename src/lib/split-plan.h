/* padpack split: the stage trees that padpack build leaves, turned into
 * the packages a Debian maintainer would write by hand, for every variant
 * at once.
 *
 * Planning (pp_split_plan) reads each variant's stage tree, classifies
 * every file by content and path, finds the files that are byte for byte
 * the same in every variant, and assigns each file to one package by the
 * spec's rules, then padpack's defaults; nothing is written.
 * Running (pp_split_run) builds each package's tree (stripped binaries,
 * debug files in -dbgsym packages, copyright and changelog, compressed
 * manual pages), computes its control file from the role's template and
 * its dependencies as dpkg-shlibdeps does, packs it, and writes
 * SHA256SUMS, a .buildinfo and a .changes beside the packages.
 *
 * This header declares the split plan (struct pp_split, made by
 * split-plan.c) and what is done with a plan: pp_split_scaffold
 * (split-scaffold.c) and pp_split_run (split-build.c). The internals the
 * split-*.c files share are in splitint.h. */
#ifndef PP_SPLIT_PLAN_H
#define PP_SPLIT_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>

struct pp_progress;

#include "classify.h"
#include "isa.h"
#include "compress.h"
#include "error.h"
#include "spec.h"
#include "strbuf.h"
#include "strlist.h"

struct pp_split_opts {
	const char *build_dir;    /* BUILD_DIR/VARIANT/stage are the inputs */
	const char *stage_dir;    /* or this one tree, of a one-variant spec */
	const char *out_dir;      /* where the packages go */
	const char *work_dir;     /* package trees; emptied first */
	const char *datadir;      /* padpack's control-templates/, scripts/ */
	const char *admindir;     /* dpkg's database; NULL: the system's */
	const unsigned char *selected; /* variants asked for; NULL: all */
	int explicit_selection;   /* a selected variant without stage is an
				     error, not skipped */
	time_t timestamp;         /* SOURCE_DATE_EPOCH, or now */
	struct pp_compress_opts comp;
	uint64_t mem_limit;       /* the packs' compressors together; 0: none */
	struct pp_progress *progress; /* told how far pp_split_run is; NULL */
	int spec_from_options;    /* the spec is split --name's, which the
				     user cannot edit: errors say so */
};

/* What a package is for; each role has a control template. */
enum pp_role {
	PP_ROLE_RUNTIME, PP_ROLE_DEV, PP_ROLE_TOOLS, PP_ROLE_PYTHON,
	PP_ROLE_DOC, PP_ROLE_DATA, PP_ROLE_DBGSYM, PP_ROLE_NR
};

const char *pp_role_name(enum pp_role role);

/* One entry of one stage tree. */
struct pp_split_file {
	char *path;               /* relative to the stage, no "./" */
	struct stat st;
	char *link;               /* a symbolic link's target, as stored */
	struct pp_classified c;
	unsigned char sum[32];    /* SHA-256 of a regular file's content */
	int shared;               /* the same in every variant */
	struct pp_isa_report *isa; /* what its code needs; NULL: no code */
	long pkg;                 /* index into the packages; -1 dropped */
	char *rule;               /* the rule that chose, for --explain */
	int python_shebang;       /* starts "#!/usr/bin/python" or "#!/usr/bin/env
				   * python", unversioned: shipped with python3 */
	/* A library of a glibc-hwcaps build carried into its baseline's
	 * stage at DIR/glibc-hwcaps/LEVEL/ (split-hwcaps.c); else NULL. */
	char *src;                /* the file as built (STAGE/path) */
	const struct pp_variant *built; /* the build it comes from */
	const char *hwcaps;       /* its level, e.g. "x86-64-v3" */
};

struct pp_split_stage {
	const struct pp_variant *variant;
	char *dir;
	struct pp_split_file *files;
	size_t nr, alloc;
	size_t *by_path;          /* indexes of files, sorted by path */
};

struct pp_split_ref {
	size_t stage, file;
};

struct pp_split_pkg {
	char *name;
	char *base;               /* the role's name before any variant part */
	enum pp_role role;
	const struct pp_variant *variant; /* NULL: one for all variants */
	int common;               /* the shared files of a role that also
				     has variant packages */
	int arch_all;
	long parent;              /* -dbgsym: the package; else -1 */
	struct pp_split_ref *files;
	size_t nr_files, alloc_files;
	/* filled while building */
	struct pp_strlist build_ids;
	char *isa;                /* the ISA level its code needs, or NULL */
	char *isa_flags;          /* /proc/cpuinfo flags the preinst checks */
	char *isa_names;          /* those extensions, for people */
	char *isa_alternative;    /* the package to install instead */
	char *isa_guard;          /* no code of its own, but its variant's
				     ISA level: what its preinst names */
	/* co-installable variants (split-alt.c): the maintainer-script
	 * lines that register and unregister the package's alternatives,
	 * and the virtual packages those provide; NULL/empty: none */
	char *alt_install, *alt_remove, *alt_names;
	long alt_priority;
	struct pp_strlist alt_provides;
	/* the directories the links go in (usr/lib/.../pkgconfig): shipped
	 * by the package, as update-alternatives does not create them */
	struct pp_strlist alt_dirs;
	char *deb;                /* the file written (its base name) */
	char *synopsis, *section, *priority;
	int auto_built;           /* -dbgsym: not in .changes Description */
};

struct pp_split {
	const struct pp_spec *spec;
	struct pp_split_opts opts;
	char *upstream;           /* the version built */
	char *version;            /* upstream-revision */
	char *arch, *triplet;     /* of the binaries (the host's if none) */
	struct pp_split_stage *stages;
	size_t nr_stages;
	struct pp_split_pkg *pkgs;
	size_t nr_pkgs, alloc_pkgs;
	struct pp_strlist written; /* every file of the run, in out_dir */
	char *copyright;          /* the copyright file every package ships */
};

/* The file's content on disk: where it was built (appended to out). */
void pp_split_file_source(const struct pp_split_stage *st,
			  const struct pp_split_file *f, struct strbuf *out);

/* Plans the split of the selected variants' stage trees (reading their
 * files and scanning their instructions on opts.comp.threads threads). */
int pp_split_plan(struct pp_split *s, const struct pp_spec *spec,
		  const struct pp_split_opts *opts, struct pp_err *err);
void pp_split_release(struct pp_split *s);

/* An error when the plan makes no package (a tree empty, or of only
 * files padpack drops): its .changes would list none, which no archive
 * takes. */
int pp_split_check_packages(const struct pp_split *s, struct pp_err *err);

/* For --explain: one line per staged file (once for a file that is the
 * same in every variant): the file, its class, the package chosen and
 * the rule that chose it. */
void pp_split_explain(const struct pp_split *s, struct strbuf *out);

/* padpack split --scaffold: a spec of the plan's settings (each with the
 * value used), copyright naming the copyright file written beside it,
 * and the packages the plan makes as comments. */
void pp_split_scaffold(const struct pp_split *s, const char *stage,
		       const char *copyright, struct strbuf *out);

/* Builds and packs every package (a pipeline on opts.comp.threads
 * workers, split-sched.c), then SHA256SUMS, .buildinfo and .changes.
 * Files a previous run listed in OUT/SHA256SUMS are removed first; the
 * packages are packed into OUT/.padpack-split.tmp and renamed into OUT
 * when every one is made; every other file is written under a temporary
 * name and renamed. */
int pp_split_run(struct pp_split *s, struct pp_err *err);

#endif
