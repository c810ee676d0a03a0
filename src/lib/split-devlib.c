/* padpack split, packages.dev = "library": which shared library each file
 * for building is for, so that each library gets its own -dev package
 * (as Debian's flac: libflac-dev, libflac++-dev; libjpeg-turbo:
 * libjpeg62-turbo-dev, libturbojpeg0-dev). The default, "auto", is one
 * -dev per source but for a C++ library beside C ones, which gets its
 * own (pp_split_devlibs_cxx_apart); "one" is one -dev, whatever.
 * Layer: below split-assign.c, which asks it; reads staged files. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "shlibs.h"
#include "split-plan.h"
#include "splitint.h"
#include "xalloc.h"

/* "libFLAC++.so.10" -> "flac++": lowercase letters, digits and '+' of
 * the name between "lib" and ".so" (a "lib" prefix dropped from a
 * directory or archive name likewise). */
static char *stem(const char *name, size_t len)
{
	char *out = xmalloc(len + 1), *o = out;

	if (len > 3 && !strncmp(name, "lib", 3)) {
		name += 3;
		len -= 3;
	}
	for (size_t i = 0; i < len; i++)
		if (isalnum((unsigned char)name[i]) || name[i] == '+')
			*o++ = (char)tolower((unsigned char)name[i]);
	*o = '\0';
	return out;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static long find_stem(const struct pp_split_devlibs *d, const char *name,
		      size_t len)
{
	char *want = stem(name, len);
	long hit = -1;

	for (size_t i = 0; i < d->nr && hit < 0; i++)
		if (*want && !strcmp(d->stem[i], want))
			hit = (long)i;
	free(want);
	return hit;
}

/* The library most others need (libFLAC, which libFLAC++ needs), else
 * the first: its -dev takes what names no library. */
static size_t main_library(const struct pp_split_devlibs *d)
{
	size_t best = 0, best_n = 0;

	for (size_t i = 0; i < d->nr; i++) {
		size_t n = 0;

		for (size_t k = 0; k < d->nr; k++)
			n += k != i && d->elf[k] &&
			     pp_strlist_find(&d->elf[k]->needed, d->soname[i]) >= 0;
		if (n > best_n) {
			best = i;
			best_n = n;
		}
	}
	return best;
}

void pp_split_devlibs_init(struct pp_split_devlibs *d,
			   const struct pp_split_stage *st,
			   const struct pp_strlist *sonames)
{
	unsigned seen = 0;

	memset(d, 0, sizeof(*d));
	d->nr = sonames->nr;
	d->soname = xcalloc(d->nr, sizeof(*d->soname));
	d->stem = xcalloc(d->nr, sizeof(*d->stem));
	d->dev = xcalloc(d->nr, sizeof(*d->dev));
	d->elf = xcalloc(d->nr, sizeof(*d->elf));
	d->cxx = xcalloc(d->nr, sizeof(*d->cxx));
	d->syms = xcalloc(d->nr, sizeof(*d->syms));
	d->nr_syms = xcalloc(d->nr, sizeof(*d->nr_syms));
	for (size_t i = 0; i < d->nr; i++) {
		const char *so = sonames->items[i], *dot = strstr(so, ".so");

		d->soname[i] = xstrdup(so);
		d->stem[i] = stem(so, dot ? (size_t)(dot - so) : strlen(so));
		d->dev[i] = pp_soname_dev_package(so);
		if (!d->dev[i])
			d->dev[i] = xstrdup(so);
		for (size_t k = 0; k < st->nr && !d->elf[i]; k++)
			if (st->files[k].c.cls == PP_CLASS_SHLIB &&
			    st->files[k].c.soname &&
			    !strcmp(st->files[k].c.soname, so))
				d->elf[i] = st->files[k].c.elf;
		if (d->elf[i] && d->elf[i]->nr_defined) {
			d->syms[i] = xcalloc(d->elf[i]->nr_defined,
					     sizeof(*d->syms[i]));
			for (size_t k = 0; k < d->elf[i]->nr_defined; k++)
				d->syms[i][d->nr_syms[i]++] =
					d->elf[i]->defined[k].name;
		}
		if (d->nr_syms[i])
			qsort(d->syms[i], d->nr_syms[i], sizeof(*d->syms[i]),
			      cmp_name);
		d->cxx[i] = d->elf[i] &&
			    pp_split_cxx_library(&d->elf[i]->needed);
	}
	for (size_t i = 0; i < d->nr; i++) /* bit 0: C, bit 1: C++ */
		if (d->elf[i])
			seen |= d->cxx[i] ? 2u : 1u;
	d->mixed = seen == 3;
	d->main = main_library(d);
}

int pp_split_devlibs_cxx_apart(struct pp_split_devlibs *d, const char *one)
{
	const struct pp_strlist **needed = xcalloc(d->nr, sizeof(*needed));
	int apart;

	for (size_t i = 0; i < d->nr; i++)
		needed[i] = d->elf[i] ? &d->elf[i]->needed : NULL;
	apart = pp_split_cxx_beside_c(needed, d->nr);
	for (size_t i = 0; apart && i < d->nr; i++) {
		if (needed[i] && pp_split_cxx_library(needed[i]))
			continue;
		free(d->dev[i]);
		d->dev[i] = xstrdup(one);
		if (needed[d->main] && pp_split_cxx_library(needed[d->main]))
			d->main = i; /* what names no library: the C -dev */
	}
	free(needed);
	return apart;
}

void pp_split_devlibs_release(struct pp_split_devlibs *d)
{
	for (size_t i = 0; i < d->nr; i++) {
		free(d->soname[i]);
		free(d->stem[i]);
		free(d->dev[i]);
		free(d->syms[i]);
	}
	free(d->soname);
	free(d->stem);
	free(d->dev);
	free(d->elf);
	free(d->cxx);
	free(d->syms);
	free(d->nr_syms);
	memset(d, 0, sizeof(*d));
}

/* The library whose exported functions a header names most often, of
 * those lang allows (-1: any; else 0 for C, 1 for C++). */
static long by_symbols(const struct pp_split_devlibs *d, const char *text,
		       int lang)
{
	size_t *count = xcalloc(d->nr, sizeof(*count)), best_n = 0;
	long best = -1;

	for (const char *p = text; *p;) {
		size_t n = 0;
		char *id;

		if (!isalpha((unsigned char)*p) && *p != '_') {
			p++;
			continue;
		}
		while (isalnum((unsigned char)p[n]) || p[n] == '_')
			n++;
		id = xstrndup(p, n);
		for (size_t i = 0; i < d->nr; i++)
			count[i] += d->nr_syms[i] && bsearch(&id, d->syms[i],
				d->nr_syms[i], sizeof(*d->syms[i]), cmp_name);
		free(id);
		p += n;
	}
	for (size_t i = 0; i < d->nr; i++)
		if (count[i] > best_n && (lang < 0 || d->cxx[i] == lang)) {
			best = (long)i;
			best_n = count[i];
		}
	free(count);
	return best;
}

/* The library a .pc file's own name names (libpcrecpp.pc, flac++.pc),
 * or -1. */
static long pc_own(const struct pp_split_devlibs *d, const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t n = strlen(base);

	if (n > 3 && !strcmp(base + n - 3, ".pc"))
		n -= 3;
	return find_stem(d, base, n);
}

long pp_split_devlib_pc(const struct pp_split_devlibs *d, const char *path,
			const char *text)
{
	long own = pc_own(d, path), first = -1;

	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *p;

		if (strncmp(l, "Libs:", 5))
			continue;
		for (p = l + 5; *p && *p != '\n'; p++) {
			size_t n;
			long hit;

			if (strncmp(p, "-l", 2))
				continue;
			p += 2;
			n = strcspn(p, " \t\n");
			hit = n ? find_stem(d, p, n) : -1;
			if (hit >= 0 && hit == own)
				return hit;
			if (hit >= 0 && first < 0)
				first = hit;
			p += n ? n - 1 : 0;
		}
	}
	return first;
}

