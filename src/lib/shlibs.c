/* SONAME package names, shlibs and symbols files. */
#include "shlibs.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "version.h"
#include "xalloc.h"

int pp_soname_split(const char *soname, char **name, char **version)
{
	const char *so = strstr(soname, ".so.");
	size_t len = strlen(soname);

	*name = *version = NULL;
	if (so && so > soname && so[4]) {
		/* NAME.so.VER: the last ".so." splits it, as dpkg's greedy
		 * /^(.+)\.so\.(.+)$/ does. */
		const char *last = so;

		while ((so = strstr(so + 1, ".so.")) && so[4])
			last = so;
		*name = xstrndup(soname, (size_t)(last - soname));
		*version = xstrdup(last + 4);
		return 0;
	}
	if (len > 3 && !strcmp(soname + len - 3, ".so")) {
		/* NAME-VER.so with VER starting with a digit */
		for (const char *d = soname + len - 4; d > soname; d--)
			if (*d == '-' && isdigit((unsigned char)d[1])) {
				*name = xstrndup(soname, (size_t)(d - soname));
				*version = xstrndup(d + 1, (size_t)(soname + len -
								3 - d - 1));
				return 0;
			}
	}
	return -1;
}

static void lower_dashes(char *s)
{
	for (; *s; s++)
		*s = *s == '_' ? '-' : (char)tolower((unsigned char)*s);
}

char *pp_soname_package(const char *soname)
{
	char *name, *ver, *out;
	size_t n;

	if (pp_soname_split(soname, &name, &ver) < 0)
		return NULL;
	n = strlen(name);
	out = xmalloc(n + strlen(ver) + 2);
	/* a '-' keeps libfoo2 + 0 from reading as libfoo20 */
	sprintf(out, "%s%s%s", name, isdigit((unsigned char)name[n - 1]) ||
		!strncmp(soname + n, "-", 1) ? "-" : "", ver);
	lower_dashes(out);
	free(name);
	free(ver);
	return out;
}

char *pp_soname_dev_package(const char *soname)
{
	char *name, *ver, *out;

	if (pp_soname_split(soname, &name, &ver) < 0)
		return NULL;
	out = xmalloc(strlen(name) + 5);
	sprintf(out, "%s-dev", name);
	lower_dashes(out);
	free(name);
	free(ver);
	return out;
}

/* ---- symbols files ---------------------------------------------------- */

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct pp_symbol_entry *)a)->name,
		      ((const struct pp_symbol_entry *)b)->name);
}

/* Whether the tags "(a|b=c)" let the symbol into a plain lookup. */
static int tags_allow(const char *tags, size_t len, const char *arch)
{
	char *t = xstrndup(tags, len), *save = NULL, *tok;
	int ok = 1;

	for (tok = strtok_r(t, "|", &save); tok && ok;
	     tok = strtok_r(NULL, "|", &save)) {
		if (!strcmp(tok, "c++") || !strcmp(tok, "regex") ||
		    !strcmp(tok, "symver"))
			ok = 0; /* a pattern, not a name */
		else if (!strncmp(tok, "arch=", 5) && arch) {
			/* "arch=amd64 i386" or "arch=!armel" */
			char *list = tok + 5, *s2 = NULL, *a;
			int neg = 0, hit = 0;

			for (a = strtok_r(list, " ", &s2); a;
			     a = strtok_r(NULL, " ", &s2)) {
				neg = *a == '!';
				if (!strcmp(a + neg, arch))
					hit = 1;
			}
			ok = neg ? !hit : hit;
		}
	}
	free(t);
	return ok;
}

static void add_entry(struct pp_symbols_object *o, const char *name,
		      size_t nlen, const char *minver, size_t mlen,
		      unsigned dep_id)
{
	struct pp_symbol_entry *e;

	ARRAY_GROW(o->syms, o->alloc_syms, o->nr_syms + 1);
	e = &o->syms[o->nr_syms++];
	e->name = xstrndup(name, nlen);
	e->minver = xstrndup(minver, mlen);
	e->dep_id = dep_id;
}

/* " [(tags)]name@ver minver [dep_id]" */
static int parse_symbol(struct pp_symbols_object *o, const char *line,
			const char *arch)
{
	const char *p = line, *name, *end, *mv;
	size_t nlen, mlen;
	unsigned long dep_id = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '(') {
		const char *close = strchr(p, ')');

		if (!close)
			return -1;
		if (!tags_allow(p + 1, (size_t)(close - p - 1), arch))
			return 0;
		p = close + 1;
	}
	name = p;
	if (*p == '"') { /* quoted names may hold spaces */
		name = ++p;
		end = strchr(p, '"');
		if (!end)
			return -1;
		p = end + 1;
	} else {
		end = p + strcspn(p, " \t");
		p = end;
	}
	nlen = (size_t)(end - name);
	while (*p == ' ' || *p == '\t')
		p++;
	mv = p;
	mlen = strcspn(p, " \t");
	if (!nlen || !mlen)
		return -1;
	p += mlen;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p)
		dep_id = strtoul(p, NULL, 10);
	add_entry(o, name, nlen, mv, mlen, (unsigned)dep_id);
	return 0;
}

