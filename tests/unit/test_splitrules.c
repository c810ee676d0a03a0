/* The rules padpack split learned from Debian 12's packages, each on its
 * own: the examples are Debian's package names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../src/lib/classify.h"
#include "../../src/lib/elfinfo.h"
#include "../../src/lib/spec.h"
#include "../../src/lib/splitint.h"
#include "test.h"

static char *tools(const char *source, const char *const *progs)
{
	struct pp_strlist l = PP_STRLIST_INIT;
	struct strbuf why = STRBUF_INIT;
	char *out;

	for (; *progs; progs++)
		pp_strlist_push(&l, *progs);
	out = pp_split_tools_package(source, 1, &l, &why);
	strbuf_release(&why);
	pp_strlist_release(&l);
	return out;
}

#define CHECK_OWNED(expr, want) do { char *got_ = (expr); \
	CHECK_STR(got_, want); free(got_); } while (0)

/* Rule 3: a lib* source's programs are named after the program, or
 * lib*-tools; never a name ending in a version digit. */
static void tools_name(struct t_ctx *t)
{
	static const char *const one[] = { "xsltproc", NULL };
	static const char *const many[] = { "bsdtar", "bsdcpio", NULL };
	static const char *const none[] = { NULL };
	static const char *const upper[] = { "Foo", NULL };

	CHECK_OWNED(tools("libxslt", one), "xsltproc");
	CHECK_OWNED(tools("libarchive", many), "libarchive-tools");
	CHECK_OWNED(tools("libpng1.6", many), "libpng-tools");
	CHECK_OWNED(tools("libfoo1.6", one + 1), "libfoo-tools");
	CHECK_OWNED(tools("libevent-2.1", many), "libevent-tools");
	CHECK_OWNED(tools("libxml2", many), "libxml2-tools");
	CHECK_OWNED(tools("libfoo", upper), "libfoo-tools");
	CHECK_OWNED(tools("flac", many), "flac");
	CHECK_OWNED(tools("sqlite3", none), "sqlite3");
	/* third round: a source named *lib reads as a library too
	 * (giflib-tools, zziplib-bin, lzlib's minilzip in Debian 12) */
	CHECK_OWNED(tools("giflib", many), "giflib-tools");
	CHECK_OWNED(tools("lzlib", one), "xsltproc");
	CHECK_OWNED(tools("alsa-lib", many), "alsa-lib-tools");
	{
		struct pp_strlist l = PP_STRLIST_INIT;
		struct strbuf why = STRBUF_INIT;

		pp_strlist_push(&l, "cclib");
		pp_strlist_push(&l, "ccwrite");
		/* no library in the build (a Python project): its name */
		CHECK_OWNED(pp_split_tools_package("cclib", 0, &l, &why), "cclib");
		strbuf_release(&why);
		pp_strlist_release(&l);
	}
	CHECK_OWNED(tools("stdlib2", many), "stdlib2");
	CHECK_OWNED(tools("lib", many), "lib-tools");
}

static char *dev(const char *source, const char *so1, const char *so2)
{
	struct pp_strlist l = PP_STRLIST_INIT;
	char *out;

	if (so1)
		pp_strlist_push(&l, so1);
	if (so2)
		pp_strlist_push(&l, so2);
	out = pp_split_dev_package(source, &l);
	pp_strlist_release(&l);
	return out;
}

/* Rule 1: one -dev package per source; rule 1's spec line: the runtime
 * group's name. */
static void dev_and_group(struct t_ctx *t)
{
	struct pp_strlist l = PP_STRLIST_INIT;

	CHECK_OWNED(dev("jansson", "libjansson.so.4", NULL), "libjansson-dev");
	CHECK_OWNED(dev("libevent", "libevent-2.1.so.7",
			"libevent_core-2.1.so.7"), "libevent-dev");
	CHECK_OWNED(dev("pcre2", "libpcre2-8.so.0", "libpcre2-16.so.0"),
		    "libpcre2-dev");
	CHECK_OWNED(dev("tool", NULL, NULL), "libtool-dev");
	CHECK_OWNED(dev("libuv1", "libuv.so.1", NULL), "libuv1-dev");
	CHECK_OWNED(dev("c-ares", "libcares.so.2", NULL), "libc-ares-dev");
	CHECK_OWNED(dev("pixman", "libpixman-1.so.0", NULL), "libpixman-1-dev");
	CHECK_OWNED(dev("libyaml", "libyaml-0.so.2", NULL), "libyaml-dev");
	CHECK_OWNED(dev("libtasn1-6", "libtasn1.so.6", NULL), "libtasn1-6-dev");
	CHECK_OWNED(dev("libpng1.6", "libpng16.so.16", NULL), "libpng-dev");
	CHECK_OWNED(dev("libevent", "libevent-2.1.so.7", NULL), "libevent-dev");
	pp_strlist_push(&l, "libexslt.so.0");
	pp_strlist_push(&l, "libxslt.so.1");
	CHECK_OWNED(pp_split_runtime_group("libxslt", &l), "libxslt1");
	CHECK_OWNED(pp_split_runtime_group("other", &l), "libexslt0");
	pp_strlist_release(&l);
	CHECK(pp_split_is_dev_path("usr/bin/pcre2-config"));
	CHECK(pp_split_is_dev_path("usr/share/aclocal/libgcrypt.m4"));
	CHECK(pp_split_is_dev_path("usr/lib/x86_64-linux-gnu/xsltConf.sh"));
	CHECK(!pp_split_is_dev_path("usr/bin/xsltproc"));
	CHECK(!pp_split_is_dev_path("usr/bin/sub/x-config"));
}

/* Rule 5: a -doc package for a manual only, named as the -dev. */
static void docs(struct t_ctx *t)
{
	const enum pp_split_doc_mode A = PP_SPLIT_DOC_AUTO;

	CHECK(!pp_split_wants_doc_package(A, 0, 0));
	CHECK(!pp_split_wants_doc_package(A, PP_SPLIT_DOC_PACKAGE_BYTES - 1, 0));
	CHECK(pp_split_wants_doc_package(A, PP_SPLIT_DOC_PACKAGE_BYTES, 0));
	/* a generated manual, of any size: libidn2's gtk-doc book of 17
	 * pages, libidn2-doc */
	CHECK(pp_split_wants_doc_package(A, 60 * 1024, 1));
	/* packages.doc = "none": libvorbis's 836 KiB manual in -dev, as
	 * Debian's; "package": a README alone in -doc */
	CHECK(!pp_split_wants_doc_package(PP_SPLIT_DOC_NONE, 836 * 1024, 0));
	CHECK(!pp_split_wants_doc_package(PP_SPLIT_DOC_NONE, 60 * 1024, 1));
	CHECK(pp_split_wants_doc_package(PP_SPLIT_DOC_PACKAGE, 1, 0));
	CHECK(pp_split_is_generated_manual("usr/share/gtk-doc/html/libidn2/index.html"));
	CHECK(pp_split_is_generated_manual("usr/share/doc/libfoo/html/doxygen.css"));
	CHECK(pp_split_is_generated_manual("usr/share/doc/foo/html/_static/basic.css"));
	CHECK(pp_split_is_generated_manual("usr/share/doc/foo/searchindex.js"));
	CHECK(!pp_split_is_generated_manual("usr/share/gtk-doc/html/index.html"));
	CHECK(!pp_split_is_generated_manual("usr/share/doc/libidn2/index.html"));
	CHECK(!pp_split_is_generated_manual("usr/share/doc/libvorbis/html/style.css"));
	CHECK_OWNED(pp_split_doc_package("jansson", "libjansson-dev"),
		    "libjansson-doc");
	CHECK_OWNED(pp_split_doc_package("sqlite3", NULL), "sqlite3-doc");
}

/* dh_compress: manual pages and info documents gzipped, but what is
 * compressed already and images (libidn2.info was shipped as it was:
 * lintian's info-document-not-compressed); in usr/share/doc, what is
 * over 4 KiB and every changelog, but web pages, images, examples and
 * the copyright (expat's upstream changelog was shipped as it was). */
