/* The ISA scanner: which x86-64 instruction-set extensions the machine code
 * of an ELF file uses, and where each is first used.
 *
 * pp_isa_scan decodes every executable section (SHF_EXECINSTR) of an
 * executable, shared library, relocatable object or each member of an ar
 * archive with Zydis, maps each instruction to the named extensions it
 * needs (SSE4.2, AVX, AVX2, FMA, AVX-512F ...) and each extension to the
 * x86-64 micro-architecture level of the psABI that guarantees it. Bytes
 * that do not decode (data or padding in text) are skipped and counted.
 *
 * Runtime dispatch. Code that runs only after a CPUID check (an ifunc
 * target, a cpuid-guarded kernel as OpenBLAS's DYNAMIC_ARCH has) would
 * make every real library "need" AVX-512. The policy takes it out of the
 * verdict, and the report still lists it, marked exempt:
 *  - exempt_globs: functions whose symbol (or any alias at the same
 *    address) matches a glob (fnmatch). Explicit and per file: the
 *    spec's isa_exempt_symbols = [ "glob", ... ].
 *  - ifunc_targets: code proven reachable only through an ifunc resolver:
 *    a function whose address an STT_GNU_IFUNC resolver (or an
 *    R_X86_64_IRELATIVE one) takes, and that nothing else enters: no
 *    branch or address from code outside such functions, no fall-through
 *    into it, no relocation or data word pointing into it, not exported.
 *    Linked files only (a .o holds its targets as unresolved relocations);
 *    isa-dispatch.c says what the proof assumes. dispatcher_globs names
 *    functions that count as resolvers too (glibc's exported
 *    __libc_ifunc_impl_list hands out every variant's address; without
 *    it nothing in libc.so.6 is proven). Spec keys for split to map:
 *    isa_ifunc = true, isa_dispatchers = [ "glob", ... ].
 * Nothing is exempt by default: a zeroed policy (or NULL) is the strict
 * "no instruction above the level anywhere". Stripped files have no local
 * symbols, so their local functions cannot be exempted by name.
 *
 * Library code: never prints; errors go to struct pp_err (exit 3 for a
 * file that is not a readable x86-64 ELF file or archive, 4 for I/O). */
#ifndef PP_ISA_H
#define PP_ISA_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "strbuf.h"

/* The x86-64 psABI micro-architecture levels, in order. */
enum pp_isa_level {
	PP_ISA_BASELINE, /* "x86-64": SSE2, CMOV, ... every x86-64 CPU */
	PP_ISA_V2,       /* + SSE3, SSSE3, SSE4.1, SSE4.2, POPCNT, CX16, LAHF */
	PP_ISA_V3,       /* + AVX, AVX2, BMI1, BMI2, F16C, FMA, LZCNT, MOVBE,
			    XSAVE */
	PP_ISA_V4,       /* + AVX-512F, BW, CD, DQ, VL */
	PP_ISA_NR_LEVELS
};

/* Named extensions, lowest level first. Those after PP_ISA_EXT_AVX512VL
 * are guaranteed by no level ("beyond" the levels: AES, SHA, AMX ...). */
