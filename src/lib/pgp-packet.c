/* OpenPGP packet framing, MPIs and subpackets (RFC 4880 4.2, 3.2, 5.2.3.1):
 * reading untrusted input with every length checked, and writing the forms
 * gpg 2.2 writes. */
#include <string.h>

#include "pgpint.h"

int pgp_get8(struct pgp_in *in, unsigned *v)
{
	if (in->n < 1)
		return -1;
	*v = in->p[0];
	in->p++;
	in->n--;
	return 0;
}

int pgp_get16(struct pgp_in *in, unsigned *v)
{
	if (in->n < 2)
		return -1;
	*v = (unsigned)in->p[0] << 8 | in->p[1];
	in->p += 2;
	in->n -= 2;
	return 0;
}

int pgp_get32(struct pgp_in *in, uint32_t *v)
{
	if (in->n < 4)
		return -1;
	*v = (uint32_t)in->p[0] << 24 | (uint32_t)in->p[1] << 16 |
	     (uint32_t)in->p[2] << 8 | in->p[3];
	in->p += 4;
	in->n -= 4;
	return 0;
}

int pgp_getn(struct pgp_in *in, size_t len, const unsigned char **out)
{
	if (in->n < len)
		return -1;
	*out = in->p;
	in->p += len;
	in->n -= len;
	return 0;
}

static unsigned bit_length(const unsigned char *val, size_t len)
{
	unsigned bits = (unsigned)len * 8;
	unsigned char top = len ? val[0] : 0;

	if (!len)
		return 0;
	for (unsigned char m = 0x80; m && !(top & m); m >>= 1)
		bits--;
	return bits;
}

int pgp_get_mpi(struct pgp_in *in, const unsigned char **val, size_t *len)
{
	struct pgp_in save = *in;
	unsigned bits;

	if (pgp_get16(in, &bits) < 0 ||
	    pgp_getn(in, (bits + 7) / 8, val) < 0)
		goto bad;
	if (!bits) {
		*in = save;
		return PGP_MPI_EMPTY;
	}
	*len = (bits + 7) / 8;
	if (bit_length(*val, *len) != bits)
		goto bad;
	return 0;
bad:
	*in = save;
	return -1;
}

/* ---- packets --------------------------------------------------------------- */

static int truncated(size_t at, int tag, struct pp_err *err)
{
	return pp_err_set(err, PP_EXIT_INPUT, "OpenPGP packet at offset %zu "
			  "(tag %d): its header is truncated", at, tag);
}

static int new_length(struct pgp_in *in, size_t at, int tag, size_t *len,
		      struct pp_err *err)
{
	unsigned o1, o2;
	uint32_t v;

	if (pgp_get8(in, &o1) < 0)
		return truncated(at, tag, err);
	if (o1 < 192) {
		*len = o1;
	} else if (o1 < 224) {
		if (pgp_get8(in, &o2) < 0)
			return truncated(at, tag, err);
		*len = ((o1 - 192) << 8) + o2 + 192;
	} else if (o1 == 255) {
		if (pgp_get32(in, &v) < 0)
			return truncated(at, tag, err);
		*len = v;
	} else {
		return pp_err_set(err, PP_EXIT_INPUT, "OpenPGP packet at offset "
				  "%zu (tag %d) has a partial body length, which "
				  "keys and signatures never use", at, tag);
	}
	return 0;
}

static int old_length(struct pgp_in *in, unsigned ctb, size_t at, int tag,
		      size_t *len, struct pp_err *err)
{
	unsigned v16;
	uint32_t v32;
	unsigned v8;

	switch (ctb & 3) {
	case 0:
		if (pgp_get8(in, &v8) < 0)
			return truncated(at, tag, err);
		*len = v8;
		return 0;
	case 1:
		if (pgp_get16(in, &v16) < 0)
			return truncated(at, tag, err);
		*len = v16;
		return 0;
	case 2:
		if (pgp_get32(in, &v32) < 0)
			return truncated(at, tag, err);
		*len = v32;
		return 0;
	}
	return pp_err_set(err, PP_EXIT_INPUT, "OpenPGP packet at offset %zu "
			  "(tag %d) has an indeterminate length, which keys and "
			  "signatures never use", at, tag);
}

int pgp_packet_next(const unsigned char *buf, size_t len, size_t *pos,
		    struct pgp_packet *pkt, struct pp_err *err)
{
	struct pgp_in in = { buf + *pos, len - *pos };
	unsigned ctb;
	size_t blen = 0;
	int rc;

