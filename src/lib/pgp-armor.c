/* ASCII armor (RFC 4880 6.2): base64 with a CRC-24 checksum between
 * BEGIN and END lines. Decoding is strict about the alphabet and the
 * checksum (gpg 2.2 refuses a wrong one) and lenient about line ends. */
#include <string.h>

#include "pgpint.h"

#define CRC24_INIT 0xB704CEu
#define CRC24_POLY 0x1864CFBu

uint32_t pp_pgp_crc24(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint32_t crc = CRC24_INIT;

	while (len--) {
		crc ^= (uint32_t)*p++ << 16;
		for (int i = 0; i < 8; i++) {
			crc <<= 1;
			if (crc & 0x1000000)
				crc ^= CRC24_POLY;
		}
	}
	return crc & 0xFFFFFF;
}

static const char b64[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Base64 with a line break after every 'line' characters (0: none). */
void pgp_base64(struct strbuf *out, const void *data, size_t len,
		size_t line)
{
	const unsigned char *p = data;
	size_t col = 0;

	for (size_t i = 0; i < len; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16;
		char q[4];

		if (i + 1 < len)
			v |= (uint32_t)p[i + 1] << 8;
		if (i + 2 < len)
			v |= p[i + 2];
		q[0] = b64[v >> 18];
		q[1] = b64[(v >> 12) & 63];
		q[2] = i + 1 < len ? b64[(v >> 6) & 63] : '=';
		q[3] = i + 2 < len ? b64[v & 63] : '=';
		strbuf_add(out, q, 4);
		col += 4;
		if (line && col >= line && i + 3 < len) {
			strbuf_addch(out, '\n');
			col = 0;
		}
	}
}

void pp_pgp_armor(struct strbuf *out, const char *label, const void *data,
		  size_t len)
{
	uint32_t crc = pp_pgp_crc24(data, len);
	unsigned char c[3] = { (unsigned char)(crc >> 16),
			       (unsigned char)(crc >> 8), (unsigned char)crc };

	strbuf_addf(out, "-----BEGIN PGP %s-----\n\n", label);
	pgp_base64(out, data, len, 64);
	if (len)
		strbuf_addch(out, '\n');
	strbuf_addch(out, '=');
	pgp_base64(out, c, 3, 0);
	strbuf_addf(out, "\n-----END PGP %s-----\n", label);
}

/* ---- decoding -------------------------------------------------------------- */

/* One line of text: [p, p + len) without its LF and trailing white space. */
struct line {
	const char *p;
	size_t len;
};

/* The next line without its LF and a CR before it; blanks are kept. */
static int raw_line(const char *data, size_t size, size_t *pos,
		    struct line *l)
{
	const char *nl;

	if (*pos >= size)
		return 0;
	l->p = data + *pos;
	nl = memchr(l->p, '\n', size - *pos);
	l->len = nl ? (size_t)(nl - l->p) : size - *pos;
	*pos += l->len + (nl ? 1 : 0);
	if (nl && l->len && l->p[l->len - 1] == '\r')
		l->len--;
	return 1;
}

static void rtrim(struct line *l)
{
	while (l->len && pgp_blank(l->p[l->len - 1]))
		l->len--;
}

static int next_line(const char *data, size_t size, size_t *pos,
		     struct line *l)
{
	if (!raw_line(data, size, pos, l))
		return 0;
	rtrim(l);
	return 1;
}

static int starts(const struct line *l, const char *prefix)
{
	size_t n = strlen(prefix);

	return l->len >= n && !memcmp(l->p, prefix, n);
}

int pp_pgp_is_armored(const void *data, size_t len)
{
	const char *p = data;

	while (len && (pgp_blank(*p) || *p == '\n')) {
		p++;
		len--;
	}
	return len >= 15 && !memcmp(p, "-----BEGIN PGP ", 15);
}

static int b64_value(int c)
{
	const char *at = c ? strchr(b64, c) : NULL;

	return at ? (int)(at - b64) : -1;
}

/* Decodes base64 text (no white space), padded or not. */
static int b64_decode(const char *s, size_t len, struct strbuf *out)
{
	uint32_t acc = 0;
	size_t pad = 0, bits = 0;

	while (pad < 2 && len > pad && s[len - 1 - pad] == '=')
		pad++;
	if ((pad && len % 4) || len % 4 == 1)
		return -1;
	for (size_t i = 0; i < len - pad; i++) {
		int v = b64_value((unsigned char)s[i]);

		if (v < 0)
			return -1;
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			strbuf_addch(out, (int)((acc >> bits) & 0xff));
		}
	}
	/* the left-over bits of the last group must be zero */
	return acc & ((1u << bits) - 1) ? -1 : 0;
}

static int armor_error(struct pp_err *err, const char *what)
{
	return pp_err_set(err, PP_EXIT_INPUT, "ASCII armor: %s", what);
}

/* Skips "Key: value" headers and the blank line after them; the first
 * body line is kept when a block has no blank line at all. */
static int skip_headers(const char *data, size_t size, size_t *pos,
			struct pp_err *err)
{
	struct line l;
	size_t at;
	int first = 1;

