/* padpack split, control files: each package's DEBIAN/control rendered
 * from its role's template (control-templates/ROLE.control), with the
 * computed fields (Package, Source, Version, Architecture, Maintainer,
 * Section, Priority, Multi-Arch, Depends, Provides, Conflicts, Replaces)
 * and the spec's overrides, in dpkg-gencontrol's field order. */
#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "control.h"
#include "fsutil.h"
#include "split-plan.h"
#include "splitint.h"
#include "xalloc.h"

/* ---- descriptions ----------------------------------------------------- */

static void flush_paragraph(struct strbuf *words, struct strbuf *out)
{
	const char *p = words->buf;
	size_t col = 0;

	while (*p) {
		size_t n = strcspn(p, " ");

		if (n) {
			if (col && col + 1 + n > 78) {
				strbuf_addch(out, '\n');
				col = 0;
			}
			strbuf_addstr(out, col ? " " : " ");
			strbuf_add(out, p, n);
			col += n + 1;
		}
		p += n;
		p += strspn(p, " ");
	}
	strbuf_reset(words);
}

void pp_wrap_description(const char *value, struct strbuf *out)
{
	const char *nl = strchr(value, '\n'), *p;
	struct strbuf words = STRBUF_INIT, body = STRBUF_INIT;

	strbuf_add(out, value, nl ? (size_t)(nl - value) : strlen(value));
	for (p = nl; p && *p;) {
		const char *line = p + 1, *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) : strlen(line);
		int sep = n == 2 && !strncmp(line, " .", 2);
		int verbatim = n > 2 && !strncmp(line, "  ", 2);

		if (sep || verbatim) {
			if (words.len)
				flush_paragraph(&words, &body);
			if (body.len && body.buf[body.len - 1] != '\n')
				strbuf_addch(&body, '\n');
			/* no separator first, nor two in a row */
			if (verbatim)
				strbuf_addf(&body, "%.*s\n", (int)n, line);
			else if (body.len && strcmp(body.buf + body.len - 3, " .\n") &&
				 !(body.len == 3 && !strcmp(body.buf, " .\n")))
				strbuf_addstr(&body, " .\n");
		} else if (n > 0 && strspn(line, " ") < n) {
			if (words.len)
				strbuf_addch(&words, ' ');
			strbuf_add(&words, line, n);
		}
		p = end;
	}
	if (words.len)
		flush_paragraph(&words, &body);
	strbuf_rtrim(&body);
	while (body.len >= 2 && !strcmp(body.buf + body.len - 2, " ."))
		strbuf_setlen(&body, body.len - 2), strbuf_rtrim(&body);
	if (body.len)
		strbuf_addf(out, "\n%s%s", body.buf[0] == ' ' ? "" : " ",
			    body.buf);
	strbuf_release(&words);
	strbuf_release(&body);
}

/* The spec's paragraph(s) as continuation lines: blank lines separate
 * paragraphs (" ."), other line breaks are spaces. */
static char *description_lines(const char *text)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *p = text; *p; p++) {
		if (p[0] == '\n' && p[1] == '\n') {
			strbuf_addstr(&sb, "\n .\n ");
			while (p[1] == '\n')
				p++;
		} else {
			strbuf_addch(&sb, *p == '\n' ? ' ' : *p);
		}
	}
	return strbuf_detach(&sb, NULL);
}

/* ---- placeholders ----------------------------------------------------- */

void pp_vars_add(struct pp_vars *v, const char *name, const char *value)
{
	pp_strlist_push(&v->names, name);
	pp_strlist_push(&v->values, value ? value : "");
}

void pp_vars_release(struct pp_vars *v)
{
	pp_strlist_release(&v->names);
	pp_strlist_release(&v->values);
}

