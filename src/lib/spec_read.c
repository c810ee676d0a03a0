/* Reading a spec's settings once the schema is known to hold: each with
 * the checks of its meaning, and the placeholders of its templates. The
 * packages section is in spec_packages.c, the reading of one setting in
 * spec_setting.c.
 * Layer: below spec.c; calls down into spec_packages.c and
 * spec_setting.c, never up into spec.c or variant.c. */
#include "spec.h"

#include <ctype.h>
#include <fnmatch.h>
#include <libconfig.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stdio.h>
#include <sys/stat.h>

#include "fsutil.h"
#include "isa.h"
#include "specint.h"
#include "xalloc.h"

/* Placeholders every template may use, besides axis names and tools. */
static const char *const fixed_names[] = {
	"name", "version", "variant", "suffix", "test", "jobs", NULL,
};

/* Instruction-set names forbid_isa knows (the split step scans for them). */
static const char *const isa_names[] = {
	"avx", "avx2", "avx512", "fma", "f16c", "avxvnni", "amx", "bmi",
	"bmi2", "sse3", "ssse3", "sse4.1", "sse4.2", "sse4a", "popcnt",
	"aes", "pclmul", "sha", "x87", "mmx", NULL,
};

static int is_env_name(const char *s)
{
	return pp_spec_is_word(s, UPPER LOWER "_", UPPER LOWER DIGIT "_");
}

int pp_version_is_upstream(const char *s)
{
	if (*s < '0' || *s > '9' || strlen(s) > 100)
		return 0;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
		      (*s >= 'A' && *s <= 'Z') || strchr(".+~-", *s)))
			return 0;
	return 1;
}

enum pp_records pp_records_parse(const char *name)
{
	if (!strcmp(name, "status.d"))
		return PP_RECORDS_STATUS_D;
	if (!strcmp(name, "dpkg"))
		return PP_RECORDS_DPKG;
	return PP_RECORDS_UNSET;
}

static int read_env(struct pp_spec_loader *L, const config_setting_t *g,
		    struct pp_strlist *env, const struct pp_strlist *scope)
{
	const config_setting_t *s = config_setting_get_member(g, "env");

	for (int i = 0; s && i < config_setting_length(s); i++) {
		const config_setting_t *e = config_setting_get_elem(s, i);
		const char *name = config_setting_name(e);

		if (!is_env_name(name))
			return pp_setting_error(e, L->file, L->err, "not a "
						"variable name; use letters, "
						"digits and '_'");
		if (pp_spec_check_template(L, e, config_setting_get_string(e),
					   scope) < 0)
			return -1;
		pp_strlist_pushf(env, "%s=%s", name,
				 config_setting_get_string(e));
	}
	return 0;
}

static int is_program(const char *s)
{
	return pp_spec_is_word(s, LOWER UPPER DIGIT "_", LOWER UPPER DIGIT "_.+-");
}

/* Reads needs = ( { program; what; search; } ) into set->needs and adds
 * each program name to tools (the placeholders in this scope). */
static int read_tools(struct pp_spec_loader *L, const config_setting_t *g,
		      struct pp_settings *set, struct pp_strlist *tools)
{
	const config_setting_t *s = config_setting_get_member(g, "needs");
	int n = s ? config_setting_length(s) : 0;

	set->needs = xcalloc((size_t)n + 1, sizeof(*set->needs));
	for (int i = 0; i < n; i++) {
		const config_setting_t *e = config_setting_get_elem(s, i);
		struct pp_tool *t = &set->needs[set->nr_needs++];

		t->line = config_setting_source_line(e);
		if (pp_spec_read_string(L, e, "program", &t->program, is_program,
					"a program name: letters, digits, '_', '.', "
					"'+', '-'") < 0 ||
		    pp_spec_read_string(L, e, "what", &t->what, NULL, NULL) < 0 ||
		    pp_spec_read_strings(L, e, "search", &t->search, NULL, 0) < 0)
			return -1;
		for (size_t j = 0; j < t->search.nr; j++)
			if (!pp_spec_is_abs_path(t->search.items[j]))
				return pp_setting_error(e, L->file, L->err,
							"search: '%s' is not an "
							"absolute directory",
							t->search.items[j]);
		if (!pp_is_placeholder_name(t->program))
			continue; /* needed, but no @placeholder@ */
		if (pp_strlist_find(&L->names, t->program) >= 0)
			return pp_setting_error(e, L->file, L->err, "program "
						"'%s' has the name of another "
						"placeholder; rename the axis",
						t->program);
		pp_strlist_push(tools, t->program);
	}
	return 0;
}

static const char *const build_kind_names[] = {
	"cmake", "make", "autotools", "meson", "commands", NULL,
};

const char *pp_build_kind_name(enum pp_build_kind kind)
{
	return build_kind_names[kind];
}

#define SYS(kind) (1u << (kind))
#define SYS_MAKE (SYS(PP_BUILD_MAKE) | SYS(PP_BUILD_AUTOTOOLS))

/* Settings only some build systems read; any other system would ignore
 * them without a word, so a spec that has them is wrong. */