	for (;;) {
		at = *pos;
		if (!next_line(data, size, pos, &l))
			return armor_error(err, "no END line");
		if (!l.len)
			return 0;
		if (!memmem(l.p, l.len, ": ", 2)) {
			if (!first)
				return armor_error(err, "a header line without "
						   "': ' before the data");
			*pos = at;
			return 0;
		}
		first = 0;
	}
}

struct body {
	struct strbuf text;  /* base64 characters */
	int has_crc;
	uint32_t crc;
};

static int read_crc(const struct line *l, struct body *b, struct pp_err *err)
{
	struct strbuf c = STRBUF_INIT;
	int rc = 0;

	if (l->len != 5 || b64_decode(l->p + 1, 4, &c) < 0 || c.len != 3)
		rc = armor_error(err, "the checksum line is not '=' and four "
				 "base64 characters");
	else
		b->crc = (uint32_t)(unsigned char)c.buf[0] << 16 |
			 (uint32_t)(unsigned char)c.buf[1] << 8 |
			 (unsigned char)c.buf[2];
	b->has_crc = 1;
	strbuf_release(&c);
	return rc;
}

/* Collects the base64 lines and the checksum, up to the END line. */
static int read_body(const char *data, size_t size, size_t *pos,
		     const char *label, struct body *b, struct pp_err *err)
{
	struct line l;

	while (next_line(data, size, pos, &l)) {
		if (starts(&l, "-----END PGP ")) {
			if (l.len != 18 + strlen(label) ||
			    memcmp(l.p + 13, label, strlen(label)) ||
			    memcmp(l.p + l.len - 5, "-----", 5))
				return armor_error(err, "the END line does not "
						   "match the BEGIN line");
			return 0;
		}
		if (b->has_crc)
			return armor_error(err, "data after the checksum line");
		if (l.len && l.p[0] == '=') {
			if (read_crc(&l, b, err) < 0)
				return -1;
			continue;
		}
		strbuf_add(&b->text, l.p, l.len);
	}
	return armor_error(err, "no END line; the block is truncated");
}

static int begin_line(const char *data, size_t size, size_t *pos,
		      char label[64])
{
	struct line l;

	while (next_line(data, size, pos, &l)) {
		if (!starts(&l, "-----BEGIN PGP ") || l.len < 20 ||
		    memcmp(l.p + l.len - 5, "-----", 5))
			continue;
		if (l.len - 20 >= 64)
			continue;
		memcpy(label, l.p + 15, l.len - 20);
		label[l.len - 20] = '\0';
		return 1;
	}
	return 0;
}

static int decode_body(struct body *b, struct strbuf *out,
		       struct pp_err *err)
{
	size_t start = out->len;
	uint32_t crc;

	if (b64_decode(b->text.buf, b->text.len, out) < 0)
		return armor_error(err, "invalid base64 data");
	if (out->len == start)
		return armor_error(err, "the block holds no data");
	crc = pp_pgp_crc24(out->buf + start, out->len - start);
	if (b->has_crc && crc != b->crc)
		return pp_err_set(err, PP_EXIT_INPUT, "ASCII armor: checksum "
				  "mismatch (the block says %06X, its data gives "
				  "%06X); the data was damaged or altered",
				  (unsigned)b->crc, (unsigned)crc);
	return 0;
}

int pp_pgp_dearmor(const void *data, size_t len, size_t *pos,
		   char label[64], struct strbuf *out, struct pp_err *err)
{
	struct body b = { STRBUF_INIT, 0, 0 };
	int rc;

	if (!begin_line(data, len, pos, label))
		return 0;
	rc = skip_headers(data, len, pos, err);
	if (!rc)
		rc = read_body(data, len, pos, label, &b, err);
	if (!rc)
		rc = decode_body(&b, out, err);
	strbuf_release(&b.text);
	return rc < 0 ? -1 : 1;
}

/* ---- cleartext signature framework (RFC 4880 7) ---------------------------- */

/* Calls fn for each line of text without its line end (LF or CR LF); a
 * text that ends with a line end has no empty last line. */
static void each_line(const char *text, size_t len,
		      void (*fn)(const char *line, size_t n, void *ctx),
		      void *ctx)
{
	size_t pos = 0;

	while (pos < len) {
		const char *p = text + pos, *nl = memchr(p, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - p) : len - pos;

		pos += n + (nl ? 1 : 0);
		if (nl && n && p[n - 1] == '\r')
			n--;
		fn(p, n, ctx);
	}
}

struct canon {
	struct strbuf *out;
	int first;
};

/* The text a cleartext signature covers: trailing blanks removed from
 * every line, lines joined with CR LF, no line end after the last. */
static void add_canonical_line(const char *line, size_t n, void *ctx)
{
	struct canon *c = ctx;

	if (!c->first)
		strbuf_add(c->out, "\r\n", 2);
	c->first = 0;
	while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'))
		n--;
	strbuf_add(c->out, line, n);
}

void pgp_cleartext_canonical(const void *text, size_t len,
			     struct strbuf *out)
{
	struct canon c = { out, 1 };

	each_line(text, len, add_canonical_line, &c);
}

