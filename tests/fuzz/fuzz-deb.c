/* libFuzzer target: reading a whole .deb (ar.c, debread.c, debextract.c,
 * the compressors through libarchive, debsig-verify.c): what info,
 * contents, field, control, extract and verify do with it, verify with
 * the keyring of tests/fuzz/deb-key (the seeds are signed with it). The
 * input is the file. */
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
	fuzz_deb_file(path, 1, 1);
	return 0;
}
