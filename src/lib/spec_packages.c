/* Reading a spec's packages section: the packages' about fields,
 * alternatives, needed, files, isa_dispatch and control rules.
 * Layer: below spec_read.c (which calls pp_spec_read_packages), above
 * spec_setting.c; calls nothing above it. */
#include "spec.h"

#include <ctype.h>
#include <fnmatch.h>
#include <libconfig.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stdio.h>
#include <sys/stat.h>

#include "fsutil.h"
#include "isa.h"
#include "specint.h"
#include "xalloc.h"

static int read_needed(struct pp_spec_loader *L, const config_setting_t *list)
{
	struct pp_spec *sp = L->spec;
	int n = list ? config_setting_length(list) : 0;

	sp->needed = xcalloc((size_t)n + 1, sizeof(*sp->needed));
	for (int i = 0; i < n; i++) {
		const config_setting_t *e = config_setting_get_elem(list,
								(unsigned)i);
		struct pp_needed *nd = &sp->needed[sp->nr_needed++];

		nd->line = config_setting_source_line(e);
		if (pp_spec_read_string(L, e, "soname", &nd->soname, NULL, NULL) < 0 ||
		    pp_spec_read_template(L, e, "depends", &nd->depends) < 0)
			return -1;
	}
	return 0;
}

static const char *const role_names[] = {
	"runtime", "dev", "tools", "python", "doc", "data", NULL,
};

static int check_file_rule(struct pp_spec_loader *L, const config_setting_t *e,
			   const struct pp_file_rule *f)
{
	if (f->path[0] == '/')
		return pp_setting_error(config_setting_get_member(e, "path"),
					L->file, L->err, "'%s' is absolute; write "
					"it relative to the stage, e.g. "
					"usr/lib/*", f->path);
	if (!f->package == !f->drop)
		return pp_setting_error(e, L->file, L->err, "needs either "
					"package (where the files go) or drop "
					"(why they are left out), not %s",
					f->package ? "both" : "neither");
	if (f->role && !pp_spec_in_list(role_names, f->role))
		return pp_setting_error(config_setting_get_member(e, "role"),
					L->file, L->err, "unknown role '%s'; "
					"known: runtime, dev, tools, python, "
					"doc, data", f->role);
	return 0;
}

static int read_files(struct pp_spec_loader *L, const config_setting_t *list)
{
	struct pp_spec *sp = L->spec;
	int n = list ? config_setting_length(list) : 0;

	sp->files = xcalloc((size_t)n + 1, sizeof(*sp->files));
	for (int i = 0; i < n; i++) {
		const config_setting_t *e = config_setting_get_elem(list,
								(unsigned)i);
		struct pp_file_rule *f = &sp->files[sp->nr_files++];

		f->line = config_setting_source_line(e);
		if (pp_spec_read_string(L, e, "path", &f->path, NULL, NULL) < 0 ||
		    pp_spec_read_template(L, e, "package", &f->package) < 0 ||
		    pp_spec_read_string(L, e, "role", &f->role, NULL, NULL) < 0 ||
		    pp_spec_read_string(L, e, "drop", &f->drop, NULL, NULL) < 0 ||
		    check_file_rule(L, e, f) < 0)
			return -1;
	}
	return 0;
}

/* A file setting, relative to the spec's directory. Only padpack split
 * reads these files, so a build does not need them: split checks them. */
static int read_spec_file(struct pp_spec_loader *L, const config_setting_t *g,
			  const char *key, char **out)
{
	const config_setting_t *s = config_setting_get_member(g, key);
	char *dir;

	if (pp_spec_read_string(L, g, key, out, NULL, NULL) < 0 || !*out)
		return *out ? 0 : (s ? -1 : 0);
	dir = pp_dirname(L->spec->path);
	if (**out != '/' && strcmp(dir, ".")) {
		char *joined = xmalloc(strlen(dir) + strlen(*out) + 2);

		sprintf(joined, "%s/%s", dir, *out);
		free(*out);
		*out = joined;
	}
	free(dir);
	return 0;
}