static const struct {
	const char *key;
	unsigned systems;
} system_only[] = {
	{ "cmake", SYS(PP_BUILD_CMAKE) },
	{ "generator", SYS(PP_BUILD_CMAKE) },
	{ "make_vars", SYS_MAKE },
	{ "make_target", SYS_MAKE },
	{ "make_test_target", SYS_MAKE },
	{ "make_install_target", SYS_MAKE },
	{ "configure_args", SYS(PP_BUILD_AUTOTOOLS) },
	{ "meson_args", SYS(PP_BUILD_MESON) },
	{ "commands", SYS(PP_BUILD_COMMANDS) },
	{ "after_build", SYS_MAKE },
	{ "after_install", SYS_MAKE },
	{ "prebuilt_objects", SYS_MAKE },
};

static int check_system_keys(struct pp_spec_loader *L, const config_setting_t *g)
{
	enum pp_build_kind kind = L->spec->system.kind;

	for (size_t i = 0; i < ARRAY_SIZE(system_only); i++) {
		const config_setting_t *s =
			config_setting_get_member(g, system_only[i].key);
		struct strbuf for_whom = STRBUF_INIT;

		if (!s || (system_only[i].systems & SYS(kind)))
			continue;
		for (int k = 0; build_kind_names[k]; k++)
			if (system_only[i].systems & SYS(k))
				strbuf_addf(&for_whom, "%s%s", for_whom.len ?
					    " and " : "", build_kind_names[k]);
		pp_setting_error(s, L->file, L->err, "the %s build system "
				 "(build.system) does not read it; it is for %s: "
				 "remove it or change build.system",
				 build_kind_names[kind], for_whom.buf);
		strbuf_release(&for_whom);
		return -1;
	}
	return 0;
}

/* The flags and arguments only some build systems read. */
static int read_system_settings(struct pp_spec_loader *L, const config_setting_t *g,
				struct pp_settings *set,
				const struct pp_strlist *scope)
{
	return check_system_keys(L, g) ||
	       pp_spec_read_strings(L, g, "cppflags", &set->cppflags, scope, 1) ||
	       pp_spec_read_strings(L, g, "ldflags", &set->ldflags, scope, 1) ||
	       pp_spec_read_strings(L, g, "make_vars", &set->make_vars, scope, 1) ||
	       pp_spec_read_strings(L, g, "configure_args", &set->configure_args,
				    scope, 1) ||
	       pp_spec_read_strings(L, g, "meson_args", &set->meson_args, scope, 1) ?
	       -1 : 0;
}

/* The settings shared by the build section and axis values. */
static int read_settings(struct pp_spec_loader *L, const config_setting_t *g,
			 struct pp_settings *set,
			 const struct pp_strlist *outer_tools)
{
	struct pp_strlist scope = PP_STRLIST_INIT;
	int rc = -1;

	if (outer_tools)
		pp_strlist_extend(&scope, outer_tools);
	if (read_tools(L, g, set, &scope) == 0 &&
	    pp_spec_read_strings(L, g, "cmake", &set->cmake, &scope, 1) == 0 &&
	    pp_spec_read_strings(L, g, "cflags", &set->cflags, &scope, 1) == 0 &&
	    read_env(L, g, &set->env, &scope) == 0 &&
	    read_system_settings(L, g, set, &scope) == 0)
		rc = 0;
	pp_strlist_release(&scope);
	return rc;
}

static void settings_release(struct pp_settings *set)
{
	pp_strlist_release(&set->cmake);
	pp_strlist_release(&set->cflags);
	pp_strlist_release(&set->env);
	pp_strlist_release(&set->cppflags);
	pp_strlist_release(&set->ldflags);
	pp_strlist_release(&set->make_vars);
	pp_strlist_release(&set->configure_args);
	pp_strlist_release(&set->meson_args);
	for (size_t i = 0; i < set->nr_needs; i++) {
		free(set->needs[i].program);
		free(set->needs[i].what);
		pp_strlist_release(&set->needs[i].search);
	}
	free(set->needs);
}

/* The placeholders a build section's tools add (for its templates). */
static void build_tools(const struct pp_spec *spec, struct pp_strlist *out)
{
	for (size_t i = 0; i < spec->build.nr_needs; i++)
		pp_strlist_push(out, spec->build.needs[i].program);
}

static int is_release(const char *s)
{
	return pp_version_is_upstream(s);
}

static int is_maintainer(const char *s)
{
	const char *lt = strchr(s, '<'), *at = strchr(s, '@');

	return lt && lt > s && at > lt && s[strlen(s) - 1] == '>' &&
	       !strchr(s, '\n');
}

static int is_url(const char *s)
{
	return (!strncmp(s, "https://", 8) || !strncmp(s, "http://", 7)) &&
	       !strpbrk(s, " \t\n");
}

static int is_summary(const char *s)
{
	return *s && strlen(s) < 80 && !strchr(s, '\n');
}