static void compressed_docs(struct t_ctx *t)
{
	CHECK(pp_split_compressed_doc("usr/share/man/man1/idn2.1", 10));
	CHECK(pp_split_compressed_doc("usr/share/man/man3/idn2_free.3", 10));
	CHECK(pp_split_compressed_doc("usr/share/info/libidn2.info", 10));
	CHECK(pp_split_compressed_doc("usr/share/info/gmp.info-1", 10));
	CHECK(!pp_split_compressed_doc("usr/share/info/libidn2.info.gz", 10));
	CHECK(!pp_split_compressed_doc("usr/share/info/figure.PNG", 10));
	CHECK(!pp_split_compressed_doc("usr/share/man/man1/x.1.gz", 10));
	CHECK(!pp_split_compressed_doc("usr/share/infobook/x", 10000));
	CHECK(!pp_split_compressed_doc("usr/share/doc/libidn2/README", 4096));
	CHECK(pp_split_compressed_doc("usr/share/doc/libidn2/README", 4097));
	CHECK(pp_split_compressed_doc("usr/share/doc/expat/changelog", 100));
	CHECK(pp_split_compressed_doc("usr/share/doc/x/NEWS.md", 100));
	CHECK(pp_split_compressed_doc("usr/share/doc/x/changelog.html", 100));
	CHECK(!pp_split_compressed_doc("usr/share/doc/x/index.HTML", 90000));
	CHECK(!pp_split_compressed_doc("usr/share/doc/x/logo.png", 90000));
	CHECK(!pp_split_compressed_doc("usr/share/doc/x/copyright", 90000));
	CHECK(!pp_split_compressed_doc("usr/share/doc/x/a.tar.xz", 90000));
	CHECK(!pp_split_compressed_doc("usr/share/doc/x/examples/big.c", 90000));
	CHECK(!pp_split_compressed_doc("usr/share/doc/x/html/_sources/a.txt",
				       90000));
	CHECK(!pp_split_compressed_doc("usr/share/doc/README", 90000));
}

/* A manual page the build gzipped (faketime's make install: gzip -nf,
 * level 6) is shipped gzipped again at -9n, as dh_installman and
 * dh_compress do: lintian's poor-compression-in-manual-page reads the
 * header's flag of maximum compression (XFL 2). Other .gz files are
 * shipped as they are; a page named .gz that is not gzipped is an
 * error naming it. */
static void regzipped_man(struct t_ctx *t)
{
	char dir[] = "/tmp/padpack-regz.XXXXXX", cmd[700], src[300], dst[300];
	unsigned char head[10];
	struct pp_err err;
	FILE *f;

	CHECK(pp_split_regzipped_man("usr/share/man/man1/faketime.1.gz"));
	CHECK(pp_split_regzipped_man("usr/share/man/de/man1/x.1.gz"));
	CHECK(!pp_split_regzipped_man("usr/share/man/man1/faketime.1"));
	CHECK(!pp_split_regzipped_man("usr/share/info/gmp.info.gz"));
	CHECK(!pp_split_regzipped_man("usr/share/doc/x/NEWS.gz"));
	pp_err_init(&err);
	CHECK(mkdtemp(dir) != NULL);
	snprintf(src, sizeof(src), "%s/faketime.1.gz", dir);
	snprintf(dst, sizeof(dst), "%s/out.1.gz", dir);
	snprintf(cmd, sizeof(cmd), "cd %s && seq 1 3000 | sed 's/^/.B line /' >page && "
		 "gzip -nc -6 page >faketime.1.gz", dir);
	CHECK(system(cmd) == 0);
	CHECK_INT(pp_split_regzip_file(src, dst, &err), 0);
	f = fopen(dst, "rb");
	CHECK(f && fread(head, 1, sizeof(head), f) == sizeof(head) && !fclose(f));
	CHECK_INT(head[0], 0x1f);
	CHECK_INT(head[3], 0);    /* no name */
	CHECK_INT(head[4] | head[5] | head[6] | head[7], 0); /* no time */
	CHECK_INT(head[8], 2);    /* gzip -9 */
	snprintf(cmd, sizeof(cmd), "cd %s && gzip -dc out.1.gz | cmp -s - page", dir);
	CHECK(system(cmd) == 0);
	snprintf(cmd, sizeof(cmd), "cd %s && cp page faketime.1.gz", dir);
	CHECK(system(cmd) == 0);
	CHECK_INT(pp_split_regzip_file(src, dst, &err), -1);
	CHECK_INT(err.code, PP_EXIT_INPUT);
	CHECK(strstr(err.msg, "faketime.1.gz") && strstr(err.msg, "not gzipped"));
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
	pp_err_release(&err);
}

/* Rule 7: a synopsis by default, never starting with the package's name
 * and short enough for any role's words. */
static void synopsis(struct t_ctx *t)
{
	CHECK_OWNED(pp_split_default_title("C library for encoding, decoding "
					   "and manipulating JSON data",
					   "libjansson4", 59), "C library for "
		    "encoding, decoding and manipulating JSON data");
	CHECK_OWNED(pp_split_default_title("C library for encoding, decoding "
					   "and manipulating JSON data",
					   "libjansson4", 48), "C library for encoding");
	CHECK_OWNED(pp_split_default_title("a very long summary that goes on "
					   "and on for many words", "x", 20),
		    "a very long summary");
	CHECK_OWNED(pp_split_default_title("jansson JSON library", "jansson", 59),
		    "the jansson JSON library");
	CHECK_OWNED(pp_split_default_title("JSON library", "json", 59),
		    "the JSON library");
}

/* Rule 7: the copyright file made from the license the tree ships. */
static void copyright(struct t_ctx *t)
{
	struct strbuf out = STRBUF_INIT, gpl = STRBUF_INIT;

	pp_split_dep5("demo", NULL, "usr/share/doc/demo/COPYING",
		      "Copyright (c) 2020 A B\n\nPermission is granted.\n", &out);
	CHECK(strstr(out.buf, "Copyright: Copyright (c) 2020 A B\n") != NULL);
	CHECK(strstr(out.buf, "License: demo-license\n Copyright (c) 2020 A B"
		      "\n .\n Permission is granted.\n") != NULL);
	strbuf_reset(&out);
	strbuf_addstr(&gpl, "\t\t    GNU GENERAL PUBLIC LICENSE\n\t\t       "
		      "Version 2, June 1991\n");
	while (gpl.len < 6000)
		strbuf_addstr(&gpl, "terms and conditions ");
	CHECK_STR(pp_split_common_license(gpl.buf), "GPL-2");
	pp_split_dep5("demo", NULL, "COPYING", gpl.buf, &out);
	CHECK(strstr(out.buf, "/usr/share/common-licenses/GPL-2") != NULL);
	CHECK(!strstr(out.buf, "terms and conditions"));
	CHECK(pp_split_has_copyright_notice("x\n  Copyright (C) 2009 A B\n"));
	CHECK(!pp_split_has_copyright_notice("Please see the file LICENCE.\n"));
	CHECK(pp_split_is_license_path("usr/share/doc/demo/COPYING"));
	CHECK(pp_split_is_license_path("usr/share/doc/demo/license.txt"));
	CHECK(!pp_split_is_license_path("usr/share/doc/demo/README"));
	strbuf_release(&out);
	strbuf_release(&gpl);
}

#define TMPL "/tmp/padpack-splitrules-XXXXXX"

/* Rule 7: a spec of a name and a version loads, with defaults. */
static void minimal_spec(struct t_ctx *t)
{
	struct pp_spec spec;
	struct pp_err err;

	pp_err_init(&err);
	setenv("DEBFULLNAME", "Jane Doe", 1);
	setenv("DEBEMAIL", "jane@example.org", 1);
	CHECK_INT(t_spec_load_text(TMPL, "name = \"demo\";\nversion = \"1.2\";\n"
				   "packages = { runtime = \"one\"; };\n",
				   &spec, &err, NULL), 0);
	if (!err.code) {
		CHECK_STR(spec.maintainer, "Jane Doe <jane@example.org>");
		CHECK_STR(spec.summary, "software of the demo project");
		CHECK_STR(spec.description, "Software of the demo project.");
		CHECK(spec.homepage == NULL);
		CHECK(spec.nr_variants == 1 && !*spec.variants[0].suffix);
		CHECK(spec.runtime_one);
		pp_spec_release(&spec);
	}
	CHECK(!err.warnings.len); /* DEBFULLNAME and DEBEMAIL: no guess */
	unsetenv("DEBFULLNAME");
	unsetenv("DEBEMAIL");
	unsetenv("NAME");
	unsetenv("EMAIL");
	/* issue 13: no maintainer anywhere is no error; guessed, warned */
	CHECK_INT(t_spec_load_text(TMPL, "name = \"demo\";\nversion = \"1.2\";\n",
				   &spec, &err, NULL), 0);
	if (!err.code) {
		CHECK(strchr(spec.maintainer, '<') && strchr(spec.maintainer, '@'));
		CHECK(strstr(err.warnings.buf, "no maintainer given; guessed '") &&
		      strstr(err.warnings.buf, spec.maintainer) &&
		      strstr(err.warnings.buf, "DEBEMAIL"));
		pp_spec_release(&spec);
	}
	pp_err_release(&err);
}

