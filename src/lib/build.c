/* Planning a build: for each selected variant, the tools it needs, its
 * settings with placeholders expanded, and the command of every step. */
#include "buildint.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "proc.h"
#include "xalloc.h"

const char *pp_phase_name(enum pp_phase phase)
{
	static const char *const names[] = {
		"waiting", "copy", "configure", "build", "test", "install",
		"done", "failed", "skipped",
	};

	return (size_t)phase < ARRAY_SIZE(names) ? names[phase] : "?";
}

/* Appends path's components to sb (an absolute path), "." left out and
 * ".." taking the last one off. */
static void add_components(struct strbuf *sb, const char *path)
{
	while (*path) {
		size_t len = strcspn(path, "/");

		if (len == 2 && !strncmp(path, "..", 2)) {
			while (sb->len > 0 && sb->buf[sb->len - 1] != '/')
				strbuf_setlen(sb, sb->len - 1);
			strbuf_setlen(sb, sb->len > 1 ? sb->len - 1 : sb->len);
		} else if (len && !(len == 1 && *path == '.')) {
			if (sb->buf[sb->len - 1] != '/')
				strbuf_addch(sb, '/');
			strbuf_add(sb, path, len);
		}
		path += len + strspn(path + len, "/");
	}
}

/* path made absolute against the current directory, without "." and
 * ".." (the same words whether the directory is there yet or not, as
 * the configure stamps hold them). */
static char *absolute(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *cwd = *path == '/' ? NULL : getcwd(NULL, 0);

	strbuf_addstr(&sb, "/");
	if (cwd)
		add_components(&sb, cwd);
	free(cwd);
	add_components(&sb, path);
	return strbuf_detach(&sb, NULL);
}

/* The source tree's real path (check_source saw it is a directory): the
 * one dpkg-buildflags' -ffile-prefix-map names, as it asks there, so that
 * compilers given SOURCE/x.c map it (a path with ".." or a symbolic link
 * would not be, and the build's path would stay in the debug info). */
static char *real_dir(const char *path)
{
	char *real = realpath(path, NULL);

	return real ? real : absolute(path);
}

/* Looks up each tool of set; on the host a missing one skips the variant
 * (*why says which), in an image the tools are the image's business. */
static void find_tools(const struct pp_settings *set, int in_image,
		       struct pp_strlist *tools, struct strbuf *why)
{
	for (size_t i = 0; i < set->nr_needs && !why->len; i++) {
		const struct pp_tool *t = &set->needs[i];
		char *path = in_image ? xstrdup(t->program) :
			     pp_find_program(t->program, &t->search);
		char *dirs = pp_strlist_join(&t->search, ", ");

		if (path)
			pp_strlist_pushf(tools, "%s=%s", t->program, path);
		else
			strbuf_addf(why, "needs %s (%s), which is not installed "
				    "here: not in PATH%s%s", t->program, t->what,
				    *dirs ? " nor in " : "", dirs);
		free(dirs);
		free(path);
	}
}

/* Sets NAME=VALUE in env, replacing an earlier NAME. */
static void env_set(struct pp_strlist *env, char *assignment)
{
	size_t len = strcspn(assignment, "=") + 1;

	for (size_t i = 0; i < env->nr; i++)
		if (!strncmp(env->items[i], assignment, len)) {
			free(env->items[i]);
			env->items[i] = assignment;
			return;
		}
	pp_strlist_push_owned(env, assignment);
}

static int expand_into(const struct pp_strlist *in,
		       const struct pp_expand_ctx *ctx, struct pp_strlist *out,
		       int is_env, struct pp_err *err)
{
	for (size_t i = 0; i < in->nr; i++) {
		struct strbuf sb = STRBUF_INIT;

		if (pp_spec_expand(in->items[i], ctx, &sb, err) < 0) {
			strbuf_release(&sb);
			return -1;
		}
		if (is_env)
			env_set(out, strbuf_detach(&sb, NULL));
		else
			pp_strlist_push_owned(out, strbuf_detach(&sb, NULL));
	}
	return 0;
}

