#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../src/lib/fsutil.h"
#include "../../src/lib/spec.h"
#include "test.h"

/* A small valid spec; tests append to it or replace parts of it. */
#define HEAD \
	"name = \"demo\";\n" \
	"maintainer = \"A B <a@b.org>\";\n" \
	"homepage = \"https://example.org/\";\n" \
	"summary = \"a demo\";\n" \
	"description = \"A demo.\";\n"
#define DEVICE_AXIS \
	"{ name = \"device\"; values = (\n" \
	"  { name = \"cpu\"; suffix = \"\"; cmake = [ \"-DWITH_GPU=OFF\" ]; },\n" \
	"  { name = \"gpu\"; suffix = \"gpu\";\n" \
	"    cmake = [ \"-DCUDA=@nvcc@\", \"-DV=@version@-@variant@\" ];\n" \
	"    needs = ( { program = \"nvcc\"; what = \"CUDA\"; } ); }\n" \
	"); }"
#define ISA_AXIS \
	"{ name = \"isa\"; values = (\n" \
	"  { name = \"avx\"; suffix = \"\"; },\n" \
	"  { name = \"noavx\"; suffix = \"noavx\"; cflags = [ \"-mno-avx\" ];\n" \
	"    forbid_isa = [ \"avx\", \"fma\" ]; }\n" \
	"); }"

#define SPEC_TMPL "/tmp/padpack-spec-XXXXXX"

/* Loading text fails with a message holding every one of want[]. */
static void fails_with(struct t_ctx *t, const char *text, const char *line,
		       const char *const *want)
{
	struct pp_spec spec;
	struct pp_err err;
	char path[64], where[96];

	pp_err_init(&err);
	CHECK_INT(t_spec_load_text(SPEC_TMPL, text, &spec, &err, path), -1);
	CHECK_INT(err.code, PP_EXIT_INPUT);
	snprintf(where, sizeof(where), "%s:%s: ", path, line);
	if (*line && !strstr(err.msg, where))
		t_fail(t, __FILE__, __LINE__, "'%s' lacks '%s'", err.msg, where);
	for (; *want; want++)
		if (!strstr(err.msg, *want))
			t_fail(t, __FILE__, __LINE__, "'%s' lacks '%s'",
			       err.msg, *want);
	pp_err_release(&err);
}

static void paddle_spec(struct t_ctx *t)
{
	static const char *const names[] = { "cpu-avx", "cpu-noavx",
					     "gpu-avx", "gpu-noavx" };
	static const char *const suffixes[] = { "", "noavx", "gpu",
						"gpu-noavx" };
	struct pp_spec spec;
	struct pp_err err;

	pp_err_init(&err);
	CHECK_INT(pp_spec_load("pkg/paddle-separate.cfg", &spec, &err), 0);
	if (err.msg[0])
		t_fail(t, __FILE__, __LINE__, "%s", err.msg);
	CHECK_INT(spec.nr_variants, 4);
	for (size_t i = 0; i < 4 && i < spec.nr_variants; i++) {
		CHECK_STR(spec.variants[i].name, names[i]);
		CHECK_STR(spec.variants[i].suffix, suffixes[i]);
	}
	CHECK_STR(spec.name, "paddle");
	CHECK_STR(spec.source, "pkg/paddle");
	CHECK_STR(spec.version_env, "PADDLE_VERSION");
	CHECK(spec.nr_axes == 2 && spec.axes[1].nr_values == 2);
	CHECK(pp_strlist_find(&spec.axes[1].values[1].set.cflags,
			      "-mno-avx2") >= 0);
	CHECK(pp_strlist_find(&spec.axes[1].values[1].forbid_isa, "avx") >= 0);
	CHECK_STR(spec.axes[0].values[1].set.needs[0].program, "nvcc");
	CHECK(spec.nr_needed >= 1 && spec.copyright && spec.title);
	pp_spec_release(&spec);
	pp_err_release(&err);
}

