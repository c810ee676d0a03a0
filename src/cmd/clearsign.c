/* padpack clearsign: the cleartext-signed form of a text (InRelease). */
#include <stdio.h>

#include "../lib/fsutil.h"
#include "pgpcmd.h"

static const char usage[] =
	"usage: padpack clearsign FILE --key K [-o OUT] [--digest sha256|sha512]\n"
	"                         [--passphrase-file FILE] [-q]\n\n"
	"Writes FILE as a cleartext-signed message, as gpg --clearsign does: the\n"
	"text, dash-escaped, under a Hash header, then an armored text\n"
	"signature (type 0x01) over the canonical text. This is the InRelease\n"
	"form: padpack clearsign Release --key K -o InRelease. The default OUT\n"
	"is FILE.asc; '-' is standard output. gpgv, apt and 'padpack\n"
	"verify-sig' check it.\n\n"
	"K is a key directory (or its secret.pem); see 'padpack key --help'.\n\n"
	"Options:\n"
	"  -k, --key K             the signing key\n"
	"  -o, --output OUT        where to write the signed text\n"
	"      --digest NAME       sha256 (default) or sha512\n"
	"      --passphrase-file F the passphrase of an encrypted secret.pem\n"
	"  -q, --quiet             print nothing on success\n";

static int run(int argc, char **argv, struct pp_err *err)
{
	struct strbuf data = STRBUF_INIT, signed_ = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT;
	struct pp_pgp_signer s;
	struct sign_args a;
	int rc;

	if (pgpcmd_sign_args(argc, argv, &a, 0, err) < 0)
		return -1;
	if (optind != argc - 1)
		return pp_usage_error(err, "expected one FILE to sign");
	if (a.out)
		strbuf_addstr(&out, a.out);
	else
		strbuf_addf(&out, "%s.asc", argv[optind]);
	rc = pgpcmd_load_signer(&s, a.key, a.passfile, err);
	if (!rc) {
		rc = pp_read_file(argv[optind], &data, err);
		if (!rc)
			rc = pp_pgp_clearsign(&s, data.buf, data.len, &a.opts,
					      &signed_, err);
		if (!rc)
			rc = pgpcmd_write_signed(out.buf, &signed_, &s, a.quiet,
						 err);
		pp_pgp_signer_release(&s);
	}
	strbuf_release(&data);
	strbuf_release(&signed_);
	strbuf_release(&out);
	return rc;
}

const struct pp_cmd cmd_clearsign = {
	"clearsign", run, "write a cleartext-signed text (InRelease form)",
	usage,
};
