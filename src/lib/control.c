#include "control.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xalloc.h"

/* ---- parsing ---------------------------------------------------------- */

void pp_deb822_init(struct pp_deb822 *p, const char *buf, size_t len,
		    const char *file)
{
	p->buf = buf;
	p->len = len;
	p->file = file;
	p->pos = 0;
	p->line = 0;
	p->allow_comments = 0;
	p->kind = PP_DEB822_CONTROL;
}

/* What to write instead, for a file people write; nothing for an index a
 * tool wrote. */
static const char *advice(const struct pp_deb822 *p, const char *text)
{
	return p->kind == PP_DEB822_CONTROL ? text : "";
}

/* Where a comment line is not allowed. */
static const char *in_kind(const struct pp_deb822 *p)
{
	static const char *const in[] = {
		[PP_DEB822_CONTROL] = "here",
		[PP_DEB822_RELEASE] = "in a Release file",
		[PP_DEB822_PACKAGES] = "in a Packages file",
	};

	return in[p->kind];
}

/* Returns the next line (without its LF) or NULL at the end. */
static const char *next_line(struct pp_deb822 *p, size_t *len, int *has_lf)
{
	const char *start, *lf;

	if (p->pos >= p->len)
		return NULL;
	start = p->buf + p->pos;
	lf = memchr(start, '\n', p->len - p->pos);
	*has_lf = lf != NULL;
	*len = lf ? (size_t)(lf - start) : p->len - p->pos;
	p->pos += *len + (lf != NULL);
	p->line++;
	return start;
}

static int is_blank(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return 0;
	return 1;
}

static size_t rtrim_len(const char *s, size_t len)
{
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' ||
		       s[len - 1] == '\r'))
		len--;
	return len;
}

static void add_field(struct pp_stanza *st, const char *name, size_t nlen,
		      const char *value, size_t vlen, unsigned line)
{
	struct pp_field *f;

	ARRAY_GROW(st->fields, st->alloc, st->nr + 1);
	f = &st->fields[st->nr++];
	f->name = xstrndup(name, nlen);
	f->value = xstrndup(value, vlen);
	f->line = line;
}

static void append_continuation(struct pp_field *f, const char *s, size_t len)
{
	size_t old = strlen(f->value);

	f->value = xrealloc(f->value, old + len + 2);
	f->value[old] = '\n';
	memcpy(f->value + old + 1, s, len);
	f->value[old + 1 + len] = '\0';
}

/* The field names of st as the text spells them: whether one is name. */
static int span_named(const struct pp_field_span *f, const char *name,
		      size_t nlen)
{
	return f->nlen == nlen &&
	       (f->name[0] | 0x20) == (name[0] | 0x20) &&
	       !strncasecmp(f->name, name, nlen);
}

const struct pp_field_span *pp_spans_find(const struct pp_stanza_spans *st,
					  const char *name, size_t nlen)
{
	for (size_t i = 0; i < st->nr; i++)
		if (span_named(&st->fields[i], name, nlen))
			return &st->fields[i];
	return NULL;
}

/* Appends s[0..len) as far as its first NUL: a value was a C string
 * each continuation line was appended to. */
static void add_cstr(struct strbuf *out, const char *s, size_t len)
{
	const char *nul = memchr(s, '\0', len);

	strbuf_add(out, s, nul ? (size_t)(nul - s) : len);
}

void pp_field_span_value(const struct pp_field_span *f, struct strbuf *out)
{
	const char *s = f->more, *end = s ? s + f->mlen : NULL;

	add_cstr(out, f->value, f->vlen);
	while (s && s < end) {
		const char *lf = memchr(s, '\n', (size_t)(end - s));
		size_t len = lf ? (size_t)(lf - s) : (size_t)(end - s);

		/* the lines between are comments (allow_comments) */
		if (s[0] == ' ' || s[0] == '\t') {
			strbuf_addch(out, '\n');
			add_cstr(out, s, rtrim_len(s, len));
		}
		s = lf ? lf + 1 : end;
	}
}