/* A third axis, and a new kind of device with its own toolkit, are
 * settings only: no code knows of python or musa. */
static void third_axis_and_device(struct t_ctx *t)
{
	const char *text = HEAD "axes = ( " DEVICE_AXIS ", " ISA_AXIS ",\n"
		"{ name = \"python\"; values = (\n"
		"  { name = \"py3.11\"; suffix = \"py3.11\"; },\n"
		"  { name = \"py3.12\"; suffix = \"py3.12\";\n"
		"    cmake = [ \"-DPY=@python@\" ]; }\n"
		"); } );\n"
		"exclude = [ \"gpu-noavx-*\" ];\n";
	struct pp_spec spec;
	struct pp_err err;
	char path[64];

	pp_err_init(&err);
	CHECK_INT(t_spec_load_text(SPEC_TMPL, text, &spec, &err, path), 0);
	if (err.msg[0])
		t_fail(t, __FILE__, __LINE__, "%s", err.msg);
	CHECK_INT(spec.nr_variants, 6);
	CHECK(pp_spec_find_variant(&spec, "gpu-avx-py3.12") != NULL);
	CHECK(pp_spec_find_variant(&spec, "gpu-noavx-py3.11") == NULL);
	CHECK_STR(spec.variants[3].name, "cpu-noavx-py3.12");
	CHECK_STR(spec.variants[3].suffix, "noavx-py3.12");
	pp_spec_release(&spec);
	pp_err_release(&err);
}

static void new_device_kind(struct t_ctx *t)
{
	const char *text = HEAD "axes = ( { name = \"device\"; values = (\n"
		"  { name = \"cpu\"; suffix = \"\"; },\n"
		"  { name = \"musa\"; suffix = \"musa\";\n"
		"    cmake = [ \"-DWITH_MUSA=ON\", \"-DMCC=@mcc@\" ];\n"
		"    needs = ( { program = \"mcc\"; what = \"the MUSA toolkit\";\n"
		"                search = [ \"/usr/local/musa/bin\" ]; } );\n"
		"    container = { base = \"mthreads/musa:rc\";\n"
		"      run_flags = [ \"--privileged\", \"--shm-size=80g\" ];"
		" }; }\n"
		"); } );\n";
	struct pp_spec spec;
	struct pp_err err;
	char path[64];

	pp_err_init(&err);
	CHECK_INT(t_spec_load_text(SPEC_TMPL, text, &spec, &err, path), 0);
	CHECK_INT(spec.nr_variants, 2);
	CHECK_STR(spec.variants[1].name, "musa");
	CHECK_STR(spec.axes[0].values[1].container.run_flags.items[0],
		  "--privileged");
	CHECK_STR(spec.axes[0].values[1].set.needs[0].search.items[0],
		  "/usr/local/musa/bin");
	pp_spec_release(&spec);
	pp_err_release(&err);
}

#define WANT(...) ((const char *const[]){ __VA_ARGS__, NULL })

static void syntax_error(struct t_ctx *t)
{
	fails_with(t, HEAD "axes = ( { name = \"a\"; values = ( );\n", "",
		   WANT("syntax error", "libconfig"));
	fails_with(t, "name = \"demo\";\nversion = ;\n", "2",
		   WANT("syntax error"));
}

static void unknown_setting(struct t_ctx *t)
{
	fails_with(t, HEAD "axes = ( { name = \"device\"; values = (\n"
		   "  { name = \"cpu\"; sufix = \"\"; }\n); } );\n", "7",
		   WANT("setting 'axes[device].values[cpu].sufix'",
			"unknown setting", "allowed here: name, suffix, cmake"));
	fails_with(t, HEAD "buid = { };\naxes = ( " ISA_AXIS " );\n", "6",
		   WANT("setting 'buid'", "allowed here: name, version"));
}

