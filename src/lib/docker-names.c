/* padpack docker: image names and tags, the base of the development image,
 * which packages a production image installs, and the paths the contexts
 * and scripts agree on (the mount point, an app copy's name). The lowest
 * of the docker files: it calls none of dockerfile.c, docker-scripts.c
 * or docker-context.c, which all call down into it. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control.h"
#include "deb.h"
#include "docker-names.h"
#include "dockerint.h"
#include "fsutil.h"
#include "version.h"
#include "xalloc.h"

const char *pp_mount(const struct pp_spec *spec)
{
	return spec->image.mount ? spec->image.mount : "/paddle";
}

/* The last component of path (trailing slashes stay on it). */
const char *pp_docker_base_name(const char *path)
{
	size_t len = strlen(path);
	const char *p;

	while (len > 1 && path[len - 1] == '/')
		len--;
	for (p = path + len; p > path && p[-1] != '/'; p--)
		;
	return p;
}

void pp_app_copy_name(struct strbuf *out, size_t i, const char *copy)
{
	const char *colon = strchr(copy, ':');
	char *src = xstrndup(copy, (size_t)(colon - copy));
	const char *name = pp_docker_base_name(src);
	size_t len = strlen(name);

	while (len > 1 && name[len - 1] == '/')
		len--;
	strbuf_addf(out, "copy%zu/%.*s", i + 1, (int)len, name);
	free(src);
}

void pp_docker_repo(const struct pp_spec *spec,
		    const struct pp_docker_opts *o, const char *name,
		    struct strbuf *out)
{
	const char *registry = o->registry ? o->registry : spec->image.registry;

	if (registry && *registry)
		strbuf_addf(out, "%s/", registry);
	strbuf_addstr(out, name);
}

static char *path_join(const char *dir, const char *name)
{
	char *p = xmalloc(strlen(dir) + strlen(name) + 2);

	sprintf(p, "%s/%s", dir, name);
	return p;
}

static int expand(const struct pp_spec *spec, const char *version,
		  const struct pp_variant *v, const char *tmpl,
		  struct strbuf *out, struct pp_err *err)
{
	struct pp_expand_ctx ctx = { spec, v, version, 1, 1, NULL };

	return pp_spec_expand(tmpl, &ctx, out, err);
}

static void push_new(struct pp_strlist *tags, const char *tag)
{
	if (pp_strlist_find(tags, tag) < 0)
		pp_strlist_push(tags, tag);
}

/* REPO:TAG plus "-SUFFIX" (the variant's suffix, or "dev"). */
static int add_tag(const struct pp_spec *spec, const struct pp_docker_opts *o,
		   const struct pp_variant *v, const char *tmpl,
		   struct pp_strlist *tags, struct pp_err *err)
{
	const char *suffix = v ? v->suffix : "dev";
	struct strbuf sb = STRBUF_INIT;
	int rc;

	pp_docker_repo(spec, o, spec->image.name ? spec->image.name :
		       spec->name, &sb);
	strbuf_addch(&sb, ':');
	rc = expand(spec, o->version, v, tmpl, &sb, err);
	if (*suffix)
		strbuf_addf(&sb, "-%s", suffix);
	if (rc == 0)
		push_new(tags, sb.buf);
	strbuf_release(&sb);
	return rc;
}

int pp_docker_tags(const struct pp_spec *spec, const struct pp_docker_opts *o,
		   const struct pp_variant *v, struct pp_strlist *tags,
		   struct pp_err *err)
{
	const struct pp_image *im = &spec->image;
	struct strbuf dev = STRBUF_INIT;
	int rc;

	rc = add_tag(spec, o, v, im->tag ? im->tag : "@version@", tags, err);
	if (rc == 0 && im->latest)
		rc = add_tag(spec, o, v, im->latest, tags, err);
	if (rc == 0 && !v && im->dev) {
		rc = expand(spec, o->version, NULL, im->dev, &dev, err);
		if (rc == 0)
			push_new(tags, dev.buf);
	}
	strbuf_release(&dev);
	return rc;
}

int pp_docker_app_tags(const struct pp_spec *spec,
		       const struct pp_docker_opts *o, const struct pp_app *app,
		       const char *from, struct pp_strlist *tags,
		       struct pp_err *err)
{
	const char *slash = strrchr(from, '/'), *colon;
	struct strbuf sb = STRBUF_INIT;