static int add_settings(const struct pp_settings *set,
			const struct pp_expand_ctx *ctx, struct settings_out *o,
			struct pp_err *err)
{
	return expand_into(&set->cmake, ctx, &o->cmake, 0, err) ||
	       expand_into(&set->cflags, ctx, &o->cflags, 0, err) ||
	       expand_into(&set->cppflags, ctx, &o->cppflags, 0, err) ||
	       expand_into(&set->ldflags, ctx, &o->ldflags, 0, err) ||
	       expand_into(&set->make_vars, ctx, &o->make_vars, 0, err) ||
	       expand_into(&set->configure_args, ctx, &o->configure_args, 0,
			   err) ||
	       expand_into(&set->meson_args, ctx, &o->meson_args, 0, err) ||
	       expand_into(&set->env, ctx, &o->env, 1, err) ? -1 : 0;
}

/* Whether the words of flags (separated by spaces) include word. */
static int has_word(const char *flags, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = flags; (p = strstr(p, word)); p++)
		if ((p == flags || p[-1] == ' ') && (!p[len] || p[len] == ' '))
			return 1;
	return 0;
}

/* dpkg-buildflags' value of name (with build.buildflags), then padpack's
 * prefix maps, then the spec's flags: the variant's come last, so they
 * win. */
static char *joined_flags(const struct pp_build *b, const char *name,
			  const struct pp_strlist *maps,
			  const struct pp_strlist *more)
{
	struct pp_strlist all = PP_STRLIST_INIT;
	size_t len = strlen(name);
	char *s;

	for (size_t i = 0; i < b->buildflags.nr; i++)
		if (!strncmp(b->buildflags.items[i], name, len) &&
		    b->buildflags.items[i][len] == '=' &&
		    b->buildflags.items[i][len + 1])
			pp_strlist_push(&all, b->buildflags.items[i] + len + 1);
	for (size_t i = 0; i < maps->nr; i++)
		if (!all.nr || !has_word(all.items[0], maps->items[i]))
			pp_strlist_push(&all, maps->items[i]);
	pp_strlist_extend(&all, more);
	s = pp_strlist_join(&all, " ");
	pp_strlist_release(&all);
	return s;
}

/* path with symbolic links resolved as far as it exists (the rest, not
 * made yet, as it is): the directory a compiler run there calls its own
 * (getcwd), and the one meson measures its way to the source from. */
static char *real_as_far(const char *path)
{
	size_t len = strlen(path);
	char *head = xstrdup(path), *real = NULL, *out;

	while (len > 1 && !(real = realpath(head, NULL))) {
		while (len > 1 && head[len - 1] != '/')
			len--;
		len -= len > 1;
		head[len] = '\0';
	}
	free(head);
	if (!real)
		return xstrdup(path);
	out = xmalloc(strlen(real) + strlen(path + len) + 1);
	sprintf(out, "%s%s", strcmp(real, "/") ? real : "", path + len);
	free(real);
	return out;
}

/* The relative path from directory from to directory to (both real
 * and absolute, not the same), as meson writes it: "../../src". */
static char *relative_path(const char *from, const char *to)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, common = 0;

	for (i = 0; from[i] && from[i] == to[i]; i++)
		if (from[i] == '/')
			common = i;
	if ((!from[i] || from[i] == '/') && (!to[i] || to[i] == '/'))
		common = i;
	for (const char *p = from + common; *p; p++)
		if (*p == '/')
			strbuf_addstr(&sb, sb.len ? "/.." : "..");
	if (to[common])
		strbuf_addstr(&sb, to + common + !sb.len);
	return strbuf_detach(&sb, NULL);
}

/* -ffile-prefix-map of the source and the variant's build tree (its
 * path as given and as the compiler's getcwd sees it), so that the same
 * sources give the same debug information and __FILE__ wherever the
 * source and BUILD_DIR are: the source as ".", as dpkg-buildflags maps
 * it, the build tree as "./obj-VARIANT" (make: "."; its tree is a copy
 * of the source), meson's relative way to the source too. GCC takes the
 * last map that matches, so a build tree inside the source is its own. */
static void prefix_maps(const struct pp_build *b, const struct pp_job *j,
			struct pp_strlist *maps)
{
	const char *source = pp_build_source_seen(b);
	int make = b->spec->system.kind == PP_BUILD_MAKE;
	char *real_obj = b->image ? xstrdup(j->obj) : real_as_far(j->obj);
	struct strbuf to = STRBUF_INIT;

