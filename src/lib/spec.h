/* The build spec (libconfig): what a project is, the axes its variants
 * vary along (device, ISA, ...) and what each axis value adds to a build.
 * Loading validates everything, names file, line and setting on error, and
 * expands the variant matrix. See pkg/paddle.cfg for the documented form.
 *
 * Strings in cmake, cflags, env values and image tags may hold @name@
 * placeholders, expanded per variant by pp_spec_expand(). */
#ifndef PP_SPEC_H
#define PP_SPEC_H

#include <stddef.h>

#include "error.h"
#include "strbuf.h"
#include "strlist.h"

/* A program a variant needs on the build host, e.g. nvcc; @program@ in a
 * template expands to where it was found. */
struct pp_tool {
	char *program;             /* a bare name, looked up in PATH ... */
	struct pp_strlist search;  /* ... then in these absolute directories */
	char *what;                /* what provides it, for messages */
	unsigned line;
};

/* What the build section and each axis value add to a variant's build;
 * a variant gets the build section's, then each of its values' in axis
 * order (for env, a later value of the same name wins). */
struct pp_settings {
	struct pp_strlist cmake;   /* CMake arguments, usually -DNAME=VALUE */
	struct pp_strlist cflags;  /* C/C++ compiler flags */
	struct pp_strlist env;     /* NAME=VALUE */
	struct pp_tool *needs;
	size_t nr_needs;
	/* what only some build systems read (build.system) */
	struct pp_strlist cppflags;  /* C preprocessor flags (CPPFLAGS) */
	struct pp_strlist ldflags;   /* linker flags (LDFLAGS) */
	struct pp_strlist make_vars; /* make and autotools: NAME=VALUE */
	struct pp_strlist configure_args; /* autotools: ./configure's */
	struct pp_strlist meson_args;     /* meson: meson setup's */
};

/* How the source is built (build.system). */
enum pp_build_kind {
	PP_BUILD_CMAKE,     /* cmake -S -B, --build, ctest, --install */
	PP_BUILD_MAKE,      /* a plain Makefile, in a copy of the source */
	PP_BUILD_AUTOTOOLS, /* SOURCE/configure in the build tree, make */
	PP_BUILD_MESON,     /* meson setup, compile, test, install */
	PP_BUILD_COMMANDS,  /* the spec's own shell commands */
};

/* The steps of build.commands, in order. */
enum pp_command_step { PP_CMD_CONFIGURE, PP_CMD_BUILD, PP_CMD_TEST,
		       PP_CMD_INSTALL, PP_NR_CMD_STEPS };

struct pp_build_system {
	enum pp_build_kind kind;
	int buildflags;           /* start from dpkg-buildflags' flags */
	char *make_target;        /* NULL: the Makefile's default */
	char *make_test_target;   /* NULL: no test (make), "check" (autotools) */
	char *make_install_target; /* "install" */
	struct pp_strlist commands[PP_NR_CMD_STEPS]; /* shell lines */
	/* make and autotools: shell lines run in the build tree after the
	 * build and after the install, "$@" the variant's make variables */
	struct pp_strlist after_build, after_install;
	/* make and autotools: globs of object files the source ships on
	 * purpose (relative to it), which the check for objects built in
	 * place lets be */
	struct pp_strlist prebuilt_objects;
};

/* The name of a build system, "cmake" ... */
const char *pp_build_kind_name(enum pp_build_kind kind);

/* Containers of one device kind: images for `padpack docker`, and the
 * docker run flags used by builds (--in-image) and by running an image. */
struct pp_container {
	char *base;                     /* base of the production image */
	char *dev_base;                 /* base of the development image */
	struct pp_strlist build_flags;  /* added to `docker run` of builds */
	struct pp_strlist run_flags;    /* to run the image, e.g. --gpus all */
	struct pp_strlist env;          /* NAME=VALUE set in its images */
};

/* An accelerator a value's builds use: its packages warn at install time
 * when none of the driver's libraries is there (padpack split). */
struct pp_accel {
	char *what;               /* e.g. "the NVIDIA driver" */
	struct pp_strlist libs;   /* e.g. libcuda.so.1 */
};

struct pp_axis_value {
	char *name;                 /* e.g. "gpu"; part of variant names */
	char *suffix;               /* part of package/image names; "" none */
	struct pp_settings set;
	struct pp_strlist forbid_isa; /* instruction sets its binaries
					 must not contain (padpack split) */
	struct pp_container container;
	struct pp_accel accel;      /* accel.what NULL: none */
	char *isa;                  /* the most its binaries may use (an ISA
				       limit, e.g. x86-64-v2), or NULL */
	struct pp_strlist isa_require; /* what they must contain somewhere */
	int hwcaps_level;           /* a pack = "hwcaps" axis: the x86-64
				       level of isa (enum pp_isa_level) */
	long priority;              /* added up over a variant's values: its
				       update-alternatives priority */
	unsigned line;
};

