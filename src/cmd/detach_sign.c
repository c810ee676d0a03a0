/* padpack detach-sign: a detached OpenPGP signature of any file. */
#include <stdio.h>

#include "../lib/fsutil.h"
#include "pgpcmd.h"

static const char usage[] =
	"usage: padpack detach-sign FILE --key K [--armor] [-o OUT]\n"
	"                           [--digest sha256|sha512]\n"
	"                           [--passphrase-file FILE] [-q]\n\n"
	"Writes a detached OpenPGP signature (type 0x00, binary document) of\n"
	"FILE, as gpg --detach-sign does: binary to FILE.sig, or ASCII-armored\n"
	"to FILE.asc with --armor (the Release.gpg form). OUT '-' is standard\n"
	"output. gpgv, sqv and 'padpack verify-sig' check it.\n\n"
	"K is a key directory (or its secret.pem); see 'padpack key --help'.\n\n"
	"Options:\n"
	"  -k, --key K             the signing key\n"
	"  -a, --armor             ASCII-armored output\n"
	"  -o, --output OUT        where to write the signature\n"
	"      --digest NAME       sha256 (default) or sha512\n"
	"      --passphrase-file F the passphrase of an encrypted secret.pem\n"
	"  -q, --quiet             print nothing on success\n";

static int run(int argc, char **argv, struct pp_err *err)
{
	struct strbuf data = STRBUF_INIT, sig = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT;
	struct pp_pgp_signer s;
	struct sign_args a;
	int rc;

	if (pgpcmd_sign_args(argc, argv, &a, 1, err) < 0)
		return -1;
	if (optind != argc - 1)
		return pp_usage_error(err, "expected one FILE to sign");
	if (a.out)
		strbuf_addstr(&out, a.out);
	else
		strbuf_addf(&out, "%s.%s", argv[optind], a.armor ? "asc" : "sig");
	rc = pgpcmd_load_signer(&s, a.key, a.passfile, err);
	if (!rc) {
		rc = pp_read_file(argv[optind], &data, err);
		if (!rc)
			rc = pp_pgp_detach_sign(&s, data.buf, data.len, &a.opts,
						a.armor, &sig, err);
		if (!rc)
			rc = pgpcmd_write(out.buf, sig.buf, sig.len, err);
		if (!rc && !a.quiet && strcmp(out.buf, "-")) {
			printf("padpack: wrote '%s', signed with ", out.buf);
			pgpcmd_print_signer(stdout, &s);
			putchar('\n');
		}
		pp_pgp_signer_release(&s);
	}
	strbuf_release(&data);
	strbuf_release(&sig);
	strbuf_release(&out);
	return rc;
}

const struct pp_cmd cmd_detach_sign = {
	"detach-sign", run, "write a detached OpenPGP signature of a file",
	usage,
};
