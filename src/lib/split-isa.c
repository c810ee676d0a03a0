/* padpack split, the ISA proof: every ELF file and static library of every
 * stage is decoded (lib/isa.h); a variant's files must stay within what it
 * allows (its axis values' isa limit and forbid_isa) and contain what it
 * requires (isa_require: an AVX variant without a single AVX instruction
 * is a build that silently fell back to a lower ISA); each package records
 * the level its code needs, and one that needs more than the x86-64
 * baseline gets a preinst that checks the CPU for it.
 *
 * Runtime dispatch: by default all code counts. The spec's isa_dispatch
 * rules exempt, per file, the functions only a CPUID check reaches (by
 * symbol glob) and code only ifunc resolvers reach (proven, lib/isa.h);
 * exempt code is still scanned, and counts as present for isa_require. */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"
#include "progress.h"
#include "splitint.h"
#include "workpool.h"
#include "xalloc.h"

/* The width --explain wraps lists of exempt functions at. */
#define EXPLAIN_WIDTH 100

/* ---- scanning --------------------------------------------------------- */

static int scannable(const struct pp_split_file *f)
{
	if (!S_ISREG(f->st.st_mode))
		return 0;
	if (f->c.cls == PP_CLASS_STATIC)
		return 1;
	return f->c.elf && f->c.elf->machine == 62 /* EM_X86_64 */ &&
	       f->c.elf->kind != PP_ELF_OTHER;
}

/* The isa_dispatch rules whose glob names the file, merged. */
static void policy_for(const struct pp_spec *spec, const char *path,
		       struct pp_isa_policy *pol, const char ***globs,
		       const char ***disp)
{
	size_t ng = 0, nd = 0;

	memset(pol, 0, sizeof(*pol));
	*globs = NULL;
	*disp = NULL;
	for (size_t i = 0; i < spec->nr_isa_dispatch; i++) {
		const struct pp_isa_dispatch *d = &spec->isa_dispatch[i];

		if (fnmatch(d->path, path, 0))
			continue;
		*globs = xrealloc(*globs, (ng + d->symbols.nr + 1) * sizeof(char *));
		for (size_t k = 0; k < d->symbols.nr; k++)
			(*globs)[ng++] = d->symbols.items[k];
		*disp = xrealloc(*disp, (nd + d->dispatchers.nr + 1) *
				 sizeof(char *));
		for (size_t k = 0; k < d->dispatchers.nr; k++)
			(*disp)[nd++] = d->dispatchers.items[k];
		pol->ifunc_targets |= d->ifunc || d->dispatchers.nr;
	}
	pol->exempt_globs = *globs;
	pol->nr_exempt_globs = ng;
	pol->dispatcher_globs = *disp;
	pol->nr_dispatcher_globs = nd;
}

/* The files to scan, largest first, decoded side by side on the CPUs of
 * opts.comp.threads: each file's report is its own, so the order they
 * end in changes nothing. */
struct scan_job {
	struct pp_split *s;
	struct pp_split_ref *refs; /* the scannable files */
};

static int scan_file(void *ctx, size_t job, struct pp_err *err)
{
	const struct scan_job *sj = ctx;
	struct pp_split_stage *st = &sj->s->stages[sj->refs[job].stage];
	struct pp_split_file *f = &st->files[sj->refs[job].file];
	struct strbuf path = STRBUF_INIT;
	struct pp_isa_policy pol;
	const char **globs, **disp;
	int rc;

	policy_for(sj->s->spec, f->path, &pol, &globs, &disp);
	pp_split_file_source(st, f, &path);
	f->isa = xcalloc(1, sizeof(*f->isa));
	rc = pp_isa_scan(path.buf, &pol, f->isa, err);
	pp_progress_add(sj->s->opts.progress, (uint64_t)f->st.st_size, f->path);
	free(globs);
	free(disp);
	strbuf_release(&path);
	return rc;
}

