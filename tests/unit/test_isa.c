/* The ISA scanner on objects compiled here with gcc: levels, extensions,
 * first symbol and offset (checked against objdump), archives, ifunc
 * dispatch, exemptions, and files that are not ELF. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../src/lib/fsutil.h"
#include "../../src/lib/isa-internal.h"
#include "../../src/lib/splitint.h"
#include "test.h"

/* A loop gcc vectorises as far as the flags allow. */
static const char loop_c[] =
	"void saxpy(float *restrict y, const float *restrict x, float a, int n)\n"
	"{ for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i]; }\n";

/* An intrinsic in one function, plain code in another. */
static const char fused_c[] =
	"#include <immintrin.h>\n"
	"int plain_sum(const int *v, int n)\n"
	"{ int s = 0; for (int i = 0; i < n; i++) s += v[i] * 3; return s; }\n"
	"__attribute__((target(\"avx,fma\")))\n"
	"void fused(float *d, const float *a, const float *b)\n"
	"{ _mm256_storeu_ps(d, _mm256_fmadd_ps(_mm256_loadu_ps(a),\n"
	"  _mm256_loadu_ps(b), _mm256_loadu_ps(d))); }\n";

/* Three ifuncs choosing an AVX2 variant or a baseline one. Only add's
 * AVX2 variant is reached through its resolver alone: tab_avx2 is also in
 * a table of pointers, call_avx2 is also called directly. */
static const char ifunc_c[] =
	"#include <cpuid.h>\n"
	"#define LOOP for (int i = 0; i < n; i++) a[i] += b[i] * 3\n"
	"#define FN(name) void name(int *restrict a, const int *restrict b, int n)\n"
	"#define AVX2 __attribute__((target(\"avx2\"))) static\n"
	"AVX2 FN(add_avx2) { LOOP; }\n"
	"AVX2 FN(tab_avx2) { LOOP; }\n"
	"AVX2 FN(call_avx2) { LOOP; }\n"
	"static FN(add_base) { LOOP; }\n"
	"static int has_avx2(void)\n"
	"{ unsigned ax, bx, cx, dx;\n"
	"  return __get_cpuid_count(7, 0, &ax, &bx, &cx, &dx) && (bx & bit_AVX2); }\n"
	"static void *pick_add(void) { return has_avx2() ? add_avx2 : add_base; }\n"
	"static void *pick_tab(void) { return has_avx2() ? tab_avx2 : add_base; }\n"
	"static void *pick_call(void) { return has_avx2() ? call_avx2 : add_base; }\n"
	"FN(add) __attribute__((ifunc(\"pick_add\")));\n"
	"FN(tab) __attribute__((ifunc(\"pick_tab\")));\n"
	"FN(call) __attribute__((ifunc(\"pick_call\")));\n"
	"void (*const table[])(int *restrict, const int *restrict, int) =\n"
	"  { tab_avx2 };\n"
	"FN(direct) { call_avx2(a, b, n); }\n";

/* Kernels in three extensions, a static helper and counted plain code:
 * with the glob "k_*" and "helper" every kernel is listed, once. */
static const char kernels_c[] =
	"#include <immintrin.h>\n"
	"#define T(x) __attribute__((target(x), noinline))\n"
	"T(\"avx2\") void k_add_avx2(int *d, const int *s)\n"
	"{ _mm256_storeu_si256((__m256i *)d, _mm256_add_epi32(\n"
	"  _mm256_loadu_si256((const __m256i *)d),\n"
	"  _mm256_loadu_si256((const __m256i *)s))); }\n"
	"T(\"avx2\") void k_sub_avx2(int *d, const int *s)\n"
	"{ _mm256_storeu_si256((__m256i *)d, _mm256_sub_epi32(\n"
	"  _mm256_loadu_si256((const __m256i *)d),\n"
	"  _mm256_loadu_si256((const __m256i *)s))); }\n"
	"T(\"avx,fma\") void k_fma(float *d, const float *a, const float *b)\n"
	"{ _mm256_storeu_ps(d, _mm256_fmadd_ps(_mm256_loadu_ps(a),\n"
	"  _mm256_loadu_ps(b), _mm256_loadu_ps(d))); }\n"
	"T(\"avx512f\") static void helper(float *d, const float *s)\n"
	"{ _mm512_storeu_ps(d, _mm512_add_ps(_mm512_loadu_ps(d),\n"
	"  _mm512_loadu_ps(s))); }\n"
	"T(\"avx512f\") void k_512(float *d, const float *s) { helper(d, s); }\n"
	"int plain(const int *v, int n)\n"
	"{ int s = 0; for (int i = 0; i < n; i++) s += v[i] * 3; return s; }\n";