	colon = strrchr(slash ? slash : from, ':');
	if (!colon || !colon[1] || strchr(colon, '@'))
		return pp_err_set(err, PP_EXIT_USAGE, "--from '%s' has no tag; "
				  "name the production image as REPO:TAG, e.g. "
				  "paddle:0.11.0", from);
	pp_docker_repo(spec, o, app->name, &sb);
	strbuf_addf(&sb, ":%s", colon + 1);
	push_new(tags, sb.buf);
	strbuf_release(&sb);
	return 0;
}

int pp_docker_dev_base(const struct pp_spec *spec, const char *device,
		       const char **base, struct pp_err *err)
{
	struct strbuf known = STRBUF_INIT;

	*base = NULL;
	for (size_t a = 0; a < spec->nr_axes; a++)
		for (size_t i = 0; i < spec->axes[a].nr_values; i++) {
			const struct pp_axis_value *v = &spec->axes[a].values[i];

			if (!v->container.dev_base)
				continue;
			strbuf_addf(&known, "%s%s", known.len ? ", " : "",
				    v->name);
			if (!device || !strcmp(device, v->name))
				*base = v->container.dev_base;
		}
	if (*base) {
		strbuf_release(&known);
		return 0;
	}
	if (device)
		pp_err_set(err, PP_EXIT_USAGE, "--device '%s': no axis value "
			   "of that name has container.dev_base in %s; those "
			   "that have: %s", device, spec->path,
			   known.len ? known.buf : "none");
	else
		pp_err_set(err, PP_EXIT_INPUT, "%s: no axis value has "
			   "container.dev_base, the base of the development "
			   "image; set it, e.g. dev_base = \"debian:bookworm\"",
			   spec->path);
	strbuf_release(&known);
	return -1;
}

/* ---- the packages of a production image --------------------------------- */

void pp_prod_input_release(struct pp_prod_input *in)
{
	pp_strlist_release(&in->debs);
	pp_strlist_release(&in->names);
	free(in->sources);
	free(in->keyring);
	free(in->keyring_dest);
	memset(in, 0, sizeof(*in));
}

/* One package of the directory: the newest version of each name. */
struct deb_file {
	char *path;
	struct pp_stanza control;
	struct pp_version version;
};

struct deb_dir {
	struct deb_file *f;
	size_t nr, alloc;
};

static void deb_dir_release(struct deb_dir *d)
{
	for (size_t i = 0; i < d->nr; i++) {
		free(d->f[i].path);
		pp_stanza_release(&d->f[i].control);
		pp_version_release(&d->f[i].version);
	}
	free(d->f);
}

static struct deb_file *find_package(struct deb_dir *d, const char *name)
{
	for (size_t i = 0; i < d->nr; i++)
		if (!strcmp(pp_stanza_get(&d->f[i].control, "Package"), name))
			return &d->f[i];
	return NULL;
}

/* Adds path unless a newer version of its package is there already. */
static int add_deb(struct deb_dir *d, char *path, struct pp_err *err)
{
	struct deb_file f = { path, { 0 }, { 0 } }, *old;
	const char *name, *version;

	if (pp_deb_read_fields(path, &f.control, err) < 0)
		goto fail;
	name = pp_stanza_get(&f.control, "Package");
	version = pp_stanza_get(&f.control, "Version");
	if (!name || !version) {
		pp_err_set(err, PP_EXIT_INPUT, "'%s' has no Package or Version "
			   "field", path);
		goto fail;
	}
	if (pp_version_parse(&f.version, version, err) < 0)
		goto fail;
	old = find_package(d, name);
	if (old && pp_version_cmp(&old->version, &f.version) >= 0)
		goto drop;
	if (old) {
		free(old->path);
		pp_stanza_release(&old->control);
		pp_version_release(&old->version);
		*old = f;
		return 0;
	}
	ARRAY_GROW(d->f, d->alloc, d->nr + 1);
	d->f[d->nr++] = f;
	return 0;
drop:
	pp_version_release(&f.version);
	pp_stanza_release(&f.control);
	free(path);
	return 0;
fail:
	pp_stanza_release(&f.control);
	free(path);
	return -1;
}

static int deb_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int read_deb_dir(const char *dir, struct deb_dir *d, struct pp_err *err)
{
	struct pp_strlist names = PP_STRLIST_INIT;
	struct dirent *de;
	DIR *dh = opendir(dir);
	int rc = 0;

	if (!dh)
		return pp_err_errno(err, PP_EXIT_IO, "cannot read the package "
				    "directory '%s'", dir);
	while ((de = readdir(dh))) {
		size_t len = strlen(de->d_name);

		if (len > 4 && !strcmp(de->d_name + len - 4, ".deb"))
			pp_strlist_push(&names, de->d_name);
	}
	closedir(dh);
	if (names.nr)
		qsort(names.items, names.nr, sizeof(*names.items),
		      deb_name_cmp);
	for (size_t i = 0; rc == 0 && i < names.nr; i++)
		rc = add_deb(d, path_join(dir, names.items[i]), err);
	pp_strlist_release(&names);
	return rc;
}

