/* padpack isa: which instruction-set extensions ELF files use, and a check
 * against the most a package may use. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/isa.h"
#include "../lib/json-out.h"
#include "../lib/xalloc.h"
#include "cmds.h"

static const char usage[] =
	"usage: padpack isa [--max LIMIT] [--exempt GLOB]... [--ifunc]\n"
	"                   [--dispatcher GLOB]... [--list-exempt] [--json]\n"
	"                   FILE...\n\n"
	"Decodes the executable code of ELF files (executables, shared\n"
	"libraries, .o files, and .a archives member by member) and prints,\n"
	"per file, the highest x86-64 level its code needs, then one line per\n"
	"extension: name, level, instruction count, and the symbol+offset of\n"
	"the first such instruction. Levels are the psABI's: x86-64 (baseline),\n"
	"x86-64-v2 (SSE4.2, POPCNT), x86-64-v3 (AVX, AVX2, FMA, BMI), x86-64-v4\n"
	"(AVX-512F/BW/CD/DQ/VL); extensions no level guarantees (AES, SHA, RTM,\n"
	"AVX-512 VNNI ...) show as 'beyond' and are needed on top of the level.\n\n"
	"Code behind runtime CPU dispatch is counted unless exempted; exempt\n"
	"code is still listed, marked 'exempt'.\n\n"
	"Options:\n"
	"  --max LIMIT     exit 1 when a file needs more than LIMIT: a level,\n"
	"                  optionally with extensions allowed on top of it\n"
	"                  (x86-64-v2, x86-64-v2+AVX, x86-64-v3+AES+PCLMULQDQ);\n"
	"                  the message names file, extension, symbol and offset\n"
	"  --exempt GLOB   leave out of the verdict the functions whose symbol\n"
	"                  matches GLOB (fnmatch; repeatable), e.g. code that\n"
	"                  runs only after a CPUID check\n"
	"  --ifunc         leave out code that only ifunc resolvers reach (the\n"
	"                  targets of STT_GNU_IFUNC/IRELATIVE resolvers that no\n"
	"                  other code, data or export can enter); linked files\n"
	"  --dispatcher GLOB  with --ifunc: functions matching GLOB hand out\n"
	"                  variants as resolvers do (glibc's\n"
	"                  __libc_ifunc_impl_list); implies --ifunc\n"
	"  --list-exempt   after each file, a line per exempt function: its\n"
	"                  name, why it is exempt, its instructions and the\n"
	"                  extensions its code needs (in --json, always, as\n"
	"                  exempt_functions)\n"
	"  --json          print a JSON array, one object per file\n\n"
	"Exit status: 0 within the limit, 1 above it, 2 usage, 3 a file is not\n"
	"a readable x86-64 ELF file or archive, 4 a file cannot be read.\n";

struct opts {
	struct pp_isa_policy policy;
	const char **globs, **dispatchers;
	size_t nr_globs, globs_alloc, nr_dispatchers, dispatchers_alloc;
	struct pp_isa_limit limit;
	int has_limit, json, list_exempt;
};

static int parse(int argc, char **argv, struct opts *o, struct pp_err *err)
{
	static const struct option opts[] = {
		{ "max", required_argument, NULL, 'm' },
		{ "exempt", required_argument, NULL, 'e' },
		{ "ifunc", no_argument, NULL, 'i' },
		{ "dispatcher", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "list-exempt", no_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (pp_isa_limit_parse(optarg, &o->limit, err) < 0)
				return -1;
			o->has_limit = 1;
			break;
		case 'e':
			ARRAY_GROW(o->globs, o->globs_alloc, o->nr_globs + 1);
			o->globs[o->nr_globs++] = optarg;
			break;
		case 'd':
			ARRAY_GROW(o->dispatchers, o->dispatchers_alloc,
				   o->nr_dispatchers + 1);
			o->dispatchers[o->nr_dispatchers++] = optarg;
			o->policy.ifunc_targets = 1; /* implied */
			break;
		case 'i':
			o->policy.ifunc_targets = 1;
			break;
		case 'j':
			o->json = 1;
			break;
		case 'l':
			o->list_exempt = 1;
			break;
		default:
			return pp_usage_error(err, "unknown option");
		}
	}
	if (optind >= argc)
		return pp_usage_error(err, "expected at least one FILE");
	o->policy.exempt_globs = o->globs;
	o->policy.nr_exempt_globs = o->nr_globs;
	o->policy.dispatcher_globs = o->dispatchers;
	o->policy.nr_dispatcher_globs = o->nr_dispatchers;
	return 0;
}

static const char *why_name(enum pp_isa_why why)
{
	return why == PP_ISA_EXEMPT_GLOB ? "glob" :
	       why == PP_ISA_EXEMPT_IFUNC ? "ifunc" : NULL;
}