static int read_about(struct pp_spec_loader *L, const config_setting_t *root)
{
	struct pp_spec *sp = L->spec;

	return pp_spec_read_string(L, root, "name", &sp->name, pp_spec_is_package_name,
				   "a Debian package name: lower-case letters, digits, "
				   "'+', '-', '.', at least 2 characters") ||
	       pp_spec_read_string(L, root, "version", &sp->version, is_release,
				   "an upstream version: a digit, then letters, "
				   "digits, '.', '+', '~' or '-', e.g. 1.4.2+ds") ||
	       pp_spec_read_string(L, root, "version_env", &sp->version_env,
				   is_env_name, "a variable name (letters, digits, "
				   "'_')") ||
	       pp_spec_read_string(L, root, "maintainer", &sp->maintainer,
				   is_maintainer, "\"Full Name <email@address>\"") ||
	       pp_spec_read_string(L, root, "homepage", &sp->homepage, is_url,
				   "an http:// or https:// URL without spaces") ||
	       pp_spec_read_string(L, root, "summary", &sp->summary, is_summary,
				   "one line of under 80 characters") ||
	       pp_spec_read_string(L, root, "description", &sp->description,
				   pp_spec_any_string, "a paragraph of text") ||
	       pp_spec_read_string(L, root, "source", &sp->source, NULL, NULL) ? -1 : 0;
}

/* build.system, which the other build settings are checked against. */
static int read_system_kind(struct pp_spec_loader *L, const config_setting_t *b)
{
	const config_setting_t *s = config_setting_get_member(b, "system");
	const config_setting_t *c = config_setting_get_member(b, "commands");
	struct pp_build_system *sys = &L->spec->system;
	int k = 0;

	while (s && build_kind_names[k] &&
	       strcmp(build_kind_names[k], config_setting_get_string(s)))
		k++;
	if (s && !build_kind_names[k])
		return pp_setting_error(s, L->file, L->err, "unknown build "
					"system '%s'; known: cmake, make, "
					"autotools, meson, commands",
					config_setting_get_string(s));
	sys->kind = (enum pp_build_kind)k;
	if (sys->kind == PP_BUILD_COMMANDS && !c)
		return pp_setting_error(s, L->file, L->err, "is \"commands\", "
					"which needs build.commands = { build = "
					"[...]; install = [...]; }");
	return 0;
}

/* What goes with build.system: make targets, commands, buildflags. */
static int read_system(struct pp_spec_loader *L, const config_setting_t *b)
{
	const config_setting_t *c = config_setting_get_member(b, "commands");
	static const char *const steps[PP_NR_CMD_STEPS] = {
		"configure", "build", "test", "install",
	};
	struct pp_build_system *sys = &L->spec->system;
	struct pp_strlist tools = PP_STRLIST_INIT;
	int flags = 0, rc = 0;

	if (config_setting_lookup_bool(b, "buildflags", &flags))
		sys->buildflags = flags;
	for (size_t i = 0; i < L->spec->build.nr_needs; i++)
		pp_strlist_push(&tools, L->spec->build.needs[i].program);
	for (int i = 0; c && !rc && i < PP_NR_CMD_STEPS; i++)
		rc = pp_spec_read_strings(L, c, steps[i], &sys->commands[i], &tools, 1);
	pp_strlist_release(&tools);
	return rc ||
	       pp_spec_read_strings(L, b, "after_build", &sys->after_build, NULL, 1) ||
	       pp_spec_read_strings(L, b, "after_install", &sys->after_install, NULL,
				    1) ||
	       pp_spec_read_strings(L, b, "prebuilt_objects",
				    &sys->prebuilt_objects, NULL, 0) ||
	       pp_spec_read_template(L, b, "make_target", &sys->make_target) ||
	       pp_spec_read_template(L, b, "make_test_target", &sys->make_test_target) ||
	       pp_spec_read_template(L, b, "make_install_target",
				     &sys->make_install_target) ? -1 : 0;
}

static void system_release(struct pp_build_system *sys)
{
	free(sys->make_target);
	free(sys->make_test_target);
	free(sys->make_install_target);
	for (int i = 0; i < PP_NR_CMD_STEPS; i++)
		pp_strlist_release(&sys->commands[i]);
	pp_strlist_release(&sys->after_build);
	pp_strlist_release(&sys->after_install);
	pp_strlist_release(&sys->prebuilt_objects);
}

static int read_build(struct pp_spec_loader *L, const config_setting_t *root)
{
	const config_setting_t *b = config_setting_get_member(root, "build");
	struct pp_spec *sp = L->spec;
	int test = 1;

	sp->test = 1;
	if (!b)
		return 0;
	if (config_setting_lookup_bool(b, "test", &test))
		sp->test = test;
	return pp_spec_read_string(L, b, "generator", &sp->generator, pp_spec_any_string,
				   "a CMake generator name") ||
	       pp_spec_read_strings(L, b, "test_args", &sp->test_args, NULL, 1) ||
	       read_system_kind(L, b) ||
	       read_settings(L, b, &sp->build, NULL) ||
	       read_system(L, b) ? -1 : 0;
}

static int is_value_name(const char *s)
{
	return pp_spec_is_word(s, LOWER DIGIT, LOWER DIGIT "._");
}

static int is_suffix(const char *s)
{
	return !*s || pp_spec_is_word(s, LOWER DIGIT, LOWER DIGIT ".-");
}