int pp_vars_expand(const struct pp_vars *v, const char *text, const char *file,
		   unsigned line, struct strbuf *out, struct pp_err *err)
{
	const char *p = text, *at, *end;

	while ((at = strchr(p, '@')) && (end = strchr(at + 1, '@'))) {
		char *name = xstrndup(at + 1, (size_t)(end - at - 1));
		long i = pp_strlist_find(&v->names, name);
		int word = *name && strspn(name, "abcdefghijklmnopqrstuvwxyz_")
			   == strlen(name);

		strbuf_add(out, p, (size_t)(at - p));
		if (i < 0 && word) {
			char *known = pp_strlist_join(&v->names, "@, @");

			pp_err_set(err, PP_EXIT_INPUT, "%s:%u: unknown "
				   "placeholder @%s@; known: @%s@", file, line,
				   name, known);
			free(known);
			free(name);
			return -1;
		}
		if (i < 0) {
			strbuf_addch(out, '@');
			p = at + 1;
		} else {
			strbuf_addstr(out, v->values.items[i]);
			p = end + 1;
		}
		free(name);
	}
	strbuf_addstr(out, p);
	return 0;
}

/* Expands a template line by line: fields left empty are dropped, as
 * dpkg-gencontrol drops empty substitutions, and so are continuation
 * lines left blank. */
static int render_template(const struct pp_vars *v, const char *text,
			   const char *file, struct strbuf *out,
			   struct pp_err *err)
{
	const char *p = text;
	unsigned line = 0;

	while (*p) {
		const char *end = strchr(p, '\n');
		char *raw = xstrndup(p, end ? (size_t)(end - p) : strlen(p));
		struct strbuf x = STRBUF_INIT;
		int rc;

		line++;
		rc = raw[0] == '#' ? 0 : pp_vars_expand(v, raw, file, line, &x, err);
		if (rc == 0 && raw[0] != '#') {
			const char *colon = strchr(x.buf, ':');
			int cont = x.buf[0] == ' ' || x.buf[0] == '\t';

			strbuf_rtrim(&x);
			if (cont ? strspn(x.buf, " \t") < x.len :
			    (colon && colon[1 + strspn(colon + 1, " \t")]))
				strbuf_addf(out, "%s\n", x.buf);
		}
		strbuf_release(&x);
		free(raw);
		if (rc < 0)
			return -1;
		p = end ? end + 1 : p + strlen(p);
	}
	return 0;
}

/* ---- computed values -------------------------------------------------- */

static const char *tools_section(const struct pp_split *s)
{
	return s->spec->section ? s->spec->section :
		pp_split_tools_section(s->spec->summary, NULL);
}

static const char *section_of(const struct pp_split *s,
			      const struct pp_split_pkg *p)
{
	switch (p->role) {
	case PP_ROLE_RUNTIME: return "libs";
	case PP_ROLE_DEV: return "libdevel";
	case PP_ROLE_DOC: return "doc";
	case PP_ROLE_PYTHON: return "python";
	case PP_ROLE_DBGSYM: return "debug";
	/* programs: from the summary's words, else utils (split-rules.c) */
	case PP_ROLE_TOOLS: return tools_section(s);
	case PP_ROLE_DATA: return pp_split_data_section(p->base, tools_section(s));
	default: return s->spec->section ? s->spec->section : "misc";
	}
}

/* Whether one of p's *-config scripts names the multiarch directory
 * (xml2-config's -L/usr/lib/x86_64-linux-gnu): the file then differs
 * from one architecture to another, which Multi-Arch: same forbids
 * (lintian: old-style-config-script-multiarch-path). */
static int arch_config_script(const struct pp_split *s,
			      const struct pp_split_pkg *p)
{
	int found = 0;

	for (size_t i = 0; !found && s->triplet && i < p->nr_files; i++) {
		const struct pp_split_file *f = pp_split_at(s, p->files[i]);
		struct strbuf src = STRBUF_INIT, text = STRBUF_INIT;
		struct pp_err err;

		if (!S_ISREG(f->st.st_mode) || f->c.elf ||
		    fnmatch("usr/bin/*-config", f->path, FNM_PATHNAME))
			continue;
		pp_err_init(&err);
		pp_split_file_source(&s->stages[p->files[i].stage], f, &src);
		if (pp_read_file(src.buf, &text, &err) == 0)
			found = strstr(text.buf, s->triplet) != NULL;
		pp_err_release(&err);
		strbuf_release(&src);
		strbuf_release(&text);
	}
	return found;
}

