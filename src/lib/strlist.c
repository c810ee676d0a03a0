#include "strlist.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "xalloc.h"

void pp_strlist_init(struct pp_strlist *sl)
{
	sl->items = NULL;
	sl->nr = sl->alloc = 0;
}

void pp_strlist_release(struct pp_strlist *sl)
{
	for (size_t i = 0; i < sl->nr; i++)
		free(sl->items[i]);
	free(sl->items);
	pp_strlist_init(sl);
}

void pp_strlist_push_owned(struct pp_strlist *sl, char *s)
{
	ARRAY_GROW(sl->items, sl->alloc, sl->nr + 2);
	sl->items[sl->nr++] = s;
	sl->items[sl->nr] = NULL;
}

void pp_strlist_push(struct pp_strlist *sl, const char *s)
{
	pp_strlist_push_owned(sl, xstrdup(s));
}

void pp_strlist_pushf(struct pp_strlist *sl, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	pp_strlist_push_owned(sl, strbuf_detach(&sb, NULL));
}

void pp_strlist_extend(struct pp_strlist *sl, const struct pp_strlist *src)
{
	for (size_t i = 0; i < src->nr; i++)
		pp_strlist_push(sl, src->items[i]);
}

long pp_strlist_find(const struct pp_strlist *sl, const char *s)
{
	for (size_t i = 0; i < sl->nr; i++)
		if (!strcmp(sl->items[i], s))
			return (long)i;
	return -1;
}

char *pp_strlist_join(const struct pp_strlist *sl, const char *sep)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < sl->nr; i++) {
		if (i)
			strbuf_addstr(&sb, sep);
		strbuf_addstr(&sb, sl->items[i]);
	}
	return strbuf_detach(&sb, NULL);
}
