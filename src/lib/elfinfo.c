/* Reading the packaging facts of an ELF file with libelf. */
#include "elfinfo.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hash.h"
#include "xalloc.h"

int pp_elf_magic(const void *buf, size_t len)
{
	return len >= 4 && !memcmp(buf, ELFMAG, SELFMAG);
}

/* Symbol version names by index (the values of .gnu.version). */
struct vernames {
	char **name;
	size_t nr;
};

static void vernames_set(struct vernames *v, size_t idx, const char *name)
{
	if (idx >= v->nr) {
		size_t n = idx + 1;

		v->name = xrealloc(v->name, n * sizeof(*v->name));
		memset(v->name + v->nr, 0, (n - v->nr) * sizeof(*v->name));
		v->nr = n;
	}
	if (!v->name[idx])
		v->name[idx] = xstrdup(name);
}

static void vernames_release(struct vernames *v)
{
	for (size_t i = 0; i < v->nr; i++)
		free(v->name[i]);
	free(v->name);
}

/* What one pass over the sections finds. */
struct reader {
	Elf *elf;
	const char *path;
	struct pp_elf_info *out;
	struct pp_err *err;
	Elf_Scn *dynsym, *versym, *verneed, *verdef, *dynamic;
	struct vernames versions;
};

static int elf_fail(struct reader *r, const char *what)
{
	return pp_err_set(r->err, PP_EXIT_INPUT, "%s: %s: %s; the ELF file is "
			  "damaged or truncated", r->path, what, elf_errmsg(-1));
}

static void read_build_id(struct reader *r, Elf_Scn *scn)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	while (d && (off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
		    memcmp((char *)d->d_buf + name_off, "GNU", 4) ||
		    nh.n_descsz * 2 >= sizeof(r->out->build_id))
			continue;
		pp_hex((const unsigned char *)d->d_buf + desc_off, nh.n_descsz,
		       r->out->build_id);
		return;
	}
}

static void split_path(struct pp_strlist *out, const char *s)
{
	const char *colon;

	while (*s) {
		colon = strchr(s, ':');
		if (!colon)
			colon = s + strlen(s);
		if (colon > s)
			pp_strlist_push_owned(out, xstrndup(s, (size_t)(colon - s)));
		s = *colon ? colon + 1 : colon;
	}
}

static int read_dynamic(struct reader *r, Elf_Scn *scn)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	GElf_Shdr sh;
	GElf_Dyn dyn;
	const char *rpath = NULL, *runpath = NULL;

	if (!gelf_getshdr(scn, &sh) || !d)
		return elf_fail(r, "cannot read the dynamic section");
	for (size_t i = 0; gelf_getdyn(d, (int)i, &dyn); i++) {
		const char *s = NULL;

		if (dyn.d_tag == DT_NULL)
			break;
		if (dyn.d_tag == DT_NEEDED || dyn.d_tag == DT_SONAME ||
		    dyn.d_tag == DT_RPATH || dyn.d_tag == DT_RUNPATH) {
			s = elf_strptr(r->elf, sh.sh_link, dyn.d_un.d_val);
			if (!s)
				return elf_fail(r, "a dynamic entry names no string");
		}
		if (dyn.d_tag == DT_NEEDED)
			pp_strlist_push(&r->out->needed, s);
		else if (dyn.d_tag == DT_SONAME && !r->out->soname)
			r->out->soname = xstrdup(s);
		else if (dyn.d_tag == DT_RPATH)
			rpath = s;
		else if (dyn.d_tag == DT_RUNPATH)
			runpath = s;
		else if (dyn.d_tag == DT_FLAGS_1 && (dyn.d_un.d_val & DF_1_PIE))
			r->out->pie = 1;
	}
	/* ld.so ignores DT_RPATH when DT_RUNPATH is there. */
	if (runpath || rpath)
		split_path(&r->out->runpath, runpath ? runpath : rpath);
	return 0;
}