	if (make)
		strbuf_addch(&to, '.');
	else
		strbuf_addf(&to, "./obj-%s", j->variant->name);
	pp_strlist_pushf(maps, "-ffile-prefix-map=%s=.", source);
	if (b->spec->system.kind == PP_BUILD_MESON) {
		char *rel = relative_path(real_obj, source);

		pp_strlist_pushf(maps, "-ffile-prefix-map=%s/=./", rel);
		free(rel);
	}
	pp_strlist_pushf(maps, "-ffile-prefix-map=%s=%s", j->obj, to.buf);
	if (strcmp(real_obj, j->obj))
		pp_strlist_pushf(maps, "-ffile-prefix-map=%s=%s", real_obj,
				 to.buf);
	free(real_obj);
	strbuf_release(&to);
}

static void set_flag(struct pp_strlist *env, const char *name,
		     const char *first, const char *value)
{
	struct strbuf sb = STRBUF_INIT;

	if (!*value && !*first)
		return;
	strbuf_addf(&sb, "%s=%s%s%s", name, first, *first && *value ? " " : "",
		    value);
	env_set(env, strbuf_detach(&sb, NULL));
}

/* CFLAGS, CXXFLAGS, CPPFLAGS and LDFLAGS of the variant's environment,
 * the prefix maps in each compiler's flags (FFLAGS, FCFLAGS too when
 * dpkg-buildflags gives them); CMake reads no CPPFLAGS, so with CMake
 * they go before the others, as debhelper does. */
static void add_flags(const struct pp_build *b, const struct pp_job *j,
		      struct settings_out *o)
{
	struct pp_strlist maps = PP_STRLIST_INIT, none = PP_STRLIST_INIT;
	char *cflags, *cxxflags, *cppflags, *ldflags;
	int cmake = b->spec->system.kind == PP_BUILD_CMAKE;

	prefix_maps(b, j, &maps);
	cflags = joined_flags(b, "CFLAGS", &maps, &o->cflags);
	cxxflags = joined_flags(b, "CXXFLAGS", &maps, &o->cflags);
	cppflags = joined_flags(b, "CPPFLAGS", &none, &o->cppflags);
	ldflags = joined_flags(b, "LDFLAGS", &none, &o->ldflags);
	set_flag(&o->env, "CFLAGS", cmake ? cppflags : "", cflags);
	set_flag(&o->env, "CXXFLAGS", cmake ? cppflags : "", cxxflags);
	if (!cmake)
		set_flag(&o->env, "CPPFLAGS", "", cppflags);
	set_flag(&o->env, "LDFLAGS", "", ldflags);
	for (size_t i = 0; i < b->buildflags.nr; i++) {
		const char *nv = b->buildflags.items[i];
		size_t len = strcspn(nv, "=");

		if (!strncmp(nv, "FFLAGS=", 7) || !strncmp(nv, "FCFLAGS=", 8)) {
			char *name = xstrndup(nv, len);
			char *value = joined_flags(b, name, &maps, &none);

			set_flag(&o->env, name, "", value);
			free(name);
			free(value);
		} else if (strncmp(nv, "CFLAGS=", 7) &&
			   strncmp(nv, "CXXFLAGS=", 9) &&
			   strncmp(nv, "CPPFLAGS=", 9) &&
			   strncmp(nv, "LDFLAGS=", 8)) {
			env_set(&o->env, xstrdup(nv));
		}
	}
	pp_strlist_release(&maps);
	free(cflags);
	free(cxxflags);
	free(cppflags);
	free(ldflags);
}

/* The build section's settings, then each axis value's in axis order.
 * The compiler flags reach CMake as CFLAGS and CXXFLAGS, which it reads
 * when configuring from no cache, as every configure here does. */
static int variant_settings(const struct pp_build *b, const struct pp_job *j,
			    const struct pp_expand_ctx *ctx,
			    struct settings_out *o, struct pp_err *err)
{
	const struct pp_variant *v = j->variant;

