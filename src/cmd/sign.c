/* padpack sign: add a debsigs origin signature to a package. */
#include <stdio.h>

#include "../lib/debsig.h"
#include "pgpcmd.h"

static const char usage[] =
	"usage: padpack sign X.deb --key K [-o OUT] [--digest sha256|sha512]\n"
	"                    [--passphrase-file FILE] [-q]\n\n"
	"Signs the package as 'debsigs --sign=origin' does: a _gpgorigin member\n"
	"after data.tar holds a binary OpenPGP signature over the contents of\n"
	"debian-binary, control.tar.* and data.tar.*, which debsig-verify and\n"
	"'padpack verify' check. A package that is already signed gets its\n"
	"signature replaced, never a second one. The package is rewritten in\n"
	"place (or written to OUT) under a temporary name and renamed when\n"
	"complete: a failure leaves it as it was.\n\n"
	"K is a key directory written by 'padpack key generate' or 'padpack key\n"
	"import', or its secret.pem; public.gpg beside it names the key (see\n"
	"'padpack key --help').\n\n"
	"Options:\n"
	"  -k, --key K             the signing key\n"
	"  -o, --output OUT        write the signed package to OUT\n"
	"      --digest NAME       sha256 (default) or sha512\n"
	"      --passphrase-file F the passphrase of an encrypted secret.pem\n"
	"  -q, --quiet             print nothing on success\n";

static int run(int argc, char **argv, struct pp_err *err)
{
	struct pp_pgp_signer s;
	struct sign_args a;
	const char *in;
	int rc;

	if (pgpcmd_sign_args(argc, argv, &a, 0, err) < 0)
		return -1;
	if (optind != argc - 1)
		return pp_usage_error(err, "expected one .deb file");
	in = argv[optind];
	if (pgpcmd_load_signer(&s, a.key, a.passfile, err) < 0)
		return -1;
	rc = pp_debsig_sign(in, a.out ? a.out : in, &s, &a.opts, err);
	if (!rc && !a.quiet) {
		printf("padpack: signed '%s' with ", a.out ? a.out : in);
		pgpcmd_print_signer(stdout, &s);
		putchar('\n');
	}
	pp_pgp_signer_release(&s);
	return rc;
}

const struct pp_cmd cmd_sign = {
	"sign", run, "sign a package (debsigs origin signature)", usage,
};
