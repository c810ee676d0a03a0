/* Stats of many pool files (those a publish reads: every one after
 * --full), a syscall each, shared by threads taking chunks in turn.
 * Layer: below repo-publish.c, above repo-index.c. */
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

void pp_repo_stats_of(struct pp_repo *r, char *const *names, size_t n,
		      struct pp_file_id *ids)
{
	stat_files(r->root_fd, names, n, ids);
}
