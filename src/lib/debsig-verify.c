/* Checking a .deb's origin signature and, in the same read, its files
 * against md5sums (debsig.h). */
#include "debsig.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "hash.h"
#include "progress.h"
#include "xalloc.h"

#define SIG_MAX (1u << 20) /* no real signature comes near this */

/* ---- the files of data.tar ------------------------------------------------- */

struct file_sum {
	char *path;          /* as md5sums names it: no "./" */
	char *link;          /* hard link target, or NULL */
	char hex[33];        /* MD5 of the content */
	size_t order;        /* later entries of a path win, as on unpack */
	int listed;          /* named by md5sums */
};

/* What a slot of a byte pipe (below) holds. */
enum { PIPE_DATA, PIPE_BEGIN, PIPE_END };

struct byte_pipe;

struct content {
	struct file_sum *f;
	size_t nr, alloc;
	struct pp_hash md5;
	int hashing;
	/* Files are hashed here or on the MD5 lane, which takes them while
	 * it keeps up: the MD5s are most of a verify's work. */
	struct byte_pipe *lane;
	int on_lane;             /* the current file goes to the lane */
};

/* The lane is keeping up while less than this waits for it: with the
 * signature's thread there are three threads on two cores here, and the
 * lane taking files up to 3 of its 4 MiB evens them out best (measured). */
#define LANE_BACKLOG (3u << 20)

static void pipe_put(struct byte_pipe *p, int tag, const void *buf,
		     size_t len);
static int lane_running(const struct byte_pipe *p);
static void pipe_flush(struct byte_pipe *p);
static size_t pipe_backlog(struct byte_pipe *p);

static char *md5sums_path(const char *p)
{
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	while (*p == '/')
		p++;
	return xstrdup(p);
}

static int on_entry(const struct pp_tar_entry *e, void *ctx,
		    struct pp_err *err)
{
	struct content *c = ctx;
	struct file_sum *f;

	(void)err;
	if (!S_ISREG(e->mode) && !e->hardlink)
		return 0;
	ARRAY_GROW(c->f, c->alloc, c->nr + 1);
	f = &c->f[c->nr];
	memset(f, 0, sizeof(*f));
	f->path = md5sums_path(e->path);
	f->link = e->hardlink ? md5sums_path(e->hardlink) : NULL;
	f->order = c->nr++;
	if (e->hardlink)
		return 0;
	/* The lane takes the file while it keeps up; else it is hashed
	 * here, the lane's slot handed over first so that it has work. */
	c->on_lane = lane_running(c->lane) &&
		     pipe_backlog(c->lane) < LANE_BACKLOG;
	if (c->on_lane) {
		pipe_put(c->lane, PIPE_BEGIN, NULL, f->order);
	} else {
		if (lane_running(c->lane))
			pipe_flush(c->lane);
		pp_hash_init(&c->md5, PP_MD5);
		c->hashing = 1;
	}
	return 0;
}

static int on_data(const void *buf, size_t len, void *ctx,
		   struct pp_err *err)
{
	struct content *c = ctx;

	(void)err;
	if (c->on_lane) {
		pipe_put(c->lane, buf ? PIPE_DATA : PIPE_END, buf,
			 buf ? len : c->nr - 1);
	} else if (buf) {
		pp_hash_update(&c->md5, buf, len);
	} else {
		pp_hash_final_hex(&c->md5, c->f[c->nr - 1].hex);
		c->hashing = 0;
	}
	return 0;
}

static int cmp_path(const void *a, const void *b)
{
	const struct file_sum *x = a, *y = b;
	int r = strcmp(x->path, y->path);

	return r ? r : (x->order > y->order) - (x->order < y->order);
}

static struct file_sum *find(struct content *c, const char *path)
{
	struct file_sum key = { (char *)path, NULL, "", 0, 0 };

	if (!c->nr) /* c->f is NULL: bsearch must not be given it */
		return NULL;
	return bsearch(&key, c->f, c->nr, sizeof(*c->f), cmp_path);
}

