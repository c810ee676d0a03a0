/* The ISA scan: opens ELF files and archives with libelf, finds the
 * function symbols, decodes the executable sections with Zydis and tallies
 * the extensions (see isa.h). The top of the scanner: it calls down into
 * isa-dispatch.c, isa-funcs.c, isa-classify.c and isa-names.c, none of
 * which calls back up into it. */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <ar.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "isa-internal.h"
#include "xalloc.h"

struct tally {
	unsigned long count;
	struct pp_isa_site first;
};

struct scan {
	const struct pp_isa_policy *policy;
	ZydisDecoder dec;
	struct tally t[PP_ISA_NR_WHY][PP_ISA_NR_EXTS];
	struct pp_isa_report *r;
	/* the exempt function being decoded and its entry in r */
	const struct isa_func *cur_func;
	struct pp_isa_func *cur_entry;
	int lto; /* an object held LTO bytecode and no code */
};

/* ---- function symbols ---- */

static int matches(const char *const *globs, size_t nr, const char *name)
{
	for (size_t i = 0; i < nr; i++)
		if (!fnmatch(globs[i], name, 0))
			return 1;
	return 0;
}

static int is_dispatcher(const struct pp_isa_policy *p, const char *name)
{
	return p && p->ifunc_targets &&
	       matches(p->dispatcher_globs, p->nr_dispatcher_globs, name);
}

static int is_code_section(Elf *elf, size_t ndx)
{
	GElf_Shdr sh;
	Elf_Scn *scn = elf_getscn(elf, ndx);

	return scn && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR);
}

static void add_symbol(struct isa_obj *o, const struct pp_isa_policy *p,
		       const GElf_Sym *sym, const char *name)
{
	int type = GELF_ST_TYPE(sym->st_info);
	struct isa_func *f;

	if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE)
		return;
	if (!name || !*name || sym->st_shndx == SHN_UNDEF ||
	    sym->st_shndx >= SHN_LORESERVE)
		return;
	/* untyped symbols count only in code (asm entry points) */
	if (type == STT_NOTYPE && !is_code_section(o->elf, sym->st_shndx))
		return;
	ARRAY_GROW(o->funcs.v, o->funcs.alloc, o->funcs.nr + 1);
	f = &o->funcs.v[o->funcs.nr++];
	f->start = sym->st_value;
	f->end = sym->st_size ? sym->st_value + sym->st_size : 0;
	f->space = o->linked ? 0 : sym->st_shndx;
	f->name = name;
	f->why = p && matches(p->exempt_globs, p->nr_exempt_globs, name) ?
		 PP_ISA_EXEMPT_GLOB : PP_ISA_COUNTED;
	f->flags = type == STT_GNU_IFUNC || is_dispatcher(p, name) ?
		   ISA_FUNC_RESOLVER : 0;
}

/* The section of type (SHT_SYMTAB or SHT_DYNSYM), or NULL. */
static Elf_Scn *find_section(Elf *elf, GElf_Word type, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, sh) && sh->sh_type == type)
			return scn;
	return NULL;
}

static int load_symbols(struct isa_obj *o, const struct pp_isa_policy *p,
			int *stripped, struct pp_err *err)
{
	GElf_Shdr sh;
	Elf_Scn *scn = find_section(o->elf, SHT_SYMTAB, &sh);
	Elf_Data *data;

	*stripped = !scn;
	if (!scn)
		scn = find_section(o->elf, SHT_DYNSYM, &sh);
	if (!scn)
		return 0;
	data = elf_getdata(scn, NULL);
	if (!data || !sh.sh_entsize)
		return isa_elf_error(err, o->path, "symbol table");
	for (size_t i = 1; i < sh.sh_size / sh.sh_entsize; i++) {
		GElf_Sym sym;

		if (!gelf_getsym(data, (int)i, &sym))
			return isa_elf_error(err, o->path, "symbol table");
		add_symbol(o, p, &sym, elf_strptr(o->elf, sh.sh_link,
						  sym.st_name));
	}
	isa_funcs_sort(&o->funcs);
	return 0;
}

