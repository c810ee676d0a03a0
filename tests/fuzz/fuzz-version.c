/* libFuzzer target: Debian version numbers (version.c). The input's
 * first line and the rest are parsed as versions and compared both ways
 * (the order must be antisymmetric), and the first word tried as a
 * relation operator. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/lib/version.h"

static int sign(int x)
{
	return (x > 0) - (x < 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = strndup((const char *)data, size);
	char *nl = strchr(text, '\n');
	const char *second = nl ? nl + 1 : text;
	struct pp_version a, b;
	struct pp_err err;
	enum pp_relop op;
	int ra, rb;

	if (nl)
		*nl = '\0';
	pp_err_init(&err);
	ra = pp_version_parse(&a, text, &err);
	rb = pp_version_parse(&b, second, &err);
	if (ra == 0 && rb == 0) {
		int ab = pp_version_cmp(&a, &b), ba = pp_version_cmp(&b, &a);

		if (sign(ab) != -sign(ba) || pp_version_cmp(&a, &a) != 0)
			abort(); /* an order that is not one */
		if (pp_relop_parse(second, &op) == 0)
			(void)pp_relop_holds(ab, op);
	}
	if (ra == 0)
		pp_version_release(&a);
	if (rb == 0)
		pp_version_release(&b);
	(void)pp_relop_parse(text, &op);
	pp_err_release(&err);
	free(text);
	return 0;
}