void pp_stanza_spans_release(struct pp_stanza_spans *st)
{
	free(st->fields);
	st->fields = NULL;
	st->nr = st->alloc = 0;
}

static int scan_field_line(struct pp_deb822 *p, struct pp_stanza_spans *st,
			   const char *s, size_t len, struct pp_err *err)
{
	const char *colon = memchr(s, ':', len), *v;
	const struct pp_field_span *dup;
	struct pp_field_span *f;
	size_t nlen, vlen;

	if (s[0] == '#')
		return pp_err_set(err, PP_EXIT_INPUT,
				  "%s:%u: comment lines are not allowed %s%s",
				  p->file, p->line, in_kind(p),
				  advice(p, "; remove the line"));
	if (!colon) {
		nlen = 0;
		while (nlen < len && !isspace((unsigned char)s[nlen]))
			nlen++;
		return pp_err_set(err, PP_EXIT_INPUT,
				  "%s:%u: field name '%.*s' must be followed by "
				  "a colon%s", p->file, p->line, (int)nlen, s,
				  advice(p, ": write 'Name: value'"));
	}
	nlen = (size_t)(colon - s);
	if (s[0] == '-')
		return pp_err_set(err, PP_EXIT_INPUT,
				  "%s:%u: field name '%.*s' cannot start with "
				  "a hyphen", p->file, p->line, (int)nlen, s);
	for (size_t i = 0; i < nlen; i++)
		if (!isgraph((unsigned char)s[i]))
			return pp_err_set(err, PP_EXIT_INPUT,
					  "%s:%u: field name '%.*s' contains a "
					  "space or control character",
					  p->file, p->line, (int)nlen, s);
	dup = pp_spans_find(st, s, nlen);
	if (dup)
		return pp_err_set(err, PP_EXIT_INPUT,
				  "%s:%u: duplicate field '%.*s' (first given on "
				  "line %u)%s", p->file, p->line, (int)nlen, s,
				  dup->line, advice(p, "; keep only one"));
	v = colon + 1;
	vlen = len - nlen - 1;
	while (vlen && (*v == ' ' || *v == '\t')) {
		v++;
		vlen--;
	}
	ARRAY_GROW(st->fields, st->alloc, st->nr + 1);
	f = &st->fields[st->nr++];
	*f = (struct pp_field_span){ .name = s, .nlen = nlen, .value = v,
				     .vlen = rtrim_len(v, vlen),
				     .line = p->line };
	return 0;
}

/* A continuation line s of the last field. */
static int scan_continuation(struct pp_deb822 *p, struct pp_stanza_spans *st,
			     const char *s, size_t len, struct pp_err *err)
{
	struct pp_field_span *f = st->nr ? &st->fields[st->nr - 1] : NULL;

	if (!f)
		return pp_err_set(err, PP_EXIT_INPUT,
				  "%s:%u: continuation line without a field "
				  "before it", p->file, p->line);
	if (is_blank(s, len))
		return pp_err_set(err, PP_EXIT_INPUT,
				  "%s:%u: blank line in the value of field "
				  "'%.*s'%s", p->file, p->line, (int)f->nlen,
				  f->name,
				  advice(p, "; write ' .' for an empty line"));
	if (!f->more)
		f->more = s;
	f->mlen = (size_t)(s + len - f->more);
	return 0;
}

/* A value as a C string held it: empty when it starts with a NUL, unless
 * a continuation line was appended. */
static int check_empty_values(struct pp_deb822 *p,
			      const struct pp_stanza_spans *st,
			      struct pp_err *err)
{
	for (size_t i = 0; i < st->nr; i++) {
		const struct pp_field_span *f = &st->fields[i];

		if ((!f->vlen || !f->value[0]) && !f->more)
			return pp_err_set(err, PP_EXIT_INPUT,
					  "%s:%u: field '%.*s' has an empty "
					  "value%s", p->file, f->line,
					  (int)f->nlen, f->name,
					  advice(p, "; give it a value or remove "
						 "it"));
	}
	return 0;
}

int pp_deb822_scan(struct pp_deb822 *p, struct pp_stanza_spans *st,
		   struct pp_err *err)
{
	const char *s;
	size_t len;
	int has_lf = 1;

