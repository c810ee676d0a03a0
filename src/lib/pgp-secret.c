/* Signing keys: a PKCS#8 secret key beside the OpenPGP certificate that
 * names it (the certificate holds the creation time a v4 fingerprint
 * covers), key generation, and import of gpg's secret-key exports. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <openssl/bio.h>
#include <openssl/pem.h>

#include "fsutil.h"
#include "pgpint.h"
#include "xalloc.h"

/* ---- the secret key file --------------------------------------------------- */

struct pass {
	const char *pw;
};

/* Never prompts: no passphrase given means the key must be unencrypted. */
static int pass_cb(char *buf, int size, int rwflag, void *u)
{
	const struct pass *p = u;
	size_t n = p->pw ? strlen(p->pw) : 0;

	(void)rwflag;
	if (!p->pw || n > (size_t)size)
		return -1;
	memcpy(buf, p->pw, n);
	return (int)n;
}

/* As ssh: a secret key others may read is not secret any more. */
static int check_secret_mode(const char *path, struct pp_err *err)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot open secret key "
				    "'%s'", path);
	if (!S_ISREG(st.st_mode))
		return pp_err_set(err, PP_EXIT_INPUT, "secret key '%s' is not a "
				  "regular file", path);
	if (st.st_mode & 077)
		return pp_err_set(err, PP_EXIT_INPUT, "secret key '%s' is "
				  "accessible by others (mode %04o); padpack "
				  "refuses to use it, as ssh does: run chmod 600 "
				  "'%s'", path, (unsigned)(st.st_mode & 07777),
				  path);
	return 0;
}

static EVP_PKEY *read_secret(const char *path, const char *passphrase,
			     struct pp_err *err)
{
	struct strbuf pem = STRBUF_INIT;
	struct pass p = { passphrase };
	EVP_PKEY *pkey = NULL;
	BIO *bio;

	if (check_secret_mode(path, err) < 0 || pp_read_file(path, &pem, err))
		return NULL;
	bio = BIO_new_mem_buf(pem.buf, (int)pem.len);
	if (bio)
		pkey = PEM_read_bio_PrivateKey(bio, NULL, pass_cb, &p);
	BIO_free(bio);
	if (!pkey && strstr(pem.buf, "ENCRYPTED PRIVATE KEY"))
		pp_err_set(err, PP_EXIT_INPUT, "secret key '%s' is encrypted "
			   "and %s", path, passphrase ? "the passphrase is "
			   "wrong" : "no passphrase was given");
	else if (!pkey)
		pp_err_set(err, PP_EXIT_INPUT, "'%s' is not a PKCS#8 PEM secret "
			   "key (as padpack key generate writes)", path);
	OPENSSL_cleanse(pem.buf, pem.len);
	strbuf_release(&pem);
	return pkey;
}

static int write_secret(const char *path, EVP_PKEY *pkey,
			const char *passphrase, struct pp_err *err)
{
	BIO *bio = BIO_new(BIO_s_mem());
	const EVP_CIPHER *cipher = passphrase ? EVP_aes_256_cbc() : NULL;
	int plen = passphrase ? (int)strlen(passphrase) : 0;
	char *data;
	long len;
	int rc;

	if (!bio || !PEM_write_bio_PKCS8PrivateKey(bio, pkey, cipher,
						   passphrase, plen, NULL,
						   NULL)) {
		BIO_free(bio);
		return pp_err_set(err, PP_EXIT_INPUT, "OpenSSL cannot write the "
				  "secret key");
	}
	len = BIO_get_mem_data(bio, &data);
	rc = pp_write_file(path, data, (size_t)len, 0600, err);
	OPENSSL_cleanse(data, (size_t)len);
	BIO_free(bio);
	return rc;
}

/* ---- signers --------------------------------------------------------------- */

