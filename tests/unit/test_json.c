#include <stdlib.h>

#include "../../src/lib/json-out.h"
#include "../../src/lib/repo.h"
#include "test.h"

/* The compact text of a value, for comparing. */
static char *dump(json_t *v)
{
	char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);

	json_decref(v);
	return s;
}

static void text_null_utf8_and_bytes(struct t_ctx *t)
{
	char *s;

	s = dump(pp_json_text(NULL));
	CHECK_STR(s, "null");
	free(s);
	s = dump(pp_json_text("caf\xc3\xa9 \"q\"\n"));
	CHECK_STR(s, "\"caf\xc3\xa9 \\\"q\\\"\\n\"");
	free(s);
	/* Latin-1: jansson refuses it; the ASCII stays, the byte shows */
	s = dump(pp_json_text("caf\xe9.deb"));
	CHECK_STR(s, "\"caf\\\\xe9.deb\"");
	free(s);
}

static void status_names(struct t_ctx *t)
{
	CHECK_STR(pp_json_status_name(PP_EXIT_OK), "good");
	CHECK_STR(pp_json_status_name(PP_EXIT_BADSIG), "bad-signature");
	CHECK_STR(pp_json_status_name(PP_EXIT_NOKEY), "unknown-key");
	CHECK_STR(pp_json_status_name(PP_EXIT_USAGE), "error");
}

static void repo_list_and_verify(struct t_ctx *t)
{
	struct pp_repo_member m = { "hello", "1.0-1", "all", "main",
				    "pool/main/h/hello/hello_1.0-1_all.deb", 0 };
	struct pp_repo_members ms = { .m = &m, .nr = 1, .alloc = 1 };
	struct pp_err err;
	json_t *problems = json_array();
	char *s;

	s = dump(pp_json_repo_list("repo", NULL, "snap", &ms));
	CHECK_STR(s, "{\"repository\":\"repo\",\"suite\":null,\"snapshot\":"
		  "\"snap\",\"packages\":[{\"package\":\"hello\",\"version\":"
		  "\"1.0-1\",\"architecture\":\"all\",\"component\":\"main\","
		  "\"filename\":\"pool/main/h/hello/hello_1.0-1_all.deb\"}]}");
	free(s);
	pp_err_init(&err);
	pp_json_repo_problem(problems, "repo/x.deb", "size 2, expected 1");
	s = dump(pp_json_repo_verify("repo", problems, 3, 1, 0, &err));
	CHECK_STR(s, "{\"repository\":\"repo\",\"status\":\"problems\","
		  "\"files_checked\":3,\"signatures_checked\":true,"
		  "\"packages_checked\":false,\"problems\":[{\"path\":"
		  "\"repo/x.deb\",\"problem\":\"size 2, expected 1\"}]}");
	free(s);
	pp_err_release(&err);
}

T_SUITE(json_tests) = {
	{ "json: text: null, UTF-8 kept, other bytes as \\xNN",
	  text_null_utf8_and_bytes },
	{ "json: verification status names", status_names },
	{ "json: repo list and repo verify documents", repo_list_and_verify },
	T_END
};