static void wrong_types(struct t_ctx *t)
{
	fails_with(t, HEAD "version = 1.5;\naxes = ( " ISA_AXIS " );\n", "6",
		   WANT("setting 'version'", "is a decimal number",
			"must be an upstream version"));
	fails_with(t, HEAD "build = { cmake = \"-DX=1\"; };\n"
		   "axes = ( " ISA_AXIS " );\n", "6",
		   WANT("'build.cmake'", "is a string", "list of CMake"));
	fails_with(t, HEAD "build = { env = { CC = 1; }; };\n"
		   "axes = ( " ISA_AXIS " );\n", "6",
		   WANT("'build.env.CC'", "must be a string"));
	fails_with(t, HEAD "axes = ( " ISA_AXIS ", { name = \"x\"; } );\n", "",
		   WANT("setting 'axes[x]'", "lacks 'values'"));
}

static void bad_values(struct t_ctx *t)
{
	fails_with(t, HEAD "version = \"v1.2\";\naxes = ( " ISA_AXIS " );\n",
		   "6", WANT("'version'", "'v1.2' is not valid"));
	fails_with(t, HEAD "axes = ( { name = \"d\"; values = (\n"
		   "  { name = \"Cpu\"; suffix = \"\"; } ); } );\n", "7",
		   WANT("'axes[d].values[Cpu].name'", "lower-case"));
	fails_with(t, HEAD "axes = ( { name = \"d\"; values = (\n"
		   "  { name = \"a\"; suffix = \"\"; },\n"
		   "  { name = \"a\"; suffix = \"x\"; } ); } );\n", "8",
		   WANT("two values named 'a'"));
	fails_with(t, HEAD "axes = ( { name = \"d\"; values = (\n"
		   "  { name = \"a\"; suffix = \"\"; },\n"
		   "  { name = \"b\"; suffix = \"\"; } ); } );\n", "6",
		   WANT("'a' and 'b' have the same suffix"));
	fails_with(t, HEAD "build = { env = { bad-name = \"1\"; }; };\n"
		   "axes = ( " ISA_AXIS " );\n", "6",
		   WANT("'build.env.bad-name'", "not a variable name"));
	fails_with(t, HEAD "axes = ( " ISA_AXIS " );\n"
		   "image = { mount = \"paddle\"; };\n", "11",
		   WANT("'image.mount'", "absolute"));
}

static void bad_isa_and_placeholders(struct t_ctx *t)
{
	fails_with(t, HEAD "axes = ( { name = \"isa\"; values = (\n"
		   "  { name = \"a\"; suffix = \"\"; forbid_isa = [ \"avx3\" ];"
		   " } ); } );\n", "7",
		   WANT("forbid_isa[0]", "unknown instruction set 'avx3'",
			"known: avx, avx2"));
	fails_with(t, HEAD "build = { cmake = [ \"-DV=@vesion@\" ]; };\n"
		   "axes = ( " ISA_AXIS " );\n", "6",
		   WANT("'build.cmake[0]'", "unknown placeholder @vesion@",
			"@version@", "@isa@"));
	/* a tool's placeholder only where the tool is needed */
	fails_with(t, HEAD "build = { cmake = [ \"-DC=@nvcc@\" ]; };\n"
		   "axes = ( " DEVICE_AXIS " );\n", "6",
		   WANT("unknown placeholder @nvcc@"));
	/* a literal @ is not a placeholder */
	{
		struct pp_spec spec;
		struct pp_err err;
		char path[64];

		pp_err_init(&err);
		CHECK_INT(t_spec_load_text(SPEC_TMPL, HEAD "build = { cmake = [ \"-DM=a@b.c\","
				    " \"-DX=@-@\" ]; };\naxes = ( " ISA_AXIS
				    " );\n", &spec, &err, path), 0);
		pp_spec_release(&spec);
		pp_err_release(&err);
	}
}