static void add_escaped(const char *line, size_t n, void *ctx)
{
	struct strbuf *out = ctx;

	if ((n && line[0] == '-') || (n >= 5 && !memcmp(line, "From ", 5)))
		strbuf_add(out, "- ", 2);
	strbuf_add(out, line, n);
	strbuf_addch(out, '\n');
}

void pgp_cleartext_write(struct strbuf *out, int md, const void *text,
			 size_t len, const struct strbuf *sig)
{
	strbuf_addf(out, "-----BEGIN PGP SIGNED MESSAGE-----\nHash: %s\n\n",
		    pp_pgp_md_name(md));
	each_line(text, len, add_escaped, out);
	pp_pgp_armor(out, "SIGNATURE", sig->buf, sig->len);
}

static int line_is(const struct line *l, const char *s)
{
	return l->len == strlen(s) && !memcmp(l->p, s, l->len);
}

static int clear_error(struct pp_err *err, const char *what)
{
	return pp_err_set(err, PP_EXIT_INPUT, "signed message: %s", what);
}

static int hash_header(const struct line *l, unsigned *mds,
		       struct pp_err *err)
{
	const char *p = l->p + 6, *end = l->p + l->len;

	if (!starts(l, "Hash: "))
		return pp_err_set(err, PP_EXIT_INPUT, "signed message: "
				  "unexpected header '%.*s' (only Hash is "
				  "allowed)", (int)(l->len > 80 ? 80 : l->len),
				  l->p);
	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *e = comma ? comma : end;
		char name[16] = "";
		int md;

		while (p < e && *p == ' ')
			p++;
		if ((size_t)(e - p) < sizeof(name))
			memcpy(name, p, (size_t)(e - p));
		md = pp_pgp_md_parse(name);
		if (md < 0)
			return pp_err_set(err, PP_EXIT_INPUT, "signed message: "
					  "unknown hash '%.*s' in the Hash "
					  "header", (int)(e - p > 40 ? 40 : e - p),
					  p);
		*mds |= 1u << md;
		p = comma ? comma + 1 : end;
	}
	return 0;
}

static int read_headers(const char *d, size_t len, size_t *pos,
			struct pgp_cleartext *ct, struct pp_err *err)
{
	struct line l;

	while (next_line(d, len, pos, &l)) {
		if (!l.len)
			return ct->mds ? 0 : clear_error(err, "no Hash header "
							 "names the digest");
		if (hash_header(&l, &ct->mds, err) < 0)
			return -1;
	}
	return clear_error(err, "no text follows the headers");
}

/* The signed text, up to the BEGIN PGP SIGNATURE line (*pos ends at it). */
static int read_text(const char *d, size_t len, size_t *pos,
		     struct pgp_cleartext *ct, struct pp_err *err)
{
	struct canon c = { &ct->canonical, 1 };
	unsigned no = 0;

	while (*pos < len) {
		size_t at = *pos;
		struct line raw, l;

		raw_line(d, len, pos, &raw);
		l = raw;
		rtrim(&l);
		no++;
		if (line_is(&l, "-----BEGIN PGP SIGNATURE-----")) {
			*pos = at;
			return 0;
		}
		if (raw.len && raw.p[0] == '-') {
			if (raw.len < 2 || raw.p[1] != ' ')
				return pp_err_set(err, PP_EXIT_INPUT, "signed "
						  "message: text line %u starts "
						  "with '-' but is not "
						  "dash-escaped", no);
			raw.p += 2;
			raw.len -= 2;
		}
		strbuf_add(&ct->text, raw.p, raw.len);
		strbuf_addch(&ct->text, '\n');
		add_canonical_line(raw.p, raw.len, &c);
	}
	return clear_error(err, "no BEGIN PGP SIGNATURE line; the message is "
			   "truncated");
}

static int read_signature(const char *d, size_t len, size_t *pos,
			  struct pgp_cleartext *ct, struct pp_err *err)
{
	char label[64];

	if (pp_pgp_dearmor(d, len, pos, label, &ct->sig, err) < 0)
		return -1;
	for (size_t i = *pos; i < len; i++)
		if (!pgp_blank(d[i]) && d[i] != '\n')
			return clear_error(err, "data after the END PGP "
					   "SIGNATURE line; refusing it, as apt "
					   "does");
	return 0;
}

int pgp_cleartext_parse(const void *data, size_t len,
			struct pgp_cleartext *ct, struct pp_err *err)
{
	static const char begin[] = "-----BEGIN PGP SIGNED MESSAGE-----";
	const char *d = data;
	size_t pos = 0;
	struct line l;

	ct->mds = 0;
	if (!next_line(d, len, &pos, &l) || !line_is(&l, begin)) {
		if (memmem(d, len, begin, sizeof(begin) - 1))
			return clear_error(err, "text before the BEGIN PGP "
					   "SIGNED MESSAGE line; refusing it, as "
					   "apt does");
		return 0;
	}
	if (read_headers(d, len, &pos, ct, err) < 0 ||
	    read_text(d, len, &pos, ct, err) < 0 ||
	    read_signature(d, len, &pos, ct, err) < 0)
		return -1;
	return 1;
}