/* Sorts by path, keeps the last entry of each, and gives hard links the
 * digest of their target. */
static void settle(struct content *c)
{
	size_t keep = 0;

	if (c->nr) /* no files: c->f is NULL, which qsort must not get */
		qsort(c->f, c->nr, sizeof(*c->f), cmp_path);
	for (size_t i = 0; i < c->nr; i++) {
		if (i + 1 < c->nr && !strcmp(c->f[i].path, c->f[i + 1].path)) {
			free(c->f[i].path);
			free(c->f[i].link);
			continue;
		}
		c->f[keep] = c->f[i];
		c->f[keep++].order = 0; /* one per path now */
	}
	c->nr = keep;
	for (size_t i = 0; i < c->nr; i++) {
		const struct file_sum *t;

		if (!c->f[i].link)
			continue;
		t = find(c, c->f[i].link);
		if (t && !t->link)
			memcpy(c->f[i].hex, t->hex, sizeof(t->hex));
	}
}

static void content_release(struct content *c)
{
	if (c->hashing) {
		unsigned char scratch[PP_HASH_MAX];

		pp_hash_final(&c->md5, scratch);
	}
	for (size_t i = 0; i < c->nr; i++) {
		free(c->f[i].path);
		free(c->f[i].link);
	}
	free(c->f);
}

/* ---- md5sums --------------------------------------------------------------- */

static void add_bad(struct pp_debsig_report *rep, const char *path)
{
	ARRAY_GROW(rep->bad, rep->alloc_bad, rep->nr_bad + 1);
	rep->bad[rep->nr_bad++] = xstrdup(path);
}

static int is_hex32(const char *p)
{
	for (int i = 0; i < 32; i++)
		if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
			return 0;
	return 1;
}

/* "<md5>  <path>" (or " *<path>") per line. */
static int compare_line(struct content *c, const char *line, size_t len,
			unsigned no, struct pp_debsig_report *rep,
			struct pp_err *err)
{
	char *path;
	struct file_sum *f;

	if (len < 35 || !is_hex32(line) || line[32] != ' ' ||
	    (line[33] != ' ' && line[33] != '*'))
		return pp_err_set(err, PP_EXIT_INPUT, "md5sums line %u is not "
				  "'<md5>  <path>'; the package is malformed",
				  no);
	path = xstrndup(line + 34, len - 34);
	f = find(c, path);
	if (f)
		f->listed = 1;
	if (!f || strncasecmp(f->hex, line, 32))
		add_bad(rep, path);
	free(path);
	return 0;
}

static int compare_md5sums(struct content *c, const struct strbuf *sums,
			   struct pp_debsig_report *rep, struct pp_err *err)
{
	const char *p = sums->buf, *end = sums->buf + sums->len;
	unsigned no = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		no++;
		if (len && compare_line(c, p, len, no, rep, err) < 0)
			return -1;
		p += len + 1;
	}
	rep->files = c->nr;
	for (size_t i = 0; i < c->nr; i++)
		rep->checked += (size_t)c->f[i].listed;
	rep->unlisted = rep->files - rep->checked;
	return 0;
}

/* ---- hashing on other threads ---------------------------------------------- */

/* The raw bytes are hashed for the signature on one thread and part of the
 * files' MD5s on another, beside the decompression and the other MD5s: a
 * verify takes about the time of its hashing shared over the cores. The
 * tap's buffer is only valid during the call, so the bytes are copied into
 * a ring of slots. A slot holds records, each a header (what it is and a
 * length) and, for data, the bytes: where a file begins and ends travels
 * with the data, and each wake-up of the consumer is worth a slot. */
#define PIPE_SLOTS 16 /* at most: the lane's; the signature's takes 4 */
#define PIPE_SLOT (256u << 10)
/* Data is not started in a slot with less room than this: a header for a
 * few bytes is not worth it. */
