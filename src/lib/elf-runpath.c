/* Dropping a run path that names only the dynamic linker's default
 * directories (what `chrpath -d` does in many debian/rules files): such
 * an entry changes nothing at run time, and lintian calls it an error
 * (custom-library-search-path). libtool writes one when a program links
 * a library installed in the default directory (sqlite3's shell). */
#include "elfinfo.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "classify.h"
#include "xalloc.h"

int pp_elf_default_runpath(const char *runpath)
{
	const char *s = runpath;
	int all = *runpath != '\0';

	while (*s) {
		size_t n = strcspn(s, ":");
		char *dir = xstrndup(s, n);
		size_t len = strlen(dir);

		while (len > 1 && dir[len - 1] == '/')
			dir[--len] = '\0';
		if (dir[0] != '/' || !pp_is_public_libdir(dir + 1))
			all = 0;
		free(dir);
		s += n + (s[n] == ':');
	}
	return all;
}

/* Removes entry i of the dynamic array (the ones after it move up; the
 * last slot becomes DT_NULL), as chrpath -d does. */
static int remove_dyn(Elf_Data *d, size_t i, size_t nr)
{
	GElf_Dyn dyn;

	for (; i + 1 < nr; i++) {
		if (!gelf_getdyn(d, (int)(i + 1), &dyn) ||
		    !gelf_update_dyn(d, (int)i, &dyn))
			return -1;
	}
	memset(&dyn, 0, sizeof(dyn));
	return gelf_update_dyn(d, (int)(nr - 1), &dyn) ? 0 : -1;
}

/* Drops every DT_RUNPATH/DT_RPATH of the dynamic section scn that names
 * only default directories; *dropped counts them. */
static int drop_in(Elf *elf, Elf_Scn *scn, int *dropped)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	GElf_Shdr sh;
	GElf_Dyn dyn;
	size_t nr;

	if (!d || !gelf_getshdr(scn, &sh) || !sh.sh_entsize)
		return -1;
	nr = sh.sh_size / sh.sh_entsize;
	for (size_t i = 0; i < nr && gelf_getdyn(d, (int)i, &dyn);) {
		const char *s;

		if (dyn.d_tag == DT_NULL)
			break;
		if (dyn.d_tag != DT_RUNPATH && dyn.d_tag != DT_RPATH) {
			i++;
			continue;
		}
		s = elf_strptr(elf, sh.sh_link, dyn.d_un.d_val);
		if (!s)
			return -1;
		if (!pp_elf_default_runpath(s)) {
			i++;
			continue;
		}
		if (remove_dyn(d, i, nr) < 0)
			return -1;
		(*dropped)++;
	}
	if (*dropped)
		elf_flagdata(d, ELF_C_SET, ELF_F_DIRTY);
	return 0;
}

int pp_elf_drop_default_runpath(const char *path, int *dropped,
				struct pp_err *err)
{
	Elf *elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	int fd, rc = 0;

	*dropped = 0;
	elf_version(EV_CURRENT);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot open '%s'", path);
	elf = elf_begin(fd, ELF_C_RDWR, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		close(fd);
		return 0;
	}
	/* keep every section where it is: only the dynamic array changes */
	elf_flagelf(elf, ELF_C_SET, ELF_F_LAYOUT);
	while (rc == 0 && (scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_DYNAMIC)
			rc = drop_in(elf, scn, dropped);
	if (rc == 0 && *dropped && elf_update(elf, ELF_C_WRITE) < 0)
		rc = -1;
	if (rc < 0)
		rc = pp_err_set(err, PP_EXIT_INPUT, "%s: cannot drop its run "
				"path: %s", path, elf_errmsg(-1));
	elf_end(elf);
	if (close(fd) < 0 && rc == 0)
		rc = pp_err_errno(err, PP_EXIT_IO, "cannot write '%s'", path);
	return rc;
}
