/* What the fuzz targets (tests/fuzz) found, one case each: the input
 * that showed the bug, and what must happen with it now. The inputs are
 * also in tests/fuzz/corpus-NAME, which every fuzz run replays. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/lib/control.h"
#include "../../src/lib/deb.h"
#include "../../src/lib/debsig.h"
#include "../../src/lib/elfinfo.h"
#include "../../src/lib/fsutil.h"
#include "../../src/lib/repo-internal.h"
#include "../../src/lib/spec.h"
#include "test.h"

/* A stanza stream that fails after a field was read handed the half-read
 * stanza back, which no caller freed (control: "NB:" after a field). */
static void deb822_error_keeps_nothing(struct t_ctx *t)
{
	static const char text[] = "A: 1\nB\n";
	struct pp_deb822 p;
	struct pp_stanza st;
	struct pp_err err;

	pp_err_init(&err);
	pp_deb822_init(&p, text, sizeof(text) - 1, "f");
	CHECK_INT(pp_deb822_next(&p, &st, &err), -1);
	CHECK_INT(st.nr, 0);
	CHECK(st.fields == NULL);
	CHECK_STR(err.msg, "f:2: field name 'B' must be followed by a colon: "
		  "write 'Name: value'");
	/* the input the fuzzer found: one field, no value, no newline */
	pp_deb822_init(&p, "NB:", 3, "f");
	CHECK_INT(pp_deb822_next(&p, &st, &err), -1);
	CHECK_INT(st.nr, 0);
	pp_err_release(&err);
}

/* A program with two PT_INTERP headers: the first was read, then the
 * second, and the first leaked (elf). This test program itself, with a
 * second PT_INTERP made of another header, is such a file. */
static void elf_second_interp(struct t_ctx *t)
{
	char path[] = "/tmp/padpack-unit-elf.XXXXXX";
	struct strbuf exe = STRBUF_INIT;
	struct pp_elf_info info;
	const Elf64_Phdr *interp = NULL;
	Elf64_Ehdr *eh;
	Elf64_Phdr *ph;
	struct pp_err err;
	int fd = mkstemp(path), changed = 0;

	pp_err_init(&err);
	CHECK(fd >= 0 && pp_read_file("/proc/self/exe", &exe, &err) == 0);
	eh = (Elf64_Ehdr *)exe.buf;
	ph = (Elf64_Phdr *)(exe.buf + eh->e_phoff);
	for (size_t i = 0; i < eh->e_phnum && !changed; i++) {
		if (ph[i].p_type == PT_INTERP && !interp)
			interp = &ph[i];
		else if (interp && (ph[i].p_type == PT_NOTE ||
				    ph[i].p_type == PT_GNU_STACK)) {
			ph[i] = *interp;
			ph[i].p_filesz = 4; /* "/lib" */
			changed = 1;
		}
	}
	CHECK(changed);
	CHECK(pp_write_file(path, exe.buf, exe.len, 0600, &err) == 0);
	CHECK_INT(pp_elf_read(path, &info, &err), 0);
	CHECK(info.interp && strlen(info.interp) > 4); /* the first one */
	pp_elf_release(&info);
	close(fd);
	unlink(path);
	strbuf_release(&exe);
	pp_err_release(&err);
}

/* libconfig 1.5 ended the process ("input in flex scanner failed", exit
 * 2) on an @include of a directory, such as "" or "." (spec). */
static void spec_include_of_a_directory(struct t_ctx *t)
{
	static const struct { const char *s; size_t len; } texts[] = {
#define TEXT(s) { s, sizeof(s) - 1 }
		TEXT("@include \"\"\n"),
		TEXT("name = \"x\";\n  @include\t\".\"\n"),
		/* a line starting with NUL before it (the fuzzer's) */
		TEXT("name = \"x\n\0\";\n@include \"\"\n"),
		/* a name that runs over lines, NUL first (the fuzzer's) */
		TEXT("@include \"\0x;\n y\"\n"),
#undef TEXT
	};
	char dir[] = "/tmp/padpack-unit-spec.XXXXXX", path[64];
	struct pp_spec spec;
	struct pp_err err;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/s.cfg", dir);
	for (size_t i = 0; i < 4; i++) {
		pp_err_init(&err);
		CHECK(pp_write_file(path, texts[i].s, texts[i].len, 0644,
				    &err) == 0);
		CHECK_INT(pp_spec_load(path, &spec, &err), -1);
		CHECK_INT(err.code, PP_EXIT_INPUT);
		CHECK(strstr(err.msg, i < 3 ? "is not a regular file" :
			     "a line break or a NUL byte") != NULL);
		pp_err_release(&err);
	}
	unlink(path);
	rmdir(dir);
}

/* A db/cache whose last line is a stat line cut short before its key
 * and newline: the key's length came out as -1 and was copied (repo-db,
 * "X-Padpack-Stat: " alone). Such an entry is dropped (and rebuilt from
 * its pool file at the next publish); the whole ones before it stay. */
