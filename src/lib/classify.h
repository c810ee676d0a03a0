/* What a staged file is, judged by its content first (ELF type, SONAME,
 * ar archive, #! line) and then by where it is (include/, pkgconfig/ ...):
 * the facts the rules that assign files to packages go by. */
#ifndef PP_CLASSIFY_H
#define PP_CLASSIFY_H

#include <sys/stat.h>

#include "elfinfo.h"
#include "error.h"
#include "strlist.h"

enum pp_file_class {
	PP_CLASS_DIR,         /* an empty directory */
	PP_CLASS_SHLIB,       /* ELF shared library with a SONAME */
	PP_CLASS_SHLIB_LINK,  /* link to a shared library named by its SONAME
				 (or a longer version of it) */
	PP_CLASS_DEV_LINK,    /* libfoo.so -> a shared library: for linking */
	PP_CLASS_EXEC,        /* ELF program */
	PP_CLASS_MODULE,      /* ELF shared object without SONAME (plugin) */
	PP_CLASS_OBJECT,      /* ELF relocatable object */
	PP_CLASS_STATIC,      /* ar archive: a static library */
	PP_CLASS_LIBTOOL,     /* libtool .la file */
	PP_CLASS_HEADER,      /* under include/ */
	PP_CLASS_PKGCONFIG,   /* pkgconfig/ *.pc */
	PP_CLASS_CMAKE,       /* CMake package files */
	PP_CLASS_PYTHON,      /* Python module (source or extension) */
	PP_CLASS_MAN,         /* manual page */
	PP_CLASS_DOC,         /* documentation (share/doc, share/info) */
	PP_CLASS_SCRIPT,      /* executable with a #! line */
	PP_CLASS_SYMLINK,     /* any other symbolic link */
	PP_CLASS_DATA,        /* anything else */
	PP_CLASS_NR
};

/* "shared library", "header" ...: for --explain. */
const char *pp_class_name(enum pp_file_class cls);

/* The facts about one staged entry that classification produces. */
struct pp_classified {
	enum pp_file_class cls;
	struct pp_elf_info *elf; /* ELF files: read once, kept */
	char *soname;            /* SHLIB: its SONAME; a link to a library:
				    the SONAME of the library it reaches */
	char *target;            /* symbolic link: the staged path it reaches
				    (relative to the stage), or NULL when it
				    points outside the stage */
	int ld_script;           /* DEV_LINK: a GNU ld script, not a link */
};

/* Classifies stage/path (path relative, st from lstat). Reading an ELF
 * file that turns out damaged is an error naming it. */
int pp_classify(const char *stage, const char *path, const struct stat *st,
		const char *link_target, struct pp_classified *out,
		struct pp_err *err);
void pp_classified_release(struct pp_classified *c);

/* Whether text is a GNU ld script of the kind a -dev package ships as
 * libNAME.so (libc6-dev's libc.so, libncurses-dev's libncurses.so,
 * libbsd-dev's libbsd.so): commands only, one of them INPUT or GROUP.
 * Adds the files and -lNAME options its INPUT and GROUP commands name
 * (AS_NEEDED's too) to out. */
int pp_ld_script_inputs(const char *text, struct pp_strlist *out);

/* Whether a directory (relative to the stage, no trailing '/') is one the
 * dynamic linker searches by default: lib, usr/lib, their triplet
 * subdirectories. */
int pp_is_public_libdir(const char *dir);
/* A path's Python package directory component: for
 * usr/lib/python3/dist-packages/paddle/x.py "paddle"; NULL if none. */
char *pp_python_top_module(const char *path);

#endif
