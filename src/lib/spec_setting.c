/* Reading one setting of a spec: a string with its check, a list, a
 * template with its @placeholders@, and the word checks they use.
 * Layer: the bottom of the spec module's reading (below spec_read.c,
 * spec_packages.c and variant.c); it calls none of them. */
#include <libconfig.h>
#include <stdlib.h>
#include <string.h>

#include "spec.h"
#include "specint.h"
#include "xalloc.h"

int pp_spec_is_word(const char *s, const char *first, const char *rest)
{
	if (!*s || !strchr(first, *s))
		return 0;
	for (s++; *s; s++)
		if (!strchr(rest, *s))
			return 0;
	return 1;
}

int pp_spec_is_package_name(const char *s)
{
	return strlen(s) >= 2 && pp_spec_is_word(s, LOWER DIGIT, LOWER DIGIT "+-.");
}

char *pp_spec_package_name_from(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;

	for (; *s; s++) {
		char c = *s >= 'A' && *s <= 'Z' ? (char)(*s - 'A' + 'a') : *s;

		if (!strchr(LOWER DIGIT "+-.", c))
			c = '-';
		if (c == '-' && (o == out || o[-1] == '-'))
			continue; /* none first, none twice */
		*o++ = c;
	}
	while (o > out && strchr("-.+", o[-1]))
		o--;
	*o = '\0';
	if (!pp_spec_is_package_name(out)) {
		free(out);
		return NULL;
	}
	return out;
}

int pp_is_placeholder_name(const char *s)
{
	return pp_spec_is_word(s, LOWER "_", LOWER DIGIT "_");
}

int pp_spec_in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return 1;
	return 0;
}

/* Checks the @name@ placeholders of s against the names in scope. */
int pp_spec_check_template(struct pp_spec_loader *L, const config_setting_t *at,
			  const char *s, const struct pp_strlist *local)
{
	const char *p = s, *end;

	while ((p = strchr(p, '@')) && (end = strchr(p + 1, '@'))) {
		char *name = xstrndup(p + 1, (size_t)(end - p - 1));
		int known = pp_strlist_find(&L->names, name) >= 0 ||
			    (local && pp_strlist_find(local, name) >= 0);

		if (pp_is_placeholder_name(name) && !known) {
			char *all = pp_strlist_join(&L->names, "@, @");
			char *tools = local && local->nr ?
				      pp_strlist_join(local, "@, @") : NULL;

			pp_setting_error(at, L->file, L->err, "unknown "
					 "placeholder @%s@; known: @%s@%s%s%s",
					 name, all, tools ? ", @" : "",
					 tools ? tools : "", tools ? "@" : "");
			free(all);
			free(tools);
			free(name);
			return -1;
		}
		p = pp_is_placeholder_name(name) ? end + 1 : p + 1;
		free(name);
	}
	return 0;
}

/* Reads the string setting key of g (NULL when absent) into *out, after
 * checking it with valid() (NULL: any non-empty string). */
int pp_spec_read_string(struct pp_spec_loader *L, const config_setting_t *g,
		       const char *key, char **out, int (*valid)(const char *),
		       const char *what)
{
	const config_setting_t *s = config_setting_get_member(g, key);
	const char *v;

	*out = NULL;
	if (!s)
		return 0;
	v = config_setting_get_string(s);
	if (!*v && valid)
		return pp_setting_error(s, L->file, L->err, "is empty; must be "
					"%s", what);
	if (valid ? !valid(v) : !*v)
		return pp_setting_error(s, L->file, L->err, "'%s' is not "
					"valid; must be %s", v, what);
	*out = xstrdup(v);
	return 0;
}

int pp_spec_any_string(const char *s)
{
	return *s != '\0';
}

/* Reads a list of strings; templates are checked when scope is given. */
int pp_spec_read_strings(struct pp_spec_loader *L, const config_setting_t *g,
			const char *key, struct pp_strlist *out,
			const struct pp_strlist *scope, int templates)
{
	const config_setting_t *s = config_setting_get_member(g, key);

	for (int i = 0; s && i < config_setting_length(s); i++) {
		const config_setting_t *e = config_setting_get_elem(s, i);
		const char *v = config_setting_get_string(e);

		if (!*v)
			return pp_setting_error(e, L->file, L->err, "an empty "
						"string; remove it or fill it in");
		if (templates && pp_spec_check_template(L, e, v, scope) < 0)
			return -1;
		pp_strlist_push(out, v);
	}
	return 0;
}

int pp_spec_is_abs_path(const char *s)
{
	return *s == '/';
}

int pp_spec_read_template(struct pp_spec_loader *L, const config_setting_t *g,
			 const char *key, char **out)
{
	const config_setting_t *s = config_setting_get_member(g, key);

	if (pp_spec_read_string(L, g, key, out, NULL, NULL) < 0)
		return -1;
	return *out ? pp_spec_check_template(L, s, *out, NULL) : 0;
}