static int read_isa(struct pp_spec_loader *L, const config_setting_t *g,
		    struct pp_strlist *isa)
{
	const config_setting_t *s = config_setting_get_member(g, "forbid_isa");

	if (pp_spec_read_strings(L, g, "forbid_isa", isa, NULL, 0) < 0)
		return -1;
	for (size_t i = 0; i < isa->nr; i++)
		if (!pp_spec_in_list(isa_names, isa->items[i])) {
			struct pp_strlist all = PP_STRLIST_INIT;
			char *known;

			for (const char *const *n = isa_names; *n; n++)
				pp_strlist_push(&all, *n);
			known = pp_strlist_join(&all, ", ");
			pp_setting_error(config_setting_get_elem(s, (unsigned)i),
					 L->file, L->err, "unknown instruction "
					 "set '%s'; known: %s", isa->items[i],
					 known);
			free(known);
			pp_strlist_release(&all);
			return -1;
		}
	return 0;
}

/* ---- what padpack docker writes into Dockerfiles and scripts ---------- */

/* A newline in a Dockerfile instruction or a script word would end it. */
static int one_line(const char *s)
{
	return *s && !strpbrk(s, "\n\r");
}

static int is_image_ref(const char *s)
{
	return one_line(s) && !strpbrk(s, " \t'\"\\$`");
}

/* Reads a list whose strings become words of Dockerfiles and scripts. */
static int read_words(struct pp_spec_loader *L, const config_setting_t *g,
		      const char *key, struct pp_strlist *out, int templates)
{
	const config_setting_t *s = config_setting_get_member(g, key);
	size_t first = out->nr;

	if (pp_spec_read_strings(L, g, key, out, NULL, templates) < 0)
		return -1;
	for (size_t i = first; i < out->nr; i++)
		if (!one_line(out->items[i]))
			return pp_setting_error(config_setting_get_elem(s,
						(unsigned)(i - first)), L->file,
						L->err, "holds a line break; "
						"write it on one line");
	return 0;
}

/* NAME=VALUE lists (env, labels), NAME checked by valid_name. */
static int read_assignments(struct pp_spec_loader *L, const config_setting_t *g,
			    const char *key, struct pp_strlist *out,
			    int (*valid_name)(const char *))
{
	const config_setting_t *s = config_setting_get_member(g, key);

	if (read_words(L, g, key, out, 1) < 0)
		return -1;
	for (size_t i = 0; i < out->nr; i++) {
		const char *eq = strchr(out->items[i], '=');
		char *name = eq ? xstrndup(out->items[i],
					   (size_t)(eq - out->items[i])) : NULL;
		int ok = name && valid_name(name);

		free(name);
		if (!ok)
			return pp_setting_error(config_setting_get_elem(s,
						(unsigned)i), L->file, L->err,
						"'%s' is not NAME=VALUE with a "
						"valid NAME", out->items[i]);
	}
	return 0;
}

static int is_label_key(const char *s)
{
	return pp_spec_is_word(s, LOWER DIGIT, LOWER DIGIT ".-") &&
	       s[strlen(s) - 1] != '.';
}

static int is_user_name(const char *s)
{
	return strlen(s) <= 32 && pp_spec_is_word(s, LOWER "_", LOWER DIGIT "_-");
}

static int is_image_name(const char *s)
{
	return pp_spec_is_word(s, LOWER DIGIT, LOWER DIGIT "._-");
}

/* A Debian package name, or a template of one. */
static int is_package_template(const char *s)
{
	return pp_spec_is_word(s, LOWER DIGIT "@", LOWER DIGIT "@_+-.");
}

static int check_each(struct pp_spec_loader *L, const config_setting_t *g,
		      const char *key, const struct pp_strlist *list,
		      int (*valid)(const char *), const char *what)
{
	const config_setting_t *s = config_setting_get_member(g, key);

	for (size_t i = 0; i < list->nr; i++)
		if (!valid(list->items[i]))
			return pp_setting_error(config_setting_get_elem(s,
						(unsigned)i), L->file, L->err,
						"'%s' is not valid; must be %s",
						list->items[i], what);
	return 0;
}

static int read_uid(struct pp_spec_loader *L, const config_setting_t *g, long *uid)
{
	const config_setting_t *s = config_setting_get_member(g, "uid");

	*uid = 1000;
	if (!s)
		return 0;
	*uid = config_setting_get_int(s);
	if (*uid < 1 || *uid > 65534)
		return pp_setting_error(s, L->file, L->err, "%ld is not a "
					"number from 1 to 65534 (production "
					"images run as a user other than root)",
					*uid);
	return 0;
}

/* dev_env = { GPU = "WITH_GPU"; }: short names of build switches. */
static int read_dev_env(struct pp_spec_loader *L, const config_setting_t *g,
			struct pp_strlist *out)
{
	const config_setting_t *s = config_setting_get_member(g, "dev_env");