enum pp_isa_ext {
	PP_ISA_EXT_BASE, PP_ISA_EXT_X87, PP_ISA_EXT_MMX, PP_ISA_EXT_SSE,
	PP_ISA_EXT_SSE2, PP_ISA_EXT_CET,
	PP_ISA_EXT_SSE3, PP_ISA_EXT_SSSE3, PP_ISA_EXT_SSE41, PP_ISA_EXT_SSE42,
	PP_ISA_EXT_POPCNT, PP_ISA_EXT_CX16, PP_ISA_EXT_LAHF,
	PP_ISA_EXT_AVX, PP_ISA_EXT_AVX2, PP_ISA_EXT_FMA, PP_ISA_EXT_F16C,
	PP_ISA_EXT_BMI1, PP_ISA_EXT_BMI2, PP_ISA_EXT_LZCNT, PP_ISA_EXT_MOVBE,
	PP_ISA_EXT_XSAVE,
	PP_ISA_EXT_AVX512F, PP_ISA_EXT_AVX512BW, PP_ISA_EXT_AVX512CD,
	PP_ISA_EXT_AVX512DQ, PP_ISA_EXT_AVX512VL,
	/* beyond the levels */
	PP_ISA_EXT_AES, PP_ISA_EXT_PCLMULQDQ, PP_ISA_EXT_SHA, PP_ISA_EXT_GFNI,
	PP_ISA_EXT_VAES, PP_ISA_EXT_VPCLMULQDQ, PP_ISA_EXT_RDRAND,
	PP_ISA_EXT_RDSEED, PP_ISA_EXT_ADX, PP_ISA_EXT_RDTSCP,
	PP_ISA_EXT_RDPID, PP_ISA_EXT_FSGSBASE, PP_ISA_EXT_XSAVEOPT,
	PP_ISA_EXT_XSAVEC, PP_ISA_EXT_XSAVES, PP_ISA_EXT_CLFLUSHOPT,
	PP_ISA_EXT_CLWB, PP_ISA_EXT_RTM, PP_ISA_EXT_MOVDIR,
	PP_ISA_EXT_SERIALIZE, PP_ISA_EXT_WAITPKG, PP_ISA_EXT_AVXVNNI,
	PP_ISA_EXT_AVX512ER, PP_ISA_EXT_AVX512PF, PP_ISA_EXT_AVX512_4FMAPS,
	PP_ISA_EXT_AVX512_4VNNIW, PP_ISA_EXT_AVX512_BF16,
	PP_ISA_EXT_AVX512_BITALG, PP_ISA_EXT_AVX512_FP16,
	PP_ISA_EXT_AVX512_IFMA, PP_ISA_EXT_AVX512_VBMI,
	PP_ISA_EXT_AVX512_VBMI2, PP_ISA_EXT_AVX512_VNNI,
	PP_ISA_EXT_AVX512_VP2INTERSECT, PP_ISA_EXT_AVX512_VPOPCNTDQ,
	PP_ISA_EXT_AMX_TILE, PP_ISA_EXT_AMX_INT8, PP_ISA_EXT_AMX_BF16,
	PP_ISA_EXT_SSE4A, PP_ISA_EXT_XOP, PP_ISA_EXT_FMA4, PP_ISA_EXT_TBM,
	PP_ISA_EXT_3DNOW, PP_ISA_EXT_SYSTEM, PP_ISA_EXT_OTHER,
	PP_ISA_NR_EXTS
};

/* "x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4". */
const char *pp_isa_level_name(enum pp_isa_level level);
/* Accepts those names, "baseline", "x86-64-v1" and "v1".."v4"; -1 if not. */
int pp_isa_level_parse(const char *s, enum pp_isa_level *out);

/* "AVX2", "SSE4.2", "AVX-512F" ... */
const char *pp_isa_ext_name(enum pp_isa_ext ext);
/* Case-insensitive, '-', '_' and '.' ignored ("avx512f", "sse4_2"). */
int pp_isa_ext_parse(const char *s, enum pp_isa_ext *out);
/* The lowest level that guarantees ext; for an extension beyond the
 * levels, the level its encoding implies (VEX: v3, EVEX: v4). */
enum pp_isa_level pp_isa_ext_level(enum pp_isa_ext ext);
/* 1 when no level guarantees ext (AES, SHA, RTM, AVX-512 VNNI ...). */
int pp_isa_ext_beyond(enum pp_isa_ext ext);
/* 1 when ext is more than the baseline (x86-64) guarantees: a level above
 * it, or beyond the levels; what the reports list. */
int pp_isa_ext_above_baseline(enum pp_isa_ext ext);

/* A set of extensions, as a spec's forbid_isa = [ "avx", "fma" ] names. */
struct pp_isa_set {
	unsigned char has[PP_ISA_NR_EXTS];
};

/* Adds what a forbid_isa name stands for: an extension (pp_isa_ext_parse,
 * plus "bmi" and "pclmul"), or a family ("avx512": every AVX-512
 * extension; "amx"). "avx" also adds every extension that needs AVX state
 * (AVX2, FMA, F16C, AVX-512, VAES, AVX-VNNI ...), which no CPU without AVX
 * runs either. Returns -1 for an unknown name. */
int pp_isa_set_add(struct pp_isa_set *set, const char *name);

/* What a package may use: a level plus named extensions beyond it, as
 * "x86-64-v2+AVX" (Paddle's -mavx build) or "x86-64-v3+AES+PCLMULQDQ". */
struct pp_isa_limit {
	enum pp_isa_level level;
	unsigned char extra[PP_ISA_NR_EXTS]; /* 1: allowed whatever level */
};

int pp_isa_limit_parse(const char *s, struct pp_isa_limit *out,
		       struct pp_err *err);
int pp_isa_limit_allows(const struct pp_isa_limit *limit,
			enum pp_isa_ext ext);
/* Appends the limit in the form pp_isa_limit_parse reads. */
void pp_isa_limit_format(const struct pp_isa_limit *limit, struct strbuf *out);

struct pp_isa_policy {
	const char *const *exempt_globs; /* fnmatch(3) patterns */
	size_t nr_exempt_globs;
	int ifunc_targets; /* exempt code reachable only via ifunc resolvers */
	/* Functions that, like a resolver, hand out the variants that CPUID
	 * allows (glibc's __libc_ifunc_impl_list); with ifunc_targets. */
	const char *const *dispatcher_globs;
	size_t nr_dispatcher_globs;
};

