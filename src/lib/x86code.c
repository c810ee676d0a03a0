#include "x86code.h"

#include <ar.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


#define X86_SHARE 10 /* percent of the file bytes that are code, at least */

/* The sites the filter rewrites, as it finds them: an E8 or E9 byte whose
 * 32-bit operand's high byte is 00 or FF (a near target); it then goes
 * on after the operand. off: where the bytes lie in the file. */
static void tally_sites(struct pp_x86_tally *t, const unsigned char *b,
			size_t len, uint64_t off)
{
	for (size_t i = 0; i + 5 <= len;) {
		uint32_t rel;

		if ((b[i] != 0xe8 && b[i] != 0xe9) ||
		    (b[i + 4] != 0 && b[i + 4] != 0xff)) {
			i++;
			continue;
		}
		rel = (uint32_t)b[i + 1] | (uint32_t)b[i + 2] << 8 |
		      (uint32_t)b[i + 3] << 16 | (uint32_t)b[i + 4] << 24;
		pp_distinct_add(&t->rel, rel);
		pp_distinct_add(&t->abs, rel + (uint32_t)(t->base + off + i + 5));
		t->sites++;
		i += 5;
	}
}

static void code_sections(struct pp_x86_tally *t, Elf *elf, uint64_t size)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || sh.sh_offset > size ||
		    sh.sh_size > size - sh.sh_offset)
			continue;
		t->code += sh.sh_size;
		d = elf_rawdata(scn, NULL);
		if (d && d->d_buf)
			tally_sites(t, d->d_buf, d->d_size, sh.sh_offset);
	}
}

static void tally_elf(struct pp_x86_tally *t, int fd, uint64_t size)
{
	Elf *elf;
	GElf_Ehdr eh;

	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF && gelf_getehdr(elf, &eh) &&
	    (eh.e_machine == EM_386 || eh.e_machine == EM_X86_64)) {
		if (eh.e_type == ET_REL)
			t->reloc += size;
		else if (eh.e_type == ET_EXEC || eh.e_type == ET_DYN)
			code_sections(t, elf, size);
	}
	elf_end(elf);
}

void pp_x86_tally_file(struct pp_x86_tally *t, const char *path,
		       uint64_t size)
{
	char magic[SARMAG];
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return;
	/* most files of a package are neither: no libelf for them */
	if (pread(fd, magic, SARMAG, 0) == SARMAG) {
		if (!memcmp(magic, ARMAG, SARMAG))
			t->reloc += size;
		else if (!memcmp(magic, ELFMAG, SELFMAG))
			tally_elf(t, fd, size);
	}
	close(fd);
	t->base += size;
}

int pp_x86_tally_gains(struct pp_x86_tally *t, uint64_t all)
{
	if (t->code <= t->reloc || (t->code - t->reloc) * 100 < all * X86_SHARE)
		return 0;
	return pp_distinct_count(&t->abs) * 5 <= pp_distinct_count(&t->rel) * 4;
}

void pp_x86_tally_release(struct pp_x86_tally *t)
{
	pp_distinct_release(&t->rel);
	pp_distinct_release(&t->abs);
	memset(t, 0, sizeof(*t));
}