	for (int i = 0; s && i < config_setting_length(s); i++) {
		const config_setting_t *e = config_setting_get_elem(s,
								(unsigned)i);
		const char *v = config_setting_get_string(e);

		if (!is_env_name(config_setting_name(e)) || !is_env_name(v))
			return pp_setting_error(e, L->file, L->err, "'%s' is not "
						"a variable name; map a short name "
						"to a variable, e.g. GPU = "
						"\"WITH_GPU\"", v);
		pp_strlist_pushf(out, "%s=%s", config_setting_name(e), v);
	}
	return 0;
}

static int is_records(const char *s)
{
	return pp_records_parse(s) != PP_RECORDS_UNSET;
}

/* records = "status.d" | "dpkg": how production images record packages. */
static int read_records(struct pp_spec_loader *L, const config_setting_t *g,
			enum pp_records *out)
{
	char *name = NULL;
	int rc = pp_spec_read_string(L, g, "records", &name, is_records,
				     "\"status.d\" (the packages' files and "
				     "/var/lib/dpkg/status.d) or \"dpkg\" (installed "
				     "in dpkg's database)");

	if (rc == 0 && name)
		*out = pp_records_parse(name);
	free(name);
	return rc;
}

static int read_image_docker(struct pp_spec_loader *L, const config_setting_t *g,
			     struct pp_image *im)
{
	int helpers = 0;

	if (config_setting_lookup_bool(g, "helpers", &helpers))
		im->helpers = helpers;
	return read_uid(L, g, &im->uid) ||
	       read_records(L, g, &im->records) ||
	       pp_spec_read_template(L, g, "latest", &im->latest) ||
	       pp_spec_read_string(L, g, "user", &im->user, is_user_name,
				   "a user name: lower-case letters, digits, '_', '-'") ||
	       read_words(L, g, "runtime", &im->runtime, 1) ||
	       check_each(L, g, "runtime", &im->runtime, is_package_template,
			  "a package name or template, e.g. lib@name@1") ||
	       read_words(L, g, "entrypoint", &im->entrypoint, 0) ||
	       read_words(L, g, "cmd", &im->cmd, 0) ||
	       read_words(L, g, "smoke", &im->smoke, 0) ||
	       read_assignments(L, g, "labels", &im->labels, is_label_key) ||
	       pp_spec_read_string(L, g, "label_prefix", &im->label_prefix,
				   is_label_key, "a reverse domain name, e.g. "
				   "org.paddlepaddle") ||
	       read_words(L, g, "dev_packages", &im->dev_packages, 0) ||
	       check_each(L, g, "dev_packages", &im->dev_packages,
			  pp_spec_is_package_name, "a Debian package name") ||
	       read_dev_env(L, g, &im->dev_env) ||
	       pp_spec_read_string(L, g, "woboq", &im->woboq, is_image_ref,
				   "a git URL without spaces or quotes") ? -1 : 0;
}

static int is_copy(const char *s)
{
	const char *colon = strchr(s, ':');

	return colon && colon > s && colon[1] == '/' && is_image_ref(s);
}

static int is_port(const char *s)
{
	char *end;
	long port = strtol(s, &end, 10);

	return isdigit((unsigned char)*s) && port >= 1 && port <= 65535 &&
	       (!*end || !strcmp(end, "/tcp") || !strcmp(end, "/udp"));
}

static int read_app(struct pp_spec_loader *L, const config_setting_t *g,
		    struct pp_app *a)
{
	a->line = config_setting_source_line(g);
	return pp_spec_read_string(L, g, "name", &a->name, is_image_name,
				   "an image name: lower-case letters, digits, '.', "
				   "'_', '-'") ||
	       read_words(L, g, "variants", &a->variants, 0) ||
	       read_words(L, g, "apt", &a->apt, 0) ||
	       check_each(L, g, "apt", &a->apt, pp_spec_is_package_name,
			  "a Debian package name") ||
	       read_words(L, g, "pip", &a->pip, 0) ||
	       read_words(L, g, "copy", &a->copy, 0) ||
	       check_each(L, g, "copy", &a->copy, is_copy, "SRC:DEST with "
			  "an absolute DEST, e.g. book:/book") ||
	       read_words(L, g, "expose", &a->expose, 0) ||
	       check_each(L, g, "expose", &a->expose, is_port, "a port from "
			  "1 to 65535, optionally /tcp or /udp") ||
	       read_assignments(L, g, "env", &a->env, is_env_name) ||
	       read_words(L, g, "cmd", &a->cmd, 0) ? -1 : 0;
}

static int read_apps(struct pp_spec_loader *L, const config_setting_t *root)
{
	const config_setting_t *list = config_setting_get_member(root, "apps");
	struct pp_spec *sp = L->spec;
	int n = list ? config_setting_length(list) : 0;

	sp->apps = xcalloc((size_t)n + 1, sizeof(*sp->apps));
	for (int i = 0; i < n; i++) {
		const config_setting_t *e = config_setting_get_elem(list,
								(unsigned)i);

		if (read_app(L, e, &sp->apps[sp->nr_apps++]) < 0)
			return -1;
		for (size_t j = 0; j + 1 < sp->nr_apps; j++)
			if (!strcmp(sp->apps[j].name, sp->apps[i].name))
				return pp_setting_error(e, L->file, L->err,
							"a second app named "
							"'%s' (line %u)",
							sp->apps[i].name,
							sp->apps[j].line);
	}
	return 0;
}

