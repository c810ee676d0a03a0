/* Which named extensions an instruction needs, from Zydis's ISA set
 * (finer than its ISA extension: SSE4.1 and SSE4.2 are one extension
 * there, and only the set tells an EVEX.128 form that needs AVX-512VL).
 * Calls only isa-names.c below it; isa.c calls it. */
#include "isa-internal.h"

struct set_map {
	unsigned char ext; /* enum pp_isa_ext; 0 (base) where not listed */
	unsigned char vl;  /* a 128- or 256-bit EVEX form: needs AVX-512VL */
	unsigned char known;
};

#define M(set, ext) [ZYDIS_ISA_SET_##set] = { PP_ISA_EXT_##ext, 0, 1 }
#define V(set, ext) [ZYDIS_ISA_SET_##set] = { PP_ISA_EXT_##ext, 1, 1 }
/* An AVX-512 family: 512-bit and scalar forms, and the VL ones. */
#define F512(fam, ext) M(fam##_512, ext), V(fam##_128, ext), V(fam##_256, ext)

static const struct set_map sets[ZYDIS_ISA_SET_MAX_VALUE + 1] = {
	M(I86, BASE), M(I186, BASE), M(I286PROTECTED, BASE),
	M(I286REAL, BASE), M(I386, BASE), M(I486, BASE), M(I486REAL, BASE),
	M(PPRO, BASE), M(PENTIUMREAL, BASE), M(LONGMODE, BASE),
	M(CMOV, BASE), M(FAT_NOP, BASE), M(PREFETCH_NOP, BASE),
	M(PAUSE, BASE), M(FXSAVE, BASE), M(FXSAVE64, BASE), M(CLFSH, BASE),
	M(RDPMC, BASE),
	M(X87, X87), M(FCMOV, X87), M(PENTIUMMMX, MMX),
	M(SSE, SSE), M(SSE_PREFETCH, SSE), M(SSEMXCSR, SSE),
	M(SSE2, SSE2), M(SSE2MMX, SSE2), M(CET, CET),
	M(SSE3, SSE3), M(SSE3X87, SSE3), M(SSSE3, SSSE3),
	M(SSSE3MMX, SSSE3), M(SSE4, SSE41), M(SSE42, SSE42),
	M(POPCNT, POPCNT), M(CMPXCHG16B, CX16), M(LAHF, LAHF),
	M(AVX, AVX), M(AVX2, AVX2), M(AVX2GATHER, AVX2), M(FMA, FMA),
	M(F16C, F16C), M(BMI1, BMI1), M(BMI2, BMI2), M(LZCNT, LZCNT),
	M(MOVBE, MOVBE), M(XSAVE, XSAVE),
	F512(AVX512F, AVX512F), M(AVX512F_128N, AVX512F),
	M(AVX512F_KOP, AVX512F), M(AVX512F_SCALAR, AVX512F),
	F512(AVX512BW, AVX512BW), M(AVX512BW_128N, AVX512BW),
	M(AVX512BW_KOP, AVX512BW), F512(AVX512CD, AVX512CD),
	F512(AVX512DQ, AVX512DQ), M(AVX512DQ_128N, AVX512DQ),
	M(AVX512DQ_KOP, AVX512DQ), M(AVX512DQ_SCALAR, AVX512DQ),
	M(AES, AES), M(AVXAES, AES), M(PCLMULQDQ, PCLMULQDQ), M(SHA, SHA),
	M(GFNI, GFNI), M(AVX_GFNI, GFNI), F512(AVX512_GFNI, GFNI),
	M(VAES, VAES), F512(AVX512_VAES, VAES),
	M(VPCLMULQDQ, VPCLMULQDQ), F512(AVX512_VPCLMULQDQ, VPCLMULQDQ),
	M(RDRAND, RDRAND), M(RDSEED, RDSEED), M(ADOX_ADCX, ADX),
	M(RDTSCP, RDTSCP), M(RDPID, RDPID), M(RDWRFSGS, FSGSBASE),
	M(XSAVEOPT, XSAVEOPT), M(XSAVEC, XSAVEC), M(XSAVES, XSAVES),
	M(CLFLUSHOPT, CLFLUSHOPT), M(CLWB, CLWB), M(RTM, RTM),
	M(MOVDIR, MOVDIR), M(SERIALIZE, SERIALIZE), M(WAITPKG, WAITPKG),
	M(AVX_VNNI, AVXVNNI),
	M(AVX512ER_512, AVX512ER), M(AVX512ER_SCALAR, AVX512ER),
	M(AVX512PF_512, AVX512PF), M(AVX512_4FMAPS_512, AVX512_4FMAPS),
	M(AVX512_4FMAPS_SCALAR, AVX512_4FMAPS),
	M(AVX512_4VNNIW_512, AVX512_4VNNIW),
	F512(AVX512_BF16, AVX512_BF16), F512(AVX512_BITALG, AVX512_BITALG),
	F512(AVX512_FP16, AVX512_FP16), M(AVX512_FP16_128N, AVX512_FP16),
	M(AVX512_FP16_SCALAR, AVX512_FP16), F512(AVX512_IFMA, AVX512_IFMA),
	F512(AVX512_VBMI, AVX512_VBMI), F512(AVX512_VBMI2, AVX512_VBMI2),
	F512(AVX512_VNNI, AVX512_VNNI),
	F512(AVX512_VP2INTERSECT, AVX512_VP2INTERSECT),
	F512(AVX512_VPOPCNTDQ, AVX512_VPOPCNTDQ),
	M(AMX_TILE, AMX_TILE), M(AMX_INT8, AMX_INT8), M(AMX_BF16, AMX_BF16),
	M(SSE4A, SSE4A), M(XOP, XOP), M(FMA4, FMA4), M(TBM, TBM),
	M(AMD3DNOW, 3DNOW),
	M(AMD, SYSTEM), M(AMD_INVLPGB, SYSTEM), M(CLDEMOTE, SYSTEM),
	M(CLZERO, SYSTEM), M(ENQCMD, SYSTEM), M(HRESET, SYSTEM),
	M(INVPCID, SYSTEM), M(KEYLOCKER, SYSTEM), M(KEYLOCKER_WIDE, SYSTEM),
	M(KNCE, SYSTEM), M(KNCJKBR, SYSTEM), M(KNCSTREAM, SYSTEM),
	M(KNCV, SYSTEM), M(KNC_MISC, SYSTEM), M(KNC_PF_HINT, SYSTEM),
	M(LWP, SYSTEM), M(MCOMMIT, SYSTEM), M(MONITOR, SYSTEM),
	M(MONITORX, SYSTEM), M(MPX, SYSTEM), M(PADLOCK_ACE, SYSTEM),
	M(PADLOCK_PHE, SYSTEM), M(PADLOCK_PMM, SYSTEM),
	M(PADLOCK_RNG, SYSTEM), M(PCONFIG, SYSTEM), M(PKU, SYSTEM),
	M(PREFETCHWT1, SYSTEM), M(PT, SYSTEM), M(RDPRU, SYSTEM),
	M(SGX, SYSTEM), M(SGX_ENCLV, SYSTEM), M(SMAP, SYSTEM),
	M(SMX, SYSTEM), M(SNP, SYSTEM), M(SVM, SYSTEM), M(TDX, SYSTEM),
	M(TSX_LDTRK, SYSTEM), M(UINTR, SYSTEM), M(VMFUNC, SYSTEM),
	M(VTX, SYSTEM),
};