static int is_field_name(const char *s)
{
	return pp_spec_is_word(s, UPPER LOWER DIGIT, UPPER LOWER DIGIT "-") &&
	       strcasecmp(s, "Package");
}

/* A line of a lintian overrides file: a comment, or "[PACKAGE[ [ARCH]]:
 * ]TAG [CONTEXT]", package names and tags in lower case. */
static int is_override_line(const char *s)
{
	return !strchr(s, '\n') && (*s == '#' || *s == '[' ||
				     (*s >= 'a' && *s <= 'z') ||
				     (*s >= '0' && *s <= '9'));
}

static int read_lintian_overrides(struct pp_spec_loader *L,
				  const config_setting_t *e,
				  struct pp_control_rule *c)
{
	const config_setting_t *list = config_setting_get_member(e,
							"lintian_overrides");

	if (pp_spec_read_strings(L, e, "lintian_overrides", &c->lintian, NULL,
				 1) < 0)
		return -1;
	for (size_t i = 0; i < c->lintian.nr; i++)
		if (!is_override_line(c->lintian.items[i]))
			return pp_setting_error(config_setting_get_elem(list,
						(unsigned)i), L->file, L->err,
						"is not a lintian override line: "
						"write \"TAG [CONTEXT]\" (e.g. "
						"\"embedded-library libfoo1\"), one "
						"line each, or a \"# comment\"");
	return 0;
}

static int read_control_rule(struct pp_spec_loader *L, const config_setting_t *e,
			     struct pp_control_rule *c)
{
	static const char *const names[PP_NR_SCRIPTS] = {
		"preinst", "postinst", "prerm", "postrm",
	};
	const config_setting_t *f = config_setting_get_member(e, "fields");

	c->line = config_setting_source_line(e);
	if (pp_spec_read_template(L, e, "package", &c->package) < 0)
		return -1;
	for (int i = 0; f && i < config_setting_length(f); i++) {
		const config_setting_t *fe = config_setting_get_elem(f,
								(unsigned)i);
		const char *name = config_setting_name(fe);
		const char *v = config_setting_get_string(fe);

		if (!is_field_name(name))
			return pp_setting_error(fe, L->file, L->err, "not a "
						"field padpack lets a spec set; "
						"use a control field name other "
						"than Package");
		if (strchr(v, '\n') && strcasecmp(name, "Description"))
			return pp_setting_error(fe, L->file, L->err, "has a "
						"line break; only Description "
						"may span lines");
		if (pp_spec_check_template(L, fe, v, NULL) < 0)
			return -1;
		pp_strlist_pushf(&c->fields, "%s=%s", name, v);
	}
	for (int i = 0; i < PP_NR_SCRIPTS; i++)
		if (read_spec_file(L, e, names[i], &c->scripts[i]) < 0)
			return -1;
	return read_lintian_overrides(L, e, c);
}

static int read_dispatch(struct pp_spec_loader *L, const config_setting_t *list)
{
	struct pp_spec *sp = L->spec;
	int n = list ? config_setting_length(list) : 0;

	sp->isa_dispatch = xcalloc((size_t)n + 1, sizeof(*sp->isa_dispatch));
	for (int i = 0; i < n; i++) {
		const config_setting_t *e = config_setting_get_elem(list,
								(unsigned)i);
		struct pp_isa_dispatch *d = &sp->isa_dispatch[sp->nr_isa_dispatch++];
		int ifunc = 0;

		d->line = config_setting_source_line(e);
		if (pp_spec_read_string(L, e, "path", &d->path, NULL, NULL) < 0 ||
		    pp_spec_read_strings(L, e, "symbols", &d->symbols, NULL, 0) < 0 ||
		    pp_spec_read_strings(L, e, "dispatchers", &d->dispatchers, NULL,
					 0) < 0)
			return -1;
		if (config_setting_lookup_bool(e, "ifunc", &ifunc))
			d->ifunc = ifunc;
		if (!d->symbols.nr && !d->ifunc)
			return pp_setting_error(e, L->file, L->err, "exempts "
						"nothing; give symbols, or ifunc "
						"= true");
	}
	return 0;
}

