/* The maintainer of a spec that names none, found as dch(1) finds it:
 * the name from DEBFULLNAME, NAME, the passwd entry's full name, the
 * login; the address from DEBEMAIL, EMAIL, else LOGIN@ the mail name
 * (/etc/mailname, else the host's fully qualified name). What the system
 * gave (not the environment) is kept out of lintian's errors: the login
 * root (root-in-contact) and a host that is no public domain
 * (bogus-mail-host: "vm", "localhost", "x.localdomain") are replaced. */
#include <ctype.h>
#include <netdb.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "specint.h"
#include "xalloc.h"

/* A mail host lintian takes: two labels or more of letters, digits and
 * '-', the last one not a private name (Data::Validate::Domain checks
 * it against the list of top-level domains). */
static int is_label(const char *s, size_t n)
{
	if (!n || n > 63 || s[0] == '-' || s[n - 1] == '-')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '-')
			return 0;
	return 1;
}

static int is_public_host(const char *host)
{
	static const char *const private[] = {
		"localhost", "localdomain", "local", "lan", "home",
		"internal", "intranet", "corp", "private", "domain",
	};
	const char *last = strrchr(host, '.'), *p = host;

	if (!last || strlen(host) > 253)
		return 0;
	for (const char *dot; (dot = strchr(p, '.')); p = dot + 1)
		if (!is_label(p, (size_t)(dot - p)))
			return 0;
	if (!is_label(p, strlen(p)) || isdigit((unsigned char)p[0]))
		return 0;
	for (size_t i = 0; i < sizeof(private) / sizeof(*private); i++)
		if (!strcasecmp(last + 1, private[i]))
			return 0;
	return 1;
}

static int set(const char *s)
{
	return s && *s;
}

static void trim(struct strbuf *sb)
{
	size_t lead = strspn(sb->buf, " \t");

	if (lead) {
		memmove(sb->buf, sb->buf + lead, sb->len - lead + 1);
		strbuf_setlen(sb, sb->len - lead);
	}
	strbuf_rtrim(sb);
}

/* "Name <addr>" -> name and addr; a bare address -> addr alone. */
static void split_mail(const char *v, struct strbuf *name, struct strbuf *addr)
{
	const char *lt = strchr(v, '<'), *gt = lt ? strchr(lt, '>') : NULL;

	if (!lt || !gt) {
		strbuf_addstr(addr, v);
		return;
	}
	strbuf_add(addr, lt + 1, (size_t)(gt - lt - 1));
	strbuf_add(name, v, (size_t)(lt - v));
	trim(name);
}

/* The name: DEBFULLNAME, NAME, the name in DEBEMAIL/EMAIL, the full name
 * of the passwd entry (up to its first comma), the login. Characters
 * a Maintainer field's phrase cannot hold are left out. */
static const char *pick_name(const struct pp_who *w, const char *in_mail,
			     struct strbuf *name)
{
	const char *from;

	if (set(w->debfullname)) {
		strbuf_addstr(name, w->debfullname);
		from = "DEBFULLNAME";
	} else if (set(w->name)) {
		strbuf_addstr(name, w->name);
		from = "NAME";
	} else if (set(in_mail)) {
		strbuf_addstr(name, in_mail);
		from = set(w->debemail) ? "DEBEMAIL" : "EMAIL";
	} else if (set(w->gecos) && w->gecos[0] != ',') {
		strbuf_add(name, w->gecos, strcspn(w->gecos, ","));
		from = "the passwd entry";
	} else {
		strbuf_addstr(name, set(w->login) ? w->login : "");
		from = "the login";
	}
	for (size_t i = 0; i < name->len; i++)
		if (strchr("<>\",", name->buf[i]) || iscntrl((unsigned char)name->buf[i]))
			name->buf[i] = ' ';
	trim(name);
	return from;
}

/* A login usable as the local part of an address. */
static int is_local_part(const char *s)
{
	if (!set(s) || !strcmp(s, "root"))
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._+-", *s))
			return 0;
	return 1;
}

/* The address from the system: LOGIN@HOST, with the lintian errors out:
 * root becomes the source's name, a private host HOST.invalid. */
static void system_address(const struct pp_who *w, const char *source,
			   struct strbuf *addr, struct strbuf *why)
{
	const char *host = set(w->mailname) ? w->mailname : w->fqdn;
	size_t label = set(host) ? strcspn(host, ".") : 0;