int pp_split_isa_scan(struct pp_split *s, struct pp_err *err)
{
	struct scan_job sj = { s, NULL };
	uint64_t *sizes = NULL;
	size_t n = 0, alloc_refs = 0, alloc_sizes = 0, *order;
	uint64_t bytes = 0;
	int rc, cpus = s->opts.comp.threads > 0 ? s->opts.comp.threads : 1;

	if (strcmp(s->arch, "amd64"))
		return 0; /* the scanner decodes x86-64 */
	/* jobs in stage order (the first error is the first file's) */
	for (size_t k = 0; k < s->nr_stages; k++)
		for (size_t i = 0; i < s->stages[k].nr; i++) {
			const struct pp_split_file *f = &s->stages[k].files[i];

			if (!scannable(f))
				continue;
			ARRAY_GROW(sj.refs, alloc_refs, n + 1);
			ARRAY_GROW(sizes, alloc_sizes, n + 1);
			sj.refs[n] = (struct pp_split_ref){ k, i };
			sizes[n] = (uint64_t)f->st.st_size;
			n++;
			bytes += (uint64_t)f->st.st_size;
		}
	pp_progress_task(s->opts.progress, "scanning instructions", bytes,
			 "bytes");
	/* started largest first */
	order = pp_split_largest_first(sizes, n);
	rc = pp_pool_run(n, order, (size_t)cpus, scan_file, &sj, err);
	free(sizes);
	free(sj.refs);
	free(order);
	return rc;
}

/* ---- what a variant allows and requires --------------------------------- */

struct variant_isa {
	int has_limit;
	struct pp_isa_limit limit;
	const struct pp_axis_value *limit_from;
	struct pp_isa_set forbid;
	int has_forbid;
	const struct pp_axis_value *forbid_from;
	struct pp_isa_set require;
	int has_require;
};

static void narrow(struct pp_isa_limit *a, const struct pp_isa_limit *b)
{
	if (b->level < a->level)
		a->level = b->level;
	for (size_t i = 0; i < PP_ISA_NR_EXTS; i++)
		a->extra[i] &= b->extra[i];
}

static int variant_isa(const struct pp_split *s, const struct pp_variant *v,
		       struct variant_isa *out, struct pp_err *err)
{
	memset(out, 0, sizeof(*out));
	for (size_t a = 0; a < s->spec->nr_axes; a++) {
		const struct pp_axis_value *val = v->values[a];
		struct pp_isa_limit l;

		if (val->isa) {
			if (pp_isa_limit_parse(val->isa, &l, err) < 0)
				return -1;
			if (out->has_limit)
				narrow(&out->limit, &l);
			else
				out->limit = l;
			out->has_limit = 1;
			out->limit_from = val;
		}
		for (size_t i = 0; i < val->forbid_isa.nr; i++) {
			if (pp_isa_set_add(&out->forbid, val->forbid_isa.items[i]) < 0)
				return pp_err_set(err, PP_EXIT_INPUT, "%s: "
						  "forbid_isa of '%s': '%s' is "
						  "no instruction set the "
						  "scanner knows", s->spec->path,
						  val->name,
						  val->forbid_isa.items[i]);
			out->has_forbid = 1;
			out->forbid_from = val;
		}
		for (size_t i = 0; i < val->isa_require.nr; i++) {
			pp_isa_set_add(&out->require, val->isa_require.items[i]);
			out->has_require = 1;
		}
	}
	return 0;
}

/* ---- checking ----------------------------------------------------------- */

/* The build a file comes from: the stage's variant, or the glibc-hwcaps
 * build its library was carried from. */
static const struct pp_variant *built_by(const struct pp_split_stage *st,
					 const struct pp_split_file *f)
{
	return f->built ? f->built : st->variant;
}

static void name_file(const struct pp_split_stage *st,
		      const struct pp_split_file *f, struct strbuf *out)
{
	strbuf_addstr(out, "\n  ");
	pp_split_file_source(st, f, out);
	if (f->hwcaps)
		strbuf_addf(out, " (shipped as %s, the glibc-hwcaps build for "
			    "%s)", f->path, f->hwcaps);
	strbuf_addstr(out, ": ");
}

static void violation(const struct pp_split *s, const struct pp_split_stage *st,
		      const struct pp_split_file *f, const struct variant_isa *vi,
		      struct strbuf *out)
{
	const struct pp_isa_use *use;

