/* Loading a spec given as text, for the unit tests of the spec and what
 * reads it (split, docker). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/lib/error.h"
#include "../../src/lib/spec.h"
#include "test.h"

int t_spec_load_text(const char *tmpl, const char *text, struct pp_spec *spec,
		     struct pp_err *err, char *path)
{
	char own[128];
	size_t n = strlen(tmpl) + 1;
	int fd, rc;

	if (n > sizeof(own))
		return -2;
	if (!path)
		path = own;
	memcpy(path, tmpl, n);
	fd = mkstemp(path);
	if (fd < 0 || write(fd, text, strlen(text)) < 0) {
		if (fd >= 0)
			close(fd);
		return -2;
	}
	close(fd);
	rc = pp_spec_load(path, spec, err);
	unlink(path);
	return rc;
}
