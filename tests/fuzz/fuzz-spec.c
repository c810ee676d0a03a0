/* libFuzzer target: build specs (libconfig, then spec_schema.c, spec.c,
 * spec_read.c, variant.c). The input is a spec, loaded from memory as
 * pp_spec_load loads the file it reads (as "spec.cfg" of a scratch
 * directory, which @include names are relative to) and validated; a spec
 * that loads has its variants listed and selected, and its templates
 * expanded for each variant. */
#include <stdint.h>

#include "../../src/lib/spec.h"
#include "fuzz.h"

static void expand_all(const struct pp_spec *spec, const struct pp_variant *v,
		       const struct pp_strlist *tmpls)
{
	struct pp_expand_ctx ctx = { spec, v, "1.2.3", 1, 2, NULL };
	struct strbuf out = STRBUF_INIT;
	struct pp_err err;

	pp_err_init(&err);
	for (size_t i = 0; i < tmpls->nr; i++)
		(void)pp_spec_expand(tmpls->items[i], &ctx, &out, &err);
	if (spec->package)
		(void)pp_spec_expand(spec->package, &ctx, &out, &err);
	if (spec->image.tag)
		(void)pp_spec_expand(spec->image.tag, &ctx, &out, &err);
	strbuf_release(&out);
	pp_err_release(&err);
}

static void use(const struct pp_spec *spec)
{
	char *const all[] = { "*" };
	unsigned char *selected = calloc(spec->nr_variants + 1, 1);
	struct pp_err err;

	free(pp_spec_variant_list(spec));
	pp_err_init(&err);
	(void)pp_spec_select(spec, all, 1, selected, &err);
	pp_err_release(&err);
	free(selected);
	for (size_t i = 0; i < spec->nr_variants && i < 16; i++) {
		expand_all(spec, &spec->variants[i], &spec->build.cmake);
		expand_all(spec, &spec->variants[i], &spec->build.env);
		(void)pp_spec_find_variant(spec, spec->variants[i].name);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pp_spec spec;
	struct pp_err err;
	char path[128];

	fuzz_path(path, sizeof(path), "spec.cfg");
	pp_err_init(&err);
	if (pp_spec_load_text(path, (const char *)data, size, &spec, &err) == 0) {
		use(&spec);
		pp_spec_release(&spec);
	}
	pp_err_release(&err);
	return 0;
}
