/* By-hash retention: the by-hash files of past generations of a suite
 * stay served for a while after their Release was replaced, so that a
 * client that fetched any InRelease served within that time finds every
 * index it names, however many publishes happened meanwhile.
 *
 * db/<suite>.byhash lists the past generations, oldest first, one a line:
 *   RETIRED RELEASE-SHA256 DIR/HEX...
 * RETIRED is when the generation stopped being served (Unix seconds),
 * RELEASE-SHA256 names it (a publish interrupted before its swap records
 * the same generation again, in place of the first record), and each
 * DIR/HEX is an index's by-hash file: DIR/by-hash/SHA256/HEX below
 * dists/<suite>/. A generation is kept while it retired less than the
 * suite's By-Hash-Keep seconds ago, or is one of its last
 * By-Hash-Generations; its files are linked into each new suite directory
 * from the served one. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "repo-internal.h"
#include "xalloc.h"

struct generation {
	long long retired;
	char **words; /* the Release's SHA256, then its by-hash files */
	size_t nr_words;
};

struct generations {
	struct generation *g;
	size_t nr, alloc;
};

static void generations_release(struct generations *gs)
{
	for (size_t i = 0; i < gs->nr; i++)
		pp_free_words(gs->g[i].words, gs->g[i].nr_words);
	free(gs->g);
	memset(gs, 0, sizeof(*gs));
}

static int damaged(const char *path, unsigned no, struct pp_err *err)
{
	return pp_err_set(err, PP_EXIT_INPUT, "%s:%u: not 'RETIRED "
			  "RELEASE-SHA256 DIR/HEX...'; the repository database "
			  "is damaged: delete the file to forget the past "
			  "generations (their by-hash files then go at the next "
			  "publish)", path, no);
}

static int parse_line(const char *line, const char *path, unsigned no,
		      struct generations *gs, struct pp_err *err)
{
	struct generation g;
	char *end;

	if (!*line)
		return 0;
	g.retired = strtoll(line, &end, 10);
	if (end == line || (*end != ' ' && *end != '\t'))
		return damaged(path, no, err);
	g.nr_words = pp_split_words(end, &g.words);
	if (g.nr_words < 1 || strlen(g.words[0]) != 64) {
		pp_free_words(g.words, g.nr_words);
		return damaged(path, no, err);
	}
	ARRAY_GROW(gs->g, gs->alloc, gs->nr + 1);
	gs->g[gs->nr++] = g;
	return 0;
}

static int load(const char *path, struct generations *gs, struct pp_err *err)
{
	struct strbuf text = STRBUF_INIT;
	unsigned no = 0;
	int rc = 0;

	if (access(path, F_OK) < 0)
		return 0;
	rc = pp_read_file(path, &text, err);
	for (char *line = text.buf, *eol; !rc && line && *line; line = eol) {
		eol = strchr(line, '\n');
		if (eol)
			*eol++ = '\0';
		rc = parse_line(line, path, ++no, gs, err);
	}
	strbuf_release(&text);
	return rc;
}

static int save(const char *path, const struct generations *gs, int flags,
		struct pp_err *err)
{
	struct strbuf text = STRBUF_INIT;
	int rc;

	for (size_t i = 0; i < gs->nr; i++) {
		strbuf_addf(&text, "%lld", gs->g[i].retired);
		for (size_t w = 0; w < gs->g[i].nr_words; w++)
			strbuf_addf(&text, " %s", gs->g[i].words[w]);
		strbuf_addch(&text, '\n');
	}
	rc = pp_write_file_flags(path, text.buf, text.len, 0644, flags, err);
	strbuf_release(&text);
	return rc;
}

/* The served generation, from dists/<suite>/Release: its SHA256 and the
 * by-hash files of the indices it lists. 0 when there is none to keep (a
 * first publish, or an unreadable Release). */
