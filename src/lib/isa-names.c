/* The names of the extensions and levels, which level guarantees each
 * extension (x86-64 psABI, "Micro-architecture levels"), and the limits a
 * package declares ("x86-64-v2+AVX"). The lowest file of the ISA
 * scanner: it calls none of the others. */
#include <ctype.h>
#include <string.h>

#include "isa.h"
#include "xalloc.h"

struct ext_info {
	const char *name;
	unsigned char level;  /* enum pp_isa_level */
	unsigned char beyond; /* no level guarantees it */
};

#define L(ext, name, level) [PP_ISA_EXT_##ext] = { name, PP_ISA_##level, 0 }
#define B(ext, name, level) [PP_ISA_EXT_##ext] = { name, PP_ISA_##level, 1 }

static const struct ext_info exts[PP_ISA_NR_EXTS] = {
	L(BASE, "base", BASELINE), L(X87, "X87", BASELINE),
	L(MMX, "MMX", BASELINE), L(SSE, "SSE", BASELINE),
	L(SSE2, "SSE2", BASELINE),
	/* ENDBR64 and RDSSP are NOPs on CPUs without CET, and the other CET
	 * instructions run only once the kernel enabled shadow stacks. */
	L(CET, "CET", BASELINE),
	L(SSE3, "SSE3", V2), L(SSSE3, "SSSE3", V2), L(SSE41, "SSE4.1", V2),
	L(SSE42, "SSE4.2", V2), L(POPCNT, "POPCNT", V2),
	L(CX16, "CMPXCHG16B", V2), L(LAHF, "LAHF-SAHF", V2),
	L(AVX, "AVX", V3), L(AVX2, "AVX2", V3), L(FMA, "FMA", V3),
	L(F16C, "F16C", V3), L(BMI1, "BMI1", V3), L(BMI2, "BMI2", V3),
	L(LZCNT, "LZCNT", V3), L(MOVBE, "MOVBE", V3),
	L(XSAVE, "XSAVE", V3), /* v3 has OSXSAVE */
	L(AVX512F, "AVX-512F", V4), L(AVX512BW, "AVX-512BW", V4),
	L(AVX512CD, "AVX-512CD", V4), L(AVX512DQ, "AVX-512DQ", V4),
	L(AVX512VL, "AVX-512VL", V4),
	B(AES, "AES", BASELINE), B(PCLMULQDQ, "PCLMULQDQ", BASELINE),
	B(SHA, "SHA", BASELINE), B(GFNI, "GFNI", BASELINE),
	B(VAES, "VAES", V3), B(VPCLMULQDQ, "VPCLMULQDQ", V3),
	B(RDRAND, "RDRAND", BASELINE), B(RDSEED, "RDSEED", BASELINE),
	B(ADX, "ADX", BASELINE), B(RDTSCP, "RDTSCP", BASELINE),
	B(RDPID, "RDPID", BASELINE), B(FSGSBASE, "FSGSBASE", BASELINE),
	B(XSAVEOPT, "XSAVEOPT", V3), B(XSAVEC, "XSAVEC", V3),
	B(XSAVES, "XSAVES", V3), B(CLFLUSHOPT, "CLFLUSHOPT", BASELINE),
	B(CLWB, "CLWB", BASELINE), B(RTM, "RTM", BASELINE),
	B(MOVDIR, "MOVDIR", BASELINE), B(SERIALIZE, "SERIALIZE", BASELINE),
	B(WAITPKG, "WAITPKG", BASELINE), B(AVXVNNI, "AVX-VNNI", V3),
	B(AVX512ER, "AVX-512ER", V4), B(AVX512PF, "AVX-512PF", V4),
	B(AVX512_4FMAPS, "AVX-512-4FMAPS", V4),
	B(AVX512_4VNNIW, "AVX-512-4VNNIW", V4),
	B(AVX512_BF16, "AVX-512-BF16", V4),
	B(AVX512_BITALG, "AVX-512-BITALG", V4),
	B(AVX512_FP16, "AVX-512-FP16", V4),
	B(AVX512_IFMA, "AVX-512-IFMA", V4),
	B(AVX512_VBMI, "AVX-512-VBMI", V4),
	B(AVX512_VBMI2, "AVX-512-VBMI2", V4),
	B(AVX512_VNNI, "AVX-512-VNNI", V4),
	B(AVX512_VP2INTERSECT, "AVX-512-VP2INTERSECT", V4),
	B(AVX512_VPOPCNTDQ, "AVX-512-VPOPCNTDQ", V4),
	B(AMX_TILE, "AMX-TILE", V4), B(AMX_INT8, "AMX-INT8", V4),
	B(AMX_BF16, "AMX-BF16", V4),
	B(SSE4A, "SSE4A", BASELINE), B(XOP, "XOP", V3), B(FMA4, "FMA4", V3),
	B(TBM, "TBM", BASELINE), B(3DNOW, "3DNOW", BASELINE),
	/* privileged or exotic: VMX, SVM, SGX, MPX, PKU, MONITOR ... */
	B(SYSTEM, "system", BASELINE),
	B(OTHER, "other", BASELINE), /* an ISA set this table does not know */
};