	if (is_local_part(w->login)) {
		strbuf_addstr(addr, w->login);
	} else {
		strbuf_addstr(addr, source);
		strbuf_addf(why, ", the login %s -> %s",
			    set(w->login) ? w->login : "(none)", source);
	}
	if (set(host) && is_public_host(host)) {
		strbuf_addf(addr, "@%s", host);
		return;
	}
	if (set(host) && is_label(host, label))
		strbuf_addf(addr, "@%.*s.invalid", (int)label, host);
	else
		strbuf_addstr(addr, "@localhost.invalid");
	strbuf_addf(why, ", the host %s -> %s (never delivered)",
		    set(host) ? host : "(none)", strchr(addr->buf, '@') + 1);
}

char *pp_maintainer_guess(const struct pp_who *w, const char *source,
			  struct strbuf *why)
{
	struct strbuf name = STRBUF_INIT, addr = STRBUF_INIT, in_mail = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT, notes = STRBUF_INIT;
	const char *mail = set(w->debemail) ? w->debemail : w->email;
	const char *name_from, *addr_from;
	int from_system;

	if (set(mail)) {
		split_mail(mail, &in_mail, &addr);
		addr_from = set(w->debemail) ? "DEBEMAIL" : "EMAIL";
	} else {
		system_address(w, source, &addr, &notes);
		addr_from = set(w->mailname) ? "the login and /etc/mailname" :
			    "the login and the host's name";
	}
	name_from = pick_name(w, in_mail.buf, &name);
	from_system = !set(mail) || (!set(w->debfullname) && !set(w->name) &&
				     !in_mail.len);
	if (from_system && (!name.len || !strcmp(name.buf, "root"))) {
		strbuf_addf(&notes, ", the name %s -> %s packager",
			    name.len ? name.buf : "(none)", source);
		strbuf_reset(&name);
		strbuf_addf(&name, "%s packager", source);
	}
	strbuf_addf(&out, "%s <%s>", name.buf, addr.buf);
	if (from_system && why) {
		strbuf_addf(why, "the name from %s, the address from %s",
			    name_from, addr_from);
		if (notes.len)
			strbuf_addf(why, "; in place of lintian errors%s",
				    notes.buf);
	}
	strbuf_release(&name);
	strbuf_release(&addr);
	strbuf_release(&in_mail);
	strbuf_release(&notes);
	return strbuf_detach(&out, NULL);
}

/* The first line of /etc/mailname, or "". */
static void read_mailname(struct strbuf *sb)
{
	FILE *f = fopen("/etc/mailname", "r");
	char line[256];

	if (f && fgets(line, sizeof(line), f)) {
		strbuf_addstr(sb, line);
		trim(sb);
	}
	if (f)
		fclose(f);
}

/* The host's canonical name (hostname -f), else its name. */
static void read_fqdn(struct strbuf *sb)
{
	struct addrinfo hints = { .ai_flags = AI_CANONNAME }, *ai = NULL;
	char host[256] = "";

	if (gethostname(host, sizeof(host) - 1) < 0)
		return;
	if (!strchr(host, '.') && getaddrinfo(host, NULL, &hints, &ai) == 0 &&
	    ai->ai_canonname)
		strbuf_addstr(sb, ai->ai_canonname);
	else
		strbuf_addstr(sb, host);
	if (ai)
		freeaddrinfo(ai);
}

char *pp_maintainer_default(const char *source, struct strbuf *why)
{
	struct pp_who w = { 0 };
	struct strbuf mailname = STRBUF_INIT, fqdn = STRBUF_INIT;
	struct passwd *pw = getpwuid(getuid());
	char *m;

	w.debfullname = getenv("DEBFULLNAME");
	w.name = getenv("NAME");
	w.debemail = getenv("DEBEMAIL");
	w.email = getenv("EMAIL");
	w.gecos = pw ? pw->pw_gecos : NULL;
	w.login = pw ? pw->pw_name : getenv("LOGNAME");
	if (!set(w.debemail) && !set(w.email)) {
		read_mailname(&mailname);
		if (!mailname.len)
			read_fqdn(&fqdn);
		w.mailname = mailname.buf;
		w.fqdn = fqdn.buf;
	}
	m = pp_maintainer_guess(&w, source, why);
	strbuf_release(&mailname);
	strbuf_release(&fqdn);
	return m;
}