/* Vector extensions beyond the levels whose VEX or EVEX forms also need
 * AVX or AVX-512F (a VEX-encoded AESENC faults where AVX is off). */
static int vector_beyond(enum pp_isa_ext e)
{
	return pp_isa_ext_beyond(e) && e != PP_ISA_EXT_SYSTEM &&
	       e != PP_ISA_EXT_OTHER && e != PP_ISA_EXT_TBM;
}

static int is_avx512_foundation(enum pp_isa_ext e)
{
	return e >= PP_ISA_EXT_AVX512F && e <= PP_ISA_EXT_AVX512VL;
}

int isa_classify(const ZydisDecodedInstruction *insn, enum pp_isa_ext out[3])
{
	const struct set_map *m;
	enum pp_isa_ext e;
	int n = 0;

	if ((unsigned)insn->meta.isa_set > ZYDIS_ISA_SET_MAX_VALUE ||
	    !sets[insn->meta.isa_set].known) {
		out[0] = PP_ISA_EXT_OTHER;
		return 1;
	}
	/* F3 0F BC is TZCNT with BMI1 and BSF without; compilers emit it as
	 * "rep bsf" in baseline code (the results differ only for 0, which
	 * code written for BSF never passes), so it counts as base. */
	if (insn->mnemonic == ZYDIS_MNEMONIC_TZCNT)
		return out[0] = PP_ISA_EXT_BASE, 1;
	/* XGETBV exists to ask whether the OS enabled AVX state, and may only
	 * run once CPUID said OSXSAVE: it is feature detection (libgcc's
	 * __cpu_indicator_init, LLVM's getHostCPUName), not a use of XSAVE. */
	if (insn->mnemonic == ZYDIS_MNEMONIC_XGETBV)
		return out[0] = PP_ISA_EXT_BASE, 1;
	m = &sets[insn->meta.isa_set];
	e = (enum pp_isa_ext)m->ext;
	out[n++] = e;
	if (m->vl)
		out[n++] = PP_ISA_EXT_AVX512VL;
	if (insn->encoding == ZYDIS_INSTRUCTION_ENCODING_EVEX &&
	    !is_avx512_foundation(e))
		out[n++] = PP_ISA_EXT_AVX512F;
	else if (insn->encoding == ZYDIS_INSTRUCTION_ENCODING_VEX &&
		 vector_beyond(e))
		out[n++] = PP_ISA_EXT_AVX;
	return n;
}
