#include "x86code.h"

#include <ar.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>

static uint64_t code_sections(Elf *elf)
{
	Elf_Scn *scn = NULL;
	uint64_t n = 0;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_PROGBITS &&
		    (sh.sh_flags & SHF_EXECINSTR))
			n += sh.sh_size;
	}
	return n;
}

static void tally_elf(struct pp_x86_tally *t, int fd, uint64_t size)
{
	Elf *elf;
	GElf_Ehdr eh;
	uint64_t n;

	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF && gelf_getehdr(elf, &eh) &&
	    (eh.e_machine == EM_386 || eh.e_machine == EM_X86_64)) {
		if (eh.e_type == ET_REL) {
			t->reloc += size;
		} else if (eh.e_type == ET_EXEC || eh.e_type == ET_DYN) {
			n = code_sections(elf);
			t->code += n < size ? n : size; /* a damaged file */
		}
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
}
