/* libFuzzer target: the OpenPGP packet, keyring, signature, armor and
 * cleartext parsers of padpack, fed untrusted bytes. Built and run by
 * `make fuzz` (and briefly by `make check`, tests/integration/
 * fuzz.sh). Every input goes through each parser; nothing may crash,
 * leak or read out of bounds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/lib/pgp.h"
#include "fuzz.h"

/* The certificate of formats.md 5.11, so signatures can find a key. */
static const char vector_cert[] =
	"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n"
	"xjMEZVPxABYJKwYBBAHaRw8BAQdAA6EHv/POEL4dcN0Y50vAmWfk1jCbpQ1fHdyG\n"
	"ZBJVMbjNHFRlc3QgVmVjdG9yIDx0dkBleGFtcGxlLm9yZz7CgAQTFggAKBYhBAVQ\n"
	"9F9VdGzso+iul/ejJWjiAZZSBQJlU/EAAhsDBBUKCQgCHgEACgkQ96MlaOIBllK4\n"
	"MwEAvucoygYrbKc6DmXX9pdDMiWPRG/DxFIKbamU6n6/r1gBAIDA5epEOdIUxZFB\n"
	"DcBNBMET0O226l28P/CWMhQJbJIB\n"
	"=+lb+\n"
	"-----END PGP PUBLIC KEY BLOCK-----\n";

static struct pp_pgp_keyring known;
static char import_dir[128];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct pp_err err;

	(void)argc;
	(void)argv;
	pp_err_init(&err);
	pp_pgp_keyring_init(&known);
	if (pp_pgp_keyring_add(&known, vector_cert, sizeof(vector_cert) - 1,
			       "vector", &err) < 0)
		abort();
	pp_err_release(&err);
	if (mkdir(fuzz_path(import_dir, sizeof(import_dir), "import"), 0700) < 0)
		abort();
	return 0;
}

static void fuzz_keyring(const uint8_t *data, size_t size)
{
	struct pp_pgp_keyring kr;
	struct pp_err err;

	pp_err_init(&err);
	pp_pgp_keyring_init(&kr);
	if (!pp_pgp_keyring_add(&kr, data, size, "fuzz", &err))
		for (size_t i = 0; i < kr.nr; i++)
			(void)pp_pgp_cert_uid(&kr.certs[i]);
	pp_pgp_keyring_release(&kr);
	pp_err_release(&err);
}

static void fuzz_signatures(const uint8_t *data, size_t size)
{
	struct strbuf text = STRBUF_INIT;
	struct pp_pgp_verdict v;
	struct pp_err err;

	pp_err_init(&err);
	pp_pgp_verify_detached(&known, "hello\n", 6, data, size, 1800000000,
			       &v, &err);
	pp_pgp_verify_clearsigned(&known, data, size, 1800000000, &v, &text,
				  &err);
	strbuf_release(&text);
	pp_err_release(&err);
}

static void fuzz_armor(const uint8_t *data, size_t size)
{
	struct strbuf out = STRBUF_INIT;
	struct pp_err err;
	size_t pos = 0;
	char label[64];

	pp_err_init(&err);
	while (pp_pgp_dearmor(data, size, &pos, label, &out, &err) > 0)
		strbuf_reset(&out);
	strbuf_release(&out);
	pp_err_release(&err);
}

/* Import writes a key directory only for a valid unprotected secret key;
 * the directory is emptied again so every such input is tried. */
static void fuzz_import(const uint8_t *data, size_t size)
{
	static const char *const files[] = { "secret.pem", "public.gpg",
					     "public.asc" };
	char path[128];
	struct pp_err err;

	pp_err_init(&err);
	if (!pp_pgp_key_import(data, size, "fuzz", import_dir, NULL, NULL,
			       &err))
		for (size_t i = 0; i < 3; i++) {
			snprintf(path, sizeof(path), "%s/%s", import_dir,
				 files[i]);
			unlink(path);
		}
	pp_err_release(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_keyring(data, size);
	fuzz_signatures(data, size);
	fuzz_armor(data, size);
	fuzz_import(data, size);
	return 0;
}