struct pp_axis {
	char *name;                 /* e.g. "device"; also a placeholder */
	struct pp_axis_value *values;
	size_t nr_values;
	/* pack = "hwcaps": the values are glibc-hwcaps builds of the same
	 * libraries, shipped in one package (padpack split): the value of
	 * the lowest level (hwcaps_base) in the library directory, each
	 * other under glibc-hwcaps/LEVEL/. 0: one package per value. */
	int hwcaps;
	size_t hwcaps_base;
	unsigned line;
};

/* The description of a package of one variant says which ("This is the
 * cpu-avx variant (device cpu, ...)"): split writes it, docker prod reads
 * it back to tell one variant's unsuffixed packages from another's. */
#define PP_VARIANT_SAYS_HEAD "This is the "
#define PP_VARIANT_SAYS_TAIL " variant ("

/* One point of the matrix: a value of every axis. */
struct pp_variant {
	char *name;     /* the values' names joined by '-', e.g. gpu-noavx */
	char *suffix;   /* the non-empty suffixes joined by '-', or "" */
	const struct pp_axis_value **values; /* one per axis, axis order */
};

/* padpack split: which package provides a NEEDED soname. */
struct pp_needed {
	char *soname;   /* a glob, e.g. libcudart.so.* */
	char *depends;  /* a Depends entry, e.g. libcudart13 */
	unsigned line;
};

/* padpack split: which package a staged path goes to. */
struct pp_file_rule {
	char *path;     /* a glob relative to the stage, e.g. "usr/include/..." */
	char *package;  /* a template, e.g. lib@name@-dev; NULL with drop */
	char *role;     /* runtime, dev, tools ...; NULL: from the name */
	char *drop;     /* why the file is left out, or NULL */
	unsigned line;
};

/* padpack split: code behind a runtime CPU check in the files a glob
 * names, which the ISA scan leaves out of the verdict (lib/isa.h). */
struct pp_isa_dispatch {
	char *path;                  /* a glob relative to the stage */
	struct pp_strlist symbols;   /* functions only a CPUID check reaches */
	int ifunc;                   /* code only ifunc resolvers reach */
	struct pp_strlist dispatchers; /* functions that act as resolvers */
	unsigned line;
};

/* padpack split: a link update-alternatives manages for a co-installable
 * variant set (packages.alternatives): each variant's package that holds
 * path registers it for link under name; slaves follow their master.
 * Strings are templates (@suffix@, @variant@, axis names). */
struct pp_alt_link {
	char *name;     /* the alternative, e.g. libblas.so.3-x86_64-linux-gnu */
	char *link;     /* the generic path, e.g. /usr/lib/.../libblas.so.3 */
	char *path;     /* the variant's file, e.g. .../openblas-@suffix@/... */
	unsigned line;
};

struct pp_alternative {
	struct pp_alt_link master;
	struct pp_alt_link *slaves;
	size_t nr_slaves;
	char *provides; /* a virtual package its package provides, or NULL */
	struct pp_strlist variants; /* globs of the variants that register
				       it; empty: every variant */
	unsigned variants_line;
};

/* Maintainer scripts a package can have, in this order. */
enum pp_script { PP_PREINST, PP_POSTINST, PP_PRERM, PP_POSTRM, PP_NR_SCRIPTS };

/* padpack split: control fields and scripts of the packages a glob names. */
struct pp_control_rule {
	char *package;              /* a glob (template), e.g. lib@name@1* */
	struct pp_strlist fields;   /* Name=value */
	char *scripts[PP_NR_SCRIPTS]; /* templates, relative to the spec */
	struct pp_strlist lintian;  /* override lines (templates) */
	unsigned line;
};

/* How a production image records the packages it holds (image.records,
 * padpack docker prod --records). */
enum pp_records {
	PP_RECORDS_UNSET,    /* not said: dpkg */
	PP_RECORDS_STATUS_D, /* their files copied from an install stage, and
				/var/lib/dpkg/status.d/PKG{,.md5sums}: scanners
				see them, apt and dpkg in the image do not */
	PP_RECORDS_DPKG,     /* installed in the image: in dpkg's database */
};

/* PP_RECORDS_STATUS_D or PP_RECORDS_DPKG for "status.d" or "dpkg", else
 * PP_RECORDS_UNSET. */
enum pp_records pp_records_parse(const char *name);