/* DIR/secret.pem and DIR/public.gpg, or FILE and public.gpg beside it. */
static void key_paths(const char *path, struct strbuf *secret,
		      struct strbuf *cert)
{
	struct stat st;
	char *dir;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		strbuf_addf(secret, "%s/%s", path, PP_PGP_SECRET_FILE);
		strbuf_addf(cert, "%s/%s", path, PP_PGP_PUBLIC_FILE);
		return;
	}
	dir = pp_dirname(path);
	strbuf_addstr(secret, path);
	strbuf_addf(cert, "%s/%s", dir, PP_PGP_PUBLIC_FILE);
	free(dir);
}

static int match_key(struct pp_pgp_signer *s, const char *cert_path,
		     struct pp_err *err)
{
	for (size_t i = 0; i < s->cert.nr; i++) {
		const struct pp_pgp_cert *c = &s->cert.certs[i];

		for (size_t j = 0; j <= c->nr_subkeys; j++) {
			const struct pp_pgp_key *k = j ? &c->subkeys[j - 1] :
				&c->primary;

			if (k->pkey && EVP_PKEY_eq(k->pkey, s->pkey) == 1) {
				s->c = c;
				s->key = k;
				return 0;
			}
		}
	}
	return pp_err_set(err, PP_EXIT_INPUT, "'%s' holds no public key "
			  "matching the secret key; keep the public.gpg that "
			  "was written with it", cert_path);
}

int pp_pgp_signer_load(struct pp_pgp_signer *s, const char *path,
		       const char *passphrase, struct pp_err *err)
{
	struct strbuf secret = STRBUF_INIT, cert = STRBUF_INIT;
	int rc = -1;

	memset(s, 0, sizeof(*s));
	key_paths(path, &secret, &cert);
	s->pkey = read_secret(secret.buf, passphrase, err);
	if (s->pkey && !pp_pgp_keyring_load(&s->cert, cert.buf, err))
		rc = match_key(s, cert.buf, err);
	strbuf_release(&secret);
	strbuf_release(&cert);
	if (rc)
		pp_pgp_signer_release(s);
	return rc;
}

void pp_pgp_signer_release(struct pp_pgp_signer *s)
{
	EVP_PKEY_free(s->pkey);
	pp_pgp_keyring_release(&s->cert);
	memset(s, 0, sizeof(*s));
}

/* ---- certificates ---------------------------------------------------------- */

/* Key flags certify+sign, preferred hashes SHA-512/384/256, features MDC:
 * what sqv needs on a self-signature, and what gpg writes. */
static void self_sig_extras(struct strbuf *extra)
{
	static const unsigned char flags = PP_PGP_CAN_CERTIFY | PP_PGP_CAN_SIGN;
	static const unsigned char hashes[] = { PP_PGP_SHA512, PP_PGP_SHA384,
						PP_PGP_SHA256 };
	static const unsigned char features = 0x01;

	pgp_put_subpacket(extra, SP_KEY_FLAGS, &flags, 1);
	pgp_put_subpacket(extra, SP_PREF_HASH, hashes, sizeof(hashes));
	pgp_put_subpacket(extra, SP_FEATURES, &features, 1);
}

