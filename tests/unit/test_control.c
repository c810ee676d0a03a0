#include "../../src/lib/control.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

static const char good[] =
	"Package: hello\n"
	"Version: 1:1.2-3\n"
	"Architecture: amd64\n"
	"Maintainer: A <a@example.org>\n"
	"Depends: libc6 (>= 2.34), foo | bar (<< 2), baz:any\n"
	"Description: hello\n"
	" Long text.\n"
	" .\n"
	" More.\n";

static void parse_and_write(struct t_ctx *t)
{
	struct pp_stanza st;
	struct pp_err err;
	struct strbuf out = STRBUF_INIT;

	pp_err_init(&err);
	CHECK(pp_control_parse(good, strlen(good), "control", &st, &err) == 0);
	CHECK_STR(pp_stanza_get(&st, "package"), "hello");
	CHECK_STR(pp_stanza_get(&st, "Description"),
		  "hello\n Long text.\n .\n More.");
	CHECK(pp_control_check_binary(&st, "control", &err) == 0);
	pp_stanza_write(&st, &out);
	CHECK_STR(out.buf, good);
	pp_stanza_set(&st, "Installed-Size", "15");
	CHECK_STR(st.fields[4].name, "Installed-Size");
	strbuf_release(&out);
	pp_stanza_release(&st);
	pp_err_release(&err);
}

static const char *error_of(const char *text)
{
	static struct pp_err err;
	struct pp_stanza st;

	pp_err_init(&err);
	pp_err_release(&err);
	if (pp_control_parse(text, strlen(text), "c", &st, &err) < 0)
		return err.msg;
	if (pp_control_check_binary(&st, "c", &err) < 0) {
		pp_stanza_release(&st);
		return err.msg;
	}
	pp_stanza_release(&st);
	return "";
}

#define BASE "Package: a1\nVersion: 1\nArchitecture: all\n" \
	"Maintainer: A <a@b>\nDescription: x\n"

static void errors_name_the_line(struct t_ctx *t)
{
	CHECK_STR(error_of(BASE), "");
	CHECK(strstr(error_of(BASE "Foo bar\n"), "c:6: field name 'Foo' must "
		     "be followed by a colon"));
	CHECK(strstr(error_of(BASE "package: x\n"), "c:6: duplicate field "
		     "'package' (first given on line 1)"));
	CHECK(strstr(error_of(BASE "Foo: x\n \n"), "c:7: blank line"));
	CHECK(strstr(error_of(BASE "\nPackage: b\n"), "c:7: a second stanza"));
	CHECK(strstr(error_of("# c\n" BASE), "c:1: comment"));
	CHECK(strstr(error_of(BASE "Foo: x"), "missing newline"));
	CHECK(strstr(error_of(BASE "Essential: maybe\n"), "c:6: 'Essential' "
		     "field: invalid value 'maybe'; allowed: yes, no"));
	CHECK(strstr(error_of("Package: a1\nVersion: 1\nArchitecture: all\n"),
		     "missing 'Maintainer' field"));
	CHECK(strstr(error_of("Package: A1\nVersion: 1\nArchitecture: all\n"
			      "Maintainer: m\nDescription: d\n"),
		     "c:1: 'Package' field: package name 'A1'"));
	CHECK(strstr(error_of("Package: a1\nVersion: x1\nArchitecture: all\n"
			      "Maintainer: m\nDescription: d\n"),
		     "c:2: 'Version' field: version number does not start "
		     "with digit"));
	CHECK(strstr(error_of(BASE "Installed-Size: abc\n"), "whole number"));
	CHECK(strstr(error_of(BASE "Depends: a (>= 1\n"), "unterminated"));
	CHECK(strstr(error_of(BASE "Depends: a,,b\n"), "missing package name"));
	CHECK(strstr(error_of(BASE "Provides: a | b\n"), "alternatives"));
	CHECK(strstr(error_of(BASE "Provides: a (>= 1)\n"), "only exact"));
	CHECK(strstr(error_of(BASE "Depends: a [amd64]\n"), "source packages"));
}

