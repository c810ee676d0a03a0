/* Control fields as dpkg-deb --field shows them: dpkg parses the control
 * file into a package record and writes each field back from it, so
 * relationship fields come out in one canonical line, versions lose a
 * zero epoch and the obsolete Revision field is folded into Version. */
#include "control.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xalloc.h"

enum show_kind { SHOW_RAW, SHOW_NOTHING, SHOW_BOOL, SHOW_MULTIARCH,
		 SHOW_PRIORITY, SHOW_VERSION, SHOW_DEPS };

static const struct {
	const char *name;
	enum show_kind kind;
	enum pp_deps_kind deps;
} known[] = {
	{ "Package", SHOW_RAW, 0 }, { "Essential", SHOW_BOOL, 0 },
	{ "Protected", SHOW_BOOL, 0 }, { "Status", SHOW_NOTHING, 0 },
	{ "Priority", SHOW_PRIORITY, 0 }, { "Section", SHOW_RAW, 0 },
	{ "Installed-Size", SHOW_RAW, 0 }, { "Origin", SHOW_RAW, 0 },
	{ "Maintainer", SHOW_RAW, 0 }, { "Bugs", SHOW_RAW, 0 },
	{ "Architecture", SHOW_RAW, 0 }, { "Multi-Arch", SHOW_MULTIARCH, 0 },
	{ "Source", SHOW_RAW, 0 }, { "Version", SHOW_VERSION, 0 },
	{ "Config-Version", SHOW_NOTHING, 0 },
	{ "Replaces", SHOW_DEPS, PP_DEPS_CONFLICTS },
	{ "Provides", SHOW_DEPS, PP_DEPS_PROVIDES },
	{ "Depends", SHOW_DEPS, PP_DEPS_DEPENDS },
	{ "Pre-Depends", SHOW_DEPS, PP_DEPS_DEPENDS },
	{ "Recommends", SHOW_DEPS, PP_DEPS_DEPENDS },
	{ "Suggests", SHOW_DEPS, PP_DEPS_DEPENDS },
	{ "Breaks", SHOW_DEPS, PP_DEPS_CONFLICTS },
	{ "Conflicts", SHOW_DEPS, PP_DEPS_CONFLICTS },
	{ "Enhances", SHOW_DEPS, PP_DEPS_DEPENDS },
	{ "Conffiles", SHOW_NOTHING, 0 }, { "Filename", SHOW_NOTHING, 0 },
	{ "Size", SHOW_NOTHING, 0 }, { "MD5sum", SHOW_NOTHING, 0 },
	{ "Description", SHOW_RAW, 0 },
	{ "Triggers-Pending", SHOW_NOTHING, 0 },
	{ "Triggers-Awaited", SHOW_NOTHING, 0 },
	{ "Revision", SHOW_NOTHING, 0 }, { "Package-Revision", SHOW_NOTHING, 0 },
	{ "Package_Revision", SHOW_NOTHING, 0 },
};

static int is_revision_field(const char *name)
{
	return !strcasecmp(name, "Revision") ||
	       !strcasecmp(name, "Package-Revision") ||
	       !strcasecmp(name, "Package_Revision");
}

/* dpkg's unambiguous form: the epoch only when it is not 0 or a colon
 * elsewhere needs it. */
static void add_version(struct strbuf *out, const struct pp_version *v)
{
	if (v->epoch || strchr(v->upstream, ':') || strchr(v->revision, ':'))
		strbuf_addf(out, "%lu:", v->epoch);
	strbuf_addstr(out, v->upstream);
	if (*v->revision)
		strbuf_addf(out, "-%s", v->revision);
}

/* Version, then each obsolete Revision field in file order, as dpkg
 * reads them: a revision already there joins the upstream part. */
static int show_version(const struct pp_stanza *st, struct strbuf *out,
			struct pp_err *err)
{
	struct pp_version v = { 0, NULL, NULL };
	const char *raw = NULL; /* a Version dpkg would take with a warning */
	struct pp_err bad;
	int have = 0;

	pp_err_init(&bad);
	for (size_t i = 0; i < st->nr; i++) {
		const struct pp_field *f = &st->fields[i];
		char *joined;

		if (!strcasecmp(f->name, "Version")) {
			pp_version_release(&v);
			have = pp_version_parse(&v, f->value, &bad) == 0;
			raw = have ? NULL : f->value;
			if (!have)
				pp_warn(err, "padpack: warning: control:%u: "
					"'Version' field: %s", f->line,
					bad.msg);
			continue;
		}
		if (!is_revision_field(f->name))
			continue;
		pp_warn(err, "padpack: warning: control:%u: obsolete '%s' "
			"field used; folded into the version as dpkg does",
			f->line, f->name);
		if (!have || !*f->value)
			continue;
		if (*v.revision) {
			joined = xmalloc(strlen(v.upstream) +
					 strlen(v.revision) + 2);
			sprintf(joined, "%s-%s", v.upstream, v.revision);
			free(v.upstream);
			v.upstream = joined;
		}
		free(v.revision);
		v.revision = xstrdup(f->value);
	}
	pp_err_release(&bad);
	if (have)
		add_version(out, &v);
	else if (raw)
		strbuf_addstr(out, raw);
	pp_version_release(&v);
	return have || raw;
}