static const char *const level_names[PP_ISA_NR_LEVELS] = {
	"x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4",
};

const char *pp_isa_level_name(enum pp_isa_level level)
{
	return level < PP_ISA_NR_LEVELS ? level_names[level] : "?";
}

int pp_isa_level_parse(const char *s, enum pp_isa_level *out)
{
	static const char *const aliases[] = { "baseline", "x86-64-v1", "v1" };
	static const char *const short_names[] = { NULL, "v2", "v3", "v4" };

	for (size_t i = 0; i < ARRAY_SIZE(aliases); i++)
		if (!strcmp(s, aliases[i]))
			return *out = PP_ISA_BASELINE, 0;
	for (int l = 0; l < PP_ISA_NR_LEVELS; l++)
		if (!strcmp(s, level_names[l]) ||
		    (short_names[l] && !strcmp(s, short_names[l])))
			return *out = (enum pp_isa_level)l, 0;
	return -1;
}

const char *pp_isa_ext_name(enum pp_isa_ext ext)
{
	return ext < PP_ISA_NR_EXTS ? exts[ext].name : "?";
}

enum pp_isa_level pp_isa_ext_level(enum pp_isa_ext ext)
{
	return ext < PP_ISA_NR_EXTS ? exts[ext].level : PP_ISA_BASELINE;
}

int pp_isa_ext_beyond(enum pp_isa_ext ext)
{
	return ext < PP_ISA_NR_EXTS && exts[ext].beyond;
}

int pp_isa_ext_above_baseline(enum pp_isa_ext ext)
{
	return pp_isa_ext_beyond(ext) ||
	       pp_isa_ext_level(ext) != PP_ISA_BASELINE;
}

/* Compares names the way people write them: "AVX-512F" = "avx512f",
 * "SSE4.2" = "sse4_2" = "sse42". */
static int loose_equal(const char *a, size_t alen, const char *b)
{
	const char *aend = a + alen;

	for (;;) {
		while (a < aend && strchr("-_.", *a))
			a++;
		while (*b && strchr("-_.", *b))
			b++;
		if (a == aend || !*b)
			return a == aend && !*b;
		if (tolower((unsigned char)*a++) != tolower((unsigned char)*b++))
			return 0;
	}
}

static int ext_parse_n(const char *s, size_t n, enum pp_isa_ext *out)
{
	for (int e = 0; e < PP_ISA_NR_EXTS; e++)
		if (loose_equal(s, n, exts[e].name))
			return *out = (enum pp_isa_ext)e, 0;
	return -1;
}

int pp_isa_ext_parse(const char *s, enum pp_isa_ext *out)
{
	return ext_parse_n(s, strlen(s), out);
}

