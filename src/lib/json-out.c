/* The --json documents, built with jansson: one function a document, the
 * schema of each in doc/signing.md and doc/repository.md ("JSON output")
 * and doc/split.md ("The ISA scan"). */
#include <string.h>
#include <time.h>

#include "debsig.h"
#include "isa.h"
#include "json-out.h"
#include "pgp.h"
#include "repo.h"
#include "strbuf.h"

static void set(json_t *obj, const char *key, json_t *value)
{
	json_object_set_new(obj, key, value);
}

static json_t *count(size_t n)
{
	return json_integer((json_int_t)n);
}

/* Text of LEN bytes, NUL bytes included (JSON writes them as \u0000);
 * jansson refuses what is not UTF-8: such bytes show as \xNN. */
json_t *pp_json_textn(const char *s, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *str;

	if (!s)
		return json_null();
	if ((str = json_stringn(s, len)))
		return str;
	for (size_t i = 0; i < len; i++) {
		if ((unsigned char)s[i] < 0x80)
			strbuf_addch(&sb, s[i]);
		else
			strbuf_addf(&sb, "\\x%02x", (unsigned char)s[i]);
	}
	str = json_stringn(sb.buf, sb.len);
	strbuf_release(&sb);
	return str;
}

json_t *pp_json_text(const char *s)
{
	return s ? pp_json_textn(s, strlen(s)) : json_null();
}

const char *pp_json_status_name(int code)
{
	switch (code) {
	case PP_EXIT_OK: return "good";
	case PP_EXIT_UNSIGNED: return "unsigned";
	case PP_EXIT_BADSIG: return "bad-signature";
	case PP_EXIT_NOKEY: return "unknown-key";
	case PP_EXIT_MISMATCH: return "content-mismatch";
	case PP_EXIT_INPUT: return "malformed";
	case PP_EXIT_IO: return "io-error";
	}
	return "error";
}

/* The members every verification starts with: file, status, exit and,
 * on failure, error. */
static json_t *verdict_head(const char *file, const struct pp_err *err)
{
	json_t *doc = json_object();

	set(doc, "file", pp_json_text(file));
	set(doc, "status", json_string(pp_json_status_name(err->code)));
	set(doc, "exit", json_integer(err->code));
	if (err->code)
		set(doc, "error", pp_json_text(err->msg));
	return doc;
}

static json_t *signer(const struct pp_pgp_verdict *v)
{
	json_t *obj = json_object();
	char hex[41];

	pp_pgp_hex(v->issuer, PP_PGP_KEYID_LEN, hex);
	set(obj, "key_id", json_string(hex));
	if (v->key) {
		pp_pgp_hex(v->key->fpr, PP_PGP_FPR_LEN, hex);
		set(obj, "fingerprint", json_string(hex));
	}
	if (v->key && v->cert) {
		pp_pgp_hex(v->cert->primary.fpr, PP_PGP_FPR_LEN, hex);
		set(obj, "primary_fingerprint", json_string(hex));
		set(obj, "uid", pp_json_text(pp_pgp_cert_uid(v->cert)));
	}
	return obj;
}

/* signer, signed_at (UTC, ISO 8601), signed_at_epoch and hash. */
static void add_verdict(json_t *doc, const struct pp_pgp_verdict *v)
{
	time_t t = (time_t)v->created;
	struct tm tm;
	char when[32];

	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	set(doc, "signer", signer(v));
	set(doc, "signed_at", json_string(when));
	set(doc, "signed_at_epoch", json_integer(v->created));
	set(doc, "hash", pp_json_text(pp_pgp_md_name(v->md)));
}

json_t *pp_json_debsig(const char *path, const struct pp_debsig_report *r,
		       const struct pp_err *err)
{
	json_t *doc = verdict_head(path, err), *bad;
	int sig_ok = r->sig_checked && (!err->code ||
					err->code == PP_EXIT_MISMATCH);

	set(doc, "signed", json_boolean(r->signed_));
	if (r->sig_checked && (sig_ok || r->sig.key ||
			       err->code == PP_EXIT_NOKEY))
		add_verdict(doc, &r->sig);
	if (!sig_ok)
		return doc;
	set(doc, "md5sums", json_boolean(r->has_md5sums));
	set(doc, "files", count(r->files));
	set(doc, "files_checked", count(r->checked));
	set(doc, "files_unlisted", count(r->unlisted));
	bad = json_array();
	for (size_t i = 0; i < r->nr_bad; i++)
		json_array_append_new(bad, pp_json_text(r->bad[i]));
	set(doc, "mismatched", bad);
	return doc;
}

json_t *pp_json_signature(const char *file, const struct pp_pgp_verdict *v,
			  const struct pp_err *err)
{
	json_t *doc = verdict_head(file, err);

	if (v)
		add_verdict(doc, v);
	return doc;
}

static const char *why_name(enum pp_isa_why why)
{
	return why == PP_ISA_EXEMPT_GLOB ? "glob" :
	       why == PP_ISA_EXEMPT_IFUNC ? "ifunc" : NULL;
}