	if (vi->has_limit && pp_isa_check(f->isa, &vi->limit, &use)) {
		name_file(st, f, out);
		pp_isa_describe_violation(use, &vi->limit, out);
		strbuf_addf(out, "; the %s variant allows no more (isa of "
			    "'%s' in %s)", built_by(st, f)->name,
			    vi->limit_from->name, s->spec->path);
	} else if (vi->has_forbid &&
		   pp_isa_check_forbidden(f->isa, &vi->forbid, &use)) {
		name_file(st, f, out);
		pp_isa_describe_use(use, out);
		strbuf_addf(out, "; the %s variant forbids it (forbid_isa "
			    "of '%s' in %s)", built_by(st, f)->name,
			    vi->forbid_from->name, s->spec->path);
	}
}

/* Whether any file of the stage from build v has an instruction of the
 * set, exempt code included: it shows the build did use the instruction
 * set. A glibc-hwcaps build counts only the libraries shipped from it. */
static int build_has(const struct pp_split_stage *st,
		     const struct pp_variant *v, const struct pp_isa_set *set,
		     size_t *nr_scanned)
{
	int found = 0;

	*nr_scanned = 0;
	for (size_t i = 0; i < st->nr; i++) {
		const struct pp_isa_report *r = st->files[i].isa;

		if (!r || built_by(st, &st->files[i]) != v)
			continue;
		(*nr_scanned)++;
		for (size_t u = 0; u < r->nr_uses; u++)
			if (set->has[r->uses[u].ext])
				found = 1;
	}
	return found;
}

static void missing(const struct pp_split *s, const struct pp_variant *v,
		    const char *hwcaps, size_t n, struct strbuf *out)
{
	struct pp_strlist names = PP_STRLIST_INIT;
	char *list;

	for (size_t a = 0; a < s->spec->nr_axes; a++)
		pp_strlist_extend(&names, &v->values[a]->isa_require);
	list = pp_strlist_join(&names, ", ");
	strbuf_addf(out, "\n  variant %s: none of its %zu ELF files", v->name, n);
	if (hwcaps)
		strbuf_addf(out, " (its glibc-hwcaps build for %s)", hwcaps);
	strbuf_addf(out, " has an instruction of %s (isa_require in %s): the "
		    "build fell back to a lower instruction set, as Paddle's "
		    "old CMake did on hosts without AVX; check its compiler "
		    "flags", list, s->spec->path);
	free(list);
	pp_strlist_release(&names);
}

/* The builds whose files a stage holds: its variant's, then those of the
 * glibc-hwcaps builds carried into it, each once. */
static size_t stage_builds(const struct pp_split_stage *st,
			   const struct pp_variant **out, const char **level,
			   size_t max)
{
	size_t n = 0;

	out[n] = st->variant;
	level[n++] = NULL;
	for (size_t i = 0; i < st->nr && n < max; i++) {
		const struct pp_split_file *f = &st->files[i];
		size_t j;

		for (j = 0; j < n && out[j] != built_by(st, f); j++)
			;
		if (j == n) {
			out[n] = f->built;
			level[n++] = f->hwcaps;
		}
	}
	return n;
}

static int check_build(const struct pp_split *s, const struct pp_split_stage *st,
		       const struct pp_variant *v, const char *hwcaps,
		       struct strbuf *msg, struct pp_err *err)
{
	struct variant_isa vi;
	size_t n;

	if (variant_isa(s, v, &vi, err) < 0)
		return -1;
	for (size_t i = 0; i < st->nr; i++)
		if (st->files[i].isa && built_by(st, &st->files[i]) == v)
			violation(s, st, &st->files[i], &vi, msg);
	if (vi.has_require && !build_has(st, v, &vi.require, &n))
		missing(s, v, hwcaps, n, msg);
	return 0;
}