	st->nr = 0;
	st->line = 0;
	while ((s = next_line(p, &len, &has_lf))) {
		if (!st->nr && is_blank(s, len))
			continue;
		if (p->allow_comments && len && s[0] == '#')
			continue;
		if (len == 0 || (st->nr && is_blank(s, len) && s[0] != ' ' &&
				 s[0] != '\t'))
			break;
		if (s[0] == ' ' || s[0] == '\t') {
			if (scan_continuation(p, st, s, len, err) < 0)
				return -1;
			continue;
		}
		if (!st->nr)
			st->line = p->line;
		if (scan_field_line(p, st, s, len, err) < 0)
			return -1;
	}
	if (!has_lf && st->nr)
		return pp_err_set(err, PP_EXIT_INPUT,
				  "%s:%u: missing newline at the end of the "
				  "file%s", p->file, p->line,
				  advice(p, "; add one"));
	if (check_empty_values(p, st, err) < 0)
		return -1;
	return st->nr ? 1 : 0;
}

/* The stanza scanned, each field copied out. */
static int read_stanza(struct pp_deb822 *p, struct pp_stanza *st,
		       struct pp_err *err)
{
	struct pp_stanza_spans spans = { NULL, 0, 0, 0 };
	struct strbuf value = STRBUF_INIT;
	int r = pp_deb822_scan(p, &spans, err);

	pp_stanza_init(st);
	st->line = spans.line;
	for (size_t i = 0; r > 0 && i < spans.nr; i++) {
		const struct pp_field_span *f = &spans.fields[i];
		struct pp_field *out;

		strbuf_reset(&value);
		pp_field_span_value(f, &value);
		ARRAY_GROW(st->fields, st->alloc, st->nr + 1);
		out = &st->fields[st->nr++];
		out->name = xstrndup(f->name, f->nlen);
		out->value = xstrndup(value.buf, value.len);
		out->line = f->line;
	}
	strbuf_release(&value);
	pp_stanza_spans_release(&spans);
	return r;
}

int pp_deb822_next(struct pp_deb822 *p, struct pp_stanza *st,
		   struct pp_err *err)
{
	int r = read_stanza(p, st, err);

	if (r < 0) /* what was read before the error is not handed out */
		pp_stanza_release(st);
	return r;
}

/* What one stanza of a kind must hold, and what it is called there. */
static const struct {
	const char *needs, *one;
} one_stanza[] = {
	[PP_DEB822_CONTROL] = { "a control file needs at least Package, "
				"Version and Architecture",
				"a binary control file holds exactly one" },
	[PP_DEB822_RELEASE] = { "a Release file needs at least the SHA256 "
				"list of its indices",
				"a Release file holds exactly one" },
	/* (a Packages file is read stanza by stanza, never as one) */
	[PP_DEB822_PACKAGES] = { "one stanza was expected",
				 "one stanza was expected" },
};

int pp_control_parse(const char *buf, size_t len, const char *file,
		     struct pp_stanza *st, struct pp_err *err)
{
	return pp_deb822_parse_one(buf, len, file, PP_DEB822_CONTROL, st, err);
}

int pp_deb822_parse_one(const char *buf, size_t len, const char *file,
			enum pp_deb822_kind kind, struct pp_stanza *st,
			struct pp_err *err)
{
	struct pp_deb822 p;
	struct pp_stanza extra;
	int r;

	pp_deb822_init(&p, buf, len, file);
	p.kind = kind;
	r = pp_deb822_next(&p, st, err);
	if (r < 0)
		goto fail;
	if (r == 0) {
		pp_err_set(err, PP_EXIT_INPUT, "%s: no fields at all; %s", file,
			   one_stanza[kind].needs);
		goto fail;
	}
	r = pp_deb822_next(&p, &extra, err);
	if (r != 0) {
		if (r > 0)
			pp_err_set(err, PP_EXIT_INPUT, "%s:%u: a second stanza "
				   "starts here; %s%s", file, extra.line,
				   one_stanza[kind].one,
				   advice(&p, " (remove the empty line "
					  "before it)"));
		pp_stanza_release(&extra);
		goto fail;
	}
	return 0;
fail:
	pp_stanza_release(st);
	return -1;
}

