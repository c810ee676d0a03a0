/* padpack split's library data rule: the path strings of a shared
 * library (what libelf reads of its read-only sections), which staged
 * files they name, and which of a stage's files a library reads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/lib/elfinfo.h"
#include "../../src/lib/splitint.h"
#include "test.h"

static void path_strings(struct t_ctx *t)
{
	static const char sec[] = "\0/usr/share/alsa\0hello /etc\0"
		"/etc/foo.conf\0/usr/share/%s/x.conf\0/\0/has space\0"
		"/usr/lib/x/\0relative/x\0/bad\x01\0/trunc";
	struct pp_strlist out = PP_STRLIST_INIT;

	pp_elf_path_strings(sec, sizeof(sec) - 1, &out);
	CHECK_INT(out.nr, 5);
	if (out.nr == 5) {
		CHECK_STR(out.items[0], "/usr/share/alsa");
		CHECK_STR(out.items[1], "/etc/foo.conf");
		CHECK_STR(out.items[2], "/usr/share");
		CHECK_STR(out.items[3], "/usr/lib/x");
		CHECK_STR(out.items[4], "/trunc");
	}
	pp_strlist_release(&out);
}

/* A library built here: its string constants are read, its code is not,
 * and a program's strings are not kept. */
static void elf_paths(struct t_ctx *t)
{
	char dir[] = "/tmp/pp-libdata-XXXXXX", cmd[1024], path[256];
	struct pp_elf_info info;
	struct pp_err err;
	FILE *f;

	pp_err_init(&err);
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/l.c", dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fputs("#include <stdio.h>\n"
	      "const char *tiny_conf(void) { return \"/usr/share/tiny/x.conf\"; }\n"
	      "FILE *tiny_open(void) { return fopen(\"/etc/tiny.d/a\", \"r\"); }\n"
	      "int main(void) { return tiny_conf() != 0; }\n", f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "cd %s && gcc -O2 -shared -fPIC "
		 "-Wl,-soname,libtiny.so.1 -o libtiny.so.1 l.c && "
		 "gcc -O2 -o prog l.c", dir);
	CHECK(system(cmd) == 0);
	snprintf(path, sizeof(path), "%s/libtiny.so.1", dir);
	CHECK_INT(pp_elf_read(path, &info, &err), 0);
	CHECK(pp_strlist_find(&info.paths, "/usr/share/tiny/x.conf") >= 0);
	CHECK(pp_strlist_find(&info.paths, "/etc/tiny.d/a") >= 0);
	for (size_t i = 1; i < info.paths.nr; i++)
		CHECK(strcmp(info.paths.items[i - 1], info.paths.items[i]) < 0);
	pp_elf_release(&info);
	snprintf(path, sizeof(path), "%s/prog", dir);
	CHECK_INT(pp_elf_read(path, &info, &err), 0);
	CHECK_INT(info.paths.nr, 0);
	pp_elf_release(&info);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
	pp_err_release(&err);
}

static void string_names(struct t_ctx *t)
{
	static const char lib[] = "usr/lib/x86_64-linux-gnu";

	CHECK(pp_split_string_names("/usr/share/alsa", "usr/share/alsa/alsa.conf", lib));
	CHECK(pp_split_string_names("/usr/share/alsa/alsa.conf", "usr/share/alsa/alsa.conf", lib));
	CHECK(pp_split_string_names("/usr/share/alsa", "usr/share/alsa/cards/x/y.conf", lib));
	CHECK(!pp_split_string_names("/usr/share/alsa", "usr/share/alsa-ucm/x.conf", lib));
	CHECK(!pp_split_string_names("/usr/share/alsa/alsa.conf", "usr/share/alsa/alsa.conf.d/x", lib));
	CHECK(!pp_split_string_names("/usr/share", "usr/share/alsa/alsa.conf", lib));
	CHECK(!pp_split_string_names("/usr", "usr/share/alsa/alsa.conf", lib));
	CHECK(!pp_split_string_names("/usr/share/doc/tiny", "usr/share/doc/tiny/README", lib));
	CHECK(!pp_split_string_names("/usr/share/doc/tiny/README", "usr/share/doc/tiny/README", lib));
	CHECK(!pp_split_string_names("/usr/share/locale", "usr/share/locale/de/LC_MESSAGES/t.mo", lib));
	CHECK(!pp_split_string_names("/usr/share/man/man5/t.5", "usr/share/man/man5/t.5", lib));
	CHECK(!pp_split_string_names("/usr/share/icons", "usr/share/icons/hicolor/t.png", lib));
	CHECK(pp_split_string_names("/usr/share/icons/hicolor/t.png", "usr/share/icons/hicolor/t.png", lib));
	CHECK(pp_split_string_names("/etc/tiny", "etc/tiny/a.conf", lib));
	CHECK(pp_split_string_names("/etc/tiny.conf", "etc/tiny.conf", lib));
	CHECK(!pp_split_string_names("/etc", "etc/tiny.conf", lib));
	CHECK(!pp_split_string_names("/etc/xdg", "etc/xdg/tiny.conf", lib));
	CHECK(!pp_split_string_names("/var/lib", "var/lib/tiny/db", lib));
	CHECK(pp_split_string_names("/var/lib/tiny", "var/lib/tiny/db", lib));
	CHECK(!pp_split_string_names("/usr/lib/x86_64-linux-gnu", "usr/lib/x86_64-linux-gnu/tiny/a.dat", lib));
	CHECK(!pp_split_string_names("/usr/lib", "usr/lib/x86_64-linux-gnu/tiny/a.dat", lib));
	CHECK(!pp_split_string_names("/usr/lib/x86_64-linux-gnu/libtiny.so.1", "usr/lib/x86_64-linux-gnu/libtiny.so.1", lib));
	CHECK(pp_split_string_names("/usr/lib/x86_64-linux-gnu/tiny", "usr/lib/x86_64-linux-gnu/tiny/a.dat", lib));
	CHECK(pp_split_string_names("/usr/local/share/tiny", "usr/local/share/tiny/a", "usr/local/lib"));
	CHECK(!pp_split_string_names("/usr/local/share", "usr/local/share/tiny/a", "usr/local/lib"));
	CHECK(!pp_split_string_names("usr/share/tiny", "usr/share/tiny/a", lib));
}