/* Why code counts, or does not, in the verdict. */
enum pp_isa_why {
	PP_ISA_COUNTED,
	PP_ISA_EXEMPT_GLOB,  /* a function matching exempt_globs */
	PP_ISA_EXEMPT_IFUNC, /* reachable only through an ifunc resolver */
	PP_ISA_NR_WHY
};

/* Where an instruction is. */
struct pp_isa_site {
	char *member;     /* the archive member; NULL outside archives */
	char *symbol;     /* the function holding it; NULL if none does */
	char *section;    /* ".text" ... */
	uint64_t offset;  /* from symbol, or from section when symbol is NULL */
	uint64_t address; /* virtual address; offset in the section in a .o */
	unsigned long index; /* instructions before it in the file */
};

/* One extension used by code of one kind (counted, or exempt and why). */
struct pp_isa_use {
	enum pp_isa_ext ext;
	enum pp_isa_why why;
	unsigned long count;      /* instructions needing ext */
	struct pp_isa_site first; /* the first of them, in file order */
};

/* A function whose code is exempt, and the extensions that code needs.
 * Functions of one name (static ones in several files or archive
 * members) are one entry. */
struct pp_isa_func {
	char *name;   /* the symbol; "0x1a40" for an unnamed ifunc target */
	enum pp_isa_why why;      /* PP_ISA_EXEMPT_GLOB or _IFUNC */
	struct pp_isa_set exts;   /* every extension its code needs */
	unsigned long nr_insns;   /* instructions decoded in it */
};

struct pp_isa_report {
	struct pp_isa_use *uses; /* counted first, then by level and name */
	size_t nr_uses, uses_alloc;
	/* the exempt functions that hold code, sorted by name */
	struct pp_isa_func *exempt_funcs;
	size_t nr_exempt_funcs, exempt_funcs_alloc;
	enum pp_isa_level level; /* highest level of counted code */
	unsigned long nr_insns;      /* instructions decoded */
	unsigned long nr_exempt;     /* of which in exempt code */
	unsigned long nr_bad_bytes;  /* bytes that did not decode, skipped */
	uint64_t code_bytes;         /* bytes of executable sections */
	unsigned nr_objects;         /* ELF objects: 1, or archive members */
	unsigned nr_stripped;        /* objects with no .symtab */
	unsigned nr_ifunc_exempt;    /* functions exempted as ifunc targets */
};

void pp_isa_report_release(struct pp_isa_report *r);

/* Scans path. policy may be NULL (nothing exempt). A file that is not a
 * readable x86-64 ELF file or an archive of them is an error; LTO-only
 * objects (no machine code yet) are scanned and warned about. */
int pp_isa_scan(const char *path, const struct pp_isa_policy *policy,
		struct pp_isa_report *out, struct pp_err *err);
/* pp_isa_scan of a file already in memory (size bytes at image, which
 * libelf may change: a private copy), name naming it in messages. */
int pp_isa_scan_memory(void *image, size_t size, const char *name,
		       const struct pp_isa_policy *policy,
		       struct pp_isa_report *out, struct pp_err *err);

/* Counted instructions needing ext (exempt code included if asked). */
unsigned long pp_isa_count(const struct pp_isa_report *r, enum pp_isa_ext ext,
			   int with_exempt);

/* Returns 0 when every counted extension is within limit; else 1 and, in
 * *violation, the counted use above it of the highest level, the first in
 * the file among those (its first site is what to show). */
int pp_isa_check(const struct pp_isa_report *r,
		 const struct pp_isa_limit *limit,
		 const struct pp_isa_use **violation);

/* Like pp_isa_check, for the counted uses of the extensions in forbid;
 * the first in the file is the violation. */
int pp_isa_check_forbidden(const struct pp_isa_report *r,
			   const struct pp_isa_set *forbid,
			   const struct pp_isa_use **violation);

/* "AVX2 instruction at paddle_gemm+0x1a4 (address 0x41a4)"; the caller
 * says what is wrong with it ("is forbidden in the noavx variant"). */
void pp_isa_describe_use(const struct pp_isa_use *use, struct strbuf *out);

/* "AVX2 instruction at paddle_gemm+0x1a4 (0x41a4) exceeds x86-64-v2",
 * with "libx.a(member.o): " in front for a member. */
void pp_isa_describe_violation(const struct pp_isa_use *use,
			       const struct pp_isa_limit *limit,
			       struct strbuf *out);
/* The extensions in set above the baseline, lowest level first, as
 * "AVX, AVX2, FMA"; "x86-64" when there are none. */
void pp_isa_set_format(const struct pp_isa_set *set, struct strbuf *out);

/* "paddle_gemm+0x1a4" or ".text+0x10"; with "member.o:" in front. */
void pp_isa_site_format(const struct pp_isa_site *site, struct strbuf *out);

#endif
