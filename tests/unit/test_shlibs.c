/* SONAME package names (lintian's expectations in formats.md §3.1), shlibs
 * and symbols files as dpkg-shlibdeps reads them, the symbols file split
 * writes, and the other pure helpers of padpack split. */
#include <stdlib.h>
#include <string.h>

#include "../../src/lib/fsutil.h"
#include "../../src/lib/shlibs.h"
#include "../../src/lib/splitint.h"
#include "test.h"

static void soname_packages(struct t_ctx *t)
{
	static const char *const cases[][2] = {
		{ "libhello.so.1", "libhello1" },
		{ "libbar.so.10", "libbar10" },
		{ "libfoo.so.1.2", "libfoo1.2" },
		{ "libfoo-2.so.0", "libfoo-2-0" },
		{ "libfoo2.so.0", "libfoo2-0" },
		{ "libfoo-1.2.so", "libfoo-1.2" },
		{ "libFoo_Bar.so.3", "libfoo-bar3" },
		{ "libpaddle.so.1", "libpaddle1" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *p = pp_soname_package(cases[i][0]);

		CHECK_STR(p, cases[i][1]);
		free(p);
	}
	CHECK(pp_soname_package("libnoversion.so") == NULL);
	CHECK(pp_soname_package("plugin.bin") == NULL);
}

static void soname_dev(struct t_ctx *t)
{
	char *d = pp_soname_dev_package("libjansson.so.4");
	char *name, *ver;

	CHECK_STR(d, "libjansson-dev");
	free(d);
	CHECK_INT(pp_soname_split("libc.so.6", &name, &ver), 0);
	CHECK_STR(name, "libc");
	CHECK_STR(ver, "6");
	free(name);
	free(ver);
	CHECK_INT(pp_soname_split("libfoo-2.3.so", &name, &ver), 0);
	CHECK_STR(name, "libfoo");
	CHECK_STR(ver, "2.3");
	free(name);
	free(ver);
	CHECK_INT(pp_soname_split("libx.so", &name, &ver), -1);
}

static const char libc_symbols[] =
	"libc.so.6 libc6 #MINVER#\n"
	"| libc6 (>> 2.36), libc6 (<< 2.37)\n"
	"* Build-Depends-Package: libc-dev\n"
	" GLIBC_2.2.5@GLIBC_2.2.5 2.2.5\n"
	" memcpy@GLIBC_2.14 2.14\n"
	" memcpy@GLIBC_2.2.5 2.2.5\n"
	" (arch=i386)only386@GLIBC_2.0 2.0\n"
	" (c++)\"foo::bar()@Base\" 2.0\n"
	" __libc_private@GLIBC_PRIVATE 0 1\n"
	"#MISSING: 2.30# gone@GLIBC_2.2.5 2.2.5\n"
	"libm.so.6 libc6 #MINVER#\n"
	" sqrt@GLIBC_2.2.5 2.2.5\n";

static void symbols_file(struct t_ctx *t)
{
	struct pp_symbols_file sf;
	struct pp_err err;
	const struct pp_symbols_object *o;
	const struct pp_symbol_entry *e;

	pp_err_init(&err);
	CHECK_INT(pp_symbols_parse(libc_symbols, strlen(libc_symbols), "t",
				   "amd64", &sf, &err), 0);
	CHECK_INT(sf.nr, 2);
	o = pp_symbols_find(&sf, "libc.so.6");
	CHECK(o != NULL);
	if (!o)
		goto out;
	CHECK_STR(o->deps.items[0], "libc6 #MINVER#");
	CHECK_STR(o->deps.items[1], "libc6 (>> 2.36), libc6 (<< 2.37)");
	CHECK_STR(pp_symbols_field(o, "Build-Depends-Package"), "libc-dev");
	e = pp_symbols_lookup(o, "memcpy@GLIBC_2.14");
	CHECK(e && !strcmp(e->minver, "2.14") && e->dep_id == 0);
	e = pp_symbols_lookup(o, "__libc_private@GLIBC_PRIVATE");
	CHECK(e && e->dep_id == 1);
	/* another architecture's, patterns and deprecated symbols: no */
	CHECK(pp_symbols_lookup(o, "only386@GLIBC_2.0") == NULL);
	CHECK(pp_symbols_lookup(o, "foo::bar()@Base") == NULL);
	CHECK(pp_symbols_lookup(o, "gone@GLIBC_2.2.5") == NULL);
	/* the smallest version of dependency 0 ("0" is dependency 1's) */
	CHECK_STR(pp_symbols_smallest(o), "2.2.5");
	CHECK(pp_symbols_find(&sf, "libm.so.6") != NULL);
out:
	pp_symbols_release(&sf);
	CHECK_INT(pp_symbols_parse(" orphan@Base 1.0\n", 16, "bad", NULL, &sf,
				   &err), -1);
	CHECK(strstr(err.msg, "bad:1:") != NULL);
	pp_err_release(&err);
}

static void shlibs_file(struct t_ctx *t)
{
	static const char text[] =
		"# comment\n"
		"libfoo 1 libfoo1 (>= 1.0)\n"
		"udeb: libfoo 1 libfoo1-udeb (>= 1.0)\n"
		"libbar 2 libbar2\n"
		"libfoo-2 0 libfoo-2-0 (>= 2.1)\n";
	char *dep;

	CHECK_INT(pp_shlibs_lookup(text, strlen(text), "libfoo.so.1", "deb",
				   &dep), 1);
	CHECK_STR(dep, "libfoo1 (>= 1.0)");
	free(dep);
	CHECK_INT(pp_shlibs_lookup(text, strlen(text), "libfoo.so.1", "udeb",
				   &dep), 1);
	CHECK_STR(dep, "libfoo1-udeb (>= 1.0)");
	free(dep);
	CHECK_INT(pp_shlibs_lookup(text, strlen(text), "libfoo-2.so.0", "deb",
				   &dep), 1);
	CHECK_STR(dep, "libfoo-2-0 (>= 2.1)");
	free(dep);
	CHECK_INT(pp_shlibs_lookup(text, strlen(text), "libbaz.so.1", "deb",
				   &dep), 0);
}

static void writing(struct t_ctx *t)
{
	struct pp_elf_sym syms[] = {
		{ "zeta", "FOO_1", 0, 0 }, { "alpha", "FOO_1", 0, 0 },
		{ "_init", NULL, 0, 0 }, { "plain", NULL, 0, 0 },
	};
	struct pp_elf_info lib = { 0 };
	struct strbuf out = STRBUF_INIT;

	lib.defined = syms;
	lib.nr_defined = 4;
	pp_symbols_write("libfoo.so.1", "libfoo1", "libfoo-dev", &lib, "1.0",
			 &out);
	CHECK_STR(out.buf, "libfoo.so.1 libfoo1 #MINVER#\n"
		  "* Build-Depends-Package: libfoo-dev\n"
		  " alpha@FOO_1 1.0\n plain@Base 1.0\n zeta@FOO_1 1.0\n");
	strbuf_reset(&out);
	CHECK_INT(pp_shlibs_line("libfoo.so.1", "libfoo1 (>= 1.0)", &out), 0);
	CHECK_STR(out.buf, "libfoo 1 libfoo1 (>= 1.0)\n");
	strbuf_release(&out);
}

static void debian_versions(struct t_ctx *t)
{
	static const struct {
		const char *upstream, *revision, *debian;
	} cases[] = {
		{ "0.11.0", "1", "0.11.0-1" },
		{ "1.0.0rc2", "3", "1.0.0~rc2-3" }, /* before 1.0.0-3 */
		{ "1.4.2+ds", "1", "1.4.2+ds-1" },
		{ "2.1.12-stable", "1", "2.1.12-stable-1" },
		{ "1.0-beta", "1", "1.0~beta-1" }, /* 1.0-beta-1 > 1.0-1 */
		{ "2.0.rc.1", "2", "2.0~rc.1-2" },
		{ "3.1_pre2", "1", "3.1~pre2-1" },
		{ "2.0-RC1", "1", "2.0~RC1-1" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *v = pp_split_debian_version(cases[i].upstream,
						  cases[i].revision);

		CHECK_STR(v, cases[i].debian);
		free(v);
	}
}

static void descriptions(struct t_ctx *t)
{
	struct strbuf out = STRBUF_INIT;

	pp_wrap_description("synopsis\n a b\n c\n .\n .\n  verbatim   kept\n"
			    " \n .", &out);
	CHECK_STR(out.buf, "synopsis\n a b c\n .\n  verbatim   kept");
	strbuf_reset(&out);
	pp_wrap_description("s\n " "aaaaaaaaa aaaaaaaaa aaaaaaaaa aaaaaaaaa "
			    "aaaaaaaaa aaaaaaaaa aaaaaaaaa aaaaaaaaa", &out);
	CHECK(strchr(out.buf + 2, '\n') != NULL);
	for (const char *l = out.buf; l; l = strchr(l + 1, '\n'))
		CHECK(strcspn(l + 1, "\n") <= 79);
	strbuf_reset(&out);
	pp_wrap_description("only a synopsis", &out);
	CHECK_STR(out.buf, "only a synopsis");
	strbuf_release(&out);
}

/* The unit-test program read from memory reads as from its file. */
static void elf_from_memory(struct t_ctx *t, struct pp_err *err)
{
	struct strbuf exe = STRBUF_INIT;
	struct pp_elf_info file, mem;
	char junk[] = "\177ELF junk";

	CHECK_INT(pp_read_file("/proc/self/exe", &exe, err), 0);
	CHECK_INT(pp_elf_read("/proc/self/exe", &file, err), 0);
	CHECK_INT(pp_elf_read_memory(exe.buf, exe.len, "exe", &mem, err), 0);
	CHECK_INT(mem.kind, file.kind);
	CHECK_STR(mem.build_id, file.build_id);
	CHECK_INT(mem.needed.nr, file.needed.nr);
	CHECK_INT(mem.nr_undefined, file.nr_undefined);
	CHECK_INT(mem.nr_defined, file.nr_defined);
	pp_elf_release(&mem);
	pp_elf_release(&file);
	CHECK_INT(pp_elf_read_memory(junk, sizeof(junk), "junk", &mem, err), 1);
	CHECK_INT(pp_elf_read_memory(NULL, 0, "empty", &mem, err), 1);
	strbuf_release(&exe);
}

/* The unit-test program itself: a PIE linked against libc. */
static void elf_facts(struct t_ctx *t)
{
	struct pp_elf_info info;
	struct pp_err err;
	int start_versioned = 0;

	pp_err_init(&err);
	CHECK_INT(pp_elf_read("/proc/self/exe", &info, &err), 0);
	CHECK_INT(info.kind, PP_ELF_EXEC);
	CHECK(info.pie);
	CHECK(info.soname == NULL);
	CHECK(pp_strlist_find(&info.needed, "libc.so.6") >= 0);
	CHECK(strlen(info.build_id) == 40);
	CHECK_STR(pp_elf_debian_arch(&info), "amd64");
	for (size_t i = 0; i < info.nr_undefined; i++)
		if (!strcmp(info.undefined[i].name, "__libc_start_main"))
			start_versioned = info.undefined[i].version &&
				!strncmp(info.undefined[i].version, "GLIBC_", 6);
	CHECK(start_versioned);
	pp_elf_release(&info);
	CHECK_INT(pp_elf_read("/etc/passwd", &info, &err), 1);
	elf_from_memory(t, &err);
	CHECK_INT(pp_elf_read("/nonexistent", &info, &err), -1);
	CHECK_INT(err.code, PP_EXIT_IO);
	pp_err_release(&err);
}

/* C++ libraries (most exports mangled) get shlibs only, no symbols. */
static void mostly_cxx(struct t_ctx *t)
{
	struct pp_elf_sym cxx[] = {
		{ "_ZN4llvm5Value4dumpEv", "LLVM_14", 0, 0 },
		{ "_ZN4llvm4Type7getVoidERNS_11LLVMContextE", "LLVM_14", 0, 0 },
		{ "LLVMContextCreate", "LLVM_14", 0, 0 },
		{ "_end", NULL, 0, 0 }, { "_edata", NULL, 0, 0 },
	};
	struct pp_elf_sym c[] = {
		{ "paddle_sgemm", "PADDLE_1", 0, 0 },
		{ "_ZN6paddle6detail4initEv", "PADDLE_1", 0, 0 },
		{ "_init", NULL, 0, 0 }, { "_fini", NULL, 0, 0 },
	};
	struct pp_elf_info lib = { 0 };

	lib.defined = cxx;
	lib.nr_defined = 5;
	CHECK_INT(pp_symbols_mostly_cxx(&lib), 1);
	lib.defined = c; /* one of two: not most */
	lib.nr_defined = 4;
	CHECK_INT(pp_symbols_mostly_cxx(&lib), 0);
	lib.nr_defined = 0;
	CHECK_INT(pp_symbols_mostly_cxx(&lib), 0);
}

const struct t_case shlibs_tests[] = {
	{ "elf: kind, NEEDED, build-id, versioned undefined symbols", elf_facts },
	{ "shlibs: SONAME -> runtime package (policy 8.1)", soname_packages },
	{ "shlibs: -dev names, SONAME split", soname_dev },
	{ "shlibs: symbols file: templates, tags, minimal versions", symbols_file },
	{ "shlibs: shlibs file: typed and untyped lines", shlibs_file },
	{ "shlibs: writing symbols and shlibs", writing },
	{ "shlibs: a C++ library gets no symbols file", mostly_cxx },
	{ "split: Debian versions from upstream ones", debian_versions },
	{ "split: descriptions wrapped, separators tidied", descriptions },
	{ NULL, NULL },
};
