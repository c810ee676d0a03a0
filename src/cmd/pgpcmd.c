/* Helpers of the signing commands (pgpcmd.h). */
#include "pgpcmd.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "../lib/fsutil.h"
#include "../lib/xalloc.h"

int pgpcmd_passphrase(const char *file, char **out, struct pp_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n;

	*out = NULL;
	if (pp_read_file(file, &sb, err) < 0)
		return -1;
	n = strcspn(sb.buf, "\r\n");
	if (n == 0) {
		strbuf_release(&sb);
		return pp_err_set(err, PP_EXIT_USAGE, "passphrase file '%s' is "
				  "empty; its first line is the passphrase",
				  file);
	}
	*out = xstrndup(sb.buf, n);
	OPENSSL_cleanse(sb.buf, sb.len);
	strbuf_release(&sb);
	return 0;
}

int pgpcmd_load_signer(struct pp_pgp_signer *s, const char *key,
		       const char *passfile, struct pp_err *err)
{
	char *pass = NULL;
	int rc;

	if (!key)
		return pp_usage_error(err, "--key is required: a key directory "
				      "written by 'padpack key generate'");
	if (passfile && pgpcmd_passphrase(passfile, &pass, err) < 0)
		return -1;
	rc = pp_pgp_signer_load(s, key, pass, err);
	if (pass) {
		OPENSSL_cleanse(pass, strlen(pass));
		free(pass);
	}
	return rc;
}

int pgpcmd_load_keyrings(struct pp_pgp_keyring *kr, const char *const *paths,
			 size_t n, struct pp_err *err)
{
	pp_pgp_keyring_init(kr);
	if (!n)
		return pp_usage_error(err, "--keyring is required: the public "
				      "key(s) to trust, e.g. public.gpg");
	for (size_t i = 0; i < n; i++)
		if (pp_pgp_keyring_load(kr, paths[i], err) < 0)
			return -1;
	return 0;
}

int pgpcmd_digest(const char *name, int *md, struct pp_err *err)
{
	*md = pp_pgp_md_parse(name);
	if (*md != PP_PGP_SHA256 && *md != PP_PGP_SHA512 &&
	    *md != PP_PGP_SHA384 && *md != PP_PGP_SHA224)
		return pp_usage_error(err, "--digest '%s': use sha256 or sha512",
				      name);
	return 0;
}

void pgpcmd_time(uint32_t t, char buf[32])
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, 32, "%Y-%m-%d %H:%M:%S UTC", &tm);
}

void pgpcmd_print_safe(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

void pgpcmd_print_verdict(FILE *f, const struct pp_pgp_verdict *v)
{
	const char *uid = v->cert ? pp_pgp_cert_uid(v->cert) : NULL;
	char fpr[41], when[32];

	pp_pgp_hex(v->key->fpr, PP_PGP_FPR_LEN, fpr);
	pgpcmd_time(v->created, when);
	fprintf(f, "  signed by   ");
	pgpcmd_print_safe(f, uid ? uid : "(no user ID)");
	fprintf(f, "\n  key         %s (%s)\n", fpr,
		pp_pgp_algo_name(v->key->algo));
	if (v->cert && v->key != &v->cert->primary) {
		pp_pgp_hex(v->cert->primary.fpr, PP_PGP_FPR_LEN, fpr);
		fprintf(f, "  primary key %s\n", fpr);
	}
	fprintf(f, "  signed on   %s (%s)\n", when, pp_pgp_md_name(v->md));
}

int pgpcmd_write(const char *path, const void *data, size_t len,
		 struct pp_err *err)
{
	if (strcmp(path, "-"))
		return pp_write_file(path, data, len, 0644, err);
	if (pp_write_all(STDOUT_FILENO, data, len) < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot write to standard "
				    "output");
	return 0;
}

int pgpcmd_write_signed(const char *path, const struct strbuf *data,
			const struct pp_pgp_signer *s, int quiet,
			struct pp_err *err)
{
	if (pgpcmd_write(path, data->buf, data->len, err) < 0)
		return -1;
	if (!quiet && strcmp(path, "-")) {
		printf("padpack: wrote '%s', signed with ", path);
		pgpcmd_print_signer(stdout, s);
		putchar('\n');
	}
	return 0;
}

void pgpcmd_print_signer(FILE *f, const struct pp_pgp_signer *s)
{
	const char *uid = pp_pgp_cert_uid(s->c);
	char fpr[41];

	pp_pgp_hex(s->key->fpr, PP_PGP_FPR_LEN, fpr);
	fprintf(f, "key %s (", fpr);
	pgpcmd_print_safe(f, uid ? uid : "no user ID");
	fprintf(f, ")");
}

int pgpcmd_sign_args(int argc, char **argv, struct sign_args *a,
		     int allow_armor, struct pp_err *err)
{
	static const struct option opts[] = {
		{ "key", required_argument, NULL, 'k' },
		{ "passphrase-file", required_argument, NULL, 'p' },
		{ "output", required_argument, NULL, 'o' },
		{ "digest", required_argument, NULL, 'd' },
		{ "armor", no_argument, NULL, 'a' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(a, 0, sizeof(*a));
	while ((c = getopt_long(argc, argv, "k:o:aq", opts, NULL)) != -1) {
		switch (c) {
		case 'k': a->key = optarg; break;
		case 'p': a->passfile = optarg; break;
		case 'o': a->out = optarg; break;
		case 'q': a->quiet = 1; break;
		case 'd':
			if (pgpcmd_digest(optarg, &a->opts.md, err) < 0)
				return -1;
			break;
		case 'a':
			if (allow_armor) {
				a->armor = 1;
				break;
			}
			/* fall through */
		default:
			return pp_usage_error(err, "unknown option");
		}
	}
	if (!a->key)
		return pp_usage_error(err, "--key is required: a key directory "
				      "written by 'padpack key generate'");
	return 0;
}
