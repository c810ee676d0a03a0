/* libFuzzer target: deb822 control data (control.c). The input is read as
 * a stream of stanzas (with and without '#' comments, as Packages and
 * conf/distributions are read; and as spans, as repo verify reads
 * Packages) and as one binary control file, which is then checked as
 * dpkg-deb --build would, written back, and whose relationship fields go
 * through the relationship parser of each kind. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/lib/control.h"

static const char *const dep_fields[] = {
	"Depends", "Pre-Depends", "Recommends", "Suggests", "Enhances",
	"Provides", "Conflicts", "Breaks", "Replaces", "Built-Using",
};

static void fuzz_deps(const char *value)
{
	static const enum pp_deps_kind kinds[] = {
		PP_DEPS_DEPENDS, PP_DEPS_PROVIDES, PP_DEPS_CONFLICTS
	};

	for (size_t k = 0; k < 3; k++) {
		struct strbuf out = STRBUF_INIT;
		struct pp_deps deps;
		struct pp_err err;

		pp_err_init(&err);
		if (pp_deps_parse(value, kinds[k], &deps, &err) == 0) {
			pp_deps_write(&deps, &out);
			pp_deps_release(&deps);
		}
		strbuf_release(&out);
		pp_err_release(&err);
	}
}

static void fuzz_stanzas(const char *buf, size_t size, int comments)
{
	struct pp_deb822 p;
	struct pp_stanza st;
	struct pp_err err;

	pp_err_init(&err);
	pp_deb822_init(&p, buf, size, "fuzz");
	p.allow_comments = comments;
	while (pp_deb822_next(&p, &st, &err) > 0) {
		(void)pp_stanza_get(&st, "Package");
		pp_stanza_release(&st);
	}
	pp_err_release(&err);
}

/* The same stream as spans (what repo verify reads Packages with), a
 * field's value put together from its lines. */
static void fuzz_spans(const char *buf, size_t size, int comments)
{
	struct pp_stanza_spans st = { NULL, 0, 0, 0 };
	struct strbuf value = STRBUF_INIT;
	const struct pp_field_span *f;
	struct pp_deb822 p;
	struct pp_err err;

	pp_err_init(&err);
	pp_deb822_init(&p, buf, size, "fuzz");
	p.allow_comments = comments;
	while (pp_deb822_scan(&p, &st, &err) > 0)
		if ((f = pp_spans_find(&st, "Package", 7))) {
			strbuf_reset(&value);
			pp_field_span_value(f, &value);
		}
	pp_stanza_spans_release(&st);
	strbuf_release(&value);
	pp_err_release(&err);
}

static void fuzz_binary_control(const char *buf, size_t size)
{
	struct strbuf out = STRBUF_INIT;
	struct pp_stanza st;
	struct pp_err err;

	pp_err_init(&err);
	if (pp_control_parse(buf, size, "fuzz", &st, &err) == 0) {
		(void)pp_control_check_binary(&st, "fuzz", &err);
		for (size_t i = 0; i < sizeof(dep_fields) / sizeof(*dep_fields);
		     i++) {
			const char *v = pp_stanza_get(&st, dep_fields[i]);

			if (v)
				fuzz_deps(v);
		}
		pp_stanza_write(&st, &out);
		pp_stanza_set(&st, "Installed-Size", "15");
		pp_stanza_remove(&st, "Description");
		pp_stanza_release(&st);
	}
	strbuf_release(&out);
	pp_err_release(&err);
}

/* What field and info show of a control file, however broken: the
 * forgiving reader, then every field as dpkg-deb --field shows it. */
static void fuzz_lenient_control(const char *buf, size_t size)
{
	struct strbuf out = STRBUF_INIT;
	struct pp_stanza st;
	struct pp_err err;
	const char *shown;

	pp_err_init(&err);
	pp_control_parse_lenient(buf, size, "fuzz", &st, &err);
	for (size_t i = 0; i < st.nr; i++) {
		strbuf_reset(&out);
		(void)pp_field_show(&st, st.fields[i].name, 1, &shown, &out,
				    &err);
	}
	pp_stanza_release(&st);
	strbuf_release(&out);
	pp_err_release(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Parsers get text with a length, not a terminated string: the copy
	 * has no terminator so that reading past the end is seen. */
	char *buf = malloc(size ? size : 1);
	char *line;

	memcpy(buf, data, size);
	fuzz_stanzas(buf, size, 0);
	fuzz_stanzas(buf, size, 1);
	fuzz_spans(buf, size, 0);
	fuzz_spans(buf, size, 1);
	fuzz_binary_control(buf, size);
	fuzz_lenient_control(buf, size);
	(void)pp_stanza_end(buf, size);
	free(buf);
	/* The input as one relationship field's value. */
	line = strndup((const char *)data, size);
	fuzz_deps(line);
	free(line);
	return 0;
}