static int check_variants(const struct pp_split *s, struct pp_err *err)
{
	struct strbuf msg = STRBUF_INIT;
	int rc = 0;

	for (size_t k = 0; k < s->nr_stages && !rc; k++) {
		const struct pp_split_stage *st = &s->stages[k];
		const struct pp_variant *builds[PP_ISA_NR_LEVELS + 1];
		const char *levels[PP_ISA_NR_LEVELS + 1];
		size_t nb = stage_builds(st, builds, levels,
					 PP_ISA_NR_LEVELS + 1);

		for (size_t b = 0; b < nb && !rc; b++)
			rc = check_build(s, st, builds[b], levels[b], &msg, err);
	}
	if (!rc && msg.len)
		rc = pp_err_set(err, PP_EXIT_FAIL, "the ISA proof failed:%s",
				msg.buf);
	strbuf_release(&msg);
	return rc;
}

/* ---- what each package needs -------------------------------------------- */

/* The /proc/cpuinfo flag of an extension above the baseline, or NULL. */
static const char *cpuinfo_flag(enum pp_isa_ext e)
{
	static const struct { enum pp_isa_ext ext; const char *flag; } map[] = {
		{ PP_ISA_EXT_SSE3, "pni" }, { PP_ISA_EXT_SSSE3, "ssse3" },
		{ PP_ISA_EXT_SSE41, "sse4_1" }, { PP_ISA_EXT_SSE42, "sse4_2" },
		{ PP_ISA_EXT_POPCNT, "popcnt" }, { PP_ISA_EXT_CX16, "cx16" },
		{ PP_ISA_EXT_LAHF, "lahf_lm" }, { PP_ISA_EXT_AVX, "avx" },
		{ PP_ISA_EXT_AVX2, "avx2" }, { PP_ISA_EXT_FMA, "fma" },
		{ PP_ISA_EXT_F16C, "f16c" }, { PP_ISA_EXT_BMI1, "bmi1" },
		{ PP_ISA_EXT_BMI2, "bmi2" }, { PP_ISA_EXT_LZCNT, "abm" },
		{ PP_ISA_EXT_MOVBE, "movbe" }, { PP_ISA_EXT_XSAVE, "xsave" },
		{ PP_ISA_EXT_AVX512F, "avx512f" },
		{ PP_ISA_EXT_AVX512BW, "avx512bw" },
		{ PP_ISA_EXT_AVX512CD, "avx512cd" },
		{ PP_ISA_EXT_AVX512DQ, "avx512dq" },
		{ PP_ISA_EXT_AVX512VL, "avx512vl" }, { PP_ISA_EXT_AES, "aes" },
		{ PP_ISA_EXT_PCLMULQDQ, "pclmulqdq" },
		{ PP_ISA_EXT_SHA, "sha_ni" }, { PP_ISA_EXT_GFNI, "gfni" },
		{ PP_ISA_EXT_VAES, "vaes" },
		{ PP_ISA_EXT_VPCLMULQDQ, "vpclmulqdq" },
		{ PP_ISA_EXT_RDRAND, "rdrand" }, { PP_ISA_EXT_RDSEED, "rdseed" },
		{ PP_ISA_EXT_ADX, "adx" }, { PP_ISA_EXT_RDTSCP, "rdtscp" },
		{ PP_ISA_EXT_RDPID, "rdpid" },
		{ PP_ISA_EXT_FSGSBASE, "fsgsbase" },
		{ PP_ISA_EXT_XSAVEOPT, "xsaveopt" },
		{ PP_ISA_EXT_XSAVEC, "xsavec" }, { PP_ISA_EXT_XSAVES, "xsaves" },
		{ PP_ISA_EXT_CLFLUSHOPT, "clflushopt" },
		{ PP_ISA_EXT_CLWB, "clwb" }, { PP_ISA_EXT_RTM, "rtm" },
		{ PP_ISA_EXT_MOVDIR, "movdiri" },
		{ PP_ISA_EXT_SERIALIZE, "serialize" },
		{ PP_ISA_EXT_WAITPKG, "waitpkg" },
		{ PP_ISA_EXT_AVXVNNI, "avx_vnni" },
		{ PP_ISA_EXT_AVX512ER, "avx512er" },
		{ PP_ISA_EXT_AVX512PF, "avx512pf" },
		{ PP_ISA_EXT_AVX512_4FMAPS, "avx512_4fmaps" },
		{ PP_ISA_EXT_AVX512_4VNNIW, "avx512_4vnniw" },
		{ PP_ISA_EXT_AVX512_BF16, "avx512_bf16" },
		{ PP_ISA_EXT_AVX512_BITALG, "avx512_bitalg" },
		{ PP_ISA_EXT_AVX512_FP16, "avx512_fp16" },
		{ PP_ISA_EXT_AVX512_IFMA, "avx512ifma" },
		{ PP_ISA_EXT_AVX512_VBMI, "avx512vbmi" },
		{ PP_ISA_EXT_AVX512_VBMI2, "avx512_vbmi2" },
		{ PP_ISA_EXT_AVX512_VNNI, "avx512_vnni" },
		{ PP_ISA_EXT_AVX512_VP2INTERSECT, "avx512_vp2intersect" },
		{ PP_ISA_EXT_AVX512_VPOPCNTDQ, "avx512_vpopcntdq" },
		{ PP_ISA_EXT_AMX_TILE, "amx_tile" },
		{ PP_ISA_EXT_AMX_INT8, "amx_int8" },
		{ PP_ISA_EXT_AMX_BF16, "amx_bf16" }, { PP_ISA_EXT_SSE4A, "sse4a" },
		{ PP_ISA_EXT_XOP, "xop" }, { PP_ISA_EXT_FMA4, "fma4" },
		{ PP_ISA_EXT_TBM, "tbm" }, { PP_ISA_EXT_3DNOW, "3dnow" },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i].ext == e)
			return map[i].flag;
	return NULL;
}