/* Whether d holds NAME-SUFFIX for some variant's suffix: then NAME is the
 * package of the variant without a suffix, not one shared by all. */
static int has_variant_packages(const struct pp_spec *spec,
				struct deb_dir *d, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	int found = 0;

	for (size_t i = 0; !found && i < spec->nr_variants; i++) {
		if (!*spec->variants[i].suffix)
			continue;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s-%s", name, spec->variants[i].suffix);
		found = find_package(d, sb.buf) != NULL;
	}
	strbuf_release(&sb);
	return found;
}

/* Whether f is the package of one variant other than v, as its
 * description says (PP_VARIANT_SAYS_HEAD): a split of the CPU variant
 * alone names its packages without suffix, and they are not the GPU
 * variant's. */
static int other_variants(const struct deb_file *f, const struct pp_variant *v)
{
	const char *desc = pp_stanza_get(&f->control, "Description");
	const char *at = desc ? strstr(desc, PP_VARIANT_SAYS_HEAD) : NULL;
	size_t n = strlen(v->name), tail = strlen(PP_VARIANT_SAYS_TAIL);

	if (!at || !strstr(at, PP_VARIANT_SAYS_TAIL))
		return 0;
	at += strlen(PP_VARIANT_SAYS_HEAD);
	return strncmp(at, v->name, n) || strncmp(at + n, PP_VARIANT_SAYS_TAIL,
						   tail);
}

/* The runtime template for v: NAME-SUFFIX, else NAME when that package is
 * the same for every variant (no variant has a NAME-SUFFIX of its own, and
 * NAME is no other variant's). */
static int runtime_name(const struct pp_spec *spec, const char *version,
			const struct pp_variant *v, const char *tmpl,
			struct deb_dir *d, struct strbuf *out,
			struct pp_err *err)
{
	struct strbuf base = STRBUF_INIT;

	if (expand(spec, version, v, tmpl, &base, err) < 0) {
		strbuf_release(&base);
		return -1;
	}
	strbuf_addstr(out, base.buf);
	if (*v->suffix)
		strbuf_addf(out, "-%s", v->suffix);
	if (d && *v->suffix && !find_package(d, out->buf) &&
	    !has_variant_packages(spec, d, base.buf) &&
	    !(find_package(d, base.buf) &&
	      other_variants(find_package(d, base.buf), v))) {
		strbuf_reset(out);
		strbuf_addstr(out, base.buf);
	}
	strbuf_release(&base);
	return 0;
}

static void list_packages(struct deb_dir *d, struct strbuf *out)
{
	for (size_t i = 0; i < d->nr; i++)
		strbuf_addf(out, "%s%s", i ? ", " : "",
			    pp_stanza_get(&d->f[i].control, "Package"));
	if (!d->nr)
		strbuf_addstr(out, "none");
}

/* Adds what the chosen packages depend on and d holds, until nothing new
 * comes: a package padpack made that a runtime package needs (a -common
 * part) must come from the same directory. */
static int add_dependencies(struct deb_dir *d, struct pp_prod_input *in,
			    struct pp_err *err)
{
	static const char *const fields[] = { "Pre-Depends", "Depends" };

	for (size_t i = 0; i < in->names.nr; i++) {
		struct deb_file *f = find_package(d, in->names.items[i]);

		for (size_t k = 0; k < 2; k++) {
			const char *value = pp_stanza_get(&f->control, fields[k]);
			struct pp_deps deps = { 0 };

			if (!value)
				continue;
			if (pp_deps_parse(value, PP_DEPS_DEPENDS, &deps, err) < 0)
				return pp_err_prefix(err, "%s: %s: ", f->path,
						     fields[k]);
			for (size_t g = 0; g < deps.nr; g++)
				for (size_t a = 0; a < deps.groups[g].nr; a++) {
					const char *n = deps.groups[g].alts[a].name;

					if (!find_package(d, n))
						continue;
					if (pp_strlist_find(&in->names, n) < 0)
						pp_strlist_push(&in->names, n);
					break;
				}
			pp_deps_release(&deps);
		}
	}
	return 0;
}