/* ---- decoding ---- */

static void fill_site(struct pp_isa_site *site, const struct isa_obj *o,
		      const struct isa_func *f, const char *section,
		      uint64_t sec_base, uint64_t addr, unsigned long index)
{
	site->member = o->member ? xstrdup(o->member) : NULL;
	site->symbol = f && f->name ? xstrdup(f->name) : NULL;
	site->section = xstrdup(section);
	site->offset = site->symbol ? addr - f->start : addr - sec_base;
	site->address = addr;
	site->index = index;
}

static void tally(struct scan *s, const struct isa_obj *o,
		  const struct isa_func *f, enum pp_isa_ext ext,
		  const char *section, uint64_t base, uint64_t addr)
{
	enum pp_isa_why why = f ? f->why : PP_ISA_COUNTED;
	struct tally *t = &s->t[why][ext];

	if (!t->count++)
		fill_site(&t->first, o, f, section, base, addr,
			  s->r->nr_insns);
}

/* The entry of exempt function f in the report: a new one where the
 * walk enters f; duplicates (one name in several objects) are merged by
 * collect. */
static struct pp_isa_func *exempt_entry(struct scan *s,
					const struct isa_func *f)
{
	struct pp_isa_report *r = s->r;
	struct pp_isa_func *e;

	if (s->cur_func == f)
		return s->cur_entry;
	ARRAY_GROW(r->exempt_funcs, r->exempt_funcs_alloc,
		   r->nr_exempt_funcs + 1);
	e = &r->exempt_funcs[r->nr_exempt_funcs++];
	memset(e, 0, sizeof(*e));
	if (f->name) {
		e->name = xstrdup(f->name);
	} else {
		char addr[24];

		snprintf(addr, sizeof(addr), "0x%llx",
			 (unsigned long long)f->start);
		e->name = xstrdup(addr);
	}
	e->why = (enum pp_isa_why)f->why;
	s->cur_func = f;
	s->cur_entry = e;
	return e;
}

static int decode_section(struct isa_obj *o, size_t ndx, const GElf_Shdr *sh,
			  const uint8_t *buf, size_t size, void *arg)
{
	struct scan *s = arg;
	struct pp_isa_report *r = s->r;
	const char *section = elf_strptr(o->elf, o->shstrndx, sh->sh_name);
	size_t space = o->linked ? 0 : ndx, cur = SIZE_MAX;
	uint64_t base = o->linked ? sh->sh_addr : 0;
	ZydisDecodedInstruction insn;
	enum pp_isa_ext exts[3];

	if (!section)
		section = "?";
	s->cur_func = NULL; /* function indices are per object */
	r->code_bytes += size;
	for (size_t off = 0; off < size; off += insn.length) {
		const struct isa_func *f;
		size_t fi;
		int n;

		if (ZYAN_FAILED(ZydisDecoderDecodeInstruction(&s->dec, NULL,
				buf + off, size - off, &insn))) {
			r->nr_bad_bytes++;
			insn.length = 1;
			continue;
		}
		fi = isa_func_at(&o->funcs, &cur, space, base + off);
		f = fi == SIZE_MAX ? NULL : &o->funcs.v[fi];
		n = isa_classify(&insn, exts);
		for (int i = 0; i < n; i++)
			tally(s, o, f, exts[i], section, base, base + off);
		r->nr_insns++;
		if (f && f->why != PP_ISA_COUNTED) {
			struct pp_isa_func *e = exempt_entry(s, f);

			for (int i = 0; i < n; i++)
				e->exts.has[exts[i]] = 1;
			e->nr_insns++;
			r->nr_exempt++;
		}
	}
	return 0;
}

/* ---- objects and archives ---- */

static int has_lto_sections(struct isa_obj *o)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(o->elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(o->elf, o->shstrndx, sh.sh_name);
		if (name && !strncmp(name, ".gnu.lto_", 9))
			return 1;
	}
	return 0;
}