static void add_atom_version(struct strbuf *out, const char *s)
{
	struct pp_version v;
	struct pp_err quiet;

	pp_err_init(&quiet);
	if (pp_version_parse(&v, s, &quiet) == 0) {
		add_version(out, &v);
		pp_version_release(&v);
	} else {
		strbuf_addstr(out, s);
	}
	pp_err_release(&quiet);
}

static void write_deps(const struct pp_deps *deps, struct strbuf *out)
{
	static const char *const ops[] = { "<<", "<=", "=", ">=", ">>" };

	for (size_t i = 0; i < deps->nr; i++) {
		const struct pp_dep_group *g = &deps->groups[i];

		strbuf_addstr(out, i ? ", " : "");
		for (size_t j = 0; j < g->nr; j++) {
			const struct pp_dep_atom *a = &g->alts[j];

			strbuf_addf(out, "%s%s%s%s", j ? " | " : "", a->name,
				    a->arch ? ":" : "", a->arch ? a->arch : "");
			if (!a->has_version)
				continue;
			strbuf_addf(out, " (%s ", ops[a->op]);
			add_atom_version(out, a->version);
			strbuf_addch(out, ')');
		}
	}
}

/* dpkg reads a lone '<' or '>' as '<=' or '>=' (pp_relop_parse does too)
 * and warns that it is obsolete; so does this. */
static void warn_obsolete_ops(const struct pp_field *f, struct pp_err *err)
{
	for (const char *p = strchr(f->value, '('); p; p = strchr(p + 1, '(')) {
		const char *op = p + 1 + strspn(p + 1, " \t\n");

		if ((*op == '<' || *op == '>') && !strchr("<>=", op[1]))
			pp_warn(err, "padpack: warning: control:%u: '%s' field: "
				"'%c' is obsolete, use '%c=' or '%c%c' instead",
				f->line, f->name, *op, *op, *op, *op);
	}
}

/* A relationship field on one line; one dpkg cannot read is shown as
 * written, with its lines joined, and a warning. */
static void show_deps(const struct pp_field *f, enum pp_deps_kind kind,
		      struct strbuf *out, struct pp_err *err)
{
	struct pp_deps deps;
	struct pp_err bad;

	pp_err_init(&bad);
	if (pp_deps_parse(f->value, kind, &deps, &bad) == 0) {
		warn_obsolete_ops(f, err);
		write_deps(&deps, out);
		pp_deps_release(&deps);
	} else {
		pp_warn(err, "padpack: warning: control:%u: '%s' field: %s; "
			"shown as written", f->line, f->name, bad.msg);
		for (const char *p = f->value; *p; p++)
			if (*p != '\n')
				strbuf_addch(out, *p);
	}
	pp_err_release(&bad);
}

/* A value dpkg knows by name, in dpkg's spelling; others as written. */
static void add_named(struct strbuf *out, const char *value,
		      const char *const *names)
{
	for (size_t i = 0; names[i]; i++)
		if (!strcasecmp(value, names[i])) {
			strbuf_addstr(out, names[i]);
			return;
		}
	strbuf_addstr(out, value);
}

static const char *const multiarch_names[] = {
	"no", "same", "allowed", "foreign", NULL,
};
static const char *const priority_names[] = {
	"required", "important", "standard", "optional", "extra", NULL,
};

static int show_known(const struct pp_stanza *st, size_t k, int header,
		      struct strbuf *out, struct pp_err *err)
{
	const struct pp_field *f = pp_stanza_find(st, known[k].name);
	int yes;

	switch (known[k].kind) {
	case SHOW_NOTHING:
		return 0;
	case SHOW_BOOL:
		yes = f && !strcasecmp(f->value, "yes");
		if (header && !yes)
			return 0;
		strbuf_addstr(out, yes ? "yes" : "no");
		return 1;
	case SHOW_MULTIARCH:
		if (header && (!f || !strcasecmp(f->value, "no")))
			return 0;
		add_named(out, f ? f->value : "no", multiarch_names);
		return 1;
	case SHOW_PRIORITY:
		if (!f)
			return 0;
		add_named(out, f->value, priority_names);
		return 1;
	case SHOW_VERSION:
		return show_version(st, out, err);
	case SHOW_DEPS:
		if (!f)
			return 0;
		show_deps(f, known[k].deps, out, err);
		return 1;
	default:
		if (!f)
			return 0;
		strbuf_addstr(out, f->value);
		return 1;
	}
}

int pp_field_show(const struct pp_stanza *st, const char *name, int header,
		  const char **shown_name, struct strbuf *out,
		  struct pp_err *err)
{
	const struct pp_field *f;

	for (size_t k = 0; k < ARRAY_SIZE(known); k++)
		if (!strcasecmp(known[k].name, name)) {
			*shown_name = known[k].name;
			return show_known(st, k, header, out, err);
		}
	f = pp_stanza_find(st, name);
	if (!f)
		return 0;
	*shown_name = f->name;
	strbuf_addstr(out, f->value);
	return 1;
}
