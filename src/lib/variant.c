/* Using a loaded spec: choosing variants, expanding @placeholders@ for one
 * variant, and finding the version to build.
 * Layer: below spec.c (loading, which lists variants in its errors),
 * above spec_setting.c (placeholder names); calls only down. */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "proc.h"
#include "spec.h"
#include "specint.h"
#include "xalloc.h"

const struct pp_variant *pp_spec_find_variant(const struct pp_spec *spec,
					      const char *name)
{
	for (size_t i = 0; i < spec->nr_variants; i++)
		if (!strcmp(spec->variants[i].name, name))
			return &spec->variants[i];
	return NULL;
}

char *pp_spec_variant_list(const struct pp_spec *spec)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < spec->nr_variants; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", spec->variants[i].name);
	return strbuf_detach(&sb, NULL);
}

int pp_spec_select(const struct pp_spec *spec, char *const *patterns,
		   size_t nr_patterns, unsigned char *selected,
		   struct pp_err *err)
{
	memset(selected, nr_patterns ? 0 : 1, spec->nr_variants);
	for (size_t p = 0; p < nr_patterns; p++) {
		int hit = 0;

		for (size_t i = 0; i < spec->nr_variants; i++)
			if (!fnmatch(patterns[p], spec->variants[i].name, 0))
				hit = selected[i] = 1;
		if (!hit) {
			char *all = pp_spec_variant_list(spec);

			pp_err_set(err, PP_EXIT_USAGE, "--variant '%s': no such "
				   "variant in %s; its variants are: %s",
				   patterns[p], spec->path, all);
			free(all);
			return -1;
		}
	}
	return 0;
}

/* The value of placeholder name for ctx, or NULL when it has none. */
static const char *lookup(const struct pp_expand_ctx *ctx, const char *name,
			  char *num, size_t numlen)
{
	const struct pp_variant *v = ctx->variant;
	size_t len = strlen(name);

	if (!strcmp(name, "name"))
		return ctx->spec->name;
	if (!strcmp(name, "version"))
		return ctx->version;
	if (!strcmp(name, "variant"))
		return v ? v->name : NULL;
	if (!strcmp(name, "suffix"))
		return v ? v->suffix : NULL;
	if (!strcmp(name, "test"))
		return ctx->test ? "ON" : "OFF";
	if (!strcmp(name, "jobs")) {
		snprintf(num, numlen, "%d", ctx->jobs);
		return num;
	}
	for (size_t a = 0; v && a < ctx->spec->nr_axes; a++)
		if (!strcmp(ctx->spec->axes[a].name, name))
			return v->values[a]->name;
	for (size_t i = 0; ctx->tools && i < ctx->tools->nr; i++)
		if (!strncmp(ctx->tools->items[i], name, len) &&
		    ctx->tools->items[i][len] == '=')
			return ctx->tools->items[i] + len + 1;
	return NULL;
}

int pp_spec_expand(const char *tmpl, const struct pp_expand_ctx *ctx,
		   struct strbuf *out, struct pp_err *err)
{
	const char *p = tmpl, *at, *end;
	char num[32];

	while ((at = strchr(p, '@')) && (end = strchr(at + 1, '@'))) {
		char *name = xstrndup(at + 1, (size_t)(end - at - 1));
		const char *val;

		strbuf_add(out, p, (size_t)(at - p));
		if (!pp_is_placeholder_name(name)) {
			strbuf_addch(out, '@'); /* not a placeholder */
			p = at + 1;
			free(name);
			continue;
		}
		val = lookup(ctx, name, num, sizeof(num));
		if (!val) {
			pp_err_set(err, PP_EXIT_INPUT, "%s: '%s': placeholder "
				   "@%s@ has no value here", ctx->spec->path,
				   tmpl, name);
			free(name);
			return -1;
		}
		strbuf_addstr(out, val);
		p = end + 1;
		free(name);
	}
	strbuf_addstr(out, p);
	return 0;
}

