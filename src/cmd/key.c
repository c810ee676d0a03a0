/* padpack key: generate, show and import OpenPGP signing keys. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "../lib/fsutil.h"
#include "pgpcmd.h"

static const char usage[] =
	"usage: padpack key generate --uid UID [--algo ALGO] --out DIR\n"
	"                            [--passphrase-file FILE]\n"
	"       padpack key show FILE...\n"
	"       padpack key import FILE --out DIR [--passphrase-file FILE]\n\n"
	"generate creates an OpenPGP v4 signing key in DIR (created if missing):\n"
	"  DIR/secret.pem  the secret key, PKCS#8 PEM, mode 0600; encrypted with\n"
	"                  AES-256 when --passphrase-file is given\n"
	"  DIR/public.gpg  the public key (transferable public key: key, user ID,\n"
	"                  self-signature), binary: for apt's Signed-By, gpgv\n"
	"                  --keyring, sqv and debsig-verify keyrings\n"
	"  DIR/public.asc  the same, ASCII-armored\n"
	"ALGO is ed25519 (default; EdDSA, algorithm 22, as gpg 2.2 makes it),\n"
	"rsa4096, rsa3072 or rsa2048. An existing DIR/secret.pem is never\n"
	"replaced.\n\n"
	"show prints algorithm, size or curve, fingerprint, key ID, creation\n"
	"time, usage and user IDs of every key in each FILE: one key or a\n"
	"keyring, binary or armored (gpg --export output, public.gpg,\n"
	"/usr/share/keyrings/*.gpg).\n\n"
	"import turns the output of 'gpg --export-secret-keys [--armor] KEYID'\n"
	"into DIR, as generate writes it, so a team keeps the key it has. The\n"
	"export must be unprotected (remove the passphrase first, e.g. with gpg\n"
	"--passwd in a copy of the GnuPG home); Ed25519 and RSA keys. The\n"
	"signing key is the primary key when it may sign, else the newest\n"
	"signing subkey.\n\n"
	"How --key finds a key (sign, clearsign, detach-sign): --key names the\n"
	"key directory DIR, or DIR/secret.pem. A v4 fingerprint covers the key's\n"
	"creation time, which a PKCS#8 file cannot hold, so public.gpg beside\n"
	"secret.pem is always read too, and must hold the matching public key.\n"
	"padpack refuses a secret.pem that group or others may read (as ssh\n"
	"does).\n\n"
	"Options:\n"
	"  --uid UID               the user ID, e.g. \"Release <rel@example.org>\"\n"
	"  --algo ALGO             ed25519 (default), rsa4096, rsa3072, rsa2048\n"
	"  --out DIR               the key directory to write\n"
	"  --passphrase-file FILE  encrypt secret.pem with the first line of FILE\n";

struct key_args {
	const char *uid, *algo, *out, *passfile;
};

static int parse(int argc, char **argv, struct key_args *a,
		 struct pp_err *err)
{
	static const struct option opts[] = {
		{ "uid", required_argument, NULL, 'u' },
		{ "algo", required_argument, NULL, 'a' },
		{ "out", required_argument, NULL, 'o' },
		{ "passphrase-file", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		switch (c) {
		case 'u': a->uid = optarg; break;
		case 'a': a->algo = optarg; break;
		case 'o': a->out = optarg; break;
		case 'p': a->passfile = optarg; break;
		default: return pp_usage_error(err, "unknown option");
		}
	}
	return 0;
}

static int print_fpr(const char *dir, const char *verb, struct pp_err *err)
{
	struct pp_pgp_keyring kr;
	struct strbuf path = STRBUF_INIT;
	char fpr[41];
	int rc;

	pp_pgp_keyring_init(&kr);
	strbuf_addf(&path, "%s/%s", dir, PP_PGP_PUBLIC_FILE);
	rc = pp_pgp_keyring_load(&kr, path.buf, err);
	if (!rc) {
		pp_pgp_hex(kr.certs[0].primary.fpr, PP_PGP_FPR_LEN, fpr);
		printf("padpack: %s key %s in '%s'\n", verb, fpr, dir);
	}
	pp_pgp_keyring_release(&kr);
	strbuf_release(&path);
	return rc;
}

static int generate(int argc, char **argv, struct pp_err *err)
{
	struct key_args a = { NULL, "ed25519", NULL, NULL };
	char *pass = NULL;
	int rc;

	if (parse(argc, argv, &a, err) < 0)
		return -1;
	if (!a.uid || !a.out || optind != argc)
		return pp_usage_error(err, "key generate needs --uid and --out, "
				      "and no other arguments");
	if (a.passfile && pgpcmd_passphrase(a.passfile, &pass, err) < 0)
		return -1;
	rc = pp_pgp_key_generate(a.out, a.uid, a.algo, pass, time(NULL), err);
	if (pass) {
		OPENSSL_cleanse(pass, strlen(pass));
		free(pass);
	}
	return rc ? rc : print_fpr(a.out, "generated", err);
}

static int import(int argc, char **argv, struct pp_err *err)
{
	struct key_args a = { NULL, NULL, NULL, NULL };
	struct strbuf data = STRBUF_INIT;
	unsigned char fpr[PP_PGP_FPR_LEN];
	char *pass = NULL, hex[41];
	int rc;

	if (parse(argc, argv, &a, err) < 0)
		return -1;
	if (!a.out || optind != argc - 1 || a.uid || a.algo)
		return pp_usage_error(err, "key import needs FILE and --out");
	if (a.passfile && pgpcmd_passphrase(a.passfile, &pass, err) < 0)
		return -1;
	rc = pp_read_file(argv[optind], &data, err);
	if (!rc)
		rc = pp_pgp_key_import(data.buf, data.len, argv[optind], a.out,
				       pass, fpr, err);
	if (!rc) {
		pp_pgp_hex(fpr, PP_PGP_FPR_LEN, hex);
		printf("padpack: imported signing key %s into '%s'\n", hex,
		       a.out);
	}
	OPENSSL_cleanse(data.buf, data.len);
	strbuf_release(&data);
	if (pass) {
		OPENSSL_cleanse(pass, strlen(pass));
		free(pass);
	}
	return rc;
}

/* ---- show ------------------------------------------------------------------ */

