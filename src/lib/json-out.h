/* The documents padpack's --json options print (schemas in doc/json.md and
 * each command's man page), built with jansson. Each function returns a
 * new reference the caller owns; nothing here prints except pp_json_write. */
#ifndef PP_JSON_OUT_H
#define PP_JSON_OUT_H

#include <stdio.h>

#include <jansson.h>

#include "error.h"

struct pp_build;
struct pp_ctrl_members;
struct pp_deb;
struct pp_debsig_report;
struct pp_split;
struct pp_stanza;
struct pp_tar_entry;
struct pp_isa_report;
struct pp_pgp_verdict;
struct pp_repo_members;

/* A JSON string of s; null when s is NULL. Text that is not UTF-8
 * (file names, user IDs) keeps its ASCII and has every other byte
 * written as \xNN. */
json_t *pp_json_text(const char *s);
/* The same for LEN bytes that may hold NUL (a control file's text). */
json_t *pp_json_textn(const char *s, size_t len);

/* The name of a verification's exit code: "good", "unsigned",
 * "bad-signature", "unknown-key", "content-mismatch", "malformed",
 * "io-error", else "error". */
const char *pp_json_status_name(int code);

/* padpack verify: path's report, and the error that ended the check
 * (err->code 0 when none). */
json_t *pp_json_debsig(const char *path, const struct pp_debsig_report *r,
		       const struct pp_err *err);
/* padpack verify-sig: file's verdict (v NULL when there is none). */
json_t *pp_json_signature(const char *file, const struct pp_pgp_verdict *v,
			  const struct pp_err *err);

/* padpack isa: one file's report; needs is the limit its counted code
 * needs (pp_isa_limit_format), violation the --max message or NULL. */
json_t *pp_json_isa(const char *path, const struct pp_isa_report *r,
		    const char *needs, const char *violation);

/* padpack repo list: the members of a suite or of a snapshot (the
 * other NULL). */
json_t *pp_json_repo_list(const char *root, const char *suite,
			  const char *snapshot,
			  const struct pp_repo_members *ms);

/* padpack repo verify. pp_json_repo_problem is a pp_repo_problem_fn
 * that appends {path, problem} to ctx, a JSON array. */
void pp_json_repo_problem(void *ctx, const char *path, const char *what);
/* The report: problems (a reference taken over), the files checked,
 * whether signatures were checked, and the error that stopped it (a
 * repository that could not be read), err->code 0 when none. */
json_t *pp_json_repo_verify(const char *root, json_t *problems,
			    size_t files_checked, int signatures,
			    int packages, const struct pp_err *err);

/* padpack field: path's fields (every one, in order, when names is
 * NULL; else those named, null for one absent), each value as
 * dpkg-deb --field shows it. Warnings go to err, as for the text. */
json_t *pp_json_fields(const char *path, const struct pp_stanza *st,
		       int argc, char **names, struct pp_err *err);
/* The "fields" object of that document. */
json_t *pp_json_fields_of(const struct pp_stanza *st, int argc,
			  char **names, struct pp_err *err);
/* padpack info: the format, sizes, control files and control fields. */
json_t *pp_json_info(const struct pp_deb *deb,
		     const struct pp_ctrl_members *cm, struct pp_err *err);
/* padpack info X.deb NAME...: those control files' text (null for one
 * absent, counted in *missing). */
json_t *pp_json_info_files(const char *path, const struct pp_ctrl_members *cm,
			   int argc, char **names, int *missing);
/* padpack contents: one entry of the data archive, and the document of
 * those entries (a reference taken over). */
json_t *pp_json_tar_entry(const struct pp_tar_entry *e);
json_t *pp_json_contents(const char *path, json_t *entries);

/* padpack split: the packages written. */
json_t *pp_json_split(const struct pp_split *s);

/* padpack build: each variant's result and steps. */
json_t *pp_json_build(const struct pp_build *b);

/* Writes doc to f, indented, with a final newline, and drops the
 * reference. */
int pp_json_write(FILE *f, json_t *doc, struct pp_err *err);

#endif