	if (add_settings(&b->spec->build, ctx, o, err) < 0 ||
	    expand_into(&b->spec->test_args, ctx, &o->test_args, 0, err) < 0)
		return -1;
	for (int i = 0; i < PP_NR_CMD_STEPS; i++)
		if (expand_into(&b->spec->system.commands[i], ctx,
				&o->commands[i], 0, err) < 0)
			return -1;
	if (expand_into(&b->spec->system.after_build, ctx, &o->after_build, 0,
			err) < 0 ||
	    expand_into(&b->spec->system.after_install, ctx,
			&o->after_install, 0, err) < 0)
		return -1;
	for (size_t a = 0; a < b->spec->nr_axes; a++)
		if (add_settings(&v->values[a]->set, ctx, o, err) < 0 ||
		    expand_into(&v->values[a]->container.build_flags, ctx,
				&o->engine_flags, 0, err) < 0)
			return -1;
	add_flags(b, j, o);
	return 0;
}

static void settings_release(struct settings_out *o)
{
	pp_strlist_release(&o->cmake);
	pp_strlist_release(&o->cflags);
	pp_strlist_release(&o->cppflags);
	pp_strlist_release(&o->ldflags);
	pp_strlist_release(&o->env);
	pp_strlist_release(&o->make_vars);
	pp_strlist_release(&o->configure_args);
	pp_strlist_release(&o->meson_args);
	pp_strlist_release(&o->test_args);
	pp_strlist_release(&o->engine_flags);
	for (int i = 0; i < PP_NR_CMD_STEPS; i++)
		pp_strlist_release(&o->commands[i]);
	pp_strlist_release(&o->after_build);
	pp_strlist_release(&o->after_install);
}

/* Runs the step in the image instead: the source at the spec's mount
 * point, the variant's directory at its own path, the environment as
 * -e flags, the device's build flags, files owned by the caller. */
static void in_container(const struct pp_build *b, const struct pp_job *j,
			 const struct pp_strlist *engine_flags, struct pp_step *st)
{
	struct pp_strlist argv = PP_STRLIST_INIT;

	pp_strlist_push(&argv, b->engine);
	pp_strlist_push(&argv, "run");
	pp_strlist_push(&argv, "--rm");
	pp_strlist_pushf(&argv, "--user=%u:%u", (unsigned)getuid(),
			 (unsigned)getgid());
	pp_strlist_push(&argv, "-v");
	pp_strlist_pushf(&argv, "%s:%s", b->source, pp_build_source_seen(b));
	pp_strlist_push(&argv, "-v");
	pp_strlist_pushf(&argv, "%s:%s", j->dir, j->dir);
	pp_strlist_pushf(&argv, "--workdir=%s", st->cwd ? st->cwd : j->dir);
	for (size_t i = 0; i < st->env.nr; i++) {
		pp_strlist_push(&argv, "-e");
		pp_strlist_push(&argv, st->env.items[i]);
	}
	pp_strlist_extend(&argv, engine_flags);
	pp_strlist_push(&argv, b->image);
	pp_strlist_extend(&argv, &st->argv);
	pp_strlist_release(&st->argv);
	pp_strlist_release(&st->env);
	st->argv = argv;
	free(st->cwd);
	st->cwd = NULL;
}

static char *path_join(const char *dir, const char *name)
{
	char *p = xmalloc(strlen(dir) + strlen(name) + 2);

	sprintf(p, "%s/%s", dir, name);
	return p;
}

/* The paths of a job, and whether its tools are here (else: skipped). */
static int job_init(struct pp_build *b, struct pp_job *j,
		    const struct pp_variant *v, const char *build_dir,
		    struct pp_strlist *tools, int require_all,
		    struct pp_err *err)
{
	struct strbuf why = STRBUF_INIT;

	j->variant = v;
	j->pid = -1;
	j->log_fd = -1;
	j->dir = path_join(build_dir, v->name);
	j->obj = path_join(j->dir, b->image ? "obj-image" : "obj");
	j->stage = path_join(j->dir, "stage");
	j->log = path_join(j->dir, "build.log");
	j->stamp = path_join(j->obj, "padpack-configure.stamp");
	find_tools(&b->spec->build, !!b->image, tools, &why);
	for (size_t a = 0; a < b->spec->nr_axes; a++)
		find_tools(&v->values[a]->set, !!b->image, tools, &why);
	if (why.len && require_all) {
		pp_err_set(err, PP_EXIT_BUILD, "variant %s %s; install it or "
			   "leave out --require-all", v->name, why.buf);
		strbuf_release(&why);
		return -1;
	}
	if (why.len) {
		j->phase = PP_PHASE_SKIPPED;
		j->message = strbuf_detach(&why, NULL);
	}
	strbuf_release(&why);
	return 0;
}

