/* libFuzzer target: ELF reading and file classification (elfinfo.c,
 * classify.c). The input is read twice from memory (pp_elf_read_memory,
 * the reader pp_elf_read runs on the file it maps), then written as a
 * staged shared library and classified, and a link named by its SONAME
 * classified too (which reads the library it reaches). */
#include <stdint.h>

#include "../../src/lib/classify.h"
#include "../../src/lib/elfinfo.h"
#include "fuzz.h"

static char stage[128];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char dir[160];

	(void)argc;
	(void)argv;
	fuzz_path(stage, sizeof(stage), "stage");
	snprintf(dir, sizeof(dir), "%s/usr", stage);
	if (mkdir(stage, 0755) < 0 || mkdir(dir, 0755) < 0 ||
	    mkdir(strcat(dir, "/lib"), 0755) < 0 ||
	    mkdir(strcat(dir, "/x86_64-linux-gnu"), 0755) < 0)
		abort();
	strcat(dir, "/libfuzz.so");
	if (symlink("libfuzz.so.1.2", dir) < 0)
		abort();
	return 0;
}

/* pp_elf_read of the input, from a copy of it in memory (libelf may
 * write to what it reads from memory). */
static int read_copy(const uint8_t *data, size_t size, const char *name,
		     struct pp_elf_info *info, struct pp_err *err)
{
	void *copy = malloc(size ? size : 1);
	int rc;

	if (!copy)
		abort();
	memcpy(copy, data, size);
	rc = pp_elf_read_memory(copy, size, name, info, err);
	free(copy);
	return rc;
}

static void read_elf(const uint8_t *data, size_t size, const char *name)
{
	struct pp_elf_info info, again;
	struct pp_err err;

	pp_err_init(&err);
	if (read_copy(data, size, name, &info, &err) == 0) {
		(void)pp_elf_debian_arch(&info);
		(void)pp_elf_multiarch(&info);
		if (read_copy(data, size, name, &again, &err) == 0) {
			if (!pp_elf_compatible(&info, &again))
				abort(); /* a file unlike itself */
			pp_elf_release(&again);
		}
		pp_elf_release(&info);
	}
	pp_err_release(&err);
}

static void classify(const char *rel, const char *target)
{
	struct pp_classified c;
	struct pp_err err;
	char full[256];
	struct stat st;

	snprintf(full, sizeof(full), "%s/%s", stage, rel);
	if (lstat(full, &st) < 0)
		abort();
	pp_err_init(&err);
	if (pp_classify(stage, rel, &st, target, &c, &err) == 0) {
		(void)pp_class_name(c.cls);
		pp_classified_release(&c);
	}
	pp_err_release(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char lib[] = "usr/lib/x86_64-linux-gnu/libfuzz.so.1.2";
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", stage, lib);
	read_elf(data, size, path);
	fuzz_write(path, data, size);
	classify(lib, NULL);
	classify("usr/lib/x86_64-linux-gnu/libfuzz.so", "libfuzz.so.1.2");
	return 0;
}
