/* Loading a spec (parse, schema, settings), the variant matrix, variant
 * selection, placeholder expansion and the version to build.
 * Layer: the top of the spec module: calls down into spec_read.c
 * (settings; it uses spec_packages.c and spec_setting.c) and variant.c
 * (using the variants); none of them calls back. */
#include "spec.h"

#include <ctype.h>
#include <fnmatch.h>
#include <libconfig.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fsutil.h"
#include "proc.h"
#include "specint.h"
#include "xalloc.h"

/* More variants than this is a mistake in the axes, not a plan. */
#define MAX_VARIANTS 1024

/* libconfig 1.5 ends the process ("input in flex scanner failed") when
 * a file it opens cannot be read, a directory say: the spec and each file
 * it includes (relative to the spec's directory, at any depth, as
 * libconfig reads them) must be a regular file. */
#define MAX_INCLUDE_DEPTH 10 /* libconfig's own limit */

static int check_readable(const char *path, const char *what,
			  struct pp_err *err)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return pp_err_errno(err, PP_EXIT_IO, "cannot read %s '%s'", what,
				    path);
	if (!S_ISREG(st.st_mode))
		return pp_err_set(err, PP_EXIT_INPUT, "%s '%s' is not a regular "
				  "file", what, path);
	return 0;
}

/* The name of an "@include" line (s..eol), or NULL with *len 0. The
 * name runs to the next quote, which may be lines further (text_end). */
static const char *include_name(const char *s, const char *eol,
				const char *text_end, size_t *len)
{
	const char *q;

	*len = 0;
	while (s < eol && (*s == ' ' || *s == '\t'))
		s++;
	if (eol - s < 9 || memcmp(s, "@include", 8) || (s[8] != ' ' &&
							  s[8] != '\t'))
		return NULL;
	for (s += 9; s < eol && (*s == ' ' || *s == '\t'); s++)
		;
	if (s == eol || *s != '"' ||
	    !(q = memchr(s + 1, '"', (size_t)(text_end - s - 1))))
		return NULL;
	*len = (size_t)(q - s - 1);
	return s + 1;
}

/* Checks the @include lines of text (the file path, read already) and,
 * at every depth, the files they name. */
static int check_includes_of(const char *path, const struct strbuf *text,
			     const char *dir, int depth, struct pp_err *err);

static int check_includes(const char *path, const char *dir, int depth,
			  struct pp_err *err)
{
	struct strbuf text = STRBUF_INIT;
	int rc;

	rc = check_readable(path, "included file", err);
	if (!rc)
		rc = pp_read_file(path, &text, err);
	if (!rc)
		rc = check_includes_of(path, &text, dir, depth, err);
	strbuf_release(&text);
	return rc;
}

static int check_includes_of(const char *path, const struct strbuf *text,
			     const char *dir, int depth, struct pp_err *err)
{
	struct strbuf inc = STRBUF_INIT;
	const char *l, *end, *name;
	unsigned line = 0;
	size_t len;
	int rc = 0;

	for (l = text->buf; !rc && depth < MAX_INCLUDE_DEPTH && l &&
	     l < text->buf + text->len; ) {
		end = memchr(l, '\n', text->len - (size_t)(l - text->buf));
		end = end ? end : text->buf + text->len;
		line++;
		name = include_name(l, end, text->buf + text->len, &len);
		if (name && (memchr(name, '\\', len) || memchr(name, '\n', len) ||
			     memchr(name, '\0', len)))
			rc = pp_err_set(err, PP_EXIT_INPUT, "%s:%u: @include of a "
					"name with a backslash escape, a line "
					"break or a NUL byte; write the file "
					"name plainly", path, line);
		if (name && !rc) {
			strbuf_reset(&inc);
			strbuf_addf(&inc, "%s/%.*s", dir, (int)len, name);
			rc = check_includes(inc.buf, dir, depth + 1, err);
			if (rc)
				pp_err_prefix(err, "%s:%u: ", path, line);
		}
		l = end < text->buf + text->len ? end + 1 : NULL;
	}
	strbuf_release(&inc);
	return rc;
}

