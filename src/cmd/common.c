#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
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

/* The scale of a size's unit: binary, as xz --memlimit-compress and
 * dpkg read them; 0 for no such unit. */
static uint64_t size_unit(const char *u)
{
	static const struct { const char *name; unsigned shift; } units[] = {
		{ "", 0 }, { "B", 0 }, { "k", 10 }, { "K", 10 }, { "KiB", 10 },
		{ "M", 20 }, { "MiB", 20 }, { "G", 30 }, { "GiB", 30 },
		{ "T", 40 }, { "TiB", 40 },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(u, units[i].name))
			return (uint64_t)1 << units[i].shift;
	return 0;
}

int pp_parse_size(const char *s, uint64_t *out)
{
	unsigned long long whole;
	double frac = 0;
	uint64_t scale;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	whole = strtoull(s, &end, 10);
	if (errno)
		return -1;
	if (*end == '.') { /* "1.5GiB" */
		const char *digits = end;

		frac = strtod(digits, &end);
		if (end == digits + 1)
			return -1;
	}
	scale = size_unit(end);
	if (!scale || whole > (1ULL << 62) / scale)
		return -1;
	*out = (uint64_t)whole * scale + (uint64_t)(frac * (double)scale);
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
