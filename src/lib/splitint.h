/* Internals shared by the parts of padpack split: planning
 * (split-plan.c, split-assign.c), dependencies (shlibdeps.c), control data
 * (split-control.c), building the trees (split-build.c), and the run's
 * .changes/.buildinfo (changes.c). */
#ifndef PP_SPLITINT_H
#define PP_SPLITINT_H

#include <pthread.h>
#include <stdint.h>

#include "dpkgdb.h"
#include "hash.h"
#include "split-plan.h"

static inline struct pp_split_file *pp_split_at(const struct pp_split *s,
						struct pp_split_ref r)
{
	return &s->stages[r.stage].files[r.file];
}

/* The file of the stage at path (relative, no "./"), or NULL. */
struct pp_split_file *pp_split_find(const struct pp_split_stage *st,
				    const char *path);

/* The Debian version from the upstream one: 0.11.0rc1 -> 0.11.0~rc1 (so
 * that it sorts before 0.11.0), then "-" and the revision. */
char *pp_split_debian_version(const char *upstream, const char *revision);
/* Whether a file's first bytes are an unversioned python "#!" line. */
int pp_split_python_shebang(const char *head);
/* Where a staged file goes in its package: its own path, but a .pc file
 * of /usr/lib/pkgconfig in an arch-dependent package goes to
 * /usr/lib/TRIPLET/pkgconfig (multiarch, as Debian's). Caller frees. */
char *pp_split_dest_path(const struct pp_split *s, size_t pkg,
			 const struct pp_split_file *f);

/* ---- the rules learned from Debian's packages (split-rules.c) ---- */

/* The package of a lib* source's programs: the one program's name, else
 * lib*-tools (a dotted version dropped: libpng1.6 -> libpng-tools); the
 * same for a source named *lib whose build has a public library
 * (has_library: giflib -> giflib-tools); other sources: their name.
 * Says why in why. */
/* The roles, in order, whose package holds a source's data under
 * PP_SPLIT_DATA_PACKAGE_BYTES: a lib* source's library first (libidn2-0,
 * libpopt0), else the programs (acl, xz-utils); then -dev. Three roles. */
const enum pp_role *pp_split_data_order(const char *source);
/* The data rule's order for variant v's packages (v NULL: one for all):
 * by packages.name, expanded, when the spec sets it, else by its name. */
const enum pp_role *pp_split_variant_data_order(const struct pp_split *s,
						const struct pp_variant *v);

char *pp_split_tools_package(const char *source, int has_library,
			     const struct pp_strlist *programs,
			     struct strbuf *why);
/* The one -dev package of a source: a lib* source's name (a dotted
 * version dropped: libpng1.6 -> libpng-dev); else that of its one public
 * library (libjansson.so.4 -> libjansson-dev), else lib<source>-dev. */
char *pp_split_dev_package(const char *source, const struct pp_strlist *sonames);
/* The one runtime package of packages.runtime = "one": named from the
 * library named like the source, else the first SONAME. */
char *pp_split_runtime_group(const char *source, const struct pp_strlist *sonames);
/* A loadable module's static twin: for NAME.a, NAME not lib* (no -l
 * finds it), the path of NAME.so beside it, else NULL; the caller checks
 * that an ELF shared object is staged there. libtool's -module builds
 * both unless told -shared or --disable-static; Debian 12 ships such a
 * twin in 13 of the 1,368 sources with modules (libnl-cli-3-200 ships
 * cls/basic.so, not basic.a). Caller frees. */
char *pp_split_module_twin(const char *path);
/* The one python3-* package of a source's Python modules (Python policy
 * names it after the import name; Debian ships every module of one
 * build in one package: libxml2.py, drv_libxml2.py and libxml2mod.so
 * in python3-libxml2): the top-level module named like the source,
 * else the one the most other modules' names contain (the shortest,
 * then the first). modules: the top-level names, as in the tree. NULL
 * when there is none. */
char *pp_split_python_package(const char *source,
			      const struct pp_strlist *modules);
/* packages.runtime = "auto": whether a source's public libraries
 * (sonames) are only ever used together: at least one of the build's
 * other ELF files (its programs, modules: user_needed) needs one of
 * them, and each that needs one needs every one itself. Then they are
 * one family, one runtime package (xsltproc needs libxslt and libexslt:
 * libxslt1.1); a program that needs one without the other (nettle-hash:
 * libnettle, not libhogweed) shows they are used apart, one package
 * each (policy 8.1), and so does a library the programs reach only
 * through another's NEEDED (gsl-histogram needs libgsl, which needs
 * libgslcblas: libgsl27 and libgslcblas0). */