/* Parses text, the spec path holds. libconfig reads it from memory (its
 * @include files from disk, relative to the spec's directory): a NUL byte,
 * where a string would end, is refused first. */
static int parse(config_t *cfg, const char *path, const struct strbuf *text,
		 struct pp_err *err)
{
	char *dir = pp_dirname(path);
	const char *nul = memchr(text->buf, '\0', text->len);
	int rc = check_includes_of(path, text, dir, 0, err);

	if (!rc && nul)
		rc = pp_err_set(err, PP_EXIT_INPUT, "%s: a NUL byte at offset "
				"%zu; a spec is text", path,
				(size_t)(nul - text->buf));
	config_set_include_dir(cfg, dir); /* @include is relative to it */
	if (!rc && config_read_string(cfg, text->buf) != CONFIG_TRUE)
		rc = pp_err_set(err, PP_EXIT_INPUT, "%s:%d: %s; a spec is "
				"libconfig: name = value; with \"strings\", "
				"[ arrays ], ( lists ) and { groups }",
				config_error_file(cfg) ? config_error_file(cfg) :
							 path,
				config_error_line(cfg), config_error_text(cfg));
	free(dir);
	return rc;
}

/* Number of variants in the full matrix, 0 when over MAX_VARIANTS. */
static size_t matrix_size(const struct pp_spec *spec)
{
	size_t n = 1;

	for (size_t i = 0; i < spec->nr_axes; i++) {
		n *= spec->axes[i].nr_values;
		if (n > MAX_VARIANTS)
			return 0;
	}
	return n;
}

/* Fills v from the value indexes idx[] (one per axis). */
static void make_variant(const struct pp_spec *spec, const size_t *idx,
			 struct pp_variant *v)
{
	struct strbuf name = STRBUF_INIT, suffix = STRBUF_INIT;

	v->values = xcalloc(spec->nr_axes, sizeof(*v->values));
	for (size_t a = 0; a < spec->nr_axes; a++) {
		const struct pp_axis_value *val = &spec->axes[a].values[idx[a]];

		v->values[a] = val;
		strbuf_addf(&name, "%s%s", a ? "-" : "", val->name);
		if (*val->suffix)
			strbuf_addf(&suffix, "%s%s", suffix.len ? "-" : "",
				    val->suffix);
	}
	v->name = strbuf_detach(&name, NULL);
	v->suffix = strbuf_detach(&suffix, NULL);
}

static void free_variant(struct pp_variant *v)
{
	free(v->name);
	free(v->suffix);
	free(v->values);
}

/* Whether an exclude pattern names v; marks the pattern used. */
static int excluded(const struct pp_strlist *exclude, unsigned char *used,
		    const struct pp_variant *v)
{
	int hit = 0;

	for (size_t i = 0; i < exclude->nr; i++)
		if (!fnmatch(exclude->items[i], v->name, 0))
			hit = used[i] = 1;
	return hit;
}

static int unused_exclude(const struct pp_spec *spec,
			  const config_setting_t *list,
			  const unsigned char *used, struct pp_err *err)
{
	for (int i = 0; i < config_setting_length(list); i++)
		if (!used[i]) {
			const config_setting_t *e = config_setting_get_elem(list,
								(unsigned)i);
			char *all = pp_spec_variant_list(spec);

			pp_setting_error(e, spec->path, err, "'%s' matches no "
					 "variant; variants: %s",
					 config_setting_get_string(e), all);
			free(all);
			return -1;
		}
	return 0;
}

/* Walks the matrix in axis order (the last axis varies fastest). */
static void expand_matrix(struct pp_spec *spec, size_t total,
			  const struct pp_strlist *exclude, unsigned char *used)
{
	size_t *idx = xcalloc(spec->nr_axes + 1, sizeof(*idx));

	spec->variants = xcalloc(total, sizeof(*spec->variants));
	for (size_t n = 0; n < total; n++) {
		struct pp_variant *v = &spec->variants[spec->nr_variants];

		make_variant(spec, idx, v);
		if (excluded(exclude, used, v))
			free_variant(v);
		else
			spec->nr_variants++;
		for (size_t a = spec->nr_axes; a-- > 0;) {
			if (++idx[a] < spec->axes[a].nr_values)
				break;
			idx[a] = 0;
		}
	}
	free(idx);
}

