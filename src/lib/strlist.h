/* A growable list of owned strings, always NULL-terminated so that it can
 * be handed to execv() as an argument vector or an environment. */
#ifndef PP_STRLIST_H
#define PP_STRLIST_H

#include <stddef.h>

struct pp_strlist {
	char **items; /* items[nr] is NULL once anything was added */
	size_t nr, alloc;
};

#define PP_STRLIST_INIT { NULL, 0, 0 }

void pp_strlist_init(struct pp_strlist *sl);
void pp_strlist_release(struct pp_strlist *sl);
/* Adds a copy of s. */
void pp_strlist_push(struct pp_strlist *sl, const char *s);
/* Adds s itself; the list now owns it. */
void pp_strlist_push_owned(struct pp_strlist *sl, char *s);
void pp_strlist_pushf(struct pp_strlist *sl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Adds copies of every item of src. */
void pp_strlist_extend(struct pp_strlist *sl, const struct pp_strlist *src);
/* Index of the first item equal to s, or -1. */
long pp_strlist_find(const struct pp_strlist *sl, const char *s);
/* The items joined by sep into one new string. */
char *pp_strlist_join(const struct pp_strlist *sl, const char *sep);

#endif