int pp_split_libraries_together(const struct pp_strlist *sonames,
				const struct pp_strlist *const *user_needed,
				size_t nr_users);
/* Whether a library is C++: it needs the C++ runtime (libstdc++ or
 * libc++), as libFLAC++ does and libFLAC does not. */
int pp_split_cxx_library(const struct pp_strlist *needed);
/* packages.dev = "auto": whether a C++ library sits beside C ones
 * (lib_needed[j]: the NEEDED of library j, NULL if not known). Then
 * each C++ library gets its own -dev package and the C ones share one,
 * as Debian 12 does for 49 of the 78 sources with both (libflac++-dev,
 * libconfig++-dev, libgpgmepp-dev, libcdio++-dev; doc/split.md). */
/* Whether a header (its path under usr/include, its text) is C++: a
 * C++ name (.hpp, .hh, .hxx, .h++, .H, .tcc, .ipp, .inl, or none, as
 * <QString>), or a line that starts with "namespace", "class NAME" or
 * "template <" (the extern "C" guard of a C header is none of them). */
int pp_split_cxx_header(const char *path, const char *text);
int pp_split_cxx_beside_c(const struct pp_strlist *const *lib_needed,
			  size_t nr);
/* Files for building that no class says are: *-config scripts, autoconf
 * macros, GObject introspection and Vala files, share/pkgconfig. */
int pp_split_is_dev_path(const char *path);
/* A C or C++ source file or header, by its name (.c, .h, .cc, .cpp,
 * .cxx, .hh, .hpp, .hxx, case ignored). */
int pp_split_is_c_source(const char *path);
/* Whether a file under usr/share (not usr/share/doc) is source to build
 * into one's own program, for the -dev package: a C or C++ source or
 * header, or a file in a directory that holds one (source_dirs: those
 * directories), in a source with a library and no programs, as
 * liblzo2-dev holds /usr/share/lzo/minilzo (minilzo.c, its headers and
 * README.LZO). Debian 12: of the 20 library sources without programs
 * that ship such files there, 13 ship them in -dev, 1 in the library's
 * package (libctl), 6 in -doc, -data, -src or -examples packages; every
 * other file beside them (900) in the same package as they. With
 * programs they are most often the programs' input (lemon's lempar.c,
 * gsoap's import headers), and stay data. */
int pp_split_embedded_source(const char *path,
			     const struct pp_strlist *source_dirs,
			     int has_programs, int has_library);
/* A -doc package holds the documentation only from this size on (manual
 * pages not counted); below it the files stay in -dev or the programs'
 * package, as Debian keeps a README and a few pages. */
/* The Section of the programs' package: from the first word of the
 * summary that names one (audio -> sound, JPEG -> graphics, database,
 * XML -> text ...), else utils; says why in why (may be NULL). */
const char *pp_split_tools_section(const char *summary, struct strbuf *why);
/* The Section of a data package named package (its name before any
 * variant part), whose source's programs' section is programs. */
const char *pp_split_data_section(const char *package, const char *programs);
/* The modules a .pc file's Requires and Requires.private lines name,
 * each with its relation: " (>= V)" for ">= V" or "= V", else "". */
void pp_split_pc_requires(const char *pc_text, struct pp_strlist *mods,
			  struct pp_strlist *rels);
/* The <...> of each "#include <...>" line of a header (not "..."). */
void pp_split_header_includes(const char *text, struct pp_strlist *out);
/* The -doc package: named as the -dev package of a library
 * (libjansson-dev -> libjansson-doc), else after the source. */
char *pp_split_doc_package(const char *source, const char *dev);
/* The DEP-5 copyright file made from the license a staged tree ships
 * (from: its path), when the spec gives none. */
void pp_split_dep5(const char *name, const char *homepage, const char *from,
		   const char *license, struct strbuf *out);
/* "GPL-2", "Apache-2.0" ...: a full license text Debian ships in
 * /usr/share/common-licenses, or NULL. */
const char *pp_split_common_license(const char *text);
/* The DEP-5 file of a tree with no license file anywhere: one saying so. */
void pp_split_dep5_unknown(const char *name, const char *homepage,
			   struct strbuf *out);
