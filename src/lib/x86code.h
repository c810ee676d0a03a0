/* Whether xz's x86 BCJ filter makes a package's data smaller: what
 * decides the filter chain of its data member (debpack.c).
 *
 * The filter rewrites the 32-bit relative target of each call and jump
 * (E8, E9) into an absolute one. That pays where many places call the
 * same functions: a thousand relative targets become one absolute one,
 * which LZMA2 finds as a repeat (LLVM's, z3's libraries: 3 to 12%
 * smaller). It costs where the relative form already repeats: the same
 * kernels compiled for several CPUs side by side (OpenBLAS's
 * DYNAMIC_ARCH library: 2% larger), and relocatable objects, whose calls
 * all read "call +0" until linked (static archives: 10% larger). */
#ifndef PP_X86CODE_H
#define PP_X86CODE_H

#include <stddef.h>
#include <stdint.h>

#include "distinct.h"

struct pp_x86_tally {
	/* the instruction sections (SHF_EXECINSTR, with file contents) of
	 * x86 and x86-64 ELF programs and shared objects */
	uint64_t code;
	/* the whole of x86 relocatable objects and of static archives */
	uint64_t reloc;
	/* the call and jump sites in that code which the filter rewrites:
	 * how many, and their distinct relative targets and absolute ones
	 * (as positions in the files laid end to end, base being the next
	 * file's), counted in bounded memory whatever the package's size */
	uint64_t sites;
	struct pp_distinct rel, abs;
	uint64_t base;
};

/* Adds the file at path, size bytes long, to t. Anything else (other
 * files, other machines, debug files, whose code sections are empty) adds
 * nothing; nor does a file that cannot be read (its reader says why). */
void pp_x86_tally_file(struct pp_x86_tally *t, const char *path,
		       uint64_t size);
/* Whether the filter is expected to make a package of all file bytes
 * tallied in t smaller: its code, less its relocatable bytes, is a tenth
 * or more of it, and the code's calls and jumps have at most 4/5 as many
 * distinct absolute targets as relative ones (distinct.h: exact
 * up to 16,384 distinct targets, estimated within about 1% past that). */
int pp_x86_tally_gains(struct pp_x86_tally *t, uint64_t all);
void pp_x86_tally_release(struct pp_x86_tally *t);

#endif