/* An extension module whose name carries the triplet
 * (libxml2mod.cpython-311-x86_64-linux-gnu.so): every architecture's
 * can be installed at once, as Debian's python3-libxml2. */
static int tagged_modules(const struct pp_split *s, const struct pp_split_pkg *p)
{
	int elf = 0;

	for (size_t i = 0; s->triplet && i < p->nr_files; i++) {
		const struct pp_split_file *f = pp_split_at(s, p->files[i]);

		if (!f->c.elf)
			continue;
		if (!strstr(strrchr(f->path, '/') ? strrchr(f->path, '/') :
			    f->path, s->triplet))
			return 0;
		elf = 1;
	}
	return elf;
}

/* Whether p holds an ELF file outside the multiarch directories (a
 * program in /usr/lib/NAME/): another architecture's package would ship
 * the same path with other contents, which Multi-Arch: same forbids
 * (lintian: arch-dependent-file-not-in-arch-specific-directory). */
static int arch_file_outside(const struct pp_split *s,
			     const struct pp_split_pkg *p)
{
	for (size_t i = 0; s->triplet && i < p->nr_files; i++) {
		const struct pp_split_file *f = pp_split_at(s, p->files[i]);

		if (f->c.elf && !S_ISLNK(f->st.st_mode) &&
		    !strstr(f->path, s->triplet))
			return 1;
	}
	return 0;
}

static const char *multi_arch_of(const struct pp_split *s,
				 const struct pp_split_pkg *p)
{
	switch (p->role) {
	case PP_ROLE_RUNTIME:
		return p->arch_all ? "foreign" :
		       arch_file_outside(s, p) ? "" : "same";
	case PP_ROLE_DEV:
		return p->arch_all ? "foreign" :
		       arch_config_script(s, p) ? "" : "same";
	case PP_ROLE_DBGSYM:
		return multi_arch_of(s, &s->pkgs[p->parent]);
	case PP_ROLE_PYTHON:
		return !p->arch_all && tagged_modules(s, p) ? "same" : "";
	default:
		return "foreign";
	}
}

static void list_sonames(const struct pp_split *s, const struct pp_split_pkg *p,
			 struct strbuf *out)
{
	struct pp_strlist levels = PP_STRLIST_INIT;

	for (size_t i = 0; i < p->nr_files; i++) {
		const struct pp_split_file *f = pp_split_at(s, p->files[i]);

		if (f->c.cls == PP_CLASS_SHLIB && f->hwcaps &&
		    pp_strlist_find(&levels, f->hwcaps) < 0)
			pp_strlist_push(&levels, f->hwcaps);
		else if (f->c.cls == PP_CLASS_SHLIB && !f->hwcaps)
			strbuf_addf(out, "%s%s", out->len ? ", " : "",
				    f->c.soname);
	}
	for (size_t i = 0; i < levels.nr; i++)
		strbuf_addf(out, "%s%s", !i ? ", with glibc-hwcaps builds for " :
			    i + 1 < levels.nr ? ", " : " and ", levels.items[i]);
	if (levels.nr)
		strbuf_addstr(out, " (the dynamic loader takes the best this "
			      "CPU runs)");
	pp_strlist_release(&levels);
}

/* The other packages of the same role and base, one per variant. */
static void siblings(const struct pp_split *s, const struct pp_split_pkg *p,
		     struct pp_strlist *out)
{
	for (size_t i = 0; i < s->nr_pkgs; i++) {
		const struct pp_split_pkg *q = &s->pkgs[i];

		if (q != p && q->variant && !q->common && q->role == p->role &&
		    !strcmp(q->base, p->base))
			pp_strlist_push(out, q->name);
	}
}