/* The maintainer dch would write, out of lintian's errors. */
static void maintainer_guess(struct t_ctx *t)
{
	static const struct {
		struct pp_who w;
		const char *want, *why; /* why: NULL: no warning */
	} cases[] = {
		{ { .debfullname = "Jane Doe", .debemail = "jane@example.org" },
		  "Jane Doe <jane@example.org>", NULL },
		{ { .debemail = "Jane Doe <jane@example.org>", .gecos = "root" },
		  "Jane Doe <jane@example.org>", NULL },
		{ { .name = "Jo Roe", .email = "jo@example.net", .gecos = "x" },
		  "Jo Roe <jo@example.net>", NULL },
		{ { .debfullname = "Jane Doe", .name = "Other",
		    .debemail = "jane@example.org", .email = "o@example.net" },
		  "Jane Doe <jane@example.org>", NULL },
		/* dch's fallbacks: the passwd entry, the mail name */
		{ { .gecos = "Jane Doe,,,", .login = "jane",
		    .mailname = "mail.example.org" },
		  "Jane Doe <jane@mail.example.org>", "the passwd entry" },
		{ { .gecos = "", .login = "jane", .fqdn = "box.example.org" },
		  "jane <jane@box.example.org>", "the login" },
		/* the errors lintian would give are kept out */
		{ { .gecos = "root", .login = "root", .fqdn = "vm" },
		  "demo packager <demo@vm.invalid>", "the login root -> demo" },
		{ { .gecos = "Jane", .login = "jane", .fqdn = "box.localdomain" },
		  "Jane <jane@box.invalid>", "the host box.localdomain -> box.invalid" },
		{ { .gecos = "Jane", .login = "jane", .fqdn = "localhost" },
		  "Jane <jane@localhost.invalid>", "never delivered" },
		{ { .gecos = "Jane", .login = "jane", .fqdn = "my_box.example.org" },
		  "Jane <jane@localhost.invalid>", "my_box" },
		{ { .gecos = "Jane", .login = "jane" },
		  "Jane <jane@localhost.invalid>", "the host (none)" },
		{ { .gecos = "J <x> \"Q\"", .login = "j", .fqdn = "a.example.org" },
		  "J  x   Q <j@a.example.org>", "the passwd entry" },
		{ { .debemail = "jane@example.org", .gecos = "root", .login = "root" },
		  "demo packager <jane@example.org>", "the name root -> demo packager" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct strbuf why = STRBUF_INIT;
		char *m = pp_maintainer_guess(&cases[i].w, "demo", &why);

		CHECK_STR(m, cases[i].want);
		if (cases[i].why && !strstr(why.buf, cases[i].why))
			t_fail(t, __FILE__, __LINE__, "case %zu: '%s' lacks '%s'",
			       i, why.buf, cases[i].why);
		if (!cases[i].why && why.len)
			t_fail(t, __FILE__, __LINE__, "case %zu: warns '%s'",
			       i, why.buf);
		free(m);
		strbuf_release(&why);
	}
}

static void python_shebang(struct t_ctx *t)
{
	CHECK(pp_split_python_shebang("#!/usr/bin/env python\nimport os\n"));
	CHECK(pp_split_python_shebang("#!/usr/bin/python -u\n"));
	CHECK(pp_split_python_shebang("#!/usr/bin/python"));
	CHECK(!pp_split_python_shebang("#!/usr/bin/python3\n"));
	CHECK(!pp_split_python_shebang("#!/usr/bin/env python3\n"));
	CHECK(!pp_split_python_shebang("#!/usr/bin/env python2.7\n"));
	CHECK(!pp_split_python_shebang("#!/bin/sh\n"));
}

/* Programs' Section from the summary's words, else utils. */
static void tools_section(struct t_ctx *t)
{
	struct strbuf why = STRBUF_INIT;

	CHECK_STR(pp_split_tools_section("Free Lossless Audio Codec", &why), "sound");
	CHECK(strstr(why.buf, "'Audio'") != NULL);
	CHECK_STR(pp_split_tools_section("IJG JPEG library with SIMD acceleration", NULL),
		  "graphics");
	CHECK_STR(pp_split_tools_section("Lightning Memory-Mapped Database", NULL),
		  "database");
	CHECK_STR(pp_split_tools_section("XSLT 1.0 processing library", NULL), "text");
	CHECK_STR(pp_split_tools_section("Command line interface for SQLite 3", NULL),
		  "database");
	/* whole words only: "imagemagick" names no section, nor "textual" */
	CHECK_STR(pp_split_tools_section("imagemagick, textual", NULL), "utils");
	CHECK_STR(pp_split_tools_section("Multi-format archive and compression library",
					 NULL), "utils");
	CHECK_STR(pp_split_tools_section(NULL, NULL), "utils");
	strbuf_release(&why);
}

/* A data package's Section: it was misc; Debian 12 has 111 of its 153
 * lib*-data packages in libs (libasound2-data), and 453 of 468 foo-data
 * packages in foo's section. */
static void data_section(struct t_ctx *t)
{
	CHECK_STR(pp_split_data_section("libasound2-data", "utils"), "libs");
	CHECK_STR(pp_split_data_section("libtiny1-data", "sound"), "libs");
	CHECK_STR(pp_split_data_section("libfoo-common", "utils"), "libs");
	CHECK_STR(pp_split_data_section("gdbm-data", "database"), "database");
	CHECK_STR(pp_split_data_section("paddle-common", "science"), "science");
}

/* What a -dev package needs: the modules its .pc files require (public
 * and private: pkg-config fails without either) and the headers its
 * headers include. */
static void dev_needs(struct t_ctx *t)
{
	struct pp_strlist mods = PP_STRLIST_INIT, rels = PP_STRLIST_INIT,
			  inc = PP_STRLIST_INIT;

	pp_split_pc_requires("prefix=/usr\nName: exslt\nRequires: libxml-2.0 >= 2.6.27, "
			     "libxslt\nRequires.private: ogg zlib < 2 ${extra}\n"
			     "Requires.private:  # nettle\nLibs: -lexslt\n", &mods, &rels);
	CHECK_INT((int)mods.nr, 4);
	if (mods.nr == 4 && rels.nr == 4) {
		CHECK_STR(mods.items[0], "libxml-2.0");
		CHECK_STR(rels.items[0], " (>= 2.6.27)");
		CHECK_STR(mods.items[1], "libxslt");
		CHECK_STR(rels.items[1], "");
		CHECK_STR(mods.items[2], "ogg");
		CHECK_STR(mods.items[3], "zlib");
		CHECK_STR(rels.items[3], "");
	}
	pp_split_header_includes("#include <gmp.h>\n  #  include <nettle/nettle-types.h>\n"
				 "#include \"local.h\"\n#include <broken\n>\n"
				 "/* #include <not.h> */\n#include<stdio.h>", &inc);
	CHECK_INT((int)inc.nr, 3);
	if (inc.nr == 3) {
		CHECK_STR(inc.items[0], "gmp.h");
		CHECK_STR(inc.items[1], "nettle/nettle-types.h");
		CHECK_STR(inc.items[2], "stdio.h");
	}
	pp_strlist_release(&mods);
	pp_strlist_release(&rels);
	pp_strlist_release(&inc);
}

/* dpkg-shlibdeps' Depends: a minimal version of 0 asks for none. */
static void shlibdeps_zero(struct t_ctx *t)
{
	struct pp_shlibdeps d = { PP_STRLIST_INIT, PP_STRLIST_INIT };
	struct strbuf out = STRBUF_INIT;

	pp_strlist_push(&d.keys, "libnettle8 #MINVER#");
	pp_strlist_push(&d.minver, "0");
	pp_strlist_push(&d.keys, "libc6 #MINVER#");
	pp_strlist_push(&d.minver, "2.36");
	pp_strlist_push(&d.keys, "libbz2-1.0");
	pp_strlist_push(&d.minver, "");
	pp_shlibdeps_format(&d, &out);
	CHECK_STR(out.buf, "libbz2-1.0, libc6 (>= 2.36), libnettle8");
	pp_shlibdeps_release(&d);
	strbuf_release(&out);
}

/* A run path of the linker's default directories is dropped (chrpath -d,
 * lintian's custom-library-search-path); $ORIGIN or another directory
 * is kept. */
static void default_runpath(struct t_ctx *t)
{
	char dir[] = "/tmp/padpack-runpath.XXXXXX", cmd[600], prog[300];
	struct pp_elf_info info;
	struct pp_err err;
	int dropped = -1;
	FILE *f;

	CHECK(pp_elf_default_runpath("/usr/lib/x86_64-linux-gnu"));
	CHECK(pp_elf_default_runpath("/usr/lib/x86_64-linux-gnu/:/lib"));
	CHECK(!pp_elf_default_runpath("/usr/lib/x86_64-linux-gnu:/opt/x/lib"));
	CHECK(!pp_elf_default_runpath("$ORIGIN/../lib"));
	CHECK(!pp_elf_default_runpath("/usr/lib/foo"));
	CHECK(!pp_elf_default_runpath(""));
	pp_err_init(&err);
	CHECK(mkdtemp(dir) != NULL);
	snprintf(prog, sizeof(prog), "%s/prog", dir);
	snprintf(cmd, sizeof(cmd), "%s/p.c", dir);
	f = fopen(cmd, "w");
	CHECK(f && fputs("int main(void) { return 7; }\n", f) >= 0 && !fclose(f));
	snprintf(cmd, sizeof(cmd), "cc -o %s %s/p.c -Wl,--enable-new-dtags "
		 "-Wl,-rpath,/usr/lib/x86_64-linux-gnu -Wl,-rpath,/lib", prog, dir);
	CHECK(system(cmd) == 0);
	CHECK_INT(pp_elf_drop_default_runpath(prog, &dropped, &err), 0);
	CHECK_INT(dropped, 1);
	CHECK_INT(pp_elf_read(prog, &info, &err), 0);
	CHECK_INT((int)info.runpath.nr, 0);
	CHECK_INT((int)info.needed.nr, 1);
	pp_elf_release(&info);
	CHECK_INT(WEXITSTATUS(system(prog)), 7); /* still runs */
	snprintf(cmd, sizeof(cmd), "cc -o %s %s/p.c -Wl,-rpath,'$ORIGIN'",
		 prog, dir);
	CHECK(system(cmd) == 0);
	CHECK_INT(pp_elf_drop_default_runpath(prog, &dropped, &err), 0);
	CHECK_INT(dropped, 0);
	CHECK_INT(pp_elf_read(prog, &info, &err), 0);
	CHECK_INT((int)info.runpath.nr, 1);
	pp_elf_release(&info);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
	pp_err_release(&err);
}

static char *python_pkg(const char *source, const char *const *mods)
{
	struct pp_strlist l = PP_STRLIST_INIT;
	char *out;

	for (; *mods; mods++)
		pp_strlist_push(&l, *mods);
	out = pp_split_python_package(source, &l);
	pp_strlist_release(&l);
	return out;
}

/* One python3-* package for every Python module of a source, named after
 * the module named like the source, else the one the others contain. */
static void python_package(struct t_ctx *t)
{
	static const char *const libxml2[] = { "drv_libxml2", "libxml2",
					       "libxml2mod", NULL };
	static const char *const paddle[] = { "paddle", NULL };
	static const char *const tdb[] = { "_tdb_text", "tdb", NULL };
	static const char *const other[] = { "foo_ext", "foo",
					     "foo-1.0.dist-info", NULL };
	static const char *const none[] = { NULL };

	CHECK_OWNED(python_pkg("libxml2", libxml2), "python3-libxml2");
	CHECK_OWNED(python_pkg("paddle", paddle), "python3-paddle");
	CHECK_OWNED(python_pkg("samba", tdb), "python3-tdb");
	CHECK_OWNED(python_pkg("python-bar", other), "python3-foo");
	CHECK_OWNED(python_pkg("Foo", other), "python3-foo");
	CHECK(python_pkg("libxml2", none) == NULL);
}

static void push_words(struct pp_strlist *l, const char *words)
{
	char *copy = strdup(words), *save = NULL;

	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
		pp_strlist_push(l, w);
	free(copy);
}

/* sonames "a b", users "x y|z" (each user's NEEDED) */
static int together(const char *sonames, const char *users)
{
	struct pp_strlist so = PP_STRLIST_INIT, u[4];
	const struct pp_strlist *up[4] = { 0 };
	char *uc = strdup(users), *save = NULL;
	size_t nu = 0;
	int yes;

	push_words(&so, sonames);
	for (char *w = strtok_r(uc, "|", &save); w && nu < 4; w = strtok_r(NULL, "|", &save)) {
		u[nu] = (struct pp_strlist)PP_STRLIST_INIT;
		push_words(&u[nu], w);
		up[nu] = &u[nu];
		nu++;
	}
	yes = pp_split_libraries_together(&so, up, nu);
	for (size_t i = 0; i < nu; i++)
		pp_strlist_release(&u[i]);
	pp_strlist_release(&so);
	free(uc);
	return yes;
}

/* packages.runtime = "auto": one runtime package when the build only
 * uses its libraries together. */
static void runtime_together(struct t_ctx *t)
{
	/* libxslt: xsltproc needs both itself */
	CHECK(together("libexslt.so.0 libxslt.so.1",
		       "libexslt.so.0 libxslt.so.1 libc.so.6"));
	/* gsl: gsl-histogram and gsl-randist need libgsl, which needs
	 * libgslcblas; no program needs libgslcblas itself: Debian's
	 * libgsl27 and libgslcblas0 */
	CHECK(!together("libgsl.so.27 libgslcblas.so.0",
			"libgsl.so.27 libc.so.6|libgsl.so.27 libm.so.6 libc.so.6"));
	/* nettle: nettle-hash needs libnettle alone */
	CHECK(!together("libhogweed.so.6 libnettle.so.8",
			"libnettle.so.8|libhogweed.so.6 libnettle.so.8"));
	/* libevent: no program, no evidence: one per SONAME */
	CHECK(!together("libevent_core-2.1.so.7 libevent_extra-2.1.so.7", ""));
	/* flac: the program needs libFLAC, nothing needs libFLAC++ */
	CHECK(!together("libFLAC++.so.10 libFLAC.so.12",
			"libFLAC.so.12 libc.so.6|libz.so.1"));
	/* one library: nothing to group */
	CHECK(!together("libxml2.so.2", "libxml2.so.2"));
}

/* sonames' NEEDED, "|" between libraries ("-" for one not known) */
static int cxx_beside_c(const char *libs)
{
	struct pp_strlist l[4];
	const struct pp_strlist *lp[4] = { 0 };
	char *lc = strdup(libs), *save = NULL;
	size_t nl = 0;
	int yes;

	for (char *w = strtok_r(lc, "|", &save); w && nl < 4; w = strtok_r(NULL, "|", &save)) {
		l[nl] = (struct pp_strlist)PP_STRLIST_INIT;
		push_words(&l[nl], w);
		lp[nl] = strcmp(w, "-") ? &l[nl] : NULL;
		nl++;
	}
	yes = pp_split_cxx_beside_c(lp, nl);
	for (size_t i = 0; i < nl; i++)
		pp_strlist_release(&l[i]);
	free(lc);
	return yes;
}

/* packages.dev = "auto": a C++ library beside C ones gets its own -dev
 * (Debian 12: 49 of 78 such sources; doc/split.md). */
static void dev_cxx(struct t_ctx *t)
{
	struct pp_strlist n = PP_STRLIST_INIT;

	push_words(&n, "libFLAC.so.12 libstdc++.so.6 libm.so.6 libc.so.6");
	CHECK(pp_split_cxx_library(&n));
	pp_strlist_release(&n);
	push_words(&n, "libogg.so.0 libm.so.6 libc.so.6");
	CHECK(!pp_split_cxx_library(&n));
	pp_strlist_release(&n);
	push_words(&n, "libc++.so.1 libc.so.6");
	CHECK(pp_split_cxx_library(&n));
	pp_strlist_release(&n);
	/* flac: libFLAC (C), libFLAC++ (C++): libflac-dev, libflac++-dev */
	CHECK(cxx_beside_c("libogg.so.0 libc.so.6|libFLAC.so.12 libstdc++.so.6 libc.so.6"));
	/* nettle, libevent, pcre2: C only: one -dev */
	CHECK(!cxx_beside_c("libc.so.6|libnettle.so.8 libgmp.so.10 libc.so.6"));
	/* snappy-like: C++ only: one -dev */
	CHECK(!cxx_beside_c("libstdc++.so.6 libc.so.6|libstdc++.so.6 libgcc_s.so.1"));
	/* a library not known is no evidence */
	CHECK(!cxx_beside_c("libstdc++.so.6|-"));
	CHECK(!cxx_beside_c("libc.so.6"));
}

/* A link named *.la to a libtool archive is one too, dropped with it
 * (libpng's libpng.la -> libpng16.la): the minimal spec splits. */
static void libtool_link(struct t_ctx *t)
{
	char dir[] = "/tmp/padpack-la.XXXXXX", path[300];
	static const char *const links[][3] = {
		{ "libpng.la", "libpng16.la", "libtool archive" },
		{ "other.txt", "libpng16.la", "symbolic link" },
		{ "notes.la", "notes.txt", "symbolic link" },
	};
	struct pp_classified c;
	struct pp_err err;
	struct stat st;
	FILE *f;

	pp_err_init(&err);
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/libpng16.la", dir);
	f = fopen(path, "w");
	CHECK(f && fputs("# libpng16.la - a libtool library file\n"
			 "# Generated by libtool (GNU libtool) 2.4.7\n", f) >= 0 &&
	      !fclose(f));
	snprintf(path, sizeof(path), "%s/notes.txt", dir);
	f = fopen(path, "w");
	CHECK(f && fputs("# notes, not libtool's\n", f) >= 0 && !fclose(f));
	for (size_t i = 0; i < sizeof(links) / sizeof(*links); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, links[i][0]);
		CHECK(symlink(links[i][1], path) == 0 && lstat(path, &st) == 0);
		CHECK_INT(pp_classify(dir, links[i][0], &st, links[i][1], &c,
				      &err), 0);
		CHECK_STR(pp_class_name(c.cls), links[i][2]);
		pp_classified_release(&c);
	}
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	CHECK(system(path) == 0);
	pp_err_release(&err);
}