static void bad_exclude(struct t_ctx *t)
{
	fails_with(t, HEAD "axes = ( " ISA_AXIS " );\n"
		   "exclude = [ \"sse\" ];\n", "11",
		   WANT("'exclude[0]'", "'sse' matches no variant",
			"variants: avx, noavx"));
	fails_with(t, HEAD "axes = ( " ISA_AXIS " );\n"
		   "exclude = [ \"*\" ];\n", "11",
		   WANT("excludes every variant"));
}

static void expand_and_select(struct t_ctx *t)
{
	struct pp_strlist tools = PP_STRLIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	struct pp_spec spec;
	struct pp_err err;
	unsigned char sel[8];
	char path[64], *pats[] = { "gpu-*", "cpu-avx" }, *bad[] = { "tpu" };

	pp_err_init(&err);
	CHECK_INT(t_spec_load_text(SPEC_TMPL, HEAD "axes = ( " DEVICE_AXIS ", " ISA_AXIS " );\n",
			    &spec, &err, path), 0);
	pp_strlist_push(&tools, "nvcc=/opt/cuda/bin/nvcc");
	{
		struct pp_expand_ctx ctx = { &spec, &spec.variants[3], "1.2.3",
					     1, 4, &tools };

		CHECK_INT(pp_spec_expand("@name@ @version@ @variant@ "
					 "[@suffix@] @device@/@isa@ @test@ -j@jobs@"
					 " @nvcc@ a@b", &ctx, &sb, &err), 0);
		CHECK_STR(sb.buf, "demo 1.2.3 gpu-noavx [gpu-noavx] gpu/noavx "
			  "ON -j4 /opt/cuda/bin/nvcc a@b");
	}
	CHECK_INT(pp_spec_select(&spec, pats, 2, sel, &err), 0);
	CHECK(sel[0] && !sel[1] && sel[2] && sel[3]);
	CHECK_INT(pp_spec_select(&spec, NULL, 0, sel, &err), 0);
	CHECK(sel[0] && sel[1] && sel[2] && sel[3]);
	CHECK_INT(pp_spec_select(&spec, bad, 1, sel, &err), -1);
	CHECK_INT(err.code, PP_EXIT_USAGE);
	CHECK(strstr(err.msg, "--variant 'tpu'") &&
	      strstr(err.msg, "cpu-avx, cpu-noavx, gpu-avx, gpu-noavx"));
	pp_strlist_release(&tools);
	strbuf_release(&sb);
	pp_spec_release(&spec);
	pp_err_release(&err);
}