static json_t *isa_use(const struct pp_isa_use *u)
{
	json_t *obj = json_object();

	set(obj, "name", json_string(pp_isa_ext_name(u->ext)));
	set(obj, "level", json_string(pp_isa_ext_beyond(u->ext) ? "beyond" :
		pp_isa_level_name(pp_isa_ext_level(u->ext))));
	set(obj, "count", json_integer((json_int_t)u->count));
	set(obj, "exempt", pp_json_text(why_name(u->why)));
	set(obj, "member", pp_json_text(u->first.member));
	set(obj, "symbol", pp_json_text(u->first.symbol));
	set(obj, "section", pp_json_text(u->first.section));
	set(obj, "offset", json_integer((json_int_t)u->first.offset));
	set(obj, "address", json_integer((json_int_t)u->first.address));
	return obj;
}

static json_t *isa_func(const struct pp_isa_func *fn)
{
	json_t *obj = json_object(), *exts = json_array();

	set(obj, "name", pp_json_text(fn->name));
	set(obj, "exempt", pp_json_text(why_name(fn->why)));
	set(obj, "instructions", json_integer((json_int_t)fn->nr_insns));
	for (int e = 0; e < PP_ISA_NR_EXTS; e++)
		if (fn->exts.has[e] &&
		    pp_isa_ext_above_baseline((enum pp_isa_ext)e))
			json_array_append_new(exts, json_string(
				pp_isa_ext_name((enum pp_isa_ext)e)));
	set(obj, "needs", exts);
	return obj;
}

json_t *pp_json_isa(const char *path, const struct pp_isa_report *r,
		    const char *needs, const char *violation)
{
	json_t *doc = json_object(), *uses = json_array(), *funcs = json_array();

	set(doc, "file", pp_json_text(path));
	set(doc, "level", json_string(pp_isa_level_name(r->level)));
	set(doc, "needs", pp_json_text(needs));
	set(doc, "instructions", json_integer((json_int_t)r->nr_insns));
	set(doc, "exempt_instructions", json_integer((json_int_t)r->nr_exempt));
	set(doc, "undecoded_bytes", json_integer((json_int_t)r->nr_bad_bytes));
	set(doc, "code_bytes", json_integer((json_int_t)r->code_bytes));
	set(doc, "objects", json_integer(r->nr_objects));
	set(doc, "ifunc_exempt_functions", json_integer(r->nr_ifunc_exempt));
	set(doc, "violation", pp_json_text(violation));
	for (size_t i = 0; i < r->nr_uses; i++)
		json_array_append_new(uses, isa_use(&r->uses[i]));
	set(doc, "extensions", uses);
	for (size_t i = 0; i < r->nr_exempt_funcs; i++)
		json_array_append_new(funcs, isa_func(&r->exempt_funcs[i]));
	set(doc, "exempt_functions", funcs);
	return doc;
}

static json_t *repo_member(const struct pp_repo_member *m)
{
	json_t *obj = json_object();

	set(obj, "package", pp_json_text(m->package));
	set(obj, "version", pp_json_text(m->version));
	set(obj, "architecture", pp_json_text(m->arch));
	set(obj, "component", pp_json_text(m->component));
	set(obj, "filename", pp_json_text(m->filename));
	return obj;
}

json_t *pp_json_repo_list(const char *root, const char *suite,
			  const char *snapshot,
			  const struct pp_repo_members *ms)
{
	json_t *doc = json_object(), *pkgs = json_array();

	set(doc, "repository", pp_json_text(root));
	set(doc, "suite", pp_json_text(suite));
	set(doc, "snapshot", pp_json_text(snapshot));
	for (size_t i = 0; i < ms->nr; i++)
		json_array_append_new(pkgs, repo_member(&ms->m[i]));
	set(doc, "packages", pkgs);
	return doc;
}

void pp_json_repo_problem(void *ctx, const char *path, const char *what)
{
	json_t *obj = json_object();

	set(obj, "path", pp_json_text(path));
	set(obj, "problem", pp_json_text(what));
	json_array_append_new(ctx, obj);
}

json_t *pp_json_repo_verify(const char *root, json_t *problems,
			    size_t files_checked, int signatures,
			    int packages, const struct pp_err *err)
{
	json_t *doc = json_object();
	size_t n = json_array_size(problems);

	set(doc, "repository", pp_json_text(root));
	set(doc, "status", json_string(err->code ? "error" :
				       n ? "problems" : "verified"));
	if (err->code)
		set(doc, "error", pp_json_text(err->msg));
	set(doc, "files_checked", count(files_checked));
	set(doc, "signatures_checked", json_boolean(signatures));
	set(doc, "packages_checked", json_boolean(packages));
	set(doc, "problems", problems);
	return doc;
}

int pp_json_write(FILE *f, json_t *doc, struct pp_err *err)
{
	int rc = json_dumpf(doc, f, JSON_INDENT(2) |
			    JSON_REAL_PRECISION(15)) < 0 || fputc('\n', f) == EOF;

	json_decref(doc);
	if (rc)
		return pp_err_errno(err, PP_EXIT_IO, "cannot write the JSON "
				    "output");
	return 0;
}
