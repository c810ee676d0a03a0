/* strbuf: a growable, always NUL-terminated byte buffer (after git's). */
#ifndef PP_STRBUF_H
#define PP_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *buf;   /* never NULL once initialised; always NUL-terminated */
	size_t len;  /* bytes in use, not counting the terminating NUL */
	size_t alloc;
};

#define STRBUF_INIT { strbuf_empty, 0, 0 }
extern char strbuf_empty[];

void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
/* Hands the buffer to the caller (who frees it) and re-initialises sb. */
char *strbuf_detach(struct strbuf *sb, size_t *len);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_reset(struct strbuf *sb);
void strbuf_setlen(struct strbuf *sb, size_t len);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, int c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Removes trailing spaces, tabs and newlines. */
void strbuf_rtrim(struct strbuf *sb);

#endif