static int served(const char *cur, time_t now, struct generation *g)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	struct pp_err ignored;
	struct pp_stanza st;
	const char *line;
	char hex[2 * PP_HASH_MAX + 1];
	struct pp_hash h;
	size_t alloc = 0;
	int found = 0;

	pp_err_init(&ignored);
	strbuf_addf(&path, "%s/Release", cur);
	if (access(path.buf, F_OK) < 0 || pp_read_file(path.buf, &text, &ignored) < 0 ||
	    pp_deb822_parse_one(text.buf, text.len, path.buf, PP_DEB822_RELEASE,
				&st, &ignored) < 0)
		goto out;
	pp_hash_init(&h, PP_SHA256);
	pp_hash_update(&h, text.buf, text.len);
	pp_hash_final_hex(&h, hex);
	memset(g, 0, sizeof(*g));
	g->retired = now;
	ARRAY_GROW(g->words, alloc, 1);
	g->words[g->nr_words++] = xstrdup(hex);
	line = pp_stanza_get(&st, "SHA256");
	for (; line && *line; line = strchr(line, '\n')) {
		char rel[4096], *dir;

		line += *line == '\n';
		if (sscanf(line, " %64s %*s %4095s", hex, rel) != 2)
			continue;
		dir = pp_dirname(rel);
		ARRAY_GROW(g->words, alloc, g->nr_words + 1);
		g->words[g->nr_words] = xmalloc(strlen(dir) + 66);
		sprintf(g->words[g->nr_words++], "%s/%s", dir, hex);
		free(dir);
	}
	pp_stanza_release(&st);
	found = 1;
out:
	pp_err_release(&ignored);
	strbuf_release(&path);
	strbuf_release(&text);
	return found;
}

/* Records the served generation as retired now (in place of an earlier
 * record of the same one), then drops the generations past retention. */
static void retire(struct generations *gs, struct generation *cur,
		   const struct pp_repo_suite *s, time_t now)
{
	size_t kept = 0;

	for (size_t i = 0; i < gs->nr; i++) {
		struct generation *g = &gs->g[i];
		size_t rank = gs->nr - i + 1; /* 1: cur, the last retired */

		if (!strcmp(g->words[0], cur->words[0]) ||
		    (now - g->retired >= s->byhash_keep &&
		     rank > s->byhash_generations))
			pp_free_words(g->words, g->nr_words);
		else
			gs->g[kept++] = *g;
	}
	gs->nr = kept;
	ARRAY_GROW(gs->g, gs->alloc, gs->nr + 1);
	gs->g[gs->nr++] = *cur;
}

/* Links a past index's by-hash file into the new suite directory. */
static int link_one(const char *cur, const char *tmp, const char *word,
		    struct strbuf *made_dir, struct pp_err *err)
{
	struct strbuf from = STRBUF_INIT, to = STRBUF_INIT;
	const char *slash = strrchr(word, '/');
	int dir_len = slash ? (int)(slash - word) : 0;
	int rc = 0;

	if (!slash)
		return 0;
	strbuf_addf(&from, "%s/%.*s/by-hash/SHA256/%s", cur, dir_len, word,
		    slash + 1);
	strbuf_addf(&to, "%s/%.*s/by-hash/SHA256", tmp, dir_len, word);
	if (strcmp(made_dir->buf, to.buf)) {
		rc = pp_mkdir_p(to.buf, 0755, err);
		strbuf_reset(made_dir);
		strbuf_addstr(made_dir, to.buf);
	}
	strbuf_addf(&to, "/%s", slash + 1);
	/* A file already gone (pruned by hand, or never made) is skipped. */
	if (!rc && link(from.buf, to.buf) < 0 && errno != EEXIST &&
	    errno != ENOENT)
		rc = pp_err_errno(err, PP_EXIT_IO, "cannot link '%s'", to.buf);
	strbuf_release(&from);
	strbuf_release(&to);
	return rc;
}

int pp_repo_byhash_keep(struct pp_repo *r, const struct pp_repo_suite *s,
			const char *cur, const char *tmp, time_t now,
			struct pp_err *err)
{
	struct strbuf path = STRBUF_INIT, made_dir = STRBUF_INIT;
	struct generations gs = { NULL, 0, 0 };
	struct generation g;
	int rc;

	strbuf_addf(&path, "%s/db/%s.byhash", r->root, s->suite);
	rc = load(path.buf, &gs, err);
	if (!rc && served(cur, now, &g)) {
		retire(&gs, &g, s, now);
		for (size_t i = 0; i < gs.nr && !rc; i++)
			for (size_t w = 1; w < gs.g[i].nr_words && !rc; w++)
				rc = link_one(cur, tmp, gs.g[i].words[w],
					      &made_dir, err);
		if (!rc)
			rc = save(path.buf, &gs, r->no_sync ? 0 : PP_SYNC, err);
		/* the record's name is durable before the publish it serves */
		if (!rc && !r->no_sync)
			rc = pp_fsync_dir_of(path.buf, err);
	}
	generations_release(&gs);
	strbuf_release(&path);
	strbuf_release(&made_dir);
	return rc;
}