static void variant_text(const struct pp_split *s, const struct pp_split_pkg *p,
			 struct strbuf *out)
{
	struct pp_strlist sib = PP_STRLIST_INIT;
	const struct pp_variant *v = p->role == PP_ROLE_DBGSYM ? NULL : p->variant;

	if (p->common || (!v && s->spec->nr_variants > 1 &&
			  p->role != PP_ROLE_DBGSYM)) {
		strbuf_addstr(out, p->common ? "It holds the files that are the "
			      "same in every variant:" : "It serves every "
			      "variant:");
		for (size_t i = 0; i < s->nr_stages; i++)
			strbuf_addf(out, "%s %s", i ? "," : "",
				    s->stages[i].variant->name);
		strbuf_addch(out, '.');
		return;
	}
	if (!v)
		return;
	strbuf_addf(out, PP_VARIANT_SAYS_HEAD "%s" PP_VARIANT_SAYS_TAIL,
		    v->name);
	for (size_t a = 0; a < s->spec->nr_axes; a++) {
		const struct pp_axis *ax = &s->spec->axes[a];

		strbuf_addf(out, "%s%s %s", a ? ", " : "", ax->name,
			    v->values[a]->name);
		for (size_t i = 0; ax->hwcaps && i < ax->nr_values; i++)
			if (i != ax->hwcaps_base)
				strbuf_addf(out, "+%s", ax->values[i].name);
	}
	strbuf_addch(out, ')');
	siblings(s, p, &sib);
	if (sib.nr) {
		char *all = pp_strlist_join(&sib, ", ");

		strbuf_addf(out, "; %s hold the same files built for the other "
			    "variants, and %s", all, s->spec->coinstallable ?
			    "all can be installed at once" :
			    "installing one replaces another");
		free(all);
	}
	strbuf_addch(out, '.');
	pp_strlist_release(&sib);
}

/* Whether text starts with the word name, as lintian reads a synopsis. */
static int starts_with_name(const char *text, const char *name)
{
	size_t n = strlen(name);

	return !strncasecmp(text, name, n) && !isalnum((unsigned char)text[n]);
}

static int is_filler(const char *word, size_t n);

static size_t cut_clause(const char *summary, size_t limit)
{
	size_t n = strcspn(summary, ",;:(");

	if (n > limit) {
		n = limit;
		while (n && summary[n] != ' ')
			n--;
	}
	while (n && summary[n - 1] == ' ')
		n--;
	for (;;) {
		size_t w = n;

		while (w && summary[w - 1] != ' ')
			w--;
		if (!w || !is_filler(summary + w, n - w))
			break;
		n = w;
		while (n && summary[n - 1] == ' ')
			n--;
	}
	return n ? n : limit;
}

static int is_filler(const char *word, size_t n)
{
	static const char *const fillers[] = { "a", "an", "and", "for", "in",
		"of", "or", "the", "to", "with", NULL };

	for (const char *const *f = fillers; *f; f++)
		if (strlen(*f) == n && !strncasecmp(word, *f, n))
			return 1;
	return 0;
}

char *pp_split_default_title(const char *summary, const char *package,
			     size_t max)
{
	size_t n = strlen(summary), limit = max < 39 ? max : 39;
	char *out;

	/* the summary when it fits, else up to its first clause, within 39
	 * characters cut at a word, without a dangling "and" or "for" */
	if (n > max)
		n = cut_clause(summary, limit);
	out = xstrndup(summary, n);
	/* lintian: a synopsis does not start with the package's name */
	if (starts_with_name(out, package)) {
		char *t = xmalloc(n + 5);

		sprintf(t, "the %s", out);
		free(out);
		out = t;
	}
	return out;
}

