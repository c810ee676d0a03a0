/* Stats of many pool files. On a large pool they are most of an
 * incremental publish (a syscall each), so threads share them, taking
 * chunks in turn; and a run that loads the cache and adds before it
 * publishes starts them ahead, on a thread of its own, so that they are
 * done by the time the publish needs them.
 * Layer: below repo.c (which releases them), above repo-members.c and
 * repo-index.c. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "repo-internal.h"
#include "thread.h"
#include "xalloc.h"

#define STAT_CHUNK 128 /* names a thread takes at a time */

struct pp_repo_stats {
	int root_fd;
	char *const *names;
	struct pp_file_id *ids;
	size_t n;
	size_t next; /* the next chunk's first name: taken atomically */
	/* stats taken ahead: */
	char **owned_names; /* into block: the members may change meanwhile */
	char *block;
	struct pp_hindex by_name;
	pthread_t tid;
	int running, done;
};

static void stat_chunks(struct pp_repo_stats *b)
{
	struct stat st;
	size_t i, end;

	while ((i = __atomic_fetch_add(&b->next, STAT_CHUNK,
				       __ATOMIC_RELAXED)) < b->n) {
		end = i + STAT_CHUNK < b->n ? i + STAT_CHUNK : b->n;
		for (; i < end; i++) {
			if (fstatat(b->root_fd, b->names[i], &st, 0) < 0) {
				memset(&b->ids[i], 0, sizeof(b->ids[i]));
				b->ids[i].errnum = errno;
			} else {
				pp_file_id_of(&st, &b->ids[i]);
			}
		}
	}
}

static void *stat_thread(void *arg)
{
	stat_chunks(arg);
	return NULL;
}

/* fstatat of each name (relative to root_fd) into ids[i]. */
static void stat_files(int root_fd, char *const *names, size_t n,
		       struct pp_file_id *ids)
{
	enum { MAX_THREADS = 4, MIN_SHARE = 512 };
	struct pp_repo_stats b = { .root_fd = root_fd, .names = names,
				   .ids = ids, .n = n };
	pthread_t tid[MAX_THREADS];
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t threads = cpus > 1 ? (size_t)cpus : 1;
	int started[MAX_THREADS] = { 0 };

	if (threads > MAX_THREADS)
		threads = MAX_THREADS;
	if (threads > n / MIN_SHARE)
		threads = n / MIN_SHARE ? n / MIN_SHARE : 1;
	/* the calling thread takes chunks too */
	for (size_t t = 1; t < threads; t++)
		started[t] = pp_thread_start(&tid[t], stat_thread, &b) == 0;
	stat_chunks(&b);
	for (size_t t = 1; t < threads; t++)
		if (started[t])
			pthread_join(tid[t], NULL);
}

/* ---- ahead ------------------------------------------------------------ */

struct name_key {
	const struct pp_repo_stats *b;
	const char *name;
};

static int eq_name(const void *ctx, size_t pos)
{
	const struct name_key *k = ctx;

	return !strcmp(k->b->names[pos], k->name);
}

static size_t find_name(const struct pp_repo_stats *b, const char *name)
{
	struct name_key k = { b, name };

	return pp_hindex_find(&b->by_name, pp_hindex_hash(name, PP_HINDEX_SEED),
			      eq_name, &k);
}

/* Every suite's pool files, each once, copied into one block. */
static void collect_names(struct pp_repo_stats *b,
			  struct pp_repo_members *const *ms, size_t nr_suites)
{
	size_t total = 0, bytes = 0, used = 0;

	for (size_t s = 0; s < nr_suites; s++)
		for (size_t i = 0; i < ms[s]->nr; i++) {
			total++;
			bytes += strlen(ms[s]->m[i].filename) + 1;
		}
	b->owned_names = xcalloc(total + 1, sizeof(*b->owned_names));
	b->block = xmalloc(bytes + 1);
	b->names = b->owned_names;
	pp_hindex_reserve(&b->by_name, total);
	for (size_t s = 0; s < nr_suites; s++)
		for (size_t i = 0; i < ms[s]->nr; i++) {
			const char *name = ms[s]->m[i].filename;
			size_t len = strlen(name) + 1;

			if (find_name(b, name) != PP_HINDEX_NONE)
				continue; /* in another suite too */
			b->owned_names[b->n] = memcpy(b->block + used, name, len);
			used += len;
			pp_hindex_add(&b->by_name,
				      pp_hindex_hash(name, PP_HINDEX_SEED), b->n++);
		}
	b->ids = xcalloc(b->n + 1, sizeof(*b->ids));
}

int pp_repo_stat_ahead(struct pp_repo *r, struct pp_err *err)
{
	struct pp_repo_members **ms = xcalloc(r->nr_suites + 1, sizeof(*ms));
	struct pp_repo_stats *b;

	for (size_t s = 0; s < r->nr_suites; s++)
		if (pp_repo_members_of(r, &r->suites[s], &ms[s], err) < 0) {
			free(ms);
			return -1;
		}
	pp_repo_stats_release(r);
	b = xcalloc(1, sizeof(*b));
	b->root_fd = r->root_fd;
	collect_names(b, ms, r->nr_suites);
	free(ms);
	/* if no thread starts, the stats are all taken when needed */
	b->running = pp_thread_start(&b->tid, stat_thread, b) == 0;
	r->stats_ahead = b;
	return 0;
}

static void finish(struct pp_repo_stats *b)
{
	if (b->done)
		return;
	stat_chunks(b); /* what the thread has not taken yet */
	if (b->running)
		pthread_join(b->tid, NULL);
	b->running = 0;
	b->done = 1;
}

void pp_repo_stats_of(struct pp_repo *r, char *const *names, size_t n,
		      struct pp_file_id *ids)
{
	struct pp_repo_stats *b = r->stats_ahead;
	char **rest;
	size_t *at, nr_rest = 0;
	struct pp_file_id *rest_ids;

	if (!b) {
		stat_files(r->root_fd, names, n, ids);
		return;
	}
	finish(b);
	rest = xmalloc((n + 1) * sizeof(*rest));
	at = xmalloc((n + 1) * sizeof(*at));
	for (size_t i = 0; i < n; i++) {
		size_t pos = find_name(b, names[i]);

		if (pos != PP_HINDEX_NONE) {
			ids[i] = b->ids[pos];
		} else { /* added since */
			rest[nr_rest] = names[i];
			at[nr_rest++] = i;
		}
	}
	rest_ids = xcalloc(nr_rest + 1, sizeof(*rest_ids));
	stat_files(r->root_fd, rest, nr_rest, rest_ids);
	for (size_t k = 0; k < nr_rest; k++)
		ids[at[k]] = rest_ids[k];
	free(rest_ids);
	free(at);
	free(rest);
}

void pp_repo_stats_release(struct pp_repo *r)
{
	struct pp_repo_stats *b = r->stats_ahead;

	if (!b)
		return;
	if (b->running) { /* leave the rest untaken */
		__atomic_store_n(&b->next, b->n, __ATOMIC_RELAXED);
		pthread_join(b->tid, NULL);
	}
	pp_hindex_release(&b->by_name);
	free(b->ids);
	free(b->owned_names);
	free(b->block);
	free(b);
	r->stats_ahead = NULL;
}