#define PIPE_MIN_DATA 4096u
/* A package whose members hold less than this is hashed on the reading
 * thread: starting two threads and their rings (5 MiB, prefaulted) costs
 * more than the hashing they would share. */
#define PIPE_THREADED_MIN (1u << 20)

typedef void (*pipe_consume_fn)(void *ctx, int tag, const unsigned char *buf,
				size_t len);

struct pipe_record {
	uint32_t tag;
	uint32_t len; /* of the data that follows, or the mark's value */
};

struct byte_pipe {
	pipe_consume_fn consume;
	void *ctx;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t more, room;
	unsigned char *slots;           /* nslots * PIPE_SLOT */
	size_t used[PIPE_SLOTS];        /* bytes of records in each slot */
	size_t nslots;                  /* slots in the ring, <= PIPE_SLOTS */
	size_t head, tail;              /* published: tail .. head - 1 */
	size_t fill;                    /* bytes in the open slot, head's */
	int done, running;
};

static void consume_slot(struct byte_pipe *p, const unsigned char *s,
			 size_t used)
{
	size_t pos = 0;

	while (pos + sizeof(struct pipe_record) <= used) {
		struct pipe_record r;

		memcpy(&r, s + pos, sizeof(r));
		pos += sizeof(r);
		if (r.tag == PIPE_DATA) {
			p->consume(p->ctx, PIPE_DATA, s + pos, r.len);
			pos += r.len;
		} else {
			p->consume(p->ctx, (int)r.tag, NULL, r.len);
		}
	}
}

static void *pipe_main(void *arg)
{
	struct byte_pipe *p = arg;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		size_t slot;

		while (p->head == p->tail && !p->done)
			pthread_cond_wait(&p->more, &p->lock);
		if (p->head == p->tail)
			break;
		slot = p->tail % p->nslots;
		pthread_mutex_unlock(&p->lock);
		consume_slot(p, p->slots + slot * PIPE_SLOT, p->used[slot]);
		pthread_mutex_lock(&p->lock);
		p->tail++;
		pthread_cond_signal(&p->room);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* Hands the open slot, if it holds anything, to the consumer. */
static void pipe_flush(struct byte_pipe *p)
{
	if (!p->running || !p->fill)
		return;
	pthread_mutex_lock(&p->lock);
	p->used[p->head % p->nslots] = p->fill;
	p->head++;
	pthread_cond_signal(&p->more);
	pthread_mutex_unlock(&p->lock);
	p->fill = 0;
}

/* Room in the open slot for a record of at least need bytes (a header and
 * some data): flushes a fuller one, waits for a free one. */
static unsigned char *pipe_room(struct byte_pipe *p, size_t need)
{
	if (p->fill && PIPE_SLOT - p->fill < need)
		pipe_flush(p);
	if (!p->fill) {
		pthread_mutex_lock(&p->lock);
		while (p->head - p->tail == p->nslots)
			pthread_cond_wait(&p->room, &p->lock);
		pthread_mutex_unlock(&p->lock);
	}
	return p->slots + (p->head % p->nslots) * PIPE_SLOT + p->fill;
}

static void pipe_put(struct byte_pipe *p, int tag, const void *buf,
		     size_t len)
{
	const unsigned char *data = buf;
	struct pipe_record r = { (uint32_t)tag, (uint32_t)len };

	if (!p->running) { /* no thread: consumed here, same result */
		p->consume(p->ctx, tag, buf, len);
		return;
	}
	if (tag != PIPE_DATA) {
		memcpy(pipe_room(p, sizeof(r)), &r, sizeof(r));
		p->fill += sizeof(r);
		return;
	}
	while (len) {
		unsigned char *at = pipe_room(p, sizeof(r) + PIPE_MIN_DATA);
		size_t n = PIPE_SLOT - p->fill - sizeof(r);

		if (n > len)
			n = len;
		r.len = (uint32_t)n;
		memcpy(at, &r, sizeof(r));
		memcpy(at + sizeof(r), data, n);
		p->fill += sizeof(r) + n;
		data += n;
		len -= n;
		if (p->fill == PIPE_SLOT)
			pipe_flush(p);
	}
}

static int lane_running(const struct byte_pipe *p)
{
	return p && p->running;
}

/* Bytes handed to the consumer or waiting for it, about. */
static size_t pipe_backlog(struct byte_pipe *p)
{
	size_t slots;

	pthread_mutex_lock(&p->lock);
	slots = p->head - p->tail;
	pthread_mutex_unlock(&p->lock);
	return slots * PIPE_SLOT + p->fill;
}

static void pipe_feed(const void *buf, size_t len, void *ctx)
{
	pipe_put(ctx, PIPE_DATA, buf, len);
}

/* threaded 0: no thread or ring; pipe_put consumes on the caller's. */
static void pipe_start(struct byte_pipe *p, pipe_consume_fn consume,
		       void *ctx, size_t nslots, int threaded)
{
	memset(p, 0, sizeof(*p));
	p->consume = consume;
	p->ctx = ctx;
	p->nslots = nslots;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->more, NULL);
	pthread_cond_init(&p->room, NULL);
	if (!threaded)
		return;
	p->slots = xmalloc(nslots * PIPE_SLOT);
	xprefault(p->slots, nslots * PIPE_SLOT);
	p->running = !pthread_create(&p->thread, NULL, pipe_main, p);
}