struct fixture {
	char dir[64];
	struct pp_err err;
};

static int setup(struct t_ctx *t, struct fixture *fx)
{
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/padpack-isa.XXXXXX");
	pp_err_init(&fx->err);
	if (!mkdtemp(fx->dir)) {
		t_fail(t, __FILE__, __LINE__, "mkdtemp failed");
		return -1;
	}
	return 0;
}

static void teardown(struct fixture *fx)
{
	pp_remove_tree(fx->dir, &fx->err);
	pp_err_release(&fx->err);
}

/* Writes src to DIR/name.c and runs "gcc FLAGS -o DIR/out DIR/name.c";
 * returns the output's path (static buffer) or NULL. */
static const char *build(struct t_ctx *t, struct fixture *fx, const char *src,
			 const char *name, const char *flags, const char *out)
{
	static char path[256];
	char cmd[1024], cfile[200];
	FILE *f;

	snprintf(cfile, sizeof(cfile), "%s/%s.c", fx->dir, name);
	f = fopen(cfile, "w");
	if (!f || fputs(src, f) < 0 || fclose(f)) {
		t_fail(t, __FILE__, __LINE__, "cannot write %s", cfile);
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/%s", fx->dir, out);
	snprintf(cmd, sizeof(cmd), "gcc %s -o %s %s", flags, path, cfile);
	if (system(cmd)) {
		t_fail(t, __FILE__, __LINE__, "failed: %s", cmd);
		return NULL;
	}
	return path;
}

static const struct pp_isa_use *find(const struct pp_isa_report *r,
				     enum pp_isa_ext ext, enum pp_isa_why why)
{
	for (size_t i = 0; i < r->nr_uses; i++)
		if (r->uses[i].ext == ext && r->uses[i].why == why)
			return &r->uses[i];
	return NULL;
}

/* The mnemonic objdump shows at address (a section offset in a .o). */
static void objdump_at(const char *file, uint64_t addr, char *mn, size_t n)
{
	char cmd[512], line[512];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "objdump -d --no-show-raw-insn "
		 "--start-address=0x%" PRIx64 " --stop-address=0x%" PRIx64
		 " %s", addr, addr + 16, file);
	mn[0] = '\0';
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p)) {
		unsigned long long a;
		char m[64];

		if (sscanf(line, " %llx: %63s", &a, m) == 2 && a == addr) {
			snprintf(mn, n, "%s", m);
			break;
		}
	}
	if (p)
		pclose(p);
}

static void names_and_limits(struct t_ctx *t)
{
	struct pp_isa_limit lim;
	struct strbuf sb = STRBUF_INIT;
	enum pp_isa_level lv;
	enum pp_isa_ext e;
	struct pp_err err;

	pp_err_init(&err);
	CHECK(pp_isa_level_parse("x86-64-v2", &lv) == 0 && lv == PP_ISA_V2);
	CHECK(pp_isa_level_parse("baseline", &lv) == 0 && lv == PP_ISA_BASELINE);
	CHECK(pp_isa_level_parse("v4", &lv) == 0 && lv == PP_ISA_V4);
	CHECK(pp_isa_level_parse("x86-64-v5", &lv) < 0);
	CHECK(pp_isa_level_parse("avx", &lv) < 0);
	CHECK_STR(pp_isa_level_name(PP_ISA_V3), "x86-64-v3");
	CHECK(pp_isa_ext_parse("avx512f", &e) == 0 && e == PP_ISA_EXT_AVX512F);
	CHECK(pp_isa_ext_parse("sse4_2", &e) == 0 && e == PP_ISA_EXT_SSE42);
	CHECK(pp_isa_ext_parse("SSE4.1", &e) == 0 && e == PP_ISA_EXT_SSE41);
	CHECK(pp_isa_ext_parse("avx3", &e) < 0);
	CHECK_INT(pp_isa_ext_level(PP_ISA_EXT_POPCNT), PP_ISA_V2);
	CHECK_INT(pp_isa_ext_level(PP_ISA_EXT_FMA), PP_ISA_V3);
	CHECK_INT(pp_isa_ext_level(PP_ISA_EXT_AVX512VL), PP_ISA_V4);
	CHECK(pp_isa_ext_beyond(PP_ISA_EXT_AES));
	CHECK(!pp_isa_ext_beyond(PP_ISA_EXT_AVX2));

	/* Paddle's AVX build: -mavx on top of SSE4.2, no AVX2 */
	CHECK(pp_isa_limit_parse("x86-64-v2+avx", &lim, &err) == 0);
	CHECK(pp_isa_limit_allows(&lim, PP_ISA_EXT_AVX));
	CHECK(pp_isa_limit_allows(&lim, PP_ISA_EXT_SSE42));
	CHECK(!pp_isa_limit_allows(&lim, PP_ISA_EXT_AVX2));
	CHECK(!pp_isa_limit_allows(&lim, PP_ISA_EXT_AES));
	pp_isa_limit_format(&lim, &sb);
	CHECK_STR(sb.buf, "x86-64-v2+AVX");
	CHECK(pp_isa_limit_parse("x86-64-v4", &lim, &err) == 0);
	CHECK(!pp_isa_limit_allows(&lim, PP_ISA_EXT_AES)); /* no level has it */
	CHECK(pp_isa_limit_parse("x86-64-v2+FOO", &lim, &err) < 0);
	CHECK_INT(err.code, PP_EXIT_USAGE);
	CHECK(strstr(err.msg, "'FOO'") != NULL);
	strbuf_release(&sb);
	pp_err_release(&err);
}

