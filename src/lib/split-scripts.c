/* padpack split, maintainer scripts: a package's preinst, postinst,
 * prerm and postrm, from the spec's own (with padpack's snippets at its
 * #PADPACK# line, as debhelper's at #DEBHELPER#) or from the snippets
 * alone: the ISA check, the accelerator check, the alternatives and the
 * Python byte-code of scripts/ templates, expanded with the package's
 * variables.
 * Layer: below split-build.c, which calls it for each package's tree. */
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "splitint.h"
#include "xalloc.h"

static const char *const script_names[PP_NR_SCRIPTS] = {
	"preinst", "postinst", "prerm", "postrm",
};

/* Expands a script template line by line, so errors name the line. */
static int expand_script(const struct pp_vars *v, const char *file,
			 struct strbuf *out, struct pp_err *err)
{
	struct strbuf text = STRBUF_INIT;
	const char *p;
	unsigned line = 0;
	int rc = pp_read_file(file, &text, err);

	for (p = text.buf; rc == 0 && *p;) {
		const char *end = strchr(p, '\n');
		char *l = xstrndup(p, end ? (size_t)(end - p) : strlen(p));

		rc = pp_vars_expand(v, l, file, ++line, out, err);
		strbuf_addch(out, '\n');
		free(l);
		p = end ? end + 1 : p + strlen(p);
	}
	strbuf_release(&text);
	return rc;
}

/* The value of an axis with an accelerator in the package's variant. */
static const struct pp_axis_value *accelerator(const struct pp_split *s,
					       const struct pp_split_pkg *p)
{
	for (size_t a = 0; p->variant && a < s->spec->nr_axes; a++)
		if (p->variant->values[a]->accel.what)
			return p->variant->values[a];
	return NULL;
}

static int holds(const struct pp_split *s, const struct pp_split_pkg *p,
		 enum pp_file_class cls)
{
	for (size_t i = 0; i < p->nr_files; i++)
		if (pp_split_at(s, p->files[i])->c.cls == cls)
			return 1;
	return 0;
}

/* Whether the package ships a Python module's source (a .py file of
 * the Python module class): its byte-code is made at install. */
static int holds_python_source(const struct pp_split *s,
			       const struct pp_split_pkg *p)
{
	for (size_t i = 0; i < p->nr_files; i++) {
		const struct pp_split_file *f = pp_split_at(s, p->files[i]);
		size_t n = strlen(f->path);

		if (f->c.cls == PP_CLASS_PYTHON && S_ISREG(f->st.st_mode) &&
		    n > 3 && strcmp(f->path + n - 3, ".py") == 0)
			return 1;
	}
	return 0;
}

/* The accelerator warning goes where the device code is: the variant's
 * library packages (its programs when it has no library). */
static int wants_accel_check(const struct pp_split *s, size_t pkg)
{
	const struct pp_split_pkg *p = &s->pkgs[pkg];

	if (!accelerator(s, p) || p->role == PP_ROLE_DBGSYM)
		return 0;
	if (holds(s, p, PP_CLASS_SHLIB))
		return 1;
	for (size_t i = 0; i < s->nr_pkgs; i++)
		if (s->pkgs[i].variant == p->variant &&
		    holds(s, &s->pkgs[i], PP_CLASS_SHLIB))
			return 0;
	return holds(s, p, PP_CLASS_EXEC);
}

static void script_vars(const struct pp_split *s, const struct pp_split_pkg *p,
			struct pp_vars *v)
{
	const struct pp_axis_value *acc = accelerator(s, p);
	char *libs = acc ? pp_strlist_join(&acc->accel.libs, " ") : NULL;
	/* "x86-64-v3" of "x86-64-v3 (AVX, FMA)" */
	const char *isa = p->isa_guard ? p->isa_guard : p->isa;
	char *level = isa ? xstrndup(isa, strcspn(isa, " ")) : NULL;
	struct strbuf prio = STRBUF_INIT;

	pp_vars_add(v, "name", s->spec->name);
	pp_vars_add(v, "package", p->name);
	/* dpkg -L's name: with the architecture for an arch-dependent
	 * package, which may be installed for several (Multi-Arch: same) */
	strbuf_addf(&prio, p->arch_all ? "%s" : "%s:%s", p->name, s->arch);
	pp_vars_add(v, "package_arch", prio.buf);
	strbuf_reset(&prio);
	pp_vars_add(v, "version", s->version);
	pp_vars_add(v, "variant", p->variant ? p->variant->name : "");
	pp_vars_add(v, "triplet", s->triplet);
	pp_vars_add(v, "what", acc ? acc->accel.what : "");
	pp_vars_add(v, "libs", libs);
	pp_vars_add(v, "device", acc ? acc->name : "");
	pp_vars_add(v, "isa_level", level);
	pp_vars_add(v, "isa_flags", p->isa_flags);
	pp_vars_add(v, "isa_names", p->isa_names);
	pp_vars_add(v, "alternative", p->isa_alternative);
	pp_vars_add(v, "alt_install", p->alt_install);
	pp_vars_add(v, "alt_remove", p->alt_remove);
	pp_vars_add(v, "alt_names", p->alt_names);
	strbuf_addf(&prio, "%ld", p->alt_priority);
	pp_vars_add(v, "priority", prio.buf);
	strbuf_release(&prio);
	free(libs);
	free(level);
}