void pp_step_stamp(const struct pp_step *st, struct strbuf *out)
{
	for (size_t i = 0; i < st->argv.nr; i++)
		strbuf_addf(out, "%s\n", st->argv.items[i]);
	strbuf_addstr(out, "--- environment\n");
	for (size_t i = 0; i < st->env.nr; i++)
		strbuf_addf(out, "%s\n", st->env.items[i]);
}

/* The tree in obj is set up as wanted when the last configure there ran
 * with the same command and environment (make: the same variables and
 * environment); a configure is then skipped, and else it starts afresh.
 * The build steps notice changed sources by themselves (CMake and meson
 * also changed build files). */
static void check_up_to_date(struct pp_job *j)
{
	struct strbuf want = STRBUF_INIT, have = STRBUF_INIT;
	struct pp_err ignored;
	int same = 0;

	if (!j->stamp_text && j->steps[0].phase == PP_PHASE_CONFIGURE) {
		pp_step_stamp(&j->steps[0], &want);
		j->stamp_text = strbuf_detach(&want, NULL);
	}
	if (!j->stamp_text)
		return;
	pp_err_init(&ignored);
	if ((!j->tree_mark || !access(j->tree_mark, F_OK)) &&
	    !pp_read_file(j->stamp, &have, &ignored))
		same = !strcmp(j->stamp_text, have.buf);
	pp_err_release(&ignored);
	strbuf_release(&have);
	j->fresh = !same;
	if (same && j->steps[0].phase == PP_PHASE_CONFIGURE)
		j->steps[0].up_to_date = 1;
}

static int job_steps(struct pp_build *b, struct pp_job *j,
		     const struct pp_strlist *tools,
		     const struct pp_build_opts *opts, struct pp_err *err)
{
	struct pp_expand_ctx ctx = { b->spec, j->variant, b->version, b->test,
				     j->compile_jobs, tools };
	struct settings_out o;

	memset(&o, 0, sizeof(o));
	if (variant_settings(b, j, &ctx, &o, err) < 0) {
		settings_release(&o);
		return -1;
	}
	/* meson finds ccache by itself, and a Makefile may name it: ccache
	 * then runs the compiler as it is */
	if (!opts->ccache)
		env_set(&o.env, xstrdup("CCACHE_DISABLE=1"));
	pp_system_steps(b, j, &o, opts->ccache);
	/* a copy of the source is made on the host */
	for (size_t i = 0; b->image && i < j->nr_steps; i++)
		if (j->steps[i].phase != PP_PHASE_COPY)
			in_container(b, j, &o.engine_flags, &j->steps[i]);
	settings_release(&o);
	check_up_to_date(j);
	/* --fresh: nothing of the tree is kept, objects neither (sources
	 * replaced by older files, as a release unpacked over the last one,
	 * look older than the objects made from what they replaced) */
	if (opts->fresh) {
		j->fresh = 1;
		j->keep_objects = 0;
		j->steps[0].up_to_date = 0;
	}
	return 0;
}

int pp_container_engine(const char *name, char **path, struct pp_err *err)
{
	if (name) {
		*path = pp_find_program(name, NULL);
		if (!*path)
			return pp_err_set(err, PP_EXIT_BUILD, "container engine "
					  "'%s' is not installed (not in PATH)",
					  name);
		return 0;
	}
	*path = pp_find_program("docker", NULL);
	if (!*path)
		*path = pp_find_program("podman", NULL);
	if (!*path)
		return pp_err_set(err, PP_EXIT_BUILD, "no container engine is "
				  "installed: neither docker nor podman is in "
				  "PATH; install one (apt-get install docker.io "
				  "or podman) or build on the host, without "
				  "--in-image");
	return 0;
}