static int is_avx512(enum pp_isa_ext e)
{
	return !strncmp(exts[e].name, "AVX-512", 7);
}

static int is_amx(enum pp_isa_ext e)
{
	return !strncmp(exts[e].name, "AMX-", 4);
}

/* Extensions that run only where the OS enabled AVX state. */
static int needs_avx(enum pp_isa_ext e)
{
	switch (e) {
	case PP_ISA_EXT_AVX: case PP_ISA_EXT_AVX2: case PP_ISA_EXT_FMA:
	case PP_ISA_EXT_F16C: case PP_ISA_EXT_VAES:
	case PP_ISA_EXT_VPCLMULQDQ: case PP_ISA_EXT_AVXVNNI:
	case PP_ISA_EXT_XOP: case PP_ISA_EXT_FMA4:
		return 1;
	default:
		return is_avx512(e);
	}
}

int pp_isa_set_add(struct pp_isa_set *set, const char *name)
{
	static const struct { const char *alias, *name; } aliases[] = {
		{ "bmi", "BMI1" }, { "pclmul", "PCLMULQDQ" },
	};
	int (*family)(enum pp_isa_ext) = NULL;
	enum pp_isa_ext ext;

	for (size_t i = 0; i < ARRAY_SIZE(aliases); i++)
		if (loose_equal(name, strlen(name), aliases[i].alias))
			name = aliases[i].name;
	if (loose_equal(name, strlen(name), "avx512"))
		family = is_avx512;
	else if (loose_equal(name, strlen(name), "amx"))
		family = is_amx;
	else if (pp_isa_ext_parse(name, &ext) < 0)
		return -1;
	else if (ext == PP_ISA_EXT_AVX)
		family = needs_avx;
	else
		set->has[ext] = 1;
	for (int e = 0; family && e < PP_ISA_NR_EXTS; e++)
		if (family((enum pp_isa_ext)e))
			set->has[e] = 1;
	return 0;
}

int pp_isa_limit_parse(const char *s, struct pp_isa_limit *out,
		       struct pp_err *err)
{
	const char *plus = strchr(s, '+');
	size_t n = plus ? (size_t)(plus - s) : strlen(s);
	char level[32];
	enum pp_isa_ext ext;

	memset(out, 0, sizeof(*out));
	if (n >= sizeof(level))
		n = sizeof(level) - 1;
	memcpy(level, s, n);
	level[n] = '\0';
	if (pp_isa_level_parse(level, &out->level) < 0)
		return pp_err_set(err, PP_EXIT_USAGE, "'%s' is not an ISA level; "
				  "use x86-64, x86-64-v2, x86-64-v3 or "
				  "x86-64-v4, optionally +EXTENSION...", s);
	while (plus) {
		const char *name = plus + 1;

		plus = strchr(name, '+');
		n = plus ? (size_t)(plus - name) : strlen(name);
		if (ext_parse_n(name, n, &ext) < 0)
			return pp_err_set(err, PP_EXIT_USAGE, "'%.*s' in '%s' is "
					  "not an instruction-set extension "
					  "(e.g. AVX, AVX2, FMA, AES)",
					  (int)n, name, s);
		out->extra[ext] = 1;
	}
	return 0;
}

int pp_isa_limit_allows(const struct pp_isa_limit *limit, enum pp_isa_ext ext)
{
	if (ext >= PP_ISA_NR_EXTS)
		return 0;
	if (limit->extra[ext])
		return 1;
	return !exts[ext].beyond && exts[ext].level <= limit->level;
}

void pp_isa_limit_format(const struct pp_isa_limit *limit, struct strbuf *out)
{
	strbuf_addstr(out, pp_isa_level_name(limit->level));
	for (int e = 0; e < PP_ISA_NR_EXTS; e++)
		if (limit->extra[e])
			strbuf_addf(out, "+%s", exts[e].name);
}
