/* OpenPGP: the worked example of formats.md 5.11 byte for byte, armor,
 * cleartext framing, and the strictness of the packet reader. */
#include "../../src/lib/pgpint.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>

#include <openssl/evp.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define VEC_CREATED 1700000000u
#define VEC_SIGNED 1700000100u
#define VEC_UID "Test Vector <tv@example.org>"

static const char vec_key_body[] =
	"046553f10016092b06010401da470f01010740"
	"03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8";
static const char vec_sig_packet[] =
	"887504001608001d1621040550f45f55746ceca3e8ae97f7a32568e2019652"
	"05026553f164000a0910f7a32568e2019652d248"
	"0100adfdcaac21a0c77092082b9108417978b6c7516ebf1d64f81b766eb283d11e7a"
	"00ff687061f9c3d23b99f305e35f86869208046ed8b0a09fc6707aa9c5bf10bc960b";
static const char vec_sig_armored[] =
	"-----BEGIN PGP SIGNATURE-----\n\n"
	"iHUEABYIAB0WIQQFUPRfVXRs7KPorpf3oyVo4gGWUgUCZVPxZAAKCRD3oyVo4gGW\n"
	"UtJIAQCt/cqsIaDHcJIIK5EIQXl4tsdRbr8dZPgbdm6yg9EeegD/aHBh+cPSO5nz\n"
	"BeNfhoaSCARu2LCgn8ZweqnFvxC8lgs=\n"
	"=Ux5U\n"
	"-----END PGP SIGNATURE-----\n";
static const char vec_cert_armored[] =
	"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n"
	"xjMEZVPxABYJKwYBBAHaRw8BAQdAA6EHv/POEL4dcN0Y50vAmWfk1jCbpQ1fHdyG\n"
	"ZBJVMbjNHFRlc3QgVmVjdG9yIDx0dkBleGFtcGxlLm9yZz7CgAQTFggAKBYhBAVQ\n"
	"9F9VdGzso+iul/ejJWjiAZZSBQJlU/EAAhsDBBUKCQgCHgEACgkQ96MlaOIBllK4\n"
	"MwEAvucoygYrbKc6DmXX9pdDMiWPRG/DxFIKbamU6n6/r1gBAIDA5epEOdIUxZFB\n"
	"DcBNBMET0O226l28P/CWMhQJbJIB\n"
	"=+lb+\n"
	"-----END PGP PUBLIC KEY BLOCK-----\n";

static void unhex(const char *hex, struct strbuf *out)
{
	for (; hex[0] && hex[1]; hex += 2) {
		unsigned v;

		sscanf(hex, "%2x", &v);
		strbuf_addch(out, (int)v);
	}
}

static EVP_PKEY *vector_pkey(void)
{
	unsigned char seed[32];

	for (int i = 0; i < 32; i++)
		seed[i] = (unsigned char)i;
	return EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed, 32);
}

/* A signer for the test vector key, certificate made by padpack. */
static int vector_signer(struct pp_pgp_signer *s, struct pp_err *err)
{
	struct strbuf cert = STRBUF_INIT;
	int rc;

	memset(s, 0, sizeof(*s));
	s->pkey = vector_pkey();
	rc = pp_pgp_cert_build(s->pkey, VEC_UID, VEC_CREATED, &cert, err);
	if (!rc)
		rc = pp_pgp_keyring_add(&s->cert, cert.buf, cert.len, "vector",
					err);
	if (!rc) {
		s->c = &s->cert.certs[0];
		s->key = &s->c->primary;
	}
	strbuf_release(&cert);
	return rc;
}

static void crc24_values(struct t_ctx *t)
{
	struct strbuf sig = STRBUF_INIT;

	CHECK_INT(pp_pgp_crc24("", 0), 0xB704CE);
	unhex(vec_sig_packet, &sig);
	CHECK_INT(pp_pgp_crc24(sig.buf, sig.len), 0x531E54); /* "=Ux5U" */
	strbuf_release(&sig);
}