static int read_control(struct pp_spec_loader *L, const config_setting_t *list)
{
	struct pp_spec *sp = L->spec;
	int n = list ? config_setting_length(list) : 0;

	sp->control = xcalloc((size_t)n + 1, sizeof(*sp->control));
	for (int i = 0; i < n; i++) {
		struct pp_control_rule *c = &sp->control[sp->nr_control++];

		if (read_control_rule(L, config_setting_get_elem(list,
						(unsigned)i), c) < 0)
			return -1;
	}
	return 0;
}

static int is_revision(const char *s)
{
	return pp_spec_is_word(s, LOWER UPPER DIGIT, LOWER UPPER DIGIT "+.~");
}

static int is_section(const char *s)
{
	return pp_spec_is_word(s, LOWER, LOWER DIGIT "/-");
}

static int is_urgency(const char *s)
{
	static const char *const u[] = {
		"low", "medium", "high", "emergency", "critical", NULL,
	};

	return pp_spec_in_list(u, s);
}

static int is_title(const char *s)
{
	return *s && strlen(s) < 40 && !strchr(s, '\n');
}

static int read_build_depends(struct pp_spec_loader *L, const config_setting_t *g)
{
	const config_setting_t *s = config_setting_get_member(g,
							      "build_depends");
	struct pp_strlist *bd = &L->spec->build_depends;

	if (pp_spec_read_strings(L, g, "build_depends", bd, NULL, 0) < 0)
		return -1;
	for (size_t i = 0; i < bd->nr; i++)
		if (!pp_spec_is_package_name(bd->items[i]))
			return pp_setting_error(config_setting_get_elem(s,
						(unsigned)i), L->file, L->err,
						"'%s' is not a package name",
						bd->items[i]);
	return 0;
}

static int is_runtime(const char *s)
{
	return !strcmp(s, "auto") || !strcmp(s, "soname") || !strcmp(s, "one");
}

static int is_dev(const char *s)
{
	return !strcmp(s, "auto") || !strcmp(s, "one") ||
	       !strcmp(s, "library");
}

static int is_doc(const char *s)
{
	return !strcmp(s, "auto") || !strcmp(s, "package") ||
	       !strcmp(s, "none");
}

/* packages.runtime, .dev and .doc: how many packages of each kind. */
static int read_package_kinds(struct pp_spec_loader *L, const config_setting_t *g)
{
	struct pp_spec *sp = L->spec;
	char *runtime = NULL, *dev = NULL, *doc = NULL;

	if (pp_spec_read_string(L, g, "runtime", &runtime, is_runtime,
				"\"auto\" (the default: one package when the "
				"build's programs use the libraries only together, "
				"else one per library), \"soname\" (a runtime "
				"package per shared library) or \"one\" (all in "
				"one)") < 0)
		return -1;
	sp->runtime_one = runtime && !strcmp(runtime, "one");
	sp->runtime_soname = runtime && !strcmp(runtime, "soname");
	free(runtime);
	if (pp_spec_read_string(L, g, "dev", &dev, is_dev,
				"\"auto\" (the default: one -dev package for "
				"the source, but one of its own for a C++ "
				"library beside C ones), \"one\" (one for the "
				"source) or \"library\" (one per shared "
				"library)") < 0)
		return -1;
	sp->dev_per_library = dev && !strcmp(dev, "library");
	sp->dev_one = dev && !strcmp(dev, "one");
	free(dev);
	if (pp_spec_read_string(L, g, "doc", &doc, is_doc,
				"\"auto\" (the default: a -doc package for a "
				"manual of 512 KiB or one a generator made), "
				"\"package\" (every document in -doc) or "
				"\"none\" (documents in -dev or the programs' "
				"package)") < 0)
		return -1;
	sp->doc_package = doc && !strcmp(doc, "package");
	sp->doc_none = doc && !strcmp(doc, "none");
	free(doc);
	return 0;
}

/* packages.epoch: only to supersede versions numbered another way, as
 * a Debian package's own epoch (libcap2's 1:) is. */