void pp_app_release(struct pp_app *a)
{
	free(a->name);
	pp_strlist_release(&a->variants);
	pp_strlist_release(&a->apt);
	pp_strlist_release(&a->pip);
	pp_strlist_release(&a->copy);
	pp_strlist_release(&a->expose);
	pp_strlist_release(&a->env);
	pp_strlist_release(&a->cmd);
}

static int read_container(struct pp_spec_loader *L, const config_setting_t *g,
			  struct pp_container *c)
{
	const config_setting_t *s = config_setting_get_member(g, "container");

	if (!s)
		return 0;
	return pp_spec_read_string(L, s, "base", &c->base, is_image_ref,
				   "an image name such as debian:bookworm-slim") ||
	       pp_spec_read_string(L, s, "dev_base", &c->dev_base, is_image_ref,
				   "an image name such as debian:bookworm") ||
	       pp_spec_read_strings(L, s, "build_flags", &c->build_flags, NULL, 1) ||
	       read_words(L, s, "run_flags", &c->run_flags, 1) ||
	       read_assignments(L, s, "env", &c->env, is_env_name) ? -1 : 0;
}

/* isa = "x86-64-v2" and isa_require = [ "avx" ], checked by the ISA
 * scanner's own parsers. */
static int read_isa_limit(struct pp_spec_loader *L, const config_setting_t *g,
			  struct pp_axis_value *v)
{
	const config_setting_t *s = config_setting_get_member(g, "isa");
	const config_setting_t *r = config_setting_get_member(g, "isa_require");
	struct pp_isa_limit limit;
	struct pp_isa_set set = { { 0 } };
	struct pp_err e;

	if (pp_spec_read_string(L, g, "isa", &v->isa, NULL, NULL) < 0 ||
	    pp_spec_read_strings(L, g, "isa_require", &v->isa_require, NULL, 0) < 0)
		return -1;
	pp_err_init(&e);
	if (v->isa && pp_isa_limit_parse(v->isa, &limit, &e) < 0) {
		pp_setting_error(s, L->file, L->err, "%s", e.msg);
		pp_err_release(&e);
		return -1;
	}
	pp_err_release(&e);
	for (size_t i = 0; i < v->isa_require.nr; i++)
		if (pp_isa_set_add(&set, v->isa_require.items[i]) < 0)
			return pp_setting_error(config_setting_get_elem(r,
						(unsigned)i), L->file, L->err,
						"unknown instruction set '%s'; "
						"e.g. avx, avx2, fma, avx512, "
						"sse4.2", v->isa_require.items[i]);
	return 0;
}

static int is_soname(const char *s)
{
	return strstr(s, ".so") && !strchr(s, '/') && !strpbrk(s, " \t");
}

static int read_accel(struct pp_spec_loader *L, const config_setting_t *g,
		      struct pp_accel *a)
{
	const config_setting_t *s = config_setting_get_member(g, "accelerator");

	if (!s)
		return 0;
	if (pp_spec_read_string(L, s, "what", &a->what, NULL, NULL) < 0 ||
	    pp_spec_read_strings(L, s, "libs", &a->libs, NULL, 0) < 0)
		return -1;
	for (size_t i = 0; i < a->libs.nr; i++)
		if (!is_soname(a->libs.items[i]))
			return pp_setting_error(config_setting_get_member(s,
						"libs"), L->file, L->err, "'%s' "
						"is not a library file name; "
						"give SONAMEs, e.g. libcuda.so.1",
						a->libs.items[i]);
	if (!a->libs.nr)
		return pp_setting_error(s, L->file, L->err, "libs is empty; "
					"list the driver's libraries");
	return 0;
}

/* An axis value's share of its variants' update-alternatives priority. */
static int read_priority(struct pp_spec_loader *L, const config_setting_t *g,
			 long *priority)
{
	const config_setting_t *s = config_setting_get_member(g, "priority");

	if (!s)
		return 0;
	*priority = config_setting_get_int(s);
	if (*priority < 0 || *priority > 100000)
		return pp_setting_error(s, L->file, L->err, "%ld is out of "
					"range; must be 0 to 100000 (the values' "
					"priorities are added up per variant)",
					*priority);
	return 0;
}

static int read_value(struct pp_spec_loader *L, const config_setting_t *g,
		      struct pp_axis *axis, struct pp_axis_value *v)
{
	struct pp_strlist outer = PP_STRLIST_INIT;
	const char *suffix = "";
	int rc;