/* ---- forgiving reading (dpkg-deb --field and friends) ---------------- */

struct lenient {
	struct pp_deb822 p;
	struct pp_stanza *st;
	struct pp_err *err;
};

static void lenient_field(struct lenient *l, const char *s, size_t len)
{
	const char *colon = memchr(s, ':', len), *v;
	size_t nlen = colon ? (size_t)(colon - s) : 0, vlen;
	char *name;

	for (size_t i = 0; i < nlen; i++)
		if (!isgraph((unsigned char)s[i]))
			nlen = 0;
	if (!nlen) {
		pp_warn(l->err, "padpack: warning: %s:%u: not a 'Name: value' "
			"line; skipped: '%.*s'", l->p.file, l->p.line,
			(int)(len > 60 ? 60 : len), s);
		return;
	}
	name = xstrndup(s, nlen);
	if (pp_stanza_find(l->st, name)) {
		pp_warn(l->err, "padpack: warning: %s:%u: duplicate field '%s'; "
			"the first one is used", l->p.file, l->p.line, name);
		free(name);
		return;
	}
	free(name);
	v = colon + 1;
	vlen = len - nlen - 1;
	while (vlen && (*v == ' ' || *v == '\t' || *v == '\r')) {
		v++;
		vlen--;
	}
	add_field(l->st, s, nlen, v, vlen, l->p.line);
}

/* Returns 0 at the end of the stanza. *skipping: the lines continue one
 * that was skipped. */
static int lenient_line(struct lenient *l, const char *s, size_t len,
			int *skipping)
{
	if (!l->st->nr && !*skipping && is_blank(s, len))
		return 1;
	if (is_blank(s, len) && (!len || (s[0] != ' ' && s[0] != '\t')))
		return 0;
	if (s[0] == ' ' || s[0] == '\t') {
		if (!*skipping && !l->st->nr)
			pp_warn(l->err, "padpack: warning: %s:%u: continuation "
				"line without a field before it; skipped",
				l->p.file, l->p.line);
		else if (!*skipping)
			append_continuation(&l->st->fields[l->st->nr - 1], s,
					    len);
		return 1;
	}
	if (!l->st->nr)
		l->st->line = l->p.line;
	*skipping = 0;
	if (s[0] == '#')
		pp_warn(l->err, "padpack: warning: %s:%u: comment line; skipped",
			l->p.file, l->p.line);
	else
		lenient_field(l, s, len);
	*skipping = !l->st->nr ||
		l->st->fields[l->st->nr - 1].line != l->p.line;
	return 1;
}

void pp_control_parse_lenient(const char *buf, size_t len, const char *file,
			      struct pp_stanza *st, struct pp_err *err)
{
	struct lenient l = { .st = st, .err = err };
	const char *s;
	size_t n;
	int has_lf = 1, skipping = 0;

	pp_deb822_init(&l.p, buf, len, file);
	pp_stanza_init(st);
	while ((s = next_line(&l.p, &n, &has_lf)) &&
	       lenient_line(&l, s, n, &skipping))
		;
	if (!has_lf)
		pp_warn(err, "padpack: warning: %s:%u: no newline at the end of "
			"the file", file, l.p.line);
	/* As dpkg: blanks inside a value are kept, those at its end go. */
	for (size_t i = 0; i < st->nr; i++)
		st->fields[i].value[rtrim_len(st->fields[i].value,
					      strlen(st->fields[i].value))] = '\0';
	while (s && (s = next_line(&l.p, &n, &has_lf)))
		if (!is_blank(s, n)) {
			pp_warn(err, "padpack: warning: %s:%u: text after the "
				"first stanza; ignored", file, l.p.line);
			break;
		}
}

/* ---- stanza editing --------------------------------------------------- */

void pp_stanza_init(struct pp_stanza *st)
{
	st->fields = NULL;
	st->nr = st->alloc = 0;
	st->line = 0;
}