struct pp_image {
	char *registry;   /* e.g. docker.io/paddlepaddle */
	char *name;       /* repository name, e.g. paddle */
	char *tag;        /* template; "-<suffix>" is appended per variant */
	char *dev;        /* the development image (--in-image default) */
	char *apt_mirror; /* sed expression for sources.list, or NULL */
	char *mount;      /* where builds mount the source, e.g. /paddle */
	/* padpack docker */
	char *latest;     /* alias tag template ("latest"), or NULL */
	char *user;       /* production images' user; NULL: the spec's name */
	long uid;         /* its UID and GID; 1000 when not set */
	struct pp_strlist runtime;    /* package templates in production
					 images; "-SUFFIX" appended per variant */
	struct pp_strlist entrypoint; /* of production images */
	struct pp_strlist cmd;
	struct pp_strlist smoke;      /* run at build time, e.g. paddle --version */
	struct pp_strlist labels;     /* KEY=VALUE, more image labels */
	char *label_prefix;           /* of the variant and axis labels */
	struct pp_strlist dev_packages; /* apt packages of the dev image */
	struct pp_strlist dev_env;    /* SHORT=NAME: GPU=WITH_GPU */
	char *woboq;      /* the code browser's git URL, or NULL */
	int helpers;      /* write container.sh (start, into, stop) */
	enum pp_records records; /* of production images */
};

/* An application image on top of a production image (padpack docker app),
 * e.g. Paddle's book: more packages, the app's files, a port, a command. */
struct pp_app {
	char *name;                 /* image name: REGISTRY/NAME:PRODUCTION_TAG */
	struct pp_strlist variants; /* globs of the variants it is made for */
	struct pp_strlist apt;      /* Debian packages */
	struct pp_strlist pip;      /* pip arguments, into a virtual env */
	struct pp_strlist copy;     /* SRC:DEST, SRC relative to the spec */
	struct pp_strlist expose;   /* ports, e.g. 8888 */
	struct pp_strlist env;      /* NAME=VALUE */
	struct pp_strlist cmd;      /* exec form */
	unsigned line;
};
/* Frees what an app holds (spec_read.c fills them; padpack docker app
 * builds one from its options too). */
void pp_app_release(struct pp_app *a);

struct pp_spec {
	char *path;          /* the file as given */
	char *name;          /* source package name */
	char *version;       /* NULL: from the source tree's git tags */
	char *version_env;   /* variable that overrides the version */
	char *maintainer, *homepage, *summary, *description;
	char *source;        /* the source tree, relative to the cwd */
	char *generator;     /* CMake generator, NULL for CMake's default */
	int test;            /* run the tests unless told not to */
	struct pp_strlist test_args; /* extra ctest arguments */
	struct pp_settings build;
	struct pp_build_system system;
	struct pp_axis *axes;
	size_t nr_axes;
	struct pp_variant *variants; /* the matrix less the excluded */
	size_t nr_variants;
	struct pp_image image;
	char *package;       /* base package name (template) */
	char *revision;      /* Debian revision ("1") */
	long epoch;          /* Debian epoch (0: none) */
	char *title;         /* short name for synopses, or NULL */
	int coinstallable;   /* packages.variants = "coinstallable": variant
				packages neither conflict nor replace one
				another; alternatives pick the one in use */
	struct pp_alternative *alternatives;
	size_t nr_alternatives;
	int runtime_one;     /* packages.runtime = "one": every public shared
				library in one runtime package (libxslt1.1) */
	int dev_per_library; /* packages.dev = "library": a -dev package per
				public shared library (libflac-dev,
				libflac++-dev) */
	int dev_one;         /* packages.dev = "one": one for the source;
				neither: "auto", one but a C++ library's
				own beside C libraries */
	int doc_package;     /* packages.doc = "package": every document in
				the -doc package */
	int doc_none;        /* packages.doc = "none": no -doc package while
				-dev or the programs' can hold them; neither:
				"auto", one for a manual (512 KiB, or one a
				generator made) */
	int runtime_soname;  /* packages.runtime = "soname": one per SONAME
				(policy 8.1); neither: "auto", one when the
				build only uses them together */
	char *section;       /* section of tools and data packages */
	char *copyright;     /* DEP-5 file, relative to the cwd; or NULL */
	char *changelog;     /* debian/changelog, relative to the cwd; or NULL */
	char *distribution, *urgency;
	char *templates;     /* control templates dir, or NULL: padpack's */
	struct pp_strlist build_depends;
	struct pp_control_rule *control;
	size_t nr_control;
	struct pp_isa_dispatch *isa_dispatch;
	size_t nr_isa_dispatch;
	struct pp_needed *needed;
	size_t nr_needed;
	struct pp_file_rule *files;
	size_t nr_files;
	struct pp_app *apps;
	size_t nr_apps;
};

/* Reads and validates a spec. Errors: PP_EXIT_IO when it cannot be read,
 * PP_EXIT_INPUT with "FILE:LINE: setting 'x': problem; what is allowed". */
int pp_spec_load(const char *path, struct pp_spec *spec, struct pp_err *err);
/* What the maintainer of a spec that names none is made of (NULL or ""
 * where unknown): the environment dch(1) reads, the passwd entry, the
 * mail name. */