static int read_sections(struct reader *r)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(r->elf, &shstrndx) < 0)
		return elf_fail(r, "cannot find the section names");
	while ((scn = elf_nextscn(r->elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			return elf_fail(r, "cannot read a section header");
		name = elf_strptr(r->elf, shstrndx, sh.sh_name);
		if (!name)
			name = "";
		if (sh.sh_type == SHT_SYMTAB)
			r->out->has_symtab = 1;
		if (!strncmp(name, ".debug_", 7) || !strncmp(name, ".zdebug_", 8))
			r->out->has_debug = 1;
		if (sh.sh_type == SHT_NOTE && !r->out->build_id[0])
			read_build_id(r, scn);
		switch (sh.sh_type) {
		case SHT_DYNSYM: r->dynsym = scn; break;
		case SHT_GNU_versym: r->versym = scn; break;
		case SHT_GNU_verneed: r->verneed = scn; break;
		case SHT_GNU_verdef: r->verdef = scn; break;
		case SHT_DYNAMIC: r->dynamic = scn; break;
		}
	}
	return r->dynamic ? read_dynamic(r, r->dynamic) : 0;
}

static int read_verneed(struct reader *r)
{
	Elf_Data *d = elf_getdata(r->verneed, NULL);
	GElf_Shdr sh;
	GElf_Verneed vn;
	GElf_Vernaux va;
	size_t off = 0;

	if (!gelf_getshdr(r->verneed, &sh) || !d)
		return elf_fail(r, "cannot read .gnu.version_r");
	for (size_t n = 0; n < sh.sh_info && gelf_getverneed(d, (int)off, &vn);
	     n++) {
		size_t aux = off + vn.vn_aux;

		for (size_t k = 0; k < vn.vn_cnt &&
		     gelf_getvernaux(d, (int)aux, &va); k++) {
			const char *s = elf_strptr(r->elf, sh.sh_link, va.vna_name);

			if (s)
				vernames_set(&r->versions, va.vna_other & 0x7fff, s);
			if (!va.vna_next)
				break;
			aux += va.vna_next;
		}
		if (!vn.vn_next)
			break;
		off += vn.vn_next;
	}
	return 0;
}

static int read_verdef(struct reader *r)
{
	Elf_Data *d = elf_getdata(r->verdef, NULL);
	GElf_Shdr sh;
	GElf_Verdef vd;
	GElf_Verdaux va;
	size_t off = 0;

	if (!gelf_getshdr(r->verdef, &sh) || !d)
		return elf_fail(r, "cannot read .gnu.version_d");
	for (size_t n = 0; n < sh.sh_info && gelf_getverdef(d, (int)off, &vd);
	     n++) {
		const char *s = NULL;

		if (gelf_getverdaux(d, (int)(off + vd.vd_aux), &va))
			s = elf_strptr(r->elf, sh.sh_link, va.vda_name);
		/* The base definition names the file itself: "Base". */
		if (s && !(vd.vd_flags & VER_FLG_BASE))
			vernames_set(&r->versions, vd.vd_ndx & 0x7fff, s);
		if (!vd.vd_next)
			break;
		off += vd.vd_next;
	}
	return 0;
}

static void add_sym(struct pp_elf_sym **arr, size_t *nr, const char *name,
		    const char *version, int weak, int hidden)
{
	struct pp_elf_sym *s;

	*arr = xrealloc(*arr, (*nr + 1) * sizeof(**arr));
	s = &(*arr)[(*nr)++];
	s->name = xstrdup(name);
	s->version = version ? xstrdup(version) : NULL;
	s->weak = weak;
	s->hidden_version = hidden;
}

static int read_symbols(struct reader *r)
{
	Elf_Data *d = elf_getdata(r->dynsym, NULL);
	Elf_Data *vs = r->versym ? elf_getdata(r->versym, NULL) : NULL;
	GElf_Shdr sh;
	GElf_Sym sym;

	if (!gelf_getshdr(r->dynsym, &sh) || !d)
		return elf_fail(r, "cannot read .dynsym");
	for (size_t i = 1; gelf_getsym(d, (int)i, &sym); i++) {
		const char *name = elf_strptr(r->elf, sh.sh_link, sym.st_name);
		int bind = GELF_ST_BIND(sym.st_info);
		GElf_Versym ver = 1;
		const char *vname = NULL;

		if (!name || !*name || bind == STB_LOCAL)
			continue;
		if (vs)
			gelf_getversym(vs, (int)i, &ver);
		if ((ver & 0x7fff) > 1 && (size_t)(ver & 0x7fff) < r->versions.nr)
			vname = r->versions.name[ver & 0x7fff];
		if (sym.st_shndx == SHN_UNDEF)
			add_sym(&r->out->undefined, &r->out->nr_undefined, name,
				vname, bind == STB_WEAK, 0);
		else
			add_sym(&r->out->defined, &r->out->nr_defined, name,
				vname, bind == STB_WEAK, !!(ver & 0x8000));
	}
	return 0;
}

static int read_interp(struct reader *r)
{
	size_t nr, rawlen;
	const char *raw = elf_rawfile(r->elf, &rawlen);
	GElf_Phdr ph;

	if (elf_getphdrnum(r->elf, &nr) < 0)
		return 0;
	for (size_t i = 0; i < nr; i++) {
		if (!gelf_getphdr(r->elf, (int)i, &ph) || ph.p_type != PT_INTERP)
			continue;
		if (!raw || ph.p_offset >= rawlen || ph.p_filesz > rawlen -
		    ph.p_offset)
			return elf_fail(r, "the interpreter is outside the file");
		/* the first, as the kernel takes it (a second one leaked) */
		r->out->interp = xstrndup(raw + ph.p_offset, ph.p_filesz);
		break;
	}
	return 0;
}

/* One string of a section, if it is an absolute path (as
 * pp_elf_path_strings says). */
static void push_path(const char *str, size_t n, struct pp_strlist *out)
{
	const char *pct = memchr(str, '%', n);

	if (n < 2 || str[0] != '/')
		return;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)str[i] <= ' ' || (unsigned char)str[i] >= 0x7f)
			return;
	if (pct) /* "/usr/share/%s/x": what comes before the component */
		while (n > 0 && str + n > pct)
			n = (size_t)((const char *)memrchr(str, '/', n) - str);
	while (n > 1 && str[n - 1] == '/')
		n--;
	if (n < 2)
		return;
	pp_strlist_push_owned(out, xstrndup(str, n));
}