/* The names a spec's forbid_isa accepts (spec_read.c) all mean something
 * here, and "avx" forbids what needs AVX state. */
static void forbid_names(struct t_ctx *t)
{
	static const char *const spec_names[] = {
		"avx", "avx2", "avx512", "fma", "f16c", "avxvnni", "amx",
		"bmi", "bmi2", "sse3", "ssse3", "sse4.1", "sse4.2", "sse4a",
		"popcnt", "aes", "pclmul", "sha", "x87", "mmx",
	};
	struct pp_isa_set set;

	for (size_t i = 0; i < sizeof(spec_names) / sizeof(*spec_names); i++) {
		memset(&set, 0, sizeof(set));
		if (pp_isa_set_add(&set, spec_names[i]) < 0)
			t_fail(t, __FILE__, __LINE__, "'%s' unknown",
			       spec_names[i]);
	}
	memset(&set, 0, sizeof(set));
	CHECK(pp_isa_set_add(&set, "avx") == 0);
	CHECK(set.has[PP_ISA_EXT_AVX] && set.has[PP_ISA_EXT_AVX2] &&
	      set.has[PP_ISA_EXT_FMA] && set.has[PP_ISA_EXT_AVX512VL] &&
	      set.has[PP_ISA_EXT_AVX512_VNNI] && set.has[PP_ISA_EXT_VAES]);
	CHECK(!set.has[PP_ISA_EXT_SSE42] && !set.has[PP_ISA_EXT_BMI2] &&
	      !set.has[PP_ISA_EXT_AES]);
	memset(&set, 0, sizeof(set));
	CHECK(pp_isa_set_add(&set, "avx512") == 0);
	CHECK(set.has[PP_ISA_EXT_AVX512F] && set.has[PP_ISA_EXT_AVX512_BF16]);
	CHECK(!set.has[PP_ISA_EXT_AVX2]);
	CHECK(pp_isa_set_add(&set, "bmi") == 0 && set.has[PP_ISA_EXT_BMI1]);
	CHECK(pp_isa_set_add(&set, "avx3") < 0);
}

/* Every ISA set Zydis knows has a place in the table. */
static void every_zydis_set_is_named(struct t_ctx *t)
{
	ZydisDecodedInstruction in;
	enum pp_isa_ext out[3];

	memset(&in, 0, sizeof(in));
	for (int s = 1; s <= ZYDIS_ISA_SET_MAX_VALUE; s++) {
		in.meta.isa_set = (ZydisISASet)s;
		if (isa_classify(&in, out) < 1 || out[0] == PP_ISA_EXT_OTHER)
			t_fail(t, __FILE__, __LINE__, "ISA set %s unmapped",
			       ZydisISASetGetString((ZydisISASet)s));
	}
}

static void check_site(struct t_ctx *t, const char *file,
		       const struct pp_isa_use *u, const char *sym,
		       char mnemonic_start)
{
	char mn[64];

	if (!u) {
		t_fail(t, __FILE__, __LINE__, "%s: extension missing", file);
		return;
	}
	CHECK_STR(u->first.symbol, sym);
	objdump_at(file, u->first.address, mn, sizeof(mn));
	if (mn[0] != mnemonic_start)
		t_fail(t, __FILE__, __LINE__, "%s: objdump shows '%s' at "
		       "0x%" PRIx64, file, mn, u->first.address);
}