struct pp_who {
	const char *debfullname, *name, *debemail, *email;
	const char *gecos, *login, *mailname, *fqdn;
};

/* "Name <address>" from w, as dch finds it, with the parts the system
 * gave kept out of lintian's errors (root-in-contact, bogus-mail-host):
 * the login root -> source, a private host H -> H.invalid. When a part
 * came from the system rather than the environment, why (if not NULL)
 * gets what it came from. */
char *pp_maintainer_guess(const struct pp_who *w, const char *source,
			  struct strbuf *why);
/* pp_maintainer_guess of this process's environment and system. */
char *pp_maintainer_default(const char *source, struct strbuf *why);

/* s as a Debian package name, as dh_make would want it typed: upper
 * case lowered, '_' and other characters a name cannot hold as '-'
 * ("My_Lib" -> "my-lib"); NULL when nothing valid is left. */
char *pp_spec_package_name_from(const char *s);

/* pp_spec_load of a spec already in memory (len bytes of data, which
 * need no NUL): path is the file it came from, named in messages, whose
 * directory @include names are relative to. */
int pp_spec_load_text(const char *path, const char *data, size_t len,
		      struct pp_spec *spec, struct pp_err *err);
void pp_spec_release(struct pp_spec *spec);

/* The axis packed as glibc-hwcaps builds (pack = "hwcaps"), or -1. */
long pp_spec_hwcaps_axis(const struct pp_spec *spec);
/* The variant whose build is the baseline of v's glibc-hwcaps builds (v
 * with the hwcaps axis's lowest level; v itself if v is it), or NULL:
 * no hwcaps axis, or that variant is excluded. */
const struct pp_variant *pp_spec_hwcaps_base(const struct pp_spec *spec,
					     const struct pp_variant *v);
/* Whether v is a glibc-hwcaps build above its axis's baseline: its
 * libraries ship in the baseline variant's packages (and image). */
int pp_spec_hwcaps_higher(const struct pp_spec *spec,
			  const struct pp_variant *v);
const struct pp_variant *pp_spec_find_variant(const struct pp_spec *spec,
					      const char *name);
/* Marks in selected[] (nr_variants entries) the variants matching the
 * glob patterns (all when none given). A pattern matching nothing is a
 * usage error listing the variants there are. */
int pp_spec_select(const struct pp_spec *spec, char *const *patterns,
		   size_t nr_patterns, unsigned char *selected,
		   struct pp_err *err);
/* "a, b, c": the names of all variants, newly allocated. */
char *pp_spec_variant_list(const struct pp_spec *spec);

/* The value of each placeholder for one variant's build. */
struct pp_expand_ctx {
	const struct pp_spec *spec;
	const struct pp_variant *variant;
	const char *version;
	int test;                       /* @test@: ON or OFF */
	int jobs;                       /* @jobs@ */
	const struct pp_strlist *tools; /* PROGRAM=PATH for @program@ */
};

/* Appends tmpl with its placeholders replaced. Fails (PP_EXIT_INPUT) only
 * on a name the context lacks, which a loaded spec has ruled out. */
int pp_spec_expand(const char *tmpl, const struct pp_expand_ctx *ctx,
		   struct strbuf *out, struct pp_err *err);

/* Where the version came from, for messages and --json. */
enum pp_version_origin {
	PP_VERSION_ENV,     /* the spec's version_env variable */
	PP_VERSION_SPEC,    /* the spec's version setting */
	PP_VERSION_GIT,     /* the source tree's nearest vX.Y.Z tag */
	PP_VERSION_DEFAULT, /* none of them: 0.0.0 */
};

const char *pp_version_origin_name(enum pp_version_origin origin);
/* The version to build: $version_env, else the spec's, else the nearest
 * vX.Y.Z tag of the source tree (v removed; a pre-release after it as
 * pp_version_is_release takes), else 0.0.0. */
int pp_spec_version(const struct pp_spec *spec, const char *source,
		    char **version, enum pp_version_origin *origin,
		    struct pp_err *err);
/* Whether s is X.Y or X.Y.Z, optionally followed by a pre-release:
 * aN, bN, or alpha, beta, pre or rc in either case (after '-', '.' or '_', and before
 * an optional number): 1.2, 1.0.0rc2, 1.0-beta, 2.0.rc.1. */
int pp_version_is_release(const char *s);
/* The length of X.Y or X.Y.Z when a pre-release follows it ("1.0" of
 * 1.0-beta2), else 0. */
size_t pp_version_release_len(const char *s);
/* Whether s is a Debian upstream version (Policy 5.6.12): a digit first,
 * then letters, digits, '.', '+', '~' and '-' (padpack always appends a
 * revision, so a '-' is allowed); no epoch. */
int pp_version_is_upstream(const char *s);

#endif