void pp_stanza_release(struct pp_stanza *st)
{
	for (size_t i = 0; i < st->nr; i++) {
		free(st->fields[i].name);
		free(st->fields[i].value);
	}
	free(st->fields);
	pp_stanza_init(st);
}

struct pp_field *pp_stanza_find(const struct pp_stanza *st, const char *name)
{
	for (size_t i = 0; i < st->nr; i++)
		if (!strcasecmp(st->fields[i].name, name))
			return &st->fields[i];
	return NULL;
}

const char *pp_stanza_get(const struct pp_stanza *st, const char *name)
{
	struct pp_field *f = pp_stanza_find(st, name);

	return f ? f->value : NULL;
}

/* dpkg's order for a binary package's control file (Dpkg::Control). */
static const char *const field_order[] = {
	"Package", "Package-Type", "Source", "Version", "Kernel-Version",
	"Built-For-Profiles", "Auto-Built-Package", "Architecture",
	"Subarchitecture", "Installer-Menu-Item", "Build-Essential",
	"Essential", "Protected", "Origin", "Bugs", "Maintainer",
	"Installed-Size", "Pre-Depends", "Depends", "Recommends", "Suggests",
	"Enhances", "Conflicts", "Breaks", "Replaces", "Provides",
	"Built-Using", "Static-Built-Using", "Section", "Priority",
	"Multi-Arch", "Homepage", "Description", "Tag", "Task",
};

int pp_field_rank(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(field_order); i++)
		if (!strcasecmp(field_order[i], name))
			return (int)i;
	return (int)ARRAY_SIZE(field_order);
}

void pp_stanza_set(struct pp_stanza *st, const char *name, const char *value)
{
	struct pp_field *f = pp_stanza_find(st, name);
	int rank = pp_field_rank(name);
	size_t at;

	if (f) {
		free(f->value);
		f->value = xstrdup(value);
		return;
	}
	/* Before the first field that dpkg orders after this one. */
	for (at = 0; at < st->nr; at++)
		if (pp_field_rank(st->fields[at].name) > rank)
			break;
	ARRAY_GROW(st->fields, st->alloc, st->nr + 1);
	memmove(&st->fields[at + 1], &st->fields[at],
		(st->nr - at) * sizeof(*st->fields));
	st->nr++;
	st->fields[at].name = xstrdup(name);
	st->fields[at].value = xstrdup(value);
	st->fields[at].line = 0;
}

void pp_stanza_remove(struct pp_stanza *st, const char *name)
{
	struct pp_field *f = pp_stanza_find(st, name);
	size_t at;

	if (!f)
		return;
	at = (size_t)(f - st->fields);
	free(f->name);
	free(f->value);
	memmove(f, f + 1, (st->nr - at - 1) * sizeof(*f));
	st->nr--;
}

void pp_stanza_write(const struct pp_stanza *st, struct strbuf *out)
{
	for (size_t i = 0; i < st->nr; i++) {
		const char *v = st->fields[i].value;

		strbuf_addf(out, "%s:%s%s\n", st->fields[i].name,
			    (*v && *v != '\n') ? " " : "", v);
	}
}

/* ---- validation ------------------------------------------------------- */

int pp_check_package_name(const char *name, struct pp_err *err)
{
	const char *p;

	if (!*name)
		return pp_err_set(err, PP_EXIT_INPUT, "package name is empty");
	if (!isalnum((unsigned char)name[0]) || isupper((unsigned char)name[0]))
		return pp_err_set(err, PP_EXIT_INPUT, "package name '%s' must "
				  "start with a lowercase letter or digit", name);
	for (p = name; *p; p++)
		if (!(islower((unsigned char)*p) || isdigit((unsigned char)*p) ||
		      strchr("+-.", *p)))
			return pp_err_set(err, PP_EXIT_INPUT, "package name "
					  "'%s' has character '%c'; only "
					  "lowercase letters, digits and '+-.' "
					  "are allowed", name, *p);
	if (strlen(name) < 2)
		return pp_err_set(err, PP_EXIT_INPUT, "package name '%s' is too "
				  "short; Debian Policy requires at least two "
				  "characters", name);
	return 0;
}