static void versions(struct t_ctx *t)
{
	struct pp_spec spec;
	struct pp_err err;
	enum pp_version_origin from;
	char path[64], *v = NULL;

	CHECK(pp_version_is_release("0.11.0"));
	CHECK(pp_version_is_release("1.0.0rc2"));
	CHECK(pp_version_is_release("2.1.3b1"));
	CHECK(pp_version_is_release("2.14"));
	CHECK(!pp_version_is_release("1"));
	CHECK(!pp_version_is_release("1.2.3.4"));
	CHECK(!pp_version_is_release("1..2"));
	CHECK(!pp_version_is_release("1.0.0-1"));
	CHECK(!pp_version_is_release("v1.0.0"));
	CHECK(pp_version_is_release("1.0.0rc"));
	CHECK(pp_version_is_release("1.0-beta"));
	CHECK(pp_version_is_release("2.0.rc.1"));
	CHECK(pp_version_is_release("3.1_pre2"));
	CHECK(pp_version_is_release("2.0-RC1"));
	CHECK(pp_version_is_release("1.2.0-Beta.3"));
	CHECK(!pp_version_is_release("1.0-b1")); /* a or b only right after */
	CHECK(!pp_version_is_release("1.0-betamax"));
	CHECK(!pp_version_is_release("1.0-rc1x"));
	CHECK(!pp_version_is_release("1.0--rc1"));
	CHECK(pp_version_is_upstream("1.4.2+ds"));
	CHECK(pp_version_is_upstream("2.1.12-stable"));
	CHECK(pp_version_is_upstream("0.9.24"));
	CHECK(pp_version_is_upstream("1.0~rc1"));
	CHECK(!pp_version_is_upstream("v1.0"));
	CHECK(!pp_version_is_upstream("1:2.1.5"));
	CHECK(!pp_version_is_upstream("1.0 beta"));
	CHECK(!pp_version_is_upstream(""));
	pp_err_init(&err);
	CHECK_INT(t_spec_load_text(SPEC_TMPL, HEAD "version = \"1.2.3\";\n"
			    "version_env = \"PP_TEST_VERSION\";\n"
			    "axes = ( " ISA_AXIS " );\n", &spec, &err, path), 0);
	unsetenv("PP_TEST_VERSION");
	CHECK_INT(pp_spec_version(&spec, "/nonexistent", &v, &from, &err), 0);
	CHECK_STR(v, "1.2.3");
	CHECK_INT(from, PP_VERSION_SPEC);
	free(v);
	setenv("PP_TEST_VERSION", "2.0.0rc1", 1);
	CHECK_INT(pp_spec_version(&spec, "/nonexistent", &v, &from, &err), 0);
	CHECK_STR(v, "2.0.0rc1");
	CHECK_INT(from, PP_VERSION_ENV);
	free(v);
	setenv("PP_TEST_VERSION", "two", 1);
	CHECK_INT(pp_spec_version(&spec, "/nonexistent", &v, &from, &err), -1);
	CHECK(strstr(err.msg, "PP_TEST_VERSION='two' is not a version") != NULL);
	unsetenv("PP_TEST_VERSION");
	free(spec.version);
	spec.version = NULL; /* no version, not a git tree: 0.0.0, warned */
	CHECK_INT(pp_spec_version(&spec, "/nonexistent", &v, &from, &err), 0);
	CHECK_STR(v, "0.0.0");
	CHECK_INT(from, PP_VERSION_DEFAULT);
	CHECK(strstr(err.warnings.buf, "0.0.0") != NULL);
	free(v);
	pp_spec_release(&spec);
	pp_err_release(&err);
}

/* pkg/openblas.cfg: a make build, its variables per value; a plain spec
 * is CMake. */
static void build_systems(struct t_ctx *t)
{
	struct pp_spec spec;
	struct pp_err err;
	char path[64];
	static const char *const cmake_in_make[] = {
		"setting 'build.cmake': the make build system (build.system) "
		"does not read it; it is for cmake", NULL,
	};

	pp_err_init(&err);
	CHECK_INT(pp_spec_load("pkg/openblas.cfg", &spec, &err), 0);
	if (err.msg[0])
		t_fail(t, __FILE__, __LINE__, "%s", err.msg);
	CHECK_INT(spec.nr_variants, 6);
	CHECK(spec.system.kind == PP_BUILD_MAKE && spec.system.buildflags);
	CHECK_STR(spec.system.make_target, "libs shared");
	CHECK(pp_strlist_find(&spec.build.make_vars, "NO_LAPACK=1") >= 0);
	CHECK(pp_strlist_find(&spec.axes[1].values[1].set.make_vars,
			      "TARGET=HASWELL") >= 0);
	CHECK_STR(pp_build_kind_name(spec.system.kind), "make");
	pp_spec_release(&spec);
	CHECK_INT(t_spec_load_text(SPEC_TMPL, HEAD "axes = ( " ISA_AXIS " );\n", &spec, &err,
			    path), 0);
	CHECK(spec.system.kind == PP_BUILD_CMAKE && !spec.system.buildflags);
	pp_spec_release(&spec);
	pp_err_release(&err);
	fails_with(t, HEAD "build = { system = \"make\";\n"
		   "cmake = [ \"-DX=1\" ]; };\naxes = ( " ISA_AXIS " );\n",
		   "7", cmake_in_make);
}