static void vector_key(struct t_ctx *t)
{
	struct strbuf body = STRBUF_INIT, want = STRBUF_INIT;
	EVP_PKEY *pkey = vector_pkey();
	struct pp_pgp_key k;
	struct pp_err err;
	char hex[41];

	pp_err_init(&err);
	CHECK(!pgp_key_body(pkey, VEC_CREATED, &body, &err));
	unhex(vec_key_body, &want);
	CHECK(body.len == want.len && !memcmp(body.buf, want.buf, body.len));
	CHECK(!pgp_key_parse(&k, (unsigned char *)body.buf, body.len, &err));
	pp_pgp_hex(k.fpr, PP_PGP_FPR_LEN, hex);
	CHECK_STR(hex, "0550F45F55746CECA3E8AE97F7A32568E2019652");
	pp_pgp_hex(k.keyid, PP_PGP_KEYID_LEN, hex);
	CHECK_STR(hex, "F7A32568E2019652");
	CHECK_INT(k.bits, 255);
	CHECK_STR(k.curve, "ed25519");
	pgp_key_release(&k);
	EVP_PKEY_free(pkey);
	strbuf_release(&body);
	strbuf_release(&want);
	pp_err_release(&err);
}

static void vector_signature(struct t_ctx *t)
{
	struct pp_pgp_sign_opts o = { PP_PGP_SHA256, VEC_SIGNED };
	struct strbuf sig = STRBUF_INIT, want = STRBUF_INIT;
	struct strbuf armored = STRBUF_INIT;
	struct pp_pgp_signer s;
	struct pp_err err;

	pp_err_init(&err);
	CHECK(!vector_signer(&s, &err));
	CHECK(!pp_pgp_detach_sign(&s, "hello\n", 6, &o, 0, &sig, &err));
	unhex(vec_sig_packet, &want);
	CHECK(sig.len == want.len && !memcmp(sig.buf, want.buf, sig.len));
	CHECK(!pp_pgp_detach_sign(&s, "hello\n", 6, &o, 1, &armored, &err));
	CHECK_STR(armored.buf, vec_sig_armored);
	pp_pgp_signer_release(&s);
	strbuf_release(&sig);
	strbuf_release(&want);
	strbuf_release(&armored);
	pp_err_release(&err);
}

/* padpack writes old-format headers (as gpg 2.2); the vector certificate
 * has new-format ones: the packet bodies must be the same. */
static void vector_certificate(struct t_ctx *t)
{
	struct strbuf mine = STRBUF_INIT, theirs = STRBUF_INIT;
	struct pgp_packet a, b;
	size_t pa = 0, pb = 0, pos = 0;
	EVP_PKEY *pkey = vector_pkey();
	struct pp_err err;
	char label[64];
	int n = 0;

	pp_err_init(&err);
	CHECK(!pp_pgp_cert_build(pkey, VEC_UID, VEC_CREATED, &mine, &err));
	CHECK(pp_pgp_dearmor(vec_cert_armored, sizeof(vec_cert_armored) - 1,
			     &pos, label, &theirs, &err) == 1);
	CHECK_STR(label, "PUBLIC KEY BLOCK");
	while (pgp_packet_next((unsigned char *)mine.buf, mine.len, &pa, &a,
			       &err) == 1 &&
	       pgp_packet_next((unsigned char *)theirs.buf, theirs.len, &pb, &b,
			       &err) == 1) {
		CHECK_INT(a.tag, b.tag);
		CHECK(a.len == b.len && !memcmp(a.body, b.body, a.len));
		n++;
	}
	CHECK_INT(n, 3);
	CHECK(pa == mine.len && pb == theirs.len);
	EVP_PKEY_free(pkey);
	strbuf_release(&mine);
	strbuf_release(&theirs);
	pp_err_release(&err);
}