	v->line = config_setting_source_line(g);
	if (pp_spec_read_string(L, g, "name", &v->name, is_value_name,
				"lower-case letters, digits, '.' and '_'") < 0)
		return -1;
	for (size_t i = 0; i < axis->nr_values; i++)
		if (axis->values[i].name && &axis->values[i] != v &&
		    !strcmp(axis->values[i].name, v->name))
			return pp_setting_error(g, L->file, L->err, "axis '%s' "
						"has two values named '%s' "
						"(line %u and here)", axis->name,
						v->name, axis->values[i].line);
	config_setting_lookup_string(g, "suffix", &suffix);
	if (!is_suffix(suffix))
		return pp_setting_error(config_setting_get_member(g, "suffix"),
					L->file, L->err, "'%s' is not valid; must "
					"be \"\" or lower-case letters, digits, "
					"'.' and '-'", suffix);
	v->suffix = xstrdup(suffix);
	build_tools(L->spec, &outer);
	rc = read_settings(L, g, &v->set, &outer);
	pp_strlist_release(&outer);
	if (rc < 0 || read_priority(L, g, &v->priority) < 0 ||
	    read_isa(L, g, &v->forbid_isa) < 0 ||
	    read_isa_limit(L, g, v) < 0 || read_accel(L, g, &v->accel) < 0)
		return -1;
	return read_container(L, g, &v->container);
}

/* First the names of all axes, which every template may use. */
static int read_axis_names(struct pp_spec_loader *L, const config_setting_t *axes)
{
	struct pp_spec *sp = L->spec;

	sp->nr_axes = (size_t)config_setting_length(axes);
	sp->axes = xcalloc(sp->nr_axes + 1, sizeof(*sp->axes));
	if (!sp->nr_axes)
		return pp_setting_error(axes, L->file, L->err, "is empty; list "
					"at least one axis, e.g. ( { name = "
					"\"device\"; values = (...); } )");
	for (size_t i = 0; i < sp->nr_axes; i++) {
		const config_setting_t *g = config_setting_get_elem(axes,
								(unsigned)i);
		struct pp_axis *a = &sp->axes[i];

		a->line = config_setting_source_line(g);
		if (pp_spec_read_string(L, g, "name", &a->name, pp_is_placeholder_name,
					"lower-case letters, digits and '_'") < 0)
			return -1;
		if (pp_strlist_find(&L->names, a->name) >= 0)
			return pp_setting_error(g, L->file, L->err, "the axis "
						"name '%s' is taken (by another "
						"axis or a placeholder: %s)",
						a->name, "name, version, variant,"
						" suffix, test, jobs");
		pp_strlist_push(&L->names, a->name);
	}
	return 0;
}

/* pack = "hwcaps": each value a distinct x86-64 level (isa with no
 * extensions), the lowest the baseline; its suffix unused, since the
 * values share their packages; one such axis per spec. */
static int read_hwcaps_value(struct pp_spec_loader *L, const config_setting_t *g,
			     struct pp_axis *a, size_t j)
{
	struct pp_axis_value *v = &a->values[j];
	const config_setting_t *isa = config_setting_get_member(g, "isa");
	struct pp_isa_limit limit;
	struct pp_err e;
	int extra = 0;

	if (!v->isa)
		return pp_setting_error(g, L->file, L->err, "value '%s' of "
					"axis '%s' (pack = \"hwcaps\") has no "
					"isa; give its x86-64 level, e.g. isa "
					"= \"x86-64-v3\"", v->name, a->name);
	pp_err_init(&e);
	pp_isa_limit_parse(v->isa, &limit, &e); /* read_isa_limit checked it */
	pp_err_release(&e);
	for (size_t i = 0; i < PP_ISA_NR_EXTS; i++)
		extra |= limit.extra[i];
	if (extra)
		return pp_setting_error(isa, L->file, L->err, "'%s' is a level "
					"with extensions; a glibc-hwcaps build "
					"is one of the levels the loader knows:"
					" x86-64, x86-64-v2, x86-64-v3, "
					"x86-64-v4", v->isa);
	/* The values share their packages: a suffix is the value's only
	 * with pack = "packages", so flipping pack is the one change. */
	free(v->suffix);
	v->suffix = xstrdup("");
	v->hwcaps_level = (int)limit.level;
	for (size_t i = 0; i < j; i++)
		if (a->values[i].hwcaps_level == v->hwcaps_level)
			return pp_setting_error(isa, L->file, L->err, "'%s' "
						"is also the level of value "
						"'%s' (line %u); each value of "
						"a pack = \"hwcaps\" axis is "
						"another level", v->isa,
						a->values[i].name,
						a->values[i].line);
	if (!j || v->hwcaps_level < a->values[a->hwcaps_base].hwcaps_level)
		a->hwcaps_base = j;
	return 0;
}

static int read_pack(struct pp_spec_loader *L, const config_setting_t *g,
		     struct pp_axis *a, const config_setting_t *vals)
{
	const config_setting_t *s = config_setting_get_member(g, "pack");
	const char *pack = s ? config_setting_get_string(s) : "packages";

	if (!strcmp(pack, "packages"))
		return 0;
	if (strcmp(pack, "hwcaps"))
		return pp_setting_error(s, L->file, L->err, "'%s' is not valid;"
					" must be \"hwcaps\" (glibc-hwcaps "
					"builds in one package) or "
					"\"packages\" (one package per value)",
					pack);
	for (size_t i = 0; i < L->spec->nr_axes; i++)
		if (L->spec->axes[i].hwcaps)
			return pp_setting_error(s, L->file, L->err, "axis '%s' "
						"is packed as hwcaps already; "
						"one axis may be",
						L->spec->axes[i].name);
	for (size_t j = 0; j < a->nr_values; j++)
		if (read_hwcaps_value(L, config_setting_get_elem(vals,
						(unsigned)j), a, j) < 0)
			return -1;
	a->hwcaps = 1;
	return 0;
}