static void print_algo(const struct pp_pgp_key *k)
{
	char buf[64];

	if (k->curve)
		snprintf(buf, sizeof(buf), "%s %s", pp_pgp_algo_name(k->algo),
			 k->curve);
	else
		snprintf(buf, sizeof(buf), "%s %u", pp_pgp_algo_name(k->algo),
			 k->bits);
	printf("%-20s", buf);
}

static void print_usage(const struct pp_pgp_key *k)
{
	static const struct { unsigned bit; const char *name; } names[] = {
		{ PP_PGP_CAN_CERTIFY, "certify" }, { PP_PGP_CAN_SIGN, "sign" },
		{ PP_PGP_CAN_ENCRYPT, "encrypt" }, { PP_PGP_CAN_AUTH, "auth" },
	};
	const char *sep = "";

	printf(" [");
	if (!k->has_flags)
		printf("no key flags");
	for (size_t i = 0; k->has_flags && i < 4; i++)
		if (k->flags & names[i].bit) {
			printf("%s%s", sep, names[i].name);
			sep = ", ";
		}
	printf("]");
}

static void print_status(const struct pp_pgp_key *k)
{
	char when[32];

	if (k->revoked)
		printf(" [revoked]");
	if (k->expires) {
		pgpcmd_time(k->created + k->expires, when);
		printf(" [expire%s %s]", (time_t)k->created + k->expires <=
		       time(NULL) ? "d" : "s", when);
	}
	if (!k->bound)
		printf(" [no valid self-signature]");
}

static void show_key(const char *tag, const struct pp_pgp_key *k)
{
	char hex[41], when[32];

	printf("%s  ", tag);
	print_algo(k);
	pgpcmd_time(k->created, when);
	printf(" created %s", when);
	print_usage(k);
	print_status(k);
	putchar('\n');
	pp_pgp_hex(k->fpr, PP_PGP_FPR_LEN, hex);
	printf("     fingerprint %s\n", hex);
	pp_pgp_hex(k->keyid, PP_PGP_KEYID_LEN, hex);
	printf("     key ID      %s\n", hex);
	if (!k->pkey && k->unusable)
		printf("     (padpack cannot check signatures by it: %s)\n",
		       k->unusable);
}

static void show_cert(const struct pp_pgp_cert *c)
{
	show_key("pub", &c->primary);
	for (size_t i = 0; i < c->nr_uids; i++) {
		printf("uid  ");
		pgpcmd_print_safe(stdout, c->uids[i].text);
		printf("%s\n", c->uids[i].valid ? "" :
		       " [no valid self-signature]");
	}
	for (size_t i = 0; i < c->nr_subkeys; i++)
		show_key("sub", &c->subkeys[i]);
}

static int show(int argc, char **argv, struct pp_err *err)
{
	int rc = 0;

	if (argc < 2)
		return pp_usage_error(err, "key show needs a FILE");
	for (int i = 1; i < argc && !rc; i++) {
		struct pp_pgp_keyring kr;

		pp_pgp_keyring_init(&kr);
		rc = pp_pgp_keyring_load(&kr, argv[i], err);
		for (size_t j = 0; !rc && j < kr.nr; j++) {
			if (i > 1 || j)
				putchar('\n');
			show_cert(&kr.certs[j]);
		}
		pp_pgp_keyring_release(&kr);
	}
	return rc;
}

static int run(int argc, char **argv, struct pp_err *err)
{
	if (argc < 2)
		return pp_usage_error(err, "expected generate, show or import");
	if (!strcmp(argv[1], "generate"))
		return generate(argc - 1, argv + 1, err);
	if (!strcmp(argv[1], "show"))
		return show(argc - 1, argv + 1, err);
	if (!strcmp(argv[1], "import"))
		return import(argc - 1, argv + 1, err);
	return pp_usage_error(err, "'%s' is not a key command; use generate, "
			      "show or import", argv[1]);
}

const struct pp_cmd cmd_key = {
	"key", run, "generate, show or import an OpenPGP signing key", usage,
};
