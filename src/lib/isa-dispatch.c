/* Runtime dispatch through ifuncs: which code of a linked file only an
 * ifunc resolver can send the program to.
 *
 * A resolver (the value of an STT_GNU_IFUNC symbol, or the addend of an
 * R_X86_64_IRELATIVE relocation) returns the address of the variant the
 * CPU can run; the candidates are the code addresses it takes (a
 * RIP-relative LEA, or a MOV of an immediate in non-PIC code). Each
 * candidate's region runs from it to the next function start. A region is
 * exempt only when nothing but resolvers and other exempt regions enters
 * it:
 *  - no branch, call or address (RIP-relative or absolute) from other
 *    code lands anywhere in it;
 *  - the code before it cannot fall through into it;
 *  - no word of the file's other allocated sections (data, relocation
 *    addends, .dynsym values, .dynamic) is the address of an instruction
 *    in it, which also rules out exported functions.
 * Removing a region can disqualify the regions it entered, so this is
 * repeated to a fixed point.
 *
 * What it assumes: that code addresses are only made by those means (not
 * by arithmetic on other addresses), and that each resolver chooses a
 * variant the CPU supports, which is the resolver's whole job. Targets a
 * resolver loads from a table are not found and stay counted, which errs
 * on the strict side.
 *
 * Layering: isa.c calls isa_dispatch_mark; this file calls down into
 * isa-funcs.c (function table, code sections) and never back into isa.c. */
#include <stdlib.h>
#include <string.h>

#include "isa-internal.h"
#include "xalloc.h"

#define NONE SIZE_MAX

struct code_range {
	uint64_t lo, hi;
	const uint8_t *buf;
	unsigned char *starts; /* a bit per byte: an instruction starts here */
};

struct edge {
	size_t from, to; /* from may be NONE: data, or code of no function */
};

struct dispatch {
	struct isa_obj *o;
	const ZydisDecoder *dec;
	struct code_range *code;
	size_t nr_code, code_alloc;
	uint64_t *targets;
	size_t nr_targets, targets_alloc;
	struct edge *edges;
	size_t nr_edges, edges_alloc;
	unsigned char *active;   /* per function: still exempt */
	struct pp_err *err;
};

static int add_range(struct isa_obj *o, size_t ndx, const GElf_Shdr *sh,
		     const uint8_t *buf, size_t size, void *arg)
{
	struct dispatch *d = arg;

	(void)ndx;
	if (sh->sh_addr + size < sh->sh_addr)
		return pp_err_set(d->err, PP_EXIT_INPUT, "%s: malformed ELF "
				  "file (a code section wraps around the "
				  "address space)", o->path);
	ARRAY_GROW(d->code, d->code_alloc, d->nr_code + 1);
	d->code[d->nr_code++] = (struct code_range){ sh->sh_addr,
		sh->sh_addr + size, buf, xcalloc(size / 8 + 1, 1) };
	return 0;
}

static const struct code_range *range_of(const struct dispatch *d,
					 uint64_t addr)
{
	for (size_t i = 0; i < d->nr_code; i++)
		if (addr >= d->code[i].lo && addr < d->code[i].hi)
			return &d->code[i];
	return NULL;
}

/* Code addresses an instruction names: branch targets, RIP-relative
 * operands, and immediates or displacements that are code addresses. */
static int insn_refs(const struct dispatch *d,
		     const ZydisDecodedInstruction *in, uint64_t addr,
		     uint64_t out[3], int *branch)
{
	uint64_t next = addr + in->length;
	int n = 0;

	*branch = 0;
	for (int i = 0; i < 2; i++) {
		if (!in->raw.imm[i].size)
			continue;
		if (in->raw.imm[i].is_relative) {
			out[n++] = next + (uint64_t)in->raw.imm[i].value.s;
			*branch = 1;
		} else if (in->raw.imm[i].size >= 32 &&
			   range_of(d, in->raw.imm[i].value.u)) {
			out[n++] = in->raw.imm[i].value.u;
		}
	}
	if (!in->raw.disp.size || n >= 3)
		return n;
	if ((in->attributes & ZYDIS_ATTRIB_HAS_MODRM) &&
	    in->raw.modrm.mod == 0 && in->raw.modrm.rm == 5)
		out[n++] = next + (uint64_t)in->raw.disp.value;
	else if (range_of(d, (uint64_t)in->raw.disp.value))
		out[n++] = (uint64_t)in->raw.disp.value;
	return n;
}