static int read_epoch(struct pp_spec_loader *L, const config_setting_t *g)
{
	const config_setting_t *s = config_setting_get_member(g, "epoch");

	if (!s)
		return 0;
	L->spec->epoch = config_setting_get_int(s);
	if (L->spec->epoch < 1 || L->spec->epoch > 99999)
		return pp_setting_error(s, L->file, L->err, "%ld is not an "
					"epoch: a number from 1 (leave it out "
					"for none)", L->spec->epoch);
	return 0;
}

static int read_package_about(struct pp_spec_loader *L, const config_setting_t *g)
{
	struct pp_spec *sp = L->spec;

	if (read_package_kinds(L, g) < 0)
		return -1;
	return pp_spec_read_template(L, g, "name", &sp->package) ||
	       pp_spec_read_string(L, g, "revision", &sp->revision, is_revision,
				   "a Debian revision: letters, digits, '+', '.', "
				   "'~', e.g. \"1\"") ||
	       read_epoch(L, g) ||
	       pp_spec_read_string(L, g, "title", &sp->title, is_title,
				   "one line of under 40 characters") ||
	       pp_spec_read_string(L, g, "section", &sp->section, is_section,
				   "a Debian section, e.g. \"science\"") ||
	       pp_spec_read_string(L, g, "distribution", &sp->distribution, is_section,
				   "a distribution name, e.g. \"unstable\"") ||
	       pp_spec_read_string(L, g, "urgency", &sp->urgency, is_urgency,
				   "low, medium, high, emergency or critical") ||
	       read_spec_file(L, g, "copyright", &sp->copyright) ||
	       read_spec_file(L, g, "changelog", &sp->changelog) ||
	       read_spec_file(L, g, "templates", &sp->templates) ||
	       read_build_depends(L, g) ? -1 : 0;
}

/* Where a package may ship a file and update-alternatives a link. */
static int under_usr(const char *path)
{
	return !strncmp(path, "/usr/", 5) && strncmp(path, "/usr/local/", 11);
}

/* One link of an alternative: a name update-alternatives accepts and two
 * absolute paths, templates with the variant's placeholders. */
static int read_alt_link(struct pp_spec_loader *L, const config_setting_t *g,
			 struct pp_alt_link *l)
{
	l->line = config_setting_source_line(g);
	if (pp_spec_read_template(L, g, "name", &l->name) < 0 ||
	    pp_spec_read_template(L, g, "link", &l->link) < 0 ||
	    pp_spec_read_template(L, g, "path", &l->path) < 0)
		return -1;
	if (strchr(l->name, '/') || strchr(l->name, ' '))
		return pp_setting_error(config_setting_get_member(g, "name"),
					L->file, L->err, "'%s' has a '/' or a "
					"space, which update-alternatives "
					"refuses; e.g. libblas.so.3-x86_64-"
					"linux-gnu", l->name);
	if (!pp_spec_is_abs_path(l->link) || !pp_spec_is_abs_path(l->path))
		return pp_setting_error(config_setting_get_member(g,
					pp_spec_is_abs_path(l->link) ? "path" : "link"),
					L->file, L->err, "'%s' is not an "
					"absolute path; write where it is on "
					"the installed system, e.g. /usr/lib/...",
					pp_spec_is_abs_path(l->link) ? l->path : l->link);
	if (!under_usr(l->link) || !under_usr(l->path))
		return pp_setting_error(config_setting_get_member(g,
					under_usr(l->link) ? "path" : "link"),
					L->file, L->err, "'%s' is not under "
					"/usr: a package's files and the links "
					"update-alternatives makes for it go in "
					"/usr (not /usr/local, /opt, /etc or "
					"/bin, which merged /usr makes a link), "
					"e.g. /usr/bin/NAME",
					under_usr(l->link) ? l->path : l->link);
	if (!strcmp(l->link, l->path))
		return pp_setting_error(config_setting_get_member(g, "path"),
					L->file, L->err, "'%s' is both the "
					"link and the path: the path is each "
					"variant's own file, e.g. with @suffix@ "
					"in it", l->path);
	return 0;
}

