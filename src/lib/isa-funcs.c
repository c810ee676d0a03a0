/* The ISA scan's tables, below both the scan (isa.c) and the ifunc
 * dispatch analysis (isa-dispatch.c), which call down into this file and
 * never the other way: the function starts of an object (sorted, merged,
 * looked up by address) and the walk over its executable sections.
 * Layering, lowest first: isa-names.c, isa-classify.c, isa-funcs.c,
 * isa-dispatch.c, isa.c. */
#include <stdlib.h>
#include <string.h>

#include "isa-internal.h"
#include "xalloc.h"

/* Sets err for a libelf failure in path while reading what. */
int isa_elf_error(struct pp_err *err, const char *path, const char *what)
{
	return pp_err_set(err, PP_EXIT_INPUT, "%s: truncated or malformed ELF "
			  "file (%s: %s); rebuild it or check the copy", path,
			  what, elf_errmsg(-1));
}

/* ---- function starts ---- */

static int func_cmp(const void *a, const void *b)
{
	const struct isa_func *x = a, *y = b;

	if (x->space != y->space)
		return x->space < y->space ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* a named start first, so that it is the one kept; of two aliases
	 * the first by name, so that the name kept does not depend on
	 * qsort's order of equal elements */
	if (!x->name != !y->name)
		return !x->name - !y->name;
	return x->name ? strcmp(x->name, y->name) : 0;
}

void isa_funcs_sort(struct isa_funcs *fs)
{
	size_t n = 0;

	if (!fs->nr)
		return;
	qsort(fs->v, fs->nr, sizeof(*fs->v), func_cmp);
	for (size_t i = 1; i < fs->nr; i++) {
		struct isa_func *keep = &fs->v[n], *f = &fs->v[i];

		if (f->space != keep->space || f->start != keep->start) {
			fs->v[++n] = *f;
			continue;
		}
		/* an alias: the start is exempt if any name matched */
		if (f->end > keep->end)
			keep->end = f->end;
		if (f->why > keep->why)
			keep->why = f->why;
		keep->flags |= f->flags;
	}
	fs->nr = n + 1;
}

size_t isa_funcs_floor(const struct isa_funcs *fs, size_t space,
		       uint64_t addr)
{
	size_t lo = 0, hi = fs->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct isa_func *f = &fs->v[mid];

		if (f->space < space || (f->space == space && f->start <= addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || fs->v[lo - 1].space != space)
		return SIZE_MAX;
	return lo - 1;
}

void isa_funcs_add(struct isa_funcs *fs, uint64_t addr, unsigned flags)
{
	ARRAY_GROW(fs->v, fs->alloc, fs->nr + 1);
	fs->v[fs->nr++] = (struct isa_func){ addr, 0, 0, NULL, PP_ISA_COUNTED,
					     (unsigned char)flags };
}

size_t isa_func_at(const struct isa_funcs *fs, size_t *cur, size_t space,
		   uint64_t addr)
{
	const struct isa_func *f;

	if (*cur == SIZE_MAX || fs->v[*cur].space != space ||
	    fs->v[*cur].start > addr)
		*cur = isa_funcs_floor(fs, space, addr);
	if (*cur == SIZE_MAX)
		return SIZE_MAX;
	while (*cur + 1 < fs->nr && fs->v[*cur + 1].space == space &&
	       fs->v[*cur + 1].start <= addr)
		++*cur;
	f = &fs->v[*cur];
	if (f->end && addr >= f->end)
		return SIZE_MAX;
	return *cur;
}

/* ---- code sections ---- */

int isa_each_code_section(struct isa_obj *o,
			  int (*fn)(struct isa_obj *o, size_t ndx,
				    const GElf_Shdr *sh, const uint8_t *buf,
				    size_t size, void *arg),
			  void *arg, struct pp_err *err)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(o->elf, scn))) {
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh))
			return isa_elf_error(err, o->path, "section header");
		if (!(sh.sh_flags & SHF_EXECINSTR) ||
		    sh.sh_type != SHT_PROGBITS || !sh.sh_size)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || data->d_size != sh.sh_size || !data->d_buf)
			return isa_elf_error(err, o->path, "code section");
		if (fn(o, elf_ndxscn(scn), &sh, data->d_buf, data->d_size,
		       arg) < 0)
			return -1;
	}
	return 0;
}