const char *pp_version_origin_name(enum pp_version_origin origin)
{
	switch (origin) {
	case PP_VERSION_ENV: return "environment";
	case PP_VERSION_SPEC: return "spec";
	case PP_VERSION_GIT: return "git tag";
	case PP_VERSION_DEFAULT: return "default";
	}
	return "?";
}

static const char *skip_digits(const char *s)
{
	if (*s < '0' || *s > '9')
		return NULL;
	while (*s >= '0' && *s <= '9')
		s++;
	return s;
}

/* The end of X.Y or X.Y.Z at the start of s, else NULL. */
static const char *release_end(const char *s)
{
	const char *end = NULL;
	int parts = 0;

	while ((s = skip_digits(s)) && ++parts <= 3) {
		end = s;
		if (*s != '.' || parts == 3)
			break;
		s++;
	}
	if (!end || parts < 2 || (*end == '.' && skip_digits(end + 1)))
		return NULL;
	return end;
}

/* Whether s (what follows X.Y.Z) names a pre-release: alpha, beta, pre
 * or rc in either case (semver's -RC.1, Beta2), after '-', '.', '_' or nothing and before an optional number
 * ("-beta", ".rc.1", "rc2"), or a or b right before a number ("b1"). */
static int is_prerelease(const char *s)
{
	static const char *const words[] = { "alpha", "beta", "pre", "rc" };
	const char *w = s + (*s && strchr("-._", *s) ? 1 : 0), *end = NULL;

	for (size_t i = 0; !end && i < sizeof(words) / sizeof(*words); i++)
		if (!strncasecmp(w, words[i], strlen(words[i])))
			end = w + strlen(words[i]);
	if (end) {
		end += *end == '.' && skip_digits(end + 1) ? 1 : 0;
		return !*end || ((end = skip_digits(end)) && !*end);
	}
	if (w != s || (*s != 'a' && *s != 'b'))
		return 0;
	return (end = skip_digits(s + 1)) && !*end;
}

int pp_version_is_release(const char *s)
{
	s = release_end(s);
	return s && (!*s || is_prerelease(s));
}

size_t pp_version_release_len(const char *s)
{
	const char *end = release_end(s);

	return end && *end && is_prerelease(end) ? (size_t)(end - s) : 0;
}

/* The nearest vX.Y.Z tag of the source tree, without its "v". */
static char *git_version(const char *source)
{
	char *argv[] = { "git", "-C", (char *)source, "describe", "--tags",
			 "--abbrev=0", "--match", "v[0-9]*.[0-9]*.[0-9]*",
			 NULL };
	struct strbuf out = STRBUF_INIT;
	struct pp_err ignored;
	char *v = NULL;
	int status = -1;

	pp_err_init(&ignored);
	if (!pp_proc_capture(argv, NULL, &out, &status, &ignored) &&
	    status == 0) {
		strbuf_rtrim(&out);
		if (out.buf[0] == 'v' && pp_version_is_release(out.buf + 1))
			v = xstrdup(out.buf + 1);
	}
	pp_err_release(&ignored);
	strbuf_release(&out);
	return v;
}

int pp_spec_version(const struct pp_spec *spec, const char *source,
		    char **version, enum pp_version_origin *origin,
		    struct pp_err *err)
{
	const char *env = spec->version_env ? getenv(spec->version_env) : NULL;

	if (env && *env) {
		if (!pp_version_is_release(env))
			return pp_err_set(err, PP_EXIT_INPUT, "%s='%s' is not a "
					  "version; use X.Y or X.Y.Z, maybe followed "
					  "by aN, bN or rcN", spec->version_env,
					  env);
		*version = xstrdup(env);
		*origin = PP_VERSION_ENV;
	} else if (spec->version) {
		*version = xstrdup(spec->version);
		*origin = PP_VERSION_SPEC;
	} else if ((*version = git_version(source))) {
		*origin = PP_VERSION_GIT;
	} else {
		*version = xstrdup("0.0.0");
		*origin = PP_VERSION_DEFAULT;
		pp_warn(err, "padpack: %s sets no version and %s has no vX.Y.Z "
			"git tag; building version 0.0.0", spec->path, source);
	}
	return 0;
}
