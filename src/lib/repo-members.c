/* The suites' membership lists (db/<suite>.list): loading, keeping one
 * loaded copy a suite, saving.
 * Layer: below repo.c, repo-stat.c, repo-snapshot.c and repo-publish.c,
 * which read the lists through here; it calls none of them. */
#include "repo.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsutil.h"
#include "repo-internal.h"
#include "sort.h"
#include "xalloc.h"

static void list_path(const struct pp_repo *r, const char *suite,
		      struct strbuf *out)
{
	strbuf_addf(out, "%s/db/%s.list", r->root, suite);
}

void pp_repo_member_release(struct pp_repo_member *m)
{
	if (m->borrowed)
		return;
	free(m->package);
	free(m->version);
	free(m->arch);
	free(m->component);
	free(m->filename);
}

void pp_repo_members_release(struct pp_repo_members *ms)
{
	for (size_t i = 0; i < ms->nr; i++)
		pp_repo_member_release(&ms->m[i]);
	free(ms->m);
	free(ms->text);
	memset(ms, 0, sizeof(*ms));
}

/* The usual line, five words and a blank between each, cut by memchr
 * (a large suite's list is 100,000 lines): 0 when it is one. */
static int split_plain(char *line, size_t len, char *w[5])
{
	char *p = line, *end = line + len, *blank[4];

	if (!len || memchr(line, '\t', len))
		return -1;
	for (size_t n = 0; n < 4; n++) {
		char *sp = memchr(p, ' ', (size_t)(end - p));

		if (!sp || sp == p || sp + 1 == end || sp[1] == ' ')
			return -1;
		w[n] = p;
		blank[n] = sp;
		p = sp + 1;
	}
	if (memchr(p, ' ', (size_t)(end - p)))
		return -1;
	w[4] = p;
	for (size_t n = 0; n < 4; n++) /* the line is one: cut it */
		*blank[n] = '\0';
	*end = '\0';
	return 0;
}

/* One line of db/<suite>.list: "PACKAGE VERSION ARCH COMPONENT FILENAME"
 * (none of them can hold a blank), cut into its five words in place (line
 * is len bytes of the members' text): no allocation for thousands. */
static int member_from_line(char *line, size_t len, const char *file,
			    unsigned no, struct pp_repo_member *m,
			    struct pp_err *err)
{
	char *w[5], *p = line, *end = line + len;
	size_t n = 0;

	/* (split_plain leaves a line it refuses as it was) */
	if (split_plain(line, len, w) == 0) {
		*m = (struct pp_repo_member){ w[0], w[1], w[2], w[3], w[4], 1 };
		return 0;
	}
	while (p < end) {
		while (p < end && (*p == ' ' || *p == '\t'))
			*p++ = '\0';
		if (p == end)
			break;
		if (n == 5) {
			n++;
			break;
		}
		w[n++] = p;
		while (p < end && *p != ' ' && *p != '\t')
			p++;
	}
	*end = '\0';
	if (n != 5)
		return pp_err_set(err, PP_EXIT_INPUT, "%s:%u: not 'PACKAGE VERSION "
				  "ARCH COMPONENT FILENAME'; the repository "
				  "database is damaged", file, no);
	*m = (struct pp_repo_member){ w[0], w[1], w[2], w[3], w[4], 1 };
	return 0;
}

static size_t count_lines(const char *s, size_t len)
{
	size_t n = 0;

	for (const char *p = s; (p = memchr(p, '\n', len - (size_t)(p - s)));
	     p++)
		n++;
	return n + 1;
}

int pp_repo_members_load_path(const char *path, struct pp_repo_members *out,
			      struct pp_err *err)
{
	struct strbuf text = STRBUF_INIT;
	unsigned no = 0;
	size_t pos = 0;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (access(path, F_OK) == 0)
		rc = pp_read_file(path, &text, err);
	if (!rc) {
		ARRAY_GROW(out->m, out->alloc, count_lines(text.buf, text.len) + 64);
		xprefault(out->m, out->alloc * sizeof(*out->m));
	}
	while (!rc && pos < text.len) {
		char *eol = memchr(text.buf + pos, '\n', text.len - pos);
		size_t len = eol ? (size_t)(eol - text.buf) - pos : text.len - pos;

		no++;
		rc = member_from_line(text.buf + pos, len, path, no,
				      &out->m[out->nr], err);
		out->nr += !rc;
		pos += len + 1;
		ARRAY_GROW(out->m, out->alloc, out->nr + 1);
	}
	out->text = strbuf_detach(&text, NULL);
	if (rc < 0)
		pp_repo_members_release(out);
	return rc;
}

int pp_repo_members_load(struct pp_repo *r, const char *suite,
			 struct pp_repo_members *out, struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT;
	int rc;

	list_path(r, suite, &path);
	rc = pp_repo_members_load_path(path.buf, out, err);
	strbuf_release(&path);
	return rc;
}

int pp_repo_members_of(struct pp_repo *r, const struct pp_repo_suite *s,
		       struct pp_repo_members **out, struct pp_err *err)
{
	size_t i = (size_t)(s - r->suites);

	if (!r->members)
		r->members = xcalloc(r->nr_suites, sizeof(*r->members));
	if (!r->members[i]) {
		struct pp_repo_members *ms = xmalloc(sizeof(*ms));

		if (pp_repo_members_load(r, s->suite, ms, err) < 0) {
			free(ms);
			return -1;
		}
		r->members[i] = ms;
	}
	*out = r->members[i];
	return 0;
}

static int cmp_member(const void *a, const void *b)
{
	const struct pp_repo_member *x = a, *y = b;
	int c = strcmp(x->package, y->package);

	if (!c)
		c = strcmp(x->arch, y->arch);
	return c ? c : strcmp(x->filename, y->filename);
}

int pp_repo_members_save_path(const char *path, struct pp_repo_members *ms,
			      int sync, struct pp_err *err)
{
	struct pp_filebuf *fb = xmalloc(sizeof(*fb));
	int rc;

	if (ms->nr)
		pp_sort_nearly_sorted(ms->m, ms->nr, sizeof(*ms->m), cmp_member);
	rc = pp_filebuf_open(fb, path, 0644, err);
	fb->of.sync = sync;
	for (size_t i = 0; i < ms->nr && !rc; i++) {
		const struct pp_repo_member *m = &ms->m[i];
		const char *words[] = { m->package, m->version, m->arch,
					m->component, m->filename };

		for (size_t w = 0; w < ARRAY_SIZE(words); w++) {
			pp_filebuf_addstr(fb, words[w]);
			pp_filebuf_add(fb, w + 1 < ARRAY_SIZE(words) ? " " : "\n", 1);
		}
	}
	if (!rc)
		rc = pp_filebuf_commit(fb, err);
	if (!rc && sync)
		rc = pp_fsync_dir_of(path, err);
	free(fb);
	return rc;
}

int pp_repo_members_save(struct pp_repo *r, const char *suite,
			 struct pp_repo_members *ms, struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT;
	int rc;

	list_path(r, suite, &path);
	rc = pp_repo_members_save_path(path.buf, ms, !r->no_sync, err);
	strbuf_release(&path);
	return rc;
}