/* Whether a license text has a "Copyright (C) 2009 ..." line. */
int pp_split_has_copyright_notice(const char *text);
/* A license file upstream installs: usr/share/doc/X/COPYING, LICENSE... */
int pp_split_is_license_path(const char *path);
#define PP_SPLIT_DOC_PACKAGE_BYTES (512ULL * 1024)
/* packages.doc: "auto", "package" or "none" */
enum pp_split_doc_mode { PP_SPLIT_DOC_AUTO, PP_SPLIT_DOC_PACKAGE,
			 PP_SPLIT_DOC_NONE };
/* A -doc package for a manual: PP_SPLIT_DOC_PACKAGE_BYTES of documents,
 * or a manual a generator made, of any size
 * (pp_split_is_generated_manual); whatever they are with "package",
 * never with "none". */
int pp_split_wants_doc_package(enum pp_split_doc_mode mode,
			       unsigned long long doc_bytes, int generated);
/* Whether a documentation file shows a generated manual: a gtk-doc book
 * (usr/share/gtk-doc/html/BOOK/...), Doxygen's stylesheet or logo,
 * Sphinx's search index or _static/ directory. */
int pp_split_is_generated_manual(const char *path);
/* Whether a staged file of size bytes is shipped gzipped (gzip -9n, as
 * dh_compress): manual pages and info documents (policy 12.1, 12.2;
 * lintian: info-document-not-compressed), but what is compressed already
 * and images; in usr/share/doc, files over 4 KiB and changelogs (policy
 * 12.3), but web pages, images and examples. A link to one names the
 * compressed file. */
int pp_split_compressed_doc(const char *path, uint64_t size);
/* The target a symbolic link at path (relative to the root, no "./")
 * is shipped with, as dh_link rewrites every link of a package (policy
 * 10.5): the target read as a path ("." and ".." taken away, as text),
 * then relative when it is in the link's top-level directory
 * ("/usr/lib/x/libgif7.pc" from usr/lib/x/libgif.pc: "libgif7.pc";
 * lintian: absolute-symlink-in-top-level-folder), else absolute
 * ("../../etc/foo" from usr/share/foo: "/etc/foo"). Allocated. */
char *pp_split_policy_link(const char *path, const char *target);
/* Whether a manual page (a path or a name) is program's: its name is
 * the program's and a dot, what follows being the section or a file
 * of the program (keyctl.1, request-key.conf.5); a program's name may
 * hold dots itself (keyutils' key.dns_resolver.8 and
 * key.dns_resolver.conf.5). */
int pp_split_page_of(const char *page, const char *program);
/* Where a manual page (not of section 3) of no staged program goes:
 * PP_ROLE_TOOLS in a source with programs when its section is 1, 6, 8
 * (commands: giflib-tools' giflib.1), or 5, 7 (file formats, overviews:
 * acl's acl.5, keyutils' keyutils.7) in a source not named lib*
 * (Debian 12: of 142 such library sources with programs and such
 * pages, 101 keep most of them with the programs, 16 in -dev; of the 20
 * named lib*, 8 and 6: no majority, and libarchive-dev keeps tar.5);
 * else PP_ROLE_DEV in a library source; else -1 (the rest's package).
 * *why: the rule's reason for --explain (NULL with -1). */
int pp_split_orphan_page(const char *path, const char *source,
			 int has_programs, int has_library, const char **why);
/* The page a manual page at path (relative to the root) names when its
 * text is one ".so" request, as dh_installman reads it to make the page
 * a link: ".so man1/bzgrep.1" from usr/share/man/man1/bzegrep.1 is
 * usr/share/man/man1/bzgrep.1, ".so keyctl_pkey_encrypt.3" the page
 * beside it; NULL for any other text (more lines, an absolute path, a
 * ".."). Allocated. */
char *pp_split_so_page(const char *path, const char *text);
/* Whether b is a hard link of a in the stage (one inode) that one
 * package ships as one file, as dpkg-deb keeps hard links (Debian's
 * bzip2 ships bzip2 and bzcat as links to bunzip2): both regular,
 * copied as they are (not gzipped anew) with one mode. */
int pp_split_same_file(const struct pp_split_file *a,
		       const struct pp_split_file *b);
/* Whether a staged file is a manual page gzipped by the build (faketime's
 * make install runs gzip -nf): shipped gzipped again, -9n, as Debian's
 * dh_installman re-encodes every page and dh_compress compresses it;
 * the build's own level gives lintian's error
 * poor-compression-in-manual-page. */