int pp_check_arch_name(const char *arch, struct pp_err *err)
{
	if (!*arch)
		return pp_err_set(err, PP_EXIT_INPUT, "architecture is empty");
	for (const char *p = arch; *p; p++)
		if (!(islower((unsigned char)*p) || isdigit((unsigned char)*p) ||
		      *p == '-'))
			return pp_err_set(err, PP_EXIT_INPUT, "architecture "
					  "'%s' has character '%c'; use 'all', "
					  "'any' or a name dpkg-architecture "
					  "-L lists (amd64, arm64, ...)", arch,
					  *p);
	return 0;
}

static const struct {
	const char *name;
	enum pp_deps_kind kind;
} relation_fields[] = {
	{ "Pre-Depends", PP_DEPS_DEPENDS }, { "Depends", PP_DEPS_DEPENDS },
	{ "Recommends", PP_DEPS_DEPENDS }, { "Suggests", PP_DEPS_DEPENDS },
	{ "Enhances", PP_DEPS_DEPENDS }, { "Conflicts", PP_DEPS_CONFLICTS },
	{ "Breaks", PP_DEPS_CONFLICTS }, { "Replaces", PP_DEPS_CONFLICTS },
	{ "Provides", PP_DEPS_PROVIDES }, { "Built-Using", PP_DEPS_CONFLICTS },
};

static const struct {
	const char *name;
	const char *values[5];
} enum_fields[] = {
	{ "Essential", { "yes", "no" } },
	{ "Protected", { "yes", "no" } },
	{ "Build-Essential", { "yes", "no" } },
	{ "Multi-Arch", { "no", "same", "foreign", "allowed" } },
	{ "Priority", { "required", "important", "standard", "optional",
			"extra" } },
};

static int field_error(struct pp_err *err, const char *file,
		       const struct pp_field *f)
{
	return pp_err_prefix(err, "%s:%u: '%s' field: ", file, f->line, f->name);
}

static int check_enum(const struct pp_field *f, const char *const *values,
		      const char *file, struct pp_err *err)
{
	struct strbuf allowed = STRBUF_INIT;
	int i;

	for (i = 0; i < 5 && values[i]; i++)
		if (!strcmp(f->value, values[i]))
			return 0;
	for (i = 0; i < 5 && values[i]; i++)
		strbuf_addf(&allowed, "%s%s", i ? ", " : "", values[i]);
	pp_err_set(err, PP_EXIT_INPUT, "%s:%u: '%s' field: invalid value '%s'; "
		   "allowed: %s", file, f->line, f->name, f->value, allowed.buf);
	strbuf_release(&allowed);
	return -1;
}

static int check_required(const struct pp_stanza *st, const char *file,
			  struct pp_err *err)
{
	static const char *const required[] = {
		"Package", "Version", "Architecture", "Maintainer",
		"Description",
	};

	for (size_t i = 0; i < ARRAY_SIZE(required); i++)
		if (!pp_stanza_get(st, required[i]))
			return pp_err_set(err, PP_EXIT_INPUT, "%s: missing "
					  "'%s' field; add a line '%s: ...'",
					  file, required[i], required[i]);
	return 0;
}

static int check_special(const struct pp_field *f, const char *file,
			 struct pp_err *err)
{
	struct pp_version v;
	const char *p;

	if (!strcasecmp(f->name, "Package") &&
	    pp_check_package_name(f->value, err) < 0)
		return field_error(err, file, f);
	if (!strcasecmp(f->name, "Version")) {
		if (pp_version_parse(&v, f->value, err) < 0)
			return field_error(err, file, f);
		pp_version_release(&v);
	}
	if (!strcasecmp(f->name, "Architecture") &&
	    pp_check_arch_name(f->value, err) < 0)
		return field_error(err, file, f);
	if (!strcasecmp(f->name, "Installed-Size")) {
		for (p = f->value; *p; p++)
			if (!isdigit((unsigned char)*p))
				return pp_err_set(err, PP_EXIT_INPUT, "%s:%u: "
						  "'Installed-Size' must be a "
						  "whole number of KiB, not "
						  "'%s'; or remove it and let "
						  "padpack compute it", file,
						  f->line, f->value);
	}
	if (!strcasecmp(f->name, "Description") &&
	    (f->value[0] == '\n' || !f->value[0]))
		return pp_err_set(err, PP_EXIT_INPUT, "%s:%u: 'Description' "
				  "needs a one-line synopsis on its first "
				  "line", file, f->line);
	return 0;
}

