/* libFuzzer target: the ar reader (ar.c). The input is written to a file
 * (the reader takes a path), its members are listed and each member's
 * first and last bytes read; then a second pass after a rewind. */
#include <stdint.h>
#include <stdlib.h>

#include "../../src/lib/ar.h"
#include "fuzz.h"

static void read_members(struct pp_ar *ar)
{
	struct pp_ar_member m;
	struct pp_err err;
	char buf[64];

	pp_err_init(&err);
	while (pp_ar_next(ar, &m, &err) > 0) {
		size_t n = m.size < (off_t)sizeof(buf) ? (size_t)m.size :
			sizeof(buf);

		(void)pp_ar_read(ar, &m, 0, buf, n, &err);
		(void)pp_ar_read(ar, &m, m.size - (off_t)n, buf, n, &err);
		/* past the end: must be refused, not read */
		(void)pp_ar_read(ar, &m, m.size, buf, 1, &err);
	}
	pp_err_release(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[128];
	struct pp_ar ar;
	struct pp_err err;

	fuzz_write(fuzz_path(path, sizeof(path), "in.a"), data, size);
	pp_err_init(&err);
	if (pp_ar_open(&ar, path, &err) == 0) {
		read_members(&ar);
		pp_ar_rewind(&ar);
		read_members(&ar);
		pp_ar_close(&ar);
	}
	pp_err_release(&err);
	return 0;
}