int pp_split_regzipped_man(const char *path);
/* A -data package holds usr/share's other files only from this size on;
 * below it they go with the programs, else the library, else -dev. */
#define PP_SPLIT_DATA_PACKAGE_BYTES (1024ULL * 1024)

/* ---- a library's data (split-libdata.c) ---- */

/* Whether a shared library's path string (absolute: "/usr/share/alsa")
 * names the staged path (relative, no "./"): the path itself, or a
 * directory above it that no other package fills (two names or more
 * below usr/ or usr/local/: share/alsa, etc/foo, var/lib/foo; not
 * share/icons, etc/xdg and the like); never what the documentation
 * rules place (usr/share/doc, man, info, locale), the library's own
 * directory libdir, a directory above it or a file in it. */
int pp_split_string_names(const char *string, const char *path,
			  const char *libdir);
typedef void pp_split_read_fn(size_t file, const char *string, void *ctx);
/* Calls fn with each data file of the stage (a regular file, not ELF,
 * not for building; its index in st->files) that lib, a shared library
 * with a SONAME, names in its read-only strings (pp_split_string_names;
 * a public library directory never), with the string. */
void pp_split_library_reads(const struct pp_split *s,
			    const struct pp_split_stage *st,
			    const struct pp_split_file *lib,
			    pp_split_read_fn *fn, void *ctx);

/* ---- writing a package tree's files (split-files.c) ---- */

/* Creates the directories above path. */
int pp_split_mkparent(const char *path, struct pp_err *err);
/* Runs a program; its output becomes part of the error when it fails. */
int pp_split_run_tool(char *const argv[], struct pp_err *err);
int pp_split_set_mtime(const char *path, time_t t, struct pp_err *err);
/* Whether f's run path names only the linker's default directories (it
 * is then dropped from the copy shipped: chrpath -d). */
int pp_split_default_runpath(const struct pp_split_file *f);
/* What a file too large to hold at once is read in: its bytes in
 * memory at a time, whatever its size. */
#define PP_SPLIT_PIECE (64u << 10)
/* The ALGO digest of the file at path into out (pp_hash_size(algo) bytes),
 * read in pieces. */
int pp_split_hash_file(const char *path, enum pp_hash_algo algo,
		       unsigned char *out, struct pp_err *err);
/* gzip -9n: no name, no time, as dh_compress does (read in pieces). */
int pp_split_gzip_file(const char *src, const char *dst, struct pp_err *err);
/* The gzip file src decompressed and gzipped again at dst, -9n (read in
 * pieces); src that is no gzip stream is an error naming it. */
int pp_split_regzip_file(const char *src, const char *dst, struct pp_err *err);
/* Writes root/rel (its directories made), mode and mtime t. */
int pp_split_write_at(const char *root, const char *rel, const void *data,
		      size_t len, mode_t mode, time_t t, struct pp_err *err);
/* Writes root/DEBIAN/name. */
int pp_split_write_ctrl(const char *root, const char *name, const char *text,
			mode_t mode, time_t t, struct pp_err *err);

/* ---- maintainer scripts (split-scripts.c) ---- */

/* Writes the package's maintainer scripts into root/DEBIAN. */
int pp_split_maint_scripts(const struct pp_split *s, size_t pkg,
			   const char *root, struct pp_err *err);

/* ---- assigning files to packages (split-assign.c) ---- */

/* Runs the rules on every stage's files, finds the files the variants
 * share and makes s->pkgs from the choices (the plan's middle step). */
int pp_split_assign(struct pp_split *s, struct pp_err *err);

/* ---- glibc-hwcaps builds (split-hwcaps.c) ---- */

/* Carries the public shared libraries of a glibc-hwcaps build (the stage
 * read as `higher`) into its baseline build's stage, at
 * DIR/glibc-hwcaps/LEVEL/NAME: each must replace a library of the
 * baseline and export the same symbols (else exit 1 naming the symbol and
 * the level). The rest of the build is left out: programs, modules and
 * -dev files come from the baseline, linking the SONAME. Releases
 * higher's files. */
int pp_split_hwcaps_carry(struct pp_split *s, struct pp_split_stage *higher,
			  struct pp_err *err);
/* Sorts a stage's files by path again (after files were added). */
void pp_split_index_stage(struct pp_split_stage *st);
void pp_split_file_release(struct pp_split_file *f);