static void fill_vars(const struct pp_split *s, const struct pp_split_pkg *p,
		      const char *depends, struct pp_vars *v)
{
	const struct pp_spec *spec = s->spec;
	struct strbuf note = STRBUF_INIT, sonames = STRBUF_INIT,
		      vtext = STRBUF_INIT;
	char *desc = description_lines(spec->description);
	char *title;

	if (p->common)
		strbuf_addstr(&note, " (common files)");
	else if (p->variant && s->spec->nr_variants > 1)
		strbuf_addf(&note, " (%s)", p->variant->name);
	list_sonames(s, p, &sonames);
	variant_text(s, p, &vtext);
	/* room for " - development files", the longest role's words */
	title = spec->title ? xstrdup(spec->title) :
		pp_split_default_title(spec->summary, p->name, 59 - note.len);
	pp_vars_add(v, "name", spec->name);
	pp_vars_add(v, "package", p->name);
	pp_vars_add(v, "version", s->version);
	pp_vars_add(v, "upstream", s->upstream);
	pp_vars_add(v, "title", title);
	pp_vars_add(v, "summary", spec->summary);
	pp_vars_add(v, "description", desc);
	pp_vars_add(v, "homepage", spec->homepage);
	pp_vars_add(v, "maintainer", spec->maintainer);
	pp_vars_add(v, "variant", p->variant ? p->variant->name : "");
	pp_vars_add(v, "variant_note", note.buf);
	pp_vars_add(v, "variant_text", vtext.buf);
	pp_vars_add(v, "sonames", sonames.buf);
	pp_vars_add(v, "parent", p->parent >= 0 ? s->pkgs[p->parent].name : "");
	pp_vars_add(v, "section", section_of(s, p));
	pp_vars_add(v, "priority", "optional");
	pp_vars_add(v, "multi_arch", multi_arch_of(s, p));
	pp_vars_add(v, "depends", depends);
	free(desc);
	free(title);
	strbuf_release(&note);
	strbuf_release(&sonames);
	strbuf_release(&vtext);
}

/* ---- relations -------------------------------------------------------- */

static void relations(const struct pp_split *s, const struct pp_split_pkg *p,
		      struct pp_vars *v)
{
	struct pp_strlist sib = PP_STRLIST_INIT;
	struct strbuf prov = STRBUF_INIT;
	char *list;

	if (p->variant && !p->common && p->role != PP_ROLE_DBGSYM) {
		if (!s->spec->coinstallable)
			siblings(s, p, &sib);
		if (strcmp(p->name, p->base))
			strbuf_addf(&prov, "%s (= %s)", p->base, s->version);
	}
	/* the generic names its alternatives give, as Debian's
	 * libopenblas0-pthread provides libblas.so.3 */
	for (size_t i = 0; i < p->alt_provides.nr; i++)
		strbuf_addf(&prov, "%s%s", prov.len ? ", " : "",
			    p->alt_provides.items[i]);
	list = pp_strlist_join(&sib, ", ");
	pp_vars_add(v, "provides", prov.buf);
	pp_vars_add(v, "conflicts", list);
	pp_vars_add(v, "replaces", list);
	free(list);
	strbuf_release(&prov);
	pp_strlist_release(&sib);
}

/* Normalises a relationship field: empty entries left by empty
 * substitutions go, and each package appears once. */
static void tidy_relations(struct pp_stanza *st, const char *name)
{
	struct pp_field *f = pp_stanza_find(st, name);
	struct pp_strlist parts = PP_STRLIST_INIT;
	char *copy, *save = NULL, *part;

	if (!f)
		return;
	copy = xstrdup(f->value);
	for (part = strtok_r(copy, ",", &save); part;
	     part = strtok_r(NULL, ",", &save)) {
		char *t = part + strspn(part, " \t\n");
		size_t n = strlen(t);

		while (n && isspace((unsigned char)t[n - 1]))
			t[--n] = '\0';
		if (n && pp_strlist_find(&parts, t) < 0)
			pp_strlist_push(&parts, t);
	}
	free(copy);
	if (parts.nr) {
		char *joined = pp_strlist_join(&parts, ", ");

		pp_stanza_set(st, name, joined);
		free(joined);
	} else {
		pp_stanza_remove(st, name);
	}
	pp_strlist_release(&parts);
}

/* ---- the stanza ------------------------------------------------------- */

