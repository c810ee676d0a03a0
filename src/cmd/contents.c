/* padpack contents: list a package's files, like dpkg-deb --contents. */
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <wchar.h>
#include <wctype.h>

#include "../lib/deb.h"
#include "../lib/json-out.h"
#include "../lib/strbuf.h"
#include "cmds.h"

static const char usage[] =
	"usage: padpack contents X.deb [--json]\n\n"
	"Lists the files of the package's data archive in the format of\n"
	"dpkg-deb --contents (that is, tar -tv): mode, owner, size, date\n"
	"(local time) and name. Unprintable bytes in names are shown as\n"
	"backslash escapes, as tar does.\n\n"
	"Options:\n"
	"  --json   print one JSON object instead: file, and entries (path,\n"
	"           type, mode, user, group, uid, gid, size, mtime, target)\n";

struct listing {
	int ugswidth; /* tar's column width for owner and size, which grows */
};

static void mode_string(mode_t m, char *s)
{
	static const char rwx[] = "rwxrwxrwx";

	s[0] = S_ISDIR(m) ? 'd' : S_ISLNK(m) ? 'l' : S_ISCHR(m) ? 'c' :
	       S_ISBLK(m) ? 'b' : S_ISFIFO(m) ? 'p' : S_ISSOCK(m) ? 's' : '-';
	for (int i = 0; i < 9; i++)
		s[i + 1] = (m & (0400 >> i)) ? rwx[i] : '-';
	if (m & S_ISUID)
		s[3] = (m & S_IXUSR) ? 's' : 'S';
	if (m & S_ISGID)
		s[6] = (m & S_IXGRP) ? 's' : 'S';
	if (m & S_ISVTX)
		s[9] = (m & S_IXOTH) ? 't' : 'T';
	s[10] = '\0';
}

/* GNU tar's default "escape" quoting: printable characters of the locale
 * as they are, the rest as C escapes or backslash-octal. */
static void quote(const char *s, struct strbuf *out)
{
	static const char from[] = "\a\b\f\n\r\t\v\\", to[] = "abfnrtv\\";
	mbstate_t st;

	memset(&st, 0, sizeof(st));
	strbuf_reset(out);
	while (*s) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, s, strlen(s), &st);
		const char *esc = strchr(from, *s);

		if (esc && n == 1) {
			strbuf_addch(out, '\\');
			strbuf_addch(out, to[esc - from]);
		} else if (n != (size_t)-1 && n != (size_t)-2 && n > 0 &&
			   iswprint((wint_t)wc)) {
			strbuf_add(out, s, n);
			s += n - 1;
		} else {
			strbuf_addf(out, "\\%03o", (unsigned char)*s);
			memset(&st, 0, sizeof(st));
			n = 1;
		}
		s++;
	}
}

static int print_entry(const struct pp_tar_entry *e, void *ctx,
		       struct pp_err *err)
{
	struct listing *l = ctx;
	struct strbuf q = STRBUF_INIT;
	char mode[11], size[48], date[32], ubuf[24], gbuf[24];
	const char *user = e->uname, *group = e->gname;
	struct tm tm;
	int pad;

	(void)err;
	if (!user || !*user)
		snprintf(ubuf, sizeof(ubuf), "%lld", (long long)e->uid), user = ubuf;
	if (!group || !*group)
		snprintf(gbuf, sizeof(gbuf), "%lld", (long long)e->gid), group = gbuf;
	mode_string(e->mode, mode);
	if (e->hardlink)
		mode[0] = 'h';
	if (S_ISCHR(e->mode) || S_ISBLK(e->mode))
		snprintf(size, sizeof(size), "%u,%u", e->devmajor, e->devminor);
	else
		snprintf(size, sizeof(size), "%lld",
			 e->hardlink ? 0LL : (long long)e->size);
	localtime_r(&e->mtime, &tm);
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M", &tm);
	pad = (int)(strlen(user) + 1 + strlen(group) + 1 + strlen(size));
	if (pad > l->ugswidth)
		l->ugswidth = pad;
	quote(e->path, &q);
	printf("%s %s/%s %*s %s %s", mode, user, group,
	       l->ugswidth - pad + (int)strlen(size), size, date, q.buf);
	if (e->hardlink) {
		quote(e->hardlink, &q);
		printf(" link to %s", q.buf);
	} else if (e->symlink) {
		quote(e->symlink, &q);
		printf(" -> %s", q.buf);
	}
	putchar('\n');
	strbuf_release(&q);
	return 0;
}

static int add_entry(const struct pp_tar_entry *e, void *ctx,
		     struct pp_err *err)
{
	(void)err;
	json_array_append_new(ctx, pp_json_tar_entry(e));
	return 0;
}

static int list_json(struct pp_deb *deb, struct pp_err *err)
{
	json_t *entries = json_array();

	if (pp_deb_list(deb, &deb->data, add_entry, entries, err) < 0) {
		json_decref(entries);
		return -1;
	}
	return pp_json_write(stdout, pp_json_contents(deb->ar.path, entries),
			     err);
}

static int run(int argc, char **argv, struct pp_err *err)
{
	int json = pp_take_flag(&argc, argv, "--json");
	struct listing l = { 19 };
	struct pp_deb deb;
	int rc;

	if (argc != 2 || argv[1][0] == '-')
		return pp_usage_error(err, "expected one .deb file");
	setlocale(LC_CTYPE, "");
	if (pp_deb_open(&deb, argv[1], err) < 0)
		return -1;
	rc = json ? list_json(&deb, err) :
		pp_deb_list(&deb, &deb.data, print_entry, &l, err);
	pp_deb_close(&deb);
	return rc;
}

const struct pp_cmd cmd_contents = {
	"contents", run, "list a package's files (dpkg-deb --contents)", usage,
};