/* A loadable module's static twin (libnl's cli/cls/basic.a beside
 * basic.so, libtool's -module) is dropped: its NAME.so, when NAME is no
 * lib* name, and the .so must be an ELF shared object, with no SONAME
 * or with libtool's of its own name. */
static void module_twin(struct t_ctx *t)
{
	char dir[] = "/tmp/padpack-mod.XXXXXX", cmd[600];
	struct pp_classified c;
	struct pp_err err;
	struct stat st;

	CHECK_OWNED(pp_split_module_twin("usr/lib/x86_64-linux-gnu/libnl-3/cli/cls/basic.a"),
		    "usr/lib/x86_64-linux-gnu/libnl-3/cli/cls/basic.so");
	CHECK_OWNED(pp_split_module_twin("usr/lib/x86_64-linux-gnu/elk/gdbm.a"),
		    "usr/lib/x86_64-linux-gnu/elk/gdbm.so");
	CHECK(pp_split_module_twin("usr/lib/x86_64-linux-gnu/libnl-3.a") == NULL);
	CHECK(pp_split_module_twin("usr/lib/x86_64-linux-gnu/openblas/libopenblas.a") == NULL);
	CHECK(pp_split_module_twin("usr/lib/x86_64-linux-gnu/foo/basic.so") == NULL);
	CHECK(pp_split_module_twin("usr/share/foo/data.tar") == NULL);
	CHECK(pp_split_module_twin(".a") == NULL);
	/* what the caller checks at NAME.so: a module, not a library */
	pp_err_init(&err);
	CHECK(mkdtemp(dir) != NULL);
	snprintf(cmd, sizeof(cmd), "printf 'int f(void) { return 1; }\\n' >%s/m.c && "
		 "cc -shared -fPIC -o %s/basic.so %s/m.c && "
		 "cc -shared -fPIC -Wl,-soname,lt.so -o %s/lt.so %s/m.c && "
		 "echo text >%s/data.so",
		 dir, dir, dir, dir, dir, dir);
	CHECK(system(cmd) == 0);
	snprintf(cmd, sizeof(cmd), "%s/basic.so", dir);
	CHECK(lstat(cmd, &st) == 0);
	CHECK_INT(pp_classify(dir, "basic.so", &st, NULL, &c, &err), 0);
	CHECK_INT(c.cls, PP_CLASS_MODULE);
	pp_classified_release(&c);
	snprintf(cmd, sizeof(cmd), "%s/lt.so", dir);
	CHECK(lstat(cmd, &st) == 0);
	CHECK_INT(pp_classify(dir, "lt.so", &st, NULL, &c, &err), 0);
	CHECK_INT(c.cls, PP_CLASS_SHLIB);
	pp_classified_release(&c);
	snprintf(cmd, sizeof(cmd), "%s/data.so", dir);
	CHECK(lstat(cmd, &st) == 0);
	CHECK_INT(pp_classify(dir, "data.so", &st, NULL, &c, &err), 0);
	CHECK_INT(c.cls, PP_CLASS_DATA);
	pp_classified_release(&c);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
	pp_err_release(&err);
}