/* Waits until everything put is consumed. */
static void pipe_finish(struct byte_pipe *p)
{
	if (p->running) {
		pipe_flush(p);
		pthread_mutex_lock(&p->lock);
		p->done = 1;
		pthread_cond_signal(&p->more);
		pthread_mutex_unlock(&p->lock);
		pthread_join(p->thread, NULL);
		p->running = 0;
	}
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->more);
	pthread_cond_destroy(&p->room);
	free(p->slots);
	p->slots = NULL;
}

static void sig_consume(void *ctx, int tag, const unsigned char *buf,
			size_t len)
{
	if (tag == PIPE_DATA)
		pp_pgp_verify_update(ctx, buf, len);
}

/* The MD5s the lane made, by file index, given to the files at the end. */
struct md5_lane {
	struct pp_hash md5;
	int hashing; /* a file begun and not ended: md5 holds a context */
	struct lane_sum {
		size_t file;
		char hex[33];
	} *sums;
	size_t nr, alloc;
};

static void md5_consume(void *ctx, int tag, const unsigned char *buf,
			size_t len)
{
	struct md5_lane *l = ctx;

	if (tag == PIPE_BEGIN) {
		pp_hash_init(&l->md5, PP_MD5);
		l->hashing = 1;
	} else if (tag == PIPE_DATA) {
		pp_hash_update(&l->md5, buf, len);
	} else {
		ARRAY_GROW(l->sums, l->alloc, l->nr + 1);
		l->sums[l->nr].file = len;
		pp_hash_final_hex(&l->md5, l->sums[l->nr++].hex);
		l->hashing = 0;
	}
}

static void md5_lane_settle(struct md5_lane *l, struct content *c)
{
	if (l->hashing) { /* the data ended inside a file: free its context */
		unsigned char scratch[PP_HASH_MAX];

		pp_hash_final(&l->md5, scratch);
	}
	for (size_t i = 0; i < l->nr; i++)
		if (l->sums[i].file < c->nr)
			memcpy(c->f[l->sums[i].file].hex, l->sums[i].hex, 33);
	free(l->sums);
	memset(l, 0, sizeof(*l));
}

/* ---- one read of the package ----------------------------------------------- */

struct run {
	struct pp_deb deb;
	struct pp_pgp_verify v;
	struct byte_pipe pipe;      /* the signature's hash */
	struct byte_pipe lane_pipe; /* part of the MD5s */
	struct md5_lane lane;
	struct pp_deb_tap tap;
	struct content content;
	struct pp_ctrl_members cm;
	int have_cm;
	struct pp_err trouble;   /* the content could not be read as a .deb */
	struct pp_progress *progress; /* told the bytes read, or NULL */
};