long pp_spec_hwcaps_axis(const struct pp_spec *spec)
{
	for (size_t a = 0; a < spec->nr_axes; a++)
		if (spec->axes[a].hwcaps)
			return (long)a;
	return -1;
}

const struct pp_variant *pp_spec_hwcaps_base(const struct pp_spec *spec,
					     const struct pp_variant *v)
{
	long h = pp_spec_hwcaps_axis(spec);
	const struct pp_axis_value *base;

	if (h < 0)
		return NULL;
	base = &spec->axes[h].values[spec->axes[h].hwcaps_base];
	for (size_t i = 0; i < spec->nr_variants; i++) {
		const struct pp_variant *w = &spec->variants[i];
		size_t a;

		for (a = 0; a < spec->nr_axes; a++)
			if (w->values[a] != ((long)a == h ? base : v->values[a]))
				break;
		if (a == spec->nr_axes)
			return w;
	}
	return NULL;
}

int pp_spec_hwcaps_higher(const struct pp_spec *spec,
			  const struct pp_variant *v)
{
	const struct pp_variant *base = pp_spec_hwcaps_base(spec, v);

	return base && base != v;
}

static int hwcaps_siblings(const struct pp_spec *spec,
			   const struct pp_variant *a, const struct pp_variant *b)
{
	const struct pp_variant *base = pp_spec_hwcaps_base(spec, a);

	return base && base == pp_spec_hwcaps_base(spec, b);
}

/* Two variants with one suffix would get the same package/image names,
 * but for glibc-hwcaps builds of one package. */
static int check_suffixes(const struct pp_spec *spec,
			  const config_setting_t *axes, struct pp_err *err)
{
	for (size_t i = 0; i < spec->nr_variants; i++)
		for (size_t j = 0; j < i; j++)
			if (!hwcaps_siblings(spec, &spec->variants[i],
					     &spec->variants[j]) &&
			    !strcmp(spec->variants[i].suffix,
				    spec->variants[j].suffix))
				return pp_setting_error(axes, spec->path, err,
					"variants '%s' and '%s' have the same "
					"suffix '%s', so their packages and "
					"images would have the same names; give "
					"their values different suffixes",
					spec->variants[j].name,
					spec->variants[i].name,
					spec->variants[i].suffix);
	return 0;
}

static int make_variants(struct pp_spec *spec, const config_setting_t *root,
			 struct pp_err *err)
{
	const config_setting_t *axes = config_setting_get_member(root, "axes");
	const config_setting_t *ex = config_setting_get_member(root, "exclude");
	struct pp_strlist exclude = PP_STRLIST_INIT;
	size_t total = matrix_size(spec);
	unsigned char *used;
	int rc = 0;

	if (!total)
		return pp_setting_error(axes, spec->path, err, "the axes make "
					"over %d variants; use fewer values or "
					"exclude some", MAX_VARIANTS);
	for (int i = 0; ex && i < config_setting_length(ex); i++)
		pp_strlist_push(&exclude, config_setting_get_string(
					config_setting_get_elem(ex, (unsigned)i)));
	used = xcalloc(exclude.nr + 1, 1);
	expand_matrix(spec, total, &exclude, used);
	if (ex)
		rc = unused_exclude(spec, ex, used, err);
	if (!rc && !spec->nr_variants)
		rc = pp_setting_error(ex, spec->path, err, "excludes every "
				      "variant; nothing would be built");
	if (!rc)
		rc = check_suffixes(spec, axes, err);
	free(used);
	pp_strlist_release(&exclude);
	return rc;
}

/* ---- defaults ---------------------------------------------------------- */

static void add_string(config_setting_t *g, const char *name, const char *value)
{
	config_setting_set_string(config_setting_add(g, name, CONFIG_TYPE_STRING),
				  value);
}