static int more_after(const unsigned char *need, int e)
{
	for (int f = e + 1; f < PP_ISA_NR_EXTS; f++)
		if (need[f])
			return 1;
	return 0;
}

/* ", x86-64-v3, x86-64-v4 (glibc-hwcaps)": the levels of the glibc-hwcaps
 * builds the package carries besides, lowest first. */
static void hwcaps_levels(const struct pp_split *s, const struct pp_split_pkg *p,
			  struct strbuf *out)
{
	int seen[PP_ISA_NR_LEVELS] = { 0 }, any = 0;

	for (size_t i = 0; i < p->nr_files; i++) {
		const struct pp_split_file *f = pp_split_at(s, p->files[i]);
		enum pp_isa_level l;

		if (f->hwcaps && !pp_isa_level_parse(f->hwcaps, &l))
			seen[l] = any = 1;
	}
	for (int l = 0; l < PP_ISA_NR_LEVELS; l++)
		if (seen[l])
			strbuf_addf(out, ", %s", pp_isa_level_name(l));
	if (any)
		strbuf_addstr(out, " (glibc-hwcaps)");
}

/* Fills the package's Isa-Level and what its preinst checks: the counted
 * extensions of its files above the baseline. A glibc-hwcaps build's
 * library needs no check (the loader takes it only on a CPU that runs
 * it); its level is listed. */
static void package_needs(struct pp_split *s, struct pp_split_pkg *p)
{
	unsigned char need[PP_ISA_NR_EXTS] = { 0 };
	struct strbuf level = STRBUF_INIT, flags = STRBUF_INIT,
		      names = STRBUF_INIT;
	enum pp_isa_level max = PP_ISA_BASELINE;
	int any = 0;

	for (size_t i = 0; i < p->nr_files; i++) {
		const struct pp_split_file *f = pp_split_at(s, p->files[i]);
		const struct pp_isa_report *r = f->isa;

		if (!r || f->hwcaps)
			continue; /* the loader picks those by the CPU */
		any = 1;
		if (r->level > max)
			max = r->level;
		for (size_t u = 0; u < r->nr_uses; u++)
			if (r->uses[u].why == PP_ISA_COUNTED &&
			    cpuinfo_flag(r->uses[u].ext))
				need[r->uses[u].ext] = 1;
	}
	if (!any)
		return;
	strbuf_addstr(&level, pp_isa_level_name(max));
	for (int e = 0; e < PP_ISA_NR_EXTS; e++) {
		if (!need[e])
			continue;
		strbuf_addf(&flags, "%s%s", flags.len ? " " : "",
			    cpuinfo_flag((enum pp_isa_ext)e));
		strbuf_addf(&level, "%s%s", names.len ? ", " : " (",
			    pp_isa_ext_name((enum pp_isa_ext)e));
		/* "AVX, AVX2 and FMA" for people */
		strbuf_addf(&names, "%s%s", !names.len ? "" :
			    more_after(need, e) ? ", " : " and ",
			    pp_isa_ext_name((enum pp_isa_ext)e));
	}
	if (names.len)
		strbuf_addch(&level, ')');
	hwcaps_levels(s, p, &level);
	p->isa = strbuf_detach(&level, NULL);
	if (flags.len) {
		p->isa_flags = strbuf_detach(&flags, NULL);
		p->isa_names = strbuf_detach(&names, NULL);
	}
	strbuf_release(&flags);
	strbuf_release(&names);
}

