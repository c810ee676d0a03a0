/* libFuzzer target: reading a whole .deb (ar.c, debread.c, debextract.c,
 * the compressors through libarchive, debsig.c, debsig-verify.c): what
 * info, contents, field, control, extract, sign and verify do with it.
 * The input is the file. */
#include <stdint.h>

#include "fuzz-deb.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_deb_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[128];

	fuzz_write(fuzz_path(path, sizeof(path), "in.deb"), data, size);
	fuzz_deb_file(path, 1);
	return 0;
}