/* libelf reads a file cut short as one with fewer sections, which would
 * scan as "no code": everything the headers describe must be there. */
static int check_bounds(struct isa_obj *o)
{
	size_t size = 0, nr = 0;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (!elf_rawfile(o->elf, &size) || elf_getshdrnum(o->elf, &nr) < 0)
		return -1;
	/* e_shnum is 0 only with no sections or more than 0xff00 */
	if (o->ehdr.e_shnum && nr != o->ehdr.e_shnum)
		return -1;
	if (nr && (o->ehdr.e_shoff > size || !o->ehdr.e_shentsize ||
		   (size - o->ehdr.e_shoff) / o->ehdr.e_shentsize < nr))
		return -1;
	while ((scn = elf_nextscn(o->elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			return -1;
		if (sh.sh_type != SHT_NOBITS && (sh.sh_offset > size ||
		    sh.sh_size > size - sh.sh_offset))
			return -1;
	}
	return 0;
}

static int check_header(struct isa_obj *o, struct pp_err *err)
{
	const char *where = o->member ? o->member : "";

	if (!gelf_getehdr(o->elf, &o->ehdr))
		return isa_elf_error(err, o->path, "ELF header");
	if (o->ehdr.e_ident[EI_CLASS] != ELFCLASS64 ||
	    o->ehdr.e_machine != EM_X86_64)
		return pp_err_set(err, PP_EXIT_INPUT, "%s%s%s: not x86-64 code "
				  "(ELF machine %u, class %u); the ISA scan "
				  "knows only x86-64", o->path, *where ? ":" : "",
				  where, o->ehdr.e_machine,
				  o->ehdr.e_ident[EI_CLASS]);
	if (elf_getshdrstrndx(o->elf, &o->shstrndx) < 0)
		return isa_elf_error(err, o->path, "section names");
	if (check_bounds(o) < 0)
		return pp_err_set(err, PP_EXIT_INPUT, "%s%s%s: truncated or "
				  "malformed ELF file (section headers or data "
				  "past its end); rebuild it or check the copy",
				  o->path, *where ? ":" : "", where);
	o->linked = o->ehdr.e_type != ET_REL;
	if (o->linked && o->ehdr.e_shnum == 0 && o->ehdr.e_phnum)
		return pp_err_set(err, PP_EXIT_INPUT, "%s: has no section "
				  "headers, so its code cannot be told from "
				  "its data; scan the unstripped file", o->path);
	return 0;
}

static int scan_object(struct scan *s, Elf *elf, const char *path,
		       const char *member, struct pp_err *err)
{
	struct isa_obj o = { .elf = elf, .path = path, .member = member };
	uint64_t code_before = s->r->code_bytes;
	int stripped = 0, rc = -1, n;

	if (check_header(&o, err) < 0 ||
	    load_symbols(&o, s->policy, &stripped, err) < 0)
		goto out;
	if (s->policy && s->policy->ifunc_targets && o.linked) {
		n = isa_dispatch_mark(&o, &s->dec, err);
		if (n < 0)
			goto out;
		s->r->nr_ifunc_exempt += (unsigned)n;
	}
	if (isa_each_code_section(&o, decode_section, s, err) < 0)
		goto out;
	s->r->nr_objects++;
	s->r->nr_stripped += stripped;
	if (s->r->code_bytes == code_before && has_lto_sections(&o))
		s->lto = 1;
	rc = 0;
out:
	free(o.funcs.v);
	return rc;
}

static int scan_member(struct scan *s, Elf *m, const char *path,
		       struct pp_err *err)
{
	Elf_Arhdr *h = elf_getarhdr(m);
	const char *name = h && h->ar_name ? h->ar_name : "?";

	if (name[0] == '/') /* the symbol or long-name table */
		return 0;
	if (elf_kind(m) != ELF_K_ELF)
		return pp_err_set(err, PP_EXIT_INPUT, "%s: member '%s' is not "
				  "an ELF object, so its code cannot be "
				  "checked", path, name);
	return scan_object(s, m, path, name, err);
}

/* The pages of an archive mapped from its file, up to the end of member
 * m, leave the resident set (the page cache keeps them): else a large
 * archive (OpenBLAS's is 100 MiB) is resident whole by its last member.
 * Only a mapping libelf made of the file: a page-aligned start, which
 * its malloc'd copy (if mmap failed) never has; MADV_DONTNEED would
 * clear that, while a read-only file mapping is only read again. */
static void drop_scanned(Elf *ar, Elf *m, size_t *dropped)
{
	size_t ar_size = 0, m_size = 0, page = (size_t)sysconf(_SC_PAGESIZE);
	char *base = elf_rawfile(ar, &ar_size), *mp = elf_rawfile(m, &m_size);
	size_t end;

	if (!base || !mp || (uintptr_t)base % page || mp < base ||
	    (size_t)(mp - base) + m_size > ar_size)
		return;
	end = ((size_t)(mp - base) + m_size) / page * page;
	if (end > *dropped &&
	    madvise(base + *dropped, end - *dropped, MADV_DONTNEED) == 0)
		*dropped = end;
}

/* The members of archive ar, which libelf began with cmd on fd (-1 and
 * ELF_C_READ_MMAP_PRIVATE for one in memory: members are begun alike). */
static int scan_archive(struct scan *s, int fd, Elf_Cmd cmd, Elf *ar,
			const char *path, struct pp_err *err)
{
	size_t size = 0, dropped = 0;

	if (elf_rawfile(ar, &size) && size == SARMAG)
		return 0; /* an archive with no members */
	/* elf_next says ELF_C_NULL after the last member; a member that
	 * cannot be read before that is a truncated archive */
	while (cmd != ELF_C_NULL) {
		Elf *m = elf_begin(fd, cmd, ar);
		int rc;

		if (!m)
			return pp_err_set(err, PP_EXIT_INPUT, "%s: truncated or "
					  "malformed archive (%s)", path,
					  elf_errmsg(-1));
		rc = scan_member(s, m, path, err);
		if (fd >= 0 && cmd == ELF_C_READ_MMAP)
			drop_scanned(ar, m, &dropped);
		cmd = elf_next(m);
		elf_end(m);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* Scans what libelf began with cmd on fd (elf; NULL when it could not),
 * and ends it. */
static int scan_begun(struct scan *s, int fd, Elf_Cmd cmd, Elf *elf,
		      const char *path, struct pp_err *err)
{
	int rc;

	if (!elf)
		return isa_elf_error(err, path, "open");
	switch (elf_kind(elf)) {
	case ELF_K_ELF:
		rc = scan_object(s, elf, path, NULL, err);
		break;
	case ELF_K_AR:
		rc = scan_archive(s, fd, cmd, elf, path, err);
		break;
	default:
		rc = pp_err_set(err, PP_EXIT_INPUT, "%s: not an ELF file or an "
				"ar archive of ELF objects; the ISA scan reads "
				"executables, shared libraries, .o and .a files",
				path);
	}
	elf_end(elf);
	return rc;
}

/* ---- the report ---- */

static int func_name_cmp(const void *a, const void *b)
{
	const struct pp_isa_func *x = a, *y = b;

	return strcmp(x->name, y->name);
}

/* Sorts the exempt functions by name and merges those of one name. */
static void merge_exempt_funcs(struct pp_isa_report *r)
{
	size_t n = 0;

	if (!r->nr_exempt_funcs)
		return;
	qsort(r->exempt_funcs, r->nr_exempt_funcs, sizeof(*r->exempt_funcs),
	      func_name_cmp);
	for (size_t i = 1; i < r->nr_exempt_funcs; i++) {
		struct pp_isa_func *keep = &r->exempt_funcs[n];
		struct pp_isa_func *f = &r->exempt_funcs[i];

		if (strcmp(f->name, keep->name)) {
			r->exempt_funcs[++n] = *f;
			continue;
		}
		for (int e = 0; e < PP_ISA_NR_EXTS; e++)
			keep->exts.has[e] |= f->exts.has[e];
		keep->nr_insns += f->nr_insns;
		if (f->why > keep->why)
			keep->why = f->why;
		free(f->name);
	}
	r->nr_exempt_funcs = n + 1;
}

static void collect(struct scan *s)
{
	struct pp_isa_report *r = s->r;

	for (int why = 0; why < PP_ISA_NR_WHY; why++)
		for (int e = 0; e < PP_ISA_NR_EXTS; e++) {
			struct tally *t = &s->t[why][e];

			if (!t->count)
				continue;
			ARRAY_GROW(r->uses, r->uses_alloc, r->nr_uses + 1);
			r->uses[r->nr_uses++] = (struct pp_isa_use){
				(enum pp_isa_ext)e, (enum pp_isa_why)why,
				t->count, t->first };
			if (why == PP_ISA_COUNTED && !pp_isa_ext_beyond(e) &&
			    pp_isa_ext_level(e) > r->level)
				r->level = pp_isa_ext_level(e);
		}
	merge_exempt_funcs(r);
}

static void site_release(struct pp_isa_site *site)
{
	free(site->member);
	free(site->symbol);
	free(site->section);
}

static struct scan *scan_new(const struct pp_isa_policy *policy,
			     struct pp_isa_report *out)
{
	struct scan *s = xcalloc(1, sizeof(*s));

	memset(out, 0, sizeof(*out));
	s->policy = policy;
	s->r = out;
	ZydisDecoderInit(&s->dec, ZYDIS_MACHINE_MODE_LONG_64,
			 ZYDIS_STACK_WIDTH_64);
	return s;
}

/* Ends a scan that returned rc: the report made, or what it holds
 * released. */
static int scan_done(struct scan *s, int rc, const char *path,
		     struct pp_err *err)
{
	struct pp_isa_report *out = s->r;

	if (!rc && s->lto)
		pp_warn(err, "%s: holds LTO bytecode and no machine code; its "
			"instructions are chosen at link time, so scan the "
			"linked file", path);
	if (!rc)
		collect(s);
	else
		for (int why = 0; why < PP_ISA_NR_WHY; why++)
			for (int e = 0; e < PP_ISA_NR_EXTS; e++)
				site_release(&s->t[why][e].first);
	free(s);
	if (rc)
		pp_isa_report_release(out);
	return rc;
}

int pp_isa_scan(const char *path, const struct pp_isa_policy *policy,
		struct pp_isa_report *out, struct pp_err *err)
{
	struct scan *s = scan_new(policy, out);
	struct stat st;
	int fd, rc = -1;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return scan_done(s, pp_err_set(err, PP_EXIT_IO, "libelf: %s",
					       elf_errmsg(-1)), path, err);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return scan_done(s, pp_err_errno(err, PP_EXIT_IO, "%s", path),
				 path, err);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		pp_err_set(err, PP_EXIT_IO, "%s: not a regular file", path);
	else
		rc = scan_begun(s, fd, ELF_C_READ_MMAP,
				elf_begin(fd, ELF_C_READ_MMAP, NULL), path, err);
	close(fd);
	return scan_done(s, rc, path, err);
}

int pp_isa_scan_memory(void *image, size_t size, const char *name,
		       const struct pp_isa_policy *policy,
		       struct pp_isa_report *out, struct pp_err *err)
{
	struct scan *s = scan_new(policy, out);

	if (elf_version(EV_CURRENT) == EV_NONE)
		return scan_done(s, pp_err_set(err, PP_EXIT_IO, "libelf: %s",
					       elf_errmsg(-1)), name, err);
	return scan_done(s, scan_begun(s, -1, ELF_C_READ_MMAP_PRIVATE,
				       elf_memory(image, size), name, err),
			 name, err);
}

void pp_isa_report_release(struct pp_isa_report *r)
{
	for (size_t i = 0; i < r->nr_uses; i++)
		site_release(&r->uses[i].first);
	free(r->uses);
	for (size_t i = 0; i < r->nr_exempt_funcs; i++)
		free(r->exempt_funcs[i].name);
	free(r->exempt_funcs);
	memset(r, 0, sizeof(*r));
}

unsigned long pp_isa_count(const struct pp_isa_report *r, enum pp_isa_ext ext,
			   int with_exempt)
{
	unsigned long n = 0;

	for (size_t i = 0; i < r->nr_uses; i++)
		if (r->uses[i].ext == ext &&
		    (with_exempt || r->uses[i].why == PP_ISA_COUNTED))
			n += r->uses[i].count;
	return n;
}

/* Higher level first, then earlier in the file. */
static int worse(const struct pp_isa_use *a, const struct pp_isa_use *b)
{
	enum pp_isa_level la = pp_isa_ext_level(a->ext);
	enum pp_isa_level lb = pp_isa_ext_level(b->ext);

	return la != lb ? la > lb : a->first.index < b->first.index;
}

int pp_isa_check(const struct pp_isa_report *r,
		 const struct pp_isa_limit *limit,
		 const struct pp_isa_use **violation)
{
	const struct pp_isa_use *worst = NULL;

	for (size_t i = 0; i < r->nr_uses; i++) {
		const struct pp_isa_use *u = &r->uses[i];

		if (u->why != PP_ISA_COUNTED || pp_isa_limit_allows(limit, u->ext))
			continue;
		if (!worst || worse(u, worst))
			worst = u;
	}
	if (violation)
		*violation = worst;
	return worst != NULL;
}

int pp_isa_check_forbidden(const struct pp_isa_report *r,
			   const struct pp_isa_set *forbid,
			   const struct pp_isa_use **violation)
{
	const struct pp_isa_use *first = NULL;

	for (size_t i = 0; i < r->nr_uses; i++) {
		const struct pp_isa_use *u = &r->uses[i];

		if (u->why == PP_ISA_COUNTED && forbid->has[u->ext] &&
		    (!first || u->first.index < first->first.index))
			first = u;
	}
	if (violation)
		*violation = first;
	return first != NULL;
}

void pp_isa_set_format(const struct pp_isa_set *set, struct strbuf *out)
{
	const char *sep = "";

	for (int e = 0; e < PP_ISA_NR_EXTS; e++) {
		if (!set->has[e] || !pp_isa_ext_above_baseline((enum pp_isa_ext)e))
			continue;
		strbuf_addf(out, "%s%s", sep, pp_isa_ext_name((enum pp_isa_ext)e));
		sep = ", ";
	}
	if (!*sep)
		strbuf_addstr(out, pp_isa_level_name(PP_ISA_BASELINE));
}

void pp_isa_site_format(const struct pp_isa_site *site, struct strbuf *out)
{
	if (site->member)
		strbuf_addf(out, "%s:", site->member);
	strbuf_addf(out, "%s+0x%llx", site->symbol ? site->symbol : site->section,
		    (unsigned long long)site->offset);
}

void pp_isa_describe_use(const struct pp_isa_use *use, struct strbuf *out)
{
	strbuf_addf(out, "%s instruction at ", pp_isa_ext_name(use->ext));
	pp_isa_site_format(&use->first, out);
	strbuf_addf(out, " (address 0x%llx)",
		    (unsigned long long)use->first.address);
}

void pp_isa_describe_violation(const struct pp_isa_use *use,
			       const struct pp_isa_limit *limit,
			       struct strbuf *out)
{
	pp_isa_describe_use(use, out);
	strbuf_addstr(out, " exceeds ");
	pp_isa_limit_format(limit, out);
	if (use->count > 1)
		strbuf_addf(out, "; %lu such instructions", use->count);
}