void pp_elf_path_strings(const char *buf, size_t len, struct pp_strlist *out)
{
	size_t at = 0;

	while (at < len) {
		const char *end = memchr(buf + at, '\0', len - at);
		size_t n = end ? (size_t)(end - (buf + at)) : len - at;

		if (buf[at] == '/')
			push_path(buf + at, n, out);
		at += n + 1;
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A shared library's path strings (struct pp_elf_info's paths): what is
 * not loaded read-only (code, symbol tables, notes) is not read. */
static void read_path_strings(struct reader *r)
{
	struct pp_strlist *paths = &r->out->paths;
	Elf_Scn *scn = NULL;
	size_t keep = 0;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(r->elf, scn))) {
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_ALLOC) || (sh.sh_flags & SHF_EXECINSTR))
			continue;
		d = NULL;
		while ((d = elf_getdata(scn, d)))
			if (d->d_buf)
				pp_elf_path_strings(d->d_buf, d->d_size, paths);
	}
	if (!paths->nr)
		return;
	qsort(paths->items, paths->nr, sizeof(*paths->items), cmp_str);
	for (size_t i = 0; i < paths->nr; i++) {
		if (keep && !strcmp(paths->items[keep - 1], paths->items[i])) {
			free(paths->items[i]);
			continue;
		}
		paths->items[keep++] = paths->items[i];
	}
	paths->nr = keep;
	paths->items[keep] = NULL;
}

static void set_kind(struct pp_elf_info *out, const GElf_Ehdr *eh)
{
	if (eh->e_type == ET_EXEC)
		out->kind = PP_ELF_EXEC;
	else if (eh->e_type == ET_REL)
		out->kind = PP_ELF_OBJECT;
	else if (eh->e_type != ET_DYN)
		out->kind = PP_ELF_OTHER;
	else if (out->soname)
		out->kind = PP_ELF_SHLIB;
	else if (out->pie || out->interp)
		out->kind = PP_ELF_EXEC;
	else
		out->kind = PP_ELF_MODULE;
	if (out->interp)
		out->pie = out->pie || eh->e_type == ET_DYN;
}