#define HWCAPS_AXIS \
	"{ name = \"isa\"; pack = \"hwcaps\"; values = (\n" \
	"  { name = \"v3\"; suffix = \"\"; isa = \"x86-64-v3\"; },\n" \
	"  { name = \"base\"; suffix = \"\"; isa = \"x86-64\"; },\n" \
	"  { name = \"v4\"; suffix = \"\"; isa = \"x86-64-v4\"; }\n" \
	"); }"

/* pack = "hwcaps": the lowest level is the baseline, wherever it is
 * listed; each variant's baseline keeps the other axes' values; the
 * values may share the suffix "". pkg/paddle.cfg, the bundled default,
 * is this form: its values' suffixes (for pack = "packages") are unused,
 * so the CPU variants of a device share one. */
static void hwcaps_axis(struct t_ctx *t)
{
	static const char *const dup[] = { "'v3' is also the level of "
					   "value 'v3' (line 8)", NULL };
	struct pp_spec spec;
	struct pp_err err;
	const struct pp_variant *v;

	pp_err_init(&err);
	CHECK_INT(t_spec_load_text(SPEC_TMPL, HEAD "axes = ( " DEVICE_AXIS ", "
				   HWCAPS_AXIS " );\n", &spec, &err, NULL), 0);
	CHECK_INT(pp_spec_hwcaps_axis(&spec), 1);
	CHECK_INT(spec.axes[1].hwcaps_base, 1);
	v = pp_spec_find_variant(&spec, "gpu-v4");
	CHECK(v && pp_spec_hwcaps_higher(&spec, v));
	CHECK(v && pp_spec_hwcaps_base(&spec, v) ==
	      pp_spec_find_variant(&spec, "gpu-base"));
	v = pp_spec_find_variant(&spec, "cpu-base");
	CHECK(v && !pp_spec_hwcaps_higher(&spec, v) &&
	      pp_spec_hwcaps_base(&spec, v) == v);
	pp_spec_release(&spec);
	CHECK_INT(t_spec_load_text(SPEC_TMPL, HEAD "axes = ( " ISA_AXIS " );\n",
				   &spec, &err, NULL), 0);
	CHECK_INT(pp_spec_hwcaps_axis(&spec), -1);
	CHECK(pp_spec_hwcaps_base(&spec, &spec.variants[0]) == NULL);
	pp_spec_release(&spec);
	CHECK_INT(pp_spec_load("pkg/paddle.cfg", &spec, &err), 0);
	CHECK_INT(spec.nr_variants, 6);
	CHECK_INT(pp_spec_hwcaps_axis(&spec), 1);
	v = pp_spec_find_variant(&spec, "cpu-base");
	CHECK(v && !strcmp(v->suffix, ""));
	v = pp_spec_find_variant(&spec, "gpu-v4");
	CHECK(v && !strcmp(v->suffix, "gpu"));
	CHECK_STR(spec.axes[1].values[0].suffix, "");
	pp_spec_release(&spec);
	pp_err_release(&err);
	fails_with(t, HEAD "axes = ( { name = \"isa\"; pack = \"hwcaps\"; "
		   "values = (\n"
		   "  { name = \"a\"; suffix = \"\"; isa = \"x86-64\"; },\n"
		   "  { name = \"v3\"; suffix = \"\"; isa = \"x86-64-v3\"; },\n"
		   "  { name = \"b\"; suffix = \"\"; isa = \"v3\"; }\n); } );\n",
		   "9", dup);
}

/* paddle.cfg split in two: its axes in a file it @includes, read from
 * disk relative to the spec's directory when the spec comes from memory. */
