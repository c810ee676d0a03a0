/* padpack verify-sig: check a detached or cleartext OpenPGP signature. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../lib/fsutil.h"
#include "../lib/json-out.h"
#include "../lib/xalloc.h"
#include "pgpcmd.h"

static const char usage[] =
	"usage: padpack verify-sig FILE [SIG] --keyring K [--keyring K...]\n"
	"                          [-o TEXT] [--json]\n\n"
	"Checks an OpenPGP signature by a key in K. With SIG, a detached\n"
	"signature over FILE, binary or armored (Release.gpg, SHA256SUMS.gpg,\n"
	"what 'padpack detach-sign' or gpg --detach-sign write). Without SIG,\n"
	"FILE must be cleartext-signed (InRelease, a signed .changes); -o writes\n"
	"the signed text, as gpgv -o does. Anything before the BEGIN line or\n"
	"after the END line of a cleartext-signed file is refused, as apt does.\n"
	"Where several signatures are present, one good signature by a key in K\n"
	"is enough, and any bad one by a key in K fails the check.\n\n"
	"Exit codes:\n"
	"  0   good signature by a key in K\n"
	"  3   malformed input (a keyring, or a cleartext message's framing)\n"
	"  4   a file could not be read or written\n"
	"  10  FILE is not cleartext-signed and no SIG was given\n"
	"  11  bad signature: the data or the signature was changed, or the\n"
	"      signature is malformed (armor checksum, truncation), uses SHA-1 or\n"
	"      MD5, is dated in the future, or its key cannot sign\n"
	"  12  the signature was made by a key that is not in K\n\n"
	"Options:\n"
	"  --keyring K        trusted public keys (binary or armored); repeatable\n"
	"  -o, --output TEXT  cleartext only: write the signed text to TEXT\n"
	"  --json             print one JSON object: file, status, exit, error,\n"
	"                     signer, signed_at, signed_at_epoch, hash\n";

struct vs_args {
	const char *keyrings[PGPCMD_MAX_KEYRINGS];
	size_t nr_keyrings;
	const char *out;
	int json;
};

static int parse(int argc, char **argv, struct vs_args *a,
		 struct pp_err *err)
{
	static const struct option opts[] = {
		{ "keyring", required_argument, NULL, 'k' },
		{ "output", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "k:o:", opts, NULL)) != -1) {
		if (c == 'j')
			a->json = 1;
		else if (c == 'o')
			a->out = optarg;
		else if (c == 'k' && a->nr_keyrings < PGPCMD_MAX_KEYRINGS)
			a->keyrings[a->nr_keyrings++] = optarg;
		else
			return pp_usage_error(err, c == 'k' ? "too many "
					      "keyrings" : "unknown option");
	}
	if (optind != argc - 1 && optind != argc - 2)
		return pp_usage_error(err, "expected FILE and optionally SIG");
	if (a->out && optind == argc - 2)
		return pp_usage_error(err, "-o is for cleartext-signed files");
	return 0;
}

/* Streams FILE through the signature check: it may be large. */
static int feed_file(struct pp_pgp_verify *v, const char *path,
		     struct pp_err *err)
{
	const size_t size = 1 << 20;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *buf;
	ssize_t n;

	if (fd < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot open '%s'", path);
	buf = xmalloc(size);
	while ((n = pp_read_full(fd, buf, size)) > 0)
		pp_pgp_verify_update(v, buf, (size_t)n);
	free(buf);
	close(fd);
	if (n < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot read '%s'", path);
	return 0;
}

static int detached(const struct pp_pgp_keyring *kr, const char *file,
		    const char *sigpath, struct pp_pgp_verdict *out,
		    struct pp_err *err)
{
	struct strbuf sig = STRBUF_INIT;
	struct pp_pgp_verify v;
	int rc = pp_read_file(sigpath, &sig, err);

	if (!rc)
		rc = pp_pgp_verify_begin(&v, sig.buf, sig.len, kr, 1, err);
	if (!rc && feed_file(&v, file, err) < 0) {
		pp_pgp_verify_release(&v);
		rc = -1;
	} else if (!rc) {
		rc = pp_pgp_verify_finish(&v, time(NULL), out, err);
	}
	if (rc)
		pp_err_prefix(err, "%s: ", sigpath);
	strbuf_release(&sig);
	return rc;
}

static int cleartext(const struct pp_pgp_keyring *kr, const char *file,
		     const char *out, struct pp_pgp_verdict *verdict,
		     struct pp_err *err)
{
	struct strbuf data = STRBUF_INIT, text = STRBUF_INIT;
	int rc = pp_read_file(file, &data, err);

	if (!rc) {
		rc = pp_pgp_verify_clearsigned(kr, data.buf, data.len,
					       time(NULL), verdict, &text, err);
		if (rc)
			pp_err_prefix(err, "%s: ", file);
	}
	if (!rc && out)
		rc = pgpcmd_write(out, text.buf, text.len, err);
	strbuf_release(&data);
	strbuf_release(&text);
	return rc;
}

static int run(int argc, char **argv, struct pp_err *err)
{
	struct vs_args a = { { NULL }, 0, NULL, 0 };
	struct pp_pgp_verdict v;
	struct pp_pgp_keyring kr;
	const char *file;
	int rc;

	if (parse(argc, argv, &a, err) < 0)
		return -1;
	memset(&v, 0, sizeof(v));
	file = argv[optind];
	rc = pgpcmd_load_keyrings(&kr, a.keyrings, a.nr_keyrings, err);
	if (!rc)
		rc = optind == argc - 2 ?
			detached(&kr, file, argv[optind + 1], &v, err) :
			cleartext(&kr, file, a.out, &v, err);
	if (a.json) {
		if (pp_json_write(stdout, pp_json_signature(file, v.key ||
				  err->code == PP_EXIT_NOKEY ? &v : NULL, err),
				  err) < 0)
			rc = -1;
	} else if (!rc && (!a.out || strcmp(a.out, "-"))) {
		printf("%s: good signature\n", file);
		pgpcmd_print_verdict(stdout, &v);
	}
	pp_pgp_keyring_release(&kr);
	return rc;
}

const struct pp_cmd cmd_verify_sig = {
	"verify-sig", run, "check a detached or cleartext OpenPGP signature",
	usage,
};