static int read_elf(struct reader *r)
{
	GElf_Ehdr eh;

	if (!gelf_getehdr(r->elf, &eh))
		return elf_fail(r, "cannot read the ELF header");
	r->out->elfclass = eh.e_ident[EI_CLASS];
	r->out->data = eh.e_ident[EI_DATA];
	r->out->machine = eh.e_machine;
	if (read_sections(r) < 0 || read_interp(r) < 0)
		return -1;
	if (r->verneed && read_verneed(r) < 0)
		return -1;
	if (r->verdef && read_verdef(r) < 0)
		return -1;
	if (r->dynsym && read_symbols(r) < 0)
		return -1;
	set_kind(r->out, &eh);
	if (r->out->kind == PP_ELF_SHLIB)
		read_path_strings(r);
	return 0;
}

/* Reads what elf (NULL when libelf could not begin) holds into out, as
 * pp_elf_read says; path names it in messages. */
static int read_begun(Elf *elf, const char *path, struct pp_elf_info *out,
		      struct pp_err *err)
{
	struct reader r = { 0 };
	int rc;

	r.elf = elf;
	if (!r.elf || elf_kind(r.elf) != ELF_K_ELF) {
		rc = 1;
	} else {
		r.path = path;
		r.out = out;
		r.err = err;
		rc = read_elf(&r);
	}
	vernames_release(&r.versions);
	if (r.elf)
		elf_end(r.elf);
	if (rc)
		pp_elf_release(out);
	return rc;
}

int pp_elf_read(const char *path, struct pp_elf_info *out, struct pp_err *err)
{
	int fd, rc;

	memset(out, 0, sizeof(*out));
	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot open '%s'", path);
	rc = read_begun(elf_begin(fd, ELF_C_READ_MMAP, NULL), path, out, err);
	close(fd);
	return rc;
}

int pp_elf_read_memory(void *image, size_t size, const char *name,
		       struct pp_elf_info *out, struct pp_err *err)
{
	memset(out, 0, sizeof(*out));
	elf_version(EV_CURRENT);
	return read_begun(elf_memory(image, size), name, out, err);
}

static void free_syms(struct pp_elf_sym *s, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(s[i].name);
		free(s[i].version);
	}
	free(s);
}

void pp_elf_release(struct pp_elf_info *info)
{
	free(info->soname);
	free(info->interp);
	pp_strlist_release(&info->needed);
	pp_strlist_release(&info->runpath);
	pp_strlist_release(&info->paths);
	free_syms(info->undefined, info->nr_undefined);
	free_syms(info->defined, info->nr_defined);
	memset(info, 0, sizeof(*info));
}

struct abi {
	unsigned machine;
	int elfclass, data;
	const char *arch, *triplet;
};

static const struct abi abis[] = {
	{ EM_X86_64, ELFCLASS64, ELFDATA2LSB, "amd64", "x86_64-linux-gnu" },
	{ EM_386, ELFCLASS32, ELFDATA2LSB, "i386", "i386-linux-gnu" },
	{ EM_AARCH64, ELFCLASS64, ELFDATA2LSB, "arm64", "aarch64-linux-gnu" },
	{ EM_ARM, ELFCLASS32, ELFDATA2LSB, "armhf", "arm-linux-gnueabihf" },
	{ EM_PPC64, ELFCLASS64, ELFDATA2LSB, "ppc64el",
	  "powerpc64le-linux-gnu" },
	{ EM_S390, ELFCLASS64, ELFDATA2MSB, "s390x", "s390x-linux-gnu" },
	{ EM_RISCV, ELFCLASS64, ELFDATA2LSB, "riscv64", "riscv64-linux-gnu" },
	{ EM_MIPS, ELFCLASS64, ELFDATA2LSB, "mips64el",
	  "mips64el-linux-gnuabi64" },
};

static const struct abi *find_abi(const struct pp_elf_info *info)
{
	for (size_t i = 0; i < sizeof(abis) / sizeof(abis[0]); i++)
		if (abis[i].machine == info->machine &&
		    abis[i].elfclass == info->elfclass &&
		    abis[i].data == info->data)
			return &abis[i];
	return NULL;
}

const char *pp_elf_debian_arch(const struct pp_elf_info *info)
{
	const struct abi *a = find_abi(info);

	return a ? a->arch : NULL;
}

const char *pp_elf_multiarch(const struct pp_elf_info *info)
{
	const struct abi *a = find_abi(info);

	return a ? a->triplet : NULL;
}

int pp_elf_compatible(const struct pp_elf_info *a, const struct pp_elf_info *b)
{
	return a->elfclass == b->elfclass && a->data == b->data &&
	       a->machine == b->machine;
}
