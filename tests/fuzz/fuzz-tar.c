/* libFuzzer target: the tar reading path (libarchive through debread.c
 * and debextract.c). The input is a tar archive; it is wrapped as both
 * control.tar and data.tar of an otherwise valid .deb, so that every
 * mutation reaches the tar reader, and read as info, contents, field,
 * control and extract read a package (verify, which reads the members
 * the same way, is the deb target's: it needs a signed package). */
#include <stdint.h>
#include <stdio.h>

#include "fuzz-deb.h"

static void ar_member(FILE *f, const char *name, const void *data,
		      size_t size)
{
	fprintf(f, "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", name, "0", "0", "0",
		"100644", size);
	fwrite(data, 1, size, f);
	if (size & 1)
		fputc('\n', f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[128];
	FILE *f;

	f = fopen(fuzz_path(path, sizeof(path), "in.deb"), "w");
	if (!f)
		abort();
	fputs(PP_AR_MAGIC, f);
	ar_member(f, "debian-binary", "2.0\n", 4);
	ar_member(f, "control.tar", data, size);
	ar_member(f, "data.tar", data, size);
	if (fclose(f))
		abort();
	fuzz_deb_file(path, 1, 0);
	return 0;
}