/* Fifth round: keyutils stages the program key.dns_resolver and its
 * pages key.dns_resolver.8 and key.dns_resolver.conf.5; the page's name
 * was read up to its first dot ("key"), so the .conf.5 page was of no
 * program and went to libkeyutils-dev, where Debian's keyutils holds
 * it. A page is a program's when its name is the program's and a dot. */
static void page_of(struct t_ctx *t)
{
	CHECK(pp_split_page_of("usr/share/man/man1/keyctl.1", "keyctl"));
	CHECK(pp_split_page_of("usr/share/man/man5/request-key.conf.5",
			       "request-key"));
	CHECK(pp_split_page_of("usr/share/man/man8/key.dns_resolver.8",
			       "key.dns_resolver"));
	CHECK(pp_split_page_of("usr/share/man/man5/key.dns_resolver.conf.5",
			       "key.dns_resolver"));
	CHECK(pp_split_page_of("bzip2.1", "bzip2"));
	CHECK(pp_split_page_of("usr/share/man/de/man1/bzip2.1.gz", "bzip2"));
	CHECK(!pp_split_page_of("usr/share/man/man1/bzip2recover.1", "bzip2"));
	CHECK(!pp_split_page_of("usr/share/man/man3/keyctl_read.3", "keyctl"));
	CHECK(!pp_split_page_of("usr/share/man/man8/key.dns_resolver.8", "key.dns"));
	CHECK(!pp_split_page_of("usr/share/man/man1/x.1", ""));
}

/* Fifth round: acl's acl.5 and keyutils' keyutils.7, asymmetric-key.7
 * went to the -dev (the rule made for libarchive-dev's tar.5), where
 * Debian's acl and keyutils hold them. In Debian 12, of 142 library
 * sources not named lib* with programs and section 5 or 7 pages of no
 * program, 101 keep most of them in the programs' package, 16 in the
 * -dev; of the 20 named lib*, 8 and 6 (libarchive, libpng1.6: -dev).
 * Such a page goes with the programs of a source not named lib*. */
/* pp_split_orphan_page's role; a reason comes with every role but -1. */
static int orphan_role(const char *path, const char *source, int programs,
		       int library)
{
	const char *why = "unset";
	int role = pp_split_orphan_page(path, source, programs, library, &why);

	return (role < 0) == (why == NULL) ? role : -100;
}

static void orphan_pages(struct t_ctx *t)
{
	CHECK_INT(orphan_role("usr/share/man/man5/acl.5", "acl", 1, 1),
		  PP_ROLE_TOOLS);
	CHECK_INT(orphan_role("usr/share/man/man7/keyutils.7",
				       "keyutils", 1, 1), PP_ROLE_TOOLS);
	/* a lib* source: no majority, the -dev still */
	CHECK_INT(orphan_role("usr/share/man/man5/tar.5",
				       "libarchive", 1, 1), PP_ROLE_DEV);
	CHECK_INT(orphan_role("usr/share/man/man5/png.5",
				       "libpng1.6", 1, 1), PP_ROLE_DEV);
	/* commands: with the programs whatever the source's name */
	CHECK_INT(orphan_role("usr/share/man/man1/giflib.1",
				       "giflib", 1, 1), PP_ROLE_TOOLS);
	CHECK_INT(orphan_role("usr/share/man/de/man8/x.8",
				       "libx", 1, 1), PP_ROLE_TOOLS);
	/* no program: the -dev (a library alone) */
	CHECK_INT(orphan_role("usr/share/man/man5/x.5", "x", 0, 1),
		  PP_ROLE_DEV);
	CHECK_INT(orphan_role("usr/share/man/man7/x.7", "x", 0, 1),
		  PP_ROLE_DEV);
	/* system calls, kernel interfaces: the -dev still */
	CHECK_INT(orphan_role("usr/share/man/man2/x.2", "x", 1, 1),
		  PP_ROLE_DEV);
	CHECK_INT(orphan_role("usr/share/man/man4/x.4", "x", 1, 1),
		  PP_ROLE_DEV);
	/* neither: the rest's package */
	CHECK_INT(orphan_role("usr/share/man/man2/x.2", "x", 1, 0), -1);
	CHECK_INT(orphan_role("usr/share/man/man5/x.5", "x", 0, 0), -1);
}

