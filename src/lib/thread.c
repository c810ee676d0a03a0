/* _GNU_SOURCE (the Makefile defines it): sched_getcpu and the affinity calls */
#include "thread.h"

#include <sched.h>
#include <stdlib.h>

#include "xalloc.h"

struct start {
	void *(*fn)(void *);
	void *arg;
	cpu_set_t allowed; /* the caller's CPUs, given back once started */
};

static void *run(void *p)
{
	struct start s = *(struct start *)p;

	free(p);
	pthread_setaffinity_np(pthread_self(), sizeof(s.allowed), &s.allowed);
	return s.fn(s.arg);
}

int pp_thread_start(pthread_t *tid, void *(*fn)(void *), void *arg)
{
	struct start *s = xmalloc(sizeof(*s));
	cpu_set_t elsewhere;
	pthread_attr_t attr;
	int me = sched_getcpu(), rc;

	s->fn = fn;
	s->arg = arg;
	if (me < 0 || me >= CPU_SETSIZE ||
	    pthread_getaffinity_np(pthread_self(), sizeof(s->allowed),
				   &s->allowed) != 0 ||
	    CPU_COUNT(&s->allowed) < 2 || !CPU_ISSET(me, &s->allowed)) {
		free(s);
		return pthread_create(tid, NULL, fn, arg);
	}
	elsewhere = s->allowed;
	CPU_CLR(me, &elsewhere);
	if (pthread_attr_init(&attr) != 0) {
		free(s);
		return pthread_create(tid, NULL, fn, arg);
	}
	pthread_attr_setaffinity_np(&attr, sizeof(elsewhere), &elsewhere);
	rc = pthread_create(tid, &attr, run, s);
	pthread_attr_destroy(&attr);
	if (rc)
		free(s);
	return rc;
}