static int read_template(const struct pp_split *s, const struct pp_split_pkg *p,
			 struct strbuf *text, char **file, struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT;

	if (s->spec->templates)
		strbuf_addstr(&path, s->spec->templates);
	else
		strbuf_addf(&path, "%s/control-templates", s->opts.datadir);
	strbuf_addf(&path, "/%s.control", pp_role_name(p->role));
	*file = strbuf_detach(&path, NULL);
	return pp_read_file(*file, text, err);
}

int pp_split_isa_asked(const struct pp_spec *spec)
{
	for (size_t a = 0; a < spec->nr_axes; a++)
		for (size_t v = 0; v < spec->axes[a].nr_values; v++) {
			const struct pp_axis_value *val = &spec->axes[a].values[v];

			if (val->isa || val->forbid_isa.nr || val->isa_require.nr)
				return 1;
		}
	return spec->nr_isa_dispatch > 0;
}

static void set_computed(const struct pp_split *s, const struct pp_split_pkg *p,
			 struct pp_stanza *st)
{
	pp_stanza_set(st, "Package", p->name);
	pp_stanza_set(st, "Source", s->spec->name);
	pp_stanza_set(st, "Version", s->version);
	pp_stanza_set(st, "Architecture", p->arch_all ? "all" : s->arch);
	pp_stanza_set(st, "Maintainer", s->spec->maintainer);
	if (p->build_ids.nr) {
		char *ids = pp_strlist_join(&p->build_ids, " ");

		pp_stanza_set(st, "Build-Ids", ids);
		free(ids);
	}
	/* the field of the ISA proof, where the spec asks for one (a field
	 * Debian does not know: lintian's unknown-field) */
	if (p->isa && pp_split_isa_asked(s->spec))
		pp_stanza_set(st, "Isa-Level", p->isa);
}

int pp_split_rule_names(const struct pp_split *s, const struct pp_split_pkg *p,
			const struct pp_control_rule *r, struct pp_err *err)
{
	struct pp_expand_ctx ec = { s->spec, p->variant, s->upstream, 1, 1,
				    NULL };
	struct strbuf glob = STRBUF_INIT;
	int hit = pp_spec_expand(r->package, &ec, &glob, err);

	if (hit == 0)
		hit = !fnmatch(glob.buf, p->name, 0);
	strbuf_release(&glob);
	return hit;
}

/* The spec's control rules whose glob names the package, in order. */
static int apply_overrides(const struct pp_split *s, const struct pp_split_pkg *p,
			   struct pp_stanza *st, struct pp_err *err)
{
	const struct pp_spec *spec = s->spec;
	struct pp_expand_ctx ec = { spec, p->variant, s->upstream, 1, 1, NULL };

	for (size_t i = 0; i < spec->nr_control; i++) {
		const struct pp_control_rule *r = &spec->control[i];
		int hit = pp_split_rule_names(s, p, r, err);

		if (hit < 0)
			return -1;
		for (size_t k = 0; hit && k < r->fields.nr; k++) {
			const char *eq = strchr(r->fields.items[k], '=');
			char *name = xstrndup(r->fields.items[k],
					      (size_t)(eq - r->fields.items[k]));
			struct strbuf val = STRBUF_INIT;
			int rc = pp_spec_expand(eq + 1, &ec, &val, err);

			if (rc == 0 && val.len)
				pp_stanza_set(st, name, val.buf);
			else if (rc == 0)
				pp_stanza_remove(st, name);
			free(name);
			strbuf_release(&val);
			if (rc < 0)
				return -1;
		}
	}
	return 0;
}

/* Field order as dpkg-gencontrol writes it: a stanza built by setting
 * each field in turn. */
static void reorder(struct pp_stanza *st)
{
	struct pp_stanza out;

	pp_stanza_init(&out);
	for (size_t i = 0; i < st->nr; i++)
		pp_stanza_set(&out, st->fields[i].name, st->fields[i].value);
	pp_stanza_release(st);
	*st = out;
}