/* ---- the ISA proof (split-isa.c) ---- */

/* Scans every ELF file and static library of the stages (x86-64 only). */
int pp_split_isa_scan(struct pp_split *s, struct pp_err *err);
/* Checks each variant's files against what it allows and requires (exit
 * 1 naming file, extension, symbol and offset), then fills each package's
 * ISA level and the CPU flags its preinst checks. */
int pp_split_isa_check(struct pp_split *s, struct pp_err *err);
/* Whether the spec asks for the ISA proof's fields and checks: an axis
 * value's isa, forbid_isa or isa_require, or an isa_dispatch rule. A spec
 * that says nothing of ISA gets no Isa-Level and no CPU check in preinst:
 * code behind runtime dispatch (pcre2's JIT uses LZCNT) is common and
 * cannot be told from the binary. (split-control.c) */
int pp_split_isa_asked(const struct pp_spec *spec);
/* "isa: x86-64-v3 AVX AVX2 FMA" for --explain. */
void pp_split_isa_explain(const struct pp_split_file *f, struct strbuf *out);

/* ---- co-installable variants (split-alt.c) ---- */

/* For packages.variants = "coinstallable": checks that no two variants'
 * packages ship one path with other contents, and gives each package
 * that holds an alternative's path (packages.alternatives) the lines of
 * its postinst and prerm and the virtual packages it provides. An
 * alternative whose path no package of a variant holds is an error
 * naming the spec's line. */
int pp_split_alternatives(struct pp_split *s, struct pp_err *err);
/* Whether the linker finds libraries in dir (relative to the root): a
 * public library directory, or one an alternative's path is in (whose
 * generic link is in one). */
int pp_split_public_libdir(const struct pp_split *s, const char *dir);
/* Whether dir (relative to the root) is the directory of an alternative's
 * path in some variant: its libraries are reached through the generic
 * link update-alternatives manages. */
int pp_split_alt_libdir(const struct pp_split *s, const char *dir);
/* Whether dir is the directory of the path of an alternative variant v
 * registers (packages.alternatives[].variants): its libraries are reached
 * through the generic link (an ldconfig trigger caches it). */
int pp_split_alt_libdir_of(const struct pp_split *s, const struct pp_variant *v,
			   const char *dir);
/* The virtual package (packages.alternatives' provides) of the
 * alternative whose generic name is soname, when variant v (NULL: any)
 * registers it; else NULL: what programs linked against the library may
 * take from any provider. */
const char *pp_split_alt_virtual(const struct pp_split *s,
				 const struct pp_variant *v, const char *soname);
/* The path (relative to the root) behind the generic link (relative to
 * the root) of an alternative in variant v, or NULL: where the linker
 * finds a library that update-alternatives links there. */
char *pp_split_alt_target(const struct pp_split *s, const struct pp_variant *v,
			  const char *link);
/* The alternative whose generic link is soname when variant v does not
 * register it (packages.alternatives[].variants), or NULL. */
const struct pp_alternative *pp_split_alt_unregistered(
	const struct pp_split *s, const struct pp_variant *v, const char *soname);
/* "alternative NAME: LINK -> PATH (priority N, PACKAGE)" lines for
 * --explain. */
void pp_split_alt_explain(const struct pp_split *s, struct strbuf *out);

/* ---- dependencies (shlibdeps.c) ---- */

/* What resolving NEEDED libraries of one package gives: Depends entries
 * as dpkg-shlibdeps makes them, and warnings. */
struct pp_shlibdeps {
	struct pp_strlist keys;   /* dependency templates ("libc6 #MINVER#") */
	struct pp_strlist minver; /* per key: "" or the version */
};

struct pp_shlibs_ctx;  /* caches lookups in the system across packages */

/* Also asks dpkg which packages own the system libraries the run needs. */
struct pp_shlibs_ctx *pp_shlibs_ctx_new(const struct pp_split *s,
					struct pp_err *err);
void pp_shlibs_ctx_free(struct pp_shlibs_ctx *ctx);

/* Resolves every NEEDED library of the package's ELF files; an
 * unresolvable one is an error naming the file and the SONAME. */
int pp_shlibdeps_package(struct pp_shlibs_ctx *ctx, const struct pp_split *s,
			 size_t pkg, struct pp_shlibdeps *out, struct pp_err *err);