static struct pp_symbols_object *add_object(struct pp_symbols_file *sf,
					    const char *line)
{
	struct pp_symbols_object *o;
	size_t sl = strcspn(line, " \t");
	const char *dep = line + sl;

	ARRAY_GROW(sf->objs, sf->alloc, sf->nr + 1);
	o = &sf->objs[sf->nr++];
	memset(o, 0, sizeof(*o));
	o->soname = xstrndup(line, sl);
	while (*dep == ' ' || *dep == '\t')
		dep++;
	pp_strlist_push(&o->deps, dep);
	return o;
}

static void finish_object(struct pp_symbols_object *o)
{
	if (o && o->nr_syms)
		qsort(o->syms, o->nr_syms, sizeof(*o->syms), cmp_entry);
}

static int parse_line(struct pp_symbols_file *sf,
		      struct pp_symbols_object **cur, const char *line,
		      const char *arch)
{
	if (!*line || *line == '#')
		return 0; /* comments, #MISSING (deprecated), #include */
	if (*line == ' ' || *line == '\t')
		return *cur ? parse_symbol(*cur, line, arch) : -1;
	if (*line == '|') {
		const char *d = line + 1;

		while (*d == ' ')
			d++;
		return *cur ? (pp_strlist_push(&(*cur)->deps, d), 0) : -1;
	}
	if (*line == '*') {
		const char *f = line + 1;

		while (*f == ' ')
			f++;
		return *cur ? (pp_strlist_push(&(*cur)->fields, f), 0) : -1;
	}
	finish_object(*cur);
	*cur = add_object(sf, line);
	return 0;
}

int pp_symbols_parse(const char *buf, size_t len, const char *file,
		     const char *arch, struct pp_symbols_file *out,
		     struct pp_err *err)
{
	struct pp_symbols_object *cur = NULL;
	const char *p = buf, *end = buf + len;
	unsigned lineno = 0;

	memset(out, 0, sizeof(*out));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = xstrndup(p, n);
		int rc;

		lineno++;
		while (n && (line[n - 1] == ' ' || line[n - 1] == '\r'))
			line[--n] = '\0';
		rc = parse_line(out, &cur, line, arch);
		free(line);
		if (rc < 0) {
			pp_symbols_release(out);
			return pp_err_set(err, PP_EXIT_INPUT, "%s:%u: not a "
					  "symbols file line (deb-symbols(5)); "
					  "fix or remove the file", file, lineno);
		}
		p = nl ? nl + 1 : end;
	}
	finish_object(cur);
	return 0;
}

void pp_symbols_release(struct pp_symbols_file *sf)
{
	for (size_t i = 0; i < sf->nr; i++) {
		struct pp_symbols_object *o = &sf->objs[i];

		free(o->soname);
		pp_strlist_release(&o->deps);
		pp_strlist_release(&o->fields);
		for (size_t j = 0; j < o->nr_syms; j++) {
			free(o->syms[j].name);
			free(o->syms[j].minver);
		}
		free(o->syms);
	}
	free(sf->objs);
	memset(sf, 0, sizeof(*sf));
}

const struct pp_symbols_object *pp_symbols_find(const struct pp_symbols_file *sf,
						const char *soname)
{
	for (size_t i = 0; i < sf->nr; i++)
		if (!strcmp(sf->objs[i].soname, soname))
			return &sf->objs[i];
	return NULL;
}

const struct pp_symbol_entry *pp_symbols_lookup(
	const struct pp_symbols_object *obj, const char *name_at_version)
{
	struct pp_symbol_entry key = { (char *)name_at_version, NULL, 0 };

	if (!obj->nr_syms)
		return NULL;
	return bsearch(&key, obj->syms, obj->nr_syms, sizeof(*obj->syms),
		       cmp_entry);
}

/* Defined in version.c's terms: a before b. */
static int ver_less(const char *a, const char *b)
{
	struct pp_version va, vb;
	struct pp_err e;
	int less = 0;

	pp_err_init(&e);
	if (pp_version_parse(&va, a, &e) == 0) {
		if (pp_version_parse(&vb, b, &e) == 0) {
			less = pp_version_cmp(&va, &vb) < 0;
			pp_version_release(&vb);
		}
		pp_version_release(&va);
	}
	pp_err_release(&e);
	return less;
}

const char *pp_symbols_smallest(const struct pp_symbols_object *obj)
{
	const char *min = NULL;

	for (size_t i = 0; i < obj->nr_syms; i++)
		if (obj->syms[i].dep_id == 0 &&
		    (!min || ver_less(obj->syms[i].minver, min)))
			min = obj->syms[i].minver;
	return min;
}