/* The main library, or where it is not of language lang, the first
 * library that is. */
static size_t main_of(const struct pp_split_devlibs *d, int lang)
{
	if (lang < 0 || d->cxx[d->main] == lang)
		return d->main;
	for (size_t i = 0; i < d->nr; i++)
		if (d->elf[i] && d->cxx[i] == lang)
			return i;
	return d->main;
}

size_t pp_split_devlib_header(const struct pp_split_devlibs *d,
			      const char *path, const char *text)
{
	const char *rel = path, *slash;
	int lang = d->mixed ? pp_split_cxx_header(path, text) : -1;
	long hit = -1;

	if (!strncmp(rel, "usr/include/", 12))
		rel += 12;
	if (!strncmp(rel, "x86_64-linux-gnu/", 17))
		rel += 17;
	slash = strchr(rel, '/');
	if (slash)
		hit = find_stem(d, rel, (size_t)(slash - rel));
	if (hit < 0)
		hit = by_symbols(d, text, lang);
	return hit >= 0 ? (size_t)hit : main_of(d, lang);
}

const char *pp_split_devlib_of(const struct pp_split_devlibs *d,
			       const struct pp_split_stage *st,
			       const struct pp_split_file *f)
{
	const char *base = strrchr(f->path, '/') ? strrchr(f->path, '/') + 1 :
			   f->path;
	struct strbuf src = STRBUF_INIT, text = STRBUF_INIT;
	struct pp_err err;
	long hit = -1;

	if (f->c.cls == PP_CLASS_DEV_LINK && f->c.soname) {
		for (size_t i = 0; i < d->nr && hit < 0; i++)
			if (!strcmp(d->soname[i], f->c.soname))
				hit = (long)i;
	} else if (f->c.cls != PP_CLASS_HEADER &&
		   f->c.cls != PP_CLASS_PKGCONFIG) /* libFLAC++.a, .m4 */
		hit = find_stem(d, base, strcspn(base, "."));
	if (hit < 0 && (f->c.cls == PP_CLASS_HEADER ||
			f->c.cls == PP_CLASS_PKGCONFIG) &&
	    S_ISREG(f->st.st_mode)) {
		pp_err_init(&err);
		pp_split_file_source(st, f, &src);
		if (pp_read_file(src.buf, &text, &err) == 0)
			hit = f->c.cls != PP_CLASS_HEADER ?
			      pp_split_devlib_pc(d, f->path, text.buf) :
			      (long)pp_split_devlib_header(d, f->path,
							   text.buf);
		pp_err_release(&err);
	}
	strbuf_release(&src);
	strbuf_release(&text);
	return d->dev[hit >= 0 ? (size_t)hit : d->main];
}