/* The maintainer dch would write (spec_maintainer.c), with a warning
 * saying what it came from when that was not the environment. */
static void add_maintainer(config_setting_t *root, const char *name,
			   struct pp_err *err)
{
	struct strbuf why = STRBUF_INIT;
	char *maint = pp_maintainer_default(name, &why);

	add_string(root, "maintainer", maint);
	if (why.len && err)
		pp_warn(err, "padpack: no maintainer given; guessed '%s', %s. "
			"Set DEBFULLNAME and DEBEMAIL (as for dch), or give "
			"--maintainer or the spec's maintainer", maint, why.buf);
	free(maint);
	strbuf_release(&why);
}

/* "C library for JSON" -> "C library for JSON." as a description. */
static char *description_from(const char *summary)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = strlen(summary);

	strbuf_addstr(&sb, summary);
	if (n && islower((unsigned char)sb.buf[0]))
		sb.buf[0] = (char)toupper((unsigned char)sb.buf[0]);
	if (n && !strchr(".!?", summary[n - 1]))
		strbuf_addch(&sb, '.');
	return strbuf_detach(&sb, NULL);
}

/* Every setting with a sensible default gets it before the schema is
 * checked, so that a spec of a name and a version works: the maintainer
 * as dch finds it, a summary and a description, and one axis
 * of one value (one build, no suffix). homepage is optional. */
static void add_defaults(config_setting_t *root, struct pp_err *err)
{
	const char *name = NULL, *summary = NULL;

	config_setting_lookup_string(root, "name", &name);
	if (name && !config_setting_get_member(root, "maintainer"))
		add_maintainer(root, name, pp_spec_is_package_name(name) ?
			       err : NULL); /* else the name's error alone */
	if (name && !config_setting_get_member(root, "summary")) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "software of the %s project", name);
		if (sb.len < 80)
			add_string(root, "summary", sb.buf);
		strbuf_release(&sb);
	}
	if (config_setting_lookup_string(root, "summary", &summary) &&
	    !config_setting_get_member(root, "description")) {
		char *d = description_from(summary);

		add_string(root, "description", d);
		free(d);
	}
	if (!config_setting_get_member(root, "axes")) {
		config_setting_t *axes = config_setting_add(root, "axes",
							    CONFIG_TYPE_LIST);
		config_setting_t *axis = config_setting_add(axes, NULL,
							    CONFIG_TYPE_GROUP);
		config_setting_t *vals, *val;

		add_string(axis, "name", "flavor");
		vals = config_setting_add(axis, "values", CONFIG_TYPE_LIST);
		val = config_setting_add(vals, NULL, CONFIG_TYPE_GROUP);
		add_string(val, "name", "default");
		add_string(val, "suffix", "");
	}
}

/* The source tree is relative to the spec's directory. */
static void resolve_source(struct pp_spec *spec)
{
	char *dir = pp_dirname(spec->path);
	char *src = spec->source ? spec->source : xstrdup(".");

	if (*src != '/' && strcmp(dir, ".")) {
		spec->source = xmalloc(strlen(dir) + strlen(src) + 2);
		sprintf(spec->source, "%s/%s", dir, src);
		free(src);
	} else {
		spec->source = src;
	}
	free(dir);
}

int pp_spec_load(const char *path, struct pp_spec *spec, struct pp_err *err)
{
	struct strbuf text = STRBUF_INIT;
	int rc;

	memset(spec, 0, sizeof(*spec));
	rc = check_readable(path, "spec", err);
	if (!rc)
		rc = pp_read_file(path, &text, err);
	if (!rc)
		rc = pp_spec_load_text(path, text.buf, text.len, spec, err);
	strbuf_release(&text);
	return rc;
}

int pp_spec_load_text(const char *path, const char *data, size_t len,
		      struct pp_spec *spec, struct pp_err *err)
{
	struct strbuf text = STRBUF_INIT;
	config_t cfg;
	int rc;