static int check_synopsis(const struct pp_split_pkg *p, const char *tmpl,
			  const struct pp_stanza *st, struct pp_err *err)
{
	const char *d = pp_stanza_get(st, "Description");
	size_t n = d ? strcspn(d, "\n") : 0;

	if (!d || !n)
		return pp_err_set(err, PP_EXIT_INPUT, "%s: package %s has no "
				  "Description; give the template one",
				  tmpl, p->name);
	if (starts_with_name(d, p->name))
		return pp_err_set(err, PP_EXIT_INPUT, "%s: the synopsis of %s "
				  "starts with the package's name (\"%.*s\"), "
				  "which Debian rejects: set packages.title in "
				  "the spec to a name that does not", tmpl,
				  p->name, (int)n, d);
	if (n >= 80)
		return pp_err_set(err, PP_EXIT_INPUT, "%s: the synopsis of %s "
				  "is %zu characters long (\"%.*s\"); Debian "
				  "wants under 80: set packages.title in the "
				  "spec to a shorter name", tmpl, p->name, n,
				  (int)n, d);
	return 0;
}

static int build_stanza(const struct pp_split *s, size_t pkg,
			const char *depends, struct pp_stanza *st,
			struct pp_err *err)
{
	const struct pp_split_pkg *p = &s->pkgs[pkg];
	struct strbuf tmpl = STRBUF_INIT, text = STRBUF_INIT, desc = STRBUF_INIT;
	struct pp_vars v = { PP_STRLIST_INIT, PP_STRLIST_INIT };
	char *file = NULL;
	int rc;

	fill_vars(s, p, depends, &v);
	relations(s, p, &v);
	rc = read_template(s, p, &tmpl, &file, err);
	if (rc == 0)
		rc = render_template(&v, tmpl.buf, file, &text, err);
	if (rc == 0)
		rc = pp_control_parse(text.buf, text.len, file, st, err);
	if (rc == 0) {
		set_computed(s, p, st);
		rc = apply_overrides(s, p, st, err);
	}
	if (rc == 0 && pp_stanza_get(st, "Description")) {
		pp_wrap_description(pp_stanza_get(st, "Description"), &desc);
		pp_stanza_set(st, "Description", desc.buf);
	}
	if (rc == 0) {
		static const char *const rel[] = { "Pre-Depends", "Depends",
			"Recommends", "Suggests", "Provides", "Conflicts",
			"Breaks", "Replaces", NULL };

		for (const char *const *r = rel; *r; r++)
			tidy_relations(st, *r);
		reorder(st);
		rc = check_synopsis(p, file, st, err);
	}
	free(file);
	pp_vars_release(&v);
	strbuf_release(&tmpl);
	strbuf_release(&text);
	strbuf_release(&desc);
	return rc;
}

int pp_split_control(const struct pp_split *s, size_t pkg, const char *depends,
		     const char *root, struct pp_err *err)
{
	struct pp_split_pkg *p = &((struct pp_split *)s)->pkgs[pkg];
	struct pp_stanza st;
	struct strbuf out = STRBUF_INIT, path = STRBUF_INIT;
	const char *d;
	int rc;

	pp_stanza_init(&st);
	rc = build_stanza(s, pkg, depends, &st, err);
	if (rc == 0 && pp_control_check_binary(&st, p->name, err) < 0)
		rc = -1;
	if (rc == 0) {
		d = pp_stanza_get(&st, "Description");
		free(p->synopsis);
		p->synopsis = xstrndup(d, strcspn(d, "\n"));
		free(p->section);
		p->section = xstrdup(pp_stanza_get(&st, "Section") ?
				     pp_stanza_get(&st, "Section") : "-");
		free(p->priority);
		p->priority = xstrdup(pp_stanza_get(&st, "Priority") ?
				      pp_stanza_get(&st, "Priority") : "-");
		pp_stanza_write(&st, &out);
		strbuf_addf(&path, "%s/DEBIAN/control", root);
		rc = pp_write_file(path.buf, out.buf, out.len, 0644, err);
	}
	pp_stanza_release(&st);
	strbuf_release(&out);
	strbuf_release(&path);
	return rc;
}