/* A noavx variant's forbid list catches the earliest forbidden
 * instruction of the -mavx2 -mfma object. */
static void forbidden_first(struct t_ctx *t, const struct pp_isa_report *r)
{
	const struct pp_isa_use *bad = NULL, *u;
	struct pp_isa_set noavx = { { 0 } }, none = { { 0 } };
	struct strbuf msg = STRBUF_INIT;

	pp_isa_set_add(&noavx, "avx");
	CHECK(pp_isa_check_forbidden(r, &none, &bad) == 0 && !bad);
	CHECK(pp_isa_check_forbidden(r, &noavx, &bad) == 1 && bad);
	for (size_t i = 0; bad && i < r->nr_uses; i++) {
		u = &r->uses[i];
		if (noavx.has[u->ext] && u->first.index < bad->first.index)
			t_fail(t, __FILE__, __LINE__, "%s comes earlier",
			       pp_isa_ext_name(u->ext));
	}
	if (bad) {
		pp_isa_describe_use(bad, &msg);
		CHECK(!strncmp(msg.buf, pp_isa_ext_name(bad->ext),
			       strlen(pp_isa_ext_name(bad->ext))));
		CHECK(strstr(msg.buf, " instruction at saxpy+0x") != NULL);
	}
	strbuf_release(&msg);
}

static void compiled_loops(struct t_ctx *t)
{
	struct fixture fx;
	struct pp_isa_report r;
	const char *f;

	if (setup(t, &fx) < 0)
		return;
	f = build(t, &fx, loop_c, "loop", "-c -O3 -mavx2 -mfma", "avx2.o");
	if (f && pp_isa_scan(f, NULL, &r, &fx.err) == 0) {
		CHECK_INT(r.level, PP_ISA_V3);
		CHECK(pp_isa_count(&r, PP_ISA_EXT_FMA, 0) > 0);
		check_site(t, f, find(&r, PP_ISA_EXT_AVX2, PP_ISA_COUNTED),
			   "saxpy", 'v');
		check_site(t, f, find(&r, PP_ISA_EXT_FMA, PP_ISA_COUNTED),
			   "saxpy", 'v');
		CHECK_INT(pp_isa_count(&r, PP_ISA_EXT_AVX512F, 1), 0);
		forbidden_first(t, &r);
		pp_isa_report_release(&r);
	}
	f = build(t, &fx, loop_c, "loop", "-c -O3 -mno-avx", "noavx.o");
	if (f && pp_isa_scan(f, NULL, &r, &fx.err) == 0) {
		CHECK_INT(r.level, PP_ISA_BASELINE);
		CHECK(pp_isa_count(&r, PP_ISA_EXT_SSE, 0) > 0);
		CHECK_INT(pp_isa_count(&r, PP_ISA_EXT_AVX, 1), 0);
		CHECK(r.nr_insns > 10 && r.nr_bad_bytes == 0);
		pp_isa_report_release(&r);
	}
	f = build(t, &fx, loop_c, "loop", "-c -O3 -mavx512f", "avx512.o");
	if (f && pp_isa_scan(f, NULL, &r, &fx.err) == 0) {
		CHECK_INT(r.level, PP_ISA_V4);
		check_site(t, f, find(&r, PP_ISA_EXT_AVX512F, PP_ISA_COUNTED),
			   "saxpy", 'v');
		pp_isa_report_release(&r);
	}
	CHECK_STR(fx.err.msg, "");
	teardown(&fx);
}

