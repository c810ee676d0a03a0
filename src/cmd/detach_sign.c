/* padpack detach-sign: a detached OpenPGP signature of any file. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../lib/fsutil.h"
#include "../lib/xalloc.h"
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

/* Streams FILE through the signature: it may be large. */
static int sign_file(const struct pp_pgp_signer *s, const char *path,
		     const struct sign_args *a, struct strbuf *sig,
		     struct pp_err *err)
{
	const size_t size = 1 << 20;
	struct strbuf bin = STRBUF_INIT;
	struct pp_pgp_signing sg;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;
	char *buf;
	ssize_t n;

	if (fd < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot open '%s'", path);
	if (pp_pgp_sign_begin(&sg, s, PP_PGP_SIG_BINARY, &a->opts, err) < 0) {
		close(fd);
		return -1;
	}
	buf = xmalloc(size);
	while ((n = pp_read_full(fd, buf, size)) > 0)
		pp_pgp_sign_update(&sg, buf, (size_t)n);
	free(buf);
	close(fd);
	if (n < 0) {
		pp_pgp_sign_abort(&sg);
		return pp_err_errno(err, PP_EXIT_IO, "cannot read '%s'", path);
	}
	rc = pp_pgp_sign_finish(&sg, &bin, err);
	if (!rc && a->armor)
		pp_pgp_armor(sig, "SIGNATURE", bin.buf, bin.len);
	else if (!rc)
		strbuf_add(sig, bin.buf, bin.len);
	strbuf_release(&bin);
	return rc;
}

static int run(int argc, char **argv, struct pp_err *err)
{
	struct strbuf sig = STRBUF_INIT, out = STRBUF_INIT;
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
		rc = sign_file(&s, argv[optind], &a, &sig, err);
		if (!rc)
			rc = pgpcmd_write_signed(out.buf, &sig, &s, a.quiet, err);
		pp_pgp_signer_release(&s);
	}
	strbuf_release(&sig);
	strbuf_release(&out);
	return rc;
}

const struct pp_cmd cmd_detach_sign = {
	"detach-sign", run, "write a detached OpenPGP signature of a file",
	usage,
};