const char *pp_symbols_field(const struct pp_symbols_object *obj,
			     const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < obj->fields.nr; i++) {
		const char *f = obj->fields.items[i];

		if (!strncasecmp(f, name, n) && f[n] == ':') {
			f += n + 1;
			while (*f == ' ')
				f++;
			return f;
		}
	}
	return NULL;
}

/* ---- shlibs files ------------------------------------------------------ */

/* "[type:] library version dependencies": fills the words of one line. */
static int shlibs_words(const char *line, char **type, char **lib,
			char **ver, const char **deps)
{
	const char *p = line, *w;
	size_t n;

	*type = *lib = *ver = NULL;
	while (*p == ' ' || *p == '\t')
		p++;
	w = p;
	n = strcspn(p, " \t");
	if (n > 1 && p[n - 1] == ':') {
		*type = xstrndup(p, n - 1);
		p += n;
		while (*p == ' ' || *p == '\t')
			p++;
		w = p;
		n = strcspn(p, " \t");
	}
	if (!n)
		return -1;
	*lib = xstrndup(w, n);
	p += n;
	while (*p == ' ' || *p == '\t')
		p++;
	n = strcspn(p, " \t");
	if (!n)
		return -1;
	*ver = xstrndup(p, n);
	p += n;
	while (*p == ' ' || *p == '\t')
		p++;
	*deps = p;
	return 0;
}

int pp_shlibs_lookup(const char *buf, size_t len, const char *soname,
		     const char *type, char **dep)
{
	char *name, *version;
	const char *p = buf, *end = buf + len;

	*dep = NULL;
	if (pp_soname_split(soname, &name, &version) < 0)
		return 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		char *line = xstrndup(p, nl ? (size_t)(nl - p) : (size_t)(end - p));
		char *t = NULL, *l = NULL, *v = NULL;
		const char *d = NULL;

		if (*line != '#' && shlibs_words(line, &t, &l, &v, &d) == 0 &&
		    !strcmp(l, name) && !strcmp(v, version)) {
			/* an untyped line is a default a typed one overrides */
			if (t ? !strcmp(t, type) : !*dep) {
				size_t dl = strlen(d);

				while (dl && (d[dl - 1] == ' ' || d[dl - 1] == '\r'))
					dl--;
				free(*dep);
				*dep = xstrndup(d, dl);
			}
			if (t && !strcmp(t, type)) {
				free(t); free(l); free(v); free(line);
				break;
			}
		}
		free(t); free(l); free(v); free(line);
		p = nl ? nl + 1 : end;
	}
	free(name);
	free(version);
	return *dep != NULL;
}

int pp_shlibs_line(const char *soname, const char *depends, struct strbuf *out)
{
	char *name, *version;

	if (pp_soname_split(soname, &name, &version) < 0)
		return -1;
	strbuf_addf(out, "%s %s %s\n", name, version, depends);
	free(name);
	free(version);
	return 0;
}

/* Symbols every linker defines, which dpkg-gensymbols leaves out. */
static int is_internal_symbol(const char *name)
{
	static const char *const internal[] = {
		"__bss_end__", "__bss_end", "_bss_end__", "__bss_start",
		"__bss_start__", "__data_start", "_DYNAMIC", "_edata", "_end",
		"__end__", "_fini", "_GLOBAL_OFFSET_TABLE_", "__gmon_start__",
		"_init", "_PROCEDURE_LINKAGE_TABLE_", NULL,
	};

	for (const char *const *i = internal; *i; i++)
		if (!strcmp(*i, name))
			return 1;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int pp_symbols_mostly_cxx(const struct pp_elf_info *lib)
{
	size_t cxx = 0, all = 0;

	for (size_t i = 0; i < lib->nr_defined; i++) {
		const char *name = lib->defined[i].name;

		if (is_internal_symbol(name))
			continue;
		all++;
		cxx += !strncmp(name, "_Z", 2);
	}
	return all && 2 * cxx > all;
}

void pp_symbols_write(const char *soname, const char *package,
		      const char *build_depends_package,
		      const struct pp_elf_info *lib, const char *minver,
		      struct strbuf *out)
{
	struct pp_strlist names = PP_STRLIST_INIT;

	for (size_t i = 0; i < lib->nr_defined; i++) {
		const struct pp_elf_sym *s = &lib->defined[i];

		if (is_internal_symbol(s->name))
			continue;
		pp_strlist_pushf(&names, "%s@%s", s->name,
				 s->version ? s->version : "Base");
	}
	if (names.nr)
		qsort(names.items, names.nr, sizeof(*names.items), cmp_str);
	strbuf_addf(out, "%s %s #MINVER#\n", soname, package);
	if (build_depends_package)
		strbuf_addf(out, "* Build-Depends-Package: %s\n",
			    build_depends_package);
	for (size_t i = 0; i < names.nr; i++)
		if (!i || strcmp(names.items[i], names.items[i - 1]))
			strbuf_addf(out, " %s %s\n", names.items[i], minver);
	pp_strlist_release(&names);
}