static int check_uid(const char *uid, struct pp_err *err)
{
	if (!*uid)
		return pp_err_set(err, PP_EXIT_USAGE, "the user ID is empty; "
				  "use e.g. \"Release Team <release@example.org>\"");
	for (const char *p = uid; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return pp_err_set(err, PP_EXIT_USAGE, "the user ID holds "
					  "a control character");
	return 0;
}

int pp_pgp_cert_build(EVP_PKEY *pkey, const char *uid, uint32_t created,
		      struct strbuf *out, struct pp_err *err)
{
	struct strbuf body = STRBUF_INIT, hashed = STRBUF_INIT;
	struct strbuf extra = STRBUF_INIT;
	struct pp_pgp_uid u = { (char *)uid, strlen(uid), 0, 0 };
	struct pp_pgp_key key;
	struct pgp_digest d;
	int rc = -1;

	if (check_uid(uid, err) < 0 || pgp_key_body(pkey, created, &body, err))
		goto out;
	if (pgp_key_parse(&key, (unsigned char *)body.buf, body.len, err))
		goto out;
	pgp_put_packet(out, 6, body.buf, body.len);
	pgp_put_packet(out, 13, uid, u.len);
	self_sig_extras(&extra);
	pgp_sig_hashed_part(&hashed, &key, PP_PGP_SIG_CERT_POSITIVE,
			    PP_PGP_SHA256, created, &extra);
	pgp_digest_init(&d, PP_PGP_SHA256, 0);
	pgp_digest_key(&d, &key);
	pgp_digest_uid(&d, u.text, u.len);
	rc = pgp_sig_make(pkey, &key, &d, &hashed, out, err);
	pgp_key_release(&key);
out:
	strbuf_release(&body);
	strbuf_release(&hashed);
	strbuf_release(&extra);
	return rc;
}

/* public.gpg (binary, for apt's Signed-By and gpgv) and public.asc. */
static int write_public(const char *dir, const struct strbuf *cert,
			struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT, asc = STRBUF_INIT;
	int rc;

	strbuf_addf(&path, "%s/%s", dir, PP_PGP_PUBLIC_FILE);
	rc = pp_write_file(path.buf, cert->buf, cert->len, 0644, err);
	pp_pgp_armor(&asc, "PUBLIC KEY BLOCK", cert->buf, cert->len);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/%s", dir, PP_PGP_ARMORED_FILE);
	if (!rc)
		rc = pp_write_file(path.buf, asc.buf, asc.len, 0644, err);
	strbuf_release(&path);
	strbuf_release(&asc);
	return rc;
}

static int refuse_existing(const char *dir, struct pp_err *err)
{
	struct strbuf secret = STRBUF_INIT;
	struct stat st;
	int rc = 0;

	strbuf_addf(&secret, "%s/%s", dir, PP_PGP_SECRET_FILE);
	if (lstat(secret.buf, &st) == 0)
		rc = pp_err_set(err, PP_EXIT_INPUT, "'%s' exists; padpack never "
				"replaces a secret key (move it away first, or "
				"choose another directory)", secret.buf);
	strbuf_release(&secret);
	return rc;
}

/* Writes a key directory; the secret key last, so a directory with a
 * secret key always has its certificate. */
int pgp_write_key_dir(const char *dir, EVP_PKEY *pkey,
		      const struct strbuf *cert, const char *passphrase,
		      struct pp_err *err)
{
	struct strbuf secret = STRBUF_INIT;
	int rc = -1;

	strbuf_addf(&secret, "%s/%s", dir, PP_PGP_SECRET_FILE);
	if (!refuse_existing(dir, err) && !pp_mkdir_p(dir, 0700, err) &&
	    !write_public(dir, cert, err))
		rc = write_secret(secret.buf, pkey, passphrase, err);
	strbuf_release(&secret);
	return rc;
}

static EVP_PKEY *new_key(const char *algo, struct pp_err *err)
{
	EVP_PKEY *pkey = NULL;

	if (!strcmp(algo, "ed25519"))
		pkey = EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");
	else if (!strcmp(algo, "rsa2048"))
		pkey = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048);
	else if (!strcmp(algo, "rsa3072"))
		pkey = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)3072);
	else if (!strcmp(algo, "rsa4096"))
		pkey = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)4096);
	else
		pp_err_set(err, PP_EXIT_USAGE, "unknown key algorithm '%s'; use "
			   "ed25519, rsa2048, rsa3072 or rsa4096", algo);
	if (!pkey && !err->code)
		pp_err_set(err, PP_EXIT_INPUT, "OpenSSL could not generate a "
			   "%s key", algo);
	return pkey;
}

int pp_pgp_key_generate(const char *dir, const char *uid, const char *algo,
			const char *passphrase, time_t now, struct pp_err *err)
{
	struct strbuf cert = STRBUF_INIT;
	EVP_PKEY *pkey;
	int rc = -1;

	if (check_uid(uid, err) < 0 || refuse_existing(dir, err) < 0)
		return -1;
	pkey = new_key(algo, err);
	if (pkey && !pp_pgp_cert_build(pkey, uid, (uint32_t)now, &cert, err))
		rc = pgp_write_key_dir(dir, pkey, &cert, passphrase, err);
	EVP_PKEY_free(pkey);
	strbuf_release(&cert);
	return rc;
}
