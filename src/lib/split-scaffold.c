/* padpack split --scaffold: a spec written from a staged tree, as dh_make
 * writes debian/: every setting with the value padpack would use, and the
 * packages the defaults make, to be corrected by hand. */
#include <stdio.h>
#include <string.h>

#include "splitint.h"

static void quoted(struct strbuf *out, const char *name, const char *value,
		   const char *indent)
{
	strbuf_addf(out, "%s%s = \"", indent, name);
	for (const char *p = value; *p; p++) {
		if (*p == '"' || *p == '\\')
			strbuf_addch(out, '\\');
		strbuf_addch(out, *p == '\n' ? ' ' : *p);
	}
	strbuf_addstr(out, "\";\n");
}

static void list_packages(const struct pp_split *s, struct strbuf *out)
{
	strbuf_addstr(out, "\t# The packages these settings make (padpack split "
		      "--explain says why\n\t# each file goes where it goes):\n");
	for (size_t i = 0; i < s->nr_pkgs; i++) {
		const struct pp_split_pkg *p = &s->pkgs[i];
		size_t shown = 0;

		if (p->role == PP_ROLE_DBGSYM)
			continue;
		strbuf_addf(out, "\t#   %s (%s): %zu file%s:", p->name,
			    pp_role_name(p->role), p->nr_files,
			    p->nr_files == 1 ? "" : "s");
		for (size_t k = 0; k < p->nr_files && shown < 3; k++, shown++)
			strbuf_addf(out, " %s", pp_split_at(s, p->files[k])->path);
		strbuf_addstr(out, p->nr_files > shown ? " ...\n" : "\n");
	}
}

void pp_split_scaffold(const struct pp_split *s, const char *stage,
		       const char *copyright, struct strbuf *out)
{
	const struct pp_spec *spec = s->spec;

	strbuf_addf(out, "# The padpack split spec of %s, written by padpack "
		    "split --scaffold from the\n# staged tree %s: each setting "
		    "has the value padpack uses without it.\n# Correct what is "
		    "wrong (the summary and description first), then:\n#   "
		    "padpack split -c THIS-FILE --stage %s\n", spec->name, stage,
		    stage);
	quoted(out, "name", spec->name, "");
	quoted(out, "version", s->upstream, "");
	quoted(out, "maintainer", spec->maintainer, "");
	if (spec->homepage)
		quoted(out, "homepage", spec->homepage, "");
	else
		strbuf_addstr(out, "# homepage = \"https://...\";\n");
	strbuf_addstr(out, "# One line of under 80 characters:\n");
	quoted(out, "summary", spec->summary, "");
	strbuf_addstr(out, "# A paragraph or more:\n");
	quoted(out, "description", spec->description, "");
	strbuf_addstr(out, "packages = {\n");
	quoted(out, "revision", spec->revision ? spec->revision : "1", "\t");
	if (spec->epoch)
		strbuf_addf(out, "\tepoch = %ld;\n", spec->epoch);
	strbuf_addf(out, "\t# A DEP-5 file; this one is %s:\n",
		    spec->copyright ? "a copy of the one given" : "made from "
		    "the license file the tree ships");
	quoted(out, "copyright", copyright, "\t");
	strbuf_addf(out, "\t# \"one\": every shared library in one runtime "
		    "package (as libxslt1.1); \"soname\": one each; \"auto\":\n"
		    "\t# one when the programs only use them together:\n"
		    "\truntime = \"%s\";\n", spec->runtime_one ? "one" :
		    spec->runtime_soname ? "soname" : "auto");
	strbuf_addf(out, "\t# \"auto\": a -doc package for a manual of 512 KiB "
		    "or one Doxygen, gtk-doc or\n\t# Sphinx made; \"none\": "
		    "documents in -dev (as libvorbis-dev); \"package\": all "
		    "in -doc:\n\tdoc = \"%s\";\n", spec->doc_none ? "none" :
		    spec->doc_package ? "package" : "auto");
	list_packages(s, out);
	strbuf_addstr(out, "\t# A rule sends files elsewhere, or drops them:\n"
		      "\t# files = ( { path = \"usr/lib/*/libfoo.so.*\"; "
		      "package = \"libfoo2\"; },\n"
		      "\t#           { path = \"usr/share/doc/*/INSTALL\"; "
		      "drop = \"not for users\"; } );\n};\n");
}