/* Appends scripts/NAME.SCRIPT, expanded, to out (a blank line first
 * when out has a snippet already). */
static int add_snippet(const struct pp_split *s, const char *name,
		       int which, const struct pp_vars *v, struct strbuf *out,
		       struct pp_err *err)
{
	struct strbuf file = STRBUF_INIT;
	int rc;

	strbuf_addf(&file, "%s/scripts/%s.%s", s->opts.datadir, name,
		    script_names[which]);
	if (out->len)
		strbuf_addch(out, '\n');
	rc = expand_script(v, file.buf, out, err);
	strbuf_release(&file);
	return rc;
}

/* padpack's own snippets for each script of a package. */
static int snippets(const struct pp_split *s, size_t pkg,
		    const struct pp_vars *v, struct strbuf *out,
		    struct pp_err *err)
{
	const struct pp_split_pkg *p = &s->pkgs[pkg];
	int python = holds_python_source(s, p), rc = 0;

	if (p->isa_flags && pp_split_isa_asked(s->spec))
		rc = add_snippet(s, "isa-check", PP_PREINST, v, &out[PP_PREINST],
				 err);
	if (rc == 0 && wants_accel_check(s, pkg))
		rc = add_snippet(s, "accelerator-check", PP_POSTINST, v,
				 &out[PP_POSTINST], err);
	for (int i = PP_POSTINST; rc == 0 && p->alt_install && i <= PP_PRERM;
	     i++)
		rc = add_snippet(s, "alternatives", i, v, &out[i], err);
	for (int i = PP_POSTINST; rc == 0 && python && i <= PP_PRERM; i++)
		rc = add_snippet(s, "python", i, v, &out[i], err);
	return rc;
}

/* The spec's script for this package, if a control rule gives one. */
static const char *spec_script(const struct pp_split *s,
			       const struct pp_split_pkg *p, int which,
			       struct pp_err *err)
{
	const char *found = NULL;

	for (size_t i = 0; i < s->spec->nr_control; i++) {
		const struct pp_control_rule *r = &s->spec->control[i];

		if (r->scripts[which] && pp_split_rule_names(s, p, r, err) > 0)
			found = r->scripts[which];
	}
	return found;
}

static int write_script(const struct pp_split *s, size_t pkg, int which,
			const struct pp_vars *v, const struct strbuf *snippet,
			const char *root, struct pp_err *err)
{
	const char *given = spec_script(s, &s->pkgs[pkg], which, err);
	struct strbuf text = STRBUF_INIT;
	char *mark;
	int rc = 0;

	if (given) {
		rc = expand_script(v, given, &text, err);
		mark = rc == 0 ? strstr(text.buf, "#PADPACK#") : NULL;
		if (rc == 0 && snippet->len && !mark)
			rc = pp_err_set(err, PP_EXIT_INPUT, "%s: no #PADPACK# "
					"line where padpack's checks for %s go; "
					"add one", given, s->pkgs[pkg].name);
		if (rc == 0 && mark) {
			struct strbuf t = STRBUF_INIT;

			strbuf_add(&t, text.buf, (size_t)(mark - text.buf));
			strbuf_addstr(&t, snippet->buf);
			strbuf_addstr(&t, mark + 9 + (mark[9] == '\n'));
			strbuf_release(&text);
			text = t;
		}
	} else if (snippet->len) {
		strbuf_addf(&text, "#!/bin/sh\nset -e\n\n%s\nexit 0\n",
			    snippet->buf);
	}
	if (rc == 0 && text.len)
		rc = pp_split_write_ctrl(root, script_names[which], text.buf, 0755,
					 s->opts.timestamp, err);
	strbuf_release(&text);
	return rc;
}

int pp_split_maint_scripts(const struct pp_split *s, size_t pkg,
			    const char *root, struct pp_err *err)
{
	struct strbuf snip[PP_NR_SCRIPTS];
	struct pp_vars v = { PP_STRLIST_INIT, PP_STRLIST_INIT };
	int rc;

	for (int i = 0; i < PP_NR_SCRIPTS; i++)
		strbuf_init(&snip[i]);
	script_vars(s, &s->pkgs[pkg], &v);
	rc = snippets(s, pkg, &v, snip, err);
	for (int i = 0; rc == 0 && i < PP_NR_SCRIPTS; i++)
		rc = write_script(s, pkg, i, &v, &snip[i], root, err);
	for (int i = 0; i < PP_NR_SCRIPTS; i++)
		strbuf_release(&snip[i]);
	pp_vars_release(&v);
	return rc;
}
