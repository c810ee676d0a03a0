#include "error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void pp_err_init(struct pp_err *err)
{
	err->code = PP_EXIT_OK;
	err->msg[0] = '\0';
	strbuf_init(&err->warnings);
}

void pp_err_release(struct pp_err *err)
{
	strbuf_release(&err->warnings);
}

static void set_msg(struct pp_err *err, int code, const char *fmt, va_list ap)
{
	err->code = code;
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
}

int pp_err_set(struct pp_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_msg(err, code, fmt, ap);
	va_end(ap);
	return -1;
}

int pp_err_errno(struct pp_err *err, int code, const char *fmt, ...)
{
	int saved = errno;
	size_t n;
	va_list ap;

	va_start(ap, fmt);
	set_msg(err, code, fmt, ap);
	va_end(ap);
	n = strlen(err->msg);
	snprintf(err->msg + n, sizeof(err->msg) - n, ": %s", strerror(saved));
	return -1;
}

int pp_err_prefix(struct pp_err *err, const char *fmt, ...)
{
	char head[1024], old[sizeof(err->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(head, sizeof(head), fmt, ap);
	va_end(ap);
	size_t n;

	memcpy(old, err->msg, sizeof(old));
	n = strlen(head);
	if (n >= sizeof(err->msg))
		n = sizeof(err->msg) - 1;
	memcpy(err->msg, head, n);
	/* the old message follows, cut to what still fits */
	memcpy(err->msg + n, old, sizeof(err->msg) - n - 1);
	err->msg[sizeof(err->msg) - 1] = '\0';
	return -1;
}

void pp_warn(struct pp_err *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&err->warnings, fmt, ap);
	va_end(ap);
	strbuf_addch(&err->warnings, '\n');
}

int pp_err_move(struct pp_err *dst, struct pp_err *src)
{
	dst->code = src->code ? src->code : PP_EXIT_FAIL;
	memcpy(dst->msg, src->msg, sizeof(dst->msg));
	strbuf_add(&dst->warnings, src->warnings.buf, src->warnings.len);
	pp_err_release(src);
	pp_err_init(src);
	return -1;
}
