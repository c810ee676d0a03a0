/* Shared by the parts of the ISA scanner; not part of the library's
 * interface. Calls go one way, lowest first: isa-names.c, isa-classify.c,
 * isa-funcs.c (function table, code sections), isa-dispatch.c, isa.c. */
#ifndef PP_ISA_INTERNAL_H
#define PP_ISA_INTERNAL_H

#include <gelf.h>
#include <Zydis/Zydis.h>

#include "isa.h"

/* Where a function starts: a symbol, or an unnamed ifunc target. */
struct isa_func {
	uint64_t start;
	uint64_t end;        /* 0: runs up to the next start */
	size_t space;        /* section index in a .o, 0 in a linked file */
	const char *name;    /* in libelf's string table; NULL if unnamed */
	unsigned char why;   /* enum pp_isa_why */
	unsigned char flags; /* ISA_FUNC_* */
};

#define ISA_FUNC_RESOLVER 1 /* an ifunc resolver */
#define ISA_FUNC_TARGET 2   /* an address an ifunc resolver takes */

struct isa_funcs {
	struct isa_func *v;
	size_t nr, alloc;
};

/* One ELF object being scanned: a file, or a member of an archive. */
struct isa_obj {
	Elf *elf;
	const char *path, *member;
	GElf_Ehdr ehdr;
	size_t shstrndx;
	int linked; /* executable or shared library: one address space */
	struct isa_funcs funcs;
};

/* The extensions insn needs (1 to 3); writes them to out. */
int isa_classify(const ZydisDecodedInstruction *insn,
		 enum pp_isa_ext out[3]);

/* ---- isa-funcs.c ---- */

/* Sets err for a libelf failure in path while reading what; returns -1. */
int isa_elf_error(struct pp_err *err, const char *path, const char *what);
/* Sorts funcs and merges aliases (same space and start). */
void isa_funcs_sort(struct isa_funcs *funcs);
/* Index of the last start at or before (space, addr); SIZE_MAX if none. */
size_t isa_funcs_floor(const struct isa_funcs *funcs, size_t space,
		       uint64_t addr);
/* Appends an unnamed start in a linked file; isa_funcs_sort merges it
 * with a symbol at the same address. */
void isa_funcs_add(struct isa_funcs *funcs, uint64_t addr, unsigned flags);
/* The function holding (space, addr), or SIZE_MAX; *cur (SIZE_MAX at
 * first) remembers where the last lookup ended, so that walking code in
 * address order costs no search. */
size_t isa_func_at(const struct isa_funcs *funcs, size_t *cur, size_t space,
		   uint64_t addr);

/* The executable sections of obj, for each of which fn is called with
 * the section's index, header and bytes. Returns -1 on a libelf error. */
int isa_each_code_section(struct isa_obj *obj,
			  int (*fn)(struct isa_obj *obj, size_t ndx,
				    const GElf_Shdr *sh, const uint8_t *buf,
				    size_t size, void *arg),
			  void *arg, struct pp_err *err);

/* ---- isa-dispatch.c ---- */

/* Marks the functions of a linked obj that only ifunc resolvers reach
 * (why = PP_ISA_EXEMPT_IFUNC); returns how many, or -1. */
int isa_dispatch_mark(struct isa_obj *obj, const ZydisDecoder *dec,
		      struct pp_err *err);

#endif