/* Fifth round: keyutils stages keyctl_pkey_decrypt.3 as the one line
 * ".so keyctl_pkey_encrypt.3", bzip2 bzegrep.1 as ".so man1/bzgrep.1";
 * padpack shipped them as files, and lintian's error
 * bad-so-link-within-manual-page named keyutils' two. dh_installman
 * makes such a page a link to the page it names (Debian's
 * libkeyutils-dev and bzip2 ship links). */
static void so_page(struct t_ctx *t)
{
	CHECK_OWNED(pp_split_so_page("usr/share/man/man1/bzegrep.1",
				     ".so man1/bzgrep.1\n"),
		    "usr/share/man/man1/bzgrep.1");
	CHECK_OWNED(pp_split_so_page("usr/share/man/man3/keyctl_pkey_decrypt.3",
				     ".so keyctl_pkey_encrypt.3\n"),
		    "usr/share/man/man3/keyctl_pkey_encrypt.3");
	CHECK_OWNED(pp_split_so_page("usr/share/man/de/man1/x.1",
				     ".so  man3/y.3 \n\n"),
		    "usr/share/man/de/man3/y.3");
	CHECK(!pp_split_so_page("usr/share/man/man1/x.1", ".TH X 1\n.so y.1\n"));
	CHECK(!pp_split_so_page("usr/share/man/man1/x.1", ".so y.1\n.TH X 1\n"));
	CHECK(!pp_split_so_page("usr/share/man/man1/x.1", ".so /usr/share/man/man1/y.1\n"));
	CHECK(!pp_split_so_page("usr/share/man/man1/x.1", ".so ../man1/y.1\n"));
	CHECK(!pp_split_so_page("usr/share/man/man1/x.1", ".so a/man1/y.1\n"));
	CHECK(!pp_split_so_page("usr/share/man/man1/x.1", ".sox y.1\n"));
	CHECK(!pp_split_so_page("usr/share/man/man1/x.1", ".so \n"));
}

static struct pp_split_file linked(const char *path, enum pp_file_class cls,
				   ino_t ino, nlink_t nlink)
{
	struct pp_split_file f;

	memset(&f, 0, sizeof(f));
	f.path = (char *)path;
	f.st.st_mode = S_IFREG | 0755;
	f.st.st_dev = 1;
	f.st.st_ino = ino;
	f.st.st_nlink = nlink;
	f.st.st_size = 39528;
	f.c.cls = cls;
	return f;
}

/* Fifth round: bzip2's make install stages bzip2, bunzip2 and bzcat as
 * hard links of one file; padpack shipped three copies (Installed-Size
 * 182 KiB), where dpkg-deb keeps the links of Debian's tree (bzcat and
 * bzip2 "link to ./bin/bunzip2"). A hard link of the stage is one file
 * in its package. */
static void same_file(struct t_ctx *t)
{
	struct pp_split_file a = linked("bin/bunzip2", PP_CLASS_EXEC, 7, 3);
	struct pp_split_file b = linked("bin/bzcat", PP_CLASS_EXEC, 7, 3);
	struct pp_split_file other = linked("bin/bzip2recover", PP_CLASS_EXEC, 8, 3);
	struct pp_split_file one = linked("bin/bzcat", PP_CLASS_EXEC, 7, 1);
	struct pp_split_file data = linked("usr/share/x/bunzip2", PP_CLASS_DATA, 7, 3);
	struct pp_split_file page = linked("usr/share/man/man1/a.1", PP_CLASS_MAN, 9, 2);
	struct pp_split_file page2 = linked("usr/share/man/man1/b.1", PP_CLASS_MAN, 9, 2);
	struct pp_split_file lib = linked("usr/lib/x/libz.so.1.2", PP_CLASS_SHLIB, 10, 2);
	struct pp_split_file lib2 = linked("usr/lib/x/libz.so.1", PP_CLASS_SHLIB, 10, 2);

	CHECK(pp_split_same_file(&a, &b));
	CHECK(pp_split_same_file(&b, &a));
	CHECK(pp_split_same_file(&lib, &lib2));
	CHECK(!pp_split_same_file(&a, &other));   /* another inode */
	CHECK(!pp_split_same_file(&one, &a));     /* no other link */
	data.st.st_mode = S_IFREG | 0644;
	CHECK(!pp_split_same_file(&a, &data));    /* 0755 and 0644 */
	CHECK(!pp_split_same_file(&page, &page2)); /* gzipped anew, each */
	b.st.st_mode = S_IFLNK | 0777;
	CHECK(!pp_split_same_file(&a, &b));
}

/* giflib's rules write libgif.pc -> /usr/lib/TRIPLET/pkgconfig/libgif7.pc
 * (third round): shipped as it was, lintian warned
 * absolute-symlink-in-top-level-folder, where Debian's dh_link had made
 * it relative. Every link is written as dh_link writes it (policy 10.5). */