static void vector_verify(struct t_ctx *t)
{
	struct pp_pgp_keyring kr;
	struct pp_pgp_verdict v;
	struct pp_err err;

	pp_err_init(&err);
	pp_pgp_keyring_init(&kr);
	CHECK(!pp_pgp_keyring_add(&kr, vec_cert_armored,
				  sizeof(vec_cert_armored) - 1, "cert", &err));
	CHECK(kr.nr == 1 && kr.certs[0].primary.bound);
	CHECK_INT(kr.certs[0].primary.flags, 3);
	CHECK_STR(pp_pgp_cert_uid(&kr.certs[0]), VEC_UID);
	CHECK(!pp_pgp_verify_detached(&kr, "hello\n", 6, vec_sig_armored,
				      sizeof(vec_sig_armored) - 1,
				      VEC_SIGNED + 100, &v, &err));
	CHECK_INT(v.created, VEC_SIGNED);
	CHECK(v.key == &kr.certs[0].primary);
	CHECK(pp_pgp_verify_detached(&kr, "hellp\n", 6, vec_sig_armored,
				     sizeof(vec_sig_armored) - 1,
				     VEC_SIGNED + 100, &v, &err) < 0);
	CHECK_INT(err.code, PP_EXIT_BADSIG);
	/* the signature is in the future of this clock */
	CHECK(pp_pgp_verify_detached(&kr, "hello\n", 6, vec_sig_armored,
				     sizeof(vec_sig_armored) - 1,
				     VEC_SIGNED - 1, &v, &err) < 0);
	CHECK(strstr(err.msg, "future") != NULL);
	pp_pgp_keyring_release(&kr);
	pp_err_release(&err);
}

static void armor_round_trip(struct t_ctx *t)
{
	unsigned char data[200];
	struct pp_err err;

	pp_err_init(&err);
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i * 37 + 11);
	for (size_t n = 1; n <= sizeof(data); n += 7) {
		struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
		size_t pos = 0;
		char label[64];

		pp_pgp_armor(&a, "SIGNATURE", data, n);
		CHECK(pp_pgp_dearmor(a.buf, a.len, &pos, label, &b, &err) == 1);
		CHECK(b.len == n && !memcmp(b.buf, data, n));
		CHECK(pos == a.len);
		strbuf_release(&a);
		strbuf_release(&b);
	}
	pp_err_release(&err);
}

static void armor_damage(struct t_ctx *t)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	struct pp_err err;
	size_t pos = 0;
	char label[64];
	char *crc;

	pp_err_init(&err);
	strbuf_addstr(&a, vec_sig_armored);
	crc = strstr(a.buf, "=Ux5U");
	crc[4] = 'V';
	CHECK(pp_pgp_dearmor(a.buf, a.len, &pos, label, &b, &err) < 0);
	CHECK(strstr(err.msg, "checksum mismatch") != NULL);
	strbuf_reset(&a);
	strbuf_addstr(&a, vec_sig_armored);
	a.buf[40] = '*'; /* not base64 */
	pos = 0;
	CHECK(pp_pgp_dearmor(a.buf, a.len, &pos, label, &b, &err) < 0);
	strbuf_setlen(&a, a.len - 10); /* no END line */
	pos = 0;
	CHECK(pp_pgp_dearmor(a.buf, a.len, &pos, label, &b, &err) < 0);
	strbuf_release(&a);
	strbuf_release(&b);
	pp_err_release(&err);
}

