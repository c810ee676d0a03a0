/* padpack verify: check a package's origin signature and its files. */
#include <stdio.h>

#include "../lib/debsig.h"
#include "../lib/json-out.h"
#include "pgpcmd.h"
#include "progress_view.h"

static const char usage[] =
	"usage: padpack verify X.deb --keyring K [--keyring K...] [--json]\n\n"
	"Checks the package's origin signature (the _gpgorigin member that\n"
	"'padpack sign' and 'debsigs --sign=origin' write) against the keys in\n"
	"K and, in the same read of the package, every file of data.tar against\n"
	"the package's md5sums. Prints who signed and when. A package without\n"
	"md5sums is verified by its signature alone, and the report says so.\n"
	"Files that md5sums does not list (dh_md5sums leaves out conffiles) are\n"
	"counted, not refused: the signature covers them.\n\n"
	"Exit codes:\n"
	"  0   good signature by a key in K, and every listed file matches\n"
	"  3   the package, or its md5sums, is malformed\n"
	"  4   the package or a keyring could not be read\n"
	"  10  the package is not signed (no _gpgorigin member)\n"
	"  11  bad signature: the package or its signature was changed, or the\n"
	"      signature is malformed, uses SHA-1 or MD5, is dated in the\n"
	"      future, or its key is expired, revoked or not allowed to sign\n"
	"  12  the signature was made by a key that is not in K\n"
	"  13  the signature is good, but files differ from md5sums\n\n"
	"Options:\n"
	"  --keyring K   trusted public keys: a key or keyring file, binary or\n"
	"                armored (e.g. public.gpg); may be given more than once\n"
	"  --json        print one JSON object instead of text: file, status\n"
	"                (good, unsigned, bad-signature, unknown-key,\n"
	"                content-mismatch, malformed, io-error), exit, error,\n"
	"                signer, signed_at, md5sums, files, files_checked,\n"
	"                files_unlisted, mismatched\n";

struct verify_args {
	const char *keyrings[PGPCMD_MAX_KEYRINGS];
	size_t nr_keyrings;
	int json;
};

static int parse(int argc, char **argv, struct verify_args *a,
		 struct pp_err *err)
{
	static const struct option opts[] = {
		{ "keyring", required_argument, NULL, 'k' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "k:", opts, NULL)) != -1) {
		if (c == 'j') {
			a->json = 1;
		} else if (c == 'k' && a->nr_keyrings < PGPCMD_MAX_KEYRINGS) {
			a->keyrings[a->nr_keyrings++] = optarg;
		} else {
			return pp_usage_error(err, c == 'k' ? "too many keyrings" :
					      "unknown option");
		}
	}
	if (optind != argc - 1)
		return pp_usage_error(err, "expected one .deb file");
	return 0;
}

static void print_content(const struct pp_debsig_report *r)
{
	if (!r->has_md5sums) {
		printf("  content     no md5sums in the package: verified by its "
		       "signature alone\n");
		return;
	}
	printf("  content     %zu of %zu file%s checked against md5sums",
	       r->checked - r->nr_bad, r->files, r->files == 1 ? "" : "s");
	if (r->unlisted)
		printf(" (%zu not listed there)", r->unlisted);
	printf("\n");
	for (size_t i = 0; i < r->nr_bad; i++) {
		printf("  differs     ");
		pgpcmd_print_safe(stdout, r->bad[i]);
		putchar('\n');
	}
}

static void print_text(const char *path, const struct pp_debsig_report *r,
		       int code)
{
	if (code != PP_EXIT_OK && code != PP_EXIT_MISMATCH)
		return;
	printf("%s: good origin signature%s\n", path, code ?
	       ", but files differ from md5sums" : "");
	pgpcmd_print_verdict(stdout, &r->sig);
	print_content(r);
}

static int run(int argc, char **argv, struct pp_err *err)
{
	struct verify_args a = { { NULL }, 0, 0 };
	struct progress_view view;
	struct pp_progress progress;
	struct pp_debsig_report rep;
	struct pp_pgp_keyring kr;
	int rc;

	if (parse(argc, argv, &a, err) < 0)
		return -1;
	memset(&rep, 0, sizeof(rep));
	rc = pgpcmd_load_keyrings(&kr, a.keyrings, a.nr_keyrings, err);
	progress_view_init(&view, &progress, "padpack verify", a.json);
	if (!rc)
		rc = pp_debsig_verify_progress(argv[optind], &kr, time(NULL),
					       &progress, &rep, err);
	progress_view_finish(&view, &progress, rc ? NULL : "verified");
	/* a failed check is a document too: its status says what failed */
	if (a.json && pp_json_write(stdout, pp_json_debsig(argv[optind], &rep,
							   err), err) < 0)
		rc = -1;
	else if (!a.json)
		print_text(argv[optind], &rep, rc ? err->code : 0);
	pp_debsig_report_release(&rep);
	pp_pgp_keyring_release(&kr);
	return rc;
}

const struct pp_cmd cmd_verify = {
	"verify", run, "check a package's signature and files", usage,
};