/* Two links of the spec with one name or one generic path would fight
 * over it: update-alternatives takes a link in one group only. */
static int check_alt_unique(struct pp_spec_loader *L, const config_setting_t *g,
			    const struct pp_alt_link *l)
{
	const struct pp_spec *sp = L->spec;

	for (size_t i = 0; i < sp->nr_alternatives; i++) {
		const struct pp_alternative *a = &sp->alternatives[i];

		for (size_t k = 0; k <= a->nr_slaves; k++) {
			const struct pp_alt_link *o = k ? &a->slaves[k - 1] :
						      &a->master;

			if (o == l || !o->name)
				continue;
			if (!strcmp(o->name, l->name) || !strcmp(o->link, l->link))
				return pp_setting_error(g, L->file, L->err,
							"'%s' is named or linked "
							"at line %u already; "
							"each alternative and "
							"link once", l->name,
							o->line);
		}
	}
	return 0;
}

static int read_alternative(struct pp_spec_loader *L, const config_setting_t *e,
			    struct pp_alternative *a)
{
	const config_setting_t *sl = config_setting_get_member(e, "slaves");
	int n = sl ? config_setting_length(sl) : 0;

	if (read_alt_link(L, e, &a->master) < 0 ||
	    check_alt_unique(L, e, &a->master) < 0 ||
	    pp_spec_read_string(L, e, "provides", &a->provides, pp_spec_is_package_name,
				"a package name, e.g. \"libblas.so.3\"") < 0 ||
	    pp_spec_read_strings(L, e, "variants", &a->variants, NULL, 0) < 0)
		return -1;
	if (config_setting_get_member(e, "variants"))
		a->variants_line = config_setting_source_line(
					config_setting_get_member(e, "variants"));
	a->slaves = xcalloc((size_t)n + 1, sizeof(*a->slaves));
	for (int i = 0; i < n; i++) {
		const config_setting_t *g = config_setting_get_elem(sl,
								(unsigned)i);

		if (read_alt_link(L, g, &a->slaves[a->nr_slaves++]) < 0 ||
		    check_alt_unique(L, g, &a->slaves[a->nr_slaves - 1]) < 0)
			return -1;
	}
	return 0;
}

static int is_variant_set(const char *s)
{
	return !strcmp(s, "exclusive") || !strcmp(s, "coinstallable");
}

/* packages.variants and packages.alternatives, which only a
 * co-installable set can have. */
static int read_alternatives(struct pp_spec_loader *L, const config_setting_t *g)
{
	const config_setting_t *list = config_setting_get_member(g,
							"alternatives");
	struct pp_spec *sp = L->spec;
	int n = list ? config_setting_length(list) : 0;
	char *set = NULL;

	if (pp_spec_read_string(L, g, "variants", &set, is_variant_set,
				"\"exclusive\" (the default) or \"coinstallable\"") < 0)
		return -1;
	sp->coinstallable = set && !strcmp(set, "coinstallable");
	free(set);
	if (n && !sp->coinstallable)
		return pp_setting_error(list, L->file, L->err, "needs "
					"co-installable variants: exclusive ones "
					"replace each other, so there is nothing "
					"to choose; set packages.variants = "
					"\"coinstallable\"");
	sp->alternatives = xcalloc((size_t)n + 1, sizeof(*sp->alternatives));
	for (int i = 0; i < n; i++)
		if (read_alternative(L, config_setting_get_elem(list,
					(unsigned)i),
				     &sp->alternatives[sp->nr_alternatives++]) < 0)
			return -1;
	return 0;
}

int pp_spec_read_packages(struct pp_spec_loader *L, const config_setting_t *root)
{
	const config_setting_t *g = config_setting_get_member(root, "packages");

	if (!g)
		return 0;
	return read_package_about(L, g) ||
	       read_alternatives(L, g) ||
	       read_needed(L, config_setting_get_member(g, "needed")) ||
	       read_files(L, config_setting_get_member(g, "files")) ||
	       read_dispatch(L, config_setting_get_member(g, "isa_dispatch")) ||
	       read_control(L, config_setting_get_member(g, "control")) ? -1 : 0;
}