int pp_docker_find_debs(const struct pp_spec *spec, const char *version,
			const struct pp_variant *v, const char *dir,
			struct pp_prod_input *in, struct pp_err *err)
{
	struct strbuf name = STRBUF_INIT, have = STRBUF_INIT;
	struct deb_dir d = { 0 };
	int rc = 0;

	in->variant = v;
	if (!spec->image.runtime.nr)
		return pp_err_set(err, PP_EXIT_INPUT, "%s: image.runtime is not "
				  "set; list the packages a production image "
				  "installs, e.g. runtime = [ \"lib@name@1\", "
				  "\"@name@\" ]", spec->path);
	if (read_deb_dir(dir, &d, err) < 0) {
		deb_dir_release(&d);
		return -1;
	}
	for (size_t i = 0; rc == 0 && i < spec->image.runtime.nr; i++) {
		strbuf_reset(&name);
		rc = runtime_name(spec, version, v, spec->image.runtime.items[i],
				  &d, &name, err);
		if (rc == 0 && !find_package(&d, name.buf)) {
			list_packages(&d, &have);
			rc = pp_err_set(err, PP_EXIT_INPUT, "variant %s: no "
					"package %s in %s (image.runtime in %s); "
					"it has: %s; run padpack split first",
					v->name, name.buf, dir, spec->path,
					have.buf);
		} else if (rc == 0 && pp_strlist_find(&in->names, name.buf) < 0) {
			pp_strlist_push(&in->names, name.buf);
		}
	}
	if (rc == 0)
		rc = add_dependencies(&d, in, err);
	for (size_t i = 0; rc == 0 && i < in->names.nr; i++)
		pp_strlist_push(&in->debs, find_package(&d, in->names.items[i])->path);
	strbuf_release(&name);
	strbuf_release(&have);
	deb_dir_release(&d);
	return rc;
}

/* The Signed-By path of a deb822 .sources file. */
static int signed_by(const char *sources, char **out, struct pp_err *err)
{
	struct strbuf text = STRBUF_INIT;
	struct pp_deb822 p;
	struct pp_stanza st;
	const char *v;
	int rc;

	*out = NULL;
	if (pp_read_file(sources, &text, err) < 0)
		return -1;
	pp_deb822_init(&p, text.buf, text.len, sources);
	p.allow_comments = 1;
	pp_stanza_init(&st);
	rc = pp_deb822_next(&p, &st, err);
	v = rc == 1 ? pp_stanza_get(&st, "Signed-By") : NULL;
	if (rc == 1 && (!v || v[0] != '/' || strchr(v, '\n')))
		rc = pp_err_set(err, PP_EXIT_INPUT, "%s: no Signed-By naming a "
				"key file; the repository mode installs only "
				"from a repository signed by a known key "
				"(padpack repo publish writes this file)",
				sources);
	else if (rc == 0)
		rc = pp_err_set(err, PP_EXIT_INPUT, "%s: no source in it",
				sources);
	if (rc == 1) {
		*out = xstrdup(v);
		rc = 0;
	}
	pp_stanza_release(&st);
	strbuf_release(&text);
	return rc;
}

int pp_docker_use_repo(const struct pp_spec *spec, const char *version,
		       const struct pp_variant *v, const char *sources,
		       struct pp_prod_input *in, struct pp_err *err)
{
	struct strbuf name = STRBUF_INIT;
	char *dir;
	int rc = 0;

	in->variant = v;
	if (!spec->image.runtime.nr)
		return pp_err_set(err, PP_EXIT_INPUT, "%s: image.runtime is not "
				  "set; list the packages a production image "
				  "installs", spec->path);
	if (signed_by(sources, &in->keyring_dest, err) < 0)
		return -1;
	in->sources = xstrdup(sources);
	dir = pp_dirname(sources);
	in->keyring = path_join(dir, strrchr(in->keyring_dest, '/') + 1);
	free(dir);
	if (access(in->keyring, R_OK) < 0)
		return pp_err_errno(err, PP_EXIT_IO, "%s: the key its Signed-By "
				    "names is not beside it as '%s'", sources,
				    in->keyring);
	for (size_t i = 0; rc == 0 && i < spec->image.runtime.nr; i++) {
		strbuf_reset(&name);
		rc = runtime_name(spec, version, v, spec->image.runtime.items[i],
				  NULL, &name, err);
		if (rc == 0)
			pp_strlist_push(&in->names, name.buf);
	}
	strbuf_release(&name);
	return rc;
}