static const char *ext_level_name(enum pp_isa_ext ext)
{
	return pp_isa_ext_beyond(ext) ? "beyond" :
	       pp_isa_level_name(pp_isa_ext_level(ext));
}

/* The level and the beyond-level extensions counted code needs. */
static void needs(const struct pp_isa_report *r, struct strbuf *out)
{
	struct pp_isa_limit need = { r->level, { 0 } };

	for (size_t i = 0; i < r->nr_uses; i++)
		if (r->uses[i].why == PP_ISA_COUNTED &&
		    pp_isa_ext_beyond(r->uses[i].ext))
			need.extra[r->uses[i].ext] = 1;
	pp_isa_limit_format(&need, out);
}

static void print_text(const char *path, const struct pp_isa_report *r)
{
	struct strbuf sb = STRBUF_INIT;

	needs(r, &sb);
	printf("%s: %s (%lu instructions, %llu bytes of code", path, sb.buf,
	       r->nr_insns, (unsigned long long)r->code_bytes);
	if (r->nr_objects > 1)
		printf(" in %u objects", r->nr_objects);
	if (r->nr_bad_bytes)
		printf(", %lu bytes not decoded", r->nr_bad_bytes);
	if (r->nr_exempt)
		printf(", %lu exempt", r->nr_exempt);
	if (r->nr_stripped)
		printf(", no .symtab");
	printf(")\n");
	for (size_t i = 0; i < r->nr_uses; i++) {
		const struct pp_isa_use *u = &r->uses[i];

		strbuf_reset(&sb);
		pp_isa_site_format(&u->first, &sb);
		printf("  %-20s %-10s %8lu  %s", pp_isa_ext_name(u->ext),
		       ext_level_name(u->ext), u->count, sb.buf);
		if (u->why != PP_ISA_COUNTED)
			printf("  (exempt: %s)", why_name(u->why));
		putchar('\n');
	}
	strbuf_release(&sb);
}

/* "  exempt NAME (WHY, N instructions): EXT EXT", one a function, in
 * name order, with the extensions above the baseline its code needs. */
static void print_exempt(const struct pp_isa_report *r)
{
	struct strbuf exts = STRBUF_INIT;

	for (size_t i = 0; i < r->nr_exempt_funcs; i++) {
		const struct pp_isa_func *fn = &r->exempt_funcs[i];

		strbuf_reset(&exts);
		pp_isa_set_format(&fn->exts, &exts);
		printf("  exempt %s (%s, %lu instructions): %s\n", fn->name,
		       why_name(fn->why), fn->nr_insns, exts.buf);
	}
	strbuf_release(&exts);
}

static void add_json(json_t *files, const char *path,
		     const struct pp_isa_report *r, const char *violation)
{
	struct strbuf sb = STRBUF_INIT;

	needs(r, &sb);
	json_array_append_new(files, pp_json_isa(path, r, sb.buf, violation));
	strbuf_release(&sb);
}

/* Scans one file; a use above the limit goes to *violation. With --json
 * the report goes to files, else it is printed. */
static int scan_one(const char *path, const struct opts *o, json_t *files,
		    struct strbuf *violation, struct pp_err *err)
{
	struct pp_isa_report r;
	const struct pp_isa_use *bad = NULL;

	if (pp_isa_scan(path, &o->policy, &r, err) < 0)
		return -1;
	if (o->has_limit && pp_isa_check(&r, &o->limit, &bad)) {
		strbuf_addf(violation, "%s: ", path);
		pp_isa_describe_violation(bad, &o->limit, violation);
	}
	if (o->json)
		add_json(files, path, &r, violation->len ? violation->buf : NULL);
	else
		print_text(path, &r);
	if (!o->json && o->list_exempt)
		print_exempt(&r);
	pp_isa_report_release(&r);
	return 0;
}

static int run(int argc, char **argv, struct pp_err *err)
{
	struct opts o = { 0 };
	struct strbuf v = STRBUF_INIT;
	unsigned failed = 0, scanned = 0;
	json_t *files = json_array();
	int rc = parse(argc, argv, &o, err);

	for (int i = optind; !rc && i < argc; i++) {
		strbuf_reset(&v);
		rc = scan_one(argv[i], &o, files, &v, err);
		scanned += !rc;
		if (!rc && v.len && !failed++)
			pp_err_set(err, PP_EXIT_FAIL, "%s", v.buf);
		else if (!rc && v.len)
			pp_warn(err, "padpack isa: %s", v.buf);
	}
	/* the files scanned before an unreadable one still show */
	if (o.json && scanned && pp_json_write(stdout, json_incref(files),
					       err) < 0)
		rc = -1;
	json_decref(files);
	free(o.globs);
	free(o.dispatchers);
	strbuf_release(&v);
	return rc || failed ? -1 : 0;
}

const struct pp_cmd cmd_isa = {
	"isa", run, "instruction-set extensions of ELF files (AVX, AVX2 ...)",
	usage,
};