static void multi_stanza(struct t_ctx *t)
{
	static const char text[] = "A: 1\n\nB: 2\nC: 3\n\n\n";
	struct pp_deb822 p;
	struct pp_stanza st;
	struct pp_err err;

	pp_err_init(&err);
	pp_deb822_init(&p, text, strlen(text), "x");
	CHECK(pp_deb822_next(&p, &st, &err) == 1);
	CHECK_STR(pp_stanza_get(&st, "A"), "1");
	pp_stanza_release(&st);
	CHECK(pp_deb822_next(&p, &st, &err) == 1);
	CHECK_STR(pp_stanza_get(&st, "C"), "3");
	CHECK_INT(st.line, 3);
	pp_stanza_release(&st);
	CHECK(pp_deb822_next(&p, &st, &err) == 0);
	pp_err_release(&err);
}

static void spans_of_stanzas(struct t_ctx *t)
{
	static const char text[] = "Package: a\nfILENAME: p/a.deb  \n"
		"X-Note: one\n two  \n\n three\n";
	struct pp_stanza_spans st = { NULL, 0, 0, 0 };
	const struct pp_field_span *f;
	struct strbuf v = STRBUF_INIT;
	struct pp_deb822 p;
	struct pp_err err;

	pp_err_init(&err);
	pp_deb822_init(&p, text, strlen(text), "x");
	CHECK(pp_deb822_scan(&p, &st, &err) == 1);
	CHECK_INT(st.nr, 3);
	CHECK_INT(st.line, 1);
	f = pp_spans_find(&st, "Filename", 8);
	CHECK(f && f->vlen == 7 && !memcmp(f->value, "p/a.deb", 7) && !f->more);
	CHECK(!pp_spans_find(&st, "File", 4));
	f = pp_spans_find(&st, "x-note", 6);
	CHECK(f && f->more);
	if (f)
		pp_field_span_value(f, &v);
	CHECK_STR(v.buf, "one\n two");
	/* the stanza after the blank line: a continuation without a field */
	CHECK(pp_deb822_scan(&p, &st, &err) == -1);
	CHECK(strstr(err.msg, "x:6: continuation line without a field"));
	pp_stanza_spans_release(&st);
	strbuf_release(&v);
	pp_err_release(&err);
}

/* The same faults in a control file (what to write instead) and in a
 * Release (named as such, no advice to edit a file a tool wrote). */
static void errors_worded_for_the_file(struct t_ctx *t)
{
	static const struct {
		const char *text, *control, *release;
	} cases[] = {
		{ "Suite stable\n",
		  "f:1: field name 'Suite' must be followed by a colon: write "
		  "'Name: value'",
		  "f:1: field name 'Suite' must be followed by a colon" },
		{ "",
		  "f: no fields at all; a control file needs at least Package, "
		  "Version and Architecture",
		  "f: no fields at all; a Release file needs at least the SHA256 "
		  "list of its indices" },
		{ "A: 1\n\nB: 2\n",
		  "f:3: a second stanza starts here; a binary control file holds "
		  "exactly one (remove the empty line before it)",
		  "f:3: a second stanza starts here; a Release file holds "
		  "exactly one" },
		{ "# c\nA: 1\n",
		  "f:1: comment lines are not allowed here; remove the line",
		  "f:1: comment lines are not allowed in a Release file" },
		{ "A: 1\na: 2\n",
		  "f:2: duplicate field 'a' (first given on line 1); keep only "
		  "one",
		  "f:2: duplicate field 'a' (first given on line 1)" },
		{ "A: 1", "f:1: missing newline at the end of the file; add one",
		  "f:1: missing newline at the end of the file" },
	};
	struct pp_stanza st;
	struct pp_err err;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *s = cases[i].text;

		pp_err_init(&err);
		CHECK(pp_control_parse(s, strlen(s), "f", &st, &err) < 0);
		CHECK_STR(err.msg, cases[i].control);
		pp_err_release(&err);
		pp_err_init(&err);
		CHECK(pp_deb822_parse_one(s, strlen(s), "f", PP_DEB822_RELEASE,
					  &st, &err) < 0);
		CHECK_STR(err.msg, cases[i].release);
		pp_err_release(&err);
	}
}