static int read_axes(struct pp_spec_loader *L, const config_setting_t *axes)
{
	struct pp_spec *sp = L->spec;

	for (size_t i = 0; i < sp->nr_axes; i++) {
		const config_setting_t *g = config_setting_get_elem(axes,
								(unsigned)i);
		const config_setting_t *vals = config_setting_get_member(g,
								"values");
		struct pp_axis *a = &sp->axes[i];

		a->nr_values = (size_t)config_setting_length(vals);
		a->values = xcalloc(a->nr_values + 1, sizeof(*a->values));
		if (!a->nr_values)
			return pp_setting_error(vals, L->file, L->err, "is "
						"empty; an axis needs at least "
						"one value");
		for (size_t j = 0; j < a->nr_values; j++)
			if (read_value(L, config_setting_get_elem(vals,
						(unsigned)j), a,
				       &a->values[j]) < 0)
				return -1;
		if (read_pack(L, g, a, vals) < 0)
			return -1;
	}
	return 0;
}

static int read_image(struct pp_spec_loader *L, const config_setting_t *root)
{
	const config_setting_t *g = config_setting_get_member(root, "image");
	struct pp_image *im = &L->spec->image;

	im->uid = 1000;
	if (!g)
		return 0;
	return pp_spec_read_string(L, g, "registry", &im->registry, NULL, NULL) ||
	       pp_spec_read_string(L, g, "name", &im->name, NULL, NULL) ||
	       pp_spec_read_template(L, g, "tag", &im->tag) ||
	       pp_spec_read_template(L, g, "dev", &im->dev) ||
	       pp_spec_read_string(L, g, "apt_mirror", &im->apt_mirror, NULL, NULL) ||
	       pp_spec_read_string(L, g, "mount", &im->mount, pp_spec_is_abs_path,
				   "an absolute path, e.g. \"/paddle\"") ||
	       read_image_docker(L, g, im) ? -1 : 0;
}

/* The priority of an axis value (a group of axes[].values), or NULL. */
static const config_setting_t *priority_of(const config_setting_t *values,
					   int k)
{
	const config_setting_t *v = config_setting_get_elem(values, (unsigned)k);

	return v ? config_setting_get_member(v, "priority") : NULL;
}

/* A value's priority orders the alternatives of co-installable variants
 * (packages.variants): an exclusive set has none, so it would be ignored
 * without a word. */
static int check_priorities(struct pp_spec_loader *L,
			    const config_setting_t *axes)
{
	int nr = axes ? config_setting_length(axes) : 0;

	for (int i = 0; !L->spec->coinstallable && i < nr; i++) {
		const config_setting_t *values = config_setting_get_member(
			config_setting_get_elem(axes, (unsigned)i), "values");
		int n = values ? config_setting_length(values) : 0;

		for (int k = 0; k < n; k++)
			if (priority_of(values, k))
				return pp_setting_error(priority_of(values, k),
					L->file, L->err, "orders the "
					"update-alternatives of co-installable "
					"variants, but these are exclusive "
					"(packages.variants), one replacing the "
					"other: nothing to choose; remove it or "
					"set packages.variants = "
					"\"coinstallable\"");
	}
	return 0;
}

int pp_spec_read(const config_setting_t *root, const char *file,
		 struct pp_spec *spec, struct pp_err *err)
{
	const config_setting_t *axes = config_setting_get_member(root, "axes");
	struct pp_spec_loader L = { file, err, spec, PP_STRLIST_INIT };
	int rc;

	for (const char *const *n = fixed_names; *n; n++)
		pp_strlist_push(&L.names, *n);
	rc = read_about(&L, root) || read_axis_names(&L, axes) ||
	     read_build(&L, root) || read_axes(&L, axes) ||
	     read_image(&L, root) || pp_spec_read_packages(&L, root) ||
	     check_priorities(&L, axes) || read_apps(&L, root) ? -1 : 0;
	pp_strlist_release(&L.names);
	return rc;
}

void pp_spec_release_settings(struct pp_spec *spec)
{
	settings_release(&spec->build);
	system_release(&spec->system);
	for (size_t i = 0; i < spec->nr_axes; i++) {
		struct pp_axis *a = &spec->axes[i];

		for (size_t j = 0; j < a->nr_values; j++) {
			struct pp_axis_value *v = &a->values[j];

			free(v->name);
			free(v->suffix);
			settings_release(&v->set);
			pp_strlist_release(&v->forbid_isa);
			free(v->accel.what);
			free(v->isa);
			pp_strlist_release(&v->isa_require);
			pp_strlist_release(&v->accel.libs);
			free(v->container.base);
			free(v->container.dev_base);
			pp_strlist_release(&v->container.build_flags);
			pp_strlist_release(&v->container.run_flags);
			pp_strlist_release(&v->container.env);
		}
		free(a->values);
		free(a->name);
	}
	free(spec->axes);
}