static void intrinsic_and_glob(struct t_ctx *t)
{
	static const char *const globs[] = { "fus*" };
	struct pp_isa_policy pol = { globs, 1, 0, NULL, 0 };
	const struct pp_isa_use *bad = NULL;
	struct pp_isa_limit v2;
	struct strbuf msg = STRBUF_INIT;
	struct pp_isa_report r;
	struct fixture fx;
	const char *f;

	if (setup(t, &fx) < 0)
		return;
	pp_isa_limit_parse("x86-64-v2", &v2, &fx.err);
	f = build(t, &fx, fused_c, "fused", "-c -O2", "fused.o");
	if (f && pp_isa_scan(f, NULL, &r, &fx.err) == 0) {
		check_site(t, f, find(&r, PP_ISA_EXT_FMA, PP_ISA_COUNTED),
			   "fused", 'v');
		CHECK_INT(pp_isa_count(&r, PP_ISA_EXT_FMA, 0), 1);
		CHECK(pp_isa_check(&r, &v2, &bad) == 1 && bad);
		if (bad) {
			CHECK_STR(bad->first.symbol, "fused");
			pp_isa_describe_violation(bad, &v2, &msg);
			CHECK(strstr(msg.buf, " instruction at fused+0x") &&
			      strstr(msg.buf, "exceeds x86-64-v2"));
		}
		pp_isa_report_release(&r);
	}
	/* the glob takes fused's code out of the verdict, not out of sight */
	if (f && pp_isa_scan(f, &pol, &r, &fx.err) == 0) {
		CHECK_INT(r.level, PP_ISA_BASELINE);
		CHECK_INT(pp_isa_count(&r, PP_ISA_EXT_FMA, 0), 0);
		CHECK_INT(pp_isa_count(&r, PP_ISA_EXT_FMA, 1), 1);
		CHECK(find(&r, PP_ISA_EXT_FMA, PP_ISA_EXEMPT_GLOB) != NULL);
		CHECK(pp_isa_check(&r, &v2, &bad) == 0 && !bad);
		pp_isa_report_release(&r);
	}
	strbuf_release(&msg);
	teardown(&fx);
}

/* The exempt function called name, or NULL. */
static const struct pp_isa_func *exempt_func(const struct pp_isa_report *r,
					     const char *name)
{
	for (size_t i = 0; i < r->nr_exempt_funcs; i++)
		if (!strcmp(r->exempt_funcs[i].name, name))
			return &r->exempt_funcs[i];
	return NULL;
}

static void check_kernels(struct t_ctx *t, const struct pp_isa_report *r)
{
	static const char *const names[] = { "helper", "k_512", "k_add_avx2",
					      "k_fma", "k_sub_avx2" };
	const struct pp_isa_func *fn;
	struct strbuf sb = STRBUF_INIT;

	/* each once, sorted: the archive's two copies merged */
	CHECK_INT(r->nr_exempt_funcs, 5);
	for (size_t i = 0; i < 5 && i < r->nr_exempt_funcs; i++) {
		CHECK_STR(r->exempt_funcs[i].name, names[i]);
		CHECK_INT(r->exempt_funcs[i].why, PP_ISA_EXEMPT_GLOB);
		CHECK(r->exempt_funcs[i].nr_insns > 0);
	}
	CHECK(exempt_func(r, "plain") == NULL);
	fn = exempt_func(r, "k_add_avx2");
	CHECK(fn && fn->exts.has[PP_ISA_EXT_AVX2] && !fn->exts.has[PP_ISA_EXT_FMA]);
	fn = exempt_func(r, "k_fma");
	CHECK(fn && fn->exts.has[PP_ISA_EXT_FMA] &&
	      !fn->exts.has[PP_ISA_EXT_AVX512F]);
	if (fn) {
		pp_isa_set_format(&fn->exts, &sb);
		CHECK_STR(sb.buf, "AVX, FMA");
	}
	fn = exempt_func(r, "helper");
	CHECK(fn && fn->exts.has[PP_ISA_EXT_AVX512F]);
	strbuf_release(&sb);
}

/* Every exempt function is listed, with the extensions it needs, once
 * per name however many objects hold it. */
static void exempt_functions(struct t_ctx *t)
{
	static const char *const globs[] = { "k_*", "helper" };
	struct pp_isa_policy pol = { globs, 2, 0, NULL, 0 };
	struct pp_isa_report r;
	struct fixture fx;
	const char *f;
	char cmd[512];

	if (setup(t, &fx) < 0)
		return;
	f = build(t, &fx, kernels_c, "kern", "-c -O2", "kern.o");
	if (f && pp_isa_scan(f, NULL, &r, &fx.err) == 0) {
		CHECK_INT(r.nr_exempt_funcs, 0);
		CHECK_INT(r.level, PP_ISA_V4);
		pp_isa_report_release(&r);
	}
	if (f && pp_isa_scan(f, &pol, &r, &fx.err) == 0) {
		CHECK_INT(r.level, PP_ISA_BASELINE);
		check_kernels(t, &r);
		pp_isa_report_release(&r);
	}
	snprintf(cmd, sizeof(cmd), "cd %s && cp kern.o kern2.o && "
		 "ar rcs lib.a kern.o kern2.o", fx.dir);
	CHECK(f && system(cmd) == 0);
	snprintf(cmd, sizeof(cmd), "%s/lib.a", fx.dir);
	if (f && pp_isa_scan(cmd, &pol, &r, &fx.err) == 0) {
		CHECK_INT(r.nr_objects, 2);
		check_kernels(t, &r);
		pp_isa_report_release(&r);
	}
	CHECK_STR(fx.err.msg, "");
	teardown(&fx);
}