static void include_from_memory(struct t_ctx *t, const char *paddle)
{
	const char *axes = strstr(paddle, "\naxes = (");
	char dir[] = "/tmp/padpack-spec-XXXXXX", path[64], main_[64];
	struct strbuf text = STRBUF_INIT;
	struct pp_spec spec;
	struct pp_err err;
	FILE *f;

	pp_err_init(&err);
	if (!axes || !mkdtemp(dir)) {
		t_fail(t, __FILE__, __LINE__, "no axes, or no directory");
		return;
	}
	snprintf(path, sizeof(path), "%s/axes.cfg", dir);
	snprintf(main_, sizeof(main_), "%s/main.cfg", dir);
	f = fopen(path, "w");
	CHECK(f && fputs(axes + 1, f) >= 0 && fclose(f) == 0);
	strbuf_add(&text, paddle, (size_t)(axes + 1 - paddle));
	strbuf_addstr(&text, "@include \"axes.cfg\"\n");
	CHECK_INT(pp_spec_load_text(main_, text.buf, text.len, &spec, &err), 0);
	CHECK_INT(spec.nr_variants, 6);
	if (!err.code)
		pp_spec_release(&spec);
	CHECK_STR(err.msg, "");
	unlink(path);
	rmdir(dir);
	strbuf_release(&text);
	pp_err_release(&err);
}

/* pp_spec_load_text reads what pp_spec_load reads from the file, and
 * names that file in its messages. */
static void load_from_memory(struct t_ctx *t)
{
	static const char nul[] = HEAD "summary2 = \"x\0y\";\n";
	struct strbuf text = STRBUF_INIT;
	struct pp_spec spec, again;
	struct pp_err err;

	pp_err_init(&err);
	CHECK_INT(pp_read_file("pkg/paddle.cfg", &text, &err), 0);
	CHECK_INT(pp_spec_load("pkg/paddle.cfg", &spec, &err), 0);
	CHECK_INT(pp_spec_load_text("pkg/paddle.cfg", text.buf, text.len,
				    &again, &err), 0);
	CHECK_INT(again.nr_variants, spec.nr_variants);
	CHECK_STR(again.variants[3].name, spec.variants[3].name);
	CHECK_STR(again.path, "pkg/paddle.cfg");
	pp_spec_release(&again);
	pp_spec_release(&spec);
	include_from_memory(t, text.buf);
	CHECK_INT(pp_spec_load_text("x/s.cfg", "name = ;\n", 9, &spec, &err),
		  -1);
	CHECK(strstr(err.msg, "x/s.cfg:1: syntax error") != NULL);
	pp_err_release(&err);
	pp_err_init(&err);
	CHECK_INT(pp_spec_load_text("x/s.cfg", nul, sizeof(nul) - 1, &spec,
				    &err), -1);
	CHECK_INT(err.code, PP_EXIT_INPUT);
	CHECK(strstr(err.msg, "x/s.cfg: a NUL byte at offset") != NULL);
	strbuf_release(&text);
	pp_err_release(&err);
}

T_SUITE(spec_tests) = {
	{ "spec: loaded from memory as from its file", load_from_memory },
	{ "spec: pack = \"hwcaps\": the baseline, siblings, errors",
	  hwcaps_axis },
	{ "spec: pkg/paddle-separate.cfg has the four Paddle variants", paddle_spec },
	{ "spec: a third axis is config only", third_axis_and_device },
	{ "spec: a new device kind is config only", new_device_kind },
	{ "spec: syntax errors name file and line", syntax_error },
	{ "spec: unknown settings name the path and what is allowed",
	  unknown_setting },
	{ "spec: wrong types say what is expected", wrong_types },
	{ "spec: bad names, duplicates and colliding suffixes", bad_values },
	{ "spec: unknown ISAs and placeholders", bad_isa_and_placeholders },
	{ "spec: exclude must match a variant", bad_exclude },
	{ "spec: placeholders expand; --variant globs select", expand_and_select },
	{ "spec: version from env, spec, else 0.0.0", versions },
	{ "spec: build.system and what each system reads", build_systems },
	T_END,
};