static int decode(const struct dispatch *d, const struct code_range *r,
		  uint64_t addr, ZydisDecodedInstruction *in)
{
	return ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(d->dec, NULL,
			    r->buf + (addr - r->lo), r->hi - addr, in));
}

/* The addresses resolver i takes, up to the next function start. */
static void resolver_targets(struct dispatch *d, size_t i)
{
	const struct isa_funcs *fs = &d->o->funcs;
	const struct code_range *r = range_of(d, fs->v[i].start);
	uint64_t end = fs->v[i].end, addr, refs[3];
	ZydisDecodedInstruction in;
	int branch;

	if (!r)
		return;
	if (!end)
		end = i + 1 < fs->nr ? fs->v[i + 1].start : r->hi;
	if (end > r->hi)
		end = r->hi;
	for (addr = fs->v[i].start; addr < end; addr += in.length) {
		if (!decode(d, r, addr, &in)) {
			in.length = 1;
			continue;
		}
		if (in.mnemonic != ZYDIS_MNEMONIC_LEA &&
		    in.mnemonic != ZYDIS_MNEMONIC_MOV)
			continue;
		for (int k = insn_refs(d, &in, addr, refs, &branch); k-- > 0;)
			if (range_of(d, refs[k])) {
				ARRAY_GROW(d->targets, d->targets_alloc,
					   d->nr_targets + 1);
				d->targets[d->nr_targets++] = refs[k];
			}
	}
}

/* Resolvers that only an IRELATIVE relocation names (local ifuncs). */
static void add_irelative(struct dispatch *d)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(d->o->elf, scn))) {
		Elf_Data *data;
		GElf_Rela rela;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA ||
		    !sh.sh_entsize || !(data = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++)
			if (gelf_getrela(data, (int)i, &rela) &&
			    GELF_R_TYPE(rela.r_info) == R_X86_64_IRELATIVE)
				isa_funcs_add(&d->o->funcs,
					      (uint64_t)rela.r_addend,
					      ISA_FUNC_RESOLVER);
	}
}

static int find_targets(struct dispatch *d)
{
	struct isa_funcs *fs = &d->o->funcs;

	add_irelative(d);
	isa_funcs_sort(fs);
	for (size_t i = 0; i < fs->nr; i++)
		if (fs->v[i].flags & ISA_FUNC_RESOLVER)
			resolver_targets(d, i);
	for (size_t i = 0; i < d->nr_targets; i++)
		isa_funcs_add(fs, d->targets[i], ISA_FUNC_TARGET);
	isa_funcs_sort(fs);
	d->active = xcalloc(fs->nr ? fs->nr : 1, 1);
	for (size_t i = 0; i < fs->nr; i++)
		d->active[i] = (fs->v[i].flags & (ISA_FUNC_TARGET |
			       ISA_FUNC_RESOLVER)) == ISA_FUNC_TARGET;
	return d->nr_targets > 0;
}

/* ---- who enters the candidate regions ---- */

static void add_edge(struct dispatch *d, size_t from, size_t to)
{
	if (to == NONE || from == to || !d->active[to])
		return;
	ARRAY_GROW(d->edges, d->edges_alloc, d->nr_edges + 1);
	d->edges[d->nr_edges++] = (struct edge){ from, to };
}

static size_t region_of(const struct dispatch *d, uint64_t addr)
{
	size_t cur = NONE;

	return isa_func_at(&d->o->funcs, &cur, 0, addr);
}

static int falls_through(const ZydisDecodedInstruction *in)
{
	switch (in->mnemonic) {
	case ZYDIS_MNEMONIC_RET: case ZYDIS_MNEMONIC_JMP:
	case ZYDIS_MNEMONIC_UD0: case ZYDIS_MNEMONIC_UD1:
	case ZYDIS_MNEMONIC_UD2: case ZYDIS_MNEMONIC_HLT:
	case ZYDIS_MNEMONIC_INT3:
		return 0;
	default:
		return 1;
	}
}

