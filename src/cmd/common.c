#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../lib/spec.h"
#include "../lib/strlist.h"
#include "../lib/xalloc.h"
#include "cmds.h"

int pp_usage_error(struct pp_err *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err->code = PP_EXIT_USAGE;
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int pp_parse_int(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int pp_take_flag(int *argc, char **argv, const char *flag)
{
	int found = 0, n = 1;

	for (int i = 1; i < *argc; i++) {
		if (!strcmp(argv[i], flag))
			found = 1;
		else
			argv[n++] = argv[i];
	}
	*argc = n;
	argv[n] = NULL;
	return found;
}

int pp_source_date(long long *out, struct pp_err *err)
{
	const char *s = getenv("SOURCE_DATE_EPOCH");
	char *end;

	if (!s) {
		*out = (long long)time(NULL);
		return 0;
	}
	errno = 0;
	*out = strtoll(s, &end, 10);
	if (!*s || *end || errno || *out < 0)
		return pp_err_set(err, PP_EXIT_USAGE, "SOURCE_DATE_EPOCH='%s' is "
				  "not a number of seconds since 1970; set it "
				  "to a whole number or unset it", s);
	return 0;
}

int pp_load_spec_variants(const char *path, const struct pp_strlist *variants,
			  struct pp_spec *spec, unsigned char **selected,
			  struct pp_err *err)
{
	*selected = NULL;
	if (pp_spec_load(path, spec, err) < 0)
		return -1;
	*selected = xcalloc(spec->nr_variants + 1, 1);
	if (pp_spec_select(spec, variants->items, variants->nr, *selected,
			   err) < 0) {
		free(*selected);
		*selected = NULL;
		pp_spec_release(spec);
		return -1;
	}
	return 0;
}