static int check_source(const char *source, enum pp_build_kind kind,
			struct pp_err *err)
{
	struct stat st;
	const char *hint, *file = pp_system_source_file(kind, &hint);
	char *path;
	int rc = 0;

	if (stat(source, &st) < 0 || !S_ISDIR(st.st_mode))
		return pp_err_set(err, PP_EXIT_IO, "source tree '%s' is not a "
				  "directory%s%s", source, errno ? ": " : "",
				  errno ? strerror(errno) : "");
	if (!file)
		return 0;
	path = path_join(source, file);
	if (access(path, R_OK) < 0)
		rc = pp_err_set(err, PP_EXIT_INPUT, "source tree '%s' has no "
				"%s; %s", source, file, hint);
	free(path);
	return rc;
}

/* NAME=VALUE of dpkg-buildflags' flags, for build.buildflags, asked in
 * the source tree as debhelper does: its -ffile-prefix-map then names the
 * source, not wherever padpack runs (which would configure anew). */
static int get_buildflags(const char *source, struct pp_strlist *out,
			  struct pp_err *err)
{
	static const char *const names[] = {
		"CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "FFLAGS", "FCFLAGS",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char *argv[] = { "dpkg-buildflags", "--get", (char *)names[i],
				 NULL };
		struct strbuf sb = STRBUF_INIT;
		int status = -1;

		if (pp_proc_capture(argv, source, &sb, &status, err) < 0 ||
		    status != 0) {
			strbuf_release(&sb);
			pp_err_set(err, PP_EXIT_BUILD, "build.buildflags: "
				   "dpkg-buildflags --get %s failed; install "
				   "dpkg-dev or set buildflags = false",
				   names[i]);
			return -1;
		}
		strbuf_rtrim(&sb);
		pp_strlist_pushf(out, "%s=%s", names[i], sb.buf);
		strbuf_release(&sb);
	}
	return 0;
}

/* The Debian multiarch tuple libraries go under (cmake, autotools, meson). */
static int get_multiarch(char **out, struct pp_err *err)
{
	char *argv[] = { "dpkg-architecture", "-qDEB_HOST_MULTIARCH", NULL };
	struct strbuf sb = STRBUF_INIT;
	int status = -1;

	if (pp_proc_capture(argv, NULL, &sb, &status, err) < 0 ||
	    status != 0 || (strbuf_rtrim(&sb), !sb.len)) {
		strbuf_release(&sb);
		return pp_err_set(err, PP_EXIT_BUILD, "dpkg-architecture "
				  "-qDEB_HOST_MULTIARCH failed (it names the "
				  "library directory); install dpkg-dev");
	}
	*out = strbuf_detach(&sb, NULL);
	return 0;
}

/* What the host says once for every variant: flags, library directory. */
static int host_settings(struct pp_build *b, struct pp_err *err)
{
	enum pp_build_kind kind = b->spec->system.kind;

	if (b->spec->system.buildflags &&
	    get_buildflags(b->source, &b->buildflags, err) < 0)
		return -1;
	if (kind != PP_BUILD_MAKE && kind != PP_BUILD_COMMANDS)
		return get_multiarch(&b->multiarch, err);
	return 0;
}

/* The image to build in: the one given, else the spec's image.dev. */
static int dev_image(struct pp_build *b, const char *given,
		     struct pp_err *err)
{
	struct pp_expand_ctx ctx = { b->spec, NULL, b->version, b->test, 1,
				     NULL };
	struct strbuf sb = STRBUF_INIT;

	if (*given) {
		b->image = xstrdup(given);
		return 0;
	}
	if (!b->spec->image.dev)
		return pp_err_set(err, PP_EXIT_USAGE, "--in-image without IMAGE "
				  "needs image.dev in %s; name the image: "
				  "--in-image=IMAGE", b->spec->path);
	if (pp_spec_expand(b->spec->image.dev, &ctx, &sb, err) < 0) {
		strbuf_release(&sb);
		return -1;
	}
	b->image = strbuf_detach(&sb, NULL);
	return 0;
}