static void on_read(size_t file, const char *string, void *ctx)
{
	struct pp_strlist *got = ctx;

	pp_strlist_pushf(got, "%zu %s", file, string);
}

/* A stage of a library, its data, a plugin, a program and documents:
 * the library reads its data files and nothing else. */
static void library_reads(struct t_ctx *t)
{
	static const char *const paths[] = {
		"etc/tiny/a.conf", "usr/lib/x86_64-linux-gnu/libtiny.so.1",
		"usr/lib/x86_64-linux-gnu/tiny/plugin.so",
		"usr/lib/x86_64-linux-gnu/tiny/tables.dat",
		"usr/share/doc/tiny/README", "usr/share/tiny", "usr/share/tiny/x.conf",
		"usr/share/tiny/sub/y.conf", "usr/share/tiny-extra/z.conf",
		"usr/share/pkgconfig/tiny.pc", NULL,
	};
	struct pp_split_file files[16];
	size_t by_path[16], nr = 0;
	struct pp_split_stage st = { 0 };
	struct pp_split s = { 0 };
	struct pp_elf_info elf = { 0 }, plugin = { 0 };
	struct pp_strlist got = PP_STRLIST_INIT;
	char *joined;

	memset(files, 0, sizeof(files));
	for (; paths[nr]; nr++) {
		files[nr].path = (char *)paths[nr];
		files[nr].st.st_mode = S_IFREG | 0644;
		files[nr].c.cls = PP_CLASS_DATA;
		by_path[nr] = nr;
	}
	files[1].c.cls = PP_CLASS_SHLIB;
	files[1].c.soname = "libtiny.so.1";
	files[1].c.elf = &elf;
	files[2].c.cls = PP_CLASS_MODULE;
	files[2].c.elf = &plugin;
	files[4].c.cls = PP_CLASS_DOC;
	files[5].st.st_mode = S_IFDIR | 0755;
	st.files = files;
	st.nr = nr;
	st.by_path = by_path;
	pp_strlist_push(&elf.paths, "/etc/tiny");
	pp_strlist_push(&elf.paths, "/usr/lib/x86_64-linux-gnu");
	pp_strlist_push(&elf.paths, "/usr/lib/x86_64-linux-gnu/tiny");
	pp_strlist_push(&elf.paths, "/usr/share/doc/tiny");
	pp_strlist_push(&elf.paths, "/usr/share/pkgconfig");
	pp_strlist_push(&elf.paths, "/usr/share/tiny");
	pp_split_library_reads(&s, &st, &files[1], on_read, &got);
	joined = pp_strlist_join(&got, ",");
	CHECK_STR(joined, "0 /etc/tiny,3 /usr/lib/x86_64-linux-gnu/tiny,"
		  "6 /usr/share/tiny,7 /usr/share/tiny");
	free(joined);
	pp_strlist_release(&got);
	/* what is no shared library reads nothing */
	pp_split_library_reads(&s, &st, &files[3], on_read, &got);
	CHECK_INT(got.nr, 0);
	pp_strlist_release(&got);
	pp_strlist_release(&elf.paths);
}

const struct t_case libdata_tests[] = {
	{ "split library data: the path strings of a section", path_strings },
	{ "split library data: a library's read-only path strings, not a program's", elf_paths },
	{ "split library data: which staged paths a string names", string_names },
	{ "split library data: the data files a library of a stage reads", library_reads },
	{ NULL, NULL },
};
