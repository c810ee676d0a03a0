/* libFuzzer target: the ISA scanner (isa.c, isa-dispatch.c, isa-funcs.c,
 * isa-classify.c) on arbitrary ELF files and ar archives of them, read
 * from memory (pp_isa_scan_memory: the scan pp_isa_scan runs on the file
 * it maps): decoded with Zydis, with the ifunc proof and exemption globs
 * on, then checked against a limit and a forbidden set and described as
 * split does. */
#include <stdint.h>

#include "../../src/lib/isa.h"
#include "fuzz.h"

static void report(const struct pp_isa_report *r)
{
	static const char *const forbid[] = { "avx", "fma", "avx512" };
	const struct pp_isa_use *bad;
	struct strbuf out = STRBUF_INIT;
	struct pp_isa_limit limit;
	struct pp_isa_set set;
	struct pp_err err;

	pp_err_init(&err);
	if (pp_isa_limit_parse("x86-64-v2+AES", &limit, &err) < 0)
		abort();
	if (pp_isa_check(r, &limit, &bad))
		pp_isa_describe_violation(bad, &limit, &out);
	memset(&set, 0, sizeof(set));
	for (size_t i = 0; i < 3; i++)
		if (pp_isa_set_add(&set, forbid[i]) < 0)
			abort();
	if (pp_isa_check_forbidden(r, &set, &bad))
		pp_isa_describe_use(bad, &out);
	for (size_t i = 0; i < r->nr_uses; i++)
		pp_isa_site_format(&r->uses[i].first, &out);
	(void)pp_isa_count(r, PP_ISA_EXT_AVX2, 1);
	strbuf_release(&out);
	pp_err_release(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const exempt[] = { "*_avx512*", "kernel_?" };
	static const char *const dispatchers[] = { "__libc_ifunc_impl_list" };
	const struct pp_isa_policy policy = { exempt, 2, 1, dispatchers, 1 };
	struct pp_isa_report r;
	struct pp_err err;
	/* a copy: libelf may write to what it reads from memory */
	void *copy = malloc(size ? size : 1);

	if (!copy)
		abort();
	memcpy(copy, data, size);
	pp_err_init(&err);
	if (pp_isa_scan_memory(copy, size, "in.o", &policy, &r, &err) == 0) {
		report(&r);
		pp_isa_report_release(&r);
	}
	pp_err_release(&err);
	free(copy);
	return 0;
}