/* "libc6 (>= 2.34), libpaddle1 (= 0.11.0-1)": sorted as dpkg does. */
void pp_shlibdeps_format(const struct pp_shlibdeps *d, struct strbuf *out);
void pp_shlibdeps_release(struct pp_shlibdeps *d);

/* The -dev package's Depends on other projects' -dev packages: the
 * installed packages shipping the modules its .pc files require
 * (Requires, Requires.private; a ">= V" kept) and the headers its
 * headers include and the libraries its ld scripts name (-lNAME, a
 * file), but the toolchain's (split-devdeps.c); why (may be
 * NULL) gets, per entry, the file and what it needs. */
int pp_split_dev_depends(const struct pp_split *s, size_t pkg,
			 struct pp_strlist *rel, struct pp_strlist *why,
			 struct pp_err *err);

/* ---- control data (split-control.c) ---- */

/* @name@ placeholders of templates (control files, maintainer scripts). */
struct pp_vars {
	struct pp_strlist names, values;
};

void pp_vars_add(struct pp_vars *v, const char *name, const char *value);
void pp_vars_release(struct pp_vars *v);
/* Appends text with its placeholders replaced; an unknown @word@ is an
 * error naming file and line; other '@' are kept. */
int pp_vars_expand(const struct pp_vars *v, const char *text, const char *file,
		   unsigned line, struct strbuf *out, struct pp_err *err);

/* Renders the package's control stanza from its role's template, the
 * computed fields and the spec's overrides; depends is the computed
 * Depends value. Writes DEBIAN/control under root. */
int pp_split_control(const struct pp_split *s, size_t pkg,
		     const char *depends, const char *root, struct pp_err *err);
/* The title synopses start with when packages.title is not given: the
 * summary when it has at most max characters, else its first clause,
 * under 40 characters cut at a word; never starting with the package's
 * name (lintian). */
char *pp_split_default_title(const char *summary, const char *package,
			     size_t max);
/* Wraps the paragraphs of an extended description at 79 columns. */
void pp_wrap_description(const char *value, struct strbuf *out);

/* The changelog every package ships (changes.c): the spec's file, or one
 * entry made for this run (dated SOURCE_DATE_EPOCH). */
int pp_split_changelog(const struct pp_split *s, struct strbuf *out,
		       struct pp_err *err);

/* The exact Depends between the run's packages (split-relations.c): -dbgsym
 * on its package, a variant's package on its -common part, -dev on the
 * runtime packages it links to: "NAME (= VERSION)" in rel, and why in
 * why (may be NULL). Programs on libraries are not here: their
 * "(>= upstream)" comes from the library's shlibs (shlibdeps.c). */
void pp_split_run_relations(const struct pp_split *s, size_t pkg,
			    struct pp_strlist *rel, struct pp_strlist *why);

/* ---- .changes, .buildinfo, SHA256SUMS (changes.c) ---- */

int pp_split_write_changes(struct pp_split *s, struct pp_err *err);

/* Whether control rule r's package glob, its placeholders expanded for
 * p's variant, names p: 1 or 0; -1 when it cannot be expanded. */
int pp_split_rule_names(const struct pp_split *s, const struct pp_split_pkg *p,
			const struct pp_control_rule *r, struct pp_err *err);

/* The indexes 0..n-1 ordered by sizes[], largest first, ties in index
 * order: the order jobs start in, so that no long one is the tail.
 * The caller frees it. */
size_t *pp_split_largest_first(const uint64_t *sizes, size_t n);

/* split-sched.c: how the packages are built and packed side by side, as
 * a pipeline: a package is packed as soon as its tree is built (and a
 * -dbgsym package's, its parent's), while other trees are still being
 * built. The trees are built largest first (ORDER, by staged bytes), and
 * of the packages ready, the largest tree (WEIGHT, its bytes once built)
 * is packed first: the longest compressions start early and no single
 * long one is left for the end. WORKERS: the opts.comp.threads CPUs, a
 * step each; a pack gets one compressor thread, or the CPUs left idle
 * when nothing else is left to start. Under MEM_LIMIT (0: none) the
 * compressors' memory together stays under it: a pack that does not fit
 * waits for one that runs to end (one over the limit alone runs alone).
 * The first step works out every package's shared-library dependencies
 * (in package order, so the first error does not depend on the timing);
 * no pack starts before it ends. The packages' bytes depend on none of
 * it. */
enum pp_split_step_kind { PP_SPLIT_DEPS, PP_SPLIT_BUILD, PP_SPLIT_PACK };