/* split --explain: groups by extensions and kind, names sorted within,
 * long lists wrapped under their group's header. */
static void explain_groups(struct t_ctx *t)
{
	static const char want[] =
		"           isa: x86-64 AVX2(exempt)\n"
		"           exempt: AVX2, 3 instructions, first in k_b\n"
		"           exempt functions that need AVX2 (12):\n"
		"             k_a k_b k_c k_d k_e k_f k_g k_h k_i k_j k_k\n"
		"             "
		"kernel_with_a_name_long_enough_to_wrap_the_line_at_one_hundred"
		"_columns\n"
		"           exempt functions that need nothing above x86-64 (1):\n"
		"             plain\n"
		"           exempt ifunc targets that need AVX2 (1):\n"
		"             0x1a40\n";
	static const char *const names[] = {
		"k_k", "k_j", "k_i", "k_h", "k_g", "plain",
		"kernel_with_a_name_long_enough_to_wrap_the_line_at_one_hundred"
		"_columns", "k_f", "k_e", "k_d", "k_c", "k_b", "k_a" };
	struct pp_isa_func funcs[14] = { 0 };
	struct pp_isa_use use = { PP_ISA_EXT_AVX2, PP_ISA_EXEMPT_GLOB, 3,
				  { NULL, (char *)"k_b", (char *)".text", 0, 0,
				    0 } };
	struct pp_isa_report r = { 0 };
	struct pp_split_file f;
	struct strbuf out = STRBUF_INIT;

	for (size_t i = 0; i < 13; i++) {
		funcs[i].name = (char *)names[i];
		funcs[i].why = PP_ISA_EXEMPT_GLOB;
		funcs[i].exts.has[PP_ISA_EXT_SSE2] = 1;
		funcs[i].exts.has[PP_ISA_EXT_AVX2] = strcmp(names[i], "plain");
	}
	funcs[13].name = (char *)"0x1a40";
	funcs[13].why = PP_ISA_EXEMPT_IFUNC;
	funcs[13].exts.has[PP_ISA_EXT_AVX2] = 1;
	r.uses = &use;
	r.nr_uses = 1;
	r.exempt_funcs = funcs;
	r.nr_exempt_funcs = 14;
	memset(&f, 0, sizeof(f));
	f.isa = &r;
	pp_split_isa_explain(&f, &out);
	CHECK_STR(out.buf, want);
	strbuf_release(&out);
}

/* The archive at path, scanned from memory, reads as from the file. */
static void archive_from_memory(struct t_ctx *t, const char *path,
				struct pp_err *err)
{
	struct strbuf ar = STRBUF_INIT;
	const struct pp_isa_use *u;
	struct pp_isa_report r;

	CHECK_INT(pp_read_file(path, &ar, err), 0);
	if (pp_isa_scan_memory(ar.buf, ar.len, "lib.a", NULL, &r, err) == 0) {
		CHECK_INT(r.nr_objects, 2);
		CHECK_INT(r.level, PP_ISA_V3);
		u = find(&r, PP_ISA_EXT_AVX2, PP_ISA_COUNTED);
		CHECK(u && u->first.member && !strcmp(u->first.member, "fast.o"));
		pp_isa_report_release(&r);
	}
	CHECK_INT(pp_isa_scan_memory(ar.buf, 20, "cut.a", NULL, &r, err), -1);
	CHECK_INT(err->code, PP_EXIT_INPUT);
	CHECK(strstr(err->msg, "cut.a: ") != NULL);
	pp_err_release(err);
	pp_err_init(err);
	strbuf_release(&ar);
}

static void archive_members(struct t_ctx *t)
{
	struct pp_isa_report r;
	const struct pp_isa_use *u;
	struct fixture fx;
	char cmd[512];

	if (setup(t, &fx) < 0)
		return;
	if (!build(t, &fx, loop_c, "a", "-c -O3 -mno-avx", "plain.o") ||
	    !build(t, &fx, loop_c, "b", "-c -O3 -mavx2", "fast.o"))
		goto out;
	snprintf(cmd, sizeof(cmd), "cd %s && ar rcs lib.a plain.o fast.o",
		 fx.dir);
	CHECK(system(cmd) == 0);
	snprintf(cmd, sizeof(cmd), "%s/lib.a", fx.dir);
	if (pp_isa_scan(cmd, NULL, &r, &fx.err) == 0) {
		CHECK_INT(r.nr_objects, 2);
		CHECK_INT(r.level, PP_ISA_V3);
		u = find(&r, PP_ISA_EXT_AVX2, PP_ISA_COUNTED);
		CHECK(u && u->first.member && !strcmp(u->first.member, "fast.o"));
		u = find(&r, PP_ISA_EXT_SSE, PP_ISA_COUNTED);
		CHECK(u && u->first.member && !strcmp(u->first.member, "plain.o"));
		pp_isa_report_release(&r);
	}
	archive_from_memory(t, cmd, &fx.err);
	CHECK_STR(fx.err.msg, "");
out:
	teardown(&fx);
}