	if (*pos >= len)
		return 0;
	pgp_get8(&in, &ctb);
	if (!(ctb & 0x80))
		return pp_err_set(err, PP_EXIT_INPUT, "octet 0x%02x at offset %zu "
				  "does not start an OpenPGP packet", ctb, *pos);
	pkt->tag = ctb & 0x40 ? (int)(ctb & 0x3f) : (int)((ctb >> 2) & 0x0f);
	pkt->offset = *pos;
	rc = ctb & 0x40 ? new_length(&in, *pos, pkt->tag, &blen, err) :
		old_length(&in, ctb, *pos, pkt->tag, &blen, err);
	if (rc < 0)
		return -1;
	if (pkt->tag == 0)
		return pp_err_set(err, PP_EXIT_INPUT, "OpenPGP packet at offset "
				  "%zu has the reserved tag 0", *pos);
	if (blen > in.n)
		return pp_err_set(err, PP_EXIT_INPUT, "OpenPGP packet at offset "
				  "%zu (tag %d) declares %zu octets but only %zu "
				  "remain; it is truncated", *pos, pkt->tag, blen,
				  in.n);
	pkt->body = in.p;
	pkt->len = blen;
	*pos = (size_t)(in.p - buf) + blen;
	return 1;
}

/* ---- subpackets ------------------------------------------------------------ */

int pgp_subpacket_next(struct pgp_in *area, struct pgp_subpacket *sp)
{
	unsigned o1, o2, type;
	uint32_t len;

	if (!area->n)
		return 0;
	if (pgp_get8(area, &o1) < 0)
		return -1;
	if (o1 < 192) {
		len = o1;
	} else if (o1 < 255) {
		if (pgp_get8(area, &o2) < 0)
			return -1;
		len = ((o1 - 192) << 8) + o2 + 192;
	} else if (pgp_get32(area, &len) < 0) {
		return -1;
	}
	if (len < 1 || len > area->n || pgp_get8(area, &type) < 0)
		return -1;
	sp->critical = !!(type & 0x80);
	sp->type = (int)(type & 0x7f);
	sp->len = len - 1;
	return pgp_getn(area, sp->len, &sp->data) < 0 ? -1 : 1;
}

/* ---- writing --------------------------------------------------------------- */

void pgp_put16(struct strbuf *out, unsigned v)
{
	unsigned char b[2] = { (unsigned char)(v >> 8), (unsigned char)v };

	strbuf_add(out, b, 2);
}

void pgp_put32(struct strbuf *out, uint32_t v)
{
	unsigned char b[4] = { (unsigned char)(v >> 24),
			       (unsigned char)(v >> 16),
			       (unsigned char)(v >> 8), (unsigned char)v };

	strbuf_add(out, b, 4);
}

/* New format, for tags old headers cannot hold (a user attribute, 17). */
static void put_new_header(struct strbuf *out, int tag, size_t len)
{
	strbuf_addch(out, 0xc0 | tag);
	if (len < 192) {
		strbuf_addch(out, (int)len);
	} else if (len < 8384) {
		strbuf_addch(out, (int)(((len - 192) >> 8) + 192));
		strbuf_addch(out, (int)((len - 192) & 0xff));
	} else {
		strbuf_addch(out, 0xff);
		pgp_put32(out, (uint32_t)len);
	}
}

void pgp_put_packet(struct strbuf *out, int tag, const void *body,
		    size_t len)
{
	unsigned ctb = 0x80 | (unsigned)tag << 2;

	if (tag > 15) {
		put_new_header(out, tag, len);
	} else if (len < 256) {
		strbuf_addch(out, (int)ctb);
		strbuf_addch(out, (int)len);
	} else if (len < 65536) {
		strbuf_addch(out, (int)(ctb | 1));
		pgp_put16(out, (unsigned)len);
	} else {
		strbuf_addch(out, (int)(ctb | 2));
		pgp_put32(out, (uint32_t)len);
	}
	strbuf_add(out, body, len);
}

void pgp_put_mpi(struct strbuf *out, const unsigned char *val, size_t len)
{
	while (len && !val[0]) {
		val++;
		len--;
	}
	pgp_put16(out, bit_length(val, len));
	strbuf_add(out, val, len);
}

void pgp_put_subpacket(struct strbuf *out, int type, const void *data,
		       size_t len)
{
	size_t n = len + 1;

	if (n < 192) {
		strbuf_addch(out, (int)n);
	} else if (n < 8384) {
		strbuf_addch(out, (int)(((n - 192) >> 8) + 192));
		strbuf_addch(out, (int)((n - 192) & 0xff));
	} else {
		strbuf_addch(out, 0xff);
		pgp_put32(out, (uint32_t)n);
	}
	strbuf_addch(out, type);
	strbuf_add(out, data, len);
}