static void policy_links(struct t_ctx *t)
{
	static const char *const cases[][3] = { /* link, target, written */
		{ "usr/lib/x86_64-linux-gnu/pkgconfig/libgif.pc",
		  "/usr/lib/x86_64-linux-gnu/pkgconfig/libgif7.pc", "libgif7.pc" },
		{ "usr/lib/x86_64-linux-gnu/pkgconfig/libgif.pc", "libgif7.pc",
		  "libgif7.pc" },
		{ "usr/lib/x86_64-linux-gnu/libfoo.so", "libfoo.so.1",
		  "libfoo.so.1" },
		{ "usr/bin/foo", "/usr/lib/foo/bin/foo", "../lib/foo/bin/foo" },
		{ "usr/share/doc/foo/NEWS.gz", "./changelog.gz", "changelog.gz" },
		{ "usr/share/foo/x", "../../../etc/foo/x", "/etc/foo/x" },
		{ "usr/share/foo/x", "/etc//foo/./x", "/etc/foo/x" },
		{ "etc/foo.conf", "/usr/share/foo/foo.conf",
		  "/usr/share/foo/foo.conf" },
		{ "usr/lib/a/b/c", "../../../share/x", "../../../share/x" },
		{ "usr/lib/a/b/c", "/usr/lib/a", ".." },
		{ "usr/lib/a/b", "/usr/lib/a", "." },
		{ "usr/lib/foo", "/usr/lib/foo/bar", "foo/bar" },
		{ "usr/lib/x", "../../../../x", "/x" },
		{ "usr/lib/x", "/", "/" },
		{ "usr/lib/x", "x", "x" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK_OWNED(pp_split_policy_link(cases[i][0], cases[i][1]),
			    cases[i][2]);
}

/* libconfig (third round): libconfig++ exports the C functions of
 * libconfig.h too, so libconfig.h went to libconfig++-dev (a tie, the
 * first library) and libconfig.h++, whose classes no exported name
 * matches as a word, to libconfig-dev. A header is its language's. */
static void dev_cxx_headers(struct t_ctx *t)
{
	static const char c_h[] = "/* libconfig - a library */\n"
		"#ifdef __cplusplus\nextern \"C\" {\n#endif\n"
		"typedef struct config_t config_t;\n"
		" * class of settings\n"
		"extern int config_read_file(config_t *, const char *);\n"
		"extern void config_init(config_t *);\n";
	static const char cxx_h[] = "#include <string>\nnamespace libconfig {\n"
		"class Config {\n  public:\n  void readFile(const char *);\n};\n}\n";
	char *soname[] = { "libconfig++.so.9", "libconfig.so.9" };
	char *stem[] = { "config++", "config" };
	char *dev[] = { "libconfig++-dev", "libconfig-dev" };
	char *cxx_syms[] = { "_ZN9libconfig6Config8readFileEPKc", "config_init",
			     "config_read_file" };
	char *c_syms[] = { "config_init", "config_read_file" };
	char **syms[] = { cxx_syms, c_syms };
	size_t nr_syms[] = { 3, 2 };
	static struct pp_elf_info elf[2];
	const struct pp_elf_info *elfs[] = { &elf[0], &elf[1] };
	unsigned char cxx[] = { 1, 0 };
	struct pp_split_devlibs d = { 2, soname, stem, dev, elfs, syms, nr_syms,
				      1, cxx, 1 };

	CHECK(!pp_split_cxx_header("usr/include/libconfig.h", c_h));
	CHECK(pp_split_cxx_header("usr/include/libconfig.h++", ""));
	CHECK(pp_split_cxx_header("usr/include/foo/bar.hpp", ""));
	CHECK(pp_split_cxx_header("usr/include/QtCore/QString", ""));
	CHECK(pp_split_cxx_header("usr/include/foo.h", cxx_h));
	CHECK(pp_split_cxx_header("usr/include/foo.h", "template <typename T> T f(T);\n"));
	CHECK(!pp_split_cxx_header("usr/include/foo.h", "int classify(void);\nint class_of(int);\n"));
	CHECK(pp_split_devlib_header(&d, "usr/include/libconfig.h", c_h) == 1);
	CHECK(pp_split_devlib_header(&d, "usr/include/libconfig.h++", cxx_h) == 0);
	/* nothing it declares exported: the first library of its language */
	CHECK(pp_split_devlib_header(&d, "usr/include/config-extra.hpp", "") == 0);
	CHECK(pp_split_devlib_header(&d, "usr/include/config-types.h", "") == 1);
	d.main = 0; /* the main library is the C++ one: a C header still C */
	CHECK(pp_split_devlib_header(&d, "usr/include/config-types.h", "") == 1);
	/* one language (packages.dev = "library" of C libraries): as before */
	d.mixed = 0;
	CHECK(pp_split_devlib_header(&d, "usr/include/libconfig.h", c_h) == 0);
}

/* pcre3 (eighth round): libpcrecpp.pc's Libs is "-lpcre -lpcrecpp";
 * the first -l sent it to libpcre3-dev, away from libpcrecpp.so in
 * libpcrecpp-dev. A .pc goes with the library its name names, when its
 * Libs lists it; else with the first it lists. */
static void dev_pc_own_library(struct t_ctx *t)
{
	char *soname[] = { "libpcre.so.3", "libpcrecpp.so.0", "libxmlsec1.so.1",
			   "libxmlsec1-openssl.so.1" };
	char *stem[] = { "pcre", "pcrecpp", "xmlsec1", "xmlsec1openssl" };
	char *dev[] = { "libpcre3-dev", "libpcrecpp-dev", "libxmlsec1-dev",
			"libxmlsec1-openssl-dev" };
	struct pp_split_devlibs d = { 4, soname, stem, dev, NULL, NULL, NULL,
				      0, NULL, 0 };
	static const char cpp[] = "Name: libpcrecpp\nLibs: -L${libdir} -lpcre -lpcrecpp\nCflags: -I${includedir}\n";
	static const char xml[] = "Libs: -L/usr/lib/x86_64-linux-gnu -lxmlsec1-openssl -lxmlsec1 -lssl -lcrypto\n";

	CHECK(pp_split_devlib_pc(&d, "usr/lib/x86_64-linux-gnu/pkgconfig/libpcrecpp.pc", cpp) == 1);
	CHECK(pp_split_devlib_pc(&d, "usr/lib/x86_64-linux-gnu/pkgconfig/libpcre.pc",
				 "Libs: -L${libdir} -lpcre\n") == 0);
	/* xmlsec1.pc lists xmlsec1-openssl first */
	CHECK(pp_split_devlib_pc(&d, "usr/lib/x86_64-linux-gnu/pkgconfig/xmlsec1.pc", xml) == 2);
	CHECK(pp_split_devlib_pc(&d, "usr/lib/x86_64-linux-gnu/pkgconfig/xmlsec1-openssl.pc", xml) == 3);
	/* a name that names no library it lists: the first, as before */
	CHECK(pp_split_devlib_pc(&d, "usr/lib/x86_64-linux-gnu/pkgconfig/pcre-all.pc", cpp) == 0);
	CHECK(pp_split_devlib_pc(&d, "usr/lib/x86_64-linux-gnu/pkgconfig/libpcrecpp.pc",
				 "Libs: -L${libdir} -lpcre\n") == 0);
	CHECK(pp_split_devlib_pc(&d, "usr/lib/x86_64-linux-gnu/pkgconfig/libpcrecpp.pc",
				 "Libs: -lz\n") == -1);
}

/* openjpeg2 (third round): CMake package files in
 * usr/lib/TRIPLET/openjpeg-2.5/, one of find_package's config-mode
 * directories, went to the programs as data; Debian's are in
 * libopenjp2-7-dev. Any *.cmake under usr/lib or usr/share is CMake's,
 * not in a Python package or the documentation. */
static void cmake_files(struct t_ctx *t)
{
	static const struct { const char *path; enum pp_file_class cls; } cases[] = {
		{ "usr/lib/x86_64-linux-gnu/openjpeg-2.5/OpenJPEGConfig.cmake", PP_CLASS_CMAKE },
		{ "usr/lib/x86_64-linux-gnu/openjpeg-2.5/OpenJPEGTargets-none.cmake", PP_CLASS_CMAKE },
		{ "usr/share/foo/foo-config.cmake", PP_CLASS_CMAKE },
		{ "usr/lib/x86_64-linux-gnu/cmake/Foo/FooConfig.cmake", PP_CLASS_CMAKE },
		{ "usr/share/doc/foo/examples/foo.cmake", PP_CLASS_DOC },
		{ "usr/lib/python3/dist-packages/foo/foo.cmake", PP_CLASS_PYTHON },
		{ "usr/share/foo/data.txt", PP_CLASS_DATA },
		{ "usr/share/foo/cmake.txt", PP_CLASS_DATA },
		{ "etc/foo.cmake", PP_CLASS_DATA },
	};
	char dir[] = "/tmp/padpack-cmake.XXXXXX", cmd[600];
	struct pp_classified c;
	struct pp_err err;
	struct stat st;

	pp_err_init(&err);
	CHECK(mkdtemp(dir) != NULL);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname %s/%s)\" && "
			 "echo 'set(FOO 1)' >%s/%s", dir, cases[i].path, dir,
			 cases[i].path);
		CHECK(system(cmd) == 0);
		snprintf(cmd, sizeof(cmd), "%s/%s", dir, cases[i].path);
		CHECK(lstat(cmd, &st) == 0);
		CHECK_INT(pp_classify(dir, cases[i].path, &st, NULL, &c, &err), 0);
		if (c.cls != cases[i].cls)
			fprintf(stderr, "# %s: class %d\n", cases[i].path, (int)c.cls);
		CHECK_INT(c.cls, cases[i].cls);
		pp_classified_release(&c);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
	pp_err_release(&err);
}

/* libbsd (sixth round): its libbsd.so is a GNU ld script, "GROUP(
 * /usr/lib/TRIPLET/libbsd.so.0.11.7 AS_NEEDED(-lmd))", which went to the
 * runtime package as data; only ld reads it, for -lbsd: Debian's
 * libbsd-dev ships it (and depends on libmd-dev), as libc6-dev its
 * libc.so and libncurses-dev its libncurses.so. */