static size_t shared_values(const struct pp_split *s, const struct pp_variant *a,
			    const struct pp_variant *b)
{
	size_t n = 0;

	for (size_t i = 0; i < s->spec->nr_axes; i++)
		n += a->values[i] == b->values[i];
	return n;
}

/* What to install on a CPU the package's preinst turns away: the sibling
 * (same role, another variant) that needs the fewest flags, the closest
 * variant first. */
static void alternative(struct pp_split *s, struct pp_split_pkg *p)
{
	const struct pp_split_pkg *best = NULL;
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < s->nr_pkgs; i++) {
		const struct pp_split_pkg *q = &s->pkgs[i];
		size_t nq, nb;

		if (q == p || !q->variant || q->common || q->role != p->role ||
		    strcmp(q->base, p->base))
			continue;
		nq = q->isa_flags ? strlen(q->isa_flags) : 0;
		nb = best && best->isa_flags ? strlen(best->isa_flags) : 0;
		if (!best || nq < nb || (nq == nb &&
		    shared_values(s, q->variant, p->variant) >
		    shared_values(s, best->variant, p->variant)))
			best = q;
	}
	if (best && (!best->isa_flags || strlen(best->isa_flags) <
					  strlen(p->isa_flags)))
		strbuf_addf(&sb, "%s (the %s variant)", best->name,
			    best->variant->name);
	else
		strbuf_addf(&sb, "a build of %s for an older CPU", p->name);
	p->isa_alternative = strbuf_detach(&sb, NULL);
}

/* The other packages of a variant whose code needs more than the
 * baseline (its -dev, its data) get the same CPU check: apt unpacks them
 * in the same run as the library, and one the library's preinst leaves
 * behind would stay unpacked and unconfigurable (dpkg --audit). The
 * variant's package needing the most flags gives them. */
static void guard_variant(struct pp_split *s, struct pp_split_pkg *p)
{
	const struct pp_split_pkg *most = NULL;

	if (p->isa_flags || !p->variant || p->common ||
	    p->role == PP_ROLE_DBGSYM)
		return;
	for (size_t i = 0; i < s->nr_pkgs; i++) {
		const struct pp_split_pkg *q = &s->pkgs[i];

		if (q->variant == p->variant && q->isa_flags && q->isa &&
		    (!most || strlen(q->isa_flags) > strlen(most->isa_flags)))
			most = q;
	}
	if (!most)
		return;
	p->isa_flags = xstrdup(most->isa_flags);
	p->isa_names = xstrdup(most->isa_names);
	p->isa_guard = xstrdup(most->isa);
}

int pp_split_isa_check(struct pp_split *s, struct pp_err *err)
{
	if (check_variants(s, err) < 0)
		return -1;
	for (size_t i = 0; i < s->nr_pkgs; i++)
		if (s->pkgs[i].role != PP_ROLE_DBGSYM)
			package_needs(s, &s->pkgs[i]);
	for (size_t i = 0; i < s->nr_pkgs; i++)
		guard_variant(s, &s->pkgs[i]);
	for (size_t i = 0; i < s->nr_pkgs; i++)
		if (s->pkgs[i].isa_flags)
			alternative(s, &s->pkgs[i]);
	return 0;
}