static int plan_setup(struct pp_build *b, const struct pp_spec *spec,
		      const struct pp_build_opts *opts, struct pp_err *err)
{
	memset(b, 0, sizeof(*b));
	b->spec = spec;
	errno = 0;
	if (check_source(opts->source ? opts->source : spec->source,
			 spec->system.kind, err) < 0)
		return -1;
	b->source = real_dir(opts->source ? opts->source : spec->source);
	if (host_settings(b, err) < 0)
		return -1;
	if (pp_spec_version(spec, b->source, &b->version, &b->version_origin,
			    err) < 0)
		return -1;
	b->test = opts->test >= 0 ? opts->test : spec->test;
	if (!opts->image)
		return 0;
	if (dev_image(b, opts->image, err) < 0)
		return -1;
	if (pp_container_engine(opts->engine, &b->engine, err) == 0)
		return 0;
	if (!opts->dry_run)
		return -1;
	/* a dry run shows the command all the same */
	pp_warn(err, "padpack: warning: %s", err->msg);
	err->code = PP_EXIT_OK;
	err->msg[0] = '\0';
	b->engine = xstrdup(opts->engine ? opts->engine : "docker");
	return 0;
}

/* Each variant's compile jobs. Fewer variants than jobs all build at
 * once, so the jobs left over by an uneven division (-j3, two variants)
 * go one each to the first of them: every job is used. */
static void share_jobs(struct pp_build *b, int jobs)
{
	int extra = jobs - b->compile_jobs * b->parallel;

	for (size_t i = 0; i < b->nr_jobs; i++) {
		struct pp_job *j = &b->jobs[i];

		j->compile_jobs = b->compile_jobs;
		if (j->phase != PP_PHASE_SKIPPED && extra > 0) {
			j->compile_jobs++;
			extra--;
		}
	}
}

int pp_build_plan(struct pp_build *b, const struct pp_spec *spec,
		  const unsigned char *selected,
		  const struct pp_build_opts *opts, struct pp_err *err)
{
	struct pp_strlist *tools;
	size_t runnable = 0;
	int rc = 0;

	if (plan_setup(b, spec, opts, err) < 0)
		return -1;
	b->build_dir = absolute(opts->build_dir);
	if (pp_system_check_source(b, err) < 0)
		return -1;
	b->jobs = xcalloc(spec->nr_variants + 1, sizeof(*b->jobs));
	tools = xcalloc(spec->nr_variants + 1, sizeof(*tools));
	for (size_t i = 0; !rc && i < spec->nr_variants; i++) {
		struct pp_job *j = &b->jobs[b->nr_jobs];

		if (!selected[i])
			continue;
		rc = job_init(b, j, &spec->variants[i], b->build_dir,
			      &tools[b->nr_jobs++], opts->require_all, err);
		runnable += j->phase != PP_PHASE_SKIPPED;
	}
	b->parallel = runnable < (size_t)opts->jobs ? (int)runnable : opts->jobs;
	b->parallel = b->parallel < 1 ? 1 : b->parallel;
	b->compile_jobs = opts->jobs / b->parallel < 1 ? 1 :
			  opts->jobs / b->parallel;
	share_jobs(b, opts->jobs);
	for (size_t i = 0; !rc && i < b->nr_jobs; i++)
		if (b->jobs[i].phase != PP_PHASE_SKIPPED)
			rc = job_steps(b, &b->jobs[i], &tools[i], opts, err);
	for (size_t i = 0; i < b->nr_jobs; i++)
		pp_strlist_release(&tools[i]);
	free(tools);
	return rc;
}

void pp_build_release(struct pp_build *b)
{
	for (size_t i = 0; i < b->nr_jobs; i++) {
		struct pp_job *j = &b->jobs[i];

		for (size_t s = 0; s < j->nr_steps; s++) {
			pp_strlist_release(&j->steps[s].argv);
			pp_strlist_release(&j->steps[s].env);
			free(j->steps[s].cwd);
		}
		free(j->dir);
		free(j->obj);
		free(j->stage);
		free(j->log);
		free(j->stamp);
		free(j->stamp_text);
		free(j->tree_mark);
		free(j->message);
		if (j->log_fd >= 0)
			close(j->log_fd);
	}
	free(b->jobs);
	free(b->source);
	free(b->build_dir);
	free(b->version);
	free(b->engine);
	free(b->image);
	free(b->multiarch);
	pp_strlist_release(&b->buildflags);
	memset(b, 0, sizeof(*b));
}