static int check_field(const struct pp_field *f, const char *file,
		       struct pp_err *err)
{
	struct pp_deps deps;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(relation_fields); i++) {
		if (strcasecmp(f->name, relation_fields[i].name))
			continue;
		if (pp_deps_parse(f->value, relation_fields[i].kind, &deps,
				  err) < 0)
			return field_error(err, file, f);
		pp_deps_release(&deps);
	}
	for (i = 0; i < ARRAY_SIZE(enum_fields); i++)
		if (!strcasecmp(f->name, enum_fields[i].name))
			return check_enum(f, enum_fields[i].values, file, err);
	return check_special(f, file, err);
}

int pp_control_check_binary(const struct pp_stanza *st, const char *file,
			    struct pp_err *err)
{
	for (size_t i = 0; i < st->nr; i++)
		if (check_field(&st->fields[i], file, err) < 0)
			return -1;
	return check_required(st, file, err);
}

/* ---- relationship fields ---------------------------------------------- */

static void skip_ws(const char **p)
{
	while (**p == ' ' || **p == '\t' || **p == '\n')
		(*p)++;
}

static int is_name_char(int c)
{
	return islower(c) || isdigit(c) || c == '+' || c == '-' || c == '.';
}

static int parse_atom_version(const char **pp, struct pp_dep_atom *a,
			      struct pp_err *err)
{
	const char *p = *pp, *start;
	char opbuf[3] = { 0 };
	struct pp_version v;
	size_t n = 0;

	p++; /* '(' */
	skip_ws(&p);
	while (n < 2 && (*p == '<' || *p == '>' || *p == '='))
		opbuf[n++] = *p++;
	if (pp_relop_parse(opbuf, &a->op) < 0)
		return pp_err_set(err, PP_EXIT_INPUT, "reference to '%s': "
				  "unknown relation '%s'; use <<, <=, =, >= or "
				  ">>", a->name, opbuf);
	skip_ws(&p);
	start = p;
	while (*p && *p != ')' && *p != ' ' && *p != '\t' && *p != '\n')
		p++;
	a->version = xstrndup(start, (size_t)(p - start));
	skip_ws(&p);
	if (*p != ')')
		return pp_err_set(err, PP_EXIT_INPUT, "reference to '%s': "
				  "version unterminated; close it with ')'",
				  a->name);
	if (pp_version_parse(&v, a->version, err) < 0)
		return pp_err_prefix(err, "reference to '%s': version '%s': ",
				     a->name, a->version);
	pp_version_release(&v);
	a->has_version = 1;
	*pp = p + 1;
	return 0;
}

static int parse_atom(const char **pp, struct pp_dep_atom *a,
		      struct pp_err *err)
{
	const char *p = *pp, *start = p;

	memset(a, 0, sizeof(*a));
	while (is_name_char((unsigned char)*p))
		p++;
	if (p == start || !isalnum((unsigned char)*start))
		return pp_err_set(err, PP_EXIT_INPUT, "missing package name, or "
				  "garbage where a package name is expected "
				  "near '%.20s'", start);
	a->name = xstrndup(start, (size_t)(p - start));
	if (*p == ':') {
		start = ++p;
		while (islower((unsigned char)*p) || isdigit((unsigned char)*p) ||
		       *p == '-')
			p++;
		if (p == start)
			return pp_err_set(err, PP_EXIT_INPUT, "reference to "
					  "'%s': empty architecture after ':'",
					  a->name);
		a->arch = xstrndup(start, (size_t)(p - start));
	}
	skip_ws(&p);
	if (*p == '(' && parse_atom_version(&p, a, err) < 0)
		return -1;
	skip_ws(&p);
	if (*p == '[' || *p == '<')
		return pp_err_set(err, PP_EXIT_INPUT, "reference to '%s': "
				  "architecture lists and build profiles belong "
				  "in source packages only", a->name);
	*pp = p;
	return 0;
}