	memset(spec, 0, sizeof(*spec));
	spec->path = xstrdup(path);
	strbuf_add(&text, data, len); /* NUL-terminated for libconfig */
	config_init(&cfg);
	rc = parse(&cfg, path, &text, err);
	strbuf_release(&text);
	if (!rc)
		add_defaults(config_root_setting(&cfg), err);
	if (!rc)
		rc = pp_spec_check_schema(config_root_setting(&cfg), path, err);
	if (!rc)
		rc = pp_spec_read(config_root_setting(&cfg), path, spec, err);
	if (!rc)
		rc = make_variants(spec, config_root_setting(&cfg), err);
	config_destroy(&cfg);
	if (rc) {
		pp_spec_release(spec);
		return -1;
	}
	resolve_source(spec);
	return 0;
}

static void image_release(struct pp_image *im)
{
	free(im->registry);
	free(im->name);
	free(im->tag);
	free(im->dev);
	free(im->apt_mirror);
	free(im->mount);
	free(im->latest);
	free(im->user);
	pp_strlist_release(&im->runtime);
	pp_strlist_release(&im->entrypoint);
	pp_strlist_release(&im->cmd);
	pp_strlist_release(&im->smoke);
	pp_strlist_release(&im->labels);
	free(im->label_prefix);
	pp_strlist_release(&im->dev_packages);
	pp_strlist_release(&im->dev_env);
	free(im->woboq);
}

static void alt_link_release(struct pp_alt_link *l)
{
	free(l->name);
	free(l->link);
	free(l->path);
}

static void alternative_release(struct pp_alternative *a)
{
	alt_link_release(&a->master);
	for (size_t i = 0; i < a->nr_slaves; i++)
		alt_link_release(&a->slaves[i]);
	free(a->slaves);
	free(a->provides);
	pp_strlist_release(&a->variants);
}

void pp_spec_release(struct pp_spec *spec)
{
	for (size_t i = 0; i < spec->nr_variants; i++)
		free_variant(&spec->variants[i]);
	free(spec->variants);
	pp_spec_release_settings(spec);
	for (size_t i = 0; i < spec->nr_needed; i++) {
		free(spec->needed[i].soname);
		free(spec->needed[i].depends);
	}
	free(spec->needed);
	for (size_t i = 0; i < spec->nr_files; i++) {
		free(spec->files[i].path);
		free(spec->files[i].package);
		free(spec->files[i].role);
		free(spec->files[i].drop);
	}
	free(spec->files);
	for (size_t i = 0; i < spec->nr_control; i++) {
		free(spec->control[i].package);
		pp_strlist_release(&spec->control[i].fields);
		pp_strlist_release(&spec->control[i].lintian);
		for (int k = 0; k < PP_NR_SCRIPTS; k++)
			free(spec->control[i].scripts[k]);
	}
	free(spec->control);
	for (size_t i = 0; i < spec->nr_alternatives; i++)
		alternative_release(&spec->alternatives[i]);
	free(spec->alternatives);
	for (size_t i = 0; i < spec->nr_isa_dispatch; i++) {
		free(spec->isa_dispatch[i].path);
		pp_strlist_release(&spec->isa_dispatch[i].symbols);
		pp_strlist_release(&spec->isa_dispatch[i].dispatchers);
	}
	free(spec->isa_dispatch);
	free(spec->revision);
	free(spec->title);
	free(spec->section);
	free(spec->copyright);
	free(spec->changelog);
	free(spec->distribution);
	free(spec->urgency);
	free(spec->templates);
	pp_strlist_release(&spec->build_depends);
	image_release(&spec->image);
	for (size_t i = 0; i < spec->nr_apps; i++)
		pp_app_release(&spec->apps[i]);
	free(spec->apps);
	pp_strlist_release(&spec->test_args);
	free(spec->package);
	free(spec->path);
	free(spec->name);
	free(spec->version);
	free(spec->version_env);
	free(spec->maintainer);
	free(spec->homepage);
	free(spec->summary);
	free(spec->description);
	free(spec->source);
	free(spec->generator);
	memset(spec, 0, sizeof(*spec));
}