static void clearsign_round_trip(struct t_ctx *t)
{
	static const char text[] = "Origin: padpack\n-dash line\nFrom here\n"
				   "trailing blanks  \t\n\nlast\n";
	struct pp_pgp_sign_opts o = { PP_PGP_SHA512, VEC_SIGNED };
	struct strbuf signed_ = STRBUF_INIT, back = STRBUF_INIT;
	struct pp_pgp_signer s;
	struct pp_pgp_verdict v;
	struct pp_err err;

	pp_err_init(&err);
	CHECK(!vector_signer(&s, &err));
	CHECK(!pp_pgp_clearsign(&s, text, sizeof(text) - 1, &o, &signed_,
				&err));
	CHECK(strstr(signed_.buf, "\nHash: SHA512\n\nOrigin") != NULL);
	CHECK(strstr(signed_.buf, "\n- -dash line\n- From here\n") != NULL);
	CHECK(!pp_pgp_verify_clearsigned(&s.cert, signed_.buf, signed_.len,
					 VEC_SIGNED, &v, &back, &err));
	CHECK_STR(back.buf, text);
	/* a changed trailing blank is not covered; a changed word is */
	strstr(signed_.buf, "last")[0] = 'L';
	CHECK(pp_pgp_verify_clearsigned(&s.cert, signed_.buf, signed_.len,
					VEC_SIGNED, &v, NULL, &err) < 0);
	CHECK_INT(err.code, PP_EXIT_BADSIG);
	CHECK(pp_pgp_verify_clearsigned(&s.cert, text, sizeof(text) - 1,
					VEC_SIGNED, &v, NULL, &err) < 0);
	CHECK_INT(err.code, PP_EXIT_UNSIGNED);
	pp_pgp_signer_release(&s);
	strbuf_release(&signed_);
	strbuf_release(&back);
	pp_err_release(&err);
}

static void mpi_strict(struct t_ctx *t)
{
	static const unsigned char good[] = { 0x00, 0x09, 0x01, 0xff };
	static const unsigned char padded[] = { 0x00, 0x10, 0x00, 0xff };
	static const unsigned char short_[] = { 0x01, 0x00, 0x80 };
	static const unsigned char empty[] = { 0x00, 0x00 };
	struct pgp_in in = { good, sizeof(good) };
	const unsigned char *v;
	size_t len;

	CHECK(!pgp_get_mpi(&in, &v, &len) && len == 2 && in.n == 0);
	in = (struct pgp_in){ padded, sizeof(padded) };
	CHECK(pgp_get_mpi(&in, &v, &len) < 0 && in.n == sizeof(padded));
	in = (struct pgp_in){ short_, sizeof(short_) };
	CHECK(pgp_get_mpi(&in, &v, &len) < 0);
	in = (struct pgp_in){ empty, sizeof(empty) };
	CHECK(pgp_get_mpi(&in, &v, &len) == PGP_MPI_EMPTY && in.n == 2);
}

/* Key packets of versions padpack does not read, and key material with an
 * MPI of zero length, are refused saying so. */
static void key_refusals(struct t_ctx *t)
{
	static const unsigned char empty_n[] = { 4, 0x5f, 0, 0, 0, 1,
						 0x00, 0x00,
						 0x00, 0x11, 0x01, 0x00, 0x01 };
	static const unsigned char empty_e[] = { 4, 0x5f, 0, 0, 0, 1,
						 0x00, 0x09, 0x01, 0xff,
						 0x00, 0x00 };
	unsigned char versioned[] = { 0, 0x5f, 0, 0, 0, 1, 0x00, 0x09, 0x01,
				      0xff, 0x00, 0x11, 0x01, 0x00, 0x01 };
	static const unsigned char versions[] = { 2, 3, 5, 6, 7 };
	struct pp_pgp_key k;
	struct pp_err err;
	char want[64];

	pp_err_init(&err);
	for (size_t i = 0; i < ARRAY_LEN(versions); i++) {
		versioned[0] = versions[i];
		snprintf(want, sizeof(want), "key version %d is not supported "
			 "(only v4)", versions[i]);
		CHECK(pgp_key_parse(&k, versioned, sizeof(versioned), &err) < 0);
		CHECK(strstr(err.msg, want) != NULL);
	}
	versioned[0] = 4;
	CHECK(!pgp_key_parse(&k, versioned, sizeof(versioned), &err));
	pgp_key_release(&k);
	CHECK(pgp_key_parse(&k, empty_n, sizeof(empty_n), &err) < 0);
	CHECK(strstr(err.msg, "MPI of zero length in the RSA key") != NULL);
	CHECK(pgp_key_parse(&k, empty_e, sizeof(empty_e), &err) < 0);
	CHECK(strstr(err.msg, "MPI of zero length in the RSA key") != NULL);
	pp_err_release(&err);
}