static int check_kind(const struct pp_dep_group *g, enum pp_deps_kind kind,
		      struct pp_err *err)
{
	const struct pp_dep_atom *a = &g->alts[0];

	if (kind != PP_DEPS_DEPENDS && g->nr > 1)
		return pp_err_set(err, PP_EXIT_INPUT, "alternatives ('|') are "
				  "not allowed in this field");
	if (kind == PP_DEPS_PROVIDES && a->has_version && a->op != PP_REL_EQ)
		return pp_err_set(err, PP_EXIT_INPUT, "reference to '%s': only "
				  "exact versions '(= V)' may be provided",
				  a->name);
	return 0;
}

static int parse_group(const char **pp, enum pp_deps_kind kind,
		       struct pp_dep_group *g, struct pp_err *err)
{
	const char *p = *pp;

	for (;;) {
		ARRAY_GROW(g->alts, g->alloc, g->nr + 1);
		if (parse_atom(&p, &g->alts[g->nr], err) < 0) {
			g->nr++;
			return -1;
		}
		g->nr++;
		if (*p != '|')
			break;
		p++;
		skip_ws(&p);
	}
	*pp = p;
	return check_kind(g, kind, err);
}

int pp_deps_parse(const char *value, enum pp_deps_kind kind,
		  struct pp_deps *out, struct pp_err *err)
{
	const char *p = value;

	memset(out, 0, sizeof(*out));
	skip_ws(&p);
	while (*p) {
		struct pp_dep_group *g;

		ARRAY_GROW(out->groups, out->alloc, out->nr + 1);
		g = &out->groups[out->nr++];
		memset(g, 0, sizeof(*g));
		if (parse_group(&p, kind, g, err) < 0)
			goto fail;
		if (*p && *p != ',') {
			pp_err_set(err, PP_EXIT_INPUT, "unexpected '%.20s' after "
				   "a package reference; separate entries with "
				   "','", p);
			goto fail;
		}
		if (*p == ',') {
			p++;
			skip_ws(&p);
			if (!*p) {
				pp_err_set(err, PP_EXIT_INPUT,
					   "trailing ',' with nothing after it");
				goto fail;
			}
		}
	}
	return 0;
fail:
	pp_deps_release(out);
	return -1;
}

void pp_deps_release(struct pp_deps *deps)
{
	for (size_t i = 0; i < deps->nr; i++) {
		struct pp_dep_group *g = &deps->groups[i];

		for (size_t j = 0; j < g->nr; j++) {
			free(g->alts[j].name);
			free(g->alts[j].arch);
			free(g->alts[j].version);
		}
		free(g->alts);
	}
	free(deps->groups);
	memset(deps, 0, sizeof(*deps));
}

static const char *relop_str(enum pp_relop op)
{
	static const char *const s[] = { "<<", "<=", "=", ">=", ">>" };

	return s[op];
}

void pp_deps_write(const struct pp_deps *deps, struct strbuf *out)
{
	for (size_t i = 0; i < deps->nr; i++) {
		const struct pp_dep_group *g = &deps->groups[i];

		if (i)
			strbuf_addstr(out, ", ");
		for (size_t j = 0; j < g->nr; j++) {
			const struct pp_dep_atom *a = &g->alts[j];

			strbuf_addf(out, "%s%s%s%s", j ? " | " : "", a->name,
				    a->arch ? ":" : "", a->arch ? a->arch : "");
			if (a->has_version)
				strbuf_addf(out, " (%s %s)", relop_str(a->op),
					    a->version);
		}
	}
}

const char *pp_stanza_end(const char *s, size_t len)
{
	const char *end = s + len, *nl;

	while (s < end && (nl = memchr(s, '\n', (size_t)(end - s))) &&
	       nl + 1 < end) {
		if (nl[1] == '\n')
			return nl;
		s = nl + 1;
	}
	return NULL;
}