static void cache_stat_line_cut_short(struct t_ctx *t)
{
	static const char *const texts[] = {
		"X-Padpack-Stat: ",
		"Package: a\nFilename: pool/a.deb\nX-Padpack-Stat: 1 2 3\n\n"
		"Package: b\nFilename: pool/b.deb\nX-Padpack-Stat",
	};
	char root[] = "/tmp/padpack-unit-cache.XXXXXX", path[64];
	struct pp_repo_cache c;
	struct pp_err err;

	CHECK(mkdtemp(root) != NULL);
	snprintf(path, sizeof(path), "%s/db", root);
	CHECK(mkdir(path, 0755) == 0);
	strcat(path, "/cache");
	for (size_t i = 0; i < 2; i++) {
		pp_err_init(&err);
		CHECK(pp_write_file(path, texts[i], strlen(texts[i]), 0644,
				    &err) == 0);
		CHECK_INT(pp_repo_cache_load(root, &c, &err), 0);
		CHECK_INT(c.nr, i);
		if (i == 1) {
			CHECK_STR(c.e[0].filename, "pool/a.deb");
			CHECK_STR(c.e[0].stat_key, "1 2 3");
		}
		pp_repo_cache_release(&c);
		pp_err_release(&err);
	}
	unlink(path);
	path[strlen(path) - strlen("/cache")] = '\0';
	rmdir(path);
	rmdir(root);
}

/* Verifying a signed package whose data holds no file sorted and
 * searched a NULL array (qsort and bsearch with a NULL base: undefined
 * behaviour, which UBSan reports; deb, the empty fixture signed). */
static void verify_package_without_files(struct t_ctx *t)
{
	static const char control[] = "Package: empty\nVersion: 1\n"
		"Architecture: all\nMaintainer: A <a@example.org>\n"
		"Description: nothing\n";
	const struct pp_pack_opts po = { { PP_COMP_NONE, -1, 1, PP_X86_AUTO }, 1700000000, NULL };
	char dir[] = "/tmp/padpack-unit-verify.XXXXXX", p[128], deb[128];
	struct pp_debsig_report rep;
	struct pp_pgp_signer signer;
	struct pp_err err;

	pp_err_init(&err);
	CHECK(mkdtemp(dir) != NULL);
	snprintf(p, sizeof(p), "%s/tree/DEBIAN", dir);
	CHECK(pp_mkdir_p(p, 0755, &err) == 0);
	strcat(p, "/control");
	CHECK(pp_write_file(p, control, strlen(control), 0644, &err) == 0);
	snprintf(p, sizeof(p), "%s/tree", dir);
	snprintf(deb, sizeof(deb), "%s/empty.deb", dir);
	CHECK(pp_deb_pack(p, deb, &po, NULL, &err) == 0);
	snprintf(p, sizeof(p), "%s/key", dir);
	CHECK(pp_pgp_key_generate(p, "T <t@example.org>", "ed25519", NULL,
				  1700000000, &err) == 0);
	CHECK(pp_pgp_signer_load(&signer, p, NULL, &err) == 0);
	CHECK(pp_debsig_sign(deb, deb, &signer, NULL, &err) == 0);
	CHECK_INT(pp_debsig_verify(deb, &signer.cert, 1800000000, &rep, &err), 0);
	CHECK_INT(rep.files, 0);
	pp_debsig_report_release(&rep);
	pp_pgp_signer_release(&signer);
	pp_err_release(&err);
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	CHECK(system(p) == 0);
}

/* Verifying a signed package whose data ends inside a file the MD5
 * thread was hashing left that hash's context unfreed (deb: a package of
 * the links fixture cut short, then signed). Read from the fuzz corpus:
 * the unit tests run from the top of the tree. */
static void verify_data_cut_inside_a_file(struct t_ctx *t)
{
	char dir[] = "/tmp/padpack-unit-cut.XXXXXX", key[64], deb[64];
	struct pp_debsig_report rep;
	struct pp_pgp_signer signer;
	struct pp_err err;

	pp_err_init(&err);
	CHECK(mkdtemp(dir) != NULL);
	snprintf(key, sizeof(key), "%s/key", dir);
	snprintf(deb, sizeof(deb), "%s/cut.deb", dir);
	CHECK(pp_pgp_key_generate(key, "T <t@example.org>", "ed25519", NULL,
				  1700000000, &err) == 0);
	CHECK(pp_pgp_signer_load(&signer, key, NULL, &err) == 0);
	CHECK(pp_debsig_sign("tests/fuzz/corpus-deb/leak-md5-lane", deb,
			     &signer, NULL, &err) == 0);
	CHECK_INT(pp_debsig_verify(deb, &signer.cert, 1800000000, &rep, &err),
		  -1);
	CHECK(strstr(err.msg, "Truncated input") != NULL);
	pp_debsig_report_release(&rep);
	pp_pgp_signer_release(&signer);
	pp_err_release(&err);
	snprintf(key, sizeof(key), "rm -rf '%s'", dir);
	CHECK(system(key) == 0);
}

T_SUITE(fuzzfound_tests) = {
	{ "verify: data cut inside a file hashed on the MD5 thread",
	  verify_data_cut_inside_a_file },
	{ "verify: a signed package without files", verify_package_without_files },
	{ "repo cache: a stat line cut short is dropped, not copied",
	  cache_stat_line_cut_short },
	{ "spec: @include of a directory is an error, not an exit",
	  spec_include_of_a_directory },
	{ "elf: a second PT_INTERP is ignored, not leaked", elf_second_interp },
	{ "deb822: a stanza that fails is freed, not handed out",
	  deb822_error_keeps_nothing },
	T_END,
};