/* add_avx2 and add_base are exempt; tab_avx2 and call_avx2, reachable
 * without a resolver, stay counted. */
static void ifunc_dispatch(struct t_ctx *t)
{
	struct pp_isa_policy pol = { NULL, 0, 1, NULL, 0 };
	const struct pp_isa_use *u;
	struct pp_isa_report r;
	struct fixture fx;
	const char *f;

	if (setup(t, &fx) < 0)
		return;
	f = build(t, &fx, ifunc_c, "ifunc", "-O3 -fno-ipa-icf -shared -fPIC",
		  "libd.so");
	if (f && pp_isa_scan(f, NULL, &r, &fx.err) == 0) {
		CHECK_INT(r.nr_ifunc_exempt, 0);
		CHECK_INT(r.level, PP_ISA_V3);
		CHECK(find(&r, PP_ISA_EXT_AVX2, PP_ISA_EXEMPT_IFUNC) == NULL);
		pp_isa_report_release(&r);
	}
	if (f && pp_isa_scan(f, &pol, &r, &fx.err) == 0) {
		unsigned long exempt, counted;

		CHECK_INT(r.nr_ifunc_exempt, 2);
		u = find(&r, PP_ISA_EXT_AVX2, PP_ISA_EXEMPT_IFUNC);
		CHECK(u && u->first.symbol && !strcmp(u->first.symbol,
						      "add_avx2"));
		exempt = u ? u->count : 0;
		u = find(&r, PP_ISA_EXT_AVX2, PP_ISA_COUNTED);
		counted = u ? u->count : 0;
		/* the three AVX2 variants are the same code */
		CHECK(exempt > 0);
		CHECK_INT(counted, 2 * exempt);
		CHECK_INT(r.level, PP_ISA_V3);
		/* the two targets, and nothing counted, are listed */
		CHECK_INT(r.nr_exempt_funcs, 2);
		if (r.nr_exempt_funcs == 2) {
			CHECK_STR(r.exempt_funcs[0].name, "add_avx2");
			CHECK_STR(r.exempt_funcs[1].name, "add_base");
			CHECK_INT(r.exempt_funcs[0].why, PP_ISA_EXEMPT_IFUNC);
			CHECK(r.exempt_funcs[0].exts.has[PP_ISA_EXT_AVX2] &&
			      !r.exempt_funcs[1].exts.has[PP_ISA_EXT_AVX2]);
		}
		pp_isa_report_release(&r);
	}
	CHECK_STR(fx.err.msg, "");
	teardown(&fx);
}

static int write_bytes(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	int rc = f && fwrite(p, 1, n, f) == n ? 0 : -1;

	if (f && fclose(f))
		rc = -1;
	return rc;
}

static void bad_input(struct t_ctx *t)
{
	struct pp_isa_report r;
	struct strbuf elf = STRBUF_INIT;
	struct fixture fx;
	char path[128];
	const char *f;

	if (setup(t, &fx) < 0)
		return;
	snprintf(path, sizeof(path), "%s/text", fx.dir);
	CHECK(write_bytes(path, "hello\n", 6) == 0);
	CHECK(pp_isa_scan(path, NULL, &r, &fx.err) < 0);
	CHECK_INT(fx.err.code, PP_EXIT_INPUT);
	CHECK(strstr(fx.err.msg, "not an ELF file") != NULL);

	f = build(t, &fx, loop_c, "loop", "-c -O2", "whole.o");
	if (f && pp_read_file(f, &elf, &fx.err) == 0) {
		snprintf(path, sizeof(path), "%s/cut.o", fx.dir);
		CHECK(write_bytes(path, elf.buf, elf.len / 2) == 0);
		CHECK(pp_isa_scan(path, NULL, &r, &fx.err) < 0);
		CHECK_INT(fx.err.code, PP_EXIT_INPUT);
		CHECK(strstr(fx.err.msg, "truncated or malformed") != NULL);
	}
	snprintf(path, sizeof(path), "%s/missing", fx.dir);
	CHECK(pp_isa_scan(path, NULL, &r, &fx.err) < 0);
	CHECK_INT(fx.err.code, PP_EXIT_IO);
	strbuf_release(&elf);
	teardown(&fx);
}

