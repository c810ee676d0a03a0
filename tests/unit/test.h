/* A small unit-test runner: each file lists its cases in a table that
 * tests/unit/main.c runs, printing one "ok"/"not ok" line per case. */
#ifndef PP_TEST_H
#define PP_TEST_H

#include <string.h>

struct t_ctx {
	const char *name;
	int failed;
};

struct t_case {
	const char *name;
	void (*fn)(struct t_ctx *t);
};

void t_fail(struct t_ctx *t, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#define CHECK(cond) do { if (!(cond)) \
	t_fail(t, __FILE__, __LINE__, "%s", #cond); } while (0)
#define CHECK_STR(a, b) do { const char *a_ = (a), *b_ = (b); \
	if (!a_ || !b_ || strcmp(a_, b_)) t_fail(t, __FILE__, __LINE__, \
	"'%s' != '%s'", a_ ? a_ : "(null)", b_ ? b_ : "(null)"); } while (0)
#define CHECK_INT(a, b) do { long long a_ = (a), b_ = (b); \
	if (a_ != b_) t_fail(t, __FILE__, __LINE__, "%s == %lld, want %lld", \
	#a, a_, b_); } while (0)

struct pp_spec;
struct pp_err;
/* Writes text to a file made from the mkstemp template tmpl (its name
 * left in path, when not NULL: as long as tmpl, at most 127 bytes), loads
 * it as a spec and removes it; the load's result, -2 when it could not
 * be written. */
int t_spec_load_text(const char *tmpl, const char *text, struct pp_spec *spec,
		     struct pp_err *err, char *path);

#define T_SUITE(name) const struct t_case name[]
#define T_END { NULL, NULL }

#endif