static void ld_scripts(struct t_ctx *t)
{
	static const char libc[] = "/* GNU ld script\n   Use the shared library, "
		"but some functions are only in\n   the static library, so try "
		"that secondarily.  */\nOUTPUT_FORMAT(elf64-x86-64)\nGROUP ( "
		"/lib/x86_64-linux-gnu/libc.so.6 /usr/lib/x86_64-linux-gnu/"
		"libc_nonshared.a  AS_NEEDED ( /lib64/ld-linux-x86-64.so.2 ) )\n";
	static const struct { const char *path, *text; enum pp_file_class cls; } cases[] = {
		{ "usr/lib/x86_64-linux-gnu/libbsd.so", "/* GNU ld script\n * The MD5 "
		  "functions are provided by the libmd library. */\nOUTPUT_FORMAT("
		  "elf64-x86-64)\nGROUP(/usr/lib/x86_64-linux-gnu/libbsd.so.0.11.7 "
		  "AS_NEEDED(-lmd))\n", PP_CLASS_DEV_LINK },
		{ "usr/lib/x86_64-linux-gnu/libncurses.so", "INPUT(libncurses.so.6 -ltinfo)\n",
		  PP_CLASS_DEV_LINK },
		{ "lib/libfoo.so", "INPUT(libfoo.so.1)", PP_CLASS_DEV_LINK },
		{ "usr/lib/x86_64-linux-gnu/libfoo.so", "OUTPUT_FORMAT(elf64-x86-64)\n",
		  PP_CLASS_DATA },
		{ "usr/lib/x86_64-linux-gnu/libfoo.so", "INPUT(libfoo.so.1\n", PP_CLASS_DATA },
		{ "usr/lib/x86_64-linux-gnu/libfoo.so", "hello INPUT(libfoo.so.1)", PP_CLASS_DATA },
		{ "usr/lib/x86_64-linux-gnu/foo.so", "INPUT(libfoo.so.1)", PP_CLASS_DATA },
		{ "usr/lib/x86_64-linux-gnu/foo/libfoo.so", "INPUT(libfoo.so.1)", PP_CLASS_DATA },
		{ "usr/share/foo/libfoo.so", "INPUT(libfoo.so.1)", PP_CLASS_DATA },
	};
	struct pp_strlist in = PP_STRLIST_INIT;
	char dir[] = "/tmp/padpack-ldscript.XXXXXX", path[300], cmd[400];
	struct pp_classified c;
	struct pp_err err;
	struct stat st;
	FILE *f;

	CHECK(pp_ld_script_inputs(libc, &in));
	CHECK_INT((int)in.nr, 3);
	if (in.nr == 3) {
		CHECK_STR(in.items[0], "/lib/x86_64-linux-gnu/libc.so.6");
		CHECK_STR(in.items[1], "/usr/lib/x86_64-linux-gnu/libc_nonshared.a");
		CHECK_STR(in.items[2], "/lib64/ld-linux-x86-64.so.2");
	}
	pp_strlist_release(&in);
	CHECK(pp_ld_script_inputs("INPUT(libncurses.so.6 -ltinfo)", &in));
	CHECK_INT((int)in.nr, 2);
	if (in.nr == 2)
		CHECK_STR(in.items[1], "-ltinfo");
	pp_strlist_release(&in);
	CHECK(pp_ld_script_inputs("GROUP ( libgcc_s.so.1, -lgcc )", &in));
	CHECK_INT((int)in.nr, 2);
	pp_strlist_release(&in);
	CHECK(!pp_ld_script_inputs("", &in));
	CHECK(!pp_ld_script_inputs("/* INPUT(libfoo.so.1) */", &in));
	CHECK(!pp_ld_script_inputs("INPUT(libfoo.so.1))", &in));
	pp_strlist_release(&in);

	pp_err_init(&err);
	CHECK(mkdtemp(dir) != NULL);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s/* && mkdir -p \"$(dirname %s/%s)\"",
			 dir, dir, cases[i].path);
		CHECK(system(cmd) == 0);
		snprintf(path, sizeof(path), "%s/%s", dir, cases[i].path);
		f = fopen(path, "w");
		CHECK(f != NULL);
		if (!f)
			continue;
		fputs(cases[i].text, f);
		fclose(f);
		CHECK(lstat(path, &st) == 0);
		CHECK_INT(pp_classify(dir, cases[i].path, &st, NULL, &c, &err), 0);
		if (c.cls != cases[i].cls)
			fprintf(stderr, "# %s (%s): class %d\n", cases[i].path,
				cases[i].text, (int)c.cls);
		CHECK_INT(c.cls, cases[i].cls);
		CHECK_INT(c.ld_script, cases[i].cls == PP_CLASS_DEV_LINK);
		CHECK(c.soname == NULL); /* no library of the stage named */
		pp_classified_release(&c);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
	pp_err_release(&err);
}

static void embedded_sources(struct t_ctx *t)
{
	struct pp_strlist dirs = PP_STRLIST_INIT;

	CHECK(pp_split_is_c_source("usr/share/lzo/minilzo/minilzo.c"));
	CHECK(pp_split_is_c_source("usr/share/lzo/minilzo/lzoconf.h"));
	CHECK(pp_split_is_c_source("usr/share/x/a.cpp"));
	CHECK(pp_split_is_c_source("usr/share/x/a.HPP"));
	CHECK(!pp_split_is_c_source("usr/share/lzo/minilzo/README.LZO"));
	CHECK(!pp_split_is_c_source("usr/share/x/run.sh"));
	CHECK(!pp_split_is_c_source("usr/share/x/.h"));
	pp_strlist_push(&dirs, "usr/share/lzo/minilzo");
	/* liblzo2-dev's minilzo: a library, no programs */
	CHECK(pp_split_embedded_source("usr/share/lzo/minilzo/minilzo.c", &dirs, 0, 1));
	CHECK(pp_split_embedded_source("usr/share/lzo/minilzo/README.LZO", &dirs, 0, 1));
	/* not beside one: data */
	CHECK(!pp_split_embedded_source("usr/share/lzo/README", &dirs, 0, 1));
	CHECK(!pp_split_embedded_source("usr/share/lzo/minilzo/sub/x.txt", &dirs, 0, 1));
	/* programs' input (lemon's lempar.c), no library, or not under usr/share */
	CHECK(!pp_split_embedded_source("usr/share/lemon/lempar.c", &dirs, 1, 1));
	CHECK(!pp_split_embedded_source("usr/share/lzo/minilzo/minilzo.c", &dirs, 0, 0));
	CHECK(!pp_split_embedded_source("usr/share/doc/liblzo2-dev/examples/dict.c", &dirs, 0, 1));
	CHECK(!pp_split_embedded_source("usr/lib/x86_64-linux-gnu/foo/x.c", &dirs, 0, 1));
	pp_strlist_release(&dirs);
}

const struct t_case splitrules_tests[] = {
	{ "split rules: *.cmake under usr/lib or usr/share is a CMake file (find_package's config paths)", cmake_files },
	{ "split rules: a libNAME.so that is a GNU ld script is for linking, as a .so link (libbsd.so)", ld_scripts },
	{ "split rules: C sources and headers under usr/share of a library source without programs go to -dev (minilzo)", embedded_sources },
	{ "split rules: a C++ library's headers to its -dev, a C library's to its own", dev_cxx_headers },
	{ "split rules: a .pc file goes with the library its name names (libpcrecpp.pc: -lpcre -lpcrecpp)", dev_pc_own_library },
	{ "split rules: links are written as dh_link writes them (policy 10.5)", policy_links },
	{ "split rules: a manual page is a program's: its name and a dot (key.dns_resolver.conf.5)", page_of },
	{ "split rules: a hard link of the stage is one file in its package (bzip2, bunzip2, bzcat)", same_file },
	{ "split rules: a section 5 or 7 page of no program goes with the programs of a source not named lib* (acl.5)", orphan_pages },
	{ "split rules: a page that is one .so request names the page it links to (dh_installman)", so_page },
	{ "split rules: a link to a libtool archive is dropped with it", libtool_link },
	{ "split rules: a loadable module's static twin is dropped", module_twin },
	{ "split rules: manual pages and info documents are gzipped", compressed_docs },
	{ "split rules: a manual page the build gzipped is gzipped again, -9n", regzipped_man },
	{ "split rules: one runtime package for libraries only used together", runtime_together },
	{ "split rules: one python3-* package of a source's Python modules", python_package },
	{ "split rules: a run path of the default directories is dropped", default_runpath },
	{ "split rules: a symbol of version 0 asks for no version (dpkg-shlibdeps)", shlibdeps_zero },
	{ "split rules: what a -dev package needs (.pc Requires, header includes)", dev_needs },
	{ "split rules: the programs' Section from the summary", tools_section },
	{ "split rules: a data package's Section: libs for a library's, else the programs'", data_section },
	{ "split rules: programs of a lib* source, named as Debian does", tools_name },
	{ "split rules: one -dev per source, the runtime group, files for building", dev_and_group },
	{ "split rules: a -doc package only for a manual (512 KiB, or a generated one)", docs },
	{ "split rules: a C++ library beside C ones gets its own -dev", dev_cxx },
	{ "split rules: the default synopsis", synopsis },
	{ "split rules: the copyright file made from the tree's license", copyright },
	{ "split rules: a minimal spec loads with defaults", minimal_spec },
	{ "split rules: the maintainer as dch guesses it, no lintian error", maintainer_guess },
	{ "split rules: unversioned python #! lines (to python3, as dh_python3)", python_shebang },
	{ NULL, NULL },
};
