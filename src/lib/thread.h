/* Starting a helper thread next to a busy one. */
#ifndef PP_THREAD_H
#define PP_THREAD_H

#include <pthread.h>

/* pthread_create, except that the thread starts on a CPU other than the
 * caller's, when the process may use another, and is free to move once it
 * runs. A thread started by a thread that goes on working otherwise
 * sometimes waits milliseconds on the caller's CPU before the scheduler
 * moves it: a long time next to the few tens a repository publish takes.
 * Returns 0 or pthread_create's error. */
int pp_thread_start(pthread_t *tid, void *(*fn)(void *), void *arg);

#endif
