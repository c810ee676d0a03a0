/* The spec's settings for padpack split: what they load into, and the
 * errors that name file, line and setting. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../src/lib/spec.h"
#include "test.h"

#define HEAD \
	"name = \"demo\";\n" \
	"maintainer = \"A B <a@b.org>\";\n" \
	"homepage = \"https://example.org/\";\n" \
	"summary = \"a demo\";\n" \
	"description = \"A demo.\";\n"
#define AXES(avx, noavx) \
	"axes = ( { name = \"isa\"; values = (\n" \
	"  { name = \"avx\"; suffix = \"\"; " avx " },\n" \
	"  { name = \"noavx\"; suffix = \"noavx\"; " noavx " }\n" \
	"); } );\n"

#define TMPL "/tmp/padpack-splitspec-XXXXXX"

static void fails(struct t_ctx *t, const char *text, const char *want1,
		  const char *want2)
{
	struct pp_spec spec;
	struct pp_err err;

	pp_err_init(&err);
	CHECK_INT(t_spec_load_text(TMPL, text, &spec, &err, NULL), -1);
	CHECK_INT(err.code, PP_EXIT_INPUT);
	if (!strstr(err.msg, want1) || !strstr(err.msg, want2))
		t_fail(t, __FILE__, __LINE__, "'%s' lacks '%s' or '%s'",
		       err.msg, want1, want2);
	pp_err_release(&err);
}

static void loads(struct t_ctx *t)
{
	struct pp_spec spec;
	struct pp_err err;
	int rc;

	pp_err_init(&err);
	rc = t_spec_load_text(TMPL, HEAD AXES("isa = \"x86-64-v3\"; isa_require = [ \"avx\" ];",
			    "isa = \"x86-64-v2+AES\"; forbid_isa = [ \"avx\" ];"
			    " accelerator = { what = \"drv\"; libs = "
			    "[ \"libdrv.so.1\" ]; };")
		  "packages = { revision = \"3\"; title = \"Demo\";\n"
		  " copyright = \"c/copyright\"; section = \"science\";\n"
		  " files = ( { path = \"usr/x/*\"; drop = \"unused\"; },\n"
		  "  { path = \"usr/y/*\"; package = \"demo-y\"; role = \"data\"; } );\n"
		  " isa_dispatch = ( { path = \"usr/lib/*\"; symbols = [ \"*_avx2\" ];"
		  " ifunc = true; } );\n"
		  " control = ( { package = \"demo*\"; fields = { Section = \"x\"; };"
		  " postinst = \"p.postinst\"; } ); };\n", &spec, &err, NULL);
	CHECK_INT(rc, 0);
	if (rc == 0) {
		CHECK_STR(spec.revision, "3");
		CHECK_STR(spec.copyright, "/tmp/c/copyright"); /* by the spec */
		CHECK_STR(spec.axes[0].values[0].isa, "x86-64-v3");
		CHECK_STR(spec.axes[0].values[0].isa_require.items[0], "avx");
		CHECK_STR(spec.axes[0].values[1].accel.libs.items[0],
			  "libdrv.so.1");
		CHECK(spec.nr_files == 2 && spec.files[0].drop &&
		      !strcmp(spec.files[1].role, "data"));
		CHECK(spec.nr_isa_dispatch == 1 && spec.isa_dispatch[0].ifunc);
		CHECK(spec.nr_control == 1 &&
		      !strcmp(spec.control[0].fields.items[0], "Section=x") &&
		      !strcmp(spec.control[0].scripts[PP_POSTINST],
			      "/tmp/p.postinst"));
		pp_spec_release(&spec);
	}
	pp_err_release(&err);
}

static void errors(struct t_ctx *t)
{
	fails(t, HEAD AXES("isa = \"x86-64-v9\";", ""),
	      "setting 'axes[isa].values[avx].isa'", ":7:");
	fails(t, HEAD AXES("isa_require = [ \"avx9\" ];", ""),
	      "'axes[isa].values[avx].isa_require[0]'",
	      "unknown instruction set 'avx9'");
	fails(t, HEAD AXES("", "accelerator = { what = \"d\"; libs = "
			   "[ \"/usr/lib/x.so\" ]; };"),
	      "'axes[isa].values[noavx].accelerator.libs'", "give SONAMEs");
	fails(t, HEAD AXES("", "") "packages = { files = ( { path = \"a\"; } ); };\n",
	      "'packages.files[0]'", "needs either package");
	fails(t, HEAD AXES("", "") "packages = { files = ( { path = \"a\";"
	      " package = \"x\"; role = \"lib\"; } ); };\n",
	      "'packages.files[0].role'", "unknown role 'lib'");
	fails(t, HEAD AXES("", "") "packages = { control = ( { package = \"x\";"
	      " fields = { Package = \"y\"; }; } ); };\n",
	      "'packages.control[0].fields.Package'", "other than Package");
	fails(t, HEAD AXES("", "") "packages = { isa_dispatch = ( { path = \"a\";"
	      " } ); };\n", "'packages.isa_dispatch[0]'", "exempts nothing");
	fails(t, HEAD AXES("", "") "packages = { revision = \"1-2\"; };\n",
	      "'packages.revision'", "a Debian revision");
	fails(t, HEAD AXES("", "") "packages = { urgency = \"soon\"; };\n",
	      "'packages.urgency'", "low, medium, high");
}

const struct t_case splitspec_tests[] = {
	{ "split spec: packages, isa, accelerator, dispatch settings", loads },
	{ "split spec: errors name file, line and setting", errors },
	{ NULL, NULL },
};
