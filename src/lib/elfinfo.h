/* What packaging needs to know of an ELF file, read with libelf: its kind,
 * SONAME, NEEDED libraries, run paths, GNU build-id, whether it still has
 * symbols or debug information, and its dynamic symbols with their
 * versions (what dpkg-shlibdeps and dpkg-gensymbols read with objdump). */
#ifndef PP_ELFINFO_H
#define PP_ELFINFO_H

#include <stddef.h>

#include "error.h"
#include "strlist.h"

enum pp_elf_kind {
	PP_ELF_EXEC,    /* a program: ET_EXEC, or a PIE (ET_DYN, no SONAME) */
	PP_ELF_SHLIB,   /* a shared library: ET_DYN with a SONAME */
	PP_ELF_MODULE,  /* ET_DYN without SONAME nor interpreter: a plugin,
			   a Python extension module */
	PP_ELF_OBJECT,  /* ET_REL: a relocatable object */
	PP_ELF_OTHER,   /* core files and the like */
};

/* A dynamic symbol. version is the symbol version's name, or NULL when it
 * has none ("Base" in symbols files). */
struct pp_elf_sym {
	char *name;
	char *version;
	int weak;
	int hidden_version; /* defined as name@VER, not the default @@VER */
};

struct pp_elf_info {
	enum pp_elf_kind kind;
	int elfclass;           /* ELFCLASS32 or ELFCLASS64 */
	int data;               /* ELFDATA2LSB or ELFDATA2MSB */
	unsigned machine;       /* e_machine */
	int pie;                /* DF_1_PIE, or an interpreter */
	char *soname;           /* NULL when none */
	char *interp;           /* PT_INTERP, or NULL */
	struct pp_strlist needed;  /* DT_NEEDED, in order */
	struct pp_strlist runpath; /* DT_RUNPATH (else DT_RPATH), split */
	char build_id[129];     /* lowercase hex, "" when there is none */
	int has_symtab;         /* a .symtab: "not stripped" */
	int has_debug;          /* .debug_* or .zdebug_* sections */
	struct pp_elf_sym *undefined; /* undefined dynamic symbols */
	size_t nr_undefined;
	struct pp_elf_sym *defined;   /* exported: global or weak, defined */
	size_t nr_defined;
	/* A shared library's read-only strings that are absolute paths
	 * (pp_elf_path_strings of its SHF_ALLOC, non-executable PROGBITS
	 * sections: .rodata, .data.rel.ro ...), sorted, each once: the files
	 * it may read. Empty for other kinds. */
	struct pp_strlist paths;
};

/* Whether the first bytes of a file are the ELF magic. */
int pp_elf_magic(const void *buf, size_t len);

/* Reads path. Returns 0 when read, 1 when it is not an ELF file (out is
 * then empty), -1 on error (unreadable, or a damaged ELF file). */
int pp_elf_read(const char *path, struct pp_elf_info *out, struct pp_err *err);
/* pp_elf_read of a file already in memory (size bytes at image, which
 * libelf may change: a private copy), name naming it in messages. */
int pp_elf_read_memory(void *image, size_t size, const char *name,
		       struct pp_elf_info *out, struct pp_err *err);
void pp_elf_release(struct pp_elf_info *info);
/* Appends to out the strings of a section's bytes (NUL-separated runs)
 * that are absolute paths: "/" and a name, every byte printable and no
 * blank; a format ("/usr/share/%s/x") is cut before the component that
 * holds the first '%', a trailing '/' dropped; "/" alone is no path. */
void pp_elf_path_strings(const char *buf, size_t len, struct pp_strlist *out);

/* The Debian architecture of the file's ABI ("amd64", "arm64", ...) and
 * its multiarch triplet ("x86_64-linux-gnu"); NULL when not known. */
const char *pp_elf_debian_arch(const struct pp_elf_info *info);
const char *pp_elf_multiarch(const struct pp_elf_info *info);
/* Whether two files can be loaded together (same class, byte order and
 * machine), as the dynamic linker and dpkg-shlibdeps require. */
int pp_elf_compatible(const struct pp_elf_info *a, const struct pp_elf_info *b);

/* Whether a run path ("/usr/lib/x86_64-linux-gnu:/lib") names only
 * directories the dynamic linker searches anyway (none of $ORIGIN, no
 * other directory). */
int pp_elf_default_runpath(const char *runpath);
/* Removes, in place, the DT_RUNPATH/DT_RPATH entries of path that name
 * only such directories (chrpath -d); *dropped says how many. A file
 * that is not ELF is left alone. */
int pp_elf_drop_default_runpath(const char *path, int *dropped,
				struct pp_err *err);

#endif