/* The tap: every byte read goes to the signature's hash, and counts. */
static void run_feed(const void *buf, size_t len, void *ctx)
{
	struct run *r = ctx;

	pipe_feed(buf, len, &r->pipe);
	pp_progress_add(r->progress, len, NULL);
}

static const struct pp_ar_member *find_origin(struct pp_deb *deb,
					      struct pp_err *err)
{
	const struct pp_ar_member *found = NULL;
	size_t n = 0;

	for (size_t i = 0; i < deb->nr_extra; i++)
		if (!strcmp(deb->extra[i].name, PP_DEBSIG_ORIGIN)) {
			found = &deb->extra[i];
			n++;
		}
	if (n > 1)
		pp_err_set(err, PP_EXIT_INPUT, "'%s' has %zu %s members; sign "
			   "it again with padpack sign, which keeps one",
			   deb->ar.path, n, PP_DEBSIG_ORIGIN);
	else if (!n)
		pp_err_set(err, PP_EXIT_UNSIGNED, "'%s' is not signed: it has "
			   "no %s member", deb->ar.path, PP_DEBSIG_ORIGIN);
	return n == 1 ? found : NULL;
}

static int start_signature(struct run *r, const struct pp_ar_member *m,
			   const struct pp_pgp_keyring *kr, struct pp_err *err)
{
	struct strbuf sig = STRBUF_INIT;
	int rc;

	if (m->size == 0 || m->size > SIG_MAX)
		return pp_err_set(err, PP_EXIT_BADSIG, "'%s': the %s member "
				  "holds %lld bytes, not a signature",
				  r->deb.ar.path, PP_DEBSIG_ORIGIN,
				  (long long)m->size);
	strbuf_grow(&sig, (size_t)m->size);
	rc = pp_ar_read(&r->deb.ar, m, 0, sig.buf, (size_t)m->size, err);
	if (!rc) {
		strbuf_setlen(&sig, (size_t)m->size);
		rc = pp_pgp_verify_begin(&r->v, sig.buf, sig.len, kr, 0, err);
		if (rc)
			pp_err_prefix(err, "'%s': origin signature: ",
				      r->deb.ar.path);
	}
	strbuf_release(&sig);
	return rc;
}

static int check_fed(struct run *r, const struct pp_ar_member *m,
		     struct pp_err *err)
{
	if (r->tap.fed == m->size)
		return 0;
	if (r->trouble.code == PP_EXIT_IO || err->code == PP_EXIT_IO)
		return pp_err_set(err, PP_EXIT_IO, "%s", r->trouble.code ?
				  r->trouble.msg : err->msg);
	return pp_err_set(err, PP_EXIT_IO, "'%s': member '%s' could not be "
			  "read to its end", r->deb.ar.path, m->name);
}

/* Hashes the three signed members while reading control and data; what
 * goes wrong with their contents is kept in r->trouble for later. */
static int read_members(struct run *r, struct pp_err *err)
{
	struct pp_deb *deb = &r->deb;

	r->tap = (struct pp_deb_tap){ run_feed, r, 0 };
	pp_progress_task(r->progress, "checking signature and files",
			 (uint64_t)deb->ar.size, "bytes");
	if (pp_deb_tap_member(deb, &deb->binary, &r->tap, err) < 0)
		return -1;
	r->tap.fed = 0;
	r->have_cm = !pp_deb_read_control_tap(deb, &r->cm, &r->tap,
					      &r->trouble);
	if (check_fed(r, &deb->control, err) < 0)
		return -1;
	r->tap.fed = 0;
	if (r->trouble.code)
		pp_deb_tap_member(deb, &deb->data, &r->tap, err);
	else
		pp_deb_walk(deb, &deb->data, &r->tap, on_entry, on_data,
			    &r->content, &r->trouble);
	return check_fed(r, &deb->data, err);
}