static void mark_start(const struct code_range *r, uint64_t addr)
{
	uint64_t bit = addr - r->lo;

	r->starts[bit / 8] |= (unsigned char)(1u << (bit % 8));
}

static int is_start(const struct dispatch *d, uint64_t addr)
{
	const struct code_range *r = range_of(d, addr);
	uint64_t bit = addr - (r ? r->lo : 0);

	return r && (r->starts[bit / 8] >> (bit % 8) & 1);
}

/* Decodes one code range, recording edges into candidate regions. */
static void scan_code(struct dispatch *d, const struct code_range *r)
{
	const struct isa_funcs *fs = &d->o->funcs;
	size_t cur = NONE, prev = NONE, fi;
	ZydisDecodedInstruction in;
	uint64_t refs[3];
	int falls = 0, branch;

	for (uint64_t addr = r->lo; addr < r->hi; addr += in.length) {
		fi = isa_func_at(fs, &cur, 0, addr);
		if (fi != NONE && fs->v[fi].start == addr && falls)
			add_edge(d, prev, fi);
		if (!decode(d, r, addr, &in)) {
			in.length = 1;
			falls = 1, prev = fi;
			continue;
		}
		mark_start(r, addr);
		for (int k = insn_refs(d, &in, addr, refs, &branch); k-- > 0;)
			if (branch || fi == NONE ||
			    !(fs->v[fi].flags & ISA_FUNC_RESOLVER))
				add_edge(d, fi, region_of(d, refs[k]));
		if (in.mnemonic != ZYDIS_MNEMONIC_NOP) {
			falls = falls_through(&in);
			prev = fi;
		}
	}
}

/* Words of allocated non-code sections that are instruction addresses. */
static void scan_data(struct dispatch *d)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	int pic = d->o->ehdr.e_type == ET_DYN;

	while ((scn = elf_nextscn(d->o->elf, scn))) {
		Elf_Data *data;
		const uint8_t *p;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) ||
		    (sh.sh_flags & SHF_EXECINSTR) || sh.sh_type == SHT_NOBITS ||
		    !(data = elf_getdata(scn, NULL)) || !data->d_buf)
			continue;
		p = data->d_buf;
		for (size_t off = 0; off + 4 <= data->d_size; off += 4) {
			uint64_t v64 = 0;
			uint32_t v32;

			memcpy(&v32, p + off, 4);
			if (off + 8 <= data->d_size)
				memcpy(&v64, p + off, 8);
			/* a PIC file has no 32-bit absolute addresses */
			if (!pic && is_start(d, v32))
				add_edge(d, NONE, region_of(d, v32));
			if (is_start(d, v64))
				add_edge(d, NONE, region_of(d, v64));
		}
	}
}

static void fixed_point(struct dispatch *d)
{
	const struct isa_funcs *fs = &d->o->funcs;
	int changed = 1;

	while (changed) {
		changed = 0;
		for (size_t i = 0; i < d->nr_edges; i++) {
			const struct edge *e = &d->edges[i];

			if (!d->active[e->to] || (e->from != NONE &&
			    (d->active[e->from] ||
			     (fs->v[e->from].flags & ISA_FUNC_RESOLVER))))
				continue;
			d->active[e->to] = 0;
			changed = 1;
		}
	}
}

static void release(struct dispatch *d)
{
	for (size_t i = 0; i < d->nr_code; i++)
		free(d->code[i].starts);
	free(d->code);
	free(d->targets);
	free(d->edges);
	free(d->active);
}

int isa_dispatch_mark(struct isa_obj *o, const ZydisDecoder *dec,
		      struct pp_err *err)
{
	struct dispatch d = { .o = o, .dec = dec, .err = err };
	int n = 0;

	if (isa_each_code_section(o, add_range, &d, err) < 0) {
		release(&d);
		return -1;
	}
	if (d.nr_code && find_targets(&d)) {
		for (size_t i = 0; i < d.nr_code; i++)
			scan_code(&d, &d.code[i]);
		scan_data(&d);
		fixed_point(&d);
		for (size_t i = 0; i < o->funcs.nr; i++)
			if (d.active[i] && o->funcs.v[i].why == PP_ISA_COUNTED) {
				o->funcs.v[i].why = PP_ISA_EXEMPT_IFUNC;
				n++;
			}
	}
	release(&d);
	return n;
}