static void packet_lengths(struct t_ctx *t)
{
	static const unsigned char two[] = { 0xc2, 0xc0, 0x00 }; /* 192 */
	static const unsigned char five[] = { 0xcd, 0xff, 0, 0, 0, 1, 'x' };
	static const unsigned char partial[] = { 0xcb, 0xe1, 'a', 'b' };
	static const unsigned char huge[] = { 0x89, 0xff, 0xff, 0x00 };
	unsigned char buf[200] = { 0 };
	struct pgp_packet p;
	struct pp_err err;
	size_t pos = 0;

	pp_err_init(&err);
	memcpy(buf, two, sizeof(two));
	CHECK(pgp_packet_next(buf, 3 + 192, &pos, &p, &err) == 1);
	CHECK(p.tag == 2 && p.len == 192 && pos == 195);
	CHECK(pgp_packet_next(buf, 3 + 191, &(size_t){ 0 }, &p, &err) < 0);
	pos = 0;
	CHECK(pgp_packet_next(five, sizeof(five), &pos, &p, &err) == 1);
	CHECK(p.tag == 13 && p.len == 1 && p.body[0] == 'x');
	pos = 0;
	CHECK(pgp_packet_next(partial, sizeof(partial), &pos, &p, &err) < 0);
	CHECK(strstr(err.msg, "partial") != NULL);
	pos = 0;
	CHECK(pgp_packet_next(huge, sizeof(huge), &pos, &p, &err) < 0);
	CHECK(strstr(err.msg, "truncated") != NULL);
	pp_err_release(&err);
}

/* What the writer frames, the reader reads back: every length form, and
 * tags above 15 (a user attribute) in a new-format header. */
static void packet_round_trip(struct t_ctx *t)
{
	static const size_t lens[] = { 0, 191, 192, 255, 256, 8383, 8384,
				       65535, 65536, 70000 };
	static const int tags[] = { 2, 6, 13, 14, 17 };
	unsigned char *body = calloc(1, 70000);
	struct pp_err err;

	pp_err_init(&err);
	for (size_t i = 0; i < ARRAY_LEN(tags); i++)
		for (size_t j = 0; j < ARRAY_LEN(lens); j++) {
			struct strbuf sb = STRBUF_INIT;
			struct pgp_packet p;
			size_t pos = 0;

			body[0] = (unsigned char)j;
			pgp_put_packet(&sb, tags[i], body, lens[j]);
			CHECK(pgp_packet_next((unsigned char *)sb.buf, sb.len,
					      &pos, &p, &err) == 1);
			CHECK_INT(p.tag, tags[i]);
			CHECK_INT(p.len, lens[j]);
			CHECK(pos == sb.len);
			strbuf_release(&sb);
		}
	free(body);
	pp_err_release(&err);
}

T_SUITE(pgp_tests) = {
	{ "pgp CRC-24", crc24_values },
	{ "pgp 5.11 key packet and fingerprint", vector_key },
	{ "pgp 5.11 signature byte for byte", vector_signature },
	{ "pgp 5.11 certificate packets", vector_certificate },
	{ "pgp 5.11 verification", vector_verify },
	{ "pgp armor round trip", armor_round_trip },
	{ "pgp armor damage refused", armor_damage },
	{ "pgp clearsign round trip", clearsign_round_trip },
	{ "pgp MPIs must be minimal", mpi_strict },
	{ "pgp key versions and empty MPIs refused", key_refusals },
	{ "pgp packet lengths", packet_lengths },
	{ "pgp packets written read back", packet_round_trip },
	T_END,
};