static int check_content(struct run *r, struct pp_debsig_report *rep,
			 struct pp_err *err)
{
	const struct pp_ctrl_member *sums;

	if (r->trouble.code)
		return pp_err_set(err, r->trouble.code, "%s", r->trouble.msg);
	sums = pp_ctrl_members_find(&r->cm, "md5sums");
	rep->has_md5sums = sums != NULL;
	settle(&r->content);
	rep->files = r->content.nr;
	rep->unlisted = rep->files;
	if (sums && compare_md5sums(&r->content, &sums->data, rep, err) < 0)
		return pp_err_prefix(err, "'%s': ", r->deb.ar.path);
	if (rep->nr_bad)
		return pp_err_set(err, PP_EXIT_MISMATCH, "'%s': %zu file%s "
				  "differ%s from md5sums, first '%s'; the "
				  "package was built inconsistently",
				  r->deb.ar.path, rep->nr_bad,
				  rep->nr_bad == 1 ? "" : "s",
				  rep->nr_bad == 1 ? "s" : "", rep->bad[0]);
	return 0;
}

static int verify_run(struct run *r, const char *path,
		      const struct pp_pgp_keyring *kr, time_t now,
		      struct pp_debsig_report *rep, struct pp_err *err)
{
	const struct pp_ar_member *origin;

	if (pp_deb_open(&r->deb, path, err) < 0)
		return -1;
	origin = find_origin(&r->deb, err);
	if (!origin)
		return -1;
	rep->signed_ = 1;
	if (start_signature(r, origin, kr, err) < 0)
		return -1;
	if (r->v.have_key) {
		int threaded = r->deb.control.size + r->deb.data.size >=
			       PIPE_THREADED_MIN;
		int rc;

		pipe_start(&r->pipe, sig_consume, &r->v, 4, threaded);
		pipe_start(&r->lane_pipe, md5_consume, &r->lane, PIPE_SLOTS,
			   threaded);
		r->content.lane = &r->lane_pipe;
		rc = read_members(r, err);
		pipe_finish(&r->pipe);
		pipe_finish(&r->lane_pipe);
		r->content.lane = NULL;
		md5_lane_settle(&r->lane, &r->content);
		if (rc < 0) {
			pp_pgp_verify_release(&r->v);
			return -1;
		}
	}
	rep->sig_checked = 1;
	if (pp_pgp_verify_finish(&r->v, now, &rep->sig, err) < 0)
		return pp_err_prefix(err, "'%s': ", path);
	return check_content(r, rep, err);
}

int pp_debsig_verify(const char *path, const struct pp_pgp_keyring *kr,
		     time_t now, struct pp_debsig_report *rep,
		     struct pp_err *err)
{
	return pp_debsig_verify_progress(path, kr, now, NULL, rep, err);
}

int pp_debsig_verify_progress(const char *path,
			      const struct pp_pgp_keyring *kr, time_t now,
			      struct pp_progress *progress,
			      struct pp_debsig_report *rep, struct pp_err *err)
{
	struct run r;
	int rc;

	memset(rep, 0, sizeof(*rep));
	memset(&r, 0, sizeof(r));
	r.progress = progress;
	r.deb.ar.fd = -1;
	pp_err_init(&r.trouble);
	rc = verify_run(&r, path, kr, now, rep, err);
	if (r.have_cm)
		pp_ctrl_members_release(&r.cm);
	content_release(&r.content);
	pp_err_release(&r.trouble);
	pp_deb_close(&r.deb);
	return rc;
}

void pp_debsig_report_release(struct pp_debsig_report *rep)
{
	for (size_t i = 0; i < rep->nr_bad; i++)
		free(rep->bad[i]);
	free(rep->bad);
	memset(rep, 0, sizeof(*rep));
}