T_SUITE(control_tests) = {
	{ "control parse, edit and write", parse_and_write },
	{ "control errors name file, line and field", errors_name_the_line },
	{ "parse errors worded for a control file or a Release",
	  errors_worded_for_the_file },
	{ "deb822 with several stanzas", multi_stanza },
	{ "deb822 stanzas as spans: any case, continuation lines, errors",
	  spans_of_stanzas },
	T_END,
};

static void deps_roundtrip(struct t_ctx *t)
{
	struct pp_deps d;
	struct pp_err err;
	struct strbuf out = STRBUF_INIT;

	pp_err_init(&err);
	CHECK(pp_deps_parse("libc6 (>= 2.34),foo|bar (<<2), baz:any",
			    PP_DEPS_DEPENDS, &d, &err) == 0);
	CHECK_INT(d.nr, 3);
	CHECK_INT(d.groups[1].nr, 2);
	pp_deps_write(&d, &out);
	CHECK_STR(out.buf, "libc6 (>= 2.34), foo | bar (<< 2), baz:any");
	pp_deps_release(&d);
	strbuf_release(&out);
	pp_err_release(&err);
}

T_SUITE(deps_tests) = {
	{ "relationship fields parse and print", deps_roundtrip },
	T_END,
};

static const char broken[] =
	" continuation first\n"
	"Package: broken\n"
	"no colon here\n"
	" continues the bad line\n"
	"Version: 1.0-1\n"
	"package: again\n"
	"Revision: 7\n"
	"Depends: a (>= 0:1),\n"
	"  b | c\n"
	"Homepage: h";

static void lenient_reads_what_it_can(struct t_ctx *t)
{
	struct strbuf out = STRBUF_INIT;
	const char *name = NULL;
	struct pp_stanza st;
	struct pp_err err;

	pp_err_init(&err);
	pp_control_parse_lenient(broken, strlen(broken), "control", &st, &err);
	CHECK_INT(st.nr, 5);
	CHECK_STR(pp_stanza_get(&st, "Package"), "broken");
	CHECK_STR(pp_stanza_get(&st, "Homepage"), "h");
	CHECK(strstr(err.warnings.buf, "control:1: continuation line without "
		     "a field") != NULL);
	CHECK(strstr(err.warnings.buf, "control:3: not a 'Name: value'") != NULL);
	CHECK(strstr(err.warnings.buf, "control:4:") == NULL);
	CHECK(strstr(err.warnings.buf, "control:6: duplicate field 'package'") !=
	      NULL);
	CHECK(strstr(err.warnings.buf, "control:10: no newline") != NULL);
	CHECK(pp_field_show(&st, "version", 0, &name, &out, &err) == 1);
	CHECK_STR(name, "Version");
	CHECK_STR(out.buf, "1.0-1-7");
	CHECK(strstr(err.warnings.buf, "obsolete 'Revision' field") != NULL);
	strbuf_reset(&out);
	CHECK(pp_field_show(&st, "DEPENDS", 1, &name, &out, &err) == 1);
	CHECK_STR(out.buf, "a (>= 1), b | c");
	strbuf_reset(&out);
	CHECK(pp_field_show(&st, "Essential", 1, &name, &out, &err) == 0);
	CHECK(pp_field_show(&st, "Essential", 0, &name, &out, &err) == 1);
	CHECK_STR(out.buf, "no");
	strbuf_release(&out);
	pp_stanza_release(&st);
	pp_err_release(&err);
}

T_SUITE(lenient_tests) = {
	{ "forgiving control reading and dpkg's view of fields",
	  lenient_reads_what_it_can },
	T_END,
};