struct pp_split_step {
	enum pp_split_step_kind kind;
	size_t pkg;
	int threads;      /* a pack's compressor threads */
	uint64_t memory;  /* what its compressor takes */
};

struct pp_split_sched {
	struct pp_split *s;
	size_t *order;            /* the trees to build, largest first */
	size_t nr_builds, next_build;
	unsigned char *waiting;   /* a package: its tree (a -dbgsym's: its
				   * parent's) is not built yet */
	unsigned long long *weight; /* a package: its tree's bytes, built */
	unsigned char *taken;     /* a package: its pack has started */
	size_t workers, busy, packing;
	int cpus, failed;
	int deps_taken, deps_done; /* every package's dependencies, first */
	uint64_t mem_limit, mem_used;
	size_t nr_alone;          /* packs over the limit, each run alone */
	uint64_t alone_memory;    /* the largest of their compressors' */
	pthread_mutex_t lock;
	pthread_cond_t changed;
};

void pp_split_sched_init(struct pp_split_sched *sched, struct pp_split *s);
/* The next step for a worker, waiting while none is ready but others
 * run; 0 when nothing is left (or a step failed). */
int pp_split_sched_next(struct pp_split_sched *sched,
			struct pp_split_step *step);
/* The step ended (rc < 0: failed; no new step starts). A build fills
 * WEIGHT of its package and of its -dbgsym package before. */
void pp_split_sched_done(struct pp_split_sched *sched,
			 const struct pp_split_step *step, int rc);
/* The compressor memory of one pack with THREADS threads. */
uint64_t pp_split_pack_memory(const struct pp_split *s, int threads);
void pp_split_sched_release(struct pp_split_sched *sched);


/* ---- packages.dev = "library" and "auto" (split-devlib.c) ---- */

/* A stage's public libraries, for a -dev package each. */
struct pp_split_devlibs {
	size_t nr;
	char **soname, **stem; /* "libFLAC++.so.10", "flac++" */
	char **dev;            /* their -dev packages: "libflac++-dev" */
	const struct pp_elf_info **elf;
	char ***syms;          /* each library's exported names, sorted */
	size_t *nr_syms;
	size_t main;           /* the one most others need: what names no
				  library goes to its -dev */
	unsigned char *cxx;    /* each library's language: 1 for C++ */
	int mixed;             /* C++ libraries beside C ones */
};
struct pp_split_stage;
void pp_split_devlibs_init(struct pp_split_devlibs *d,
			   const struct pp_split_stage *st,
			   const struct pp_strlist *sonames);
void pp_split_devlibs_release(struct pp_split_devlibs *d);
/* packages.dev = "auto": when a C++ library sits beside C ones
 * (pp_split_cxx_beside_c), the C libraries' -dev becomes one, the
 * source's (libflac-dev), each C++ library keeping its own
 * (libflac++-dev), and 1 is returned; else 0, d unchanged. */
int pp_split_devlibs_cxx_apart(struct pp_split_devlibs *d, const char *one);
/* The -dev package of a file for building: its .so link's library, the
 * library named as its .a (or other file: libFLAC++.m4), a .pc
 * file's library (pp_split_devlib_pc), a
 * header's directory named as a library (FLAC++/) or the library whose
 * functions it declares; else the main library's. */
const char *pp_split_devlib_of(const struct pp_split_devlibs *d,
			       const struct pp_split_stage *st,
			       const struct pp_split_file *f);
/* A header's library (an index of d), by its directory named as a
 * library, else the functions it declares; where C++ libraries sit
 * beside C ones, among those of its language only
 * (pp_split_cxx_header): libconfig's libconfig++ exports the C
 * functions of libconfig.h too, and its own libconfig.h++ declares
 * classes, whose mangled names no word of the header matches. Else the
 * main library, or the first of the header's language. */
size_t pp_split_devlib_header(const struct pp_split_devlibs *d,
			      const char *path, const char *text);
/* A .pc file's library (an index of d, or -1): of the -lNAME of its
 * Libs line that name one of d, the one the file's own name names
 * (libpcrecpp.pc's -lpcrecpp in "-lpcre -lpcrecpp"), else the first:
 * in the Debian 12 sources with two -dev packages or more, a NAME.pc or
 * libNAME.pc is in the package of libNAME.so 715 times, elsewhere 9. */
long pp_split_devlib_pc(const struct pp_split_devlibs *d, const char *path,
			const char *text);

#endif
