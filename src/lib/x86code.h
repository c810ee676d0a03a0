/* How much of a package is x86 machine code: what decides whether its
 * data member is compressed with xz's x86 BCJ filter (debpack.c). */
#ifndef PP_X86CODE_H
#define PP_X86CODE_H

#include <stdint.h>

struct pp_x86_tally {
	/* the instruction sections (SHF_EXECINSTR, with file contents) of
	 * x86 and x86-64 ELF programs and shared objects: the filter makes
	 * them some 10% smaller */
	uint64_t code;
	/* the whole of x86 relocatable objects and of static archives: their
	 * calls, not yet relocated, all read "call +0", which the filter
	 * turns into as many different numbers: 10% larger */
	uint64_t reloc;
};

/* Adds the file at path, size bytes long, to t. Anything else (other
 * files, other machines, debug files, whose code sections are empty) adds
 * nothing; nor does a file that cannot be read (its reader says why). */
void pp_x86_tally_file(struct pp_x86_tally *t, const char *path,
		       uint64_t size);

#endif