/* An exempt function with what groups it in --explain: the extensions
 * its code needs above the baseline, and why it is exempt. */
struct exempt_line {
	const struct pp_isa_func *func;
	char *key;
};

static int exempt_line_cmp(const void *a, const void *b)
{
	const struct exempt_line *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : strcmp(x->func->name, y->func->name);
}

/* Appends "           exempt functions that need KEY (N):" and the names,
 * indented, wrapped at EXPLAIN_WIDTH columns (one a line at least). */
static void explain_group(const struct exempt_line *v, size_t nr,
			  struct strbuf *out)
{
	size_t start = out->len;
	const char *exts = v[0].key + 1;

	strbuf_addf(out, "           exempt %s that need %s%s (%zu):",
		    v[0].func->why == PP_ISA_EXEMPT_IFUNC ? "ifunc targets" :
		    "functions", strcmp(exts, pp_isa_level_name(PP_ISA_BASELINE))
		    ? "" : "nothing above ", exts, nr);
	for (size_t i = 0; i < nr; i++) {
		const char *name = v[i].func->name;

		if (i == 0 || out->len - start + 1 + strlen(name) >
			      EXPLAIN_WIDTH) {
			strbuf_addch(out, '\n');
			start = out->len;
			strbuf_addstr(out, "            "); /* 12, then " name" */
		}
		strbuf_addf(out, " %s", name);
	}
	strbuf_addch(out, '\n');
}

/* Every exempt function of the file, grouped by the extensions it needs
 * and why it is exempt, each group and the names in it sorted. */
static void explain_exempt_funcs(const struct pp_isa_report *r,
				 struct strbuf *out)
{
	struct exempt_line *v;
	size_t start = 0;

	if (!r->nr_exempt_funcs)
		return;
	v = xcalloc(r->nr_exempt_funcs, sizeof(*v));
	for (size_t i = 0; i < r->nr_exempt_funcs; i++) {
		const struct pp_isa_func *fn = &r->exempt_funcs[i];
		struct strbuf key = STRBUF_INIT;

		/* ifunc targets after the functions of a glob */
		strbuf_addch(&key, fn->why == PP_ISA_EXEMPT_IFUNC ? '2' : '1');
		pp_isa_set_format(&fn->exts, &key);
		v[i].func = fn;
		v[i].key = strbuf_detach(&key, NULL);
	}
	qsort(v, r->nr_exempt_funcs, sizeof(*v), exempt_line_cmp);
	for (size_t i = 1; i <= r->nr_exempt_funcs; i++)
		if (i == r->nr_exempt_funcs || strcmp(v[i].key, v[start].key)) {
			explain_group(v + start, i - start, out);
			start = i;
		}
	for (size_t i = 0; i < r->nr_exempt_funcs; i++)
		free(v[i].key);
	free(v);
}

void pp_split_isa_explain(const struct pp_split_file *f, struct strbuf *out)
{
	const struct pp_isa_report *r = f->isa;

	if (!r)
		return;
	strbuf_addf(out, "           isa: %s", pp_isa_level_name(r->level));
	for (size_t u = 0; u < r->nr_uses; u++) {
		const struct pp_isa_use *use = &r->uses[u];

		if (!pp_isa_ext_above_baseline(use->ext))
			continue;
		strbuf_addf(out, " %s%s", pp_isa_ext_name(use->ext),
			    use->why == PP_ISA_COUNTED ? "" : "(exempt)");
	}
	strbuf_addch(out, '\n');
	/* the exempt code by extension: how much, and where it starts */
	for (size_t u = 0; u < r->nr_uses; u++) {
		const struct pp_isa_use *use = &r->uses[u];

		if (use->why == PP_ISA_COUNTED ||
		    !pp_isa_ext_above_baseline(use->ext))
			continue;
		strbuf_addf(out, "           exempt: %s, %lu instructions, "
			    "first in %s%s%s\n", pp_isa_ext_name(use->ext),
			    use->count, use->first.symbol ? use->first.symbol :
			    use->first.section, use->first.member ? " of " : "",
			    use->first.member ? use->first.member : "");
	}
	explain_exempt_funcs(r, out);
}