/* Data in text and bytes invalid in 64-bit mode are skipped and counted,
 * and decoding goes on after them. */
static void undecodable_bytes(struct t_ctx *t)
{
	static const char junk_c[] =
		"__asm__(\".text\\n.globl junk\\n.type junk,@function\\njunk:\\n"
		"\\t.byte 0x06, 0x07, 0x27, 0xd6\\n"
		"\\tvpaddd %ymm1, %ymm2, %ymm3\\n\\tret\\n.size junk,.-junk\\n\");\n";
	struct pp_isa_report r;
	struct fixture fx;
	const char *f;

	if (setup(t, &fx) < 0)
		return;
	f = build(t, &fx, junk_c, "junk", "-c", "junk.o");
	if (f && pp_isa_scan(f, NULL, &r, &fx.err) == 0) {
		CHECK(r.nr_bad_bytes >= 3);
		check_site(t, f, find(&r, PP_ISA_EXT_AVX2, PP_ISA_COUNTED),
			   "junk", 'v');
		pp_isa_report_release(&r);
	}
	CHECK_STR(fx.err.msg, "");
	teardown(&fx);
}

/* How instructions map to extensions where the ISA set alone would
 * mislead: feature detection, TZCNT, and VEX/EVEX forms of extensions
 * beyond the levels. */
static void special_encodings(struct t_ctx *t)
{
	static const char asm_c[] =
		"__asm__(\".text\\n.globl f\\n.type f,@function\\nf:\\n"
		"\\txgetbv\\n\\ttzcnt %eax, %ebx\\n"
		"\\tvaesenc %xmm1, %xmm2, %xmm3\\n"
		"\\tvpdpbusd %ymm1, %ymm2, %ymm3\\n"
		"\\tcrc32q %rax, %rbx\\n\\tret\\n.size f,.-f\\n\");\n";
	struct pp_isa_report r;
	struct fixture fx;
	const char *f;

	if (setup(t, &fx) < 0)
		return;
	f = build(t, &fx, asm_c, "special", "-c", "special.o");
	if (f && pp_isa_scan(f, NULL, &r, &fx.err) == 0) {
		CHECK_INT(pp_isa_count(&r, PP_ISA_EXT_XSAVE, 1), 0);
		CHECK_INT(pp_isa_count(&r, PP_ISA_EXT_BMI1, 1), 0);
		CHECK_INT(pp_isa_count(&r, PP_ISA_EXT_AES, 1), 1);
		CHECK_INT(pp_isa_count(&r, PP_ISA_EXT_AVX, 1), 1);
		CHECK_INT(pp_isa_count(&r, PP_ISA_EXT_AVX512_VNNI, 1), 1);
		CHECK_INT(pp_isa_count(&r, PP_ISA_EXT_AVX512VL, 1), 1);
		CHECK_INT(pp_isa_count(&r, PP_ISA_EXT_AVX512F, 1), 1);
		CHECK_INT(pp_isa_count(&r, PP_ISA_EXT_SSE42, 1), 1);
		CHECK_INT(r.level, PP_ISA_V4);
		pp_isa_report_release(&r);
	}
	CHECK_STR(fx.err.msg, "");
	teardown(&fx);
}

T_SUITE(isa_tests) = {
	{ "isa: level and extension names, limits", names_and_limits },
	{ "isa: forbid_isa names of the spec", forbid_names },
	{ "isa: every Zydis ISA set is mapped", every_zydis_set_is_named },
	{ "isa: loops built with -mavx2 -mfma, -mno-avx, -mavx512f",
	  compiled_loops },
	{ "isa: an FMA intrinsic in one function; exempt by glob",
	  intrinsic_and_glob },
	{ "isa: .a archive members", archive_members },
	{ "isa: every exempt function listed, with its extensions",
	  exempt_functions },
	{ "isa: split --explain groups and wraps the exempt functions",
	  explain_groups },
	{ "isa: ifunc targets exempt, exported and tabled code not",
	  ifunc_dispatch },
	{ "isa: non-ELF, truncated and missing files", bad_input },
	{ "isa: undecodable bytes are skipped and counted", undecodable_bytes },
	{ "isa: XGETBV, TZCNT, VEX AES, EVEX VNNI", special_encodings },
	T_END,
};
